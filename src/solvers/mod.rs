//! One module per learning method, each opening with the problem it solves.

pub mod gaussian;
pub mod knn;
pub mod logistic;
pub mod perceptron;
pub mod smo;
pub mod svm;

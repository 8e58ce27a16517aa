//! One module per learning method, each opening with the problem it solves.

pub mod kernel_ridge;
pub mod knn;
pub mod least_squares;
pub mod logistic;
pub mod perceptron;
pub mod smo;
pub mod svm;

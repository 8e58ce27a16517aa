//! One module per learning method, each opening with the problem it solves.

pub mod bayes_logistic;
pub mod dca;
pub mod gaussian;
pub mod kernel_ridge;
pub mod knn;
pub mod lda;
pub mod least_squares;
pub mod lines;
pub mod logistic;
pub mod means;
pub mod naive_bayes;
pub mod no_bias;
pub mod novelty;
pub mod nu_svc;
pub mod one_class;
pub mod perceptron;
pub mod qda;
pub mod regression;
pub mod smo;
pub mod svm;
pub mod svr;

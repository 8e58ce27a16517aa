//! One module per learning method, each opening with the problem it solves.

pub mod svm;

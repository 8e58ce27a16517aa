//! The learning methods: the contract every method keeps, the methods, and what is built on
//! any model — three layers in this folder, lowest first:
//! 1. The contract — [`model`]: the [`model::Method`] trait every method's registry entry
//!    implements and the [`model::Model`] trait of a fitted model (decision values, grid
//!    evaluation, marks, facts), and [`capabilities`]: what a view asks of a particular kind
//!    of model (a one-class SVM's dual), through a `Model` method and never by its type;
//!    [`marks`]: the marks several methods draw alike (the w arrow, the last update's ring).
//! 2. The methods — [`solvers`]: one file per method, its problem stated in its doc.
//! 3. What is built on any model — [`multiclass`] (one-vs-one and one-vs-rest over any
//!    two-class model), [`standardise`] (a model fitted on standardised features, answering in
//!    the plane's), [`registry`] (the list of methods), [`picture`] (what any model shows on
//!    the plane), [`validation`] (folds, cross-validation and parameter grids), [`reg_path`]
//!    (the SVM's α(C) along C, by warm starts), [`learning`] (learning curves).

pub mod capabilities;
pub mod learning;
pub mod marks;
pub mod model;
pub mod multiclass;
pub mod picture;
pub mod reg_path;
pub mod registry;
pub mod solvers;
pub mod standardise;
pub mod table;
pub mod validation;

//! Kernel Playground: a lab for kernel SVMs, perceptrons, logistic regression, k-nearest
//! neighbours and the generative and least-squares classifiers on points in the plane, with up
//! to six classes, run in the browser as WebAssembly and on the command line.
//!
//! The modules form layers; each imports only from the layers before it
//! (`tests/layers.rs` checks it):
//! 1. Data and geometry — [`data`] (points, CSV, seeded presets), [`table`] (files as people
//!    have them: encodings, delimiters, columns), [`labels`] (classes written as integers or
//!    texts), [`error`], [`kernel`] (the
//!    kernels in LIBSVM's parameterisation, the Gram-column cache), [`field`] (a function on
//!    a pixel grid, pixel ↔ data maps), [`gauss_transform`] (an RBF expansion on a grid at a
//!    cost independent of its terms, with an error bound), [`monomials`] (a polynomial or
//!    linear kernel expansion collapsed into monomials), [`contour`] (level curves),
//!    [`voronoi`], [`hull`]
//!    (convex hulls, the exact test of linear separability), [`params`]
//!    (the declarative parameter table and its checked values), [`plane`] (what the plane
//!    shows, as data), [`roc`] (ROC curves and confusion counts from decision values),
//!    [`spectrum`] (the smallest eigenvalue of a Gram matrix), [`job`] (a view's background
//!    work, done a unit at a time and handed between copies of the lab), [`sorting`] (stable sorts
//!    through one compiled copy of the sort), [`sklearn`] (a method's counterpart in
//!    scikit-learn, as data), [`words`] (the words drawn in pictures, in the reader's
//!    language).
//! 2. The contract — [`model`]: the [`model::Method`] trait every method's registry entry
//!    implements and the [`model::Model`] trait of a fitted model (decision values, grid
//!    evaluation, marks, facts), and [`capabilities`]: what a view asks of a particular
//!    kind of model (a one-class SVM's dual), through a `Model` method and never by its type.
//! 3. The methods — [`solvers`]: one file per method, its problem stated in its doc.
//! 4. Models — [`multiclass`] (one-vs-one and one-vs-rest over any two-class model),
//!    [`registry`] (the list of methods), [`picture`] (what any model shows on the plane),
//!    [`validation`] (folds, cross-validation and parameter grids), [`reg_path`] (the SVM's
//!    α(C) along C, by warm starts).
//! 5. The lab — [`state`] (settings and their URL form), [`link`] (a shared link read whole,
//!    both sides of a comparison), [`options`] (LIBSVM's svm-train option strings), [`playground`] (points, settings, the fitted model, what a
//!    frame shows), [`examples`] (the lectures' worked examples as links).
//! 6. Views and drawing — [`views`] (the plane and the figures beside it), [`regions`] and
//!    [`scene`] (plotters drawing shared by the canvas, SVG and PNG; [`inset`] its SMO
//!    sub-problem corner), [`sprites`] (one small image stamped many times: a large scene's
//!    discs), [`python`] (the scene as a Python script: NumPy, scikit-learn, matplotlib).
//!
//! The browser sees only `web` (wasm32 builds): an `App` handle over a
//! [`playground::Playground`]. The command line is `src/bin/kernel-playground`.

pub mod capabilities;
pub mod contour;
pub mod data;
pub mod error;
pub mod examples;
pub mod field;
pub mod gauss_transform;
pub mod hull;
pub mod inset;
pub mod job;
pub mod kernel;
pub mod labels;
pub mod learning;
pub mod link;
pub mod model;
pub mod monomials;
pub mod multiclass;
pub mod options;
pub mod packed;
pub mod params;
pub mod picture;
pub mod plane;
pub mod playground;
pub mod python;
pub mod reg_path;
pub mod regions;
pub mod registry;
pub mod roc;
pub mod scene;
pub mod sklearn;
pub mod solvers;
pub mod sorting;
pub mod spectrum;
pub mod sprites;
pub mod standardise;
pub mod state;
pub mod svg;
pub mod table;
pub mod task;
pub mod validation;
pub mod views;
pub mod voronoi;
pub mod words;

#[cfg(target_arch = "wasm32")]
mod web;

pub use error::Error;

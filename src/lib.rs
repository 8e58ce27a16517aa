//! Kernel Playground: a lab for kernel SVMs, perceptrons, logistic regression, k-nearest
//! neighbours and the generative and least-squares classifiers on points in the plane, with up
//! to six classes, and for regression and novelty detection beside them, run in the browser as
//! WebAssembly and on the command line.
//!
//! The folders are the layers, lowest first; a module imports only from its own layer or the
//! ones before it, and no two modules import each other (`tests/layers.rs` checks both, and
//! that each module sits in its layer's folder):
//! 1. [`core`] — data and geometry: points and files, kernels, the field on a pixel grid, level
//!    curves, Voronoi cells and hulls, the parameter table, what the plane shows as data.
//! 2. [`methods`] — the contract every method keeps (`methods::model`), the methods themselves
//!    (`methods::solvers`, one file each), and what is built on any model: more classes,
//!    standardised features, the registry, the picture of a fitted model, cross-validation,
//!    the regularisation path, learning curves.
//! 3. [`lab`] — one scene's settings and their link, LIBSVM's option strings, the playground
//!    (points, settings, the fitted model, what a frame shows) and the lectures' examples.
//! 4. [`draw`] — the scene drawn through plotters for the canvas, SVG and PNG, the stamped
//!    discs of a large scene, and the scene as a Python script.
//! 5. [`views`] — the plane and the figures beside it.
//!
//! The browser sees only `web` (wasm32 builds): a `Lab` handle over a
//! [`lab::comparison::Comparison`] of the page's sides. The command line is `src/bin/kernel-playground`.

pub mod core;
pub mod draw;
pub mod lab;
pub mod methods;
pub mod views;

#[cfg(target_arch = "wasm32")]
mod web;

pub use crate::core::error::Error;

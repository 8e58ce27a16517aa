//! Kernel Playground: a lab for kernel SVMs, perceptrons, logistic regression and k-nearest
//! neighbours on points in the plane, with up to six classes, run in the browser as WebAssembly
//! and on the command line.
//!
//! The core is plain Rust with no browser imports:
//! - [`data`]: points, labels, CSV, seeded presets;
//! - [`kernel`]: the kernels (LIBSVM's parameterisation) and the Gram-column cache;
//! - [`model`]: the two-class [`model::Classifier`] trait, and fit reports;
//! - [`solvers`]: one module per method — [`solvers::svm`] and [`solvers::smo`] (the soft-margin
//!   dual), [`solvers::perceptron`], [`solvers::logistic`], [`solvers::knn`],
//!   [`solvers::least_squares`], [`solvers::kernel_ridge`];
//! - [`multiclass`]: one-versus-one voting and one-versus-rest over two-class models;
//! - [`fitted`]: a fitted model of any method, and what it reports;
//! - [`picture`]: what each fitted model adds to the picture;
//! - [`field`]: the decision field and class labels on a pixel grid, pixel ↔ data maps;
//! - [`contour`]: level curves (boundary, margins, probability contours) by marching squares;
//! - [`voronoi`]: Voronoi cells and the Delaunay triangulation, for one nearest neighbour;
//! - [`regions`]: the colours and shading of decision regions, as a pixel image;
//! - [`scene`]: drawing with plotters, the same code for canvas, SVG and PNG;
//! - [`state`]: the settings table and its URL-hash form;
//! - [`playground`]: the lab as a whole — what the page and the CLI drive.
//!
//! The browser sees only `web` (wasm32 builds): an `App` handle over a [`playground::Playground`].
//! The command line is `src/bin/kernel-playground`.

pub mod contour;
pub mod data;
pub mod error;
pub mod field;
pub mod fitted;
pub mod kernel;
pub mod model;
pub mod multiclass;
pub mod picture;
pub mod playground;
pub mod regions;
pub mod scene;
pub mod solvers;
pub mod state;
pub mod voronoi;

#[cfg(target_arch = "wasm32")]
mod web;

pub use error::Error;

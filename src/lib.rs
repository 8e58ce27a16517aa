//! Kernel Playground: a lab for kernel SVMs (and, in time, perceptrons, logistic regression and
//! k-nearest neighbours) on points in the plane, run in the browser as WebAssembly and on the
//! command line.
//!
//! The core is plain Rust with no browser imports:
//! - [`data`]: points, labels, CSV, seeded presets;
//! - [`kernel`]: the kernels (LIBSVM's parameterisation) and the Gram-column cache;
//! - [`model`]: the [`model::Classifier`] trait every method implements, and fit reports;
//! - [`solvers`]: one module per method — [`solvers::svm`] is SMO for the soft-margin dual;
//! - [`field`]: the decision field on a pixel grid, pixel ↔ data maps;
//! - [`contour`]: level curves (boundary, margins) by marching squares;
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
pub mod playground;
pub mod regions;
pub mod scene;
pub mod solvers;
pub mod state;
pub mod voronoi;

#[cfg(target_arch = "wasm32")]
mod web;

pub use error::Error;

//! Data and geometry, the ground floor: nothing here knows a learning method.
//!
//! [`data`] (points, CSV, seeded presets), [`table`] (files as people have them: encodings,
//! delimiters, columns), [`task`] (classification, regression or novelty detection),
//! [`labels`] (classes written as integers or texts), [`error`], [`kernel`] (the kernels in
//! LIBSVM's parameterisation, the Gram-column cache), [`field`] (a function on a pixel grid,
//! pixel ↔ data maps), [`gauss_transform`] (an RBF expansion on a grid at a cost independent
//! of its terms, with an error bound), [`monomials`] (a polynomial or linear kernel expansion
//! collapsed into monomials), [`contour`] (level curves), [`voronoi`], [`hull`] (convex hulls,
//! the exact test of linear separability), [`packed`] (a dataset as compact bytes),
//! [`base64`] (bytes as text),
//! [`params`] (the declarative parameter table and its checked values), [`plane`] (what the
//! plane shows, as data), [`roc`] (ROC curves and confusion counts from decision values),
//! [`spectrum`] (the smallest eigenvalue of a Gram matrix), [`job`] (a view's background
//! work, done a unit at a time and handed between copies of the lab), [`sorting`] (stable
//! sorts through one compiled copy of the sort), [`sklearn`] (a method's counterpart in
//! scikit-learn, as data), [`words`] (the words drawn in pictures, in the reader's language).

pub mod base64;
pub mod contour;
pub mod data;
pub mod error;
pub mod field;
pub mod gauss_transform;
pub mod hull;
pub mod job;
pub mod kernel;
pub mod labels;
pub mod monomials;
pub mod packed;
pub mod params;
pub mod pieces;
pub mod plane;
pub mod roc;
pub mod sklearn;
pub mod sorting;
pub mod spectrum;
pub mod table;
pub mod task;
pub mod voronoi;
pub mod words;

//! The scene drawn: one drawing code for the browser's canvas, SVG and PNG.
//!
//! [`regions`] (the decision regions' colours) and [`scene`] (plotters drawing over any
//! backend; [`inset`] its SMO sub-problem corner), [`svg`] (SVG documents with the regions as
//! one embedded image), [`sprites`] (one small image stamped many times: a large scene's
//! discs), [`python`] (the scene as a Python script: NumPy, scikit-learn, matplotlib, with the
//! plane's colours and marker shapes).

pub mod ahead;
pub mod inset;
pub mod python;
pub mod regions;
pub mod scene;
pub mod sprites;
pub mod svg;

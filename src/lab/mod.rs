//! The lab: one scene and what a person does to it, free of any browser.
//!
//! [`state`] (settings and their URL form), [`link`] (a shared link read whole, both sides of
//! a comparison), [`options`] (LIBSVM's svm-train option strings), [`playground`] (points,
//! settings, the fitted model, what a frame shows), [`examples`] (the lectures' worked
//! examples as links), [`history`] (undo and redo of whole scenes), [`comparison`] (the page's
//! session: both sides of a comparison, the side edited, the history).

pub mod comparison;
pub mod examples;
pub mod history;
pub mod link;
pub mod options;
pub mod playground;
pub mod state;

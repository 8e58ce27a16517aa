//! What the lab is asked to learn from the points in the plane.
//!
//! - **Classification**: each point (x₁, x₂) has a class; a method learns regions of the plane.
//! - **Regression**: a point (x, t) is an input x across and its target t up, as LIBSVM's
//!   svm-toy shows it; a method learns a function t ≈ f(x), drawn as a curve.
//! - **Novelty detection**: the points have no labels; a method learns the region where they
//!   lie, and what falls outside it is new.

use crate::core::error::Error;

/// The task of a scene (`task=` in a link, written only when it is not classification).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Task {
    #[default]
    Classification,
    Regression,
    Novelty,
}

impl Task {
    pub const ALL: [Task; 3] = [Task::Classification, Task::Regression, Task::Novelty];

    /// The id in links and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Task::Classification => "classification",
            Task::Regression => "regression",
            Task::Novelty => "novelty",
        }
    }

    /// The name people read.
    pub fn title(self) -> &'static str {
        match self {
            Task::Classification => "classification",
            Task::Regression => "regression",
            Task::Novelty => "novelty detection",
        }
    }

    /// What it asks, in one sentence.
    pub fn explain(self) -> &'static str {
        match self {
            Task::Classification => {
                "Each point has a class; the method learns which class each place of the plane \
                 belongs to."
            }
            Task::Regression => {
                "A point (x, t) is an input x across and its target t up; the method learns a \
                 function t ≈ f(x), drawn as a curve."
            }
            Task::Novelty => {
                "The points have no classes; the method learns the region where they lie, and a \
                 place outside it is new."
            }
        }
    }

    /// The task with this id, or a message listing the ids.
    pub fn from_id(id: &str) -> Result<Task, Error> {
        Task::ALL
            .into_iter()
            .find(|t| t.id() == id.trim())
            .ok_or_else(|| {
                Error::Parameter(format!(
                    "unknown task '{id}' (use classification, regression or novelty)"
                ))
            })
    }
}

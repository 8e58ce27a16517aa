//! What the lab is asked to learn from the points in the plane.
//!
//! - **Classification**: each point (x₁, x₂) has a class; a method learns regions of the plane.
//! - **Regression**: a point (x, t) is an input x across and its target t up, as LIBSVM's
//!   svm-toy shows it; a method learns a function t ≈ f(x), drawn as a curve.
//! - **Novelty detection**: the points have no labels; a method learns the region where they
//!   lie, and what falls outside it is new.

use crate::core::error::Error;

/// The task of a scene (`task=` in a link, written only when it is not classification).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
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

    /// What the plane's own marks mean in this task, in the legend's words.
    pub fn plane_words(self) -> &'static PlaneWords {
        match self {
            Task::Classification => &CLASSIFICATION_WORDS,
            Task::Regression => &REGRESSION_WORDS,
            Task::Novelty => &NOVELTY_WORDS,
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

/// A legend entry's words: its label, then its explanation.
pub type Words = (&'static str, &'static str);

/// The legend's words for the marks the plane draws in every task: a training point, the
/// support vectors' rings, the boundary (solid), and the regions shaded by |f|. A method's own
/// marks bring their words themselves (`core::plane`'s marks).
pub struct PlaneWords {
    /// A training point, unless each class is named ("class 1", in classification).
    pub point: Option<Words>,
    /// A free support vector (circled) and a bound one (squared).
    pub free_support: Words,
    pub bound_support: Words,
    pub boundary: Words,
    /// The regions shaded by the margin |f| (in classification the words follow the shading).
    pub regions: Option<Words>,
}

static CLASSIFICATION_WORDS: PlaneWords = PlaneWords {
    point: None,
    free_support: (
        "free support vector, 0 < αᵢ < C",
        "A support vector exactly on its margin, yᵢf(xᵢ) = 1; b is computed from these.",
    ),
    bound_support: (
        "bound support vector, αᵢ = C",
        "A support vector on or inside its margin, with slack ξᵢ = 1 − yᵢf(xᵢ) ≥ 0; ξᵢ > 1 \
         means it is misclassified.",
    ),
    boundary: (
        "decision boundary",
        "Where the predicted class changes: f(x) = t for two classes (t = 0 unless the ROC \
         view moves it).",
    ),
    regions: None,
};

static REGRESSION_WORDS: PlaneWords = PlaneWords {
    point: Some((
        "point (x, t)",
        "A training point: its input x across, its target t up; the curve is fitted to these.",
    )),
    free_support: (
        "support vector on the tube, 0 < |αᵢ − αᵢ*| < C",
        "A point exactly on the tube's edge, |tᵢ − f(xᵢ)| = ε; b is computed from these.",
    ),
    bound_support: (
        "support vector at C, on or outside the tube",
        "A point whose multiplier reached C: its residual is ε or more, and it pays C per unit \
         beyond ε.",
    ),
    boundary: (
        "fitted curve t = f(x)",
        "The function the method learned: its prediction of t at each x.",
    ),
    regions: Some((
        "above and below the curve, deeper with |t − f|",
        "Above the curve t > f(x), below it t < f(x): the colour deepens with the residual \
         t − f(x), measured against the targets' range.",
    )),
};

static NOVELTY_WORDS: PlaneWords = PlaneWords {
    point: Some((
        "point (no label)",
        "A training point: the method learns the region where these lie.",
    )),
    free_support: (
        "support vector on the boundary, 0 < αᵢ < 1",
        "A point exactly on the region's edge, f(xᵢ) = 0; ρ is computed from these.",
    ),
    bound_support: (
        "support vector at αᵢ = 1, on or outside the boundary",
        "A point the region does not hold comfortably: f(xᵢ) ≤ 0; those with f(xᵢ) < 0 are \
         the training set's outliers, at most a fraction ν.",
    ),
    boundary: (
        "boundary of the learned region, f(x) = 0",
        "Inside it f(x) > 0: where the training points lie; a new point outside is novel.",
    ),
    regions: Some((
        "inside and outside the region, deeper with |f|",
        "Inside the learned region f(x) > 0, outside f(x) < 0: the colour deepens with |f(x)|, \
         measured against ρ.",
    )),
};

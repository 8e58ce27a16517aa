//! The words a parameter row is written in: the kind of value with its range, what a change
//! asks of the lab, where the control sits, and the row itself. The rows are declared where
//! their idea lives (the kernel's beside the kernel, `kernel::rows`; a method's in its own file)
//! and gathered, in URL order, into the one table by `methods::table`.

use serde::Serialize;

/// What a value is, with its range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Kind {
    /// A positive real shown on a slider in log₁₀ units from 10^`lo` to 10^`hi`; any positive
    /// finite value is accepted (the command line may go beyond the slider).
    LogSlider { lo: f64, hi: f64 },
    /// A real number in [`min`, `max`], on a slider from `lo` to `hi` with this step.
    Slider {
        min: f64,
        max: f64,
        lo: f64,
        hi: f64,
        step: f64,
    },
    /// A whole number in [`min`, `max`]; the slider stops at `slider_max`.
    Integer { min: u64, max: u64, slider_max: u64 },
    /// A whole number typed in a box (a seed).
    Number,
    /// One of a list of options.
    Choice {
        #[serde(skip)]
        options: &'static [Choice],
    },
    /// On or off, written 1 or 0.
    Flag,
    /// A kernel built by rule, typed as an expression (`rbf * poly + 1`; see
    /// [`crate::core::kernel::rules`]), checked as it is set.
    Expression,
}

/// What changing a setting asks of the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Refit the model.
    Refit,
    /// Regenerate the preset's points, then refit.
    Regenerate,
    /// Hold out a new set of test points, then refit.
    Resplit,
    /// Only redraw.
    Redraw,
}

/// Where a row's control sits on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// The model and its parameters.
    Model,
    /// The preset that makes the points.
    Points,
    /// What the plane shows.
    Layer,
    /// A setting of the views beside the plane (the ROC threshold).
    View,
    /// Not a control (set through the URL or the command line only).
    Hidden,
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Param {
    pub key: &'static str,
    pub label: &'static str,
    pub kind: Kind,
    /// The default, as written in the URL.
    pub default: &'static str,
    /// The row matters only when, for some (key, values) here whose key the current method
    /// uses, that key's value is one of `values`; an empty list: always.
    pub enabled_by: &'static [(&'static str, &'static [&'static str])],
    pub effect: Effect,
    pub group: Group,
    /// A few words shown beside the control.
    pub hint: &'static str,
    /// What the setting does, in one or two sentences in the lecture's words: the control's
    /// accessible description, shown on hover, focus and touch. Every row with a control has
    /// one.
    pub explain: &'static str,
    /// Folded under "more" on the page until asked for: a first visit sees the model, its
    /// kernel and main sliders and the preset; the solver, the multi-class scheme, the
    /// points' size and noise and the like are a click away (a link still sets them all).
    pub more: bool,
}

/// One option of a [`Kind::Choice`]: its value in the URL, the words the menu shows, and what
/// choosing it means (shown with the row's own explanation while it is the chosen one).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Choice {
    pub value: &'static str,
    pub label: &'static str,
    pub explain: &'static str,
}

pub(crate) const fn choice(
    value: &'static str,
    label: &'static str,
    explain: &'static str,
) -> Choice {
    Choice {
        value,
        label,
        explain,
    }
}

/// A row of the model: a change refits it.
pub(crate) const fn model_row(
    key: &'static str,
    label: &'static str,
    kind: Kind,
    default: &'static str,
    explain: &'static str,
) -> Param {
    Param {
        key,
        label,
        kind,
        default,
        enabled_by: &[],
        effect: Effect::Refit,
        group: Group::Model,
        hint: "",
        explain,
        more: false,
    }
}

/// A row of what the plane shows: on or off, redrawn when changed.
pub(crate) const fn layer_row(
    key: &'static str,
    label: &'static str,
    default: &'static str,
    explain: &'static str,
) -> Param {
    Param {
        effect: Effect::Redraw,
        group: Group::Layer,
        ..model_row(key, label, Kind::Flag, default, explain)
    }
}

/// A row of the preset that makes the points: a change makes them anew.
pub(crate) const fn points_row(
    key: &'static str,
    label: &'static str,
    kind: Kind,
    default: &'static str,
    explain: &'static str,
) -> Param {
    Param {
        effect: Effect::Regenerate,
        group: Group::Points,
        ..model_row(key, label, kind, default, explain)
    }
}

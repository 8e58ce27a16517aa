//! Regression in the plane: a point (x, t) is an input x across and its target t up. A method
//! fits a function f: ℝ → ℝ to the points, and the plane draws it through the two-class
//! machinery as the zero level of
//!
//! ```text
//!     g(x, t) = t − f(x),
//! ```
//!
//! positive above the curve and negative below it; an ε-tube f ± ε is the pair of levels g = ±ε.
//! The residual of point i is r_i = t_i − f(x_i) = g(x_i, t_i), and the scores are
//!
//! ```text
//!     RMSE = √(Σ r_i² / n),      R² = 1 − Σ r_i² / Σ (t_i − t̄)²,
//! ```
//!
//! R² = 1 for a perfect fit, 0 for the constant t̄, negative for worse. Kernels see an input as
//! the point (x, 0), on which linear, polynomial, RBF and sigmoid kernels equal their values on
//! the line.

pub mod band;
pub mod iteration;
pub mod krr;
pub mod lines;
pub mod svr;

use crate::core::data::{Dataset, Point};
use crate::core::field::{Grid, Smoothness};
use crate::core::plane::{Curve as PlaneCurve, CurveKind, Mark, Scene, Shading};
use crate::methods::model::{Context, Fact, Level, Model};
use std::fmt::Debug;

/// A loss of the residual r = t − f(x) that a regression method makes least (with its
/// regulariser, if it has one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ResidualLoss {
    /// max(0, |r| − ε): support vector regression's, with the ε in use.
    EpsilonInsensitive(f64),
    /// r²: least squares' and kernel ridge regression's.
    Squared,
    /// |r|: least absolute deviations'.
    Absolute,
}

impl ResidualLoss {
    /// The loss at residual r.
    pub fn eval(self, r: f64) -> f64 {
        match self {
            ResidualLoss::EpsilonInsensitive(e) => (r.abs() - e).max(0.0),
            ResidualLoss::Squared => r * r,
            ResidualLoss::Absolute => r.abs(),
        }
    }
}

/// A fitted function of one input.
pub trait Curve: Debug + Send + Sync + 'static {
    /// f(x).
    fn at(&self, x: f64) -> f64;
    /// The half-width ε of its tube, for the ε-insensitive methods.
    fn tube(&self) -> Option<f64> {
        None
    }
    /// The half-width 2σ(x) of its Gaussian-process band at x, where it has one (kernel ridge
    /// regression read as a Gaussian process, [`band`]).
    fn band(&self, _x: f64) -> Option<f64> {
        None
    }
    /// Stepping: whether the run on show is the whole run.
    fn run_ended(&self) -> bool {
        true
    }
    /// Why part of what was asked for is not drawn, if it is not.
    fn message(&self) -> Option<String> {
        None
    }
    /// What a stepped run recorded per step, for the trace view.
    fn trace(&self) -> Option<&crate::methods::model::Trace> {
        None
    }
    /// The loss of the residuals it makes least: the ε-insensitive one where it has a tube,
    /// else the squared one.
    fn loss(&self) -> ResidualLoss {
        self.tube()
            .map_or(ResidualLoss::Squared, ResidualLoss::EpsilonInsensitive)
    }
    /// tᵢ − f(xᵢ) at every training point, in training order, where the fit already holds
    /// them (support vector regression's, from its solver's gradient, as the C-SVM's
    /// margins): the slack lines and the scores then cost no evaluation of f.
    fn residuals(&self) -> Option<&[f64]> {
        None
    }
    /// How each training point is marked (support vectors), in training order.
    fn marks(&self) -> Vec<Mark> {
        Vec::new()
    }
    /// What the status line reports besides the scores.
    fn facts(&self) -> Vec<Fact> {
        Vec::new()
    }
    /// What the hover says about training point `index` besides its residual.
    fn point_facts(&self, _index: usize) -> Vec<Fact> {
        Vec::new()
    }
    /// How fast f may change: a kernel's bumps.
    fn smoothness(&self) -> Smoothness {
        Smoothness::Smooth
    }
    /// Whether the fit started from the last one's solution (the page then fits once more
    /// from nothing when the interaction ends).
    fn warm_started(&self) -> bool {
        false
    }
    /// The fitted numbers the command line prints, as lists (a kernel expansion's `dual_coef`,
    /// a line's `w`).
    fn numbers(&self) -> Vec<(&'static str, Vec<f64>)> {
        Vec::new()
    }
    /// The indices the command line prints (the `support`).
    fn indices(&self) -> Vec<(&'static str, Vec<usize>)> {
        Vec::new()
    }
    /// The fitted scalars the command line prints (`bias`, `epsilon`).
    fn scalars(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

/// The curve of a regression model, if `model` is one.
pub fn curve_of(model: &dyn Model) -> Option<&dyn Curve> {
    model
        .as_any()
        .downcast_ref::<Fitted>()
        .map(|fitted| &*fitted.curve)
}

/// The input of a regression point (x, t), as kernels see it: (x, 0).
pub fn input(p: Point) -> Point {
    [p[0], 0.0]
}

/// The inputs and targets of `data`'s points.
pub fn inputs_and_targets(data: &Dataset) -> (Vec<Point>, Vec<f64>) {
    data.points.iter().map(|&p| (input(p), p[1])).unzip()
}

/// The root mean square residual and R² of `model` (a [`Fitted`] curve, or any model whose
/// decision value is t − f(x)) on `points`; `None` without points. R² is `None` when the
/// targets are all equal.
pub fn scores(model: &dyn Model, points: &[Point]) -> Option<(f64, Option<f64>)> {
    let residuals: Vec<f64> = points.iter().map(|&p| model.decision_value(p)).collect();
    scores_of(&residuals, points)
}

/// The root mean square of `residuals` and R² against the targets of `points`, as [`scores`].
fn scores_of(residuals: &[f64], points: &[Point]) -> Option<(f64, Option<f64>)> {
    if points.is_empty() {
        return None;
    }
    let n = points.len() as f64;
    let squares: f64 = residuals.iter().map(|r| r.powi(2)).sum();
    let mean = points.iter().map(|p| p[1]).sum::<f64>() / n;
    let spread: f64 = points.iter().map(|p| (p[1] - mean).powi(2)).sum();
    let r2 = (spread > 0.0).then(|| 1.0 - squares / spread);
    Some(((squares / n).sqrt(), r2))
}

/// A fitted curve as a [`Model`] of the plane.
#[derive(Debug)]
pub struct Fitted {
    pub curve: Box<dyn Curve>,
    /// The scene's one label (the plane colours by it).
    label: [i32; 1],
    /// The spread of the targets, which scales the shading.
    spread: f64,
    /// The points the curve's own residuals are for, when it holds them: they are read only
    /// for exactly these points.
    trained_on: Vec<Point>,
}

impl Fitted {
    pub fn new(curve: impl Curve, data: &Dataset) -> Fitted {
        let label = [data.labels.first().copied().unwrap_or(0)];
        let (low, high) = data
            .points
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                (l.min(p[1]), h.max(p[1]))
            });
        let spread = if high > low { high - low } else { 1.0 };
        let trained_on = match curve.residuals() {
            Some(_) => data.points.clone(),
            None => Vec::new(),
        };
        Fitted {
            curve: Box::new(curve),
            label,
            spread,
            trained_on,
        }
    }
}

/// How many inputs across the window the band is drawn at: σ(x) costs O(n²) each.
const BAND_SAMPLES: usize = 97;

impl Fitted {
    /// tᵢ − f(xᵢ) at `data`'s points: the fit's own when it holds them for exactly these
    /// points, else f evaluated at each.
    fn residuals_at(&self, data: &Dataset) -> std::borrow::Cow<'_, [f64]> {
        match self.curve.residuals() {
            Some(r) if self.trained_on == data.points => std::borrow::Cow::Borrowed(r),
            _ => data
                .points
                .iter()
                .map(|&p| self.decision_value(p))
                .collect(),
        }
    }

    /// The two edges of the band, f ± 2σ, across the window's inputs.
    fn band_curves(&self, view: crate::core::field::View) -> [PlaneCurve; 2] {
        let mut edges = [Vec::new(), Vec::new()];
        for k in 0..BAND_SAMPLES {
            let x = view.x_min + (view.x_max - view.x_min) * k as f64 / (BAND_SAMPLES - 1) as f64;
            let (f, half) = (self.curve.at(x), self.curve.band(x).unwrap_or(0.0));
            edges[0].push([x, f - half]);
            edges[1].push([x, f + half]);
        }
        let [below, above] = edges;
        let edge = |points, label: &str| PlaneCurve {
            points,
            kind: CurveKind::Level,
            label: Some(label.into()),
        };
        [edge(below, "f − 2σ"), edge(above, "f + 2σ")]
    }
}

impl Model for Fitted {
    fn classes(&self) -> &[i32] {
        &self.label
    }

    /// g(x, t) = t − f(x): the residual of a point (x, t).
    fn decision_value(&self, p: Point) -> f64 {
        p[1] - self.curve.at(p[0])
    }

    /// f once per column of the grid, then a subtraction per node.
    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        let f: Vec<f64> = (0..grid.cols)
            .map(|c| self.curve.at(grid.x_at(c)))
            .collect();
        Box::new(move |row, col| grid.y_at(row) - f[col])
    }

    fn levels(&self) -> Vec<Level> {
        let mut levels = vec![Level::boundary()];
        if let Some(e) = self.curve.tube().filter(|&e| e > 0.0) {
            levels.push(Level::dashed(-e, Some("f − ε".into())));
            levels.push(Level::dashed(e, Some("f + ε".into())));
        }
        levels
    }

    /// Pale: above the curve one colour, below the other, deepening over the targets' range.
    fn shading(&self) -> Shading {
        Shading::Margin { scale: self.spread }
    }

    fn smoothness(&self) -> Smoothness {
        self.curve.smoothness()
    }

    fn warm_started(&self) -> bool {
        self.curve.warm_started()
    }

    fn message(&self) -> Option<String> {
        self.curve.message()
    }

    fn marks(&self) -> Vec<Mark> {
        self.curve.marks()
    }

    /// The support vectors marked, and each point outside the tube joined to its edge by its
    /// slack, the residual beyond ε (straight up or down).
    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        scene.marks = self.marks();
        if context.layers.on("margins") && self.curve.band(0.0).is_some() {
            scene.curves.extend(self.band_curves(context.view));
        }
        let Some(e) = self.curve.tube().filter(|_| context.layers.on("slack")) else {
            return;
        };
        let residuals = self.residuals_at(context.data);
        let lines = context
            .data
            .points
            .iter()
            .zip(residuals.iter())
            .filter_map(|(&p, &r)| {
                let f = p[1] - r;
                (r.abs() > e).then(|| (p, [p[0], f + e.copysign(r)]))
            })
            .collect();
        scene
            .decorations
            .push(crate::methods::marks::slack(lines).worded(
            "slack ξᵢ beyond the tube",
            "How far a point lies outside the tube, |tᵢ − f(xᵢ)| − ε: the ε-insensitive loss it \
             pays, C per unit.",
        ));
    }

    fn predict(&self, _x: Point) -> i32 {
        self.label[0]
    }

    fn facts(&self, data: &Dataset) -> Vec<Fact> {
        let mut facts = Vec::new();
        if let Some((rmse, r2)) = scores_of(&self.residuals_at(data), &data.points) {
            facts.push(Fact::new("train_rmse", "training RMSE", rmse));
            if let Some(r2) = r2 {
                facts.push(Fact::new("train_r2", "R²", r2));
            }
        }
        if let Some(e) = self.curve.tube() {
            facts.push(Fact::new("epsilon", "ε =", e));
        }
        facts.extend(self.curve.facts());
        facts
    }

    fn facts_at(&self, x: Point) -> Vec<Fact> {
        vec![Fact::new("prediction", "f(x) =", self.curve.at(x[0]))]
    }

    fn trace(&self) -> Option<&crate::methods::model::Trace> {
        self.curve.trace()
    }

    fn run_ended(&self, _shown: usize) -> bool {
        self.curve.run_ended()
    }

    fn point_facts(&self, index: usize, data: &Dataset) -> Vec<Fact> {
        let mut facts = vec![Fact::new(
            "residual",
            "residual t − f(x) =",
            self.decision_value(data.points[index]),
        )];
        facts.extend(self.curve.point_facts(index));
        facts
    }

    fn margin(&self, _index: usize, _data: &Dataset) -> Option<f64> {
        None
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests;

//! Standardised features: any method fitted to z = (x − μ) / σ, per feature, and drawn back in
//! the plane's own units, as scikit-learn's `make_pipeline(StandardScaler(), model)` does.
//!
//! μ_j is the mean of feature j over the training points and σ_j its standard deviation with
//! divisor n (NumPy's default, `StandardScaler`'s), or 1 where the feature is constant (as
//! scikit-learn does). The fitted model sees only z; every question about a point x of the
//! plane is asked at z(x). Since z is an affine map of each axis separately, a regular grid of
//! the plane maps to a regular grid of z, straight lines stay straight and ellipses ellipses,
//! so what a model draws in z (a Voronoi cell, a covariance ellipse, a slack segment) is drawn
//! in the plane through the inverse map x = μ + σ·z. Distances are what change: the k-NN and
//! RBF-kernel pictures differ with and without standardising whenever the two features have
//! different spreads, which is the lesson (../CURRICULUM §8).

use crate::core::data::{Dataset, Point};
use crate::core::field::{Grid, Smoothness, View};
use crate::core::params::{model_row, Kind, Param};
use crate::core::plane::{Decoration, Mark, Scene, Shading};
use crate::methods::model::{Context, Fact, KernelExpansion, Level, Loss, Model};
use std::any::Any;

/// Per-feature mean and scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scaler {
    pub mean: [f64; 2],
    pub scale: [f64; 2],
}

impl Scaler {
    /// The scaler of `points` (μ and σ as scikit-learn's `StandardScaler` computes them).
    pub fn fit(points: &[Point]) -> Scaler {
        let n = points.len().max(1) as f64;
        let mut mean = [0.0; 2];
        for p in points {
            mean[0] += p[0] / n;
            mean[1] += p[1] / n;
        }
        let mut scale = [0.0; 2];
        for axis in 0..2 {
            let var = points
                .iter()
                .map(|p| (p[axis] - mean[axis]).powi(2))
                .sum::<f64>()
                / n;
            let sd = var.sqrt();
            scale[axis] = if sd > 0.0 && sd.is_finite() { sd } else { 1.0 };
        }
        Scaler { mean, scale }
    }

    /// z(x) = (x − μ) / σ.
    pub fn forward(&self, p: Point) -> Point {
        [
            (p[0] - self.mean[0]) / self.scale[0],
            (p[1] - self.mean[1]) / self.scale[1],
        ]
    }

    /// x(z) = μ + σ z.
    pub fn back(&self, z: Point) -> Point {
        [
            self.mean[0] + self.scale[0] * z[0],
            self.mean[1] + self.scale[1] * z[1],
        ]
    }

    /// The data with every point mapped to z (labels and their order kept).
    pub fn dataset(&self, data: &Dataset) -> Dataset {
        Dataset::from_parts(
            data.points.iter().map(|&p| self.forward(p)).collect(),
            data.labels.clone(),
        )
    }

    fn view(&self, view: &View) -> View {
        let lo = self.forward([view.x_min, view.y_min]);
        let hi = self.forward([view.x_max, view.y_max]);
        View {
            x_min: lo[0],
            x_max: hi[0],
            y_min: lo[1],
            y_max: hi[1],
        }
    }
}

/// A model fitted to standardised features, answering in the plane's units.
#[derive(Debug)]
pub struct Standardised {
    pub scaler: Scaler,
    pub inner: Box<dyn Model>,
}

impl Model for Standardised {
    fn classes(&self) -> &[i32] {
        self.inner.classes()
    }

    fn decision_value(&self, x: Point) -> f64 {
        self.inner.decision_value(self.scaler.forward(x))
    }

    fn scores(&self, x: Point) -> Vec<f64> {
        self.inner.scores(self.scaler.forward(x))
    }

    fn probabilities(&self, x: Point) -> Option<Vec<f64>> {
        self.inner.probabilities(self.scaler.forward(x))
    }

    fn predict(&self, x: Point) -> i32 {
        self.inner.predict(self.scaler.forward(x))
    }

    fn label_and_confidence(&self, x: Point) -> (usize, f64) {
        self.inner.label_and_confidence(self.scaler.forward(x))
    }

    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        Box::new(move |r, c| self.decision_value(grid.node(r, c)))
    }

    fn label_evaluator<'a>(
        &'a self,
        grid: &'a Grid,
    ) -> Box<dyn Fn(usize, usize) -> (usize, f64) + 'a> {
        Box::new(move |r, c| self.label_and_confidence(grid.node(r, c)))
    }

    fn levels(&self) -> Vec<Level> {
        self.inner.levels()
    }

    fn shading(&self) -> Shading {
        self.inner.shading()
    }

    fn smoothness(&self) -> Smoothness {
        match self.inner.smoothness() {
            // A bump of width w in z is σ·w wide in the plane; the narrower axis counts.
            Smoothness::Width(w) => {
                Smoothness::Width(w * self.scaler.scale[0].min(self.scaler.scale[1]))
            }
            other => other,
        }
    }

    fn marks(&self) -> Vec<Mark> {
        self.inner.marks()
    }

    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        let data = self.scaler.dataset(context.data);
        let view = self.scaler.view(&context.view);
        let inner_context = Context {
            data: &data,
            classes: context.classes,
            layers: context.layers,
            view,
            grid: Grid::new(view, context.grid.cols, context.grid.rows),
            // The picture's field is over the plane, not over z-space.
            field: None,
            threshold: context.threshold,
            draft: context.draft,
        };
        let mut drawn = Scene::default();
        self.inner.decorate(&mut drawn, &inner_context);
        let back = |z: Point| self.scaler.back(z);
        for curve in &mut drawn.curves {
            curve.points.iter_mut().for_each(|p| *p = back(*p));
        }
        scene.curves.extend(drawn.curves);
        // Rings, tags and the SMO inset name points and multipliers, not places: they carry
        // over as they are.
        for mut decoration in drawn.decorations {
            if !decoration.fitted_units_only {
                decoration.map_places(&back);
                scene.decorations.push(decoration);
            }
        }
    }

    fn pointer_marks(&self, at: Point, data: &Dataset) -> Vec<Decoration> {
        let mut marks = self
            .inner
            .pointer_marks(self.scaler.forward(at), &self.scaler.dataset(data));
        marks.retain(|m| !m.fitted_units_only);
        for mark in &mut marks {
            mark.map_places(&|z| self.scaler.back(z));
        }
        marks
    }

    fn facts(&self, data: &Dataset) -> Vec<Fact> {
        let s = &self.scaler;
        let mut facts = vec![Fact::new("standardised", "standardised:", "z = (x − μ)/σ")
            .with_note(format!(
                "μ = ({}, {}), σ = ({}, {})",
                crate::methods::model::short(s.mean[0]),
                crate::methods::model::short(s.mean[1]),
                crate::methods::model::short(s.scale[0]),
                crate::methods::model::short(s.scale[1])
            ))
            .inside()];
        facts.extend(self.inner.facts(&s.dataset(data)));
        facts.push(Fact::data("scaler_mean", s.mean.to_vec()));
        facts.push(Fact::data("scaler_scale", s.scale.to_vec()));
        facts
    }

    fn facts_at(&self, x: Point) -> Vec<Fact> {
        self.inner.facts_at(self.scaler.forward(x))
    }

    fn point_facts(&self, index: usize, data: &Dataset) -> Vec<Fact> {
        self.inner.point_facts(index, &self.scaler.dataset(data))
    }

    fn message(&self) -> Option<String> {
        self.inner.message()
    }

    fn warm_started(&self) -> bool {
        self.inner.warm_started()
    }

    fn run_ended(&self, shown: usize) -> bool {
        self.inner.run_ended(shown)
    }

    fn trace(&self) -> Option<&crate::methods::model::Trace> {
        self.inner.trace()
    }

    fn margin(&self, index: usize, data: &Dataset) -> Option<f64> {
        self.inner.margin(index, &self.scaler.dataset(data))
    }

    fn loss(&self) -> Option<Loss> {
        self.inner.loss()
    }

    fn margin_kind(&self) -> &'static str {
        self.inner.margin_kind()
    }

    /// None: the expansion lives in z, not in the plane the lift view draws.
    fn kernel_expansion(&self) -> Option<KernelExpansion<'_>> {
        None
    }

    /// ρ and α do not depend on the units; f(x) is asked at z(x) as always.
    fn one_class(&self) -> Option<crate::methods::capabilities::OneClassDual<'_>> {
        self.inner.one_class()
    }

    fn as_any(&self) -> &dyn Any {
        self.inner.as_any()
    }
}

/// The lab's row that standardises the points before any classifier is fitted ([`super::registry::fit`]).
pub const STANDARDISE: Param = Param {
    more: true,
    hint: "z = (x − μ)/σ per feature",
    ..model_row(
        "std",
        "standardise",
        Kind::Flag,
        "0",
        "Fit on z = (x − μ)/σ per feature, μ and σ from the training points: methods that \
         measure distances (k-NN, the RBF kernel) are sensitive to the features' scales.",
    )
};

//! The fitted logistic regression: its weights θ = (w, b), p(y = +1 | x) = σ(f(x)), and what
//! it shows on the plane (the probability levels, the w arrow for the linear features).

use super::objective::softplus;
use super::{
    sigmoid, solve, solver_message, FeatureMap, Features, LogisticParams, LogisticTrainer, Problem,
    Run, MAX_CENTRES,
};
use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::{expansion_evaluator, Grid, Smoothness};
use crate::core::kernel::Kernel;
use crate::core::plane::{Scene, Shading};
use crate::methods::marks;
use crate::methods::model::{
    Context, ExitReason, Fact, FitReport, Level, Model, Trace, PROBABILITY_LEVELS,
};

/// A fitted logistic regression.
#[derive(Clone, Debug)]
pub struct LogisticModel {
    pub classes: [i32; 2],
    pub map: FeatureMap,
    /// w, one weight per feature.
    pub weights: Vec<f64>,
    pub bias: f64,
    pub lambda: f64,
    /// J at the solution.
    pub objective: f64,
    /// The mean log loss (1/n) Σ log(1 + exp(−y_i f(x_i))), without the penalty.
    pub log_loss: f64,
    /// ‖∇J‖ at the solution.
    pub gradient_norm: f64,
    /// Gradient descent saw J rise: the learning rate is too large.
    pub overshoot: bool,
    /// The run was cut at a number of iterations (stepping through it).
    pub stepping: bool,
    pub report: FitReport,
    /// J and ‖∇J‖ per iterate, when recorded.
    pub trace: Option<Trace>,
    /// RBF features: (c_j, w_j), so f is a kernel expansion the grid can evaluate fast.
    expansion: Vec<(Point, f64)>,
}

impl LogisticTrainer {
    /// Fits from θ = 0, or, when stepping (`params.max_iter` is the step count) on what the
    /// last stepped fit ran on, from where it stopped, or, for a whole Newton run, from the
    /// last converged θ of the same classes and features (until [`crate::methods::model::WarmStart::forget`]).
    pub fn fit(
        &mut self,
        points: &[Point],
        labels: &[i32],
        params: &LogisticParams,
    ) -> Result<LogisticModel, Error> {
        let setup = || {
            let data = crate::core::data::Dataset::from_parts(points.to_vec(), labels.to_vec());
            let (classes, y) = data.binary_targets()?;
            let map = FeatureMap::new(params.features, points);
            let problem = Problem::new(&map, points, y, params.lambda);
            Ok((classes.to_vec(), map, problem))
        };
        let kept = &mut self.two_class;
        let done = &mut self.iterations_done;
        solve(
            kept,
            done,
            points,
            labels,
            params,
            setup,
            |classes, map, problem, run| {
                LogisticModel::from_run([classes[0], classes[1]], map, problem, run, params)
            },
        )
    }
}

impl LogisticModel {
    /// Fits from θ = 0.
    pub fn fit(
        points: &[Point],
        labels: &[i32],
        params: &LogisticParams,
    ) -> Result<LogisticModel, Error> {
        LogisticTrainer::new().fit(points, labels, params)
    }

    /// The model at `run`'s θ.
    fn from_run(
        classes: [i32; 2],
        map: &FeatureMap,
        problem: &Problem,
        run: &Run,
        params: &LogisticParams,
    ) -> LogisticModel {
        let p = problem.p;
        let n = problem.y.len();
        let trace = params.record.then(|| run.trace());
        let theta = &run.theta;
        let f = &problem.phi * theta;
        let log_loss = f
            .iter()
            .zip(&problem.y)
            .map(|(fi, yi)| softplus(-yi * fi))
            .sum::<f64>()
            / n as f64;
        let weights: Vec<f64> = theta.rows(0, p).iter().copied().collect();
        let expansion = map
            .centres
            .iter()
            .copied()
            .zip(weights.iter().copied())
            .collect();
        LogisticModel {
            expansion,
            classes,
            map: map.clone(),
            weights,
            bias: theta[p],
            lambda: params.lambda,
            objective: run.objective,
            log_loss,
            gradient_norm: run.grad.norm(),
            overshoot: run.overshoot,
            stepping: params.max_iter.is_some(),
            trace,
            report: run.report(),
        }
    }

    /// p(y = positive class | x), the positive class being `classes[1]`.
    pub fn probability(&self, x: Point) -> f64 {
        sigmoid(self.decision_value(x))
    }

    /// (w, b) when the features are the inputs themselves.
    pub fn w(&self) -> Option<[f64; 2]> {
        (self.map.features == Features::Linear).then(|| [self.weights[0], self.weights[1]])
    }
}

impl Model for LogisticModel {
    /// Newton started from the last fit's θ (see [`super::LogisticTrainer`]).
    fn warm_started(&self) -> bool {
        self.report.warm_start
    }

    fn classes(&self) -> &[i32] {
        &self.classes
    }

    fn decision_value(&self, x: Point) -> f64 {
        let mut phi = [0.0; MAX_CENTRES];
        let p = self.weights.len();
        self.map.expand(x, &mut phi[..p]);
        self.bias
            + phi[..p]
                .iter()
                .zip(&self.weights)
                .map(|(a, b)| a * b)
                .sum::<f64>()
    }

    fn probabilities(&self, x: Point) -> Option<Vec<f64>> {
        let p = self.probability(x);
        Some(vec![1.0 - p, p])
    }

    /// The boundary p = ½ and the contours p = 0.1, 0.25, 0.75, 0.9.
    fn levels(&self) -> Vec<Level> {
        Level::probabilities(&PROBABILITY_LEVELS)
    }

    fn shading(&self) -> Shading {
        Shading::Probability
    }

    fn smoothness(&self) -> Smoothness {
        self.map.smoothness()
    }

    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        if context.layers.on("w") {
            let arrow = self
                .w()
                .and_then(|w| marks::w_arrow(w, self.bias, &context.view));
            scene.decorations.extend(arrow);
        }
    }

    fn facts(&self, _data: &Dataset) -> Vec<Fact> {
        let mut facts = vec![
            Fact::new("features", "", self.map.features.name()),
            Fact::data("feature_names", self.map.names()),
            Fact::data("coef", self.weights.clone()),
            Fact::data("lambda", self.lambda),
            Fact::new("log_loss", "log loss", self.log_loss)
                .with_note("per point")
                .inside(),
            Fact::new("objective", "objective J =", self.objective).inside(),
            Fact::new("iterations", "iterations", self.report.iterations)
                .with_note(if self.report.exit == ExitReason::Converged {
                    ""
                } else {
                    "(not converged)"
                })
                .inside(),
            Fact::data("converged", self.report.exit == ExitReason::Converged),
        ];
        if let Some(w) = self.w() {
            facts.push(Fact::new("w", "w =", w));
        }
        facts.push(Fact::new("bias", "b =", self.bias));
        facts
    }

    fn point_facts(&self, i: usize, data: &Dataset) -> Vec<Fact> {
        let y = if data.labels[i] == self.classes[1] {
            1.0
        } else {
            -1.0
        };
        vec![
            Fact::new("y", "y =", y),
            Fact::new(
                "margin",
                "y·f(x) =",
                y * self.decision_value(data.points[i]),
            ),
        ]
    }

    fn message(&self) -> Option<String> {
        solver_message(self.overshoot, &self.report, self.stepping, self.lambda)
    }

    fn run_ended(&self, shown: usize) -> bool {
        self.report.iterations < shown || self.report.exit == ExitReason::Converged
    }

    fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
    }

    fn loss(&self) -> Option<crate::methods::model::Loss> {
        Some(crate::methods::model::Loss::Logistic)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        match self.map.features {
            Features::Rbf { gamma } => {
                expansion_evaluator(Kernel::Rbf { gamma }, &self.expansion, self.bias, grid)
            }
            _ => Box::new(move |row, col| self.decision_value(grid.node(row, col))),
        }
    }
}

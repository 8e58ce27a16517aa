//! Multinomial (softmax) logistic regression: K classes at once, a weight vector w_k and a
//! bias b_k per class, the scores s_k(x) = w_kᵀφ(x) + b_k and
//!
//! ```text
//!     p(k | x) = exp(s_k(x)) / Σ_l exp(s_l(x)),
//! ```
//!
//! fitted by minimising the cross-entropy with an L2 penalty on the weights,
//!
//! ```text
//!     J(W, b) = Σ_i [log Σ_k exp(s_k(x_i)) − s_{y_i}(x_i)] + (λ/2) Σ_k ‖w_k‖²
//! ```
//!
//! (the biases are not penalised): scikit-learn's multinomial `LogisticRegression` with
//! C = 1/λ. The prediction is the most probable class, argmax_k s_k(x).
//!
//! θ holds class after class, (w_1, b_1, w_2, b_2, …). With φ̃ = (φ, 1), t_ik = [y_i = k] and
//! p_ik = p(k | x_i),
//!
//! ```text
//!     ∂J/∂θ_k       = Σ_i (p_ik − t_ik) φ̃_i + λ(w_k, 0)
//!     ∂²J/∂θ_k∂θ_l = Σ_i p_ik([k = l] − p_il) φ̃_i φ̃_iᵀ + λ[k = l] diag(1, …, 1, 0).
//! ```
//!
//! Adding one number to every b_k changes no probability, so the Hessian is singular along
//! that direction. Newton's steps solve with λ added there (λ on every pair of biases), which
//! makes the system positive definite and changes no step: every gradient has
//! Σ_k ∂J/∂b_k = 0, and so has the step. From θ = 0 the biases therefore keep Σ_k b_k = 0,
//! as scikit-learn's L-BFGS (whose steps are sums of gradients) keeps them; the weights sum to
//! 0 at the optimum whatever the start, since there λ Σ_k w_k = −Σ_i Σ_k (p_ik − t_ik) φ_i = 0.
//!
//! With two classes the model is two-class logistic regression in the log-odds
//! f = s_2 − s_1 = (w_2 − w_1)ᵀφ + (b_2 − b_1), but with λ halved: at the optimum
//! w_1 = −w_2, so the penalty on both is (λ/4)‖w_2 − w_1‖² (scikit-learn's C doubled).

use super::{
    solve, solver_message, FeatureMap, Features, LogisticParams, LogisticTrainer, Objective, Run,
    MAX_CENTRES,
};

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::{expansion_evaluator, Grid, Smoothness};
use crate::core::kernel::Kernel;
use crate::core::plane::{Scene, Shading};
use crate::methods::marks;
use crate::methods::model::{
    argmax, check_classes, Context, Fact, FitReport, Level, Loss, Model, Trace, MAX_CLASSES,
    PROBABILITY_LEVELS,
};
use crate::methods::solvers::gaussian::softmax;

mod objective;
pub(super) use objective::Softmax;

/// Fills the scores s_k at grid node (row, column) into the slice given.
type NodeScores<'a> = Box<dyn Fn(usize, usize, &mut [f64]) + 'a>;

/// A fitted multinomial logistic regression.
#[derive(Clone, Debug)]
pub struct SoftmaxModel {
    pub classes: Vec<i32>,
    pub map: FeatureMap,
    /// w_k, one row per class (in `classes` order), one weight per feature.
    pub weights: Vec<Vec<f64>>,
    /// b_k per class.
    pub biases: Vec<f64>,
    pub lambda: f64,
    /// J at the solution.
    pub objective: f64,
    /// The mean cross-entropy (1/n) Σ_i −log p(y_i | x_i), without the penalty.
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
    /// RBF features: each class's (c_j, w_kj), so its score is a kernel expansion the grid
    /// evaluates fast.
    expansions: Vec<Vec<(Point, f64)>>,
}

impl LogisticTrainer {
    /// [`LogisticTrainer::fit`] for the softmax model: from θ = 0, from where the last
    /// stepped run on the same points and parameters stopped, or from its last converged θ.
    pub fn fit_softmax(
        &mut self,
        points: &[Point],
        labels: &[i32],
        params: &LogisticParams,
    ) -> Result<SoftmaxModel, Error> {
        let setup = || {
            let data = Dataset::from_parts(points.to_vec(), labels.to_vec());
            let classes = check_classes(&data, MAX_CLASSES)?;
            let class = labels
                .iter()
                .map(|l| classes.binary_search(l).expect("a class of the data"))
                .collect();
            let map = FeatureMap::new(params.features, points);
            let problem = Softmax::new(&map, points, class, classes.len(), params.lambda);
            Ok((classes, map, problem))
        };
        let kept = &mut self.softmax;
        let done = &mut self.iterations_done;
        solve(
            kept,
            done,
            points,
            labels,
            params,
            setup,
            |classes, map, problem, run| SoftmaxModel::from_run(classes, map, problem, run, params),
        )
    }
}

impl SoftmaxModel {
    /// Fits from θ = 0.
    pub fn fit(
        points: &[Point],
        labels: &[i32],
        params: &LogisticParams,
    ) -> Result<SoftmaxModel, Error> {
        LogisticTrainer::new().fit_softmax(points, labels, params)
    }

    fn from_run(
        classes: &[i32],
        map: &FeatureMap,
        problem: &Softmax,
        run: &Run,
        params: &LogisticParams,
    ) -> SoftmaxModel {
        let width = problem.width();
        let theta = &run.theta;
        let weights: Vec<Vec<f64>> = (0..classes.len())
            .map(|k| theta.rows(k * width, width - 1).iter().copied().collect())
            .collect();
        let biases = (0..classes.len())
            .map(|k| theta[k * width + width - 1])
            .collect();
        let expansions = weights
            .iter()
            .map(|w| map.centres.iter().copied().zip(w.iter().copied()).collect())
            .collect();
        SoftmaxModel {
            classes: classes.to_vec(),
            map: map.clone(),
            weights,
            biases,
            lambda: params.lambda,
            objective: run.objective,
            log_loss: problem.cross_entropy(theta) / problem.points() as f64,
            gradient_norm: run.grad.norm(),
            overshoot: run.overshoot,
            stepping: params.max_iter.is_some(),
            report: run.report(),
            trace: params.record.then(|| run.trace()),
            expansions,
        }
    }

    /// s_k(x) for every class, into `out`.
    fn scores_into(&self, x: Point, out: &mut [f64]) {
        let mut phi = [0.0; MAX_CENTRES];
        let p = self.map.len();
        self.map.expand(x, &mut phi[..p]);
        for ((s, w), b) in out.iter_mut().zip(&self.weights).zip(&self.biases) {
            *s = b + phi[..p].iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
        }
    }

    /// The scores s_k at every node of `grid`, into the slice given: for RBF features one
    /// fast kernel expansion per class.
    fn grid_scores<'a>(&'a self, grid: &'a Grid) -> NodeScores<'a> {
        if let Features::Rbf { gamma } = self.map.features {
            let kernel = Kernel::Rbf { gamma };
            let evaluators: Vec<_> = self
                .expansions
                .iter()
                .zip(&self.biases)
                .map(|(expansion, &b)| expansion_evaluator(kernel, expansion, b, grid))
                .collect();
            return Box::new(move |row, col, out| {
                for (s, evaluate) in out.iter_mut().zip(&evaluators) {
                    *s = evaluate(row, col);
                }
            });
        }
        Box::new(move |row, col, out| self.scores_into(grid.node(row, col), out))
    }

    /// With two classes, the log-odds f = s_2 − s_1 as (w, b) when the features are the
    /// inputs themselves.
    pub fn w(&self) -> Option<[f64; 2]> {
        let two = self.classes.len() == 2 && self.map.features == Features::Linear;
        two.then(|| {
            let (w1, w2) = (&self.weights[0], &self.weights[1]);
            [w2[0] - w1[0], w2[1] - w1[1]]
        })
    }
}

impl Model for SoftmaxModel {
    /// Newton started from the last fit's θ (see [`super::LogisticTrainer`]).
    fn warm_started(&self) -> bool {
        self.report.warm_start
    }

    fn classes(&self) -> &[i32] {
        &self.classes
    }

    /// Two classes: the log-odds s_2 − s_1; more: the winning class's score.
    fn decision_value(&self, x: Point) -> f64 {
        let mut s = [0.0; MAX_CLASSES];
        let k = self.classes.len();
        self.scores_into(x, &mut s[..k]);
        if k == 2 {
            s[1] - s[0]
        } else {
            s[..k].iter().copied().fold(f64::NEG_INFINITY, f64::max)
        }
    }

    /// s_k(x) per class (two classes: [−f, f] of the log-odds, as every two-class model).
    fn scores(&self, x: Point) -> Vec<f64> {
        let k = self.classes.len();
        if k == 2 {
            let f = self.decision_value(x);
            return vec![-f, f];
        }
        let mut s = vec![0.0; k];
        self.scores_into(x, &mut s);
        s
    }

    fn probabilities(&self, x: Point) -> Option<Vec<f64>> {
        let mut s = vec![0.0; self.classes.len()];
        self.scores_into(x, &mut s);
        softmax(&mut s);
        Some(s)
    }

    /// The top class's probability from the scores on the grid (computed once per node).
    fn top_probability<'a>(
        &'a self,
        grid: &'a Grid,
    ) -> Option<Box<dyn Fn(usize, usize) -> f64 + 'a>> {
        let scores = self.grid_scores(grid);
        let k = self.classes.len();
        Some(Box::new(move |row, col| {
            let mut s = [0.0; MAX_CLASSES];
            scores(row, col, &mut s[..k]);
            softmax(&mut s[..k]);
            s[..k].iter().copied().fold(0.0, f64::max)
        }))
    }

    /// The boundary p = ½ and the contours p = 0.1, 0.25, 0.75, 0.9 (two classes).
    fn levels(&self) -> Vec<Level> {
        Level::probabilities(&PROBABILITY_LEVELS)
    }

    fn shading(&self) -> Shading {
        Shading::Probability
    }

    fn smoothness(&self) -> Smoothness {
        self.map.smoothness()
    }

    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        let k = self.classes.len();
        let scores = self.grid_scores(grid);
        Box::new(move |row, col| {
            let mut s = [0.0; MAX_CLASSES];
            scores(row, col, &mut s[..k]);
            if k == 2 {
                s[1] - s[0]
            } else {
                s[..k].iter().copied().fold(f64::NEG_INFINITY, f64::max)
            }
        })
    }

    /// The most probable class and how far its probability is above 1/K.
    fn label_evaluator<'a>(
        &'a self,
        grid: &'a Grid,
    ) -> Box<dyn Fn(usize, usize) -> (usize, f64) + 'a> {
        let k = self.classes.len();
        let scores = self.grid_scores(grid);
        Box::new(move |row, col| {
            let mut s = [0.0; MAX_CLASSES];
            scores(row, col, &mut s[..k]);
            let best = argmax(&s[..k]);
            softmax(&mut s[..k]);
            let chance = 1.0 / k as f64;
            (best, ((s[best] - chance) / (1.0 - chance)).clamp(0.0, 1.0))
        })
    }

    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        if context.layers.on("w") {
            let bias = self.biases.get(1).zip(self.biases.first());
            let arrow = self
                .w()
                .zip(bias)
                .and_then(|(w, (b2, b1))| marks::w_arrow(w, b2 - b1, &context.view));
            scene.decorations.extend(arrow);
        }
    }

    fn facts(&self, _data: &Dataset) -> Vec<Fact> {
        let converged = self.report.exit == crate::methods::model::ExitReason::Converged;
        vec![
            Fact::new(
                "combined",
                "classes:",
                format!("multinomial (softmax) over {} classes", self.classes.len()),
            )
            .inside(),
            Fact::data("scheme", "multinomial"),
            Fact::new("features", "", self.map.features.name()),
            Fact::data("feature_names", self.map.names()),
            Fact::data("coef", self.weights.clone()),
            Fact::data("intercept", self.biases.clone()),
            Fact::data("lambda", self.lambda),
            Fact::new("log_loss", "log loss", self.log_loss)
                .with_note("per point")
                .inside(),
            Fact::new("objective", "objective J =", self.objective).inside(),
            Fact::new("iterations", "iterations", self.report.iterations)
                .with_note(if converged { "" } else { "(not converged)" })
                .inside(),
            Fact::data("converged", converged),
        ]
    }

    fn point_facts(&self, i: usize, data: &Dataset) -> Vec<Fact> {
        let own = self.classes.binary_search(&data.labels[i]);
        let p = self.probabilities(data.points[i]);
        match (own, p) {
            (Ok(k), Some(p)) => vec![Fact::new("own_probability", "p(own class | x) =", p[k])],
            _ => Vec::new(),
        }
    }

    fn message(&self) -> Option<String> {
        solver_message(self.overshoot, &self.report, self.stepping, self.lambda)
    }

    fn run_ended(&self, shown: usize) -> bool {
        self.report.iterations < shown
            || self.report.exit == crate::methods::model::ExitReason::Converged
    }

    fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
    }

    /// Two classes: y·f of the log-odds. More: s_own − max of the other scores, which is
    /// positive exactly where the point is classified right.
    fn margin(&self, index: usize, data: &Dataset) -> Option<f64> {
        let own = self.classes.binary_search(&data.labels[index]).ok()?;
        let k = self.classes.len();
        let mut s = [0.0; MAX_CLASSES];
        self.scores_into(data.points[index], &mut s[..k]);
        // With two classes s_own − s_other is y·(s_2 − s_1).
        let rival = (0..k)
            .filter(|&l| l != own)
            .map(|l| s[l])
            .fold(f64::NEG_INFINITY, f64::max);
        Some(s[own] - rival)
    }

    /// The cross-entropy is the logistic loss of y·f with two classes; with more it is not a
    /// function of one margin.
    fn loss(&self) -> Option<Loss> {
        (self.classes.len() == 2).then_some(Loss::Logistic)
    }

    fn margin_kind(&self) -> &'static str {
        if self.classes.len() == 2 {
            "y·f(x)"
        } else {
            "the softmax margin s_own(x) − the largest other s_k(x)"
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;
    use crate::core::field::View;
    use crate::lab::state::Settings;
    use crate::methods::model::{ExitReason, FitOptions};
    use nalgebra::DVector;

    fn multinomial(features: Features, lambda: f64) -> LogisticParams {
        LogisticParams {
            multi: super::super::MultiClass::Multinomial,
            ..LogisticParams::new(features, lambda)
        }
    }

    #[test]
    fn gradient_and_hessian_are_the_derivatives_of_j() {
        let data = Preset::Blobs3.generate(30, 0.3, 5);
        let map = FeatureMap::new(Features::Polynomial { degree: 2 }, &data.points);
        let class = data.labels.iter().map(|&l| l as usize).collect();
        let problem = Softmax::new(&map, &data.points, class, 3, 0.3);
        let d = problem.dimension();
        let theta = DVector::from_fn(d, |i, _| ((i * 7 % 11) as f64 - 5.0) / 10.0);
        let (grad, hess) = problem.derivatives(&theta, true);
        let mut hess = hess.unwrap();
        // Take away the λ the solver adds along "every bias alike" (module docs).
        let width = problem.width();
        for k in 0..3 {
            for l in 0..3 {
                hess[(k * width + width - 1, l * width + width - 1)] -= 0.3;
            }
        }
        let h = 1e-6;
        for j in 0..d {
            let mut up = theta.clone();
            up[j] += h;
            let mut down = theta.clone();
            down[j] -= h;
            let slope = (problem.objective(&up) - problem.objective(&down)) / (2.0 * h);
            assert!(
                (slope - grad[j]).abs() < 1e-5,
                "∂J/∂θ_{j}: {slope} vs {}",
                grad[j]
            );
            let bend = (problem.derivatives(&up, false).0 - problem.derivatives(&down, false).0)
                / (2.0 * h);
            for i in 0..d {
                assert!((bend[i] - hess[(i, j)]).abs() < 1e-5, "H[{i}, {j}]");
            }
        }
        // Every gradient leaves the sum of the biases alone.
        let bias_sum: f64 = (0..3).map(|k| grad[k * width + width - 1]).sum();
        assert!(bias_sum.abs() < 1e-12);
    }

    #[test]
    fn two_classes_are_logistic_regression_with_half_the_lambda() {
        let data = Preset::Moons.generate(60, 0.3, 2);
        for features in [Features::Linear, Features::Polynomial { degree: 3 }] {
            let softmax =
                SoftmaxModel::fit(&data.points, &data.labels, &multinomial(features, 0.2)).unwrap();
            let binary = super::super::LogisticModel::fit(
                &data.points,
                &data.labels,
                &LogisticParams::new(features, 0.1),
            )
            .unwrap();
            // The symmetric parametrisation: w_1 = −w_2, b_1 = −b_2.
            for (a, b) in softmax.weights[0].iter().zip(&softmax.weights[1]) {
                assert!((a + b).abs() < 1e-9);
            }
            for x in data.points.iter().take(20) {
                let p = softmax.probabilities(*x).unwrap();
                assert!((p[1] - binary.probability(*x)).abs() < 1e-8, "{features:?}");
                assert!((softmax.decision_value(*x) - binary.decision_value(*x)).abs() < 1e-6);
                assert_eq!(softmax.predict(*x), binary.predict(*x));
            }
        }
    }

    #[test]
    fn the_registry_fits_every_class_at_once_when_asked() {
        let data = Preset::Blobs3.generate(90, 0.2, 1);
        let mut settings = Settings::default();
        settings.set("model", "logistic").unwrap();
        settings.set("features", "linear").unwrap();
        settings.set("multi", "multinomial").unwrap();
        let model = crate::methods::registry::fit(
            settings.method(),
            &settings.values,
            &data,
            FitOptions::default(),
        )
        .unwrap();
        let softmax = model
            .as_any()
            .downcast_ref::<SoftmaxModel>()
            .expect("one softmax model");
        assert_eq!(softmax.weights.len(), 3);
        assert!(model.accuracy(&data.points, &data.labels) > 0.95);
        for x in &data.points {
            let p = model.probabilities(*x).unwrap();
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert_eq!(model.predict(*x), data.labels[argmax(&p)]);
        }
        // One-vs-rest stays the default.
        settings.set("multi", "ovr").unwrap();
        let ovr = crate::methods::registry::fit(
            settings.method(),
            &settings.values,
            &data,
            FitOptions::default(),
        )
        .unwrap();
        assert!(ovr.as_any().downcast_ref::<SoftmaxModel>().is_none());
    }

    #[test]
    fn grid_evaluation_matches_the_model() {
        let data = Preset::Spiral3.generate(90, 0.1, 3);
        for features in [
            Features::Rbf { gamma: 4.0 },
            Features::Polynomial { degree: 3 },
        ] {
            let model = SoftmaxModel::fit(&data.points, &data.labels, &multinomial(features, 0.05))
                .unwrap();
            let grid = Grid::new(View::square(1.2), 13, 9);
            let labels = model.label_evaluator(&grid);
            let values = model.grid_evaluator(&grid);
            for r in 0..grid.rows {
                for c in 0..grid.cols {
                    let x = grid.node(r, c);
                    let (class, confidence) = labels(r, c);
                    let (want_class, want_confidence) = model.label_and_confidence(x);
                    assert_eq!(class, want_class, "{features:?}");
                    assert!((confidence - want_confidence).abs() < 1e-9);
                    assert!((values(r, c) - model.decision_value(x)).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn stepping_on_costs_one_iteration_and_matches_a_run_from_the_start() {
        let data = Preset::Blobs3.generate(45, 0.3, 4);
        for solver in [
            super::super::Solver::GradientDescent { learning_rate: 0.5 },
            super::super::Solver::Newton,
        ] {
            let params = |k| LogisticParams {
                solver,
                max_iter: Some(k),
                ..multinomial(Features::Polynomial { degree: 2 }, 0.05)
            };
            let mut kept = LogisticTrainer::new();
            for k in 0..8 {
                let before = kept.iterations_done;
                let stepped = kept
                    .fit_softmax(&data.points, &data.labels, &params(k))
                    .unwrap();
                let fresh = SoftmaxModel::fit(&data.points, &data.labels, &params(k)).unwrap();
                assert_eq!(
                    stepped.weights, fresh.weights,
                    "{solver:?}: θ after {k} steps"
                );
                assert_eq!(stepped.biases, fresh.biases);
                if k > 0 && stepped.report.exit != ExitReason::Converged {
                    assert_eq!(kept.iterations_done - before, 1, "{solver:?}: step {k}");
                }
            }
        }
    }
}

//! L2-regularised logistic regression: p(y = +1 | x) = σ(f(x)), σ(z) = 1/(1 + e^(−z)),
//! f(x) = wᵀφ(x) + b, fitted by minimising
//!
//! ```text
//!     J(w, b) = Σ_i log(1 + exp(−y_i f(x_i))) + (λ/2)‖w‖²      (b is not penalised)
//! ```
//!
//! which is scikit-learn's `LogisticRegression` with C = 1/λ. Without λ, separable data send
//! ‖w‖ to infinity; λ is a Gaussian prior on w (the MAP estimate).
//!
//! Features φ: the inputs themselves (a linear boundary); all monomials x₁^a x₂^b with
//! 1 ≤ a + b ≤ d, ordered by degree and then by falling power of x₁ (scikit-learn's
//! `PolynomialFeatures` order); or RBF bumps φ_j(x) = exp(−γ‖x − c_j‖²) centred on up to
//! [`MAX_CENTRES`] training points spread evenly through the data (kernel logistic regression on
//! a subset of the training points as basis, with the L2 penalty on the basis weights).
//!
//! Solvers, which reach the same optimum (J is convex), run by the `solver` module for this
//! model and the softmax one alike:
//! - Newton's method, i.e. iteratively reweighted least squares: with t_i ∈ {0, 1} and
//!   p_i = σ(f(x_i)), the gradient is Σ(p_i − t_i) φ̃_i + λ(w, 0) and the Hessian
//!   Σ p_i(1 − p_i) φ̃_i φ̃_iᵀ + λ diag(1, …, 1, 0) on φ̃ = (φ, 1); each step solves H Δ = −∇
//!   (Cholesky, nalgebra) with a backtracking line search, until ‖∇J‖ ≤ tol · J(0);
//! - gradient descent on the mean J/n with a fixed learning rate η: θ ← θ − η ∇J/n, for at
//!   most [`GD_ITERATIONS`] steps; a rise of J shows η is too large.
//!
//! More than two classes: one such model per class against the rest (the `multiclass`
//! module's one-vs-rest), or, with the `multi` setting `multinomial`, one softmax model of
//! every class at once ([`softmax`]), solved by the same Newton and gradient steps.
//!
//! Stepping through either solver shows θ after k iterations. [`LogisticTrainer`] keeps the
//! stepped run (θ, J, ∇J and the design matrix), so that asking for k + 1 on the same points
//! and parameters takes one iteration from there — the same arithmetic, so the same θ, as a
//! run from θ = 0 — instead of k + 1 from the start.

use crate::data::{Dataset, Point};
use crate::error::Error;
use crate::field::{expansion_evaluator, w_arrow, Grid, Smoothness};
use crate::kernel::{Kernel, MAX_DEGREE, MIN_DEGREE};
use crate::model::{
    Context, ExitReason, Fact, FitOptions, FitReport, Level, Method, Model, Trace, WarmStart,
    PROBABILITY_LEVELS,
};
use crate::params::Values;
use crate::plane::{Scene, Shading};
use crate::sklearn::{python_float, shown, Arg, Counterpart, Estimator, Helper, Multiclass};
use nalgebra::{DMatrix, DVector};

pub mod softmax;
mod solver;

pub use softmax::SoftmaxModel;
pub use solver::LogisticTrainer;
use solver::{solve, solver_message, Objective, Run};

/// Gradient descent's default iteration cap: enough for the lab's data at a good learning
/// rate, and few enough that a drag never waits long.
pub const GD_ITERATIONS: usize = 3_000;

/// The most RBF centres used as basis.
pub const MAX_CENTRES: usize = 100;

/// How the inputs are expanded before the linear model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Features {
    Linear,
    Polynomial { degree: u32 },
    Rbf { gamma: f64 },
}

impl Features {
    /// The features the `features`, `degree` and `gamma` settings describe.
    pub fn from_values(values: &Values) -> Features {
        match values.choice("features") {
            "linear" => Features::Linear,
            "poly" => Features::Polynomial {
                degree: values.whole("degree") as u32,
            },
            _ => Features::Rbf {
                gamma: values.real("gamma"),
            },
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Features::Linear => "linear",
            Features::Polynomial { .. } => "poly",
            Features::Rbf { .. } => "rbf",
        }
    }
}

/// How more than two classes are told apart (the `multi` setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiClass {
    /// One two-class model per class against all the others.
    OneVsRest,
    /// One softmax model over every class at once ([`softmax`]), for two classes too.
    Multinomial,
}

impl MultiClass {
    /// The scheme the `multi` setting names.
    pub fn from_values(values: &Values) -> MultiClass {
        match values.choice("multi") {
            "multinomial" => MultiClass::Multinomial,
            _ => MultiClass::OneVsRest,
        }
    }
}

/// Which optimiser.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Solver {
    Newton,
    GradientDescent { learning_rate: f64 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogisticParams {
    pub features: Features,
    /// λ > 0, the L2 penalty (C = 1/λ in scikit-learn).
    pub lambda: f64,
    pub solver: Solver,
    /// One-vs-rest or the softmax model, for more than two classes.
    pub multi: MultiClass,
    /// Stop when ‖∇J‖ ≤ tol · max(1, J(0)), J(0) = n log 2.
    pub tol: f64,
    /// Iteration cap; `None` means 100 for Newton and [`GD_ITERATIONS`] for gradient descent.
    pub max_iter: Option<usize>,
    /// Record J and ‖∇J‖ at every iterate (the trace view).
    pub record: bool,
}

impl LogisticParams {
    /// The parameters the settings describe.
    pub fn from_values(values: &Values) -> Result<LogisticParams, Error> {
        let features = Features::from_values(values);
        let solver = match values.choice("solver") {
            "gd" => Solver::GradientDescent {
                learning_rate: values.real("lr"),
            },
            _ => Solver::Newton,
        };
        // Gradient descent stops at a tolerance that is tight for the picture (‖∇J‖ ≤ 10⁻⁵ J(0))
        // rather than Newton's 10⁻⁸, which it would need thousands more steps to reach.
        let tol = match solver {
            Solver::GradientDescent { .. } => 1e-5,
            Solver::Newton => 1e-8,
        };
        let params = LogisticParams {
            solver,
            tol,
            multi: MultiClass::from_values(values),
            ..LogisticParams::new(features, values.real("lambda"))
        };
        params.check()?;
        Ok(params)
    }

    pub fn new(features: Features, lambda: f64) -> Self {
        Self {
            features,
            lambda,
            solver: Solver::Newton,
            multi: MultiClass::OneVsRest,
            tol: 1e-8,
            max_iter: None,
            record: false,
        }
    }

    pub fn check(&self) -> Result<(), Error> {
        if !(self.lambda.is_finite() && self.lambda > 0.0) {
            return Err(Error::Parameter("lambda <= 0".into()));
        }
        if let Features::Polynomial { degree } = self.features {
            if !(MIN_DEGREE..=MAX_DEGREE).contains(&degree) {
                return Err(Error::Parameter(format!(
                    "degree must be between {MIN_DEGREE} and {MAX_DEGREE}"
                )));
            }
        }
        if let Features::Rbf { gamma } = self.features {
            if !(gamma.is_finite() && gamma > 0.0) {
                return Err(Error::Parameter("gamma <= 0".into()));
            }
        }
        if let Solver::GradientDescent { learning_rate } = self.solver {
            if !(learning_rate.is_finite() && learning_rate > 0.0) {
                return Err(Error::Parameter("learning rate <= 0".into()));
            }
        }
        if !(self.tol.is_finite() && self.tol > 0.0) {
            return Err(Error::Parameter("tol <= 0".into()));
        }
        Ok(())
    }
}

/// The feature map, fixed at fit time (the RBF centres come from the training data).
#[derive(Clone, Debug)]
pub struct FeatureMap {
    pub features: Features,
    /// The RBF centres.
    pub centres: Vec<Point>,
}

impl FeatureMap {
    /// How smooth a model over these features is: RBF bumps as smooth as their kernel.
    pub fn smoothness(&self) -> Smoothness {
        match self.features {
            Features::Rbf { gamma } => Smoothness::of_kernel(Kernel::Rbf { gamma }),
            _ => Smoothness::Smooth,
        }
    }

    /// The map for `features`, its RBF centres taken from `points`.
    pub fn new(features: Features, points: &[Point]) -> Self {
        let centres = match features {
            Features::Rbf { .. } => {
                let stride = points.len().div_ceil(MAX_CENTRES).max(1);
                points.iter().step_by(stride).copied().collect()
            }
            _ => Vec::new(),
        };
        FeatureMap { features, centres }
    }

    /// The number of features (without the constant).
    pub fn len(&self) -> usize {
        match self.features {
            Features::Linear => 2,
            Features::Polynomial { degree } => {
                let d = degree as usize;
                (d + 1) * (d + 2) / 2 - 1
            }
            Features::Rbf { .. } => self.centres.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// φ(x), written into `out` (length [`FeatureMap::len`]).
    pub fn expand(&self, x: Point, out: &mut [f64]) {
        match self.features {
            Features::Linear => out.copy_from_slice(&x),
            Features::Polynomial { degree } => {
                // Each power of x₁ and x₂ once (the same powi, so the same bits), not once
                // per monomial: a third of the calls at degree 3.
                const MOST: usize = 10;
                let (mut p1, mut p2) = ([1.0; MOST + 1], [1.0; MOST + 1]);
                let tabled = degree as usize <= MOST;
                if tabled {
                    for e in 1..=degree as usize {
                        p1[e] = x[0].powi(e as i32);
                        p2[e] = x[1].powi(e as i32);
                    }
                }
                let power = |table: &[f64], v: f64, e: i32| {
                    if tabled {
                        table[e as usize]
                    } else {
                        v.powi(e)
                    }
                };
                let mut k = 0;
                for total in 1..=degree as i32 {
                    for b in 0..=total {
                        out[k] = power(&p1, x[0], total - b) * power(&p2, x[1], b);
                        k += 1;
                    }
                }
            }
            Features::Rbf { gamma } => {
                let kernel = Kernel::Rbf { gamma };
                for (o, &c) in out.iter_mut().zip(&self.centres) {
                    *o = kernel.eval(c, x);
                }
            }
        }
    }

    /// The names of the features ("x1^2 x2", "K(c3, x)", …), in order.
    pub fn names(&self) -> Vec<String> {
        match self.features {
            Features::Linear => vec!["x1".into(), "x2".into()],
            Features::Polynomial { degree } => {
                let power = |v: &str, p: i32| match p {
                    0 => None,
                    1 => Some(v.to_string()),
                    _ => Some(format!("{v}^{p}")),
                };
                let mut names = Vec::new();
                for total in 1..=degree as i32 {
                    for b in 0..=total {
                        let parts: Vec<String> = [power("x1", total - b), power("x2", b)]
                            .into_iter()
                            .flatten()
                            .collect();
                        names.push(parts.join(" "));
                    }
                }
                names
            }
            Features::Rbf { .. } => (0..self.centres.len())
                .map(|j| format!("K(c{j}, x)"))
                .collect(),
        }
    }
}

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

/// log(1 + e^z) without overflow.
fn softplus(z: f64) -> f64 {
    if z > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    }
}

/// σ(z).
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// The design matrix Φ̃: a row (φ(x_i), 1) per point, the constant last.
fn design(map: &FeatureMap, points: &[Point]) -> DMatrix<f64> {
    let p = map.len();
    let mut phi = DMatrix::zeros(points.len(), p + 1);
    let mut row = vec![0.0; p];
    for (i, &x) in points.iter().enumerate() {
        map.expand(x, &mut row);
        for j in 0..p {
            phi[(i, j)] = row[j];
        }
        phi[(i, p)] = 1.0;
    }
    phi
}

/// The design matrix with the constant column last, the targets, and J's pieces.
#[derive(Clone, Debug)]
struct Problem {
    phi: DMatrix<f64>,
    y: Vec<f64>,
    lambda: f64,
    p: usize,
    /// How many leading coordinates of θ the penalty holds: p (w alone) or p + 1 (the bias
    /// too).
    penalised: usize,
}

impl Problem {
    /// Φ̃ = (φ(x_i), 1) for every point, with y_i ∈ {−1, +1} and λ.
    fn new(map: &FeatureMap, points: &[Point], y: Vec<f64>, lambda: f64) -> Problem {
        let p = map.len();
        Problem {
            phi: design(map, points),
            y,
            lambda,
            p,
            penalised: p,
        }
    }
}

impl Objective for Problem {
    fn dimension(&self) -> usize {
        self.p + 1
    }

    fn points(&self) -> usize {
        self.y.len()
    }

    /// J(θ), θ = (w, b).
    fn objective(&self, theta: &DVector<f64>) -> f64 {
        let f = &self.phi * theta;
        let loss: f64 = f
            .iter()
            .zip(&self.y)
            .map(|(fi, yi)| softplus(-yi * fi))
            .sum();
        let w2: f64 = theta.rows(0, self.penalised).norm_squared();
        loss + 0.5 * self.lambda * w2
    }

    /// ∇J(θ) and, if asked, the Hessian.
    fn derivatives(
        &self,
        theta: &DVector<f64>,
        hessian: bool,
    ) -> (DVector<f64>, Option<DMatrix<f64>>) {
        let f = &self.phi * theta;
        let n = self.y.len();
        // ∂/∂f_i log(1 + e^(−y f)) = −y σ(−y f) = σ(f) − t.
        let residual = DVector::from_iterator(
            n,
            f.iter()
                .zip(&self.y)
                .map(|(fi, yi)| sigmoid(*fi) - (yi + 1.0) / 2.0),
        );
        let mut grad = self.phi.tr_mul(&residual);
        for j in 0..self.penalised {
            grad[j] += self.lambda * theta[j];
        }
        let hess = hessian.then(|| {
            let weights: Vec<f64> = f
                .iter()
                .map(|fi| {
                    let s = sigmoid(*fi);
                    s * (1.0 - s)
                })
                .collect();
            let mut weighted = self.phi.clone();
            for (i, w) in weights.iter().enumerate() {
                weighted.row_mut(i).scale_mut(*w);
            }
            let mut h = self.phi.tr_mul(&weighted);
            for j in 0..self.penalised {
                h[(j, j)] += self.lambda;
            }
            h
        });
        (grad, hess)
    }
}

/// Where the penalty (λ/2)‖·‖² reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prior {
    /// w alone: the bias is free, as in scikit-learn's `LogisticRegression`.
    Weights,
    /// Every coordinate of θ = (w, b): the prior N(0, λ⁻¹I) on all the weights.
    Everything,
}

/// What [`newton`] found.
#[derive(Clone, Debug)]
pub struct NewtonSolution {
    /// θ = (w, b), the bias last.
    pub theta: DVector<f64>,
    /// log p(D | θ) = −Σ_i log(1 + exp(−y_i f(x_i))).
    pub log_likelihood: f64,
    /// ∇²J at θ: Σ_i o_i(1 − o_i) φ̃_i φ̃_iᵀ, plus λ on the diagonal the prior reaches.
    pub hessian: DMatrix<f64>,
    pub iterations: usize,
    pub converged: bool,
    /// With λ = 0: an iterate put every training point strictly on its own side
    /// (y_i f(x_i) > 0 for all i), so the points are separable in the features and the
    /// likelihood has no maximum; the run stopped there.
    pub separated: bool,
}

/// Minimises J(θ) = −log p(D | θ) + (λ/2)‖θ‖², the penalty on the coordinates `prior` names,
/// from θ = 0 by the Newton iterations above, until ‖∇J‖ ≤ tol · max(1, J(0)) or `max_iter`
/// iterations. λ = 0 is allowed: the unregularised maximum likelihood, which stops as soon as
/// an iterate separates the points (then there is no maximum to go to).
pub fn newton(
    map: &FeatureMap,
    points: &[Point],
    y: &[f64],
    lambda: f64,
    prior: Prior,
    tol: f64,
    max_iter: usize,
) -> Result<NewtonSolution, Error> {
    let mut problem = Problem::new(map, points, y.to_vec(), lambda);
    if prior == Prior::Everything {
        problem.penalised = problem.p + 1;
    }
    let params = LogisticParams {
        tol,
        max_iter: Some(max_iter),
        ..LogisticParams::new(map.features, lambda)
    };
    let separates = |theta: &DVector<f64>| {
        (&problem.phi * theta)
            .iter()
            .zip(y)
            .all(|(f, y)| y * f > 0.0)
    };
    let mut run = Run::start(&problem, &params);
    let mut separated = false;
    while !run.converged && run.iterations < max_iter {
        run.iterate(&problem, &params)?;
        if lambda == 0.0 && separates(&run.theta) {
            separated = true;
            break;
        }
    }
    let (_, hessian) = problem.derivatives(&run.theta, true);
    let log_likelihood = -(&problem.phi * &run.theta)
        .iter()
        .zip(y)
        .map(|(f, y)| softplus(-y * f))
        .sum::<f64>();
    Ok(NewtonSolution {
        log_likelihood,
        hessian: hessian.expect("asked for the Hessian"),
        iterations: run.iterations,
        converged: run.converged,
        separated,
        theta: run.theta,
    })
}

impl LogisticTrainer {
    /// Fits from θ = 0, or, when stepping (`params.max_iter` is the step count) on what the
    /// last stepped fit ran on, from where it stopped.
    pub fn fit(
        &mut self,
        points: &[Point],
        labels: &[i32],
        params: &LogisticParams,
    ) -> Result<LogisticModel, Error> {
        let setup = || {
            let data = crate::data::Dataset::from_parts(points.to_vec(), labels.to_vec());
            let (classes, y) = data.binary_targets()?;
            let map = FeatureMap::new(params.features, points);
            let problem = Problem::new(&map, points, y, params.lambda);
            Ok((classes.to_vec(), map, problem))
        };
        let kept = &mut self.stepped;
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
            scene.w_arrow = self.w().and_then(|w| w_arrow(w, self.bias, &context.view));
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

    fn loss(&self) -> Option<crate::model::Loss> {
        Some(crate::model::Loss::Logistic)
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

/// The registry entry: L2-regularised logistic regression, Newton or gradient descent.
pub struct LogisticMethod;

impl Method for LogisticMethod {
    fn id(&self) -> &'static str {
        "logistic"
    }

    fn title(&self) -> &'static str {
        "logistic regression"
    }

    fn explain(&self) -> &'static str {
        "Models p(y = 1 | x) = σ(wᵀφ(x) + b) and minimises the log loss plus λ/2‖w‖²; the boundary is where p = ½."
    }

    fn params(&self) -> &'static [&'static str] {
        &[
            "features", "lambda", "gamma", "degree", "multi", "solver", "lr",
        ]
    }

    /// With the `multi` setting `multinomial`: the softmax model tells every class apart.
    fn native_multiclass(&self, values: &Values) -> bool {
        MultiClass::from_values(values) == MultiClass::Multinomial
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["lambda", "gamma", "degree"]
    }

    fn steppable(&self) -> bool {
        true
    }

    /// The stepped run, kept so that a step costs one iteration.
    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(LogisticTrainer::new()))
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let params = LogisticParams {
            max_iter: options.steps,
            record: options.record,
            ..LogisticParams::from_values(values)?
        };
        let trainer = options
            .warm
            .and_then(|w| w.as_any().downcast_mut::<LogisticTrainer>());
        let mut fresh = LogisticTrainer::new();
        let trainer = trainer.unwrap_or(&mut fresh);
        let (points, labels) = (&data.points, &data.labels);
        Ok(match params.multi {
            MultiClass::Multinomial => Box::new(trainer.fit_softmax(points, labels, &params)?),
            MultiClass::OneVsRest => Box::new(trainer.fit(points, labels, &params)?),
        })
    }

    /// `LogisticRegression` minimises C Σ log-loss + ½‖w‖², the lab's J divided by λ, with
    /// the same unpenalised intercept: C = 1/λ, after the same features.
    fn sklearn(&self, values: &Values, data: &Dataset) -> Counterpart {
        let lambda = values.real("lambda");
        // The softmax model of two classes is the two-class model with the penalty halved
        // (its two weight vectors are opposite): scikit-learn's C doubled.
        let softmax_pair = values.choice("multi") == "multinomial" && data.classes().len() == 2;
        let c = match softmax_pair {
            true => format!("2 / {}", python_float(lambda)),
            false => format!("1 / {}", python_float(lambda)),
        };
        let (mut steps, feature_lines) = feature_steps(values);
        steps.push(
            Estimator::sklearn("sklearn.linear_model", "LogisticRegression")
                .arg("C", Arg::Expression(c.clone()))
                .arg("tol", 1e-12)
                .arg("max_iter", 100_000_u64),
        );
        let gd = values.choice("solver") == "gd";
        let counterpart = Counterpart::same(steps, Multiclass::Otherwise)
            .map(
                "lambda",
                format!(
                    "{} → C={c}: scikit-learn weighs the log loss by C where the lab \
                     weighs ½‖w‖² by λ; neither penalises the intercept (the default L2 \
                     penalty){}",
                    shown(values, "lambda"),
                    if softmax_pair {
                        "; the lab's softmax model of two classes has two opposite weight \
                         vectors, so its penalty is the two-class model's halved"
                    } else {
                        ""
                    }
                ),
            )
            .map_all(feature_lines)
            .map(
                "multi",
                match (softmax_pair, values.choice("multi")) {
                    (true, _) => "softmax of two classes → the two-class model, C doubled \
                                  (above)"
                        .to_string(),
                    (false, "multinomial") => "softmax → LogisticRegression's own multinomial \
                                               model: one weight vector per class, p = softmax"
                        .to_string(),
                    _ => "one-vs-rest → with more than two classes, one two-class model per \
                          class against the rest (OneVsRestClassifier)"
                        .to_string(),
                },
            )
            .map(
                "solver",
                format!(
                    "{} → L-BFGS (scikit-learn's default) to tol=1e-12: J is convex, so it \
                     ends at the minimum the lab's {}",
                    shown(values, "solver"),
                    if gd {
                        "gradient descent heads for"
                    } else {
                        "Newton steps reach"
                    }
                ),
            )
            .map(
                "lr",
                "learning rate → none: L-BFGS chooses its own steps (the rate matters to the \
                 lab's gradient descent only)",
            );
        if gd {
            counterpart.near(format!(
                "the lab's gradient descent stops after at most {GD_ITERATIONS} steps or at \
                 ‖∇J‖ ≤ 10⁻⁵ J(0), short of the minimum L-BFGS reaches"
            ))
        } else {
            counterpart
        }
    }
}

/// The steps that make the features of the `features`, `degree` and `gamma` settings in
/// scikit-learn, and their mapping lines: none for the linear ones, `PolynomialFeatures`
/// without its constant (the same monomials in the same order), or the script's RBF bumps on
/// the same centres.
pub fn feature_steps(values: &Values) -> (Vec<Estimator>, Vec<(&'static str, String)>) {
    let unused = |key| format!("{} → (these features do not use it)", shown(values, key));
    match Features::from_values(values) {
        Features::Linear => (
            Vec::new(),
            vec![
                (
                    "features",
                    "features = linear → x itself, no transformer".to_string(),
                ),
                ("degree", unused("degree")),
                ("gamma", unused("gamma")),
            ],
        ),
        Features::Polynomial { degree } => (
            vec![
                Estimator::sklearn("sklearn.preprocessing", "PolynomialFeatures")
                    .arg("degree", u64::from(degree))
                    .arg("include_bias", false),
            ],
            vec![
                (
                    "features",
                    "features = poly → PolynomialFeatures(include_bias=False): every \
                     x₁ᵃx₂ᵇ with 1 ≤ a + b ≤ degree, in the lab's order (the constant is the \
                     intercept)"
                        .to_string(),
                ),
                (
                    "degree",
                    format!("{} → degree={degree}", shown(values, "degree")),
                ),
                ("gamma", unused("gamma")),
            ],
        ),
        Features::Rbf { gamma } => (
            vec![Estimator::helper(Helper::RbfBumps)
                .arg("gamma", gamma)
                .arg("max_centres", MAX_CENTRES as u64)],
            vec![
                (
                    "features",
                    format!(
                        "features = rbf → RbfBumps (below): exp(−γ‖x − cⱼ‖²) on every \
                         ⌈n/{MAX_CENTRES}⌉-th training point cⱼ, as the lab picks them"
                    ),
                ),
                (
                    "gamma",
                    format!("{} → gamma={}", shown(values, "gamma"), python_float(gamma)),
                ),
                ("degree", unused("degree")),
            ],
        ),
    }
}

#[cfg(test)]
mod tests;

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
//! Solvers, which reach the same optimum (J is convex):
//! - Newton's method, i.e. iteratively reweighted least squares: with t_i ∈ {0, 1} and
//!   p_i = σ(f(x_i)), the gradient is Σ(p_i − t_i) φ̃_i + λ(w, 0) and the Hessian
//!   Σ p_i(1 − p_i) φ̃_i φ̃_iᵀ + λ diag(1, …, 1, 0) on φ̃ = (φ, 1); each step solves H Δ = −∇
//!   (Cholesky, nalgebra) with a backtracking line search, until ‖∇J‖ ≤ tol · J(0);
//! - gradient descent on the mean J/n with a fixed learning rate η: θ ← θ − η ∇J/n, for at
//!   most [`GD_ITERATIONS`] steps; a rise of J shows η is too large.
//!
//! Stepping through either solver shows θ after k iterations. [`LogisticTrainer`] keeps the
//! stepped run (θ, J, ∇J and the design matrix), so that asking for k + 1 on the same points
//! and parameters takes one iteration from there — the same arithmetic, so the same θ, as a
//! run from θ = 0 — instead of k + 1 from the start.

use crate::data::{Dataset, Point};
use crate::error::Error;
use crate::field::{expansion_evaluator, w_arrow, Grid, Smoothness};
use crate::kernel::Kernel;
use crate::model::{
    Context, ExitReason, Fact, FitOptions, FitReport, Level, Method, Model, Trace, TraceCurve,
    TracePanel, WarmStart, PROBABILITY_LEVELS,
};
use crate::params::Values;
use crate::plane::{Scene, Shading};
use crate::sklearn::{python_float, shown, Arg, Counterpart, Estimator, Helper, Multiclass};
use nalgebra::{DMatrix, DVector};

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
            if !(1..=10).contains(&degree) {
                return Err(Error::Parameter("degree must be between 1 and 10".into()));
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
                let mut k = 0;
                for total in 1..=degree as i32 {
                    for b in 0..=total {
                        out[k] = x[0].powi(total - b) * x[1].powi(b);
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
        let mut phi = DMatrix::zeros(points.len(), p + 1);
        let mut row = vec![0.0; p];
        for (i, &x) in points.iter().enumerate() {
            map.expand(x, &mut row);
            for j in 0..p {
                phi[(i, j)] = row[j];
            }
            phi[(i, p)] = 1.0;
        }
        Problem {
            phi,
            y,
            lambda,
            p,
            penalised: p,
        }
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

/// Where a run of either solver stands: θ = (w, b), J(θ) and ∇J(θ), the iterations so far,
/// and how they went. One [`Run::iterate`] is one Newton or gradient step.
#[derive(Clone, Debug)]
struct Run {
    theta: DVector<f64>,
    objective: f64,
    grad: DVector<f64>,
    iterations: usize,
    converged: bool,
    overshoot: bool,
    /// J(0) = n log 2: the scale ‖∇J‖ is judged against, which no bad step can inflate.
    start_objective: f64,
    gradient_tol: f64,
    /// (J, ‖∇J‖) of every iterate from θ = 0, when recorded.
    rows: Vec<(f64, f64)>,
}

impl Run {
    fn start(problem: &Problem, params: &LogisticParams) -> Run {
        let theta = DVector::zeros(problem.p + 1);
        let objective = problem.objective(&theta);
        let (grad, _) = problem.derivatives(&theta, false);
        let mut run = Run {
            theta,
            objective,
            gradient_tol: params.tol * objective.max(1.0),
            start_objective: objective,
            grad,
            iterations: 0,
            converged: false,
            overshoot: false,
            rows: Vec::new(),
        };
        run.record(params);
        run
    }

    fn record(&mut self, params: &LogisticParams) {
        if params.record {
            self.rows.push((self.objective, self.grad.norm()));
        }
    }

    /// One iteration of the solver, unless θ already meets the tolerance (then it says so and
    /// counts none).
    fn iterate(&mut self, problem: &Problem, params: &LogisticParams) -> Result<(), Error> {
        if self.grad.norm() <= self.gradient_tol {
            self.converged = true;
            return Ok(());
        }
        match params.solver {
            Solver::Newton => {
                let p = problem.p;
                let (g, h) = problem.derivatives(&self.theta, true);
                let h = h.expect("asked for the Hessian");
                let step = match h.clone().cholesky() {
                    Some(chol) => chol.solve(&(-&g)),
                    // Only the unpenalised bias can make H singular (all points one side
                    // of a saturated sigmoid); LU with a nudge still gives a descent step.
                    None => {
                        let mut nudged = h;
                        for j in 0..=p {
                            nudged[(j, j)] += 1e-10;
                        }
                        nudged.lu().solve(&(-&g)).unwrap_or_else(|| -&g)
                    }
                };
                // The Newton decrement −∇ᵀΔ/2 bounds how much J can still fall: once it is
                // at rounding level, ‖∇J‖ cannot usefully shrink further.
                let slope = g.dot(&step);
                if -slope <= 1e-15 * self.objective.max(1.0) {
                    self.converged = true;
                    return Ok(());
                }
                // Backtracking: halve the step until J decreases enough (Armijo).
                let mut t = 1.0;
                let mut candidate = &self.theta + &step;
                let mut value = problem.objective(&candidate);
                while value > self.objective + 1e-4 * t * slope && t > 1e-10 {
                    t *= 0.5;
                    candidate = &self.theta + t * &step;
                    value = problem.objective(&candidate);
                }
                self.iterations += 1;
                if value >= self.objective && t <= 1e-10 {
                    self.converged = true; // no further progress is possible
                    return Ok(());
                }
                self.theta = candidate;
                self.objective = value;
                self.grad = problem.derivatives(&self.theta, false).0;
                self.record(params);
            }
            Solver::GradientDescent { learning_rate } => {
                let n = problem.y.len() as f64;
                self.theta -= (learning_rate / n) * &self.grad;
                self.iterations += 1;
                self.grad = problem.derivatives(&self.theta, false).0;
                let previous = self.objective;
                self.objective = problem.objective(&self.theta);
                // With a small enough step J falls every iteration; a rise means the step
                // overshoots the valley.
                self.overshoot |= self.objective > previous * (1.0 + 1e-12);
                self.record(params);
                if !self.objective.is_finite() || self.objective > 100.0 * self.start_objective {
                    return Err(Error::Parameter(
                        "gradient descent diverged: lower the learning rate".into(),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A run cut short by stepping, with what it ran on.
#[derive(Clone, Debug)]
struct SteppedRun {
    points: Vec<Point>,
    labels: Vec<i32>,
    /// The parameters, without the step count.
    params: LogisticParams,
    classes: [i32; 2],
    map: FeatureMap,
    problem: Problem,
    run: Run,
}

/// What logistic regression keeps between fits: the run stepped last, so that one more step
/// on the same points and parameters takes one iteration from there (the iterate a run from
/// θ = 0 reaches too) instead of starting again.
#[derive(Clone, Debug, Default)]
pub struct LogisticTrainer {
    stepped: Option<Box<SteppedRun>>,
    /// Every iteration this trainer has made (how a test sees that a step costs one).
    pub iterations_done: usize,
}

impl LogisticTrainer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Fits from θ = 0, or, when stepping (`params.max_iter` is the step count) on what the
    /// last stepped fit ran on, from where it stopped.
    pub fn fit(
        &mut self,
        points: &[Point],
        labels: &[i32],
        params: &LogisticParams,
    ) -> Result<LogisticModel, Error> {
        params.check()?;
        let stepping = params.max_iter.is_some() && !params.record;
        let same = LogisticParams {
            max_iter: None,
            record: false,
            ..*params
        };
        let kept = self.stepped.take().filter(|kept| {
            stepping
                && kept.params == same
                && kept.points == points
                && kept.labels == labels
                && params.max_iter.is_some_and(|k| kept.run.iterations <= k)
        });
        let SteppedRun {
            classes,
            map,
            problem,
            mut run,
            ..
        } = match kept {
            Some(kept) => *kept,
            None => {
                let data = crate::data::Dataset::from_parts(points.to_vec(), labels.to_vec());
                let (classes, y) = data.binary_targets()?;
                let map = FeatureMap::new(params.features, points);
                let problem = Problem::new(&map, points, y, params.lambda);
                let run = Run::start(&problem, params);
                SteppedRun {
                    points: Vec::new(),
                    labels: Vec::new(),
                    params: same,
                    classes,
                    map,
                    problem,
                    run,
                }
            }
        };
        let cap = params.max_iter.unwrap_or(match params.solver {
            Solver::Newton => 100,
            Solver::GradientDescent { .. } => GD_ITERATIONS,
        });
        while !run.converged && run.iterations < cap {
            let before = run.iterations;
            run.iterate(&problem, params)?;
            self.iterations_done += run.iterations - before;
        }
        let model = LogisticModel::from_run(classes, &map, &problem, &run, params);
        if stepping {
            run.rows.clear();
            self.stepped = Some(Box::new(SteppedRun {
                points: points.to_vec(),
                labels: labels.to_vec(),
                params: same,
                classes,
                map,
                problem,
                run,
            }));
        }
        Ok(model)
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

impl WarmStart for LogisticTrainer {
    fn point_added(&mut self) {
        self.stepped = None;
    }
    fn point_moved(&mut self, _index: usize, _points: &[Point]) {
        self.stepped = None;
    }
    fn point_removed(&mut self, _index: usize) {
        self.stepped = None;
    }
    fn forget(&mut self) {
        self.stepped = None;
    }
    fn data_replaced(&mut self) {
        self.stepped = None;
    }
    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
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
        let trace = params.record.then(|| {
            let (values, norms): (Vec<f64>, Vec<f64>) = run.rows.iter().copied().unzip();
            Trace {
                x_label: "iterations",
                first: 0,
                thinned_at: Vec::new(),
                panels: vec![
                    TracePanel {
                        y_label: "J",
                        log: false,
                        curves: vec![TraceCurve {
                            key: "objective",
                            label: "objective J",
                            values,
                        }],
                    },
                    TracePanel {
                        y_label: "log₁₀",
                        log: true,
                        curves: vec![TraceCurve {
                            key: "gradient_norm",
                            label: "‖∇J‖",
                            values: norms,
                        }],
                    },
                ],
            }
        });
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
            report: FitReport {
                iterations: run.iterations,
                exit: if run.converged {
                    ExitReason::Converged
                } else {
                    ExitReason::IterationCap
                },
                objective: run.objective,
                warm_start: false,
            },
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
        if self.overshoot {
            Some("gradient descent overshoots (the objective rose): lower the learning rate".into())
        } else if self.report.exit != ExitReason::Converged && !self.stepping {
            Some(format!(
                "the solver stopped after {} iterations before converging; {}",
                self.report.iterations,
                if self.lambda < 1e-3 {
                    "with a tiny λ on separable data the weights grow without bound"
                } else {
                    "raise the learning rate or use Newton"
                }
            ))
        } else {
            None
        }
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
        &["features", "lambda", "gamma", "degree", "solver", "lr"]
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
        let model = match trainer {
            Some(trainer) => trainer.fit(&data.points, &data.labels, &params)?,
            None => LogisticModel::fit(&data.points, &data.labels, &params)?,
        };
        Ok(Box::new(model))
    }

    /// `LogisticRegression` minimises C Σ log-loss + ½‖w‖², the lab's J divided by λ, with
    /// the same unpenalised intercept: C = 1/λ, after the same features.
    fn sklearn(&self, values: &Values, _data: &Dataset) -> Counterpart {
        let lambda = values.real("lambda");
        let (mut steps, feature_lines) = feature_steps(values);
        steps.push(
            Estimator::sklearn("sklearn.linear_model", "LogisticRegression")
                .arg(
                    "C",
                    Arg::Expression(format!("1 / {}", python_float(lambda))),
                )
                .arg("tol", 1e-12)
                .arg("max_iter", 100_000_u64),
        );
        let gd = values.choice("solver") == "gd";
        let counterpart = Counterpart::same(steps, Multiclass::Otherwise)
            .map(
                "lambda",
                format!(
                    "{} → C=1 / {}: scikit-learn weighs the log loss by C where the lab \
                     weighs ½‖w‖² by λ; neither penalises the intercept (the default L2 \
                     penalty)",
                    shown(values, "lambda"),
                    python_float(lambda)
                ),
            )
            .map_all(feature_lines)
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

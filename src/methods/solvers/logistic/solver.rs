//! How logistic regression's J(θ) is minimised, whatever the model: Newton's method with a
//! backtracking (Armijo) line search, each step solving H Δ = −∇J, until
//! ‖∇J‖ ≤ tol · max(1, J(0)); or gradient descent on the mean J/n with a fixed learning rate,
//! θ ← θ − η ∇J/n, which reports a rise of J (η too large). The two-class problem and the
//! softmax one each give J, ∇J and the Hessian ([`Objective`]); a [`Run`] is where either
//! solver stands, one iteration at a time, and [`LogisticTrainer`] keeps a stepped run so that
//! one more step on the same points and parameters costs one iteration, and where the last
//! Newton run ended, which the next whole fit starts from while an interaction goes on.

use super::softmax::Softmax;
use super::{FeatureMap, LogisticParams, Problem, Solver, GD_ITERATIONS};
use crate::core::data::Point;
use crate::core::error::Error;
use crate::methods::model::{ExitReason, FitReport, Trace, TraceCurve, TracePanel, WarmStart};
use nalgebra::{DMatrix, DVector};

/// What the solvers minimise: J(θ) over the training points, its gradient and Hessian. The
/// two-class problem is one, the softmax problem the other.
pub(super) trait Objective {
    /// How many coordinates θ has.
    fn dimension(&self) -> usize;
    /// How many training points J sums over.
    fn points(&self) -> usize;
    /// J(θ).
    fn objective(&self, theta: &DVector<f64>) -> f64;
    /// ∇J(θ) and, if asked, the Hessian.
    fn derivatives(
        &self,
        theta: &DVector<f64>,
        hessian: bool,
    ) -> (DVector<f64>, Option<DMatrix<f64>>);
}

/// Where a run of either solver stands: θ, J(θ) and ∇J(θ), the iterations so far, and how
/// they went. One [`Run::iterate`] is one Newton or gradient step.
#[derive(Clone, Debug)]
pub(super) struct Run {
    pub(super) theta: DVector<f64>,
    pub(super) objective: f64,
    pub(super) grad: DVector<f64>,
    pub(super) iterations: usize,
    pub(super) converged: bool,
    pub(super) overshoot: bool,
    /// J(0) (n log 2 for two classes, n log K for K): the scale ‖∇J‖ is judged against, which
    /// no bad step can inflate.
    start_objective: f64,
    gradient_tol: f64,
    /// (J, ‖∇J‖) of every iterate from θ = 0, when recorded.
    pub(super) rows: Vec<(f64, f64)>,
    /// The run started from an earlier fit's θ, not from 0.
    warm: bool,
}

impl Run {
    pub(super) fn start(problem: &dyn Objective, params: &LogisticParams) -> Run {
        let theta = DVector::zeros(problem.dimension());
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
            warm: false,
        };
        run.record(params);
        run
    }

    /// A run from `theta` (an earlier fit's), judged by the same tolerance as one from θ = 0:
    /// ‖∇J‖ against J(0).
    fn start_at(problem: &dyn Objective, params: &LogisticParams, theta: DVector<f64>) -> Run {
        let start_objective = problem.objective(&DVector::zeros(problem.dimension()));
        let (grad, _) = problem.derivatives(&theta, false);
        Run {
            objective: problem.objective(&theta),
            theta,
            gradient_tol: params.tol * start_objective.max(1.0),
            start_objective,
            grad,
            iterations: 0,
            converged: false,
            overshoot: false,
            rows: Vec::new(),
            warm: true,
        }
    }

    fn record(&mut self, params: &LogisticParams) {
        if params.record {
            self.rows.push((self.objective, self.grad.norm()));
        }
    }

    /// The recorded J and ‖∇J‖ per iterate, as the trace view draws them.
    pub(super) fn trace(&self) -> Trace {
        let (values, norms): (Vec<f64>, Vec<f64>) = self.rows.iter().copied().unzip();
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
    }

    /// The fit report of where the run stands.
    pub(super) fn report(&self) -> FitReport {
        FitReport {
            iterations: self.iterations,
            exit: if self.converged {
                ExitReason::Converged
            } else {
                ExitReason::IterationCap
            },
            objective: self.objective,
            warm_start: self.warm,
        }
    }

    /// Iterates until θ meets the tolerance or the run reaches its cap (`params.max_iter`, else
    /// 100 Newton or [`GD_ITERATIONS`] gradient steps); says how many iterations it made.
    fn go_on(&mut self, problem: &dyn Objective, params: &LogisticParams) -> Result<usize, Error> {
        let cap = params.max_iter.unwrap_or(match params.solver {
            Solver::Newton => 100,
            Solver::GradientDescent { .. } => GD_ITERATIONS,
        });
        let before = self.iterations;
        while !self.converged && self.iterations < cap {
            self.iterate(problem, params)?;
        }
        Ok(self.iterations - before)
    }

    /// One iteration of the solver, unless θ already meets the tolerance (then it says so and
    /// counts none).
    pub(super) fn iterate(
        &mut self,
        problem: &dyn Objective,
        params: &LogisticParams,
    ) -> Result<(), Error> {
        if self.grad.norm() <= self.gradient_tol {
            self.converged = true;
            return Ok(());
        }
        match params.solver {
            Solver::Newton => {
                let (g, h) = problem.derivatives(&self.theta, true);
                let h = h.expect("asked for the Hessian");
                let step = match h.clone().cholesky() {
                    Some(chol) => chol.solve(&(-&g)),
                    // Only the unpenalised biases can make H singular (all points one side
                    // of a saturated sigmoid); LU with a nudge still gives a descent step.
                    None => {
                        let mut nudged = h;
                        for j in 0..problem.dimension() {
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
                let n = problem.points() as f64;
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

/// A run cut short by stepping, with what it ran on: the two-class problem or the softmax
/// one.
#[derive(Clone, Debug)]
pub(super) struct SteppedRun<P> {
    points: Vec<Point>,
    labels: Vec<i32>,
    /// The parameters, without the step count.
    params: LogisticParams,
    classes: Vec<i32>,
    map: FeatureMap,
    problem: P,
    run: Run,
}

/// Where Newton's method ended on a fit: the next fit of the same classes, features and
/// solver, whatever λ and wherever the points were dragged, starts there (J is convex and, with
/// λ > 0, strictly so in the two-class model, so Newton with its line search reaches the same
/// minimum from anywhere, in fewer iterations from nearby; the softmax J is flat along adding
/// one number to every bias, and every run, from θ = 0 or from a θ so reached, keeps the
/// biases' sum where it started).
#[derive(Clone, Debug)]
pub(super) struct Ended {
    /// The parameters but λ (set to 0), without the step count.
    params: LogisticParams,
    classes: Vec<i32>,
    theta: DVector<f64>,
}

/// What a trainer keeps of one model's runs: the run stepped last, and where the last whole
/// Newton run ended.
#[derive(Clone, Debug)]
pub(super) struct Kept<P> {
    stepped: Option<Box<SteppedRun<P>>>,
    ended: Option<Ended>,
}

impl<P> Default for Kept<P> {
    fn default() -> Self {
        Kept {
            stepped: None,
            ended: None,
        }
    }
}

/// What logistic regression keeps between fits: the run stepped last, so that one more step
/// on the same points and parameters takes one iteration from there (the iterate a run from
/// θ = 0 reaches too) instead of starting again; and where the last Newton run ended, which
/// the next fit starts from while a slider or a drag goes on (a warm start: the lab fits
/// again from θ = 0 when the interaction ends, so that what stays on screen is the link's).
#[derive(Clone, Debug, Default)]
pub struct LogisticTrainer {
    pub(super) two_class: Kept<Problem>,
    /// The same for the multinomial model.
    pub(super) softmax: Kept<Softmax>,
    /// Every iteration this trainer has made (how a test sees that a step costs one).
    pub iterations_done: usize,
}

impl LogisticTrainer {
    pub fn new() -> Self {
        Self::default()
    }
}

/// Runs `params`' solver on the problem `setup` makes (the classes, the feature map and J)
/// from θ = 0 — or, when stepping on the points and parameters of the run `kept`, from where
/// that run stopped, or for a whole Newton run, from where the last one `ended` on the same
/// classes and features — and makes the model of where it ends with `model`. A stepped run
/// is kept for the next step, a converged Newton run's end for the next fit; `done` counts
/// the iterations made.
pub(super) fn solve<P: Objective, M>(
    kept: &mut Kept<P>,
    done: &mut usize,
    points: &[Point],
    labels: &[i32],
    params: &LogisticParams,
    setup: impl FnOnce() -> Result<(Vec<i32>, FeatureMap, P), Error>,
    model: impl FnOnce(&[i32], &FeatureMap, &P, &Run) -> M,
) -> Result<M, Error> {
    params.check()?;
    let stepping = params.max_iter.is_some() && !params.record;
    let same = LogisticParams {
        max_iter: None,
        record: false,
        ..*params
    };
    // A whole Newton run starts from, and leaves, where the last one on the same classes and
    // features (whatever λ) ended.
    let whole_newton = !stepping && !params.record && params.solver == Solver::Newton;
    let unpenalised = LogisticParams {
        lambda: 0.0,
        ..same
    };
    let kept_run = kept.stepped.take().filter(|kept| {
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
    } = match kept_run {
        Some(kept_run) => *kept_run,
        None => {
            let (classes, map, problem) = setup()?;
            let from = kept.ended.take().filter(|e| {
                whole_newton
                    && e.params == unpenalised
                    && e.classes == classes
                    && e.theta.len() == problem.dimension()
            });
            let run = match from {
                Some(e) => Run::start_at(&problem, params, e.theta),
                None => Run::start(&problem, params),
            };
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
    *done += run.go_on(&problem, params)?;
    let fitted = model(&classes, &map, &problem, &run);
    if whole_newton && run.converged {
        kept.ended = Some(Ended {
            params: unpenalised,
            classes: classes.clone(),
            theta: run.theta.clone(),
        });
    }
    if stepping {
        run.rows.clear();
        kept.stepped = Some(Box::new(SteppedRun {
            points: points.to_vec(),
            labels: labels.to_vec(),
            params: same,
            classes,
            map,
            problem,
            run,
        }));
    }
    Ok(fitted)
}

impl LogisticTrainer {
    /// Every edit of the points ends a stepped run.
    fn drop_runs(&mut self) {
        self.two_class.stepped = None;
        self.softmax.stepped = None;
    }
}

impl WarmStart for LogisticTrainer {
    fn point_added(&mut self) {
        self.drop_runs();
    }
    fn point_moved(&mut self, _index: usize, _points: &[Point]) {
        self.drop_runs();
    }
    fn point_removed(&mut self, _index: usize) {
        self.drop_runs();
    }
    fn forget(&mut self) {
        self.two_class = Kept::default();
        self.softmax = Kept::default();
    }
    fn data_replaced(&mut self) {
        self.forget();
    }
    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// What a run that went wrong should tell: gradient descent overshot, or the solver stopped
/// at its cap (unless stepping stopped it there).
pub(super) fn solver_message(
    overshoot: bool,
    report: &FitReport,
    stepping: bool,
    lambda: f64,
) -> Option<String> {
    if overshoot {
        Some("gradient descent overshoots (the objective rose): lower the learning rate".into())
    } else if report.exit != ExitReason::Converged && !stepping {
        Some(format!(
            "the solver stopped after {} iterations before converging; {}",
            report.iterations,
            if lambda < 1e-3 {
                "with a tiny λ on separable data the weights grow without bound"
            } else {
                "raise the learning rate or use Newton"
            }
        ))
    } else {
        None
    }
}

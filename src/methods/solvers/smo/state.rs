//! SMO's working state on one problem and its main loop: select a pair, update it, update
//! the gradient ∇ = Qα − e on the active set, shrink now and then, until the maximal KKT
//! violation m(α) − M(α) is below `tol`.

use super::trainer::SteppedRun;
use super::update::{unclipped_optimum, update_pair};
use super::{objectives, PairStep, Problem, Recording, SmoTrace};
use crate::core::data::Point;
use crate::core::kernel::KernelCache;
use crate::methods::model::ExitReason;

/// What an SMO on a dual of this kind ends with ([`solve_from`]; ν-SVC's and the one-class
/// SVM's solvers too).
pub(crate) struct Solved {
    pub alpha: Vec<f64>,
    /// The gradient of the objective minimised, exact on every point: Qα − e from
    /// [`solve_from`] (the shrunk points' reconstructed).
    pub gradient: Vec<f64>,
    pub iterations: usize,
    pub exit: ExitReason,
    /// The maximal KKT violation when it stopped.
    pub violation: f64,
}

/// SMO with shrinking from a feasible `start` rather than from α = 0: the problem of this
/// module with Σ y_i α_i held at the start's value, whatever it is, instead of 0 (every pair
/// update keeps that sum). `cache` must be prepared for `problem.kernel` on `points`. The
/// one-class SVM solves its dual with it (y = +1, C = 1, Σα = νn, where eᵀα is constant on the
/// feasible set, so the linear term −eᵀα only shifts ∇ by −1); nothing is recorded or kept.
pub(crate) fn solve_from(
    cache: &mut KernelCache,
    points: &[Point],
    y: Vec<f64>,
    start: Vec<f64>,
    problem: &Problem,
) -> Solved {
    cache.active_set_grew();
    let mut state = State::new(cache, points, y, start, problem.c, true);
    let (iterations, exit, violation) = state.optimise(problem);
    Solved {
        alpha: state.alpha,
        gradient: state.gradient,
        iterations,
        exit,
        violation,
    }
}

/// SMO's working state on one problem: α, the gradient ∇ = Qα − e (exact on the active set,
/// reconstructed from Ḡ elsewhere), Ḡ, and the active set.
pub(super) struct State<'a> {
    pub(super) cache: &'a mut KernelCache,
    pub(super) points: &'a [Point],
    pub(super) y: Vec<f64>,
    pub(super) alpha: Vec<f64>,
    pub(super) gradient: Vec<f64>,
    /// Ḡ_t = C Σ_{α_j = C} Q_tj, kept only when shrinking.
    pub(super) g_bar: Vec<f64>,
    pub(super) diagonal: Vec<f64>,
    pub(super) c: f64,
    pub(super) shrinking: bool,
    /// See [`SvmTrainer::shrink_rashly`].
    pub(super) rash: bool,
    /// The indices not shrunk, in increasing order.
    pub(super) active: Vec<usize>,
    /// The active set was already restored once when the violation came near `tol`.
    pub(super) unshrunk: bool,
    /// How often the check on the reconstructed gradient found a violation and SMO went on.
    pub(super) reopened: usize,
    pub(super) fewest_active: usize,
    /// Updates of the gradient since it was last computed afresh from α, and the rounding
    /// one update may add to it: on ill-conditioned kernels (huge values that nearly cancel)
    /// the step-by-step gradient drifts, and convergence then counts only on a fresh one.
    pub(super) steps_since_fresh: usize,
    pub(super) rounding_per_step: f64,
    pub(super) record: Recording,
    pub(super) last_step: Option<PairStep>,
    pub(super) trace: Option<SmoTrace>,
    /// Pair updates already done before this state was resumed.
    pub(super) done: usize,
    /// Shrink before the first update rather than after min(n, 1000) of them (a warm start).
    pub(super) shrink_first: bool,
}

impl<'a> State<'a> {
    /// The state where stepped `run` stopped (nothing shrunk), to go on from.
    pub(super) fn resume(
        cache: &'a mut KernelCache,
        points: &'a [Point],
        y: Vec<f64>,
        run: &SteppedRun,
    ) -> Self {
        // From α = 0 the gradient is −e and needs no kernel column; then the run's own.
        let zero = vec![0.0; run.alpha.len()];
        let mut state = State::new(cache, points, y, zero, run.problem.c, false);
        state.alpha.clone_from(&run.alpha);
        state.gradient.clone_from(&run.gradient);
        state.done = run.iterations;
        state
    }

    pub(super) fn new(
        cache: &'a mut KernelCache,
        points: &'a [Point],
        y: Vec<f64>,
        alpha: Vec<f64>,
        c: f64,
        shrinking: bool,
    ) -> Self {
        let n = alpha.len();
        // ∇ = Qα − e and Ḡ, from the columns of the multipliers that are not zero.
        let mut gradient = vec![-1.0; n];
        let mut g_bar = if shrinking { vec![0.0; n] } else { Vec::new() };
        for j in 0..n {
            if alpha[j] > 0.0 {
                cache.ensure(j, points);
                let kj = cache.column(j);
                add_scaled_column(&mut gradient, alpha[j] * y[j], &y, kj);
                if shrinking && alpha[j] >= c {
                    add_scaled_column(&mut g_bar, c * y[j], &y, kj);
                }
            }
        }
        let diagonal = cache.diagonal().to_vec();
        // |K_ij| ≤ max K_ii for a positive semi-definite kernel (≤ 1 for the sigmoid), so
        // |∇_k| ≤ 1 + nC·max|K|, and each update rounds by about ε times that.
        let largest_k = diagonal.iter().fold(1.0f64, |m, k| m.max(k.abs()));
        let rounding_per_step = f64::EPSILON * (1.0 + (n as f64 + 2.0) * c * largest_k);
        Self {
            cache,
            points,
            y,
            alpha,
            gradient,
            g_bar,
            diagonal,
            c,
            shrinking,
            rash: false,
            active: (0..n).collect(),
            unshrunk: false,
            reopened: 0,
            fewest_active: n,
            steps_since_fresh: 0,
            rounding_per_step,
            record: Recording::default(),
            last_step: None,
            trace: None,
            done: 0,
            shrink_first: false,
        }
    }

    /// Runs SMO to `problem.tol`; returns the iterations, why it stopped and the last maximal
    /// violation. On return the whole gradient is exact, shrunk or not.
    pub(super) fn optimise(&mut self, problem: &Problem) -> (usize, ExitReason, f64) {
        let n = self.alpha.len();
        let period = if self.rash { 10 } else { n.min(1000) };
        let mut countdown = if self.shrink_first { 1 } else { period };
        let mut iterations = self.done;
        let mut exit = ExitReason::Converged;
        let max_violation = loop {
            countdown -= 1;
            if countdown == 0 {
                countdown = period;
                if self.shrinking {
                    self.shrink(problem.tol);
                }
            }
            let mut selection = self.select_working_set(problem.tol);
            if selection.pair.is_none() && self.active.len() < n {
                // Optimal on the active set: check the whole problem before stopping.
                self.unshrink();
                selection = self.select_working_set(problem.tol);
                if selection.pair.is_some() {
                    self.reopened += 1;
                    // Shrink again on the next iteration.
                    countdown = 1;
                }
            }
            if selection.pair.is_none() {
                // Where rounding could have reached the tolerance, check a fresh gradient.
                let drift = self.steps_since_fresh as f64 * self.rounding_per_step;
                if self.steps_since_fresh > 0 && drift >= 0.1 * problem.tol {
                    self.refresh();
                    continue;
                }
            }
            if self.trace.is_some() {
                self.record_row(selection.violation);
            }
            let Some((i, j)) = selection.pair else {
                break selection.violation;
            };
            self.steps_since_fresh += 1;
            if iterations >= problem.max_iter || Some(iterations) == self.record.steps {
                exit = ExitReason::IterationCap;
                break selection.violation;
            }
            iterations += 1;
            self.step(i, j);
            if problem.stop_at_bound && (self.alpha[i] >= self.c || self.alpha[j] >= self.c) {
                exit = ExitReason::NotSeparable;
                break selection.violation;
            }
        };
        if self.active.len() < n {
            self.unshrink();
        }
        (iterations, exit, max_violation)
    }

    /// Updates the pair (i, j) and the gradient on the active set (and Ḡ where a multiplier
    /// reached or left C).
    fn step(&mut self, i: usize, j: usize) {
        let c = self.c;
        self.cache.ensure_on(i, self.points, &self.active);
        self.cache.ensure_on(j, self.points, &self.active);
        let (ki, kj) = (self.cache.column(i), self.cache.column(j));
        let (old_i, old_j) = (self.alpha[i], self.alpha[j]);
        let unclipped = self.record.steps.map(|_| {
            unclipped_optimum(
                &self.alpha,
                &self.gradient,
                &self.y,
                &self.diagonal,
                ki[j],
                i,
                j,
            )
        });
        update_pair(
            &mut self.alpha,
            &self.gradient,
            &self.y,
            &self.diagonal,
            ki[j],
            c,
            i,
            j,
        );
        let (di, dj) = (
            (self.alpha[i] - old_i) * self.y[i],
            (self.alpha[j] - old_j) * self.y[j],
        );
        if let Some(unclipped) = unclipped {
            self.last_step = Some(PairStep {
                pair: (i, j),
                y: [self.y[i], self.y[j]],
                c,
                before: [old_i, old_j],
                after: [self.alpha[i], self.alpha[j]],
                unclipped,
            });
        }
        let (gradient, y) = (&mut self.gradient, &self.y);
        if self.active.len() == gradient.len() {
            // Nothing shrunk: one contiguous pass the compiler can vectorise.
            for (((g, &yk), &kik), &kjk) in gradient.iter_mut().zip(y).zip(ki).zip(kj) {
                *g += yk * (kik * di + kjk * dj);
            }
        } else {
            for &k in &self.active {
                gradient[k] += y[k] * (ki[k] * di + kj[k] * dj);
            }
        }
        if self.shrinking {
            for (t, old) in [(i, old_i), (j, old_j)] {
                let (was, is) = (old >= c, self.alpha[t] >= c);
                if was != is {
                    // Ḡ covers every point, shrunk or not: the whole column.
                    self.cache.ensure(t, self.points);
                    let kt = self.cache.column(t);
                    let change = if is { c } else { -c } * self.y[t];
                    add_scaled_column(&mut self.g_bar, change, &self.y, kt);
                }
            }
        }
    }

    /// Appends the iterate's row to the trace (the gradient must be exact: no shrinking).
    fn record_row(&mut self, violation: f64) {
        let (alpha, gradient, y, c) = (&self.alpha, &self.gradient, &self.y, self.c);
        let (dual, primal) = objectives(alpha, gradient, y, c);
        let support = alpha.iter().filter(|&&a| a > 0.0).count();
        let trace = self.trace.as_mut().expect("recording a trace");
        trace.dual.push(dual);
        trace.primal.push(primal);
        trace.violation.push(violation);
        trace.support.push(support);
    }
}

/// target += scale · (y ∘ K_·j): adds multiplier j's share α_j Q_·j of a gradient.
pub(super) fn add_scaled_column(target: &mut [f64], scale: f64, y: &[f64], column: &[f64]) {
    for ((t, &yk), &kk) in target.iter_mut().zip(y).zip(column) {
        *t += yk * scale * kk;
    }
}

/// ∇ = Qα − e, computed from α.
pub(super) fn gradient(
    cache: &mut KernelCache,
    points: &[Point],
    alpha: &[f64],
    y: &[f64],
) -> Vec<f64> {
    let n = alpha.len();
    let mut grad = vec![-1.0; n];
    for j in 0..n {
        if alpha[j] > 0.0 {
            cache.ensure(j, points);
            let kj = cache.column(j);
            let aj = alpha[j] * y[j];
            for k in 0..n {
                grad[k] += y[k] * aj * kj[k];
            }
        }
    }
    grad
}

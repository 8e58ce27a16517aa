//! SMO for the soft-margin SVM dual (see the `svm` module beside it for the problem).
//!
//! SMO (Platt, 1998) changes two multipliers at a time in closed form, keeping Σ y_i α_i = 0.
//! The pair is chosen as in LIBSVM (Chang & Lin, 2011) by second-order working-set selection
//! (Fan, Chen & Lin, "Working set selection using second order information for training SVM",
//! JMLR 6, 2005): i maximises −y_i ∇_i over the multipliers that may move up, and j, among those
//! that may move down with a positive violation, minimises the second-order decrease
//! −(violation)²/(K_ii + K_jj − 2K_ij). The solver stops when the maximal KKT violation
//! m(α) − M(α) = max_{I_up} −y_t∇_t − min_{I_low} −y_t∇_t is below `tol` (LIBSVM's ε, default
//! 10⁻³). Here ∇ = Qα − e with Q_ij = y_i y_j K_ij, I_up = {t : α_t < C, y_t = 1 or α_t > 0,
//! y_t = −1} and I_low = {t : α_t < C, y_t = −1 or α_t > 0, y_t = 1}.
//!
//! **Shrinking** (Joachims, 1999; in LIBSVM's form, Fan, Chen & Lin, 2005, §4). Most
//! multipliers end at a bound, and once there they stop taking part: a multiplier that sits at
//! a bound and belongs to only one of I_up, I_low can only join a violating pair if its −y_t∇_t
//! crosses the extreme of the other set. When it lies strictly beyond — a member of I_low with
//! −y_t∇_t > m(α), or a member of I_up with −y_t∇_t < M(α) — it is *shrunk*: every min(n, 1000)
//! iterations such multipliers leave the active set A, and selection, the gradient update and
//! the kernel columns then cost O(|A|) instead of O(n). Free multipliers are never shrunk.
//!
//! A shrunk gradient goes stale, so SMO keeps Ḡ, the part of ∇ due to the multipliers at the
//! upper bound, for every point: Ḡ_t = C Σ_{α_j = C} Q_tj, updated (one whole kernel column)
//! only when a multiplier reaches or leaves C. Since free multipliers are all active,
//!
//!   ∇_t = Ḡ_t − 1 + Σ_{0 < α_j < C} α_j Q_tj   for every t,
//!
//! which rebuilds the gradient of the shrunk points from the free columns alone. SMO does so
//! (and restores A to every point) on two occasions: once when the violation first falls below
//! 10·tol, since a multiplier shrunk early may have been shrunk wrongly; and whenever the active
//! problem is solved, before it may stop. If the whole problem then still violates the KKT
//! conditions by `tol`, SMO goes on (`Solution::reopened` counts these), shrinking again at the
//! next iteration. The optimum is therefore the same as without shrinking: only multipliers
//! that the working-set selection would not have chosen are set aside, so the sequence of
//! pairs is mostly the same too.
//!
//! The bias comes from the KKT conditions: for a free multiplier (0 < α_i < C) y_i f(x_i) = 1,
//! so b = −y_i∇_i averaged over the free ones; with none free, b is the midpoint of the interval
//! the bounded multipliers allow, as LIBSVM does.
//!
//! **Stepping and the trace.** A [`Recording`] asks SMO to stop after a number of pair updates
//! (describing the last one as a [`PairStep`]: the pair, α_i and α_j before and after, and the
//! unclipped optimum on the line y_i α_i + y_j α_j = const) and/or to keep a [`SmoTrace`], one
//! row per iterate. A recorded run starts from α = 0 without shrinking, so every iterate's
//! gradient is exact and the pairs are the ones the second-order selection picks from the
//! whole problem; the ordinary fit records nothing and pays nothing. Mid-run, b is defined as at
//! the end: LIBSVM's −ρ, the mean of −y_i∇_i over the free multipliers, or with none free the
//! midpoint of the interval the bound ones leave — the b SMO would return if it stopped there.
//! Each trace row has the dual objective D(α), the primal objective of that (w, b),
//! P = ½‖w‖² + C Σ max(0, 1 − y_i f(x_i)) with ‖w‖² = αᵀQα and y_i f(x_i) = ∇_i + 1 + y_i b (so
//! P ≥ D by weak duality, and the gap P − D → 0), the maximal violation m(α) − M(α), and the
//! number of support vectors. A stepped run is kept by the trainer (α and its exact gradient), so
//! asking for one more update on the same problem and points continues it: a step costs one
//! update, not a replay from α = 0, and gives the same iterate as the replay would.
//!
//! The solver returns a [`Solution`] (LIBSVM's `SolutionInfo` together with α); the model is
//! built from it in the `svm` module, so this file knows nothing of models.
//!
//! [`SvmTrainer`] keeps the kernel cache and the last α between fits: after a change of C, γ or
//! of a point it starts from the previous α — scaled by C_new/C_old, then projected back into
//! the feasible set — and reaches the same optimum (the problem is convex) in far fewer
//! iterations.

use crate::data::Point;
use crate::error::Error;
use crate::kernel::{Kernel, KernelCache};
use crate::model::{ExitReason, FitReport, WarmStart};
pub use crate::plane::PairStep;

pub(crate) mod general;
mod warm;
pub(crate) use warm::rescaled;

/// LIBSVM's stand-in for a non-positive curvature K_ii + K_jj − 2K_ij.
pub(crate) const TAU: f64 = 1e-12;

/// The memory the kernel cache may use: 128 MiB, which at n = 10 000 holds 1 677 whole
/// columns of 80 kB (the whole Gram matrix would take 800 MB), while at n = 2 000 the whole
/// Gram matrix (32 MB) fits. LIBSVM's default (scikit-learn's `cache_size`) is 200 MB of
/// single-precision rows.
pub(crate) const CACHE_BYTES: usize = 128 << 20;

/// The dual problem SMO is given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Problem {
    pub kernel: Kernel,
    /// The box bound C (a large stand-in for the hard margin).
    pub c: f64,
    /// Stopping tolerance on the maximal KKT violation.
    pub tol: f64,
    pub max_iter: usize,
    /// Stop as soon as a multiplier reaches C (the hard margin: then the data are not
    /// separable, and there is no point in going on).
    pub stop_at_bound: bool,
    /// What to record besides the answer (nothing by default).
    pub record: Recording,
}

/// What a solve records for stepping and the trace view (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recording {
    /// Stop after this many pair updates and describe the last one.
    pub steps: Option<usize>,
    /// Keep one [`SmoTrace`] row per iterate.
    pub trace: bool,
}

impl Recording {
    /// Whether anything is recorded (then the run starts cold and does not shrink).
    pub fn any(&self) -> bool {
        self.steps.is_some() || self.trace
    }
}

/// SMO's iterates, row k after k pair updates (row 0 is α = 0). DCA and Pegasos record the
/// same rows per step (`no_bias`; Pegasos only the primal and the support).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SmoTrace {
    /// D(α) = eᵀα − ½αᵀQα.
    pub dual: Vec<f64>,
    /// P(w, b) = ½‖w‖² + C Σ max(0, 1 − y_i f(x_i)) for the iterate's w and b.
    pub primal: Vec<f64>,
    /// m(α) − M(α).
    pub violation: Vec<f64>,
    /// The number of α_i > 0.
    pub support: Vec<usize>,
}

/// What SMO found.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The labels of the negative and positive class.
    pub classes: [i32; 2],
    /// y_i ∈ {−1, +1}.
    pub y: Vec<f64>,
    pub alpha: Vec<f64>,
    pub bias: f64,
    /// y_i f(x_i), from the gradient SMO keeps: ∇_i + 1 + y_i b.
    pub margins: Vec<f64>,
    pub report: FitReport,
    pub max_violation: f64,
    /// How often the final check, on the gradient reconstructed after shrinking, found a
    /// violation above `tol` and SMO went on (0 without shrinking).
    pub reopened: usize,
    /// The fewest multipliers active at once (n when nothing was shrunk).
    pub fewest_active: usize,
    /// The last pair update, when stepping.
    pub last_step: Option<PairStep>,
    /// The iterates, when asked for.
    pub trace: Option<SmoTrace>,
}

/// SMO with a kernel cache and the last solution kept between fits (warm starts).
#[derive(Clone, Debug)]
pub struct SvmTrainer {
    cache: KernelCache,
    /// The last α, kept aligned with the points by the `point_*` calls.
    alpha: Vec<f64>,
    /// Start from the last α when there is one (on by default).
    pub warm_start: bool,
    /// Shrink the active set (on by default; off gives the plain SMO, for comparison).
    pub shrinking: bool,
    /// For tests of the final check: shrink every 10 iterations, and set aside *every*
    /// multiplier at a bound whatever its gradient, so that the active problem is solved
    /// with multipliers shrunk wrongly and the check on the reconstructed gradient has to
    /// reopen it. The optimum is still the one without shrinking.
    pub(crate) shrink_rashly: bool,
    /// The box bound C the last α was solved for.
    last_c: f64,
    /// Where the last stepped run stopped, so that the next step continues from there.
    stepped: Option<Box<SteppedRun>>,
    /// The last solution with its exact ∇ and Ḡ, which a warm start carries over.
    kept: Option<Box<warm::Kept>>,
}

/// A run cut short by [`Recording::steps`]: the problem, the points and labels it was on, and
/// its state then (α and the exact gradient: nothing is shrunk while recording). Stepping on
/// from it does the same arithmetic as running from α = 0 again, so the pairs are the same.
#[derive(Clone, Debug)]
struct SteppedRun {
    points: Vec<Point>,
    labels: Vec<i32>,
    problem: Problem,
    alpha: Vec<f64>,
    gradient: Vec<f64>,
    iterations: usize,
    last_step: Option<PairStep>,
}

impl SteppedRun {
    /// Whether a run to `steps` updates of `problem` on these points can continue this one.
    fn continues(&self, points: &[Point], labels: &[i32], problem: &Problem, steps: usize) -> bool {
        let same = Problem {
            record: self.problem.record,
            ..*problem
        };
        self.iterations <= steps
            && same == self.problem
            && self.points == points
            && self.labels == labels
    }
}

impl Default for SvmTrainer {
    fn default() -> Self {
        Self::new()
    }
}

impl SvmTrainer {
    pub fn new() -> Self {
        Self {
            cache: KernelCache::new(CACHE_BYTES),
            alpha: Vec::new(),
            warm_start: true,
            shrinking: true,
            shrink_rashly: false,
            last_c: 0.0,
            stepped: None,
            kept: None,
        }
    }

    /// Point `index` of `points` moved.
    pub fn point_moved(&mut self, index: usize, points: &[Point]) {
        self.cache.point_moved(index, points);
    }

    /// A point was appended.
    pub fn point_added(&mut self) {
        self.cache.invalidate();
        if !self.alpha.is_empty() {
            self.alpha.push(0.0);
        }
    }

    /// Point `index` was removed.
    pub fn point_removed(&mut self, index: usize) {
        self.cache.invalidate();
        if index < self.alpha.len() {
            self.alpha.remove(index);
        }
    }

    /// The box bound C of the last solution (0 before the first).
    pub fn last_box(&self) -> f64 {
        self.last_c
    }

    /// The next fit starts cold (from α = 0); the kernel cache stays valid.
    pub fn forget(&mut self) {
        self.alpha.clear();
        self.stepped = None;
        self.kept = None;
    }

    /// The points were replaced wholesale (a new preset, seed or file): nothing cached holds,
    /// even when the kernel and the number of points are the same.
    pub fn data_replaced(&mut self) {
        self.alpha.clear();
        self.stepped = None;
        self.kept = None;
        self.cache.invalidate();
    }

    /// Solves the dual for `points` with `labels` (exactly two distinct labels; the larger
    /// one is the positive class).
    pub fn solve(
        &mut self,
        points: &[Point],
        labels: &[i32],
        problem: &Problem,
    ) -> Result<Solution, Error> {
        let data = crate::data::Dataset::from_parts(points.to_vec(), labels.to_vec());
        if let Some(bad) = points
            .iter()
            .position(|p| !(p[0].is_finite() && p[1].is_finite()))
        {
            return Err(Error::NotFinite {
                what: format!("point {bad}"),
            });
        }
        let (classes, y) = data.binary_targets()?;
        let n = points.len();
        let c = problem.c;
        self.cache.prepare(problem.kernel, points);
        // K_ii bounds the column of i (|K_ij| ≤ √(K_ii K_jj) for a positive semi-definite
        // kernel); an infinite one (a polynomial of high degree on large coordinates) leaves
        // no problem to solve, only NaN.
        if let Some(i) = self.cache.diagonal().iter().position(|k| !k.is_finite()) {
            return Err(Error::Parameter(format!(
                "the kernel overflows at point {}: rescale the data, or lower γ or the degree",
                i + 1
            )));
        }

        let recording = problem.record.any();
        let warm = self.warm_start
            && !recording
            && self.alpha.len() == n
            && self.alpha.iter().any(|&a| a > 0.0);
        let alpha = if warm {
            // A change of C alone rescales the solution: α·C_new/C_old stays feasible (the
            // equality is linear) and keeps every bound multiplier at the new bound, which on
            // mostly bound solutions starts far closer than clipping would. A multiplier at the
            // old bound goes to the new one exactly: scaled, it could land a rounding step
            // below it and pass for a free one that SMO never moves again.
            let scaled: Vec<f64> = self
                .alpha
                .iter()
                .map(|&a| warm::rescaled(a, self.last_c, c))
                .collect();
            project_feasible(&scaled, &y, c)
        } else {
            vec![0.0; n]
        };
        self.cache.active_set_grew();
        let shrinking = self.shrinking && !recording;
        // One more step of a stepped run continues it rather than starting again from α = 0.
        let resumed = match (problem.record, self.stepped.take()) {
            (
                Recording {
                    steps: Some(steps),
                    trace: false,
                },
                Some(run),
            ) if run.continues(points, labels, problem, steps) => Some(run),
            _ => None,
        };
        // A warm start near the last solution (C at most halved or doubled, at most one point
        // moved: a slider step or a drag) carries ∇ and Ḡ over from it (see `warm`) and
        // shrinks at once, so its few hundred updates neither wait for n · #SV kernel values
        // nor scan all n points each. A start further away sums them from the support
        // vectors' columns and shrinks on LIBSVM's schedule, since shrinking before the
        // active set has settled costs more updates than it saves.
        let near = warm && (0.5..=2.0).contains(&(c / self.last_c));
        let carried = self
            .kept
            .take()
            .filter(|_| near)
            .and_then(|kept| kept.carried(problem.kernel, points, &y, &alpha, c, shrinking));
        let shrink_first = carried.is_some() && resumed.is_none();
        let mut state = match (&resumed, carried) {
            (Some(run), _) => State::resume(&mut self.cache, points, y, run),
            (None, Some((gradient, g_bar))) => {
                let mut state = State::new(&mut self.cache, points, y, vec![0.0; n], c, false);
                state.alpha = alpha;
                state.gradient = gradient;
                state.g_bar = g_bar;
                state.shrinking = shrinking;
                state
            }
            (None, None) => State::new(&mut self.cache, points, y, alpha, c, shrinking),
        };
        state.shrink_first = shrink_first;
        state.rash = shrinking && self.shrink_rashly;
        state.record = problem.record;
        state.trace = problem.record.trace.then(SmoTrace::default);
        let (iterations, exit, max_violation) = state.optimise(problem);
        let State {
            alpha,
            gradient,
            g_bar,
            y,
            reopened,
            fewest_active,
            last_step,
            trace,
            ..
        } = state;
        let last_step = last_step.or(resumed.and_then(|run| run.last_step));
        if problem.record.steps.is_some() && !problem.record.trace {
            self.stepped = Some(Box::new(SteppedRun {
                points: points.to_vec(),
                labels: labels.to_vec(),
                problem: *problem,
                alpha: alpha.clone(),
                gradient: gradient.clone(),
                iterations,
                last_step,
            }));
        }

        let bias = -compute_rho(&alpha, &gradient, &y, c);
        // ½αᵀQα − eᵀα = ½Σα_i(∇_i − 1); the dual objective to maximise is its negative.
        let objective = -0.5
            * alpha
                .iter()
                .zip(&gradient)
                .map(|(a, g)| a * (g - 1.0))
                .sum::<f64>();
        let margins: Vec<f64> = (0..n).map(|i| gradient[i] + 1.0 + y[i] * bias).collect();
        self.kept = Some(Box::new(warm::Kept {
            points: points.to_vec(),
            y: y.clone(),
            kernel: problem.kernel,
            c,
            alpha: alpha.clone(),
            gradient: gradient.clone(),
            g_bar,
        }));
        self.alpha = alpha.clone();
        self.last_c = c;
        Ok(Solution {
            classes,
            y,
            alpha,
            bias,
            margins,
            report: FitReport {
                iterations,
                exit,
                objective,
                warm_start: warm,
            },
            max_violation,
            reopened,
            fewest_active,
            last_step,
            trace,
        })
    }
}

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
struct State<'a> {
    cache: &'a mut KernelCache,
    points: &'a [Point],
    y: Vec<f64>,
    alpha: Vec<f64>,
    gradient: Vec<f64>,
    /// Ḡ_t = C Σ_{α_j = C} Q_tj, kept only when shrinking.
    g_bar: Vec<f64>,
    diagonal: Vec<f64>,
    c: f64,
    shrinking: bool,
    /// See [`SvmTrainer::shrink_rashly`].
    rash: bool,
    /// The indices not shrunk, in increasing order.
    active: Vec<usize>,
    /// The active set was already restored once when the violation came near `tol`.
    unshrunk: bool,
    /// How often the check on the reconstructed gradient found a violation and SMO went on.
    reopened: usize,
    fewest_active: usize,
    /// Updates of the gradient since it was last computed afresh from α, and the rounding
    /// one update may add to it: on ill-conditioned kernels (huge values that nearly cancel)
    /// the step-by-step gradient drifts, and convergence then counts only on a fresh one.
    steps_since_fresh: usize,
    rounding_per_step: f64,
    record: Recording,
    last_step: Option<PairStep>,
    trace: Option<SmoTrace>,
    /// Pair updates already done before this state was resumed.
    done: usize,
    /// Shrink before the first update rather than after min(n, 1000) of them (a warm start).
    shrink_first: bool,
}

impl<'a> State<'a> {
    /// The state where stepped `run` stopped (nothing shrunk), to go on from.
    fn resume(
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

    fn new(
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
    fn optimise(&mut self, problem: &Problem) -> (usize, ExitReason, f64) {
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

    /// LIBSVM's second-order working-set selection (WSS 2 of Fan, Chen & Lin, 2005) on the
    /// active set.
    fn select_working_set(&mut self, tol: f64) -> Selection {
        // Each pass runs over a plain range while nothing is shrunk, so it stays contiguous.
        let full = self.active.len() == self.alpha.len();
        let everything = 0..self.alpha.len();
        let up = if full {
            self.most_violating(everything.clone())
        } else {
            self.most_violating(self.active.iter().copied())
        };
        let Some((i, g_max)) = up else {
            return Selection {
                pair: None,
                violation: 0.0,
            };
        };
        self.cache.ensure_on(i, self.points, &self.active);
        let (best, g_max2) = if full {
            self.best_partner(i, g_max, everything)
        } else {
            self.best_partner(i, g_max, self.active.iter().copied())
        };
        let violation = g_max + g_max2;
        match best {
            Some(j) if violation >= tol => Selection {
                pair: Some((i, j)),
                violation,
            },
            _ => Selection {
                pair: None,
                violation: violation.max(0.0),
            },
        }
    }

    /// i = argmax_{I_up} −y_t∇_t among `indices`, and that maximum m(α).
    fn most_violating(&self, indices: impl Iterator<Item = usize>) -> Option<(usize, f64)> {
        let (alpha, grad, y, c) = (&self.alpha, &self.gradient, &self.y, self.c);
        let mut best = None;
        let mut g_max = f64::NEG_INFINITY;
        for t in indices {
            if let Some(v) = up_value(alpha[t], y[t], grad[t], c) {
                if v >= g_max {
                    g_max = v;
                    best = Some(t);
                }
            }
        }
        best.map(|t| (t, g_max))
    }

    /// Among `indices` in I_low with a positive violation against i, the j of the largest
    /// second-order decrease; and max_{I_low} y_t∇_t = −M(α). Column i must be resident.
    fn best_partner(
        &self,
        i: usize,
        g_max: f64,
        indices: impl Iterator<Item = usize>,
    ) -> (Option<usize>, f64) {
        let (alpha, grad, y, c) = (&self.alpha, &self.gradient, &self.y, self.c);
        let (ki, diagonal) = (self.cache.column(i), &self.diagonal);
        let mut g_max2 = f64::NEG_INFINITY;
        let mut best = None;
        let mut best_decrease = f64::INFINITY;
        for j in indices {
            let Some(v) = down_value(alpha[j], y[j], grad[j], c) else {
                continue;
            };
            if v >= g_max2 {
                g_max2 = v;
            }
            let grad_diff = g_max + v;
            if grad_diff > 0.0 {
                // K_ii + K_jj − 2 y_i y_j Q_ij = K_ii + K_jj − 2 K_ij.
                let curvature = diagonal[i] + diagonal[j] - 2.0 * ki[j];
                let decrease =
                    -(grad_diff * grad_diff) / if curvature > 0.0 { curvature } else { TAU };
                if decrease <= best_decrease {
                    best = Some(j);
                    best_decrease = decrease;
                }
            }
        }
        (best, g_max2)
    }

    /// Removes from the active set the multipliers that sit at a bound and whose gradient
    /// pushes them further into it than the most violating pair reaches (LIBSVM's
    /// `do_shrinking`); the first time the violation comes within 10·tol, first restores the
    /// whole set, so that a variable shrunk too early gets its chance.
    fn shrink(&mut self, tol: f64) {
        let (alpha, grad, y, c) = (&self.alpha, &self.gradient, &self.y, self.c);
        let (mut up, mut down) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &t in &self.active {
            if let Some(v) = up_value(alpha[t], y[t], grad[t], c) {
                up = up.max(v);
            }
            if let Some(v) = down_value(alpha[t], y[t], grad[t], c) {
                down = down.max(v);
            }
        }
        if !self.unshrunk && up + down <= 10.0 * tol {
            self.unshrunk = true;
            self.unshrink();
        }
        let (alpha, grad, y) = (&self.alpha, &self.gradient, &self.y);
        if self.rash {
            self.active.retain(|&t| alpha[t] > 0.0 && alpha[t] < c);
        } else {
            self.active
                .retain(|&t| !can_be_shrunk(alpha[t], y[t], grad[t], c, up, down));
        }
        self.fewest_active = self.fewest_active.min(self.active.len());
    }

    /// The whole active set, with ∇ and Ḡ computed afresh from α.
    fn refresh(&mut self) {
        self.unshrink();
        self.gradient = gradient(self.cache, self.points, &self.alpha, &self.y);
        if self.shrinking {
            let n = self.alpha.len();
            self.g_bar = vec![0.0; n];
            for j in 0..n {
                if self.alpha[j] >= self.c {
                    self.cache.ensure(j, self.points);
                    let kj = self.cache.column(j);
                    add_scaled_column(&mut self.g_bar, self.c * self.y[j], &self.y, kj);
                }
            }
        }
        self.steps_since_fresh = 0;
    }

    /// Restores the whole active set, reconstructing the gradient of the shrunk multipliers:
    /// ∇_t = Ḡ_t − 1 + Σ_{0 < α_j < C} α_j Q_tj (free multipliers are never shrunk).
    fn unshrink(&mut self) {
        let n = self.alpha.len();
        if self.active.len() == n {
            return;
        }
        let mut shrunk = vec![true; n];
        for &t in &self.active {
            shrunk[t] = false;
        }
        let shrunk: Vec<usize> = (0..n).filter(|&t| shrunk[t]).collect();
        for &t in &shrunk {
            self.gradient[t] = self.g_bar[t] - 1.0;
        }
        self.active = (0..n).collect();
        self.cache.active_set_grew();
        for j in 0..n {
            let a = self.alpha[j];
            if a > 0.0 && a < self.c {
                self.cache.ensure(j, self.points);
                let kj = self.cache.column(j);
                let aj = a * self.y[j];
                for &t in &shrunk {
                    self.gradient[t] += self.y[t] * aj * kj[t];
                }
            }
        }
    }
}

/// target += scale · (y ∘ K_·j): adds multiplier j's share α_j Q_·j of a gradient.
fn add_scaled_column(target: &mut [f64], scale: f64, y: &[f64], column: &[f64]) {
    for ((t, &yk), &kk) in target.iter_mut().zip(y).zip(column) {
        *t += yk * scale * kk;
    }
}

/// −y_t∇_t when α_t may move up (in the direction y_t): the set I_up of Keerthi et al.
#[inline]
fn up_value(alpha: f64, y: f64, grad: f64, c: f64) -> Option<f64> {
    if y > 0.0 {
        (alpha < c).then_some(-grad)
    } else {
        (alpha > 0.0).then_some(grad)
    }
}

/// y_t∇_t when α_t may move down: the set I_low.
#[inline]
fn down_value(alpha: f64, y: f64, grad: f64, c: f64) -> Option<f64> {
    if y > 0.0 {
        (alpha > 0.0).then_some(grad)
    } else {
        (alpha < c).then_some(-grad)
    }
}

/// A bound multiplier that is in only one of I_up, I_low can join a violating pair only if
/// its −y_t∇_t passes the extreme of the other set: m(α) = max_{I_up} −y∇ (`up`) for a member
/// of I_low, M(α) = −max_{I_low} y∇ (`down`) for a member of I_up. If it lies beyond, it is
/// shrunk.
#[inline]
fn can_be_shrunk(alpha: f64, y: f64, grad: f64, c: f64, up: f64, down: f64) -> bool {
    if alpha >= c {
        if y > 0.0 {
            -grad > up
        } else {
            -grad > down
        }
    } else if alpha <= 0.0 {
        if y > 0.0 {
            grad > down
        } else {
            grad > up
        }
    } else {
        false
    }
}

impl WarmStart for SvmTrainer {
    fn point_added(&mut self) {
        SvmTrainer::point_added(self)
    }
    fn point_moved(&mut self, index: usize, points: &[Point]) {
        SvmTrainer::point_moved(self, index, points)
    }
    fn point_removed(&mut self, index: usize) {
        SvmTrainer::point_removed(self, index)
    }
    fn forget(&mut self) {
        SvmTrainer::forget(self)
    }
    fn data_replaced(&mut self) {
        SvmTrainer::data_replaced(self)
    }
    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// ∇ = Qα − e, computed from α.
fn gradient(cache: &mut KernelCache, points: &[Point], alpha: &[f64], y: &[f64]) -> Vec<f64> {
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

/// Brings a previous α back into {0 ≤ α ≤ C, Σ y_i α_i = 0}: clip to the box, then take the
/// surplus of the heavier class away from its free multipliers first (smallest first) and only
/// then from its bound ones, so that as many as possible keep their exact KKT case and at most
/// one multiplier is left in between.
fn project_feasible(previous: &[f64], y: &[f64], c: f64) -> Vec<f64> {
    let mut alpha: Vec<f64> = previous.iter().map(|a| a.clamp(0.0, c)).collect();
    let surplus: f64 = alpha.iter().zip(y).map(|(a, yi)| a * yi).sum();
    let total: f64 = alpha.iter().sum();
    // A surplus at the level of rounding is left alone: taking it from a bound multiplier would
    // only move that multiplier off its bound by one ulp and change its KKT case.
    if surplus.abs() <= 1e-12 * total {
        return alpha;
    }
    let heavy = surplus.signum();
    let mut order: Vec<usize> = (0..alpha.len())
        .filter(|&i| y[i] == heavy && alpha[i] > 0.0)
        .collect();
    // Free multipliers first, smallest first; bound ones last.
    crate::sorting::sort_by(&mut order, |&a, &b| {
        let key = |i: usize| (alpha[i] >= c, alpha[i]);
        key(a)
            .partial_cmp(&key(b))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut remaining = surplus.abs();
    for i in order {
        if remaining <= 0.0 {
            break;
        }
        let take = alpha[i].min(remaining);
        alpha[i] -= take;
        remaining -= take;
    }
    alpha
}

struct Selection {
    pair: Option<(usize, usize)>,
    violation: f64,
}

/// The closed-form two-variable update, clipped to the box (LIBSVM's `Solver::Solve` step).
#[allow(clippy::too_many_arguments)]
pub(crate) fn update_pair(
    alpha: &mut [f64],
    grad: &[f64],
    y: &[f64],
    diagonal: &[f64],
    k_ij: f64,
    c: f64,
    i: usize,
    j: usize,
) {
    let curvature = diagonal[i] + diagonal[j] - 2.0 * k_ij;
    let curvature = if curvature > 0.0 { curvature } else { TAU };
    if y[i] != y[j] {
        let delta = (-grad[i] - grad[j]) / curvature;
        let diff = alpha[i] - alpha[j];
        alpha[i] += delta;
        alpha[j] += delta;
        if diff > 0.0 {
            if alpha[j] < 0.0 {
                alpha[j] = 0.0;
                alpha[i] = diff;
            }
        } else if alpha[i] < 0.0 {
            alpha[i] = 0.0;
            alpha[j] = -diff;
        }
        if diff > 0.0 {
            if alpha[i] > c {
                alpha[i] = c;
                alpha[j] = c - diff;
            }
        } else if alpha[j] > c {
            alpha[j] = c;
            alpha[i] = c + diff;
        }
    } else {
        let delta = (grad[i] - grad[j]) / curvature;
        let sum = alpha[i] + alpha[j];
        alpha[i] -= delta;
        alpha[j] += delta;
        if sum > c {
            if alpha[i] > c {
                alpha[i] = c;
                alpha[j] = sum - c;
            }
        } else if alpha[j] < 0.0 {
            alpha[j] = 0.0;
            alpha[i] = sum;
        }
        if sum > c {
            if alpha[j] > c {
                alpha[j] = c;
                alpha[i] = sum - c;
            }
        } else if alpha[i] < 0.0 {
            alpha[i] = 0.0;
            alpha[j] = sum;
        }
    }
    // A partner computed as e.g. sum − C can land an ulp away from a bound it should sit on;
    // snap it, so its KKT case (free or bound, which decides how b is computed) is exact. The
    // zero side is judged on an absolute scale no larger than 10⁻¹²: with the hard margin's
    // huge C a relative test would wipe out genuinely small multipliers.
    for k in [i, j] {
        if alpha[k] > c * (1.0 - 1e-12) {
            alpha[k] = c;
        } else if alpha[k] < 1e-12 * c.min(1.0) {
            alpha[k] = 0.0;
        }
    }
}

/// The unconstrained optimum of the two-variable sub-problem on the line
/// y_i α_i + y_j α_j = const: one Newton step α_i += y_i t, α_j −= y_j t with
/// t = −(y_i∇_i − y_j∇_j)/(K_ii + K_jj − 2K_ij) (exact: the objective is quadratic along the line).
fn unclipped_optimum(
    alpha: &[f64],
    grad: &[f64],
    y: &[f64],
    diagonal: &[f64],
    k_ij: f64,
    i: usize,
    j: usize,
) -> [f64; 2] {
    let curvature = diagonal[i] + diagonal[j] - 2.0 * k_ij;
    let curvature = if curvature > 0.0 { curvature } else { TAU };
    let t = -(y[i] * grad[i] - y[j] * grad[j]) / curvature;
    [alpha[i] + y[i] * t, alpha[j] - y[j] * t]
}

/// The dual objective D(α) = eᵀα − ½αᵀQα and the primal objective P of the (w, b) α gives,
/// with b = −ρ as at the end of a run (see the module doc), from the exact gradient ∇ = Qα − e.
pub(crate) fn objectives(alpha: &[f64], gradient: &[f64], y: &[f64], c: f64) -> (f64, f64) {
    let bias = -compute_rho(alpha, gradient, y, c);
    let mut w_squared = 0.0;
    let mut hinge = 0.0;
    for t in 0..alpha.len() {
        // (Qα)_t = ∇_t + 1; y_t f(x_t) = (Qα)_t + y_t b.
        let q_alpha = gradient[t] + 1.0;
        w_squared += alpha[t] * q_alpha;
        hinge += (1.0 - (q_alpha + y[t] * bias)).max(0.0);
    }
    let sum: f64 = alpha.iter().sum();
    (sum - 0.5 * w_squared, 0.5 * w_squared + c * hinge)
}

/// ρ = −b: the mean of y_i∇_i over free multipliers, or the middle of the interval the bounded
/// ones leave.
pub(crate) fn compute_rho(alpha: &[f64], grad: &[f64], y: &[f64], c: f64) -> f64 {
    let (mut upper, mut lower) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut free_sum, mut free_count) = (0.0, 0usize);
    for i in 0..alpha.len() {
        let yg = y[i] * grad[i];
        let at_upper = alpha[i] >= c;
        let at_lower = alpha[i] <= 0.0;
        if at_upper {
            if y[i] < 0.0 {
                upper = upper.min(yg);
            } else {
                lower = lower.max(yg);
            }
        } else if at_lower {
            if y[i] > 0.0 {
                upper = upper.min(yg);
            } else {
                lower = lower.max(yg);
            }
        } else {
            free_count += 1;
            free_sum += yg;
        }
    }
    if free_count > 0 {
        free_sum / free_count as f64
    } else {
        (upper + lower) / 2.0
    }
}

#[cfg(test)]
mod stepping_tests;
#[cfg(test)]
mod tests;

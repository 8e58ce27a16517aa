//! The trainer that keeps SMO's cache and last solution between fits.
//!
//! [`SvmTrainer`] keeps the kernel cache and the last α between fits: after a change of C, γ or
//! of a point it starts from the previous α — scaled by C_new/C_old, then projected back into
//! the feasible set — and reaches the same optimum (the problem is convex) in far fewer
//! iterations.

use super::state::State;
use super::{compute_rho, warm, PairStep, Problem, Recording, SmoTrace, Solution, CACHE_BYTES};
use crate::core::data::Point;
use crate::core::error::Error;
use crate::core::kernel::KernelCache;
use crate::methods::model::{FitReport, WarmStart};

/// SMO with a kernel cache and the last solution kept between fits (warm starts).
#[derive(Clone, Debug)]
pub struct SvmTrainer {
    pub(super) cache: KernelCache,
    /// The last α, kept aligned with the points by the `point_*` calls.
    pub(super) alpha: Vec<f64>,
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
    pub(super) last_c: f64,
    /// Where the last stepped run stopped, so that the next step continues from there.
    pub(super) stepped: Option<Box<SteppedRun>>,
    /// The last solution with its exact ∇ and Ḡ, which a warm start carries over.
    pub(super) kept: Option<Box<warm::Kept>>,
}

/// A run cut short by [`Recording::steps`]: the problem, the points and labels it was on, and
/// its state then (α and the exact gradient: nothing is shrunk while recording). Stepping on
/// from it does the same arithmetic as running from α = 0 again, so the pairs are the same.
#[derive(Clone, Debug)]
pub(super) struct SteppedRun {
    pub(super) points: Vec<Point>,
    pub(super) labels: Vec<i32>,
    pub(super) problem: Problem,
    pub(super) alpha: Vec<f64>,
    pub(super) gradient: Vec<f64>,
    pub(super) iterations: usize,
    pub(super) last_step: Option<PairStep>,
}

impl SteppedRun {
    /// Whether a run to `steps` updates of `problem` on these points can continue this one.
    pub(super) fn continues(
        &self,
        points: &[Point],
        labels: &[i32],
        problem: &Problem,
        steps: usize,
    ) -> bool {
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
        let data = crate::core::data::Dataset::from_parts(points.to_vec(), labels.to_vec());
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
    crate::core::sorting::sort_by(&mut order, |&a, &b| {
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

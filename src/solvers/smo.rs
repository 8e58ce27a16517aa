//! SMO for the soft-margin SVM dual (see the `svm` module beside it for the problem).
//!
//! SMO (Platt, 1998) changes two multipliers at a time in closed form, keeping Σ y_i α_i = 0.
//! The pair is chosen as in LIBSVM (Chang & Lin, 2011) by second-order working-set selection
//! (Fan, Chen & Lin, "Working set selection using second order information for training SVM",
//! JMLR 6, 2005): i maximises −y_i ∇_i over the multipliers that may move up, and j, among those
//! that may move down with a positive violation, minimises the second-order decrease
//! −(violation)²/(K_ii + K_jj − 2K_ij). The solver stops when the maximal KKT violation
//! max_{up} −y_i∇_i − min_{down} −y_j∇_j is below `tol` (LIBSVM's ε, default 10⁻³).
//! There is no shrinking: the solution is the same, and at the sizes of a lecture it is not
//! needed.
//!
//! The bias comes from the KKT conditions: for a free multiplier (0 < α_i < C) y_i f(x_i) = 1,
//! so b = −y_i∇_i averaged over the free ones; with none free, b is the midpoint of the interval
//! the bounded multipliers allow, as LIBSVM does.
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

/// LIBSVM's stand-in for a non-positive curvature K_ii + K_jj − 2K_ij.
const TAU: f64 = 1e-12;

/// The memory the kernel cache may use.
const CACHE_BYTES: usize = 128 << 20;

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
}

/// SMO with a kernel cache and the last solution kept between fits (warm starts).
#[derive(Clone, Debug)]
pub struct SvmTrainer {
    cache: KernelCache,
    /// The last α, kept aligned with the points by the `point_*` calls.
    alpha: Vec<f64>,
    /// Start from the last α when there is one (on by default).
    pub warm_start: bool,
    /// The box bound C the last α was solved for.
    last_c: f64,
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
            last_c: 0.0,
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

    /// The next fit starts cold (from α = 0); the kernel cache stays valid.
    pub fn forget(&mut self) {
        self.alpha.clear();
    }

    /// The points were replaced wholesale (a new preset, seed or file): nothing cached holds,
    /// even when the kernel and the number of points are the same.
    pub fn data_replaced(&mut self) {
        self.alpha.clear();
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
        let max_iter = problem.max_iter;
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

        let warm = self.warm_start && self.alpha.len() == n && self.alpha.iter().any(|&a| a > 0.0);
        let mut alpha = if warm {
            // A change of C alone rescales the solution: α·C_new/C_old stays feasible (the
            // equality is linear) and keeps every bound multiplier at the new bound, which on
            // mostly bound solutions starts far closer than clipping would.
            let scale = if self.last_c > 0.0 {
                c / self.last_c
            } else {
                1.0
            };
            let scaled: Vec<f64> = self.alpha.iter().map(|a| a * scale).collect();
            project_feasible(&scaled, &y, c)
        } else {
            vec![0.0; n]
        };

        let mut grad = gradient(&mut self.cache, points, &alpha, &y);
        // Updates of `grad` since it was last computed afresh from α.
        let mut steps_since_fresh = 0usize;

        let diagonal = self.cache.diagonal().to_vec();
        // |K_ij| ≤ max K_ii for a positive semi-definite kernel (and ≤ 1 for the sigmoid), so
        // |∇_k| ≤ 1 + nC·max|K|, and each update of the gradient rounds by about ε times that.
        let largest_k = diagonal.iter().fold(1.0f64, |m, k| m.max(k.abs()));
        let rounding_per_step = f64::EPSILON * (1.0 + (n as f64 + 2.0) * c * largest_k);
        let mut iterations = 0;
        let mut exit = ExitReason::Converged;
        let mut max_violation;
        loop {
            let selection = select_working_set(
                &mut self.cache,
                points,
                &alpha,
                &grad,
                &y,
                &diagonal,
                c,
                problem.tol,
            );
            max_violation = selection.violation;
            let Some((i, j)) = selection.pair else {
                // The gradient is updated step by step, and on ill-conditioned kernels (huge
                // values that nearly cancel) rounding builds up in it: where it could reach
                // the tolerance, convergence counts only on a gradient computed afresh from α.
                let drift = steps_since_fresh as f64 * rounding_per_step;
                if steps_since_fresh == 0 || drift < 0.1 * problem.tol {
                    break;
                }
                grad = gradient(&mut self.cache, points, &alpha, &y);
                steps_since_fresh = 0;
                continue;
            };
            steps_since_fresh += 1;
            if iterations >= max_iter {
                exit = ExitReason::IterationCap;
                break;
            }
            iterations += 1;
            self.cache.ensure(i, points);
            self.cache.ensure(j, points);
            let (ki, kj) = (self.cache.column(i), self.cache.column(j));
            let (old_i, old_j) = (alpha[i], alpha[j]);
            update_pair(&mut alpha, &grad, &y, &diagonal, ki[j], c, i, j);
            let (di, dj) = ((alpha[i] - old_i) * y[i], (alpha[j] - old_j) * y[j]);
            for k in 0..n {
                grad[k] += y[k] * (ki[k] * di + kj[k] * dj);
            }
            if problem.stop_at_bound && (alpha[i] >= c || alpha[j] >= c) {
                exit = ExitReason::NotSeparable;
                break;
            }
        }

        let bias = -compute_rho(&alpha, &grad, &y, c);
        // ½αᵀQα − eᵀα = ½Σα_i(∇_i − 1); the dual objective to maximise is its negative.
        let objective = -0.5
            * alpha
                .iter()
                .zip(&grad)
                .map(|(a, g)| a * (g - 1.0))
                .sum::<f64>();
        let margins: Vec<f64> = (0..n).map(|i| grad[i] + 1.0 + y[i] * bias).collect();
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
    order.sort_by(|&a, &b| {
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

/// LIBSVM's second-order working-set selection (WSS 2 of Fan, Chen & Lin, 2005).
#[allow(clippy::too_many_arguments)]
fn select_working_set(
    cache: &mut KernelCache,
    points: &[Point],
    alpha: &[f64],
    grad: &[f64],
    y: &[f64],
    diagonal: &[f64],
    c: f64,
    tol: f64,
) -> Selection {
    let n = alpha.len();
    let mut g_max = f64::NEG_INFINITY;
    let mut g_max_index = None;
    for t in 0..n {
        // The "up" set: α_t may increase in the direction y_t.
        let candidate = if y[t] > 0.0 {
            (alpha[t] < c).then_some(-grad[t])
        } else {
            (alpha[t] > 0.0).then_some(grad[t])
        };
        if let Some(v) = candidate {
            if v >= g_max {
                g_max = v;
                g_max_index = Some(t);
            }
        }
    }
    let Some(i) = g_max_index else {
        return Selection {
            pair: None,
            violation: 0.0,
        };
    };
    cache.ensure(i, points);
    let ki = cache.column(i);
    let mut g_max2 = f64::NEG_INFINITY;
    let mut best = None;
    let mut best_decrease = f64::INFINITY;
    for j in 0..n {
        // The "down" set, with −y_j∇_j.
        let value = if y[j] > 0.0 {
            (alpha[j] > 0.0).then_some(grad[j])
        } else {
            (alpha[j] < c).then_some(-grad[j])
        };
        let Some(v) = value else { continue };
        if v >= g_max2 {
            g_max2 = v;
        }
        let grad_diff = g_max + v;
        if grad_diff > 0.0 {
            // K_ii + K_jj − 2 y_i y_j Q_ij = K_ii + K_jj − 2 K_ij.
            let curvature = diagonal[i] + diagonal[j] - 2.0 * ki[j];
            let decrease = -(grad_diff * grad_diff) / if curvature > 0.0 { curvature } else { TAU };
            if decrease <= best_decrease {
                best = Some(j);
                best_decrease = decrease;
            }
        }
    }
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

/// The closed-form two-variable update, clipped to the box (LIBSVM's `Solver::Solve` step).
#[allow(clippy::too_many_arguments)]
fn update_pair(
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

/// ρ = −b: the mean of y_i∇_i over free multipliers, or the middle of the interval the bounded
/// ones leave.
fn compute_rho(alpha: &[f64], grad: &[f64], y: &[f64], c: f64) -> f64 {
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

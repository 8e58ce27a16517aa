//! The soft-margin support vector machine, solved in the dual by SMO.
//!
//! Primal: minimise ½‖w‖² + C Σξ_i subject to y_i f(x_i) ≥ 1 − ξ_i, ξ_i ≥ 0, where
//! f(x) = wᵀφ(x) + b. Its dual, with Q_ij = y_i y_j K(x_i, x_j), is
//!
//! ```text
//!     minimise   ½ αᵀQα − eᵀα
//!     subject to 0 ≤ α_i ≤ C,  Σ y_i α_i = 0,
//! ```
//!
//! and f(x) = Σ α_i y_i K(x_i, x) + b. The hard margin is C = ∞; here it is a very large C
//! ([`HARD_MARGIN_C`]), and a multiplier that reaches it means the data are not separable in
//! the kernel's feature space.
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
//! Each training point falls in one of three KKT cases ([`AlphaStatus`]): α_i = 0 (on or
//! outside its margin), 0 < α_i < C (exactly on the margin: a free support vector) and α_i = C
//! (on or inside the margin: a bound support vector with slack ξ_i = 1 − y_i f(x_i) ≥ 0).
//!
//! [`SvmTrainer`] keeps the kernel cache and the last α between fits: after a change of C, γ or
//! of a point it starts from the previous α, projected back into the feasible set, and reaches
//! the same optimum (the problem is convex) in far fewer iterations.

use crate::data::Point;
use crate::error::Error;
use crate::field::{expansion_evaluator, Grid};
use crate::kernel::{Kernel, KernelCache};
use crate::model::{Classifier, ExitReason, FitReport};

/// The C that stands for C = ∞ (the hard margin).
pub const HARD_MARGIN_C: f64 = 1e6;

/// LIBSVM's stand-in for a non-positive curvature K_ii + K_jj − 2K_ij.
const TAU: f64 = 1e-12;

/// The memory the kernel cache may use.
const CACHE_BYTES: usize = 128 << 20;

/// The parameters of a fit, checked by [`SvmParams::check`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SvmParams {
    pub kernel: Kernel,
    /// The soft-margin penalty; `f64::INFINITY` asks for the hard margin.
    pub c: f64,
    /// Stopping tolerance on the maximal KKT violation (LIBSVM's default 10⁻³).
    pub tol: f64,
    /// Iteration cap; `None` means max(100 000, 100 n).
    pub max_iter: Option<usize>,
}

impl SvmParams {
    pub fn new(kernel: Kernel, c: f64) -> Self {
        Self {
            kernel,
            c,
            tol: 1e-3,
            max_iter: None,
        }
    }

    /// Rejects what LIBSVM rejects, with its kind of message.
    pub fn check(&self) -> Result<(), Error> {
        if self.c.is_nan() || self.c <= 0.0 {
            return Err(Error::Parameter("C <= 0".into()));
        }
        if !(self.tol.is_finite() && self.tol > 0.0) {
            return Err(Error::Parameter("tol <= 0".into()));
        }
        Ok(())
    }

    pub fn is_hard_margin(&self) -> bool {
        self.c.is_infinite()
    }

    /// The box bound used by the solver.
    fn box_bound(&self) -> f64 {
        if self.is_hard_margin() {
            HARD_MARGIN_C
        } else {
            self.c
        }
    }
}

/// Which KKT case a training point is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlphaStatus {
    /// α_i = 0: not a support vector, on or outside its margin.
    NonSupport,
    /// 0 < α_i < C: a free support vector, exactly on the margin.
    Free,
    /// α_i = C: a bound support vector, on or inside the margin (slack ξ_i ≥ 0).
    Bound,
}

impl AlphaStatus {
    /// The KKT case in the lecture's words.
    pub fn describe(self) -> &'static str {
        match self {
            AlphaStatus::NonSupport => "α = 0: on or outside the margin, not a support vector",
            AlphaStatus::Free => "0 < α < C: free support vector, exactly on the margin",
            AlphaStatus::Bound => "α = C: bound support vector, on or inside the margin",
        }
    }
}

/// A fitted SVM.
#[derive(Clone, Debug)]
pub struct SvmModel {
    pub kernel: Kernel,
    /// The box bound used (C, or [`HARD_MARGIN_C`] for the hard margin).
    pub c: f64,
    pub hard_margin: bool,
    pub classes: [i32; 2],
    pub points: Vec<Point>,
    /// y_i ∈ {−1, +1}.
    pub y: Vec<f64>,
    /// α_i for every training point, in input order.
    pub alpha: Vec<f64>,
    pub bias: f64,
    /// y_i f(x_i) for every training point (the functional margin).
    pub margins: Vec<f64>,
    /// w = Σ α_i y_i x_i, for the linear kernel.
    pub w: Option<[f64; 2]>,
    pub report: FitReport,
    /// The maximal KKT violation when the solver stopped.
    pub max_violation: f64,
    /// (x_j, α_j y_j) for the support vectors: all f(x) needs.
    expansion: Vec<(Point, f64)>,
}

impl SvmModel {
    /// A one-off fit from α = 0.
    pub fn fit(points: &[Point], labels: &[i32], params: &SvmParams) -> Result<SvmModel, Error> {
        SvmTrainer::new().fit(points, labels, params)
    }

    pub fn status(&self, i: usize) -> AlphaStatus {
        let a = self.alpha[i];
        if a <= 0.0 {
            AlphaStatus::NonSupport
        } else if a >= self.c {
            AlphaStatus::Bound
        } else {
            AlphaStatus::Free
        }
    }

    /// Indices with α_i > 0.
    pub fn support(&self) -> Vec<usize> {
        (0..self.alpha.len())
            .filter(|&i| self.alpha[i] > 0.0)
            .collect()
    }

    /// Indices with α_i = C.
    pub fn bound(&self) -> Vec<usize> {
        (0..self.alpha.len())
            .filter(|&i| self.status(i) == AlphaStatus::Bound)
            .collect()
    }

    /// ξ_i = max(0, 1 − y_i f(x_i)).
    pub fn slack(&self, i: usize) -> f64 {
        (1.0 - self.margins[i]).max(0.0)
    }

    /// The width 2/‖w‖ of the band between f = −1 and f = +1 (linear kernel only).
    pub fn margin_width(&self) -> Option<f64> {
        self.w.map(|w| 2.0 / w[0].hypot(w[1]))
    }

    /// Hard margin asked for but impossible: a multiplier reached the stand-in for ∞, or the
    /// solver gave up.
    pub fn hard_margin_failed(&self) -> bool {
        self.hard_margin
            && (self.report.exit != ExitReason::Converged
                || self.alpha.iter().any(|&a| a >= self.c))
    }

    /// The end of the slack segment of point i: where moving from x_i along the steepest
    /// direction of f first reaches its own margin f = y_i. Exact for the linear kernel
    /// (x_i + (y_i − f(x_i)) w/‖w‖², length ξ_i/‖w‖); for other kernels a few Newton steps
    /// along the gradient, which is a good local approximation of the nearest margin point.
    pub fn slack_segment(&self, i: usize) -> Option<(Point, Point)> {
        if self.slack(i) <= 0.0 {
            return None;
        }
        let start = self.points[i];
        let target = self.y[i];
        let mut x = start;
        for _ in 0..8 {
            let f = self.decision_value(x);
            let g = self.gradient(x);
            let g2 = g[0] * g[0] + g[1] * g[1];
            if g2 < 1e-18 {
                return None;
            }
            let step = (target - f) / g2;
            x = [x[0] + step * g[0], x[1] + step * g[1]];
            if (self.decision_value(x) - target).abs() < 1e-6 || self.kernel.is_linear() {
                break;
            }
        }
        Some((start, x))
    }

    /// ∇f(x), from the kernel's derivative.
    pub fn gradient(&self, x: Point) -> Point {
        if let Some(w) = self.w {
            return w;
        }
        let mut g = [0.0, 0.0];
        for &(z, coef) in &self.expansion {
            let dot = x[0] * z[0] + x[1] * z[1];
            // ∇_x K(x, z) = s · z for the dot-product kernels, s · (x − z) for RBF.
            let (s, along_x) = match self.kernel {
                Kernel::Linear => (1.0, false),
                Kernel::Polynomial {
                    gamma,
                    degree,
                    coef0,
                } => (
                    degree as f64 * gamma * (gamma * dot + coef0).powi(degree as i32 - 1),
                    false,
                ),
                Kernel::Rbf { gamma } => (-2.0 * gamma * self.kernel.eval(x, z), true),
                Kernel::Sigmoid { gamma, coef0 } => {
                    let t = (gamma * dot + coef0).tanh();
                    (gamma * (1.0 - t * t), false)
                }
            };
            let d = if along_x {
                [x[0] - z[0], x[1] - z[1]]
            } else {
                z
            };
            g[0] += coef * s * d[0];
            g[1] += coef * s * d[1];
        }
        g
    }

    /// The support-vector expansion: (x_j, α_j y_j) for α_j > 0.
    pub fn expansion(&self) -> &[(Point, f64)] {
        &self.expansion
    }
}

impl Classifier for SvmModel {
    fn method(&self) -> &'static str {
        "svm"
    }

    fn classes(&self) -> [i32; 2] {
        self.classes
    }

    fn decision_value(&self, x: Point) -> f64 {
        if let Some(w) = self.w {
            return w[0] * x[0] + w[1] * x[1] + self.bias;
        }
        let mut f = self.bias;
        for &(z, coef) in &self.expansion {
            f += coef * self.kernel.eval(z, x);
        }
        f
    }

    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        match self.kernel {
            Kernel::Rbf { .. } if self.w.is_none() => {
                expansion_evaluator(self.kernel, &self.expansion, self.bias, grid)
            }
            _ => Box::new(move |row, col| self.decision_value(grid.node(row, col))),
        }
    }
}

/// SMO with a kernel cache and the last solution kept between fits (warm starts).
#[derive(Clone, Debug)]
pub struct SvmTrainer {
    cache: KernelCache,
    /// The last α, kept aligned with the points by the `point_*` calls.
    alpha: Vec<f64>,
    /// Start from the last α when there is one (on by default).
    pub warm_start: bool,
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

    /// The data were replaced: the next fit starts cold.
    pub fn forget(&mut self) {
        self.alpha.clear();
    }

    /// Fits the SVM to `points` with `labels` (exactly two distinct labels; the larger one is
    /// the positive class).
    pub fn fit(
        &mut self,
        points: &[Point],
        labels: &[i32],
        params: &SvmParams,
    ) -> Result<SvmModel, Error> {
        params.check()?;
        let data = crate::data::Dataset {
            points: points.to_vec(),
            labels: labels.to_vec(),
        };
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
        let c = params.box_bound();
        let max_iter = params.max_iter.unwrap_or((100 * n).max(100_000));
        self.cache.prepare(params.kernel, points);

        let warm = self.warm_start && self.alpha.len() == n && self.alpha.iter().any(|&a| a > 0.0);
        let mut alpha = if warm {
            project_feasible(&self.alpha, &y, c)
        } else {
            vec![0.0; n]
        };

        // ∇ = Qα − e.
        let mut grad = vec![-1.0; n];
        for j in 0..n {
            if alpha[j] > 0.0 {
                self.cache.ensure(j, points);
                let kj = self.cache.column(j);
                let aj = alpha[j] * y[j];
                for k in 0..n {
                    grad[k] += y[k] * aj * kj[k];
                }
            }
        }

        let diagonal = self.cache.diagonal().to_vec();
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
                params.tol,
            );
            max_violation = selection.violation;
            let Some((i, j)) = selection.pair else { break };
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
            if params.is_hard_margin() && (alpha[i] >= c || alpha[j] >= c) {
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
        let expansion: Vec<(Point, f64)> = (0..n)
            .filter(|&i| alpha[i] > 0.0)
            .map(|i| (points[i], alpha[i] * y[i]))
            .collect();
        let w = params.kernel.is_linear().then(|| {
            expansion.iter().fold([0.0, 0.0], |w, &(x, coef)| {
                [w[0] + coef * x[0], w[1] + coef * x[1]]
            })
        });
        self.alpha = alpha.clone();
        Ok(SvmModel {
            kernel: params.kernel,
            c,
            hard_margin: params.is_hard_margin(),
            classes,
            points: points.to_vec(),
            y,
            alpha,
            bias,
            margins,
            w,
            report: FitReport {
                iterations,
                exit,
                objective,
                warm_start: warm,
            },
            max_violation,
            expansion,
        })
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
    // snap it, so its KKT case (free or bound, which decides how b is computed) is exact.
    for k in [i, j] {
        if alpha[k] > c * (1.0 - 1e-12) {
            alpha[k] = c;
        } else if alpha[k] < c * 1e-12 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Preset;

    fn rbf(gamma: f64) -> Kernel {
        Kernel::Rbf { gamma }
    }

    #[test]
    fn two_points_give_the_textbook_answer() {
        // x = ±(1, 0): w = (1, 0), b = 0, margin width 2, both α = ½.
        let model = SvmModel::fit(
            &[[-1.0, 0.0], [1.0, 0.0]],
            &[0, 1],
            &SvmParams::new(Kernel::Linear, f64::INFINITY),
        )
        .unwrap();
        let w = model.w.unwrap();
        assert!((w[0] - 1.0).abs() < 1e-9 && w[1].abs() < 1e-9);
        assert!(model.bias.abs() < 1e-9);
        assert!((model.margin_width().unwrap() - 2.0).abs() < 1e-9);
        assert!((model.alpha[0] - 0.5).abs() < 1e-9);
        assert!(!model.hard_margin_failed());
    }

    #[test]
    fn hard_margin_reports_non_separable_data() {
        // The same point with both labels can never be separated.
        let model = SvmModel::fit(
            &[[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [-1.0, -1.0]],
            &[0, 1, 1, 0],
            &SvmParams::new(Kernel::Linear, f64::INFINITY),
        )
        .unwrap();
        assert!(model.hard_margin_failed());
    }

    #[test]
    fn rejects_bad_parameters_and_data() {
        let p = [[0.0, 0.0], [1.0, 1.0]];
        assert_eq!(
            SvmModel::fit(&p, &[0, 1], &SvmParams::new(Kernel::Linear, 0.0))
                .unwrap_err()
                .to_string(),
            "C <= 0"
        );
        assert_eq!(
            SvmModel::fit(&p, &[1, 1], &SvmParams::new(Kernel::Linear, 1.0)).unwrap_err(),
            Error::OneClass
        );
        assert!(SvmModel::fit(
            &[[f64::NAN, 0.0], [1.0, 1.0]],
            &[0, 1],
            &SvmParams::new(Kernel::Linear, 1.0)
        )
        .is_err());
    }

    #[test]
    fn separable_rbf_grid_matches_direct_evaluation() {
        let data = Preset::Moons.generate(60, 0.3, 3);
        let model =
            SvmModel::fit(&data.points, &data.labels, &SvmParams::new(rbf(3.0), 1.0)).unwrap();
        let grid = Grid::new(crate::field::View::square(1.2), 17, 13);
        let fast = model.grid_evaluator(&grid);
        for row in 0..grid.rows {
            for col in 0..grid.cols {
                let direct = model.decision_value(grid.node(row, col));
                assert!((fast(row, col) - direct).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let data = Preset::Xor.generate(40, 0.2, 1);
        for kernel in [
            Kernel::Linear,
            rbf(2.0),
            Kernel::Polynomial {
                gamma: 1.0,
                degree: 3,
                coef0: 1.0,
            },
            Kernel::Sigmoid {
                gamma: 0.5,
                coef0: -0.5,
            },
        ] {
            let model =
                SvmModel::fit(&data.points, &data.labels, &SvmParams::new(kernel, 1.0)).unwrap();
            let x = [0.23, -0.41];
            let h = 1e-6;
            let g = model.gradient(x);
            let fd = [
                (model.decision_value([x[0] + h, x[1]]) - model.decision_value([x[0] - h, x[1]]))
                    / (2.0 * h),
                (model.decision_value([x[0], x[1] + h]) - model.decision_value([x[0], x[1] - h]))
                    / (2.0 * h),
            ];
            for k in 0..2 {
                assert!(
                    (g[k] - fd[k]).abs() < 1e-5 * (1.0 + fd[k].abs()),
                    "{kernel:?}"
                );
            }
        }
    }

    #[test]
    fn slack_segments_end_on_the_own_margin() {
        let data = Preset::Overlapping.generate(80, 0.2, 5);
        for kernel in [Kernel::Linear, rbf(2.0)] {
            let model =
                SvmModel::fit(&data.points, &data.labels, &SvmParams::new(kernel, 1.0)).unwrap();
            let mut checked = 0;
            for i in model.bound() {
                if let Some((start, end)) = model.slack_segment(i) {
                    assert_eq!(start, data.points[i]);
                    assert!((model.decision_value(end) - model.y[i]).abs() < 1e-4);
                    checked += 1;
                }
            }
            assert!(checked > 3, "{kernel:?}: only {checked} segments");
            if let Some(w) = model.w {
                // Linear: the segment's length is ξ/‖w‖.
                let i = model.bound()[0];
                let (s, e) = model.slack_segment(i).unwrap();
                let length = (e[0] - s[0]).hypot(e[1] - s[1]);
                assert!((length - model.slack(i) / w[0].hypot(w[1])).abs() < 1e-9);
            }
        }
    }
}

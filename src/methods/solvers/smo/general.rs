//! SMO on LIBSVM's general dual problem, for the formulations beyond the C-SVM (ν-SVC, ε-SVR,
//! ν-SVR). Over m variables α_t, each tied to a training point π(t) with a sign y_t = ±1:
//!
//! ```text
//!     minimise   ½ αᵀQα + pᵀα,   Q_st = y_s y_t K(x_π(s), x_π(t)),
//!     subject to 0 ≤ α_t ≤ C  and
//!                Σ y_t α_t fixed                                  (one equality), or
//!                Σ_{y_t = +1} α_t and Σ_{y_t = −1} α_t fixed       (two equalities).
//! ```
//!
//! The C-SVM is the case π = identity, p = −e (its SMO, with shrinking and warm starts, is the
//! module above); ν-SVC has p = 0 and the box [0, 1] with two equalities; regression has two
//! variables per point, α_i (y = +1) and α*_i (y = −1), whose Q entries all come from the n×n
//! kernel, read twice through π.
//!
//! With ∇ = Qα + p, a pair moves along the line its equalities leave: α_i + y_i y_j δ … in
//! closed form, clipped to the box ([`update_pair`], the C-SVM's step, with K(x_π(i), x_π(j))
//! as K_ij). The pair is chosen by second-order working-set selection (WSS 2 of Fan, Chen &
//! Lin, 2005) as in the C-SVM's SMO: i maximises −y_t∇_t over the variables that may move up
//! (I_up), and j, among those that may move down (I_low) with a positive violation against i,
//! minimises −(violation)²/(K_ii + K_jj − 2K_ij) (curvature at most zero counts as [`TAU`]).
//! With two equalities a pair must also keep each sign's sum, so it may not mix the signs:
//! each sign has its own i, every j is matched with the i of its own sign, and the best j
//! of either sign wins (LIBSVM's `Solver_NU`).
//!
//! SMO stops when m(α) − M(α) = max_{I_up} −y_t∇_t − min_{I_low} −y_t∇_t is below `tol`, over
//! all variables with one equality, and for each sign apart with two. Convergence is only
//! believed on a gradient summed afresh from α, so that rounding in the step-by-step updates
//! cannot fake it. There is no shrinking: every iteration looks at every variable (the
//! problems of a lecture's plane are small), and the optimum is the same.

use super::selection::{down_value, up_value};
use super::{compute_rho, update_pair, TAU};
use crate::core::data::Point;
use crate::core::error::Error;
use crate::core::kernel::KernelCache;
use crate::methods::model::ExitReason;

/// The problem: the training points, each variable's point π(t), sign y_t and linear term
/// p_t, and the box bound C.
pub(crate) struct Dual<'a> {
    /// The training points (the kernel cache holds their columns).
    pub points: &'a [Point],
    /// π(t): the training point of variable t.
    pub point_of: &'a [usize],
    pub y: &'a [f64],
    pub p: &'a [f64],
    pub c: f64,
}

/// How many equality constraints the problem has (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Equalities {
    /// Σ y_t α_t fixed: LIBSVM's `Solver` (ε-SVR).
    One,
    /// Each sign's sum fixed: LIBSVM's `Solver_NU` (ν-SVC, ν-SVR).
    Two,
}

/// What the solver ends with.
pub(crate) struct Solved {
    pub alpha: Vec<f64>,
    /// ∇ = Qα + p, computed afresh from α at the end.
    pub gradient: Vec<f64>,
    pub iterations: usize,
    pub exit: ExitReason,
    /// m(α) − M(α) when it stopped (the larger of the two signs' with two equalities).
    pub violation: f64,
}

/// Refuses a kernel whose diagonal K(x_i, x_i) overflows (a polynomial of high degree on large
/// coordinates): |K_ij| ≤ √(K_ii K_jj) for a positive semi-definite kernel, so nothing is left
/// to solve but NaN. `cache` must be prepared for the points.
pub(crate) fn check_diagonal(cache: &KernelCache) -> Result<(), Error> {
    match cache.diagonal().iter().position(|k| !k.is_finite()) {
        Some(i) => Err(Error::Parameter(format!(
            "the kernel overflows at point {}: rescale the data, or lower γ or the degree",
            i + 1
        ))),
        None => Ok(()),
    }
}

/// ∇ = Qα + p from the columns of the variables that are not zero.
fn gradient(cache: &mut KernelCache, dual: &Dual, alpha: &[f64]) -> Vec<f64> {
    let (y, point_of) = (dual.y, dual.point_of);
    let mut g = dual.p.to_vec();
    for (j, &a) in alpha.iter().enumerate() {
        if a > 0.0 {
            cache.ensure(point_of[j], dual.points);
            let (scale, column) = (a * y[j], cache.column(point_of[j]));
            for ((g, &yk), &k) in g.iter_mut().zip(y).zip(point_of) {
                *g += yk * scale * column[k];
            }
        }
    }
    g
}

/// Solves `dual` from the feasible `alpha`, with `cache` prepared for its points.
pub(crate) fn solve(
    cache: &mut KernelCache,
    dual: &Dual,
    mut alpha: Vec<f64>,
    equalities: Equalities,
    tol: f64,
    max_iter: usize,
) -> Solved {
    let (y, point_of) = (dual.y, dual.point_of);
    let mut g = gradient(cache, dual, &alpha);
    let diagonal: Vec<f64> = point_of.iter().map(|&k| cache.diagonal()[k]).collect();
    let mut iterations = 0;
    // Updates since ∇ was last summed afresh.
    let mut stale = false;
    let (exit, violation) = loop {
        let (pair, violation) = select(cache, dual, &alpha, &g, &diagonal, equalities, tol);
        let Some((i, j)) = pair else {
            if stale {
                g = gradient(cache, dual, &alpha);
                stale = false;
                continue;
            }
            break (ExitReason::Converged, violation);
        };
        if iterations >= max_iter {
            break (ExitReason::IterationCap, violation);
        }
        iterations += 1;
        stale = true;
        let (point_i, point_j) = (point_of[i], point_of[j]);
        cache.ensure(point_i, dual.points);
        cache.ensure(point_j, dual.points);
        let (old_i, old_j) = (alpha[i], alpha[j]);
        let k_ij = cache.column(point_i)[point_j];
        update_pair(&mut alpha, &g, y, &diagonal, k_ij, dual.c, i, j);
        let (di, dj) = ((alpha[i] - old_i) * y[i], (alpha[j] - old_j) * y[j]);
        let (ki, kj) = (cache.column(point_i), cache.column(point_j));
        for ((g, &yk), &k) in g.iter_mut().zip(y).zip(point_of) {
            *g += yk * (ki[k] * di + kj[k] * dj);
        }
    };
    if stale {
        g = gradient(cache, dual, &alpha);
    }
    Solved {
        alpha,
        gradient: g,
        iterations,
        exit,
        violation: violation.max(0.0),
    }
}

/// The working pair (none when the KKT conditions hold within `tol`) and m(α) − M(α).
fn select(
    cache: &mut KernelCache,
    dual: &Dual,
    alpha: &[f64],
    g: &[f64],
    diagonal: &[f64],
    equalities: Equalities,
    tol: f64,
) -> (Option<(usize, usize)>, f64) {
    let (y, c, point_of) = (dual.y, dual.c, dual.point_of);
    // The group a variable's pair is chosen in: all one, or one per sign.
    let group = |t: usize| usize::from(equalities == Equalities::Two && y[t] < 0.0);
    // Each group's i: the largest −y_t∇_t among the variables that may move up.
    let (mut up, mut top) = ([f64::NEG_INFINITY; 2], [None; 2]);
    for t in 0..alpha.len() {
        if let Some(v) = up_value(alpha[t], y[t], g[t], c) {
            let s = group(t);
            if v >= up[s] {
                (up[s], top[s]) = (v, Some(t));
            }
        }
    }
    for i in top.into_iter().flatten() {
        cache.ensure(point_of[i], dual.points);
    }
    let columns = top.map(|i| i.map(|i| cache.column(point_of[i])));
    // Each group's −M(α), and the j of the largest second-order gain against its group's i.
    let mut down = [f64::NEG_INFINITY; 2];
    let mut best = None;
    let mut best_decrease = f64::INFINITY;
    for j in 0..alpha.len() {
        let Some(v) = down_value(alpha[j], y[j], g[j], c) else {
            continue;
        };
        let s = group(j);
        down[s] = down[s].max(v);
        let difference = up[s] + v;
        if difference > 0.0 {
            let (Some(i), Some(k_i)) = (top[s], columns[s]) else {
                continue;
            };
            let decrease = gain(
                difference,
                diagonal[i] + diagonal[j] - 2.0 * k_i[point_of[j]],
            );
            if decrease <= best_decrease {
                (best, best_decrease) = (Some((i, j)), decrease);
            }
        }
    }
    let violation = (up[0] + down[0]).max(up[1] + down[1]);
    match best {
        Some(pair) if violation >= tol => (Some(pair), violation),
        _ => (None, violation),
    }
}

/// The second-order gain of a pair, −(violation)²/curvature (LIBSVM's stand-in [`TAU`] for a
/// curvature K_ii + K_jj − 2K_ij that is not positive): the more negative, the better.
fn gain(difference: f64, curvature: f64) -> f64 {
    let curvature = if curvature > 0.0 { curvature } else { TAU };
    -(difference * difference) / curvature
}

/// LIBSVM's ρ and r after two equalities, from the gradient: per sign, r_± is the mean of ∇
/// over its free variables, or with none free the middle of the interval its bound ones
/// leave — the one-equality ρ of that sign alone, as if every y were +1 — and then
/// r = (r₊ + r₋)/2 and ρ = (r₊ − r₋)/2. (Returned as (ρ, r).)
pub(crate) fn rho_and_r(alpha: &[f64], g: &[f64], y: &[f64], c: f64) -> (f64, f64) {
    let level = |sign: f64| {
        let (a, g): (Vec<f64>, Vec<f64>) = (0..alpha.len())
            .filter(|&t| y[t] == sign)
            .map(|t| (alpha[t], g[t]))
            .unzip();
        compute_rho(&a, &g, &vec![1.0; a.len()], c)
    };
    let (r_pos, r_neg) = (level(1.0), level(-1.0));
    ((r_pos - r_neg) / 2.0, (r_pos + r_neg) / 2.0)
}

/// LIBSVM's objective ½αᵀQα + pᵀα = ½ Σ α_t(∇_t + p_t), from the exact gradient.
pub(crate) fn objective(alpha: &[f64], g: &[f64], p: &[f64]) -> f64 {
    0.5 * alpha
        .iter()
        .zip(g.iter().zip(p))
        .map(|(a, (g, p))| a * (g + p))
        .sum::<f64>()
}

//! The solver of ν-SVC's scaled dual (see the module above for the problem): LIBSVM's
//! `Solver_NU`, an SMO whose pairs never mix the classes.
//!
//! With two equality constraints, Σ_{y_i = +1} α_i and Σ_{y_i = −1} α_i are each fixed, so a
//! pair may only move within one class: α_i − δ and α_j + δ with y_i = y_j, which keeps both
//! sums. The pair is chosen as in the C-SVM's SMO, once per class, and the class whose
//! second-order gain is larger wins:
//!
//! - among the positive points that may still grow (α_t < 1), i maximises −∇_t; among the
//!   negative points that may still shrink (α_t > 0), i′ maximises ∇_t;
//! - j is the point of either class, on the side opposite its class's i (a positive one that
//!   may shrink, a negative one that may grow), with a positive violation against that i and
//!   the smallest −(violation)²/(K_ii + K_jj − 2K_ij) (curvature at most zero counts as
//!   [`TAU`]); the pair is (i, j) or (i′, j) by the class of j.
//!
//! It stops when neither class violates its KKT conditions by `tol`: max over the two classes
//! of (the largest −y_t∇_t among those that may move up) − (the smallest among those that may
//! move down) is below `tol`. Here ∇ = Qα (the dual has no linear term), Q_ij = y_i y_j K_ij.
//! Every step is the C-SVM's same-class update ([`update_pair`]) with the box [0, 1].
//!
//! The initial α is LIBSVM's: within each class in the order of the points, α = 1 until the
//! class's sum reaches ν·l/2, one multiplier taking the remainder and the rest 0 — feasible
//! for both equality constraints, since ν·l/2 ≤ the size of each class.
//!
//! One difference from LIBSVM, where only rounding decides: a multiplier within 10⁻¹² of a
//! bound is put on it (as the C-SVM's SMO does), the initial remainder included. LIBSVM keeps
//! such a multiplier free, and r then averages in the ∇ of a point that is not on the margin.
//! Upstream LIBSVM computes ν·l/2 in one product, which is mostly exact; scikit-learn's copy
//! adds ν once per point (for sample weights), so that ν = 0.4 on 40 points leaves a
//! remainder of 3.6·10⁻¹⁵, and its r, b and decision values can then differ from the lab's by
//! a few per cent (both are optima when a class has no free multiplier; otherwise the lab's is
//! the one that meets the KKT conditions).
//!
//! Unlike LIBSVM there is no shrinking: every iteration looks at every point. The problems of
//! a lecture's plane are small, and the answer is the same.

use crate::data::Point;
use crate::kernel::KernelCache;
use crate::model::ExitReason;
use crate::solvers::smo::{compute_rho, update_pair, Solved, TAU};

/// LIBSVM's starting point: in each class, α = 1 in order until the class's sum is ν·l/2.
pub(super) fn initial_alpha(y: &[f64], nu: f64) -> Vec<f64> {
    let half = nu * y.len() as f64 / 2.0;
    let (mut positive, mut negative) = (half, half);
    y.iter()
        .map(|&yi| {
            let left = if yi > 0.0 {
                &mut positive
            } else {
                &mut negative
            };
            let a = left.min(1.0);
            *left -= a;
            // ν·l/2 a rounding step off a whole number leaves a remainder of 10⁻¹⁵ (or one
            // short of 1), which would count as a free multiplier in r; it is put on its
            // bound, as SMO's updates put theirs.
            if a < 1e-12 {
                0.0
            } else if a > 1.0 - 1e-12 {
                1.0
            } else {
                a
            }
        })
        .collect()
}

/// ∇ = Qα from the columns of the multipliers that are not zero.
fn gradient(cache: &mut KernelCache, points: &[Point], alpha: &[f64], y: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; alpha.len()];
    for (j, &a) in alpha.iter().enumerate() {
        if a > 0.0 {
            cache.ensure(j, points);
            let scale = a * y[j];
            for ((g, &k), &yk) in g.iter_mut().zip(cache.column(j)).zip(y) {
                *g += yk * scale * k;
            }
        }
    }
    g
}

/// Solves the scaled dual from LIBSVM's initial α, with `cache` prepared for `points`: α_i ∈
/// [0, 1] before the rescaling by 1/r, ∇ = Qα computed afresh from α at the end, and the larger
/// of the two classes' KKT violations.
pub(super) fn solve(
    cache: &mut KernelCache,
    points: &[Point],
    y: &[f64],
    nu: f64,
    tol: f64,
    max_iter: usize,
) -> Solved {
    let mut alpha = initial_alpha(y, nu);
    let mut g = gradient(cache, points, &alpha, y);
    let diagonal = cache.diagonal().to_vec();
    let mut iterations = 0;
    // Updates since ∇ was last summed afresh: convergence is only believed on a fresh one, so
    // that rounding in the step-by-step updates cannot fake it.
    let mut stale = false;
    let (exit, violation) = loop {
        let (pair, violation) = select(cache, points, &alpha, &g, y, &diagonal, tol);
        let Some((i, j)) = pair else {
            if stale {
                g = gradient(cache, points, &alpha, y);
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
        cache.ensure(i, points);
        cache.ensure(j, points);
        let (old_i, old_j) = (alpha[i], alpha[j]);
        let k_ij = cache.column(i)[j];
        update_pair(&mut alpha, &g, y, &diagonal, k_ij, 1.0, i, j);
        let (di, dj) = ((alpha[i] - old_i) * y[i], (alpha[j] - old_j) * y[j]);
        let (ki, kj) = (cache.column(i), cache.column(j));
        for (((g, &yk), &kik), &kjk) in g.iter_mut().zip(y).zip(ki).zip(kj) {
            *g += yk * (kik * di + kjk * dj);
        }
    };
    if stale {
        g = gradient(cache, points, &alpha, y);
    }
    Solved {
        alpha,
        gradient: g,
        iterations,
        exit,
        violation: violation.max(0.0),
    }
}

/// The working pair (none when both classes meet their KKT conditions within `tol`) and the
/// larger of the two classes' violations.
fn select(
    cache: &mut KernelCache,
    points: &[Point],
    alpha: &[f64],
    g: &[f64],
    y: &[f64],
    diagonal: &[f64],
    tol: f64,
) -> (Option<(usize, usize)>, f64) {
    // The most violating point of each class that may move up: i for +1 (−∇ largest), i′ for
    // −1 (∇ largest).
    let (mut up_pos, mut up_neg) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let (mut i_pos, mut i_neg) = (None, None);
    for t in 0..alpha.len() {
        if y[t] > 0.0 {
            if alpha[t] < 1.0 && -g[t] >= up_pos {
                up_pos = -g[t];
                i_pos = Some(t);
            }
        } else if alpha[t] > 0.0 && g[t] >= up_neg {
            up_neg = g[t];
            i_neg = Some(t);
        }
    }
    for i in [i_pos, i_neg].into_iter().flatten() {
        cache.ensure(i, points);
    }
    let column = |i: Option<usize>| i.map(|i| cache.column(i));
    let (k_pos, k_neg) = (column(i_pos), column(i_neg));
    let (mut down_pos, mut down_neg) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut best: Option<usize> = None;
    let mut best_decrease = f64::INFINITY;
    for j in 0..alpha.len() {
        // The class's i, its column, and j's violation against it.
        let (i, k_i, difference) = if y[j] > 0.0 {
            if alpha[j] <= 0.0 {
                continue;
            }
            down_pos = down_pos.max(g[j]);
            (i_pos, k_pos, up_pos + g[j])
        } else {
            if alpha[j] >= 1.0 {
                continue;
            }
            down_neg = down_neg.max(-g[j]);
            (i_neg, k_neg, up_neg - g[j])
        };
        if difference > 0.0 {
            let (Some(i), Some(k_i)) = (i, k_i) else {
                continue;
            };
            let decrease = gain(difference, diagonal[i] + diagonal[j] - 2.0 * k_i[j]);
            if decrease <= best_decrease {
                (best, best_decrease) = (Some(j), decrease);
            }
        }
    }
    let violation = (up_pos + down_pos).max(up_neg + down_neg);
    match best {
        Some(j) if violation >= tol => {
            let i = if y[j] > 0.0 { i_pos } else { i_neg };
            (i.map(|i| (i, j)), violation)
        }
        _ => (None, violation),
    }
}

/// LIBSVM's ρ and r from the gradient: per class, r_± is the mean of ∇ over its free
/// multipliers, or with none free the middle of the interval its bound ones leave — the
/// C-SVM's ρ of that class alone, as if every label were +1 — and then r = (r₊ + r₋)/2 and
/// ρ = (r₊ − r₋)/2. (Returned as (ρ, r).)
pub(super) fn rho_and_r(alpha: &[f64], g: &[f64], y: &[f64]) -> (f64, f64) {
    let level = |class: f64| {
        let (a, g): (Vec<f64>, Vec<f64>) = (0..alpha.len())
            .filter(|&t| y[t] == class)
            .map(|t| (alpha[t], g[t]))
            .unzip();
        compute_rho(&a, &g, &vec![1.0; a.len()], 1.0)
    };
    let (r_pos, r_neg) = (level(1.0), level(-1.0));
    ((r_pos - r_neg) / 2.0, (r_pos + r_neg) / 2.0)
}

/// The second-order gain of a pair, −(violation)²/curvature (LIBSVM's stand-in [`TAU`] for a
/// curvature K_ii + K_jj − 2K_ij that is not positive): the more negative, the better.
fn gain(difference: f64, curvature: f64) -> f64 {
    let curvature = if curvature > 0.0 { curvature } else { TAU };
    -(difference * difference) / curvature
}

//! The solver of ν-SVC's scaled dual (see the module above for the problem): LIBSVM's
//! `Solver_NU`, an SMO whose pairs never mix the classes.
//!
//! The problem is LIBSVM's general dual ([`general`]) with two equalities: π the identity,
//! p = 0 and the box [0, 1]. With Σ_{y_i = +1} α_i and Σ_{y_i = −1} α_i each fixed, a pair may
//! only move within one class: α_i − δ and α_j + δ with y_i = y_j, which keeps both sums.
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
//! Like LIBSVM's solver otherwise, but without shrinking (see [`general`], which it runs).

use crate::core::data::Point;
use crate::core::kernel::KernelCache;
use crate::methods::solvers::smo::general::{self, Dual, Equalities, Solved};

/// LIBSVM's starting point: in each class, α = 1 in order until the class's sum is ν·l/2.
pub(crate) fn initial_alpha(y: &[f64], nu: f64) -> Vec<f64> {
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

/// Solves the scaled dual from LIBSVM's initial α, with `cache` prepared for `points`; α ends
/// in [0, 1] and the gradient is ∇ = Qα.
pub(super) fn solve(
    cache: &mut KernelCache,
    points: &[Point],
    y: &[f64],
    nu: f64,
    tol: f64,
    max_iter: usize,
) -> Solved {
    let n = points.len();
    let point_of: Vec<usize> = (0..n).collect();
    let dual = Dual {
        points,
        point_of: &point_of,
        y,
        p: &vec![0.0; n],
        c: 1.0,
    };
    let alpha = initial_alpha(y, nu);
    general::solve(cache, &dual, alpha, Equalities::Two, tol, max_iter)
}

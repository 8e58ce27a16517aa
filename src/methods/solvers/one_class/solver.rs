//! The one-class dual solved (see the module above for the problem): LIBSVM's start, the
//! C-SVM's SMO from it with every y_i = +1, and ρ from the scores G = Kα.

use crate::core::data::Point;
use crate::core::kernel::KernelCache;
use crate::methods::solvers::smo::{self, compute_rho, Problem, Recording, Solved};

/// LIBSVM's starting point: α = 1 in the order of the points until the sum reaches νn, one
/// multiplier taking the remainder, the rest 0. A remainder within 10⁻¹² of 0 or 1 (ν·n a
/// rounding step off a whole number) is put on that bound, as SMO's updates put theirs; a
/// remainder alone (νn < 1) is kept whatever its size.
pub(super) fn initial_alpha(n: usize, nu: f64) -> Vec<f64> {
    let total = nu * n as f64;
    let whole = (total.floor() as usize).min(n);
    let mut alpha = vec![0.0; n];
    alpha[..whole].fill(1.0);
    if whole < n {
        let part = total - whole as f64;
        alpha[whole] = if part > 1.0 - 1e-12 {
            1.0
        } else if part < 1e-12 && whole > 0 {
            0.0
        } else {
            part
        };
    }
    alpha
}

/// Solves the dual with `cache` prepared for the kernel on `points` (see the module doc for
/// the rescaling when νn < 1): α with the one-class dual's gradient G = Kα, and ρ.
pub(super) fn solve(
    cache: &mut KernelCache,
    points: &[Point],
    nu: f64,
    tol: f64,
    max_iter: usize,
) -> (Solved, f64) {
    let n = points.len();
    let start = initial_alpha(n, nu);
    let total: f64 = start.iter().sum();
    // α = scale·β with Σβ = 1 when νn < 1; otherwise β = α.
    let scale = if total < 1.0 { total } else { 1.0 };
    let c = 1.0 / scale;
    let beta = start.iter().map(|a| a / scale).collect();
    let problem = Problem {
        kernel: cache.kernel(),
        c,
        tol,
        max_iter,
        stop_at_bound: false,
        record: Recording::default(),
    };
    let mut solved = smo::solve_from(cache, points, vec![1.0; n], beta, &problem);
    // SMO's gradient is Kβ − e.
    solved.gradient.iter_mut().for_each(|g| *g += 1.0);
    let rho = offset(&solved.alpha, &solved.gradient, c) * scale;
    for value in solved.alpha.iter_mut().chain(&mut solved.gradient) {
        *value *= scale;
    }
    solved.violation *= scale;
    (solved, rho)
}

/// ρ from the scores G: LIBSVM's (the free multipliers' mean, or the midpoint the bound ones
/// leave), or max G when no multiplier is at 0 and that midpoint is infinite.
pub(super) fn offset(alpha: &[f64], score: &[f64], c: f64) -> f64 {
    let rho = compute_rho(alpha, score, &vec![1.0; alpha.len()], c);
    if rho.is_finite() {
        rho
    } else {
        score.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }
}

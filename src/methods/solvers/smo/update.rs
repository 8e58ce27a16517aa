//! The update step: the two-variable sub-problem in closed form.
//!
//! Two multipliers i, j move along the line y_i α_i + y_j α_j = const, which keeps
//! Σ y_t α_t unchanged; along it the dual is a parabola of curvature K_ii + K_jj − 2K_ij, so one
//! Newton step reaches its optimum, which is then clipped to the box [0, C]².

use super::TAU;

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
pub(super) fn unclipped_optimum(
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

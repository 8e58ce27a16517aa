//! Regression set up as LIBSVM's general dual in 2n variables (see the module above): variable
//! t < n is α_t, variable n + i is α*_i, both tied to point i; then the fit read off the
//! solution.

use super::{SvrFit, SvrWarmStart};
use crate::core::data::Point;
use crate::core::error::Error;
use crate::core::kernel::Kernel;
use crate::methods::model::{ExitReason, WarmStart};
use crate::methods::solvers::nu_svc::solver::initial_alpha;
use crate::methods::solvers::smo::compute_rho;
use crate::methods::solvers::smo::general::{self, rho_and_r, Dual, Equalities};

/// Which regression, with its parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Formulation {
    /// ε-SVR with the tube's half-width ε ≥ 0.
    Epsilon(f64),
    /// ν-SVR with ν ∈ (0, 1].
    Nu(f64),
}

/// A regression problem besides its data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SvrProblem {
    pub kernel: Kernel,
    /// The box bound C.
    pub c: f64,
    pub formulation: Formulation,
    /// Stopping tolerance on the maximal KKT violation.
    pub tol: f64,
    pub max_iter: usize,
}

/// Checks the inputs and solves the regression, from what `warm` kept of the last fit when
/// that gives a feasible start (see `warm.rs`), and keeps this one's solution in it.
pub(super) fn fit(
    points: &[Point],
    targets: &[f64],
    problem: &SvrProblem,
    warm: &mut SvrWarmStart,
) -> Result<SvrFit, Error> {
    let SvrProblem {
        kernel,
        c,
        formulation,
        tol,
        max_iter,
    } = *problem;
    super::check(points, targets, kernel, c, formulation, tol)?;
    let n = points.len();
    let point_of: Vec<usize> = (0..2 * n).map(|t| t % n).collect();
    let y: Vec<f64> = (0..2 * n).map(|t| if t < n { 1.0 } else { -1.0 }).collect();
    // The linear term: ε − t_i for α_i and ε + t_i for α*_i (ε = 0 in ν-SVR's dual).
    let tube = match formulation {
        Formulation::Epsilon(epsilon) => epsilon,
        Formulation::Nu(_) => 0.0,
    };
    let p: Vec<f64> = (0..2 * n)
        .map(|t| tube - y[t] * targets[point_of[t]])
        .collect();
    let (cold, equalities) = match formulation {
        Formulation::Epsilon(_) => (vec![0.0; 2 * n], Equalities::One),
        // ν-SVC's start in units of C: each side filled in order to C·ν·n/2 (that is, ν/2 of
        // its 2n variables' worth of C).
        Formulation::Nu(nu) => {
            let start = initial_alpha(&y, nu / 2.0).iter().map(|a| a * c).collect();
            (start, Equalities::Two)
        }
    };
    warm.prepare(kernel, points);
    let start = warm.start(formulation, c, &y);
    let warm_start = start.is_some();
    let start = start.unwrap_or(cold);
    // Whatever happens next, the next fit starts cold unless this one ends.
    warm.forget();
    let cache = &mut warm.cache;
    general::check_diagonal(cache)?;
    let dual = Dual {
        points,
        point_of: &point_of,
        y: &y,
        p: &p,
        c,
    };
    let solved = general::solve(cache, &dual, start, equalities, tol, max_iter);
    let (alpha, gradient) = (&solved.alpha, &solved.gradient);
    let (bias, epsilon, nu) = match formulation {
        Formulation::Epsilon(epsilon) => (-compute_rho(alpha, gradient, &y, c), epsilon, None),
        Formulation::Nu(nu) => {
            let (rho, r) = rho_and_r(alpha, gradient, &y, c);
            (-rho, -r, Some(nu))
        }
    };
    let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
    if !(finite(alpha) && finite(gradient) && bias.is_finite() && epsilon.is_finite()) {
        return Err(Error::Parameter(
            "the solution overflows: rescale the targets or the data, or lower C".into(),
        ));
    }
    warm.keep(alpha, formulation, c);
    let (upper, lower) = alpha.split_at(n);
    let dual_coef: Vec<f64> = upper.iter().zip(lower).map(|(a, b)| a - b).collect();
    let support: Vec<usize> = (0..n).filter(|&i| dual_coef[i] != 0.0).collect();
    let expansion = support.iter().map(|&i| (points[i], dual_coef[i])).collect();
    // ∇_i − p_i = (Qα)_i = Σ_j (α_j − α*_j) K(x_j, x_i) = f(x_i) − b for the upper block.
    let residuals = (0..n)
        .map(|i| targets[i] - (gradient[i] - p[i]) - bias)
        .collect();
    Ok(SvrFit {
        alpha: upper.to_vec(),
        alpha_star: lower.to_vec(),
        dual_coef,
        bias,
        epsilon,
        support,
        iterations: solved.iterations,
        warm_start,
        converged: solved.exit == ExitReason::Converged,
        objective: general::objective(alpha, gradient, &p),
        expansion,
        kernel,
        c,
        nu,
        residuals,
        violation: solved.violation,
    })
}

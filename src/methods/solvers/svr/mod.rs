//! Support vector regression, ε-SVR (Vapnik, 1995) and ν-SVR (Schölkopf, Smola, Williamson &
//! Bartlett, 2000), solved as LIBSVM solves them (Chang & Lin, 2011; for ν-SVR, Chang & Lin,
//! "Training ν-support vector regression: theory and algorithms", 2002), so that the answers
//! compare with scikit-learn's `SVR` and `NuSVR`.
//!
//! **ε-SVR.** For training points x_i with targets t_i, the regression function
//! f(x) = wᵀφ(x) + b ignores errors up to ε (the *tube*) and pays C per unit beyond it:
//!
//! ```text
//!     minimise   ½‖w‖² + C Σ (ξ_i + ξ*_i)
//!     subject to t_i − f(x_i) ≤ ε + ξ_i,   f(x_i) − t_i ≤ ε + ξ*_i,   ξ_i, ξ*_i ≥ 0.
//! ```
//!
//! Its dual has a multiplier α_i for the upper side (t above f) and α*_i for the lower one:
//!
//! ```text
//!     minimise   ½ (α − α*)ᵀK(α − α*) + ε Σ (α_i + α*_i) − Σ t_i (α_i − α*_i)
//!     subject to Σ (α_i − α*_i) = 0,   0 ≤ α_i, α*_i ≤ C,
//! ```
//!
//! and f(x) = Σ_i (α_i − α*_i) K(x_i, x) + b. LIBSVM solves it as one problem in 2n
//! variables (α, α*) with signs y = (+1, …, +1, −1, …, −1), linear term p = (ε − t, ε + t) and
//! Q_st = y_s y_t K(x_π(s), x_π(t)), where π(i) = π(i + n) = i reads the n×n kernel twice —
//! the general dual of the SMO module (`smo::general`) with one equality, y ᵀα = 0.
//!
//! The KKT conditions say where each point lies against the tube, with residual
//! r_i = t_i − f(x_i):
//!
//! ```text
//!     α_i = 0       ⇒  r_i ≤ ε          α*_i = 0       ⇒  −r_i ≤ ε
//!     0 < α_i < C   ⇒  r_i = ε          0 < α*_i < C   ⇒  −r_i = ε   (on the tube's edge)
//!     α_i = C       ⇒  r_i ≥ ε          α*_i = C       ⇒  −r_i ≥ ε   (outside it)
//! ```
//!
//! so the support vectors (α_i − α*_i ≠ 0) are the points on or outside the tube, and with
//! ε > 0 at most one of α_i, α*_i is non-zero. On the edge ∇_t = −y_t b for the gradient
//! ∇ = Qα + p, so b = −ρ with ρ the mean of y_t∇_t over the free variables, or with none free
//! the middle of the interval the bound ones leave (LIBSVM's rule, as for the C-SVM).
//!
//! **ν-SVR.** ε becomes a variable, priced by ν ∈ (0, 1]. LIBSVM's primal is
//! ½‖w‖² + C (ν·n·ε + Σ (ξ_i + ξ*_i)) under the same constraints, and its dual
//!
//! ```text
//!     minimise   ½ (α − α*)ᵀK(α − α*) − Σ t_i (α_i − α*_i)
//!     subject to Σ (α_i − α*_i) = 0,   Σ (α_i + α*_i) = C·ν·n,   0 ≤ α_i, α*_i ≤ C
//! ```
//!
//! is the general dual with p = (−t, t) and two equalities: Σα_i = Σα*_i = C·ν·n/2, which the
//! solver keeps as ν-SVC's does (pairs never mix α with α*), starting as LIBSVM does from
//! ν-SVC's initial α (α_i = α*_i = C in order until each side holds C·ν·n/2). At the optimum
//! the free α_i share a level r₊ = −ε − b of ∇ and the free α*_i a level r₋ = b − ε, so
//! LIBSVM's r = (r₊ + r₋)/2 and ρ = (r₊ − r₋)/2 give
//!
//! ```text
//!     ε = −r,   b = −ρ.
//! ```
//!
//! Since Σ (α_i + α*_i) = C·ν·n with every multiplier at most C, at most ν·n points are
//! outside the tube (where a multiplier sits at C) and at least ν·n are support vectors:
//!
//! ```text
//!     fraction of points outside the tube  ≤  ν  ≤  fraction of support vectors,
//! ```
//!
//! the ν-property ([`SvrFit::outside_fraction`], [`SvrFit::support_fraction`]). The second
//! inequality needs ε > 0: with ε = 0 (targets fitted exactly) a point may have α_i = α*_i > 0.
//!
//! The solver is LIBSVM's without shrinking (scikit-learn's `shrinking=False`; the optimum is
//! the same, and so, nearly, are the iteration counts); `solver.rs` sets the problem up and
//! reads the fit off its solution. [`fit_svr`] keeps the kernel columns and the last
//! multipliers in an [`SvrWarmStart`] and starts the next fit from them when they can be made
//! feasible for it (`warm.rs` says how and when): the page's refits after a drag or a slider
//! step take tens to hundreds of iterations where LIBSVM's start takes thousands. ν-SVR at a large C is slow to converge, as in LIBSVM: on 500
//! points of a noisy sine (RBF, γ = 10, ν = 0.3, tol 10⁻³) C = 1 takes 2 600 iterations and
//! C = 100 takes 370 000 (1.7 s here; LIBSVM 384 000 without shrinking, 482 000 with it, in
//! 0.2 s), where ε-SVR takes 450 and 8 700.

use crate::core::data::Point;
use crate::core::error::Error;
use crate::core::kernel::Kernel;
use crate::methods::model::KernelExpansion;

mod solver;
mod warm;

pub use solver::{Formulation, SvrProblem};
pub use warm::SvrWarmStart;

/// A fitted support vector regression, ε-SVR or ν-SVR.
#[derive(Clone, Debug, PartialEq)]
pub struct SvrFit {
    /// α_i, one per training point: the upper side (t above f).
    pub alpha: Vec<f64>,
    /// α*_i, one per training point: the lower side (t below f).
    pub alpha_star: Vec<f64>,
    /// α_i − α*_i, one per training point (0 off the support); scikit-learn's `dual_coef_`.
    pub dual_coef: Vec<f64>,
    /// b, with f(x) = Σ_i (α_i − α*_i) K(x_i, x) + b (scikit-learn's `intercept_`).
    pub bias: f64,
    /// The tube's half-width ε: as given for ε-SVR, the one found for ν-SVR (LIBSVM's −r).
    pub epsilon: f64,
    /// The indices with a non-zero `dual_coef`, increasing.
    pub support: Vec<usize>,
    pub iterations: usize,
    /// The solver started from the last fit's multipliers (see [`fit_svr`]), not LIBSVM's
    /// start.
    pub warm_start: bool,
    /// False when the iteration cap stopped the solver.
    pub converged: bool,
    /// The dual objective as LIBSVM reports it: ½αᵀQα + pᵀα of the 2n-variable problem.
    pub objective: f64,
    /// (x_i, α_i − α*_i) over the support: f as a kernel expansion.
    pub expansion: Vec<(Point, f64)>,
    pub kernel: Kernel,
    /// The box bound C.
    pub c: f64,
    /// ν for ν-SVR, `None` for ε-SVR.
    pub nu: Option<f64>,
    /// r_i = t_i − f(x_i) at the training points, from the solver's gradient.
    pub residuals: Vec<f64>,
    /// The maximal KKT violation m(α) − M(α) when the solver stopped (below `tol` when it
    /// converged).
    pub violation: f64,
}

impl SvrFit {
    /// f(x) = Σ_i (α_i − α*_i) K(x_i, x) + b.
    pub fn predict(&self, x: Point) -> f64 {
        let sum: f64 = self
            .expansion
            .iter()
            .map(|&(z, coef)| coef * self.kernel.eval(z, x))
            .sum();
        sum + self.bias
    }

    /// Whether point i is a free support vector, on the tube's edge: 0 < |α_i − α*_i| < C.
    pub fn is_free(&self, i: usize, c: f64) -> bool {
        let coef = self.dual_coef[i].abs();
        coef > 0.0 && coef < c
    }

    /// Whether point i is outside the tube: a multiplier at C, and |r_i| > ε.
    pub fn is_outside(&self, i: usize) -> bool {
        let at_bound = self.alpha[i] >= self.c || self.alpha_star[i] >= self.c;
        at_bound && self.residuals[i].abs() > self.epsilon
    }

    /// The fraction of the training points outside the tube (at most ν for ν-SVR).
    pub fn outside_fraction(&self) -> f64 {
        let n = self.alpha.len();
        (0..n).filter(|&i| self.is_outside(i)).count() as f64 / n as f64
    }

    /// The fraction of the training points that are support vectors (at least ν for ν-SVR
    /// when ε > 0; with ε = 0, on targets it fits exactly, α_i = α*_i > 0 may cancel in
    /// α_i − α*_i, and the bound holds for the multipliers rather than the points).
    pub fn support_fraction(&self) -> f64 {
        self.support.len() as f64 / self.alpha.len() as f64
    }

    /// f as a kernel expansion, for the views that draw one.
    pub fn kernel_expansion(&self) -> KernelExpansion<'_> {
        KernelExpansion {
            kernel: self.kernel,
            terms: &self.expansion,
            bias: self.bias,
        }
    }
}

/// Fits ε-SVR: LIBSVM's `epsilon_svr` (scikit-learn's `SVR(C=c, epsilon=epsilon, tol=tol)`).
pub fn fit_epsilon_svr(
    points: &[Point],
    targets: &[f64],
    kernel: Kernel,
    c: f64,
    epsilon: f64,
    tol: f64,
    max_iter: usize,
) -> Result<SvrFit, Error> {
    let formulation = Formulation::Epsilon(epsilon);
    fit_cold(points, targets, kernel, c, formulation, tol, max_iter)
}

/// Fits ν-SVR: LIBSVM's `nu_svr` (scikit-learn's `NuSVR(C=c, nu=nu, tol=tol)`).
pub fn fit_nu_svr(
    points: &[Point],
    targets: &[f64],
    kernel: Kernel,
    c: f64,
    nu: f64,
    tol: f64,
    max_iter: usize,
) -> Result<SvrFit, Error> {
    fit_cold(
        points,
        targets,
        kernel,
        c,
        Formulation::Nu(nu),
        tol,
        max_iter,
    )
}

/// A fit from LIBSVM's start, with a cache of its own.
fn fit_cold(
    points: &[Point],
    targets: &[f64],
    kernel: Kernel,
    c: f64,
    formulation: Formulation,
    tol: f64,
    max_iter: usize,
) -> Result<SvrFit, Error> {
    let problem = SvrProblem {
        kernel,
        c,
        formulation,
        tol,
        max_iter,
    };
    solver::fit(points, targets, &problem, &mut SvrWarmStart::default())
}

/// Fits ε-SVR or ν-SVR keeping the kernel columns and the solution in `warm` between calls:
/// after a drag, a new C, ε or ν (or a new kernel) with as many points, it starts from the
/// last multipliers made feasible for the new problem, which ends at the same optimum (the
/// dual is convex; convergence is judged on a freshly summed gradient) in far fewer
/// iterations. What cannot be made feasible starts as [`fit_epsilon_svr`] and
/// [`fit_nu_svr`] do.
pub fn fit_svr(
    points: &[Point],
    targets: &[f64],
    problem: &SvrProblem,
    warm: &mut SvrWarmStart,
) -> Result<SvrFit, Error> {
    solver::fit(points, targets, problem, warm)
}

/// Checks the inputs of a fit, each failure one line.
fn check(
    points: &[Point],
    targets: &[f64],
    kernel: Kernel,
    c: f64,
    formulation: solver::Formulation,
    tol: f64,
) -> Result<(), Error> {
    if points.len() != targets.len() {
        return Err(Error::Parameter(format!(
            "{} points but {} targets",
            points.len(),
            targets.len()
        )));
    }
    if points.len() < 2 {
        return Err(Error::TooFewPoints);
    }
    if let Some(i) = points.iter().position(|p| !p.iter().all(|v| v.is_finite())) {
        return Err(Error::NotFinite {
            what: format!("point {}", i + 1),
        });
    }
    if let Some(i) = targets.iter().position(|t| !t.is_finite()) {
        return Err(Error::NotFinite {
            what: format!("the target of point {}", i + 1),
        });
    }
    if c.is_nan() || c <= 0.0 {
        return Err(Error::Parameter("C <= 0".into()));
    }
    if c.is_infinite() {
        return Err(Error::Parameter("C is not a finite number".into()));
    }
    match formulation {
        solver::Formulation::Epsilon(epsilon) if epsilon.is_nan() || epsilon < 0.0 => {
            return Err(Error::Parameter("epsilon < 0".into()));
        }
        solver::Formulation::Epsilon(epsilon) if epsilon.is_infinite() => {
            return Err(Error::Parameter("epsilon is not a finite number".into()));
        }
        solver::Formulation::Nu(nu) if !(nu > 0.0 && nu <= 1.0) => {
            return Err(Error::Parameter("nu must be in (0, 1]".into()));
        }
        _ => {}
    }
    if !(tol.is_finite() && tol > 0.0) {
        return Err(Error::Parameter("tol <= 0".into()));
    }
    check_kernel(kernel)
}

/// The kernel's own range checks ([`Kernel::from_name`]) on a kernel given as a value; a
/// kernel built by rule was checked when its expression was read.
fn check_kernel(kernel: Kernel) -> Result<(), Error> {
    let (gamma, degree, coef0) = match kernel {
        Kernel::Linear | Kernel::Composed(_) => return Ok(()),
        Kernel::Polynomial {
            gamma,
            degree,
            coef0,
        } => (gamma, degree, coef0),
        Kernel::Rbf { gamma } => (gamma, 1, 0.0),
        Kernel::Sigmoid { gamma, coef0 } => (gamma, 1, coef0),
    };
    Kernel::from_name(kernel.name(), gamma, degree, coef0).map(|_| ())
}

#[cfg(test)]
mod tests;

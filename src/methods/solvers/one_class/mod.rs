//! The one-class SVM: novelty detection by ν (Schölkopf, Platt, Shawe-Taylor, Smola &
//! Williamson, "Estimating the support of a high-dimensional distribution", Neural Computation
//! 13, 2001), in the form LIBSVM and scikit-learn's `OneClassSVM` solve.
//!
//! There are no labels. The method separates the n training points from the origin of the
//! feature space with the widest margin ρ/‖w‖, allowing a fraction of them to fall on the
//! origin's side: for ν ∈ (0, 1],
//!
//! ```text
//!     minimise   ½‖w‖² + (1/(νn)) Σ ξ_i − ρ
//!     subject to wᵀφ(x_i) ≥ ρ − ξ_i,  ξ_i ≥ 0.
//! ```
//!
//! The decision function f(x) = wᵀφ(x) − ρ is ≥ 0 on the region the data occupy ("normal")
//! and < 0 outside it ("novel"). With w = Σ α_i φ(x_i), LIBSVM solves the dual multiplied by νn,
//!
//! ```text
//!     minimise   ½ αᵀKα
//!     subject to 0 ≤ α_i ≤ 1,  Σ α_i = νn,
//! ```
//!
//! and f(x) = Σ α_i K(x_i, x) − ρ is the textbook decision function times νn (scikit-learn's
//! `decision_function`; its `offset_` is this ρ and its `intercept_` is −ρ). ρ is the multiplier
//! of the equality constraint, and with G = Kα the KKT conditions read
//!
//! ```text
//!     α_i = 0      ⇒  f(x_i) = G_i − ρ ≥ 0   (inside),
//!     0 < α_i < 1  ⇒  f(x_i) = 0             (on the boundary),
//!     α_i = 1      ⇒  f(x_i) ≤ 0             (an outlier, ξ_i = −f(x_i)/(νn) ≥ 0).
//! ```
//!
//! **The ν-property.** Since Σα_i = νn and no α_i exceeds 1, at most νn multipliers sit at 1
//! and at least νn are non-zero; a training point with f < 0 has α_i = 1. So
//!
//! ```text
//!     fraction of outliers  ≤  ν  ≤  fraction of support vectors.
//! ```
//!
//! A point on the boundary has f = 0 only up to the solver's tolerance, so
//! [`OneClassFit::outlier_fraction`] counts f(x) < −tol: the KKT violation SMO stops below
//! bounds |f| by tol on the free multipliers and f from below by −tol on those at 0. Counted
//! with f < 0 exactly, the free points on the boundary would fall either side by rounding (for
//! scikit-learn's own solutions, up to half of the points on a centred blob with the linear
//! kernel, where w = 0 and every f is rounding).
//!
//! **The solver** is the C-SVM's SMO ([`crate::methods::solvers::smo`]) with every y_i = +1 and C = 1,
//! from LIBSVM's start: the first ⌊νn⌋ multipliers at 1, the next at νn − ⌊νn⌋ and the rest at
//! 0 (a remainder within 10⁻¹² of 0 or 1 is put there, as SMO puts its updates). SMO's dual has
//! the linear term −eᵀα, but eᵀα = νn on the whole feasible set, and SMO keeps Σα at its
//! start's value: so it minimises ½αᵀKα there, with the same pairs, and its gradient Kα − e is
//! G shifted by −1 (which no selection or step sees: they use differences of the gradient).
//! (Each update, like the start, puts a multiplier within 10⁻¹² of a bound on it, so Σα keeps
//! νn to 10⁻¹² per update; on kernels with huge values that take many updates it shows.)
//! The solution is LIBSVM's up to rounding; where it is not unique (a singular K), the same
//! start and the same working-set selection make it the same one as long as rounding takes
//! the same turns.
//!
//! **ρ** is LIBSVM's: the mean of G_i over the free multipliers, or with none free the midpoint
//! of the interval [max_{α_i = 1} G_i, min_{α_i = 0} G_i] the KKT conditions leave. With no
//! multiplier at 0 — ν = 1, which puts every α_i at 1 — that interval has no upper end and
//! LIBSVM's midpoint is infinite (scikit-learn refuses the fit); the lab takes ρ = max_i G_i,
//! the smallest ρ the conditions allow, so that the boundary passes through the training point
//! that scores highest and every other one is an outlier.
//!
//! **Small νn.** When νn < 1 no bound is reachable (every α_i ≤ νn < 1), the solution is νn
//! times that of Σβ_i = 1, 0 ≤ β_i ≤ 1/(νn), and SMO solves for β: its tolerance then means the
//! same at ν = 10⁻¹² as at ν = 0.5/n. (LIBSVM works on α itself, where every gradient
//! difference is below νn: at νn ≪ tol it stops at its start, a single support vector.) The
//! answer is multiplied back, so α, ρ and f are those of the problem above.

use crate::core::data::Point;
use crate::core::error::Error;
use crate::core::kernel::{dot, Kernel, KernelCache, MAX_DEGREE, MIN_DEGREE};
use crate::methods::capabilities::OneClassDual;
use crate::methods::model::ExitReason;
use crate::methods::solvers::smo::CACHE_BYTES;

mod solver;

/// A fitted one-class SVM: LIBSVM's solution and what the lab reads from it.
#[derive(Clone, Debug)]
pub struct OneClassFit {
    /// One multiplier per training point, 0 ≤ α_i ≤ 1, Σα = νn.
    pub alpha: Vec<f64>,
    /// The offset: f(x) = Σ α_i K(x_i, x) − ρ.
    pub rho: f64,
    /// The indices with α_i > 0, increasing.
    pub support: Vec<usize>,
    /// SMO's pair updates.
    pub iterations: usize,
    /// Whether the KKT conditions hold to `tol` (false when the iteration cap came first).
    pub converged: bool,
    /// ½αᵀKα, the dual objective minimised.
    pub objective: f64,
    /// The support vectors with their α_i: f(x) = Σ α K(x_sv, x) − ρ over these.
    pub expansion: Vec<(Point, f64)>,
    pub kernel: Kernel,
    /// ν as given.
    pub nu: f64,
    /// The stopping tolerance on the KKT violation (also the margin by which a point counts as
    /// an outlier).
    pub tol: f64,
    /// The maximal KKT violation when SMO stopped, in the units of f.
    pub violation: f64,
    /// f(x_i) at every training point, in input order, from SMO's gradient: (Kα)_i − ρ
    /// (what [`OneClassFit::decision`] gives there, up to rounding, at no cost).
    pub scores: Vec<f64>,
}

impl OneClassFit {
    /// f(x) = Σ α_i K(x_i, x) − ρ: ≥ 0 inside the estimated support, < 0 outside.
    pub fn decision(&self, x: Point) -> f64 {
        self.expansion
            .iter()
            .map(|&(sv, a)| a * self.kernel.eval(sv, x))
            .sum::<f64>()
            - self.rho
    }

    /// The fraction of `points` (the training points) that are outliers: f(x) < −tol (see the
    /// module doc for the tolerance). At most ν when SMO converged.
    pub fn outlier_fraction(&self, points: &[Point]) -> f64 {
        (self.dual()).outlier_fraction(points.iter().map(|&x| self.decision(x)))
    }

    /// The fraction of the training points that are outliers, from their [`OneClassFit::scores`]:
    /// no evaluation of f.
    pub fn training_outlier_fraction(&self) -> f64 {
        (self.dual()).outlier_fraction(self.scores.iter().copied())
    }

    /// |support| / n: at least ν.
    pub fn support_fraction(&self) -> f64 {
        self.dual().support_fraction()
    }

    /// ρ and α as a model states them to views ([`crate::methods::model::Model::one_class`]).
    pub fn dual(&self) -> OneClassDual<'_> {
        OneClassDual {
            nu: self.nu,
            rho: self.rho,
            alpha: &self.alpha,
            support: &self.support,
            tol: self.tol,
        }
    }

    /// Whether 0 < α_i < 1: point i lies on the boundary f = 0.
    pub fn is_free(&self, i: usize) -> bool {
        self.alpha[i] > 0.0 && self.alpha[i] < 1.0
    }
}

/// Fits the one-class SVM on `points` with ν ∈ (0, 1], SMO stopping when the maximal KKT
/// violation is below `tol` or after `max_iter` pair updates.
pub fn fit_one_class(
    points: &[Point],
    kernel: Kernel,
    nu: f64,
    tol: f64,
    max_iter: usize,
) -> Result<OneClassFit, Error> {
    let mut cache = KernelCache::new(CACHE_BYTES);
    fit_one_class_with(&mut cache, points, kernel, nu, tol, max_iter)
}

/// [`fit_one_class`] with the kernel columns `cache` kept from the last fit (valid for the
/// points that did not move): the same fit to the last bit, without computing them again.
pub fn fit_one_class_with(
    cache: &mut KernelCache,
    points: &[Point],
    kernel: Kernel,
    nu: f64,
    tol: f64,
    max_iter: usize,
) -> Result<OneClassFit, Error> {
    if points.is_empty() {
        return Err(Error::Parameter(
            "the one-class SVM needs at least one point".into(),
        ));
    }
    if let Some(bad) = points.iter().position(|p| !p.iter().all(|v| v.is_finite())) {
        return Err(Error::NotFinite {
            what: format!("point {}", bad + 1),
        });
    }
    if !(nu > 0.0 && nu <= 1.0) {
        return Err(Error::Parameter("nu must be in (0, 1]".into()));
    }
    if !(tol.is_finite() && tol > 0.0) {
        return Err(Error::Parameter("tol <= 0".into()));
    }
    check_kernel(&kernel)?;
    cache.prepare(kernel, points);
    let overflow = |at: usize| {
        Error::Parameter(format!(
            "the kernel overflows at point {at}: rescale the data, or lower γ or the degree"
        ))
    };
    if let Some(i) = cache.diagonal().iter().position(|k| !k.is_finite()) {
        return Err(overflow(i + 1));
    }
    let (solved, rho) = solver::solve(cache, points, nu, tol, max_iter);
    // A kernel finite on the diagonal may still overflow between two points (an indefinite
    // sigmoid or polynomial far out), or in the sums of its values; nothing finite came of it.
    let score = &solved.gradient;
    if let Some(i) = score.iter().position(|g| !(g - rho).is_finite()) {
        return Err(overflow(i + 1));
    }
    let support: Vec<usize> = (0..points.len())
        .filter(|&i| solved.alpha[i] > 0.0)
        .collect();
    let expansion = support
        .iter()
        .map(|&i| (points[i], solved.alpha[i]))
        .collect();
    let objective = 0.5 * dot(&solved.alpha, score);
    if !objective.is_finite() {
        return Err(Error::Parameter(
            "the kernel's values are too large: ½αᵀKα overflows; rescale the data, or lower γ \
             or the degree"
                .into(),
        ));
    }
    Ok(OneClassFit {
        alpha: solved.alpha,
        rho,
        support,
        iterations: solved.iterations,
        converged: solved.exit == ExitReason::Converged,
        objective,
        expansion,
        kernel,
        nu,
        tol,
        violation: solved.violation,
        scores: score.iter().map(|g| g - rho).collect(),
    })
}

/// The ranges [`Kernel::from_name`] enforces, for a kernel built directly.
fn check_kernel(kernel: &Kernel) -> Result<(), Error> {
    let (gamma, degree, coef0) = match *kernel {
        Kernel::Linear | Kernel::Composed(_) => return Ok(()),
        Kernel::Polynomial {
            gamma,
            degree,
            coef0,
        } => (gamma, Some(degree), coef0),
        Kernel::Rbf { gamma } => (gamma, None, 0.0),
        Kernel::Sigmoid { gamma, coef0 } => (gamma, None, coef0),
    };
    let problem = if !(gamma.is_finite() && gamma > 0.0) {
        "gamma <= 0".to_string()
    } else if !coef0.is_finite() {
        "coef0 is not a finite number".to_string()
    } else if degree.is_some_and(|d| !(MIN_DEGREE..=MAX_DEGREE).contains(&d)) {
        format!("degree must be between {MIN_DEGREE} and {MAX_DEGREE}")
    } else {
        return Ok(());
    };
    Err(Error::Parameter(problem))
}

#[cfg(test)]
mod tests;

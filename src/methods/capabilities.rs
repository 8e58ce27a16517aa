//! What a view or a tool asks of a particular kind of model, stated in the lecture's terms.
//! A method of the `Model` trait returns one of these where the model is of that kind and
//! `None` (its default) where it is not, so nothing outside a method's own file needs to know
//! the method's type. The kernel expansion f(x) = Σ c_j K(x_j, x) + b was the first of them
//! (`KernelExpansion`, beside the trait); here is the one-class SVM's dual (`Model::one_class`).
//! This module imports nothing of the crate, so the `model` module can name it.

/// The one-class SVM's solution: f(x) = Σ αᵢ K(xᵢ, x) − ρ with 0 ≤ αᵢ ≤ 1 and Σ αᵢ = νn, so
/// that at most a fraction ν of the training points lie outside (f < 0) and at least ν are
/// support vectors (αᵢ > 0).
#[derive(Clone, Copy, Debug)]
pub struct OneClassDual<'a> {
    /// ν as given.
    pub nu: f64,
    /// The offset ρ.
    pub rho: f64,
    /// One multiplier per training point.
    pub alpha: &'a [f64],
    /// The indices with αᵢ > 0, increasing.
    pub support: &'a [usize],
    /// The solver's tolerance: a point counts as outside only when f(x) < −tol.
    pub tol: f64,
}

impl OneClassDual<'_> {
    /// Whether a point with f(x) = `f` lies outside the region (an outlier).
    pub fn outside(&self, f: f64) -> bool {
        f < -self.tol
    }

    /// The fraction of the points whose values f(x) are `values` that lie outside (0 for
    /// none).
    pub fn outlier_fraction(&self, values: impl Iterator<Item = f64>) -> f64 {
        let (outside, all) = values.fold((0, 0), |(o, a), f| (o + self.outside(f) as usize, a + 1));
        outside as f64 / all.max(1) as f64
    }

    /// The fraction of the training points that are support vectors.
    pub fn support_fraction(&self) -> f64 {
        self.support.len() as f64 / self.alpha.len() as f64
    }
}

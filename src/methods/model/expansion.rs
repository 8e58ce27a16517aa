//! A kernel expansion f(x) = Σ_j c_j K(x_j, x) + b, evaluated on points and on a grid
//! (exactly, or binned onto a lattice with a bound on the error).

use crate::core::data::Point;
use crate::core::field::{expansion_evaluator, Grid};
use crate::core::gauss_transform::{BinnedRbf, FIELD_ERROR};
use crate::core::kernel::Kernel;
use crate::core::monomials::Monomials;
use std::fmt::Debug;

/// f(x) = Σ_j c_j K(x_j, x) + b: the kernel, the terms (x_j, c_j) and b. For the SVM,
/// c_j = α_j y_j over the support vectors.
#[derive(Clone, Copy, Debug)]
pub struct KernelExpansion<'a> {
    pub kernel: Kernel,
    pub terms: &'a [(Point, f64)],
    pub bias: f64,
}

/// f on the nodes of a grid and a bound on its error at every node (see
/// [`crate::core::field::Field::bounded`]).
pub type GridApproximation<'a> = (Box<dyn Fn(usize, usize) -> f64 + 'a>, f64);

impl<'a> KernelExpansion<'a> {
    /// f on `grid` within a bound, at a cost that does not grow with the terms where that is
    /// cheaper than summing them: the RBF kernel's lattice (`gauss_transform`, else the exact
    /// separable sum, error 0), a polynomial or linear kernel's monomials (`monomials`, when
    /// their rounding bound is small). `None` for the sigmoid kernel and ill-conditioned
    /// monomials.
    /// Whether [`KernelExpansion::on_grid`] has an approximation for this kernel (it may
    /// still decline ill-conditioned monomials).
    pub fn has_grid_bound(&self) -> bool {
        !matches!(self.kernel, Kernel::Sigmoid { .. } | Kernel::Composed(_))
    }

    pub fn on_grid(&self, grid: &'a Grid) -> Option<GridApproximation<'a>> {
        let (terms, bias) = (self.terms, self.bias);
        if let Kernel::Rbf { gamma } = self.kernel {
            return Some(match BinnedRbf::for_field(gamma, terms, bias, grid) {
                Some(binned) => {
                    let error = binned.error;
                    (Box::new(move |r, c| binned.at(r, c)), error)
                }
                None => (expansion_evaluator(self.kernel, terms, bias, grid), 0.0),
            });
        }
        let collapsed = Monomials::for_field(self.kernel, terms, bias, grid, FIELD_ERROR)?;
        let error = collapsed.error;
        Some((Box::new(move |r, c| collapsed.at(r, c)), error))
    }
}

//! The Gaussian-process reading of kernel ridge regression. With the prior f ~ GP(0, K) and
//! Gaussian noise of variance λ on the targets, the posterior of f at an input x is normal with
//!
//! ```text
//!     mean  k(x)ᵀ(K + λI)⁻¹t                     (kernel ridge regression's f(x)),
//!     var   σ²(x) = K(x, x) − k(x)ᵀ(K + λI)⁻¹k(x),  k(x)_i = K(x_i, x)
//! ```
//!
//! (Rasmussen & Williams, *Gaussian Processes for Machine Learning*, 2006, eq. 2.25–2.26). The
//! band f ± 2σ holds about 95 % of that posterior: narrow among the data, it widens away from
//! them, where k(x) → 0 and σ² grows back to the prior's K(x, x). With the Cholesky factor
//! K + λI = LLᵀ, σ²(x) = K(x, x) − ‖v‖² where Lv = k(x), one forward substitution per input.

use crate::core::data::Point;
use crate::core::kernel::Kernel;

/// What σ(x) needs: the inputs (as kernels see them) and the factor L of K + λI.
#[derive(Debug)]
pub struct Band {
    kernel: Kernel,
    inputs: Vec<Point>,
    /// L, row-major n × n, lower triangular.
    factor: Vec<f64>,
}

impl Band {
    /// The band of the fit on `inputs` with noise variance `lambda`; `None` when K + λI is not
    /// positive definite (an indefinite kernel: no Gaussian process has it as its covariance).
    pub fn new(kernel: Kernel, inputs: &[Point], lambda: f64) -> Option<Band> {
        let gram = crate::methods::solvers::kernel_ridge::gram_matrix(kernel, inputs);
        let factor = crate::methods::solvers::kernel_ridge::cholesky(&gram, inputs.len(), lambda)?;
        Some(Band {
            kernel,
            inputs: inputs.to_vec(),
            factor,
        })
    }

    /// The posterior's standard deviation σ(x) of f at input x.
    pub fn sd(&self, x: f64) -> f64 {
        let (x, n, l) = ([x, 0.0], self.inputs.len(), &self.factor);
        let mut v = vec![0.0; n];
        let mut norm = 0.0;
        for i in 0..n {
            let k = self.kernel.eval(self.inputs[i], x);
            let s: f64 = (0..i).map(|j| l[i * n + j] * v[j]).sum();
            v[i] = (k - s) / l[i * n + i];
            norm += v[i] * v[i];
        }
        (self.kernel.eval(x, x) - norm).max(0.0).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// σ² by its definition, with (K + λI)⁻¹ from nalgebra: the factorised form agrees, is
    /// smallest among the data and comes back to the prior's K(x, x) = 1 far from them.
    #[test]
    fn sd_follows_the_posterior_variance() {
        let kernel = Kernel::Rbf { gamma: 4.0 };
        let inputs: Vec<Point> = [-0.8, -0.3, 0.1, 0.5].iter().map(|&x| [x, 0.0]).collect();
        let lambda = 0.05;
        let band = Band::new(kernel, &inputs, lambda).unwrap();
        let n = inputs.len();
        let system = nalgebra::DMatrix::from_fn(n, n, |i, j| {
            kernel.eval(inputs[i], inputs[j]) + if i == j { lambda } else { 0.0 }
        });
        let inverse = system.try_inverse().unwrap();
        for x in [-1.0, -0.3, 0.0, 0.3, 0.9, 3.0] {
            let k = nalgebra::DVector::from_fn(n, |i, _| kernel.eval(inputs[i], [x, 0.0]));
            let variance = 1.0 - (k.transpose() * &inverse * &k)[(0, 0)];
            assert!((band.sd(x) - variance.sqrt()).abs() < 1e-12, "{x}");
        }
        assert!(band.sd(-0.3) < 0.25 && band.sd(3.0) > 0.999);
        assert!(Band::new(
            Kernel::Sigmoid {
                gamma: 5.0,
                coef0: -3.0
            },
            &inputs,
            0.0
        )
        .is_none());
    }
}

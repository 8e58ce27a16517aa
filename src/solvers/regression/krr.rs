//! Kernel ridge regression (kernel regularised least squares, KRLS) on the line:
//!
//! ```text
//!     minimise  Σ_i (t_i − f(x_i))² + λ‖f‖²,      β = (K + λI)⁻¹ t,      f(x) = Σ_j β_j K(x_j, x),
//! ```
//!
//! scikit-learn's `KernelRidge(alpha = λ)`, with no intercept (an RBF kernel or coef0 > 0
//! supplies the offset). The residual at a training point is λβ_i, so a large |β_i| marks a
//! point the fit cannot reach.

use super::{inputs_and_targets, Curve, Fitted};
use crate::data::{Dataset, Point};
use crate::error::Error;
use crate::field::Smoothness;
use crate::kernel::Kernel;
use crate::model::{kernel_of, Fact, FitOptions, Method, Model, WarmStart};
use crate::params::Values;
use crate::sklearn::Counterpart;
use crate::solvers::kernel_ridge::{solve_targets, solve_targets_warm, KrrParams, RidgeWarmStart};
use crate::task::Task;

/// f(x) = Σ_j β_j K(x_j, x).
#[derive(Debug)]
pub struct RidgeCurve {
    pub kernel: Kernel,
    pub lambda: f64,
    /// (x_j, β_j), the inputs as kernels see them.
    pub expansion: Vec<(Point, f64)>,
    /// β was refined from the last fit's, not solved afresh.
    pub warm_start: bool,
}

impl Curve for RidgeCurve {
    fn at(&self, x: f64) -> f64 {
        let x = [x, 0.0];
        self.expansion
            .iter()
            .map(|&(z, beta)| beta * self.kernel.eval(z, x))
            .sum()
    }

    fn smoothness(&self) -> Smoothness {
        Smoothness::of_kernel(self.kernel)
    }

    fn warm_started(&self) -> bool {
        self.warm_start
    }

    fn point_facts(&self, index: usize) -> Vec<Fact> {
        vec![Fact::new("beta", "β =", self.expansion[index].1)]
    }

    fn numbers(&self) -> Vec<(&'static str, Vec<f64>)> {
        vec![(
            "dual_coef",
            self.expansion.iter().map(|(_, b)| *b).collect(),
        )]
    }
}

/// The registry entry of kernel ridge regression.
pub struct RidgeRegressionMethod;

impl Method for RidgeRegressionMethod {
    fn id(&self) -> &'static str {
        "krr"
    }

    fn task(&self) -> Task {
        Task::Regression
    }

    fn title(&self) -> &'static str {
        "kernel ridge regression (KRLS)"
    }

    fn explain(&self) -> &'static str {
        "Kernel regularised least squares: β = (K + λI)⁻¹t, f(x) = Σ βⱼK(xⱼ, x), the squared residuals plus λ‖f‖² made least."
    }

    fn params(&self) -> &'static [&'static str] {
        &["kernel", "kexpr", "lambda", "gamma", "degree", "coef0"]
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["lambda", "gamma", "degree"]
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let params = KrrParams {
            kernel: kernel_of(values)?,
            lambda: values.real("lambda"),
        };
        let (inputs, targets) = inputs_and_targets(data);
        // The kept Gram matrix, factor and β (the classifier's), patched where points moved.
        let warm = options
            .warm
            .and_then(|w| w.as_any().downcast_mut::<RidgeWarmStart>());
        let (beta, warm_start) = match warm {
            Some(warm) => solve_targets_warm(&inputs, &targets, &params, warm)?,
            None => (solve_targets(&inputs, &targets, &params)?, false),
        };
        let curve = RidgeCurve {
            kernel: params.kernel,
            lambda: params.lambda,
            expansion: inputs.into_iter().zip(beta).collect(),
            warm_start,
        };
        Ok(Box::new(Fitted::new(curve, data)))
    }

    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(RidgeWarmStart::default()))
    }

    fn sklearn(&self, _values: &Values, _data: &Dataset) -> Counterpart {
        Counterpart::missing(
            "the Python export writes classification scenes; a regression scene is not exported \
             yet (scikit-learn's KernelRidge(alpha=λ) with the same kernel fits the same β)",
        )
    }
}

//! Kernel ridge regression (kernel regularised least squares, KRLS) on the line:
//!
//! ```text
//!     minimise  Σ_i (t_i − f(x_i))² + λ‖f‖²,      β = (K + λI)⁻¹ t,      f(x) = Σ_j β_j K(x_j, x),
//! ```
//!
//! scikit-learn's `KernelRidge(alpha = λ)`, with no intercept (an RBF kernel or coef0 > 0
//! supplies the offset). The residual at a training point is λβ_i, so a large |β_i| marks a
//! point the fit cannot reach. Read as a Gaussian process with noise variance λ, the same f is
//! the posterior mean, and the `gp` setting draws the band f ± 2σ(x) around it ([`super::band`]).
//! Step and Play run the notes' gradient iteration from β = 0 towards the closed form
//! ([`super::iteration`]).

use super::band::Band;
use super::iteration::{iterate, Iteration};
use super::{inputs_and_targets, Curve, Fitted};
use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::Smoothness;
use crate::core::kernel::Kernel;
use crate::core::params::Values;
use crate::core::params::{model_row, Kind, Param};
use crate::core::sklearn::{kernel_ridge, Counterpart, Multiclass};
use crate::core::task::Task;
use crate::methods::model::{kernel_of, Fact, FitOptions, Method, Model, Trace, WarmStart};
use crate::methods::solvers::kernel_ridge::{
    gram_matrix, solve_targets, solve_targets_warm, KrrParams, RidgeWarmStart,
};

/// How many gradient steps the trace view's whole run takes at most (it stops once converged).
const WHOLE_RUN: usize = 5000;

/// The most values per curve the trace view is sent.
const TRACE_VALUES: usize = 1000;

/// f(x) = Σ_j β_j K(x_j, x).
#[derive(Debug)]
pub struct RidgeCurve {
    pub kernel: Kernel,
    pub lambda: f64,
    /// (x_j, β_j), the inputs as kernels see them.
    pub expansion: Vec<(Point, f64)>,
    /// The Gaussian-process band, when asked for (and the kernel is positive definite).
    pub band: Option<Band>,
    /// The band was asked for, and K + λI is not positive definite.
    pub band_refused: bool,
    /// Where Step and Play left the gradient iteration (`None`: the closed form).
    pub iteration: Option<Iteration>,
    /// The iteration's ‖∇J‖ and RMSE per step, when recorded (the trace view).
    pub trace: Option<Trace>,
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

    fn band(&self, x: f64) -> Option<f64> {
        self.band.as_ref().map(|band| 2.0 * band.sd(x))
    }

    fn message(&self) -> Option<String> {
        self.band_refused.then(|| {
            "no Gaussian-process band: with this kernel K + λI is not positive definite, so \
             it is no Gaussian process's covariance"
                .to_string()
        })
    }

    fn facts(&self) -> Vec<Fact> {
        self.iteration
            .as_ref()
            .map_or_else(Vec::new, Iteration::facts)
    }

    fn run_ended(&self) -> bool {
        self.iteration.as_ref().is_none_or(Iteration::ended)
    }

    fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
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
    fn rows(&self) -> &'static [crate::core::params::Param] {
        ROWS
    }

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
        &[
            "kernel", "kexpr", "lambda", "gamma", "degree", "coef0", "gp",
        ]
    }

    /// Step and Play run the notes' gradient iteration towards the closed form.
    fn steppable(&self) -> bool {
        true
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
        // Step and Play: the notes' gradient iteration from β = 0; otherwise the closed form,
        // and for the trace view the iteration's whole run towards it.
        params.check()?;
        let run = |steps| {
            let gram = gram_matrix(params.kernel, &inputs);
            iterate(&gram, &targets, params.lambda, steps, options.record)
        };
        let (beta, iteration, trace, warm_start) = match options.steps {
            Some(steps) => {
                let (beta, stepped, trace) = run(steps);
                (beta, Some(stepped), trace, false)
            }
            None if options.record => {
                let (_, _, trace) = run(WHOLE_RUN);
                (
                    solve_targets(&inputs, &targets, &params)?,
                    None,
                    trace,
                    false,
                )
            }
            None => {
                // The kept Gram matrix, factor and β (the classifier's), patched where points
                // moved.
                let warm = options
                    .warm
                    .and_then(|w| w.as_any().downcast_mut::<RidgeWarmStart>());
                let (beta, warm_start) = match warm {
                    Some(warm) => solve_targets_warm(&inputs, &targets, &params, warm)?,
                    None => (solve_targets(&inputs, &targets, &params)?, false),
                };
                (beta, None, None, warm_start)
            }
        };
        let band = values
            .flag("gp")
            .then(|| Band::new(params.kernel, &inputs, params.lambda));
        let band_refused = matches!(band, Some(None));
        let band = band.flatten();
        let curve = RidgeCurve {
            kernel: params.kernel,
            lambda: params.lambda,
            expansion: inputs.into_iter().zip(beta).collect(),
            band,
            band_refused,
            iteration,
            trace: trace.map(|t| t.thinned(TRACE_VALUES)),
            warm_start,
        };
        Ok(Box::new(Fitted::new(curve, data)))
    }

    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(RidgeWarmStart::default()))
    }

    fn sklearn(&self, values: &Values, _data: &Dataset) -> Counterpart {
        let (ridge, lines) = kernel_ridge(values, self.params());
        Counterpart::same(vec![ridge], Multiclass::Otherwise).map_all(lines)
    }
}

/// Kernel ridge regression's row: its reading as a Gaussian process, with the band.
pub static ROWS: &[Param] = &[GP_BAND_ROW];

pub const GP_BAND_ROW: Param = model_row(
    "gp",
    "GP band",
    Kind::Flag,
    "0",
    "Read kernel ridge regression as a Gaussian process (prior f ~ GP(0, K), noise variance \
     λ): its mean is the same f, and the dashed band f ± 2σ(x) holds about 95 % of the \
     posterior of f — narrow among the points, widening away from them.",
);

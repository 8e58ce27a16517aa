//! The soft-margin support vector machine: the problem, the fitted model and what it shows.
//!
//! Primal: minimise ½‖w‖² + C Σξ_i subject to y_i f(x_i) ≥ 1 − ξ_i, ξ_i ≥ 0, where
//! f(x) = wᵀφ(x) + b. Its dual, with Q_ij = y_i y_j K(x_i, x_j), is
//!
//! ```text
//!     minimise   ½ αᵀQα − eᵀα
//!     subject to 0 ≤ α_i ≤ C,  Σ y_i α_i = 0,
//! ```
//!
//! and f(x) = Σ α_i y_i K(x_i, x) + b, solved by SMO in [`crate::methods::solvers::smo`] — or, on
//! request ([`SvmSolver`]), without a separate bias by dual coordinate ascent or Pegasos
//! ([`crate::methods::solvers::dca`], run by [`crate::methods::solvers::no_bias`]). Those two absorb b as the
//! weight of a constant feature, K̃ = K + 1, so f(x) = Σ α_i y_i K(x_i, x) + b with
//! b = Σ α_i y_i, and there is no equality constraint; their models are drawn and reported
//! like SMO's, saying which solver made them. They need a finite C.
//!
//! The hard margin is C = ∞: the dual is bounded exactly when the classes are separable in the
//! kernel's feature space, and then Σα_i = ‖w‖² = 1/ρ² for the margin ρ. Whether to draw
//! anything is decided before and during the solve, never by a stand-in C:
//! - linear kernel: exactly, by the convex hulls of the two classes ([`crate::core::hull`]). Disjoint
//!   hulls are solved with an unbounded box (any α SMO needs, 10¹² and beyond); meeting hulls
//!   are refused with a message and no boundary.
//! - other kernels: by the dual's unboundedness relative to the data's scale R² = max K(x_i, x_i).
//!   SMO runs in the box [0, [`HARD_MARGIN_REACH`]/R²]; a multiplier reaching it means
//!   ρ ≤ 10⁻⁷·R (α_i ≤ Σα = 1/ρ²), a margin below 10⁻⁷ of the data's radius, which is
//!   refused as not separable. A genuinely separable set with a smaller margin is refused
//!   too: that is the criterion's limit. Running out of iterations is refused as well, since
//!   an unfinished hard-margin solution is not a margin at all; the message then bounds the
//!   margin by the dual objective D reached, ρ ≤ 1/√(2D) (every iterate is dual-feasible and
//!   the dual's maximum is 1/(2ρ²)).
//!
//! Each training point falls in one of three KKT cases ([`AlphaStatus`]): α_i = 0 (on or
//! outside its margin), 0 < α_i < C (exactly on the margin: a free support vector) and α_i = C
//! (on or inside the margin: a bound support vector with slack ξ_i = 1 − y_i f(x_i) ≥ 0).
//!
//! This file holds the problem, the KKT cases, the fitted model's fields and the method;
//! `params.rs` the checked parameters and the box the hard margin uses; `trainer.rs` the
//! trainers; `model.rs` what the fitted model computes and shows.

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::{expansion_evaluator, Grid, View};
use crate::core::kernel::Kernel;
use crate::core::params::Values;
use crate::core::plane::{Mark, Scene};
use crate::core::sklearn::{
    kernel_args, python_float, shown, Arg, Counterpart, Estimator, Multiclass,
};
use crate::methods::model::{
    kernel_of, short, Context, ExitReason, Fact, FitOptions, FitReport, Level, Method, Model,
    Smoothness, Trace, TraceCurve, TracePanel, WarmStart,
};
use crate::methods::solvers::no_bias::{
    CoordinateStep, NoBiasFit, NoBiasProblem, NoBiasSolver, NoBiasTrainer, PEGASOS_STEPS,
    TRACE_VALUES,
};
pub use crate::methods::solvers::smo::SvmTrainer;

mod model;
use crate::methods::solvers::smo::{PairStep, Problem, Recording, SmoTrace, Solution};
mod params;
mod stepping;
mod trainer;
use params::not_separable;
pub use params::{SvmParams, SvmSolver, HARD_MARGIN_REACH};
pub use trainer::SvmState;

/// Which KKT case a training point is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlphaStatus {
    /// α_i = 0: not a support vector, on or outside its margin.
    NonSupport,
    /// 0 < α_i < C: a free support vector, exactly on the margin.
    Free,
    /// α_i = C: a bound support vector, on or inside the margin (slack ξ_i ≥ 0).
    Bound,
}

impl AlphaStatus {
    /// The KKT case in the lecture's words.
    pub fn describe(self) -> &'static str {
        match self {
            AlphaStatus::NonSupport => "α = 0: on or outside the margin, not a support vector",
            AlphaStatus::Free => "0 < α < C: free support vector, exactly on the margin",
            AlphaStatus::Bound => "α = C: bound support vector, on or inside the margin",
        }
    }
}

/// A fitted SVM.
#[derive(Clone, Debug)]
pub struct SvmModel {
    pub kernel: Kernel,
    /// The box bound used (C, or for the hard margin a bound no multiplier reached).
    pub c: f64,
    pub hard_margin: bool,
    pub classes: [i32; 2],
    pub points: Vec<Point>,
    /// y_i ∈ {−1, +1}.
    pub y: Vec<f64>,
    /// α_i for every training point, in input order.
    pub alpha: Vec<f64>,
    pub bias: f64,
    /// y_i f(x_i) for every training point (the functional margin).
    pub margins: Vec<f64>,
    /// w = Σ α_i y_i x_i, for the linear kernel.
    pub w: Option<[f64; 2]>,
    pub report: FitReport,
    /// The maximal KKT violation when the solver stopped.
    pub max_violation: f64,
    /// The stopping tolerance on it.
    pub tol: f64,
    /// The run was cut at a number of pair updates (stepping through it).
    pub stepping: bool,
    /// The last pair update, when stepping SMO.
    pub step: Option<PairStep>,
    /// Which solver made it.
    pub solver: SvmSolver,
    /// The last coordinate (DCA) or stochastic (Pegasos) update, when stepping them.
    pub coordinate: Option<CoordinateStep>,
    /// The epochs DCA began (0 for the others).
    pub epochs: usize,
    /// The iterates, when recorded.
    pub trace: Option<Trace>,
    /// (x_j, α_j y_j) for the support vectors: all f(x) needs.
    pub(crate) expansion: Vec<(Point, f64)>,
}

/// The registry entry: the soft-margin SVM, solved by SMO with warm starts between fits.
pub struct SvmMethod;

impl Method for SvmMethod {
    fn rows(&self) -> &'static [crate::core::params::Param] {
        params::ROWS
    }

    fn id(&self) -> &'static str {
        "svm"
    }

    fn title(&self) -> &'static str {
        "support vector machine"
    }

    fn svm_type(&self) -> Option<u8> {
        Some(0)
    }

    fn explain(&self) -> &'static str {
        "The maximum-margin classifier: minimise ½‖w‖² + C Σξᵢ subject to yᵢf(xᵢ) ≥ 1 − ξᵢ, so that only the support vectors (αᵢ > 0) decide f(x) = Σ αᵢyᵢK(xᵢ, x) + b."
    }

    fn params(&self) -> &'static [&'static str] {
        &[
            "kernel", "kexpr", "solver", "mc", "C", "hard", "gamma", "degree", "coef0", "tol",
        ]
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["C", "gamma", "degree"]
    }

    fn steppable(&self) -> bool {
        true
    }

    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(SvmState::new()))
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let params = SvmParams {
            record: Recording {
                steps: options.steps,
                trace: options.record,
            },
            ..SvmParams::from_values(values, options.max_iter)?
        };
        let state = options
            .warm
            .and_then(|w| w.as_any().downcast_mut::<SvmState>());
        let model = match state {
            Some(state) => state.fit(&data.points, &data.labels, &params)?,
            None => SvmModel::fit(&data.points, &data.labels, &params)?,
        };
        Ok(Box::new(model))
    }

    /// SMO is LIBSVM's algorithm, so `SVC` (LIBSVM inside) is the same SVM, one-vs-one
    /// voting included; without a separate bias the linear kernel is liblinear's `LinearSVC`
    /// with the hinge loss, whose intercept is the regularised weight of a constant feature 1.
    fn sklearn(&self, values: &Values, data: &Dataset) -> Counterpart {
        let solver = SvmSolver::from_name(values.as_read_by(params::ROWS).choice("solver"))
            .unwrap_or(SvmSolver::Smo);
        let linear = values.choice("kernel") == "linear";
        let hard = values.flag("hard");
        let c = values.real("C");
        let more = data.classes().len() > 2;
        let scheme = if values.choice("mc") == "ovr" {
            "one-vs-rest"
        } else {
            "one-vs-one"
        };
        let c_line = match hard {
            true => format!(
                "{} → replaced by C = ∞ (the hard margin)",
                shown(values, "C")
            ),
            false => format!(
                "{} → C={}: the same price of slack in ½‖w‖² + C Σξᵢ",
                shown(values, "C"),
                python_float(c)
            ),
        };
        let (smo, kernel_lines) = kernel_args(
            Estimator::sklearn("sklearn.svm", "SVC"),
            values,
            self.params(),
        );
        let counterpart = match solver {
            SvmSolver::Smo => {
                let (c_arg, hard_line) = if hard {
                    (
                        Arg::Float(f64::INFINITY),
                        "hard margin → C=float(\"inf\") and max_iter=10**7: LIBSVM never \
                         ends on classes nothing separates, so scikit-learn stops there and \
                         warns (the lab says so and draws no boundary)"
                            .to_string(),
                    )
                } else {
                    (Arg::Float(c), "hard margin off → a finite C".to_string())
                };
                let mut svc = smo.arg("C", c_arg).arg("tol", values.real("tol"));
                if hard {
                    svc = svc.arg("max_iter", 10_000_000_u64);
                }
                Counterpart::same(vec![svc], Multiclass::OneVsOne)
                    .map("solver", "solver = smo → SVC: LIBSVM's SMO, the algorithm the lab's follows (second-order working-set selection, shrinking)")
                    .map("C", c_line)
                    .map("hard", hard_line)
                    .map_all(kernel_lines)
                    .map(
                        "tol",
                        format!(
                            "{} → tol={}: both stop when the largest KKT violation m(α) − M(α) is below it",
                            shown(values, "tol"),
                            python_float(values.real("tol"))
                        ),
                    )
            }
            SvmSolver::NoBias(which) if linear => {
                let svc = Estimator::sklearn("sklearn.svm", "LinearSVC")
                    .arg("loss", "hinge")
                    .arg("C", c)
                    .arg("dual", true)
                    .arg("fit_intercept", true)
                    .arg("intercept_scaling", 1.0)
                    .arg("tol", values.real("tol"))
                    .arg("max_iter", 1_000_000_u64);
                let counterpart = Counterpart::same(vec![svc], Multiclass::OneVsRest)
                    .map(
                        "solver",
                        format!(
                            "{} → LinearSVC(loss=\"hinge\", dual=True): liblinear's dual coordinate \
                             descent on (x₁, x₂, 1), the bias regularised with w (intercept_scaling=1.0) \
                             as the lab's K + 1 does",
                            shown(&values.as_read_by(params::ROWS), "solver")
                        ),
                    )
                    .map("C", c_line)
                    .map("hard", "hard margin off (DCA and Pegasos need a finite C)")
                    .map("kernel", "kernel = linear → LinearSVC, which works on x itself")
                    .map("kexpr", "K(x, z) = … → (the linear kernel does not use it)")
                    .map("gamma", "γ → (the linear kernel does not use it)")
                    .map("degree", "degree → (the linear kernel does not use it)")
                    .map("coef0", "coef0 → (the linear kernel does not use it)")
                    .map(
                        "tol",
                        format!(
                            "{} → tol={}: both stop on the projected gradient (liblinear on its spread)",
                            shown(values, "tol"),
                            python_float(values.real("tol"))
                        ),
                    );
                match which {
                    NoBiasSolver::Dca => counterpart,
                    NoBiasSolver::Pegasos => counterpart.near(format!(
                        "Pegasos stops after {PEGASOS_STEPS} stochastic steps, near (within \
                         about 1 % of the objective) the optimum LinearSVC reaches"
                    )),
                }
            }
            SvmSolver::NoBias(_) => Counterpart::missing(
                "scikit-learn has no kernel SVM without a separate bias (the lab's K + 1 with \
                 b = Σ αᵢyᵢ regularised); the nearest is SVC with the same kernel and C, whose \
                 bias is free, so its boundary differs",
            ),
        };
        counterpart.map(
            "mc",
            match (more, scheme) {
                (false, _) => "multi-class → (two classes: not needed)".to_string(),
                (true, "one-vs-one") => format!(
                    "multi-class = ovo → {}",
                    if solver == SvmSolver::Smo {
                        "SVC's own one-vs-one voting, ties to the smaller class (LIBSVM's, as the lab's)"
                    } else {
                        "OneVsOneClassifier around it (it breaks tied votes by the summed confidences, the lab by the smaller class)"
                    }
                ),
                (true, _) => "multi-class = ovr → OneVsRestClassifier around it: the class whose f is largest".to_string(),
            },
        )
    }
}

#[cfg(test)]
mod tests;

/// The test that names the method and fits through the registry.
#[cfg(test)]
mod registry_tests {
    use super::*;
    use crate::core::data::Preset;

    #[test]
    fn the_solver_is_a_setting_and_the_hard_margin_stays_smos() {
        let mut values = crate::methods::table::defaults();
        assert_eq!(
            SvmParams::from_values(&values, None).unwrap().solver,
            SvmSolver::Smo,
            "old links keep SMO"
        );
        values.set("solver", "dca").unwrap();
        values.set("hard", "1").unwrap();
        let err = SvmParams::from_values(&values, None).unwrap_err();
        assert!(err.to_string().contains("finite C"), "{err}");
        assert!(SvmSolver::from_name("newton").is_err());
        // Three classes: one-vs-one over DCA models.
        values.set("hard", "0").unwrap();
        let data = Preset::Blobs3.generate(45, 0.1, 1);
        let model =
            crate::methods::registry::fit(&SvmMethod, &values, &data, FitOptions::default())
                .unwrap();
        assert!(model.accuracy(&data.points, &data.labels) > 0.9);
    }
}

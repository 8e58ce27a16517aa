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
//! and f(x) = Σ α_i y_i K(x_i, x) + b, solved by SMO in [`crate::solvers::smo`] — or, on
//! request ([`SvmSolver`]), without a separate bias by dual coordinate ascent or Pegasos
//! ([`crate::solvers::dca`], run by [`crate::solvers::no_bias`]). Those two absorb b as the
//! weight of a constant feature, K̃ = K + 1, so f(x) = Σ α_i y_i K(x_i, x) + b with
//! b = Σ α_i y_i, and there is no equality constraint; their models are drawn and reported
//! like SMO's, saying which solver made them. They need a finite C.
//!
//! The hard margin is C = ∞: the dual is bounded exactly when the classes are separable in the
//! kernel's feature space, and then Σα_i = ‖w‖² = 1/ρ² for the margin ρ. Whether to draw
//! anything is decided before and during the solve, never by a stand-in C:
//! - linear kernel: exactly, by the convex hulls of the two classes ([`crate::hull`]). Disjoint
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
//! This file holds the problem, its parameters, the trainers and the method; `model.rs` the
//! fitted model and what it shows.

use crate::data::{Dataset, Point};
use crate::error::Error;
use crate::field::{expansion_evaluator, w_arrow, Grid, View};
use crate::kernel::Kernel;
use crate::model::{
    kernel_of, short, Context, ExitReason, Fact, FitOptions, FitReport, Level, Method, Model,
    Smoothness, Trace, TraceCurve, TracePanel, WarmStart,
};
use crate::params::Values;
use crate::plane::{Mark, Scene};
use crate::sklearn::{kernel_args, python_float, shown, Arg, Counterpart, Estimator, Multiclass};
use crate::solvers::no_bias::{
    CoordinateStep, NoBiasFit, NoBiasProblem, NoBiasSolver, NoBiasTrainer, PEGASOS_STEPS,
    TRACE_VALUES,
};
pub use crate::solvers::smo::SvmTrainer;

mod model;
use crate::solvers::smo::{PairStep, Problem, Recording, SmoTrace, Solution};

/// Which solver trains the SVM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SvmSolver {
    /// SMO with a bias (LIBSVM's), the default.
    Smo,
    /// Dual coordinate ascent or Pegasos, the bias absorbed (K + 1).
    NoBias(NoBiasSolver),
}

impl SvmSolver {
    /// The solver of a settings value: `smo`, `dca` or `pegasos`.
    pub fn from_name(name: &str) -> Result<SvmSolver, Error> {
        match name {
            "smo" => Ok(SvmSolver::Smo),
            "dca" => Ok(SvmSolver::NoBias(NoBiasSolver::Dca)),
            "pegasos" => Ok(SvmSolver::NoBias(NoBiasSolver::Pegasos)),
            _ => Err(Error::Parameter(format!(
                "unknown SVM solver '{name}' (use smo, dca, pegasos)"
            ))),
        }
    }

    /// The name people read.
    pub fn title(self) -> &'static str {
        match self {
            SvmSolver::Smo => "SMO",
            SvmSolver::NoBias(NoBiasSolver::Dca) => "DCA",
            SvmSolver::NoBias(NoBiasSolver::Pegasos) => "Pegasos",
        }
    }
}

/// How far a hard-margin multiplier may grow, times R² = max K(x_i, x_i), before the data
/// count as not separable (a margin below 10⁻⁷ of the data's radius).
pub const HARD_MARGIN_REACH: f64 = 1e14;

/// The box of a certified hard margin: no multiplier comes near it, and sums with it stay
/// finite.
const UNBOUNDED: f64 = 1e150;

/// The parameters of a fit, checked by [`SvmParams::check`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SvmParams {
    pub kernel: Kernel,
    /// The soft-margin penalty; `f64::INFINITY` asks for the hard margin.
    pub c: f64,
    /// Stopping tolerance on the maximal KKT violation (LIBSVM's default 10⁻³).
    pub tol: f64,
    /// Iteration cap; `None` means max(100 000, 100 n).
    pub max_iter: Option<usize>,
    /// Stepping and the trace: what the solver records (nothing by default).
    pub record: Recording,
    pub solver: SvmSolver,
}

impl SvmParams {
    pub fn new(kernel: Kernel, c: f64) -> Self {
        Self {
            kernel,
            c,
            tol: 1e-3,
            max_iter: None,
            record: Recording::default(),
            solver: SvmSolver::Smo,
        }
    }

    /// The parameters the settings describe (`max_iter`: the command line's cap, if any).
    pub fn from_values(values: &Values, max_iter: Option<usize>) -> Result<SvmParams, Error> {
        let c = if values.flag("hard") {
            f64::INFINITY
        } else {
            values.real("C")
        };
        let params = SvmParams {
            tol: values.real("tol"),
            max_iter,
            solver: SvmSolver::from_name(values.choice("svm_solver"))?,
            ..SvmParams::new(kernel_of(values)?, c)
        };
        params.check()?;
        Ok(params)
    }

    /// Rejects what LIBSVM rejects, with its kind of message.
    pub fn check(&self) -> Result<(), Error> {
        if self.c.is_nan() || self.c <= 0.0 {
            return Err(Error::Parameter("C <= 0".into()));
        }
        if !(self.tol.is_finite() && self.tol > 0.0) {
            return Err(Error::Parameter("tol <= 0".into()));
        }
        if self.is_hard_margin() && self.solver != SvmSolver::Smo {
            return Err(Error::Parameter(format!(
                "{} needs a finite C: the hard margin (C = ∞) is solved by SMO",
                self.solver.title()
            )));
        }
        Ok(())
    }

    pub fn is_hard_margin(&self) -> bool {
        self.c.is_infinite()
    }

    /// The box bound for these points: C, or for the hard margin an unbounded box when the
    /// linear kernel's classes are certified separable, the reach relative to the data's
    /// scale for other kernels, and an error when the classes' hulls meet.
    pub(crate) fn box_bound(&self, points: &[Point], labels: &[i32]) -> Result<f64, Error> {
        if !self.is_hard_margin() {
            return Ok(self.c);
        }
        if self.kernel.is_linear() {
            let top = labels.iter().copied().max();
            let (positive, negative): (Vec<Point>, Vec<Point>) = (
                (0..points.len())
                    .filter(|&i| Some(labels[i]) == top)
                    .map(|i| points[i])
                    .collect(),
                (0..points.len())
                    .filter(|&i| Some(labels[i]) != top)
                    .map(|i| points[i])
                    .collect(),
            );
            // Fewer than two classes: the solver says so.
            if negative.is_empty() || crate::hull::strictly_separable(&positive, &negative) {
                return Ok(UNBOUNDED);
            }
            return Err(not_separable(
                "no line separates the classes (their convex hulls meet)",
            ));
        }
        let r2 = points
            .iter()
            .map(|&p| self.kernel.eval(p, p).abs())
            .fold(0.0, f64::max);
        Ok(HARD_MARGIN_REACH / if r2 > 0.0 && r2.is_finite() { r2 } else { 1.0 })
    }
}

/// The hard margin refused: `why`, and what to do.
fn not_separable(why: &str) -> Error {
    Error::NotSeparable(format!(
        "no hard margin: {why} — use a finite C for a soft margin"
    ))
}

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

impl SvmTrainer {
    /// Fits the SVM to `points` with `labels` (exactly two distinct labels; the larger one is
    /// the positive class), starting from the last solution when there is one.
    pub fn fit(
        &mut self,
        points: &[Point],
        labels: &[i32],
        params: &SvmParams,
    ) -> Result<SvmModel, Error> {
        params.check()?;
        let n = points.len();
        let c = params.box_bound(points, labels)?;
        // Scaling α by C_new/C_old only helps between nearby boxes; into or out of an unbounded
        // one it would start absurdly far off.
        let ratio = c / self.last_box();
        if !(1e-6..=1e6).contains(&ratio) {
            self.forget();
        }
        let problem = Problem {
            kernel: params.kernel,
            c,
            tol: params.tol,
            max_iter: params.max_iter.unwrap_or((100 * n).max(100_000)),
            stop_at_bound: params.is_hard_margin(),
            record: params.record,
        };
        let solution = self.solve(points, labels, &problem)?;
        let model = SvmModel::from_solution(points, params, c, solution);
        // A run cut short by stepping is unfinished by request, not a failed hard margin.
        let cut = params.record.steps.is_some() && model.report.exit == ExitReason::IterationCap;
        if params.is_hard_margin() && !cut {
            if let Some(why) = model.no_hard_margin(c) {
                self.forget();
                return Err(not_separable(&why));
            }
        }
        Ok(model)
    }
}

/// What the SVM keeps between fits: SMO's trainer (its kernel cache and last α, for warm
/// starts and stepping) and the stepped run of DCA or Pegasos.
#[derive(Clone, Debug, Default)]
pub struct SvmState {
    pub smo: SvmTrainer,
    pub no_bias: NoBiasTrainer,
}

impl SvmState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Fits with the solver `params` name, continuing what is kept where it can.
    pub fn fit(
        &mut self,
        points: &[Point],
        labels: &[i32],
        params: &SvmParams,
    ) -> Result<SvmModel, Error> {
        let solver = match params.solver {
            SvmSolver::Smo => return self.smo.fit(points, labels, params),
            SvmSolver::NoBias(solver) => solver,
        };
        params.check()?;
        // DCA's cap in coordinate updates is SMO's in pair updates; Pegasos runs its fixed
        // number of steps, or fewer when the caller caps it.
        let max_steps = match solver {
            NoBiasSolver::Dca => params.max_iter.unwrap_or((100 * points.len()).max(100_000)),
            NoBiasSolver::Pegasos => PEGASOS_STEPS.min(params.max_iter.unwrap_or(usize::MAX)),
        };
        let problem = NoBiasProblem {
            solver,
            kernel: params.kernel,
            c: params.c,
            tol: params.tol,
            max_steps,
            record: params.record,
        };
        let fit = self.no_bias.solve(points, labels, &problem)?;
        Ok(SvmModel::from_no_bias(points, params, fit))
    }
}

impl WarmStart for SvmState {
    fn point_added(&mut self) {
        self.smo.point_added();
        self.no_bias.forget();
    }
    fn point_moved(&mut self, index: usize, points: &[Point]) {
        self.smo.point_moved(index, points);
        self.no_bias.forget();
    }
    fn point_removed(&mut self, index: usize) {
        self.smo.point_removed(index);
        self.no_bias.forget();
    }
    fn forget(&mut self) {
        self.smo.forget();
        self.no_bias.forget();
    }
    fn data_replaced(&mut self) {
        self.smo.data_replaced();
        self.no_bias.forget();
    }
    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// The registry entry: the soft-margin SVM, solved by SMO with warm starts between fits.
pub struct SvmMethod;

impl Method for SvmMethod {
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
            "kernel",
            "kexpr",
            "svm_solver",
            "mc",
            "C",
            "hard",
            "gamma",
            "degree",
            "coef0",
            "tol",
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
        let solver = SvmSolver::from_name(values.choice("svm_solver")).unwrap_or(SvmSolver::Smo);
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
                    .map("svm_solver", "solver = smo → SVC: LIBSVM's SMO, the algorithm the lab's follows (second-order working-set selection, shrinking)")
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
                        "svm_solver",
                        format!(
                            "{} → LinearSVC(loss=\"hinge\", dual=True): liblinear's dual coordinate \
                             descent on (x₁, x₂, 1), the bias regularised with w (intercept_scaling=1.0) \
                             as the lab's K + 1 does",
                            shown(values, "svm_solver")
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
mod tests {
    use super::*;

    #[test]
    fn warm_starts_after_a_new_c_do_not_lose_to_cold_ones() {
        // Overlapping classes and small C: most multipliers sit at the bound, where scaling α
        // by C_new/C_old keeps them there.
        let data = crate::data::Preset::Overlapping.generate(200, 0.6, 3);
        for (from, to) in [(0.05, 0.1), (0.1, 0.3), (1.0, 2.0), (3.0, 1.0)] {
            let mut trainer = SvmTrainer::new();
            let params = |c| SvmParams::new(Kernel::Rbf { gamma: 1.0 }, c);
            trainer
                .fit(&data.points, &data.labels, &params(from))
                .unwrap();
            let warm = trainer
                .fit(&data.points, &data.labels, &params(to))
                .unwrap();
            let cold = SvmModel::fit(&data.points, &data.labels, &params(to)).unwrap();
            assert!(warm.report.warm_start);
            assert!(
                warm.report.iterations <= cold.report.iterations,
                "C {from} → {to}: warm {} vs cold {} iterations",
                warm.report.iterations,
                cold.report.iterations
            );
            assert!(
                (warm.report.objective - cold.report.objective).abs()
                    < 1e-3 * (1.0 + cold.report.objective.abs())
            );
        }
    }
    use crate::data::Preset;

    fn rbf(gamma: f64) -> Kernel {
        Kernel::Rbf { gamma }
    }

    #[test]
    fn dca_and_pegasos_models_are_their_solutions_with_the_bias_absorbed() {
        use crate::solvers::dca::{dual_coordinate_ascent, pegasos};
        use crate::solvers::no_bias::{DCA_SEED, PEGASOS_SEED};
        let data = Preset::Overlapping.generate(60, 0.4, 2);
        let (_, y) = data.binary_targets().unwrap();
        for kernel in [Kernel::Linear, rbf(1.5)] {
            for name in ["dca", "pegasos"] {
                let params = SvmParams {
                    solver: SvmSolver::from_name(name).unwrap(),
                    ..SvmParams::new(kernel, 2.0)
                };
                let model = SvmModel::fit(&data.points, &data.labels, &params).unwrap();
                let direct = if name == "dca" {
                    dual_coordinate_ascent(kernel, &data.points, &y, 2.0, 1e-3, 100_000, DCA_SEED)
                } else {
                    pegasos(
                        kernel,
                        &data.points,
                        &y,
                        2.0,
                        PEGASOS_STEPS,
                        0,
                        PEGASOS_SEED,
                    )
                };
                for x in [[0.3, -0.2], [-1.0, 0.5], data.points[7]] {
                    let want = direct.decision(kernel, &data.points, x);
                    let got = model.decision_value(x);
                    assert!((got - want).abs() < 1e-9 * (1.0 + want.abs()), "{name}");
                }
                if kernel.is_linear() {
                    let (w, b) = direct.linear_weights(&data.points);
                    let got = model.w.unwrap();
                    assert!((got[0] - w[0]).abs() < 1e-9 && (got[1] - w[1]).abs() < 1e-9);
                    assert!(
                        (model.bias - b).abs() < 1e-9,
                        "{name}: b {} vs {b}",
                        model.bias
                    );
                }
            }
        }
    }

    #[test]
    fn the_solver_is_a_setting_and_the_hard_margin_stays_smos() {
        let mut values = Values::default();
        assert_eq!(
            SvmParams::from_values(&values, None).unwrap().solver,
            SvmSolver::Smo,
            "old links keep SMO"
        );
        values.set("svm_solver", "dca").unwrap();
        values.set("hard", "1").unwrap();
        let err = SvmParams::from_values(&values, None).unwrap_err();
        assert!(err.to_string().contains("finite C"), "{err}");
        assert!(SvmSolver::from_name("newton").is_err());
        // Three classes: one-vs-one over DCA models.
        values.set("hard", "0").unwrap();
        let data = Preset::Blobs3.generate(45, 0.1, 1);
        let model =
            crate::registry::fit(&SvmMethod, &values, &data, FitOptions::default()).unwrap();
        assert!(model.accuracy(&data.points, &data.labels) > 0.9);
    }

    #[test]
    fn two_points_give_the_textbook_answer() {
        // x = ±(1, 0): w = (1, 0), b = 0, margin width 2, both α = ½.
        let model = SvmModel::fit(
            &[[-1.0, 0.0], [1.0, 0.0]],
            &[0, 1],
            &SvmParams::new(Kernel::Linear, f64::INFINITY),
        )
        .unwrap();
        let w = model.w.unwrap();
        assert!((w[0] - 1.0).abs() < 1e-9 && w[1].abs() < 1e-9);
        assert!(model.bias.abs() < 1e-9);
        assert!((model.margin_width().unwrap() - 2.0).abs() < 1e-9);
        assert!((model.alpha[0] - 0.5).abs() < 1e-9);
        assert!(model.hard_margin && model.report.exit == ExitReason::Converged);
    }

    #[test]
    fn the_status_line_reads_the_margin_and_its_width_and_keeps_the_solver_inside() {
        // x = ±(1, 0): the margin 1/‖w‖ is 1 and its width 2/‖w‖ is 2.
        let data = Dataset::from_parts(vec![[-1.0, 0.0], [1.0, 0.0]], vec![0, 1]);
        let model = SvmModel::fit(
            &data.points,
            &data.labels,
            &SvmParams::new(Kernel::Linear, f64::INFINITY),
        )
        .unwrap();
        let facts = model.facts(&data);
        let fact = |key: &str| facts.iter().find(|f| f.key == key && !f.label.is_empty());
        let number = |key: &str| match fact(key).unwrap().value {
            crate::model::FactValue::Number(v) => v,
            ref v => panic!("{key}: {v:?}"),
        };
        assert!((number("margin") - 1.0).abs() < 1e-9);
        assert!((number("margin_width") - 2.0).abs() < 1e-9);
        for key in ["support", "margin", "margin_width", "w", "bias"] {
            assert!(!fact(key).unwrap().inside, "{key} is in the headline");
        }
        for key in ["objective", "iterations"] {
            assert!(fact(key).unwrap().inside, "{key} is an inside number");
        }
    }

    #[test]
    fn tiny_multipliers_survive_a_hard_margin() {
        // x = ±(1000, 0): w = (10⁻³, 0), α = ‖w‖²/2 = 5·10⁻⁷ each, far below 10⁻¹²·C for C = 10⁶.
        let model = SvmModel::fit(
            &[[-1000.0, 0.0], [1000.0, 0.0]],
            &[0, 1],
            &SvmParams::new(Kernel::Linear, f64::INFINITY),
        )
        .unwrap();
        assert!((model.alpha[0] - 5e-7).abs() < 1e-15);
        assert!((model.w.unwrap()[0] - 1e-3).abs() < 1e-12);
    }

    #[test]
    fn training_accuracy_from_the_gradient_is_the_evaluated_one() {
        for (preset, kernel, c) in [
            (Preset::Moons, Kernel::Rbf { gamma: 1.0 }, 1.0),
            (Preset::Overlapping, Kernel::Linear, 0.1),
            (Preset::Xor, Kernel::Rbf { gamma: 30.0 }, 1000.0),
        ] {
            for seed in 0..3 {
                let data = preset.generate(300, 0.5, seed);
                let model =
                    SvmModel::fit(&data.points, &data.labels, &SvmParams::new(kernel, c)).unwrap();
                assert_eq!(
                    model.training_accuracy(&data),
                    model.accuracy(&data.points, &data.labels),
                    "{preset:?} {kernel:?} C = {c} seed {seed}"
                );
            }
        }
    }

    #[test]
    fn hard_margin_refuses_non_separable_data() {
        // The same point with both labels can never be separated, by any kernel.
        let points = [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [-1.0, -1.0]];
        for kernel in [
            Kernel::Linear,
            Kernel::Rbf { gamma: 1.0 },
            Kernel::Polynomial {
                gamma: 1.0,
                degree: 2,
                coef0: 1.0,
            },
        ] {
            let err = SvmModel::fit(
                &points,
                &[0, 1, 1, 0],
                &SvmParams::new(kernel, f64::INFINITY),
            )
            .unwrap_err();
            assert!(matches!(err, Error::NotSeparable(_)), "{kernel:?}: {err}");
        }
        // XOR: no line, but a degree-2 polynomial separates it.
        let xor = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]];
        let labels = [0, 0, 1, 1];
        let linear = SvmParams::new(Kernel::Linear, f64::INFINITY);
        assert!(SvmModel::fit(&xor, &labels, &linear)
            .unwrap_err()
            .to_string()
            .contains("convex hulls meet"));
        let poly = SvmParams::new(
            Kernel::Polynomial {
                gamma: 1.0,
                degree: 2,
                coef0: 0.0,
            },
            f64::INFINITY,
        );
        let model = SvmModel::fit(&xor, &labels, &poly).unwrap();
        assert_eq!(model.accuracy(&xor, &labels), 1.0);
    }

    #[test]
    fn hard_margin_solves_separable_data_needing_huge_multipliers() {
        // Two columns of points 2·10⁻⁶ apart: ‖w‖ = 10⁶, so Σα = ‖w‖² = 10¹², far beyond any
        // stand-in C of old; the margins still come out at exactly ±1.
        let gap = 1e-6;
        let points = [
            [-gap, 0.0],
            [-gap, 1.0],
            [-0.5, 0.5],
            [gap, 0.0],
            [gap, -1.0],
            [0.5, 0.3],
        ];
        let labels = [0, 0, 0, 1, 1, 1];
        let model = SvmModel::fit(
            &points,
            &labels,
            &SvmParams::new(Kernel::Linear, f64::INFINITY),
        )
        .unwrap();
        assert_eq!(model.report.exit, ExitReason::Converged);
        let total: f64 = model.alpha.iter().sum();
        assert!((total / 1e12 - 1.0).abs() < 1e-3, "Σα = {total}");
        assert!((model.margin_width().unwrap() - 2.0 * gap).abs() < 1e-9);
        for (i, p) in points.iter().enumerate() {
            let yf = model.y[i] * model.decision_value(*p);
            assert!(yf >= 1.0 - 1e-3, "point {i}: y f = {yf}");
        }
    }

    #[test]
    fn rejects_bad_parameters_and_data() {
        let p = [[0.0, 0.0], [1.0, 1.0]];
        assert_eq!(
            SvmModel::fit(&p, &[0, 1], &SvmParams::new(Kernel::Linear, 0.0))
                .unwrap_err()
                .to_string(),
            "C <= 0"
        );
        assert_eq!(
            SvmModel::fit(&p, &[1, 1], &SvmParams::new(Kernel::Linear, 1.0)).unwrap_err(),
            Error::OneClass
        );
        assert!(SvmModel::fit(
            &[[f64::NAN, 0.0], [1.0, 1.0]],
            &[0, 1],
            &SvmParams::new(Kernel::Linear, 1.0)
        )
        .is_err());
    }

    #[test]
    fn separable_rbf_grid_matches_direct_evaluation() {
        let data = Preset::Moons.generate(60, 0.3, 3);
        let model =
            SvmModel::fit(&data.points, &data.labels, &SvmParams::new(rbf(3.0), 1.0)).unwrap();
        let grid = Grid::new(crate::field::View::square(1.2), 17, 13);
        let fast = model.grid_evaluator(&grid);
        for row in 0..grid.rows {
            for col in 0..grid.cols {
                let direct = model.decision_value(grid.node(row, col));
                assert!((fast(row, col) - direct).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let data = Preset::Xor.generate(40, 0.2, 1);
        for kernel in [
            Kernel::Linear,
            rbf(2.0),
            Kernel::Polynomial {
                gamma: 1.0,
                degree: 3,
                coef0: 1.0,
            },
            Kernel::Sigmoid {
                gamma: 0.5,
                coef0: -0.5,
            },
        ] {
            let model =
                SvmModel::fit(&data.points, &data.labels, &SvmParams::new(kernel, 1.0)).unwrap();
            let x = [0.23, -0.41];
            let h = 1e-6;
            let g = model.gradient(x);
            let fd = [
                (model.decision_value([x[0] + h, x[1]]) - model.decision_value([x[0] - h, x[1]]))
                    / (2.0 * h),
                (model.decision_value([x[0], x[1] + h]) - model.decision_value([x[0], x[1] - h]))
                    / (2.0 * h),
            ];
            for k in 0..2 {
                assert!(
                    (g[k] - fd[k]).abs() < 1e-5 * (1.0 + fd[k].abs()),
                    "{kernel:?}"
                );
            }
        }
    }

    #[test]
    fn slack_segments_end_on_the_own_margin() {
        let data = Preset::Overlapping.generate(80, 0.2, 5);
        for kernel in [Kernel::Linear, rbf(2.0)] {
            let model =
                SvmModel::fit(&data.points, &data.labels, &SvmParams::new(kernel, 1.0)).unwrap();
            let mut checked = 0;
            for i in model.bound() {
                if let Some((start, end)) = model.slack_segment(i) {
                    assert_eq!(start, data.points[i]);
                    assert!((model.decision_value(end) - model.y[i]).abs() < 1e-4);
                    checked += 1;
                }
            }
            assert!(checked > 3, "{kernel:?}: only {checked} segments");
            if let Some(w) = model.w {
                // Linear: the segment's length is ξ/‖w‖.
                let i = model.bound()[0];
                let (s, e) = model.slack_segment(i).unwrap();
                let length = (e[0] - s[0]).hypot(e[1] - s[1]);
                assert!((length - model.slack(i) / w[0].hypot(w[1])).abs() < 1e-9);
            }
        }
    }
}

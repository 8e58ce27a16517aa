//! ν-SVC: the soft-margin SVM with ν in place of C (Schölkopf, Smola, Williamson & Bartlett,
//! 2000), solved as LIBSVM does (Chang & Lin, "Training ν-support vector classifiers", 2001).
//!
//! Primal, for l training points: minimise ½‖w‖² − νρ + (1/l) Σξ_i subject to
//! y_i f(x_i) ≥ ρ − ξ_i, ξ_i ≥ 0, ρ ≥ 0, with f(x) = wᵀφ(x) + b. The margin's level ρ is a
//! variable now, and ν ∈ (0, 1] prices it against the slack. LIBSVM solves the dual multiplied
//! by l, with Q_ij = y_i y_j K(x_i, x_j):
//!
//! ```text
//!     minimise   ½ αᵀQα
//!     subject to 0 ≤ α_i ≤ 1,  Σ y_i α_i = 0,  Σ α_i = ν·l.
//! ```
//!
//! The two equalities say that each class carries ν·l/2 of the sum, which a class of fewer
//! than ν·l/2 points cannot do with α_i ≤ 1: ν is *infeasible* when ν·(n₊ + n₋)/2 exceeds
//! min(n₊, n₋) (LIBSVM's test, for every pair of classes), and the fit is refused in words.
//!
//! Because Σα_i = ν·l and no α_i exceeds 1, at most ν·l multipliers sit at the bound and at
//! least ν·l are non-zero. A margin error (ξ_i > 0) has α_i = 1 by the KKT conditions, so
//!
//! ```text
//!     fraction of margin errors  ≤  ν  ≤  fraction of support vectors,
//! ```
//!
//! the *ν-property*, which the status line shows with both fractions. (A margin error is
//! counted as a point at the bound with y_i f(x_i) < 1: a point off the bound lies on or
//! outside its margin up to the solver's tolerance.)
//!
//! **The rescaling.** At the optimum, with ∇ = Qα, the free multipliers of each class share a
//! level ∇_i = r₊ (y_i = +1) or r₋ (y_i = −1); with none free, the middle of the interval the
//! bound ones leave. Then r = (r₊ + r₋)/2 is the margin's level ρ and (r₊ − r₋)/2 is −b·r, and
//! the decision function is
//!
//! ```text
//!     f(x) = (Σ α_j y_j K(x_j, x) − (r₊ − r₋)/2) / r,
//! ```
//!
//! whose margins are f = ±1. LIBSVM divides α by r as well: α/r is then exactly a C-SVM
//! solution with C = 1/r (the KKT conditions of one, divided by r, are those of the other), so
//! the lab keeps it as an [`SvmModel`] and draws, marks and checks it as the C-SVM's: support
//! vectors ringed (squares at the bound), the margins f = ±1 dashed, the slack segments.
//!
//! An r that is not positive and finite leaves nothing to divide by, and the fit is refused in
//! words: ν at its limit puts a whole class at the bound, where LIBSVM's r is infinite; and
//! below some ν the classes' convex hulls, each shrunk by capping every point's weight at
//! 2/(ν·l) of its class, still meet, so the optimum has w = 0 and r = 0. LIBSVM then divides
//! by whatever rounding left in r; the lab refuses an r within the solver's tolerance of 0.
//!
//! The solver is in `solver.rs`; more classes go one-versus-one through the registry, as in
//! LIBSVM, and the status line then reports the ν-property of the worst pair
//! ([`pairwise_facts`]).

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::Grid;
use crate::core::kernel::{Kernel, KernelCache};
use crate::core::params::Values;
use crate::core::params::{model_row, Kind, Param};
use crate::core::plane::{Mark, Scene};
use crate::core::sklearn::{kernel_args, python_float, shown, Counterpart, Estimator, Multiclass};
use crate::methods::model::{
    kernel_of, short, Context, ExitReason, Fact, FitOptions, FitReport, Level, Method, Model,
    Smoothness, WarmStart,
};
use crate::methods::solvers::smo::general::{self, rho_and_r};
use crate::methods::solvers::smo::{KeptColumns, Solution, CACHE_BYTES};
use crate::methods::solvers::svm::{AlphaStatus, SvmModel, SvmParams};

pub(crate) mod solver;

/// The parameters of a fit, checked by [`NuSvcParams::check`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NuSvcParams {
    pub kernel: Kernel,
    /// ν ∈ (0, 1].
    pub nu: f64,
    /// Stopping tolerance on the larger of the two classes' KKT violations.
    pub tol: f64,
    /// Iteration cap; `None` means max(100 000, 100 n).
    pub max_iter: Option<usize>,
}

impl NuSvcParams {
    pub fn new(kernel: Kernel, nu: f64) -> Self {
        Self {
            kernel,
            nu,
            tol: 1e-3,
            max_iter: None,
        }
    }

    /// The parameters the settings describe (`max_iter`: the command line's cap, if any).
    pub fn from_values(values: &Values, max_iter: Option<usize>) -> Result<Self, Error> {
        let params = Self {
            tol: values.real("tol"),
            max_iter,
            ..Self::new(kernel_of(values)?, values.real("nu"))
        };
        params.check()?;
        Ok(params)
    }

    pub fn check(&self) -> Result<(), Error> {
        let problem = if !(self.nu > 0.0 && self.nu <= 1.0) {
            "nu must be in (0, 1]"
        } else if !(self.tol.is_finite() && self.tol > 0.0) {
            "tol <= 0"
        } else {
            return Ok(());
        };
        Err(Error::Parameter(problem.into()))
    }
}

/// The registry entry: ν-SVC, solved by LIBSVM's `Solver_NU`.
pub struct NuSvcMethod;

impl Method for NuSvcMethod {
    fn rows(&self) -> &'static [crate::core::params::Param] {
        ROWS
    }

    fn id(&self) -> &'static str {
        "nusvc"
    }

    fn title(&self) -> &'static str {
        "ν-SVM"
    }

    fn svm_type(&self) -> Option<u8> {
        Some(1)
    }

    fn explain(&self) -> &'static str {
        "The SVM with ν in place of C: minimise ½‖w‖² − νρ + (1/n)Σξᵢ subject to yᵢf(xᵢ) ≥ ρ − ξᵢ, so that ν is at least the fraction of margin errors and at most the fraction of support vectors."
    }

    fn params(&self) -> &'static [&'static str] {
        &[
            "kernel", "kexpr", "mc", "nu", "gamma", "degree", "coef0", "tol",
        ]
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        FitOptions { max_iter, warm, .. }: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let params = NuSvcParams::from_values(values, max_iter)?;
        let mut own = None;
        let cache = KeptColumns::cache(warm, &mut own);
        let model = NuSvcModel::fit_with(cache, &data.points, &data.labels, &params)?;
        Ok(Box::new(model))
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["nu", "gamma", "degree"]
    }

    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(KeptColumns::default()))
    }

    /// `NuSVC` is LIBSVM's ν-SVC, the same problem, rescaling and one-vs-one voting.
    fn sklearn(&self, values: &Values, data: &Dataset) -> Counterpart {
        let nu = values.real("nu");
        let (svc, kernel_lines) = kernel_args(
            Estimator::sklearn("sklearn.svm", "NuSVC"),
            values,
            self.params(),
        );
        let ovr = values.choice("mc") == "ovr";
        let mc = match (data.classes().len() > 2, ovr) {
            (false, _) => "multi-class → (two classes: not needed)",
            (true, false) => "multi-class = ovo → NuSVC's own one-vs-one voting, ties to the smaller class (LIBSVM's, as the lab's)",
            (true, true) => "multi-class = ovr → OneVsRestClassifier around it: the class whose f is largest",
        };
        let tol = values.real("tol");
        let counterpart = Counterpart::same(
            vec![svc.arg("nu", nu).arg("tol", tol)],
            Multiclass::OneVsOne,
        );
        let counterpart = if summed_remainder(nu, &problem_sizes(data, ovr)) {
            counterpart.near(
                "scikit-learn's LIBSVM adds ν once per point, and here half the sum lands a \
                 rounding step off a whole number: the remainder (about 10⁻¹⁵) stays a free \
                 multiplier that enters its r, so its decision values may differ from the \
                 lab's by a few per cent",
            )
        } else {
            counterpart
        };
        counterpart
            .map(
                "nu",
                format!(
                    "{} → nu={}: the same bound on the margin errors and the support vectors",
                    shown(values, "nu"),
                    python_float(nu)
                ),
            )
            .map_all(kernel_lines)
            .map(
                "tol",
                format!(
                    "{} → tol={}: both stop when neither class's KKT violation reaches it",
                    shown(values, "tol"),
                    python_float(tol)
                ),
            )
            .map("mc", mc)
    }
}

/// The number of points of each two-class problem the registry fits on `data`: all of them,
/// or with more classes one-vs-one each pair's.
fn problem_sizes(data: &Dataset, ovr: bool) -> Vec<usize> {
    let classes = data.classes();
    let count = |c: i32| data.labels.iter().filter(|&&l| l == c).count();
    if classes.len() <= 2 || ovr {
        return vec![data.len()];
    }
    let counts: Vec<usize> = classes.iter().map(|&c| count(c)).collect();
    let mut sizes = Vec::new();
    for (i, a) in counts.iter().enumerate() {
        sizes.extend(counts[i + 1..].iter().map(|b| a + b));
    }
    sizes
}

/// Whether scikit-learn's LIBSVM, which starts from half of ν added once per point, is left
/// with a remainder of rounding in one of the problems of these sizes.
fn summed_remainder(nu: f64, sizes: &[usize]) -> bool {
    sizes.iter().any(|&l| {
        let half = (0..l).fold(0.0, |sum, _| sum + nu) / 2.0;
        let part = half - half.floor();
        part > 0.0 && part.min(1.0 - part) < 1e-9
    })
}

/// A fitted ν-SVC: its solution divided by r, which is a C-SVM's with C = 1/r.
#[derive(Clone, Debug)]
pub struct NuSvcModel {
    /// The rescaled solution: α/r in [0, 1/r], b = −ρ/r, margins y_i f(x_i) at ±1.
    pub svm: SvmModel,
    pub nu: f64,
    /// The margin's level before the rescaling (LIBSVM's r; C = 1/r).
    pub r: f64,
}

impl NuSvcModel {
    /// Fits `points` with `labels` (exactly two distinct labels; the larger one is the
    /// positive class), with the kernel columns of `cache`.
    pub fn fit_with(
        cache: &mut KernelCache,
        points: &[Point],
        labels: &[i32],
        params: &NuSvcParams,
    ) -> Result<NuSvcModel, Error> {
        params.check()?;
        if let Some(bad) = points.iter().position(|p| !p.iter().all(|v| v.is_finite())) {
            return Err(Error::NotFinite {
                what: format!("point {bad}"),
            });
        }
        let (classes, y) =
            Dataset::from_parts(points.to_vec(), labels.to_vec()).binary_targets()?;
        let nu = params.nu;
        let n = points.len();
        let positive = y.iter().filter(|&&v| v > 0.0).count();
        let smaller = positive.min(n - positive);
        if nu * n as f64 / 2.0 > smaller as f64 {
            return Err(Error::Parameter(format!(
                "ν = {nu} is infeasible for classes of {positive} and {} points: \
                 ν·{n}/2 = {} is more than the {smaller} points of the smaller class; \
                 choose ν ≤ {}",
                n - positive,
                short(nu * n as f64 / 2.0),
                short(2.0 * smaller as f64 / n as f64)
            )));
        }
        cache.prepare(params.kernel, points);
        general::check_diagonal(cache)?;
        let max_iter = params.max_iter.unwrap_or((100 * n).max(100_000));
        let solved = solver::solve(cache, points, &y, nu, params.tol, max_iter);
        let (rho, r) = rho_and_r(&solved.alpha, &solved.gradient, &y, 1.0);
        if r.is_infinite() {
            return Err(Error::Parameter(format!(
                "ν = {nu} puts every point of the smaller class at the bound, so there is no \
                 margin to find: choose ν below {}",
                short(2.0 * smaller as f64 / n as f64)
            )));
        }
        // Below the tolerance r is rounding: w = 0 (the classes' hulls shrunk by ν still
        // meet), and dividing by it would only blow the noise up.
        if !(r > params.tol && rho.is_finite()) {
            return Err(Error::Parameter(format!(
                "ν = {nu} leaves no margin on these points: its level r = {} is below the \
                 tolerance {} (w = 0 up to rounding); raise ν",
                short(r),
                short(params.tol)
            )));
        }
        // ½αᵀQα, the objective minimised, before the rescaling.
        let objective = general::objective(&solved.alpha, &solved.gradient, &vec![0.0; n]);
        let margins = (0..n)
            .map(|i| (solved.gradient[i] - y[i] * rho) / r)
            .collect();
        let solution = Solution {
            classes,
            y,
            alpha: solved.alpha.iter().map(|a| a / r).collect(),
            bias: -rho / r,
            margins,
            report: FitReport {
                iterations: solved.iterations,
                exit: solved.exit,
                objective,
                warm_start: false,
            },
            max_violation: solved.violation,
            reopened: 0,
            fewest_active: n,
            last_step: None,
            trace: None,
        };
        let svm_params = SvmParams {
            tol: params.tol,
            ..SvmParams::new(params.kernel, 1.0 / r)
        };
        Ok(NuSvcModel {
            svm: SvmModel::from_solution(points, &svm_params, 1.0 / r, solution),
            nu,
            r,
        })
    }

    /// A one-off fit.
    pub fn fit(points: &[Point], labels: &[i32], params: &NuSvcParams) -> Result<Self, Error> {
        Self::fit_with(&mut KernelCache::new(CACHE_BYTES), points, labels, params)
    }

    /// The points at the bound whose margin y_i f(x_i) is below 1 (slack ξ_i > 0).
    pub fn margin_errors(&self) -> usize {
        (0..self.svm.alpha.len())
            .filter(|&i| self.svm.status(i) == AlphaStatus::Bound && self.svm.margins[i] < 1.0)
            .count()
    }

    /// The fraction of the training points that are margin errors (at most ν).
    pub fn margin_error_fraction(&self) -> f64 {
        self.margin_errors() as f64 / self.svm.alpha.len() as f64
    }

    /// The fraction of the training points that are support vectors (at least ν).
    pub fn support_fraction(&self) -> f64 {
        self.svm.support().len() as f64 / self.svm.alpha.len() as f64
    }
}

/// The ν-property as the status line reads it, `errors ≤ ν ≤ support` (fractions), with the
/// two fractions and ν for the JSON; `pairs` when they are the worst over one-vs-one pairs.
fn property_facts(errors: f64, nu: f64, support: f64, pairs: bool) -> Vec<Fact> {
    vec![
        Fact::new(
            "nu_property",
            if pairs {
                "pairs' margin errors"
            } else {
                "margin errors"
            },
            format!("{} ≤ ν = {} ≤ {}", short(errors), short(nu), short(support)),
        )
        .with_note("support vectors"),
        Fact::data("nu", nu),
        Fact::data("margin_error_fraction", errors),
        Fact::data("support_fraction", support),
    ]
}

/// The ν-property of one-vs-one ν-SVC `members` (none when they are another method's): the
/// largest fraction of margin errors and the smallest fraction of support vectors over the
/// pairs, each a fraction of its pair's points, so that it holds for every pair exactly when
/// it holds for these two.
pub fn pairwise_facts<'a>(members: impl Iterator<Item = &'a dyn Model>) -> Vec<Fact> {
    let mut worst: Option<(f64, f64, f64)> = None;
    for member in members {
        let Some(m) = member.as_any().downcast_ref::<NuSvcModel>() else {
            return Vec::new();
        };
        let (errors, support) = (m.margin_error_fraction(), m.support_fraction());
        worst = Some(match worst {
            Some((e, _, s)) => (e.max(errors), m.nu, s.min(support)),
            None => (errors, m.nu, support),
        });
    }
    worst.map_or_else(Vec::new, |(e, nu, s)| property_facts(e, nu, s, true))
}

impl Model for NuSvcModel {
    fn classes(&self) -> &[i32] {
        &self.svm.classes
    }

    fn decision_value(&self, x: Point) -> f64 {
        self.svm.decision_value(x)
    }

    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        self.svm.grid_evaluator(grid)
    }

    fn levels(&self) -> Vec<Level> {
        self.svm.levels()
    }

    fn smoothness(&self) -> Smoothness {
        self.svm.smoothness()
    }

    fn marks(&self) -> Vec<Mark> {
        self.svm.marks()
    }

    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        self.svm.decorate(scene, context)
    }

    /// The C-SVM's facts (C there is 1/r), the ν-property first in the headline.
    fn facts(&self, data: &Dataset) -> Vec<Fact> {
        let mut facts = self.svm.facts(data);
        let at = facts
            .iter()
            .position(|f| f.key == "support")
            .unwrap_or(facts.len());
        let property = property_facts(
            self.margin_error_fraction(),
            self.nu,
            self.support_fraction(),
            false,
        );
        facts.splice(at..at, property);
        facts.push(Fact::new("r", "margin level r =", self.r).inside());
        facts
    }

    fn facts_at(&self, x: Point) -> Vec<Fact> {
        self.svm.facts_at(x)
    }

    fn point_facts(&self, index: usize, data: &Dataset) -> Vec<Fact> {
        self.svm.point_facts(index, data)
    }

    fn message(&self) -> Option<String> {
        (self.svm.report.exit == ExitReason::IterationCap).then(|| {
            format!(
                "ν-SVC stopped at its iteration cap ({} iterations) before the KKT conditions \
                 held; the picture is approximate",
                self.svm.report.iterations
            )
        })
    }

    fn training_accuracy(&self, data: &Dataset) -> f64 {
        self.svm.training_accuracy(data)
    }

    fn margin(&self, index: usize, data: &Dataset) -> Option<f64> {
        self.svm.margin(index, data)
    }

    fn loss(&self) -> Option<crate::methods::model::Loss> {
        self.svm.loss()
    }

    fn kernel_expansion(&self) -> Option<crate::methods::model::KernelExpansion<'_>> {
        self.svm.kernel_expansion()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// ν-SVC's row: ν (ν-SVR and the one-class SVM read it too).
pub static ROWS: &[Param] = &[NU_ROW];

pub const NU_ROW: Param = model_row(
    "nu",
    "ν",
    Kind::Slider {
        min: 0.0,
        max: 1.0,
        lo: 0.01,
        hi: 1.0,
        step: 0.01,
    },
    "0.5",
    "ν-SVC's ν in (0, 1], in place of C: at most a fraction ν of the points are margin \
     errors (yᵢf(xᵢ) < 1) and at least a fraction ν are support vectors, so ν sets how \
     many points may violate the margin; too large a ν for a small class is infeasible. In \
     ν-SVR, in place of ε: at most a fraction ν of the points lie outside the tube.",
);

#[cfg(test)]
mod tests;

//! The SVM's checked parameters ([`SvmParams`]: kernel, C, solver, tolerance) and the box
//! SMO is given: C itself, the unbounded box of a hard margin the hulls certify, or
//! [`HARD_MARGIN_REACH`]/R² for the other kernels' hard margin.

use super::*;
use crate::core::params::{choice, model_row, Group, Kind, Param};

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
pub(super) const UNBOUNDED: f64 = 1e150;

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
            solver: SvmSolver::from_name(values.as_read_by(ROWS).choice("solver"))?,
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
            if negative.is_empty() || crate::core::hull::strictly_separable(&positive, &negative) {
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
pub(super) fn not_separable(why: &str) -> Error {
    Error::NotSeparable(format!(
        "no hard margin: {why} — use a finite C for a soft margin"
    ))
}

/// The SVM's rows: its solver, the multi-class scheme, C, the hard margin and the solver's tolerance (ν-SVC and the regression SVMs read C, the scheme and the tolerance from here).
pub static ROWS: &[Param] = &[SOLVER_ROW, MULTI_CLASS_ROW, C_ROW, HARD_ROW, TOLERANCE_ROW];

pub const SOLVER_ROW: Param = Param {
    more: true,
    hint: "DCA and Pegasos: no separate bias (K + 1)",
    ..model_row(
        "solver",
        "solver",
        Kind::Choice {
            options: &[
                choice(
                    "smo",
                    "SMO (with bias, LIBSVM)",
                    "Sequential minimal optimisation: two multipliers at a time in closed \
                     form, keeping Σαᵢyᵢ = 0, the pair chosen by second-order working-set \
                     selection as in LIBSVM.",
                ),
                choice(
                    "dca",
                    "dual coordinate ascent",
                    "One multiplier at a time, αᵢ ← clip(αᵢ + (1 − yᵢf(xᵢ))/Kᵢᵢ, 0, C); the \
                     bias is absorbed by the kernel K + 1, so there is no Σαᵢyᵢ = 0 to keep.",
                ),
                choice(
                    "pegasos",
                    "Pegasos (primal SGD)",
                    "Stochastic sub-gradient steps on the primal λ/2‖w‖² + (1/n)Σ hinge, \
                     λ = 1/(nC), with step ηₜ = 1/(λt); the bias is absorbed by K + 1.",
                ),
            ],
        },
        "smo",
        "How the soft-margin problem is solved: each solver reaches the same kind of \
         boundary by its own path, which Step shows one update at a time.",
    )
};

pub const MULTI_CLASS_ROW: Param = Param {
    more: true,
    ..model_row(
        "mc",
        "multi-class",
        Kind::Choice {
            options: &[
                choice(
                    "ovo",
                    "one-vs-one, voting (LIBSVM)",
                    "One classifier for each pair of classes, K(K − 1)/2 in all; each votes, \
                     and the class with the most votes wins (LIBSVM's choice).",
                ),
                choice(
                    "ovr",
                    "one-vs-rest",
                    "One classifier per class against all the others, K in all; the class \
                     with the highest score wins.",
                ),
            ],
        },
        "ovo",
        "How a two-class method tells three or more classes apart: by combining two-class \
         classifiers.",
    )
};

pub const C_ROW: Param = Param {
    enabled_by: &[("hard", &["0"])],
    ..model_row(
        "C",
        "C",
        Kind::LogSlider { lo: -3.0, hi: 4.0 },
        "1",
        "The price of a margin violation in ½‖w‖² + C Σξᵢ, and the box 0 ≤ αᵢ ≤ C of the \
         dual: small C allows a wide margin with many bound support vectors; large C \
         approaches the hard margin.",
    )
};

pub const HARD_ROW: Param = Param {
    more: true,
    hint: "C = ∞",
    ..model_row(
        "hard",
        "hard margin",
        Kind::Flag,
        "0",
        "Demand yᵢf(xᵢ) ≥ 1 of every point, with no slack (C = ∞): it has a solution only \
         when the classes are separable, and the lab says so when they are not.",
    )
};

pub const TOLERANCE_ROW: Param = Param {
    group: Group::Hidden,
    ..model_row(
        "tol",
        "tolerance",
        Kind::LogSlider { lo: -6.0, hi: -1.0 },
        "0.001",
        "The solver stops when the largest violation of the KKT conditions is below this \
         (LIBSVM's default is 10⁻³).",
    )
};

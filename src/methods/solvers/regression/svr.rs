//! Support vector regression as methods of the regression task: ε-SVR (C and ε) and ν-SVR (C
//! and ν, which finds its ε), solved in [`crate::methods::solvers::svr`]. The plane draws f and its
//! ε-tube; the support vectors on the tube's edge (0 < |αᵢ − αᵢ*| < C) and outside it (at C)
//! are marked as the C-SVM's free and bound ones.

use super::{inputs_and_targets, Curve, Fitted};
use crate::core::data::Dataset;
use crate::core::error::Error;
use crate::core::field::Smoothness;
use crate::core::params::Values;
use crate::core::params::{model_row, Kind, Param};
use crate::core::plane::Mark;
use crate::core::sklearn::{
    kernel_args, libsvm_tol, python_float, shown, Counterpart, Estimator, Multiclass,
};
use crate::core::task::Task;
use crate::methods::model::{kernel_of, Fact, FitOptions, Method, Model, WarmStart};
use crate::methods::solvers::svr::{fit_svr, Formulation, SvrFit, SvrProblem, SvrWarmStart};

/// The iteration cap when the settings give none (the page's).
const MAX_ITER: usize = 1_000_000;

impl Curve for SvrFit {
    fn at(&self, x: f64) -> f64 {
        self.predict([x, 0.0])
    }

    fn tube(&self) -> Option<f64> {
        Some(self.epsilon)
    }

    fn residuals(&self) -> Option<&[f64]> {
        Some(&self.residuals)
    }

    fn marks(&self) -> Vec<Mark> {
        (0..self.dual_coef.len())
            .map(|i| match self.dual_coef[i] {
                0.0 => Mark::Plain,
                _ if self.is_free(i, self.c) => Mark::FreeSupport,
                _ => Mark::BoundSupport,
            })
            .collect()
    }

    fn facts(&self) -> Vec<Fact> {
        let n = self.dual_coef.len();
        let free = (0..n)
            .filter(|&i| self.dual_coef[i] != 0.0 && self.is_free(i, self.c))
            .count();
        let mut facts = vec![Fact::new(
            "support_vectors",
            "support vectors",
            format!(
                "{} (on the tube {free}, outside or at C {})",
                self.support.len(),
                self.support.len() - free
            ),
        )];
        if let Some(nu) = self.nu {
            facts.push(
                Fact::new(
                    "nu_property",
                    "outside the tube",
                    format!(
                        "{} ≤ ν = {} ≤ {}",
                        crate::methods::model::short(self.outside_fraction()),
                        crate::methods::model::short(nu),
                        crate::methods::model::short(self.support_fraction())
                    ),
                )
                .with_note("support vectors"),
            );
        }
        facts.push(Fact::new("bias", "b =", self.bias).inside());
        facts.push(Fact::new("iterations", "iterations", self.iterations as f64).inside());
        facts
    }

    fn point_facts(&self, index: usize) -> Vec<Fact> {
        vec![
            Fact::new("alpha", "α =", self.alpha[index]),
            Fact::new("alpha_star", "α* =", self.alpha_star[index]),
            Fact::new("case", "", self.case(index)),
        ]
    }

    fn smoothness(&self) -> Smoothness {
        Smoothness::of_kernel(self.kernel)
    }

    fn warm_started(&self) -> bool {
        self.warm_start
    }

    fn numbers(&self) -> Vec<(&'static str, Vec<f64>)> {
        vec![("dual_coef", self.dual_coef.clone())]
    }

    fn indices(&self) -> Vec<(&'static str, Vec<usize>)> {
        vec![("support", self.support.clone())]
    }

    fn scalars(&self) -> Vec<(&'static str, f64)> {
        vec![("bias", self.bias), ("epsilon", self.epsilon)]
    }
}

impl SvrFit {
    /// The KKT case of point i in the lecture's words: the sign of its residual follows from
    /// which of α, α* is positive (at most one is).
    fn case(&self, i: usize) -> &'static str {
        match self.dual_coef[i] {
            0.0 => "α = α* = 0: inside the tube, |t − f(x)| ≤ ε, not a support vector",
            _ if self.is_free(i, self.c) => {
                "0 < |α − α*| < C: support vector on the tube's edge, |t − f(x)| = ε"
            }
            _ => "|α − α*| = C: support vector on or outside the tube, slack |t − f(x)| − ε ≥ 0",
        }
    }
}

/// A registry entry of support vector regression: ε-SVR (the tube's width given) or ν-SVR
/// (found).
pub struct SvrMethod {
    id: &'static str,
    title: &'static str,
    explain: &'static str,
    params: &'static [&'static str],
    tuning: &'static [&'static str],
    nu: bool,
}

/// ε-SVR (its registry entry).
pub const EPSILON_SVR: SvrMethod = SvrMethod {
    id: "svr",
    title: "ε-SVR (support vector regression)",
    explain: "Support vector regression: ½‖w‖² + C Σ max(0, |tᵢ − f(xᵢ)| − ε) made least; residuals within the tube f ± ε cost nothing, and only points on or outside it are support vectors.",
    params: &["kernel", "kexpr", "C", "epsilon", "gamma", "degree", "coef0", "tol"],
    tuning: &["C", "gamma", "epsilon"],
    nu: false,
};

/// ν-SVR (its registry entry).
pub const NU_SVR: SvrMethod = SvrMethod {
    id: "nusvr",
    title: "ν-SVR",
    explain: "Support vector regression with ν in place of ε: the tube's width is found, so that at most a fraction ν of the points lie outside it and at least ν are support vectors.",
    params: &["kernel", "kexpr", "C", "nu", "gamma", "degree", "coef0", "tol"],
    tuning: &["C", "gamma", "nu"],
    nu: true,
};

impl Method for SvrMethod {
    fn rows(&self) -> &'static [crate::core::params::Param] {
        match self.nu {
            false => ROWS,
            true => &[],
        }
    }

    fn id(&self) -> &'static str {
        self.id
    }

    fn task(&self) -> Task {
        Task::Regression
    }

    fn title(&self) -> &'static str {
        self.title
    }

    fn explain(&self) -> &'static str {
        self.explain
    }

    fn params(&self) -> &'static [&'static str] {
        self.params
    }

    fn svm_type(&self) -> Option<u8> {
        Some(if self.nu { 4 } else { 3 })
    }

    fn tuning(&self) -> &'static [&'static str] {
        self.tuning
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let (inputs, targets) = inputs_and_targets(data);
        let problem = SvrProblem {
            kernel: kernel_of(values)?,
            c: values.real("C"),
            formulation: if self.nu {
                Formulation::Nu(values.real("nu"))
            } else {
                Formulation::Epsilon(values.real("epsilon"))
            },
            tol: values.real("tol"),
            max_iter: options.max_iter.unwrap_or(MAX_ITER),
        };
        // The kept columns and multipliers, or a state for this fit alone.
        let mut own = None;
        let warm = match options
            .warm
            .and_then(|w| w.as_any().downcast_mut::<SvrWarmStart>())
        {
            Some(state) => state,
            None => own.insert(SvrWarmStart::default()),
        };
        let fit = fit_svr(&inputs, &targets, &problem, warm)?;
        Ok(Box::new(Fitted::new(fit, data)))
    }

    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(SvrWarmStart::default()))
    }

    fn sklearn(&self, values: &Values, _data: &Dataset) -> Counterpart {
        let (c, tol) = (values.real("C"), values.real("tol"));
        let (name, key, width) = match self.nu {
            true => ("NuSVR", "nu", values.real("nu")),
            false => ("SVR", "epsilon", values.real("epsilon")),
        };
        let svr = Estimator::sklearn("sklearn.svm", name)
            .arg("C", c)
            .arg(key, width)
            .arg("tol", tol);
        let (svr, kernel_lines) = kernel_args(svr, values, self.params());
        let width_line = match self.nu {
            true => "at most a fraction ν of the points outside the tube, whose ε is found",
            false => "the tube's half-width: residuals within ε cost nothing",
        };
        Counterpart::same(vec![svr], Multiclass::Otherwise)
            .map(
                "C",
                format!(
                    "{} → C={}: the price per unit of residual beyond the tube",
                    shown(values, "C"),
                    python_float(c)
                ),
            )
            .map(
                key,
                format!(
                    "{} → {key}={}: {width_line}",
                    shown(values, key),
                    python_float(width)
                ),
            )
            .map_all(vec![libsvm_tol(values)])
            .map_all(kernel_lines)
    }
}

/// ε-SVR's row: the tube's half-width ε.
pub static ROWS: &[Param] = &[EPSILON_ROW];

pub const EPSILON_ROW: Param = model_row(
    "epsilon",
    "ε",
    Kind::LogSlider { lo: -3.0, hi: 0.0 },
    "0.1",
    "The half-width of support vector regression's tube: a residual |t − f(x)| within ε \
     costs nothing, one beyond it costs C per unit; a wider tube has fewer support \
     vectors and a flatter f.",
);

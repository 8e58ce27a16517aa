//! Novelty detection in the plane with the one-class SVM ([`crate::methods::solvers::one_class`]): the
//! points have no labels, and f(x) = Σ αᵢ K(xᵢ, x) − ρ is positive on the region where they
//! lie. The plane shades inside (f > 0) and outside apart, draws f = 0 as the region's
//! boundary, rings the support vectors on it (0 < αᵢ < 1) and squares those at αᵢ = 1, the
//! training points on or outside it; the status line shows the ν-property live,
//!
//! ```text
//!     fraction of outliers  ≤  ν  ≤  fraction of support vectors.
//! ```

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::{expansion_evaluator, Grid, Smoothness};
use crate::core::params::Values;
use crate::core::plane::{Mark, Shading};
use crate::core::sklearn::{
    kernel_args, libsvm_tol, python_float, shown, Counterpart, Estimator, Multiclass,
};
use crate::core::task::Task;
use crate::methods::model::{kernel_of, short, Fact, FitOptions, Level, Method, Model, WarmStart};
use crate::methods::solvers::one_class::{fit_one_class_with, OneClassFit};
use crate::methods::solvers::smo::KeptColumns;

/// The iteration cap when the settings give none.
const MAX_ITER: usize = 1_000_000;

/// A fitted one-class SVM, with the training points' outlier fraction.
#[derive(Debug)]
pub struct Novelty {
    pub fit: OneClassFit,
    label: [i32; 1],
    outliers: f64,
}

impl Model for Novelty {
    fn classes(&self) -> &[i32] {
        &self.label
    }

    fn decision_value(&self, x: Point) -> f64 {
        self.fit.decision(x)
    }

    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        expansion_evaluator(self.fit.kernel, &self.fit.expansion, -self.fit.rho, grid)
    }

    fn levels(&self) -> Vec<Level> {
        vec![Level::boundary()]
    }

    /// Deeper as |f| grows against ρ, the depth of the training points' region.
    fn shading(&self) -> Shading {
        Shading::Margin {
            scale: self.fit.rho.abs().max(1e-12),
        }
    }

    fn smoothness(&self) -> Smoothness {
        Smoothness::of_kernel(self.fit.kernel)
    }

    fn marks(&self) -> Vec<Mark> {
        (0..self.fit.alpha.len())
            .map(|i| match self.fit.alpha[i] {
                a if a <= 0.0 => Mark::Plain,
                _ if self.fit.is_free(i) => Mark::FreeSupport,
                _ => Mark::BoundSupport,
            })
            .collect()
    }

    fn decorate(
        &self,
        scene: &mut crate::core::plane::Scene,
        _context: &crate::methods::model::Context<'_>,
    ) {
        scene.marks = self.marks();
    }

    fn predict(&self, _x: Point) -> i32 {
        self.label[0]
    }

    fn facts(&self, _data: &Dataset) -> Vec<Fact> {
        vec![
            Fact::new(
                "nu_property",
                "outliers",
                format!(
                    "{} ≤ ν = {} ≤ {}",
                    short(self.outliers),
                    short(self.fit.nu),
                    short(self.fit.support_fraction())
                ),
            )
            .with_note("support vectors"),
            Fact::data("outlier_fraction", self.outliers),
            Fact::data("support_fraction", self.fit.support_fraction()),
            Fact::new(
                "support_vectors",
                "support vectors",
                self.fit.support.len() as f64,
            )
            .inside(),
            Fact::new("rho", "ρ =", self.fit.rho).inside(),
            Fact::new("iterations", "iterations", self.fit.iterations as f64).inside(),
        ]
    }

    fn facts_at(&self, x: Point) -> Vec<Fact> {
        vec![Fact::new("decision", "f(x) =", self.fit.decision(x))]
    }

    fn point_facts(&self, index: usize, _data: &Dataset) -> Vec<Fact> {
        vec![Fact::new("alpha", "α =", self.fit.alpha[index])]
    }

    fn margin(&self, _index: usize, _data: &Dataset) -> Option<f64> {
        None
    }

    fn one_class(&self) -> Option<crate::methods::capabilities::OneClassDual<'_>> {
        Some(self.fit.dual())
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The registry entry of the one-class SVM.
pub struct OneClassMethod;

impl Method for OneClassMethod {
    fn id(&self) -> &'static str {
        "oneclass"
    }

    fn task(&self) -> Task {
        Task::Novelty
    }

    fn title(&self) -> &'static str {
        "one-class SVM"
    }

    fn svm_type(&self) -> Option<u8> {
        Some(2)
    }

    fn explain(&self) -> &'static str {
        "Schölkopf's one-class SVM: f(x) = Σ αᵢK(xᵢ, x) − ρ is positive on a region holding most of the points; at most a fraction ν of them fall outside it, and at least ν are support vectors."
    }

    fn params(&self) -> &'static [&'static str] {
        &["kernel", "kexpr", "nu", "gamma", "degree", "coef0", "tol"]
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["nu", "gamma"]
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let mut own = None;
        let cache = KeptColumns::cache(options.warm, &mut own);
        let fit = fit_one_class_with(
            cache,
            &data.points,
            kernel_of(values)?,
            values.real("nu"),
            values.real("tol"),
            options.max_iter.unwrap_or(MAX_ITER),
        )?;
        let outliers = fit.training_outlier_fraction();
        let label = [data.labels.first().copied().unwrap_or(0)];
        Ok(Box::new(Novelty {
            fit,
            label,
            outliers,
        }))
    }

    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(KeptColumns::default()))
    }

    fn sklearn(&self, values: &Values, _data: &Dataset) -> Counterpart {
        let (nu, tol) = (values.real("nu"), values.real("tol"));
        let svm = Estimator::sklearn("sklearn.svm", "OneClassSVM")
            .arg("nu", nu)
            .arg("tol", tol);
        let (svm, kernel_lines) = kernel_args(svm, values, self.params());
        Counterpart::same(vec![svm], Multiclass::Otherwise)
            .map(
                "nu",
                format!(
                    "{} → nu={}: at most a fraction ν of the points outside, at least ν support \
                     vectors",
                    shown(values, "nu"),
                    python_float(nu)
                ),
            )
            .map_all(vec![libsvm_tol(values)])
            .map_all(kernel_lines)
    }
}

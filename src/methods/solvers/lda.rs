//! Linear discriminant analysis: Gaussian classes that share one covariance Σ, so the log
//! posterior ratios, and hence the boundaries, are linear in x.
//!
//! Fitted, as scikit-learn's `LinearDiscriminantAnalysis()` (solver "svd", priors = class
//! frequencies), by maximum likelihood:
//!
//! ```text
//!     π_k = n_k / n,    μ_k = (1/n_k) Σ_{i∈k} x_i,
//!     Σ   = (1/n) Σ_k Σ_{i∈k} (x_i − μ_k)(x_i − μ_k)ᵀ  =  Σ_k π_k Σ̂_k,
//! ```
//!
//! the pooled within-class covariance with denominator n, i.e. the class-frequency-weighted
//! mean of the biased per-class covariances Σ̂_k = S_k / n_k. This is what scikit-learn 1.9
//! stores as `covariance_` and what its svd solver predicts with (checked against
//! `predict_proba` by `tests/fixtures/make_gaussian_fixtures.py`). The textbook estimator
//! with denominator n − K (ESL §4.3; scikit-learn before its PR #33626) gives a slightly
//! wider Σ and posteriors that differ by up to 10⁻² on the fixtures.
//!
//! The log scores are the linear discriminant functions
//!
//! ```text
//!     δ_k(x) = μ_kᵀ Σ⁻¹ x − ½ μ_kᵀ Σ⁻¹ μ_k + log π_k,
//! ```
//!
//! which differ from log π_k + log N(x; μ_k, Σ) by −log 2π − ½ log|Σ| − ½ xᵀΣ⁻¹x, a term
//! the same for every class, so the softmax of δ is the posterior p(k | x). With two classes
//! the log-odds is linear:
//!
//! ```text
//!     log p(c₁|x) − log p(c₀|x) = wᵀx + b,    w = Σ⁻¹(μ₁ − μ₀),
//!     b = −½ (μ₁ᵀΣ⁻¹μ₁ − μ₀ᵀΣ⁻¹μ₀) + log(π₁/π₀).
//! ```
//!
//! Σ must be invertible: if within every class the points lie on parallel lines (or coincide),
//! the fit says so instead of dividing by zero (scikit-learn quietly drops the flat direction).

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::params::Values;
use crate::core::sklearn::{Counterpart, Estimator, Multiclass};
use crate::methods::model::{Fact, FitOptions, Method, Model};
use crate::methods::solvers::gaussian::{
    self, matrix_text, ClassStatistics, GaussianClassifier, Matrix2,
};

/// A fitted linear discriminant analysis; every list follows `classes` (ascending labels).
#[derive(Clone, Debug, PartialEq)]
pub struct Lda {
    pub classes: Vec<i32>,
    /// π_k = n_k / n.
    pub priors: Vec<f64>,
    /// μ_k.
    pub means: Vec<Point>,
    /// The shared (pooled within-class) covariance Σ, denominator n.
    pub covariance: Matrix2,
}

impl Lda {
    pub fn fit(points: &[Point], labels: &[i32]) -> Result<Lda, Error> {
        let stats = ClassStatistics::of(points, labels)?;
        let within = stats
            .scatters
            .iter()
            .fold([[0.0; 2]; 2], |sum, &s| gaussian::add(sum, s));
        let covariance = gaussian::scale(within, 1.0 / points.len() as f64);
        if !gaussian::is_positive_definite(covariance) {
            let classes = gaussian::list_classes(&stats.classes);
            return Err(Error::Parameter(if gaussian::has_no_spread(covariance) {
                format!(
                    "LDA needs spread within a class, but the points of {classes} each sit at \
                     one spot: add a point to a class, away from the others"
                )
            } else {
                format!(
                    "LDA's shared covariance is singular: the points of {classes} each lie on \
                     a line, all in the same direction; move a point off its line"
                )
            }));
        }
        Ok(Lda {
            classes: stats.classes,
            priors: stats.priors,
            means: stats.means,
            covariance,
        })
    }

    /// Σ⁻¹; the fit made sure it exists.
    fn precision(&self) -> Matrix2 {
        gaussian::inverse(self.covariance).unwrap_or([[0.0; 2]; 2])
    }

    /// δ_k(x) for each class in `classes` order, into `out` (one slot per class).
    pub fn log_scores(&self, x: Point, out: &mut [f64]) {
        debug_assert_eq!(out.len(), self.classes.len());
        let precision = self.precision();
        for ((o, &mean), &prior) in out.iter_mut().zip(&self.means).zip(&self.priors) {
            // δ_k = (Σ⁻¹μ_k)ᵀ(x − μ_k/2) + log π_k.
            let a = gaussian::apply(precision, mean);
            *o = a[0] * (x[0] - 0.5 * mean[0]) + a[1] * (x[1] - 0.5 * mean[1]) + prior.ln();
        }
    }

    /// (w, b) with the log-odds f(x) = wᵀx + b, when there are exactly two classes.
    pub fn linear(&self) -> Option<([f64; 2], f64)> {
        let ([m0, m1], [p0, p1]) = (self.means.as_slice(), self.priors.as_slice()) else {
            return None;
        };
        let precision = self.precision();
        let (a0, a1) = (
            gaussian::apply(precision, *m0),
            gaussian::apply(precision, *m1),
        );
        let w = [a1[0] - a0[0], a1[1] - a0[1]];
        let quadratic = |a: Point, m: Point| a[0] * m[0] + a[1] * m[1];
        let b = -0.5 * (quadratic(a1, *m1) - quadratic(a0, *m0)) + (p1 / p0).ln();
        Some((w, b))
    }
}

impl GaussianClassifier for Lda {
    fn classes(&self) -> &[i32] {
        &self.classes
    }
    fn priors(&self) -> &[f64] {
        &self.priors
    }
    fn means(&self) -> &[Point] {
        &self.means
    }
    fn covariance(&self, _k: usize) -> Matrix2 {
        self.covariance
    }
    fn log_scores(&self, x: Point, out: &mut [f64]) {
        Lda::log_scores(self, x, out)
    }
    fn own_facts(&self) -> Vec<Fact> {
        let mut facts = vec![
            Fact::new(
                "shared_covariance",
                "shared Σ =",
                matrix_text(self.covariance),
            )
            .inside(),
            Fact::data(
                "covariances",
                self.covariance
                    .iter()
                    .map(|r| r.to_vec())
                    .collect::<Vec<_>>(),
            ),
        ];
        if let Some((w, b)) = self.linear() {
            facts.push(Fact::new("w", "w =", w));
            facts.push(Fact::new("bias", "b =", b));
        }
        facts
    }
}

/// The registry entry: linear discriminant analysis, natively multi-class.
pub struct LdaMethod;

impl Method for LdaMethod {
    fn id(&self) -> &'static str {
        "lda"
    }

    fn title(&self) -> &'static str {
        "linear discriminant (LDA)"
    }

    fn explain(&self) -> &'static str {
        "Fits a Gaussian to each class with one covariance shared by all, which makes every boundary a straight line."
    }

    fn params(&self) -> &'static [&'static str] {
        &[]
    }

    fn native_multiclass(&self, _values: &Values) -> bool {
        true
    }

    fn fit(
        &self,
        _values: &Values,
        data: &Dataset,
        _options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        Ok(Box::new(Lda::fit(&data.points, &data.labels)?))
    }

    /// scikit-learn's LDA with its defaults: priors the class frequencies, the class means
    /// and one shared covariance, every class at once.
    fn sklearn(&self, _values: &Values, _data: &Dataset) -> Counterpart {
        let lda = Estimator::sklearn(
            "sklearn.discriminant_analysis",
            "LinearDiscriminantAnalysis",
        );
        Counterpart::same(vec![lda], Multiclass::Otherwise).map(
            "",
            "LinearDiscriminantAnalysis() with its defaults: priors the class frequencies, \
             Σ shared by the classes (divisor n). scikit-learn ≥ 1.9 estimates the covariances by maximum likelihood, as the lab \
                 does; earlier versions divide by n − K, which moves the boundary a little",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;
    use crate::methods::model::Model;

    #[test]
    fn the_shared_covariance_is_the_pooled_maximum_likelihood_one() {
        // Class 0: deviations (±1, 0) and (0, ±2); class 1: (±3, ±3) on a diagonal.
        let points = [
            [-1.0, 0.0],
            [1.0, 0.0],
            [0.0, -2.0],
            [0.0, 2.0],
            [2.0, 2.0],
            [8.0, 8.0],
        ];
        let lda = Lda::fit(&points, &[0, 0, 0, 0, 1, 1]).unwrap();
        // S₀ = [[2, 0], [0, 8]], S₁ = [[18, 18], [18, 18]], n = 6.
        let want = [[20.0 / 6.0, 3.0], [3.0, 26.0 / 6.0]];
        for (got, want) in lda.covariance.iter().flatten().zip(want.iter().flatten()) {
            assert!((got - want).abs() < 1e-15, "{got} vs {want}");
        }
        assert_eq!(lda.priors, [4.0 / 6.0, 2.0 / 6.0]);
        assert_eq!(lda.means, [[0.0, 0.0], [5.0, 5.0]]);
    }

    #[test]
    fn two_class_decision_is_the_linear_function() {
        let data = Preset::Overlapping.generate(60, 0.4, 3);
        let lda = Lda::fit(&data.points, &data.labels).unwrap();
        let (w, b) = lda.linear().unwrap();
        let line = |x: Point| w[0] * x[0] + w[1] * x[1] + b;
        for x in [[0.0, 0.0], [0.7, -0.3], [-1.2, 1.1], [15.0, -40.0]] {
            let d = lda.decision_value(x);
            assert!(
                (d - line(x)).abs() < 1e-12 * d.abs().max(1.0),
                "{d} vs {}",
                line(x)
            );
        }
        // Exactly linear: the value at a midpoint is the mean of the values at the ends.
        let (p, q) = ([0.3, -0.8], [-0.9, 0.4]);
        let mid = [(p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0];
        assert!(
            (lda.decision_value(mid) - (lda.decision_value(p) + lda.decision_value(q)) / 2.0).abs()
                < 1e-13
        );
        // And it is the log-odds of the posterior.
        let x = [0.1, 0.2];
        let prob = lda.probabilities(x).unwrap();
        assert!((lda.decision_value(x) - (prob[1] / prob[0]).ln()).abs() < 1e-12);
        assert_eq!(
            lda.predict(x),
            if lda.decision_value(x) > 0.0 { 1 } else { 0 }
        );
    }

    #[test]
    fn scores_are_log_joint_densities_up_to_a_common_constant() {
        let data = Preset::Blobs3.generate(45, 0.6, 8);
        let lda = Lda::fit(&data.points, &data.labels).unwrap();
        assert!(lda.linear().is_none());
        let mut scores = [0.0; 3];
        for x in [[0.0, 0.0], [0.9, -0.4], [-0.5, 0.8]] {
            lda.log_scores(x, &mut scores);
            let joint: Vec<f64> = (0..3)
                .map(|k| {
                    lda.priors[k].ln() + gaussian::log_density(x, lda.means[k], lda.covariance)
                })
                .collect();
            let offset = joint[0] - scores[0];
            for k in 1..3 {
                assert!((joint[k] - scores[k] - offset).abs() < 1e-12);
            }
            let p = lda.probabilities(x).unwrap();
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-15);
            let best = (0..3).max_by(|&i, &j| p[i].total_cmp(&p[j])).unwrap();
            assert_eq!(lda.predict(x), lda.classes[best]);
        }
    }

    #[test]
    fn labels_are_only_names() {
        let data = Preset::Blobs3.generate(30, 0.5, 2);
        let renamed: Vec<i32> = data
            .labels
            .iter()
            .map(|l| [-4, 2, 9][*l as usize])
            .collect();
        let a = Lda::fit(&data.points, &data.labels).unwrap();
        let b = Lda::fit(&data.points, &renamed).unwrap();
        assert_eq!(b.classes, [-4, 2, 9]);
        assert_eq!(
            a.probabilities([0.2, 0.1]).unwrap(),
            b.probabilities([0.2, 0.1]).unwrap()
        );
        assert_eq!(
            b.predict([0.2, 0.1]),
            [-4, 2, 9][a.predict([0.2, 0.1]) as usize]
        );
    }

    #[test]
    fn a_singular_shared_covariance_is_explained() {
        // Both classes on vertical lines: no spread along x₁ within any class.
        let points = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 0.5], [1.0, 2.0]];
        let err = Lda::fit(&points, &[0, 0, 1, 1, 1]).unwrap_err().to_string();
        assert!(err.contains("class 1 and class 2"), "{err}");
        assert!(err.contains("move a point off its line"), "{err}");
        // One point per class.
        let err = Lda::fit(&points[1..3], &[0, 1]).unwrap_err().to_string();
        assert!(err.contains("each sit at one spot: add a point"), "{err}");
        // One class with spread is enough.
        assert!(Lda::fit(
            &[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [5.0, 5.0]],
            &[0, 0, 0, 1]
        )
        .is_ok());
    }

    #[test]
    fn fit_rejects_too_little_data() {
        assert_eq!(Lda::fit(&[[0.0, 0.0]], &[0]), Err(Error::TooFewPoints));
        assert_eq!(
            Lda::fit(&[[0.0, 0.0], [1.0, 1.0]], &[3, 3]),
            Err(Error::OneClass)
        );
    }
}

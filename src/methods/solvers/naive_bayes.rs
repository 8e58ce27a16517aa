//! Gaussian naive Bayes: within each class the two coordinates are taken as independent, so each
//! class is a Gaussian with a diagonal covariance diag(σ²_k1, σ²_k2) — axis-aligned ellipses,
//! and boundaries that are quadratic but cannot tilt with the data.
//!
//! Fitted as scikit-learn's `GaussianNB()` (priors = class frequencies, var_smoothing = 10⁻⁹):
//!
//! ```text
//!     π_k   = n_k / n,    μ_kj = (1/n_k) Σ_{i∈k} x_ij,
//!     σ²_kj = (1/n_k) Σ_{i∈k} (x_ij − μ_kj)²  +  ε,
//!     ε     = 10⁻⁹ · max_j (1/n) Σ_i (x_ij − x̄_j)²,
//! ```
//!
//! the biased per-class variances plus ε, a billionth of the largest per-coordinate variance of
//! all the data (with no class distinction). ε keeps a class whose points share a coordinate
//! (all at the same x₁, say) usable: its variance there is ε, a very narrow but proper density.
//! Only when all the data sit at one spot is ε = 0, and the fit refuses.
//!
//! The log scores are the log joint densities, as scikit-learn's `predict_joint_log_proba`:
//!
//! ```text
//!     s_k(x) = log π_k − ½ Σ_j log(2π σ²_kj) − ½ Σ_j (x_j − μ_kj)² / σ²_kj,
//! ```
//!
//! and p(k | x) is their softmax.

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::params::Values;
use crate::core::sklearn::{Counterpart, Estimator, Multiclass};
use crate::methods::model::{Fact, FitOptions, Method, Model};
use crate::methods::solvers::gaussian::{self, ClassStatistics, GaussianClassifier, Matrix2};

/// ε as a fraction of the largest variance of the data (scikit-learn's `var_smoothing`).
pub const VAR_SMOOTHING: f64 = 1e-9;

/// A fitted Gaussian naive Bayes; every list follows `classes` (ascending labels).
#[derive(Clone, Debug, PartialEq)]
pub struct GaussianNb {
    pub classes: Vec<i32>,
    /// π_k = n_k / n.
    pub priors: Vec<f64>,
    /// μ_k.
    pub means: Vec<Point>,
    /// (σ²_k1, σ²_k2), ε included.
    pub variances: Vec<[f64; 2]>,
    /// ε, added to every variance.
    pub epsilon: f64,
}

impl GaussianNb {
    pub fn fit(points: &[Point], labels: &[i32]) -> Result<GaussianNb, Error> {
        let stats = ClassStatistics::of(points, labels)?;
        let n = points.len() as f64;
        let centre = points
            .iter()
            .fold([0.0; 2], |s, x| [s[0] + x[0], s[1] + x[1]])
            .map(|s| s / n);
        let spread = points.iter().fold([0.0; 2], |s, x| {
            [
                s[0] + (x[0] - centre[0]).powi(2),
                s[1] + (x[1] - centre[1]).powi(2),
            ]
        });
        let epsilon = VAR_SMOOTHING * (spread[0] / n).max(spread[1] / n);
        let variances: Vec<[f64; 2]> = stats
            .scatters
            .iter()
            .zip(&stats.counts)
            .map(|(s, &m)| [s[0][0] / m as f64 + epsilon, s[1][1] / m as f64 + epsilon])
            .collect();
        if variances.iter().flatten().any(|&v| v <= 0.0) {
            let classes = gaussian::list_classes(&stats.classes);
            return Err(Error::Parameter(format!(
                "naive Bayes needs spread, but all the points of {classes} sit at one spot: \
                 move one of them"
            )));
        }
        Ok(GaussianNb {
            classes: stats.classes,
            priors: stats.priors,
            means: stats.means,
            variances,
            epsilon,
        })
    }

    /// s_k(x) = log π_k + Σ_j log N(x_j; μ_kj, σ²_kj) for each class in `classes` order, into
    /// `out` (one slot per class).
    pub fn log_scores(&self, x: Point, out: &mut [f64]) {
        debug_assert_eq!(out.len(), self.classes.len());
        let tau = std::f64::consts::TAU;
        let classes = self.priors.iter().zip(&self.means).zip(&self.variances);
        for (o, ((&prior, mean), var)) in out.iter_mut().zip(classes) {
            let mut s = prior.ln();
            for j in 0..2 {
                s -= 0.5 * (tau * var[j]).ln() + 0.5 * (x[j] - mean[j]).powi(2) / var[j];
            }
            *o = s;
        }
    }
}

impl GaussianClassifier for GaussianNb {
    fn classes(&self) -> &[i32] {
        &self.classes
    }
    fn priors(&self) -> &[f64] {
        &self.priors
    }
    fn means(&self) -> &[Point] {
        &self.means
    }
    /// Diagonal: the features are independent given the class.
    fn covariance(&self, k: usize) -> Matrix2 {
        let [a, b] = self.variances[k];
        [[a, 0.0], [0.0, b]]
    }
    fn log_scores(&self, x: Point, out: &mut [f64]) {
        GaussianNb::log_scores(self, x, out)
    }
    fn own_facts(&self) -> Vec<Fact> {
        vec![
            Fact::new("epsilon", "ε =", self.epsilon).inside(),
            Fact::data("covariances", self.variances.clone()),
        ]
    }
}

/// The registry entry: Gaussian naive Bayes, natively multi-class.
pub struct NaiveBayesMethod;

impl Method for NaiveBayesMethod {
    fn id(&self) -> &'static str {
        "nb"
    }

    fn title(&self) -> &'static str {
        "Gaussian naive Bayes"
    }

    fn explain(&self) -> &'static str {
        "Fits a Gaussian with a diagonal covariance to each class, as if the two features were independent within a class: its ellipses are aligned with the axes."
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
        Ok(Box::new(GaussianNb::fit(&data.points, &data.labels)?))
    }

    /// `GaussianNB` with its default smoothing, which the lab's ε copies.
    fn sklearn(&self, _values: &Values, _data: &Dataset) -> Counterpart {
        let nb = Estimator::sklearn("sklearn.naive_bayes", "GaussianNB");
        Counterpart::same(vec![nb], Multiclass::Otherwise).map(
            "",
            "GaussianNB() with its defaults: priors the class frequencies, a variance per \
             class and feature (divisor nₖ), each plus ε = 10⁻⁹ × the largest variance of a \
             feature over all the points (var_smoothing=1e-9), as the lab",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;
    use crate::methods::model::Model;
    use crate::methods::solvers::qda::{Qda, QdaParams};

    #[test]
    fn variances_are_biased_plus_a_billionth_of_the_largest_data_variance() {
        // x₁ over all points: 0, 2, 0, 2, 10, 10 (mean 4) has the larger variance.
        let points = [
            [0.0, 0.0],
            [2.0, 0.0],
            [0.0, 4.0],
            [2.0, 4.0],
            [10.0, 1.0],
            [10.0, 3.0],
        ];
        let nb = GaussianNb::fit(&points, &[0, 0, 0, 0, 1, 1]).unwrap();
        let var_x1 = (16.0 + 4.0 + 16.0 + 4.0 + 36.0 + 36.0) / 6.0;
        let var_x2 = (4.0 + 4.0 + 4.0 + 4.0 + 1.0 + 1.0) / 6.0;
        assert!(var_x1 > var_x2);
        assert!((nb.epsilon - 1e-9 * var_x1).abs() < 1e-24);
        assert_eq!(nb.variances[0], [1.0 + nb.epsilon, 4.0 + nb.epsilon]);
        // Class 2 has both points at x₁ = 10: its variance there is ε alone, and still usable.
        assert_eq!(nb.variances[1], [nb.epsilon, 1.0 + nb.epsilon]);
        let p = nb.probabilities([10.0, 2.0]).unwrap();
        assert!(p[1] > 0.999 && (p[0] + p[1] - 1.0).abs() < 1e-15);
        // So narrow that 0.01 off its line class 1 gives way.
        assert_eq!(nb.predict([10.01, 2.0]), 0);
        assert_eq!(nb.priors, [4.0 / 6.0, 2.0 / 6.0]);
    }

    #[test]
    fn scores_are_log_joint_densities_with_diagonal_covariances() {
        let data = Preset::Blobs3.generate(45, 0.6, 3);
        let nb = GaussianNb::fit(&data.points, &data.labels).unwrap();
        let mut scores = [0.0; 3];
        let x = [0.25, -0.6];
        nb.log_scores(x, &mut scores);
        for (k, score) in scores.iter().enumerate() {
            let [v1, v2] = nb.variances[k];
            let cov = [[v1, 0.0], [0.0, v2]];
            let want = nb.priors[k].ln() + gaussian::log_density(x, nb.means[k], cov);
            assert!((score - want).abs() < 1e-12);
        }
        let p = nb.probabilities(x).unwrap();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn uncorrelated_classes_give_qda() {
        // Each class symmetric about its mean along both axes: zero correlation, so QDA's
        // covariances are diagonal too and only ε (10⁻⁹ relative) tells the two apart.
        let cross = [[-0.3, 0.0], [0.3, 0.0], [0.0, -0.1], [0.0, 0.1]];
        let mut points: Vec<Point> = cross.to_vec();
        points.extend(cross.iter().map(|p| [0.5 + 0.5 * p[0], 0.2 + 3.0 * p[1]]));
        let labels = [0, 0, 0, 0, 1, 1, 1, 1];
        let nb = GaussianNb::fit(&points, &labels).unwrap();
        let qda = Qda::fit(&points, &labels, &QdaParams::default()).unwrap();
        for x in [[0.0, 0.0], [0.25, 0.1], [0.6, -0.3]] {
            let (a, b) = (nb.probabilities(x).unwrap(), qda.probabilities(x).unwrap());
            assert!((a[1] - b[1]).abs() < 1e-7, "{a:?} vs {b:?}");
            assert!((nb.decision_value(x) - qda.decision_value(x)).abs() < 1e-6);
        }
    }

    #[test]
    fn data_at_one_spot_is_refused() {
        let err = GaussianNb::fit(&[[1.0, 1.0], [1.0, 1.0]], &[0, 1])
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "naive Bayes needs spread, but all the points of class 1 and class 2 sit at one \
             spot: move one of them"
        );
        assert_eq!(
            GaussianNb::fit(&[[0.0, 0.0], [1.0, 0.0]], &[1, 1]),
            Err(Error::OneClass)
        );
        let seven: Vec<Point> = (0..7).map(|i| [i as f64, 0.0]).collect();
        assert_eq!(
            GaussianNb::fit(&seven, &[0, 1, 2, 3, 4, 5, 6]),
            Err(Error::TooManyClasses { found: 7, max: 6 })
        );
    }
}

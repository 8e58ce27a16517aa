//! Quadratic discriminant analysis: each class its own Gaussian N(μ_k, Σ_k), so the log
//! posterior ratios, and hence the boundaries, are quadratic in x (conics in the plane).
//!
//! Fitted, as scikit-learn's `QuadraticDiscriminantAnalysis(reg_param=reg)` (solver "svd",
//! priors = class frequencies), by maximum likelihood and then shrunk towards the identity:
//!
//! ```text
//!     π_k = n_k / n,    μ_k = (1/n_k) Σ_{i∈k} x_i,
//!     Σ_k = (1 − reg) · (1/n_k) Σ_{i∈k} (x_i − μ_k)(x_i − μ_k)ᵀ  +  reg · I,    0 ≤ reg ≤ 1.
//! ```
//!
//! The per-class covariance has denominator n_k (the biased estimate): scikit-learn 1.9 uses
//! it both in `covariance_` (`store_covariance=True`, regularised as above) and in
//! `predict_proba`, which `tests/fixtures/make_gaussian_fixtures.py` checks. The unbiased
//! n_k − 1 of earlier scikit-learn (before its PR #33626) moves the fixture posteriors by up
//! to 0.15. reg = 1 gives every class the identity covariance (a nearest-mean rule with
//! priors); reg > 0 makes a class whose points lie on a line usable.
//!
//! The log scores are the log joint densities
//!
//! ```text
//!     s_k(x) = log π_k − log 2π − ½ log|Σ_k| − ½ (x − μ_k)ᵀ Σ_k⁻¹ (x − μ_k),
//! ```
//!
//! and p(k | x) is their softmax. A class with a single point has no covariance to estimate
//! and is refused (as scikit-learn does), whatever reg; so is a singular Σ_k.

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::params::Values;
use crate::core::params::{model_row, Kind, Param};
use crate::core::sklearn::{python_float, shown, Counterpart, Estimator, Multiclass};
use crate::methods::model::{Fact, FitOptions, Method, Model};
use crate::methods::solvers::gaussian::{self, ClassStatistics, GaussianClassifier, Matrix2};

/// QDA's one parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QdaParams {
    /// The shrinkage of each class covariance towards the identity, in [0, 1]; default 0.
    pub reg: f64,
}

impl Default for QdaParams {
    fn default() -> Self {
        QdaParams { reg: 0.0 }
    }
}

impl QdaParams {
    pub fn check(&self) -> Result<(), Error> {
        if !(self.reg.is_finite() && (0.0..=1.0).contains(&self.reg)) {
            return Err(Error::Parameter("reg must be between 0 and 1".into()));
        }
        Ok(())
    }
}

/// A fitted quadratic discriminant analysis; every list follows `classes` (ascending labels).
#[derive(Clone, Debug, PartialEq)]
pub struct Qda {
    pub classes: Vec<i32>,
    /// π_k = n_k / n.
    pub priors: Vec<f64>,
    /// μ_k.
    pub means: Vec<Point>,
    /// Σ_k, regularised.
    pub covariances: Vec<Matrix2>,
    pub reg: f64,
}

impl Qda {
    pub fn fit(points: &[Point], labels: &[i32], params: &QdaParams) -> Result<Qda, Error> {
        params.check()?;
        let stats = ClassStatistics::of(points, labels)?;
        let reg = params.reg;
        let mut covariances = Vec::with_capacity(stats.classes.len());
        for ((&label, &count), &scatter) in
            stats.classes.iter().zip(&stats.counts).zip(&stats.scatters)
        {
            let name = gaussian::class_name(label);
            if count < 2 {
                return Err(Error::Parameter(format!(
                    "{name} has a single point: QDA needs at least two points per class to \
                     estimate its covariance"
                )));
            }
            let covariance = gaussian::add(
                gaussian::scale(scatter, (1.0 - reg) / count as f64),
                [[reg, 0.0], [0.0, reg]],
            );
            if !gaussian::is_positive_definite(covariance) {
                let why = if gaussian::has_no_spread(covariance) {
                    "all its points sit at one spot"
                } else {
                    "its points lie on a line"
                };
                return Err(Error::Parameter(format!(
                    "the covariance of {name} is singular because {why}: raise reg \
                     (now {reg}) or move a point of {name}"
                )));
            }
            covariances.push(covariance);
        }
        Ok(Qda {
            classes: stats.classes,
            priors: stats.priors,
            means: stats.means,
            covariances,
            reg,
        })
    }

    /// s_k(x) = log π_k + log N(x; μ_k, Σ_k) for each class in `classes` order, into `out` (one
    /// slot per class).
    pub fn log_scores(&self, x: Point, out: &mut [f64]) {
        debug_assert_eq!(out.len(), self.classes.len());
        let classes = self.priors.iter().zip(&self.means).zip(&self.covariances);
        for (o, ((&prior, &mean), &covariance)) in out.iter_mut().zip(classes) {
            *o = prior.ln() + gaussian::log_density(x, mean, covariance);
        }
    }
}

impl GaussianClassifier for Qda {
    fn classes(&self) -> &[i32] {
        &self.classes
    }
    fn priors(&self) -> &[f64] {
        &self.priors
    }
    fn means(&self) -> &[Point] {
        &self.means
    }
    fn covariance(&self, k: usize) -> Matrix2 {
        self.covariances[k]
    }
    fn log_scores(&self, x: Point, out: &mut [f64]) {
        Qda::log_scores(self, x, out)
    }
    fn own_facts(&self) -> Vec<Fact> {
        vec![
            Fact::new("reg", "reg =", self.reg).inside(),
            Fact::data("covariances", self.covariances.clone()),
        ]
    }
}

/// The registry entry: quadratic discriminant analysis, natively multi-class.
pub struct QdaMethod;

impl Method for QdaMethod {
    fn rows(&self) -> &'static [crate::core::params::Param] {
        ROWS
    }

    fn id(&self) -> &'static str {
        "qda"
    }

    fn title(&self) -> &'static str {
        "quadratic discriminant (QDA)"
    }

    fn explain(&self) -> &'static str {
        "Fits a Gaussian with its own covariance to each class, which makes the boundaries quadratic curves."
    }

    fn params(&self) -> &'static [&'static str] {
        &["reg"]
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["reg"]
    }

    fn native_multiclass(&self, _values: &Values) -> bool {
        true
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        _options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let params = QdaParams {
            reg: values.real("reg"),
        };
        Ok(Box::new(Qda::fit(&data.points, &data.labels, &params)?))
    }

    /// scikit-learn's QDA: a covariance per class, shrunk by `reg_param` as the lab's `reg`.
    fn sklearn(&self, values: &Values, _data: &Dataset) -> Counterpart {
        let reg = values.real("reg");
        let qda = Estimator::sklearn(
            "sklearn.discriminant_analysis",
            "QuadraticDiscriminantAnalysis",
        )
        .arg("reg_param", reg);
        Counterpart::same(vec![qda], Multiclass::Otherwise)
            .map(
                "reg",
                format!(
                    "{} → reg_param={}: Σₖ ← (1 − reg)Σₖ + reg·I in both",
                    shown(values, "reg"),
                    python_float(reg)
                ),
            )
            .map(
                "",
                "priors the class frequencies, a covariance per class (divisor nₖ). scikit-learn ≥ 1.9 estimates the covariances by maximum likelihood, as the lab \
                 does; earlier versions divide by nₖ − 1, which moves the boundary a little",
            )
    }
}

/// QDA's row: the shrinkage of each class's covariance.
pub static ROWS: &[Param] = &[REG_ROW];

pub const REG_ROW: Param = Param {
    hint: "Σ_k ← (1 − reg)Σ_k + reg·I",
    ..model_row(
        "reg",
        "reg",
        Kind::Slider {
            min: 0.0,
            max: 1.0,
            lo: 0.0,
            hi: 1.0,
            step: 0.01,
        },
        "0",
        "Shrinks each class's covariance towards the identity, Σₖ ← (1 − reg)Σₖ + reg·I, so \
         a class of few or collinear points still has a usable Gaussian.",
    )
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;
    use crate::methods::model::Model;
    use crate::methods::solvers::lda::Lda;

    fn fit(points: &[Point], labels: &[i32], reg: f64) -> Result<Qda, Error> {
        Qda::fit(points, labels, &QdaParams { reg })
    }

    #[test]
    fn class_covariances_are_biased_and_shrunk_towards_the_identity() {
        // Class 0 at the corners of a 2 × 4 rectangle: S₀/n₀ = diag(1, 4). Class 1: deviations
        // (−1, −1), (1, −1), (0, 2), so S₁/n₁ = diag(2/3, 2).
        let points = [
            [0.0, 0.0],
            [2.0, 0.0],
            [0.0, 4.0],
            [2.0, 4.0],
            [5.0, 5.0],
            [7.0, 5.0],
            [6.0, 8.0],
        ];
        let labels = [0, 0, 0, 0, 1, 1, 1];
        let qda = fit(&points, &labels, 0.0).unwrap();
        assert_eq!(qda.covariances[0], [[1.0, 0.0], [0.0, 4.0]]);
        let c = qda.covariances[1];
        assert!((c[0][0] - 2.0 / 3.0).abs() < 1e-15 && c[0][1] == 0.0 && c[1][1] == 2.0);
        assert_eq!(qda.priors, [4.0 / 7.0, 3.0 / 7.0]);
        let shrunk = fit(&points, &labels, 0.5).unwrap();
        assert_eq!(shrunk.covariances[0], [[1.0, 0.0], [0.0, 2.5]]);
        assert_eq!(shrunk.reg, 0.5);
    }

    #[test]
    fn reg_one_gives_identity_covariances() {
        let data = Preset::Blobs3.generate(30, 0.5, 5);
        let qda = fit(&data.points, &data.labels, 1.0).unwrap();
        for c in &qda.covariances {
            assert_eq!(*c, [[1.0, 0.0], [0.0, 1.0]]);
        }
        // Then only the distance to the means and the priors decide.
        let x = [0.2, -0.3];
        let mut scores = [0.0; 3];
        qda.log_scores(x, &mut scores);
        for (k, score) in scores.iter().enumerate() {
            let [mx, my] = qda.means[k];
            let d2 = (x[0] - mx).powi(2) + (x[1] - my).powi(2);
            let want = qda.priors[k].ln() - (2.0 * std::f64::consts::PI).ln() - 0.5 * d2;
            assert!((score - want).abs() < 1e-14);
        }
    }

    #[test]
    fn reg_blends_linearly() {
        let data = Preset::Overlapping.generate(40, 0.5, 6);
        let plain = fit(&data.points, &data.labels, 0.0).unwrap();
        let shrunk = fit(&data.points, &data.labels, 0.3).unwrap();
        for (p, s) in plain.covariances.iter().zip(&shrunk.covariances) {
            for i in 0..2 {
                for j in 0..2 {
                    let want = 0.7 * p[i][j] + if i == j { 0.3 } else { 0.0 };
                    assert!((s[i][j] - want).abs() < 1e-15);
                }
            }
        }
    }

    #[test]
    fn equal_class_covariances_give_lda() {
        // Class 1 is class 0 moved: the same scatter, so Σ₀ = Σ₁ = the pooled Σ.
        let shape = [[0.0, 0.0], [0.4, 0.1], [0.1, 0.5], [-0.3, 0.2], [0.2, -0.4]];
        let mut points = shape.to_vec();
        points.extend(shape.iter().map(|p| [p[0] + 0.5, p[1] - 0.25]));
        let labels = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1];
        let qda = fit(&points, &labels, 0.0).unwrap();
        let lda = Lda::fit(&points, &labels).unwrap();
        for x in [[0.0, 0.0], [0.3, -0.1], [1.0, 1.0], [-0.6, 0.4]] {
            assert!((qda.decision_value(x) - lda.decision_value(x)).abs() < 1e-12);
            let (p, q) = (qda.probabilities(x).unwrap(), lda.probabilities(x).unwrap());
            assert!((p[0] - q[0]).abs() < 1e-14 && (p[1] - q[1]).abs() < 1e-14);
        }
    }

    #[test]
    fn posteriors_sum_to_one_and_decide_the_prediction() {
        let data = Preset::Spiral3.generate(60, 0.3, 1);
        let qda = fit(&data.points, &data.labels, 0.0).unwrap();
        for x in [[0.0, 0.0], [0.8, 0.1], [-0.4, -0.7], [30.0, -30.0]] {
            let p = qda.probabilities(x).unwrap();
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-15);
            assert!(p.iter().all(|v| v.is_finite()));
            let best = (0..3).max_by(|&i, &j| p[i].total_cmp(&p[j])).unwrap();
            assert_eq!(qda.predict(x), qda.classes[best]);
        }
        let two = Preset::Xor.generate(40, 0.3, 1);
        let qda = fit(&two.points, &two.labels, 0.0).unwrap();
        let x = [0.3, 0.1];
        let p = qda.probabilities(x).unwrap();
        assert!((qda.decision_value(x) - (p[1] / p[0]).ln()).abs() < 1e-12);
    }

    #[test]
    fn reg_is_checked() {
        for reg in [-0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert_eq!(
                QdaParams { reg }.check().unwrap_err().to_string(),
                "reg must be between 0 and 1"
            );
        }
        assert!(QdaParams::default().check().is_ok());
        assert_eq!(QdaParams::default().reg, 0.0);
        assert!(QdaParams { reg: 1.0 }.check().is_ok());
    }

    #[test]
    fn degenerate_classes_are_explained() {
        let blob = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
        // Class 2 is one point.
        let mut points = blob.to_vec();
        points.push([3.0, 3.0]);
        let err = fit(&points, &[0, 0, 0, 1], 0.5).unwrap_err().to_string();
        assert!(err.contains("class 2 has a single point"), "{err}");
        // Class 2 on a line: refused at reg 0, fine once regularised.
        points.extend([[4.0, 4.0], [5.0, 5.0]]);
        let labels = [0, 0, 0, 1, 1, 1];
        let err = fit(&points, &labels, 0.0).unwrap_err().to_string();
        assert!(err.contains("covariance of class 2"), "{err}");
        assert!(
            err.contains("on a line") && err.contains("raise reg"),
            "{err}"
        );
        assert!(fit(&points, &labels, 0.3).is_ok());
        // Class 1 piled on one spot.
        let pile = [[1.0, 1.0], [1.0, 1.0], [0.0, 0.0], [0.0, 1.0], [1.0, 0.0]];
        let err = fit(&pile, &[0, 0, 1, 1, 1], 0.0).unwrap_err().to_string();
        assert!(err.contains("class 1") && err.contains("one spot"), "{err}");
        assert_eq!(
            fit(&[[0.0, 0.0]], &[0], 0.0).unwrap_err(),
            Error::TooFewPoints
        );
    }
}

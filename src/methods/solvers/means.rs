//! The notes' basic linear classifier: the mean of each class,
//!
//! ```text
//!     m₋ = (1/n₋) Σ_{y_i = −1} x_i,      m₊ = (1/n₊) Σ_{y_i = +1} x_i,
//! ```
//!
//! and the boundary that bisects the segment m₋m₊ at right angles: x is given the class of
//! the nearer mean. With c = (m₊ + m₋)/2 the midpoint,
//!
//! ```text
//!     f(x) = ½‖x − m₋‖² − ½‖x − m₊‖² = wᵀx + b,   w = m₊ − m₋,   b = −wᵀc = −½(‖m₊‖² − ‖m₋‖²),
//! ```
//!
//! so f > 0 exactly where x is nearer m₊, f = 0 on the perpendicular bisector, and w is the
//! arrow from m₋ to m₊ (drawn as the w arrow). It is LDA with the covariance taken to be the
//! identity, and the SVM's answer when each class shrinks to its mean; comparing it with the
//! maximum-margin boundary shows what using every point, or only the support vectors, buys.
//! More classes go one-vs-one or one-vs-rest through the multi-class schemes like any two-class
//! method.

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::params::Values;
use crate::core::plane::Scene;
use crate::core::sklearn::{Counterpart, Estimator, Multiclass};
use crate::methods::marks;
use crate::methods::model::{Context, Fact, FitOptions, Level, Method, Model};
use crate::methods::solvers::gaussian;

/// A fitted nearest-mean classifier.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassMeans {
    /// The labels of the negative and the positive class.
    pub classes: [i32; 2],
    /// m₋ and m₊.
    pub means: [Point; 2],
    pub w: [f64; 2],
    pub bias: f64,
}

impl ClassMeans {
    pub fn fit(points: &[Point], labels: &[i32]) -> Result<ClassMeans, Error> {
        if points.len() != labels.len() {
            return Err(Error::Parameter(format!(
                "{} points but {} labels",
                points.len(),
                labels.len()
            )));
        }
        let data = Dataset::from_parts(points.to_vec(), labels.to_vec());
        let (classes, t) = data.binary_targets()?;
        let mut sums = [[0.0; 2]; 2];
        let mut counts = [0.0; 2];
        for (p, &t) in points.iter().zip(&t) {
            let k = usize::from(t > 0.0);
            sums[k][0] += p[0];
            sums[k][1] += p[1];
            counts[k] += 1.0;
        }
        let means = [0, 1].map(|k| [sums[k][0] / counts[k], sums[k][1] / counts[k]]);
        let w = [means[1][0] - means[0][0], means[1][1] - means[0][1]];
        let square = |m: Point| m[0] * m[0] + m[1] * m[1];
        let bias = -0.5 * (square(means[1]) - square(means[0]));
        if !(w.iter().all(|v| v.is_finite()) && bias.is_finite()) {
            return Err(Error::NotFinite {
                what: "the class means".into(),
            });
        }
        Ok(ClassMeans {
            classes,
            means,
            w,
            bias,
        })
    }

    /// f(x) = wᵀx + b; positive means nearer m₊ (`classes[1]`).
    pub fn decision(&self, x: Point) -> f64 {
        self.w[0] * x[0] + self.w[1] * x[1] + self.bias
    }
}

impl Model for ClassMeans {
    fn classes(&self) -> &[i32] {
        &self.classes
    }

    fn decision_value(&self, x: Point) -> f64 {
        self.decision(x)
    }

    fn levels(&self) -> Vec<Level> {
        vec![Level::boundary()]
    }

    /// The two means in their class colours and the arrow w from m₋ to m₊, which the boundary
    /// bisects at right angles.
    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        let at = self
            .classes
            .iter()
            .zip(&self.means)
            .enumerate()
            .map(|(k, (&label, &mean))| {
                let colour = context
                    .classes
                    .iter()
                    .position(|&c| c == label)
                    .unwrap_or(k);
                (mean, colour)
            });
        scene.decorations.push(gaussian::means(at.collect()));
        if context.layers.on("w") {
            let arrow = marks::arrow("w", self.means[0], self.means[1]);
            scene.decorations.push(arrow);
        }
    }

    fn facts(&self, _data: &Dataset) -> Vec<Fact> {
        vec![
            Fact::new("mean_negative", "m₋ =", self.means[0]),
            Fact::new("mean_positive", "m₊ =", self.means[1]),
            Fact::new("w", "w = m₊ − m₋ =", self.w),
            Fact::new("bias", "b =", self.bias),
        ]
    }

    fn point_facts(&self, i: usize, data: &Dataset) -> Vec<Fact> {
        let x = data.points[i];
        let distance = |m: Point| (x[0] - m[0]).hypot(x[1] - m[1]);
        vec![
            Fact::new("to_negative", "‖x − m₋‖ =", distance(self.means[0])),
            Fact::new("to_positive", "‖x − m₊‖ =", distance(self.means[1])),
        ]
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The registry entry: the class means and their bisector, one-vs-one or one-vs-rest for more
/// classes.
pub struct ClassMeansMethod;

impl Method for ClassMeansMethod {
    fn id(&self) -> &'static str {
        "nearest_mean"
    }

    fn title(&self) -> &'static str {
        "class means (basic linear classifier)"
    }

    fn explain(&self) -> &'static str {
        "Takes the mean of each class and predicts the class of the nearer mean: the boundary is the perpendicular bisector of the segment between the two means, w = m₊ − m₋."
    }

    fn params(&self) -> &'static [&'static str] {
        &[]
    }

    fn fit(
        &self,
        _values: &Values,
        data: &Dataset,
        _options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        Ok(Box::new(ClassMeans::fit(&data.points, &data.labels)?))
    }

    /// `NearestCentroid` gives the class of the nearest mean: the lab's rule for two
    /// classes, but not its one-vs-rest combination for more.
    fn sklearn(&self, _values: &Values, data: &Dataset) -> Counterpart {
        if data.classes().len() > 2 {
            return Counterpart::missing(
                "the lab combines class means one-vs-rest (each class's mean against the mean \
                 of all the others, the largest f winning); scikit-learn's NearestCentroid \
                 gives the class of the nearest of all the means, which differs",
            );
        }
        let centroid = Estimator::sklearn("sklearn.neighbors", "NearestCentroid");
        Counterpart::same(vec![centroid], Multiclass::Otherwise).map(
            "",
            "NearestCentroid(): the class of the nearer mean, f(x) = ½‖x − m₋‖² − ½‖x − m₊‖², \
             ties to the smaller label as in the lab",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_boundary_bisects_the_means_by_hand() {
        // Means (1, 0) and (1, 4): w = (0, 4), b = −(16 + 1 − 1)/2 = −8, boundary x₂ = 2.
        let points = [[0.0, 0.0], [2.0, 0.0], [0.0, 4.0], [2.0, 4.0]];
        let model = ClassMeans::fit(&points, &[-1, -1, 1, 1]).unwrap();
        assert_eq!(model.means, [[1.0, 0.0], [1.0, 4.0]]);
        assert_eq!(model.w, [0.0, 4.0]);
        assert_eq!(model.bias, -8.0);
        assert_eq!(model.decision([5.0, 2.0]), 0.0);
    }

    #[test]
    fn f_is_half_the_difference_of_squared_distances() {
        let data = crate::core::data::Preset::Overlapping.generate(50, 0.4, 9);
        let model = ClassMeans::fit(&data.points, &data.labels).unwrap();
        let [m0, m1] = model.means;
        for x in [[0.3, -0.2], [-1.5, 2.0], [4.0, 4.0], m0, m1] {
            let d = |m: Point| (x[0] - m[0]).powi(2) + (x[1] - m[1]).powi(2);
            let want = 0.5 * d(m0) - 0.5 * d(m1);
            assert!((model.decision(x) - want).abs() < 1e-9 * (1.0 + want.abs()));
        }
        // The midpoint is on the boundary.
        let c = [(m0[0] + m1[0]) / 2.0, (m0[1] + m1[1]) / 2.0];
        assert!(model.decision(c).abs() < 1e-12);
    }

    #[test]
    fn one_class_is_refused() {
        assert!(ClassMeans::fit(&[[0.0, 0.0], [1.0, 1.0]], &[1, 1]).is_err());
    }
}

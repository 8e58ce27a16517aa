//! What the Gaussian generative classifiers ([`super::lda`], [`super::qda`],
//! [`super::naive_bayes`]) share: class statistics, 2×2 covariance algebra, the Gaussian
//! log-density, the posterior by Bayes' rule, and the covariance ellipse.
//!
//! A generative classifier models each class k by a prior π_k and a class density
//! p(x | k) = N(x; μ_k, Σ_k), and classifies by Bayes' rule:
//!
//! ```text
//!     log N(x; μ, Σ) = −log 2π − ½ log|Σ| − ½ (x − μ)ᵀ Σ⁻¹ (x − μ)        (in two dimensions)
//!     s_k(x)         = log π_k + log N(x; μ_k, Σ_k)                        (log scores)
//!     p(k | x)       = exp(s_k(x)) / Σ_j exp(s_j(x))                        (softmax)
//! ```
//!
//! The softmax is taken after subtracting max_j s_j, i.e. through
//! log Σ_j e^(s_j) = m + log Σ_j e^(s_j − m), so scores of −10⁴ neither underflow to 0/0 nor
//! overflow. A score may therefore carry any constant common to all classes.
//!
//! Class statistics, for n points and the n_k points of class k (classes in ascending label
//! order): the prior π_k = n_k / n (the class frequency), the mean μ_k = (1/n_k) Σ_{i∈k} x_i
//! and the scatter matrix S_k = Σ_{i∈k} (x_i − μ_k)(x_i − μ_k)ᵀ, summed over centred points (two
//! passes) so that a tight cluster far from the origin keeps its digits. Each method makes its
//! covariances from the S_k.
//!
//! With two classes, [`decision`] is the log-odds log p(c₁|x) − log p(c₀|x) (positive for the
//! larger label); with K > 2 classes it is the log-odds of the largest label against all the
//! others, s_{K−1} − log Σ_{k<K−1} e^(s_k), which is the same formula.
//!
//! The covariance ellipse at r standard deviations is the level set of the Mahalanobis distance
//! (x − μ)ᵀ Σ⁻¹ (x − μ) = r². With Σ = λ₁u₁u₁ᵀ + λ₂u₂u₂ᵀ (its principal axes), it is traced as
//! x(t) = μ + r(√λ₁ cos t · u₁ + √λ₂ sin t · u₂), t ∈ [0, 2π].

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::plane::{
    Colour, Dash, Decoration, Depth, Pen, Primitive, Scene, Shading, SwatchShape, Weight,
};
pub use crate::methods::model::MAX_CLASSES;
use crate::methods::model::{argmax, short, Context, Fact, Level, Model, PROBABILITY_LEVELS};

/// A symmetric 2×2 matrix (a covariance, a scatter matrix or a precision), row by row.
pub type Matrix2 = [[f64; 2]; 2];

/// A covariance counts as singular when its smaller eigenvalue is below this fraction of the
/// larger one: far above rounding (points exactly on a line give ~10⁻¹⁶), far below the
/// thinnest spread a person can click on the 10⁻⁴ grid of the plane (a point 10⁻⁴ off the line
/// through two others a unit apart gives ~10⁻⁸).
pub const MIN_EIGENVALUE_RATIO: f64 = 1e-12;

/// How the lab names a class to a person: label 0 is "class 1", as on the page and its keys.
pub fn class_name(label: i32) -> String {
    format!("class {}", i64::from(label) + 1)
}

/// Counts, priors, means and scatter matrices of each class, classes in ascending label order.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassStatistics {
    pub classes: Vec<i32>,
    /// n_k, the number of points of each class.
    pub counts: Vec<usize>,
    /// π_k = n_k / n.
    pub priors: Vec<f64>,
    /// μ_k.
    pub means: Vec<Point>,
    /// S_k = Σ_{i∈k} (x_i − μ_k)(x_i − μ_k)ᵀ.
    pub scatters: Vec<Matrix2>,
}

impl ClassStatistics {
    /// Fails with [`Error::TooFewPoints`] below two points, [`Error::OneClass`] for a single
    /// class and [`Error::TooManyClasses`] beyond [`MAX_CLASSES`].
    pub fn of(points: &[Point], labels: &[i32]) -> Result<ClassStatistics, Error> {
        if points.len() != labels.len() {
            return Err(Error::Parameter(format!(
                "{} points but {} labels",
                points.len(),
                labels.len()
            )));
        }
        if points.iter().flatten().any(|v| !v.is_finite()) {
            return Err(Error::NotFinite {
                what: "a training point".into(),
            });
        }
        if points.len() < 2 {
            return Err(Error::TooFewPoints);
        }
        let mut classes = labels.to_vec();
        crate::core::sorting::sort(&mut classes);
        classes.dedup();
        match classes.len() {
            1 => return Err(Error::OneClass),
            found if found > MAX_CLASSES => {
                return Err(Error::TooManyClasses {
                    found,
                    max: MAX_CLASSES,
                })
            }
            _ => {}
        }
        let class_of: Vec<usize> = labels
            .iter()
            .map(|l| classes.binary_search(l).unwrap_or(0))
            .collect();
        let k = classes.len();
        let mut counts = vec![0; k];
        let mut sums = vec![[0.0; 2]; k];
        for (x, &c) in points.iter().zip(&class_of) {
            counts[c] += 1;
            sums[c][0] += x[0];
            sums[c][1] += x[1];
        }
        let means: Vec<Point> = sums
            .iter()
            .zip(&counts)
            .map(|(s, &m)| [s[0] / m as f64, s[1] / m as f64])
            .collect();
        let mut scatters = vec![[[0.0; 2]; 2]; k];
        for (x, &c) in points.iter().zip(&class_of) {
            let d = [x[0] - means[c][0], x[1] - means[c][1]];
            let s = &mut scatters[c];
            s[0][0] += d[0] * d[0];
            s[0][1] += d[0] * d[1];
            s[1][1] += d[1] * d[1];
        }
        for s in &mut scatters {
            s[1][0] = s[0][1];
        }
        let n = points.len() as f64;
        Ok(ClassStatistics {
            priors: counts.iter().map(|&m| m as f64 / n).collect(),
            classes,
            counts,
            means,
            scatters,
        })
    }
}

/// a·M.
pub fn scale(m: Matrix2, a: f64) -> Matrix2 {
    [[a * m[0][0], a * m[0][1]], [a * m[1][0], a * m[1][1]]]
}

/// A + B.
pub fn add(a: Matrix2, b: Matrix2) -> Matrix2 {
    [
        [a[0][0] + b[0][0], a[0][1] + b[0][1]],
        [a[1][0] + b[1][0], a[1][1] + b[1][1]],
    ]
}

/// |M|.
pub fn determinant(m: Matrix2) -> f64 {
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}

/// M⁻¹ by the adjugate; `None` when |M| is zero or not finite.
pub fn inverse(m: Matrix2) -> Option<Matrix2> {
    let det = determinant(m);
    (det != 0.0 && det.is_finite()).then(|| {
        [
            [m[1][1] / det, -m[0][1] / det],
            [-m[1][0] / det, m[0][0] / det],
        ]
    })
}

/// log|M| for a positive definite M (−∞ when |M| = 0, NaN when |M| < 0).
pub fn log_determinant(m: Matrix2) -> f64 {
    determinant(m).ln()
}

/// M v.
pub fn apply(m: Matrix2, v: Point) -> Point {
    [
        m[0][0] * v[0] + m[0][1] * v[1],
        m[1][0] * v[0] + m[1][1] * v[1],
    ]
}

/// (x − μ)ᵀ P (x − μ) for a precision P = Σ⁻¹: the squared Mahalanobis distance.
pub fn mahalanobis_squared(x: Point, mean: Point, precision: Matrix2) -> f64 {
    let d = [x[0] - mean[0], x[1] - mean[1]];
    let pd = apply(precision, d);
    d[0] * pd[0] + d[1] * pd[1]
}

/// The principal axes of a symmetric M: its eigenvalues λ₁ ≥ λ₂ and the angle θ of the
/// eigenvector of λ₁ from the x₁ axis (u₁ = (cos θ, sin θ), u₂ = (−sin θ, cos θ)).
pub fn principal_axes(m: Matrix2) -> ([f64; 2], f64) {
    let half_trace = 0.5 * (m[0][0] + m[1][1]);
    let half_gap = 0.5 * (m[0][0] - m[1][1]);
    let b = 0.5 * (m[0][1] + m[1][0]);
    let radius = half_gap.hypot(b);
    let large = half_trace + radius;
    // λ₂ = |M|/λ₁ keeps the digits that half_trace − radius would cancel away.
    let small = if large > 0.0 {
        determinant(m) / large
    } else {
        half_trace - radius
    };
    ([large, small], 0.5 * (2.0 * b).atan2(2.0 * half_gap))
}

/// Whether M is a usable covariance: symmetric positive definite with its smaller eigenvalue
/// at least [`MIN_EIGENVALUE_RATIO`] times the larger.
pub fn is_positive_definite(m: Matrix2) -> bool {
    let ([large, small], _) = principal_axes(m);
    large.is_finite() && large > 0.0 && small > MIN_EIGENVALUE_RATIO * large
}

/// log N(x; μ, Σ) in two dimensions, for a positive definite Σ.
pub fn log_density(x: Point, mean: Point, covariance: Matrix2) -> f64 {
    let precision = inverse(covariance).unwrap_or([[f64::NAN; 2]; 2]);
    -(2.0 * std::f64::consts::PI).ln()
        - 0.5 * log_determinant(covariance)
        - 0.5 * mahalanobis_squared(x, mean, precision)
}

/// log Σ_k e^(v_k), without overflow or underflow; −∞ for no values or all −∞.
pub fn log_sum_exp(values: &[f64]) -> f64 {
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return top;
    }
    top + values.iter().map(|v| (v - top).exp()).sum::<f64>().ln()
}

/// Turns log scores s_k into probabilities e^(s_k) / Σ_j e^(s_j), in place. Scores that are all
/// −∞ say nothing, and give equal probabilities.
pub fn softmax(scores: &mut [f64]) {
    let total = log_sum_exp(scores);
    if total.is_finite() {
        for s in scores.iter_mut() {
            *s = (*s - total).exp();
        }
    } else {
        let equal = 1.0 / scores.len() as f64;
        scores.fill(equal);
    }
}

/// Runs `log_scores` on a buffer of `k` slots (on the stack for up to [`MAX_CLASSES`]) and
/// hands the scores to `then`.
fn with_scores<T>(k: usize, log_scores: impl Fn(&mut [f64]), then: impl Fn(&[f64]) -> T) -> T {
    let mut stack = [0.0; MAX_CLASSES];
    let mut heap = Vec::new();
    let scores = if k <= MAX_CLASSES {
        &mut stack[..k]
    } else {
        heap.resize(k, 0.0);
        &mut heap[..]
    };
    log_scores(scores);
    then(scores)
}

/// p(k | x) for each class, from a model's log scores.
pub fn probabilities(k: usize, log_scores: impl Fn(&mut [f64])) -> Vec<f64> {
    let mut p = vec![0.0; k];
    log_scores(&mut p);
    softmax(&mut p);
    p
}

/// The class with the largest log score (the largest posterior); ties go to the smaller label,
/// as scikit-learn's argmax does.
pub fn predict(classes: &[i32], log_scores: impl Fn(&mut [f64])) -> i32 {
    with_scores(classes.len(), log_scores, |s| {
        classes.get(argmax(s)).copied().unwrap_or_default()
    })
}

/// The log-odds of the largest label: log p(c₁|x) − log p(c₀|x) for two classes.
pub fn decision(k: usize, log_scores: impl Fn(&mut [f64])) -> f64 {
    with_scores(k, log_scores, |s| match s.split_last() {
        Some((last, rest)) => last - log_sum_exp(rest),
        None => 0.0,
    })
}

/// The closed polyline of the covariance ellipse (x − μ)ᵀ Σ⁻¹ (x − μ) = `sigmas`²: `segments`
/// + 1 points (at least 4), the last equal to the first, starting at the end of the major axis.
pub fn ellipse(mean: Point, cov: Matrix2, sigmas: f64, segments: usize) -> Vec<Point> {
    let segments = segments.max(3);
    let ([large, small], angle) = principal_axes(cov);
    let (sin, cos) = angle.sin_cos();
    let a = sigmas * large.max(0.0).sqrt();
    let b = sigmas * small.max(0.0).sqrt();
    let mut points: Vec<Point> = (0..segments)
        .map(|i| {
            let t = std::f64::consts::TAU * i as f64 / segments as f64;
            let (u, v) = (a * t.cos(), b * t.sin());
            [mean[0] + u * cos - v * sin, mean[1] + u * sin + v * cos]
        })
        .collect();
    points.push(points[0]);
    points
}

/// Whether a covariance has no spread at all (its points coincide), as opposed to spread along
/// one line only: the two ways [`is_positive_definite`] fails, which a person fixes differently.
pub(crate) fn has_no_spread(covariance: Matrix2) -> bool {
    principal_axes(covariance).0[0] <= 0.0
}

/// "class 1", "class 1 and class 3", "class 1, class 2 and class 3".
pub(crate) fn list_classes(labels: &[i32]) -> String {
    let names: Vec<String> = labels.iter().map(|&l| class_name(l)).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// What the three Gaussian classifiers (LDA, QDA, naive Bayes) have in common: classes with
/// priors, means and covariances, and log scores whose softmax is the posterior. Every such
/// classifier is a [`Model`] through the implementation below: it shades by posterior, draws
/// the p-contours, marks each class mean and its covariance ellipses at 1σ (solid) and 2σ
/// (dashed), and reports its fitted parameters.
pub trait GaussianClassifier: std::fmt::Debug + Send + Sync + 'static {
    fn classes(&self) -> &[i32];
    fn priors(&self) -> &[f64];
    fn means(&self) -> &[Point];
    /// The covariance of class k as the model uses it (shared, own, or diagonal).
    fn covariance(&self, k: usize) -> Matrix2;
    /// One log score per class (log prior + log likelihood, up to a term common to all).
    fn log_scores(&self, x: Point, out: &mut [f64]);
    /// The method's own facts (its covariance, its parameters).
    fn own_facts(&self) -> Vec<Fact>;
}

/// A 2×2 matrix as people read it: [[a, b], [c, d]] in four significant digits.
pub fn matrix_text(m: Matrix2) -> String {
    format!(
        "[[{}, {}], [{}, {}]]",
        short(m[0][0]),
        short(m[0][1]),
        short(m[1][0]),
        short(m[1][1])
    )
}

/// One value per class as people read it: "class 1: a, class 2: b".
fn per_class(values: impl Iterator<Item = String>) -> String {
    values
        .enumerate()
        .map(|(k, v)| format!("class {}: {v}", k + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

impl<T: GaussianClassifier> Model for T {
    fn classes(&self) -> &[i32] {
        GaussianClassifier::classes(self)
    }

    /// Two classes: the log-odds log p(c₁|x) − log p(c₀|x); more: the winner's posterior.
    fn decision_value(&self, x: Point) -> f64 {
        let k = GaussianClassifier::classes(self).len();
        if k == 2 {
            decision(k, |s| self.log_scores(x, s))
        } else {
            probabilities(k, |s| self.log_scores(x, s))
                .into_iter()
                .fold(0.0, f64::max)
        }
    }

    /// The posteriors.
    fn scores(&self, x: Point) -> Vec<f64> {
        probabilities(GaussianClassifier::classes(self).len(), |s| {
            self.log_scores(x, s)
        })
    }

    fn probabilities(&self, x: Point) -> Option<Vec<f64>> {
        Some(Model::scores(self, x))
    }

    fn predict(&self, x: Point) -> i32 {
        predict(GaussianClassifier::classes(self), |s| self.log_scores(x, s))
    }

    fn label_and_confidence(&self, x: Point) -> (usize, f64) {
        let p = Model::scores(self, x);
        let best = argmax(&p);
        let k = p.len() as f64;
        (
            best,
            ((p[best] - 1.0 / k) / (1.0 - 1.0 / k)).clamp(0.0, 1.0),
        )
    }

    /// The boundary p = ½ and the contours p = 0.1, 0.25, 0.75, 0.9.
    fn levels(&self) -> Vec<Level> {
        Level::probabilities(&PROBABILITY_LEVELS)
    }

    fn shading(&self) -> Shading {
        Shading::Probability
    }

    /// Each class mean, and its covariance ellipses at 1σ and 2σ, in the class colour.
    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        let present = context.classes;
        let (mut centres, mut outlines) = (Vec::new(), Vec::new());
        for (k, (&label, &mean)) in GaussianClassifier::classes(self)
            .iter()
            .zip(self.means())
            .enumerate()
        {
            let colour = present.iter().position(|&c| c == label).unwrap_or(k);
            centres.push((mean, colour));
            for (sigmas, dash) in [(1.0, Dash::Solid), (2.0, Dash::Long)] {
                outlines.push(Primitive::Outline {
                    points: ellipse(mean, self.covariance(k), sigmas, 96),
                    pen: Pen::solid(Colour::Class(colour), Weight::Light).dashed(dash),
                });
            }
        }
        if let Some(&(_, colour)) = centres.first() {
            scene.decorations.push(ellipses(outlines, colour));
        }
        scene.decorations.push(means(centres));
    }

    fn facts(&self, _data: &Dataset) -> Vec<Fact> {
        let k = GaussianClassifier::classes(self).len();
        let mut facts = vec![Fact::new(
            "prior_text",
            "priors π:",
            per_class(self.priors().iter().map(|&p| short(p))),
        )];
        facts.extend(self.own_facts());
        facts.extend([
            Fact::data("priors", self.priors().to_vec()),
            Fact::data("means", self.means().to_vec()),
        ]);
        if k == 2 {
            facts.push(Fact::data("log_odds", "log p(c₁|x) − log p(c₀|x)"));
        }
        facts
    }

    /// The point's class: its prior, mean and covariance.
    fn point_facts(&self, index: usize, data: &Dataset) -> Vec<Fact> {
        let classes = GaussianClassifier::classes(self);
        let Some(k) = classes.iter().position(|&c| c == data.labels[index]) else {
            return Vec::new();
        };
        let mean = self.means()[k];
        vec![
            Fact::new("prior", "prior π =", self.priors()[k]),
            Fact::new("mean", "class mean μ =", mean),
            Fact::new("covariance", "Σ =", matrix_text(self.covariance(k))),
        ]
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The covariance ellipses, 1σ solid and 2σ dashed; the legend's swatch in `colour`, the
/// first class's.
fn ellipses(outlines: Vec<Primitive>, colour: usize) -> Decoration {
    let pen = Pen::solid(Colour::Class(colour), Weight::Px(2));
    let ring = |radii: [f32; 2], pen: Pen| SwatchShape::Ellipse {
        centre: [13.0, 9.0],
        radii,
        pen,
        fill: None,
    };
    let swatch = vec![
        ring([7.0, 4.0], pen),
        ring([11.5, 7.5], pen.dashed(Dash::Long)),
    ];
    Decoration::new("ellipses", Depth::UnderCurves, outlines).named(
        100,
        "covariance ellipses, 1σ solid, 2σ dashed",
        "Where the class's fitted Gaussian density is 1 and 2 standard deviations from its \
         mean: the model's picture of how the class spreads.",
        swatch,
    )
}

/// A cross at each class's mean, in its colour (by colour index): for the nearest-means
/// classifier too.
pub fn means(at: Vec<(Point, usize)>) -> Decoration {
    let colour = Colour::Class(at.first().map_or(0, |&(_, c)| c));
    let at = at.into_iter().map(|(p, c)| (p, Colour::Class(c))).collect();
    let (edge, stroke) = (
        Pen::solid(Colour::Ink, Weight::Px(5)),
        Pen::solid(colour, Weight::Px(3)),
    );
    let mut swatch = Vec::new();
    for pen in [edge, stroke] {
        swatch.push(SwatchShape::Line {
            from: [8.0, 4.0],
            to: [18.0, 14.0],
            pen,
        });
        swatch.push(SwatchShape::Line {
            from: [8.0, 14.0],
            to: [18.0, 4.0],
            pen,
        });
    }
    Decoration::new("means", Depth::OverPoints, vec![Primitive::Crosses { at }]).named(
        110,
        "class means (crosses)",
        "The mean μₖ of each class's training points (for LDA, QDA and naive Bayes, the centre \
         of its Gaussian).",
        swatch,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "{got} vs {want}");
    }

    #[test]
    fn statistics_follow_ascending_labels() {
        let points = [[4.0, 0.0], [0.0, 0.0], [2.0, 2.0], [6.0, 0.0], [0.0, 4.0]];
        let labels = [7, -1, -1, 7, -1];
        let stats = ClassStatistics::of(&points, &labels).unwrap();
        assert_eq!(stats.classes, [-1, 7]);
        assert_eq!(stats.counts, [3, 2]);
        assert_eq!(stats.priors, [0.6, 0.4]);
        assert_eq!(stats.means[1], [5.0, 0.0]);
        assert_close(stats.means[0][0], 2.0 / 3.0, 1e-15);
        assert_close(stats.means[0][1], 2.0, 1e-15);
        // Class 7: deviations (±1, 0).
        assert_eq!(stats.scatters[1], [[2.0, 0.0], [0.0, 0.0]]);
        // Class −1: deviations (−2/3, −2), (4/3, 0), (−2/3, 2).
        let s = stats.scatters[0];
        assert_close(s[0][0], 4.0 / 9.0 + 16.0 / 9.0 + 4.0 / 9.0, 1e-14);
        assert_close(s[0][1], 4.0 / 3.0 - 4.0 / 3.0, 1e-14);
        assert_close(s[1][1], 8.0, 1e-14);
        assert_eq!(s[0][1], s[1][0]);
    }

    #[test]
    fn statistics_reject_what_cannot_be_fitted() {
        let p = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
        assert_eq!(
            ClassStatistics::of(&p[..1], &[0]).unwrap_err(),
            Error::TooFewPoints
        );
        assert_eq!(
            ClassStatistics::of(&p, &[2, 2, 2, 2]).unwrap_err(),
            Error::OneClass
        );
        let seven: Vec<Point> = (0..7).map(|i| [i as f64, 0.0]).collect();
        assert_eq!(
            ClassStatistics::of(&seven, &[0, 1, 2, 3, 4, 5, 6]).unwrap_err(),
            Error::TooManyClasses { found: 7, max: 6 }
        );
        assert!(ClassStatistics::of(&seven[..6], &[0, 1, 2, 3, 4, 5]).is_ok());
        assert_eq!(
            ClassStatistics::of(&p, &[0, 1]).unwrap_err().to_string(),
            "4 points but 2 labels"
        );
    }

    #[test]
    fn two_by_two_algebra() {
        let m = [[4.0, 1.0], [1.0, 3.0]];
        assert_eq!(determinant(m), 11.0);
        assert_close(log_determinant(m), 11f64.ln(), 1e-15);
        let inv = inverse(m).unwrap();
        // M M⁻¹ = I, column by column.
        let columns = [[inv[0][0], inv[1][0]], [inv[0][1], inv[1][1]]];
        for (column, unit) in columns.into_iter().zip([[1.0, 0.0], [0.0, 1.0]]) {
            let product = apply(m, column);
            assert_close(product[0], unit[0], 1e-15);
            assert_close(product[1], unit[1], 1e-15);
        }
        assert_eq!(inverse([[1.0, 2.0], [2.0, 4.0]]), None);
        assert_eq!(
            add(scale(m, 0.5), [[1.0, 0.0], [0.0, 1.0]]),
            [[3.0, 0.5], [0.5, 2.5]]
        );
    }

    #[test]
    fn principal_axes_of_known_matrices() {
        let ([l1, l2], angle) = principal_axes([[2.0, 1.0], [1.0, 2.0]]);
        assert_close(l1, 3.0, 1e-15);
        assert_close(l2, 1.0, 1e-15);
        assert_close(angle, std::f64::consts::FRAC_PI_4, 1e-15);
        let ([l1, l2], angle) = principal_axes([[1.0, 0.0], [0.0, 9.0]]);
        assert_eq!([l1, l2], [9.0, 1.0]);
        assert_close(angle.abs(), std::f64::consts::FRAC_PI_2, 1e-15);
    }

    #[test]
    fn positive_definiteness_separates_lines_from_thin_clouds() {
        assert!(is_positive_definite([[1.0, 0.3], [0.3, 0.5]]));
        // Points on the line x₂ = 2x₁, and a single spot.
        assert!(!is_positive_definite([[1.0, 2.0], [2.0, 4.0]]));
        assert!(!is_positive_definite([[0.0, 0.0], [0.0, 0.0]]));
        assert!(!is_positive_definite([[1.0, 0.0], [0.0, -1.0]]));
        // Three points, one 10⁻⁴ off the line through the other two: thin but usable.
        let stats = ClassStatistics::of(
            &[[0.0, 0.0], [1.0, 1.0], [0.5, 0.5001], [3.0, 3.0]],
            &[0, 0, 0, 1],
        )
        .unwrap();
        assert!(is_positive_definite(scale(stats.scatters[0], 1.0 / 3.0)));
    }

    #[test]
    fn log_density_of_a_diagonal_gaussian_is_a_sum_of_one_dimensional_ones() {
        let normal = |x: f64, m: f64, v: f64| {
            -0.5 * (2.0 * std::f64::consts::PI * v).ln() - 0.5 * (x - m).powi(2) / v
        };
        let got = log_density([0.3, -1.2], [1.0, 0.5], [[0.25, 0.0], [0.0, 4.0]]);
        let want = normal(0.3, 1.0, 0.25) + normal(-1.2, 0.5, 4.0);
        assert_close(got, want, 1e-14);
        // At the mean only the normalisation remains.
        let cov = [[2.0, 0.7], [0.7, 1.0]];
        let at_mean = log_density([1.0, 1.0], [1.0, 1.0], cov);
        let want = -(2.0 * std::f64::consts::PI).ln() - 0.5 * determinant(cov).ln();
        assert_close(at_mean, want, 1e-15);
    }

    #[test]
    fn softmax_is_stable_far_from_zero() {
        assert_close(log_sum_exp(&[1000.0, 1000.0]), 1000.0 + 2f64.ln(), 1e-12);
        assert_close(
            log_sum_exp(&[-1000.0, -1001.0]),
            -1000.0 + (1.0 + (-1f64).exp()).ln(),
            1e-12,
        );
        assert_eq!(log_sum_exp(&[]), f64::NEG_INFINITY);
        let mut s = [-1e4, 0.0, -1e4 + 1.0, 2.0];
        softmax(&mut s);
        assert_close(s.iter().sum(), 1.0, 1e-15);
        assert!(s.iter().all(|p| p.is_finite() && *p >= 0.0));
        assert_close(s[3] / s[1], 2f64.exp(), 1e-12);
        let mut none = [f64::NEG_INFINITY; 3];
        softmax(&mut none);
        assert_eq!(none, [1.0 / 3.0; 3]);
    }

    #[test]
    fn decision_and_prediction_from_scores() {
        let scores = |s: &mut [f64]| s.copy_from_slice(&[-2.0, 1.0]);
        assert_close(decision(2, scores), 3.0, 1e-15);
        assert_eq!(predict(&[4, 9], scores), 9);
        // Equal scores: the smaller label.
        assert_eq!(predict(&[4, 9], |s: &mut [f64]| s.fill(0.5)), 4);
        // Three classes: the largest label against the rest.
        let three = |s: &mut [f64]| s.copy_from_slice(&[0.0, 0.0, 1.0]);
        let p = probabilities(3, three);
        assert_close(decision(3, three), (p[2] / (1.0 - p[2])).ln(), 1e-14);
    }

    #[test]
    fn ellipse_points_lie_at_the_mahalanobis_radius() {
        let mean = [0.4, -0.2];
        let cov = [[0.09, 0.04], [0.04, 0.03]];
        let precision = inverse(cov).unwrap();
        for sigmas in [1.0, 2.0] {
            let points = ellipse(mean, cov, sigmas, 48);
            assert_eq!(points.len(), 49);
            assert_eq!(points[0], points[48]);
            for p in &points {
                assert_close(
                    mahalanobis_squared(*p, mean, precision),
                    sigmas * sigmas,
                    1e-12,
                );
            }
        }
        // Axis-aligned: the major axis along x₂, half-lengths 2σ·2 and 2σ·1.
        let points = ellipse([0.0, 0.0], [[1.0, 0.0], [0.0, 4.0]], 2.0, 4);
        assert_close(points[0][0], 0.0, 1e-15);
        assert_close(points[0][1].abs(), 4.0, 1e-15);
        assert_close(points[1][0].abs(), 2.0, 1e-15);
        assert_eq!(ellipse(mean, cov, 1.0, 0).len(), 4);
    }

    #[test]
    fn class_names_are_one_based() {
        assert_eq!(class_name(0), "class 1");
        assert_eq!(class_name(5), "class 6");
        assert_eq!(class_name(i32::MAX), "class 2147483648");
        assert_eq!(list_classes(&[0, 2]), "class 1 and class 3");
        assert_eq!(list_classes(&[0, 1, 2]), "class 1, class 2 and class 3");
        assert_eq!(list_classes(&[4]), "class 5");
    }
}

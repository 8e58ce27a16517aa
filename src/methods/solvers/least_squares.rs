//! Least-squares classification: regress the targets t_i ∈ {−1, +1} (+1 for the larger label)
//! on the augmented inputs x̃_i = (x_i1, x_i2, 1), minimising the sum of squared residuals
//!
//! ```text
//!     E(w, b) = Σ_i (wᵀx_i + b − t_i)² = ‖X̃θ − t‖²,      θ = (w, b),
//! ```
//!
//! and classify by the sign of f(x) = wᵀx + b. Setting ∇E = 0 gives the normal equations
//!
//! ```text
//!     X̃ᵀX̃ θ = X̃ᵀt,
//! ```
//!
//! so θ = (X̃ᵀX̃)⁻¹X̃ᵀt when X̃ has full column rank. When it has not (every point on one line,
//! or all on one spot) the normal equations have a line or plane of solutions, and the fit
//! takes the one of least ‖θ‖: θ = X̃⁺t, the pseudo-inverse from the singular value
//! decomposition X̃ = UΣVᵀ, θ = VΣ⁺Uᵀt. Singular values at most ε·max(n, 3)·σ_max count as
//! zero, numpy.linalg.lstsq's default, so the numbers compare directly. Working on X̃ rather
//! than X̃ᵀX̃ also keeps the condition number from being squared.
//!
//! The SVD of the n × 3 design is computed here by one-sided Jacobi rotations (Hestenes):
//! rotate pairs of columns of X̃ until all three are orthogonal, X̃V = W; then σ_j = ‖W_j‖ and
//! U_j = W_j/σ_j. nalgebra's SVD is not used because, with singular vectors requested, it can
//! return wrong singular values (dimforge/nalgebra#1172); points on a line, the case the
//! pseudo-inverse is for, triggered it.
//!
//! Eliminating b shows that w points along Fisher's discriminant S_W⁻¹(m₊ − m₋), for any two
//! target values; only the threshold b is least squares' own.
//!
//! Why it can fail on separable data: squared loss charges a point with t_i = +1 for
//! f(x_i) = 5 exactly as much as for f(x_i) = −3. It asks every point to sit *on* its target,
//! not on the right side of the boundary. Points far out on their own, correct, side have large
//! residuals, and the fit shrinks those by tilting and shifting the line, even across points
//! near the boundary. Logistic regression (whose loss flattens out once y f(x) ≫ 0) and the SVM
//! (whose hinge loss is zero beyond the margin) pay such points no attention; the "outlier"
//! preset ([`crate::core::data::Preset::Outlier`]) shows the difference.

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::params::Values;
use crate::core::plane::Scene;
use crate::core::sklearn::{Counterpart, Estimator, Multiclass};
use crate::methods::model::{Context, Fact, FitOptions, Level, Loss, Method, Model};

/// Jacobi sweeps before giving up; three columns converge (quadratically) in a handful.
const MAX_SWEEPS: usize = 50;

/// A fitted least-squares classifier.
#[derive(Clone, Debug, PartialEq)]
pub struct LeastSquares {
    /// The labels of the negative (t = −1) and positive (t = +1) class.
    pub classes: [i32; 2],
    pub w: [f64; 2],
    pub bias: f64,
    /// E at the solution: Σ_i (f(x_i) − t_i)².
    pub residual: f64,
}

impl LeastSquares {
    pub fn fit(points: &[Point], labels: &[i32]) -> Result<LeastSquares, Error> {
        if points.len() != labels.len() {
            return Err(Error::Parameter(format!(
                "{} points but {} labels",
                points.len(),
                labels.len()
            )));
        }
        let data = Dataset::from_parts(points.to_vec(), labels.to_vec());
        let (classes, t) = data.binary_targets()?;
        let n = points.len();
        let design: [Vec<f64>; 3] = [
            points.iter().map(|p| p[0]).collect(),
            points.iter().map(|p| p[1]).collect(),
            vec![1.0; n],
        ];
        let (w_columns, v) = jacobi_svd(design);
        let sigma = w_columns.each_ref().map(|c| dot(c, c).sqrt());
        let cutoff = f64::EPSILON * n.max(3) as f64 * sigma.iter().copied().fold(0.0, f64::max);
        // θ = Σ_j V_j (U_jᵀt)/σ_j = Σ_j V_j (W_jᵀt)/σ_j², over the singular values kept.
        let mut theta = [0.0; 3];
        for j in 0..3 {
            if sigma[j] > cutoff {
                let coefficient = dot(&w_columns[j], &t) / (sigma[j] * sigma[j]);
                for (theta_k, v_k) in theta.iter_mut().zip(&v) {
                    *theta_k += coefficient * v_k[j];
                }
            }
        }
        if theta.iter().any(|value| !value.is_finite()) {
            return Err(Error::NotFinite {
                what: "the least-squares solution".into(),
            });
        }
        let residual = points
            .iter()
            .zip(&t)
            .map(|(p, t)| (theta[0] * p[0] + theta[1] * p[1] + theta[2] - t).powi(2))
            .sum();
        Ok(LeastSquares {
            classes,
            w: [theta[0], theta[1]],
            bias: theta[2],
            residual,
        })
    }

    /// f(x) = wᵀx + b; positive means `classes[1]`.
    pub fn decision(&self, x: Point) -> f64 {
        self.w[0] * x[0] + self.w[1] * x[1] + self.bias
    }

    pub fn predict(&self, x: Point) -> i32 {
        if self.decision(x) > 0.0 {
            self.classes[1]
        } else {
            self.classes[0]
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// One-sided Jacobi SVD of a matrix given by its three columns: returns W = AV, whose columns
/// are orthogonal, and the orthogonal V (row-major), so that A = Σ_j W_j V_jᵀ.
fn jacobi_svd(mut columns: [Vec<f64>; 3]) -> ([Vec<f64>; 3], [[f64; 3]; 3]) {
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for _ in 0..MAX_SWEEPS {
        let mut rotated = false;
        for (j, k) in [(0, 1), (0, 2), (1, 2)] {
            let alpha = dot(&columns[j], &columns[j]);
            let beta = dot(&columns[k], &columns[k]);
            let gamma = dot(&columns[j], &columns[k]);
            // Columns orthogonal to working precision are left alone; this is also what
            // ends the sweeps.
            if gamma == 0.0 || gamma.abs() <= f64::EPSILON * (alpha * beta).sqrt() {
                continue;
            }
            rotated = true;
            // The plane rotation by the angle φ with tan φ = t, the smaller root of
            // t² + 2ζt − 1 = 0, makes columns j and k orthogonal.
            let zeta = (beta - alpha) / (2.0 * gamma);
            let t = zeta.signum() / (zeta.abs() + zeta.hypot(1.0));
            let c = 1.0 / t.hypot(1.0);
            let s = c * t;
            let [a_j, a_k] = columns.get_disjoint_mut([j, k]).expect("distinct columns");
            for (x, y) in a_j.iter_mut().zip(a_k.iter_mut()) {
                (*x, *y) = (c * *x - s * *y, s * *x + c * *y);
            }
            for row in v.iter_mut() {
                (row[j], row[k]) = (c * row[j] - s * row[k], s * row[j] + c * row[k]);
            }
        }
        if !rotated {
            break;
        }
    }
    (columns, v)
}

impl Model for LeastSquares {
    fn classes(&self) -> &[i32] {
        &self.classes
    }

    fn decision_value(&self, x: Point) -> f64 {
        self.decision(x)
    }

    /// The boundary f = 0 and the targets f = ±1 the fit aims every point at.
    fn levels(&self) -> Vec<Level> {
        vec![
            Level::boundary(),
            Level::dashed(-1.0, Some("f = −1".into())),
            Level::dashed(1.0, Some("f = +1".into())),
        ]
    }

    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        if context.layers.on("w") {
            let arrow = crate::methods::marks::w_arrow(self.w, self.bias, &context.view);
            scene.decorations.extend(arrow);
        }
    }

    fn facts(&self, _data: &Dataset) -> Vec<Fact> {
        vec![
            Fact::new("residual", "Σ(f − t)² =", self.residual).inside(),
            Fact::new("w", "w =", self.w),
            Fact::new("bias", "b =", self.bias),
        ]
    }

    fn point_facts(&self, i: usize, data: &Dataset) -> Vec<Fact> {
        let t = if data.labels[i] == self.classes[1] {
            1.0
        } else {
            -1.0
        };
        let f = self.decision(data.points[i]);
        vec![
            Fact::new("target", "t =", t),
            Fact::new("decision", "f(x) =", f),
            Fact::new("squared_residual", "(f − t)² =", (f - t) * (f - t)),
        ]
    }

    fn loss(&self) -> Option<Loss> {
        Some(Loss::Squared)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The registry entry: least-squares classification, one-vs-rest for more classes.
pub struct LeastSquaresMethod;

impl Method for LeastSquaresMethod {
    fn id(&self) -> &'static str {
        "lsq"
    }

    fn title(&self) -> &'static str {
        "least squares (regress ±1)"
    }

    fn explain(&self) -> &'static str {
        "Regresses the labels ±1 by least squares and predicts sign f(x): points far on the right side still pull the line, which is why it can fail on separable data."
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
        Ok(Box::new(LeastSquares::fit(&data.points, &data.labels)?))
    }

    /// `RidgeClassifier` without a penalty is this regression of ±1 targets, the intercept
    /// fitted, more classes one-vs-rest by the largest f.
    fn sklearn(&self, _values: &Values, _data: &Dataset) -> Counterpart {
        let ridge = Estimator::sklearn("sklearn.linear_model", "RidgeClassifier").arg("alpha", 0.0);
        Counterpart::same(vec![ridge], Multiclass::OneVsRest).map(
            "",
            "RidgeClassifier(alpha=0.0): the targets ±1 (+1 for the larger label, or for \
             the class against the rest) regressed on (x₁, x₂, 1) by least squares, no \
             penalty; the sign of f, or the class of the largest f, as the lab",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_the_normal_equations() {
        let data = crate::core::data::Preset::Overlapping.generate(60, 0.3, 3);
        let model = LeastSquares::fit(&data.points, &data.labels).unwrap();
        // X̃ᵀ(X̃θ − t) = 0, component by component.
        let mut gradient = [0.0; 3];
        let mut residual = 0.0;
        for (p, &label) in data.points.iter().zip(&data.labels) {
            let t = if label == 1 { 1.0 } else { -1.0 };
            let r = model.decision(*p) - t;
            residual += r * r;
            for (g, x) in gradient.iter_mut().zip([p[0], p[1], 1.0]) {
                *g += r * x;
            }
        }
        assert!(gradient.iter().all(|g| g.abs() < 1e-10), "{gradient:?}");
        assert!((model.residual - residual).abs() < 1e-10);
    }

    #[test]
    fn direction_is_fishers_discriminant() {
        let data = crate::core::data::Preset::Overlapping.generate(80, 0.2, 5);
        let model = LeastSquares::fit(&data.points, &data.labels).unwrap();
        let class = |c: i32| -> Vec<Point> {
            data.points
                .iter()
                .zip(&data.labels)
                .filter(|(_, &l)| l == c)
                .map(|(p, _)| *p)
                .collect()
        };
        let mean = |ps: &[Point]| {
            let n = ps.len() as f64;
            [
                ps.iter().map(|p| p[0]).sum::<f64>() / n,
                ps.iter().map(|p| p[1]).sum::<f64>() / n,
            ]
        };
        let mut within = [[0.0; 2]; 2];
        let mut means = Vec::new();
        for c in [0, 1] {
            let ps = class(c);
            let m = mean(&ps);
            for p in &ps {
                let d = [p[0] - m[0], p[1] - m[1]];
                for a in 0..2 {
                    for b in 0..2 {
                        within[a][b] += d[a] * d[b];
                    }
                }
            }
            means.push(m);
        }
        let diff = [means[1][0] - means[0][0], means[1][1] - means[0][1]];
        let det = within[0][0] * within[1][1] - within[0][1] * within[1][0];
        let fisher = [
            (within[1][1] * diff[0] - within[0][1] * diff[1]) / det,
            (within[0][0] * diff[1] - within[1][0] * diff[0]) / det,
        ];
        let cross = model.w[0] * fisher[1] - model.w[1] * fisher[0];
        let dot = model.w[0] * fisher[0] + model.w[1] * fisher[1];
        assert!(dot > 0.0);
        assert!(
            cross.abs() < 1e-10 * dot.abs(),
            "{:?} vs {fisher:?}",
            model.w
        );
    }

    #[test]
    fn collinear_points_give_the_minimum_norm_solution() {
        // Every point on x₂ = a x₁ + c: (x₁, x₂, 1) has rank 2, so θ + s(−a, 1, −c) fits as
        // well as θ. The minimum-norm solution is the one orthogonal to (−a, 1, −c). Rounding
        // leaves the smallest singular value near 10⁻¹⁶ σ_max rather than 0, so this also
        // tests the cut-off: without it, θ would be of order 10¹⁵.
        let (a, c) = (0.3, 0.1);
        let points: Vec<Point> = (0..20)
            .map(|i| {
                let s = i as f64 * 0.093 - 0.8;
                [s, a * s + c]
            })
            .collect();
        let labels: Vec<i32> = (0..20).map(|i| i32::from(i >= 9 && i != 13)).collect();
        let model = LeastSquares::fit(&points, &labels).unwrap();
        let [w1, w2] = model.w;
        assert!((-a * w1 + w2 - c * model.bias).abs() < 1e-10, "{model:?}");
        // Along the line it is the 1-D regression of t on s = x₁, with
        // f = (w₁ + a w₂) s + (c w₂ + b).
        let s: Vec<f64> = points.iter().map(|p| p[0]).collect();
        let t: Vec<f64> = labels.iter().map(|&l| 2.0 * l as f64 - 1.0).collect();
        let n = s.len() as f64;
        let (s_mean, t_mean) = (s.iter().sum::<f64>() / n, t.iter().sum::<f64>() / n);
        let slope = s.iter().zip(&t).map(|(x, y)| (x - s_mean) * y).sum::<f64>()
            / s.iter().map(|x| (x - s_mean).powi(2)).sum::<f64>();
        assert!((w1 + a * w2 - slope).abs() < 1e-10);
        assert!((c * w2 + model.bias - (t_mean - slope * s_mean)).abs() < 1e-10);
        // All points on one spot: only f there is determined (the mean target), and the
        // minimum-norm θ is parallel to that spot's row (0.5, 0.5, 1).
        let same = [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]];
        let model = LeastSquares::fit(&same, &[0, 1, 1]).unwrap();
        assert!((model.decision([0.5, 0.5]) - 1.0 / 3.0).abs() < 1e-12);
        assert!((model.w[0] - model.w[1]).abs() < 1e-12);
        assert!((model.w[0] - 0.5 * model.bias).abs() < 1e-12);
    }

    #[test]
    fn jacobi_svd_reconstructs_the_design() {
        // Points near a line (where nalgebra's SVD went wrong), a blob, and a spread of scales.
        let line: Vec<Point> = (0..24)
            .map(|i| {
                let s = -0.9 + 0.0782 * i as f64;
                [s, s / 2.0 + 0.25]
            })
            .collect();
        let blob = crate::core::data::Preset::Moons.generate(40, 0.3, 9).points;
        let scaled: Vec<Point> = blob.iter().map(|p| [1e4 * p[0], 1e-3 * p[1]]).collect();
        for points in [line, blob, scaled] {
            let n = points.len();
            let a: [Vec<f64>; 3] = [
                points.iter().map(|p| p[0]).collect(),
                points.iter().map(|p| p[1]).collect(),
                vec![1.0; n],
            ];
            let (w, v) = jacobi_svd(a.clone());
            let norm = a.iter().map(|c| dot(c, c)).sum::<f64>().sqrt();
            for j in 0..3 {
                for k in 0..3 {
                    let vv: f64 = (0..3).map(|r| v[r][j] * v[r][k]).sum();
                    assert!((vv - if j == k { 1.0 } else { 0.0 }).abs() < 1e-14);
                    if j != k {
                        assert!(dot(&w[j], &w[k]).abs() < 1e-14 * norm * norm);
                    }
                }
                // A_j = Σ_k W_k V_jk.
                for i in 0..n {
                    let back: f64 = (0..3).map(|k| w[k][i] * v[j][k]).sum();
                    assert!((back - a[j][i]).abs() < 1e-13 * norm);
                }
            }
        }
    }

    #[test]
    fn labels_map_to_targets_as_elsewhere() {
        let points = [[-1.0, 0.0], [-0.5, 0.2], [0.5, -0.1], [1.0, 0.0]];
        let model = LeastSquares::fit(&points, &[7, 7, 9, 9]).unwrap();
        assert_eq!(model.classes, [7, 9]);
        assert!(model.w[0] > 0.0);
        assert_eq!(model.predict([2.0, 0.0]), 9);
        assert_eq!(model.predict([-2.0, 0.0]), 7);
    }

    #[test]
    fn errors() {
        let p = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
        assert_eq!(
            LeastSquares::fit(&p[..1], &[0]).unwrap_err(),
            Error::TooFewPoints
        );
        assert_eq!(
            LeastSquares::fit(&p, &[1, 1, 1]).unwrap_err(),
            Error::OneClass
        );
        assert_eq!(
            LeastSquares::fit(&p, &[0, 1, 2]).unwrap_err(),
            Error::TooManyClasses { found: 3, max: 2 }
        );
        assert_eq!(
            LeastSquares::fit(&p, &[0, 1]).unwrap_err().to_string(),
            "3 points but 2 labels"
        );
    }
}

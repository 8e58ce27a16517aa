//! The feature map φ of a logistic model: the inputs, their monomials up to a degree, or RBF
//! bumps on training points; the design matrix Φ̃ with a constant column last; and the
//! scikit-learn steps that make the same features.

use super::{Features, MAX_CENTRES};
use crate::core::data::Point;
use crate::core::field::Smoothness;
use crate::core::kernel::Kernel;
use crate::core::params::Values;
use crate::core::sklearn::{python_float, shown, Estimator, Helper};
use nalgebra::DMatrix;

/// The feature map, fixed at fit time (the RBF centres come from the training data).
#[derive(Clone, Debug)]
pub struct FeatureMap {
    pub features: Features,
    /// The RBF centres.
    pub centres: Vec<Point>,
}

impl FeatureMap {
    /// How smooth a model over these features is: RBF bumps as smooth as their kernel.
    pub fn smoothness(&self) -> Smoothness {
        match self.features {
            Features::Rbf { gamma } => Smoothness::of_kernel(Kernel::Rbf { gamma }),
            _ => Smoothness::Smooth,
        }
    }

    /// The map for `features`, its RBF centres taken from `points`.
    pub fn new(features: Features, points: &[Point]) -> Self {
        let centres = match features {
            Features::Rbf { .. } => {
                let stride = points.len().div_ceil(MAX_CENTRES).max(1);
                points.iter().step_by(stride).copied().collect()
            }
            _ => Vec::new(),
        };
        FeatureMap { features, centres }
    }

    /// The number of features (without the constant).
    pub fn len(&self) -> usize {
        match self.features {
            Features::Linear => 2,
            Features::Polynomial { degree } => {
                let d = degree as usize;
                (d + 1) * (d + 2) / 2 - 1
            }
            Features::Rbf { .. } => self.centres.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// φ(x), written into `out` (length [`FeatureMap::len`]).
    pub fn expand(&self, x: Point, out: &mut [f64]) {
        match self.features {
            Features::Linear => out.copy_from_slice(&x),
            Features::Polynomial { degree } => {
                // Each power of x₁ and x₂ once (the same powi, so the same bits), not once
                // per monomial: a third of the calls at degree 3.
                const MOST: usize = 10;
                let (mut p1, mut p2) = ([1.0; MOST + 1], [1.0; MOST + 1]);
                let tabled = degree as usize <= MOST;
                if tabled {
                    for e in 1..=degree as usize {
                        p1[e] = x[0].powi(e as i32);
                        p2[e] = x[1].powi(e as i32);
                    }
                }
                let power = |table: &[f64], v: f64, e: i32| {
                    if tabled {
                        table[e as usize]
                    } else {
                        v.powi(e)
                    }
                };
                let mut k = 0;
                for total in 1..=degree as i32 {
                    for b in 0..=total {
                        out[k] = power(&p1, x[0], total - b) * power(&p2, x[1], b);
                        k += 1;
                    }
                }
            }
            Features::Rbf { gamma } => {
                let kernel = Kernel::Rbf { gamma };
                for (o, &c) in out.iter_mut().zip(&self.centres) {
                    *o = kernel.eval(c, x);
                }
            }
        }
    }

    /// The names of the features ("x1^2 x2", "K(c3, x)", …), in order.
    pub fn names(&self) -> Vec<String> {
        match self.features {
            Features::Linear => vec!["x1".into(), "x2".into()],
            Features::Polynomial { degree } => {
                let power = |v: &str, p: i32| match p {
                    0 => None,
                    1 => Some(v.to_string()),
                    _ => Some(format!("{v}^{p}")),
                };
                let mut names = Vec::new();
                for total in 1..=degree as i32 {
                    for b in 0..=total {
                        let parts: Vec<String> = [power("x1", total - b), power("x2", b)]
                            .into_iter()
                            .flatten()
                            .collect();
                        names.push(parts.join(" "));
                    }
                }
                names
            }
            Features::Rbf { .. } => (0..self.centres.len())
                .map(|j| format!("K(c{j}, x)"))
                .collect(),
        }
    }
}

/// The design matrix Φ̃: a row (φ(x_i), 1) per point, the constant last.
pub(super) fn design(map: &FeatureMap, points: &[Point]) -> DMatrix<f64> {
    let p = map.len();
    let mut phi = DMatrix::zeros(points.len(), p + 1);
    let mut row = vec![0.0; p];
    for (i, &x) in points.iter().enumerate() {
        map.expand(x, &mut row);
        for j in 0..p {
            phi[(i, j)] = row[j];
        }
        phi[(i, p)] = 1.0;
    }
    phi
}

/// The steps that make the features of the `features`, `degree` and `gamma` settings in
/// scikit-learn, and their mapping lines: none for the linear ones, `PolynomialFeatures`
/// without its constant (the same monomials in the same order), or the script's RBF bumps on
/// the same centres.
pub fn feature_steps(values: &Values) -> (Vec<Estimator>, Vec<(&'static str, String)>) {
    let unused = |key| format!("{} → (these features do not use it)", shown(values, key));
    match Features::from_values(values) {
        Features::Linear => (
            Vec::new(),
            vec![
                (
                    "features",
                    "features = linear → x itself, no transformer".to_string(),
                ),
                ("degree", unused("degree")),
                ("gamma", unused("gamma")),
            ],
        ),
        Features::Polynomial { degree } => (
            vec![
                Estimator::sklearn("sklearn.preprocessing", "PolynomialFeatures")
                    .arg("degree", u64::from(degree))
                    .arg("include_bias", false),
            ],
            vec![
                (
                    "features",
                    "features = poly → PolynomialFeatures(include_bias=False): every \
                     x₁ᵃx₂ᵇ with 1 ≤ a + b ≤ degree, in the lab's order (the constant is the \
                     intercept)"
                        .to_string(),
                ),
                (
                    "degree",
                    format!("{} → degree={degree}", shown(values, "degree")),
                ),
                ("gamma", unused("gamma")),
            ],
        ),
        Features::Rbf { gamma } => (
            vec![Estimator::helper(Helper::RbfBumps)
                .arg("gamma", gamma)
                .arg("max_centres", MAX_CENTRES as u64)],
            vec![
                (
                    "features",
                    format!(
                        "features = rbf → RbfBumps (below): exp(−γ‖x − cⱼ‖²) on every \
                         ⌈n/{MAX_CENTRES}⌉-th training point cⱼ, as the lab picks them"
                    ),
                ),
                (
                    "gamma",
                    format!("{} → gamma={}", shown(values, "gamma"), python_float(gamma)),
                ),
                ("degree", unused("degree")),
            ],
        ),
    }
}

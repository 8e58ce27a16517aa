//! Two more ways to train the soft-margin SVM (CURRICULUM §5), both without a separate bias:
//! b is the weight of a constant feature 1, so the kernel becomes K̃(x, z) = K(x, z) + 1 and
//! f(x) = Σ_j α_j y_j K̃(x_j, x) (for the linear kernel, f(x) = w̃ᵀx̃ with x̃ = (x₁, x₂, 1) and
//! b = w̃₃). The bias is then regularised with w, which changes the solution a little from
//! SMO's, and the dual loses its equality constraint Σ y_i α_i = 0:
//!
//! ```text
//!     minimise   ½ αᵀQ̃α − eᵀα   subject to 0 ≤ α_i ≤ C,   Q̃_ij = y_i y_j K̃(x_i, x_j).
//! ```
//!
//! **Dual coordinate ascent** (Hsieh et al. 2008, liblinear's solver) takes one coordinate at a
//! time, in a seeded random order each epoch. With the gradient G_i = y_i f(x_i) − 1, the exact
//! minimiser along coordinate i, clipped to the box, is
//!
//! ```text
//!     α_i ← clip(α_i − G_i / Q̃_ii, 0, C) = clip(α_i + (1 − y_i f(x_i)) / K̃(x_i, x_i), 0, C).
//! ```
//!
//! It stops when the largest projected gradient (G_i where 0 < α_i < C, min(G_i, 0) at α_i = 0,
//! max(G_i, 0) at α_i = C) is below the tolerance: the no-bias KKT conditions.
//!
//! **Pegasos** (Shalev-Shwartz et al. 2007) works on the primal instead,
//! λ/2 ‖w̃‖² + (1/n) Σ max(0, 1 − y_i w̃ᵀx̃_i) with λ = 1/(nC) (the same minimiser as
//! ½‖w̃‖² + C Σ ξ_i): at step t it draws one point i (seeded), sets η_t = 1/(λt), and
//!
//! ```text
//!     w̃ ← (1 − η_t λ) w̃ + [y_i w̃ᵀx̃_i < 1] η_t y_i x̃_i.
//! ```
//!
//! Both work with any kernel here: Pegasos' kernelised form keeps, for each point, the number
//! of steps a_j it was drawn with a margin below 1, and w̃ = (1/(λt)) Σ_j a_j y_j φ̃(x_j).

use crate::data::Point;
use crate::kernel::Kernel;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The constant feature's kernel: K̃(x, z) = K(x, z) + 1.
fn augmented(kernel: Kernel, a: Point, b: Point) -> f64 {
    kernel.eval(a, b) + 1.0
}

/// A solution without a bias: f(x) = Σ_j coef_j K̃(x_j, x), with coef_j = α_j y_j for DCA.
#[derive(Clone, Debug, PartialEq)]
pub struct NoBiasSolution {
    /// α_i (DCA) or the Pegasos weights a_j / (λt), one per training point.
    pub alpha: Vec<f64>,
    /// y_i ∈ {−1, +1}.
    pub y: Vec<f64>,
    /// Epochs (DCA) or steps (Pegasos) taken.
    pub iterations: usize,
    /// The largest projected gradient at the end (DCA; 0 for Pegasos).
    pub max_violation: f64,
    /// The dual objective eᵀα − ½αᵀQ̃α after every epoch (DCA), or the primal objective
    /// ½‖w̃‖² + CΣξ at every recorded step (Pegasos).
    pub trace: Vec<f64>,
}

impl NoBiasSolution {
    /// f at `x` for training `points` and `kernel`.
    pub fn decision(&self, kernel: Kernel, points: &[Point], x: Point) -> f64 {
        points
            .iter()
            .zip(self.alpha.iter().zip(&self.y))
            .filter(|(_, (&a, _))| a != 0.0)
            .map(|(&p, (&a, &y))| a * y * augmented(kernel, p, x))
            .sum()
    }

    /// For the linear kernel: w̃ = Σ α_j y_j x̃_j as ([w₁, w₂], b).
    pub fn linear_weights(&self, points: &[Point]) -> ([f64; 2], f64) {
        let mut w = [0.0; 2];
        let mut b = 0.0;
        for (p, (&a, &y)) in points.iter().zip(self.alpha.iter().zip(&self.y)) {
            w[0] += a * y * p[0];
            w[1] += a * y * p[1];
            b += a * y;
        }
        (w, b)
    }
}

/// The primal objective ½‖w̃‖² + C Σ max(0, 1 − y_i f(x_i)) of coefficients `alpha` (f as in
/// [`NoBiasSolution::decision`]), from the Gram matrix `gram` of K̃.
fn primal(gram: &[Vec<f64>], y: &[f64], alpha: &[f64], c: f64) -> f64 {
    let n = y.len();
    let f: Vec<f64> = (0..n)
        .map(|i| (0..n).map(|j| alpha[j] * y[j] * gram[j][i]).sum())
        .collect();
    let norm2: f64 = (0..n).map(|i| alpha[i] * y[i] * f[i]).sum();
    let hinge: f64 = (0..n).map(|i| (1.0 - y[i] * f[i]).max(0.0)).sum();
    0.5 * norm2 + c * hinge
}

fn gram(kernel: Kernel, points: &[Point]) -> Vec<Vec<f64>> {
    points
        .iter()
        .map(|&a| points.iter().map(|&b| augmented(kernel, a, b)).collect())
        .collect()
}

/// Dual coordinate ascent without a bias (module doc), to a largest projected gradient below
/// `tol` or `max_epochs` epochs; the order of each epoch is a shuffle drawn from `seed`.
pub fn dual_coordinate_ascent(
    kernel: Kernel,
    points: &[Point],
    y: &[f64],
    c: f64,
    tol: f64,
    max_epochs: usize,
    seed: u64,
) -> NoBiasSolution {
    let n = points.len();
    let q = gram(kernel, points);
    let mut alpha = vec![0.0; n];
    // G_i = (Q̃α)_i − 1 = y_i f(x_i) − 1.
    let mut gradient = vec![-1.0; n];
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut trace = Vec::new();
    let mut epochs = 0;
    let mut violation = f64::INFINITY;
    while epochs < max_epochs {
        epochs += 1;
        for k in (1..n).rev() {
            order.swap(k, rng.random_range(0..=k));
        }
        for &i in &order {
            let qii = q[i][i];
            if qii <= 0.0 {
                continue;
            }
            let old = alpha[i];
            let new = (old - gradient[i] / qii).clamp(0.0, c);
            let delta = new - old;
            if delta != 0.0 {
                alpha[i] = new;
                for k in 0..n {
                    gradient[k] += y[k] * y[i] * q[i][k] * delta;
                }
            }
        }
        violation = (0..n)
            .map(|i| projected(alpha[i], gradient[i], c).abs())
            .fold(0.0, f64::max);
        let dual: f64 = (0..n)
            .map(|i| alpha[i] - 0.5 * alpha[i] * (gradient[i] + 1.0))
            .sum();
        trace.push(dual);
        if violation < tol {
            break;
        }
    }
    NoBiasSolution {
        alpha,
        y: y.to_vec(),
        iterations: epochs,
        max_violation: violation,
        trace,
    }
}

/// The gradient G projected on the box at α: what keeps α from being optimal.
fn projected(alpha: f64, gradient: f64, c: f64) -> f64 {
    if alpha <= 0.0 {
        gradient.min(0.0)
    } else if alpha >= c {
        gradient.max(0.0)
    } else {
        gradient
    }
}

/// Pegasos, kernelised (module doc): `steps` steps with λ = 1/(nC), one seeded draw each. The
/// returned `alpha` are the coefficients a_j/(λT) of f, so that y_j-signed they give f as
/// DCA's do; `trace` holds the primal objective every `record` steps (and at the end).
pub fn pegasos(
    kernel: Kernel,
    points: &[Point],
    y: &[f64],
    c: f64,
    steps: usize,
    record: usize,
    seed: u64,
) -> NoBiasSolution {
    let n = points.len();
    let q = gram(kernel, points);
    let lambda = 1.0 / (n as f64 * c);
    let mut counts = vec![0.0f64; n];
    // f_t(x_k) · λ t, kept for every training point: the margins a step needs.
    let mut scaled_f = vec![0.0f64; n];
    let mut rng = StdRng::seed_from_u64(seed);
    let mut trace = Vec::new();
    let coefficients = |counts: &[f64], t: usize| -> Vec<f64> {
        counts.iter().map(|&a| a / (lambda * t as f64)).collect()
    };
    for t in 1..=steps {
        let i = rng.random_range(0..n);
        // w_t = (1/(λ t)) Σ a_j y_j φ̃(x_j) before this step's update (with t − 1 counts).
        let margin = if t > 1 {
            y[i] * scaled_f[i] / (lambda * (t - 1) as f64)
        } else {
            0.0
        };
        if margin < 1.0 {
            counts[i] += 1.0;
            for k in 0..n {
                scaled_f[k] += y[i] * q[i][k];
            }
        }
        if record > 0 && (t % record == 0 || t == steps) {
            trace.push(primal(&q, y, &coefficients(&counts, t), c));
        }
    }
    NoBiasSolution {
        alpha: coefficients(&counts, steps.max(1)),
        y: y.to_vec(),
        iterations: steps,
        max_violation: 0.0,
        trace,
    }
}

/// The primal objective of a no-bias solution on its training points.
pub fn primal_objective(
    kernel: Kernel,
    points: &[Point],
    solution: &NoBiasSolution,
    c: f64,
) -> f64 {
    primal(&gram(kernel, points), &solution.y, &solution.alpha, c)
}

/// Steps after which Pegasos (seed 7) is within 1 % of DCA's primal optimum on the test's
/// overlapping blobs (200 points, C = 1, linear kernel), as the README states.
pub const PEGASOS_STEPS: usize = 20_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Preset;

    fn signs(labels: &[i32]) -> Vec<f64> {
        labels
            .iter()
            .map(|&l| if l == 1 { 1.0 } else { -1.0 })
            .collect()
    }

    #[test]
    fn kernel_dca_meets_the_no_bias_kkt_conditions() {
        for (preset, kernel, c) in [
            (Preset::Moons, Kernel::Rbf { gamma: 2.0 }, 1.0),
            (Preset::Overlapping, Kernel::Linear, 10.0),
            (
                Preset::Xor,
                Kernel::Polynomial {
                    gamma: 1.0,
                    degree: 2,
                    coef0: 1.0,
                },
                0.5,
            ),
        ] {
            for seed in 0..3 {
                let data = preset.generate(80, 0.4, seed);
                let y = signs(&data.labels);
                let tol = 1e-6;
                let s = dual_coordinate_ascent(kernel, &data.points, &y, c, tol, 100_000, seed);
                assert!(s.max_violation < tol, "{preset:?}: {}", s.max_violation);
                for (i, &p) in data.points.iter().enumerate() {
                    let yf = y[i] * s.decision(kernel, &data.points, p);
                    let a = s.alpha[i];
                    if a <= 0.0 {
                        assert!(yf >= 1.0 - 1e-5, "{preset:?} {i}: α = 0 but y f = {yf}");
                    } else if a >= c {
                        assert!(yf <= 1.0 + 1e-5, "{preset:?} {i}: α = C but y f = {yf}");
                    } else {
                        assert!(
                            (yf - 1.0).abs() <= 1e-5,
                            "{preset:?} {i}: free but y f = {yf}"
                        );
                    }
                }
                // The dual objective only rises.
                assert!(s.trace.windows(2).all(|w| w[1] >= w[0] - 1e-9));
            }
        }
    }

    #[test]
    fn the_coordinate_step_is_the_formula_of_the_notes() {
        // One point: f = 0 at the start, so α ← clip(1 / K̃(x, x), 0, C).
        let p = [[0.6, -0.8]];
        let s = dual_coordinate_ascent(Kernel::Linear, &p, &[1.0], 10.0, 1e-12, 1, 0);
        assert!((s.alpha[0] - 1.0 / (1.0 + 1.0)).abs() < 1e-15);
        let capped = dual_coordinate_ascent(Kernel::Linear, &p, &[1.0], 0.1, 1e-12, 1, 0);
        assert_eq!(capped.alpha[0], 0.1);
    }

    #[test]
    fn pegasos_approaches_the_dca_optimum() {
        let data = Preset::Overlapping.generate(200, 0.5, 2);
        let y = signs(&data.labels);
        let c = 1.0;
        let exact = dual_coordinate_ascent(Kernel::Linear, &data.points, &y, c, 1e-8, 100_000, 1);
        let optimum = primal_objective(Kernel::Linear, &data.points, &exact, c);
        let run = pegasos(Kernel::Linear, &data.points, &y, c, PEGASOS_STEPS, 1000, 7);
        let reached = *run.trace.last().unwrap();
        assert!(
            reached >= optimum - 1e-6 * optimum,
            "the optimum is a lower bound"
        );
        assert!(
            reached <= 1.01 * optimum,
            "Pegasos at {PEGASOS_STEPS} steps: {reached} vs DCA's {optimum}"
        );
    }
}

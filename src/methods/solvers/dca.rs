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
//! max(G_i, 0) at α_i = C) is below the tolerance: the no-bias KKT conditions. It is checked
//! at the end of every epoch.
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
//!
//! Both are runs that stop and go on ([`DcaRun`], [`PegasosRun`]): one [`DcaRun::step`] is one
//! coordinate update, one [`PegasosRun::step`] one stochastic step, and both keep y_i f(x_i)
//! for every training point up to date (O(n) per step, from one kernel column), so the dual
//! objective D = eᵀα − ½‖w̃‖², the primal P = ½‖w̃‖² + CΣ max(0, 1 − y_i f(x_i)) and
//! ‖w̃‖² = Σ_i c_i y_i f(x_i) (c_i the coefficients of f) are read off at any step in O(n).
//! Stepping a kept run on gives the same iterates as running again from the start.

use crate::core::data::Point;
use crate::core::kernel::{Kernel, KernelCache};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The kernel columns a run may keep (as the perceptron's).
const CACHE_BYTES: usize = 64 << 20;

/// Column i of K̃ = K + 1 on `points`, through `cache`.
fn augmented_column<'a>(cache: &'a mut KernelCache, i: usize, points: &[Point]) -> &'a [f64] {
    cache.ensure(i, points);
    cache.column(i)
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
            .map(|(&p, (&a, &y))| a * y * (kernel.eval(p, x) + 1.0))
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

/// ½‖w̃‖² + C Σ max(0, 1 − y_i f(x_i)) for coefficients `coef` (α, unsigned) and the margins
/// y_i f(x_i): ‖w̃‖² = Σ_i coef_i y_i f(x_i).
fn primal_from_margins(coef: &[f64], margins: &[f64], c: f64) -> f64 {
    let norm2: f64 = coef.iter().zip(margins).map(|(a, m)| a * m).sum();
    let hinge: f64 = margins.iter().map(|m| (1.0 - m).max(0.0)).sum();
    0.5 * norm2 + c * hinge
}

/// One update of a run: the point it visited, y_i f(x_i) there before the update, and its
/// coefficient (α_i for DCA, a_i/(λt) for Pegasos) before and after.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoordinateStep {
    pub index: usize,
    pub margin: f64,
    pub before: f64,
    pub after: f64,
}

/// Dual coordinate ascent without a bias (module doc), one coordinate update per
/// [`DcaRun::step`]. The order of each epoch is a shuffle drawn from the seed.
#[derive(Clone, Debug)]
pub struct DcaRun {
    c: f64,
    tol: f64,
    y: Vec<f64>,
    alpha: Vec<f64>,
    /// G_i = (Q̃α)_i − 1 = y_i f(x_i) − 1.
    gradient: Vec<f64>,
    order: Vec<usize>,
    /// The place in `order` of the next update; `order.len()` when an epoch has ended.
    next: usize,
    rng: StdRng,
    cache: KernelCache,
    epochs: usize,
    steps: usize,
    /// The largest projected gradient at the end of the last epoch.
    epoch_violation: f64,
}

impl DcaRun {
    /// A run from α = 0 on `points` with y_i ∈ {−1, +1}.
    pub fn new(kernel: Kernel, points: &[Point], y: &[f64], c: f64, tol: f64, seed: u64) -> Self {
        let n = points.len();
        let mut cache = KernelCache::new(CACHE_BYTES);
        cache.prepare(kernel, points);
        DcaRun {
            c,
            tol,
            y: y.to_vec(),
            alpha: vec![0.0; n],
            gradient: vec![-1.0; n],
            order: (0..n).collect(),
            next: n,
            rng: StdRng::seed_from_u64(seed),
            cache,
            epochs: 0,
            steps: 0,
            epoch_violation: f64::INFINITY,
        }
    }

    /// Whether the last epoch ended with the no-bias KKT conditions holding to the tolerance.
    pub fn converged(&self) -> bool {
        self.next == self.order.len() && self.epoch_violation < self.tol
    }

    /// One coordinate update, α_i ← clip(α_i − G_i/Q̃_ii, 0, C), at the next point of the
    /// epoch's order (a new epoch draws a new order).
    pub fn step(&mut self, points: &[Point]) -> CoordinateStep {
        let n = self.order.len();
        if self.next == n {
            for k in (1..n).rev() {
                self.order.swap(k, self.rng.random_range(0..=k));
            }
            self.next = 0;
            self.epochs += 1;
        }
        let i = self.order[self.next];
        self.next += 1;
        self.steps += 1;
        let old = self.alpha[i];
        let margin = self.gradient[i] + 1.0;
        let qii = self.cache.diagonal()[i] + 1.0;
        if qii > 0.0 {
            let new = (old - self.gradient[i] / qii).clamp(0.0, self.c);
            let delta = new - old;
            if delta != 0.0 {
                self.alpha[i] = new;
                let scale = self.y[i] * delta;
                let column = augmented_column(&mut self.cache, i, points);
                for (k, g) in self.gradient.iter_mut().enumerate() {
                    *g += self.y[k] * scale * (column[k] + 1.0);
                }
            }
        }
        if self.next == n {
            self.epoch_violation = self.max_violation();
        }
        CoordinateStep {
            index: i,
            margin,
            before: old,
            after: self.alpha[i],
        }
    }

    /// The largest projected gradient now (O(n)).
    pub fn max_violation(&self) -> f64 {
        (0..self.alpha.len())
            .map(|i| projected(self.alpha[i], self.gradient[i], self.c).abs())
            .fold(0.0, f64::max)
    }

    /// The dual objective eᵀα − ½αᵀQ̃α = Σ α_i − ½ Σ α_i (G_i + 1).
    pub fn dual(&self) -> f64 {
        self.alpha
            .iter()
            .zip(&self.gradient)
            .map(|(a, g)| a - 0.5 * a * (g + 1.0))
            .sum()
    }

    /// y_i f(x_i) for every training point.
    pub fn margins(&self) -> Vec<f64> {
        self.gradient.iter().map(|g| g + 1.0).collect()
    }

    /// The primal objective ½‖w̃‖² + C Σ max(0, 1 − y_i f(x_i)).
    pub fn primal(&self) -> f64 {
        primal_from_margins(&self.alpha, &self.margins(), self.c)
    }

    pub fn alpha(&self) -> &[f64] {
        &self.alpha
    }

    /// Coordinate updates so far.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Epochs begun so far.
    pub fn epochs(&self) -> usize {
        self.epochs
    }

    /// The solution as it stands (`trace`: empty).
    pub fn solution(&self) -> NoBiasSolution {
        NoBiasSolution {
            alpha: self.alpha.clone(),
            y: self.y.clone(),
            iterations: self.epochs,
            max_violation: self.max_violation(),
            trace: Vec::new(),
        }
    }
}

/// Dual coordinate ascent without a bias (module doc), to a largest projected gradient below
/// `tol` or `max_epochs` epochs; the order of each epoch is a shuffle drawn from `seed`.
/// `trace`: the dual objective after every epoch.
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
    let mut run = DcaRun::new(kernel, points, y, c, tol, seed);
    let mut trace = Vec::new();
    while run.epochs() < max_epochs {
        for _ in 0..n {
            run.step(points);
        }
        trace.push(run.dual());
        if run.converged() {
            break;
        }
    }
    NoBiasSolution {
        trace,
        ..run.solution()
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

/// Pegasos, kernelised (module doc), one seeded draw per [`PegasosRun::step`], λ = 1/(nC).
#[derive(Clone, Debug)]
pub struct PegasosRun {
    lambda: f64,
    c: f64,
    y: Vec<f64>,
    /// a_j: the steps at which point j was drawn with a margin below 1.
    counts: Vec<f64>,
    /// f_t(x_k) · λt for every training point: the margins a step needs.
    scaled_f: Vec<f64>,
    rng: StdRng,
    cache: KernelCache,
    steps: usize,
}

impl PegasosRun {
    /// A run from w̃ = 0 on `points` with y_i ∈ {−1, +1}.
    pub fn new(kernel: Kernel, points: &[Point], y: &[f64], c: f64, seed: u64) -> Self {
        let n = points.len();
        let mut cache = KernelCache::new(CACHE_BYTES);
        cache.prepare(kernel, points);
        PegasosRun {
            lambda: 1.0 / (n as f64 * c),
            c,
            y: y.to_vec(),
            counts: vec![0.0; n],
            scaled_f: vec![0.0; n],
            rng: StdRng::seed_from_u64(seed),
            cache,
            steps: 0,
        }
    }

    /// One step t: draw i; if y_i f_{t−1}(x_i) < 1, count it (w̃ gains η_t y_i φ̃(x_i)); the
    /// shrinking by (1 − η_t λ) is the 1/(λt) in front of the sum.
    pub fn step(&mut self, points: &[Point]) -> CoordinateStep {
        let n = self.counts.len();
        let i = self.rng.random_range(0..n);
        let t = self.steps + 1;
        let before = self.coefficient(i);
        // w_t = (1/(λ t)) Σ a_j y_j φ̃(x_j) before this step's update (with t − 1 counts).
        let margin = if t > 1 {
            self.y[i] * self.scaled_f[i] / (self.lambda * (t - 1) as f64)
        } else {
            0.0
        };
        self.steps = t;
        if margin < 1.0 {
            self.counts[i] += 1.0;
            let yi = self.y[i];
            let column = augmented_column(&mut self.cache, i, points);
            for (f, k) in self.scaled_f.iter_mut().zip(column) {
                *f += yi * (k + 1.0);
            }
        }
        CoordinateStep {
            index: i,
            margin,
            before,
            after: self.coefficient(i),
        }
    }

    /// The coefficient a_i/(λt) of point i in f (0 before the first step).
    fn coefficient(&self, i: usize) -> f64 {
        if self.steps == 0 {
            0.0
        } else {
            self.counts[i] / (self.lambda * self.steps as f64)
        }
    }

    /// The coefficients of f, one per training point.
    pub fn coefficients(&self) -> Vec<f64> {
        (0..self.counts.len())
            .map(|i| self.coefficient(i))
            .collect()
    }

    /// y_i f(x_i) for every training point.
    pub fn margins(&self) -> Vec<f64> {
        let scale = if self.steps == 0 {
            0.0
        } else {
            1.0 / (self.lambda * self.steps as f64)
        };
        self.scaled_f
            .iter()
            .zip(&self.y)
            .map(|(f, y)| y * f * scale)
            .collect()
    }

    /// The primal objective ½‖w̃‖² + C Σ max(0, 1 − y_i f(x_i)).
    pub fn primal(&self) -> f64 {
        primal_from_margins(&self.coefficients(), &self.margins(), self.c)
    }

    /// Steps so far.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The solution as it stands (`trace`: empty).
    pub fn solution(&self) -> NoBiasSolution {
        NoBiasSolution {
            alpha: self.coefficients(),
            y: self.y.clone(),
            iterations: self.steps,
            max_violation: 0.0,
            trace: Vec::new(),
        }
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
    let mut run = PegasosRun::new(kernel, points, y, c, seed);
    let mut trace = Vec::new();
    for t in 1..=steps {
        run.step(points);
        if record > 0 && (t % record == 0 || t == steps) {
            trace.push(run.primal());
        }
    }
    NoBiasSolution {
        trace,
        ..run.solution()
    }
}

/// The primal objective of a no-bias solution on its training points.
pub fn primal_objective(
    kernel: Kernel,
    points: &[Point],
    solution: &NoBiasSolution,
    c: f64,
) -> f64 {
    let margins: Vec<f64> = points
        .iter()
        .zip(&solution.y)
        .map(|(&p, y)| y * solution.decision(kernel, points, p))
        .collect();
    primal_from_margins(&solution.alpha, &margins, c)
}
/// Steps after which Pegasos (seed 7) is within 1 % of DCA's primal optimum on the test's
/// overlapping blobs (200 points, C = 1, linear kernel), as the README states.
pub const PEGASOS_STEPS: usize = 20_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;

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

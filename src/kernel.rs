//! Kernels K(x, z) = ⟨φ(x), φ(z)⟩ and a cache of Gram-matrix columns.
//!
//! The parameterisation is LIBSVM's (and so scikit-learn's), so numbers compare directly:
//!
//! | kernel     | K(x, z)                    |
//! |------------|----------------------------|
//! | linear     | xᵀz                        |
//! | polynomial | (γ xᵀz + coef0)^degree     |
//! | RBF        | exp(−γ ‖x − z‖²)           |
//! | sigmoid    | tanh(γ xᵀz + coef0)        |
//!
//! The RBF kernel is also written with a bandwidth σ as exp(−‖x − z‖²/(2σ²)), i.e. γ = 1/(2σ²).
//! The sigmoid kernel is not positive semi-definite for every γ and coef0 (it is not a Mercer
//! kernel in general); the solver still runs, as LIBSVM's does.

use crate::data::Point;
use crate::error::Error;
use std::collections::VecDeque;

/// Which kernel, with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kernel {
    Linear,
    Polynomial { gamma: f64, degree: u32, coef0: f64 },
    Rbf { gamma: f64 },
    Sigmoid { gamma: f64, coef0: f64 },
}

/// The names used by the CLI, the URL and the page (LIBSVM's short names).
pub const KERNEL_NAMES: [&str; 4] = ["linear", "poly", "rbf", "sigmoid"];

impl Kernel {
    /// Builds a kernel from its short name and the full set of parameters (each kernel takes
    /// what it needs), checking their ranges.
    pub fn from_name(name: &str, gamma: f64, degree: u32, coef0: f64) -> Result<Kernel, Error> {
        let needs_gamma = name != "linear";
        if needs_gamma && !(gamma.is_finite() && gamma > 0.0) {
            return Err(Error::Parameter("gamma <= 0".into()));
        }
        if !coef0.is_finite() {
            return Err(Error::Parameter("coef0 is not a finite number".into()));
        }
        match name {
            "linear" => Ok(Kernel::Linear),
            "poly" | "polynomial" => {
                if !(1..=10).contains(&degree) {
                    return Err(Error::Parameter("degree must be between 1 and 10".into()));
                }
                Ok(Kernel::Polynomial {
                    gamma,
                    degree,
                    coef0,
                })
            }
            "rbf" => Ok(Kernel::Rbf { gamma }),
            "sigmoid" => Ok(Kernel::Sigmoid { gamma, coef0 }),
            other => Err(Error::Parameter(format!(
                "unknown kernel '{other}' (use linear, poly, rbf or sigmoid)"
            ))),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Kernel::Linear => "linear",
            Kernel::Polynomial { .. } => "poly",
            Kernel::Rbf { .. } => "rbf",
            Kernel::Sigmoid { .. } => "sigmoid",
        }
    }

    pub fn is_linear(&self) -> bool {
        matches!(self, Kernel::Linear)
    }

    /// K(x, z).
    #[inline]
    pub fn eval(&self, x: Point, z: Point) -> f64 {
        let dot = x[0] * z[0] + x[1] * z[1];
        match *self {
            Kernel::Linear => dot,
            Kernel::Polynomial {
                gamma,
                degree,
                coef0,
            } => (gamma * dot + coef0).powi(degree as i32),
            Kernel::Rbf { gamma } => {
                let d0 = x[0] - z[0];
                let d1 = x[1] - z[1];
                (-gamma * (d0 * d0 + d1 * d1)).exp()
            }
            Kernel::Sigmoid { gamma, coef0 } => (gamma * dot + coef0).tanh(),
        }
    }

    /// The Gram matrix K_ij = K(x_i, x_j), row-major.
    pub fn gram(&self, points: &[Point]) -> Vec<f64> {
        let mut gram = Vec::with_capacity(points.len() * points.len());
        for &a in points {
            gram.extend(points.iter().map(|&b| self.eval(a, b)));
        }
        gram
    }
}

/// Σ a_i b_i with four running sums, so the additions do not wait on each other (and the
/// compiler may pair them in SIMD lanes). The order of summation differs from a plain loop's
/// only in rounding.
#[inline]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut sums = [0.0; 4];
    let mut chunks_a = a.chunks_exact(4);
    let mut chunks_b = b.chunks_exact(4);
    for (x, y) in (&mut chunks_a).zip(&mut chunks_b) {
        for k in 0..4 {
            sums[k] += x[k] * y[k];
        }
    }
    let tail: f64 = chunks_a
        .remainder()
        .iter()
        .zip(chunks_b.remainder())
        .map(|(x, y)| x * y)
        .sum();
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
}

/// Columns of the Gram matrix, computed on demand and kept up to a memory budget (least
/// recently used first out), as LIBSVM's kernel cache does. It survives between fits: a change
/// of C keeps every column, moving one point patches one entry per column, so dragging stays
/// cheap. Columns hold K, not Q = yyᵀ∘K, so relabelling needs no invalidation.
#[derive(Clone, Debug)]
pub struct KernelCache {
    kernel: Kernel,
    n: usize,
    diagonal: Vec<f64>,
    columns: Vec<Option<Vec<f64>>>,
    recent: VecDeque<usize>,
    max_columns: usize,
    budget_bytes: usize,
}

impl KernelCache {
    /// An empty cache that will hold at most `budget_bytes` of columns (at least two).
    pub fn new(budget_bytes: usize) -> Self {
        Self {
            kernel: Kernel::Linear,
            n: 0,
            diagonal: Vec::new(),
            columns: Vec::new(),
            recent: VecDeque::new(),
            max_columns: 2,
            budget_bytes,
        }
    }

    /// Makes the cache describe `kernel` on `points`, keeping what is still valid: everything
    /// when nothing changed, nothing when the kernel or the number of points changed.
    pub fn prepare(&mut self, kernel: Kernel, points: &[Point]) {
        if kernel != self.kernel || points.len() != self.n {
            self.kernel = kernel;
            self.n = points.len();
            self.columns = vec![None; self.n];
            self.recent.clear();
            self.max_columns = (self.budget_bytes / (8 * self.n.max(1))).max(2);
            self.diagonal = points.iter().map(|&p| kernel.eval(p, p)).collect();
        }
    }

    /// Points were added or removed: nothing cached is valid any more.
    pub fn invalidate(&mut self) {
        self.n = usize::MAX;
    }

    /// Point `index` moved to `points[index]`: patch every cached column and drop its own.
    pub fn point_moved(&mut self, index: usize, points: &[Point]) {
        if points.len() != self.n || index >= self.n {
            self.invalidate();
            return;
        }
        let moved = points[index];
        self.diagonal[index] = self.kernel.eval(moved, moved);
        self.columns[index] = None;
        self.recent.retain(|&c| c != index);
        for &c in &self.recent {
            if let Some(column) = self.columns[c].as_mut() {
                column[index] = self.kernel.eval(points[c], moved);
            }
        }
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// K(x_i, x_i) for every point.
    pub fn diagonal(&self) -> &[f64] {
        &self.diagonal
    }

    /// Makes column `i` resident (computing it if needed) and marks it most recently used.
    pub fn ensure(&mut self, i: usize, points: &[Point]) {
        if self.columns[i].is_some() {
            if self.recent.back() != Some(&i) {
                self.recent.retain(|&c| c != i);
                self.recent.push_back(i);
            }
            return;
        }
        while self.recent.len() >= self.max_columns {
            if let Some(old) = self.recent.pop_front() {
                self.columns[old] = None;
            }
        }
        let xi = points[i];
        let kernel = self.kernel;
        self.columns[i] = Some(points.iter().map(|&p| kernel.eval(xi, p)).collect());
        self.recent.push_back(i);
    }

    /// Column `i`; call [`KernelCache::ensure`] first.
    pub fn column(&self, i: usize) -> &[f64] {
        self.columns[i]
            .as_deref()
            .expect("kernel column requested before ensure()")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_matches_the_plain_sum() {
        for n in [0, 1, 3, 4, 5, 17] {
            let a: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
            let b: Vec<f64> = (0..n).map(|i| (i as f64 * 1.3).cos()).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert!((dot(&a, &b) - plain).abs() < 1e-14, "n = {n}");
        }
    }

    #[test]
    fn kernels_match_their_formulas() {
        let (x, z) = ([0.5, -1.0], [2.0, 0.25]);
        let dot: f64 = 0.5 * 2.0 - 0.25;
        assert_eq!(Kernel::Linear.eval(x, z), dot);
        let poly = Kernel::from_name("poly", 0.5, 3, 1.0).unwrap();
        assert!((poly.eval(x, z) - (0.5 * dot + 1.0).powi(3)).abs() < 1e-15);
        let rbf = Kernel::from_name("rbf", 2.0, 3, 0.0).unwrap();
        let d2: f64 = 1.5f64.powi(2) + 1.25f64.powi(2);
        assert!((rbf.eval(x, z) - (-2.0 * d2).exp()).abs() < 1e-15);
        let sig = Kernel::from_name("sigmoid", 0.5, 3, -1.0).unwrap();
        assert!((sig.eval(x, z) - (0.5 * dot - 1.0).tanh()).abs() < 1e-15);
    }

    #[test]
    fn degree_two_kernel_is_an_inner_product_of_features() {
        // (xᵀz)² = ⟨φ(x), φ(z)⟩ with φ(x) = (x₁², x₂², √2 x₁x₂).
        let phi = |p: Point| [p[0] * p[0], p[1] * p[1], 2f64.sqrt() * p[0] * p[1]];
        let k = Kernel::from_name("poly", 1.0, 2, 0.0).unwrap();
        let (x, z) = ([0.3, -0.7], [-1.1, 0.4]);
        let (a, b) = (phi(x), phi(z));
        let inner = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        assert!((k.eval(x, z) - inner).abs() < 1e-12);
    }

    #[test]
    fn parameter_checks() {
        assert_eq!(
            Kernel::from_name("rbf", 0.0, 3, 0.0)
                .unwrap_err()
                .to_string(),
            "gamma <= 0"
        );
        assert!(Kernel::from_name("rbf", f64::NAN, 3, 0.0).is_err());
        assert!(Kernel::from_name("poly", 1.0, 0, 0.0).is_err());
        assert!(Kernel::from_name("cubic", 1.0, 3, 0.0).is_err());
        assert!(Kernel::from_name("linear", 0.0, 3, 0.0).is_ok());
    }

    #[test]
    fn cache_columns_agree_with_gram_after_moves_and_evictions() {
        let mut points: Vec<Point> = (0..7)
            .map(|i| [i as f64 * 0.3 - 1.0, (i * i) as f64 * 0.05])
            .collect();
        let kernel = Kernel::Rbf { gamma: 1.3 };
        // Budget for three columns of seven entries.
        let mut cache = KernelCache::new(3 * 8 * 7);
        cache.prepare(kernel, &points);
        for step in 0..20 {
            let i = (step * 5) % 7;
            if step % 4 == 3 {
                points[i] = [points[i][1], -points[i][0]];
                cache.point_moved(i, &points);
                cache.prepare(kernel, &points);
            }
            cache.ensure(i, &points);
            let gram = kernel.gram(&points);
            for (j, &value) in cache.column(i).iter().enumerate() {
                assert!((value - gram[i * 7 + j]).abs() < 1e-15);
            }
            for (j, &value) in cache.diagonal().iter().enumerate() {
                assert!((value - gram[j * 7 + j]).abs() < 1e-15);
            }
        }
    }
}

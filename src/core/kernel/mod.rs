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
//!
//! A fifth kind, `composed`, is built from these four by sums, products, positive scaling, added
//! constants, powers and exp ([`rules`]).

use crate::core::data::Point;
use crate::core::error::Error;

mod exp;
mod lattice;
pub mod rows;
pub mod rules;

pub use lattice::LatticeExpansion;
pub use rules::{Composition, PanelParams};

/// Which kernel, with its parameters.
///
/// A composed kernel is held inline (a few hundred bytes) rather than behind a pointer, so a
/// kernel stays `Copy`, as every solver and view takes it, and K(x, z) allocates nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kernel {
    Linear,
    Polynomial {
        gamma: f64,
        degree: u32,
        coef0: f64,
    },
    Rbf {
        gamma: f64,
    },
    Sigmoid {
        gamma: f64,
        coef0: f64,
    },
    /// Built by rule from the four above ([`rules`]).
    Composed(Composition),
}

/// The polynomial kernel's degrees (and the polynomial feature map's): one range for the
/// kernel's check, the slider and the command line ([`rows::DEGREE`]).
pub const MIN_DEGREE: u32 = 1;
pub const MAX_DEGREE: u32 = 10;

impl Kernel {
    /// Builds a kernel from its short name and the full set of parameters (each kernel takes
    /// what it needs), checking their ranges.
    pub fn from_name(name: &str, gamma: f64, degree: u32, coef0: f64) -> Result<Kernel, Error> {
        let needs_gamma = !matches!(name, "linear" | "poly1");
        if needs_gamma && !(gamma.is_finite() && gamma > 0.0) {
            return Err(Error::Parameter("gamma <= 0".into()));
        }
        if !coef0.is_finite() {
            return Err(Error::Parameter("coef0 is not a finite number".into()));
        }
        match name {
            "linear" => Ok(Kernel::Linear),
            "poly" | "polynomial" => {
                if !(MIN_DEGREE..=MAX_DEGREE).contains(&degree) {
                    return Err(Error::Parameter(format!(
                        "degree must be between {MIN_DEGREE} and {MAX_DEGREE}"
                    )));
                }
                Ok(Kernel::Polynomial {
                    gamma,
                    degree,
                    coef0,
                })
            }
            "poly1" => Kernel::from_name("poly", 1.0, degree, 1.0),
            "rbf" => Ok(Kernel::Rbf { gamma }),
            "sigmoid" => Ok(Kernel::Sigmoid { gamma, coef0 }),
            "composed" => Err(Error::Parameter(
                "a composed kernel needs its expression (kexpr)".into(),
            )),
            other => {
                let names: Vec<&str> = rows::KERNELS.iter().map(|k| k.value).collect();
                let (last, rest) = names.split_last().expect("kernels");
                Err(Error::Parameter(format!(
                    "unknown kernel '{other}' (use {} or {last})",
                    rest.join(", ")
                )))
            }
        }
    }

    /// A kernel built by rule from `expression`; bases written bare take the panel's γ,
    /// degree and coef0.
    pub fn composed(expression: &str, panel: PanelParams) -> Result<Kernel, Error> {
        Composition::parse(expression, panel).map(Kernel::Composed)
    }

    pub fn name(&self) -> &'static str {
        match self {
            Kernel::Linear => "linear",
            Kernel::Polynomial { .. } => "poly",
            Kernel::Rbf { .. } => "rbf",
            Kernel::Sigmoid { .. } => "sigmoid",
            Kernel::Composed(_) => "composed",
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
            Kernel::Rbf { gamma } => exp::exp_non_positive(rbf_exponent(gamma, x, z)),
            Kernel::Sigmoid { gamma, coef0 } => (gamma * dot + coef0).tanh(),
            Kernel::Composed(ref composition) => composition.eval(x, z),
        }
    }

    /// ∇ₓK(x, z): s·z for the dot-product kernels, s·(x − z) for RBF, and for a composed
    /// kernel by the rules of differentiation ([`Composition::value_and_gradient`]).
    pub fn gradient(&self, x: Point, z: Point) -> Point {
        let dot = x[0] * z[0] + x[1] * z[1];
        let scaled = |s: f64, d: Point| [s * d[0], s * d[1]];
        match *self {
            Kernel::Linear => z,
            Kernel::Polynomial {
                gamma,
                degree,
                coef0,
            } => scaled(
                degree as f64 * gamma * (gamma * dot + coef0).powi(degree as i32 - 1),
                z,
            ),
            Kernel::Rbf { gamma } => {
                scaled(-2.0 * gamma * self.eval(x, z), [x[0] - z[0], x[1] - z[1]])
            }
            Kernel::Sigmoid { gamma, coef0 } => {
                let t = (gamma * dot + coef0).tanh();
                scaled(gamma * (1.0 - t * t), z)
            }
            Kernel::Composed(ref composition) => composition.value_and_gradient(x, z).1,
        }
    }

    /// `out[t]` = K(x, z_t) for the points z_t (as many as `out` holds): a Gram column, or part
    /// of one. Each entry has the bits of [`Kernel::eval`]; the RBF kernel's exponentials run
    /// in SIMD lanes.
    pub fn eval_into(&self, x: Point, mut points: impl Iterator<Item = Point>, out: &mut [f64]) {
        match *self {
            Kernel::Rbf { gamma } => {
                for (value, z) in out.iter_mut().zip(points) {
                    *value = rbf_exponent(gamma, x, z);
                }
                exp::exp_in_place(out);
            }
            Kernel::Composed(ref composition) => composition.eval_into(x, &mut points, out),
            _ => {
                for (value, z) in out.iter_mut().zip(points) {
                    *value = self.eval(x, z);
                }
            }
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

/// −γ‖x − z‖², the exponent of the RBF kernel (≤ 0).
#[inline(always)]
fn rbf_exponent(gamma: f64, x: Point, z: Point) -> f64 {
    let d0 = x[0] - z[0];
    let d1 = x[1] - z[1];
    -gamma * (d0 * d0 + d1 * d1)
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
///
/// A solver that shrinks its problem (see `solvers::smo`) asks only for the entries of a column
/// on its *active set* ([`KernelCache::ensure_on`]); the others are left uncomputed (NaN) and
/// filled in when a later request needs them. Between two calls of
/// [`KernelCache::active_set_grew`] the active sets asked for may only shrink, so a column
/// filled on an earlier active set of the same epoch covers every later one.
///
/// Every column takes n entries of 8 bytes whatever the active set, so the budget bounds the
/// memory outright: budget / (8 n) columns, e.g. 1 677 columns of 80 kB at n = 10 000 for
/// 128 MiB.
#[derive(Clone, Debug)]
pub struct KernelCache {
    kernel: Kernel,
    n: usize,
    diagonal: Vec<f64>,
    columns: Vec<Option<Column>>,
    /// The resident columns, least recently used first: a doubly linked list through
    /// `previous` and `next`, whose head and tail sit at index n (O(1) to touch or evict).
    previous: Vec<usize>,
    next: Vec<usize>,
    resident: usize,
    max_columns: usize,
    budget_bytes: usize,
    /// Bumped whenever the active set grows; see [`KernelCache::active_set_grew`].
    epoch: u64,
    /// The storage of the last evicted column, for the next one.
    spare: Vec<f64>,
    /// Work space of a partial column: the indices to compute, and their values.
    missing: Vec<usize>,
    values: Vec<f64>,
}

#[derive(Clone, Debug)]
struct Column {
    /// K(x_i, x_t) for every t; NaN where not computed yet (empty while being made).
    values: Vec<f64>,
    /// No entry is NaN.
    complete: bool,
    /// The epoch whose active set is computed (meaningless when complete).
    epoch: u64,
}

impl KernelCache {
    /// An empty cache that will hold at most `budget_bytes` of columns (at least two).
    pub fn new(budget_bytes: usize) -> Self {
        Self {
            kernel: Kernel::Linear,
            n: 0,
            diagonal: Vec::new(),
            columns: Vec::new(),
            previous: vec![0],
            next: vec![0],
            resident: 0,
            max_columns: 2,
            budget_bytes,
            epoch: 0,
            spare: Vec::new(),
            missing: Vec::new(),
            values: Vec::new(),
        }
    }

    /// How many columns the budget allows for `n` points (at least two: SMO needs a pair).
    pub fn columns_for(budget_bytes: usize, n: usize) -> usize {
        (budget_bytes / (8 * n.max(1))).max(2)
    }

    /// Makes the cache describe `kernel` on `points`, keeping what is still valid: everything
    /// when nothing changed, nothing when the kernel or the number of points changed.
    pub fn prepare(&mut self, kernel: Kernel, points: &[Point]) {
        if kernel != self.kernel || points.len() != self.n {
            self.kernel = kernel;
            self.n = points.len();
            self.columns = vec![None; self.n];
            self.previous = vec![self.n; self.n + 1];
            self.next = vec![self.n; self.n + 1];
            self.resident = 0;
            self.max_columns = Self::columns_for(self.budget_bytes, self.n);
            self.diagonal = points.iter().map(|&p| kernel.eval(p, p)).collect();
        }
    }

    /// Points were added or removed: nothing cached is valid any more.
    pub fn invalidate(&mut self) {
        self.n = usize::MAX;
    }

    /// The active set is about to grow (a new fit, or a solver undoing its shrinking): columns
    /// computed only on earlier active sets must fill in what they lack before they are used.
    pub fn active_set_grew(&mut self) {
        self.epoch += 1;
    }

    /// Point `index` moved to `points[index]`: patch every cached column and drop its own.
    pub fn point_moved(&mut self, index: usize, points: &[Point]) {
        if points.len() != self.n || index >= self.n {
            self.invalidate();
            return;
        }
        let moved = points[index];
        self.diagonal[index] = self.kernel.eval(moved, moved);
        if self.columns[index].is_some() {
            self.unlink(index);
            self.columns[index] = None;
        }
        let mut c = self.next[self.n];
        while c != self.n {
            if let Some(column) = self.columns[c].as_mut() {
                column.values[index] = self.kernel.eval(points[c], moved);
            }
            c = self.next[c];
        }
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// K(x_i, x_i) for every point.
    pub fn diagonal(&self) -> &[f64] {
        &self.diagonal
    }

    /// Makes all of column `i` resident (computing what is missing) and marks it most
    /// recently used.
    pub fn ensure(&mut self, i: usize, points: &[Point]) {
        let (kernel, n) = (self.kernel, self.n);
        let xi = points[i];
        let mut missing = std::mem::take(&mut self.missing);
        let mut values = std::mem::take(&mut self.values);
        let column = self.resident_column(i);
        if column.values.is_empty() {
            column.values.resize(n, 0.0);
            kernel.eval_into(xi, points.iter().copied(), &mut column.values);
            column.complete = true;
        } else if !column.complete {
            missing.clear();
            missing.extend((0..n).filter(|&t| column.values[t].is_nan()));
            fill(
                kernel,
                xi,
                points,
                &missing,
                &mut values,
                &mut column.values,
            );
            column.complete = true;
        }
        self.missing = missing;
        self.values = values;
    }

    /// Makes the entries of column `i` on `active` (indices in increasing order) resident and
    /// marks the column most recently used. With every index active it is [`Self::ensure`].
    pub fn ensure_on(&mut self, i: usize, points: &[Point], active: &[usize]) {
        if active.len() == self.n {
            return self.ensure(i, points);
        }
        let (kernel, epoch, n) = (self.kernel, self.epoch, self.n);
        let xi = points[i];
        let mut missing = std::mem::take(&mut self.missing);
        let mut values = std::mem::take(&mut self.values);
        let column = self.resident_column(i);
        if column.values.is_empty() {
            column.values.resize(n, f64::NAN);
            fill(kernel, xi, points, active, &mut values, &mut column.values);
            column.epoch = epoch;
        } else if !column.complete && column.epoch != epoch {
            missing.clear();
            missing.extend(
                active
                    .iter()
                    .copied()
                    .filter(|&t| column.values[t].is_nan()),
            );
            fill(
                kernel,
                xi,
                points,
                &missing,
                &mut values,
                &mut column.values,
            );
            column.epoch = epoch;
        }
        self.missing = missing;
        self.values = values;
    }

    /// Column `i`; call [`KernelCache::ensure`] or [`KernelCache::ensure_on`] first, and read
    /// only the entries asked for.
    pub fn column(&self, i: usize) -> &[f64] {
        &self.columns[i]
            .as_ref()
            .expect("kernel column requested before ensure()")
            .values
    }

    /// Column `i`, made most recently used; a new one (every entry missing) when it was not
    /// resident, after evicting the least recently used column if the budget is full.
    fn resident_column(&mut self, i: usize) -> &mut Column {
        if self.columns[i].is_some() {
            self.unlink(i);
        } else {
            while self.resident >= self.max_columns {
                let oldest = self.next[self.n];
                self.unlink(oldest);
                if let Some(evicted) = self.columns[oldest].take() {
                    self.spare = evicted.values;
                }
            }
            // Empty until the caller fills in what it needs (in the storage of the last
            // column evicted: a fresh allocation of this size costs page faults).
            let mut values = std::mem::take(&mut self.spare);
            values.clear();
            self.columns[i] = Some(Column {
                values,
                complete: false,
                epoch: self.epoch,
            });
        }
        // Link at the tail, as the most recently used.
        let tail = self.previous[self.n];
        self.previous[i] = tail;
        self.next[i] = self.n;
        self.next[tail] = i;
        self.previous[self.n] = i;
        self.resident += 1;
        self.columns[i].as_mut().expect("just made resident")
    }

    fn unlink(&mut self, i: usize) {
        let (before, after) = (self.previous[i], self.next[i]);
        self.next[before] = after;
        self.previous[after] = before;
        self.resident -= 1;
    }
}

/// `column[t]` = K(x_i, x_t) for t in `indices`, computed together in `values`.
fn fill(
    kernel: Kernel,
    xi: Point,
    points: &[Point],
    indices: &[usize],
    values: &mut Vec<f64>,
    column: &mut [f64],
) {
    values.resize(indices.len(), 0.0);
    kernel.eval_into(xi, indices.iter().map(|&t| points[t]), values);
    for (&t, &value) in indices.iter().zip(values.iter()) {
        column[t] = value;
    }
}

#[cfg(test)]
mod tests {
    /// Every kernel the table names is one [`Kernel::from_name`] builds (one built by rule
    /// from its expression), and an unknown one is refused naming them all.
    #[test]
    fn the_table_names_the_kernels_from_name_builds() {
        for kernel in rows::KERNELS {
            let built = Kernel::from_name(kernel.value, 1.0, 3, 0.0);
            match kernel.value {
                "composed" => assert!(built.unwrap_err().to_string().contains("expression")),
                name => assert_eq!(built.unwrap().name(), name.replace("poly1", "poly")),
            }
        }
        assert_eq!(
            Kernel::from_name("cosine", 1.0, 3, 0.0)
                .unwrap_err()
                .to_string(),
            "unknown kernel 'cosine' (use linear, poly, poly1, rbf, sigmoid or composed)"
        );
        let degrees = MIN_DEGREE..=MAX_DEGREE;
        assert!(Kernel::from_name("poly", 1.0, *degrees.end(), 0.0).is_ok());
        assert!(Kernel::from_name("poly", 1.0, degrees.end() + 1, 0.0).is_err());
    }

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

    /// The notes' (1 + xᵀz)^d is LIBSVM's polynomial with γ = 1 and coef0 = 1, whatever γ and
    /// coef0 are set to.
    #[test]
    fn the_notes_polynomial_is_one_plus_the_inner_product_to_the_d() {
        let (x, z) = ([0.3, -0.7], [-1.1, 0.4]);
        let dot = x[0] * z[0] + x[1] * z[1];
        for (gamma, coef0) in [(2.0, 0.0), (0.0, -5.0), (f64::NAN, 3.0)] {
            let k = Kernel::from_name("poly1", gamma, 3, coef0).unwrap();
            assert_eq!(
                k,
                Kernel::Polynomial {
                    gamma: 1.0,
                    degree: 3,
                    coef0: 1.0
                }
            );
            assert!((k.eval(x, z) - (1.0 + dot).powi(3)).abs() < 1e-15);
        }
        assert!(Kernel::from_name("poly1", 1.0, 0, 1.0).is_err());
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
    fn active_set_columns_fill_in_what_a_larger_set_needs() {
        let points: Vec<Point> = (0..9).map(|i| [i as f64 * 0.2, (i % 3) as f64]).collect();
        let kernel = Kernel::Rbf { gamma: 0.7 };
        let gram = kernel.gram(&points);
        let mut cache = KernelCache::new(1 << 20);
        cache.prepare(kernel, &points);
        let agrees = |cache: &KernelCache, on: &[usize]| {
            on.iter()
                .all(|&t| (cache.column(4)[t] - gram[4 * 9 + t]).abs() < 1e-15)
        };
        cache.ensure_on(4, &points, &[1, 4, 6]);
        assert!(agrees(&cache, &[1, 4, 6]));
        // Only what was asked for is computed.
        assert!(cache.column(4)[0].is_nan() && cache.column(4)[8].is_nan());
        // A smaller set in the same epoch is already covered.
        cache.ensure_on(4, &points, &[4, 6]);
        assert!(cache.column(4)[0].is_nan());
        // The set grows: the missing entries are filled in.
        cache.active_set_grew();
        cache.ensure_on(4, &points, &[0, 1, 4, 6, 8]);
        assert!(agrees(&cache, &[0, 1, 4, 6, 8]));
        assert!(cache.column(4)[2].is_nan());
        cache.ensure(4, &points);
        assert!(agrees(&cache, &(0..9).collect::<Vec<_>>()));
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

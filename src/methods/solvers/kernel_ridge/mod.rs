//! Kernel ridge classification (kernel regularised least squares): regress the targets
//! t_i ∈ {−1, +1} (+1 for the larger label) on the features φ(x) with an L2 penalty and no
//! intercept,
//!
//! ```text
//!     minimise  Σ_i (wᵀφ(x_i) − t_i)² + λ‖w‖²,      λ > 0.
//! ```
//!
//! With Φ the matrix of rows φ(x_i)ᵀ the optimum is w = (ΦᵀΦ + λI)⁻¹Φᵀt = Φᵀ(ΦΦᵀ + λI)⁻¹t, so w
//! is a combination Σ_j β_j φ(x_j) of the training points, and with the Gram matrix
//! K = ΦΦᵀ, K_ij = K(x_i, x_j),
//!
//! ```text
//!     β = (K + λI)⁻¹ t,      f(x) = Σ_j β_j K(x_j, x).
//! ```
//!
//! The class is the sign of f. This is scikit-learn's `KernelRidge(alpha = λ)` fitted on the
//! ±1 targets, with the kernels in LIBSVM's parameterisation ([`crate::core::kernel`]). There is no
//! intercept: for the linear kernel it is ridge regression through the origin, w = Σ_j β_j x_j,
//! so the boundary passes through 0, and a homogeneous polynomial kernel (coef0 = 0) cannot
//! shift its boundary either; coef0 > 0 or the RBF kernel supply the offset.
//!
//! What λ does: K + λI has eigenvalues μ_k + λ, so for a Mercer kernel (μ_k ≥ 0) it is positive
//! definite and ‖β‖ shrinks as λ grows, towards β ≈ t/λ, where f is a kernel-weighted vote of the
//! training labels. As λ → 0 the fit interpolates the targets wherever K is invertible.
//!
//! On the training points (K + λI)β = t gives Kβ = t − λβ: the decision values there come free,
//! and the residual t_i − f(x_i) = λβ_i, so a large |β_i| marks a point the fit cannot reach.
//!
//! Solving: a Cholesky factorisation of K + λI. The sigmoid kernel is not positive semi-definite,
//! so K + λI can be indefinite; then LU with partial pivoting, and a singular system is an
//! error.

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::{expansion_evaluator, Grid, Smoothness};
use crate::core::kernel::{dot, Kernel};
use crate::core::params::Values;
use crate::core::sklearn::{kernel_ridge, Counterpart, Estimator, Helper, Multiclass};
use crate::methods::model::{kernel_of, Fact, FitOptions, Loss, Method, Model, WarmStart};
use nalgebra::{DMatrix, DVector};

/// The parameters of a fit, checked by [`KrrParams::check`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KrrParams {
    pub kernel: Kernel,
    /// λ > 0, the ridge penalty (scikit-learn's `alpha`).
    pub lambda: f64,
}

impl KrrParams {
    pub fn check(&self) -> Result<(), Error> {
        if !(self.lambda.is_finite() && self.lambda > 0.0) {
            return Err(Error::Parameter("lambda <= 0".into()));
        }
        Ok(())
    }
}

/// A fitted kernel ridge classifier.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelRidge {
    pub kernel: Kernel,
    pub lambda: f64,
    /// The labels of the negative (t = −1) and positive (t = +1) class.
    pub classes: [i32; 2],
    /// The training points x_j, in input order.
    pub points: Vec<Point>,
    /// t_j ∈ {−1, +1}, in input order.
    pub targets: Vec<f64>,
    /// β = (K + λI)⁻¹ t, one per training point (scikit-learn's `dual_coef_`).
    pub dual_coef: Vec<f64>,
    /// (x_j, β_j): f as a kernel expansion the grid can evaluate fast.
    expansion: Vec<(Point, f64)>,
    /// β was refined from the last fit's (see [`KernelRidge::fit_warm`]), not solved afresh.
    pub warm_start: bool,
}

/// The most points kernel ridge fits: it solves an n × n system, O(n³).
pub const MAX_POINTS: usize = 2000;

impl KernelRidge {
    pub fn fit(points: &[Point], labels: &[i32], params: &KrrParams) -> Result<KernelRidge, Error> {
        // From nothing kept, the warm path is the plain solve (see [`solve_targets`]).
        Self::fit_warm(points, labels, params, &mut RidgeWarmStart::default())
    }

    /// The same fit, starting from what `warm` kept of the last one: the Gram matrix is patched
    /// where points moved, and β is refined by conjugate gradients preconditioned with the last
    /// Cholesky factor. A moved point changes K + λI by a rank-2 term and a new λ by a multiple
    /// of I, so a few iterations reach the solution; when they do not, it factorises afresh.
    pub fn fit_warm(
        points: &[Point],
        labels: &[i32],
        params: &KrrParams,
        warm: &mut RidgeWarmStart,
    ) -> Result<KernelRidge, Error> {
        let (classes, targets) = check(points, labels, params)?;
        let (beta, warm_start) = solve_targets_warm(points, &targets, params, warm)?;
        Ok(KernelRidge::new(
            points, params, classes, targets, beta, warm_start,
        ))
    }

    fn new(
        points: &[Point],
        params: &KrrParams,
        classes: [i32; 2],
        targets: Vec<f64>,
        beta: Vec<f64>,
        warm_start: bool,
    ) -> KernelRidge {
        KernelRidge {
            kernel: params.kernel,
            lambda: params.lambda,
            classes,
            expansion: points.iter().copied().zip(beta.iter().copied()).collect(),
            points: points.to_vec(),
            targets,
            dual_coef: beta,
            warm_start,
        }
    }

    /// f(x) = Σ_j β_j K(x_j, x); positive means `classes[1]`.
    pub fn decision(&self, x: Point) -> f64 {
        self.points
            .iter()
            .zip(&self.dual_coef)
            .map(|(&xj, beta)| beta * self.kernel.eval(xj, x))
            .sum()
    }

    pub fn predict(&self, x: Point) -> i32 {
        if self.decision(x) > 0.0 {
            self.classes[1]
        } else {
            self.classes[0]
        }
    }

    /// f(x_i) at every training point, as t_i − λβ_i: O(n) instead of O(n²).
    pub fn training_decisions(&self) -> Vec<f64> {
        self.targets
            .iter()
            .zip(&self.dual_coef)
            .map(|(t, beta)| t - self.lambda * beta)
            .collect()
    }
}

/// Checks the parameters and the data; the classes and the ±1 targets.
fn check(
    points: &[Point],
    labels: &[i32],
    params: &KrrParams,
) -> Result<([i32; 2], Vec<f64>), Error> {
    params.check()?;
    if points.len() != labels.len() {
        return Err(Error::Parameter(format!(
            "{} points but {} labels",
            points.len(),
            labels.len()
        )));
    }
    let data = Dataset::from_parts(points.to_vec(), labels.to_vec());
    let (classes, targets) = data.binary_targets()?;
    check_size(points, params)?;
    Ok((classes, targets))
}

/// β = (K + λI)⁻¹ t for real targets t (kernel ridge regression, [`crate::methods::solvers::regression`]):
/// the same factorisation as the classifier's, with its size cap and messages.
pub fn solve_targets(
    points: &[Point],
    targets: &[f64],
    params: &KrrParams,
) -> Result<Vec<f64>, Error> {
    // From nothing kept, the warm path is this solve: the Gram matrix, then its factor.
    let fresh = &mut RidgeWarmStart::default();
    solve_targets_warm(points, targets, params, fresh).map(|(beta, _)| beta)
}

/// [`solve_targets`] starting from what `warm` kept of the last solve (see
/// [`KernelRidge::fit_warm`]): β, and whether it was refined from the last one rather than
/// solved afresh.
pub fn solve_targets_warm(
    points: &[Point],
    targets: &[f64],
    params: &KrrParams,
    warm: &mut RidgeWarmStart,
) -> Result<(Vec<f64>, bool), Error> {
    let n = check_size(points, params)?;
    warm.update_gram(params.kernel, points);
    let (lambda, gram) = (params.lambda, &warm.gram);
    let refined = (warm.factor.len() == n * n && warm.beta.len() == n)
        .then(|| preconditioned_cg(gram, &warm.factor, n, lambda, targets, &warm.beta))
        .flatten();
    let warm_start = refined.is_some();
    let beta = match refined {
        Some((beta, iterations)) => {
            if iterations > CG_STALE {
                warm.factor.clear();
            }
            Some(beta)
        }
        None => match cholesky(gram, n, lambda) {
            Some(factor) => {
                let beta = cholesky_apply(&factor, n, targets);
                warm.factor = factor;
                Some(beta)
            }
            None => {
                warm.factor.clear();
                lu_solve(gram, n, lambda, targets)
            }
        },
    };
    let beta = finite_or_singular(beta)?;
    warm.beta = beta.clone();
    Ok((beta, warm_start))
}

/// Checks the parameters and the size cap; the number of points.
fn check_size(points: &[Point], params: &KrrParams) -> Result<usize, Error> {
    params.check()?;
    let n = points.len();
    if n > MAX_POINTS {
        return Err(Error::Parameter(format!(
            "kernel ridge solves an n × n system: at most {MAX_POINTS} points ({n} here)"
        )));
    }
    Ok(n)
}

fn finite_or_singular(beta: Option<Vec<f64>>) -> Result<Vec<f64>, Error> {
    beta.filter(|b| b.iter().all(|v| v.is_finite()))
        .ok_or_else(|| {
            Error::Parameter(
                "K + lambda I is singular (the kernel is indefinite): raise lambda".into(),
            )
        })
}

/// K_ij = K(x_i, x_j), row-major, each pair evaluated once.
pub(crate) fn gram_matrix(kernel: Kernel, points: &[Point]) -> Vec<f64> {
    let n = points.len();
    let mut gram = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let k = kernel.eval(points[i], points[j]);
            gram[i * n + j] = k;
            gram[j * n + i] = k;
        }
    }
    gram
}

/// L with K + λI = LLᵀ (row-major, lower), row by row; `None` when K + λI is not positive
/// definite.
pub(crate) fn cholesky(gram: &[f64], n: usize, lambda: f64) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let a = gram[i * n + j] + if i == j { lambda } else { 0.0 };
            let s = a - dot(&l[i * n..i * n + j], &l[j * n..j * n + j]);
            if i == j {
                if !(s > 0.0 && s.is_finite()) {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    Some(l)
}

/// x with LLᵀx = b: L y = b forwards, then Lᵀx = y backwards.
fn cholesky_apply(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - dot(&l[i * n..i * n + i], &y[..i])) / l[i * n + i];
    }
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k * n + i] * y[k]).sum();
        y[i] = (y[i] - s) / l[i * n + i];
    }
    y
}

/// (K + λI)⁻¹ t by LU with partial pivoting, for an indefinite K (a sigmoid kernel).
fn lu_solve(gram: &[f64], n: usize, lambda: f64, t: &[f64]) -> Option<Vec<f64>> {
    // K is symmetric, so its row-major entries are also its column-major ones.
    let mut system = DMatrix::from_vec(n, n, gram.to_vec());
    for i in 0..n {
        system[(i, i)] += lambda;
    }
    system
        .lu()
        .solve(&DVector::from_column_slice(t))
        .map(|b| b.as_slice().to_vec())
}

/// The most conjugate-gradient iterations a warm fit spends before it factorises afresh (one
/// iteration costs about 3n² multiply-adds, a factorisation n³/6).
const CG_ITERATIONS: usize = 12;

/// Beyond this many iterations the preconditioner has drifted too far from the system (λ has
/// moved a long way since it was factorised): the next fit factorises afresh.
const CG_STALE: usize = 8;

/// Conjugate gradients on (K + λI)β = t from `start`, preconditioned with an earlier
/// factor LLᵀ ≈ K + λI, until ‖r‖ ≤ 10⁻¹⁰ ‖t‖: β and the iterations it took, or `None` if
/// that takes more than [`CG_ITERATIONS`].
fn preconditioned_cg(
    gram: &[f64],
    factor: &[f64],
    n: usize,
    lambda: f64,
    t: &[f64],
    start: &[f64],
) -> Option<(Vec<f64>, usize)> {
    let apply = |v: &[f64]| -> Vec<f64> {
        (0..n)
            .map(|i| dot(&gram[i * n..(i + 1) * n], v) + lambda * v[i])
            .collect()
    };
    let mut beta = start.to_vec();
    let a_beta = apply(&beta);
    let mut r: Vec<f64> = (0..n).map(|i| t[i] - a_beta[i]).collect();
    let goal = 1e-10 * dot(t, t).sqrt();
    let mut z = cholesky_apply(factor, n, &r);
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    for iterations in 0..=CG_ITERATIONS {
        if dot(&r, &r).sqrt() <= goal {
            return Some((beta, iterations));
        }
        let ap = apply(&p);
        let step = rz / dot(&p, &ap);
        if !step.is_finite() {
            return None;
        }
        for i in 0..n {
            beta[i] += step * p[i];
            r[i] -= step * ap[i];
        }
        z = cholesky_apply(factor, n, &r);
        let next = dot(&r, &z);
        let ratio = next / rz;
        rz = next;
        for i in 0..n {
            p[i] = z[i] + ratio * p[i];
        }
    }
    None
}

/// What kernel ridge keeps between fits: the Gram matrix of the last points, the Cholesky
/// factor of the last system factorised, and the last β.
#[derive(Debug, Default)]
pub struct RidgeWarmStart {
    kernel: Option<Kernel>,
    points: Vec<Point>,
    gram: Vec<f64>,
    factor: Vec<f64>,
    beta: Vec<f64>,
}

impl RidgeWarmStart {
    /// Brings the Gram matrix up to date with `points`: the rows and columns of moved points,
    /// or all of it for a new kernel or a new number of points.
    fn update_gram(&mut self, kernel: Kernel, points: &[Point]) {
        let n = points.len();
        let same = self.kernel == Some(kernel) && self.points.len() == n;
        let moved: Vec<usize> = (0..n)
            .filter(|&i| !same || self.points[i] != points[i])
            .collect();
        if !same {
            self.factor.clear();
            self.beta.clear();
        }
        if !same || moved.len() > n / 8 {
            self.gram = gram_matrix(kernel, points);
        } else {
            for &i in &moved {
                for j in 0..n {
                    let k = kernel.eval(points[i], points[j]);
                    self.gram[i * n + j] = k;
                    self.gram[j * n + i] = k;
                }
            }
        }
        self.kernel = Some(kernel);
        self.points = points.to_vec();
    }
}

impl WarmStart for RidgeWarmStart {
    fn point_moved(&mut self, _index: usize, _points: &[Point]) {
        // The next fit finds the moved points by comparing.
    }
    fn forget(&mut self) {
        self.factor.clear();
        self.beta.clear();
    }
    fn data_replaced(&mut self) {
        *self = RidgeWarmStart::default();
    }
    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

impl Model for KernelRidge {
    fn classes(&self) -> &[i32] {
        &self.classes
    }

    fn decision_value(&self, x: Point) -> f64 {
        self.decision(x)
    }

    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        expansion_evaluator(self.kernel, &self.expansion, 0.0, grid)
    }

    fn smoothness(&self) -> Smoothness {
        Smoothness::of_kernel(self.kernel)
    }

    fn facts(&self, _data: &Dataset) -> Vec<Fact> {
        let residual: f64 = self
            .dual_coef
            .iter()
            .map(|b| (self.lambda * b).powi(2))
            .sum();
        let norm = self.dual_coef.iter().map(|b| b * b).sum::<f64>().sqrt();
        vec![
            Fact::new("kernel", "", self.kernel.name()),
            Fact::data("lambda", self.lambda),
            Fact::new("residual", "Σ(f − t)² =", residual).inside(),
            Fact::new("dual_norm", "‖β‖ =", norm).inside(),
            Fact::data("dual_coef", self.dual_coef.clone()),
        ]
    }

    /// β_i and the residual t_i − f(x_i) = λβ_i.
    fn point_facts(&self, i: usize, _data: &Dataset) -> Vec<Fact> {
        if i >= self.dual_coef.len() {
            return Vec::new();
        }
        vec![
            Fact::new("target", "t =", self.targets[i]),
            Fact::new("beta", "β =", self.dual_coef[i]),
            Fact::new(
                "decision",
                "f(x) = t − λβ =",
                self.targets[i] - self.lambda * self.dual_coef[i],
            ),
        ]
    }

    /// y_i f(x_i) = t_i (t_i − λβ_i), from the solve itself.
    fn margin(&self, index: usize, _data: &Dataset) -> Option<f64> {
        let t = *self.targets.get(index)?;
        Some(t * (t - self.lambda * self.dual_coef[index]))
    }

    fn loss(&self) -> Option<Loss> {
        Some(Loss::Squared)
    }

    fn warm_started(&self) -> bool {
        self.warm_start
    }

    fn kernel_expansion(&self) -> Option<crate::methods::model::KernelExpansion<'_>> {
        Some(crate::methods::model::KernelExpansion {
            kernel: self.kernel,
            terms: &self.expansion,
            bias: 0.0,
        })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The registry entry: kernel ridge classification, one-vs-rest for more classes.
pub struct KernelRidgeMethod;

impl Method for KernelRidgeMethod {
    fn id(&self) -> &'static str {
        "krr"
    }

    fn title(&self) -> &'static str {
        "kernel ridge (KRLS)"
    }

    fn explain(&self) -> &'static str {
        "Kernel regularised least squares: β = (K + λI)⁻¹y, f(x) = Σ βⱼK(xⱼ, x), and the predicted class is sign f(x)."
    }

    fn params(&self) -> &'static [&'static str] {
        &["kernel", "kexpr", "lambda", "gamma", "degree", "coef0"]
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["lambda", "gamma", "degree"]
    }

    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(RidgeWarmStart::default()))
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let params = KrrParams {
            kernel: kernel_of(values)?,
            lambda: values.real("lambda"),
        };
        let warm = options
            .warm
            .and_then(|w| w.as_any().downcast_mut::<RidgeWarmStart>());
        let model = match warm {
            Some(warm) => KernelRidge::fit_warm(&data.points, &data.labels, &params, warm)?,
            None => KernelRidge::fit(&data.points, &data.labels, &params)?,
        };
        Ok(Box::new(model))
    }

    /// `KernelRidge` is this regression without an intercept; the script's `SignOfRegression`
    /// makes a classifier of it as the lab does (±1 targets, the sign, or the largest f).
    fn sklearn(&self, values: &Values, _data: &Dataset) -> Counterpart {
        let (ridge, lines) = kernel_ridge(values, self.params());
        let classifier = Estimator::helper(Helper::SignOfRegression).arg("regressor", ridge);
        Counterpart::same(vec![classifier], Multiclass::OneVsRest)
            .map_all(lines)
            .map(
                "",
                "KernelRidge is a regressor: SignOfRegression (below) fits it to the targets \
                 ±1 and predicts the sign of f, or for more classes the class of the largest \
                 f (one-vs-rest), as the lab",
            )
    }
}

#[cfg(test)]
mod tests;

//! The smallest eigenvalue λ_min of a symmetric matrix — of a Gram matrix K, where λ_min ≥ 0
//! on every finite set of points is Mercer's condition (CURRICULUM §4).
//!
//! Up to [`EXACT_UP_TO`] rows the whole spectrum is computed (nalgebra's symmetric QR
//! algorithm after a Householder tridiagonalisation, O(n³)). Beyond that, [`LANCZOS_STEPS`]
//! steps of the Lanczos iteration with full reorthogonalisation build a k × k tridiagonal
//! matrix T whose smallest eigenvalue (a Ritz value) approaches λ_min from above, at the cost of
//! k products K·v (O(k n²)). Ritz values converge fastest at the ends of the spectrum, which is
//! where λ_min sits; when many eigenvalues crowd near zero (a smooth PSD kernel) the estimate
//! is a small positive number close to the true one, and a clearly negative eigenvalue (an
//! indefinite sigmoid) is found well within the steps.

use nalgebra::{DMatrix, DVector};

/// The largest matrix whose spectrum is computed in full.
pub const EXACT_UP_TO: usize = 300;

/// Lanczos steps for larger matrices.
pub const LANCZOS_STEPS: usize = 80;

/// λ_min and how it was found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Smallest {
    pub value: f64,
    /// The whole spectrum was computed (otherwise: a Lanczos estimate, an upper bound).
    pub exact: bool,
}

/// The smallest eigenvalue of the symmetric n × n matrix `matrix` (row-major).
pub fn smallest_eigenvalue(matrix: &[f64], n: usize) -> Smallest {
    assert_eq!(matrix.len(), n * n, "an n × n matrix");
    if n == 0 {
        return Smallest {
            value: 0.0,
            exact: true,
        };
    }
    if n <= EXACT_UP_TO {
        let m = DMatrix::from_row_slice(n, n, matrix);
        let value = m
            .symmetric_eigenvalues()
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
        return Smallest { value, exact: true };
    }
    Smallest {
        value: lanczos_smallest(matrix, n, LANCZOS_STEPS),
        exact: false,
    }
}

/// The smallest Ritz value after `steps` Lanczos steps from a fixed start vector.
fn lanczos_smallest(matrix: &[f64], n: usize, steps: usize) -> f64 {
    let steps = steps.min(n);
    // A fixed start that is not orthogonal to any structured eigenvector in practice: the
    // golden-ratio sequence, centred.
    let start: Vec<f64> = (0..n)
        .map(|i| ((i as f64 + 1.0) * 0.618_033_988_749_895).fract() - 0.5)
        .collect();
    let mut v = DVector::from_vec(start);
    v /= v.norm();
    let mut basis: Vec<DVector<f64>> = Vec::with_capacity(steps);
    let mut alphas: Vec<f64> = Vec::with_capacity(steps);
    let mut betas: Vec<f64> = Vec::with_capacity(steps);
    for _ in 0..steps {
        let mut w = DVector::from_iterator(
            n,
            matrix
                .chunks_exact(n)
                .map(|row| crate::core::kernel::dot(row, v.as_slice())),
        );
        let alpha = w.dot(&v);
        w.axpy(-alpha, &v, 1.0);
        if let (Some(prev), Some(&beta)) = (basis.last(), betas.last()) {
            w.axpy(-beta, prev, 1.0);
        }
        // Full reorthogonalisation (twice is enough), so no ghost copies of eigenvalues.
        for _ in 0..2 {
            for q in basis.iter().chain(std::iter::once(&v)) {
                let overlap = w.dot(q);
                w.axpy(-overlap, q, 1.0);
            }
        }
        alphas.push(alpha);
        let beta = w.norm();
        basis.push(v);
        if beta < 1e-12 * alpha.abs().max(1.0) {
            break;
        }
        betas.push(beta);
        v = w / beta;
    }
    let k = alphas.len();
    let mut t = DMatrix::zeros(k, k);
    for i in 0..k {
        t[(i, i)] = alphas[i];
        if i + 1 < k {
            t[(i, i + 1)] = betas[i];
            t[(i + 1, i)] = betas[i];
        }
    }
    t.symmetric_eigenvalues()
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_checked_matrix() {
        // [[2, 1], [1, 2]] has eigenvalues 1 and 3; [[1, 2], [2, 1]] has −1 and 3.
        let s = smallest_eigenvalue(&[2.0, 1.0, 1.0, 2.0], 2);
        assert!((s.value - 1.0).abs() < 1e-12 && s.exact);
        let s = smallest_eigenvalue(&[1.0, 2.0, 2.0, 1.0], 2);
        assert!((s.value + 1.0).abs() < 1e-12);
    }

    #[test]
    fn lanczos_finds_a_separated_smallest_eigenvalue() {
        // A diagonal matrix with one negative entry, rotated by a Householder reflection so
        // that it is dense.
        let n = 300;
        let u = DVector::from_fn(n, |i, _| ((i * 7 + 3) % 11) as f64 - 5.0).normalize();
        let h = DMatrix::identity(n, n) - 2.0 * &u * u.transpose();
        let d = DMatrix::from_diagonal(&DVector::from_fn(n, |i, _| {
            if i == 17 {
                -0.75
            } else {
                1.0 + i as f64 / n as f64
            }
        }));
        let m = &h * d * &h;
        let rows: Vec<f64> = m.transpose().iter().copied().collect();
        let estimate = lanczos_smallest(&rows, n, 60);
        assert!((estimate + 0.75).abs() < 1e-8, "{estimate}");
        assert!((smallest_eigenvalue(&rows, n).value + 0.75).abs() < 1e-10);
    }
}

//! A polynomial or linear kernel expansion collapsed into monomials, so that f on a grid costs
//! the same for any number of terms m (an SVM's support vectors, kernel ridge's every point).
//!
//! With K(x, z) = (γ xᵀz + c₀)^d (the linear kernel is d = 1, γ = 1, c₀ = 0), the multinomial
//! theorem gives
//!
//!   f(x) = b + Σ_{a+e ≤ d} C_{ae} x₁^a x₂^e,
//!   C_{ae} = d! / (a! e! (d−a−e)!) · γ^{a+e} c₀^{d−a−e} · Σ_i w_i z_i1^a z_i2^e,
//!
//! (d+1)(d+2)/2 coefficients, at most 66 for the lab's degrees (≤ 10). On a grid of nodes
//! (u_c, v_r), f(r, c) = b + Σ_e v_r^e · (Σ_a C_{ae} u_c^a): one dot product of length d + 1 a
//! node.
//!
//! The collapse trades the kernel's own cancellation for the monomials': with large
//! coordinates, degree or c₀ the terms C_{ae} x₁^a x₂^e can be huge and nearly cancel. So it
//! carries a bound on its rounding error, to first order in the unit roundoff u: the power sums
//! Σ_i w_i z_i1^a z_i2^e err by at most (m + d)·u·Σ_i |w_i||z_i1|^a|z_i2|^e, and the evaluation
//! by at most (2d + 4)·u·Σ |C_{ae}| |x₁|^a |x₂|^e, both taken at the farthest corner of the
//! view. [`Monomials::for_field`] declines when that bound is not small, and the page keeps the
//! exact sum.

use crate::core::data::Point;
use crate::core::field::Grid;
use crate::core::kernel::Kernel;

/// f on a grid from the monomial coefficients, and a bound on its error.
#[derive(Clone, Debug)]
pub struct Monomials {
    /// Σ_a C_{ae} u_c^a, cols × (d + 1).
    across: Vec<f64>,
    /// v_r^e, rows × (d + 1).
    down: Vec<f64>,
    terms: usize,
    bias: f64,
    /// |f − f(collapsed)| ≤ `error` at every node.
    pub error: f64,
}

impl Monomials {
    /// The collapsed field of b + Σ_i w_i K(z_i, x) on `grid` when `kernel` is linear or
    /// polynomial and its error bound is at most `target`; `None` otherwise.
    pub fn for_field(
        kernel: Kernel,
        expansion: &[(Point, f64)],
        bias: f64,
        grid: &Grid,
        target: f64,
    ) -> Option<Monomials> {
        let (gamma, degree, coef0) = match kernel {
            Kernel::Linear => (1.0, 1, 0.0),
            Kernel::Polynomial {
                gamma,
                degree,
                coef0,
            } => (gamma, degree as usize, coef0),
            _ => return None,
        };
        let d = degree;
        let u = f64::EPSILON / 2.0;
        // Power sums S_{ae} and the sums of their terms' magnitudes, (d+1) × (d+1), a + e ≤ d.
        let mut sums = vec![0.0; (d + 1) * (d + 1)];
        let mut magnitudes = vec![0.0; (d + 1) * (d + 1)];
        for &(z, w) in expansion {
            let mut za = w;
            for a in 0..=d {
                let mut term = za;
                for e in 0..=d - a {
                    sums[a * (d + 1) + e] += term;
                    magnitudes[a * (d + 1) + e] += term.abs();
                    term *= z[1];
                }
                za *= z[0];
            }
        }
        let factorial = |k: usize| (1..=k).map(|j| j as f64).product::<f64>();
        let view = grid.view;
        let reach = [
            view.x_min.abs().max(view.x_max.abs()),
            view.y_min.abs().max(view.y_max.abs()),
        ];
        let mut coefficients = vec![0.0; (d + 1) * (d + 1)];
        let (mut summing, mut size) = (0.0, bias.abs());
        for a in 0..=d {
            for e in 0..=d - a {
                let k = a * (d + 1) + e;
                let multinomial = factorial(d)
                    / (factorial(a) * factorial(e) * factorial(d - a - e))
                    * gamma.powi((a + e) as i32)
                    * coef0.powi((d - a - e) as i32);
                coefficients[k] = multinomial * sums[k];
                let at_corner = reach[0].powi(a as i32) * reach[1].powi(e as i32);
                summing += multinomial.abs() * magnitudes[k] * at_corner;
                size += coefficients[k].abs() * at_corner;
            }
        }
        let error = (expansion.len() + d + 2) as f64 * u * summing + (2 * d + 4) as f64 * u * size;
        if !(error.is_finite() && error <= target) {
            return None;
        }
        let mut across = Vec::with_capacity(grid.cols * (d + 1));
        for col in 0..grid.cols {
            let x = grid.x_at(col);
            for e in 0..=d {
                // Horner in x over a = d − e, …, 0.
                let mut value = 0.0;
                for a in (0..=d - e).rev() {
                    value = value * x + coefficients[a * (d + 1) + e];
                }
                across.push(value);
            }
        }
        let mut down = Vec::with_capacity(grid.rows * (d + 1));
        for row in 0..grid.rows {
            let y = grid.y_at(row);
            down.extend((0..=d).map(|e| y.powi(e as i32)));
        }
        Some(Monomials {
            across,
            down,
            terms: d + 1,
            bias,
            error,
        })
    }

    /// f at grid node (row, col), from the monomials.
    #[inline]
    pub fn at(&self, row: usize, col: usize) -> f64 {
        let t = self.terms;
        self.bias
            + crate::core::kernel::dot(
                &self.across[col * t..(col + 1) * t],
                &self.down[row * t..(row + 1) * t],
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;
    use crate::core::field::View;

    fn check(kernel: Kernel, scale: f64, target: f64) -> Option<f64> {
        let data = Preset::Xor.generate(300, 0.3, 4);
        let points: Vec<Point> = data.points.iter().map(|p| p.map(|v| v * scale)).collect();
        let expansion: Vec<(Point, f64)> = points
            .iter()
            .zip(&data.labels)
            .enumerate()
            // Weights shrink as the data grow, as an SVM's do (xᵀz grows by scale²).
            .map(|(i, (&p, &l))| {
                let w = (2 * l - 1) as f64 * (0.1 + (i % 7) as f64 / 7.0);
                (p, w / (scale * scale))
            })
            .collect();
        let grid = Grid::new(View::around(&points), 41, 37);
        let collapsed = Monomials::for_field(kernel, &expansion, 0.25, &grid, target)?;
        for row in 0..grid.rows {
            for col in 0..grid.cols {
                let x = grid.node(row, col);
                let f = 0.25
                    + expansion
                        .iter()
                        .map(|&(z, w)| w * kernel.eval(z, x))
                        .sum::<f64>();
                // The reference sum rounds off too: at most m·u·Σ|w_i K(z_i, x)|.
                let reference: f64 = expansion
                    .iter()
                    .map(|&(z, w)| (w * kernel.eval(z, x)).abs())
                    .sum::<f64>()
                    * expansion.len() as f64
                    * f64::EPSILON;
                assert!(
                    (collapsed.at(row, col) - f).abs() <= collapsed.error + reference,
                    "{kernel:?} at ({row}, {col}): {} against {f}, bound {}",
                    collapsed.at(row, col),
                    collapsed.error
                );
            }
        }
        Some(collapsed.error)
    }

    #[test]
    fn collapsed_expansions_match_the_sum_over_terms_within_their_bound() {
        let poly = |gamma, degree, coef0| Kernel::Polynomial {
            gamma,
            degree,
            coef0,
        };
        for kernel in [
            Kernel::Linear,
            poly(1.0, 2, 1.0),
            poly(0.5, 3, -0.7),
            poly(2.0, 5, 1.0),
        ] {
            let error = check(kernel, 1.0, 1e-6).expect("well conditioned");
            assert!(error < 1e-7, "{kernel:?}: {error}");
        }
        // In other units the monomials are still usable for the linear kernel…
        assert!(check(Kernel::Linear, 1e4, 1e-6).is_some());
        // …but a degree-10 kernel on coordinates of 10³ with c₀ = 1 cancels far too much.
        assert!(check(poly(1.0, 10, 1.0), 1e3, 1e-6).is_none());
        assert!(check(Kernel::Rbf { gamma: 1.0 }, 1.0, 1e-6).is_none());
    }
}

//! An RBF kernel expansion f(x) = b + Σ_i w_i exp(−γ‖x − z_i‖²) on a grid at a cost that does
//! not grow with the number of terms m (an SVM's support vectors): a fast Gauss transform on a
//! lattice, with a bound on its error at every point.
//!
//! **Binning (anterpolation).** Take a lattice q_j = q₀ + j·h along each axis. For one axis and
//! a centre z, the kernel factor g(u − z) = exp(−γ(u − z)²), as a function of z, is replaced by
//! its degree-11 interpolant on the 12 lattice nodes around z (z in the middle interval of the
//! stencil): g(u − z) ≈ Σ_k L_k(z) g(u − q_k), with L_k the Lagrange weights. Doing this on both
//! axes moves every weight w_i onto a 12 × 12 patch of lattice nodes,
//! W_{kl} = Σ_i w_i L_k(z_i1) L_l(z_i2) (144·m multiply-adds, once), and then
//!
//!   f̃(x) = b + Σ_{k,l} W_{kl} g(x₁ − q_k) g(x₂ − q'_l),
//!
//! an expansion over the lattice, separable like the exact one. On a grid of nodes (u_c, v_r),
//! T_{cl} = Σ_k g(u_c − q_k) W_{kl} costs cols·K₁·K₂ once, and then each node is one dot
//! product of length K₂: f̃(r, c) = b + Σ_l T_{cl} g(v_r − q'_l). Both sums skip the lattice
//! nodes farther than a reach ρ from u (or v), where g < δ (a truncated Gaussian, which pays
//! for narrow kernels). Nothing depends on m but the binning; K₁, K₂ and ρ/h depend on the
//! spread of the centres in units of 1/√γ and, weakly, on the accuracy asked for.
//!
//! **The error bound.** Polynomial interpolation on 12 nodes errs by at most
//! max|∂¹²g| / 12! · max Π_k |z − q_k|. With g^{(n)}(d) = (−√γ)ⁿ H_n(√γ d) e^{−γd²} (Hermite
//! polynomials) and sup_s |H₁₂(s)| e^{−s²} = H₁₂(0) = 665 280, |∂¹²g| ≤ 665 280 γ⁶; on the middle
//! interval Π_k |z − q_k| ≤ (0.5 · 1.5 ⋯ 5.5)² h¹² (at its centre). So one axis errs by at most
//! e₁ = 665 280/12! · 26 380.9 · (√γ h)¹² ≈ 36.6 (√γ h)¹², for every u. For the product of the
//! two factors, |g₁g₂ − I₁I₂| ≤ |g₁ − I₁|·g₂ + |I₁|·|g₂ − I₂| ≤ e₁ + (1 + e₁) e₁, so
//!
//!   |f̃(x) − f(x)| ≤ Σ_i |w_i| · e₁ (2 + e₁)   at every x,
//!
//! plus what the truncation drops (each of the two sums leaves out terms g < δ, at most
//! δ·Σ_i |w_i| Λ(z_i1) Λ(z_i2) in all, Λ the sum of the stencil's |L_k|) and the rounding of
//! the sums, both bounded and added in. h is chosen so the interpolation term is half of a
//! requested error ([`FIELD_ERROR`] for the page), δ so the truncation is an eighth.
//!
//! **Where it is used.** The page's field needs exact values only where a level curve passes:
//! [`crate::core::field::Field::bounded`] takes f̃ with its error bound and evaluates f exactly at
//! the nodes where f̃ lies within a band around a level (see there for why that keeps every
//! contour vertex within a small fraction of a node of the exact one). For an RBF expansion
//! the page uses it whenever it costs less than summing all m terms at every node, and sums
//! them otherwise (a few terms, or a lattice made fine by a narrow kernel over a wide spread
//! of centres): [`BinnedRbf::for_field`] declines (returns `None`) in that case.

use crate::core::data::Point;
use crate::core::field::Grid;

/// Lattice nodes per stencil along an axis: the interpolant has degree `STENCIL − 1`. (12
/// rather than 8 makes the lattice twice as coarse for the same error.)
const STENCIL: usize = 12;

/// H₁₂(0) / 12! · (0.5·1.5⋯5.5)²: one axis's interpolation error is at most this times
/// (√γ h)¹².
const AXIS_ERROR: f64 = 665_280.0 / 479_001_600.0 * 26_380.865_478_515_625;

/// The error the page asks of f̃, in units of f (whose levels of interest are one apart).
pub const FIELD_ERROR: f64 = 1e-6;

/// One axis of the lattice: q_j = start + j·h, j < len.
#[derive(Clone, Copy, Debug)]
struct Axis {
    start: f64,
    h: f64,
    len: usize,
}

impl Axis {
    /// A lattice of spacing h covering [lo, hi] with every centre in the middle interval of
    /// its stencil.
    fn covering(lo: f64, hi: f64, h: f64) -> Axis {
        let half = (STENCIL / 2 - 1) as f64;
        Axis {
            start: lo - half * h,
            h,
            len: ((hi - lo) / h).floor() as usize + STENCIL + 1,
        }
    }

    fn node(&self, j: usize) -> f64 {
        self.start + j as f64 * self.h
    }

    /// The nodes within `reach` of u.
    fn near(&self, u: f64, reach: f64) -> std::ops::Range<usize> {
        let first = ((u - reach - self.start) / self.h).ceil().max(0.0);
        let last = ((u + reach - self.start) / self.h).floor() + 1.0;
        let clamp = |v: f64| (v.max(0.0) as usize).min(self.len);
        clamp(first)..clamp(last).max(clamp(first))
    }

    /// The first node of the stencil around z and its Lagrange weights L_k(z), with the sum
    /// of their magnitudes (the Lebesgue function, for the rounding allowance).
    fn stencil(&self, z: f64) -> (usize, [f64; STENCIL], f64) {
        let half = STENCIL / 2 - 1;
        let u = (z - self.start) / self.h;
        let interval = (u.floor().max(0.0) as usize).clamp(half, self.len - STENCIL + half);
        let first = interval - half;
        let t = u - first as f64;
        let mut weights = [0.0; STENCIL];
        for (k, weight) in weights.iter_mut().enumerate() {
            let mut l = 1.0;
            for j in 0..STENCIL {
                if j != k {
                    l *= (t - j as f64) / (k as f64 - j as f64);
                }
            }
            *weight = l;
        }
        let lebesgue = weights.iter().map(|l| l.abs()).sum();
        (first, weights, lebesgue)
    }
}

/// f̃ on a grid from the lattice (see the module docs), and its error bound.
#[derive(Clone, Debug)]
pub struct BinnedRbf {
    /// T, cols × K₂.
    across: Vec<f64>,
    /// g(v_r − q'_l), rows × K₂, and the lattice nodes within reach of each row.
    down: Vec<f64>,
    reach: Vec<std::ops::Range<usize>>,
    bias: f64,
    /// |f̃ − f| ≤ `error` at every node.
    pub error: f64,
    /// Lattice nodes along each axis.
    pub lattice: [usize; 2],
}

/// The lattice for an expansion: the spacing h and the two axes, chosen so that the
/// interpolation error is at most half of `target`.
struct Plan {
    gamma: f64,
    h: f64,
    axes: [Axis; 2],
    /// Σ|w_i|.
    total: f64,
    /// The error asked for.
    target: f64,
}

impl Plan {
    fn new(gamma: f64, expansion: &[(Point, f64)], target: f64) -> Option<Plan> {
        let total: f64 = expansion.iter().map(|(_, w)| w.abs()).sum();
        if expansion.is_empty()
            || !(gamma > 0.0 && gamma.is_finite() && total.is_finite() && target > 0.0)
        {
            return None;
        }
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for (z, _) in expansion {
            for a in 0..2 {
                lo[a] = lo[a].min(z[a]);
                hi[a] = hi[a].max(z[a]);
            }
        }
        if !(lo.iter().chain(&hi).all(|v| v.is_finite())) {
            return None;
        }
        // Σ|w| · e₁(2 + e₁) ≈ Σ|w| · 2.001 e₁ = target/2 (e₁ is tiny for any useful target),
        // leaving the rest for truncation and rounding; the bound reported is computed
        // exactly from the h chosen.
        let scaled_h = (target / 2.0 / (total.max(f64::MIN_POSITIVE) * 2.001 * AXIS_ERROR))
            .powf(1.0 / STENCIL as f64);
        // Beyond √γ h = 0.5 nothing is gained.
        let h = scaled_h.min(0.5) / gamma.sqrt();
        let spans = [(hi[0] - lo[0]) / h, (hi[1] - lo[1]) / h];
        if spans.iter().any(|s| !s.is_finite() || *s > 1e5) {
            return None;
        }
        Some(Plan {
            gamma,
            h,
            axes: [
                Axis::covering(lo[0], hi[0], h),
                Axis::covering(lo[1], hi[1], h),
            ],
            total,
            target,
        })
    }

    /// About how many multiply-adds filling T and then every node of `grid` takes: the
    /// sums run over the lattice nodes within the reach (estimated with Λ₁Λ₂ ≈ 2).
    fn cost(&self, grid: &Grid) -> f64 {
        let reach = ((32.0 * self.total / self.target).max(1.0).ln() / self.gamma).sqrt();
        let [k1, k2] = [self.axes[0].len, self.axes[1].len].map(|k| {
            let within = 2.0 * reach / self.h + 1.0;
            within.min(k as f64)
        });
        (grid.cols * self.axes[1].len) as f64 * k1 + (grid.rows * grid.cols) as f64 * k2
    }
}

impl BinnedRbf {
    /// f̃ for b + Σ_i w_i exp(−γ‖x − z_i‖²), `expansion` = {(z_i, w_i)}, on `grid`, within
    /// [`FIELD_ERROR`] of f, when that costs less than the exact sum at every node (m
    /// multiply-adds a node); `None` otherwise.
    pub fn for_field(
        gamma: f64,
        expansion: &[(Point, f64)],
        bias: f64,
        grid: &Grid,
    ) -> Option<BinnedRbf> {
        let plan = Plan::new(gamma, expansion, FIELD_ERROR)?;
        let exact_cost = (grid.rows * grid.cols * expansion.len()) as f64;
        (plan.cost(grid) < exact_cost).then(|| BinnedRbf::from_plan(&plan, expansion, bias, grid))
    }

    /// f̃ within `target` of f at every node of `grid`; `None` for an empty or non-finite
    /// expansion or a lattice of over 10⁵ nodes a side.
    pub fn new(
        gamma: f64,
        expansion: &[(Point, f64)],
        bias: f64,
        grid: &Grid,
        target: f64,
    ) -> Option<BinnedRbf> {
        let plan = Plan::new(gamma, expansion, target)?;
        Some(BinnedRbf::from_plan(&plan, expansion, bias, grid))
    }

    fn from_plan(plan: &Plan, expansion: &[(Point, f64)], bias: f64, grid: &Grid) -> BinnedRbf {
        let Plan {
            gamma,
            h,
            axes,
            total,
            target,
        } = *plan;
        let m = expansion.len();
        let [k1, k2] = [axes[0].len, axes[1].len];

        // W, row l (the second axis) by column k (the first), and Σ|w_i|·Λ₁Λ₂ for rounding.
        let mut weights = vec![0.0; k2 * k1];
        let mut magnified = 0.0;
        for &(z, w) in expansion {
            let (first1, l1, lebesgue1) = axes[0].stencil(z[0]);
            let (first2, l2, lebesgue2) = axes[1].stencil(z[1]);
            for (b, lb) in l2.iter().enumerate() {
                let row = &mut weights[(first2 + b) * k1 + first1..][..STENCIL];
                for (cell, la) in row.iter_mut().zip(&l1) {
                    *cell += w * la * lb;
                }
            }
            magnified += w.abs() * lebesgue1 * lebesgue2;
        }
        // g < δ beyond the reach; what the two sums drop is at most 2δ·Σ|w_i|Λ₁Λ₂ ≤ target/8.
        let delta = target / 16.0 / magnified.max(f64::MIN_POSITIVE);
        let reach = if delta < 1.0 {
            (-delta.ln() / gamma).sqrt()
        } else {
            0.0
        };
        let g = |u: f64, q: f64| (-gamma * (u - q).powi(2)).exp();
        let mut across = vec![0.0; grid.cols * k2];
        let mut near = Vec::with_capacity(k1);
        for col in 0..grid.cols {
            let u = grid.x_at(col);
            let span = axes[0].near(u, reach);
            near.clear();
            near.extend(span.clone().map(|k| g(u, axes[0].node(k))));
            for (l, t) in across[col * k2..][..k2].iter_mut().enumerate() {
                *t = crate::core::kernel::dot(&weights[l * k1..][span.clone()], &near);
            }
        }
        let mut down = vec![0.0; grid.rows * k2];
        let mut spans = Vec::with_capacity(grid.rows);
        for row in 0..grid.rows {
            let v = grid.y_at(row);
            let span = axes[1].near(v, reach);
            for l in span.clone() {
                down[row * k2 + l] = g(v, axes[1].node(l));
            }
            spans.push(span);
        }
        // Summing n terms rounds off at most (n − 1)·u·Σ|term| (to first order, u = ε/2): W's
        // cells sum at most m terms, T then k1 and f̃ k2 + 1, and in every stage the terms'
        // magnitudes add up to at most Σ|w_i|Λ₁Λ₂ (each g ≤ 1), plus |b|.
        let rounding = f64::EPSILON * (m + k1 + k2 + 3) as f64 * (magnified + bias.abs());
        let truncation = 2.0 * delta.min(1.0) * magnified;
        let axis_error = AXIS_ERROR * (h * gamma.sqrt()).powi(STENCIL as i32);
        let interpolation = total * axis_error * (2.0 + axis_error);
        BinnedRbf {
            across,
            down,
            reach: spans,
            bias,
            error: interpolation + truncation + rounding,
            lattice: [k1, k2],
        }
    }

    /// f̃ at grid node (row, col).
    #[inline]
    pub fn at(&self, row: usize, col: usize) -> f64 {
        let k2 = self.lattice[1];
        let span = self.reach[row].clone();
        self.bias
            + crate::core::kernel::dot(
                &self.across[col * k2..][..k2][span.clone()],
                &self.down[row * k2..][..k2][span],
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::{random_labels, Preset};
    use crate::core::field::View;
    use crate::core::kernel::Kernel;

    /// H_n(s) by the recurrence H_{k+1} = 2s·H_k − 2k·H_{k−1}.
    fn hermite(n: usize, s: f64) -> f64 {
        let (mut previous, mut current) = (1.0, 2.0 * s);
        for k in 1..n {
            (previous, current) = (current, 2.0 * s * current - 2.0 * k as f64 * previous);
        }
        current
    }

    #[test]
    fn the_constants_of_the_bound_are_the_maxima_they_claim() {
        assert_eq!(hermite(2, 1.5), 4.0 * 2.25 - 2.0);
        // sup |H₁₂(s)| e^{−s²} is H₁₂(0) = 665 280.
        let sup = (-100_000..=100_000)
            .map(|i| {
                let s = i as f64 * 1e-4;
                hermite(STENCIL, s).abs() * (-s * s).exp()
            })
            .fold(0.0, f64::max);
        assert!(sup <= 665_280.0 * (1.0 + 1e-12) && sup > 665_279.0, "{sup}");
        // Over the middle interval [5, 6], Π_k |t − k| is largest at its centre.
        let product = |t: f64| (0..STENCIL).map(|k| (t - k as f64).abs()).product::<f64>();
        let largest = (0..=10_000)
            .map(|i| product(5.0 + i as f64 * 1e-4))
            .fold(0.0, f64::max);
        assert!((largest - 26_380.865_478_515_625).abs() < 1e-6, "{largest}");
        assert_eq!(product(5.5), 26_380.865_478_515_625);
        let factorial: f64 = (1..=STENCIL).map(|k| k as f64).product();
        assert_eq!(AXIS_ERROR, hermite(STENCIL, 0.0) / factorial * product(5.5));
    }

    #[test]
    fn stencil_weights_reproduce_polynomials_of_degree_eleven() {
        let axis = Axis::covering(-1.0, 2.0, 0.1);
        for z in [-1.0, -0.537, 0.0, 0.31, 1.999, 2.0] {
            let (first, weights, lebesgue) = axis.stencil(z);
            let t = (z - axis.node(first)) / axis.h;
            assert!((5.0 - 1e-9..=6.0 + 1e-9).contains(&t), "{z}: t = {t}");
            assert!(first + STENCIL <= axis.len);
            let poly = |x: f64| 0.3 - x + 2.0 * x.powi(3) - 0.5 * x.powi(7) + 0.1 * x.powi(11);
            let interpolated: f64 = (0..STENCIL)
                .map(|k| weights[k] * poly(axis.node(first + k)))
                .sum();
            assert!((interpolated - poly(z)).abs() < 1e-9, "{z}");
            assert!((1.0..3.0).contains(&lebesgue), "{lebesgue}");
        }
    }

    fn expansion_of(points: &[Point], labels: &[i32], gamma: f64) -> (Vec<(Point, f64)>, f64) {
        let model = crate::methods::solvers::svm::SvmModel::fit(
            points,
            labels,
            &crate::methods::solvers::svm::SvmParams::new(Kernel::Rbf { gamma }, 1.0),
        )
        .unwrap();
        (model.expansion().to_vec(), model.bias)
    }

    /// f summed over every term at every node, against f̃: within the bound everywhere, and
    /// the bound within the target.
    fn check_bound(expansion: &[(Point, f64)], bias: f64, gamma: f64, grid: &Grid, target: f64) {
        let binned = BinnedRbf::new(gamma, expansion, bias, grid, target).expect("a lattice");
        assert!(binned.error <= target, "{} > {target}", binned.error);
        let kernel = Kernel::Rbf { gamma };
        let mut worst = 0.0f64;
        for row in (0..grid.rows).step_by(3) {
            for col in (0..grid.cols).step_by(3) {
                let x = grid.node(row, col);
                let f = bias
                    + expansion
                        .iter()
                        .map(|&(z, w)| w * kernel.eval(z, x))
                        .sum::<f64>();
                worst = worst.max((binned.at(row, col) - f).abs());
            }
        }
        assert!(worst <= binned.error, "{worst} > bound {}", binned.error);
    }

    #[test]
    fn the_lattice_stays_within_its_bound() {
        let data = random_labels(1500, 7);
        let grid = Grid::new(View::square(1.0), 121, 121);
        let (expansion, bias) = expansion_of(&data.points, &data.labels, 2.0);
        check_bound(&expansion, bias, 2.0, &grid, FIELD_ERROR);
        // A coarse target, so the bound is tested where it is not far below every error.
        check_bound(&expansion, bias, 2.0, &grid, 1e-2);
        let moons = Preset::Moons.generate(1500, 0.3, 2);
        let grid = Grid::new(View::around(&moons.points), 121, 121);
        for gamma in [0.3, 1.0, 8.0, 50.0] {
            let (expansion, bias) = expansion_of(&moons.points, &moons.labels, gamma);
            check_bound(&expansion, bias, gamma, &grid, FIELD_ERROR);
        }
        // In other units: the points times 10⁴, γ over 10⁸.
        let scaled: Vec<Point> = moons.points.iter().map(|p| p.map(|v| 1e4 * v)).collect();
        let grid = Grid::new(View::around(&scaled), 121, 121);
        let (expansion, bias) = expansion_of(&scaled, &moons.labels, 1e-8);
        check_bound(&expansion, bias, 1e-8, &grid, FIELD_ERROR);
    }

    #[test]
    fn few_terms_keep_the_exact_path() {
        let grid = Grid::new(View::square(1.0), 321, 321);
        let few = [([0.1, 0.2], 1.0), ([-0.3, 0.4], -1.0)];
        assert!(BinnedRbf::for_field(2.0, &few, 0.0, &grid).is_none());
        assert!(BinnedRbf::new(2.0, &[], 0.0, &grid, FIELD_ERROR).is_none());
        let data = random_labels(1500, 7);
        let (expansion, bias) = expansion_of(&data.points, &data.labels, 2.0);
        assert!(BinnedRbf::for_field(2.0, &expansion, bias, &grid).is_some());
    }
}

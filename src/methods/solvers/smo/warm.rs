//! A warm start's gradient carried over from the last solution instead of summed afresh.
//!
//! SMO needs ∇ = Qα − e (Q_ij = y_i y_j K(x_i, x_j)) and, when shrinking,
//! Ḡ_t = C Σ_{α_j = C} Q_tj at its starting α. Summed from the kernel columns of the support
//! vectors that costs n · #SV kernel values: at n = 10 000 with 900 support vectors, more than
//! the few hundred pair updates that follow. The last fit ended with both exact, so when the
//! new start differs from the last solution only in ways with a closed form, they follow in
//! O(n):
//!
//! - **C changed.** The start is α' = rα with r = C'/C (a bound multiplier goes to C' itself,
//!   which is rC up to rounding). Q is unchanged, so Qα' = r Qα, i.e. ∇' = r(∇ + e) − e, and
//!   the bound set is the same, so Ḡ' = rḠ.
//! - **One point k moved** (a drag), from x_k to x'_k. Only row and column k of Q change: for
//!   t ≠ k, ∇'_t = ∇_t + y_t y_k α'_k (K(x_t, x'_k) − K(x_t, x_k)), and likewise
//!   Ḡ'_t = Ḡ_t + C' y_t y_k (K(x_t, x'_k) − K(x_t, x_k)) when α_k = C; entry k itself is
//!   summed afresh over the support vectors, ∇'_k = y_k Σ_j α'_j y_j K(x'_k, x_j) − 1 (and
//!   Ḡ'_k over the bound ones): 2n + #SV kernel values.
//!
//! Both at once compose. Anything else (points added or removed, several moved, another
//! kernel, labels changed, or a start the projection onto the feasible set altered) falls back
//! to the sums. The carried gradient differs from a summed one only by rounding (about ε per
//! entry and step), the same drift SMO's own updates have; convergence is checked on it in the
//! same way.

use crate::core::data::Point;
use crate::core::kernel::Kernel;

/// The last solution and the exact ∇ and Ḡ it ended with, on the points it was solved for.
#[derive(Clone, Debug)]
pub(super) struct Kept {
    pub(super) points: Vec<Point>,
    pub(super) y: Vec<f64>,
    pub(super) kernel: Kernel,
    pub(super) c: f64,
    pub(super) alpha: Vec<f64>,
    pub(super) gradient: Vec<f64>,
    /// Empty when the run did not shrink (and so kept no Ḡ).
    pub(super) g_bar: Vec<f64>,
}

/// The multiplier a kept α_j becomes in a warm start at box `c` (see `SvmTrainer::solve`):
/// one at the old bound goes to the new bound exactly, any other is scaled by c / c_old.
/// (Before any solution, `last_c` is 0 and α is left as it is.)
pub(crate) fn rescaled(a: f64, last_c: f64, c: f64) -> f64 {
    if last_c <= 0.0 {
        a
    } else if a >= last_c {
        c
    } else {
        a * (c / last_c)
    }
}

impl Kept {
    /// ∇ and Ḡ (empty unless `shrinking`) at `alpha` on `points` with labels `y` and box `c`,
    /// if they follow from the kept ones (see the module docs); `None` otherwise.
    pub(super) fn carried(
        &self,
        kernel: Kernel,
        points: &[Point],
        y: &[f64],
        alpha: &[f64],
        c: f64,
        shrinking: bool,
    ) -> Option<(Vec<f64>, Vec<f64>)> {
        let n = points.len();
        if kernel != self.kernel
            || self.points.len() != n
            || self.y != y
            || self.c <= 0.0
            || (shrinking && self.g_bar.len() != n)
        {
            return None;
        }
        let mut moved = (0..n).filter(|&t| self.points[t] != points[t]);
        let k = moved.next();
        if moved.next().is_some() {
            return None;
        }
        let as_expected = self
            .alpha
            .iter()
            .zip(alpha)
            .all(|(&a, &b)| rescaled(a, self.c, c) == b);
        if !as_expected {
            return None;
        }
        let r = c / self.c;
        let mut gradient: Vec<f64> = self.gradient.iter().map(|g| r * (g + 1.0) - 1.0).collect();
        let mut g_bar: Vec<f64> = if shrinking {
            self.g_bar.iter().map(|g| r * g).collect()
        } else {
            Vec::new()
        };
        if let Some(k) = k {
            let (old, new) = (self.points[k], points[k]);
            let bound_k = alpha[k] >= c;
            if alpha[k] > 0.0 {
                for t in (0..n).filter(|&t| t != k) {
                    let change =
                        y[t] * y[k] * (kernel.eval(points[t], new) - kernel.eval(points[t], old));
                    gradient[t] += alpha[k] * change;
                    if shrinking && bound_k {
                        g_bar[t] += c * change;
                    }
                }
            }
            let (mut sum, mut bound_sum) = (0.0, 0.0);
            for j in (0..n).filter(|&j| alpha[j] > 0.0) {
                let q = y[k] * y[j] * kernel.eval(new, points[j]);
                sum += alpha[j] * q;
                if alpha[j] >= c {
                    bound_sum += c * q;
                }
            }
            gradient[k] = sum - 1.0;
            if shrinking {
                g_bar[k] = bound_sum;
            }
        }
        Some((gradient, g_bar))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;
    use crate::core::kernel::KernelCache;
    use crate::methods::solvers::smo::state::{add_scaled_column, gradient};
    use crate::methods::solvers::smo::{Problem, Recording, SvmTrainer, CACHE_BYTES};

    /// ∇ and Ḡ at `alpha`, summed from the kernel columns as a cold start does.
    fn summed(
        kernel: Kernel,
        points: &[Point],
        y: &[f64],
        alpha: &[f64],
        c: f64,
    ) -> (Vec<f64>, Vec<f64>) {
        let mut cache = KernelCache::new(CACHE_BYTES);
        cache.prepare(kernel, points);
        let grad = gradient(&mut cache, points, alpha, y);
        let n = points.len();
        let mut g_bar = vec![0.0; n];
        for j in (0..n).filter(|&j| alpha[j] >= c) {
            cache.ensure(j, points);
            add_scaled_column(&mut g_bar, c * y[j], y, cache.column(j));
        }
        (grad, g_bar)
    }

    fn largest_difference(a: &[f64], b: &[f64]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max)
    }

    /// A solved problem and what its trainer kept.
    fn kept_after_a_fit(kernel: Kernel) -> (Vec<Point>, Kept) {
        let data = Preset::Moons.generate(300, 0.4, 5);
        let mut trainer = SvmTrainer::new();
        let problem = Problem {
            kernel,
            c: 2.0,
            tol: 1e-3,
            max_iter: 1_000_000,
            stop_at_bound: false,
            record: Recording::default(),
        };
        trainer.solve(&data.points, &data.labels, &problem).unwrap();
        (
            data.points,
            *trainer.kept.expect("a fit keeps its solution"),
        )
    }

    /// After a new C, a moved point (a bound support vector, a free one, a point that is none)
    /// or both, the carried ∇ and Ḡ are the summed ones, to rounding.
    #[test]
    fn the_carried_gradient_is_the_summed_one() {
        for kernel in [Kernel::Rbf { gamma: 2.0 }, Kernel::Linear] {
            let (points, kept) = kept_after_a_fit(kernel);
            let first = |test: &dyn Fn(f64) -> bool| kept.alpha.iter().position(|&a| test(a));
            let bound = first(&|a| a >= kept.c);
            let free = first(&|a| a > 0.0 && a < kept.c);
            let zero = first(&|a| a == 0.0);
            assert!(
                bound.is_some() && free.is_some() && zero.is_some(),
                "{kernel:?}"
            );
            for c in [2.0, 0.5, 7.3] {
                for moved in [None, bound, free, zero] {
                    let mut now = points.clone();
                    if let Some(k) = moved {
                        now[k] = [now[k][0] + 0.31, now[k][1] - 0.17];
                    }
                    let alpha: Vec<f64> =
                        kept.alpha.iter().map(|&a| rescaled(a, kept.c, c)).collect();
                    let (grad, g_bar) = kept
                        .carried(kernel, &now, &kept.y, &alpha, c, true)
                        .expect("a new C and one moved point carry over");
                    let (want, want_bar) = summed(kernel, &now, &kept.y, &alpha, c);
                    let what = format!("{kernel:?}, C = {c}, moved {moved:?}");
                    assert!(largest_difference(&grad, &want) < 1e-10, "{what}: ∇");
                    assert!(largest_difference(&g_bar, &want_bar) < 1e-10, "{what}: Ḡ");
                }
            }
        }
    }

    /// Whatever has no closed form is left to the sums.
    #[test]
    fn anything_else_is_summed_afresh() {
        let kernel = Kernel::Rbf { gamma: 2.0 };
        let (points, kept) = kept_after_a_fit(kernel);
        let alpha = kept.alpha.clone();
        let carried = |kernel, points: &[Point], y: &[f64], alpha: &[f64]| {
            kept.carried(kernel, points, y, alpha, kept.c, true)
                .is_some()
        };
        assert!(carried(kernel, &points, &kept.y, &alpha));
        let mut two_moved = points.clone();
        two_moved[0][0] += 0.1;
        two_moved[1][1] += 0.1;
        assert!(
            !carried(kernel, &two_moved, &kept.y, &alpha),
            "two points moved"
        );
        assert!(
            !carried(Kernel::Rbf { gamma: 3.0 }, &points, &kept.y, &alpha),
            "another γ"
        );
        let mut relabelled = kept.y.clone();
        relabelled[3] = -relabelled[3];
        assert!(
            !carried(kernel, &points, &relabelled, &alpha),
            "a label changed"
        );
        let mut projected = alpha.clone();
        let k = projected.iter().position(|&a| a > 0.0).unwrap();
        projected[k] *= 0.5;
        assert!(
            !carried(kernel, &points, &kept.y, &projected),
            "a start other than rescaled"
        );
        assert!(
            !carried(kernel, &points[1..], &kept.y[1..], &alpha[1..]),
            "a point removed"
        );
    }
}

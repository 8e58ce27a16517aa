//! What a support vector regression keeps between fits, and the warm start it makes of it.
//!
//! The kept kernel columns stay valid for every point that did not move (a moved point's
//! entries are patched, as the C-SVM's cache does). The last 2n multipliers are a feasible
//! start for the next problem when the number of points is the same, after these repairs:
//!
//! - **ε-SVR.** The constraints 0 ≤ α, α* ≤ C and Σ(α_i − α*_i) = 0 involve neither the
//!   points, the targets, ε nor the kernel, so after a drag or a new ε or γ the last α is
//!   feasible as it is. A new C' scales every multiplier by C'/C (one at the bound goes to C'
//!   exactly): the box scales with it and the equality, being linear and homogeneous, holds.
//!   Clipping to C' alone would break the equality, so it is never used.
//! - **ν-SVR.** Each side's sum is fixed at C·ν·n/2 (and the box at C). After a drag nothing
//!   changes. A new C' scales as above, which scales both sums to C'·ν·n/2; a new ν' then
//!   moves each side to C'·ν'·n/2 (`refill`): the change is shared evenly by the free
//!   multipliers (the edge of the tube moves, its points stay on it), and only what they cannot
//!   take goes to the bound ones (a surplus) or to those at zero (a shortfall), so as many as
//!   possible keep their KKT case. Sharing it evenly took a third of the iterations of moving
//!   each free one in proportion to its room (five ν steps of 1/120 on 500 points of the
//!   sine: 810 against 2 363).
//!
//! The start is checked before it is used (every multiplier in the box, each equality within
//! rounding of its value); one that fails, a changed number of points or formulation, or a
//! solution with no multiplier above zero starts cold, from LIBSVM's start. The solver then
//! sums the gradient afresh from the start's α, and believes convergence only on a fresh sum,
//! so a warm fit ends at the cold fit's optimum within the tolerance.

use super::solver::Formulation;
use crate::core::data::Point;
use crate::core::kernel::{Kernel, KernelCache};
use crate::methods::model::WarmStart;
use crate::methods::solvers::smo::{rescaled, CACHE_BYTES};

/// The kernel columns, the points they belong to and the last solution of an SVR.
#[derive(Debug)]
pub struct SvrWarmStart {
    pub(super) cache: KernelCache,
    /// The inputs the cached columns belong to.
    inputs: Vec<Point>,
    /// The last 2n multipliers (α then α*); empty when the next fit starts cold.
    alpha: Vec<f64>,
    /// The box bound and formulation they solved.
    c: f64,
    formulation: Option<Formulation>,
}

impl Default for SvrWarmStart {
    fn default() -> Self {
        Self {
            cache: KernelCache::new(CACHE_BYTES),
            inputs: Vec::new(),
            alpha: Vec::new(),
            c: 0.0,
            formulation: None,
        }
    }
}

impl SvrWarmStart {
    /// Brings the cache up to date with `inputs` under `kernel`: a few moved points are
    /// patched, anything else starts the columns (and the multipliers) afresh.
    pub(super) fn prepare(&mut self, kernel: Kernel, inputs: &[Point]) {
        let n = inputs.len();
        if self.inputs.len() == n && self.cache.kernel() == kernel {
            let moved: Vec<usize> = (0..n).filter(|&i| self.inputs[i] != inputs[i]).collect();
            if moved.len() > n / 8 {
                self.cache.invalidate();
            }
            for i in moved.into_iter().take(n / 8) {
                self.cache.point_moved(i, inputs);
            }
        } else {
            self.cache.invalidate();
            if self.inputs.len() != n {
                self.alpha.clear();
            }
        }
        self.cache.prepare(kernel, inputs);
        self.inputs = inputs.to_vec();
    }

    /// The last solution made feasible for `formulation` at box `c` (see the module doc), or
    /// `None` when the fit must start cold. `y` is +1 for α, −1 for α*.
    pub(super) fn start(&self, formulation: Formulation, c: f64, y: &[f64]) -> Option<Vec<f64>> {
        let same_kind = matches!(
            (self.formulation?, formulation),
            (Formulation::Epsilon(_), Formulation::Epsilon(_))
                | (Formulation::Nu(_), Formulation::Nu(_))
        );
        if !same_kind || self.alpha.len() != y.len() || self.alpha.iter().all(|&a| a <= 0.0) {
            return None;
        }
        let mut alpha: Vec<f64> = self.alpha.iter().map(|&a| rescaled(a, self.c, c)).collect();
        let n = y.len() / 2;
        let slack = 1e-10 * c * n as f64;
        let fits = match formulation {
            Formulation::Epsilon(_) => {
                let balance: f64 = alpha.iter().zip(y).map(|(a, y)| a * y).sum();
                balance.abs() <= slack
            }
            Formulation::Nu(nu) => {
                let target = c * nu * n as f64 / 2.0;
                let (upper, lower) = alpha.split_at_mut(n);
                refill(upper, target, c);
                refill(lower, target, c);
                let sum = |side: &[f64]| side.iter().sum::<f64>();
                (sum(upper) - target).abs() <= slack && (sum(lower) - target).abs() <= slack
            }
        };
        let in_box = alpha.iter().all(|&a| (0.0..=c).contains(&a));
        (fits && in_box).then_some(alpha)
    }

    /// Keeps the solution of `formulation` at box `c`.
    pub(super) fn keep(&mut self, alpha: &[f64], formulation: Formulation, c: f64) {
        self.alpha = alpha.to_vec();
        self.formulation = Some(formulation);
        self.c = c;
    }
}

/// Moves one side's multipliers (each in [0, c]) to the sum `target` ≤ c · len, keeping as
/// many KKT cases as it can: the change is shared evenly by the free multipliers (one that
/// reaches its bound takes no more, and the others share what it could not take), and only
/// what they cannot take all together goes to the others that have room (the bound ones for
/// a surplus, those at zero for a shortfall), in order.
fn refill(side: &mut [f64], target: f64, c: f64) {
    let sum: f64 = side.iter().sum();
    // Where the change pushes every multiplier: 0 for a surplus, c for a shortfall.
    let bound = if sum > target { 0.0 } else { c };
    let mut remaining = (sum - target).abs();
    // Moves a at most `limit` towards the bound, onto it exactly when it gets there: the step.
    let give = |a: &mut f64, limit: f64| {
        let room = (bound - *a).abs();
        let step = room.min(limit);
        *a = if step == room {
            bound
        } else {
            *a + step.copysign(bound - *a)
        };
        step
    };
    let mut open: Vec<usize> = (0..side.len())
        .filter(|&t| side[t] > 0.0 && side[t] < c)
        .collect();
    while !open.is_empty() && remaining > 0.0 {
        let share = remaining / open.len() as f64;
        for &t in &open {
            remaining -= give(&mut side[t], share);
        }
        let before = open.len();
        open.retain(|&t| side[t] != bound);
        if open.len() == before {
            // Nobody reached a bound: the change is all taken.
            return;
        }
    }
    for a in side.iter_mut() {
        if remaining <= 0.0 {
            break;
        }
        remaining -= give(a, remaining);
    }
}

impl WarmStart for SvrWarmStart {
    fn point_moved(&mut self, _index: usize, _points: &[Point]) {
        // The next fit finds the moved inputs by comparing (the plane's points are (x, t);
        // the columns are of the inputs (x, 0)).
    }
    fn forget(&mut self) {
        self.alpha.clear();
    }
    fn data_replaced(&mut self) {
        *self = SvrWarmStart::default();
    }
    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::refill;

    /// A change is shared evenly by the free multipliers; what they cannot take goes to the
    /// bound ones (a surplus) or to those at zero (a shortfall), in order.
    #[test]
    fn refill_keeps_the_kkt_cases_it_can() {
        let mut side = [1.0, 0.25, 0.0, 0.5, 1.0];
        refill(&mut side, 2.375, 1.0);
        assert_eq!(side, [1.0, 0.0625, 0.0, 0.3125, 1.0]);
        let mut side = [1.0, 0.25, 0.0, 0.5, 1.0];
        refill(&mut side, 1.25, 1.0);
        assert_eq!(side, [0.25, 0.0, 0.0, 0.0, 1.0]);
        let mut side = [1.0, 0.25, 0.0, 0.5, 1.0];
        refill(&mut side, 3.375, 1.0);
        assert_eq!(side, [1.0, 0.5625, 0.0, 0.8125, 1.0]);
        refill(&mut side, 4.5, 1.0);
        assert_eq!(side, [1.0, 1.0, 0.5, 1.0, 1.0]);
    }
}

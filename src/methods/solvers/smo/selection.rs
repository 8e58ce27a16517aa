//! Second-order working-set selection: which pair of multipliers SMO updates next.
//!
//! The pair is chosen as in LIBSVM (Chang & Lin, 2011), by second-order working-set selection
//! (Fan, Chen & Lin, "Working set selection using second order information for training SVM",
//! JMLR 6, 2005): i maximises −y_i ∇_i over the multipliers that may move up, and j, among those
//! that may move down with a positive violation, minimises the second-order decrease
//! −(violation)²/(K_ii + K_jj − 2K_ij). The solver stops when the maximal KKT violation
//! m(α) − M(α) = max_{I_up} −y_t∇_t − min_{I_low} −y_t∇_t is below `tol` (LIBSVM's ε, default
//! 10⁻³). Here ∇ = Qα − e with Q_ij = y_i y_j K_ij, I_up = {t : α_t < C, y_t = 1 or α_t > 0,
//! y_t = −1} and I_low = {t : α_t < C, y_t = −1 or α_t > 0, y_t = 1}.

use super::state::State;
use super::TAU;

impl State<'_> {
    /// LIBSVM's second-order working-set selection (WSS 2 of Fan, Chen & Lin, 2005) on the
    /// active set.
    pub(super) fn select_working_set(&mut self, tol: f64) -> Selection {
        // Each pass runs over a plain range while nothing is shrunk, so it stays contiguous.
        let full = self.active.len() == self.alpha.len();
        let everything = 0..self.alpha.len();
        let up = if full {
            self.most_violating(everything.clone())
        } else {
            self.most_violating(self.active.iter().copied())
        };
        let Some((i, g_max)) = up else {
            return Selection {
                pair: None,
                violation: 0.0,
            };
        };
        self.cache.ensure_on(i, self.points, &self.active);
        let (best, g_max2) = if full {
            self.best_partner(i, g_max, everything)
        } else {
            self.best_partner(i, g_max, self.active.iter().copied())
        };
        let violation = g_max + g_max2;
        match best {
            Some(j) if violation >= tol => Selection {
                pair: Some((i, j)),
                violation,
            },
            _ => Selection {
                pair: None,
                violation: violation.max(0.0),
            },
        }
    }

    /// i = argmax_{I_up} −y_t∇_t among `indices`, and that maximum m(α).
    fn most_violating(&self, indices: impl Iterator<Item = usize>) -> Option<(usize, f64)> {
        let (alpha, grad, y, c) = (&self.alpha, &self.gradient, &self.y, self.c);
        let mut best = None;
        let mut g_max = f64::NEG_INFINITY;
        for t in indices {
            if let Some(v) = up_value(alpha[t], y[t], grad[t], c) {
                if v >= g_max {
                    g_max = v;
                    best = Some(t);
                }
            }
        }
        best.map(|t| (t, g_max))
    }

    /// Among `indices` in I_low with a positive violation against i, the j of the largest
    /// second-order decrease; and max_{I_low} y_t∇_t = −M(α). Column i must be resident.
    fn best_partner(
        &self,
        i: usize,
        g_max: f64,
        indices: impl Iterator<Item = usize>,
    ) -> (Option<usize>, f64) {
        let (alpha, grad, y, c) = (&self.alpha, &self.gradient, &self.y, self.c);
        let (ki, diagonal) = (self.cache.column(i), &self.diagonal);
        let mut g_max2 = f64::NEG_INFINITY;
        let mut best = None;
        let mut best_decrease = f64::INFINITY;
        for j in indices {
            let Some(v) = down_value(alpha[j], y[j], grad[j], c) else {
                continue;
            };
            if v >= g_max2 {
                g_max2 = v;
            }
            let grad_diff = g_max + v;
            if grad_diff > 0.0 {
                // K_ii + K_jj − 2 y_i y_j Q_ij = K_ii + K_jj − 2 K_ij.
                let curvature = diagonal[i] + diagonal[j] - 2.0 * ki[j];
                let decrease =
                    -(grad_diff * grad_diff) / if curvature > 0.0 { curvature } else { TAU };
                if decrease <= best_decrease {
                    best = Some(j);
                    best_decrease = decrease;
                }
            }
        }
        (best, g_max2)
    }
}

pub(super) struct Selection {
    pub(super) pair: Option<(usize, usize)>,
    pub(super) violation: f64,
}

/// −y_t∇_t when α_t may move up (in the direction y_t): the set I_up of Keerthi et al.
#[inline]
pub(super) fn up_value(alpha: f64, y: f64, grad: f64, c: f64) -> Option<f64> {
    if y > 0.0 {
        (alpha < c).then_some(-grad)
    } else {
        (alpha > 0.0).then_some(grad)
    }
}

/// y_t∇_t when α_t may move down: the set I_low.
#[inline]
pub(super) fn down_value(alpha: f64, y: f64, grad: f64, c: f64) -> Option<f64> {
    if y > 0.0 {
        (alpha > 0.0).then_some(grad)
    } else {
        (alpha < c).then_some(-grad)
    }
}

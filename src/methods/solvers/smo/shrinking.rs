//! Shrinking the active set, and restoring it with the gradient rebuilt.
//!
//! **Shrinking** (Joachims, 1999; in LIBSVM's form, Fan, Chen & Lin, 2005, §4). Most
//! multipliers end at a bound, and once there they stop taking part: a multiplier that sits at
//! a bound and belongs to only one of I_up, I_low can only join a violating pair if its −y_t∇_t
//! crosses the extreme of the other set. When it lies strictly beyond — a member of I_low with
//! −y_t∇_t > m(α), or a member of I_up with −y_t∇_t < M(α) — it is *shrunk*: every min(n, 1000)
//! iterations such multipliers leave the active set A, and selection, the gradient update and
//! the kernel columns then cost O(|A|) instead of O(n). Free multipliers are never shrunk.
//!
//! A shrunk gradient goes stale, so SMO keeps Ḡ, the part of ∇ due to the multipliers at the
//! upper bound, for every point: Ḡ_t = C Σ_{α_j = C} Q_tj, updated (one whole kernel column)
//! only when a multiplier reaches or leaves C. Since free multipliers are all active,
//!
//!   ∇_t = Ḡ_t − 1 + Σ_{0 < α_j < C} α_j Q_tj   for every t,
//!
//! which rebuilds the gradient of the shrunk points from the free columns alone. SMO does so
//! (and restores A to every point) on two occasions: once when the violation first falls below
//! 10·tol, since a multiplier shrunk early may have been shrunk wrongly; and whenever the active
//! problem is solved, before it may stop. If the whole problem then still violates the KKT
//! conditions by `tol`, SMO goes on (`Solution::reopened` counts these), shrinking again at the
//! next iteration. The optimum is therefore the same as without shrinking: only multipliers
//! that the working-set selection would not have chosen are set aside, so the sequence of
//! pairs is mostly the same too.

use super::selection::{down_value, up_value};
use super::state::{add_scaled_column, gradient, State};

impl State<'_> {
    /// Removes from the active set the multipliers that sit at a bound and whose gradient
    /// pushes them further into it than the most violating pair reaches (LIBSVM's
    /// `do_shrinking`); the first time the violation comes within 10·tol, first restores the
    /// whole set, so that a variable shrunk too early gets its chance.
    pub(super) fn shrink(&mut self, tol: f64) {
        let (alpha, grad, y, c) = (&self.alpha, &self.gradient, &self.y, self.c);
        let (mut up, mut down) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &t in &self.active {
            if let Some(v) = up_value(alpha[t], y[t], grad[t], c) {
                up = up.max(v);
            }
            if let Some(v) = down_value(alpha[t], y[t], grad[t], c) {
                down = down.max(v);
            }
        }
        if !self.unshrunk && up + down <= 10.0 * tol {
            self.unshrunk = true;
            self.unshrink();
        }
        let (alpha, grad, y) = (&self.alpha, &self.gradient, &self.y);
        if self.rash {
            self.active.retain(|&t| alpha[t] > 0.0 && alpha[t] < c);
        } else {
            self.active
                .retain(|&t| !can_be_shrunk(alpha[t], y[t], grad[t], c, up, down));
        }
        self.fewest_active = self.fewest_active.min(self.active.len());
    }

    /// The whole active set, with ∇ and Ḡ computed afresh from α.
    pub(super) fn refresh(&mut self) {
        self.unshrink();
        self.gradient = gradient(self.cache, self.points, &self.alpha, &self.y);
        if self.shrinking {
            let n = self.alpha.len();
            self.g_bar = vec![0.0; n];
            for j in 0..n {
                if self.alpha[j] >= self.c {
                    self.cache.ensure(j, self.points);
                    let kj = self.cache.column(j);
                    add_scaled_column(&mut self.g_bar, self.c * self.y[j], &self.y, kj);
                }
            }
        }
        self.steps_since_fresh = 0;
    }

    /// Restores the whole active set, reconstructing the gradient of the shrunk multipliers:
    /// ∇_t = Ḡ_t − 1 + Σ_{0 < α_j < C} α_j Q_tj (free multipliers are never shrunk).
    pub(super) fn unshrink(&mut self) {
        let n = self.alpha.len();
        if self.active.len() == n {
            return;
        }
        let mut shrunk = vec![true; n];
        for &t in &self.active {
            shrunk[t] = false;
        }
        let shrunk: Vec<usize> = (0..n).filter(|&t| shrunk[t]).collect();
        for &t in &shrunk {
            self.gradient[t] = self.g_bar[t] - 1.0;
        }
        self.active = (0..n).collect();
        self.cache.active_set_grew();
        for j in 0..n {
            let a = self.alpha[j];
            if a > 0.0 && a < self.c {
                self.cache.ensure(j, self.points);
                let kj = self.cache.column(j);
                let aj = a * self.y[j];
                for &t in &shrunk {
                    self.gradient[t] += self.y[t] * aj * kj[t];
                }
            }
        }
    }
}

/// A bound multiplier that is in only one of I_up, I_low can join a violating pair only if
/// its −y_t∇_t passes the extreme of the other set: m(α) = max_{I_up} −y∇ (`up`) for a member
/// of I_low, M(α) = −max_{I_low} y∇ (`down`) for a member of I_up. If it lies beyond, it is
/// shrunk.
#[inline]
fn can_be_shrunk(alpha: f64, y: f64, grad: f64, c: f64, up: f64, down: f64) -> bool {
    if alpha >= c {
        if y > 0.0 {
            -grad > up
        } else {
            -grad > down
        }
    } else if alpha <= 0.0 {
        if y > 0.0 {
            grad > down
        } else {
            grad > up
        }
    } else {
        false
    }
}

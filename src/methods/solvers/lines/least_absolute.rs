//! The least-absolute-deviations line, found exactly by a descent over lines through two data
//! points (a simplex method for the linear programme in the module above, in the spirit of
//! Barrodale & Roberts, 1973, and of Wesolowsky's direct descent, 1981, for one regressor).
//!
//! **Lines through a pivot.** Among the lines through data point p, with slopes
//! s_i = (t_i − t_p)/(x_i − x_p), the residuals are r_i = (x_i − x_p)(s_i − w), so
//!
//! ```text
//!     A = Σ_{x_i ≠ x_p} |x_i − x_p| · |s_i − w|  +  Σ_{x_i = x_p} |t_i − t_p|,
//! ```
//!
//! convex and piecewise linear in w, falling while the weight |x_i − x_p| of the slopes above w
//! exceeds that of those below. It is least at a *weighted median* of the s_i: sort them, and
//! take the first whose running weight reaches half of the total. (When the running weight
//! meets the half exactly, every w up to the next slope is as good, and the smaller is taken.)
//! The best line through p passes through p and through the point of that median slope.
//!
//! **Optimality.** Let L be the best line through p and Z the data points on L. Near L,
//!
//! ```text
//!     A(L + (δw, δb)) = A(L) + gᵀ(δw, δb) + Σ_{i ∈ Z} |x_i δw + δb|,
//! ```
//!
//! linear on each sector between the lines x_i δw + δb = 0 through the origin, and moving along
//! such a line keeps residual i at zero: it turns L about point i. A function linear on a
//! sector does not fall inside it when it does not fall along its two edges, so L is a local
//! minimum, and A being convex the global one, exactly when no turn about a point of Z lowers
//! A — when the best line through each point of Z is no better than L.
//!
//! Which turns lower A is read off the signs σ_i of the residuals off L: turning about q ∈ Z
//! (δb = −x_q δw) changes A at the rate E(q) ∓ G(q) as w goes up or down, with
//!
//! ```text
//!     G(q) = Σ_{i ∉ Z} σ_i (x_i − x_q),      E(q) = Σ_{i ∈ Z} |x_i − x_q|,
//! ```
//!
//! so L is optimal exactly when E(q) ≥ |G(q)| at every q ∈ Z. With G(q) = Σσ_i x_i − x_q Σσ_i
//! and running sums over Z in order of x, that is O(n + |Z| log |Z|) for all of Z at once.
//!
//! **The descent.** Start with the pivot at the lower median of x (ties by t). Repeatedly: take
//! the best line L through the pivot; for the points q of L where E(q) < |G(q)|, most steeply
//! first, compute their best lines, and move the pivot to the first that is strictly better
//! than L; when there is none, stop (L is optimal by the above). Each pivot's best line is
//! computed once and A falls strictly at every move, so no pivot is visited twice: at most n
//! pivots of one sort each, O(n² log n) at worst, and in practice a handful of pivots (eight
//! or nine at n = 10 000 in the tests), O(n log n) — 6 ms at n = 10 000 in a release build,
//! and as fast on a line of 10 000 points with one far outlier, where all of them are on L.
//!
//! **Which optimum.** When several lines are optimal (the optimal set is a segment or polygon
//! of lines), the one returned is the first optimal line the descent reaches from its start:
//! weighted medians take the smaller slope at an exact half, a move needs a strict decrease,
//! and of two pivots whose turns fall equally steeply the first in order of x (then t) is
//! tried first. The answer depends on the points only (not on their order), up to the
//! rounding of sums.
//!
//! Rounding: a point counts as on L when its residual is below 10⁻¹² of the terms it is made
//! of (a point truly on L is off by a few ulps of them), and a turn counts as possibly
//! lowering A when E(q) − |G(q)| is below 10⁻⁹ of the size of its terms (trying a turn that
//! does not lower A only costs one pivot). A point within the first tolerance but not on L
//! counts as a kink of A, which moves the optimum certified by at most that tolerance.

/// The lower median of `values` (non-empty).
pub(super) fn lower_median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    crate::core::sorting::sort_by(&mut sorted, f64::total_cmp);
    sorted[(sorted.len() - 1) / 2]
}

/// The best line through one pivot: its slope and A.
#[derive(Clone, Copy, Debug)]
struct Turned {
    slope: f64,
    objective: f64,
}

/// Where the descent ended.
pub(super) struct Descent {
    pub slope: f64,
    pub intercept: f64,
    /// The pivots whose best line was computed (the cost is one sort of n slopes each); read
    /// by the tests, which bound it.
    #[cfg_attr(not(test), allow(dead_code))]
    pub pivots: usize,
}

/// The LAD line of (u_i, v_i), whose u are not all equal.
pub(super) fn fit(u: &[f64], v: &[f64]) -> Descent {
    let n = u.len();
    // The points in order of (u, v): the start, and the order in which ties are broken.
    let mut order: Vec<usize> = (0..n).collect();
    crate::core::sorting::sort_by(&mut order, |&a, &b| {
        u[a].total_cmp(&u[b]).then(v[a].total_cmp(&v[b]))
    });
    let mut rank = vec![0; n];
    for (k, &i) in order.iter().enumerate() {
        rank[i] = k;
    }
    let mut known: Vec<Option<Turned>> = vec![None; n];
    let mut slopes = Vec::with_capacity(n);
    let mut best_through = |p: usize, known: &mut Vec<Option<Turned>>| {
        *known[p].get_or_insert_with(|| turn_about(p, u, v, &mut slopes))
    };
    let mut pivot = order[(n - 1) / 2];
    let mut line = best_through(pivot, &mut known);
    // At most n moves: each pivot is visited once.
    for _ in 0..n {
        if line.objective == 0.0 {
            break;
        }
        let better = turning_points(pivot, line.slope, u, v, &rank)
            .into_iter()
            .map(|q| (q, best_through(q, &mut known)))
            .find(|(_, turned)| turned.objective < line.objective);
        let Some((q, turned)) = better else {
            break;
        };
        pivot = q;
        line = turned;
    }
    Descent {
        slope: line.slope,
        intercept: v[pivot] - line.slope * u[pivot],
        pivots: known.iter().filter(|k| k.is_some()).count(),
    }
}

/// The best line through point p: the weighted median of the slopes to the other points
/// (`slopes` is work space). A slope beyond the doubles (u almost equal) gives A = ∞, a line
/// never taken.
fn turn_about(p: usize, u: &[f64], v: &[f64], slopes: &mut Vec<(f64, f64)>) -> Turned {
    slopes.clear();
    for i in 0..u.len() {
        let dx = u[i] - u[p];
        if dx != 0.0 {
            slopes.push(((v[i] - v[p]) / dx, dx.abs()));
        }
    }
    crate::core::sorting::sort_by(slopes, |a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let total: f64 = slopes.iter().map(|s| s.1).sum();
    let mut below = 0.0;
    let slope = slopes
        .iter()
        .find(|s| {
            below += s.1;
            2.0 * below >= total
        })
        .map_or(0.0, |s| s.0);
    if !slope.is_finite() {
        return Turned {
            slope,
            objective: f64::INFINITY,
        };
    }
    let objective = (0..u.len())
        .map(|i| (v[i] - v[p] - slope * (u[i] - u[p])).abs())
        .sum();
    Turned { slope, objective }
}

/// The points on the line L through p with `slope`, of other places than p, about which a
/// turn may lower A — those with E(q) − |G(q)| below 10⁻⁹ of the size of its terms — most
/// steeply first, one of each place (ties in order of `rank`).
fn turning_points(p: usize, slope: f64, u: &[f64], v: &[f64], rank: &[usize]) -> Vec<usize> {
    let mut on = Vec::new();
    // G(q) = s1 − s0·u_q from the signs of the residuals off L.
    let (mut s1, mut s0) = (0.0, 0.0);
    for i in 0..u.len() {
        let (dv, du) = (v[i] - v[p], slope * (u[i] - u[p]));
        let residual = dv - du;
        if residual.abs() <= 1e-12 * (dv.abs() + du.abs()) {
            on.push(i);
        } else {
            s1 += residual.signum() * u[i];
            s0 += residual.signum();
        }
    }
    // E(q) = Σ_{i on L} |u_i − u_q| from running sums over L in order of u.
    crate::core::sorting::sort_by(&mut on, |&a, &b| u[a].total_cmp(&u[b]));
    let total: f64 = on.iter().map(|&i| u[i]).sum();
    let size: f64 = u.iter().map(|a| a.abs()).sum();
    let (mut before, m) = (0.0, on.len() as f64);
    let mut turning: Vec<(f64, usize)> = Vec::new();
    for (k, &q) in on.iter().enumerate() {
        let (k, uq) = (k as f64, u[q]);
        let e = (k * uq - before) + (total - before - uq - (m - k - 1.0) * uq);
        before += uq;
        let margin = e - (s1 - s0 * uq).abs();
        let here = u[q] == u[p] && v[q] == v[p];
        if !here && margin < 1e-9 * (size + u.len() as f64 * uq.abs()) {
            turning.push((margin, q));
        }
    }
    crate::core::sorting::sort_by(&mut turning, |a, b| {
        a.0.total_cmp(&b.0).then(rank[a.1].cmp(&rank[b.1]))
    });
    let mut points: Vec<usize> = turning.into_iter().map(|(_, q)| q).collect();
    // Copies of a place have the same margin, so they sit side by side.
    points.dedup_by(|a, b| u[*a] == u[*b] && v[*a] == v[*b]);
    points
}

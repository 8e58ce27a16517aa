//! Convex hulls in the plane and an exact test of whether two point sets can be split by a
//! line: the certificate the hard-margin SVM with the linear kernel stands on.
//!
//! Two finite point sets A and B are *strictly* separable by a line (some w, b with
//! wᵀa + b > 0 > wᵀc + b for all a ∈ A, c ∈ B, equivalently y_i(wᵀx_i + b) ≥ 1 after scaling,
//! the hard-margin SVM's constraints) exactly when their convex hulls are disjoint: the hulls
//! are compact and convex, and disjoint compact convex sets have a strictly separating line
//! (the hyperplane separation theorem), while a line cannot split two sets whose hulls share a
//! point. For two convex polygons in the plane a separating line, when there is one, can be
//! taken parallel to an edge of one of them (the separating axis theorem), so it suffices to
//! project both hulls on every edge's normal and look for a gap. Hulls with no area (one point,
//! or collinear points) are handled by adding the segment's own direction and, for two single
//! points, the direction between them.
//!
//! The hull is Andrew's monotone chain: sort by (x₁, x₂), build the lower and upper chains,
//! dropping every point that does not turn left. Orientation signs are computed in f64, so a
//! set whose separation is at the level of rounding (hulls within about 10⁻¹⁵ of their size)
//! may be judged either way; anything a plot can show is decided correctly.

use crate::core::data::Point;

/// z-component of (b − a) × (c − a): positive when a → b → c turns left.
fn cross(a: Point, b: Point, c: Point) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// The convex hull's vertices in counter-clockwise order, without collinear points: one
/// point for a single (or repeated) point, two for collinear points.
pub fn convex_hull(points: &[Point]) -> Vec<Point> {
    let mut sorted: Vec<Point> = points.to_vec();
    crate::core::sorting::sort_by(&mut sorted, |a, b| {
        a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1]))
    });
    sorted.dedup();
    if sorted.len() <= 2 {
        return sorted;
    }
    let mut hull: Vec<Point> = Vec::with_capacity(2 * sorted.len());
    // The lower chain left to right, then the upper chain right to left.
    for pass in [false, true] {
        let start = hull.len();
        let chain: Box<dyn Iterator<Item = &Point>> = if pass {
            Box::new(sorted.iter().rev())
        } else {
            Box::new(sorted.iter())
        };
        for &p in chain {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop(); // the chain's last point starts the other chain
    }
    hull
}

/// The directions on which a gap between the two hulls is looked for: each edge's normal and,
/// for hulls with no area, their own direction and the direction between single points.
fn axes(a: &[Point], b: &[Point]) -> Vec<[f64; 2]> {
    let mut axes = Vec::new();
    for hull in [a, b] {
        let m = hull.len();
        for k in 0..m {
            let (p, q) = (hull[k], hull[(k + 1) % m]);
            let d = [q[0] - p[0], q[1] - p[1]];
            if d != [0.0, 0.0] {
                axes.push([-d[1], d[0]]);
                if m == 2 {
                    axes.push(d);
                }
            }
        }
    }
    if let (Some(&p), Some(&q)) = (a.first(), b.first()) {
        axes.push([q[0] - p[0], q[1] - p[1]]);
    }
    axes
}

/// Whether some line has every point of `a` strictly on one side and every point of `b`
/// strictly on the other (false when either set is empty).
pub fn strictly_separable(a: &[Point], b: &[Point]) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let (ha, hb) = (convex_hull(a), convex_hull(b));
    let range = |hull: &[Point], axis: [f64; 2]| {
        hull.iter()
            .map(|p| p[0] * axis[0] + p[1] * axis[1])
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            })
    };
    axes(&ha, &hb).into_iter().any(|axis| {
        let (a_lo, a_hi) = range(&ha, axis);
        let (b_lo, b_hi) = range(&hb, axis);
        a_hi < b_lo || b_hi < a_lo
    })
}

/// The closest point to `p` on the segment from `a` to `b`.
fn nearest_on_segment(p: Point, a: Point, b: Point) -> Point {
    let d = [b[0] - a[0], b[1] - a[1]];
    let length = d[0] * d[0] + d[1] * d[1];
    if length == 0.0 {
        return a;
    }
    let t = (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / length).clamp(0.0, 1.0);
    [a[0] + t * d[0], a[1] + t * d[1]]
}

/// The shortest segment between the convex hulls of `a` and `b`, as (its end on hull(a), its
/// end on hull(b)), when the sets are strictly separable; `None` when the hulls meet (or a set
/// is empty).
///
/// For disjoint convex polygons the nearest pair has at least one end at a vertex, so it is
/// the nearest of the vertex-to-edge distances both ways. Its perpendicular bisector is the
/// hard-margin SVM's boundary with the linear kernel (the dual's minimum-norm point of the
/// difference of the hulls), and half its length is the margin 1/‖w‖.
pub fn closest_points(a: &[Point], b: &[Point]) -> Option<(Point, Point)> {
    if !strictly_separable(a, b) {
        return None;
    }
    let (ha, hb) = (convex_hull(a), convex_hull(b));
    let edges = |hull: &[Point]| -> Vec<(Point, Point)> {
        (0..hull.len())
            .map(|i| (hull[i], hull[(i + 1) % hull.len()]))
            .collect()
    };
    let distance = |p: Point, q: Point| (p[0] - q[0]).hypot(p[1] - q[1]);
    let mut best: Option<(f64, Point, Point)> = None;
    let mut consider = |from_a: Point, from_b: Point| {
        let d = distance(from_a, from_b);
        if best.is_none_or(|(least, _, _)| d < least) {
            best = Some((d, from_a, from_b));
        }
    };
    for &p in &ha {
        for (s, t) in edges(&hb) {
            consider(p, nearest_on_segment(p, s, t));
        }
    }
    for &q in &hb {
        for (s, t) in edges(&ha) {
            consider(nearest_on_segment(q, s, t), q);
        }
    }
    best.map(|(_, p, q)| (p, q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_points_of_two_hulls_by_hand() {
        // A square [0, 1]² and a triangle whose nearest vertex (3, 0.5) faces the square's
        // right edge: the segment runs from (1, 0.5) to (3, 0.5).
        let square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let triangle = [[3.0, 0.5], [5.0, -1.0], [5.0, 2.0]];
        assert_eq!(
            closest_points(&square, &triangle),
            Some(([1.0, 0.5], [3.0, 0.5]))
        );
        // Vertex to vertex: the squares [0, 1]² and [2, 3]² meet nearest at (1, 1), (2, 2).
        let far = [[2.0, 2.0], [3.0, 2.0], [3.0, 3.0], [2.0, 3.0]];
        assert_eq!(
            closest_points(&square, &far),
            Some(([1.0, 1.0], [2.0, 2.0]))
        );
        // Single points, and hulls that meet.
        assert_eq!(
            closest_points(&[[0.0, 0.0]], &[[0.0, 2.0]]),
            Some(([0.0, 0.0], [0.0, 2.0]))
        );
        assert_eq!(closest_points(&square, &[[0.5, 0.5], [4.0, 4.0]]), None);
    }

    #[test]
    fn hulls_drop_inner_and_collinear_points() {
        let square = [
            [0.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [0.0, 1.0],
            [0.5, 0.5],
            [0.5, 0.0],
            [1.0, 1.0],
        ];
        let hull = convex_hull(&square);
        assert_eq!(hull, vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
        assert_eq!(convex_hull(&[[2.0, 2.0], [2.0, 2.0]]), vec![[2.0, 2.0]]);
        let line = convex_hull(&[[0.0, 0.0], [2.0, 2.0], [1.0, 1.0]]);
        assert_eq!(line, vec![[0.0, 0.0], [2.0, 2.0]]);
    }

    #[test]
    fn separable_sets_are_told_from_overlapping_ones() {
        let left = [[-1.0, 0.0], [-2.0, 1.0], [-1.5, -1.0]];
        let right = [[1.0, 0.0], [2.0, 1.0], [1.5, -1.0]];
        assert!(strictly_separable(&left, &right));
        // XOR: no line splits the diagonals.
        let xor_a = [[1.0, 1.0], [-1.0, -1.0]];
        let xor_b = [[1.0, -1.0], [-1.0, 1.0]];
        assert!(!strictly_separable(&xor_a, &xor_b));
        // A point of B on an edge of A's hull: touching is not strictly separable.
        let triangle = [[0.0, 0.0], [2.0, 0.0], [1.0, 2.0]];
        assert!(!strictly_separable(&triangle, &[[1.0, 0.0], [1.0, -3.0]]));
        assert!(strictly_separable(&triangle, &[[1.0, -1e-9], [1.0, -3.0]]));
        // The same point in both classes.
        assert!(!strictly_separable(
            &[[0.5, 0.5]],
            &[[0.5, 0.5], [3.0, 3.0]]
        ));
        assert!(strictly_separable(&[[0.5, 0.5]], &[[0.5, 0.5000001]]));
    }

    #[test]
    fn degenerate_hulls_on_one_line() {
        // Collinear and disjoint: only the line's own direction separates them.
        let a = [[0.0, 0.0], [1.0, 1.0]];
        let b = [[2.0, 2.0], [3.0, 3.0]];
        assert!(strictly_separable(&a, &b));
        // Collinear and interleaved.
        let c = [[0.5, 0.5], [2.5, 2.5]];
        assert!(!strictly_separable(&a, &c));
        // A segment crossing another.
        assert!(!strictly_separable(
            &[[-1.0, 0.0], [1.0, 0.0]],
            &[[0.0, -1.0], [0.0, 1.0]]
        ));
    }

    /// Checks the hull test against brute force: a separating line, if one exists, can be
    /// taken through (or parallel to a line through) two of the points, so trying every pair's
    /// direction and normal finds it.
    #[test]
    fn agrees_with_brute_force_on_random_sets() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(11);
        for case in 0..400 {
            let n = rng.random_range(1..7);
            let m = rng.random_range(1..7);
            let shift = rng.random_range(0.0..2.5);
            let mut draw = |k: usize, dx: f64| -> Vec<Point> {
                (0..k)
                    .map(|_| {
                        [
                            (rng.random_range(-4..=4) as f64) / 4.0 + dx,
                            (rng.random_range(-4..=4) as f64) / 4.0,
                        ]
                    })
                    .collect()
            };
            let a = draw(n, 0.0);
            let b = draw(m, shift);
            let all: Vec<Point> = a.iter().chain(&b).copied().collect();
            let mut brute = false;
            for p in &all {
                for q in &all {
                    let d = [q[0] - p[0], q[1] - p[1]];
                    for axis in [d, [-d[1], d[0]]] {
                        if axis == [0.0, 0.0] {
                            continue;
                        }
                        let proj = |s: &[Point]| {
                            s.iter()
                                .map(|p| p[0] * axis[0] + p[1] * axis[1])
                                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                                    (lo.min(v), hi.max(v))
                                })
                        };
                        let ((alo, ahi), (blo, bhi)) = (proj(&a), proj(&b));
                        brute |= ahi < blo || bhi < alo;
                    }
                }
            }
            assert_eq!(
                strictly_separable(&a, &b),
                brute,
                "case {case}: {a:?} | {b:?}"
            );
        }
    }
}

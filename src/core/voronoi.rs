//! Voronoi cells and the Delaunay triangulation of the training points: the geometry behind
//! 1-nearest-neighbour classification.
//!
//! The Voronoi cell of site p_i is
//!
//! ```text
//!     V_i = { x : ‖x − p_i‖ ≤ ‖x − p_j‖ for all j },
//! ```
//!
//! the intersection of the half-planes H_ij = { x : (x − (p_i + p_j)/2) · (p_j − p_i) ≤ 0 }
//! bounded by the perpendicular bisectors. The Delaunay triangulation is its dual: sites whose
//! cells share an edge are joined. So V_i is already cut out by the bisectors of p_i's Delaunay
//! neighbours alone, and that is how [`voronoi_cells`] builds it: the view rectangle clipped
//! (Sutherland–Hodgman, one half-plane at a time) by those few bisectors. With k = 1 nearest
//! neighbour (Euclidean), the region of a class is the union of the cells of its points.
//!
//! The triangulation comes from `spade`, whose geometric predicates are exact, so cocircular
//! and collinear sites — common on the lab's 10⁻⁴ grid — give a true Delaunay triangulation.
//! That covers the degenerate cases too: with fewer than three distinct sites, or all of them
//! on one line, spade joins consecutive sites along the line, and those are exactly the
//! Voronoi neighbours (the cells are strips between parallel bisectors), so no fallback is
//! needed. (spade's bulk load is itself O(n²) when every site is on one line — about 85 ms for
//! 2000 sites — against about 1.5 ms for 2000 sites in general position.)
//!
//! Duplicate sites: only the first of several sites at one position takes part; the later ones
//! get no edges and an empty cell. Sites with a non-finite coordinate, or one beyond spade's
//! range (|v| > 2²⁰¹), are left out the same way; coordinates below its resolution
//! (|v| < 2⁻¹⁴²) count as 0 for the triangulation.

use crate::core::data::Point;
use crate::core::field::View;
use spade::{DelaunayTriangulation, HasPosition, Point2, Triangulation};

/// The Delaunay edges (i, j), i < j, in increasing order, indexing into `sites`. Duplicate
/// sites contribute their first occurrence only; collinear sites are joined along the line.
pub fn delaunay_edges(sites: &[Point]) -> Vec<(usize, usize)> {
    Delaunay::new(sites).edges
}

/// The Voronoi cell of each site clipped to `view`, a convex polygon with its vertices in
/// counter-clockwise order; empty for a later duplicate, a left-out site, or a cell that misses
/// the view.
pub fn voronoi_cells(sites: &[Point], view: &View) -> Vec<Vec<Point>> {
    let rectangle = vec![
        [view.x_min, view.y_min],
        [view.x_max, view.y_min],
        [view.x_max, view.y_max],
        [view.x_min, view.y_max],
    ];
    if !(view.width() > 0.0
        && view.height() > 0.0
        && rectangle.iter().flatten().all(|v| v.is_finite()))
    {
        return vec![Vec::new(); sites.len()];
    }
    let delaunay = Delaunay::new(sites);
    let mut neighbours = vec![Vec::new(); sites.len()];
    for &(i, j) in &delaunay.edges {
        neighbours[i].push(j);
        neighbours[j].push(i);
    }
    let mut cells = vec![Vec::new(); sites.len()];
    for i in (0..sites.len()).filter(|&i| delaunay.representative[i] == Some(i)) {
        let mut cell = rectangle.clone();
        for &j in &neighbours[i] {
            cell = clip_to_bisector(&cell, sites[i], sites[j]);
            if cell.is_empty() {
                break;
            }
        }
        cells[i] = cell;
    }
    cells
}

/// The part of the convex polygon closer to `site` than to `other`: Sutherland–Hodgman against
/// the half-plane (x − m) · (other − site) ≤ 0, m the midpoint. Fewer than three vertices left
/// means the cell misses the polygon: empty.
fn clip_to_bisector(polygon: &[Point], site: Point, other: Point) -> Vec<Point> {
    let normal = [other[0] - site[0], other[1] - site[1]];
    let midpoint = [(site[0] + other[0]) / 2.0, (site[1] + other[1]) / 2.0];
    let side = |p: Point| (p[0] - midpoint[0]) * normal[0] + (p[1] - midpoint[1]) * normal[1];
    let mut clipped = Vec::with_capacity(polygon.len() + 1);
    for (k, &a) in polygon.iter().enumerate() {
        let b = polygon[(k + 1) % polygon.len()];
        let (side_a, side_b) = (side(a), side(b));
        if side_a <= 0.0 {
            clipped.push(a);
        }
        if (side_a < 0.0 && side_b > 0.0) || (side_a > 0.0 && side_b < 0.0) {
            let t = side_a / (side_a - side_b);
            clipped.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
        }
    }
    if clipped.len() < 3 {
        clipped.clear();
    }
    clipped
}

/// A site as spade sees it, carrying its index into the caller's slice.
struct Site {
    position: Point2<f64>,
    index: usize,
}

impl HasPosition for Site {
    type Scalar = f64;

    fn position(&self) -> Point2<f64> {
        self.position
    }
}

/// The triangulation of the distinct sites, in the caller's indices.
struct Delaunay {
    /// Edges (i, j), i < j, sorted.
    edges: Vec<(usize, usize)>,
    /// For each site, the first site at its position; `None` for a left-out site.
    representative: Vec<Option<usize>>,
}

impl Delaunay {
    fn new(sites: &[Point]) -> Delaunay {
        // The position spade is given: −0 made +0 (so equal positions compare equal) and tiny
        // coordinates flushed to 0; `None` when spade cannot take the site.
        let positions: Vec<Option<Point2<f64>>> = sites
            .iter()
            .map(|p| {
                let position = spade::mitigate_underflow(Point2::new(p[0] + 0.0, p[1] + 0.0));
                let valid = spade::validate_coordinate(position.x).is_ok()
                    && spade::validate_coordinate(position.y).is_ok();
                valid.then_some(position)
            })
            .collect();
        let mut order: Vec<(Point2<f64>, usize)> = positions
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (p, i)))
            .collect();
        crate::core::sorting::sort_by(&mut order, |a, b| {
            (a.0.x.total_cmp(&b.0.x))
                .then(a.0.y.total_cmp(&b.0.y))
                .then(a.1.cmp(&b.1))
        });
        let mut representative = vec![None; sites.len()];
        let mut distinct = Vec::with_capacity(order.len());
        // (position, first index there) of the previous site in sorted order.
        let mut previous: Option<(Point2<f64>, usize)> = None;
        for &(position, index) in &order {
            let first = match previous {
                Some((previous_position, first)) if previous_position == position => first,
                _ => {
                    distinct.push(Site { position, index });
                    index
                }
            };
            previous = Some((position, first));
            representative[index] = Some(first);
        }
        let Ok(triangulation) = DelaunayTriangulation::<Site>::bulk_load(distinct) else {
            // Unreachable: every coordinate was validated above.
            return Delaunay {
                edges: Vec::new(),
                representative,
            };
        };
        let mut edges: Vec<(usize, usize)> = triangulation
            .undirected_edges()
            .map(|edge| {
                let [a, b] = edge.vertices().map(|v| v.data().index);
                (a.min(b), a.max(b))
            })
            .collect();
        crate::core::sorting::sort(&mut edges);
        Delaunay {
            edges,
            representative,
        }
    }
}

/// The edges of the Voronoi cells (an edge shared by two cells comes twice, which draws the same).
pub fn cell_edges(cells: &[Vec<Point>]) -> Vec<(Point, Point)> {
    let mut edges = Vec::new();
    for cell in cells {
        for (k, &a) in cell.iter().enumerate() {
            edges.push((a, cell[(k + 1) % cell.len()]));
        }
    }
    edges
}

/// The edge of `cell` (the cell of `site`) that lies on the perpendicular bisector of `site`
/// and `other`: the Voronoi edge the two cells share, if they share one inside the view.
pub fn shared_edge(
    cell: &[Point],
    site: Point,
    other: Point,
    view: &View,
) -> Option<(Point, Point)> {
    let tolerance = 1e-9 * view.width() * view.width();
    let on_bisector = |p: Point| {
        let d = |q: Point| (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2);
        (d(site) - d(other)).abs() <= tolerance
    };
    (0..cell.len())
        .map(|k| (cell[k], cell[(k + 1) % cell.len()]))
        .find(|&(a, b)| a != b && on_bisector(a) && on_bisector(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Shoelace formula; positive for counter-clockwise vertices.
    fn area(polygon: &[Point]) -> f64 {
        (0..polygon.len())
            .map(|k| {
                let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
                a[0] * b[1] - a[1] * b[0]
            })
            .sum::<f64>()
            / 2.0
    }

    /// Whether x lies in the counter-clockwise convex polygon, `slack` outside allowed.
    fn contains(polygon: &[Point], x: Point, slack: f64) -> bool {
        polygon.len() >= 3
            && (0..polygon.len()).all(|k| {
                let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
                let cross = (b[0] - a[0]) * (x[1] - a[1]) - (b[1] - a[1]) * (x[0] - a[0]);
                cross >= -slack * (b[0] - a[0]).hypot(b[1] - a[1])
            })
    }

    fn distance(a: Point, b: Point) -> f64 {
        (a[0] - b[0]).hypot(a[1] - b[1])
    }

    /// The cells tile the view, every cell is convex and counter-clockwise, and the samples of
    /// a grid inside cell i are at least as close to site i as to any other site.
    fn check_cells(sites: &[Point], view: &View) {
        let cells = voronoi_cells(sites, view);
        assert_eq!(cells.len(), sites.len());
        let total: f64 = cells.iter().map(|c| area(c)).sum();
        let view_area = view.width() * view.height();
        assert!(
            ((total - view_area) / view_area).abs() < 1e-9,
            "areas sum to {total}, the view has {view_area}"
        );
        for cell in &cells {
            assert!(cell.is_empty() || area(cell) >= 0.0);
        }
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..3000 {
            let x = [
                rng.random_range(view.x_min..view.x_max),
                rng.random_range(view.y_min..view.y_max),
            ];
            let nearest = sites
                .iter()
                .filter(|p| p.iter().all(|v| v.is_finite()))
                .map(|&p| distance(x, p))
                .fold(f64::INFINITY, f64::min);
            let mut covered = false;
            for (i, cell) in cells.iter().enumerate() {
                if contains(cell, x, 0.0) {
                    assert!(
                        distance(x, sites[i]) <= nearest + 1e-9,
                        "{x:?} is in cell {i} but nearer to another site"
                    );
                }
                covered |= contains(cell, x, 1e-9);
            }
            assert!(covered, "{x:?} lies in no cell");
        }
    }

    #[test]
    fn random_sites() {
        let mut rng = StdRng::seed_from_u64(5);
        let view = View::square(1.0);
        for n in [3, 10, 200] {
            let mut sites: Vec<Point> = (0..n)
                .map(|_| {
                    let mut c = || (rng.random_range(-1.2..1.2f64) * 1e4).round() / 1e4;
                    [c(), c()]
                })
                .collect();
            sites.push([3.0, -0.5]); // outside the view
            check_cells(&sites, &view);
        }
    }

    #[test]
    fn cocircular_grid_sites() {
        let sites: Vec<Point> = (0..49)
            .map(|k| [(k % 7) as f64 * 0.25 - 0.75, (k / 7) as f64 * 0.25 - 0.75])
            .collect();
        check_cells(&sites, &View::square(1.0));
        // 7 × 7 lattice: 2·6·7 sides plus one diagonal in each of the 36 squares.
        assert_eq!(delaunay_edges(&sites).len(), 84 + 36);
    }

    #[test]
    fn one_and_two_sites() {
        let view = View::square(1.0);
        assert_eq!(voronoi_cells(&[], &view), Vec::<Vec<Point>>::new());
        let one = voronoi_cells(&[[0.3, 0.2]], &view);
        assert_eq!(area(&one[0]), 4.0);
        check_cells(&[[0.3, 0.2]], &view);

        let two = [[-0.5, 0.0], [0.5, 0.0]];
        let cells = voronoi_cells(&two, &view);
        assert_eq!(area(&cells[0]), 2.0);
        assert!(cells[0].iter().all(|p| p[0] <= 0.0));
        check_cells(&two, &view);
        check_cells(&[[0.1, 0.9], [-0.7, -0.2]], &view);

        assert!(delaunay_edges(&[]).is_empty());
        assert!(delaunay_edges(&[[0.0, 0.0]]).is_empty());
        assert_eq!(delaunay_edges(&two), vec![(0, 1)]);
    }

    #[test]
    fn collinear_sites() {
        let view = View::square(1.0);
        let diagonal = [
            [0.5, 0.25],
            [-0.5, -0.25],
            [0.0, 0.0],
            [0.25, 0.125],
            [0.75, 0.375],
        ];
        assert_eq!(
            delaunay_edges(&diagonal),
            vec![(0, 3), (0, 4), (1, 2), (2, 3)]
        );
        check_cells(&diagonal, &view);
        let horizontal: Vec<Point> = (0..6).map(|k| [k as f64 * 0.3 - 0.8, 0.1]).collect();
        check_cells(&horizontal, &view);

        // Shuffled sites on a vertical line, some repeated; then the same line bent by one
        // grid step, which makes it a (thin) triangulation instead.
        let mut rng = StdRng::seed_from_u64(2);
        let mut vertical: Vec<Point> = (0..40)
            .map(|_| [0.3, (rng.random_range(-1.5..1.5f64) * 1e4).round() / 1e4])
            .collect();
        vertical.extend_from_within(..5);
        check_cells(&vertical, &view);
        let mut distinct: Vec<f64> = vertical.iter().map(|p| p[1]).collect();
        distinct.sort_by(f64::total_cmp);
        distinct.dedup();
        assert_eq!(delaunay_edges(&vertical).len(), distinct.len() - 1);
        vertical[7][0] += 1e-4;
        check_cells(&vertical, &view);
    }

    #[test]
    fn later_duplicates_get_nothing() {
        let view = View::square(1.0);
        let sites = [
            [0.2, 0.2],
            [-0.4, 0.1],
            [0.2, 0.2],
            [0.0, -0.6],
            [-0.4, 0.1],
            [-0.0, 0.5],
        ];
        let cells = voronoi_cells(&sites, &view);
        assert!(cells[2].is_empty() && cells[4].is_empty());
        assert!(delaunay_edges(&sites)
            .iter()
            .all(|&(i, j)| ![i, j].contains(&2) && ![i, j].contains(&4)));
        check_cells(&sites, &view);

        // Only duplicates of two positions: degenerate, and still no panic.
        let pairs = [[0.1, 0.1], [0.1, 0.1], [-0.3, 0.0], [-0.3, 0.0]];
        assert_eq!(delaunay_edges(&pairs), vec![(0, 2)]);
        check_cells(&pairs, &view);
        check_cells(&[[0.5, 0.5], [0.5, 0.5]], &view);
    }

    #[test]
    fn non_finite_sites_are_left_out() {
        let sites = [
            [0.0, 0.0],
            [f64::NAN, 0.0],
            [0.5, 0.5],
            [f64::INFINITY, 1.0],
            [-0.5, 0.5],
        ];
        let view = View::square(1.0);
        let cells = voronoi_cells(&sites, &view);
        assert!(cells[1].is_empty() && cells[3].is_empty());
        assert_eq!(delaunay_edges(&sites), vec![(0, 2), (0, 4), (2, 4)]);
        check_cells(&sites, &view);
    }

    #[test]
    fn delaunay_neighbours_share_a_cell_edge() {
        // In a view wide enough to hold every Voronoi vertex, the cells of the two ends of a
        // Delaunay edge meet along the bisector: each has a vertex on it.
        let mut rng = StdRng::seed_from_u64(9);
        let sites: Vec<Point> = (0..60)
            .map(|_| [rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)])
            .collect();
        let view = View::square(1e4);
        let cells = voronoi_cells(&sites, &view);
        let edges = delaunay_edges(&sites);
        assert!(edges.windows(2).all(|w| w[0] < w[1]));
        for &(i, j) in &edges {
            assert!(i < j);
            let on_bisector =
                |p: &Point| (distance(*p, sites[i]) - distance(*p, sites[j])).abs() < 1e-7;
            assert!(
                cells[i].iter().filter(|p| on_bisector(p)).count() >= 2,
                "edge ({i}, {j})"
            );
            assert!(
                cells[j].iter().filter(|p| on_bisector(p)).count() >= 2,
                "edge ({i}, {j})"
            );
        }
        // Euler: a triangulation of n points with h on the hull has 3n − 3 − h edges, so at most
        // 3n − 6 and at least 2n − 3.
        assert!(edges.len() <= 3 * sites.len() - 6 && edges.len() >= 2 * sites.len() - 3);
    }
}

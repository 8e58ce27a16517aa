//! Level curves {x : f(x) = level} of a gridded field by marching squares, joined into
//! polylines so that dashed margins dash evenly and curves are drawn in one stroke.
//!
//! Each grid cell is classified by which corners lie above the level; the curve crosses a cell
//! edge where the sign changes, at the point found by linear interpolation of f along that edge.
//! Crossings are named by their edge, so neighbouring cells share them exactly and segments can
//! be chained. The two ambiguous saddle cases are resolved by the value at the cell centre
//! (the mean of the corners).

use crate::core::data::Point;
use crate::core::field::Field;

/// The polylines of one level, in data coordinates. Closed curves repeat their first point.
pub fn level_curves(field: &Field, level: f64) -> Vec<Vec<Point>> {
    let grid = field.grid;
    let cols = grid.cols;
    // Edge ids: horizontal edge from (r, c) to (r, c+1) is 2k, vertical from (r, c) to
    // (r+1, c) is 2k+1, with k = r·cols + c.
    let horizontal = |r: usize, c: usize| 2 * (r * cols + c);
    let vertical = |r: usize, c: usize| 2 * (r * cols + c) + 1;
    // Which nodes of two neighbouring rows lie above the level, each row classified once.
    let row_above = |r: usize, into: &mut Vec<u8>| {
        into.clear();
        into.extend(
            field.values[r * cols..(r + 1) * cols]
                .iter()
                .map(|&f| (f > level) as u8),
        );
    };
    let (mut upper, mut lower) = (Vec::with_capacity(cols), Vec::with_capacity(cols));
    row_above(0, &mut upper);

    let mut segments: Vec<(usize, usize)> = Vec::new();
    for r in 0..grid.rows - 1 {
        row_above(r + 1, &mut lower);
        for c in 0..cols - 1 {
            let case = upper[c] | upper[c + 1] << 1 | lower[c + 1] << 2 | lower[c] << 3;
            if case == 0 || case == 15 {
                continue;
            }
            let (top, right, bottom, left) = (
                horizontal(r, c),
                vertical(r, c + 1),
                horizontal(r + 1, c),
                vertical(r, c),
            );
            let centre_above = || {
                (field.at(r, c) + field.at(r, c + 1) + field.at(r + 1, c) + field.at(r + 1, c + 1))
                    / 4.0
                    > level
            };
            match case {
                0 | 15 => {}
                1 | 14 => segments.push((left, top)),
                2 | 13 => segments.push((top, right)),
                3 | 12 => segments.push((left, right)),
                4 | 11 => segments.push((right, bottom)),
                6 | 9 => segments.push((top, bottom)),
                7 | 8 => segments.push((left, bottom)),
                5 => {
                    // Top-left and bottom-right above.
                    if centre_above() {
                        segments.push((left, bottom));
                        segments.push((top, right));
                    } else {
                        segments.push((left, top));
                        segments.push((right, bottom));
                    }
                }
                10 => {
                    if centre_above() {
                        segments.push((left, top));
                        segments.push((right, bottom));
                    } else {
                        segments.push((left, bottom));
                        segments.push((top, right));
                    }
                }
                _ => unreachable!(),
            }
        }
        std::mem::swap(&mut upper, &mut lower);
    }

    let crossing = |edge: usize| -> Point {
        let k = edge / 2;
        let (r, c) = (k / cols, k % cols);
        let (r2, c2) = if edge.is_multiple_of(2) {
            (r, c + 1)
        } else {
            (r + 1, c)
        };
        let (a, b) = (field.at(r, c), field.at(r2, c2));
        let t = ((level - a) / (b - a)).clamp(0.0, 1.0);
        let (p, q) = (grid.node(r, c), grid.node(r2, c2));
        [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]
    };

    chain(&segments)
        .into_iter()
        .map(|edges| edges.into_iter().map(crossing).collect())
        .collect()
}

/// Joins segments that share an edge into maximal chains: open chains first from their free
/// ends, then the closed loops.
fn chain(segments: &[(usize, usize)]) -> Vec<Vec<usize>> {
    // Both ends of every segment as (edge, segment), in order: the segments meeting at an edge
    // are a run of this list (one or two, the cells on either side of it), in their order.
    // (One list sorted once, where a map from each edge to a list of its own allocated a list
    // per crossing: most of the time a frame's curves took.)
    let mut ends: Vec<(usize, usize)> = Vec::with_capacity(2 * segments.len());
    for (s, &(a, b)) in segments.iter().enumerate() {
        ends.push((a, s));
        ends.push((b, s));
    }
    crate::core::sorting::sort(&mut ends);
    let at_edge = |edge: usize| {
        let from = ends.partition_point(|&(e, _)| e < edge);
        ends[from..]
            .iter()
            .take_while(move |&&(e, _)| e == edge)
            .map(|&(_, s)| s)
    };
    let mut used = vec![false; segments.len()];
    let mut chains = Vec::new();
    let walk = |start_segment: usize, start_edge: usize, used: &mut Vec<bool>| -> Vec<usize> {
        let mut path = vec![start_edge];
        let (mut segment, mut edge) = (start_segment, start_edge);
        loop {
            used[segment] = true;
            let (a, b) = segments[segment];
            edge = if a == edge { b } else { a };
            path.push(edge);
            match at_edge(edge).find(|&s| !used[s]) {
                Some(next) => segment = next,
                None => return path,
            }
        }
    };
    // The free ends (an edge of one segment), in the order of their edges.
    let free: Vec<(usize, usize)> = ends
        .iter()
        .enumerate()
        .filter(|&(i, &(edge, _))| {
            let alone_before = i == 0 || ends[i - 1].0 != edge;
            let alone_after = ends.get(i + 1).is_none_or(|next| next.0 != edge);
            alone_before && alone_after
        })
        .map(|(_, &end)| end)
        .collect();
    for (edge, segment) in free {
        if !used[segment] {
            chains.push(walk(segment, edge, &mut used));
        }
    }
    for s in 0..segments.len() {
        if !used[s] {
            chains.push(walk(s, segments[s].0, &mut used));
        }
    }
    chains
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::field::{Grid, View};

    #[test]
    fn circle_is_one_closed_curve_on_the_circle() {
        let grid = Grid::new(View::square(1.0), 81, 81);
        let field = Field::exact(grid, &|r, c| {
            let p = grid.node(r, c);
            p[0] * p[0] + p[1] * p[1]
        });
        let curves = level_curves(&field, 0.25);
        assert_eq!(curves.len(), 1);
        let curve = &curves[0];
        assert_eq!(curve.first(), curve.last(), "closed");
        assert!(curve.len() > 40);
        for p in curve {
            assert!((p[0].hypot(p[1]) - 0.5).abs() < 0.01, "{p:?}");
        }
    }

    #[test]
    fn line_is_one_open_curve_across_the_window() {
        let grid = Grid::new(View::square(1.0), 21, 31);
        let field = Field::exact(grid, &|r, c| {
            let p = grid.node(r, c);
            p[0] - 0.5 * p[1] - 0.1
        });
        let curves = level_curves(&field, 0.0);
        assert_eq!(curves.len(), 1);
        let curve = &curves[0];
        assert!(curve.len() > 20);
        for p in curve {
            assert!((p[0] - 0.5 * p[1] - 0.1).abs() < 1e-12);
        }
        let ys: Vec<f64> = curve.iter().map(|p| p[1]).collect();
        assert!(ys.contains(&1.0) && ys.contains(&-1.0));
    }

    #[test]
    fn no_curve_when_the_level_is_not_reached() {
        let grid = Grid::new(View::square(1.0), 10, 10);
        let field = Field::exact(grid, &|_, _| 3.0);
        assert!(level_curves(&field, 0.0).is_empty());
    }
}

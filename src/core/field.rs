//! The decision field: f evaluated on a regular grid over the plotted window, the maps between
//! data coordinates and pixels, and an adaptive evaluation that is exact where it matters.
//!
//! Grid node (row, col) sits at x₁ = x_min + col·Δx, x₂ = y_max − row·Δy (row 0 at the top, as
//! on a screen), with the outer nodes on the window's edges.
//!
//! Adaptive evaluation: f is computed exactly on a coarse lattice (every `step`-th node). A
//! coarse cell whose corner values, widened by a quarter of their spread (a cheap guard
//! against a level curve that bulges into the cell between its corners), could reach any
//! contour level of interest (f = −1, 0, +1) has every node inside evaluated exactly;
//! elsewhere nodes are bilinearly interpolated. Interpolated values lie between the corner
//! values, which all lie on one side of every level, so wherever a cell is refined the contours
//! are those of the exact f, and the shading far from them is smooth anyway. This is a
//! heuristic, not a guarantee: a feature narrower than a coarse cell (a loop of a margin
//! around one point under a very narrow RBF kernel, a k-NN island) can fall between lattice
//! nodes and be missed. The lab therefore chooses the lattice from the model (see
//! [`Smoothness::coarse_step`]): finer for narrow kernels and for k-NN, coarse for smooth models.
//!
//! Bounded evaluation ([`Field::bounded`]), for models with a cheap approximation f̃ and a
//! bound |f̃ − f| ≤ E at every node (an RBF expansion with many terms, binned onto a lattice:
//! see `gauss_transform`): f̃ at every node, and f exactly wherever f̃ lies within a band
//! τ = 100·E of a level. This is a guarantee, not a heuristic, and it misses no feature:
//! - every node lies on the same side of every level as in the exact field (a node outside the
//!   band has |f − l| ≥ |f̃ − l| − E > 0 with the sign of f̃ − l);
//! - on a cell edge the contour crosses, marching squares puts the vertex at
//!   t = (l − f_a)/(f_b − f_a). At an approximated end |f − l| > τ − E = 99E, so the numerator
//!   and the denominator (≥ 2·99E, both ends straddling l) each change by at most about 1 %,
//!   and t by at most about 2 % of the edge: a vertex moves by at most a fiftieth of a node,
//!   under a hundredth of a pixel with a node every 2 pixels;
//! - a saddle cell (two opposite corners above the level) joins its four crossings one way or
//!   the other by the mean of its corners, which may come out the other way when that mean is
//!   within E of the level: the vertices stay where they are, only their pairing can differ.
//!
//! The window and the maps between data and pixels are in `view`; the field of predicted
//! labels with a confidence, which paints the regions of more than two classes, in `labels`.

use crate::core::data::Point;
use crate::core::kernel::Kernel;

mod labels;
mod view;
pub use labels::LabelField;
pub use view::{w_arrow, PixelRect, View};

/// How smooth a model's f is, which sets how coarse the adaptive field's lattice may be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smoothness {
    /// Varies slowly over the view (linear, polynomial, generative models).
    Smooth,
    /// Has bumps of about this width in data units (an RBF kernel: 1/√γ).
    Width(f64),
    /// Piecewise constant (votes): no slope for the refinement to go by.
    Steps,
}

/// Grid nodes per side of the coarse lattice in the adaptive field (see [`Field::adaptive`])
/// for smooth models.
pub const COARSE_STEP: usize = 8;

impl Smoothness {
    /// The smoothness of a kernel expansion: an RBF kernel has bumps 1/√γ wide.
    pub fn of_kernel(kernel: Kernel) -> Smoothness {
        match kernel {
            Kernel::Rbf { gamma } => Smoothness::Width(1.0 / gamma.sqrt()),
            Kernel::Composed(ref composition) => match composition.largest_rbf_gamma() {
                Some(gamma) => Smoothness::Width(1.0 / gamma.sqrt()),
                None => Smoothness::Smooth,
            },
            _ => Smoothness::Smooth,
        }
    }

    /// The coarse lattice's step on `grid`: 8 nodes for smooth fields; for bumps of width w,
    /// small enough that one spans a few lattice cells; 4 for steps, whose piecewise-constant
    /// values give the refinement no slope to go by.
    pub fn coarse_step(self, grid: &Grid) -> usize {
        let node_spacing = grid.view.width() / (grid.cols - 1) as f64;
        match self {
            Smoothness::Smooth => COARSE_STEP,
            Smoothness::Width(width) => {
                ((0.35 * width / node_spacing).floor() as usize).clamp(2, COARSE_STEP)
            }
            Smoothness::Steps => 4,
        }
    }

    /// The rougher of two.
    pub fn min(self, other: Smoothness) -> Smoothness {
        match (self, other) {
            (Smoothness::Steps, _) | (_, Smoothness::Steps) => Smoothness::Steps,
            (Smoothness::Width(a), Smoothness::Width(b)) => Smoothness::Width(a.min(b)),
            (Smoothness::Width(a), _) | (_, Smoothness::Width(a)) => Smoothness::Width(a),
            _ => Smoothness::Smooth,
        }
    }
}

/// A regular grid of `cols` × `rows` nodes spanning a view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub view: View,
    pub cols: usize,
    pub rows: usize,
}

impl Grid {
    /// At least 2 × 2 nodes.
    pub fn new(view: View, cols: usize, rows: usize) -> Grid {
        Grid {
            view,
            cols: cols.max(2),
            rows: rows.max(2),
        }
    }

    #[inline]
    pub fn x_at(&self, col: usize) -> f64 {
        self.view.x_min + col as f64 * self.view.width() / (self.cols - 1) as f64
    }

    #[inline]
    pub fn y_at(&self, row: usize) -> f64 {
        self.view.y_max - row as f64 * self.view.height() / (self.rows - 1) as f64
    }

    #[inline]
    pub fn node(&self, row: usize, col: usize) -> Point {
        [self.x_at(col), self.y_at(row)]
    }
}

/// f on every node of a grid, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub grid: Grid,
    pub values: Vec<f64>,
    /// How many nodes were evaluated exactly (the rest interpolated).
    pub exact_nodes: usize,
}

impl Field {
    #[inline]
    pub fn at(&self, row: usize, col: usize) -> f64 {
        self.values[row * self.grid.cols + col]
    }

    /// f at every node, exactly.
    pub fn exact(grid: Grid, f: &dyn Fn(usize, usize) -> f64) -> Field {
        let mut values = Vec::with_capacity(grid.rows * grid.cols);
        for row in 0..grid.rows {
            for col in 0..grid.cols {
                values.push(f(row, col));
            }
        }
        Field {
            grid,
            values,
            exact_nodes: grid.rows * grid.cols,
        }
    }

    /// f exact on a lattice of every `step`-th node and inside every coarse cell that could
    /// touch one of `levels`; interpolated elsewhere (see the module docs).
    pub fn adaptive(
        grid: Grid,
        step: usize,
        levels: &[f64],
        f: &dyn Fn(usize, usize) -> f64,
    ) -> Field {
        let step = step.max(1);
        let (rows, cols) = (grid.rows, grid.cols);
        let mut values = vec![f64::NAN; rows * cols];
        let mut known = vec![false; rows * cols];
        let mut exact_nodes = 0;
        let mut evaluate =
            |row: usize, col: usize, values: &mut Vec<f64>, known: &mut Vec<bool>| {
                let k = row * cols + col;
                if !known[k] {
                    values[k] = f(row, col);
                    known[k] = true;
                    exact_nodes += 1;
                }
            };
        let lattice_rows = coarse_lattice(rows, step);
        let lattice_cols = coarse_lattice(cols, step);
        for &r in &lattice_rows {
            for &c in &lattice_cols {
                evaluate(r, c, &mut values, &mut known);
            }
        }
        for rs in lattice_rows.windows(2) {
            for cs in lattice_cols.windows(2) {
                let (r0, r1, c0, c1) = (rs[0], rs[1], cs[0], cs[1]);
                let corners = [
                    values[r0 * cols + c0],
                    values[r0 * cols + c1],
                    values[r1 * cols + c0],
                    values[r1 * cols + c1],
                ];
                let lo = corners.iter().cloned().fold(f64::INFINITY, f64::min);
                let hi = corners.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let slack = 0.25 * (hi - lo);
                let near_level = levels.iter().any(|&l| l >= lo - slack && l <= hi + slack);
                if near_level || !slack.is_finite() {
                    for r in r0..=r1 {
                        for c in c0..=c1 {
                            evaluate(r, c, &mut values, &mut known);
                        }
                    }
                } else {
                    for r in r0..=r1 {
                        let v = (r - r0) as f64 / (r1 - r0) as f64;
                        for c in c0..=c1 {
                            let k = r * cols + c;
                            if known[k] {
                                continue;
                            }
                            let u = (c - c0) as f64 / (c1 - c0) as f64;
                            values[k] = (1.0 - v) * ((1.0 - u) * corners[0] + u * corners[1])
                                + v * ((1.0 - u) * corners[2] + u * corners[3]);
                        }
                    }
                }
            }
        }
        Field {
            grid,
            values,
            exact_nodes,
        }
    }

    /// f from an approximation f̃ with |f̃ − f| ≤ `error` at every node: f̃ where it lies
    /// farther than [`BAND_PER_ERROR`]·`error` from every one of `levels`, f exactly
    /// elsewhere (see the module docs). Every node is then on the same side of every level as
    /// in the exact field, and no contour vertex moves by more than a fiftieth of a node.
    pub fn bounded(
        grid: Grid,
        levels: &[f64],
        approximate: &dyn Fn(usize, usize) -> f64,
        error: f64,
        exact: &dyn Fn(usize, usize) -> f64,
    ) -> Field {
        let band = BAND_PER_ERROR * error;
        let mut values = Vec::with_capacity(grid.rows * grid.cols);
        let mut exact_nodes = 0;
        for row in 0..grid.rows {
            for col in 0..grid.cols {
                let v = approximate(row, col);
                let near = levels.iter().any(|&l| (v - l).abs() <= band);
                values.push(if near || !v.is_finite() || !band.is_finite() {
                    exact_nodes += 1;
                    exact(row, col)
                } else {
                    v
                });
            }
        }
        Field {
            grid,
            values,
            exact_nodes,
        }
    }

    /// Bilinear interpolation of the field at a data point (clamped to the grid).
    pub fn sample(&self, p: Point) -> f64 {
        let g = &self.grid;
        let u = ((p[0] - g.view.x_min) / g.view.width() * (g.cols - 1) as f64)
            .clamp(0.0, (g.cols - 1) as f64);
        let v = ((g.view.y_max - p[1]) / g.view.height() * (g.rows - 1) as f64)
            .clamp(0.0, (g.rows - 1) as f64);
        let (c0, r0) = (
            (u.floor() as usize).min(g.cols - 2),
            (v.floor() as usize).min(g.rows - 2),
        );
        let (fu, fv) = (u - c0 as f64, v - r0 as f64);
        let top = (1.0 - fu) * self.at(r0, c0) + fu * self.at(r0, c0 + 1);
        let bottom = (1.0 - fu) * self.at(r0 + 1, c0) + fu * self.at(r0 + 1, c0 + 1);
        (1.0 - fv) * top + fv * bottom
    }
}

/// How wide, in units of the approximation's error bound, the band around each level is in
/// which [`Field::bounded`] evaluates f exactly.
pub const BAND_PER_ERROR: f64 = 100.0;

/// The coarse lattice of an adaptive evaluation along one axis of `len` nodes: every `step`-th
/// node, and the last one.
fn coarse_lattice(len: usize, step: usize) -> Vec<usize> {
    let mut nodes: Vec<usize> = (0..len).step_by(step).collect();
    if nodes.last() != Some(&(len - 1)) {
        nodes.push(len - 1);
    }
    nodes
}

/// A function of grid node (row, column) returning f = b + Σ_j c_j K(z_j, x) at that node, for
/// a kernel expansion {(z_j, c_j)} (an SVM's support vectors, a kernel perceptron's mistakes,
/// RBF features' centres). The RBF kernel factorises over coordinates,
/// exp(−γ‖x − z‖²) = exp(−γ(x₁ − z₁)²)·exp(−γ(x₂ − z₂)²), so on a grid
/// f(row, col) = b + Σ_j [c_j e^{−γ(u_col − z_j1)²}] · [e^{−γ(v_row − z_j2)²}]:
/// (columns + rows)·m exponentials once, then one dot product of length m per node. A kernel
/// built by rule factorises its RBF bases the same way ([`crate::core::kernel::LatticeExpansion`]).
/// Other kernels are summed directly.
pub fn expansion_evaluator<'a>(
    kernel: Kernel,
    expansion: &'a [(Point, f64)],
    bias: f64,
    grid: &'a Grid,
) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
    if let Kernel::Composed(composition) = kernel {
        let columns = (0..grid.cols).map(|col| grid.x_at(col)).collect();
        let rows = (0..grid.rows).map(|row| grid.y_at(row)).collect();
        let lattice =
            crate::core::kernel::LatticeExpansion::new(composition, expansion, bias, columns, rows);
        return Box::new(move |row, col| lattice.at(row, col));
    }
    let Kernel::Rbf { gamma } = kernel else {
        return Box::new(move |row, col| {
            let x = grid.node(row, col);
            bias + expansion
                .iter()
                .map(|&(z, c)| c * kernel.eval(z, x))
                .sum::<f64>()
        });
    };
    let m = expansion.len();
    let mut across = Vec::with_capacity(grid.cols * m);
    for col in 0..grid.cols {
        let u = grid.x_at(col);
        across.extend(
            expansion
                .iter()
                .map(|&(z, coef)| coef * (-gamma * (u - z[0]).powi(2)).exp()),
        );
    }
    let mut down = Vec::with_capacity(grid.rows * m);
    for row in 0..grid.rows {
        let v = grid.y_at(row);
        down.extend(
            expansion
                .iter()
                .map(|&(z, _)| (-gamma * (v - z[1]).powi(2)).exp()),
        );
    }
    Box::new(move |row, col| {
        let a = &across[col * m..(col + 1) * m];
        let d = &down[row * m..(row + 1) * m];
        bias + crate::core::kernel::dot(a, d)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_nodes_span_the_view() {
        let g = Grid::new(View::square(1.0), 5, 3);
        assert_eq!(g.node(0, 0), [-1.0, 1.0]);
        assert_eq!(g.node(2, 4), [1.0, -1.0]);
        assert_eq!(g.node(1, 2), [0.0, 0.0]);
    }

    #[test]
    fn adaptive_field_is_exact_near_levels_and_bounded_elsewhere() {
        // A wavy function whose zero set winds around: every node near f = 0 must be exact.
        let grid = Grid::new(View::square(1.0), 201, 201);
        let f = |r: usize, c: usize| {
            let p = grid.node(r, c);
            4.0 * ((3.0 * p[0]).sin() + (4.0 * p[1]).cos() * 0.8 - 0.2)
        };
        let exact = Field::exact(grid, &f);
        let fast = Field::adaptive(grid, 8, &[-1.0, 0.0, 1.0], &f);
        assert!(
            fast.exact_nodes < exact.exact_nodes / 2,
            "{} nodes",
            fast.exact_nodes
        );
        for (a, b) in fast.values.iter().zip(&exact.values) {
            // Same side of every level at every node.
            for level in [-1.0, 0.0, 1.0] {
                assert_eq!(a > &level, b > &level);
            }
            assert!((a - b).abs() < 1.0);
        }
    }

    #[test]
    fn label_field_agrees_with_the_exact_labels() {
        // Three sectors around the origin.
        let grid = Grid::new(View::square(1.0), 97, 97);
        let f = |r: usize, c: usize| {
            let p = grid.node(r, c);
            let sector =
                ((p[1].atan2(p[0]) + std::f64::consts::PI) / (std::f64::consts::TAU / 3.0)) as u8;
            (sector.min(2), 0.5)
        };
        let fast = LabelField::adaptive(grid, 8, &f);
        assert!(fast.exact_nodes < 97 * 97 / 2);
        for r in 0..97 {
            for c in 0..97 {
                assert_eq!(fast.at(r, c).0, f(r, c).0, "({r}, {c})");
            }
        }
        let ring = crate::core::contour::level_curves(&fast.indicator(1), 0.5);
        assert!(!ring.is_empty());
    }

    #[test]
    fn a_label_field_of_step_one_is_the_model_at_every_node() {
        let grid = Grid::new(View::square(1.0), 37, 41);
        let f = |r: usize, c: usize| (((r * 7 + c * 3) % 5) as u8, (r * 41 + c) as f32 / 1e4);
        let field = LabelField::adaptive(grid, 1, &f);
        assert_eq!(field.exact_nodes, 37 * 41);
        for r in 0..grid.rows {
            for c in 0..grid.cols {
                assert_eq!(field.at(r, c), f(r, c), "({r}, {c})");
            }
        }
    }

    #[test]
    fn sample_interpolates_between_nodes() {
        let grid = Grid::new(View::square(1.0), 3, 3);
        let field = Field::exact(grid, &|r, c| (r * 3 + c) as f64);
        assert_eq!(field.sample([-1.0, 1.0]), 0.0);
        assert_eq!(field.sample([0.5, 1.0]), 1.5);
        assert_eq!(field.sample([0.0, 0.0]), 4.0);
    }
}

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

use crate::data::Point;
use crate::kernel::Kernel;

/// The window of the plane that is plotted.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct View {
    pub x_min: f64,
    pub x_max: f64,
    pub y_min: f64,
    pub y_max: f64,
}

impl View {
    /// [−half, half]².
    pub fn square(half: f64) -> View {
        View {
            x_min: -half,
            x_max: half,
            y_min: -half,
            y_max: half,
        }
    }

    /// The window for `points`, in whatever units they come:
    /// - [−1, 1]², the lecture's plane, when every point lies in it and they are not all
    ///   crowded into less than a twentieth of it;
    /// - a square centred on the origin and just holding every point with a 5 % border, when
    ///   points lie beyond [−1, 1] around the origin;
    /// - a square around the points' bounding box, when they are crowded far from the origin
    ///   or into a tiny patch of it (data in other units, 10⁻⁶ or 10⁹).
    ///
    /// Half-widths are rounded up to a tidy number (a multiple of a quarter of a power of
    /// ten), so the axis ticks stay readable at every scale.
    pub fn around(points: &[Point]) -> View {
        let finite = points
            .iter()
            .filter(|p| p[0].is_finite() && p[1].is_finite());
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in finite {
            for a in 0..2 {
                lo[a] = lo[a].min(p[a]);
                hi[a] = hi[a].max(p[a]);
            }
        }
        if lo[0] > hi[0] {
            return View::square(1.0);
        }
        let extent = lo.iter().chain(&hi).fold(0.0f64, |m, v| m.max(v.abs()));
        let spread = (hi[0] - lo[0]).max(hi[1] - lo[1]);
        // Three or more points within a twentieth of their scale: other units, not clicks.
        let crowded = points.len() >= 3 && spread < 0.05 * extent.max(1.0);
        if extent <= 1.0 && !crowded {
            return View::square(1.0);
        }
        let centred = tidy_ceil(extent * 1.05);
        if !crowded && centred <= 3.0 * spread {
            return View::square(centred);
        }
        // Around the bounding box; a lone point (or a stack of one) gets a unit-sized window
        // at its own scale.
        let half = if spread > 0.0 {
            spread / 2.0 * 1.1
        } else if extent > 0.0 {
            0.05 * extent
        } else {
            1.0
        };
        let step = tidy_ceil(half) / 4.0;
        let centre = [
            ((lo[0] + hi[0]) / 2.0 / step).round() * step,
            ((lo[1] + hi[1]) / 2.0 / step).round() * step,
        ];
        let reach = (0..2)
            .map(|a| (hi[a] - centre[a]).max(centre[a] - lo[a]))
            .fold(0.0f64, f64::max);
        let half = tidy_ceil((reach * 1.05).max(half));
        View {
            x_min: centre[0] - half,
            x_max: centre[0] + half,
            y_min: centre[1] - half,
            y_max: centre[1] + half,
        }
    }

    /// The middle of the window.
    pub fn centre(&self) -> Point {
        [
            (self.x_min + self.x_max) / 2.0,
            (self.y_min + self.y_max) / 2.0,
        ]
    }

    pub fn width(&self) -> f64 {
        self.x_max - self.x_min
    }

    pub fn height(&self) -> f64 {
        self.y_max - self.y_min
    }

    pub fn contains(&self, p: Point) -> bool {
        (self.x_min..=self.x_max).contains(&p[0]) && (self.y_min..=self.y_max).contains(&p[1])
    }

    /// The part of the segment from `a` to `b` inside the window (Liang–Barsky), or `None`
    /// when none of it is. Plotters pins each end of a line to its plotting area separately,
    /// so a segment reaching far outside would be drawn bent towards a corner; clipped here
    /// first, it keeps its direction and stops at the window's edge.
    pub fn clip(&self, a: Point, b: Point) -> Option<(Point, Point)> {
        let d = [b[0] - a[0], b[1] - a[1]];
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [
            (-d[0], a[0] - self.x_min),
            (d[0], self.x_max - a[0]),
            (-d[1], a[1] - self.y_min),
            (d[1], self.y_max - a[1]),
        ] {
            if !(p.is_finite() && q.is_finite()) {
                return None;
            }
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else if p < 0.0 {
                t0 = t0.max(q / p);
            } else {
                t1 = t1.min(q / p);
            }
        }
        if t0 > t1 {
            return None;
        }
        let at = |t: f64| {
            let p = [a[0] + t * d[0], a[1] + t * d[1]];
            // Rounding must not put an end a hair outside.
            [
                p[0].clamp(self.x_min, self.x_max),
                p[1].clamp(self.y_min, self.y_max),
            ]
        };
        Some((
            if t0 > 0.0 { at(t0) } else { a },
            if t1 < 1.0 { at(t1) } else { b },
        ))
    }
}

/// The smallest multiple of a quarter of the power of ten below `x` that is at least `x`
/// (2.31 → 2.5, 0.0123 → 0.0125, 7.3·10⁸ → 7.5·10⁸).
fn tidy_ceil(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return 1.0;
    }
    let quarter = 10f64.powf(x.log10().floor()) / 4.0;
    (x / quarter).ceil() * quarter
}

/// A rectangle of pixels: left, top, width, height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelRect {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

impl PixelRect {
    /// The pixel position of a data point when `view` fills this rectangle.
    pub fn to_pixel(&self, view: &View, p: Point) -> (f64, f64) {
        (
            self.left + (p[0] - view.x_min) / view.width() * self.width,
            self.top + (view.y_max - p[1]) / view.height() * self.height,
        )
    }

    /// The data point under a pixel position.
    pub fn to_data(&self, view: &View, px: f64, py: f64) -> Point {
        [
            view.x_min + (px - self.left) / self.width * view.width(),
            view.y_max - (py - self.top) / self.height * view.height(),
        ]
    }

    /// `p` rounded to the coarsest decimal grid finer than a pixel of `view`: a click means
    /// no more than its pixel, and short numbers keep links and files short.
    pub fn snapped(&self, view: &View, p: Point) -> Point {
        let per_pixel = self.data_per_pixel(view);
        if per_pixel.is_nan() || per_pixel <= 0.0 || per_pixel.is_infinite() {
            return p;
        }
        let exponent = per_pixel.log10().floor() as i32;
        p.map(|v| {
            let snapped = if exponent >= 0 {
                // Whole multiples of 10^exponent: exact in f64 up to 2⁵³.
                let unit = 10f64.powi(exponent);
                (v / unit).round() * unit
            } else {
                // Through decimal text, so the stored value is the one its digits name.
                format!("{:.*}", (-exponent) as usize, v)
                    .parse()
                    .unwrap_or(v)
            };
            if snapped.is_finite() {
                snapped
            } else {
                v
            }
        })
    }

    /// How many data units one pixel spans (horizontally).
    pub fn data_per_pixel(&self, view: &View) -> f64 {
        view.width() / self.width
    }
}

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

/// The w arrow: from the boundary point nearest the view's centre, along w, a quarter of the
/// view long (its direction is w's; ‖w‖ is in the status line).
pub fn w_arrow(w: [f64; 2], bias: f64, view: &View) -> Option<(Point, Point)> {
    let norm2 = w[0] * w[0] + w[1] * w[1];
    if norm2 <= 0.0 || !norm2.is_finite() {
        return None;
    }
    let centre = [
        (view.x_min + view.x_max) / 2.0,
        (view.y_min + view.y_max) / 2.0,
    ];
    // Move the centre along w onto wᵀx + b = 0.
    let t = -(w[0] * centre[0] + w[1] * centre[1] + bias) / norm2;
    let tail = [centre[0] + t * w[0], centre[1] + t * w[1]];
    if !view.contains(tail) {
        return None;
    }
    let length = 0.25 * view.width() / norm2.sqrt();
    Some((tail, [tail[0] + length * w[0], tail[1] + length * w[1]]))
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
/// built by rule factorises its RBF bases the same way ([`crate::kernel::LatticeExpansion`]).
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
            crate::kernel::LatticeExpansion::new(composition, expansion, bias, columns, rows);
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
        bias + crate::kernel::dot(a, d)
    })
}

/// The predicted class (an index into the model's classes) and a confidence in [0, 1] at
/// every node of a grid: how regions are painted when there are more than two classes.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelField {
    pub grid: Grid,
    pub class: Vec<u8>,
    pub confidence: Vec<f32>,
    /// How many nodes were evaluated (the rest filled in).
    pub exact_nodes: usize,
}

impl LabelField {
    #[inline]
    pub fn at(&self, row: usize, col: usize) -> (u8, f32) {
        let k = row * self.grid.cols + col;
        (self.class[k], self.confidence[k])
    }

    /// The model at every `step`-th node; inside a coarse cell whose corners all predict the
    /// same class the class is filled in and the confidence interpolated, elsewhere every node
    /// is evaluated, so the boundaries between classes are placed at the grid's resolution.
    pub fn adaptive(grid: Grid, step: usize, f: &dyn Fn(usize, usize) -> (u8, f32)) -> LabelField {
        let step = step.max(1);
        let (rows, cols) = (grid.rows, grid.cols);
        let mut class = vec![0u8; rows * cols];
        let mut confidence = vec![0f32; rows * cols];
        let mut known = vec![false; rows * cols];
        let mut exact_nodes = 0;
        let mut evaluate =
            |r: usize, c: usize, class: &mut [u8], confidence: &mut [f32], known: &mut [bool]| {
                let k = r * cols + c;
                if !known[k] {
                    (class[k], confidence[k]) = f(r, c);
                    known[k] = true;
                    exact_nodes += 1;
                }
            };
        let (lattice_rows, lattice_cols) = (coarse_lattice(rows, step), coarse_lattice(cols, step));
        for &r in &lattice_rows {
            for &c in &lattice_cols {
                evaluate(r, c, &mut class, &mut confidence, &mut known);
            }
        }
        for rs in lattice_rows.windows(2) {
            for cs in lattice_cols.windows(2) {
                let (r0, r1, c0, c1) = (rs[0], rs[1], cs[0], cs[1]);
                let corners = [
                    r0 * cols + c0,
                    r0 * cols + c1,
                    r1 * cols + c0,
                    r1 * cols + c1,
                ];
                let same = corners.iter().all(|&k| class[k] == class[corners[0]]);
                for r in r0..=r1 {
                    for c in c0..=c1 {
                        if same {
                            let k = r * cols + c;
                            if known[k] {
                                continue;
                            }
                            let u = (c - c0) as f32 / (c1 - c0) as f32;
                            let v = (r - r0) as f32 / (r1 - r0) as f32;
                            let q = corners.map(|k| confidence[k]);
                            class[k] = class[corners[0]];
                            confidence[k] = (1.0 - v) * ((1.0 - u) * q[0] + u * q[1])
                                + v * ((1.0 - u) * q[2] + u * q[3]);
                        } else {
                            evaluate(r, c, &mut class, &mut confidence, &mut known);
                        }
                    }
                }
            }
        }
        LabelField {
            grid,
            class,
            confidence,
            exact_nodes,
        }
    }

    /// Renames every class index k to `to[k]` (a model's class order to the colours on show).
    pub fn recolour(&mut self, to: &[u8]) {
        for c in self.class.iter_mut() {
            *c = to.get(*c as usize).copied().unwrap_or(*c);
        }
    }

    /// 1 where class `index` is predicted, 0 elsewhere: its level ½ traces that class's region.
    pub fn indicator(&self, index: u8) -> Field {
        Field {
            grid: self.grid,
            values: self
                .class
                .iter()
                .map(|&c| (c == index) as u8 as f64)
                .collect(),
            exact_nodes: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_and_data_coordinates_invert() {
        let view = View::square(1.5);
        let rect = PixelRect {
            left: 60.0,
            top: 10.0,
            width: 500.0,
            height: 500.0,
        };
        assert_eq!(rect.to_pixel(&view, [-1.5, 1.5]), (60.0, 10.0));
        assert_eq!(rect.to_pixel(&view, [1.5, -1.5]), (560.0, 510.0));
        let p = rect.to_data(&view, 123.0, 456.0);
        let (x, y) = rect.to_pixel(&view, p);
        assert!((x - 123.0).abs() < 1e-9 && (y - 456.0).abs() < 1e-9);
    }

    #[test]
    fn segments_are_clipped_to_the_window_keeping_their_direction() {
        let view = View::square(1.0);
        // Inside: unchanged.
        assert_eq!(
            view.clip([0.0, 0.0], [0.5, 0.5]),
            Some(([0.0, 0.0], [0.5, 0.5]))
        );
        // Far out along a direction that is not a diagonal: stops on the right edge, at the
        // height the line has there (pinning each end would have put it on the corner).
        let (a, b) = view.clip([0.0, 0.0], [1e9, 2e8]).unwrap();
        assert_eq!(a, [0.0, 0.0]);
        assert!(
            (b[0] - 1.0).abs() < 1e-12 && (b[1] - 0.2).abs() < 1e-12,
            "{b:?}"
        );
        // Both ends out, crossing the window.
        let (a, b) = view.clip([-3.0, 0.5], [3.0, 0.5]).unwrap();
        assert_eq!((a, b), ([-1.0, 0.5], [1.0, 0.5]));
        // Missing it, or not finite.
        assert_eq!(view.clip([2.0, 0.0], [3.0, 5.0]), None);
        assert_eq!(view.clip([0.0, 0.0], [f64::NAN, 1.0]), None);
    }

    #[test]
    fn view_grows_only_when_points_need_it() {
        assert_eq!(View::around(&[[0.5, -0.9]]), View::square(1.0));
        assert_eq!(View::around(&[[0.5, -0.9], [0.0, 0.0]]), View::square(1.0));
        let v = View::around(&[[0.0, -2.2], [0.1, 0.3]]);
        assert_eq!(v, View::square(2.5));
        assert!(v.contains([0.0, -2.2]) && v.x_max >= 2.2 * 1.05);
    }

    /// Every point inside, filling at least a third of the window's width or height.
    fn fits(points: &[Point]) -> View {
        let v = View::around(points);
        let spread = |a: usize| {
            let (lo, hi) = points
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                    (l.min(p[a]), h.max(p[a]))
                });
            hi - lo
        };
        for p in points {
            assert!(v.contains(*p), "{p:?} outside {v:?}");
        }
        assert!(
            spread(0).max(spread(1)) >= v.width() / 3.0,
            "points crowd into a corner of {v:?}"
        );
        v
    }

    #[test]
    fn view_fits_data_of_any_scale_and_place() {
        let scene: Vec<Point> = vec![[-0.7, 0.2], [0.4, -0.5], [0.9, 0.8], [-0.2, -0.9]];
        for scale in [1e-6, 1e-4, 1e-2, 1.0, 1e2, 1e4, 1e9] {
            let scaled: Vec<Point> = scene.iter().map(|p| p.map(|v| v * scale)).collect();
            let v = fits(&scaled);
            assert!(
                (v.width() / (2.0 * scale) - 1.0).abs() < 0.3,
                "{scale}: {v:?}"
            );
            // Moved far from the origin: still filled.
            let shifted: Vec<Point> = scaled
                .iter()
                .map(|p| [p[0] + 3e3 * scale, p[1] - 7e3 * scale])
                .collect();
            fits(&shifted);
        }
        let lone = View::around(&[[5e8, 5e8]]);
        assert!(lone.contains([5e8, 5e8]) && lone.width() > 0.0);
    }

    #[test]
    fn clicks_snap_to_a_decimal_grid_finer_than_a_pixel() {
        let rect = PixelRect {
            left: 0.0,
            top: 0.0,
            width: 800.0,
            height: 800.0,
        };
        let unit = View::square(1.0); // 0.0025 a pixel: three decimals
        assert_eq!(rect.snapped(&unit, [0.123456, -0.98765]), [0.123, -0.988]);
        let big = View::square(4e5); // 1000 a pixel
        assert_eq!(rect.snapped(&big, [123_456.7, -9.0]), [123_000.0, -0.0]);
        let tiny = View::square(1e-6);
        let p = rect.snapped(&tiny, [3.14159e-7, 1e-9]);
        assert_eq!(p, [3.14e-7, 1e-9]);
        for v in p {
            assert!(v.to_string().len() <= 11, "{v}");
        }
    }

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
        let ring = crate::contour::level_curves(&fast.indicator(1), 0.5);
        assert!(!ring.is_empty());
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

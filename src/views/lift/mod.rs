//! The kernel lift (CURRICULUM §4): a 3-D view that orbits when dragged.
//!
//! - For the polynomial kernel (γ xᵀz)² (degree 2, coef0 = 0) on two classes, K(x, z) =
//!   γ² ⟨φ(x), φ(z)⟩ with φ(x) = (x₁², x₂², √2 x₁x₂). The points are drawn at φ(x), and the
//!   model f(x) = Σ_j c_j K(x_j, x) + b (c_j = α_j y_j for the SVM) is the plane
//!   wᵀφ + b = 0 with w = γ² Σ_j c_j φ(x_j), beside the margin planes wᵀφ + b = ±1: XOR and
//!   the ring, which no line separates in the plane, are cut by a plane up here.
//! - For every other two-class model, the surface z = f(x) over the plot window (a coarse mesh,
//!   cut at ±[`HEIGHT_CAP`]), with its level curves z = 0 and z = ±1 drawn on it and every point
//!   at height f(x_i).
//!
//! - For the one-class SVM, the same surface z = f(x): the region it learns is where the
//!   surface stands above z = 0. In regression f depends on x alone and is the curve in the
//!   plane itself, so the view says so.
//!
//! Drawn with plotters' 3-D chart, so the page's canvas and the command line's SVG and PNG are
//! the same picture; the angle is the lab's [`Orbit`]. Surfaces, planes and points are painted
//! back to front by their projected depth.

use super::chart::{draw_headline, wrap, HEADLINE_LINE};
use super::{Figure, ViewKind};
use crate::core::contour::level_curves;
use crate::core::data::Point;
use crate::core::error::Error;
use crate::core::field::{Field, Grid};
use crate::core::kernel::Kernel;
use crate::core::plane::Layout;
use crate::core::task::Task;
use crate::draw::regions::CLASS_COLOURS;
use crate::draw::scene::{colour, draw_error, draw_marker, shape};
use crate::lab::playground::{Orbit, Playground};
use crate::methods::model::{short, KernelExpansion};
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

mod draw;
pub use draw::draw;

/// Mesh nodes per side of the surface.
const MESH: usize = 29;
/// The surface is cut at this |f|, so the levels 0 and ±1 stay in view.
pub const HEIGHT_CAP: f64 = 3.0;
/// Radians of orbit per picture width dragged.
const TURN_PER_WIDTH: f64 = std::f64::consts::PI;

pub struct LiftView;

impl ViewKind for LiftView {
    fn id(&self) -> &'static str {
        "lift"
    }

    fn title(&self) -> &'static str {
        "kernel lift (3-D)"
    }

    fn tab(&self) -> &'static str {
        "3-D lift"
    }

    /// Taller than a plain chart: the box needs the height its headline and axis names leave.
    fn aspect(&self) -> f64 {
        0.75
    }

    fn layout(&self, width: u32, height: u32, type_px: f64) -> Layout {
        Layout::chart_with_type(width, height, type_px).with_headline()
    }

    fn orbits(&self) -> bool {
        true
    }

    fn drag(&self, lab: &mut Playground, width: u32, dx: f64, dy: f64) -> bool {
        let turn = TURN_PER_WIDTH / width.max(1) as f64;
        lab.orbit = lab.orbit.turned(dx * turn, dy * turn);
        true
    }

    fn compute(&self, lab: &mut Playground, _layout: &Layout) -> Figure {
        Figure::Lift(Box::new(lift(lab)))
    }
}

/// A point of the picture: where it is, its class colour, whether it is held out.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LiftPoint {
    /// (x, up, depth) in chart units.
    pub at: [f64; 3],
    pub colour: usize,
    pub test: bool,
}

/// A flat piece of the picture: a mesh cell or a plane, with its fill.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Facet {
    pub corners: Vec<[f64; 3]>,
    pub fill: (u8, u8, u8),
    pub opacity: f64,
    /// Draw its outline (mesh cells).
    pub outlined: bool,
}

/// A curve in space, with its style.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Curve3 {
    pub points: Vec<[f64; 3]>,
    pub dashed: bool,
}

/// Everything the lift shows, in chart units: x across, up, depth (plotters' x, y, z).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Lift {
    pub labels: [String; 3],
    pub ranges: [(f64, f64); 3],
    pub facets: Vec<Facet>,
    pub curves: Vec<Curve3>,
    pub points: Vec<LiftPoint>,
    /// The planes wᵀp + b = level are parallel, with this (w, b) in chart units: they and the
    /// points are painted in the order of wᵀp + b.
    pub planes: Option<([f64; 3], f64)>,
    pub headline: String,
    pub note: String,
}

/// φ(x) = (x₁², x₂², √2 x₁x₂): (xᵀz)² = ⟨φ(x), φ(z)⟩.
pub fn phi(x: Point) -> [f64; 3] {
    [
        x[0] * x[0],
        x[1] * x[1],
        std::f64::consts::SQRT_2 * x[0] * x[1],
    ]
}

/// w and b with f(x) = wᵀφ(x) + b, when f is an expansion in (γ xᵀz)².
pub fn feature_plane(expansion: &KernelExpansion<'_>) -> Option<([f64; 3], f64)> {
    let Kernel::Polynomial {
        gamma,
        degree: 2,
        coef0,
    } = expansion.kernel
    else {
        return None;
    };
    if coef0 != 0.0 {
        return None;
    }
    let g2 = gamma * gamma;
    let mut w = [0.0; 3];
    for &(x, c) in expansion.terms {
        let p = phi(x);
        for k in 0..3 {
            w[k] += g2 * c * p[k];
        }
    }
    Some((w, expansion.bias))
}

/// The polygon where the plane wᵀp + b = level cuts the box, in order around it.
fn plane_in_box(w: [f64; 3], b: f64, level: f64, box_: [(f64, f64); 3]) -> Vec<[f64; 3]> {
    let corner = |k: usize| {
        [
            if k & 1 == 0 { box_[0].0 } else { box_[0].1 },
            if k & 2 == 0 { box_[1].0 } else { box_[1].1 },
            if k & 4 == 0 { box_[2].0 } else { box_[2].1 },
        ]
    };
    let value = |p: [f64; 3]| w[0] * p[0] + w[1] * p[1] + w[2] * p[2] + b - level;
    let mut cuts: Vec<[f64; 3]> = Vec::new();
    for a in 0..8 {
        for axis in 0..3 {
            let bit = 1 << axis;
            if a & bit != 0 {
                continue;
            }
            let (p, q) = (corner(a), corner(a | bit));
            let (fp, fq) = (value(p), value(q));
            if (fp <= 0.0) != (fq <= 0.0) {
                let t = fp / (fp - fq);
                cuts.push([0, 1, 2].map(|k| p[k] + t * (q[k] - p[k])));
            }
        }
    }
    if cuts.len() < 3 {
        return Vec::new();
    }
    // Order by angle around the centre, in the plane (scaled to the box so no axis dominates).
    let size: Vec<f64> = box_.iter().map(|r| (r.1 - r.0).max(1e-12)).collect();
    let unit = |p: [f64; 3]| [p[0] / size[0], p[1] / size[1], p[2] / size[2]];
    let n = unit([w[0] * size[0], w[1] * size[1], w[2] * size[2]]);
    let centre = cuts.iter().fold([0.0; 3], |c, p| {
        [0, 1, 2].map(|k| c[k] + p[k] / cuts.len() as f64)
    });
    let e1 = {
        let d = unit([0, 1, 2].map(|k| cuts[0][k] - centre[k]));
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt().max(1e-300);
        d.map(|v| v / len)
    };
    let n_len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt().max(1e-300);
    let n = n.map(|v| v / n_len);
    let e2 = [
        n[1] * e1[2] - n[2] * e1[1],
        n[2] * e1[0] - n[0] * e1[2],
        n[0] * e1[1] - n[1] * e1[0],
    ];
    let angle = |p: &[f64; 3]| {
        let d = unit([0, 1, 2].map(|k| p[k] - centre[k]));
        let (u, v) = (
            d[0] * e1[0] + d[1] * e1[1] + d[2] * e1[2],
            d[0] * e2[0] + d[1] * e2[1] + d[2] * e2[2],
        );
        v.atan2(u)
    };
    crate::core::sorting::sort_by(&mut cuts, |p, q| angle(p).total_cmp(&angle(q)));
    cuts
}

/// The figure for the lab as it is.
pub fn lift(lab: &Playground) -> Lift {
    let view = lab.view();
    let mut figure = Lift {
        labels: ["x₁".into(), "f(x)".into(), "x₂".into()],
        ranges: [
            (view.x_min, view.x_max),
            (-HEIGHT_CAP, HEIGHT_CAP),
            (view.y_min, view.y_max),
        ],
        ..Lift::default()
    };
    let Some(model) = lab.model() else {
        figure.headline = "no model is fitted: nothing to lift".into();
        return figure;
    };
    let task = lab.settings().task;
    if task == Task::Regression {
        figure.note = "The 3-D lift shows f over the plane: regression's f(x) is the curve in the \
                       plane itself."
            .into();
        return figure;
    }
    let novelty = task == Task::Novelty;
    let classes = lab.data().classes();
    let model_classes = model.classes();
    if model_classes.len() != 2 && !novelty {
        figure.headline = format!(
            "the lift shows a two-class f(x); this model tells {} classes apart",
            model_classes.len()
        );
        return figure;
    }
    // Novelty detection's points have no classes (a scene's labels are left over): one colour.
    let colour_of = |label: i32| {
        classes
            .iter()
            .position(|&c| !novelty && c == label)
            .unwrap_or(0)
    };
    // The one-class SVM's outside in the second colour, its inside in the points' own.
    let region = match novelty {
        true => [1, 0],
        false => [colour_of(model_classes[0]), colour_of(model_classes[1])],
    };
    let data = lab.data();
    let test = lab.test();
    if let Some((w, b)) = model.kernel_expansion().as_ref().and_then(feature_plane) {
        feature_space(&mut figure, w, b, lab, region, &colour_of);
        return figure;
    }
    // The surface z = f(x), cut at ±HEIGHT_CAP.
    let grid = Grid::new(view, MESH, MESH);
    let field = Field::exact(grid, &|row, col| model.decision_value(grid.node(row, col)));
    let cap = |f: f64| f.clamp(-HEIGHT_CAP, HEIGHT_CAP);
    for row in 0..MESH - 1 {
        for col in 0..MESH - 1 {
            let nodes = [
                (row, col),
                (row, col + 1),
                (row + 1, col + 1),
                (row + 1, col),
            ];
            let mean = nodes.iter().map(|&(r, c)| field.at(r, c)).sum::<f64>() / 4.0;
            let side = region[(mean > 0.0) as usize];
            figure.facets.push(Facet {
                corners: nodes
                    .iter()
                    .map(|&(r, c)| {
                        let p = grid.node(r, c);
                        [p[0], cap(field.at(r, c)), p[1]]
                    })
                    .collect(),
                fill: CLASS_COLOURS[side % CLASS_COLOURS.len()],
                opacity: 0.25 + 0.45 * mean.abs().min(1.0),
                outlined: true,
            });
        }
    }
    // The margins f = ±1 are the SVM's; the one-class SVM has only its boundary.
    let levels: &[f64] = if novelty { &[0.0] } else { &[-1.0, 0.0, 1.0] };
    for &level in levels {
        for curve in level_curves(&field, level) {
            figure.curves.push(Curve3 {
                points: curve.iter().map(|p| [p[0], level, p[1]]).collect(),
                dashed: level != 0.0,
            });
        }
    }
    figure.points = (0..data.len())
        .map(|i| {
            let x = data.points[i];
            LiftPoint {
                at: [x[0], cap(model.decision_value(x)), x[1]],
                colour: colour_of(data.labels[i]),
                test: test[i],
            }
        })
        .collect();
    let kind = lab.settings().method().title();
    figure.headline = "the surface z = f(x): the boundary is its level z = 0".into();
    if novelty {
        figure.note = format!(
            "{kind}: f(x) = Σ αⱼK(xⱼ, x) − ρ as a surface over the plot window (cut at z = \
             ±{HEIGHT_CAP}); the region it learns is where the surface stands above the solid \
             curve f = 0, and each point sits at height f(x_i). Drag (or use the arrow keys) \
             to turn it."
        );
        return figure;
    }
    figure.note = format!(
        "{kind}: the decision function f(x) as a surface over the plot window ({MESH} × {MESH} \
         mesh, cut at z = ±{HEIGHT_CAP}), coloured by the side it predicts; the solid curve \
         on it is f = 0 (the boundary), the dashed ones f = ±1 (the margins). Each point \
         sits at height f(x_i). Drag (or use the arrow keys) to turn it. With the polynomial \
         kernel of degree 2 and coef0 = 0, this view shows the feature space instead."
    );
    figure
}

/// The degree-2 picture: points at φ(x) and the planes wᵀφ + b ∈ {−1, 0, 1}.
fn feature_space(
    figure: &mut Lift,
    w: [f64; 3],
    b: f64,
    lab: &Playground,
    region: [usize; 2],
    colour_of: &dyn Fn(i32) -> usize,
) {
    let view = lab.view();
    let data = lab.data();
    let test = lab.test();
    let square = |a: f64, b: f64| a.abs().max(b.abs()).powi(2);
    let (x1, x2) = (
        square(view.x_min, view.x_max),
        square(view.y_min, view.y_max),
    );
    let cross = std::f64::consts::SQRT_2 * x1.sqrt() * x2.sqrt();
    // Plotters' (x, up, depth) = (φ₁, φ₃, φ₂): the cross term x₁x₂, which splits XOR, is up.
    figure.labels = ["x₁²".into(), "√2·x₁x₂".into(), "x₂²".into()];
    figure.ranges = [(0.0, x1), (-cross, cross), (0.0, x2)];
    let w_chart = [w[0], w[2], w[1]];
    figure.planes = Some((w_chart, b));
    for (level, fill, opacity) in [
        (-1.0, CLASS_COLOURS[region[0] % CLASS_COLOURS.len()], 0.15),
        (0.0, (90, 90, 90), 0.2),
        (1.0, CLASS_COLOURS[region[1] % CLASS_COLOURS.len()], 0.15),
    ] {
        let corners = plane_in_box(w_chart, b, level, figure.ranges);
        if corners.len() >= 3 {
            let mut outline = corners.clone();
            outline.push(corners[0]);
            figure.curves.push(Curve3 {
                points: outline,
                dashed: level != 0.0,
            });
            figure.facets.push(Facet {
                corners,
                fill,
                opacity,
                outlined: false,
            });
        }
    }
    figure.points = (0..data.len())
        .map(|i| {
            let p = phi(data.points[i]);
            LiftPoint {
                at: [p[0], p[2], p[1]],
                colour: colour_of(data.labels[i]),
                test: test[i],
            }
        })
        .collect();
    figure.headline = "(γxᵀz)² = γ²⟨φ(x), φ(z)⟩ with φ(x) = (x₁², x₂², √2·x₁x₂)".into();
    figure.note = format!(
        "Each point x is drawn at φ(x) = (x₁², x₂², √2·x₁x₂). In this feature space the \
         model is linear: f(x) = wᵀφ(x) + b with w = γ² Σ α_i y_i φ(x_i) = ({}, {}, {}) and \
         b = {}. The grey plane is the boundary wᵀφ + b = 0, the coloured ones the margins \
         wᵀφ + b = ±1: points that no line separates in the plane are split by a plane here. \
         Drag (or use the arrow keys) to turn it.",
        short(w[0]),
        short(w[1]),
        short(w[2]),
        short(b)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plane_in_feature_space_is_the_decision_function() {
        for preset in ["xor", "rings"] {
            let mut lab = Playground::from_hash(&format!(
                "preset={preset}&n=80&kernel=poly&degree=2&coef0=0&gamma=1.5&C=10"
            ));
            lab.fit();
            let model = lab.model().expect("fitted");
            let (w, b) = feature_plane(&model.kernel_expansion().unwrap()).expect("degree 2");
            let data = lab.data();
            let mut agree = 0;
            for (i, &x) in data.points.iter().enumerate() {
                let p = phi(x);
                let lifted = w[0] * p[0] + w[1] * p[1] + w[2] * p[2] + b;
                let f = model.decision_value(x);
                assert!(
                    (lifted - f).abs() <= 1e-9 * f.abs().max(1.0),
                    "{preset} {i}"
                );
                agree += ((lifted > 0.0) == (f > 0.0)) as usize;
            }
            assert_eq!(
                agree,
                data.len(),
                "the plane separates as the boundary does"
            );
            assert!(lab.model().unwrap().accuracy(&data.points, &data.labels) > 0.9);
            let figure = lift(&lab);
            assert!(figure.headline.contains("φ(x)"), "{}", figure.headline);
            assert_eq!(figure.points.len(), 80);
            assert!(figure.facets.len() >= 2, "the boundary and margin planes");
        }
    }

    #[test]
    fn other_kernels_show_the_surface_with_its_levels() {
        let mut lab = Playground::from_hash("preset=moons&n=60&kernel=rbf&gamma=3");
        lab.fit();
        let figure = lift(&lab);
        assert_eq!(figure.facets.len(), (MESH - 1) * (MESH - 1));
        assert!(
            figure.curves.iter().any(|c| !c.dashed),
            "the boundary f = 0"
        );
        assert!(figure.curves.iter().any(|c| c.dashed), "the margins");
        let model = lab.model().unwrap();
        let x = lab.data().points[4];
        let f = model.decision_value(x).clamp(-HEIGHT_CAP, HEIGHT_CAP);
        assert_eq!(figure.points[4].at, [x[0], f, x[1]]);
        // k-NN has no expansion either: it gets the surface too.
        let mut lab = Playground::from_hash("preset=moons&n=60&model=knn");
        lab.fit();
        assert!(!lift(&lab).facets.is_empty());
    }

    #[test]
    fn a_plane_cuts_the_box_in_a_convex_polygon() {
        let box_ = [(0.0, 1.0), (-1.0, 1.0), (0.0, 1.0)];
        // up = 0: the square at mid height.
        let square = plane_in_box([0.0, 1.0, 0.0], 0.0, 0.0, box_);
        assert_eq!(square.len(), 4);
        assert!(square.iter().all(|p| p[1].abs() < 1e-12));
        // Consecutive corners share a face of the box (the order goes around).
        for k in 0..4 {
            let (p, q) = (square[k], square[(k + 1) % 4]);
            assert!(p[0] == q[0] || p[2] == q[2], "{square:?}");
        }
        assert!(plane_in_box([0.0, 1.0, 0.0], 0.0, 5.0, box_).is_empty());
    }

    /// The one-class SVM's surface: every point in the one colour of unlabelled points at
    /// height f(x), only the level f = 0 drawn; regression says why there is no lift.
    #[test]
    fn novelty_lifts_its_surface_and_regression_says_why_not() {
        let mut lab = Playground::from_hash("task=novelty&n=40");
        lab.fit();
        let figure = lift(&lab);
        let model = lab.model().unwrap();
        assert_eq!(figure.points.len(), 40);
        for (p, x) in figure.points.iter().zip(&lab.data().points) {
            assert_eq!(p.colour, 0);
            let f = model.decision_value(*x).clamp(-HEIGHT_CAP, HEIGHT_CAP);
            assert!((p.at[1] - f).abs() < 1e-12);
        }
        assert!(!figure.facets.is_empty());
        assert!(figure
            .curves
            .iter()
            .all(|c| c.points.iter().all(|p| p[1] == 0.0)));
        let mut lab = Playground::from_hash("task=regression");
        lab.fit();
        let figure = lift(&lab);
        assert!(figure.points.is_empty() && figure.note.contains("curve in the plane"));
    }
}

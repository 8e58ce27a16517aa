//! The points' marks: a shape per class, the support-vector rings and the stamp of a disc.
//!
//! Each class has its own marker shape as well as its colour ([`SHAPES`]: disc, triangle,
//! diamond, downward triangle, star, plus, by the class's rank among the labels), so classes
//! are told apart without colour vision; the support-vector marks are open ink outlines
//! around the filled shapes, and no class shape is a square.

use super::{colour, draw_error, INK};
use crate::core::error::Error;
use crate::core::plane::Layout;
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

/// A class's marker shape. Classes differ by shape as well as by colour, so that they stay
/// apart without colour vision, in greyscale print and on a washed-out projector. The shapes
/// are filled and smaller than the support-vector marks, which are open outlines in ink
/// around them (a circle, a square), so no class shape is a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Disc,
    Triangle,
    Diamond,
    TriangleDown,
    Star,
    Plus,
}

/// The shapes of the class colours' indices (a class's rank among the labels), in order; like
/// the colours they repeat after the sixth class.
pub const SHAPES: [Shape; 6] = [
    Shape::Disc,
    Shape::Triangle,
    Shape::Diamond,
    Shape::TriangleDown,
    Shape::Star,
    Shape::Plus,
];

/// The marker shape of class colour `index`.
pub fn shape(index: usize) -> Shape {
    SHAPES[index % SHAPES.len()]
}

/// How far a shape reaches from its centre, in point radii: the angular shapes reach further
/// than the disc so that all enclose about the same area and look alike in weight.
const REACH: f64 = 1.45;

impl Shape {
    /// The outline's vertices as pixel offsets from the centre (y down), for a point radius
    /// `r`; `None` for the disc.
    pub fn vertices(self, r: f64) -> Option<Vec<(i32, i32)>> {
        let polar = |radius: f64, degrees: f64| {
            let a = degrees.to_radians();
            (
                (radius * a.cos()).round() as i32,
                (radius * a.sin()).round() as i32,
            )
        };
        let ring = |radius: f64, from: f64, count: usize| -> Vec<(i32, i32)> {
            (0..count)
                .map(|k| polar(radius, from + 360.0 * k as f64 / count as f64))
                .collect()
        };
        Some(match self {
            Shape::Disc => return None,
            // Pointing up: the screen's y grows downwards.
            Shape::Triangle => ring(1.4 * r, -90.0, 3),
            Shape::TriangleDown => ring(1.4 * r, 90.0, 3),
            Shape::Diamond => ring(1.4 * r, -90.0, 4),
            Shape::Star => (0..10)
                .map(|k| {
                    let radius = if k % 2 == 0 { REACH * r } else { 0.62 * r };
                    polar(radius, -90.0 + 36.0 * k as f64)
                })
                .collect(),
            Shape::Plus => {
                let (a, t) = ((1.25 * r).round() as i32, (0.45 * r).round() as i32);
                vec![
                    (-t, -a),
                    (t, -a),
                    (t, -t),
                    (a, -t),
                    (a, t),
                    (t, t),
                    (t, a),
                    (-t, a),
                    (-t, t),
                    (-a, t),
                    (-a, -t),
                    (-t, -t),
                ]
            }
        })
    }
}

/// Half the side of the square a point's marker fits in, its edge included, for the layout's
/// point radius: the size of a stamp (see [`Discs::Stamped`](super::Discs::Stamped)).
pub fn marker_half(layout: &Layout) -> i32 {
    (REACH * layout.point_radius.round()).ceil() as i32 + 5
}

/// A class marker of `shape` at `at` (of any coordinate system), `r` pixels in radius,
/// filled with `fill` (if any) and outlined in `edge`.
pub(crate) fn draw_marker<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    shape: Shape,
    r: f64,
    fill: Option<RGBColor>,
    edge: ShapeStyle,
) -> Result<(), Error>
where
    CT::From: Clone + 'static,
{
    match shape.vertices(r) {
        None => {
            let r = r.round() as i32;
            if let Some(fill) = fill {
                area.draw(&(EmptyElement::at(at.clone()) + Circle::new((0, 0), r, fill.filled())))
                    .map_err(draw_error)?;
            }
            area.draw(&(EmptyElement::at(at) + Circle::new((0, 0), r, edge)))
                .map_err(draw_error)
        }
        Some(vertices) => {
            let mut closed = vertices.clone();
            closed.push(vertices[0]);
            if let Some(fill) = fill {
                area.draw(&(EmptyElement::at(at.clone()) + Polygon::new(vertices, fill.filled())))
                    .map_err(draw_error)?;
            }
            area.draw(&(EmptyElement::at(at) + PathElement::new(closed, edge)))
                .map_err(draw_error)
        }
    }
}

/// One point's marker, the shape of class colour `colour_index` filled in that colour with a
/// dark edge, centred on `centre` (in the backend's pixels): what
/// [`Discs::Stamped`](super::Discs::Stamped) stamps.
pub fn draw_disc<DB: DrawingBackend>(
    backend: DB,
    centre: (i32, i32),
    colour_index: usize,
    layout: &Layout,
) -> Result<(), Error> {
    let area = backend.into_drawing_area();
    let r = layout.point_radius.round();
    let edge = INK.stroke_width(2);
    draw_marker(
        &area,
        centre,
        shape(colour_index),
        r,
        Some(colour(colour_index)),
        edge,
    )?;
    area.present().map_err(draw_error)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::data::Point;
    use crate::core::field::View;
    use crate::core::plane::{Layers, Mark, Scene};
    use crate::draw::scene::{draw, load_system_font, CLASS_COLOURS};

    /// The pixels a class's stamp covers (not left white), on a square of the stamp's size.
    fn marker_mask(colour_index: usize, layout: &Layout) -> Vec<bool> {
        let half = marker_half(layout);
        let side = 2 * half as u32;
        let mut rgb = vec![255u8; (side * side * 3) as usize];
        {
            let backend = BitMapBackend::with_buffer(&mut rgb, (side, side));
            draw_disc(backend, (half, half), colour_index, layout).unwrap();
        }
        rgb.chunks(3).map(|p| p != [255, 255, 255]).collect()
    }

    /// Not by colour alone: any two classes' markers differ in at least a sixth of the
    /// pixels either covers (a disc and a diamond, the closest pair, in about a fifth), at the
    /// page's smallest and largest point sizes, and each fits in its stamp (nothing drawn on
    /// the stamp's border, which would be cut off).
    #[test]
    fn each_class_has_its_own_shape_and_it_fits_its_stamp() {
        for size in [300, 500, 720, 1500] {
            let layout = Layout::new(size, size);
            let half = marker_half(&layout) as usize;
            let masks: Vec<Vec<bool>> =
                (0..SHAPES.len()).map(|k| marker_mask(k, &layout)).collect();
            for (k, mask) in masks.iter().enumerate() {
                let side = 2 * half;
                let on_border = (0..side).any(|i| {
                    mask[i]
                        || mask[(side - 1) * side + i]
                        || mask[i * side]
                        || mask[i * side + side - 1]
                });
                assert!(!on_border, "class {k} at {size} px: cut off by its stamp");
                for (j, other) in masks.iter().enumerate().skip(k + 1) {
                    let union = mask.iter().zip(other).filter(|(a, b)| **a || **b).count();
                    let differ = mask.iter().zip(other).filter(|(a, b)| a != b).count();
                    assert!(
                        differ * 6 >= union,
                        "classes {k} and {j} at {size} px: {differ} of {union} pixels differ"
                    );
                }
            }
            // Alike in weight: no shape covers less than half or more than twice the disc.
            let disc = masks[0].iter().filter(|&&on| on).count();
            for (k, mask) in masks.iter().enumerate() {
                let area = mask.iter().filter(|&&on| on).count();
                assert!(
                    area * 2 >= disc && area <= disc * 2,
                    "class {k} at {size} px: {area} pixels against the disc's {disc}"
                );
            }
        }
    }

    /// The exports draw the class shapes too, for held-out points as for training points, and
    /// the support-vector marks stay open outlines in ink around them.
    #[test]
    fn exports_draw_each_class_in_its_shape() {
        let layout = Layout::new(600, 600);
        let n = SHAPES.len();
        let points: Vec<Point> = (0..2 * n)
            .map(|i| [-0.8 + 0.13 * i as f64, if i < n { 0.4 } else { -0.4 }])
            .collect();
        let scene = Scene {
            view: Some(View::square(1.0)),
            colour_of: (0..2 * n).map(|i| i % n).collect(),
            hollow: (0..2 * n).map(|i| i >= n).collect(),
            marks: (0..2 * n)
                .map(|i| {
                    if i == 1 {
                        Mark::BoundSupport
                    } else {
                        Mark::Plain
                    }
                })
                .collect(),
            points,
            ..Scene::default()
        };
        load_system_font().unwrap();
        let svg = crate::draw::svg::document(layout.width, layout.height, |backend| {
            draw(backend, &scene, &layout, &Layers::default(), true)
        })
        .unwrap();
        for (k, shape) in SHAPES.iter().enumerate() {
            let (r, g, b) = CLASS_COLOURS[k];
            let hex = format!("\"#{r:02X}{g:02X}{b:02X}\"");
            let filled: Vec<&str> = svg
                .split('<')
                .filter(|element| element.contains(&hex))
                .collect();
            let tag = if *shape == Shape::Disc {
                "circle"
            } else {
                "polygon"
            };
            // The training point and its held-out twin (filled, or a ring for the disc).
            assert_eq!(
                filled.iter().filter(|e| e.starts_with(tag)).count(),
                2,
                "class {k} ({shape:?}): {filled:?}"
            );
            assert!(filled.iter().all(|e| e.starts_with(tag)), "{filled:?}");
        }
        // The bound support vector's square: unfilled, in ink.
        assert_eq!(
            svg.matches("<rect").count() - svg.matches("<rect x=\"0\"").count(),
            1
        );
    }
}

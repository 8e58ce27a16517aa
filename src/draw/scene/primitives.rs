//! The methods' marks drawn from their primitives ([`Primitive`]): segments and outlines in
//! their pens, the arrow, crosses, dots, the line at right angles through a segment's middle,
//! and the rings and tags at training points. Sizes follow the picture: strokes from
//! `Layout::stroke`, marks from a point's radius r, type from `Layout::font_px`. (The SMO
//! inset, drawn outside the plotting area, is `inset`'s.)

use super::pixels::layout_to_data;
use super::tags::draw_tag;
use super::{colour, draw_error, Plane, INK};
use crate::core::data::Point;
use crate::core::error::Error;
use crate::core::field::View;
use crate::core::plane::{Colour, Dash, Decoration, Depth, Layers, Layout, Pen, Primitive, Scene};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

/// The plotters colour of `c`.
pub(crate) fn rgb(c: Colour) -> RGBColor {
    match c {
        Colour::Ink => INK,
        Colour::Class(index) => colour(index),
        Colour::Rgb(r, g, b) => RGBColor(r, g, b),
    }
}

/// Draws every mark of `scene` at `depth` that `layers` show, those following the pointer
/// first, each in the order the scene lists them.
pub(super) fn draw_depth<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    scene: &Scene,
    layout: &Layout,
    layers: &Layers,
    depth: Depth,
) -> Result<(), Error> {
    let shown = |d: &&Decoration| d.depth == depth && d.layer_on(layers);
    for decoration in scene.all_decorations().filter(shown) {
        for primitive in &decoration.shapes {
            draw_primitive(area, scene, layout, primitive)?;
        }
    }
    Ok(())
}

fn draw_primitive<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    scene: &Scene,
    layout: &Layout,
    primitive: &Primitive,
) -> Result<(), Error> {
    // Plotters pins each end of a line to the plotting area on its own, which bends a line
    // reaching beyond it towards a corner: lines are clipped to the view first.
    let view = scene.view.unwrap_or(View::square(1.0));
    let r = layout.point_radius;
    let stroke = layout.stroke;
    match primitive {
        Primitive::Segments { lines, pen } => {
            for (from, to) in lines.iter().filter_map(|&(a, b)| view.clip(a, b)) {
                path(area, layout, vec![from, to], pen)?;
            }
        }
        Primitive::Outline { points, pen } => {
            let mut points = points.clone();
            if let Some(&first) = points.first() {
                points.push(first);
            }
            path(area, layout, points, pen)?;
        }
        Primitive::Arrow { tail, head, label } => {
            draw_arrow(area, *tail, *head, label, layout)?;
        }
        Primitive::Crosses { at } => {
            // A cross in its colour with a dark edge, larger than a point.
            let arm = (r * 2.2).round() as i32;
            for &(centre, c) in at {
                for (width, ink) in [(stroke + 4, INK), (stroke + 1, rgb(c))] {
                    let cross = EmptyElement::at((centre[0], centre[1]))
                        + PathElement::new(vec![(-arm, -arm), (arm, arm)], ink.stroke_width(width))
                        + PathElement::new(vec![(-arm, arm), (arm, -arm)], ink.stroke_width(width));
                    area.draw(&cross).map_err(draw_error)?;
                }
            }
        }
        Primitive::Dots { at, colour } => {
            let dot = (r * 0.6).round().max(3.0) as i32;
            for p in at {
                area.draw(&Circle::new((p[0], p[1]), dot, rgb(*colour).filled()))
                    .map_err(draw_error)?;
            }
        }
        Primitive::Bisector { ends, pen } => {
            if let Some((a, b)) = bisector(*ends, &view) {
                path(area, layout, vec![a, b], pen)?;
            }
        }
        Primitive::Rings {
            points,
            colour,
            double,
        } => {
            let ring = (r * 2.4).round() as i32;
            let mut rings = vec![(ring, stroke + 2)];
            if *double {
                rings.push((ring + stroke as i32 + 4, stroke));
            }
            for p in points.iter().filter_map(|&k| scene.points.get(k)) {
                for &(radius, width) in &rings {
                    area.draw(&Circle::new(
                        (p[0], p[1]),
                        radius,
                        rgb(*colour).stroke_width(width),
                    ))
                    .map_err(draw_error)?;
                }
            }
        }
        Primitive::Tags { tags } => {
            let offset = (r * 1.6).round() as i32;
            for (i, text) in tags {
                if let Some(p) = scene.points.get(*i) {
                    let size = layout.font_px * 0.85;
                    draw_tag(area, text, *p, (offset, -offset), size, INK)?;
                }
            }
        }
        Primitive::Inset { .. } => {}
    }
    Ok(())
}

/// The pixels a pen of `weight` draws.
fn width(pen: &Pen, layout: &Layout) -> u32 {
    use crate::core::plane::Weight;
    match pen.weight {
        Weight::Px(px) => px,
        Weight::Light => layout.stroke.saturating_sub(1).max(2),
        Weight::Stroke => layout.stroke,
        Weight::Bold => layout.stroke + 1,
    }
}

/// A polyline through `points` in `pen`.
fn path<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    layout: &Layout,
    points: Vec<Point>,
    pen: &Pen,
) -> Result<(), Error> {
    let points: Vec<(f64, f64)> = points.iter().map(|p| (p[0], p[1])).collect();
    let style = rgb(pen.colour).stroke_width(width(pen, layout));
    let r = layout.point_radius;
    let (on, off) = match pen.dash {
        Dash::Solid => {
            return area
                .draw(&PathElement::new(points, style))
                .map_err(draw_error)
        }
        Dash::Long => {
            let dash = (r * 2.0).round() as u32;
            (dash, dash * 2 / 3)
        }
        Dash::Short => {
            let dash = (r * 1.2).round() as u32;
            (dash, dash)
        }
    };
    area.draw(&DashedPathElement::new(points, on, off, style))
        .map_err(draw_error)
}

/// The part within `view` of the line at right angles to the segment `ends` through its
/// middle (none for a segment of no length).
fn bisector((near, far): (Point, Point), view: &View) -> Option<(Point, Point)> {
    let mid = [(near[0] + far[0]) / 2.0, (near[1] + far[1]) / 2.0];
    // Along the bisector, far enough to cross the view both ways.
    let reach = 4.0
        * (view.x_max - view.x_min)
            .abs()
            .max((view.y_max - view.y_min).abs());
    let along = [near[1] - far[1], far[0] - near[0]];
    let length = along[0].hypot(along[1]);
    if length.is_nan() || length <= 0.0 {
        return None;
    }
    let unit = [along[0] / length * reach, along[1] / length * reach];
    view.clip(
        [mid[0] - unit[0], mid[1] - unit[1]],
        [mid[0] + unit[0], mid[1] + unit[1]],
    )
}

/// An arrow in ink from `tail` to `head`, its head a triangle 2.6 r long, and `label` past it.
fn draw_arrow<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    tail: Point,
    head: Point,
    label: &str,
    layout: &Layout,
) -> Result<(), Error> {
    // Work in pixels so the head keeps its shape whatever the view.
    let to_px = |p: Point| area.map_coordinate(&(p[0], p[1]));
    let (t, h) = (to_px(tail), to_px(head));
    let (dx, dy) = ((h.0 - t.0) as f64, (h.1 - t.1) as f64);
    let length = dx.hypot(dy);
    if length < 4.0 {
        return Ok(());
    }
    let (ux, uy) = (dx / length, dy / length);
    let size = layout.point_radius * 2.6;
    let base = (h.0 as f64 - ux * size, h.1 as f64 - uy * size);
    let left = (base.0 - uy * size * 0.5, base.1 + ux * size * 0.5);
    let right = (base.0 + uy * size * 0.5, base.1 - ux * size * 0.5);
    let back = |px: (f64, f64)| -> (f64, f64) {
        let p = layout_to_data(area, px);
        (p[0], p[1])
    };
    area.draw(&PathElement::new(
        vec![(tail[0], tail[1]), back(base)],
        INK.stroke_width(layout.stroke + 1),
    ))
    .map_err(draw_error)?;
    area.draw(&Polygon::new(
        vec![(head[0], head[1]), back(left), back(right)],
        INK.filled(),
    ))
    .map_err(draw_error)?;
    let label_at = back((
        h.0 as f64 + ux * size * 0.6 - uy * size * 0.9,
        h.1 as f64 + uy * size * 0.6 + ux * size * 0.9,
    ));
    area.draw(&Text::new(
        label.to_string(),
        label_at,
        ("sans-serif", layout.font_px * 1.2)
            .into_font()
            .style(FontStyle::Bold)
            .color(&INK),
    ))
    .map_err(draw_error)?;
    Ok(())
}

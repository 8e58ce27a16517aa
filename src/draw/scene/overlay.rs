//! Every layer above the decision regions, in the order the module doc of `scene` lists them:
//! the methods' marks under the curves (edges, slack segments, outlines), the level curves and
//! the boundary, the marks over the curves (neighbour lines, the w arrow), the points and
//! their support-vector rings, the marks over the points (means, mistake counts), the curves'
//! labels, the marks on top (the last update, the working pair) and the highlight. The
//! methods' marks are drawn from their primitives (`primitives`).

use super::markers::{draw_marker, shape, Shape};
use super::pixels::PixelMap;
use super::primitives::draw_depth;
use super::tags::{draw_tag, tag_box, TagPlaces};
use super::{colour, draw_error, Disc, Discs, Plane, INK};
use crate::core::data::Point;
use crate::core::error::Error;
use crate::core::field::View;
use crate::core::pieces;
use crate::core::plane::{CurveKind, Depth, Layers, Layout, Mark, Scene};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

/// Draws every layer above the regions on the plotting area, bottom to top.
pub(super) fn draw_overlay<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    scene: &Scene,
    layout: &Layout,
    layers: &Layers,
    discs: &mut Discs,
) -> Result<(), Error> {
    let to_tuple = |p: &Point| (p[0], p[1]);
    let stroke = layout.stroke;
    let ink = INK;
    let view = scene.view.unwrap_or(View::square(1.0));
    draw_depth(area, scene, layout, layers, Depth::UnderCurves)?;
    let dash = (layout.point_radius * 2.0).round() as u32;
    // Sampled boundaries first and faint, so the model's own lines are drawn over them.
    for curve in scene.curves_of(CurveKind::Sample) {
        let points: Vec<(f64, f64)> = curve.points.iter().map(to_tuple).collect();
        let style = ink.mix(0.45).stroke_width((stroke / 2).max(1));
        area.draw(&PathElement::new(points, style))
            .map_err(draw_error)?;
    }
    // The curves' labels, placed and drawn once the points are (see `TagPlaces`).
    let mut curve_tags: Vec<(&str, &[Point])> = Vec::new();
    for curve in scene.curves.iter().filter(|c| c.kind != CurveKind::Sample) {
        let points: Vec<(f64, f64)> = curve.points.iter().map(to_tuple).collect();
        // A multi-class model's members are on the plane only when their own layer (`pairs`)
        // asked for them; the other levels show with the margins layer.
        let width = match curve.kind {
            CurveKind::Boundary => Some(stroke + 1),
            CurveKind::Level if !layers.on("margins") => None,
            CurveKind::Level | CurveKind::Pairwise => Some(stroke.saturating_sub(1).max(2)),
            CurveKind::Sample => None,
        };
        match width {
            Some(width) if curve.kind == CurveKind::Boundary => area
                .draw(&PathElement::new(points, ink.stroke_width(width)))
                .map_err(draw_error)?,
            Some(width) => area
                .draw(&DashedPathElement::new(
                    points,
                    dash,
                    dash * 2 / 3,
                    ink.stroke_width(width),
                ))
                .map_err(draw_error)?,
            None => {}
        }
        let labelled = curve.kind == CurveKind::Pairwise || layers.on("margins");
        if let (Some(label), true) = (&curve.label, labelled) {
            curve_tags.push((label.as_str(), &curve.points));
        }
    }
    draw_depth(area, scene, layout, layers, Depth::OverCurves)?;

    let r = layout.point_radius;
    let ring = (r * 1.9).round() as i32;
    let hollow = |i: usize| scene.hollow.get(i).copied().unwrap_or(false);
    let colour_of = |i: usize| scene.colour_of.get(i).copied().unwrap_or(0);
    // Two quick scans (a byte each per point) say whether any point is more than a plain
    // disc: a million points then cost no step each beyond their discs.
    let any_hollow = pieces::any(&scene.hollow, |&h| h);
    let marked = layers.on("sv");
    let any_marked = marked && pieces::any(&scene.marks, |&m| m != Mark::Plain);
    if let Discs::Stamped(stamp) = discs {
        let pixels = PixelMap::of(area);
        let plain =
            |plain: &mut Vec<Disc>| list_plain(scene, 0..scene.points.len(), &pixels, plain);
        stamp(&plain)?;
    }
    let stamped = matches!(discs, Discs::Stamped(_));
    // Stamped, with no point marked or held out, every point is drawn already.
    let one_by_one = if stamped && !any_hollow && !any_marked {
        &[][..]
    } else {
        &scene.points[..]
    };
    for (i, p) in one_by_one.iter().enumerate() {
        // Stamped, a plain point has nothing more to draw: at a million points this loop
        // must cost no more than the test.
        let mark = match marked {
            true => scene.marks.get(i).copied().unwrap_or(Mark::Plain),
            false => Mark::Plain,
        };
        if stamped && mark == Mark::Plain && !hollow(i) {
            continue;
        }
        let fill = colour(colour_of(i));
        let class_shape = shape(colour_of(i));
        if hollow(i) {
            let at = to_tuple(p);
            if class_shape == Shape::Disc {
                // A test point: a white disc in a thick ring of its class colour, edged in ink
                // so the ring shows on a region of the same colour.
                let ring = (r * 1.15).round() as i32;
                area.draw(&Circle::new(at, ring, WHITE.filled()))
                    .map_err(draw_error)?;
                area.draw(&Circle::new(at, ring, ink.stroke_width(stroke + 3)))
                    .map_err(draw_error)?;
                area.draw(&Circle::new(at, ring, fill.stroke_width(stroke + 1)))
                    .map_err(draw_error)?;
            } else {
                // The same for the angular shapes: the marker a little larger, with a white
                // copy of two fifths its size inside (a thick outline would fill a small triangle
                // and spike at its corners).
                let size = (r * 1.4).round();
                let edge = ink.stroke_width(2);
                draw_marker(area, at, class_shape, size, Some(fill), edge)?;
                let hole = WHITE.stroke_width(1);
                draw_marker(
                    area,
                    at,
                    class_shape,
                    (size * 0.4).round(),
                    Some(WHITE),
                    hole,
                )?;
            }
            continue;
        }
        if !stamped {
            let edge = ink.stroke_width(2);
            draw_marker(area, to_tuple(p), class_shape, r.round(), Some(fill), edge)?;
        }
        match mark {
            Mark::Plain => {}
            Mark::FreeSupport => area
                .draw(&Circle::new(to_tuple(p), ring, ink.stroke_width(stroke)))
                .map(|_| ())
                .map_err(draw_error)?,
            Mark::BoundSupport => {
                let element = EmptyElement::at(to_tuple(p))
                    + Rectangle::new([(-ring, -ring), (ring, ring)], ink.stroke_width(stroke));
                area.draw(&element).map_err(draw_error)?
            }
        }
    }
    draw_depth(area, scene, layout, layers, Depth::OverPoints)?;
    if !curve_tags.is_empty() {
        let size = layout.font_px * 0.75;
        let mut places = TagPlaces::new(scene, PixelMap::of(area), &view, r);
        for (label, curve) in curve_tags {
            if let Some((at, offset)) = places.place(curve, tag_box(label, size)) {
                draw_tag(area, label, at, offset, size, ink)?;
            }
        }
    }
    draw_depth(area, scene, layout, layers, Depth::Top)?;
    if let Some(p) = scene.highlight.and_then(|i| scene.points.get(i)) {
        let halo = (r * 2.8).round() as i32;
        area.draw(&Circle::new(
            to_tuple(p),
            halo,
            RGBColor(204, 121, 167).stroke_width(stroke + 1),
        ))
        .map_err(draw_error)?;
    }
    Ok(())
}

/// Lists the discs of `scene`'s points in `range` that are not held out, as (pixel x, pixel
/// y, colour index) through `pixels`, onto the end of `into`: a piece of the points at a
/// time, each a call of its own (a browser compiles a function well once it has been called
/// enough, and never while one call of it runs: a million points in one call would be listed
/// by its first, quick compilation, several times slower).
#[inline(never)]
pub(super) fn list_plain(
    scene: &Scene,
    range: std::ops::Range<usize>,
    pixels: &PixelMap,
    into: &mut Vec<Disc>,
) {
    let end = range.end.min(scene.points.len());
    into.reserve(end.saturating_sub(range.start));
    for start in (range.start..end).step_by(pieces::PIECE) {
        list_piece(scene, start..end.min(start + pieces::PIECE), pixels, into);
    }
}

/// [`list_plain`] for the points in `range`.
#[inline(never)]
fn list_piece(
    scene: &Scene,
    range: std::ops::Range<usize>,
    pixels: &PixelMap,
    into: &mut Vec<Disc>,
) {
    for i in range {
        if !scene.hollow.get(i).copied().unwrap_or(false) {
            let (x, y) = pixels.map(&scene.points[i]);
            into.push((x, y, scene.colour_of.get(i).copied().unwrap_or(0)));
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::draw::scene::{draw, load_system_font};

    /// `scene` drawn as SVG with the layers a link's `layers` (`slack=1`) switch on.
    fn svg_of(scene: &Scene, layout: &Layout, layers: &str) -> String {
        let layers = crate::lab::state::Settings::from_hash(layers)
            .unwrap()
            .0
            .layers();
        load_system_font().unwrap();
        crate::draw::svg::document(layout.width, layout.height, |backend| {
            draw(backend, scene, layout, &layers, true)
        })
        .unwrap()
    }

    /// The pixel ends of the lines drawn in `stroke` (an SVG colour, "#78288C").
    pub(crate) fn svg_lines(svg: &str, stroke: &str) -> Vec<[(f64, f64); 2]> {
        svg.split("<polyline")
            .skip(1)
            .filter(|element| element.contains(&format!("stroke=\"{stroke}\"")))
            .map(|element| {
                let points = element.split("points=\"").nth(1).expect("points");
                let points = &points[..points.find('"').expect("a closing quote")];
                let xy: Vec<(f64, f64)> = points
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').expect("x,y");
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                [xy[0], xy[xy.len() - 1]]
            })
            .collect()
    }

    /// A slack segment reaching far beyond the plot (a small C) is drawn along its own
    /// direction and stops at the plot's edge; plotters alone would pin its far end to the
    /// corner.
    #[test]
    fn lines_beyond_the_plot_keep_their_direction_and_stop_at_its_edge() {
        let layout = Layout::new(600, 600);
        let direction = [1.0, 0.3];
        let scene = Scene {
            view: Some(View::square(1.0)),
            points: vec![[0.0, 0.0]],
            colour_of: vec![0],
            marks: vec![Mark::BoundSupport],
            decorations: vec![crate::methods::marks::slack(vec![(
                [0.0, 0.0],
                [4e3 * direction[0], 4e3 * direction[1]],
            )])],
            ..Scene::default()
        };
        let svg = svg_of(&scene, &layout, "slack=1");
        let lines = svg_lines(&svg, "#78288C");
        assert_eq!(lines.len(), 1, "{svg}");
        let [(x0, y0), (x1, y1)] = lines[0];
        let plot = layout.plot;
        let centre = (plot.left + plot.width / 2.0, plot.top + plot.height / 2.0);
        assert!((x0 - centre.0).abs() <= 1.0 && (y0 - centre.1).abs() <= 1.0);
        assert!(
            (x1 - (plot.left + plot.width)).abs() <= 1.0,
            "ends at x = {x1}"
        );
        // Up the screen by 0.3 of the way right, as the segment runs in the data.
        let expected = centre.1 - 0.3 * (x1 - x0);
        assert!(
            (y1 - expected).abs() <= 1.5,
            "ends at y = {y1}, not {expected}"
        );
    }

    /// A curve's label goes where it hides no point: past a crowd of points on the curve's
    /// middle, and drawn over the points, never under them.
    #[test]
    fn a_curve_label_keeps_clear_of_the_points_and_is_drawn_over_them() {
        let layout = Layout::new(600, 600);
        // A level line across the plot, 41 points crowded on its middle.
        let points: Vec<Point> = (0..=40).map(|i| [-0.2 + 0.01 * i as f64, 0.0]).collect();
        let scene = Scene {
            view: Some(View::square(1.0)),
            colour_of: vec![0; points.len()],
            marks: vec![Mark::Plain; points.len()],
            points,
            curves: vec![crate::core::plane::Curve {
                points: (0..=20).map(|i| [-1.0 + 0.1 * i as f64, 0.0]).collect(),
                kind: CurveKind::Level,
                label: Some("f + ε".into()),
            }],
            ..Scene::default()
        };
        let svg = svg_of(&scene, &layout, "margins=1");
        let number = |element: &str, name: &str| -> f64 {
            let value = element.split(&format!(" {name}=\"")).nth(1).expect(name);
            value[..value.find('"').unwrap()].parse().unwrap()
        };
        let plate_at = svg
            .rfind("opacity=\"0.85\" fill=\"#FFFFFF\"")
            .expect("the label's plate");
        let plate = &svg[svg[..plate_at].rfind("<rect").unwrap()..];
        let (x, y) = (number(plate, "x"), number(plate, "y"));
        let (w, h) = (number(plate, "width"), number(plate, "height"));
        let discs: Vec<&str> = svg.split("<circle").skip(1).collect();
        assert_eq!(discs.len(), 2 * 41, "each point a disc and its edge");
        for disc in discs {
            let (cx, cy, r) = (number(disc, "cx"), number(disc, "cy"), number(disc, "r"));
            let apart = cx + r < x || cx - r > x + w || cy + r < y || cy - r > y + h;
            assert!(
                apart,
                "the plate ({x}, {y}, {w} × {h}) covers the disc at ({cx}, {cy})"
            );
        }
        assert!(
            svg.rfind("<circle").unwrap() < plate_at,
            "the label is drawn after the points"
        );
        assert!(
            svg[plate_at..].contains("f + ε"),
            "the label's text on its plate"
        );
    }

    /// The discs listed ahead of a frame (`scene::list_discs`) are those the frame lists when
    /// it stamps them: the held-out points left out, every other in its colour, at its pixel.
    #[test]
    fn discs_listed_ahead_are_the_frames_own() {
        load_system_font().unwrap();
        let points: Vec<Point> = (0..300)
            .map(|i| {
                [
                    ((i * 37) % 101) as f64 / 40.0 - 1.3,
                    ((i * 53) % 97) as f64 / 30.0 - 1.6,
                ]
            })
            .collect();
        let n = points.len();
        let scenes = [
            Scene {
                view: Some(View::square(1.5)),
                colour_of: (0..n).map(|i| i % 3).collect(),
                hollow: (0..n).map(|i| i % 7 == 0).collect(),
                marks: vec![Mark::Plain; n],
                points: points.clone(),
                ..Scene::default()
            },
            Scene {
                view: Some(View::square(2.0)),
                colour_of: (0..n).map(|i| i % 2).collect(),
                marks: vec![Mark::Plain; n],
                points,
                ..Scene::default()
            },
        ];
        for scene in &scenes {
            for (w, h) in [(640, 640), (333, 517)] {
                let layout = Layout::new(w, h);
                let mut drawn = Vec::new();
                let mut stamp = |list: &crate::draw::scene::ListDiscs| {
                    list(&mut drawn);
                    Ok(())
                };
                let mut svg = String::new();
                let backend = SVGBackend::with_string(&mut svg, (w, h));
                let layers = crate::core::plane::Layers::default();
                let discs = crate::draw::scene::Discs::Stamped(&mut stamp);
                crate::draw::scene::draw_with(backend, scene, &layout, &layers, false, discs)
                    .unwrap();
                let mut ahead = Vec::new();
                crate::draw::scene::list_discs(scene, &layout, 0..n, &mut ahead);
                let held_out = scene.hollow.iter().filter(|&&h| h).count();
                assert_eq!(ahead.len(), n - held_out);
                assert_eq!(ahead, drawn, "{w}×{h}");
                // Listed a range at a time (the last one reaching past the points), the
                // same discs.
                let mut in_ranges = Vec::new();
                for start in (0..n).step_by(64) {
                    crate::draw::scene::list_discs(
                        scene,
                        &layout,
                        start..start + 64,
                        &mut in_ranges,
                    );
                }
                assert_eq!(in_ranges, drawn, "{w}×{h}, in ranges");
            }
        }
    }
}

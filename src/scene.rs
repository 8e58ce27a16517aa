//! Drawing a scene with plotters over any backend: the browser canvas (plotters-canvas), SVG
//! and PNG (natively). The page and `kernel-playground render` call the same [`draw`], so a
//! figure for slides is exactly what the page shows.
//!
//! Layers, bottom to top: decision regions (a pixel image of the field, coloured by predicted
//! class and shaded by the method's confidence: |f(x)| for margins, |2p − 1| for probabilities,
//! the vote share for neighbours), Delaunay and Voronoi edges, slack segments, level curves
//! (margins f = ±1 or probability contours, dashed; a multi-class model's members' boundaries,
//! dashed, with their layer), the boundary (solid), lines to the nearest
//! neighbours, the w arrow, the points with their labels (mistake counts; held-out test points
//! hollow, white inside their class's shape), the support-vector
//! rings (a circle for a free support vector, a square for a bound one), the point of the last
//! update, the highlight of the point under the pointer, and the axes.
//!
//! Each class has its own marker shape as well as its colour ([`SHAPES`]: disc, triangle,
//! diamond, downward triangle, star, plus, by the class's rank among the labels), so classes
//! are told apart without colour vision; the support-vector marks are open ink outlines
//! around the filled shapes, and no class shape is a square.
//!
//! How regions are coloured is [`crate::regions`]'s business. The region image is painted by
//! the caller's backend in one call (`blit_bitmap`) — per-pixel
//! drawing through canvas calls would be far too slow — or, on the page, by the web facade
//! itself, which then asks [`draw`] for everything else.

use crate::data::Point;
use crate::error::Error;
use crate::field::{PixelRect, View};
pub use crate::plane::{Curve, CurveKind, Layers, Layout, Mark, Outline, Scene, Shading};
pub use crate::regions::{
    class_shade, field_image, field_image_rgba, region_grid, region_shade, CLASS_COLOURS,
};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

/// The data plane of a chart, as plotters types it.
pub(crate) type Plane = plotters::coord::cartesian::Cartesian2d<
    plotters::coord::types::RangedCoordf64,
    plotters::coord::types::RangedCoordf64,
>;

/// The dark ink of axes, edges and marks.
const INK: RGBColor = RGBColor(20, 20, 20);

pub(crate) fn colour(index: usize) -> RGBColor {
    let (r, g, b) = CLASS_COLOURS[index % CLASS_COLOURS.len()];
    RGBColor(r, g, b)
}

pub(crate) fn draw_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> Error {
    Error::Draw(e.to_string())
}

/// The plane's map from data coordinates to pixels, the very arithmetic of the plotting
/// area's (`DrawingArea::map_coordinate`, checked against it in the tests) without its
/// generic calls: a million points are placed in each frame that lists their discs.
#[derive(Clone, Copy, Debug)]
struct PixelMap {
    x: AxisMap,
    y: AxisMap,
}

/// One axis: data `from.0..from.1` onto pixels `to.0..to.1` (ends included).
#[derive(Clone, Copy, Debug)]
struct AxisMap {
    from: (f64, f64),
    to: (i32, i32),
}

impl PixelMap {
    fn of<DB: DrawingBackend>(area: &DrawingArea<DB, Plane>) -> PixelMap {
        let (x, y) = (area.get_x_range(), area.get_y_range());
        // The ends of each data range land on the ends of its pixel range.
        let (x0, y0) = area.map_coordinate(&(x.start, y.start));
        let (x1, y1) = area.map_coordinate(&(x.end, y.end));
        PixelMap {
            x: AxisMap {
                from: (x.start, x.end),
                to: (x0, x1),
            },
            y: AxisMap {
                from: (y.start, y.end),
                to: (y0, y1),
            },
        }
    }

    fn map(&self, p: &Point) -> (i32, i32) {
        (self.x.map(p[0]), self.y.map(p[1]))
    }
}

impl AxisMap {
    fn map(&self, v: f64) -> i32 {
        let ((a, b), (l0, l1)) = (self.from, self.to);
        if a == b {
            // An empty range puts every value where it put its start.
            return l0;
        }
        let share = (v - a) / (b - a);
        let length = l1 - l0;
        if length == 0 {
            l1
        } else if share.is_infinite() {
            if share.is_sign_positive() {
                l1
            } else {
                l0
            }
        } else if length > 0 {
            l0 + (length as f64 * share + 1e-3).floor() as i32
        } else {
            l0 + (length as f64 * share - 1e-3).ceil() as i32
        }
    }
}

/// Who draws the discs of the points that are not held out (the bulk of the points): plotters,
/// a circle and its edge each; or the caller, called at the moment the discs belong in the
/// layering with a way to list every such disc as (pixel x, pixel y, colour index), to stamp a
/// prepared image of [`draw_disc`] per colour. In a browser without a GPU, thousands of discs
/// rasterised as paths are the slowest part of a frame; stamped, they cost a copy each. (A
/// caller that still holds the discs it stamped last, for the same points, need not list them.)
pub enum Discs<'a> {
    Drawn,
    Stamped(&'a mut Stamp<'a>),
}

/// Stamps discs: its argument lists them, as (pixel x, pixel y, colour index).
pub type Stamp<'a> = dyn FnMut(&dyn Fn() -> Vec<(i32, i32, usize)>) -> Result<(), Error> + 'a;

/// Draws `scene` on `backend`. With `paint_field` the backend also gets a white background and
/// the region image; without it the caller has painted those already.
pub fn draw<DB: DrawingBackend>(
    backend: DB,
    scene: &Scene,
    layout: &Layout,
    layers: &Layers,
    paint_field: bool,
) -> Result<(), Error> {
    draw_with(backend, scene, layout, layers, paint_field, Discs::Drawn)
}

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
/// point radius: the size of a stamp (see [`Discs::Stamped`]).
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
/// dark edge, centred on `centre` (in the backend's pixels): what [`Discs::Stamped`] stamps.
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

/// [`draw`], with the plain points' discs drawn as `discs` says.
pub fn draw_with<DB: DrawingBackend>(
    mut backend: DB,
    scene: &Scene,
    layout: &Layout,
    layers: &Layers,
    paint_field: bool,
    mut discs: Discs,
) -> Result<(), Error> {
    let plot = layout.plot;
    if paint_field {
        backend
            .draw_rect(
                (0, 0),
                (layout.width as i32, layout.height as i32),
                &WHITE,
                true,
            )
            .map_err(|e| Error::Draw(e.to_string()))?;
        if region_grid(scene).is_some() && layers.on("regions") {
            let (w, h) = (plot.width as u32, plot.height as u32);
            let image = field_image(scene, w, h);
            backend
                .blit_bitmap((plot.left as i32, plot.top as i32), (w, h), &image)
                .map_err(|e| Error::Draw(e.to_string()))?;
        }
    }
    let root = backend.into_drawing_area();
    let view = scene.view.unwrap_or(View::square(1.0));
    let chart = axes(
        &root,
        layout,
        view.x_min..view.x_max,
        view.y_min..view.y_max,
        if scene.targets {
            ("x", "t")
        } else {
            ("x₁", "x₂")
        },
    )?;
    let area = chart.plotting_area();
    draw_overlay(area, scene, layout, layers, &mut discs)?;
    if let (Some(step), true) = (&scene.sub_problem, layers.on("pair")) {
        let pixels: Vec<(i32, i32)> = scene
            .points
            .iter()
            .map(|p| area.map_coordinate(&(p[0], p[1])))
            .collect();
        crate::inset::draw(&root, step, layout, &pixels)?;
    }
    root.present().map_err(draw_error)?;
    Ok(())
}

/// A chart on `root` with the lab's margins, label areas, type and axis strokes (so that
/// [`Layout::plot`] is its plotting area), its axes drawn with these descriptions.
pub(crate) fn axes<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    layout: &Layout,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    (x_desc, y_desc): (&str, &str),
) -> Result<ChartContext<'a, DB, Plane>, Error> {
    let (x, y) = (x.clone(), y.clone());
    let mut chart = ChartBuilder::on(root)
        .margin(layout.margin)
        .margin_right(layout.right_margin())
        .margin_top(layout.plot.top.round() as u32)
        .x_label_area_size(layout.x_label_area)
        .y_label_area_size(layout.label_area)
        .build_cartesian_2d(x.clone(), y.clone())
        .map_err(draw_error)?;
    let font = ("sans-serif", layout.font_px).into_font();
    let x_label = |v: &f64| tick_label(*v, x.end - x.start);
    let y_label = |v: &f64| tick_label(*v, y.end - y.start);
    // A panel without room below it shows no x axis: the panel under it does.
    let x_axis = layout.x_label_area > 0;
    // As many ticks as the type leaves room for: a label of about three characters and a gap
    // along x, a line and a half along y; between two and five.
    let plot = layout.plot;
    let fits = |room: f64, each: f64| ((room / each).floor() as usize).clamp(2, 5);
    let x_ticks = fits(plot.width, layout.text_width("-00") + layout.font_px);
    let y_ticks = fits(plot.height, 1.6 * layout.font_px);
    // The y axis's name where it fits along the axis and beside its tick labels in the label
    // area (a short panel's legend names its curves; long tick labels such as 1500 take the
    // area's width).
    let widest = round_ticks(y.start, y.end, y_ticks)
        .iter()
        .map(|&v| layout.text_width(&tick_label(v, y.end - y.start)))
        .fold(0.0, f64::max);
    // The name's line, the tick marks and the gaps beside the widest label.
    let beside = widest + 1.4 * layout.font_px + 8.0 <= layout.label_area as f64;
    let y_desc = if beside && layout.text_width(y_desc) <= plot.height {
        y_desc
    } else {
        ""
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(if x_axis { x_ticks } else { 0 })
        .y_labels(y_ticks)
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_desc(if x_axis { x_desc } else { "" })
        .y_desc(y_desc)
        .label_style(font.clone())
        .axis_desc_style(font)
        .axis_style(BLACK.stroke_width(2))
        .draw()
        .map_err(draw_error)?;
    Ok(chart)
}

/// About `count` round values in [low, high] (multiples of 1, 2 or 5 times a power of ten),
/// near enough the ticks plotters chooses to tell how wide their labels are.
fn round_ticks(low: f64, high: f64, count: usize) -> Vec<f64> {
    let span = high - low;
    if !(span.is_finite() && span > 0.0) {
        return vec![low];
    }
    let rough = span / count.max(1) as f64;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|&s| s >= rough)
        .unwrap_or(10.0 * power);
    let first = (low / step).ceil() as i64;
    let last = (high / step).floor() as i64;
    (first..=last.min(first + 20))
        .map(|k| k as f64 * step)
        .collect()
}

/// A tick's text on an axis spanning `span`: as many digits as a hundredth of the span
/// needs and no more (trailing zeros dropped); powers of ten (2.5e9, 1e-6) where plain
/// decimals would run long.
pub(crate) fn tick_label(value: f64, span: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return "0".into();
    }
    let step = (span.abs() / 100.0).max(f64::MIN_POSITIVE);
    if value.abs() < step / 2.0 {
        return "0".into(); // zero, up to the ticks' rounding
    }
    let step_exponent = step.log10().floor() as i32;
    let exponent = value.abs().log10().floor() as i32;
    if !(-3..6).contains(&exponent) {
        // Significant digits down to the step's.
        let digits = (exponent - step_exponent).clamp(0, 15) as usize;
        let text = format!("{value:.digits$e}");
        let (mantissa, power) = text.split_once('e').unwrap_or((&text, "0"));
        return format!("{}e{power}", trim_zeros(mantissa));
    }
    let decimals = (-step_exponent).clamp(0, 15) as usize;
    let text = trim_zeros(&format!("{value:.decimals$}")).to_string();
    if text == "-0" {
        "0".into()
    } else {
        text
    }
}

/// "1.500" → "1.5", "2.000" → "2"; text without a decimal point is left alone.
fn trim_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

fn draw_overlay<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    scene: &Scene,
    layout: &Layout,
    layers: &Layers,
    discs: &mut Discs,
) -> Result<(), Error> {
    let to_tuple = |p: &Point| (p[0], p[1]);
    let stroke = layout.stroke;
    let ink = INK;

    // Plotters pins each end of a line to the plotting area on its own, which bends a line
    // reaching beyond it towards a corner: lines are clipped to the view first.
    let view = scene.view.unwrap_or(View::square(1.0));
    let thin = |edges: &[(Point, Point)], colour: RGBColor, width: u32| -> Result<(), Error> {
        for (from, to) in edges.iter().filter_map(|&(a, b)| view.clip(a, b)) {
            area.draw(&PathElement::new(
                vec![to_tuple(&from), to_tuple(&to)],
                colour.stroke_width(width),
            ))
            .map_err(draw_error)?;
        }
        Ok(())
    };
    if layers.on("del") {
        thin(&scene.delaunay_edges, RGBColor(110, 110, 110), 1)?;
    }
    if layers.on("vor") {
        thin(&scene.cell_edges, RGBColor(60, 60, 60), 2)?;
    }
    if layers.on("slack") {
        thin(&scene.slack_segments, RGBColor(120, 40, 140), stroke.max(2))?;
    }
    let dash = (layout.point_radius * 2.0).round() as u32;
    for outline in scene.outlines.iter().chain(&scene.hulls) {
        let mut points: Vec<(f64, f64)> = outline.points.iter().map(to_tuple).collect();
        if let Some(&first) = points.first() {
            points.push(first);
        }
        let style = colour(outline.colour).stroke_width(stroke.saturating_sub(1).max(2));
        if outline.dashed {
            area.draw(&DashedPathElement::new(points, dash, dash * 2 / 3, style))
                .map_err(draw_error)?;
        } else {
            area.draw(&PathElement::new(points, style))
                .map_err(draw_error)?;
        }
    }
    // Sampled boundaries first and faint, so the model's own lines are drawn over them.
    for curve in scene.curves_of(CurveKind::Sample) {
        let points: Vec<(f64, f64)> = curve.points.iter().map(to_tuple).collect();
        let style = ink.mix(0.45).stroke_width((stroke / 2).max(1));
        area.draw(&PathElement::new(points, style))
            .map_err(draw_error)?;
    }
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
            let at = curve.points[curve.points.len() / 2];
            draw_tag(area, label, at, (0, 0), layout.font_px * 0.75, ink)?;
        }
    }
    thin(&scene.neighbour_lines, RGBColor(204, 121, 167), stroke)?;
    if let Some((near, far)) = scene.hull_bridge {
        draw_hull_bridge(area, near, far, &view, layout)?;
    }
    if let (Some((tail, head)), true) = (scene.w_arrow, layers.on("w")) {
        draw_arrow(area, tail, head, layout, ink)?;
    }

    let r = layout.point_radius;
    let ring = (r * 1.9).round() as i32;
    let hollow = |i: usize| scene.hollow.get(i).copied().unwrap_or(false);
    let colour_of = |i: usize| scene.colour_of.get(i).copied().unwrap_or(0);
    if let Discs::Stamped(stamp) = discs {
        let pixels = PixelMap::of(area);
        let plain = || {
            let mut plain = Vec::with_capacity(scene.points.len());
            for (i, p) in scene.points.iter().enumerate() {
                if !hollow(i) {
                    let (x, y) = pixels.map(p);
                    plain.push((x, y, colour_of(i)));
                }
            }
            plain
        };
        stamp(&plain)?;
    }
    let stamped = matches!(discs, Discs::Stamped(_));
    let marked = layers.on("sv");
    for (i, p) in scene.points.iter().enumerate() {
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
    // Class means: a cross in the class colour with a dark edge, larger than a point.
    let arm = (r * 2.2).round() as i32;
    for &(centre, colour_index) in &scene.centres {
        for (width, ink_colour) in [(stroke + 4, ink), (stroke + 1, colour(colour_index))] {
            let cross = EmptyElement::at(to_tuple(&centre))
                + PathElement::new(
                    vec![(-arm, -arm), (arm, arm)],
                    ink_colour.stroke_width(width),
                )
                + PathElement::new(
                    vec![(-arm, arm), (arm, -arm)],
                    ink_colour.stroke_width(width),
                );
            area.draw(&cross).map_err(draw_error)?;
        }
    }
    let offset = (r * 1.6).round() as i32;
    for (i, text) in &scene.point_labels {
        if let Some(p) = scene.points.get(*i) {
            draw_tag(
                area,
                text,
                *p,
                (offset, -offset),
                layout.font_px * 0.85,
                ink,
            )?;
        }
    }
    if let Some(p) = scene.emphasis.and_then(|i| scene.points.get(i)) {
        let ring = (r * 2.4).round() as i32;
        area.draw(&Circle::new(
            to_tuple(p),
            ring,
            RGBColor(213, 94, 0).stroke_width(stroke + 2),
        ))
        .map_err(draw_error)?;
    }
    // The working pair of the SMO step on show: a double ring in the inset's colour.
    if let Some((i, j)) = scene.pair {
        let ring = (r * 2.4).round() as i32;
        for p in [i, j].iter().filter_map(|&k| scene.points.get(k)) {
            for (radius, width) in [(ring, stroke + 2), (ring + stroke as i32 + 4, stroke)] {
                area.draw(&Circle::new(
                    to_tuple(p),
                    radius,
                    crate::inset::PAIR_COLOUR.stroke_width(width),
                ))
                .map_err(draw_error)?;
            }
        }
    }
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

/// A small label on a white plate centred `offset` pixels from a data point, e.g. "p = 0.9"
/// on a probability contour or a perceptron's mistake count beside its point.
fn draw_tag<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    text: &str,
    at: Point,
    offset: (i32, i32),
    size: f64,
    ink: RGBColor,
) -> Result<(), Error> {
    let width = (text.chars().count() as f64 * size * 0.58).round() as i32;
    let height = size.round() as i32;
    let (dx, dy) = offset;
    let plate = EmptyElement::at((at[0], at[1]))
        + Rectangle::new(
            [
                (dx - width / 2 - 3, dy - height / 2 - 2),
                (dx + width / 2 + 3, dy + height / 2 + 2),
            ],
            WHITE.mix(0.85).filled(),
        )
        + Text::new(
            text.to_string(),
            (dx - width / 2, dy - height / 2),
            ("sans-serif", size).into_font().color(&ink),
        );
    area.draw(&plate).map_err(draw_error)?;
    Ok(())
}

/// The shortest segment between the two hulls, its ends dotted, and its perpendicular
/// bisector across the whole view, dash-dotted (for separable classes, the hard-margin
/// boundary).
fn draw_hull_bridge<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    near: Point,
    far: Point,
    view: &View,
    layout: &Layout,
) -> Result<(), Error> {
    let colour = RGBColor(90, 90, 90);
    let width = layout.stroke.max(2);
    let mid = [(near[0] + far[0]) / 2.0, (near[1] + far[1]) / 2.0];
    // Along the bisector, far enough to cross the view both ways.
    let reach = 4.0
        * (view.x_max - view.x_min)
            .abs()
            .max((view.y_max - view.y_min).abs());
    let along = [near[1] - far[1], far[0] - near[0]];
    let length = along[0].hypot(along[1]);
    if length > 0.0 {
        let unit = [along[0] / length * reach, along[1] / length * reach];
        if let Some((a, b)) = view.clip(
            [mid[0] - unit[0], mid[1] - unit[1]],
            [mid[0] + unit[0], mid[1] + unit[1]],
        ) {
            let dash = (layout.point_radius * 1.2).round() as u32;
            area.draw(&DashedPathElement::new(
                vec![(a[0], a[1]), (b[0], b[1])],
                dash,
                dash,
                colour.stroke_width(width),
            ))
            .map_err(draw_error)?;
        }
    }
    if let Some((a, b)) = view.clip(near, far) {
        area.draw(&PathElement::new(
            vec![(a[0], a[1]), (b[0], b[1])],
            colour.stroke_width(width + 1),
        ))
        .map_err(draw_error)?;
    }
    let dot = (layout.point_radius * 0.6).round().max(3.0) as i32;
    for end in [near, far] {
        area.draw(&Circle::new((end[0], end[1]), dot, colour.filled()))
            .map_err(draw_error)?;
    }
    Ok(())
}

fn draw_arrow<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    tail: Point,
    head: Point,
    layout: &Layout,
    ink: RGBColor,
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
        ink.stroke_width(layout.stroke + 1),
    ))
    .map_err(draw_error)?;
    area.draw(&Polygon::new(
        vec![(head[0], head[1]), back(left), back(right)],
        ink.filled(),
    ))
    .map_err(draw_error)?;
    let label_at = back((
        h.0 as f64 + ux * size * 0.6 - uy * size * 0.9,
        h.1 as f64 + uy * size * 0.6 + ux * size * 0.9,
    ));
    area.draw(&Text::new(
        "w",
        label_at,
        ("sans-serif", layout.font_px * 1.2)
            .into_font()
            .style(FontStyle::Bold)
            .color(&ink),
    ))
    .map_err(draw_error)?;
    Ok(())
}

/// Inverse of the area's coordinate map (pixels → data).
fn layout_to_data<DB: DrawingBackend>(area: &DrawingArea<DB, Plane>, px: (f64, f64)) -> Point {
    let (xr, yr) = area.get_pixel_range();
    let spec = area.as_coord_spec();
    let (x0, x1) = (spec.get_x_range().start, spec.get_x_range().end);
    let (y0, y1) = (spec.get_y_range().start, spec.get_y_range().end);
    let rect = PixelRect {
        left: xr.start as f64,
        top: yr.start as f64,
        width: (xr.end - xr.start) as f64,
        height: (yr.end - yr.start) as f64,
    };
    rect.to_data(
        &View {
            x_min: x0,
            x_max: x1,
            y_min: y0,
            y_max: y1,
        },
        px.0,
        px.1,
    )
}

/// The plotting area of a chart built by [`draw`] on a backend of this size, for tests that
/// check [`Layout`] against plotters' own layout.
pub fn plotters_plot_area<DB: DrawingBackend>(
    backend: DB,
    layout: &Layout,
) -> (std::ops::Range<i32>, std::ops::Range<i32>) {
    let root: DrawingArea<DB, Shift> = backend.into_drawing_area();
    let chart = axes(&root, layout, -1.0..1.0, -1.0..1.0, ("x", "y")).expect("chart");
    chart.plotting_area().get_pixel_range()
}

/// Where a TrueType sans-serif font is commonly found; `KP_FONT` names another.
#[cfg(not(target_arch = "wasm32"))]
const FONT_PATHS: [&str; 5] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Native drawing lays out and rasterises text with a font from the system (the page uses the
/// browser's). Call once before [`draw`] on an SVG or bitmap backend.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_system_font() -> Result<(), Error> {
    static LOADED: std::sync::OnceLock<Result<(), Error>> = std::sync::OnceLock::new();
    LOADED
        .get_or_init(|| {
            let from_env = std::env::var("KP_FONT").ok();
            let candidates = from_env.iter().map(String::as_str).chain(FONT_PATHS);
            for path in candidates {
                if let Ok(bytes) = std::fs::read(path) {
                    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                    for style in [FontStyle::Normal, FontStyle::Bold] {
                        plotters::style::register_font("sans-serif", style, bytes)
                            .map_err(|_| Error::Draw(format!("{path} is not a usable font")))?;
                    }
                    return Ok(());
                }
            }
            Err(Error::Draw(
                "no TrueType font found: install DejaVu Sans (Debian: fonts-dejavu-core) or set \
                 KP_FONT=/path/to/font.ttf"
                    .into(),
            ))
        })
        .clone()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_plotters_chart_area() {
        let sizes = [
            (640, 640),
            (1000, 1000),
            (300, 300),
            (800, 600),
            (1100, 600),
        ];
        for layout in sizes.iter().flat_map(|&(w, h)| {
            [
                Layout::new(w, h),
                Layout::chart(w, h),
                Layout::chart(w, h).with_colour_bar(),
            ]
        }) {
            let (w, h) = (layout.width, layout.height);
            let mut svg = String::new();
            load_system_font().unwrap();
            let (xs, ys) = plotters_plot_area(SVGBackend::with_string(&mut svg, (w, h)), &layout);
            assert_eq!(xs.start as f64, layout.plot.left, "{w}x{h}");
            assert_eq!(ys.start as f64, layout.plot.top);
            assert_eq!((xs.end - xs.start) as f64, layout.plot.width);
            assert_eq!((ys.end - ys.start) as f64, layout.plot.height);
        }
    }

    /// The discs' quick map from data to pixels puts every point, inside the window or far
    /// outside it, on the very pixel the plotting area's own map does.
    #[test]
    fn pixel_map_is_the_plotting_area_map() {
        load_system_font().unwrap();
        let windows = [
            (-1.0, 1.0, -1.0, 1.0),
            (-3.25, 7.5, 0.001, 0.0015),
            (1e6, 1e6 + 3.0, -2e-9, 5e-9),
        ];
        for (w, h) in [(640, 640), (333, 517), (1100, 600)] {
            for &(x0, x1, y0, y1) in &windows {
                let layout = Layout::new(w, h);
                let mut svg = String::new();
                let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
                let chart = axes(&root, &layout, x0..x1, y0..y1, ("x", "y")).expect("chart");
                let area = chart.plotting_area();
                let map = PixelMap::of(area);
                let mut state = 7u64;
                let mut next = || {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 11) as f64 / (1u64 << 53) as f64
                };
                for _ in 0..20_000 {
                    let p = [
                        x0 + (x1 - x0) * (3.0 * next() - 1.0),
                        y0 + (y1 - y0) * (3.0 * next() - 1.0),
                    ];
                    assert_eq!(map.map(&p), area.map_coordinate(&(p[0], p[1])), "{p:?}");
                }
                for p in [
                    [x0, y0],
                    [x1, y1],
                    [x0, y1],
                    [f64::INFINITY, f64::NEG_INFINITY],
                ] {
                    assert_eq!(map.map(&p), area.map_coordinate(&(p[0], p[1])), "{p:?}");
                }
            }
        }
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
        let svg = crate::svg::document(layout.width, layout.height, |backend| {
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
            slack_segments: vec![([0.0, 0.0], [4e3 * direction[0], 4e3 * direction[1]])],
            ..Scene::default()
        };
        let layers = crate::state::Settings::from_hash("slack=1")
            .unwrap()
            .0
            .layers();
        load_system_font().unwrap();
        let svg = crate::svg::document(layout.width, layout.height, |backend| {
            draw(backend, &scene, &layout, &layers, true)
        })
        .unwrap();
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
}

#[cfg(test)]
mod tick_tests {
    use super::tick_label;

    #[test]
    fn tick_labels_read_at_every_scale() {
        let cases = [
            (0.5, 2.0, "0.5"),
            (-1.0, 2.0, "-1"),
            (0.30000000000000004, 2.0, "0.3"),
            (1.25, 5.0, "1.25"),
            (2.5e9, 1e10, "2.5e9"),
            (1.0000000025e9, 10.0, "1.0000000025e9"),
            (-4e-6, 2e-5, "-4e-6"),
            (0.0, 2e-5, "0"),
            (1e-12, 2.0, "0"),
            (1500.0, 4000.0, "1500"),
            (25000.0, 1e5, "25000"),
        ];
        for (value, span, text) in cases {
            assert_eq!(tick_label(value, span), text, "{value} on a span of {span}");
        }
    }
}

//! The kernel lift drawn: plotters' 3-D chart at the lab's [`Orbit`], the surface's facets,
//! the feature-space planes and the points painted back to front by their projected depth,
//! each axis named beside its lowest edge from the lift's own labels.

use super::*;

/// Each axis's name beside the lowest of its four edges on the screen (where the tick labels
/// go), pushed away from the box; the vertical axis's above its top end.
fn draw_axis_names<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    chart: &ChartContext<
        '_,
        DB,
        plotters::coord::cartesian::Cartesian3d<
            plotters::coord::types::RangedCoordf64,
            plotters::coord::types::RangedCoordf64,
            plotters::coord::types::RangedCoordf64,
        >,
    >,
    lift: &Lift,
    layout: &Layout,
    ticked: bool,
) -> Result<(), Error> {
    use plotters::coord::CoordTranslate;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let coord = chart.as_coord_spec();
    let r = lift.ranges;
    let corner = |k: usize| {
        let p = [0, 1, 2].map(|a| if k & (1 << a) == 0 { r[a].0 } else { r[a].1 });
        let (x, y) = coord.translate(&(p[0], p[1], p[2]));
        (x as f64, y as f64)
    };
    let corners: Vec<(f64, f64)> = (0..8).map(corner).collect();
    let centre = corners
        .iter()
        .fold((0.0, 0.0), |c, p| (c.0 + p.0 / 8.0, c.1 + p.1 / 8.0));
    let font = ("sans-serif", layout.font_px)
        .into_font()
        .color(&RGBColor(20, 20, 20))
        .pos(Pos::new(HPos::Center, VPos::Center));
    for axis in 0..3 {
        let bit = 1 << axis;
        let edges = (0..8)
            .filter(|k| k & bit == 0)
            .map(|k| (corners[k], corners[k | bit]));
        let at = if axis == 1 {
            // The vertical axis: above the top of its leftmost edge.
            let (_, top) = edges
                .min_by(|a, b| a.0 .0.total_cmp(&b.0 .0))
                .expect("four edges");
            (top.0, top.1 - layout.font_px * 1.2)
        } else {
            // The lowest of the four edges on the screen, where plotters puts the ticks
            // when the box is seen from above.
            let mid = edges
                .map(|(a, b)| ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0))
                .max_by(|p, q| p.1.total_cmp(&q.1))
                .expect("four edges");
            let (dx, dy) = (mid.0 - centre.0, mid.1 - centre.1);
            let length = dx.hypot(dy).max(1.0);
            // Past the tick labels when the edge has them.
            let push = layout.font_px * if ticked { 2.6 } else { 1.2 };
            (mid.0 + dx / length * push, mid.1 + dy / length * push)
        };
        root.draw(&Text::new(
            lift.labels[axis].clone(),
            (at.0.round() as i32, at.1.round() as i32),
            font.clone(),
        ))
        .map_err(draw_error)?;
    }
    Ok(())
}

/// Draws `lift` on `backend` seen from `orbit`, white background and all.
pub fn draw<DB: DrawingBackend>(
    backend: DB,
    lift: &Lift,
    layout: &Layout,
    orbit: Orbit,
) -> Result<(), Error> {
    if lift.points.is_empty() && lift.facets.is_empty() && !lift.note.is_empty() {
        // Nothing to lift here: the sentence that says why, not an empty box.
        let chart = crate::views::chart::Chart::says(lift.note.clone());
        return crate::views::chart::draw(backend, &chart, layout);
    }
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    let lines = wrap(&lift.headline, layout);
    draw_headline(&root, &lines, layout)?;
    // A headline of more than one line lowers the box.
    let extra = lines.len().saturating_sub(1) as f64 * HEADLINE_LINE * layout.font_px;
    let [x, y, z] = lift.ranges;
    let font_px = layout.font_px;
    // A box this large has room for tick labels along the plane's axes too.
    let large = layout.plot.height >= 16.0 * font_px;
    // Room beside the box for the vertical axis's tick labels, and above it for its name.
    let side = (layout.margin as f64 + layout.text_width("-0.0")).round() as u32;
    let mut chart = ChartBuilder::on(&root)
        .margin(layout.margin)
        .margin_left(side)
        .margin_right(side)
        .margin_top((layout.plot.top + extra + 1.3 * font_px).round() as u32)
        // Room below the box for the axis names, and the tick labels when there are any.
        .margin_bottom((font_px * if large { 2.8 } else { 1.8 }).round() as u32)
        .build_cartesian_3d(x.0..x.1, y.0..y.1, z.0..z.1)
        .map_err(draw_error)?;
    chart.with_projection(|mut p| {
        p.yaw = orbit.yaw;
        p.pitch = orbit.pitch;
        p.scale = 0.95;
        p.into_matrix()
    });
    let font = ("sans-serif", font_px).into_font();
    let grey = RGBColor(120, 120, 120);
    // The two axes of the plane meet at the box's near corner, where their end labels would
    // run into each other unless the box is large; the plane beside shows x₁ and x₂ anyway.
    let (ground_ticks, height_ticks) = if large { (3, 5) } else { (0, 3) };
    chart
        .configure_axes()
        .label_style(font.clone())
        .x_labels(ground_ticks)
        .y_labels(height_ticks)
        .z_labels(ground_ticks)
        .max_light_lines(0)
        .axis_panel_style(RGBColor(240, 240, 240).mix(0.6))
        .bold_grid_style(RGBColor(200, 200, 200).stroke_width(1))
        .light_grid_style(TRANSPARENT)
        .draw()
        .map_err(draw_error)?;
    draw_axis_names(&root, &chart, lift, layout, large)?;

    // Painter's order: the farthest first (a larger projected depth is farther away). Beside
    // parallel planes, what is far is what lies on the planes' far side: order by wᵀp + b,
    // from the side away from the eye.
    enum Piece<'a> {
        Facet(&'a Facet),
        Point(&'a LiftPoint),
    }
    let mut pieces: Vec<(f64, Piece)> = {
        let coord = chart.as_coord_spec();
        let depth = |p: &[f64; 3]| coord.projected_depth(&p[0], &p[1], &p[2]) as f64;
        let planes = lift.planes.map(|(w, b)| {
            let centre = [0, 1, 2].map(|k| (lift.ranges[k].0 + lift.ranges[k].1) / 2.0);
            let reach = [0, 1, 2].map(|k| lift.ranges[k].1 - lift.ranges[k].0);
            let step = [0, 1, 2].map(|k| centre[k] + 0.1 * reach[k] * w[k].signum());
            let away = if depth(&step) >= depth(&centre) {
                1.0
            } else {
                -1.0
            };
            (w, b, away)
        });
        let key = |p: &[f64; 3]| match planes {
            Some((w, b, away)) => away * (w[0] * p[0] + w[1] * p[1] + w[2] * p[2] + b),
            None => depth(p),
        };
        lift.facets
            .iter()
            .map(|f| {
                let d = f.corners.iter().map(&key).sum::<f64>() / f.corners.len() as f64;
                (d, Piece::Facet(f))
            })
            .chain(lift.points.iter().map(|p| (key(&p.at), Piece::Point(p))))
            .collect()
    };
    crate::core::sorting::sort_by(&mut pieces, |a, b| b.0.total_cmp(&a.0));
    let radius = (layout.point_radius * 0.9).round().max(2.0) as i32;
    let ink = RGBColor(20, 20, 20);
    for (_, piece) in &pieces {
        let to = |p: &[f64; 3]| (p[0], p[1], p[2]);
        match piece {
            Piece::Facet(f) => {
                let (r, g, b) = f.fill;
                let corners: Vec<_> = f.corners.iter().map(to).collect();
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        corners.clone(),
                        RGBColor(r, g, b).mix(f.opacity).filled(),
                    )))
                    .map_err(draw_error)?;
                if f.outlined {
                    let mut closed = corners;
                    closed.push(closed[0]);
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            closed,
                            grey.mix(0.35).stroke_width(1),
                        )))
                        .map_err(draw_error)?;
                }
            }
            Piece::Point(p) => {
                // In its class's shape, as in the plane; a test point outlined only.
                let (area, shape, r) = (chart.plotting_area(), shape(p.colour), radius as f64);
                if p.test {
                    let outline = colour(p.colour).stroke_width(layout.stroke);
                    draw_marker(area, to(&p.at), shape, r, None, outline)?;
                    draw_marker(area, to(&p.at), shape, r, None, ink.stroke_width(1))?;
                } else {
                    let fill = Some(colour(p.colour));
                    draw_marker(area, to(&p.at), shape, r, fill, ink.stroke_width(1))?;
                }
            }
        }
    }
    let dash = (layout.point_radius * 2.0).round() as u32;
    for curve in &lift.curves {
        let points: Vec<_> = curve.points.iter().map(|p| (p[0], p[1], p[2])).collect();
        let width = if curve.dashed {
            layout.stroke
        } else {
            layout.stroke + 1
        };
        let style = ink.stroke_width(width);
        if curve.dashed {
            chart
                .draw_series(std::iter::once(plotters::element::DashedPathElement::new(
                    points,
                    dash,
                    dash * 2 / 3,
                    style,
                )))
                .map_err(draw_error)?;
        } else {
            chart
                .draw_series(std::iter::once(PathElement::new(points, style)))
                .map_err(draw_error)?;
        }
    }
    root.present().map_err(draw_error)?;
    Ok(())
}

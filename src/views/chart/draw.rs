//! Drawing a chart with plotters: each panel's axes, lines, rug of ticks, bands, markers and
//! heat map, and the colour bar beside a heat map.

use super::legend::{draw_legend, legend_places, Corner, Place};
use super::{draw_headline, viridis, wrap, Chart, ColourBar, HEADLINE_LINE};
use crate::core::error::Error;
use crate::core::plane::Layout;
use crate::draw::scene::{axes, colour, draw_error};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

/// Draws `chart` (and the panels under it) on `backend`, white background and all.
pub fn draw<DB: DrawingBackend>(backend: DB, chart: &Chart, layout: &Layout) -> Result<(), Error> {
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    if chart.is_blank() && !chart.note.is_empty() {
        // A view that does not apply here: its sentence in the picture, not an empty frame.
        let lines = [wrap(&chart.headline, layout), wrap(&chart.note, layout)].concat();
        // A third of the way down what the lines leave free, so that all of them fit.
        let mut middle = *layout;
        let height = lines.len() as f64 * HEADLINE_LINE * layout.font_px;
        middle.plot.top += 0.3 * (layout.plot.height - height).max(0.0);
        draw_headline(&root, &lines, &middle)?;
        return root.present().map_err(draw_error);
    }
    let panels = chart.panels(layout);
    if !chart.headline.is_empty() {
        draw_headline(&root, &chart.headline_lines(layout), layout)?;
    }
    // The lowest panel shown names the x axis (the lowest of all does, when some are left
    // out for want of room).
    let x_name = chart.below.last().unwrap_or(chart).x_label.as_str();
    let (width, height) = root.dim_in_pixel();
    for panel in panels {
        // Each strip within the picture (a layout may be taller than the area it is drawn on).
        let area = root.clone().shrink(
            (panel.left, panel.top),
            (
                panel.layout.width.min(width.saturating_sub(panel.left)),
                panel.layout.height.min(height.saturating_sub(panel.top)),
            ),
        );
        draw_panel(&area, panel.chart, &panel.layout, x_name)?;
    }
    root.present().map_err(draw_error)?;
    Ok(())
}

/// Draws one panel of a chart on its strip of the picture.
fn draw_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    chart: &Chart,
    layout: &Layout,
    x_name: &str,
) -> Result<(), Error> {
    let (x0, x1) = chart.x_range;
    let (y0, y1) = chart.y_range;
    let mut context = axes(root, layout, x0..x1, y0..y1, (x_name, &chart.y_label))?;
    let stroke = layout.stroke as f64;
    let ink = RGBColor(20, 20, 20);
    for cell in &chart.heat {
        let (r, g, b) = cell.colour.unwrap_or((235, 235, 235));
        context
            .draw_series(std::iter::once(Rectangle::new(
                [(cell.x.0, cell.y.0), (cell.x.1, cell.y.1)],
                RGBColor(r, g, b).filled(),
            )))
            .map_err(draw_error)?;
    }
    // Outlines over every cell's fill, so a neighbour never covers one.
    for cell in chart.heat.iter().filter(|c| c.outlined) {
        context
            .draw_series(std::iter::once(Rectangle::new(
                [(cell.x.0, cell.y.0), (cell.x.1, cell.y.1)],
                RGBColor(255, 255, 255).stroke_width(layout.stroke + 1),
            )))
            .map_err(draw_error)?;
    }
    for band in &chart.bands {
        let mut outline: Vec<(f64, f64)> = band
            .x
            .iter()
            .copied()
            .zip(band.high.iter().copied())
            .collect();
        outline.extend(band.x.iter().copied().zip(band.low.iter().copied()).rev());
        let (r, g, b) = band.colour;
        context
            .draw_series(std::iter::once(Polygon::new(
                outline,
                RGBColor(r, g, b).mix(0.25).filled(),
            )))
            .map_err(draw_error)?;
    }
    if let Some(bar) = &chart.colour_bar {
        draw_colour_bar(root, bar, layout)?;
    }
    // The axis z = 0 and the zero loss, thin.
    let zero_lines = if chart.heat.is_empty() {
        vec![vec![(x0, 0.0), (x1, 0.0)], vec![(0.0, y0), (0.0, y1)]]
    } else {
        Vec::new()
    };
    for points in zero_lines {
        context
            .draw_series(std::iter::once(PathElement::new(
                points,
                RGBColor(150, 150, 150).stroke_width(1),
            )))
            .map_err(draw_error)?;
    }
    let dash = (layout.point_radius * 2.0).round() as u32;
    let mut legend = Vec::new();
    for line in &chart.lines {
        let (r, g, b) = line.colour;
        let style = RGBColor(r, g, b).stroke_width((stroke * line.weight).round().max(1.0) as u32);
        if let Some(label) = &line.label {
            legend.push((label.as_str(), style, line.dashed));
        }
        if line.dashed {
            context.draw_series(std::iter::once(DashedPathElement::new(
                line.points.clone(),
                dash,
                dash * 2 / 3,
                style,
            )))
        } else {
            context.draw_series(std::iter::once(PathElement::new(
                line.points.clone(),
                style,
            )))
        }
        .map_err(draw_error)?;
    }
    let top = chart.rug_top();
    for tick in &chart.rug {
        let marked = chart.highlight == Some(tick.index);
        let (width, reach) = if marked {
            (stroke + 3.0, y0)
        } else {
            (stroke * 0.6, y0 + 0.35 * (top - y0))
        };
        let tick_colour = colour(tick.colour);
        context
            .draw_series(std::iter::once(PathElement::new(
                vec![(tick.x, reach), (tick.x, top)],
                tick_colour.stroke_width(width.round().max(1.0) as u32),
            )))
            .map_err(draw_error)?;
        if marked {
            context
                .draw_series(std::iter::once(Circle::new(
                    (tick.x, top),
                    (layout.point_radius * 1.6).round() as i32,
                    RGBColor(204, 121, 167).stroke_width(layout.stroke + 1),
                )))
                .map_err(draw_error)?;
        }
    }
    // Each marker's label beside it, where it stays in the plot and clear of the legend and
    // of the labels placed before it.
    let show_legend = chart.heat.is_empty() && !legend.is_empty();
    let labels: Vec<&str> = legend.iter().map(|e| e.0).collect();
    let mut placed: Vec<Place> = Vec::new();
    let pixel = |(x, y): (f64, f64)| {
        let plot = layout.plot;
        (
            plot.left + (x - x0) / (x1 - x0) * plot.width,
            plot.top + (y1 - y) / (y1 - y0) * plot.height,
        )
    };
    let corner = quietest_corner(chart, layout, &labels, &pixel);
    if show_legend {
        placed.push(legend_places(layout, &labels, corner).0);
    }
    for marker in &chart.markers {
        let (r, g, b) = marker.colour;
        let size = (layout.point_radius * 1.4).round() as i32;
        context
            .draw_series(std::iter::once(Circle::new(
                marker.at,
                size,
                RGBColor(r, g, b).filled(),
            )))
            .map_err(draw_error)?;
        context
            .draw_series(std::iter::once(Circle::new(
                marker.at,
                size,
                ink.stroke_width(layout.stroke),
            )))
            .map_err(draw_error)?;
        let font = ("sans-serif", layout.font_px).into_font().color(&ink);
        let (w, h) = (layout.text_width(&marker.label), layout.font_px);
        let (mx, my) = pixel(marker.at);
        let away = size as f64 + 4.0;
        let candidates = [
            (away, -away - h),
            (-away - w, -away - h),
            (away, away),
            (-away - w, away),
            (away, -h / 2.0),
            (-away - w, -h / 2.0),
            (-w / 2.0, -away - h),
            (-w / 2.0, away),
        ]
        .map(|(dx, dy)| (dx, dy, Place::new(mx + dx, my + dy, w, h)));
        let inside = |b: &Place| b.within(&layout.plot);
        let clear = |b: &Place| placed.iter().all(|p| !p.meets(b));
        // Else where it covers least of the others, in the plot if it can.
        let covered = |b: &Place| {
            let outside = if inside(b) { 0.0 } else { w * h };
            outside + placed.iter().map(|p| p.overlap(b)).sum::<f64>()
        };
        let (dx, dy, taken) = candidates
            .iter()
            .find(|(_, _, b)| inside(b) && clear(b))
            .or_else(|| {
                candidates
                    .iter()
                    .min_by(|a, b| covered(&a.2).total_cmp(&covered(&b.2)))
            })
            .copied()
            .expect("eight candidates");
        placed.push(taken);
        context
            .draw_series(std::iter::once(
                EmptyElement::at(marker.at)
                    + Text::new(
                        marker.label.clone(),
                        (dx.round() as i32, dy.round() as i32),
                        font,
                    ),
            ))
            .map_err(draw_error)?;
    }
    if show_legend {
        draw_legend(root, &legend, layout, corner, dash)?;
    }
    Ok(())
}

/// The corner of the plot (or the top's middle) where the legend of `labels` hides the least
/// of the lines and the rug (counted every few pixels along them); the chart's own corner
/// when none is clearer.
pub(super) fn quietest_corner(
    chart: &Chart,
    layout: &Layout,
    labels: &[&str],
    pixel: &dyn Fn((f64, f64)) -> (f64, f64),
) -> Corner {
    let corners = Corner::in_order(chart.legend_lower_right);
    if labels.is_empty() {
        return corners[0];
    }
    // Where the lines and the rug's ticks run, in pixels.
    let step = (layout.font_px / 4.0).max(1.0);
    let mut marks: Vec<(f64, f64)> = Vec::new();
    for line in &chart.lines {
        for pair in line.points.windows(2) {
            let (a, b) = (pixel(pair[0]), pixel(pair[1]));
            let steps = ((b.0 - a.0).hypot(b.1 - a.1) / step)
                .ceil()
                .clamp(1.0, 4096.0);
            for k in 0..=steps as usize {
                let t = k as f64 / steps;
                marks.push((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)));
            }
        }
    }
    let top = chart.rug_top();
    marks.extend(chart.rug.iter().map(|tick| pixel((tick.x, top))));
    let hidden = |corner: Corner| {
        let (b, _) = legend_places(layout, labels, corner);
        let inside = |&&(x, y): &&(f64, f64)| {
            x >= b.left && x <= b.left + b.width && y >= b.top && y <= b.top + b.height
        };
        marks.iter().filter(inside).count()
    };
    let counts = corners.map(hidden);
    let least = counts.iter().copied().min().unwrap_or(0);
    corners[counts.iter().position(|&c| c == least).unwrap_or(0)]
}

/// The colour bar right of the plot: the scale in steps from `low` (bottom) to `high` (top),
/// with both ends labelled, as an axis would label them.
fn draw_colour_bar<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    bar: &ColourBar,
    layout: &Layout,
) -> Result<(), Error> {
    let plot = layout.plot;
    // In the room [`Layout::with_colour_bar`] leaves: a gap, the bar and its labels.
    let left = (plot.left + plot.width + layout.font_px * 0.6).round() as i32;
    let width = layout.font_px.round() as i32;
    let (top, height) = (plot.top as i32, plot.height as i32);
    const STEPS: i32 = 64;
    for k in 0..STEPS {
        let (r, g, b) = viridis((k as f64 + 0.5) / STEPS as f64);
        let y1 = top + height - k * height / STEPS;
        let y0 = top + height - (k + 1) * height / STEPS;
        root.draw(&Rectangle::new(
            [(left, y0), (left + width, y1)],
            RGBColor(r, g, b).filled(),
        ))
        .map_err(draw_error)?;
    }
    let font = ("sans-serif", layout.font_px).into_font();
    let beside = left + width + (layout.font_px * 0.3) as i32;
    let below_top = top + height - layout.font_px as i32;
    // A bar of one value (a grid of one cell) is read to a hundredth of that value.
    let span = match bar.high > bar.low {
        true => bar.high - bar.low,
        false => bar.high.abs(),
    };
    for (value, y) in [(bar.high, top), (bar.low, below_top)] {
        root.draw(&Text::new(
            // As an axis writes it: digits down to a hundredth of the span (so a Gram
            // matrix's 4.84e-10 reads 0 and stays beside the bar).
            crate::draw::scene::tick_label(value, span),
            (beside, y),
            font.clone(),
        ))
        .map_err(draw_error)?;
    }
    Ok(())
}

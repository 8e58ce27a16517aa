//! A chart as data — lines over two axes, a rug of ticks (one per training point, in its class
//! colour) and a legend, optionally with further panels stacked under it on the same x axis —
//! and its one plotters drawing for every backend. The views that are not the plane build a
//! [`Chart`]; the page maps its pixels back to rug ticks for hovering, and to heat-map cells or
//! a parameter's value along x for clicking.

use crate::error::Error;
use crate::plane::Layout;
use crate::scene::{axes, colour, draw_error};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_backend::DrawingBackend;

/// A polyline of the chart.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Line {
    pub points: Vec<(f64, f64)>,
    /// RGB.
    pub colour: (u8, u8, u8),
    /// Stroke width as a multiple of the layout's stroke.
    pub weight: f64,
    pub dashed: bool,
    /// The legend's entry.
    pub label: Option<String>,
}

/// A tick of the rug: training point `index` at x, in class colour `colour`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tick {
    pub x: f64,
    pub colour: usize,
    pub index: usize,
}

/// A marked point of the chart (an operating point), with its label.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Marker {
    pub at: (f64, f64),
    pub colour: (u8, u8, u8),
    pub label: String,
}

/// A shaded band between two curves over the same x values (mean ± sd).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Band {
    pub x: Vec<f64>,
    pub low: Vec<f64>,
    pub high: Vec<f64>,
    pub colour: (u8, u8, u8),
}

/// A cell of a heat map: its extent in chart units, its colour (`None` while it is being
/// computed), what hovering it says, the settings clicking it applies, and whether it is
/// outlined (a cell tied for the best of a cross-validation grid).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeatCell {
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub colour: Option<(u8, u8, u8)>,
    pub text: String,
    pub settings: Vec<(String, String)>,
    #[serde(default)]
    pub outlined: bool,
}

/// A colour bar beside the plot: the [`viridis`] scale from `low` to `high`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ColourBar {
    pub low: f64,
    pub high: f64,
}

/// Viridis (matplotlib's perceptually uniform colour map), sampled at nine stops and
/// interpolated linearly: t ∈ [0, 1] from dark purple to yellow.
pub fn viridis(t: f64) -> (u8, u8, u8) {
    const STOPS: [(f64, f64, f64); 9] = [
        (68.0, 1.0, 84.0),
        (71.0, 44.0, 122.0),
        (59.0, 81.0, 139.0),
        (44.0, 113.0, 142.0),
        (33.0, 144.0, 141.0),
        (39.0, 173.0, 129.0),
        (92.0, 200.0, 99.0),
        (170.0, 220.0, 50.0),
        (253.0, 231.0, 37.0),
    ];
    let x = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let k = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - k as f64;
    let (a, b) = (STOPS[k], STOPS[k + 1]);
    let mix = |p: f64, q: f64| (p + f * (q - p)).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Clicking the plot sets parameter `key` to the value under the pointer along x: the nearest
/// of `values` (in the parameter's units; the x axis shows log₁₀ of them when `log`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClickAxis {
    pub key: String,
    pub values: Vec<f64>,
    pub log: bool,
}

/// Everything a chart shows.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Chart {
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    pub x_label: String,
    pub y_label: String,
    pub lines: Vec<Line>,
    /// Ticks along the bottom band of the plot, below y = 0.
    pub rug: Vec<Tick>,
    /// The tick drawn marked (the point under the pointer in any view).
    pub highlight: Option<usize>,
    /// Marked points, drawn over the lines.
    pub markers: Vec<Marker>,
    /// The legend in the lower right corner (else the upper right).
    pub legend_lower_right: bool,
    /// Heat-map cells, drawn under everything else.
    pub heat: Vec<HeatCell>,
    /// Shaded bands, drawn under the lines.
    pub bands: Vec<Band>,
    /// The heat map's colour scale, drawn right of the plot.
    pub colour_bar: Option<ColourBar>,
    /// A line of explanation the page shows under the chart.
    pub note: String,
    /// A short line drawn above the plot (the layout must leave room:
    /// [`Layout::with_headline`]), for what must be seen in the picture itself.
    pub headline: String,
    /// Panels stacked under this one, on its x range (their own y axes, lines and legends);
    /// then this one takes the upper half of the picture and only the lowest shows the x axis.
    pub below: Vec<Chart>,
    /// What clicking the plot (or a panel under it) sets, besides a heat-map cell's settings.
    pub click_sets: Option<ClickAxis>,
}

impl Chart {
    /// Whether it has nothing to plot: no line, tick, cell, band, marker or panel.
    pub fn is_blank(&self) -> bool {
        self.lines.is_empty()
            && self.rug.is_empty()
            && self.heat.is_empty()
            && self.bands.is_empty()
            && self.markers.is_empty()
            && self.below.is_empty()
    }

    /// A chart that only says why its view does not apply here.
    pub fn says(sentence: impl Into<String>) -> Chart {
        Chart {
            x_range: (0.0, 1.0),
            y_range: (0.0, 1.0),
            note: sentence.into(),
            ..Chart::default()
        }
    }

    /// The rug's band in data units: from the bottom of the y range up to this.
    pub fn rug_top(&self) -> f64 {
        self.y_range.0 + 0.8 * (0.0 - self.y_range.0)
    }

    /// The pixel at the middle of training point `index`'s tick, if it has one.
    pub fn tick_pixel(&self, layout: &Layout, index: usize) -> Option<(f64, f64)> {
        let tick = self.rug.iter().find(|t| t.index == index)?;
        let (px, py) = self.to_pixel(layout, tick.x, 0.5 * (self.y_range.0 + self.rug_top()));
        Some((px, py))
    }

    /// The headline in lines that fit the picture (the first line flush with the plot when
    /// the whole fits there, else every line from the margin).
    pub fn headline_lines(&self, layout: &Layout) -> Vec<String> {
        wrap(&self.headline, layout)
    }

    /// This chart and the panels under it that the picture has room for, each with its layout
    /// within its own strip of the picture and the strip's corner in the picture's pixels. A
    /// headline of more lines than the layout leaves room for lowers the plot. Stacked, the
    /// upper panel's plot is half as tall again as each one's below, and only the lowest has
    /// room for the x axis under it; a panel is shown only if every shown one keeps at least
    /// [`PANEL_LINES`] lines of the type (its legend and two ticks). A picture too short to
    /// stack them all but wide enough to give each plot [`PANEL_COLUMNS`] lines of width sets
    /// them side by side instead, each with its x axis; failing that, stacked panels take one
    /// height, and then the lowest are left out first.
    pub fn panels(&self, layout: &Layout) -> Vec<Panel<'_>> {
        let mut layout = *layout;
        let lines = self.headline_lines(&layout).len();
        if lines > 1 {
            let extra = (lines - 1) as f64 * HEADLINE_LINE * layout.font_px;
            layout.plot.top += extra;
            layout.plot.height = (layout.plot.height - extra).max(10.0);
        }
        let font = layout.font_px;
        // Above each lower panel's plot: room for half its top tick label, and a little.
        let gap = (0.5 * font).round();
        // Each lower plot's height when `count` panels are stacked and the upper one is
        // `upper` times as tall as each below.
        let share = |count: usize, upper: f64| {
            let fixed = layout.plot.top
                + (count - 1) as f64 * gap
                + (count as u32 * layout.margin + layout.label_area) as f64;
            (layout.height as f64 - fixed) / (count as f64 - 1.0 + upper)
        };
        let fitting = |upper: f64| {
            (1..=self.below.len())
                .rev()
                .find(|&below| share(below + 1, upper) >= PANEL_LINES * font)
                .unwrap_or(0)
        };
        let mut upper = 1.5;
        let mut shown = fitting(upper);
        if shown < self.below.len() {
            if let Some(beside) = self.side_by_side(&layout) {
                return beside;
            }
            // Failing that, panels of one height.
            upper = 1.0;
            shown = fitting(upper);
        }
        if shown == 0 {
            let mut alone = layout;
            if !self.below.is_empty() {
                // The upper panel alone, with the x axis under it.
                alone.x_label_area = alone.label_area;
            }
            return vec![Panel::at(self, alone, 0, 0)];
        }
        let share = share(shown + 1, upper).max(10.0);
        let upper = layout.panel(layout.plot.top, (upper * share).floor(), false);
        let mut offset = upper.height;
        let mut panels = vec![Panel::at(self, upper, 0, 0)];
        for (k, chart) in self.below.iter().take(shown).enumerate() {
            let last = k + 1 == shown;
            let mut panel = layout.panel(gap, share.floor(), last);
            if last {
                // The lowest strip takes what rounding left over.
                panel.height = layout.height.saturating_sub(offset).max(panel.height);
            }
            panels.push(Panel::at(chart, panel, 0, offset));
            offset += panel.height;
        }
        panels
    }

    /// Every panel in a column of its own, full height and each with its x axis, when each
    /// plot keeps [`PANEL_COLUMNS`] lines of width and [`PANEL_LINES`] of height.
    fn side_by_side(&self, layout: &Layout) -> Option<Vec<Panel<'_>>> {
        let count = self.below.len() as u32 + 1;
        let column = layout.width / count;
        let mut strip = *layout;
        strip.width = column;
        strip.x_label_area = strip.label_area;
        strip.plot.width = column as f64 - strip.plot.left - strip.margin as f64;
        strip.plot.height =
            layout.height as f64 - strip.plot.top - (strip.margin + strip.x_label_area) as f64;
        let font = layout.font_px;
        if strip.plot.width < PANEL_COLUMNS * font || strip.plot.height < PANEL_LINES * font {
            return None;
        }
        let charts = std::iter::once(self).chain(self.below.iter());
        Some(
            charts
                .enumerate()
                .map(|(k, chart)| {
                    let mut panel = strip;
                    if k as u32 + 1 == count {
                        // The rightmost column takes what rounding left over.
                        panel.width = layout.width - k as u32 * column;
                        panel.plot.width =
                            panel.width as f64 - panel.plot.left - panel.margin as f64;
                    }
                    Panel::at(chart, panel, k as u32 * column, 0)
                })
                .collect(),
        )
    }

    /// The plot's rectangle in the picture's pixels (the upper panel's, when there are more).
    fn plot_rect(&self, layout: &Layout) -> crate::field::PixelRect {
        self.panels(layout)[0].plot()
    }

    /// The settings a click at pixel (px, py) applies: a heat-map cell's, or the
    /// [`ClickAxis`] value under the pointer when it is over a panel's plot.
    pub fn settings_at(&self, layout: &Layout, px: f64, py: f64) -> Vec<(String, String)> {
        if let Some(cell) = self.cell_at(layout, px, py) {
            return cell.settings.clone();
        }
        self.axis_value_at(layout, px, py)
            .map(|(key, value)| vec![(key, value.to_string())])
            .unwrap_or_default()
    }

    /// What hovering pixel (px, py) tells: a heat-map cell's text, or the value a click there
    /// would set.
    pub fn text_at(&self, layout: &Layout, px: f64, py: f64) -> String {
        if let Some(cell) = self.cell_at(layout, px, py) {
            return cell.text.clone();
        }
        self.axis_value_at(layout, px, py)
            .map_or(String::new(), |(key, value)| {
                let label = crate::params::param(&key).map_or(key.as_str(), |p| p.label);
                format!("click to set {label} = {}", crate::model::short(value))
            })
    }

    /// The [`ClickAxis`] value nearest pixel (px, py), if it is over a panel's plot.
    fn axis_value_at(&self, layout: &Layout, px: f64, py: f64) -> Option<(String, f64)> {
        let click = self.click_sets.as_ref()?;
        let plot = self.panels(layout).iter().map(Panel::plot).find(|plot| {
            (plot.left..=plot.left + plot.width).contains(&px)
                && (plot.top..=plot.top + plot.height).contains(&py)
        })?;
        let (x0, x1) = self.x_range;
        let x = x0 + (px - plot.left) / plot.width * (x1 - x0);
        let at = |v: f64| if click.log { v.log10() } else { v };
        click
            .values
            .iter()
            .copied()
            .min_by(|a, b| (at(*a) - x).abs().total_cmp(&(at(*b) - x).abs()))
            .map(|v| (click.key.clone(), v))
    }

    /// The pixel of chart point (x, y) on a picture of `layout`'s size.
    pub fn to_pixel(&self, layout: &Layout, x: f64, y: f64) -> (f64, f64) {
        let plot = self.plot_rect(layout);
        let (x0, x1) = self.x_range;
        let (y0, y1) = self.y_range;
        (
            plot.left + (x - x0) / (x1 - x0) * plot.width,
            plot.top + (y1 - y) / (y1 - y0) * plot.height,
        )
    }

    /// The heat-map cell under pixel (px, py).
    pub fn cell_at(&self, layout: &Layout, px: f64, py: f64) -> Option<&HeatCell> {
        self.heat.iter().find(|c| {
            let (x0, y0) = self.to_pixel(layout, c.x.0, c.y.1);
            let (x1, y1) = self.to_pixel(layout, c.x.1, c.y.0);
            (x0..=x1).contains(&px) && (y0..=y1).contains(&py)
        })
    }

    /// The tick nearest pixel (px, py) of a picture of `layout`'s size, within `radius` pixels
    /// horizontally, if (px, py) is over the rug's band (or near it).
    pub fn tick_at(&self, layout: &Layout, px: f64, py: f64, radius: f64) -> Option<usize> {
        let band = (
            self.to_pixel(layout, 0.0, self.rug_top()).1 - radius,
            self.to_pixel(layout, 0.0, self.y_range.0).1 + radius,
        );
        if py < band.0 || py > band.1 {
            return None;
        }
        self.rug
            .iter()
            .map(|t| ((self.to_pixel(layout, t.x, 0.0).0 - px).abs(), t.index))
            .filter(|(d, _)| *d <= radius)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, i)| i)
    }
}

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
    if show_legend {
        placed.push(legend_places(layout, &labels, chart.legend_lower_right).0);
    }
    let pixel = |(x, y): (f64, f64)| {
        let plot = layout.plot;
        (
            plot.left + (x - x0) / (x1 - x0) * plot.width,
            plot.top + (y1 - y) / (y1 - y0) * plot.height,
        )
    };
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
        draw_legend(root, &legend, layout, chart.legend_lower_right, dash)?;
    }
    Ok(())
}

/// A rectangle of the picture, for placing texts: left, top, width, height in pixels.
#[derive(Clone, Copy, Debug)]
struct Place {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
}

impl Place {
    fn new(left: f64, top: f64, width: f64, height: f64) -> Place {
        Place {
            left,
            top,
            width,
            height,
        }
    }

    fn within(&self, rect: &crate::field::PixelRect) -> bool {
        self.left >= rect.left
            && self.top >= rect.top
            && self.left + self.width <= rect.left + rect.width
            && self.top + self.height <= rect.top + rect.height
    }

    /// The area this and `other` share.
    fn overlap(&self, other: &Place) -> f64 {
        let across =
            (self.left + self.width).min(other.left + other.width) - self.left.max(other.left);
        let down = (self.top + self.height).min(other.top + other.height) - self.top.max(other.top);
        across.max(0.0) * down.max(0.0)
    }

    fn meets(&self, other: &Place) -> bool {
        self.left < other.left + other.width
            && other.left < self.left + self.width
            && self.top < other.top + other.height
            && other.top < self.top + self.height
    }
}

/// Where the legend of these labels goes: its box, and each entry's place in it (x from the
/// box's inner left edge, and row). In a column in the plot's upper right corner, or its lower
/// right; in rows as wide as the plot allows when a column would be taller than the plot.
fn legend_places(layout: &Layout, labels: &[&str], lower: bool) -> (Place, Vec<(f64, usize)>) {
    let font_px = layout.font_px;
    let (pad, row, inset) = (0.4 * font_px, 1.3 * font_px, 0.4 * font_px);
    let plot = layout.plot;
    let mut places = Vec::new();
    let column = 2.0 * pad + labels.len() as f64 * row <= plot.height - 2.0 * inset;
    let room = plot.width - 2.0 * inset - 2.0 * pad;
    let (mut x, mut line, mut width) = (0.0, 0usize, 0.0f64);
    for (k, label) in labels.iter().enumerate() {
        let entry = LEGEND_SAMPLE * font_px + layout.text_width(label);
        if k > 0 && (column || x + font_px + entry > room) {
            line += 1;
            x = 0.0;
        } else if k > 0 {
            x += font_px;
        }
        places.push((x, line));
        x += entry;
        width = width.max(x);
    }
    let (width, height) = (width + 2.0 * pad, (line + 1) as f64 * row + 2.0 * pad);
    let left = plot.left + plot.width - inset - width;
    let top = if lower {
        plot.top + plot.height - inset - height
    } else {
        plot.top + inset
    };
    (Place::new(left, top, width, height), places)
}

/// A legend entry's stroke and the gap after it, in em.
const LEGEND_SAMPLE: f64 = 2.0;

/// The legend of the labelled lines: in the box [`legend_places`] gives, a stroke in each
/// line's style and its label.
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(&str, ShapeStyle, bool)],
    layout: &Layout,
    lower: bool,
    dash: u32,
) -> Result<(), Error> {
    if entries.is_empty() {
        return Ok(());
    }
    let labels: Vec<&str> = entries.iter().map(|e| e.0).collect();
    let (frame, places) = legend_places(layout, &labels, lower);
    let font_px = layout.font_px;
    let (pad, row) = (0.4 * font_px, 1.3 * font_px);
    let ink = RGBColor(20, 20, 20);
    let corners = [
        (frame.left.round() as i32, frame.top.round() as i32),
        (
            (frame.left + frame.width).round() as i32,
            (frame.top + frame.height).round() as i32,
        ),
    ];
    root.draw(&Rectangle::new(corners, WHITE.mix(0.9).filled()))
        .map_err(draw_error)?;
    root.draw(&Rectangle::new(corners, ink.stroke_width(1)))
        .map_err(draw_error)?;
    let font = ("sans-serif", font_px)
        .into_font()
        .color(&ink)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let sample = (LEGEND_SAMPLE - 0.4) * font_px;
    for ((label, style, dashed), (dx, line)) in entries.iter().zip(places) {
        let (x, y) = (
            frame.left + pad + dx,
            frame.top + pad + (line as f64 + 0.5) * row,
        );
        let ends = vec![
            (x.round() as i32, y.round() as i32),
            ((x + sample).round() as i32, y.round() as i32),
        ];
        if *dashed {
            root.draw(&DashedPathElement::new(
                ends,
                dash / 2 + 1,
                dash / 3 + 1,
                *style,
            ))
        } else {
            root.draw(&PathElement::new(ends, *style))
        }
        .map_err(draw_error)?;
        root.draw(&Text::new(
            label.to_string(),
            (
                (x + LEGEND_SAMPLE * font_px).round() as i32,
                y.round() as i32,
            ),
            font.clone(),
        ))
        .map_err(draw_error)?;
    }
    Ok(())
}

/// One panel of a chart as drawn: the chart, its layout within its strip, and the strip's
/// upper left corner in the picture's pixels.
#[derive(Clone, Copy, Debug)]
pub struct Panel<'a> {
    pub chart: &'a Chart,
    pub layout: Layout,
    pub left: u32,
    pub top: u32,
}

impl<'a> Panel<'a> {
    fn at(chart: &'a Chart, layout: Layout, left: u32, top: u32) -> Panel<'a> {
        Panel {
            chart,
            layout,
            left,
            top,
        }
    }

    /// The panel's plot in the picture's pixels.
    pub fn plot(&self) -> crate::field::PixelRect {
        let plot = self.layout.plot;
        crate::field::PixelRect {
            left: plot.left + self.left as f64,
            top: plot.top + self.top as f64,
            ..plot
        }
    }
}

/// The least width of a panel's plot set beside another, in lines of the type: room for its
/// legend and three tick labels.
pub const PANEL_COLUMNS: f64 = 8.0;

/// The least height of a stacked panel's plot, in lines of the type: a legend of two entries
/// and its margins.
pub const PANEL_LINES: f64 = 4.2;

/// The distance between a headline's lines, in em.
pub(crate) const HEADLINE_LINE: f64 = 1.25;

/// `text` in lines that fit `layout`'s picture: one line when it fits from the plot's left
/// edge, else lines broken between words from the left margin (a word longer than a line
/// stands alone).
pub(crate) fn wrap(text: &str, layout: &Layout) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    // In the reader's language (src/words.rs).
    let text = crate::words::said(text);
    let right = layout.width as f64 - layout.margin as f64;
    if layout.plot.left + layout.text_width(&text) <= right {
        return vec![text.into_owned()];
    }
    let room = right - layout.margin as f64;
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let longer = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && layout.text_width(&longer) > room {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = longer;
        }
    }
    lines.push(line);
    lines
}

/// A headline's lines ([`wrap`]) above the plot of `layout` (one with room for one line,
/// [`Layout::with_headline`]; the plot is lowered by a line for each further one, as
/// [`Chart::panels`] does): flush with the plot's left edge when it is one line that fits
/// there, else from the margin.
pub(crate) fn draw_headline<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    lines: &[String],
    layout: &Layout,
) -> Result<(), Error> {
    let font = ("sans-serif", layout.font_px)
        .into_font()
        .color(&RGBColor(20, 20, 20));
    let right = layout.width as f64 - layout.margin as f64;
    let left = match lines {
        [line] if layout.plot.left + layout.text_width(line) <= right => layout.plot.left,
        _ => layout.margin as f64,
    };
    let top = (layout.plot.top - layout.font_px * 1.45).max(2.0);
    for (k, line) in lines.iter().enumerate() {
        let y = top + k as f64 * HEADLINE_LINE * layout.font_px;
        root.draw(&Text::new(
            line.clone(),
            (left as i32, y as i32),
            font.clone(),
        ))
        .map_err(draw_error)?;
    }
    Ok(())
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
            crate::scene::tick_label(value, span),
            (beside, y),
            font.clone(),
        ))
        .map_err(draw_error)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chart of two panels whose click sets `k` among 1 … 10 along x.
    fn two_panels() -> Chart {
        let line = |y: f64| Line {
            points: vec![(1.0, y), (10.0, y)],
            colour: (0, 0, 0),
            weight: 1.0,
            dashed: false,
            label: Some("curve".into()),
        };
        let panel = |y| Chart {
            x_range: (1.0, 10.0),
            y_range: (0.0, 1.0),
            lines: vec![line(y)],
            ..Chart::default()
        };
        let mut top = panel(0.25);
        top.below = vec![panel(0.75)];
        top.click_sets = Some(ClickAxis {
            key: "k".into(),
            values: (1..=10).map(f64::from).collect(),
            log: false,
        });
        top
    }

    /// Where a picture is too short to stack the panels but wide, they stand side by side,
    /// each whole, and a click over either sets the value under the pointer in that panel.
    #[test]
    fn a_short_wide_picture_sets_the_panels_side_by_side() {
        let chart = two_panels();
        // The model-choice view beside the plot at 1280 × 720, in the plane's type.
        let layout = Layout::chart_with_type(640, 300, 20.0);
        let panels = chart.panels(&layout);
        assert_eq!(panels.len(), 2);
        let (left, right) = (panels[0].plot(), panels[1].plot());
        assert_eq!(left.top, right.top);
        assert_eq!(left.height, right.height);
        assert!(left.left + left.width < right.left, "{left:?} {right:?}");
        assert!(right.left + right.width <= 640.0);
        assert!(left.top + left.height <= 300.0);
        for plot in [left, right] {
            let px = plot.left + (7.0 - 1.0) / 9.0 * plot.width;
            let py = plot.top + 0.5 * plot.height;
            assert_eq!(
                chart.settings_at(&layout, px, py),
                vec![("k".into(), "7".into())]
            );
        }
        // Between the two plots a click sets nothing.
        let gap = 0.5 * (left.left + left.width + right.left);
        assert!(chart.settings_at(&layout, gap, left.top + 10.0).is_empty());
    }

    /// A tall picture stacks them, the upper plot half as tall again; a narrow one a little
    /// too short for that stacks them of one height; a shorter one shows the upper alone.
    #[test]
    fn tall_pictures_stack_and_small_ones_leave_out_the_lower_panel() {
        let chart = two_panels();
        let panels = chart.panels(&Layout::chart_with_type(640, 640, 20.0));
        assert_eq!(panels.len(), 2);
        assert_eq!(panels[0].left, panels[1].left);
        assert!(panels[1].top > panels[0].top);
        let (upper, lower) = (panels[0].plot(), panels[1].plot());
        assert_eq!(upper.height, (1.5 * lower.height).floor());
        let panels = chart.panels(&Layout::chart_with_type(330, 300, 20.0));
        assert_eq!(panels.len(), 2);
        assert_eq!(panels[0].plot().height, panels[1].plot().height);
        assert_eq!(
            chart.panels(&Layout::chart_with_type(330, 250, 20.0)).len(),
            1
        );
    }

    /// Both panels are drawn, with their own x axes, into one picture of the layout's size.
    #[test]
    fn side_by_side_panels_draw() {
        let chart = two_panels();
        let layout = Layout::chart_with_type(640, 300, 20.0);
        let mut svg = String::new();
        draw(
            plotters::backend::SVGBackend::with_string(&mut svg, (640, 300)),
            &chart,
            &layout,
        )
        .unwrap();
        assert_eq!(svg.matches("curve").count(), 2, "two legends: {svg}");
    }
}

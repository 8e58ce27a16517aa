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

    /// This chart and the panels under it, each with its layout within its own strip of the
    /// picture and the strip's top in the picture's pixels.
    pub fn panels(&self, layout: &Layout) -> Vec<(&Chart, Layout, u32)> {
        if self.below.is_empty() {
            return vec![(self, *layout, 0)];
        }
        let top = layout.height / 2;
        let rest = (layout.height - top) / self.below.len() as u32;
        // The upper panel keeps any room the layout leaves above the plot (a headline).
        let mut upper = layout.panel(top, false);
        let room = layout.plot.top - upper.plot.top;
        upper.plot.top += room;
        upper.plot.height = (upper.plot.height - room).max(10.0);
        let mut panels = vec![(self, upper, 0)];
        for (k, chart) in self.below.iter().enumerate() {
            let last = k + 1 == self.below.len();
            let offset = top + k as u32 * rest;
            let height = if last { layout.height - offset } else { rest };
            panels.push((chart, layout.panel(height, last), offset));
        }
        panels
    }

    /// The plot's rectangle in the picture's pixels (the upper panel's, when there are more).
    fn plot_rect(&self, layout: &Layout) -> crate::field::PixelRect {
        let (_, panel, offset) = self.panels(layout)[0];
        crate::field::PixelRect {
            top: panel.plot.top + offset as f64,
            ..panel.plot
        }
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
        let over = self.panels(layout).iter().any(|(_, panel, offset)| {
            let plot = panel.plot;
            let top = plot.top + *offset as f64;
            (plot.left..=plot.left + plot.width).contains(&px)
                && (top..=top + plot.height).contains(&py)
        });
        if !over {
            return None;
        }
        let plot = self.plot_rect(layout);
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
    let mut rest = root.clone();
    for (panel, panel_layout, _) in chart.panels(layout) {
        let (area, below) = rest.split_vertically(panel_layout.height);
        draw_panel(&area, panel, &panel_layout)?;
        rest = below;
    }
    root.present().map_err(draw_error)?;
    Ok(())
}

/// Draws one panel of a chart on its strip of the picture.
fn draw_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    chart: &Chart,
    layout: &Layout,
) -> Result<(), Error> {
    let (x0, x1) = chart.x_range;
    let (y0, y1) = chart.y_range;
    let mut context = axes(
        root,
        layout,
        x0..x1,
        y0..y1,
        (&chart.x_label, &chart.y_label),
    )?;
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
    if !chart.headline.is_empty() {
        draw_headline(root, &chart.headline, layout)?;
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
    for line in &chart.lines {
        let (r, g, b) = line.colour;
        let style = RGBColor(r, g, b).stroke_width((stroke * line.weight).round().max(1.0) as u32);
        let series = if line.dashed {
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
        if let Some(label) = &line.label {
            series
                .label(label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], style));
        }
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
        let font = ("sans-serif", layout.font_px * 0.8).into_font().color(&ink);
        context
            .draw_series(std::iter::once(
                EmptyElement::at(marker.at)
                    + Text::new(marker.label.clone(), (size + 6, -size - 6), font),
            ))
            .map_err(draw_error)?;
    }
    if chart.lines.iter().any(|l| l.label.is_some()) && chart.heat.is_empty() {
        context
            .configure_series_labels()
            .position(if chart.legend_lower_right {
                SeriesLabelPosition::LowerRight
            } else {
                SeriesLabelPosition::UpperRight
            })
            .background_style(WHITE.mix(0.9))
            .border_style(ink)
            .label_font(("sans-serif", layout.font_px * 0.8).into_font())
            .draw()
            .map_err(draw_error)?;
    }
    Ok(())
}

/// A line of text above the plot, flush with its left edge.
pub(crate) fn draw_headline<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    text: &str,
    layout: &Layout,
) -> Result<(), Error> {
    let font = ("sans-serif", layout.font_px * 0.85)
        .into_font()
        .color(&RGBColor(20, 20, 20));
    let y = (layout.plot.top - layout.font_px * 1.45).max(2.0);
    root.draw(&Text::new(
        text.to_string(),
        (layout.plot.left as i32, y as i32),
        font,
    ))
    .map_err(draw_error)
}

/// The colour bar right of the plot: the scale in steps from `low` (bottom) to `high` (top),
/// with both ends labelled.
fn draw_colour_bar<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    bar: &ColourBar,
    layout: &Layout,
) -> Result<(), Error> {
    let plot = layout.plot;
    let left = (plot.left + plot.width + layout.font_px * 0.8).round() as i32;
    let width = (layout.font_px * 1.1).round() as i32;
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
    let font = ("sans-serif", layout.font_px * 0.75).into_font();
    let beside = left + width + (layout.font_px * 0.3) as i32;
    let below_top = top + height - (layout.font_px * 0.8) as i32;
    for (value, y) in [(bar.high, top), (bar.low, below_top)] {
        root.draw(&Text::new(
            crate::model::short(value),
            (beside, y),
            font.clone(),
        ))
        .map_err(draw_error)?;
    }
    Ok(())
}

//! A chart as data — lines over two axes, a rug of ticks (one per training point, in its class
//! colour) and a legend, optionally with further panels stacked under it on the same x axis —
//! and its one plotters drawing for every backend. The views that are not the plane build a
//! [`Chart`]; the page maps its pixels back to rug ticks for hovering, and to heat-map cells or
//! a parameter's value along x for clicking.
//!
//! The parts: `draw` (the axes, lines, rug, bands, heat map and colour bar of each panel),
//! `legend` (the legend's box and entries) and `panel` (a panel's strip of the picture,
//! and the headline wrapped above it).

use crate::core::plane::Layout;

mod draw;
mod legend;
mod panel;
pub use draw::draw;
pub(crate) use panel::{draw_headline, wrap, HEADLINE_LINE};
pub use panel::{Panel, PANEL_COLUMNS, PANEL_LINES};

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
            // A legend that would hide much of the lines goes beside the plot, if it can.
            let labels: Vec<&str> = (self.lines.iter())
                .filter_map(|line| line.label.as_deref())
                .collect();
            let least = PANEL_COLUMNS * font;
            if let Some(beside) = (self.heat.is_empty())
                .then(|| legend::room_beside(&alone, &labels, least))
                .flatten()
            {
                alone = beside;
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
    fn plot_rect(&self, layout: &Layout) -> crate::core::field::PixelRect {
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
                let label = crate::methods::table::param(&key).map_or(key.as_str(), |p| p.label);
                format!(
                    "click to set {label} = {}",
                    crate::methods::model::short(value)
                )
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

    /// A legend of seven curves in a projector's type covered two thirds of a loss chart's
    /// plot: where the picture is wide enough it goes right of the plot, clear of every
    /// line, inside the picture; a chart too narrow for that keeps it inside, and a short
    /// legend stays in the plot's corner.
    /// A black line through `points` for each of `names`, labelled with it.
    fn labelled_lines(names: &[&str], points: &[(f64, f64)]) -> Vec<Line> {
        names
            .iter()
            .map(|name| Line {
                points: points.to_vec(),
                colour: (0, 0, 0),
                weight: 1.0,
                dashed: false,
                label: Some(name.to_string()),
            })
            .collect()
    }

    #[test]
    fn a_large_legend_goes_beside_the_plot_when_there_is_room() {
        let names = [
            "0–1",
            "hinge  ← this model",
            "squared hinge",
            "logistic (log₂)",
            "exponential",
            "squared",
            "perceptron criterion",
        ];
        let chart_of = |count: usize| Chart {
            x_range: (-3.0, 3.0),
            y_range: (0.0, 4.0),
            lines: labelled_lines(&names[..count], &[(-3.0, 4.0), (3.0, 0.0)]),
            ..Chart::default()
        };
        let legend_and_plot = |chart: &Chart, width: u32, height: u32, type_px: f64| {
            let layout = Layout::chart_with_type(width, height, type_px);
            let panel = chart.panels(&layout)[0];
            let labels: Vec<&str> = chart
                .lines
                .iter()
                .filter_map(|l| l.label.as_deref())
                .collect();
            let (legend, _) =
                legend::legend_places(&panel.layout, &labels, legend::Corner::UpperRight);
            let plot = panel.layout.plot;
            (
                legend,
                legend::Place::new(plot.left, plot.top, plot.width, plot.height),
                layout,
            )
        };
        let seven = chart_of(7);
        // The view beside the plane at 1280 × 720, and on a phone.
        for (width, height, type_px) in [(640, 301, 18.0), (367, 258, 11.0)] {
            let (legend, plot, layout) = legend_and_plot(&seven, width, height, type_px);
            assert!(
                !legend.meets(&plot),
                "{width}×{height}: {legend:?} over {plot:?}"
            );
            assert!(
                legend.left + legend.width <= width as f64,
                "{width}: {legend:?}"
            );
            assert!(
                legend.top + legend.height <= height as f64,
                "{height}: {legend:?}"
            );
            assert!(plot.width >= 0.35 * width as f64 && plot.width < layout.plot.width);
        }
        // Too narrow for the legend beside a plot worth the name: it stays inside.
        let (legend, plot, layout) = legend_and_plot(&seven, 430, 301, 24.0);
        assert!(legend.meets(&plot), "{legend:?}");
        assert_eq!(plot.width, layout.plot.width);
        // Two short names cover little: in the plot's corner, the plot as wide as ever.
        let (legend, plot, layout) = legend_and_plot(&chart_of(2), 640, 301, 18.0);
        assert!(legend.meets(&plot));
        assert_eq!(plot.width, layout.plot.width);
    }

    /// The legend goes where it hides the least of the lines: in the chart's own corner when
    /// that is clear, else another corner, or the top's middle above a V of losses.
    #[test]
    fn the_legend_takes_the_corner_that_hides_least() {
        let chart_of = |points: Vec<(f64, f64)>| Chart {
            x_range: (-1.0, 1.0),
            y_range: (0.0, 1.0),
            lines: labelled_lines(
                &["ε-insensitive  ← this model", "squared", "absolute"],
                &points,
            ),
            ..Chart::default()
        };
        let layout = Layout::chart_with_type(640, 301, 18.0);
        let corner_of = |chart: &Chart| {
            let plot = chart.panels(&layout)[0].layout.plot;
            let pixel = |(x, y): (f64, f64)| {
                (
                    plot.left + (x + 1.0) / 2.0 * plot.width,
                    plot.top + (1.0 - y) * plot.height,
                )
            };
            let labels: Vec<&str> = chart
                .lines
                .iter()
                .filter_map(|l| l.label.as_deref())
                .collect();
            draw::quietest_corner(chart, &chart.panels(&layout)[0].layout, &labels, &pixel)
        };
        use legend::Corner;
        let flat = chart_of(vec![(-1.0, 0.05), (1.0, 0.05)]);
        assert_eq!(
            corner_of(&flat),
            Corner::UpperRight,
            "clear: the chart's own"
        );
        let v = chart_of(vec![(-1.0, 0.9), (0.0, 0.0), (1.0, 0.9)]);
        assert_eq!(corner_of(&v), Corner::UpperMiddle);
        let rising = chart_of(vec![(-1.0, 0.0), (1.0, 1.0)]);
        let corner = corner_of(&rising);
        assert!(
            matches!(corner, Corner::UpperLeft | Corner::LowerRight),
            "{corner:?}"
        );
    }
}

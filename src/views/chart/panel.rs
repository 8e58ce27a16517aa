//! A chart's panels as drawn (each on its strip of the picture) and the headline above a
//! chart, wrapped to the picture's width.

use super::Chart;
use crate::core::error::Error;
use crate::core::plane::Layout;
use crate::draw::scene::draw_error;
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

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
    pub(super) fn at(chart: &'a Chart, layout: Layout, left: u32, top: u32) -> Panel<'a> {
        Panel {
            chart,
            layout,
            left,
            top,
        }
    }

    /// The panel's plot in the picture's pixels.
    pub fn plot(&self) -> crate::core::field::PixelRect {
        let plot = self.layout.plot;
        crate::core::field::PixelRect {
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
    // In the reader's language (src/core/words.rs).
    let text = crate::core::words::said(text);
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

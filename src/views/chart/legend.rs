//! A chart's legend: its box (a column in the plot's upper or lower right corner, or rows when
//! a column would be too tall; beside the plot, right of it, when inside it would cover much of
//! the lines and the picture is wide enough: [`room_beside`]) and each labelled line's stroke
//! and label in it.

use crate::core::error::Error;
use crate::core::plane::Layout;
use crate::draw::scene::draw_error;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_backend::DrawingBackend;

/// A rectangle of the picture, for placing texts: left, top, width, height in pixels.
#[derive(Clone, Copy, Debug)]
pub(super) struct Place {
    pub(super) left: f64,
    pub(super) top: f64,
    pub(super) width: f64,
    pub(super) height: f64,
}

impl Place {
    pub(super) fn new(left: f64, top: f64, width: f64, height: f64) -> Place {
        Place {
            left,
            top,
            width,
            height,
        }
    }

    pub(super) fn within(&self, rect: &crate::core::field::PixelRect) -> bool {
        self.left >= rect.left
            && self.top >= rect.top
            && self.left + self.width <= rect.left + rect.width
            && self.top + self.height <= rect.top + rect.height
    }

    /// The area this and `other` share.
    pub(super) fn overlap(&self, other: &Place) -> f64 {
        let across =
            (self.left + self.width).min(other.left + other.width) - self.left.max(other.left);
        let down = (self.top + self.height).min(other.top + other.height) - self.top.max(other.top);
        across.max(0.0) * down.max(0.0)
    }

    pub(super) fn meets(&self, other: &Place) -> bool {
        self.left < other.left + other.width
            && other.left < self.left + self.width
            && self.top < other.top + other.height
            && other.top < self.top + self.height
    }
}

/// A corner of the plot for a legend inside it, or the middle of its top edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Corner {
    UpperRight,
    LowerRight,
    UpperLeft,
    LowerLeft,
    UpperMiddle,
}

impl Corner {
    /// The places to try, the chart's own first (lower right or upper right), then the other
    /// on the right, the left ones, and the top's middle (clear above a V of losses).
    pub(super) fn in_order(lower_right: bool) -> [Corner; 5] {
        match lower_right {
            true => [
                Corner::LowerRight,
                Corner::UpperRight,
                Corner::LowerLeft,
                Corner::UpperLeft,
                Corner::UpperMiddle,
            ],
            false => [
                Corner::UpperRight,
                Corner::LowerRight,
                Corner::UpperLeft,
                Corner::LowerLeft,
                Corner::UpperMiddle,
            ],
        }
    }
}

/// The share of the plot a legend may cover before it goes beside the plot, where there is room.
const MOST_COVERED: f64 = 0.25;

/// `layout` with its plot narrowed to leave room right of it for the legend of these labels,
/// in a column as tall as the picture allows: when the legend inside the plot would cover more
/// than a quarter of it, and the narrower plot keeps 35 % of the picture's width and `least`
/// pixels. (A loss chart's seven curves in a projector's type covered two thirds of its plot.)
pub(super) fn room_beside(layout: &Layout, labels: &[&str], least: f64) -> Option<Layout> {
    if labels.is_empty() {
        return None;
    }
    let (inside, _) = legend_places(layout, labels, Corner::UpperRight);
    let (width, height) = column_size(layout, labels);
    let plot = layout.plot;
    let narrower = plot.width - width - 2.0 * 0.4 * layout.font_px;
    let covers = inside.width * inside.height > MOST_COVERED * plot.width * plot.height;
    let room = narrower >= least.max(0.35 * layout.width as f64);
    let tall_enough = plot.top + height + layout.margin as f64 <= layout.height as f64;
    (covers && room && tall_enough).then(|| {
        let mut beside = *layout;
        beside.plot.width = narrower;
        beside
    })
}

/// The width and height of the legend of these labels in one column.
fn column_size(layout: &Layout, labels: &[&str]) -> (f64, f64) {
    let font_px = layout.font_px;
    let pad = 0.4 * font_px;
    let widest = labels
        .iter()
        .map(|label| LEGEND_SAMPLE * font_px + layout.text_width(label))
        .fold(0.0, f64::max);
    let height = labels.len() as f64 * 1.3 * font_px;
    (widest + 2.0 * pad, height + 2.0 * pad)
}

/// Where the legend of these labels goes: its box, and each entry's place in it (x from the
/// box's inner left edge, and row). In a column right of the plot, from its top, when the
/// layout leaves room for one there ([`room_beside`]); else in a column in the plot's
/// `corner`; in rows as wide as the plot allows when a column would be taller than the plot.
pub(super) fn legend_places(
    layout: &Layout,
    labels: &[&str],
    corner: Corner,
) -> (Place, Vec<(f64, usize)>) {
    let font_px = layout.font_px;
    let (pad, row, inset) = (0.4 * font_px, 1.3 * font_px, 0.4 * font_px);
    let plot = layout.plot;
    let (column_width, column_height) = column_size(layout, labels);
    if layout.right_margin() as f64 >= column_width + inset {
        let places = (0..labels.len()).map(|k| (0.0, k)).collect();
        let left = plot.left + plot.width + inset;
        return (
            Place::new(left, plot.top, column_width, column_height),
            places,
        );
    }
    let mut places = Vec::new();
    let column = column_height <= plot.height - 2.0 * inset;
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
    let left = match corner {
        Corner::UpperRight | Corner::LowerRight => plot.left + plot.width - inset - width,
        Corner::UpperLeft | Corner::LowerLeft => plot.left + inset,
        Corner::UpperMiddle => plot.left + (plot.width - width) / 2.0,
    };
    let top = match corner {
        Corner::LowerRight | Corner::LowerLeft => plot.top + plot.height - inset - height,
        Corner::UpperRight | Corner::UpperLeft | Corner::UpperMiddle => plot.top + inset,
    };
    (Place::new(left, top, width, height), places)
}

/// A legend entry's stroke and the gap after it, in em.
const LEGEND_SAMPLE: f64 = 2.0;

/// The legend of the labelled lines: in the box [`legend_places`] gives, a stroke in each
/// line's style and its label.
pub(super) fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(&str, ShapeStyle, bool)],
    layout: &Layout,
    corner: Corner,
    dash: u32,
) -> Result<(), Error> {
    if entries.is_empty() {
        return Ok(());
    }
    let labels: Vec<&str> = entries.iter().map(|e| e.0).collect();
    let (frame, places) = legend_places(layout, &labels, corner);
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

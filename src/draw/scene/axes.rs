//! The chart: the lab's margins and label areas around the plotting area, the axes with
//! round ticks (steps of 1, 2 or 5 times a power of ten) and labels that read at every scale.

use super::{draw_error, Plane};
use crate::core::error::Error;
use crate::core::plane::Layout;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

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

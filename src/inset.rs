//! The SMO sub-problem inset, drawn in the plane's upper-right corner while stepping through
//! an SVM run (every backend: canvas, SVG, PNG). It shows the two-variable problem of the step
//! on show in the (α_i, α_j) plane: the box [0, C]², the line y_i α_i + y_j α_j = const
//! through it (the only moves that keep Σ y_t α_t = 0), where the pair started (a hollow
//! circle), the unclipped optimum on the line (a cross) and the clipped one, inside the box
//! (a filled disc), with an arrow from start to end.

use crate::error::Error;
use crate::plane::{Layout, PairStep};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

/// Okabe–Ito vermillion for the working pair (as the ring around its points), blue for the
/// unclipped optimum.
pub const PAIR_COLOUR: RGBColor = RGBColor(213, 94, 0);
const UNCLIPPED: RGBColor = RGBColor(0, 114, 178);

fn draw_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> Error {
    Error::Draw(e.to_string())
}

/// The square window of the inset in α units: the box and every point of the step, with a
/// margin; an unbounded box (the hard margin) is cut to the points' reach.
pub fn window(step: &PairStep) -> (f64, f64) {
    let reach = step
        .before
        .iter()
        .chain(&step.after)
        .chain(&step.unclipped)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let c = if step.c > 4.0 * reach && reach > 0.0 {
        // The box's far edges would squash the step into a corner: show up to 1.5 × reach.
        1.5 * reach
    } else {
        step.c
    };
    let low = step.unclipped.iter().fold(0.0f64, |m, &v| m.min(v)).max(-c);
    let high = step.unclipped.iter().fold(c, |m, &v| m.max(v)).min(2.0 * c);
    let pad = 0.12 * (high - low).max(f64::MIN_POSITIVE);
    (low - pad, high + pad)
}

/// Draws the inset for `step` in the upper-right corner of `plot` (the plot's pixels on
/// `root`).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    step: &PairStep,
    layout: &Layout,
) -> Result<(), Error> {
    let plot = layout.plot;
    let font_px = (layout.font_px * 0.72).max(11.0);
    let side = (plot.width.min(plot.height) * 0.34).clamp(110.0, 420.0);
    let pad = (font_px * 0.6).round();
    let right = plot.left + plot.width - pad;
    let top = plot.top + pad;
    let (x0, y0) = (right - side, top);
    let ink = RGBColor(20, 20, 20);
    // The plate: white, edged, with a title line above the square.
    let title_h = font_px * 1.5;
    let legend_h = font_px * 1.5;
    let inner = side - 2.0 * pad;
    let plate = [
        (x0 as i32, y0 as i32),
        ((x0 + side) as i32, (y0 + title_h + side + legend_h) as i32),
    ];
    root.draw(&Rectangle::new(plate, WHITE.mix(0.93).filled()))
        .map_err(draw_error)?;
    root.draw(&Rectangle::new(plate, ink.stroke_width(1)))
        .map_err(draw_error)?;
    let font = ("sans-serif", font_px).into_font().color(&ink);
    let (i, j) = step.pair;
    let relation = if step.y[0] == step.y[1] { '+' } else { '−' };
    root.draw(&Text::new(
        format!("step on (α{i}, α{j}): α_i {relation} α_j = const"),
        ((x0 + pad * 0.6) as i32, (y0 + font_px * 0.25) as i32),
        font.clone(),
    ))
    .map_err(draw_error)?;
    // α units → pixels: α_i to the right, α_j up.
    let (low, high) = window(step);
    let square = (x0 + pad, y0 + title_h, inner);
    let to_px = |a: [f64; 2]| -> (i32, i32) {
        let sx = (a[0] - low) / (high - low);
        let sy = (a[1] - low) / (high - low);
        (
            (square.0 + sx.clamp(-0.02, 1.02) * square.2).round() as i32,
            (square.1 + (1.0 - sy.clamp(-0.02, 1.02)) * square.2).round() as i32,
        )
    };
    let stroke = layout.stroke.max(2);
    // The axes α = 0, and the box [0, C]² (cut at the window).
    let c = step.c.min(high);
    let axis = RGBColor(150, 150, 150);
    root.draw(&PathElement::new(
        vec![to_px([low, 0.0]), to_px([high, 0.0])],
        axis.stroke_width(1),
    ))
    .map_err(draw_error)?;
    root.draw(&PathElement::new(
        vec![to_px([0.0, low]), to_px([0.0, high])],
        axis.stroke_width(1),
    ))
    .map_err(draw_error)?;
    root.draw(&Rectangle::new(
        [to_px([0.0, c]), to_px([c, 0.0])],
        RGBColor(230, 230, 230).filled(),
    ))
    .map_err(draw_error)?;
    root.draw(&Rectangle::new(
        [to_px([0.0, c]), to_px([c, 0.0])],
        ink.stroke_width(stroke),
    ))
    .map_err(draw_error)?;
    let small = ("sans-serif", font_px * 0.9).into_font().color(&ink);
    if step.c <= high {
        root.draw(&Text::new(
            "C",
            {
                let p = to_px([c, 0.0]);
                (p.0 - (font_px * 0.3) as i32, p.1 + 2)
            },
            small.clone(),
        ))
        .map_err(draw_error)?;
    }
    root.draw(&Text::new(
        "α_i →",
        {
            let p = to_px([high, low]);
            (p.0 - (font_px * 3.2) as i32, p.1 - (font_px * 1.1) as i32)
        },
        small.clone(),
    ))
    .map_err(draw_error)?;
    root.draw(&Text::new(
        "α_j ↑",
        {
            let p = to_px([low, high]);
            (p.0 + 3, p.1 + 2)
        },
        small,
    ))
    .map_err(draw_error)?;
    // The line y_i α_i + y_j α_j = const, across the window: along (y_i, −y_j).
    let direction = [step.y[0], -step.y[1]];
    let span = 3.0 * (high - low);
    let through = step.before;
    let ends =
        [-span, span].map(|t| [through[0] + t * direction[0], through[1] + t * direction[1]]);
    let line = clip_segment(ends[0], ends[1], low, high);
    if let Some((a, b)) = line {
        root.draw(&DashedPathElement::new(
            vec![to_px(a), to_px(b)],
            (font_px * 0.5) as u32,
            (font_px * 0.35) as u32,
            ink.stroke_width(2),
        ))
        .map_err(draw_error)?;
    }
    // Start → end, the unclipped optimum and the clipped one.
    let radius = (font_px * 0.45).round() as i32;
    root.draw(&PathElement::new(
        vec![to_px(step.before), to_px(step.after)],
        PAIR_COLOUR.stroke_width(stroke),
    ))
    .map_err(draw_error)?;
    root.draw(&Circle::new(
        to_px(step.before),
        radius,
        PAIR_COLOUR.stroke_width(stroke),
    ))
    .map_err(draw_error)?;
    let u = to_px(step.unclipped);
    let arm = radius + 2;
    for (a, b) in [((-arm, -arm), (arm, arm)), ((-arm, arm), (arm, -arm))] {
        root.draw(&PathElement::new(
            vec![(u.0 + a.0, u.1 + a.1), (u.0 + b.0, u.1 + b.1)],
            UNCLIPPED.stroke_width(stroke),
        ))
        .map_err(draw_error)?;
    }
    root.draw(&Circle::new(
        to_px(step.after),
        radius,
        PAIR_COLOUR.filled(),
    ))
    .map_err(draw_error)?;
    root.draw(&Circle::new(to_px(step.after), radius, ink.stroke_width(1)))
        .map_err(draw_error)?;
    // The legend line under the square.
    let legend_y = (square.1 + inner + pad + font_px * 0.1) as i32;
    let mut x = (x0 + pad * 0.6) as i32;
    let legend_font = ("sans-serif", font_px * 0.9).into_font().color(&ink);
    for (label, kind) in [("start", 0), ("unclipped", 1), ("clipped", 2)] {
        let at = (x + radius, legend_y + radius + 2);
        match kind {
            0 => root.draw(&Circle::new(at, radius, PAIR_COLOUR.stroke_width(stroke))),
            1 => root.draw(&Cross::new(at, radius, UNCLIPPED.stroke_width(stroke))),
            _ => root.draw(&Circle::new(at, radius, PAIR_COLOUR.filled())),
        }
        .map_err(draw_error)?;
        root.draw(&Text::new(
            label,
            (x + 2 * radius + 4, legend_y),
            legend_font.clone(),
        ))
        .map_err(draw_error)?;
        x += 2 * radius + 10 + (label.chars().count() as f64 * font_px * 0.5) as i32;
    }
    Ok(())
}

/// The part of segment a–b inside the square [low, high]², if any (Liang–Barsky).
fn clip_segment(a: [f64; 2], b: [f64; 2], low: f64, high: f64) -> Option<([f64; 2], [f64; 2])> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let d = [b[0] - a[0], b[1] - a[1]];
    for k in 0..2 {
        for (p, q) in [(-d[k], a[k] - low), (d[k], high - a[k])] {
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else {
                let r = q / p;
                if p < 0.0 {
                    t0 = t0.max(r);
                } else {
                    t1 = t1.min(r);
                }
            }
        }
    }
    (t0 <= t1).then(|| {
        let at = |t: f64| [a[0] + t * d[0], a[1] + t * d[1]];
        (at(t0), at(t1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_is_cut_at_the_window() {
        let (a, b) = clip_segment([-2.0, -2.0], [3.0, 3.0], 0.0, 1.0).unwrap();
        assert!((a[0]).abs() < 1e-12 && (b[1] - 1.0).abs() < 1e-12);
        assert!(clip_segment([2.0, 0.0], [2.0, 1.0], 0.0, 1.0).is_none());
    }

    #[test]
    fn the_window_holds_the_box_and_the_step() {
        let step = PairStep {
            pair: (0, 1),
            y: [1.0, -1.0],
            c: 1.0,
            before: [0.2, 0.2],
            after: [1.0, 1.0],
            unclipped: [1.6, 1.6],
        };
        let (low, high) = window(&step);
        assert!(low < 0.0 && high > 1.6);
    }
}

//! The SMO sub-problem inset, drawn in the plane's upper-right corner while stepping through
//! an SVM run (every backend: canvas, SVG, PNG). It shows the two-variable problem of the step
//! on show in the (α_i, α_j) plane: the box [0, C]², the line y_i α_i + y_j α_j = const
//! through it (the only moves that keep Σ y_t α_t = 0), where the pair started (a hollow
//! circle), the unclipped optimum on the line (a cross) and the clipped one, inside the box
//! (a filled disc), with an arrow from start to end.

use crate::core::error::Error;
use crate::core::plane::{Layout, PairStep};
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

/// The digits of `n` as subscripts (α₁₂).
fn subscript(n: usize) -> String {
    n.to_string()
        .chars()
        .map(|d| char::from_u32(0x2080 + d.to_digit(10).unwrap_or(0)).unwrap_or(d))
        .collect()
}

/// Draws the inset for `step` in the corner of the plot (`layout.plot` on `root`) that hides
/// the fewest of the points at pixels `points`, never the pair's own (`pair`, by point) if it
/// can help it.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    step: &PairStep,
    pair: (usize, usize),
    layout: &Layout,
    points: &[(i32, i32)],
) -> Result<(), Error> {
    let plot = layout.plot;
    // The plane's own type (its tick labels'): the inset reads from as far as the axes do.
    let font_px = layout.font_px;
    let em = font_px;
    let room = |text: &str| layout.text_width(text);
    let (i, j) = step.pair;
    let (ai, aj) = (format!("α{}", subscript(i)), format!("α{}", subscript(j)));
    let relation = if step.y[0] == step.y[1] { '+' } else { '−' };
    let title = format!("SMO step: {ai} {relation} {aj} stays fixed");
    let side = (plot.width.min(plot.height) * 0.26).clamp(90.0, 320.0);
    let pad = (0.6 * em).round();
    // Under the square a row of ticks (0 and C), then a row for α_i's name, so the name never
    // runs into C wherever C falls; α_j's name in a column left of the square.
    let (title_h, label_w, row_h) = (1.5 * em, room(&aj) + 0.5 * em, 1.3 * em);
    let radius = (em * 0.45).round() as i32;
    let legend_w = 2.0 * radius as f64 + 0.4 * em + room("unclipped");
    let width = (pad + label_w + side + pad + legend_w + pad).max(2.0 * pad + room(&title));
    let height = pad + title_h + side + 2.0 * row_h + pad;
    // The corner hiding the fewest points (the pair's count ten times).
    let gap = (0.4 * em).round();
    let corners = [
        (plot.left + plot.width - gap - width, plot.top + gap),
        (plot.left + gap, plot.top + gap),
        (
            plot.left + plot.width - gap - width,
            plot.top + plot.height - gap - height,
        ),
        (plot.left + gap, plot.top + plot.height - gap - height),
    ];
    let hidden = |(x, y): (f64, f64)| -> usize {
        points
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                let (px, py) = (p.0 as f64, p.1 as f64);
                px >= x - em && px <= x + width + em && py >= y - em && py <= y + height + em
            })
            .map(|(k, _)| if k == pair.0 || k == pair.1 { 10 } else { 1 })
            .sum()
    };
    let (x0, y0) = corners
        .iter()
        .copied()
        .min_by_key(|&c| hidden(c))
        .expect("four corners");
    let ink = RGBColor(20, 20, 20);
    let plate = [
        (x0 as i32, y0 as i32),
        ((x0 + width) as i32, (y0 + height) as i32),
    ];
    root.draw(&Rectangle::new(plate, WHITE.mix(0.93).filled()))
        .map_err(draw_error)?;
    root.draw(&Rectangle::new(plate, ink.stroke_width(1)))
        .map_err(draw_error)?;
    let font = ("sans-serif", font_px).into_font().color(&ink);
    root.draw(&Text::new(
        title,
        ((x0 + pad) as i32, (y0 + pad * 0.7) as i32),
        font.clone(),
    ))
    .map_err(draw_error)?;
    // α units → pixels: α_i to the right, α_j up.
    let (low, high) = window(step);
    let square = (x0 + pad + label_w, y0 + pad + title_h, side);
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
    for ends in [[[low, 0.0], [high, 0.0]], [[0.0, low], [0.0, high]]] {
        root.draw(&PathElement::new(
            vec![to_px(ends[0]), to_px(ends[1])],
            axis.stroke_width(1),
        ))
        .map_err(draw_error)?;
    }
    let corner = [to_px([0.0, c]), to_px([c, 0.0])];
    root.draw(&Rectangle::new(corner, RGBColor(228, 228, 228).filled()))
        .map_err(draw_error)?;
    root.draw(&Rectangle::new(corner, ink.stroke_width(stroke)))
        .map_err(draw_error)?;
    // Tick labels 0 and C under the box, the axes' names beside it.
    let small = font.clone();
    let below = (square.1 + side + 0.2 * em) as i32;
    let zero = to_px([0.0, 0.0]);
    root.draw(&Text::new(
        "0",
        (zero.0 - (0.25 * em) as i32, below),
        small.clone(),
    ))
    .map_err(draw_error)?;
    if step.c <= high {
        let at = to_px([c, 0.0]);
        root.draw(&Text::new(
            "C",
            (at.0 - (0.3 * em) as i32, below),
            small.clone(),
        ))
        .map_err(draw_error)?;
    }
    let name = format!("{ai} →");
    root.draw(&Text::new(
        name.clone(),
        (
            (square.0 + 0.5 * (side - room(&name))) as i32,
            below + row_h as i32,
        ),
        small.clone(),
    ))
    .map_err(draw_error)?;
    root.draw(&Text::new(
        aj,
        ((x0 + pad * 0.5) as i32, (square.1 + 0.45 * side) as i32),
        small.clone(),
    ))
    .map_err(draw_error)?;
    // The line y_i α_i + y_j α_j = const, across the window: along (y_i, −y_j).
    let direction = [step.y[0], -step.y[1]];
    let span = 3.0 * (high - low);
    let through = step.before;
    let ends =
        [-span, span].map(|t| [through[0] + t * direction[0], through[1] + t * direction[1]]);
    if let Some((a, b)) = clip_segment(ends[0], ends[1], low, high) {
        root.draw(&DashedPathElement::new(
            vec![to_px(a), to_px(b)],
            (em * 0.5) as u32,
            (em * 0.35) as u32,
            ink.stroke_width(2),
        ))
        .map_err(draw_error)?;
    }
    // Start → end, the unclipped optimum and the clipped one.
    root.draw(&PathElement::new(
        vec![to_px(step.before), to_px(step.after)],
        PAIR_COLOUR.stroke_width(stroke),
    ))
    .map_err(draw_error)?;
    let marks = [
        ("start", step.before, 0),
        ("unclipped", step.unclipped, 1),
        ("clipped", step.after, 2),
    ];
    let draw_mark = |at: (i32, i32), kind: i32| -> Result<(), Error> {
        match kind {
            0 => root.draw(&Circle::new(at, radius, PAIR_COLOUR.stroke_width(stroke))),
            1 => root.draw(&Cross::new(at, radius + 1, UNCLIPPED.stroke_width(stroke))),
            _ => root
                .draw(&Circle::new(at, radius, PAIR_COLOUR.filled()))
                .and_then(|_| root.draw(&Circle::new(at, radius, ink.stroke_width(1)))),
        }
        .map_err(draw_error)
    };
    // The legend, a column right of the square, top to bottom in the order drawn.
    let legend_x = (square.0 + side + pad) as i32;
    for (row, (label, at, kind)) in marks.iter().enumerate() {
        draw_mark(to_px(*at), *kind)?;
        let y = (square.1 + row as f64 * 1.6 * em) as i32;
        draw_mark((legend_x + radius, y + radius + 2), *kind)?;
        root.draw(&Text::new(
            *label,
            (legend_x + 2 * radius + (0.4 * em) as i32, y),
            small.clone(),
        ))
        .map_err(draw_error)?;
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

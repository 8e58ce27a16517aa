//! The small labels on white plates that name curves and marks ("f + ε", "p = 0.9", a
//! perceptron's mistake count), and where a curve's label goes so that it covers the fewest
//! points and other labels.

use super::draw_error;
use super::pixels::PixelMap;
use super::Plane;
use crate::core::data::Point;
use crate::core::error::Error;
use crate::core::field::View;
use crate::core::plane::Scene;
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

/// Where the curves' labels go. A label drawn at its curve's middle, under the points, was
/// hidden wherever the curve ran through the data (an ε-tube always does). Of seven places
/// along the curve, where it runs level first and each kind middle first, each on the curve
/// or just above or below it, a label takes the first that covers the fewest points and
/// labels placed before it, inside the plot; it is drawn after the points, so nothing hides
/// it.
pub(super) struct TagPlaces {
    /// The points in pixels (at most `SAMPLED` of them, evenly spread).
    points: Vec<(i32, i32)>,
    /// The plates placed so far.
    placed: Vec<Plate>,
    map: PixelMap,
    /// The plot's corners in pixels: (left, top) and (right, bottom).
    bounds: ((i32, i32), (i32, i32)),
    radius: i32,
}

/// A label's plate in pixels: (left, top, right, bottom).
type Plate = (i32, i32, i32, i32);

/// How many points at most the placement looks at (a million points need not all be: a
/// plate's place is chosen by how many discs it covers, and 5000 evenly spread points tell
/// the crowded places from the empty ones; each frame that draws a label looks at them all).
const SAMPLED: usize = 5_000;

impl TagPlaces {
    pub(super) fn new(scene: &Scene, map: PixelMap, view: &View, radius: f64) -> TagPlaces {
        let step = scene.points.len().div_ceil(SAMPLED).max(1);
        let points = scene
            .points
            .iter()
            .step_by(step)
            .map(|p| map.map(p))
            .collect();
        let (a, b) = (
            map.map(&[view.x_min, view.y_max]),
            map.map(&[view.x_max, view.y_min]),
        );
        TagPlaces {
            points,
            placed: Vec::new(),
            map,
            bounds: ((a.0.min(b.0), a.1.min(b.1)), (a.0.max(b.0), a.1.max(b.1))),
            radius: radius.ceil() as i32,
        }
    }

    /// The data point and pixel offset for a plate `size` (width, height) on `curve`; None
    /// for an empty curve.
    pub(super) fn place(
        &mut self,
        curve: &[Point],
        size: (i32, i32),
    ) -> Option<(Point, (i32, i32))> {
        let last = curve.len().checked_sub(1)?;
        let (w, h) = size;
        let lift = h + 4;
        // Where the curve runs steeper than 45°, a label beside it could be read as another
        // curve's: the level stretches come first, each kind middle first.
        let reach = (last / 16).max(1);
        let steep = |k: usize| {
            let (a, b) = (
                self.map.map(&curve[k.saturating_sub(reach)]),
                self.map.map(&curve[(k + reach).min(last)]),
            );
            (b.1 - a.1).abs() > (b.0 - a.0).abs()
        };
        let order = [4, 3, 5, 2, 6, 1, 7].map(|eighths| last * eighths / 8);
        let level = order.iter().filter(|&&k| !steep(k));
        let mut best: Option<(usize, Point, (i32, i32), Plate)> = None;
        for &k in level.chain(order.iter().filter(|&&k| steep(k))) {
            let at = curve[k];
            let (x, y) = self.map.map(&at);
            for dy in [0, -lift, lift] {
                let plate = (x - w / 2, y + dy - h / 2, x + w / 2, y + dy + h / 2);
                let ((left, top), (right, bottom)) = self.bounds;
                if plate.0 < left || plate.1 < top || plate.2 > right || plate.3 > bottom {
                    continue;
                }
                let covered = self.covered(plate, best.map_or(usize::MAX, |(least, ..)| least));
                if best.is_none_or(|(least, ..)| covered < least) {
                    best = Some((covered, at, (0, dy), plate));
                }
                if covered == 0 {
                    break;
                }
            }
            if best.is_some_and(|(least, ..)| least == 0) {
                break;
            }
        }
        // No place inside the plot: the curve's middle, as before.
        let (_, at, offset, plate) = best.unwrap_or_else(|| {
            let at = curve[last / 2];
            let (x, y) = self.map.map(&at);
            (0, at, (0, 0), (x - w / 2, y - h / 2, x + w / 2, y + h / 2))
        });
        self.placed.push(plate);
        Some((at, offset))
    }

    /// How many points' discs a plate touches, and plates placed before it (each counts as
    /// many points as there are: labels never sit on each other while a place is free),
    /// counted up to `enough` (a place no better than the best so far).
    fn covered(&self, (left, top, right, bottom): Plate, enough: usize) -> usize {
        let r = self.radius;
        let plates = self
            .placed
            .iter()
            .filter(|p| p.0 <= right && p.2 >= left && p.1 <= bottom && p.3 >= top)
            .count();
        let mut count = plates * (self.points.len() + 1);
        for &(x, y) in &self.points {
            if count >= enough {
                break;
            }
            if x >= left - r && x <= right + r && y >= top - r && y <= bottom + r {
                count += 1;
            }
        }
        count
    }
}

/// A plate's size in pixels (width, height) for `text` in type of `size` pixels: the text's
/// box and [`draw_tag`]'s margins.
pub(super) fn tag_box(text: &str, size: f64) -> (i32, i32) {
    let width = (text.chars().count() as f64 * size * 0.58).round() as i32;
    (width + 6, size.round() as i32 + 4)
}

/// A small label on a white plate centred `offset` pixels from a data point, e.g. "p = 0.9"
/// on a probability contour or a perceptron's mistake count beside its point.
pub(super) fn draw_tag<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    text: &str,
    at: Point,
    offset: (i32, i32),
    size: f64,
    ink: RGBColor,
) -> Result<(), Error> {
    // The text's box: the plate less its margins (3 pixels a side across, 2 up and down).
    let (width, height) = tag_box(text, size);
    let (width, height) = (width - 6, height - 4);
    let (dx, dy) = offset;
    let plate = EmptyElement::at((at[0], at[1]))
        + Rectangle::new(
            [
                (dx - width / 2 - 3, dy - height / 2 - 2),
                (dx + width / 2 + 3, dy + height / 2 + 2),
            ],
            WHITE.mix(0.85).filled(),
        )
        + Text::new(
            text.to_string(),
            (dx - width / 2, dy - height / 2),
            ("sans-serif", size).into_font().color(&ink),
        );
    area.draw(&plate).map_err(draw_error)?;
    Ok(())
}

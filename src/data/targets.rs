//! The regression presets: points (x, t) with x spread over [−1, 1] and t a function of x plus
//! Gaussian noise in t alone, each making a lesson of regression visible.
//!
//! - **sine**: t = 0.6 sin(3x) + noise: a curve a line cannot follow, and over-fitting as the
//!   RBF kernel narrows;
//! - **line with outliers**: t = 0.5x + noise, with a few points far above the line: squared
//!   loss leans towards them, the absolute and ε-insensitive losses hardly do;
//! - **step**: t = −0.4 left of 0 and +0.4 right of it: a smooth kernel rings around a jump;
//! - **heteroscedastic**: t = 0.5x + noise whose spread grows from left to right: one tube
//!   width cannot fit both ends.

use super::gaussian;
use crate::data::Point;
use rand::rngs::StdRng;
use rand::Rng;

/// The shapes of the regression presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Sine,
    LineWithOutliers,
    Step,
    Heteroscedastic,
}

/// The share of a line-with-outliers scene placed far above the line (at least 2 points).
pub fn outliers(n: usize) -> usize {
    (n / 12).max(2).min(n / 2)
}

/// Point `i` of `n`, with noise of standard deviation `0.25 · noise` in t, as the
/// classification presets' jitter (the heteroscedastic scene's grows from a fifth of that to
/// twice it).
pub fn sample(shape: Shape, i: usize, n: usize, noise: f64, rng: &mut StdRng) -> Point {
    let x: f64 = rng.random_range(-1.0..1.0);
    let sd = 0.25 * noise.max(0.0);
    let e = gaussian(rng);
    let t = match shape {
        Shape::Sine => 0.6 * (3.0 * x).sin() + sd * e,
        Shape::LineWithOutliers if i + outliers(n) >= n => 0.5 * x + 1.2 + 0.1 * e.abs(),
        Shape::LineWithOutliers => 0.5 * x + sd * e,
        Shape::Step => {
            let level = if x < 0.0 { -0.4 } else { 0.4 };
            level + sd * e
        }
        Shape::Heteroscedastic => 0.5 * x + sd * (0.2 + 0.9 * (x + 1.0)) * e,
    };
    [x, t]
}

/// Reads a regression file: rows `x,t` (a header, any delimiter and encoding the lab reads),
/// every point of the one class 0. A third column is refused: a file with labels is a
/// classification scene.
pub fn read_targets(bytes: &[u8]) -> Result<super::Dataset, crate::error::Error> {
    let text = crate::table::decode(bytes)?;
    let table = crate::table::Table::read(&text)?;
    if table.width > 2 {
        return Err(crate::error::Error::Csv {
            line: table.rows[0].line,
            message: format!(
                "a regression file has two columns, x and t; this one has {} (a label column?)",
                table.width
            ),
        });
    }
    let points = super::points_from_table(&text, None)?;
    let labels = vec![0; points.len()];
    Ok(super::Dataset::from_parts(points, labels))
}

/// Reads the inputs x of a regression query file: the first column of each row (one column,
/// or more with the rest ignored), a header row skipped.
pub fn read_inputs(bytes: &[u8]) -> Result<Vec<f64>, crate::error::Error> {
    let text = crate::table::decode(bytes)?;
    let mut inputs = Vec::new();
    for (k, line) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let row = line.trim();
        if row.is_empty() || row.starts_with('#') {
            continue;
        }
        let field = row
            .split([',', ';', '\t', ' '])
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"');
        match crate::table::number(field) {
            Some(x) if x.is_finite() => inputs.push(x),
            None if inputs.is_empty() && k == 0 => {} // a header
            _ => {
                return Err(crate::error::Error::Csv {
                    line: k + 1,
                    message: format!("x '{field}' is not a finite number"),
                })
            }
        }
    }
    Ok(inputs)
}

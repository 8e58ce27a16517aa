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
use crate::core::data::Point;
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

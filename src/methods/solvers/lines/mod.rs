//! Regression lines t ≈ w x + b through one-dimensional points (x_i, t_i), i = 1…n: least
//! squares and least absolute deviations, the two losses a lecture sets side by side.
//!
//! **Least squares** minimises E(w, b) = Σ (t_i − w x_i − b)². Setting both partial
//! derivatives to zero and eliminating b gives, with the means x̄ and t̄,
//!
//! ```text
//!     w = Σ (x_i − x̄)(t_i − t̄) / Σ (x_i − x̄)²,      b = t̄ − w x̄,
//! ```
//!
//! the normal equations solved after centring (which keeps the large, nearly cancelling sums
//! Σx_i², (Σx_i)² out of the arithmetic).
//!
//! **Least absolute deviations** (LAD, L1 regression) minimises A(w, b) = Σ |t_i − w x_i − b|,
//! which a far outlier pulls only as hard as any other point, however far it is: the line
//! does not tilt towards it. A is convex and piecewise linear, and minimising it is the linear
//! programme
//!
//! ```text
//!     minimise Σ (u_i + v_i)  subject to  w x_i + b + u_i − v_i = t_i,  u_i, v_i ≥ 0,
//! ```
//!
//! whose optimum is attained at a vertex: a line with (at least) two residuals zero, through
//! two data points. It is solved exactly (up to rounding) in `least_absolute.rs` by a descent
//! over such lines in the spirit of Barrodale & Roberts' simplex method (see there).
//!
//! **When every x is the same** no slope is determined (any w fits, with b taking up w x):
//! both fits then return w = 0 and b the mean of t (least squares) or the lower median of t
//! (LAD; any value between the two middle ones is optimal, and the lower median keeps the line
//! through a data point), an optimum of each problem.
//!
//! **Scale.** Both fits run on x and t divided by powers of two near their largest magnitudes
//! (exact, so the answer is the same), which keeps values of 10³⁰⁰ from overflowing in
//! differences and sums. An answer that still does not fit in a double — a slope beyond
//! 10³⁰⁸ from x values almost equal, or squares of residuals beyond it — is refused in words.

use crate::core::error::Error;

mod least_absolute;

/// A fitted line t ≈ w x + b.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineFit {
    pub w: f64,
    pub bias: f64,
    /// Σ r_i² for least squares, Σ |r_i| for LAD, with r_i = t_i − w x_i − b.
    pub objective: f64,
}

impl LineFit {
    /// w x + b.
    pub fn predict(&self, x: f64) -> f64 {
        self.w * x + self.bias
    }
}

/// The ordinary least-squares line through (x_i, t_i).
pub fn least_squares_line(xs: &[f64], ts: &[f64]) -> Result<LineFit, Error> {
    let data = Scaled::new(xs, ts)?;
    let (u, v) = (&data.u, &data.v);
    let v_mean = mean(v);
    let (slope, intercept) = if data.constant_x {
        (0.0, v_mean)
    } else {
        let u_mean = mean(u);
        // The deviations divided by their largest, so that their squares neither overflow
        // nor vanish.
        let spread = u.iter().fold(0.0f64, |m, &a| m.max((a - u_mean).abs()));
        let (mut suu, mut suv) = (0.0, 0.0);
        for (&a, &b) in u.iter().zip(v) {
            let d = (a - u_mean) / spread;
            suu += d * d;
            suv += d * (b - v_mean);
        }
        let slope = suv / suu / spread;
        (slope, v_mean - slope * u_mean)
    };
    data.line(slope, intercept, |r| r * r, "squared residuals")
}

/// The least-absolute-deviations line, exactly: an optimal line through two data points (see
/// `least_absolute.rs` for the method and which optimum it returns when there are several).
pub fn least_absolute_line(xs: &[f64], ts: &[f64]) -> Result<LineFit, Error> {
    let data = Scaled::new(xs, ts)?;
    let (slope, intercept) = if data.constant_x {
        (0.0, least_absolute::lower_median(&data.v))
    } else {
        let descent = least_absolute::fit(&data.u, &data.v);
        (descent.slope, descent.intercept)
    };
    data.line(slope, intercept, f64::abs, "absolute residuals")
}

/// x and t divided by powers of two: u = x/x_scale, v = t/t_scale.
struct Scaled<'a> {
    xs: &'a [f64],
    ts: &'a [f64],
    u: Vec<f64>,
    v: Vec<f64>,
    x_scale: f64,
    t_scale: f64,
    constant_x: bool,
}

impl<'a> Scaled<'a> {
    /// Checks the points and scales them.
    fn new(xs: &'a [f64], ts: &'a [f64]) -> Result<Self, Error> {
        if xs.len() != ts.len() {
            return Err(Error::Parameter(format!(
                "{} x values but {} t values",
                xs.len(),
                ts.len()
            )));
        }
        if xs.len() < 2 {
            return Err(Error::TooFewPoints);
        }
        for (i, (x, t)) in xs.iter().zip(ts).enumerate() {
            for (value, name) in [(x, "x"), (t, "t")] {
                if !value.is_finite() {
                    return Err(Error::NotFinite {
                        what: format!("{name} of point {}", i + 1),
                    });
                }
            }
        }
        let (x_scale, t_scale) = (power_of_two_near_largest(xs), power_of_two_near_largest(ts));
        Ok(Self {
            xs,
            ts,
            u: xs.iter().map(|x| x / x_scale).collect(),
            v: ts.iter().map(|t| t / t_scale).collect(),
            x_scale,
            t_scale,
            constant_x: xs.iter().all(|&x| x == xs[0]),
        })
    }

    /// The line v = slope·u + intercept in the units of x and t, with its objective
    /// Σ loss(r_i); refused when either does not fit in a double.
    fn line(
        &self,
        slope: f64,
        intercept: f64,
        loss: impl Fn(f64) -> f64,
        what: &str,
    ) -> Result<LineFit, Error> {
        let w = slope * (self.t_scale / self.x_scale);
        let bias = intercept * self.t_scale;
        if !(w.is_finite() && bias.is_finite()) {
            return Err(Error::Parameter(
                "the line's slope overflows: the x values are too close together for the \
                 spread of t"
                    .into(),
            ));
        }
        let objective = self
            .xs
            .iter()
            .zip(self.ts)
            .map(|(&x, &t)| loss(t - (w * x + bias)))
            .sum::<f64>();
        if !objective.is_finite() {
            return Err(Error::Parameter(format!(
                "the sum of {what} overflows: rescale t"
            )));
        }
        Ok(LineFit { w, bias, objective })
    }
}

/// The mean, as the first value plus the mean difference from it: exact when all are equal.
fn mean(values: &[f64]) -> f64 {
    let first = values[0];
    first + values.iter().map(|v| v - first).sum::<f64>() / values.len() as f64
}

/// 2^e with 2^e ≤ max |value| < 2^(e+1) (1 when every value is 0; the smallest normal power
/// for subnormal values), so that dividing by it is exact and brings the largest into [1, 2).
fn power_of_two_near_largest(values: &[f64]) -> f64 {
    let largest = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if largest == 0.0 {
        return 1.0;
    }
    // The exponent bits alone (the significand cleared): 2^e, or 0 for a subnormal.
    let power = f64::from_bits(largest.to_bits() & (0x7ff << 52));
    power.max(f64::MIN_POSITIVE)
}

#[cfg(test)]
mod tests;

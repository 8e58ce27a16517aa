//! Regression lines judged from outside: the sum of a loss over the residuals of any line, the
//! lines through two data points (among which an optimal LAD line is), and whether a fitted
//! line is one of them.

use kernel_playground::methods::solvers::lines::LineFit;

/// Σ loss(t_i − w x_i − b).
pub fn loss_sum(xs: &[f64], ts: &[f64], w: f64, b: f64, loss: fn(f64) -> f64) -> f64 {
    xs.iter()
        .zip(ts)
        .map(|(&x, &t)| loss(t - (w * x + b)))
        .sum()
}

/// Every line (w, b) through two data points of different x, with the pair.
pub fn pair_lines(xs: &[f64], ts: &[f64]) -> Vec<(f64, f64, usize, usize)> {
    let mut lines = Vec::new();
    for i in 0..xs.len() {
        for j in i + 1..xs.len() {
            if xs[i] != xs[j] {
                let w = (ts[j] - ts[i]) / (xs[j] - xs[i]);
                lines.push((w, ts[i] - w * xs[i], i, j));
            }
        }
    }
    lines
}

/// Whether the line passes through two distinct data points (an LP vertex).
pub fn through_two_points(fit: &LineFit, xs: &[f64], ts: &[f64]) -> bool {
    let on: Vec<(f64, f64)> = xs
        .iter()
        .zip(ts)
        .filter(|(&x, &t)| (t - fit.predict(x)).abs() <= 1e-9 * (1.0 + t.abs()))
        .map(|(&x, &t)| (x, t))
        .collect();
    on.iter().any(|p| *p != on[0])
}

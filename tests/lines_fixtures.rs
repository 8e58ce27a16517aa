//! Regression lines against NumPy and SciPy: least squares against `numpy.linalg.lstsq` (w, b
//! and Σr² within 10⁻⁹ of max(1, |ref|)), least absolute deviations against the optimum of
//! `scipy.optimize.linprog` (HiGHS) on the linear programme (within 10⁻⁹ of max(1, |ref|)),
//! through two data points, and with the reference's w and b where the optimal line is unique.
//! Fixtures: tests/fixtures/lines_numpy_scipy.json, made by make_lines_fixtures.py.

#[path = "common/mod.rs"]
mod common;

use common::lines::through_two_points;
use common::numbers;
use kernel_playground::methods::solvers::lines::{least_absolute_line, least_squares_line};
use serde_json::Value;

fn cases() -> Vec<Value> {
    common::cases(include_str!("fixtures/lines_numpy_scipy.json"))
}

fn xt(case: &Value) -> (Vec<f64>, Vec<f64>) {
    (numbers(&case["x"]), numbers(&case["t"]))
}

/// |got − want| / max(1, |want|), checked against 10⁻⁹; returns it for the summary.
fn close(got: f64, want: f64, what: &str) -> f64 {
    let error = (got - want).abs() / want.abs().max(1.0);
    assert!(error <= 1e-9, "{what}: {got} vs {want}");
    error
}

fn number(case: &Value, key: &str) -> f64 {
    case[key].as_f64().unwrap()
}

#[test]
fn least_squares_matches_lstsq() {
    let mut worst = 0.0f64;
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        let (xs, ts) = xt(&case);
        let fit = least_squares_line(&xs, &ts).unwrap();
        for (got, key) in [
            (fit.w, "lsq_w"),
            (fit.bias, "lsq_b"),
            (fit.objective, "lsq_objective"),
        ] {
            worst = worst.max(close(got, number(&case, key), &format!("{name} {key}")));
        }
    }
    println!("largest relative difference: {worst:.1e}");
}

#[test]
fn least_absolute_reaches_linprogs_optimum() {
    let (mut worst, mut unique) = (0.0f64, 0);
    for case in cases() {
        let name = case["name"].as_str().unwrap();
        let (xs, ts) = xt(&case);
        let fit = least_absolute_line(&xs, &ts).unwrap();
        let optimum = number(&case, "lad_objective");
        worst = worst.max(close(fit.objective, optimum, &format!("{name} A")));
        assert!(through_two_points(&fit, &xs, &ts), "{name}: {fit:?}");
        if case["lad_unique"].as_bool() == Some(true) {
            unique += 1;
            close(fit.w, number(&case, "lad_w"), &format!("{name} w"));
            close(fit.bias, number(&case, "lad_b"), &format!("{name} b"));
        }
    }
    assert!(unique >= 7);
    println!("largest relative difference in A: {worst:.1e}");
}

/// The scene with one far outlier: least squares tilts towards it, LAD keeps the line.
#[test]
fn the_far_outlier_tilts_least_squares_only() {
    let case = cases()
        .into_iter()
        .find(|c| c["name"] == "far_outlier")
        .unwrap();
    let (xs, ts) = xt(&case);
    let line = number(&case, "line_w");
    let (lsq, lad) = (
        least_squares_line(&xs, &ts).unwrap(),
        least_absolute_line(&xs, &ts).unwrap(),
    );
    assert!((lsq.w - line).abs() > 0.5, "{lsq:?}");
    assert!((lad.w - line).abs() < 0.1, "{lad:?}");
}

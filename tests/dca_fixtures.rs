//! Dual coordinate ascent without a bias matches liblinear (scikit-learn's
//! `LinearSVC(loss="hinge", fit_intercept=False, dual=True)` on x̃ = (x₁, x₂, 1)): w and the
//! absorbed bias to 10⁻⁴, and the primal objective. Fixtures: tests/fixtures/dca_liblinear.json,
//! made by tests/fixtures/make_dca_fixtures.py.

use kernel_playground::core::kernel::Kernel;
use kernel_playground::methods::solvers::dca::{dual_coordinate_ascent, primal_objective};
use serde_json::Value;

mod common;
use common::numbers;

#[test]
fn dca_matches_liblinear() {
    let fixtures: Value =
        serde_json::from_str(include_str!("fixtures/dca_liblinear.json")).expect("fixture JSON");
    let cases = fixtures["cases"].as_array().unwrap();
    assert!(cases.len() >= 9);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let c = case["C"].as_f64().unwrap();
        let points: Vec<[f64; 2]> = case["x"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| [p[0].as_f64().unwrap(), p[1].as_f64().unwrap()])
            .collect();
        let y: Vec<f64> = numbers(&case["labels"])
            .iter()
            .map(|&l| if l == 1.0 { 1.0 } else { -1.0 })
            .collect();
        let solution = dual_coordinate_ascent(Kernel::Linear, &points, &y, c, 1e-9, 1_000_000, 1);
        assert!(solution.max_violation < 1e-9, "{name}: not converged");
        let (w, b) = solution.linear_weights(&points);
        let want = numbers(&case["w"]);
        let want_b = case["bias"].as_f64().unwrap();
        for k in 0..2 {
            assert!(
                (w[k] - want[k]).abs() <= 1e-4,
                "{name}: w {w:?} vs {want:?}"
            );
        }
        assert!((b - want_b).abs() <= 1e-4, "{name}: b {b} vs {want_b}");
        let primal = primal_objective(Kernel::Linear, &points, &solution, c);
        let want_primal = case["primal"].as_f64().unwrap();
        assert!(
            (primal - want_primal).abs() <= 1e-6 * want_primal,
            "{name}: primal {primal} vs {want_primal}"
        );
    }
}

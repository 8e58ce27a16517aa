//! Data in any units, kept exactly: one scene at scales 10⁻⁴ … 10⁴ (γ divided by the scale's
//! square) gives the same predictions and LIBSVM's decision values through the command line,
//! and a CSV read and written again is the same text.
//! Fixtures: tests/fixtures/scale_libsvm.json, made by tests/fixtures/make_scale_fixtures.py.

use kernel_playground::core::data::Dataset;
use kernel_playground::lab::state::Settings;
use serde_json::Value;

mod common;
use common::numbers;
use std::process::Command;

fn cases() -> Vec<Value> {
    let fixtures: Value =
        serde_json::from_str(include_str!("fixtures/scale_libsvm.json")).expect("fixture JSON");
    fixtures["cases"].as_array().unwrap().clone()
}

fn labels(v: &Value) -> Vec<i64> {
    numbers(v).into_iter().map(|l| l as i64).collect()
}

#[test]
fn every_scale_matches_libsvm_through_the_command_line() {
    let dir = std::env::temp_dir().join(format!("kp-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut predictions: Vec<Vec<i64>> = Vec::new();
    for case in cases() {
        let scale = case["scale"].as_f64().unwrap();
        let data = dir.join(format!("train-{scale:e}.csv"));
        std::fs::write(&data, case["csv"].as_str().unwrap()).unwrap();
        let mut query = String::from("x,y\n");
        for q in case["query"].as_array().unwrap() {
            query.push_str(&format!("{},{}\n", q[0], q[1]));
        }
        let query_path = dir.join(format!("query-{scale:e}.csv"));
        std::fs::write(&query_path, query).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_kernel-playground"))
            .args(["fit", "--data", data.to_str().unwrap()])
            .args(["--query", query_path.to_str().unwrap()])
            .args(["--model", "svm", "--kernel", "rbf", "--tol", "1e-6"])
            .args(["--c", &case["C"].to_string()])
            .args(["--gamma", &case["gamma"].to_string()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "scale {scale}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        let got = numbers(&json["decision"]);
        let want = numbers(&case["decision_query"]);
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() <= 1e-3, "scale {scale}: f = {g}, LIBSVM {w}");
        }
        let predicted = labels(&json["predicted"]);
        assert_eq!(predicted, labels(&case["predicted_query"]), "scale {scale}");
        predictions.push(predicted);
    }
    assert_eq!(predictions.len(), 5);
    assert!(predictions.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn a_csv_read_and_written_again_is_the_same_text() {
    for case in cases() {
        let csv = case["csv"].as_str().unwrap();
        let data = Dataset::from_csv(csv).unwrap();
        assert_eq!(data.to_csv(), csv);
    }
    // As written, whatever the style: exponents, signs, trailing zeros.
    let odd = "x,y,label\n1.50,+2,0\n1e-7,-0.000,1\n6.02214076E8,3,0\n";
    let data = Dataset::from_csv(odd).unwrap();
    assert_eq!(data.points[1], [1e-7, -0.0]);
    assert_eq!(data.to_csv(), odd);
    // A moved point is written in the shortest exact form.
    let mut moved = data.clone();
    moved.move_point(0, [0.1 + 0.2, 2.0]).unwrap();
    assert!(moved
        .to_csv()
        .starts_with("x,y,label\n0.30000000000000004,2,0\n"));
}

#[test]
fn a_link_restores_loaded_points_bit_for_bit() {
    for case in cases() {
        let data = Dataset::from_csv(case["csv"].as_str().unwrap()).unwrap();
        let test: Vec<bool> = (0..data.len()).map(|i| i % 7 == 0).collect();
        let hash = Settings::default().to_hash(Some((&data, &test)));
        let (_, points, warnings) = Settings::from_hash(&hash).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let (back, back_test) = points.expect("points in the link");
        assert_eq!(back.points, data.points);
        assert_eq!(back_test, test);
        assert_eq!(back.to_csv(), data.to_csv());
    }
}

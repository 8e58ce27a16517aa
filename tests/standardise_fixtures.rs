//! The "standardise" setting matches scikit-learn's `make_pipeline(StandardScaler(), model)`:
//! the scaler's mean and scale, the SVM's decision values and k-NN's probabilities, on a scene
//! whose second feature spreads a tenth as far as the first; and on that scene it changes the
//! answer. Fixtures: tests/fixtures/standardise_sklearn.json, made by
//! tests/fixtures/make_standardise_fixtures.py.

use kernel_playground::core::data::Dataset;
use kernel_playground::lab::state::Settings;
use kernel_playground::methods::model::{FitOptions, Model};
use kernel_playground::methods::registry;
use serde_json::Value;

mod common;
use common::numbers;

fn fixture() -> Value {
    serde_json::from_str(include_str!("fixtures/standardise_sklearn.json")).expect("fixture JSON")
}

fn points(v: &Value) -> Vec<[f64; 2]> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| [p[0].as_f64().unwrap(), p[1].as_f64().unwrap()])
        .collect()
}

fn fitted(model: &str, standardise: bool, data: &Dataset) -> Box<dyn Model> {
    let mut settings = Settings::default();
    settings.set("model", model).unwrap();
    for (key, value) in [
        ("kernel", "rbf"),
        ("C", "1"),
        ("gamma", "2"),
        ("tol", "1e-6"),
        ("k", "5"),
        ("std", if standardise { "1" } else { "0" }),
    ] {
        settings.set(key, value).unwrap();
    }
    registry::fit(
        settings.method(),
        &settings.values,
        data,
        FitOptions::default(),
    )
    .unwrap()
}

/// The model's answer at `x` in the fixture's terms.
fn answer(model: &dyn Model, kind: &str, x: [f64; 2]) -> f64 {
    match kind {
        "decision" => model.decision_value(x),
        _ => model.probabilities(x).expect("k-NN has probabilities")[1],
    }
}

#[test]
fn standardised_models_match_the_scikit_learn_pipeline() {
    let f = fixture();
    let labels: Vec<i32> = numbers(&f["labels"]).iter().map(|&l| l as i32).collect();
    let data = Dataset::from_parts(points(&f["x"]), labels);
    let query = points(&f["query"]);
    for case in f["cases"].as_array().unwrap() {
        let name = case["model"].as_str().unwrap();
        let kind = case["answer"].as_str().unwrap();
        let model = fitted(name, true, &data);
        // The scaler, as the status line and the JSON report it.
        let facts = model.facts(&data);
        let fact = |key: &str| {
            facts
                .iter()
                .find(|f| f.key == key)
                .map(|f| serde_json::to_value(&f.value).unwrap())
                .unwrap_or_else(|| panic!("{name}: no fact {key}"))
        };
        for (key, want) in [("scaler_mean", "mean"), ("scaler_scale", "scale")] {
            let got = numbers(&fact(key));
            for (g, w) in got.iter().zip(numbers(&case[want])) {
                assert!(
                    (g - w).abs() <= 1e-12 * w.abs().max(1e-3),
                    "{name} {key}: {g} vs {w}"
                );
            }
        }
        let standardised = numbers(&case["standardised"]);
        let bare = numbers(&case["bare"]);
        let plain = fitted(name, false, &data);
        let mut changed = 0;
        for (i, &x) in query.iter().enumerate() {
            let got = answer(&*model, kind, x);
            assert!(
                (got - standardised[i]).abs() <= 1e-3,
                "{name} at {x:?}: {got}, pipeline {}",
                standardised[i]
            );
            let without = answer(&*plain, kind, x);
            assert!(
                (without - bare[i]).abs() <= 1e-3,
                "{name} unscaled at {x:?}"
            );
            changed += usize::from((got - without).abs() > 0.05);
        }
        assert!(
            changed >= 5,
            "{name}: standardising changes the answer ({changed} queries)"
        );
    }
}

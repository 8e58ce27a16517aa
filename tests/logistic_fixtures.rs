//! Logistic regression agrees with scikit-learn's LogisticRegression (lbfgs, tight tolerance):
//! coefficients within 10⁻⁴, with both solvers where gradient descent can get there.
//! Fixtures: tests/fixtures/logistic_sklearn.json, made by make_logistic_knn_fixtures.py.

use kernel_playground::methods::model::{ExitReason, Model};
use kernel_playground::methods::solvers::logistic::{Features, LogisticModel, LogisticParams};
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    features: String,
    degree: u32,
    lambda: f64,
    x: Vec<[f64; 2]>,
    labels: Vec<i32>,
    feature_names: Vec<String>,
    coef: Vec<f64>,
    intercept: f64,
    query: Vec<[f64; 2]>,
    probability_query: Vec<f64>,
    objective: f64,
}

fn cases() -> Vec<Case> {
    serde_json::from_str::<Fixtures>(include_str!("fixtures/logistic_sklearn.json"))
        .expect("fixture JSON")
        .cases
}

fn features(case: &Case) -> Features {
    match case.features.as_str() {
        "linear" => Features::Linear,
        "poly" => Features::Polynomial {
            degree: case.degree,
        },
        other => panic!("unknown features {other}"),
    }
}

#[test]
fn newton_matches_scikit_learn() {
    let cases = cases();
    assert!(cases.len() >= 10);
    for case in cases {
        let params = LogisticParams {
            tol: 1e-10,
            ..LogisticParams::new(features(&case), case.lambda)
        };
        let model = LogisticModel::fit(&case.x, &case.labels, &params).unwrap();
        assert_eq!(model.report.exit, ExitReason::Converged, "{}", case.name);
        assert_eq!(model.map.names(), case.feature_names, "{}", case.name);
        for (j, (got, want)) in model.weights.iter().zip(&case.coef).enumerate() {
            assert!(
                (got - want).abs() < 1e-4,
                "{}: w[{j}] = {got}, scikit-learn {want}",
                case.name
            );
        }
        assert!(
            (model.bias - case.intercept).abs() < 1e-4,
            "{}: b",
            case.name
        );
        assert!(
            (model.objective - case.objective).abs() < 1e-6 * case.objective.max(1.0),
            "{}",
            case.name
        );
        for (q, want) in case.query.iter().zip(&case.probability_query) {
            let got = model.probability(*q);
            assert!(
                (got - want).abs() < 1e-5,
                "{}: p({q:?}) = {got}, scikit-learn {want}",
                case.name
            );
        }
    }
}

#[test]
fn gradient_descent_reaches_the_same_coefficients_on_linear_features() {
    for case in cases()
        .into_iter()
        .filter(|c| c.features == "linear" && c.lambda >= 0.1)
    {
        let params = LogisticParams {
            solver: kernel_playground::methods::solvers::logistic::Solver::GradientDescent {
                learning_rate: 2.0,
            },
            tol: 1e-9,
            max_iter: Some(500_000),
            ..LogisticParams::new(Features::Linear, case.lambda)
        };
        let model = LogisticModel::fit(&case.x, &case.labels, &params).unwrap();
        assert_eq!(model.report.exit, ExitReason::Converged, "{}", case.name);
        for (got, want) in model.weights.iter().zip(&case.coef) {
            assert!((got - want).abs() < 1e-4, "{}: {got} vs {want}", case.name);
        }
        assert!(model.accuracy(&case.x, &case.labels) > 0.5);
    }
}

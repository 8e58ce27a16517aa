//! Multinomial (softmax) logistic regression agrees with scikit-learn's multinomial
//! LogisticRegression (lbfgs, tight tolerance) on three and four classes, and with two classes
//! with its two-class model at C doubled: coefficients within 10⁻⁴, probabilities within 10⁻⁵.
//! Fixtures: tests/fixtures/softmax_sklearn.json, made by make_softmax_fixtures.py.

use kernel_playground::methods::model::{ExitReason, Model};
use kernel_playground::methods::solvers::logistic::{
    Features, LogisticParams, MultiClass, SoftmaxModel, Solver,
};
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
    gamma: Option<f64>,
    lambda: f64,
    x: Vec<[f64; 2]>,
    labels: Vec<i32>,
    classes: Vec<i32>,
    feature_names: Vec<String>,
    coef: Vec<Vec<f64>>,
    intercept: Vec<f64>,
    query: Vec<[f64; 2]>,
    proba_query: Vec<Vec<f64>>,
    predicted_query: Vec<i32>,
    objective: f64,
}

fn cases() -> Vec<Case> {
    serde_json::from_str::<Fixtures>(include_str!("fixtures/softmax_sklearn.json"))
        .expect("fixture JSON")
        .cases
}

fn params(case: &Case) -> LogisticParams {
    let features = match case.features.as_str() {
        "linear" => Features::Linear,
        "poly" => Features::Polynomial {
            degree: case.degree,
        },
        "rbf" => Features::Rbf {
            gamma: case.gamma.expect("an RBF case has γ"),
        },
        other => panic!("unknown features {other}"),
    };
    LogisticParams {
        multi: MultiClass::Multinomial,
        tol: 1e-10,
        ..LogisticParams::new(features, case.lambda)
    }
}

fn close(got: f64, want: f64, tolerance: f64) -> bool {
    (got - want).abs() < tolerance
}

#[test]
fn newton_matches_scikit_learn() {
    let cases = cases();
    assert!(cases.len() >= 10);
    let mut class_counts: Vec<usize> = cases.iter().map(|c| c.classes.len()).collect();
    class_counts.sort_unstable();
    class_counts.dedup();
    assert_eq!(class_counts, [2, 3, 4]);
    for case in cases {
        let name = &case.name;
        let model = SoftmaxModel::fit(&case.x, &case.labels, &params(&case)).unwrap();
        assert_eq!(model.report.exit, ExitReason::Converged, "{name}");
        assert_eq!(model.classes, case.classes, "{name}");
        assert_eq!(model.map.names(), case.feature_names, "{name}");
        for (k, (got, want)) in model.weights.iter().zip(&case.coef).enumerate() {
            assert_eq!(got.len(), want.len(), "{name}");
            for (j, (g, w)) in got.iter().zip(want).enumerate() {
                assert!(
                    close(*g, *w, 1e-4),
                    "{name}: w[{k}][{j}] = {g}, scikit-learn {w}"
                );
            }
        }
        for (k, (g, w)) in model.biases.iter().zip(&case.intercept).enumerate() {
            assert!(
                close(*g, *w, 1e-4),
                "{name}: b[{k}] = {g}, scikit-learn {w}"
            );
        }
        assert!(
            close(
                model.objective,
                case.objective,
                1e-6 * case.objective.max(1.0)
            ),
            "{name}: J = {}, scikit-learn {}",
            model.objective,
            case.objective
        );
        for (i, q) in case.query.iter().enumerate() {
            let got = model.probabilities(*q).unwrap();
            let want = &case.proba_query[i];
            for (k, (g, w)) in got.iter().zip(want).enumerate() {
                assert!(
                    close(*g, *w, 1e-5),
                    "{name}: p({k} | {q:?}) = {g}, scikit-learn {w}"
                );
            }
            // The prediction where the two most probable classes are not tied.
            let mut sorted = want.clone();
            sorted.sort_by(|a, b| b.total_cmp(a));
            if sorted[0] - sorted[1] > 1e-6 {
                assert_eq!(model.predict(*q), case.predicted_query[i], "{name}: {q:?}");
            }
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
            solver: Solver::GradientDescent { learning_rate: 2.0 },
            tol: 1e-9,
            max_iter: Some(500_000),
            ..params(&case)
        };
        let model = SoftmaxModel::fit(&case.x, &case.labels, &params).unwrap();
        assert_eq!(model.report.exit, ExitReason::Converged, "{}", case.name);
        for (got, want) in model
            .weights
            .iter()
            .flatten()
            .zip(case.coef.iter().flatten())
        {
            assert!(close(*got, *want, 1e-4), "{}: {got} vs {want}", case.name);
        }
    }
}

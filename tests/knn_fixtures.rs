//! k-nearest neighbours agree with scikit-learn's KNeighborsClassifier on a grid, for k = 1, 5
//! and 15, every metric and both weightings, with two and three classes. Grid points whose
//! answer depends on tie-breaking are listed as ambiguous in the fixture and skipped.
//! Fixtures: tests/fixtures/knn_sklearn.json, made by make_logistic_knn_fixtures.py.

use kernel_playground::methods::solvers::knn::{KnnModel, KnnParams, Metric, Weights};
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    k: usize,
    metric: String,
    weights: String,
    x: Vec<[f64; 2]>,
    labels: Vec<i32>,
    grid: Vec<[f64; 2]>,
    predicted: Vec<i32>,
    proba: Vec<Vec<f64>>,
    ambiguous: Vec<usize>,
}

#[test]
fn predictions_and_vote_shares_match_scikit_learn() {
    let fixtures: Fixtures =
        serde_json::from_str(include_str!("fixtures/knn_sklearn.json")).expect("fixture JSON");
    assert!(
        fixtures.cases.iter().any(|c| c.labels.contains(&2)),
        "a 3-class case"
    );
    for case in fixtures.cases {
        let params = KnnParams {
            k: case.k,
            metric: Metric::from_name(&case.metric).unwrap(),
            weights: Weights::from_name(&case.weights).unwrap(),
        };
        let model = KnnModel::fit(&case.x, &case.labels, &params).unwrap();
        let mut votes = vec![0.0; model.classes().len()];
        let mut checked = 0;
        for (i, &q) in case.grid.iter().enumerate() {
            if case.ambiguous.contains(&i) {
                continue;
            }
            assert_eq!(
                model.predict(q),
                case.predicted[i],
                "{} at {q:?}",
                case.name
            );
            model.votes(q, &mut votes);
            for (got, want) in votes.iter().zip(&case.proba[i]) {
                assert!(
                    (got - want).abs() < 1e-9,
                    "{} at {q:?}: {got} vs {want}",
                    case.name
                );
            }
            checked += 1;
        }
        assert!(checked > 400, "{}: only {checked} grid points", case.name);
    }
}

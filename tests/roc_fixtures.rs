//! ROC curves and their areas agree with scikit-learn's `roc_curve` (with its default
//! `drop_intermediate`) and `roc_auc_score` on the same decision values, to 10⁻⁹: continuous
//! SVM and logistic scores, k-NN vote shares full of ties, and rounded scores.
//! Fixtures: tests/fixtures/roc_sklearn.json, made by make_roc_fixtures.py.

use kernel_playground::core::roc::Roc;
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    scores: Vec<f64>,
    positive: Vec<u8>,
    fpr: Vec<f64>,
    tpr: Vec<f64>,
    /// The first is +∞, written null.
    thresholds: Vec<Option<f64>>,
    auc: f64,
}

fn close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?} vs {want:?}");
    for (k, (a, b)) in got.iter().zip(want).enumerate() {
        assert!((a - b).abs() <= 1e-9, "{what}[{k}]: {a} vs {b}");
    }
}

#[test]
fn curves_and_areas_match_scikit_learn() {
    let fixtures: Fixtures =
        serde_json::from_str(include_str!("fixtures/roc_sklearn.json")).expect("fixture JSON");
    assert!(fixtures.cases.len() >= 6);
    for case in fixtures.cases {
        let positive: Vec<bool> = case.positive.iter().map(|&p| p == 1).collect();
        let roc = Roc::of(&case.scores, &positive).expect("both classes");
        let name = &case.name;
        close(&roc.fpr, &case.fpr, &format!("{name} fpr"));
        close(&roc.tpr, &case.tpr, &format!("{name} tpr"));
        assert_eq!(roc.thresholds[0], f64::INFINITY, "{name}");
        assert_eq!(case.thresholds[0], None, "{name}");
        let finite: Vec<f64> = case.thresholds[1..].iter().map(|t| t.unwrap()).collect();
        close(&roc.thresholds[1..], &finite, &format!("{name} thresholds"));
        assert!(
            (roc.auc - case.auc).abs() <= 1e-9,
            "{name}: {} vs {}",
            roc.auc,
            case.auc
        );
    }
}

//! Bayesian logistic regression (Laplace) agrees with an independent NumPy/SciPy computation:
//! w_MAP, the posterior covariance H⁻¹, log p(D | w_MAP), log|H|, the log-evidence, its Occam
//! factor, BIC (null exactly where the points are separable in the features or the design
//! has too low a rank), and the MAP and predictive probabilities at query points near and far
//! from the data, each within 10⁻⁶ (relative to the number's size where it exceeds 1), on
//! linear, polynomial and RBF features. Fixtures: tests/fixtures/bayes_logistic_scipy.json,
//! made by make_bayes_logistic_fixtures.py.
//!
//! Run alone with `cargo test --test bayes_logistic_fixtures`.

use kernel_playground::methods::model::ExitReason;
use kernel_playground::methods::solvers::bayes_logistic::{
    BayesLogisticModel, BayesLogisticParams, Bic,
};
use kernel_playground::methods::solvers::logistic::Features;
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
    gamma: f64,
    lambda: f64,
    x: Vec<[f64; 2]>,
    labels: Vec<i32>,
    feature_names: Vec<String>,
    w_map: Vec<f64>,
    posterior_cov: Vec<Vec<f64>>,
    log_likelihood: f64,
    log_det_hessian: f64,
    log_evidence: f64,
    occam: f64,
    bic: Option<f64>,
    bic_reason: Option<String>,
    query: Vec<[f64; 2]>,
    probability: Vec<f64>,
    predictive: Vec<f64>,
}

const TOL: f64 = 1e-6;

fn cases() -> Vec<Case> {
    serde_json::from_str::<Fixtures>(include_str!("fixtures/bayes_logistic_scipy.json"))
        .expect("fixture JSON")
        .cases
}

fn features(case: &Case) -> Features {
    match case.features.as_str() {
        "linear" => Features::Linear,
        "poly" => Features::Polynomial {
            degree: case.degree,
        },
        "rbf" => Features::Rbf { gamma: case.gamma },
        other => panic!("unknown features {other}"),
    }
}

fn fitted(case: &Case) -> BayesLogisticModel {
    let params = BayesLogisticParams {
        features: features(case),
        lambda: case.lambda,
    };
    let model = BayesLogisticModel::fit(&case.x, &case.labels, &params).unwrap();
    assert_eq!(model.report.exit, ExitReason::Converged, "{}", case.name);
    model
}

/// |got − want| ≤ 10⁻⁶ · max(1, |want|).
fn close(got: f64, want: f64, what: &str, case: &Case) {
    assert!(
        (got - want).abs() <= TOL * want.abs().max(1.0),
        "{}: {what} = {got}, SciPy {want} (off by {:e})",
        case.name,
        (got - want).abs()
    );
}

#[test]
fn the_fixtures_cover_every_kind_of_scene() {
    let cases = cases();
    assert!(cases.len() >= 10);
    for kind in ["linear", "poly", "rbf"] {
        assert!(cases.iter().any(|c| c.features == kind), "{kind}");
    }
    assert!(cases.iter().any(|c| c.bic.is_some()));
    assert!(cases
        .iter()
        .any(|c| c.bic_reason.as_deref() == Some("separable")));
}

#[test]
fn the_laplace_posterior_matches_scipy() {
    for case in cases() {
        let model = fitted(&case);
        assert_eq!(model.map.names(), case.feature_names, "{}", case.name);
        assert_eq!(model.w_map.len(), case.w_map.len(), "{}", case.name);
        for (j, (got, want)) in model.w_map.iter().zip(&case.w_map).enumerate() {
            close(*got, *want, &format!("w_MAP[{j}]"), &case);
        }
        for (j, row) in case.posterior_cov.iter().enumerate() {
            for (k, want) in row.iter().enumerate() {
                close(
                    model.posterior_cov[(j, k)],
                    *want,
                    &format!("H⁻¹[{j}, {k}]"),
                    &case,
                );
            }
        }
    }
}

#[test]
fn the_evidence_and_its_occam_factor_match_scipy() {
    for case in cases() {
        let model = fitted(&case);
        close(
            model.log_likelihood,
            case.log_likelihood,
            "log p(D | w_MAP)",
            &case,
        );
        close(model.log_det_hessian, case.log_det_hessian, "log|H|", &case);
        close(model.log_evidence, case.log_evidence, "log evidence", &case);
        close(model.occam, case.occam, "Occam factor", &case);
    }
}

#[test]
fn bic_matches_scipy_and_is_null_where_w_ml_does_not_exist() {
    for case in cases() {
        let model = fitted(&case);
        match (&model.bic, case.bic) {
            (Bic::Value(got), Some(want)) => close(*got, want, "BIC", &case),
            (Bic::Undefined(_), None) => {}
            (got, want) => panic!(
                "{}: BIC {got:?}, SciPy {want:?} ({:?})",
                case.name, case.bic_reason
            ),
        }
    }
}

#[test]
fn map_and_predictive_probabilities_match_scipy() {
    for case in cases() {
        let model = fitted(&case);
        for (i, q) in case.query.iter().enumerate() {
            close(
                model.map_probability(*q),
                case.probability[i],
                &format!("σ(w_MAPᵀφ̃({q:?}))"),
                &case,
            );
            close(
                model.predictive(*q),
                case.predictive[i],
                &format!("predictive p({q:?})"),
                &case,
            );
        }
    }
}

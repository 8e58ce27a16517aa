//! LDA, QDA and Gaussian naive Bayes agree with scikit-learn's `LinearDiscriminantAnalysis()`,
//! `QuadraticDiscriminantAnalysis(reg_param=reg)` and `GaussianNB()` on scenes with 2, 3 and 4
//! classes: fitted priors, means and covariances (or variances and ε) within 10⁻⁹ of the
//! quantity's scale, posteriors within 10⁻⁶ and every prediction equal, on 40 query points.
//! Fixtures: tests/fixtures/gaussian_sklearn.json, made by make_gaussian_fixtures.py.

use kernel_playground::methods::model::Model;
use kernel_playground::methods::solvers::lda::Lda;
use kernel_playground::methods::solvers::naive_bayes::GaussianNb;
use kernel_playground::methods::solvers::qda::{Qda, QdaParams};
use serde::Deserialize;

type Matrix2 = [[f64; 2]; 2];

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    x: Vec<[f64; 2]>,
    labels: Vec<i32>,
    classes: Vec<i32>,
    query: Vec<[f64; 2]>,
    lda: LdaCase,
    qda: Vec<QdaCase>,
    nb: NbCase,
}

/// What every model records on the queries.
#[derive(Deserialize)]
struct Outputs {
    proba: Vec<Vec<f64>>,
    predicted: Vec<i32>,
}

#[derive(Deserialize)]
struct LdaCase {
    priors: Vec<f64>,
    means: Vec<[f64; 2]>,
    covariance: Matrix2,
    #[serde(flatten)]
    outputs: Outputs,
    /// Two classes only: `coef_`, `intercept_` and `decision_function` on the queries.
    coef: Option<[f64; 2]>,
    intercept: Option<f64>,
    decision: Option<Vec<f64>>,
}

#[derive(Deserialize)]
struct QdaCase {
    reg: f64,
    priors: Vec<f64>,
    means: Vec<[f64; 2]>,
    covariances: Vec<Matrix2>,
    #[serde(flatten)]
    outputs: Outputs,
    decision: Option<Vec<f64>>,
}

#[derive(Deserialize)]
struct NbCase {
    priors: Vec<f64>,
    means: Vec<[f64; 2]>,
    variances: Vec<[f64; 2]>,
    epsilon: f64,
    #[serde(flatten)]
    outputs: Outputs,
    joint_log_proba: Vec<Vec<f64>>,
}

const PARAMETER_TOL: f64 = 1e-9;
const PROBABILITY_TOL: f64 = 1e-6;

fn cases() -> Vec<Case> {
    serde_json::from_str::<Fixtures>(include_str!("fixtures/gaussian_sklearn.json"))
        .expect("fixture JSON")
        .cases
}

/// Every value within `PARAMETER_TOL` times the largest magnitude of the quantity (so an
/// off-diagonal covariance near 0 is judged on the scale of the matrix, not its own).
fn assert_parameters(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let scale = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= PARAMETER_TOL * scale,
            "{what}[{i}] = {g}, scikit-learn {w}"
        );
    }
}

fn flat<const N: usize>(rows: &[[f64; N]]) -> Vec<f64> {
    rows.iter().flatten().copied().collect()
}

fn flat_matrices(ms: &[Matrix2]) -> Vec<f64> {
    ms.iter().flatten().flatten().copied().collect()
}

/// Posteriors within `PROBABILITY_TOL` and identical predictions at every query.
fn assert_outputs(
    what: &str,
    case: &Case,
    want: &Outputs,
    probabilities: impl Fn([f64; 2]) -> Vec<f64>,
    predict: impl Fn([f64; 2]) -> i32,
) {
    for (q, (x, (p_want, label))) in case
        .query
        .iter()
        .zip(want.proba.iter().zip(&want.predicted))
        .enumerate()
    {
        let p = probabilities(*x);
        assert_eq!(p.len(), p_want.len(), "{what} query {q}");
        for (k, (got, want)) in p.iter().zip(p_want).enumerate() {
            assert!(
                (got - want).abs() <= PROBABILITY_TOL,
                "{what} query {q} {x:?}: p(class {k}) = {got}, scikit-learn {want}"
            );
        }
        assert_eq!(predict(*x), *label, "{what} query {q} {x:?}");
    }
}

/// A log-odds or log-density within 10⁻⁹ relative (they reach a few hundred far out).
fn assert_log_value(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= PARAMETER_TOL * want.abs().max(1.0),
        "{what}: {got}, scikit-learn {want}"
    );
}

#[test]
fn the_scenes_cover_two_three_and_four_classes() {
    let cases = cases();
    assert!(cases.len() >= 5);
    let mut counts: Vec<usize> = cases.iter().map(|c| c.classes.len()).collect();
    counts.dedup();
    for k in [2, 3, 4] {
        assert!(counts.contains(&k), "a {k}-class scene");
    }
    assert!(cases.iter().any(|c| c.qda.iter().any(|q| q.reg > 0.0)));
}

#[test]
fn lda_matches_scikit_learn() {
    for case in cases() {
        let name = format!("{} LDA", case.name);
        let lda = Lda::fit(&case.x, &case.labels).unwrap();
        let want = &case.lda;
        assert_eq!(lda.classes, case.classes, "{name}");
        assert_parameters(&format!("{name} priors"), &lda.priors, &want.priors);
        assert_parameters(
            &format!("{name} means"),
            &flat(&lda.means),
            &flat(&want.means),
        );
        assert_parameters(
            &format!("{name} covariance"),
            &flat(&lda.covariance),
            &flat(&want.covariance),
        );
        assert_outputs(
            &name,
            &case,
            &want.outputs,
            |x| Model::probabilities(&lda, x).unwrap(),
            |x| Model::predict(&lda, x),
        );
        match (lda.linear(), want.coef, want.intercept, &want.decision) {
            (Some((w, b)), Some(coef), Some(intercept), Some(decision)) => {
                assert_parameters(&format!("{name} w"), &w, &coef);
                assert_log_value(&format!("{name} b"), b, intercept);
                for (x, d) in case.query.iter().zip(decision) {
                    assert_log_value(
                        &format!("{name} decision at {x:?}"),
                        Model::decision_value(&lda, *x),
                        *d,
                    );
                }
            }
            (None, None, None, None) => assert!(case.classes.len() > 2, "{name}"),
            _ => panic!("{name}: linear() and the fixture disagree on the number of classes"),
        }
    }
}

#[test]
fn qda_matches_scikit_learn() {
    for case in cases() {
        for want in &case.qda {
            let name = format!("{} QDA reg {}", case.name, want.reg);
            let qda = Qda::fit(&case.x, &case.labels, &QdaParams { reg: want.reg }).unwrap();
            assert_eq!(qda.classes, case.classes, "{name}");
            assert_eq!(qda.reg, want.reg, "{name}");
            assert_parameters(&format!("{name} priors"), &qda.priors, &want.priors);
            assert_parameters(
                &format!("{name} means"),
                &flat(&qda.means),
                &flat(&want.means),
            );
            assert_parameters(
                &format!("{name} covariances"),
                &flat_matrices(&qda.covariances),
                &flat_matrices(&want.covariances),
            );
            assert_outputs(
                &name,
                &case,
                &want.outputs,
                |x| Model::probabilities(&qda, x).unwrap(),
                |x| Model::predict(&qda, x),
            );
            if let Some(decision) = &want.decision {
                for (x, d) in case.query.iter().zip(decision) {
                    assert_log_value(
                        &format!("{name} decision at {x:?}"),
                        Model::decision_value(&qda, *x),
                        *d,
                    );
                }
            }
        }
    }
}

#[test]
fn naive_bayes_matches_scikit_learn() {
    for case in cases() {
        let name = format!("{} GaussianNB", case.name);
        let nb = GaussianNb::fit(&case.x, &case.labels).unwrap();
        let want = &case.nb;
        assert_eq!(nb.classes, case.classes, "{name}");
        assert_parameters(&format!("{name} priors"), &nb.priors, &want.priors);
        assert_parameters(
            &format!("{name} means"),
            &flat(&nb.means),
            &flat(&want.means),
        );
        assert_parameters(
            &format!("{name} variances"),
            &flat(&nb.variances),
            &flat(&want.variances),
        );
        assert_parameters(&format!("{name} epsilon"), &[nb.epsilon], &[want.epsilon]);
        assert_outputs(
            &name,
            &case,
            &want.outputs,
            |x| Model::probabilities(&nb, x).unwrap(),
            |x| Model::predict(&nb, x),
        );
        let mut scores = vec![0.0; nb.classes.len()];
        for (x, jll) in case.query.iter().zip(&want.joint_log_proba) {
            nb.log_scores(*x, &mut scores);
            for (k, (got, want)) in scores.iter().zip(jll).enumerate() {
                assert_log_value(&format!("{name} log score {k} at {x:?}"), *got, *want);
            }
        }
    }
}

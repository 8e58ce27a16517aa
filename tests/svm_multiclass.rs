//! More than two classes: one-versus-one SVMs agree with scikit-learn's SVC (LIBSVM) — every
//! pairwise decision value, the voted predictions (ties to the smaller class) and the support
//! vectors. Fixtures: tests/fixtures/svm_multiclass.json, made by make_svm_multiclass_fixtures.py.

use kernel_playground::core::data::Dataset;
use kernel_playground::core::kernel::Kernel;
use kernel_playground::methods::model::Model;
use kernel_playground::methods::multiclass::{Multiclass, Scheme};
use kernel_playground::methods::solvers::svm::{SvmModel, SvmParams, SvmTrainer};
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    kernel: String,
    #[serde(rename = "C")]
    c: f64,
    gamma: f64,
    degree: u32,
    coef0: f64,
    tol: f64,
    x: Vec<[f64; 2]>,
    labels: Vec<i32>,
    query: Vec<[f64; 2]>,
    pairs: Vec<[usize; 2]>,
    pair_decision_query: Vec<Vec<f64>>,
    predicted_query: Vec<i32>,
    support: Vec<usize>,
}

#[test]
fn one_versus_one_matches_libsvm() {
    let fixtures: Fixtures =
        serde_json::from_str(include_str!("fixtures/svm_multiclass.json")).unwrap();
    assert!(fixtures.cases.len() >= 6);
    for case in fixtures.cases {
        let kernel = Kernel::from_name(&case.kernel, case.gamma, case.degree, case.coef0).unwrap();
        let params = SvmParams {
            tol: case.tol,
            ..SvmParams::new(kernel, case.c)
        };
        let data = Dataset::from_parts(case.x.clone(), case.labels.clone());
        let multi = Multiclass::fit(&data, Scheme::OneVsOne, |pair| {
            Ok(Box::new(SvmTrainer::new().fit(
                &pair.points,
                &pair.labels,
                &params,
            )?))
        })
        .unwrap();
        // Members come in LIBSVM's pair order.
        let pairs: Vec<[usize; 2]> = multi
            .members
            .iter()
            .map(|m| [m.negative.unwrap(), m.positive])
            .collect();
        assert_eq!(pairs, case.pairs, "{}", case.name);
        for (q, (x, expected)) in case.query.iter().zip(&case.pair_decision_query).enumerate() {
            let scale = expected.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            for (member, want) in multi.members.iter().zip(expected) {
                // LIBSVM's pair value is positive for the smaller class; ours for the larger.
                let got = -member.model.decision_value(*x);
                assert!(
                    (got - want).abs() <= 1e-3 * scale,
                    "{} query {q}: {got} vs {want}",
                    case.name
                );
            }
            assert_eq!(
                multi.predict(*x),
                case.predicted_query[q],
                "{} query {q}",
                case.name
            );
        }
        let mut support: Vec<usize> = multi
            .members
            .iter()
            .flat_map(|m| {
                let svm = m.model.as_any().downcast_ref::<SvmModel>().expect("an SVM");
                svm.support()
                    .into_iter()
                    .map(|l| m.indices[l])
                    .collect::<Vec<_>>()
            })
            .collect();
        support.sort_unstable();
        support.dedup();
        assert_eq!(support, case.support, "{}: support vectors", case.name);
    }
}

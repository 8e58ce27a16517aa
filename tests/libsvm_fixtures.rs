//! The SVM agrees with LIBSVM (through scikit-learn's SVC): decision values, support vectors,
//! multipliers and bias, for all four kernels on separable, overlapping and non-linear data.
//! Fixtures: tests/fixtures/svm_libsvm.json, made by tests/fixtures/make_svm_fixtures.py.

use kernel_playground::core::kernel::Kernel;
use kernel_playground::methods::model::{ExitReason, Model};
use kernel_playground::methods::solvers::svm::{SvmModel, SvmParams};
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
    decision_train: Vec<f64>,
    decision_query: Vec<f64>,
    support: Vec<usize>,
    alpha: Vec<f64>,
    bias: f64,
}

fn fixtures() -> Fixtures {
    let text = include_str!("fixtures/svm_libsvm.json");
    serde_json::from_str(text).expect("fixture JSON")
}

fn fit(case: &Case) -> SvmModel {
    let kernel = Kernel::from_name(&case.kernel, case.gamma, case.degree, case.coef0).unwrap();
    let params = SvmParams {
        tol: case.tol,
        ..SvmParams::new(kernel, case.c)
    };
    let model = SvmModel::fit(&case.x, &case.labels, &params).unwrap();
    assert_eq!(model.report.exit, ExitReason::Converged, "{}", case.name);
    model
}

#[test]
fn covers_all_four_kernels() {
    let cases = fixtures().cases;
    for kernel in ["linear", "poly", "rbf", "sigmoid"] {
        assert!(
            cases.iter().filter(|c| c.kernel == kernel).count() >= 3,
            "too few {kernel} cases"
        );
    }
}

#[test]
fn decision_values_match_libsvm() {
    for case in fixtures().cases {
        let model = fit(&case);
        let scale = case
            .decision_train
            .iter()
            .chain(&case.decision_query)
            .fold(1.0f64, |m, f| m.max(f.abs()));
        let points = case.x.iter().zip(&case.decision_train);
        for (x, &expected) in points.chain(case.query.iter().zip(&case.decision_query)) {
            let got = model.decision_value(*x);
            assert!(
                (got - expected).abs() <= 1e-3 * scale,
                "{}: f({x:?}) = {got}, LIBSVM {expected}",
                case.name
            );
        }
        assert!(
            (model.bias - case.bias).abs() <= 1e-3 * scale,
            "{}: b = {}, LIBSVM {}",
            case.name,
            model.bias,
            case.bias
        );
    }
}

#[test]
fn support_vectors_and_multipliers_match_libsvm() {
    for case in fixtures().cases {
        let model = fit(&case);
        assert_eq!(
            model.support(),
            case.support,
            "{}: support vectors",
            case.name
        );
        for (i, (&got, &expected)) in model.alpha.iter().zip(&case.alpha).enumerate() {
            assert!(
                (got - expected).abs() <= 1e-3 * case.c.max(1.0),
                "{}: alpha[{i}] = {got}, LIBSVM {expected}",
                case.name
            );
        }
    }
}

#[test]
fn warm_start_reaches_the_same_solution() {
    // Fit every case, then warm-start it from the solution of a neighbouring C.
    for case in fixtures().cases {
        let kernel = Kernel::from_name(&case.kernel, case.gamma, case.degree, case.coef0).unwrap();
        let mut trainer = kernel_playground::methods::solvers::svm::SvmTrainer::new();
        let first = SvmParams {
            tol: case.tol,
            ..SvmParams::new(kernel, case.c * 3.0)
        };
        trainer.fit(&case.x, &case.labels, &first).unwrap();
        let params = SvmParams {
            tol: case.tol,
            ..SvmParams::new(kernel, case.c)
        };
        let warm = trainer.fit(&case.x, &case.labels, &params).unwrap();
        assert!(warm.report.warm_start);
        let cold = fit(&case);
        for x in &case.query {
            let (a, b) = (warm.decision_value(*x), cold.decision_value(*x));
            assert!(
                (a - b).abs() <= 1e-4 * b.abs().max(1.0),
                "{}: warm {a}, cold {b}",
                case.name
            );
        }
        assert_eq!(warm.support(), cold.support(), "{}", case.name);
    }
}

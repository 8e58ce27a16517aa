//! Kernel ridge classification agrees with scikit-learn's KernelRidge (β and f within 10⁻⁶,
//! also where K + λI is indefinite and scikit-learn falls back to least squares), and least
//! squares with numpy.linalg.lstsq (w and b within 10⁻⁹, including a rank-deficient design).
//! Fixtures: tests/fixtures/ridge_sklearn.json, made by make_ridge_fixtures.py.

use kernel_playground::core::kernel::Kernel;
use kernel_playground::methods::solvers::kernel_ridge::{KernelRidge, KrrParams};
use kernel_playground::methods::solvers::least_squares::LeastSquares;
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(tag = "method", rename_all = "snake_case")]
enum Case {
    KernelRidge(RidgeCase),
    LeastSquares(LeastSquaresCase),
}

#[derive(Deserialize)]
struct RidgeCase {
    name: String,
    kernel: String,
    lambda: f64,
    gamma: f64,
    degree: u32,
    coef0: f64,
    x: Vec<[f64; 2]>,
    labels: Vec<i32>,
    targets: Vec<f64>,
    query: Vec<[f64; 2]>,
    dual_coef: Vec<f64>,
    decision_train: Vec<f64>,
    decision_query: Vec<f64>,
    positive_definite: bool,
}

#[derive(Deserialize)]
struct LeastSquaresCase {
    name: String,
    x: Vec<[f64; 2]>,
    labels: Vec<i32>,
    query: Vec<[f64; 2]>,
    w: [f64; 2],
    bias: f64,
    residual: f64,
    rank: usize,
    decision_query: Vec<f64>,
}

fn cases() -> Vec<Case> {
    serde_json::from_str::<Fixtures>(include_str!("fixtures/ridge_sklearn.json"))
        .expect("fixture JSON")
        .cases
}

fn assert_close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tol, "{what}[{i}] = {g}, reference {w}");
    }
}

#[test]
fn kernel_ridge_matches_scikit_learn() {
    let cases: Vec<RidgeCase> = cases()
        .into_iter()
        .filter_map(|c| match c {
            Case::KernelRidge(c) => Some(c),
            Case::LeastSquares(_) => None,
        })
        .collect();
    assert!(cases.len() >= 20);
    assert!(cases.iter().any(|c| !c.positive_definite));
    for case in cases {
        let kernel = Kernel::from_name(&case.kernel, case.gamma, case.degree, case.coef0).unwrap();
        let params = KrrParams {
            kernel,
            lambda: case.lambda,
        };
        let model = KernelRidge::fit(&case.x, &case.labels, &params).unwrap();
        let name = &case.name;
        assert_eq!(model.targets, case.targets, "{name}");
        assert_close(
            &model.dual_coef,
            &case.dual_coef,
            1e-6,
            &format!("{name}: β"),
        );
        let query: Vec<f64> = case.query.iter().map(|&q| model.decision(q)).collect();
        assert_close(
            &query,
            &case.decision_query,
            1e-6,
            &format!("{name}: f(query)"),
        );
        let train: Vec<f64> = case.x.iter().map(|&p| model.decision(p)).collect();
        assert_close(
            &train,
            &case.decision_train,
            1e-6,
            &format!("{name}: f(x_i)"),
        );
        assert_close(
            &model.training_decisions(),
            &case.decision_train,
            1e-6,
            &format!("{name}: t − λβ"),
        );
    }
}

#[test]
fn least_squares_matches_lstsq() {
    let cases: Vec<LeastSquaresCase> = cases()
        .into_iter()
        .filter_map(|c| match c {
            Case::LeastSquares(c) => Some(c),
            Case::KernelRidge(_) => None,
        })
        .collect();
    assert!(cases.len() >= 5);
    assert!(
        cases.iter().any(|c| c.rank < 3),
        "want a rank-deficient case"
    );
    for case in cases {
        let model = LeastSquares::fit(&case.x, &case.labels).unwrap();
        let name = &case.name;
        assert_close(&model.w, &case.w, 1e-9, &format!("{name}: w"));
        assert!(
            (model.bias - case.bias).abs() <= 1e-9,
            "{name}: b = {}, lstsq {}",
            model.bias,
            case.bias
        );
        assert!(
            (model.residual - case.residual).abs() <= 1e-9 * case.residual.max(1.0),
            "{name}: residual"
        );
        let query: Vec<f64> = case.query.iter().map(|&q| model.decision(q)).collect();
        assert_close(
            &query,
            &case.decision_query,
            1e-9,
            &format!("{name}: f(query)"),
        );
    }
}

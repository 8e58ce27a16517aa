//! Kernels built by rule against scikit-learn: each expression's Gram matrix equals the same
//! composition of `sklearn.metrics.pairwise`'s kernels, entry by entry (to 10⁻¹² of the
//! matrix's largest entry, at least 1), and the Gram view's λ_min equals `numpy.linalg.eigvalsh`'s
//! (to 10⁻⁹ · tr K): positive semi-definite by the rules, indefinite with a sigmoid base where
//! NumPy finds it so.
//! Fixtures: tests/fixtures/kernel_rules_sklearn.json, made by make_kernel_rules_fixtures.py.

use kernel_playground::core::kernel::{Kernel, PanelParams};
use kernel_playground::views::gram::Gram;
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    expression: String,
    gamma: f64,
    degree: u32,
    coef0: f64,
    points: Vec<[f64; 2]>,
    gram: Vec<f64>,
    lambda_min: f64,
}

#[test]
fn composed_gram_matrices_match_scikit_learn() {
    let fixtures: Fixtures =
        serde_json::from_str(include_str!("fixtures/kernel_rules_sklearn.json"))
            .expect("fixture JSON");
    assert!(fixtures.cases.len() >= 8);
    let mut indefinite = 0;
    for case in fixtures.cases {
        let panel = PanelParams {
            gamma: case.gamma,
            degree: case.degree,
            coef0: case.coef0,
        };
        let kernel = Kernel::composed(&case.expression, panel).expect("the expression reads");
        let gram = Gram::of(kernel, &case.points);
        assert_eq!(gram.matrix.len(), case.gram.len());
        let largest = case.gram.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
        for (k, (got, want)) in gram.matrix.iter().zip(&case.gram).enumerate() {
            assert!(
                (got - want).abs() <= 1e-12 * largest,
                "{}: K[{k}] {got} vs {want}",
                case.expression
            );
        }
        let trace: f64 = (0..gram.n).map(|i| gram.matrix[i * gram.n + i]).sum();
        let got = gram.smallest.value;
        assert!(
            (got - case.lambda_min).abs() <= 1e-9 * trace.abs().max(1.0),
            "{}: λ_min {got} vs {}",
            case.expression,
            case.lambda_min
        );
        if case.lambda_min < -1e-6 * trace.abs() {
            indefinite += 1;
            assert!(case.expression.contains("sigmoid"), "{}", case.expression);
        }
    }
    assert!(indefinite >= 2, "the fixtures show indefinite compositions");
}

//! The Gram view's λ_min agrees with `numpy.linalg.eigvalsh` on scikit-learn's kernel matrices
//! (`sklearn.metrics.pairwise`): exactly (to 1e-9 · tr K) up to `spectrum::EXACT_UP_TO` points,
//! and the Lanczos estimate above that (an upper bound, to 1e-6 · tr K). The first row of each
//! Gram matrix checks the kernel's parameterisation, and the indefinite sigmoid scenes are the
//! ones the view calls "not a Mercer kernel".
//! Fixtures: tests/fixtures/gram_sklearn.json, made by make_gram_fixtures.py.

use kernel_playground::core::kernel::Kernel;
use kernel_playground::core::spectrum::EXACT_UP_TO;
use kernel_playground::views::gram::Gram;
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    points: Vec<[f64; 2]>,
    kernel: String,
    gamma: f64,
    degree: u32,
    coef0: f64,
    first_row: Vec<f64>,
    trace: f64,
    lambda_min: f64,
}

#[test]
fn smallest_eigenvalues_match_numpy() {
    let fixtures: Fixtures =
        serde_json::from_str(include_str!("fixtures/gram_sklearn.json")).expect("fixture JSON");
    assert!(fixtures.cases.len() >= 8);
    let mut indefinite = 0;
    for case in fixtures.cases {
        let kernel =
            Kernel::from_name(&case.kernel, case.gamma, case.degree, case.coef0).expect("kernel");
        let gram = Gram::of(kernel, &case.points);
        let n = case.points.len();
        for (j, want) in case.first_row.iter().enumerate() {
            let got = gram.matrix[j];
            assert!(
                (got - want).abs() <= 1e-12,
                "{}: K[0][{j}] {got} vs {want}",
                case.name
            );
        }
        assert!((gram.trace() - case.trace).abs() <= 1e-9 * n as f64);
        let scale = case.trace.abs().max(1.0);
        let got = gram.smallest.value;
        if n <= EXACT_UP_TO {
            assert!(gram.smallest.exact);
            assert!(
                (got - case.lambda_min).abs() <= 1e-9 * scale,
                "{}: {got} vs {}",
                case.name,
                case.lambda_min
            );
        } else {
            assert!(!gram.smallest.exact);
            assert!(
                got >= case.lambda_min - 1e-9 * scale && got - case.lambda_min <= 1e-6 * scale,
                "{}: Lanczos {got} vs {}",
                case.name,
                case.lambda_min
            );
        }
        let negative = case.lambda_min < -1e-9 * scale;
        assert_eq!(gram.indefinite(), negative, "{}", case.name);
        if negative {
            assert_eq!(
                case.kernel, "sigmoid",
                "only the sigmoid kernel is indefinite"
            );
            indefinite += 1;
        } else {
            assert!(got >= -1e-9 * scale, "{}: PSD to rounding", case.name);
        }
    }
    assert!(indefinite >= 3);
}

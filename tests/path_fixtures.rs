//! The regularisation path agrees with scikit-learn: at several values of C on the path's
//! grid (50 values from 10⁻³ to 10⁴), the α our warm-started path reaches equals the α of a
//! cold `SVC` fit at that C, for a balanced and an imbalanced scene with the linear and the RBF
//! kernel; so do the counts of free and bound support vectors and ‖w‖.
//! Fixtures: tests/fixtures/path_sklearn.json, made by tests/fixtures/make_path_fixtures.py.

use kernel_playground::core::data::Dataset;
use kernel_playground::methods::reg_path::{log_spaced, PathJob, PATH_STEPS};
use kernel_playground::methods::registry;
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    kernel: String,
    gamma: f64,
    x: Vec<[f64; 2]>,
    labels: Vec<i32>,
    steps: Vec<Step>,
}

#[derive(Deserialize)]
struct Step {
    k: usize,
    #[serde(rename = "C")]
    c: f64,
    alpha: Vec<f64>,
    bound: usize,
    free: usize,
    w_norm: f64,
}

#[test]
fn the_path_matches_scikit_learn_at_every_fitted_c() {
    let text = std::fs::read_to_string("tests/fixtures/path_sklearn.json").unwrap();
    let fixtures: Fixtures = serde_json::from_str(&text).unwrap();
    assert_eq!(fixtures.cases.len(), 4);
    for case in &fixtures.cases {
        let mut values = kernel_playground::methods::table::defaults();
        values.set("kernel", &case.kernel).unwrap();
        values.set("gamma", &case.gamma.to_string()).unwrap();
        // Tight enough that α is the optimum's to well within the tolerance below.
        values.set("tol", "1e-6").unwrap();
        let data = Dataset::from_parts(case.x.clone(), case.labels.clone());
        let mut job = PathJob::new(
            registry::method("svm").unwrap(),
            &values,
            &data,
            log_spaced(-3.0, 4.0, PATH_STEPS),
        );
        while job.step() {}
        assert!(job.problem.is_none(), "{}: {:?}", case.name, job.problem);
        for step in &case.steps {
            let name = format!("{} at C = {}", case.name, step.c);
            assert!(
                (job.c[step.k] - step.c).abs() <= 1e-12 * step.c,
                "{name}: the grid"
            );
            let point = job.points[step.k].as_ref().unwrap();
            assert!(point.converged, "{name}");
            let worst = point
                .alpha
                .iter()
                .zip(&step.alpha)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(worst <= 1e-4 * step.c.max(1.0), "{name}: |Δα| = {worst}");
            assert_eq!(point.counts(step.c), (step.free, step.bound), "{name}");
            assert!(
                (point.w_norm - step.w_norm).abs() <= 1e-4 * step.w_norm,
                "{name}: ‖w‖ {} vs {}",
                point.w_norm,
                step.w_norm
            );
        }
    }
}

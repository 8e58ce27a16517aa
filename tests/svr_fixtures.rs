//! Support vector regression against scikit-learn's `SVR` and `NuSVR` (LIBSVM, tol 10⁻⁶, no
//! shrinking): predictions at the training points and on a grid of query points within 10⁻³
//! of max(1, |ref|), α − α* within 10⁻³·C, the same support vectors (a point whose |α − α*| is
//! below 10⁻⁶·C on either side may differ: it sits on the tube's edge, where rounding decides),
//! the bias within 10⁻³ of max(1, |b|) and the dual objective within 10⁻³ of max(1, |obj|);
//! for ν-SVR also the ε found, against the one the generator derives from the free support
//! vectors (within 10⁻³), and the ν-property. Fixtures: tests/fixtures/svr_sklearn.json, made
//! by make_svr_fixtures.py.

#[path = "common/mod.rs"]
mod common;

use common::numbers;
use kernel_playground::core::data::Point;
use kernel_playground::core::kernel::Kernel;
use kernel_playground::methods::solvers::svr::{fit_epsilon_svr, fit_nu_svr, SvrFit};
use serde_json::Value;

/// Enough for every case at tol 10⁻⁶ (scikit-learn needed at most about 10⁴).
const MAX_ITER: usize = 10_000_000;

struct Case {
    name: String,
    kernel: Kernel,
    c: f64,
    tol: f64,
    x: Vec<Point>,
    t: Vec<f64>,
    query: Vec<Point>,
    json: Value,
}

/// Rows of one or two coordinates as points (a 1-D x is [x, 0]).
fn points(v: &Value) -> Vec<Point> {
    let row = |r: &Value| {
        let r = numbers(r);
        [r[0], r.get(1).copied().unwrap_or(0.0)]
    };
    v.as_array().unwrap().iter().map(row).collect()
}

fn cases(kind: &str) -> Vec<Case> {
    let fixtures: Value = serde_json::from_str(include_str!("fixtures/svr_sklearn.json")).unwrap();
    let read = |c: &Value| {
        let number = |key: &str| c[key].as_f64().unwrap();
        let kernel = Kernel::from_name(
            c["kernel"].as_str().unwrap(),
            number("gamma"),
            number("degree") as u32,
            number("coef0"),
        )
        .unwrap();
        Case {
            name: c["name"].as_str().unwrap().to_string(),
            kernel,
            c: number("C"),
            tol: number("tol"),
            x: points(&c["x"]),
            t: numbers(&c["t"]),
            query: points(&c["query"]),
            json: c.clone(),
        }
    };
    fixtures["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == kind)
        .map(read)
        .collect()
}

/// The largest error seen of each kind, relative to what it is checked against.
#[derive(Default, Debug)]
struct Worst {
    prediction: f64,
    dual_coef: f64,
    bias: f64,
    objective: f64,
    epsilon: f64,
    /// Support vectors allowed to differ (|α − α*| below 10⁻⁶·C on one side).
    edge_differences: usize,
}

/// |got − want| / max(1, |want|), failing above 10⁻³.
fn relative(got: f64, want: f64, what: &str) -> f64 {
    let error = (got - want).abs() / want.abs().max(1.0);
    assert!(error <= 1e-3, "{what}: {got} vs {want}");
    error
}

/// Everything both formulations are checked on.
fn compare(case: &Case, fit: &SvrFit, worst: &mut Worst) {
    let name = &case.name;
    assert!(
        fit.converged,
        "{name}: stopped at {} iterations",
        fit.iterations
    );
    let mut want = numbers(&case.json["predict_train"]);
    want.extend(numbers(&case.json["predict_query"]));
    for (k, (x, &want)) in case.x.iter().chain(&case.query).zip(&want).enumerate() {
        let error = relative(fit.predict(*x), want, &format!("{name}: f at {k}"));
        worst.prediction = worst.prediction.max(error);
    }
    let dual_coef = numbers(&case.json["dual_coef"]);
    for (i, (&got, &want)) in fit.dual_coef.iter().zip(&dual_coef).enumerate() {
        let error = (got - want).abs() / case.c;
        assert!(error <= 1e-3, "{name}: α_{i} − α*_{i} = {got} vs {want}");
        worst.dual_coef = worst.dual_coef.max(error);
    }
    // The support vectors, but for points on the tube's edge with a negligible multiplier.
    let support: Vec<usize> = serde_json::from_value(case.json["support"].clone()).unwrap();
    let negligible = |i: usize| dual_coef[i].abs().min(fit.dual_coef[i].abs()) < 1e-6 * case.c;
    let mut differing: Vec<usize> = support
        .iter()
        .filter(|i| !fit.support.contains(i))
        .chain(fit.support.iter().filter(|i| !support.contains(i)))
        .copied()
        .collect();
    differing.sort_unstable();
    for &i in &differing {
        assert!(
            negligible(i),
            "{name}: point {i} is a support vector on one side only ({} vs {})",
            fit.dual_coef[i],
            dual_coef[i]
        );
    }
    worst.edge_differences += differing.len();
    let bias = case.json["bias"].as_f64().unwrap();
    worst.bias = worst
        .bias
        .max(relative(fit.bias, bias, &format!("{name}: b")));
    let objective = case.json["objective"].as_f64().unwrap();
    let error = relative(fit.objective, objective, &format!("{name}: objective"));
    worst.objective = worst.objective.max(error);
    let balance: f64 = fit.dual_coef.iter().sum();
    assert!(
        balance.abs() <= 1e-9 * case.c * case.x.len() as f64,
        "{name}: Σ(α − α*) = {balance}"
    );
}

#[test]
fn epsilon_svr_matches_libsvm() {
    let cases = cases("epsilon");
    assert!(cases.len() >= 15, "{} cases", cases.len());
    let mut worst = Worst::default();
    for case in &cases {
        let epsilon = case.json["epsilon"].as_f64().unwrap();
        let fit = fit_epsilon_svr(
            &case.x,
            &case.t,
            case.kernel,
            case.c,
            epsilon,
            case.tol,
            MAX_ITER,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(fit.epsilon, epsilon);
        compare(case, &fit, &mut worst);
    }
    eprintln!("ε-SVR, {} cases, worst: {worst:?}", cases.len());
}

#[test]
fn nu_svr_matches_libsvm() {
    let cases = cases("nu");
    assert!(cases.len() >= 10, "{} cases", cases.len());
    let mut worst = Worst::default();
    for case in &cases {
        let nu = case.json["nu"].as_f64().unwrap();
        let fit = fit_nu_svr(
            &case.x,
            &case.t,
            case.kernel,
            case.c,
            nu,
            case.tol,
            MAX_ITER,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        compare(case, &fit, &mut worst);
        let derived = case.json["epsilon_derived"].as_f64().unwrap();
        let error = (fit.epsilon - derived).abs();
        assert!(
            error <= 1e-3,
            "{}: ε = {} vs {derived}",
            case.name,
            fit.epsilon
        );
        worst.epsilon = worst.epsilon.max(error);
        // The ν-property, in the lab's own counts.
        let (outside, support) = (fit.outside_fraction(), fit.support_fraction());
        assert!(
            outside <= nu && nu <= support,
            "{}: {outside} ≤ {nu} ≤ {support}",
            case.name
        );
        let total: f64 = fit.alpha.iter().chain(&fit.alpha_star).sum();
        let n = case.x.len() as f64;
        assert!(
            (total - case.c * nu * n).abs() <= 1e-9 * case.c * n,
            "{}: Σ(α + α*) = {total}",
            case.name
        );
    }
    eprintln!("ν-SVR, {} cases, worst: {worst:?}", cases.len());
}

/// The fixtures cover what the task asks for: both formulations, 1-D and 2-D scenes, every
/// kernel, many bound support vectors, few support vectors, ε = 0.
#[test]
fn the_fixtures_cover_the_cases_asked_for() {
    let all: Vec<Case> = cases("epsilon").into_iter().chain(cases("nu")).collect();
    let has = |test: &dyn Fn(&Case) -> bool| all.iter().any(test);
    assert!(has(&|c| c.json["x"][0].as_array().unwrap().len() == 2));
    for kernel in ["linear", "rbf", "poly"] {
        assert!(has(&|c| c.json["kernel"] == kernel));
    }
    let bound = |c: &Case| {
        let coef = numbers(&c.json["dual_coef"]);
        coef.iter()
            .filter(|b| b.abs() >= c.c * (1.0 - 1e-9))
            .count() as f64
            / coef.len() as f64
    };
    assert!(
        has(&|c| bound(c) > 0.8),
        "a case with most points at the bound"
    );
    assert!(
        has(&|c| c.json["support"].as_array().unwrap().len() <= 3),
        "few support vectors"
    );
    assert!(has(&|c| c.json["epsilon"] == 0.0));
    assert!(all.iter().all(|c| (20..=200).contains(&c.x.len())));
}

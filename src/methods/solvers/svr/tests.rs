use super::*;

fn line(x: f64) -> Point {
    [x, 0.0]
}

/// A noisy sine on [−1, 1] (a fixed, irregular jitter: no random numbers needed).
fn sine(n: usize) -> (Vec<Point>, Vec<f64>) {
    let points: Vec<Point> = (0..n)
        .map(|i| line(-1.0 + 2.0 * i as f64 / (n - 1) as f64))
        .collect();
    let targets = points
        .iter()
        .enumerate()
        .map(|(i, p)| (3.0 * p[0]).sin() + 0.1 * ((i * 7919 % 13) as f64 / 6.0 - 1.0))
        .collect();
    (points, targets)
}

#[test]
fn two_points_give_the_flattest_line_through_the_tube() {
    // (0, 0) and (1, 1) with ε = 0.1: the flattest line within the tube is f = 0.8x + 0.1,
    // with w = 0.8 = −α*_1 + α_2 free when C ≥ 0.8.
    let points = [line(0.0), line(1.0)];
    let fit = fit_epsilon_svr(&points, &[0.0, 1.0], Kernel::Linear, 1.0, 0.1, 1e-9, 1000).unwrap();
    assert!(fit.converged);
    assert!((fit.dual_coef[0] + 0.8).abs() < 1e-9, "{:?}", fit.dual_coef);
    assert!((fit.dual_coef[1] - 0.8).abs() < 1e-9);
    assert!((fit.bias - 0.1).abs() < 1e-9, "{}", fit.bias);
    assert_eq!((fit.alpha[0], fit.alpha_star[1]), (0.0, 0.0));
    assert!(fit.is_free(0, 1.0) && fit.is_free(1, 1.0));
    // With C = 0.5 both sit at the bound, outside the tube: w = 0.5, and b may be anywhere
    // in [0.1, 0.4] (f(0) − 0 ≥ ε and 1 − f(1) ≥ ε); LIBSVM takes the middle.
    let fit = fit_epsilon_svr(&points, &[0.0, 1.0], Kernel::Linear, 0.5, 0.1, 1e-9, 1000).unwrap();
    assert_eq!(fit.dual_coef, vec![-0.5, 0.5]);
    assert!((fit.bias - 0.25).abs() < 1e-12, "{}", fit.bias);
    assert!(!fit.is_free(0, 0.5));
    assert_eq!(fit.outside_fraction(), 1.0);
}

#[test]
fn a_tube_wider_than_the_targets_has_no_support_vectors() {
    let (points, targets) = sine(15);
    let fit = fit_epsilon_svr(
        &points,
        &targets,
        Kernel::Rbf { gamma: 2.0 },
        1.0,
        5.0,
        1e-6,
        1000,
    )
    .unwrap();
    assert!(fit.support.is_empty() && fit.expansion.is_empty());
    assert_eq!(fit.iterations, 0);
    // Every b with |t_i − b| ≤ ε is optimal; LIBSVM's is the middle of the targets' range.
    let (lo, hi) = targets
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &t| {
            (l.min(t), h.max(t))
        });
    assert!((fit.bias - (lo + hi) / 2.0).abs() < 1e-12);
    assert_eq!(fit.predict(line(0.3)), fit.bias);
}

/// The objective LIBSVM reports, summed directly from β = α − α*: ½βᵀKβ + ε Σ(α + α*) − tᵀβ.
fn objective_from_beta(fit: &SvrFit, points: &[Point], targets: &[f64], epsilon: f64) -> f64 {
    let n = points.len();
    let mut quadratic = 0.0;
    for i in 0..n {
        for j in 0..n {
            quadratic +=
                fit.dual_coef[i] * fit.dual_coef[j] * fit.kernel.eval(points[i], points[j]);
        }
    }
    let sum: f64 = fit
        .alpha
        .iter()
        .zip(&fit.alpha_star)
        .map(|(a, b)| a + b)
        .sum();
    let fitted: f64 = fit.dual_coef.iter().zip(targets).map(|(b, t)| b * t).sum();
    0.5 * quadratic + epsilon * sum - fitted
}

#[test]
fn the_epsilon_svr_meets_its_kkt_conditions() {
    let (points, targets) = sine(40);
    for (kernel, c, epsilon) in [
        (Kernel::Rbf { gamma: 3.0 }, 1.0, 0.05),
        (Kernel::Linear, 10.0, 0.2),
        (
            Kernel::Polynomial {
                gamma: 1.0,
                degree: 3,
                coef0: 1.0,
            },
            0.1,
            0.0,
        ),
    ] {
        let tol = 1e-8;
        let fit = fit_epsilon_svr(&points, &targets, kernel, c, epsilon, tol, 100_000).unwrap();
        assert!(fit.converged);
        let balance: f64 = fit.dual_coef.iter().sum();
        assert!(
            balance.abs() < 1e-9 * c * points.len() as f64,
            "Σβ = {balance}"
        );
        for i in 0..points.len() {
            let r = targets[i] - fit.predict(points[i]);
            assert!((r - fit.residuals[i]).abs() < 1e-9, "residual {i}");
            for (a, side) in [(fit.alpha[i], r), (fit.alpha_star[i], -r)] {
                let ok = if a == 0.0 {
                    side <= epsilon + 2.0 * tol
                } else if a < c {
                    (side - epsilon).abs() <= 2.0 * tol
                } else {
                    side >= epsilon - 2.0 * tol
                };
                assert!(ok, "{kernel:?}: point {i}, multiplier {a}, side {side}");
            }
        }
        let direct = objective_from_beta(&fit, &points, &targets, epsilon);
        assert!((fit.objective - direct).abs() < 1e-9 * (1.0 + direct.abs()));
    }
}

#[test]
fn the_nu_svr_is_the_epsilon_svr_with_the_tube_it_found() {
    let (points, targets) = sine(50);
    for (kernel, c, nu) in [
        (Kernel::Rbf { gamma: 5.0 }, 1.0, 0.3),
        (Kernel::Linear, 2.0, 0.5),
        (Kernel::Rbf { gamma: 1.0 }, 100.0, 0.1),
    ] {
        let fit = fit_nu_svr(&points, &targets, kernel, c, nu, 1e-9, 100_000).unwrap();
        assert!(fit.converged);
        assert!(fit.epsilon > 0.0, "ε = {}", fit.epsilon);
        let total: f64 = fit.alpha.iter().chain(&fit.alpha_star).sum();
        let n = points.len() as f64;
        assert!(
            (total - c * nu * n).abs() < 1e-9 * c * n,
            "Σ(α + α*) = {total}"
        );
        let (outside, support) = (fit.outside_fraction(), fit.support_fraction());
        assert!(
            outside <= nu && nu <= support,
            "{outside} ≤ {nu} ≤ {support}"
        );
        let again =
            fit_epsilon_svr(&points, &targets, kernel, c, fit.epsilon, 1e-9, 100_000).unwrap();
        for x in [-0.9, -0.2, 0.0, 0.45, 1.1] {
            let (a, b) = (fit.predict(line(x)), again.predict(line(x)));
            assert!((a - b).abs() < 1e-6, "{kernel:?} at {x}: {a} vs {b}");
        }
    }
}

#[test]
fn bad_inputs_are_refused_in_one_line() {
    let (points, targets) = sine(5);
    let rbf = Kernel::Rbf { gamma: 1.0 };
    let eps = |p: &[Point], t: &[f64], k, c, e| fit_epsilon_svr(p, t, k, c, e, 1e-3, 100);
    let message = |r: Result<SvrFit, Error>| r.unwrap_err().to_string();
    assert_eq!(
        message(eps(&points[..1], &targets[..1], rbf, 1.0, 0.1)),
        Error::TooFewPoints.to_string()
    );
    assert!(message(eps(&points, &targets[..3], rbf, 1.0, 0.1)).contains("5 points but 3 targets"));
    let mut bad = points.clone();
    bad[2][0] = f64::NAN;
    assert_eq!(
        message(eps(&bad, &targets, rbf, 1.0, 0.1)),
        "point 3 is not a finite number"
    );
    let mut bad = targets.clone();
    bad[4] = f64::INFINITY;
    assert!(message(eps(&points, &bad, rbf, 1.0, 0.1)).contains("target of point 5"));
    for c in [0.0, -1.0, f64::NAN] {
        assert_eq!(message(eps(&points, &targets, rbf, c, 0.1)), "C <= 0");
    }
    assert!(eps(&points, &targets, rbf, f64::INFINITY, 0.1).is_err());
    for e in [-1e-9, f64::NAN] {
        assert_eq!(message(eps(&points, &targets, rbf, 1.0, e)), "epsilon < 0");
    }
    assert!(eps(&points, &targets, rbf, 1.0, f64::INFINITY).is_err());
    assert_eq!(
        message(eps(&points, &targets, Kernel::Rbf { gamma: 0.0 }, 1.0, 0.1)),
        "gamma <= 0"
    );
    let cubic = Kernel::Polynomial {
        gamma: 1.0,
        degree: 0,
        coef0: 0.0,
    };
    assert!(message(eps(&points, &targets, cubic, 1.0, 0.1)).contains("degree"));
    for nu in [0.0, -0.5, 1.5, f64::NAN] {
        let r = fit_nu_svr(&points, &targets, rbf, 1.0, nu, 1e-3, 100);
        assert_eq!(message(r), "nu must be in (0, 1]");
    }
    assert!(fit_nu_svr(&points, &targets, rbf, 1.0, 1.0, 1e-3, 100).is_ok());
    assert_eq!(
        message(fit_epsilon_svr(&points, &targets, rbf, 1.0, 0.1, 0.0, 100)),
        "tol <= 0"
    );
    let huge = vec![line(1e200), line(-1e200)];
    let deep = Kernel::Polynomial {
        gamma: 1.0,
        degree: 3,
        coef0: 0.0,
    };
    assert!(message(eps(&huge, &[0.0, 1.0], deep, 1.0, 0.1)).contains("overflows"));
}

#[test]
fn the_iteration_cap_is_reported() {
    let (points, targets) = sine(30);
    let fit = fit_epsilon_svr(
        &points,
        &targets,
        Kernel::Rbf { gamma: 10.0 },
        100.0,
        0.01,
        1e-9,
        3,
    )
    .unwrap();
    assert!(!fit.converged);
    assert_eq!(fit.iterations, 3);
    assert!(fit.violation > 1e-9);
}

/// A warm fit ends where a cold one does: the same objective, f and ε, and for ν-SVR each
/// side's multipliers summing to C·ν·n/2; and it took the warm path, in fewer iterations.
fn assert_same_optimum(warm: &SvrFit, cold: &SvrFit, points: &[Point], what: &str) {
    assert!(warm.warm_start && !cold.warm_start, "{what}");
    assert!(warm.converged && cold.converged, "{what}");
    assert!(
        warm.iterations < cold.iterations,
        "{what}: {} warm iterations, {} cold",
        warm.iterations,
        cold.iterations
    );
    let scale = 1.0 + cold.objective.abs();
    assert!(
        (warm.objective - cold.objective).abs() < 1e-9 * scale,
        "{what}: objective {} against {}",
        warm.objective,
        cold.objective
    );
    assert!((warm.epsilon - cold.epsilon).abs() < 1e-6, "{what}: ε");
    for &p in points {
        let (w, c) = (warm.predict(p), cold.predict(p));
        assert!(
            (w - c).abs() < 1e-6,
            "{what}: f({}) = {w} against {c}",
            p[0]
        );
    }
    if let Some(nu) = warm.nu {
        let target = warm.c * nu * points.len() as f64 / 2.0;
        for side in [&warm.alpha, &warm.alpha_star] {
            let sum: f64 = side.iter().sum();
            assert!(
                (sum - target).abs() < 1e-9 * target,
                "{what}: Σ = {sum}, not {target}"
            );
        }
    }
}

/// After a drag and after a step of ν (ν-SVR) or of C (ε-SVR, downwards, where clipping alone
/// would break Σ(α − α*) = 0), a fit from the kept state reaches the cold fit's optimum in
/// fewer iterations; after `forget` and with another number of points it starts cold.
#[test]
fn warm_refits_end_at_the_cold_optimum() {
    let kernel = Kernel::Rbf { gamma: 10.0 };
    for formulation in [Formulation::Nu(0.3), Formulation::Epsilon(0.05)] {
        let (mut points, mut targets) = sine(120);
        let mut problem = SvrProblem {
            kernel,
            c: 2.0,
            formulation,
            tol: 1e-8,
            max_iter: 1_000_000,
        };
        let mut warm = SvrWarmStart::default();
        let cold = |points: &[Point], targets: &[f64], problem: &SvrProblem| {
            fit_svr(points, targets, problem, &mut SvrWarmStart::default()).unwrap()
        };
        let first = fit_svr(&points, &targets, &problem, &mut warm).unwrap();
        assert!(!first.warm_start, "nothing kept yet");
        assert_eq!(
            first,
            cold(&points, &targets, &problem),
            "a first fit is the cold fit"
        );

        points[40] = line(points[40][0] + 0.02);
        targets[40] += 0.3;
        let dragged = fit_svr(&points, &targets, &problem, &mut warm).unwrap();
        let what = format!("{formulation:?}, a drag");
        assert_same_optimum(&dragged, &cold(&points, &targets, &problem), &points, &what);

        for step in [0.04, -0.1] {
            match &mut problem.formulation {
                Formulation::Nu(nu) => *nu += step,
                Formulation::Epsilon(_) => problem.c *= 1.0 + step,
            }
            let stepped = fit_svr(&points, &targets, &problem, &mut warm).unwrap();
            let what = format!("{:?}, C = {}", problem.formulation, problem.c);
            assert_same_optimum(&stepped, &cold(&points, &targets, &problem), &points, &what);
        }

        crate::methods::model::WarmStart::forget(&mut warm);
        let forgotten = fit_svr(&points, &targets, &problem, &mut warm).unwrap();
        assert!(!forgotten.warm_start, "{formulation:?}: after forget");
        let fewer = fit_svr(&points[1..], &targets[1..], &problem, &mut warm).unwrap();
        assert!(!fewer.warm_start, "{formulation:?}: a point fewer");
    }
}

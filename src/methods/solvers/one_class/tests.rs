use super::*;
use crate::core::data::Preset;

fn rbf(gamma: f64) -> Kernel {
    Kernel::Rbf { gamma }
}

fn points(preset: Preset, n: usize, seed: u64) -> Vec<Point> {
    preset.generate(n, 0.3, seed).points
}

/// f(x_i) from the kernel directly (not from the solver's gradient).
fn decision_values(fit: &OneClassFit, points: &[Point]) -> Vec<f64> {
    points
        .iter()
        .map(|&x| {
            let sum: f64 = (0..points.len())
                .map(|j| fit.alpha[j] * fit.kernel.eval(points[j], x))
                .sum();
            sum - fit.rho
        })
        .collect()
}

/// The constraints and the KKT conditions, within `slack` in the units of f.
fn assert_optimal(fit: &OneClassFit, points: &[Point], slack: f64) {
    let n = points.len() as f64;
    let total: f64 = fit.alpha.iter().sum();
    assert!((total - fit.nu * n).abs() <= 1e-9 * n, "Σα = {total}");
    assert!(fit.alpha.iter().all(|a| (0.0..=1.0).contains(a)));
    for (i, f) in decision_values(fit, points).into_iter().enumerate() {
        let a = fit.alpha[i];
        let holds = if a == 0.0 {
            f >= -slack
        } else if a == 1.0 {
            f <= slack
        } else {
            f.abs() <= slack
        };
        assert!(holds, "point {i}: α = {a}, f = {f}");
    }
}

#[test]
fn the_initial_alpha_is_libsvms() {
    // νn = 2.1: two at 1, the third at 0.1.
    let alpha = solver::initial_alpha(7, 0.3);
    let expected = [1.0, 1.0, 0.1, 0.0, 0.0, 0.0, 0.0];
    for (a, e) in alpha.iter().zip(expected) {
        assert!((a - e).abs() < 1e-12, "{alpha:?}");
    }
    // νn a rounding step off a whole number: exactly that many at 1.
    let alpha = solver::initial_alpha(10, 0.7);
    assert_eq!(alpha.iter().filter(|&&a| a == 1.0).count(), 7);
    assert_eq!(alpha.iter().filter(|&&a| a == 0.0).count(), 3);
    // νn < 1: one multiplier carries it all, however small.
    let alpha = solver::initial_alpha(3, 1e-15);
    assert!((alpha[0] - 3e-15).abs() < 1e-28 && alpha[1..] == [0.0, 0.0]);
    assert_eq!(solver::initial_alpha(2, 1.0), vec![1.0, 1.0]);
}

#[test]
fn the_solution_meets_the_kkt_conditions_and_the_nu_property() {
    for (preset, kernel, nu) in [
        (Preset::Moons, rbf(2.0), 0.1),
        (Preset::Rings, rbf(5.0), 0.3),
        (Preset::Blobs3, rbf(0.5), 0.5),
        (Preset::Xor, rbf(1.0), 0.9),
        (
            Preset::Separable,
            Kernel::Polynomial {
                gamma: 1.0,
                degree: 2,
                coef0: 1.0,
            },
            0.2,
        ),
    ] {
        let x = points(preset, 90, 3);
        let fit = fit_one_class(&x, kernel, nu, 1e-8, 100_000).unwrap();
        assert!(fit.converged, "{preset:?}");
        assert_optimal(&fit, &x, 1e-6);
        let (outliers, support) = (fit.outlier_fraction(&x), fit.support_fraction());
        assert!(
            outliers <= nu && nu <= support,
            "{preset:?}: {outliers} ≤ {nu} ≤ {support}"
        );
        // The support is the non-zero α, increasing, and the expansion is f.
        let nonzero: Vec<usize> = (0..x.len()).filter(|&i| fit.alpha[i] > 0.0).collect();
        assert_eq!(fit.support, nonzero);
        for (i, f) in decision_values(&fit, &x).into_iter().enumerate() {
            assert!((fit.decision(x[i]) - f).abs() < 1e-12 * (1.0 + f.abs()));
        }
        for i in 0..x.len() {
            assert_eq!(fit.is_free(i), fit.alpha[i] > 0.0 && fit.alpha[i] < 1.0);
        }
        // The training scores from the gradient are f at the training points.
        for (i, f) in decision_values(&fit, &x).into_iter().enumerate() {
            assert!(
                (fit.scores[i] - f).abs() < 1e-9 * (1.0 + f.abs()),
                "{preset:?} {i}"
            );
        }
        assert_eq!(fit.training_outlier_fraction(), outliers, "{preset:?}");
    }
}

/// ½αᵀKα at the solution is no larger than at feasible points around it (pairs moved
/// against each other), a check of optimality that does not trust the gradient.
#[test]
fn no_feasible_pair_move_lowers_the_objective() {
    let x = points(Preset::Moons, 40, 8);
    let kernel = rbf(3.0);
    let fit = fit_one_class(&x, kernel, 0.25, 1e-10, 100_000).unwrap();
    let gram = kernel.gram(&x);
    let objective = |alpha: &[f64]| {
        let mut sum = 0.0;
        for i in 0..alpha.len() {
            for j in 0..alpha.len() {
                sum += alpha[i] * alpha[j] * gram[i * alpha.len() + j];
            }
        }
        0.5 * sum
    };
    let best = objective(&fit.alpha);
    assert!((best - fit.objective).abs() < 1e-10 * best.max(1.0));
    for i in 0..x.len() {
        for j in 0..x.len() {
            let mut moved = fit.alpha.clone();
            let step = 1e-3f64.min(moved[i]).min(1.0 - moved[j]);
            if i == j || step <= 0.0 {
                continue;
            }
            moved[i] -= step;
            moved[j] += step;
            assert!(objective(&moved) >= best - 1e-12, "{i} → {j}");
        }
    }
}

#[test]
fn nu_one_puts_every_point_at_the_bound_with_the_boundary_through_the_highest() {
    let x = points(Preset::Overlapping, 30, 2);
    let fit = fit_one_class(&x, rbf(1.0), 1.0, 1e-6, 10_000).unwrap();
    assert!(fit.alpha.iter().all(|&a| a == 1.0));
    let f = decision_values(&fit, &x);
    let highest = f.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert!(
        fit.rho.is_finite() && highest.abs() < 1e-12,
        "max f = {highest}"
    );
    assert_eq!(fit.support_fraction(), 1.0);
}

#[test]
fn small_nu_n_is_solved_to_the_same_shape_at_any_scale() {
    // νn < 1: the solution is νn times one that does not depend on ν.
    let x = points(Preset::Rings, 25, 5);
    let at = |nu: f64| fit_one_class(&x, rbf(4.0), nu, 1e-9, 100_000).unwrap();
    let (small, tiny) = (at(0.03), at(1e-12));
    let (n_small, n_tiny) = (0.03 * 25.0, 1e-12 * 25.0);
    assert!(small.converged && tiny.converged);
    for q in [[0.0, 0.0], [0.5, -0.3], x[4], x[11]] {
        let (a, b) = (small.decision(q) / n_small, tiny.decision(q) / n_tiny);
        assert!((a - b).abs() < 1e-6 * a.abs().max(1e-3), "{a} vs {b}");
    }
    assert_eq!(small.support, tiny.support);
    assert!(tiny.support.len() > 1, "the whole problem, not the start");
    assert_optimal(&tiny, &x, 1e-9 * n_tiny);
    assert_eq!(tiny.outlier_fraction(&x), 0.0);
}

#[test]
fn degenerate_scenes_give_valid_answers() {
    // One point: α = ν, the boundary through it.
    let fit = fit_one_class(&[[0.3, -0.2]], rbf(1.0), 0.5, 1e-6, 100).unwrap();
    assert_eq!(fit.alpha, vec![0.5]);
    assert!(fit.decision([0.3, -0.2]).abs() < 1e-15);
    assert!(fit.decision([2.0, 2.0]) < 0.0);
    // Identical points: every feasible α is optimal, and every point lies on the boundary.
    let same = vec![[1.0, 1.0]; 12];
    for kernel in [rbf(2.0), Kernel::Linear] {
        let fit = fit_one_class(&same, kernel, 0.4, 1e-6, 1000).unwrap();
        assert!(fit.converged);
        assert!(same.iter().all(|&x| fit.decision(x).abs() < 1e-12));
        assert_eq!(fit.outlier_fraction(&same), 0.0);
    }
    // ν at the smallest double, and points a whole number range apart.
    let fit = fit_one_class(&same, rbf(1.0), 5e-324, 1e-6, 1000).unwrap();
    assert!(fit.rho.is_finite() && !fit.support.is_empty());
    let far = [[-1e300, 0.0], [1e300, 1e300], [0.0, 0.0]];
    let fit = fit_one_class(&far, rbf(1e-12), 0.5, 1e-6, 1000).unwrap();
    assert!(far.iter().all(|&x| fit.decision(x).is_finite()));
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let x = points(Preset::Moons, 10, 1);
    let refuse = |points: &[Point], kernel, nu, tol| {
        let message = fit_one_class(points, kernel, nu, tol, 100)
            .unwrap_err()
            .to_string();
        assert!(!message.contains('\n'), "{message}");
        message
    };
    assert!(refuse(&[], rbf(1.0), 0.5, 1e-3).contains("at least one point"));
    let mut nan = x.clone();
    nan[3][1] = f64::NAN;
    assert_eq!(
        refuse(&nan, rbf(1.0), 0.5, 1e-3),
        "point 4 is not a finite number"
    );
    for nu in [0.0, -0.1, 1.0 + 1e-12, f64::NAN, f64::INFINITY] {
        assert_eq!(refuse(&x, rbf(1.0), nu, 1e-3), "nu must be in (0, 1]");
    }
    assert_eq!(refuse(&x, rbf(1.0), 0.5, 0.0), "tol <= 0");
    assert_eq!(refuse(&x, rbf(1.0), 0.5, f64::NAN), "tol <= 0");
    for kernel in [
        rbf(0.0),
        rbf(f64::INFINITY),
        Kernel::Sigmoid {
            gamma: -1.0,
            coef0: 0.0,
        },
    ] {
        assert_eq!(refuse(&x, kernel, 0.5, 1e-3), "gamma <= 0");
    }
    let poly = |degree, coef0| Kernel::Polynomial {
        gamma: 1.0,
        degree,
        coef0,
    };
    assert!(refuse(&x, poly(0, 1.0), 0.5, 1e-3).contains("degree"));
    assert!(refuse(&x, poly(11, 1.0), 0.5, 1e-3).contains("degree"));
    assert!(refuse(&x, poly(3, f64::NAN), 0.5, 1e-3).contains("coef0"));
    // K(x, x) = (8·10³⁰)¹⁰ overflows.
    let huge = [[2e15, 2e15], [-2e15, 2e15]];
    assert!(refuse(&huge, poly(10, 0.0), 0.5, 1e-3).contains("overflows"));
    // K = (γ·2·10³⁰)⁸ ≈ 10³⁰⁷ is finite, but ½αᵀKα is not.
    let same = [[1e15, 1e15]; 4];
    let kernel = Kernel::Polynomial {
        gamma: 1.35e8,
        degree: 8,
        coef0: 0.0,
    };
    assert!(refuse(&same, kernel, 0.7, 0.1).contains("overflows"));
}

#[test]
fn the_iteration_cap_is_reported() {
    let x = points(Preset::Spiral3, 120, 4);
    let fit = fit_one_class(&x, rbf(20.0), 0.3, 1e-12, 3).unwrap();
    assert_eq!(fit.iterations, 3);
    assert!(!fit.converged);
    let total: f64 = fit.alpha.iter().sum();
    assert!((total - 0.3 * 120.0).abs() < 1e-9);
}

/// Kept kernel columns, a moved point's entries patched, give the cold fit to the last bit,
/// with a cache of half the columns (so columns are evicted and made again).
#[test]
fn kept_columns_give_the_cold_fit_exactly() {
    use crate::methods::model::WarmStart;
    use crate::methods::solvers::smo::KeptColumns;
    let mut x = points(Preset::Moons, 120, 11);
    let kernel = rbf(2.0);
    let mut kept = KeptColumns {
        cache: KernelCache::new(8 * x.len() * 60),
    };
    let same = |a: &OneClassFit, b: &OneClassFit| {
        assert_eq!(a.alpha, b.alpha);
        assert_eq!(a.rho.to_bits(), b.rho.to_bits());
        assert_eq!(a.scores, b.scores);
        assert_eq!(a.iterations, b.iterations);
    };
    let first = fit_one_class_with(&mut kept.cache, &x, kernel, 0.2, 1e-6, 100_000).unwrap();
    same(
        &first,
        &fit_one_class(&x, kernel, 0.2, 1e-6, 100_000).unwrap(),
    );
    for (step, &i) in [3usize, 40, 3, 97].iter().enumerate() {
        x[i][0] += 0.3;
        x[i][1] -= 0.2;
        kept.point_moved(i, &x);
        let nu = 0.2 + 0.05 * step as f64;
        let warm = fit_one_class_with(&mut kept.cache, &x, kernel, nu, 1e-6, 100_000).unwrap();
        same(
            &warm,
            &fit_one_class(&x, kernel, nu, 1e-6, 100_000).unwrap(),
        );
    }
}

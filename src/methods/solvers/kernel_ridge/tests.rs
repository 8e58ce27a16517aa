use super::*;

#[test]
fn warm_fits_reach_the_cold_solution() {
    let mut data = Preset::Moons.generate(120, 0.3, 2);
    let mut warm = RidgeWarmStart::default();
    let mut params = KrrParams {
        kernel: Kernel::Rbf { gamma: 2.0 },
        lambda: 0.01,
    };
    let first = KernelRidge::fit_warm(&data.points, &data.labels, &params, &mut warm).unwrap();
    assert!(!first.warm_start, "nothing to start from");
    let mut refined = 0;
    for step in 0..12 {
        if step % 2 == 0 {
            params.lambda *= 1.3;
        } else {
            let p = data.points[step];
            data.move_point(step, [p[0] + 0.05, p[1] - 0.03]).unwrap();
        }
        let got = KernelRidge::fit_warm(&data.points, &data.labels, &params, &mut warm).unwrap();
        refined += got.warm_start as usize;
        let cold = KernelRidge::fit(&data.points, &data.labels, &params).unwrap();
        for (a, b) in got.dual_coef.iter().zip(&cold.dual_coef) {
            assert!(
                (a - b).abs() <= 1e-8 * (1.0 + b.abs()),
                "step {step}: {a} vs {b}"
            );
        }
    }
    assert!(
        refined >= 8,
        "conjugate gradients did most of the work ({refined} of 12)"
    );
    warm.forget();
    let settled = KernelRidge::fit_warm(&data.points, &data.labels, &params, &mut warm).unwrap();
    assert!(!settled.warm_start, "after forget the fit is cold");
}
use crate::core::data::Preset;

fn kernels() -> [Kernel; 4] {
    [
        Kernel::Linear,
        Kernel::Polynomial {
            gamma: 1.0,
            degree: 3,
            coef0: 1.0,
        },
        Kernel::Rbf { gamma: 4.0 },
        Kernel::Sigmoid {
            gamma: 2.0,
            coef0: -1.0,
        },
    ]
}

fn fit(data: &Dataset, kernel: Kernel, lambda: f64) -> KernelRidge {
    KernelRidge::fit(&data.points, &data.labels, &KrrParams { kernel, lambda }).unwrap()
}

#[test]
fn training_decisions_equal_direct_evaluation() {
    let data = Preset::Moons.generate(50, 0.3, 2);
    for kernel in kernels() {
        for lambda in [0.01, 0.3, 5.0] {
            let model = fit(&data, kernel, lambda);
            let scale = model.dual_coef.iter().map(|b| b.abs()).sum::<f64>();
            for (i, fast) in model.training_decisions().into_iter().enumerate() {
                let direct = model.decision(data.points[i]);
                assert!(
                    (fast - direct).abs() < 1e-10 * scale.max(1.0),
                    "{kernel:?} λ={lambda}: point {i}: {fast} vs {direct}"
                );
            }
        }
    }
}

#[test]
fn indefinite_systems_are_solved_by_lu() {
    let data = Preset::Moons.generate(50, 0.3, 2);
    let kernel = Kernel::Sigmoid {
        gamma: 2.0,
        coef0: -1.0,
    };
    let lambda = 0.01;
    let mut system = DMatrix::from_vec(50, 50, kernel.gram(&data.points));
    for i in 0..50 {
        system[(i, i)] += lambda;
    }
    assert!(
        system.clone().cholesky().is_none(),
        "the test needs K + λI indefinite"
    );
    let model = fit(&data, kernel, lambda);
    let t: Vec<f64> = data.labels.iter().map(|&l| 2.0 * l as f64 - 1.0).collect();
    let beta = DVector::from_vec(model.dual_coef);
    let residual = &system * &beta - DVector::from_vec(t);
    assert!(residual.amax() < 1e-9, "{}", residual.amax());
}

#[test]
fn a_larger_lambda_shrinks_beta_towards_t_over_lambda() {
    let data = Preset::Xor.generate(40, 0.2, 3);
    let kernel = Kernel::Rbf { gamma: 2.0 };
    let mut previous = f64::INFINITY;
    for lambda in [1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0] {
        let norm = fit(&data, kernel, lambda)
            .dual_coef
            .iter()
            .map(|b| b * b)
            .sum::<f64>()
            .sqrt();
        assert!(norm < previous, "λ={lambda}: ‖β‖ = {norm} ≥ {previous}");
        previous = norm;
    }
    // λβ = t − Kβ, and ‖Kβ‖ ≤ ‖K‖‖t‖/λ: tiny for a huge λ.
    let lambda = 1e6;
    let model = fit(&data, kernel, lambda);
    for (beta, t) in model.dual_coef.iter().zip(&model.targets) {
        assert!((lambda * beta - t).abs() < 1e-4);
    }
}

#[test]
fn linear_kernel_is_ridge_regression_through_the_origin() {
    let data = Preset::Overlapping.generate(30, 0.3, 6);
    let lambda = 0.7;
    let model = fit(&data, Kernel::Linear, lambda);
    // w = (XᵀX + λI)⁻¹Xᵀt, solved as a 2 × 2 system by Cramer's rule.
    let (mut a, mut r) = ([[lambda, 0.0], [0.0, lambda]], [0.0; 2]);
    for (p, t) in data.points.iter().zip(&model.targets) {
        for j in 0..2 {
            r[j] += p[j] * t;
            for k in 0..2 {
                a[j][k] += p[j] * p[k];
            }
        }
    }
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    let w = [
        (a[1][1] * r[0] - a[0][1] * r[1]) / det,
        (a[0][0] * r[1] - a[1][0] * r[0]) / det,
    ];
    for x in [[0.3, -0.8], [1.0, 1.0], [-0.25, 0.5]] {
        let ridge = w[0] * x[0] + w[1] * x[1];
        assert!((model.decision(x) - ridge).abs() < 1e-12, "{x:?}");
    }
    assert_eq!(model.decision([0.0, 0.0]), 0.0);
}

#[test]
fn labels_map_to_targets_as_elsewhere() {
    let points = [[-1.0, 0.0], [-0.5, 0.2], [0.5, -0.1], [1.0, 0.0]];
    let params = KrrParams {
        kernel: Kernel::Linear,
        lambda: 0.1,
    };
    let model = KernelRidge::fit(&points, &[4, 4, -3, -3], &params).unwrap();
    assert_eq!(model.classes, [-3, 4]);
    assert_eq!(model.targets, [1.0, 1.0, -1.0, -1.0]);
    assert_eq!(model.predict([-2.0, 0.0]), 4);
    assert_eq!(model.predict([2.0, 0.0]), -3);
}

#[test]
fn errors() {
    let p = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
    let params = |lambda| KrrParams {
        kernel: Kernel::Rbf { gamma: 1.0 },
        lambda,
    };
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            KernelRidge::fit(&p, &[0, 1, 1], &params(bad))
                .unwrap_err()
                .to_string(),
            "lambda <= 0"
        );
    }
    let fit = |points: &[Point], labels: &[i32]| {
        KernelRidge::fit(points, labels, &params(1.0)).unwrap_err()
    };
    assert_eq!(fit(&p[..1], &[0]), Error::TooFewPoints);
    assert_eq!(fit(&p, &[2, 2, 2]), Error::OneClass);
    assert_eq!(
        fit(&p, &[0, 1, 2]),
        Error::TooManyClasses { found: 3, max: 2 }
    );
    assert_eq!(fit(&p, &[0, 1]).to_string(), "3 points but 2 labels");
    // Two copies of the origin: K = k·(1 1; 1 1) with k = tanh(coef0), and λ = −2k makes
    // K + λI = (−k k; k −k), exactly singular.
    let k = (-0.5f64).tanh();
    let singular = KrrParams {
        kernel: Kernel::Sigmoid {
            gamma: 1.0,
            coef0: -0.5,
        },
        lambda: -2.0 * k,
    };
    let err = KernelRidge::fit(&[[0.0, 0.0], [0.0, 0.0]], &[0, 1], &singular).unwrap_err();
    assert!(err.to_string().contains("singular"), "{err}");
}

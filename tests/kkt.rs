//! The KKT conditions of the soft-margin dual, checked directly on random data for every
//! kernel: 0 ≤ α ≤ C, Σ α_i y_i = 0, and each point's case agrees with its margin y_i f(x_i).

mod common;

use common::kkt;
use kernel_playground::core::data::{Dataset, Preset};
use kernel_playground::core::kernel::Kernel;
use kernel_playground::methods::solvers::svm::{SvmModel, SvmParams};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn random_data(seed: u64, n: usize) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut data = Dataset::new();
    for i in 0..n {
        let p = [rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)];
        // A noisy circle, so every kernel has bound, free and zero multipliers.
        let inside = p[0] * p[0] + p[1] * p[1] < 0.4 + 0.3 * rng.random::<f64>();
        data.push(p, (inside ^ (i % 11 == 0)) as i32).unwrap();
    }
    data
}

fn kernels() -> Vec<Kernel> {
    vec![
        Kernel::Linear,
        Kernel::Polynomial {
            gamma: 1.0,
            degree: 2,
            coef0: 1.0,
        },
        Kernel::Rbf { gamma: 3.0 },
        Kernel::Sigmoid {
            gamma: 0.5,
            coef0: -0.5,
        },
    ]
}

#[test]
fn kkt_conditions_hold_on_random_data() {
    let tol = 1e-6;
    for seed in 0..6 {
        let data = random_data(seed, 80);
        for kernel in kernels() {
            for c in [0.1, 1.0, 30.0] {
                let params = SvmParams {
                    tol,
                    ..SvmParams::new(kernel, c)
                };
                let model = SvmModel::fit(&data.points, &data.labels, &params).unwrap();
                let tolerance = kkt::Tolerance {
                    slack: 10.0 * tol,
                    relative: 0.0,
                };
                let cases = kkt::check(&model, tolerance).unwrap_or_else(|e| panic!("{e}"));
                assert!(cases.bound > 0, "{kernel:?} C={c}: no bound support vector");
            }
        }
    }
}

#[test]
fn linear_duality_gap_closes() {
    // Primal ½‖w‖² + CΣξ equals the dual objective at the optimum.
    for seed in 0..4 {
        let data = Preset::Overlapping.generate(120, 0.3, seed);
        for c in [0.05, 1.0, 20.0] {
            let params = SvmParams {
                tol: 1e-7,
                ..SvmParams::new(Kernel::Linear, c)
            };
            let model = SvmModel::fit(&data.points, &data.labels, &params).unwrap();
            let w = model.w.unwrap();
            let slack: f64 = (0..data.len()).map(|i| model.slack(i)).sum();
            let primal = 0.5 * (w[0] * w[0] + w[1] * w[1]) + c * slack;
            let gap = (primal - model.report.objective) / primal.max(1.0);
            assert!(gap.abs() < 1e-4, "gap {gap}");
        }
    }
}

#[test]
fn tiny_c_stops_rotating_the_boundary() {
    // When C is small enough that every α_i = C, w = C Σ y_i x_i: only its length changes.
    let data = Preset::Overlapping.generate(60, 0.3, 2);
    let direction = |c: f64| {
        let model = SvmModel::fit(
            &data.points,
            &data.labels,
            &SvmParams::new(Kernel::Linear, c),
        )
        .unwrap();
        let w = model.w.unwrap();
        (w[1].atan2(w[0]), w[0].hypot(w[1]))
    };
    let (a1, n1) = direction(1e-4);
    let (a2, n2) = direction(1e-5);
    assert!((a1 - a2).abs() < 1e-6);
    assert!((n1 / n2 - 10.0).abs() < 1e-6);
}

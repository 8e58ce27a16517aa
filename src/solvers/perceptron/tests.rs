use super::*;
use crate::data::Preset;

#[test]
fn separable_data_converge_within_the_novikoff_bound() {
    for seed in 0..5 {
        let data = Preset::Separable.generate(60, 0.0, seed);
        let model = PerceptronModel::fit(
            &data.points,
            &data.labels,
            &PerceptronParams::new(Kernel::Linear, 1000),
        )
        .unwrap();
        assert!(model.converged);
        assert_eq!(model.accuracy(&data.points, &data.labels), 1.0);
        let bound = model.novikoff_bound().expect("separable");
        assert!(
            model.mistakes as f64 <= bound,
            "{} > {bound}",
            model.mistakes
        );
        // Primal and dual agree for the linear kernel.
        let w = model.w.unwrap();
        for &p in &data.points {
            let dual: f64 = (0..data.len())
                .map(|i| {
                    model.alpha[i]
                        * model.y[i]
                        * (data.points[i][0] * p[0] + data.points[i][1] * p[1] + 1.0)
                })
                .sum();
            assert!((w[0] * p[0] + w[1] * p[1] + model.bias - dual).abs() < 1e-9);
        }
    }
}

#[test]
fn kernel_perceptron_grid_matches_its_decision_function() {
    let data = Preset::Xor.generate(60, 0.1, 4);
    for kernel in [
        Kernel::Rbf { gamma: 4.0 },
        Kernel::Polynomial {
            gamma: 1.0,
            degree: 2,
            coef0: 0.5,
        },
    ] {
        let model = PerceptronModel::fit(
            &data.points,
            &data.labels,
            &PerceptronParams::new(kernel, 50),
        )
        .unwrap();
        let grid = Grid::new(crate::field::View::square(1.0), 7, 9);
        let fast = model.grid_evaluator(&grid);
        for r in 0..grid.rows {
            for c in 0..grid.cols {
                let direct: f64 = (0..data.len())
                    .map(|i| {
                        model.alpha[i]
                            * model.y[i]
                            * (kernel.eval(data.points[i], grid.node(r, c)) + 1.0)
                    })
                    .sum();
                assert!(
                    (fast(r, c) - direct).abs() < 1e-9 * direct.abs().max(1.0),
                    "{kernel:?}"
                );
            }
        }
    }
}

#[test]
fn non_separable_data_stop_at_the_epoch_cap() {
    let data = Preset::Overlapping.generate(60, 0.3, 1);
    let model = PerceptronModel::fit(
        &data.points,
        &data.labels,
        &PerceptronParams::new(Kernel::Linear, 25),
    )
    .unwrap();
    assert!(!model.converged);
    assert_eq!(model.epochs, 25);
    assert!(model.novikoff_bound().is_none());
    assert!(model.finished && !model.converged);
}

#[test]
fn novikoff_bound_holds_for_kernels_too() {
    // Separable in the kernel's feature space: the bound is there and never beaten.
    for (preset, kernel) in [
        (Preset::Moons, Kernel::Rbf { gamma: 8.0 }),
        (
            Preset::Rings,
            Kernel::Polynomial {
                gamma: 1.0,
                degree: 2,
                coef0: 0.0,
            },
        ),
    ] {
        for seed in 0..3 {
            let data = preset.generate(100, 0.0, seed);
            let model = PerceptronModel::fit(
                &data.points,
                &data.labels,
                &PerceptronParams::new(kernel, 2000),
            )
            .unwrap();
            assert!(model.converged, "{preset:?} {seed}");
            let bound = model.novikoff_bound().expect("separable, so a bound");
            assert!(
                model.mistakes as f64 <= bound,
                "{} > {bound}",
                model.mistakes
            );
        }
    }
}

#[test]
fn kernel_runs_stop_at_the_work_budget() {
    let data = Preset::Overlapping.generate(2000, 0.5, 1);
    let model = PerceptronModel::fit(
        &data.points,
        &data.labels,
        &PerceptronParams::new(Kernel::Rbf { gamma: 1.0 }, 10_000),
    )
    .unwrap();
    assert!(model.out_of_work && model.finished && !model.converged);
    assert!(model.mistakes * data.len() <= WORK_LIMIT + data.len());
}

#[test]
fn kernel_perceptron_separates_rings() {
    let data = Preset::Rings.generate(80, 0.0, 3);
    let kernel = Kernel::Polynomial {
        gamma: 1.0,
        degree: 2,
        coef0: 0.0,
    };
    let model = PerceptronModel::fit(
        &data.points,
        &data.labels,
        &PerceptronParams::new(kernel, 500),
    )
    .unwrap();
    assert!(model.converged);
    assert_eq!(model.accuracy(&data.points, &data.labels), 1.0);
    let linear = PerceptronModel::fit(
        &data.points,
        &data.labels,
        &PerceptronParams::new(Kernel::Linear, 50),
    )
    .unwrap();
    assert!(!linear.converged);
}

#[test]
fn stepping_replays_the_run_update_by_update() {
    let data = Preset::Separable.generate(30, 0.1, 2);
    let params = PerceptronParams::new(Kernel::Linear, 100);
    let full = PerceptronModel::fit(&data.points, &data.labels, &params).unwrap();
    let mut previous = 0.0;
    for updates in 0..full.mistakes {
        let partial = PerceptronModel::fit(
            &data.points,
            &data.labels,
            &PerceptronParams {
                max_updates: Some(updates + 1),
                ..params
            },
        )
        .unwrap();
        assert_eq!(partial.mistakes, updates + 1);
        let i = partial.last_update.expect("stopped at an update");
        // The highlighted point was misclassified before its update.
        let total: f64 = partial.alpha.iter().sum();
        assert_eq!(total, previous + 1.0);
        assert!(partial.alpha[i] >= 1.0);
        previous = total;
    }
}

#[test]
fn margin_through_origin_of_two_points() {
    // x̃ = (±1, 0, 1): the best separator through the origin is w̃ = (1, 0, 0), γ = 1.
    let gamma = max_margin_through_origin(&[[-1.0, 0.0], [1.0, 0.0]], &[-1.0, 1.0], Kernel::Linear)
        .unwrap();
    assert!((gamma - 1.0).abs() < 1e-6, "{gamma}");
}

use super::*;

#[test]
fn warm_starts_after_a_new_c_do_not_lose_to_cold_ones() {
    // Overlapping classes and small C: most multipliers sit at the bound, where scaling α
    // by C_new/C_old keeps them there.
    let data = crate::core::data::Preset::Overlapping.generate(200, 0.6, 3);
    for (from, to) in [(0.05, 0.1), (0.1, 0.3), (1.0, 2.0), (3.0, 1.0)] {
        let mut trainer = SvmTrainer::new();
        let params = |c| SvmParams::new(Kernel::Rbf { gamma: 1.0 }, c);
        trainer
            .fit(&data.points, &data.labels, &params(from))
            .unwrap();
        let warm = trainer
            .fit(&data.points, &data.labels, &params(to))
            .unwrap();
        let cold = SvmModel::fit(&data.points, &data.labels, &params(to)).unwrap();
        assert!(warm.report.warm_start);
        assert!(
            warm.report.iterations <= cold.report.iterations,
            "C {from} → {to}: warm {} vs cold {} iterations",
            warm.report.iterations,
            cold.report.iterations
        );
        assert!(
            (warm.report.objective - cold.report.objective).abs()
                < 1e-3 * (1.0 + cold.report.objective.abs())
        );
    }
}
use crate::core::data::Preset;

fn rbf(gamma: f64) -> Kernel {
    Kernel::Rbf { gamma }
}

#[test]
fn dca_and_pegasos_models_are_their_solutions_with_the_bias_absorbed() {
    use crate::methods::solvers::dca::{dual_coordinate_ascent, pegasos};
    use crate::methods::solvers::no_bias::{DCA_SEED, PEGASOS_SEED};
    let data = Preset::Overlapping.generate(60, 0.4, 2);
    let (_, y) = data.binary_targets().unwrap();
    for kernel in [Kernel::Linear, rbf(1.5)] {
        for name in ["dca", "pegasos"] {
            let params = SvmParams {
                solver: SvmSolver::from_name(name).unwrap(),
                ..SvmParams::new(kernel, 2.0)
            };
            let model = SvmModel::fit(&data.points, &data.labels, &params).unwrap();
            let direct = if name == "dca" {
                dual_coordinate_ascent(kernel, &data.points, &y, 2.0, 1e-3, 100_000, DCA_SEED)
            } else {
                pegasos(
                    kernel,
                    &data.points,
                    &y,
                    2.0,
                    PEGASOS_STEPS,
                    0,
                    PEGASOS_SEED,
                )
            };
            for x in [[0.3, -0.2], [-1.0, 0.5], data.points[7]] {
                let want = direct.decision(kernel, &data.points, x);
                let got = model.decision_value(x);
                assert!((got - want).abs() < 1e-9 * (1.0 + want.abs()), "{name}");
            }
            if kernel.is_linear() {
                let (w, b) = direct.linear_weights(&data.points);
                let got = model.w.unwrap();
                assert!((got[0] - w[0]).abs() < 1e-9 && (got[1] - w[1]).abs() < 1e-9);
                assert!(
                    (model.bias - b).abs() < 1e-9,
                    "{name}: b {} vs {b}",
                    model.bias
                );
            }
        }
    }
}

#[test]
fn two_points_give_the_textbook_answer() {
    // x = ±(1, 0): w = (1, 0), b = 0, margin width 2, both α = ½.
    let model = SvmModel::fit(
        &[[-1.0, 0.0], [1.0, 0.0]],
        &[0, 1],
        &SvmParams::new(Kernel::Linear, f64::INFINITY),
    )
    .unwrap();
    let w = model.w.unwrap();
    assert!((w[0] - 1.0).abs() < 1e-9 && w[1].abs() < 1e-9);
    assert!(model.bias.abs() < 1e-9);
    assert!((model.margin_width().unwrap() - 2.0).abs() < 1e-9);
    assert!((model.alpha[0] - 0.5).abs() < 1e-9);
    assert!(model.hard_margin && model.report.exit == ExitReason::Converged);
}

#[test]
fn the_status_line_reads_the_margin_and_its_width_and_keeps_the_solver_inside() {
    // x = ±(1, 0): the margin 1/‖w‖ is 1 and its width 2/‖w‖ is 2.
    let data = Dataset::from_parts(vec![[-1.0, 0.0], [1.0, 0.0]], vec![0, 1]);
    let model = SvmModel::fit(
        &data.points,
        &data.labels,
        &SvmParams::new(Kernel::Linear, f64::INFINITY),
    )
    .unwrap();
    let facts = model.facts(&data);
    let fact = |key: &str| facts.iter().find(|f| f.key == key && !f.label.is_empty());
    let number = |key: &str| match fact(key).unwrap().value {
        crate::methods::model::FactValue::Number(v) => v,
        ref v => panic!("{key}: {v:?}"),
    };
    assert!((number("margin") - 1.0).abs() < 1e-9);
    assert!((number("margin_width") - 2.0).abs() < 1e-9);
    for key in ["support", "margin", "margin_width", "w", "bias"] {
        assert!(!fact(key).unwrap().inside, "{key} is in the headline");
    }
    for key in ["objective", "iterations"] {
        assert!(fact(key).unwrap().inside, "{key} is an inside number");
    }
}

#[test]
fn tiny_multipliers_survive_a_hard_margin() {
    // x = ±(1000, 0): w = (10⁻³, 0), α = ‖w‖²/2 = 5·10⁻⁷ each, far below 10⁻¹²·C for C = 10⁶.
    let model = SvmModel::fit(
        &[[-1000.0, 0.0], [1000.0, 0.0]],
        &[0, 1],
        &SvmParams::new(Kernel::Linear, f64::INFINITY),
    )
    .unwrap();
    assert!((model.alpha[0] - 5e-7).abs() < 1e-15);
    assert!((model.w.unwrap()[0] - 1e-3).abs() < 1e-12);
}

#[test]
fn training_accuracy_from_the_gradient_is_the_evaluated_one() {
    for (preset, kernel, c) in [
        (Preset::Moons, Kernel::Rbf { gamma: 1.0 }, 1.0),
        (Preset::Overlapping, Kernel::Linear, 0.1),
        (Preset::Xor, Kernel::Rbf { gamma: 30.0 }, 1000.0),
    ] {
        for seed in 0..3 {
            let data = preset.generate(300, 0.5, seed);
            let model =
                SvmModel::fit(&data.points, &data.labels, &SvmParams::new(kernel, c)).unwrap();
            assert_eq!(
                model.training_accuracy(&data),
                model.accuracy(&data.points, &data.labels),
                "{preset:?} {kernel:?} C = {c} seed {seed}"
            );
        }
    }
}

#[test]
fn hard_margin_refuses_non_separable_data() {
    // The same point with both labels can never be separated, by any kernel.
    let points = [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [-1.0, -1.0]];
    for kernel in [
        Kernel::Linear,
        Kernel::Rbf { gamma: 1.0 },
        Kernel::Polynomial {
            gamma: 1.0,
            degree: 2,
            coef0: 1.0,
        },
    ] {
        let err = SvmModel::fit(
            &points,
            &[0, 1, 1, 0],
            &SvmParams::new(kernel, f64::INFINITY),
        )
        .unwrap_err();
        assert!(matches!(err, Error::NotSeparable(_)), "{kernel:?}: {err}");
    }
    // XOR: no line, but a degree-2 polynomial separates it.
    let xor = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]];
    let labels = [0, 0, 1, 1];
    let linear = SvmParams::new(Kernel::Linear, f64::INFINITY);
    assert!(SvmModel::fit(&xor, &labels, &linear)
        .unwrap_err()
        .to_string()
        .contains("convex hulls meet"));
    let poly = SvmParams::new(
        Kernel::Polynomial {
            gamma: 1.0,
            degree: 2,
            coef0: 0.0,
        },
        f64::INFINITY,
    );
    let model = SvmModel::fit(&xor, &labels, &poly).unwrap();
    assert_eq!(model.accuracy(&xor, &labels), 1.0);
}

#[test]
fn hard_margin_solves_separable_data_needing_huge_multipliers() {
    // Two columns of points 2·10⁻⁶ apart: ‖w‖ = 10⁶, so Σα = ‖w‖² = 10¹², far beyond any
    // stand-in C of old; the margins still come out at exactly ±1.
    let gap = 1e-6;
    let points = [
        [-gap, 0.0],
        [-gap, 1.0],
        [-0.5, 0.5],
        [gap, 0.0],
        [gap, -1.0],
        [0.5, 0.3],
    ];
    let labels = [0, 0, 0, 1, 1, 1];
    let model = SvmModel::fit(
        &points,
        &labels,
        &SvmParams::new(Kernel::Linear, f64::INFINITY),
    )
    .unwrap();
    assert_eq!(model.report.exit, ExitReason::Converged);
    let total: f64 = model.alpha.iter().sum();
    assert!((total / 1e12 - 1.0).abs() < 1e-3, "Σα = {total}");
    assert!((model.margin_width().unwrap() - 2.0 * gap).abs() < 1e-9);
    for (i, p) in points.iter().enumerate() {
        let yf = model.y[i] * model.decision_value(*p);
        assert!(yf >= 1.0 - 1e-3, "point {i}: y f = {yf}");
    }
}

#[test]
fn rejects_bad_parameters_and_data() {
    let p = [[0.0, 0.0], [1.0, 1.0]];
    assert_eq!(
        SvmModel::fit(&p, &[0, 1], &SvmParams::new(Kernel::Linear, 0.0))
            .unwrap_err()
            .to_string(),
        "C <= 0"
    );
    assert_eq!(
        SvmModel::fit(&p, &[1, 1], &SvmParams::new(Kernel::Linear, 1.0)).unwrap_err(),
        Error::OneClass
    );
    assert!(SvmModel::fit(
        &[[f64::NAN, 0.0], [1.0, 1.0]],
        &[0, 1],
        &SvmParams::new(Kernel::Linear, 1.0)
    )
    .is_err());
}

#[test]
fn separable_rbf_grid_matches_direct_evaluation() {
    let data = Preset::Moons.generate(60, 0.3, 3);
    let model = SvmModel::fit(&data.points, &data.labels, &SvmParams::new(rbf(3.0), 1.0)).unwrap();
    let grid = Grid::new(crate::core::field::View::square(1.2), 17, 13);
    let fast = model.grid_evaluator(&grid);
    for row in 0..grid.rows {
        for col in 0..grid.cols {
            let direct = model.decision_value(grid.node(row, col));
            assert!((fast(row, col) - direct).abs() < 1e-12);
        }
    }
}

#[test]
fn gradient_matches_finite_differences() {
    let data = Preset::Xor.generate(40, 0.2, 1);
    for kernel in [
        Kernel::Linear,
        rbf(2.0),
        Kernel::Polynomial {
            gamma: 1.0,
            degree: 3,
            coef0: 1.0,
        },
        Kernel::Sigmoid {
            gamma: 0.5,
            coef0: -0.5,
        },
    ] {
        let model =
            SvmModel::fit(&data.points, &data.labels, &SvmParams::new(kernel, 1.0)).unwrap();
        let x = [0.23, -0.41];
        let h = 1e-6;
        let g = model.gradient(x);
        let fd = [
            (model.decision_value([x[0] + h, x[1]]) - model.decision_value([x[0] - h, x[1]]))
                / (2.0 * h),
            (model.decision_value([x[0], x[1] + h]) - model.decision_value([x[0], x[1] - h]))
                / (2.0 * h),
        ];
        for k in 0..2 {
            assert!(
                (g[k] - fd[k]).abs() < 1e-5 * (1.0 + fd[k].abs()),
                "{kernel:?}"
            );
        }
    }
}

#[test]
fn slack_segments_end_on_the_own_margin() {
    let data = Preset::Overlapping.generate(80, 0.2, 5);
    for kernel in [Kernel::Linear, rbf(2.0)] {
        let model =
            SvmModel::fit(&data.points, &data.labels, &SvmParams::new(kernel, 1.0)).unwrap();
        let mut checked = 0;
        for i in model.bound() {
            if let Some((start, end)) = model.slack_segment(i) {
                assert_eq!(start, data.points[i]);
                assert!((model.decision_value(end) - model.y[i]).abs() < 1e-4);
                checked += 1;
            }
        }
        assert!(checked > 3, "{kernel:?}: only {checked} segments");
        if let Some(w) = model.w {
            // Linear: the segment's length is ξ/‖w‖.
            let i = model.bound()[0];
            let (s, e) = model.slack_segment(i).unwrap();
            let length = (e[0] - s[0]).hypot(e[1] - s[1]);
            assert!((length - model.slack(i) / w[0].hypot(w[1])).abs() < 1e-9);
        }
    }
}

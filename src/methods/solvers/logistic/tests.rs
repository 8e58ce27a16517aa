use super::*;
use crate::core::data::Preset;
use crate::core::field::Grid;
use crate::methods::model::{ExitReason, Model};

#[test]
fn newton_and_gradient_descent_reach_the_same_optimum() {
    let data = Preset::Overlapping.generate(80, 0.2, 4);
    // (The RBF basis is too ill-conditioned for plain gradient descent to reach a tight
    // tolerance in a test's time; Newton is the default there.)
    for features in [Features::Linear, Features::Polynomial { degree: 2 }] {
        let newton = LogisticModel::fit(
            &data.points,
            &data.labels,
            &LogisticParams::new(features, 0.5),
        )
        .unwrap();
        assert_eq!(newton.report.exit, ExitReason::Converged);
        let gd = LogisticModel::fit(
            &data.points,
            &data.labels,
            &LogisticParams {
                solver: Solver::GradientDescent { learning_rate: 1.0 },
                tol: 1e-6,
                max_iter: Some(400_000),
                ..LogisticParams::new(features, 0.5)
            },
        )
        .unwrap();
        assert_eq!(gd.report.exit, ExitReason::Converged, "{features:?}");
        assert!(
            (newton.objective - gd.objective).abs() < 1e-6 * newton.objective,
            "{features:?}"
        );
        for (a, b) in newton.weights.iter().zip(&gd.weights) {
            assert!((a - b).abs() < 1e-3, "{features:?}: {a} vs {b}");
        }
    }
}

#[test]
fn rbf_grid_evaluation_matches_the_model() {
    let data = Preset::Rings.generate(120, 0.1, 2);
    let model = LogisticModel::fit(
        &data.points,
        &data.labels,
        &LogisticParams::new(Features::Rbf { gamma: 3.0 }, 0.1),
    )
    .unwrap();
    assert!(model.accuracy(&data.points, &data.labels) > 0.9);
    let grid = Grid::new(crate::core::field::View::square(1.0), 9, 11);
    let fast = model.grid_evaluator(&grid);
    for r in 0..grid.rows {
        for c in 0..grid.cols {
            assert!((fast(r, c) - model.decision_value(grid.node(r, c))).abs() < 1e-9);
        }
    }
}

#[test]
fn polynomial_features_follow_scikit_learn_order() {
    let map = FeatureMap::new(Features::Polynomial { degree: 3 }, &[]);
    assert_eq!(
        map.names(),
        ["x1", "x2", "x1^2", "x1 x2", "x2^2", "x1^3", "x1^2 x2", "x1 x2^2", "x2^3"]
    );
    let mut out = vec![0.0; map.len()];
    map.expand([2.0, 3.0], &mut out);
    assert_eq!(out, vec![2.0, 3.0, 4.0, 6.0, 9.0, 8.0, 12.0, 18.0, 27.0]);
}

#[test]
fn weights_stay_finite_on_separable_data() {
    // Separable data with a tiny λ: the penalty alone keeps w finite, and it is large.
    let data = Preset::Separable.generate(40, 0.0, 1);
    let model = LogisticModel::fit(
        &data.points,
        &data.labels,
        &LogisticParams::new(Features::Linear, 1e-4),
    )
    .unwrap();
    let w = model.w().unwrap();
    assert!(w[0].hypot(w[1]) > 10.0 && w[0].is_finite());
    assert_eq!(model.accuracy(&data.points, &data.labels), 1.0);
}

#[test]
fn rejects_bad_parameters() {
    let p = [[0.0, 0.0], [1.0, 1.0]];
    let bad = LogisticParams::new(Features::Linear, 0.0);
    assert_eq!(
        LogisticModel::fit(&p, &[0, 1], &bad)
            .unwrap_err()
            .to_string(),
        "lambda <= 0"
    );
    let huge = LogisticParams {
        solver: Solver::GradientDescent { learning_rate: 1e9 },
        ..LogisticParams::new(Features::Polynomial { degree: 6 }, 1e-4)
    };
    let data = Preset::Moons.generate(40, 0.1, 1);
    let err = LogisticModel::fit(&data.points, &data.labels, &huge).unwrap_err();
    assert!(err.to_string().contains("learning rate"));
}

#[test]
fn stepping_on_costs_one_iteration_and_matches_a_run_from_the_start() {
    let data = Preset::Moons.generate(40, 0.2, 3);
    for solver in [
        Solver::GradientDescent { learning_rate: 0.5 },
        Solver::Newton,
    ] {
        let params = |k| LogisticParams {
            solver,
            max_iter: Some(k),
            ..LogisticParams::new(Features::Polynomial { degree: 3 }, 0.01)
        };
        let mut kept = LogisticTrainer::new();
        let mut k = 0;
        loop {
            let before = kept.iterations_done;
            let stepped = kept.fit(&data.points, &data.labels, &params(k)).unwrap();
            let mut fresh_trainer = LogisticTrainer::new();
            let fresh = fresh_trainer
                .fit(&data.points, &data.labels, &params(k))
                .unwrap();
            assert_eq!(fresh_trainer.iterations_done, fresh.report.iterations);
            assert_eq!(
                stepped.weights, fresh.weights,
                "{solver:?}: θ after {k} steps"
            );
            assert_eq!(stepped.bias, fresh.bias);
            assert_eq!(stepped.report.iterations, fresh.report.iterations);
            if k > 0 && stepped.report.exit != ExitReason::Converged {
                assert_eq!(
                    kept.iterations_done - before,
                    1,
                    "{solver:?}: step {k} took one iteration"
                );
            }
            if stepped.report.exit == ExitReason::Converged || k == 60 {
                break;
            }
            k += 1;
        }
        assert!(k >= 5, "{solver:?}: only {k} steps");
    }
    // Other points, or other parameters, start again from θ = 0.
    let mut kept = LogisticTrainer::new();
    let params = LogisticParams {
        solver: Solver::GradientDescent { learning_rate: 0.5 },
        max_iter: Some(5),
        ..LogisticParams::new(Features::Linear, 0.01)
    };
    kept.fit(&data.points, &data.labels, &params).unwrap();
    let moved = Preset::Moons.generate(40, 0.2, 4);
    kept.fit(
        &moved.points,
        &moved.labels,
        &LogisticParams {
            max_iter: Some(6),
            ..params
        },
    )
    .unwrap();
    assert_eq!(kept.iterations_done, 5 + 6);
}

/// A trainer starts Newton from the last fit's θ while λ changes or a point is dragged: the
/// same minimum to the tolerance in fewer iterations, said to be warm; after `forget` (the
/// end of an interaction) the fit is the cold one to the last bit.
#[test]
fn newton_starts_from_the_last_fit_until_forgotten() {
    use crate::methods::model::WarmStart;
    let mut data = Preset::Overlapping.generate(120, 0.3, 6);
    let params = |lambda| LogisticParams::new(Features::Polynomial { degree: 3 }, lambda);
    let mut trainer = LogisticTrainer::new();
    let first = trainer
        .fit(&data.points, &data.labels, &params(0.01))
        .unwrap();
    assert!(!first.warm_started());
    // Both runs stop at ‖∇J‖ ≤ tol · J(0), and J's curvature is at least λ: each θ is within
    // tol · J(0)/λ of the minimum.
    let close = |a: &LogisticModel, b: &LogisticModel| {
        let bound = 2.0 * params(a.lambda).tol * 120.0 * 2f64.ln() / a.lambda;
        a.weights
            .iter()
            .zip(&b.weights)
            .all(|(x, y)| (x - y).abs() < bound)
            && (a.bias - b.bias).abs() < bound
            && (a.objective - b.objective).abs() < 1e-12 * b.objective
    };
    for lambda in [0.012, 0.015] {
        let warm = trainer
            .fit(&data.points, &data.labels, &params(lambda))
            .unwrap();
        let cold = LogisticModel::fit(&data.points, &data.labels, &params(lambda)).unwrap();
        assert!(warm.warm_started());
        assert_eq!(warm.report.exit, ExitReason::Converged);
        assert!(warm.report.iterations < cold.report.iterations, "{lambda}");
        assert!(close(&warm, &cold), "{lambda}");
    }
    data.points[3][0] += 0.2;
    trainer.point_moved(3, &data.points);
    let dragged = trainer
        .fit(&data.points, &data.labels, &params(0.015))
        .unwrap();
    let cold = LogisticModel::fit(&data.points, &data.labels, &params(0.015)).unwrap();
    assert!(dragged.warm_started() && close(&dragged, &cold));
    trainer.forget();
    let settled = trainer
        .fit(&data.points, &data.labels, &params(0.015))
        .unwrap();
    assert!(!settled.warm_started());
    assert_eq!((settled.weights, settled.bias), (cold.weights, cold.bias));
}

/// The softmax model starts from its own last θ too.
#[test]
fn softmax_starts_from_its_own_last_fit() {
    let data = Preset::Blobs3.generate(90, 0.4, 2);
    let params = |lambda| LogisticParams {
        multi: MultiClass::Multinomial,
        ..LogisticParams::new(Features::Polynomial { degree: 2 }, lambda)
    };
    let mut trainer = LogisticTrainer::new();
    let first = trainer
        .fit_softmax(&data.points, &data.labels, &params(0.1))
        .unwrap();
    let warm = trainer
        .fit_softmax(&data.points, &data.labels, &params(0.12))
        .unwrap();
    let cold =
        super::softmax::SoftmaxModel::fit(&data.points, &data.labels, &params(0.12)).unwrap();
    assert!(!first.warm_started() && warm.warm_started());
    assert!(warm.report.iterations < cold.report.iterations);
    assert!((warm.objective - cold.objective).abs() < 1e-12 * cold.objective);
}

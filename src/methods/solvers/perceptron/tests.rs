use super::*;
use crate::core::data::{Dataset, Preset};

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
        let grid = Grid::new(crate::core::field::View::square(1.0), 7, 9);
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

/// Everything a fitted perceptron shows, compared bit for bit.
fn assert_same_run(resumed: &PerceptronModel, fresh: &PerceptronModel, what: &str) {
    assert_eq!(resumed.alpha, fresh.alpha, "{what}: α");
    assert_eq!(resumed.w, fresh.w, "{what}: w");
    assert_eq!(resumed.bias, fresh.bias, "{what}: b");
    assert_eq!(resumed.mistakes, fresh.mistakes, "{what}: mistakes");
    assert_eq!(resumed.epochs, fresh.epochs, "{what}: epochs");
    assert_eq!(
        resumed.last_update, fresh.last_update,
        "{what}: last update"
    );
    assert_eq!(resumed.converged, fresh.converged, "{what}: converged");
    assert_eq!(resumed.finished, fresh.finished, "{what}: finished");
    assert_eq!(
        resumed.out_of_work, fresh.out_of_work,
        "{what}: out of work"
    );
    assert_eq!(resumed.trace, fresh.trace, "{what}: trace");
    assert_eq!(resumed.report, fresh.report, "{what}: report");
    assert_eq!(
        resumed.novikoff_bound(),
        fresh.novikoff_bound(),
        "{what}: Novikoff's bound"
    );
    for &p in &fresh.points {
        assert_eq!(resumed.decision_value(p), fresh.decision_value(p), "{what}");
    }
}

/// Points labelled by the side of a line, none within 0.02 of it: separable, with a margin
/// thin enough that the perceptron takes many updates and epochs.
fn thin_margin() -> Dataset {
    let cloud = Preset::Overlapping.generate(40, 0.3, 5);
    let (points, labels) = cloud
        .points
        .iter()
        .filter_map(|&p| {
            let side = p[0] - 0.5 * p[1] - 0.1;
            (side.abs() > 0.02).then_some((p, i32::from(side > 0.0)))
        })
        .unzip();
    Dataset::from_parts(points, labels)
}

/// The runs the stepping tests walk through: the linear and an RBF kernel, each on data it
/// separates and on data it does not (those end at the epoch cap).
fn stepping_cases() -> Vec<(&'static str, Dataset, PerceptronParams, bool)> {
    let rbf = Kernel::Rbf { gamma: 0.5 };
    vec![
        (
            "linear, separable",
            thin_margin(),
            PerceptronParams::new(Kernel::Linear, 1000),
            true,
        ),
        (
            "linear, overlapping",
            Preset::Overlapping.generate(30, 0.3, 1),
            PerceptronParams::new(Kernel::Linear, 4),
            false,
        ),
        (
            "RBF, moons",
            Preset::Moons.generate(40, 0.0, 0),
            PerceptronParams::new(rbf, 200),
            true,
        ),
        (
            "RBF, overlapping",
            Preset::Overlapping.generate(40, 0.5, 1),
            PerceptronParams::new(rbf, 3),
            false,
        ),
    ]
}

#[test]
fn stepping_on_costs_one_update_and_matches_a_run_from_the_start() {
    for (what, data, params, separable) in stepping_cases() {
        let at = |k: Option<usize>| PerceptronParams {
            max_updates: k,
            record: true,
            ..params
        };
        let mut whole_trainer = PerceptronTrainer::new();
        let whole = whole_trainer
            .fit(&data.points, &data.labels, &at(None))
            .unwrap();
        assert_eq!(whole.converged, separable, "{what}");
        assert!(whole.mistakes >= 10, "{what}: {} updates", whole.mistakes);
        assert!(whole.epochs >= 3, "{what}: {} epochs", whole.epochs);

        let mut kept = PerceptronTrainer::new();
        // Two steps past the end: the run has ended, and stepping on changes nothing.
        for k in 0..=whole.mistakes + 2 {
            let (updates, visits) = (kept.updates, kept.visits);
            let stepped = kept.fit(&data.points, &data.labels, &at(Some(k))).unwrap();
            let mut fresh_trainer = PerceptronTrainer::new();
            let fresh = fresh_trainer
                .fit(&data.points, &data.labels, &at(Some(k)))
                .unwrap();
            assert_same_run(&stepped, &fresh, &format!("{what}, step {k}"));
            assert_eq!(fresh_trainer.updates, k.min(whole.mistakes));
            assert_eq!(stepped.finished, k >= whole.mistakes, "{what}, step {k}");
            let one = usize::from(k >= 1 && k <= whole.mistakes);
            assert_eq!(
                kept.updates - updates,
                one,
                "{what}: step {k} made one update"
            );
            // Going on visits only the points up to the next mistake: over the whole
            // stepping, every visit the run makes is made once.
            assert!(kept.visits - visits <= fresh_trainer.visits, "{what}");
            assert_eq!(kept.visits, fresh_trainer.visits, "{what}, step {k}");
        }
        assert_eq!(kept.updates, whole.mistakes);
        let last = kept
            .fit(&data.points, &data.labels, &at(Some(whole.mistakes)))
            .unwrap();
        assert_same_run(
            &last,
            &PerceptronModel::fit(&data.points, &data.labels, &at(Some(whole.mistakes))).unwrap(),
            what,
        );
        assert_eq!(last.alpha, whole.alpha, "{what}: stepped to the end");
    }
}

#[test]
fn going_back_starts_again_and_the_whole_run_goes_on_from_a_step() {
    for (what, data, params, _) in stepping_cases() {
        let at = |k: Option<usize>| PerceptronParams {
            max_updates: k,
            ..params
        };
        let fresh = |k| PerceptronModel::fit(&data.points, &data.labels, &at(k)).unwrap();
        let mut kept = PerceptronTrainer::new();
        kept.fit(&data.points, &data.labels, &at(Some(9))).unwrap();
        // An earlier step (a click on the trace) is a run from w̃ = 0 to there.
        let back = kept.fit(&data.points, &data.labels, &at(Some(4))).unwrap();
        assert_same_run(&back, &fresh(Some(4)), &format!("{what}: back to 4"));
        assert_eq!(
            kept.updates,
            9 + 4,
            "{what}: going back replays from the start"
        );
        // Run to end carries on from step 4.
        let whole = kept.fit(&data.points, &data.labels, &at(None)).unwrap();
        assert_same_run(&whole, &fresh(None), &format!("{what}: to the end"));
        assert_eq!(
            kept.updates,
            9 + whole.mistakes,
            "{what}: to the end from 4"
        );
        // The whole run is not kept: stepping afterwards starts from w̃ = 0.
        let again = kept.fit(&data.points, &data.labels, &at(Some(5))).unwrap();
        assert_same_run(&again, &fresh(Some(5)), &format!("{what}: 5 after the end"));
        assert_eq!(kept.updates, 9 + whole.mistakes + 5);
    }
}

#[test]
fn an_edit_between_steps_starts_again() {
    for (what, data, params, _) in stepping_cases() {
        let at = |k: usize| PerceptronParams {
            max_updates: Some(k),
            ..params
        };
        let fresh = |data: &Dataset, params: &PerceptronParams| {
            PerceptronModel::fit(&data.points, &data.labels, params).unwrap()
        };
        // A moved point, as the page reports it: the run starts again, on columns patched
        // where the RBF kernel kept them.
        let mut kept = PerceptronTrainer::new();
        let mut moved = data.clone();
        let i = kept
            .fit(&moved.points, &moved.labels, &at(6))
            .unwrap()
            .last_update
            .unwrap();
        let p = moved.points[i];
        moved.move_point(i, [p[0] + 0.3, p[1] - 0.2]).unwrap();
        kept.point_moved(i, &moved.points);
        for k in 7..=9 {
            let stepped = kept.fit(&moved.points, &moved.labels, &at(k)).unwrap();
            assert_same_run(
                &stepped,
                &fresh(&moved, &at(k)),
                &format!("{what}: moved, {k}"),
            );
        }
        assert_eq!(
            kept.updates,
            6 + 7 + 1 + 1,
            "{what}: the edit restarted once"
        );

        // Points changed without a word: the trainer sees it (the columns too) and restarts.
        let mut kept = PerceptronTrainer::new();
        kept.fit(&data.points, &data.labels, &at(6)).unwrap();
        let stepped = kept.fit(&moved.points, &moved.labels, &at(7)).unwrap();
        assert_same_run(&stepped, &fresh(&moved, &at(7)), &format!("{what}: unsaid"));
        let whole = PerceptronParams {
            max_updates: None,
            ..params
        };
        let stepped = kept.fit(&moved.points, &moved.labels, &whole).unwrap();
        assert_same_run(
            &stepped,
            &fresh(&moved, &whole),
            &format!("{what}: unsaid, all"),
        );
        let back = kept.fit(&data.points, &data.labels, &at(8)).unwrap();
        assert_same_run(&back, &fresh(&data, &at(8)), &format!("{what}: moved back"));

        // Other labels, another epoch cap or kernel: from the start.
        let mut relabelled = data.clone();
        relabelled.labels[i] = data
            .labels
            .iter()
            .copied()
            .find(|&l| l != data.labels[i])
            .unwrap();
        let other_epochs = PerceptronParams {
            max_epochs: params.max_epochs + 1,
            ..at(9)
        };
        let other_kernel = PerceptronParams {
            kernel: Kernel::Polynomial {
                gamma: 1.0,
                degree: 2,
                coef0: 1.0,
            },
            ..at(10)
        };
        let mut kept = PerceptronTrainer::new();
        kept.fit(&data.points, &data.labels, &at(6)).unwrap();
        let stepped = kept
            .fit(&relabelled.points, &relabelled.labels, &at(7))
            .unwrap();
        assert_same_run(
            &stepped,
            &fresh(&relabelled, &at(7)),
            &format!("{what}: label"),
        );
        let stepped = kept.fit(&data.points, &data.labels, &other_epochs).unwrap();
        assert_same_run(
            &stepped,
            &fresh(&data, &other_epochs),
            &format!("{what}: epochs"),
        );
        let stepped = kept.fit(&data.points, &data.labels, &other_kernel).unwrap();
        assert_same_run(
            &stepped,
            &fresh(&data, &other_kernel),
            &format!("{what}: kernel"),
        );
        assert_eq!(
            kept.updates,
            6 + 7 + 9 + 10,
            "{what}: every change restarted"
        );
    }
}

/// With the linear kernel, once the run has converged on separable points, the plane shows
/// Novikoff's R as the circle about the origin through the farthest point (every point inside
/// it, one on it); not with another kernel (R is then a norm in feature space), and not on
/// points that are not separable.
#[test]
fn novikoffs_radius_is_the_circle_through_the_farthest_point() {
    use crate::core::field::{Grid, View};
    use crate::core::plane::{Layers, Primitive, Scene};
    use crate::methods::model::Context;
    let circle_of = |preset: Preset, kernel: Kernel| {
        let data = preset.generate(40, 0.0, 2);
        let model = PerceptronModel::fit(
            &data.points,
            &data.labels,
            &PerceptronParams::new(kernel, 100),
        )
        .unwrap();
        let (view, layers, classes) = (
            View::around(&data.points),
            Layers::default(),
            data.classes(),
        );
        let context = Context {
            data: &data,
            classes: &classes,
            layers: &layers,
            view,
            grid: Grid::new(view, 11, 11),
            field: None,
            threshold: 0.0,
            draft: 0,
        };
        let mut scene = Scene {
            points: data.points.clone(),
            ..Scene::default()
        };
        model.decorate(&mut scene, &context);
        let legend = scene.legend(&layers, false);
        let named = legend.iter().any(|e| e.mark.kind() == "novikoff_radius");
        let circle = scene.decoration("novikoff_radius").map(|d| {
            let outline = d.shapes.iter().find_map(|s| match s {
                Primitive::Outline { points, .. } => Some(points.clone()),
                _ => None,
            });
            outline.expect("an outline")
        });
        assert_eq!(named, circle.is_some(), "{preset:?}: named as drawn");
        (circle, data.points)
    };
    let (circle, points) = circle_of(Preset::Separable, Kernel::Linear);
    let circle = circle.expect("the circle of R");
    let far = points.iter().map(|p| p[0].hypot(p[1])).fold(0.0, f64::max);
    assert!(far > 0.1);
    for p in &circle {
        assert!(
            (p[0].hypot(p[1]) - far).abs() < 1e-12 * far,
            "{p:?} off the circle"
        );
    }
    assert!(circle.len() >= 96, "a round circle");
    let (rbf, _) = circle_of(Preset::Separable, Kernel::Rbf { gamma: 1.0 });
    assert!(rbf.is_none(), "no circle in the plane for the RBF kernel");
    let (xor, _) = circle_of(Preset::Xor, Kernel::Linear);
    assert!(
        xor.is_none(),
        "no bound, no circle, on points no line separates"
    );
}

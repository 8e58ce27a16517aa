//! Stepping through a run: each update ringed, the kept run going on, the end of the steps
//! being the fit the link reopens.

use super::*;
use crate::core::plane::{Layout, Scene};
use crate::methods::solvers::svm::SvmModel;

#[test]
fn stepping_ends_with_the_run() {
    // Non-separable data: the run ends at the epoch cap, and so does stepping.
    let mut lab =
        Playground::from_hash("model=perceptron&kernel=linear&preset=overlapping&n=40&epochs=2");
    lab.fit();
    let total = lab
        .model_as::<crate::methods::solvers::perceptron::PerceptronModel>()
        .expect("a perceptron")
        .mistakes;
    lab.reset_steps();
    let mut steps = 0;
    loop {
        lab.fit();
        if !lab.step() {
            break;
        }
        steps += 1;
        assert!(steps <= total + 1, "stepping never ends");
    }
    assert_eq!(steps, total);
    lab.fit();
    assert!(lab.status().message.unwrap().contains("did not converge"));
}

#[test]
fn stepping_the_svm_rings_each_pair_and_ends_at_the_fit() {
    let mut lab = Playground::from_hash("preset=moons&n=40&kernel=rbf&gamma=2&C=10");
    lab.fit();
    let full = lab.model_as::<SvmModel>().expect("an SVM").clone();
    let layout = Layout::new(400, 400);
    lab.reset_steps();
    lab.fit();
    assert!(
        lab.scene(&layout).decoration("working_pair").is_none(),
        "α = 0: no step yet"
    );
    let mut steps = 0;
    while lab.step() {
        lab.fit();
        steps += 1;
        let scene = lab.scene(&layout);
        let inset = scene
            .decoration("sub_problem")
            .expect("the inset's sub-problem");
        let (&step, _) = inset.inset().expect("an inset");
        assert_eq!(scene.decoration("working_pair").unwrap().ringed().len(), 2);
        assert!(step.after.iter().all(|a| (0.0..=10.0).contains(a)));
        let facts = lab.status().facts;
        for key in ["violation", "pair", "alpha_i", "alpha_j"] {
            assert!(facts.iter().any(|f| f.key == key), "step {steps}: no {key}");
        }
        assert!(
            lab.status().message.is_none(),
            "a cut run is not an iteration cap"
        );
        assert!(
            steps <= 10 * full.report.iterations + 100,
            "stepping never ends"
        );
    }
    let stepped = lab.model_as::<SvmModel>().unwrap();
    assert_eq!(
        stepped.report.exit,
        crate::methods::model::ExitReason::Converged
    );
    assert!(stepped.max_violation < 1e-3);
    assert!(
        (stepped.report.objective - full.report.objective).abs() < 1e-6 * full.report.objective
    );
    lab.finish_steps();
    lab.fit();
    assert!(lab.scene(&layout).decoration("working_pair").is_none());
}

#[test]
fn stepping_dca_and_pegasos_rings_each_point_and_ends_at_the_fit() {
    for (solver, last) in [("dca", None), ("pegasos", Some(150))] {
        let mut lab = Playground::from_hash(&format!(
            "preset=moons&n=30&kernel=rbf&gamma=2&C=1&tol=0.05&svm_solver={solver}"
        ));
        lab.fit();
        let full = lab.model_as::<SvmModel>().expect("an SVM").clone();
        assert!(full
            .facts(lab.data())
            .iter()
            .any(|f| f.key == "solver" && f.note.as_deref() == Some("(bias absorbed: K + 1)")));
        let layout = Layout::new(120, 120);
        lab.reset_steps();
        lab.fit();
        let last_update = |scene: &Scene| scene.decoration("last_update").map(|d| d.ringed());
        assert!(
            last_update(&lab.scene(&layout)).is_none(),
            "α = 0: no step yet"
        );
        let mut ringed = std::collections::BTreeSet::new();
        let mut steps = 0;
        while lab.step() {
            lab.fit();
            steps += 1;
            let scene = lab.scene(&layout);
            let ring = last_update(&scene).expect("the ringed point");
            assert_eq!(ring.len(), 1);
            ringed.insert(ring[0]);
            assert!(scene.decoration("working_pair").is_none(), "no SMO pair");
            let model = lab.model_as::<SvmModel>().unwrap();
            assert_eq!(model.report.iterations, steps);
            let facts = lab.status().facts;
            for key in ["step_point", "step_margin", "alpha_i"] {
                assert!(facts.iter().any(|f| f.key == key), "step {steps}: no {key}");
            }
            assert!(lab.status().message.is_none());
            if last == Some(steps) {
                break;
            }
            assert!(steps <= 100_000, "stepping never ends");
        }
        assert!(ringed.len() > 10, "{solver}: the ring moves ({ringed:?})");
        let stepped = lab.model_as::<SvmModel>().unwrap();
        if last.is_none() {
            // DCA stepped to its end is the whole fit.
            assert_eq!(
                stepped.report.exit,
                crate::methods::model::ExitReason::Converged
            );
            assert_eq!(stepped.alpha, full.alpha);
            assert_eq!(stepped.report.iterations, full.report.iterations);
        }
        lab.finish_steps();
        lab.fit();
        assert!(last_update(&lab.scene(&layout)).is_none());
    }
}

/// Resets the run and takes five steps, each one update.
fn five_steps_from_the_start(lab: &mut Playground) {
    lab.reset_steps();
    lab.fit();
    for _ in 0..5 {
        assert!(lab.step());
        lab.fit();
    }
    assert_eq!(updates(lab), 5, "five steps, five updates");
}

#[test]
fn a_perceptron_step_goes_on_from_the_kept_run() {
    use crate::methods::solvers::perceptron::PerceptronModel;
    let mut lab =
        Playground::from_hash("model=perceptron&kernel=rbf&gamma=0.5&preset=moons&n=40&epochs=50");
    five_steps_from_the_start(&mut lab);
    // A dragged point: the next step is a run from w̃ = 0 on the moved points.
    lab.move_point(0, [0.2, -0.1]).unwrap();
    assert!(lab.step());
    lab.fit();
    assert_eq!(updates(&mut lab), 5 + 6);
    let shown = lab.model_as::<PerceptronModel>().unwrap();
    let params = crate::methods::solvers::perceptron::PerceptronParams {
        max_updates: Some(6),
        ..crate::methods::solvers::perceptron::PerceptronParams::new(
            crate::core::kernel::Kernel::Rbf { gamma: 0.5 },
            50,
        )
    };
    let fresh = PerceptronModel::fit(
        &lab.training_set().points,
        &lab.training_set().labels,
        &params,
    )
    .unwrap();
    assert_eq!(shown.alpha, fresh.alpha);
    assert_eq!(shown.last_update, fresh.last_update);
}

/// With the points standardised a step still goes on from the kept run (the scaler is the
/// same while the points are), and an edit of a point, which moves every z, starts it over.
#[test]
fn standardised_steps_go_on_from_the_kept_run_until_a_point_moves() {
    let mut lab = Playground::from_hash(
        "model=perceptron&kernel=rbf&gamma=0.5&preset=moons&n=40&epochs=50&std=1",
    );
    five_steps_from_the_start(&mut lab);
    let before = lab.model().unwrap().decision_value([0.1, 0.2]);
    lab.move_point(0, [0.2, -0.1]).unwrap();
    assert!(lab.step());
    lab.fit();
    assert_eq!(
        updates(&mut lab),
        5 + 6,
        "a moved point starts the run over"
    );
    // The same scene opened afresh shows the same model.
    let mut fresh = Playground::from_hash(&lab.hash());
    fresh.set(STEPS_KEY, "6").unwrap();
    fresh.fit();
    let at = [0.1, 0.2];
    assert_eq!(
        fresh.model().unwrap().decision_value(at),
        lab.model().unwrap().decision_value(at)
    );
    assert_ne!(before, lab.model().unwrap().decision_value(at));
    // Turning standardising off is new data for the kept run too.
    lab.set("std", "0").unwrap();
    lab.fit();
    assert_eq!(
        updates(&mut lab),
        5 + 6 + 6,
        "a run of six from the start in x"
    );
}

/// The updates the perceptron's kept run has made so far.
fn updates(lab: &mut Playground) -> usize {
    use crate::methods::solvers::perceptron::PerceptronTrainer;
    let id = lab.settings.method().id();
    let warm = lab.warm.get_mut(id).expect("the perceptron's kept run");
    let trainer = warm.as_any().downcast_mut::<PerceptronTrainer>().unwrap();
    trainer.updates
}

/// Run to end after a few steps leaves the scene's own fit: what reopening its link shows,
/// bit for bit (a warm continuation of the stepped run stops elsewhere within the tolerance).
#[test]
fn run_to_end_is_the_fit_the_link_reopens() {
    for hash in [
        "preset=moons&n=40&kernel=rbf&gamma=2&C=10",
        "preset=overlapping&n=60&kernel=linear&C=1",
        "preset=xor&n=50&kernel=rbf&gamma=3&C=100&svm_solver=dca",
    ] {
        let mut lab = Playground::from_hash(hash);
        lab.fit();
        lab.reset_steps();
        lab.fit();
        for _ in 0..3 {
            assert!(lab.step());
            lab.fit();
        }
        lab.finish_steps();
        lab.fit();
        let mut fresh = Playground::from_hash(&lab.hash());
        fresh.fit();
        let (ended, cold) = (
            lab.model_as::<SvmModel>().unwrap(),
            fresh.model_as::<SvmModel>().unwrap(),
        );
        assert!(!cold.report.warm_start);
        assert_eq!(ended.alpha, cold.alpha, "{hash}: α");
        assert_eq!(ended.bias.to_bits(), cold.bias.to_bits(), "{hash}: b");
        assert_eq!(ended.report.iterations, cold.report.iterations, "{hash}");
    }
}

/// With points held out, training point t is plane point train_index[t]: the SMO inset keeps
/// its pair by training point (as its title and the status name them) and avoids covering the
/// pair's plane points, the ones the double ring circles.
#[test]
fn the_smo_insets_pair_is_found_among_the_planes_points() {
    let mut lab = Playground::from_hash("preset=moons&n=40&test=0.3&kernel=rbf&gamma=2&C=10");
    let layout = Layout::new(400, 400);
    lab.reset_steps();
    lab.fit();
    let mut renumbered = 0;
    for _ in 0..20 {
        if !lab.step() {
            break;
        }
        lab.fit();
        let scene = lab.scene(&layout);
        let (step, points) = {
            let inset = scene.decoration("sub_problem").expect("the inset");
            let (step, points) = inset.inset().expect("an inset");
            (*step, points)
        };
        let (_, index) = lab.training();
        assert_eq!(points, (index[step.pair.0], index[step.pair.1]));
        let ringed = scene.decoration("working_pair").unwrap().ringed();
        assert_eq!(ringed, vec![points.0, points.1]);
        renumbered += usize::from(points != step.pair);
    }
    assert!(
        renumbered > 0,
        "some pair's plane points differ from its training indices"
    );
}

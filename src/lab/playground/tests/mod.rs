use super::*;
use crate::core::field::View;
use crate::core::plane::{CurveKind, Layout, Mark, Scene};
use crate::methods::solvers::svm::{SvmModel, SvmParams};

mod stepping;

#[test]
fn edits_refit_warm_and_agree_with_a_cold_fit() {
    let mut lab = Playground::new(Settings::default());
    lab.fit();
    assert!(!lab.model_as::<SvmModel>().unwrap().report.warm_start);
    lab.move_point(3, [0.1, 0.2]).unwrap();
    lab.add_point([0.5, -0.5], 1).unwrap();
    lab.remove_point(0).unwrap();
    lab.set("C", "3").unwrap();
    lab.fit();
    let warm = lab.model_as::<SvmModel>().unwrap().clone();
    assert!(warm.report.warm_start);
    let params = SvmParams::from_values(&lab.settings().values, None).unwrap();
    let cold = SvmModel::fit(&lab.data().points, &lab.data().labels, &params).unwrap();
    for x in [[0.0, 0.0], [0.5, 0.5], [-0.7, 0.3]] {
        assert!((warm.decision_value(x) - cold.decision_value(x)).abs() < 1e-2);
    }
}

#[test]
fn new_points_of_the_same_count_are_fitted_afresh() {
    // The kernel cache must not outlive the points it was computed on.
    let mut lab = Playground::new(Settings::default());
    lab.fit();
    lab.set("seed", "2").unwrap();
    lab.fit();
    let params = SvmParams::from_values(&lab.settings().values, None).unwrap();
    let cold = SvmModel::fit(&lab.data().points, &lab.data().labels, &params).unwrap();
    let shown = lab.model_as::<SvmModel>().unwrap();
    for &x in &lab.data().points {
        assert!((shown.decision_value(x) - cold.decision_value(x)).abs() < 1e-6);
    }
}

/// The one-class SVM keeps its kernel columns between fits (a moved point's entries
/// patched): a drag's fits are the cold fits to the last bit.
#[test]
fn the_one_class_svm_keeps_its_columns_and_fits_as_cold() {
    use crate::methods::solvers::novelty::Novelty;
    let mut lab = Playground::from_hash("task=novelty&model=oneclass&preset=moons&n=80&nu=0.2");
    lab.fit();
    for (i, to) in [(4, [0.2, 0.9]), (30, [-1.0, 0.4]), (4, [0.6, 0.1])] {
        lab.move_point(i, to).unwrap();
        lab.fit();
        let kept = lab.model_as::<Novelty>().unwrap().fit.clone();
        lab.refit_cold();
        lab.fit();
        let cold = &lab.model_as::<Novelty>().unwrap().fit;
        assert_eq!(kept.alpha, cold.alpha);
        assert_eq!(kept.rho.to_bits(), cold.rho.to_bits());
    }
}

/// A method's kept state (its kernel columns, its last solution) is dropped when another
/// method is fitted: only the method on show holds memory.
#[test]
fn only_the_method_on_show_keeps_a_state() {
    let mut lab = Playground::from_hash("model=nusvc&preset=moons&n=60&kernel=rbf");
    lab.fit();
    let first = lab.settings().method().id();
    assert!(lab.warm.contains_key(first));
    lab.set("model", Settings::default().method().id()).unwrap();
    lab.fit();
    let second = lab.settings().method().id();
    assert_ne!(first, second);
    assert_eq!(lab.warm.keys().copied().collect::<Vec<_>>(), vec![second]);
}

#[test]
fn settling_leaves_the_cold_fit_on_screen() {
    let mut lab = Playground::new(Settings::default());
    lab.fit();
    lab.set("C", "5").unwrap();
    lab.fit();
    assert!(lab.model_as::<SvmModel>().unwrap().report.warm_start);
    lab.settle();
    lab.fit();
    assert!(!lab.model_as::<SvmModel>().unwrap().report.warm_start);
    // Settling with a change pending makes that fit cold too.
    lab.set("C", "7").unwrap();
    lab.settle();
    lab.fit();
    assert!(!lab.model_as::<SvmModel>().unwrap().report.warm_start);
}

#[test]
fn the_picture_is_kept_until_something_changes() {
    let mut lab = Playground::new(Settings::default());
    lab.fit();
    let layout = Layout::new(300, 300);
    let first = lab.scene(&layout);
    lab.highlight = Some(3);
    let hovered = lab.scene(&layout);
    assert_eq!(hovered.highlight, Some(3));
    assert_eq!(hovered.curves, first.curves);
    lab.set("C", "10").unwrap();
    lab.fit();
    assert_ne!(lab.scene(&layout).curves, first.curves, "a refit redraws");
    lab.set("margins", "0").unwrap();
    assert_eq!(lab.scene(&layout).curves_of(CurveKind::Level).count(), 0);
    lab.move_point(0, [0.9, 0.9]).unwrap();
    assert_eq!(
        lab.scene(&layout).points[0],
        [0.9, 0.9],
        "an edit redraws even before a fit"
    );
}

#[test]
fn problems_become_messages() {
    let mut lab = Playground::new(Settings::default());
    lab.clear();
    lab.add_point([0.0, 0.0], 0).unwrap();
    lab.fit();
    assert_eq!(
        lab.status().message.unwrap(),
        Error::TooFewPoints.to_string()
    );
    lab.add_point([0.5, 0.0], 0).unwrap();
    lab.fit();
    assert_eq!(lab.status().message.unwrap(), Error::OneClass.to_string());
    // The scene still shows the points.
    assert_eq!(lab.scene(&Layout::new(300, 300)).points.len(), 2);
    lab.add_point([0.5, 0.0], 1).unwrap();
    lab.set("hard", "1").unwrap();
    lab.set("kernel", "linear").unwrap();
    lab.fit();
    let status = lab.status();
    assert!(status
        .message
        .unwrap()
        .contains("no line separates the classes"));
    // Nothing fitted is shown: no accuracy, no boundary.
    assert_eq!(status.train_accuracy, None);
    let scene = lab.scene(&Layout::new(300, 300));
    assert!(scene.field.is_none() && scene.curves.is_empty());
    assert_eq!(scene.points.len(), 3);
}

#[test]
fn shared_link_restores_the_scene_exactly() {
    let mut lab = Playground::new(Settings::default());
    lab.add_point([0.123456, -0.5], 1).unwrap();
    lab.move_point(0, [0.31415926, 0.2]).unwrap();
    lab.set("gamma", "7.5").unwrap();
    let copy = Playground::from_hash(&lab.hash());
    assert!(copy.warnings.is_empty());
    assert_eq!(copy.data(), lab.data());
    assert_eq!(copy.settings(), lab.settings());
    // An untouched preset travels by name.
    let fresh = Playground::new(Settings::default());
    assert!(!fresh.hash().contains("points="));
    assert_eq!(Playground::from_hash(&fresh.hash()).data(), fresh.data());
}

#[test]
fn linear_scene_has_w_arrow_and_straight_boundary() {
    let mut lab = Playground::new(Settings::default());
    lab.set("preset", "separable").unwrap();
    lab.set("kernel", "linear").unwrap();
    lab.fit();
    let scene = lab.scene(&Layout::new(400, 400));
    let arrow = scene.decoration("w_arrow").and_then(|d| d.arrow());
    let (tail, head) = arrow.expect("w arrow");
    let model = lab.model_as::<SvmModel>().unwrap();
    assert!(model.decision_value(tail).abs() < 1e-9);
    assert!(model.decision_value(head) > 0.0);
    assert_eq!(scene.curves_of(CurveKind::Boundary).count(), 1);
    assert_eq!(scene.curves_of(CurveKind::Level).count(), 2);
}

#[test]
fn held_out_points_are_never_trained_on() {
    let mut lab = Playground::from_hash("preset=moons&n=100&test=0.3&C=10");
    lab.fit();
    let held: Vec<usize> = (0..100).filter(|&i| lab.test()[i]).collect();
    assert_eq!(held.len(), 30, "30 % of each class");
    let svm = lab.model_as::<SvmModel>().unwrap().clone();
    assert_eq!(svm.alpha.len(), 70);
    for &i in &held {
        assert!(
            !svm.points.contains(&lab.data().points[i]),
            "point {i} was trained on"
        );
    }
    let status = lab.status();
    assert_eq!((status.train_points, status.test_points), (70, 30));
    let test_accuracy = status.test_accuracy.expect("a test accuracy");
    let correct = held
        .iter()
        .filter(|&&i| svm.predict(lab.data().points[i]) == lab.data().labels[i])
        .count();
    assert_eq!(test_accuracy, correct as f64 / 30.0);
    // Support vectors are marked at their own points, never at a test point.
    let scene = lab.scene(&Layout::new(300, 300));
    assert_eq!(scene.hollow, lab.test());
    for (i, mark) in scene.marks.iter().enumerate() {
        if *mark != Mark::Plain {
            assert!(!lab.test()[i]);
            let t = lab.train_position(i).unwrap();
            assert!(svm.alpha[t] > 0.0);
        }
    }
}

#[test]
fn edits_beside_test_points_keep_the_warm_start_aligned() {
    let mut lab = Playground::from_hash("preset=overlapping&n=60&test=0.25&kernel=rbf");
    lab.fit();
    let first_train = (0..60).find(|&i| !lab.test()[i]).unwrap();
    let first_test = (0..60).find(|&i| lab.test()[i]).unwrap();
    lab.move_point(first_train, [0.3, 0.3]).unwrap();
    lab.remove_point(first_test).unwrap();
    lab.add_point([-0.2, 0.4], 1).unwrap();
    lab.fit();
    let warm = lab.model_as::<SvmModel>().unwrap().clone();
    assert!(warm.report.warm_start);
    let (train, _) = lab.training();
    let params = SvmParams::from_values(&lab.settings().values, None).unwrap();
    let cold = SvmModel::fit(&train.points, &train.labels, &params).unwrap();
    for x in [[0.0, 0.0], [0.5, -0.5], [-0.7, 0.3]] {
        assert!((warm.decision_value(x) - cold.decision_value(x)).abs() < 1e-2);
    }
}

#[test]
fn a_link_keeps_which_points_are_held_out() {
    let mut lab = Playground::from_hash("preset=moons&n=40&test=0.2");
    let train_point = (0..40).find(|&i| !lab.test()[i]).unwrap();
    lab.toggle_test(train_point).unwrap();
    assert!(lab.test()[train_point]);
    assert!(lab.hash().contains(",t;") || lab.hash().contains(",t&"));
    let copy = Playground::from_hash(&lab.hash());
    assert!(copy.warnings.is_empty(), "{:?}", copy.warnings);
    assert_eq!(copy.test(), lab.test());
    assert_eq!(copy.data(), lab.data());
    // An untouched split travels as its fraction and seed.
    let fresh = Playground::from_hash("preset=moons&n=40&test=0.2");
    assert!(!fresh.hash().contains("points="));
    assert_eq!(Playground::from_hash(&fresh.hash()).test(), fresh.test());
}

#[test]
fn a_hash_is_known_longer_than_a_limit_only_when_it_is() {
    for hash in [
        "preset=moons&n=50&seed=3",
        "points=1.50,-2,1;3,4e0,0,t;0.1,0.2,1",
    ] {
        let mut lab = Playground::from_hash(hash);
        assert!(!lab.hash_longer_than(lab.hash().len()));
        lab.add_point([0.123456789, 2.0], 1).unwrap();
        lab.move_point(0, [-7.25, 1e-9]).unwrap();
        let written = lab.hash().len();
        assert!(
            !lab.hash_longer_than(written),
            "not longer than its {written} characters"
        );
    }
}

#[test]
fn a_scene_of_the_shortest_points_is_never_said_longer_than_it_is() {
    // Each point as short as a link writes one (`0,0,0;`, six characters): the count by the
    // number of points alone must not overshoot.
    let points = vec!["0,0,0"; 9000].join(";");
    let mut lab = Playground::from_hash(&format!("points={points}"));
    lab.move_point(0, [0.0, 1.0]).unwrap();
    let written = lab.hash().len();
    assert!(written > 54_000, "{written}");
    assert!(lab.hash_longer_than(50_000));
    assert!(!lab.hash_longer_than(written));
}

#[test]
fn a_dragged_preset_of_thousands_of_points_is_known_a_long_link() {
    // Its points have no written text: the link writes each coordinate as its shortest
    // decimal (about 17 characters a point), so 4000 points make a link past the page's
    // 50 000 characters for a large link (www/scenes.js), which its address then waits for.
    let mut lab = Playground::from_hash("preset=moons&n=4000&seed=1");
    assert!(
        !lab.hash_longer_than(100),
        "an untouched preset's link is its settings"
    );
    let [x, y] = lab.data().points[0];
    lab.move_point(0, [x + 0.25, y]).unwrap();
    let written = lab.hash().len();
    assert!(written > 50_000, "{written}");
    assert!(lab.hash_longer_than(50_000));
    assert!(!lab.hash_longer_than(written));
}

#[test]
fn a_zoomed_window_is_kept_until_new_points_come_and_the_table_reads_them_as_written() {
    let mut lab = Playground::open(
        "#model=svm&kernel=linear&C=0.3125&window=-8,8,-6,10&points=1,1,1;3.0,1,1;3,5,0,t;-1,2,0",
    )
    .unwrap();
    assert_eq!(
        lab.view(),
        View {
            x_min: -8.0,
            x_max: 8.0,
            y_min: -6.0,
            y_max: 10.0
        }
    );
    assert!(lab.hash().contains("&window=-8,8,-6,10&points="));
    assert_eq!(lab.points_text(usize::MAX), "1,1,1;3.0,1,1;3,5,0,t;-1,2,0");
    assert_eq!(lab.points_text(2), "1,1,1;3.0,1,1");
    lab.clear();
    assert_eq!(lab.view(), View::square(1.0), "Clear fits the window again");
    assert!(!lab.hash().contains("window"));
    lab.set("window", "0,4,0,4").unwrap();
    lab.load_csv("x,y,label\n30,10,0\n-30,0,1\n").unwrap();
    assert!(lab.view().contains([30.0, 10.0]), "a loaded file is fitted");
}

#[test]
fn colours_follow_the_rank_of_a_label_not_its_integer() {
    let mut lab = Playground::new(Settings::default());
    for (file, added) in [("-1\n+1\n+1\n-1", 1), ("7\n3\n3\n7", 3)] {
        let rows: String = file
            .lines()
            .enumerate()
            .map(|(i, l)| format!("{},{},{l}\n", i as f64 * 0.1, i as f64 * 0.2))
            .collect();
        lab.load_file(format!("x,y,label\n{rows}").as_bytes(), None)
            .unwrap();
        lab.add_point([0.5, 0.5], added).unwrap();
        let low_first = [0, 1, 1, 0, 1];
        let high_first = [1, 0, 0, 1, 0];
        let expected = if file.starts_with('-') {
            low_first
        } else {
            high_first
        };
        assert_eq!(lab.colour_indices(), expected, "{file}");
        // A file's class left alone keeps its colour: the other class is still offered.
        for i in (0..lab.data().len()).rev() {
            if lab.data().labels[i] != added {
                lab.remove_point(i).unwrap();
            }
        }
        let rank = usize::from(added == 1);
        assert_eq!(lab.colour_indices(), [rank; 3], "{file}");
    }
}

#[test]
fn the_hover_names_a_files_classes_in_per_class_lists() {
    let mut lab = Playground::new(Settings::default());
    let rows =
        "x,y,label\n-0.5,-0.5,-1\n-0.6,0.2,-1\n0.5,0.5,+1\n0.6,-0.1,+1\n0,0.6,5\n0.1,0.7,5\n";
    lab.load_file(rows.as_bytes(), None).unwrap();
    lab.fit();
    let texts = |lab: &Playground| -> Vec<String> {
        let info = lab.inspect([0.0, -0.6], 0.01);
        info.facts
            .into_iter()
            .filter_map(|f| match f.value {
                FactValue::Text(t) => Some(t),
                _ => None,
            })
            .collect()
    };
    let said = texts(&lab).join(" ");
    assert!(
        said.contains("-1: ") && said.contains("+1: ") && said.contains("5: "),
        "{said}"
    );
    assert!(!said.contains("class 1:"), "{said}");
    // The lab's own classes stay class 1, class 2, ….
    lab.set("preset", "blobs3").unwrap();
    lab.fit();
    let said = texts(&lab).join(" ");
    assert!(said.contains("class 1: "), "{said}");
}

#[test]
fn the_status_names_a_files_classes() {
    let mut lab = Playground::from_hash("model=qda");
    let rows = "x,y,label\n-0.5,-0.5,-1\n0.5,0.5,+1\n0.6,-0.1,+1\n0.2,0.7,+1\n";
    lab.load_file(rows.as_bytes(), None).unwrap();
    lab.fit();
    let message = lab.status().message.unwrap_or_default();
    assert!(message.contains("-1 has a single point"), "{message}");
    assert!(!message.contains("class 0"), "{message}");
}

#[test]
fn points_clicked_in_with_a_test_fraction_keep_their_roles_through_the_link() {
    let mut lab = Playground::from_hash("preset=moons&n=40&test=0.3");
    lab.clear();
    for (p, label) in [
        ([-0.6, -0.5], 0),
        ([-0.4, 0.1], 0),
        ([0.5, 0.5], 1),
        ([0.3, 0.0], 1),
    ] {
        lab.add_point(p, label).unwrap();
    }
    assert!(
        lab.test().iter().all(|&t| !t),
        "clicked points are trained on"
    );
    let copy = Playground::from_hash(&lab.hash());
    assert_eq!(copy.test(), lab.test());
    assert_eq!(copy.fingerprint(), lab.fingerprint());
}

/// A draft picture has the field on a grid of half as many intervals a side (level 1) or a
/// third (level 2), its curves from that grid; the full picture follows for the same scene,
/// and once it is at hand a draft asked for is the full picture (a hover on a slow device
/// recomputes nothing), as a finer draft at hand serves a coarser one but not the reverse.
#[test]
fn a_draft_has_a_coarser_field_until_the_full_picture_is_at_hand() {
    let mut lab = Playground::from_hash("preset=moons&n=80&noise=0.2&seed=4&kernel=rbf&gamma=2");
    lab.fit();
    let full = Layout::new(700, 700);
    let draft = full.drafted(1);
    let coarsest = full.drafted(2);
    let nodes = |scene: &Scene| scene.field.as_ref().map(|f| f.grid.cols).unwrap();
    let third = lab.scene(&coarsest);
    assert!(lab.drawn_draft() == 2 && lab.picture_computed());
    let coarse = lab.scene(&draft);
    assert!(
        lab.drawn_draft() == 1 && lab.picture_computed(),
        "a coarser draft was at hand"
    );
    let finer_at_hand = lab.scene(&coarsest);
    assert!(lab.drawn_draft() == 1 && !lab.picture_computed());
    assert_eq!(nodes(&finer_at_hand), nodes(&coarse));
    let sharp = lab.scene(&full);
    assert_eq!(lab.drawn_draft(), 0);
    let intervals = |n: usize| n - 1;
    assert_eq!(intervals(nodes(&sharp)), 2 * intervals(nodes(&coarse)));
    assert_eq!(intervals(nodes(&sharp)), 3 * intervals(nodes(&third)));
    // A node every 2 pixels of the plot.
    assert_eq!(intervals(nodes(&sharp)), (full.plot.width / 2.0) as usize);
    // The boundary of the draft is the same curve, traced on the coarser grid.
    let boundary = |scene: &Scene| {
        scene
            .curves_of(CurveKind::Boundary)
            .map(|c| c.points.len())
            .sum::<usize>()
    };
    assert!(boundary(&third) > 0 && boundary(&third) < boundary(&coarse));
    assert!(boundary(&coarse) < boundary(&sharp));
    // The full picture at hand: a draft asked for is the full picture.
    let again = lab.scene(&draft);
    assert_eq!(lab.drawn_draft(), 0);
    assert!(!lab.picture_computed(), "the full picture was at hand");
    assert_eq!(nodes(&again), nodes(&sharp));
    // An edit: the next draft is drawn afresh.
    lab.apply(&Edit::Set {
        key: "C".into(),
        value: "3".into(),
    })
    .unwrap();
    lab.fit();
    let next = lab.scene(&draft);
    assert_eq!(lab.drawn_draft(), 1);
    assert_eq!(nodes(&next), nodes(&coarse));
}

/// What is kept of the points between frames (their window, colours, classes and fingerprint)
/// is kept by the points' own version, so a setting leaves it; after every kind of edit of the
/// points, their labels or their roles it is what a copy made afresh from the link computes.
#[test]
fn what_is_kept_of_the_points_follows_every_edit_of_them() {
    let kept = |lab: &Playground| {
        let scene = lab.over_points(None);
        let (train, index) = lab.training();
        (
            lab.view(),
            scene.colour_of,
            scene.hollow,
            lab.class_order(),
            lab.fingerprint(),
            // (The kept classes named as the points' own are.)
            lab.class_choices() == lab.data().class_choices(),
            (train.points.clone(), train.labels.clone(), index.to_vec()),
        )
    };
    let mut lab = Playground::from_hash("preset=blobs3&n=30&seed=2&test=0.2");
    let first = kept(&lab);
    lab.set("C", "10").unwrap();
    lab.settle();
    assert_eq!(kept(&lab).0, first.0, "a setting keeps the window");
    type Edit = fn(&mut Playground);
    let edits: [(&str, Edit); 8] = [
        ("a point far out", |lab| {
            drop(lab.add_point([40.0, -3.0], 2))
        }),
        ("a point moved back", |lab| {
            lab.move_point(30, [0.1, 0.2]).unwrap()
        }),
        ("a point of a new class", |lab| {
            drop(lab.add_point([0.3, 0.3], 9))
        }),
        ("a point removed", |lab| lab.remove_point(0).unwrap()),
        ("a point held out", |lab| lab.toggle_test(3).unwrap()),
        ("a new split", |lab| lab.set("test", "0.5").unwrap()),
        ("a new preset", |lab| lab.set("preset", "moons").unwrap()),
        ("a file", |lab| {
            lab.load_csv("x,y,label\n5,5,-1\n6,7,1\n").unwrap()
        }),
    ];
    for (what, edit) in edits {
        let before = kept(&lab);
        edit(&mut lab);
        let fresh = Playground::from_hash(&lab.hash());
        assert_eq!(kept(&lab), kept(&fresh), "{what}");
        assert_ne!(kept(&lab), before, "{what} changes what is kept");
    }
}

/// With no point held out the training set is the points themselves, each its own index;
/// holding one out leaves it out, and taking it back makes the set whole again.
#[test]
fn the_training_set_is_the_points_not_held_out() {
    let mut lab = Playground::from_hash("preset=moons&n=12&seed=4");
    let whole = |lab: &Playground| {
        let (train, index) = lab.training();
        assert_eq!(train.points, lab.data().points);
        assert_eq!(train.labels, lab.data().labels);
        assert_eq!(index, (0..12).collect::<Vec<_>>());
    };
    whole(&lab);
    lab.toggle_test(5).unwrap();
    let (train, index) = lab.training();
    assert_eq!(index.len(), 11);
    assert!(!index.contains(&5));
    for (t, &i) in index.iter().enumerate() {
        assert_eq!(train.points[t], lab.data().points[i]);
        assert_eq!(train.labels[t], lab.data().labels[i]);
    }
    assert_eq!(lab.status().train_points, 11);
    lab.toggle_test(5).unwrap();
    whole(&lab);
    assert_eq!(lab.status().train_points, 12);
}

/// A scene over the points composed in two steps (the points copied first, as a page does
/// with a million of them) is the one composed at once; parts kept for other points are not
/// taken.
#[test]
fn a_scene_composed_in_two_steps_is_the_one_composed_at_once() {
    let lab = Playground::from_hash("preset=blobs3&n=30&seed=2&test=0.2");
    let at_once = lab.over_points(None);
    let key = lab.points_key();
    let points_only = Scene {
        points: lab.data().points.clone(),
        ..Scene::default()
    };
    let stale = Scene {
        points: vec![[9.0, 9.0]; 30],
        colour_of: vec![5; 30],
        hollow: vec![true; 30],
        ..Scene::default()
    };
    for last in [(key, points_only), ((key.0 + 1, key.1), stale)] {
        let scene = lab.over_points_reusing(None, Some(last));
        assert_eq!(scene.points, at_once.points);
        assert_eq!(scene.colour_of, at_once.colour_of);
        assert_eq!(scene.hollow, at_once.hollow);
        assert_eq!(scene.marks, at_once.marks);
        assert!(at_once.hollow.contains(&true) && at_once.colour_of.contains(&2));
    }
}

/// The settings' part of the fingerprint is kept by version: after every kind of change of a
/// setting (a slider, a menu, the window set, and the window cleared by new points) the
/// fingerprint asked for is that of a copy made afresh from the link, and not the one before.
#[test]
fn the_fingerprint_follows_every_change_of_a_setting() {
    let mut lab = Playground::from_hash("preset=moons&n=30&seed=2&kernel=rbf");
    type Edit = fn(&mut Playground);
    let window: Edit = |lab| lab.set("window", "-2,2,-1.5,1.5").unwrap();
    let edits: [(&str, Edit); 9] = [
        ("a slider", |lab| lab.set("C", "10").unwrap()),
        ("a menu", |lab| lab.set("kernel", "poly").unwrap()),
        ("a window", window),
        ("points again", |lab| lab.regenerate()),
        ("a window again", window),
        ("points cleared", |lab| lab.clear()),
        ("a window once more", window),
        ("a file", |lab| {
            lab.load_csv("x,y,label\n5,5,-1\n6,7,1\n").unwrap()
        }),
        ("a preset", |lab| lab.set("preset", "blobs3").unwrap()),
    ];
    for (what, edit) in edits {
        let before = lab.fingerprint();
        edit(&mut lab);
        let fresh = Playground::from_hash(&lab.hash());
        assert_eq!(lab.fingerprint(), fresh.fingerprint(), "{what}");
        assert_ne!(lab.fingerprint(), before, "{what} changes the fingerprint");
    }
}

/// `n` points on a line labelled 7, −1, 3, 7, −1, 3, …
fn three_labels(n: usize) -> Dataset {
    let mut data = Dataset::new();
    for i in 0..n {
        data.push([i as f64, 0.0], [7, -1, 3][i % 3]).unwrap();
    }
    data
}

#[test]
fn points_prepared_a_share_at_a_time_are_coloured_by_their_labels_rank() {
    let n = 2 * frame::COLOUR_SHARE + 5;
    let mut lab = Playground::new(Settings::default());
    lab.load_data(three_labels(n));
    // Three walks, then three shares of colours.
    let steps = lab.preparing_steps();
    assert_eq!(steps, 6);
    for step in 0..steps {
        assert_eq!(lab.prepare_points(step), step + 1 < steps);
    }
    // −1, 3, 7 rank 0, 1, 2: labels 7, −1, 3 are colours 2, 0, 1.
    let kept = lab.colours.borrow().clone().expect("kept").1;
    assert_eq!(kept.len(), n);
    assert!(kept.iter().enumerate().all(|(i, &c)| c == [2, 0, 1][i % 3]));
    // Appended after what `out` holds; n − 4 = 3 · 174 763, a point labelled 7.
    let mut tail = vec![9];
    lab.colour_indices_into(n - 4..n, &mut tail);
    assert_eq!(tail, [9, 2, 0, 1, 2]);
}

#[test]
fn an_edit_between_shares_starts_the_colours_afresh() {
    let n = frame::COLOUR_SHARE + 2;
    let mut lab = Playground::new(Settings::default());
    lab.load_data(three_labels(n));
    // The walks and the first share, then a point added: the shares begun are of other points.
    for step in 0..4 {
        lab.prepare_points(step);
    }
    lab.add_point([0.5, 0.5], 3).unwrap();
    let steps = lab.preparing_steps();
    for step in 0..steps {
        lab.prepare_points(step);
    }
    let kept = lab.colours.borrow().clone().expect("kept").1;
    assert_eq!(kept.len(), n + 1);
    assert_eq!(kept[n], 1);
    assert!(kept[..n]
        .iter()
        .enumerate()
        .all(|(i, &c)| c == [2, 0, 1][i % 3]));
}

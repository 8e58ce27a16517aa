//! The legend names exactly the marks a picture draws: read off hand-made scenes (each mark
//! present or absent, its layer on or off) and off the scenes of real fits (the SVM's support
//! vectors, logistic regression's contours, of the likeliest class for the softmax model on
//! three classes, k-NN's cells, LDA's ellipses and means, the perceptron's mistake counts
//! while stepping, held-out points only when some are held out).
//!
//! Run alone with `cargo test --test legend`.

use kernel_playground::core::plane::{
    Colour, Curve, CurveKind, Decoration, Depth, Layers, Layout, LegendEntry, LegendMark, Mark,
    Pen, Primitive, Scene, Shading, SwatchShape, Weight,
};
use kernel_playground::lab::playground::Playground;
use kernel_playground::lab::state::Settings;
use kernel_playground::methods::marks;
use kernel_playground::methods::solvers::gaussian::means;

fn layers(hash: &str) -> Layers {
    Settings::from_hash(hash).unwrap().0.layers()
}

fn kinds(entries: &[LegendEntry]) -> Vec<String> {
    entries
        .iter()
        .map(|e| {
            let json = serde_json::to_value(&e.mark).unwrap();
            json["type"].as_str().unwrap().to_string()
        })
        .collect()
}

/// The legend of a real fit: the scene as the page's own copy draws it, regions painted.
fn legend_of(hash: &str) -> Vec<LegendEntry> {
    let mut lab = Playground::from_hash(hash);
    lab.fit();
    let scene = lab.scene(&Layout::new(400, 400));
    lab.legend(&scene, lab.settings().layers().on("regions"))
}

/// Edges named `name`, drawn with the layer `layer`, listed at `rank`.
fn edges(
    name: &'static str,
    layer: &'static str,
    rank: u16,
    lines: Vec<([f64; 2], [f64; 2])>,
) -> Decoration {
    let pen = Pen::solid(Colour::Ink, Weight::Px(1));
    let swatch = vec![SwatchShape::across(pen)];
    Decoration::new(
        name,
        Depth::UnderCurves,
        vec![Primitive::Segments { lines, pen }],
    )
    .on_layer(layer)
    .named(rank, name, "Edges.", swatch)
}

fn line(from: [f64; 2], to: [f64; 2]) -> Vec<[f64; 2]> {
    vec![from, to]
}

#[test]
fn a_scene_of_points_alone_names_its_classes_and_nothing_else() {
    let scene = Scene {
        points: vec![[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]],
        colour_of: vec![1, 0, 1],
        marks: vec![Mark::Plain; 3],
        hollow: vec![false; 3],
        ..Scene::default()
    };
    let legend = scene.legend(&layers(""), false);
    assert_eq!(kinds(&legend), ["class", "class"]);
    assert_eq!(legend[0].mark, LegendMark::Class { colour: 0 });
    assert_eq!(legend[0].label, "class 1");
    assert_eq!(legend[1].label, "class 2");
    assert!(legend.iter().all(|e| !e.explain.is_empty()));
}

#[test]
fn every_class_colour_present_is_named_once_in_order_however_high() {
    // Colours below 64 and past it (a scene of many classes), repeated and out of order.
    let colour_of = vec![70, 3, 0, 63, 3, 64, 70, 0];
    let n = colour_of.len();
    let scene = Scene {
        points: (0..n).map(|i| [i as f64, 0.0]).collect(),
        colour_of,
        marks: vec![Mark::Plain; n],
        hollow: vec![false; n],
        ..Scene::default()
    };
    let named: Vec<LegendMark> = scene
        .legend(&layers(""), false)
        .into_iter()
        .map(|e| e.mark)
        .collect();
    let classes = [0, 3, 63, 64, 70].map(|colour| LegendMark::Class { colour });
    assert_eq!(named, classes);
}

#[test]
fn support_vectors_and_test_points_follow_the_marks_and_their_layer() {
    // Point 2 is held out (hollow); its mark, were it marked, is not a support vector's.
    let scene = Scene {
        points: vec![[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]],
        colour_of: vec![0, 1, 1],
        marks: vec![Mark::BoundSupport, Mark::Plain, Mark::FreeSupport],
        hollow: vec![false, false, true],
        ..Scene::default()
    };
    let on = scene.legend(&layers("sv=1"), false);
    assert_eq!(kinds(&on), ["class", "class", "test", "bound_support"]);
    assert_eq!(on[2].mark, LegendMark::Test { colour: 1 });
    let off = scene.legend(&layers("sv=0"), false);
    assert_eq!(kinds(&off), ["class", "class", "test"]);
}

#[test]
fn lines_and_marks_are_named_only_when_drawn() {
    let scene = Scene {
        points: vec![[0.0, 0.0]],
        colour_of: vec![0],
        marks: vec![Mark::Plain],
        hollow: vec![false],
        curves: vec![
            Curve {
                points: line([0.0, 0.0], [1.0, 1.0]),
                kind: CurveKind::Boundary,
                label: None,
            },
            Curve {
                points: line([0.0, 1.0], [1.0, 2.0]),
                kind: CurveKind::Level,
                label: None,
            },
        ],
        decorations: vec![
            marks::slack(vec![([0.0, 0.0], [0.5, 0.5])]),
            marks::arrow("w", [0.0, 0.0], [1.0, 0.0]),
            edges("voronoi_edges", "vor", 70, vec![([0.0, 0.0], [0.0, 1.0])]),
            // Drawn whatever the layers.
            Decoration::new(
                "ellipses",
                Depth::UnderCurves,
                vec![Primitive::Outline {
                    points: line([0.0, 0.0], [1.0, 0.0]),
                    pen: Pen::solid(Colour::Class(1), Weight::Light),
                }],
            )
            .named(100, "ellipses", "Ellipses of the classes.", vec![]),
            means(vec![([0.0, 0.0], 1)]),
        ],
        region_colours: [0, 1],
        shading: Shading::Margin { scale: 1.0 },
        ..Scene::default()
    };
    let all = scene.legend(&layers("margins=1&slack=1&w=1&vor=1&del=1&regions=1"), true);
    assert_eq!(
        kinds(&all),
        [
            "class",
            "boundary",
            "levels",
            "slack",
            "w_arrow",
            "voronoi_edges",
            "ellipses",
            "means",
            "regions"
        ]
    );
    assert_eq!(all[2].label, "margins f = ±1");
    // The Delaunay layer is on but the scene has no Delaunay edges: not named.
    let none = scene.legend(&layers("margins=0&slack=0&w=0&vor=0"), false);
    assert_eq!(kinds(&none), ["class", "boundary", "ellipses", "means"]);
}

#[test]
fn real_fits_name_their_own_marks() {
    let svm = kinds(&legend_of("model=svm&preset=overlapping&n=60&C=1&test=0"));
    assert!(svm.contains(&"bound_support".into()), "{svm:?}");
    assert!(svm.contains(&"levels".into()), "{svm:?}");
    assert!(!svm.contains(&"test".into()), "nothing held out: {svm:?}");

    let held_out = kinds(&legend_of("model=svm&preset=moons&n=60&test=0.3"));
    assert!(held_out.contains(&"test".into()), "{held_out:?}");

    let logistic = legend_of("model=logistic&preset=moons&n=60&test=0");
    let names = kinds(&logistic);
    assert!(!names.iter().any(|k| k.ends_with("support")), "{names:?}");
    let levels = logistic
        .iter()
        .find(|e| e.mark == LegendMark::Levels { probability: true })
        .expect("probability contours");
    assert!(levels.label.contains("p = 0.9"), "{}", levels.label);

    // The softmax model's contours on three classes are of the likeliest class.
    let softmax = legend_of("model=logistic&multi=multinomial&preset=blobs3&n=60&test=0");
    let levels = softmax
        .iter()
        .find(|e| e.mark == LegendMark::Levels { probability: true })
        .expect("contours of the likeliest class");
    assert!(levels.label.contains("likeliest class"), "{}", levels.label);
    assert!(levels.label.contains("p = 0.9"), "{}", levels.label);
    // So are one-versus-rest logistic regression's (σ(f_k) normalised), LDA's, QDA's and naive
    // Bayes'; an SVM's votes have none.
    for scene in [
        "model=logistic&multi=ovr",
        "model=lda",
        "model=qda",
        "model=nb",
    ] {
        let entries = legend_of(&format!("{scene}&preset=blobs3&n=60&test=0"));
        let levels = entries
            .iter()
            .find(|e| e.mark == LegendMark::Levels { probability: true })
            .unwrap_or_else(|| panic!("{scene}: contours of the likeliest class"));
        assert!(levels.label.contains("likeliest class"), "{}", levels.label);
    }
    let votes = kinds(&legend_of("model=svm&preset=blobs3&n=60&test=0"));
    assert!(!votes.contains(&"levels".into()), "{votes:?}");

    // The Bayesian model's posterior draws are named; plain logistic regression has none.
    assert!(!names.contains(&"posterior_samples".into()), "{names:?}");
    let bayes = kinds(&legend_of(
        "model=bayeslogistic&features=poly&degree=3&preset=moons&n=60&test=0",
    ));
    assert!(bayes.contains(&"posterior_samples".into()), "{bayes:?}");
    assert!(bayes.contains(&"boundary".into()), "{bayes:?}");

    let knn = kinds(&legend_of("model=knn&k=1&preset=moons&n=40&vor=1"));
    assert!(knn.contains(&"voronoi_edges".into()), "{knn:?}");
    assert!(!knn.iter().any(|k| k.ends_with("support")), "{knn:?}");
    let knn5 = kinds(&legend_of("model=knn&k=5&preset=moons&n=40&vor=1"));
    assert!(!knn5.contains(&"voronoi_edges".into()), "{knn5:?}");

    let lda = kinds(&legend_of("model=lda&preset=blobs3&n=60"));
    for kind in ["ellipses", "means", "regions"] {
        assert!(lda.contains(&kind.into()), "{kind}: {lda:?}");
    }
    assert_eq!(lda.iter().filter(|k| *k == "class").count(), 3);
}

#[test]
fn a_stepped_perceptron_names_its_mistake_counts_and_last_update() {
    let mut lab = Playground::from_hash("model=perceptron&kernel=linear&preset=separable&n=30");
    lab.step();
    lab.step();
    lab.fit();
    let scene = lab.scene(&Layout::new(400, 400));
    let names = kinds(&lab.legend(&scene, true));
    assert!(names.contains(&"mistake_count".into()), "{names:?}");
    assert!(names.contains(&"last_update".into()), "{names:?}");
}

#[test]
fn classes_are_named_by_their_labels_not_their_rank() {
    // Labels −1 and 1 from a link: the lab names an integer label n 'class n+1' (a file
    // with written labels would show its own texts), where the scene knows only ranks.
    let mut lab = Playground::from_hash("points=0,0,-1;1,1,1;0,1,-1;1,0,1");
    lab.fit();
    let scene = lab.scene(&Layout::new(400, 400));
    let legend = lab.legend(&scene, true);
    let classes: Vec<&str> = legend
        .iter()
        .filter(|e| matches!(e.mark, LegendMark::Class { .. }))
        .map(|e| e.label.as_str())
        .collect();
    assert_eq!(classes, ["class 0", "class 2"]);
}

//! What a fitted model of any method shows on the plane, through the [`Model`] trait alone:
//! for two classes the decision field f on a pixel grid (evaluated exactly where a contour can
//! pass), its level curves (the boundary and whatever other levels the method draws: margins,
//! probability contours) and the shading; for more classes the class labels on the grid and
//! the boundaries between them; then the method's own marks ([`Model::decorate`]).

use crate::core::contour::level_curves;
use crate::core::data::{Dataset, Point};
use crate::core::field::{Field, Grid, LabelField, Smoothness, View};
use crate::core::plane::{
    Colour, Curve, CurveKind, Dash, Decoration, Depth, Layers, Layout, Mark, Pen, Primitive, Scene,
    Shading, SwatchShape, Weight,
};
use crate::methods::model::{Context, Model, PROBABILITY_LEVELS};

/// The grid for a plot of `layout`'s size: a node every 2 pixels, or every 3 for models whose
/// every node is a search (piecewise-constant votes), at most 321 a side; a draft of level k
/// ([`Layout::draft`]) has 1/(k + 1) as many intervals a side: a half (a quarter of the
/// nodes), a third (a ninth), never fewer than 30.
pub fn grid_for(model: &dyn Model, layout: &Layout, view: View) -> Grid {
    let spacing = if model.smoothness() == Smoothness::Steps {
        3.0
    } else {
        2.0
    };
    let intervals = (layout.plot.width / spacing).clamp(60.0, 320.0) as usize;
    let nodes = (intervals / (layout.draft as usize + 1)).max(30) + 1;
    Grid::new(view, nodes, nodes)
}

/// f − t on `grid` for a two-class model, its contours at `levels` (levels of f − t) where
/// the exact ones are. A kernel expansion is guaranteed that, at a cost that does not grow
/// with its terms where possible ([`crate::methods::model::KernelExpansion::on_grid`]): an
/// approximation with an error bound, with f summed exactly near the levels
/// ([`Field::bounded`]). Other models get the adaptive field, exact on a lattice and near the
/// levels ([`Field::adaptive`]).
pub fn two_class_field(model: &dyn Model, grid: Grid, levels: &[f64], threshold: f64) -> Field {
    let expansion = model.kernel_expansion();
    if let Some((approximate, error)) = expansion.as_ref().and_then(|e| e.on_grid(&grid)) {
        let exact = |r: usize, c: usize| model.decision_value(grid.node(r, c)) - threshold;
        let shifted = |r: usize, c: usize| approximate(r, c) - threshold;
        return Field::bounded(grid, levels, &shifted, error, &exact);
    }
    let evaluator = model.grid_evaluator(&grid);
    let minus_threshold = |r: usize, c: usize| evaluator(r, c) - threshold;
    let step = model.smoothness().coarse_step(&grid);
    Field::adaptive(grid, step, levels, &minus_threshold)
}

/// Where things are drawn from: the points the model was trained on (its marks follow their
/// order), every label on show (for the colours), the layers, the window, and the threshold t
/// of a two-class model (the boundary is f(x) = t, the regions f > t and f ≤ t).
pub struct Setting<'a> {
    pub data: &'a Dataset,
    pub classes: &'a [i32],
    pub layers: &'a Layers,
    pub view: View,
    pub threshold: f64,
}

/// Adds `model`'s regions, curves and marks to `scene`.
pub fn decorate(model: &dyn Model, scene: &mut Scene, layout: &Layout, setting: &Setting<'_>) {
    let Setting {
        data,
        classes,
        layers,
        view,
        threshold,
    } = *setting;
    let grid = grid_for(model, layout, view);
    let step = if model.exact_labels_on_grid() {
        1
    } else {
        model.smoothness().coarse_step(&grid)
    };
    let mut plane_field = None;
    if model.classes().len() > 2 {
        let evaluate = model.label_evaluator(&grid);
        let f = |r: usize, c: usize| {
            let (class, confidence) = evaluate(r, c);
            (class as u8, confidence as f32)
        };
        let mut labels = LabelField::adaptive(grid, step, &f);
        for k in 0..model.classes().len() {
            for points in level_curves(&labels.indicator(k as u8), 0.5) {
                scene.curves.push(Curve {
                    points,
                    kind: CurveKind::Boundary,
                    label: None,
                });
            }
        }
        // The label field holds the model's class indices; the colours follow every class
        // on show (a class with no training point has none of its own in the model).
        let colour: Vec<u8> = model
            .classes()
            .iter()
            .map(|c| classes.iter().position(|x| x == c).unwrap_or(0) as u8)
            .collect();
        if colour.iter().enumerate().any(|(k, &c)| k as u8 != c) {
            labels.recolour(&colour);
        }
        scene.labels = Some(labels);
        if layers.on("margins") && model.shading() == Shading::Probability {
            top_probability_contours(model, scene, grid);
        }
    } else {
        // The field holds f − t: its sign is the prediction at threshold t, its zero level the
        // boundary f = t; the other levels stay where they are in f.
        let levels = model.levels();
        let shifted =
            |l: &crate::methods::model::Level| if l.boundary { 0.0 } else { l.value - threshold };
        let values: Vec<f64> = levels.iter().map(shifted).collect();
        let field = two_class_field(model, grid, &values, threshold);
        for level in levels {
            if !level.boundary && !layers.on("margins") {
                continue;
            }
            let kind = if level.boundary {
                CurveKind::Boundary
            } else {
                CurveKind::Level
            };
            for points in level_curves(&field, shifted(&level)) {
                scene.curves.push(Curve {
                    points,
                    kind,
                    label: level.label.clone(),
                });
            }
        }
        plane_field = Some(field);
    }
    // How the regions deepen, and so what the dashed levels are (the legend's words): for more
    // classes too, whose probabilistic models draw contours of the likeliest class.
    scene.shading = model.shading();
    let context = Context {
        data,
        classes,
        layers,
        view,
        grid,
        field: plane_field.as_ref(),
        threshold,
        draft: layout.draft,
    };
    // The hulls first: the model's own marks are drawn over them.
    if layers.on("hulls") {
        hulls(scene, data, classes);
    }
    model.decorate(scene, &context);
    scene.field = plane_field;
    // Labels once per level, not on every piece of a broken contour.
    let mut labelled = std::collections::HashSet::new();
    for curve in scene.curves.iter_mut() {
        if let Some(label) = &curve.label {
            if !labelled.insert(label.clone()) || curve.points.len() < 8 {
                curve.label = None;
            }
        }
    }
    if scene.marks.len() != data.len() {
        scene.marks.resize(data.len(), Mark::Plain);
    }
}

/// The contours of the top class's probability max_k p(k | x) at the levels above ½, for a
/// probabilistic model of more than two classes (with two they are its [`Model::levels`]):
/// inside the p = 0.9 curve one class has nine chances in ten.
fn top_probability_contours(model: &dyn Model, scene: &mut Scene, grid: Grid) {
    let Some(top) = model.top_probability(&grid) else {
        return;
    };
    let levels: Vec<f64> = PROBABILITY_LEVELS
        .iter()
        .copied()
        .filter(|&p| p > 0.5)
        .collect();
    // max_k p(k | x) has a kink wherever the top class changes, which a lattice of 8 nodes
    // (a smooth model's) can step over: at most 4.
    let step = model.smoothness().coarse_step(&grid).min(4);
    let field = Field::adaptive(grid, step, &levels, &top);
    for level in levels {
        for points in level_curves(&field, level) {
            scene.curves.push(Curve {
                points,
                kind: CurveKind::Level,
                label: Some(format!("p = {level}")),
            });
        }
    }
}

/// The `hulls` layer, drawn from the training points whatever the model: for two classes
/// each class's convex hull and, when they are disjoint, the shortest segment between them
/// (whose perpendicular bisector is the hard-margin boundary).
fn hulls(scene: &mut Scene, data: &Dataset, classes: &[i32]) {
    let present = data.classes();
    let [negative, positive] = present[..] else {
        return;
    };
    let of = |label: i32| -> Vec<Point> {
        data.points
            .iter()
            .zip(&data.labels)
            .filter(|(_, &l)| l == label)
            .map(|(p, _)| *p)
            .collect()
    };
    let (a, b) = (of(negative), of(positive));
    let colour = |label: i32| classes.iter().position(|&c| c == label).unwrap_or(0);
    let outline = |label: i32, points: &[Point]| Primitive::Outline {
        points: crate::core::hull::convex_hull(points),
        pen: Pen::solid(Colour::Class(colour(label)), Weight::Light).dashed(Dash::Long),
    };
    let hulls = vec![outline(negative, &a), outline(positive, &b)];
    let (first, second) = (
        Colour::Class(colour(negative)),
        Colour::Class(colour(positive)),
    );
    let side = |from: [f32; 2], to: [f32; 2], colour: Colour| SwatchShape::Line {
        from,
        to,
        pen: Pen::solid(colour, Weight::Px(2)).dashed(Dash::Long),
    };
    let swatch = vec![
        side([3.0, 2.0], [23.0, 2.0], first),
        side([3.0, 2.0], [3.0, 16.0], first),
        side([23.0, 2.0], [23.0, 16.0], second),
        side([3.0, 16.0], [23.0, 16.0], second),
    ];
    scene.decorations.push(
        Decoration::new("hulls", Depth::UnderCurves, hulls)
            .on_layer("hulls")
            .named(
                120,
                "convex hulls of the classes (dashed)",
                "The smallest convex polygon round each class's training points: a line \
                 separates the classes exactly when the two hulls do not meet.",
                swatch,
            ),
    );
    if let Some((near, far)) = crate::core::hull::closest_points(&a, &b) {
        scene.decorations.push(hull_bridge(near, far));
    }
}

/// The shortest segment between the hulls (its end on the negative class's hull first), its
/// ends dotted, and its perpendicular bisector across the view, dash-dotted: for separable
/// classes, the hard-margin boundary.
fn hull_bridge(near: Point, far: Point) -> Decoration {
    let grey = Colour::Rgb(90, 90, 90);
    let shapes = vec![
        Primitive::Bisector {
            ends: (near, far),
            pen: Pen::solid(grey, Weight::Stroke).dashed(Dash::Short),
        },
        Primitive::Segments {
            lines: vec![(near, far)],
            pen: Pen::solid(grey, Weight::Bold),
        },
        Primitive::Dots {
            at: vec![near, far],
            colour: grey,
        },
    ];
    let swatch = vec![
        SwatchShape::across(Pen::solid(grey, Weight::Px(3))),
        SwatchShape::Line {
            from: [13.0, 1.0],
            to: [13.0, 17.0],
            pen: Pen::solid(grey, Weight::Px(2)).dashed(Dash::Short),
        },
    ];
    Decoration::new("hull_bridge", Depth::OverCurves, shapes)
        .on_layer("hulls")
        .named(
            130,
            "shortest segment between the hulls, and its bisector",
            "The closest pair of points of the two hulls and the line halfway between them at \
             right angles: the hard-margin SVM's boundary, with margin 1/‖w‖ half the segment's \
             length.",
            swatch,
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::{Point, Preset};
    use crate::lab::state::Settings;
    use crate::methods::model::FitOptions;

    #[test]
    fn probabilistic_models_of_three_classes_draw_contours_of_the_top_class() {
        // Standardised too: the contours are drawn in z and carried back to the plane.
        let scenes = [
            "model=logistic&multi=multinomial",
            "model=logistic&multi=ovr",
            "model=lda",
            "model=qda",
            "model=nb",
            "model=logistic&multi=multinomial&std=1",
            "model=qda&std=1",
        ];
        let data = Preset::Blobs3.generate(60, 0.2, 1);
        for scene in scenes {
            let (mut settings, _, _) = Settings::from_hash(scene).unwrap();
            let model = fitted(&settings, &data);
            let mut contours = |margins: &str| {
                settings.set("margins", margins).unwrap();
                let mut drawn = Scene::default();
                let setting = Setting {
                    data: &data,
                    classes: &data.classes(),
                    layers: &settings.layers(),
                    view: View::around(&data.points),
                    threshold: 0.0,
                };
                decorate(&*model, &mut drawn, &Layout::new(400, 400), &setting);
                assert!(drawn.labels.is_some(), "three classes paint labels");
                assert_eq!(drawn.shading, Shading::Probability, "{scene}");
                drawn
                    .curves
                    .into_iter()
                    .filter(|c| c.kind == CurveKind::Level)
                    .collect::<Vec<_>>()
            };
            let drawn = contours("1");
            for level in ["p = 0.75", "p = 0.9"] {
                let curves: Vec<_> = drawn
                    .iter()
                    .filter(|c| c.label.as_deref() == Some(level))
                    .collect();
                assert!(!curves.is_empty(), "{scene}: {level}");
                // On the curve the top class's probability is the level's.
                let p: f64 = level[4..].parse().unwrap();
                for curve in curves {
                    for x in curve.points.iter().step_by(5) {
                        let top = model
                            .probabilities(*x)
                            .unwrap()
                            .into_iter()
                            .fold(0.0, f64::max);
                        assert!((top - p).abs() < 0.02, "{scene}, {level}: {top} at {x:?}");
                    }
                }
            }
            assert!(contours("0").is_empty(), "{scene}");
        }
        // One-versus-rest probabilities are σ(f_k) normalised, as scikit-learn's
        // OneVsRestClassifier gives them: they sum to 1.
        let (settings, _, _) = Settings::from_hash("model=logistic&multi=ovr").unwrap();
        let p = fitted(&settings, &data).probabilities([0.1, -0.3]).unwrap();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    /// Whether `p` lies on an edge of `view` (to within 10⁻⁹ of its width).
    fn on_the_edge(view: &View, p: Point) -> bool {
        let near = |a: f64, b: f64| (a - b).abs() <= 1e-9 * view.width();
        near(p[0], view.x_min)
            || near(p[0], view.x_max)
            || near(p[1], view.y_min)
            || near(p[1], view.y_max)
    }

    /// `model`'s picture of `data` on a square plot of `side` pixels around the points.
    fn pictured(
        model: &dyn Model,
        settings: &Settings,
        data: &Dataset,
        side: u32,
        threshold: f64,
    ) -> Scene {
        let mut scene = Scene::default();
        let setting = Setting {
            data,
            classes: &data.classes(),
            layers: &settings.layers(),
            view: View::around(&data.points),
            threshold,
        };
        decorate(model, &mut scene, &Layout::new(side, side), &setting);
        scene
    }

    fn fitted(settings: &Settings, data: &Dataset) -> Box<dyn Model> {
        crate::methods::registry::fit(
            settings.method(),
            &settings.values,
            data,
            FitOptions::default(),
        )
        .unwrap()
    }

    /// Nodes where the page's adaptive field and the exact field put f on different sides of
    /// one of the levels drawn.
    fn misplaced_nodes(settings: &Settings, data: &Dataset) -> usize {
        let model = fitted(settings, data);
        let layout = Layout::new(700, 700);
        let mut scene = Scene {
            marks: vec![Mark::Plain; data.len()],
            ..Scene::default()
        };
        let view = View::around(&data.points);
        let classes = data.classes();
        let setting = Setting {
            data,
            classes: &classes,
            layers: &settings.layers(),
            view,
            threshold: 0.0,
        };
        decorate(&*model, &mut scene, &layout, &setting);
        let field = scene.field.expect("a two-class field");
        let grid = field.grid;
        let exact = Field::exact(grid, &|r, c| model.decision_value(grid.node(r, c)));
        let levels = [-1.0, 0.0, 1.0];
        field
            .values
            .iter()
            .zip(&exact.values)
            .filter(|(a, b)| levels.iter().any(|&l| (**a > l) != (**b > l)))
            .count()
    }

    /// Slack segments followed on the picture's field end on the margin f = y_i to within a
    /// pixel, as the exact Newton steps on f do, and there is one per point with slack.
    #[test]
    fn slack_segments_on_the_field_end_on_the_own_margin_within_a_pixel() {
        use crate::methods::solvers::svm::SvmModel;
        let data = Preset::Moons.generate(400, 0.3, 2);
        for (gamma, threshold) in [(1.0, 0.0), (8.0, 0.0), (2.0, 0.4)] {
            let settings = Settings::from_hash(&format!("kernel=rbf&gamma={gamma}&C=1"))
                .unwrap()
                .0;
            let model = fitted(&settings, &data);
            let svm = model.as_any().downcast_ref::<SvmModel>().expect("an SVM");
            let layout = Layout::new(700, 700);
            let view = View::around(&data.points);
            let scene = pictured(&*model, &settings, &data, 700, threshold);
            let slack = scene.decoration("slack").expect("slack").lines();
            let pixel = view.width() / layout.plot.width;
            let with_slack: Vec<usize> = svm
                .bound()
                .into_iter()
                .filter(|&i| svm.slack(i) > 0.0)
                .collect();
            assert!(with_slack.len() > 20, "γ = {gamma}: {}", with_slack.len());
            assert_eq!(slack.len(), with_slack.len(), "γ = {gamma}");
            for (&(start, end), &i) in slack.iter().zip(&with_slack) {
                assert_eq!(start, data.points[i]);
                let g = svm.gradient(end);
                let off = (svm.decision_value(end) - svm.y[i]).abs() / g[0].hypot(g[1]);
                assert!(
                    off <= pixel,
                    "γ = {gamma}, point {i}: {off} from the margin, a pixel is {pixel}"
                );
            }
        }
    }

    /// With a narrow RBF (γ = 1000) at a small C, f is a bump of height about C at each point
    /// and flat between them: no margin f = ±1 exists, and a Newton step from a point lands
    /// anywhere. Every slack segment drawn must still go up the slope to its own margin:
    /// ending on it within a pixel, or on the plot's edge with f there nearer to y_i than at
    /// the point; so here, where neither can be, none is drawn, not lines across the plot.
    #[test]
    fn slack_segments_go_to_the_own_margin_or_are_not_drawn() {
        use crate::methods::solvers::svm::SvmModel;
        let data = Preset::Moons.generate(100, 0.3, 2);
        let cases = [
            (1000.0, 0.3125),
            (1000.0, 3.0),
            (30.0, 0.3125),
            (1.0, 1.0),
            (2.0, 0.000125),
        ];
        for (gamma, c) in cases {
            let hash = format!("kernel=rbf&gamma={gamma}&C={c}&slack=1");
            let settings = Settings::from_hash(&hash).unwrap().0;
            let model = fitted(&settings, &data);
            let svm = model.as_any().downcast_ref::<SvmModel>().expect("an SVM");
            let layout = Layout::new(700, 700);
            let view = View::around(&data.points);
            let scene = pictured(&*model, &settings, &data, 700, 0.0);
            // As the plane draws them (on its field), and with Newton's steps on f itself.
            let exact: Vec<(Point, Point)> = (svm.bound().into_iter())
                .filter_map(|i| svm.slack_segment_in(i, &view))
                .collect();
            let drawn = scene.decoration("slack").expect("slack").lines();
            let pixel = view.width() / layout.plot.width;
            let on_edge = |p: Point| on_the_edge(&view, p);
            for (way, slack) in [("drawn", &drawn), ("exact", &exact)] {
                for &(start, end) in slack {
                    let i = (0..data.len()).find(|&i| data.points[i] == start).unwrap();
                    let (y, f) = (svm.y[i], |x| svm.decision_value(x));
                    let g = svm.gradient(end);
                    let off = (f(end) - y).abs() / g[0].hypot(g[1]);
                    let nearer = (f(end) - y).abs() < (f(start) - y).abs();
                    assert!(
                        off <= 2.0 * pixel || (on_edge(end) && nearer),
                        "γ = {gamma}, C = {c}, {way}, point {i}: ends {off} from its margin \
                         at {end:?}, f {} → {}, y {y}",
                        f(start),
                        f(end)
                    );
                }
                if gamma == 1000.0 && c < 1.0 {
                    let most = svm.margins.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
                    assert!(most < 1.0, "no margin exists: |y f| ≤ {most}");
                    assert!(slack.is_empty(), "γ = {gamma}, {way}: {slack:?}");
                }
            }
            // |f| ≤ |b| + Σ α_i < 1 for an RBF kernel: f = ±1 is nowhere, though f may rise a
            // little towards the plot's edge.
            let most = svm.bias.abs() + svm.expansion().iter().map(|e| e.1.abs()).sum::<f64>();
            if most < 1.0 {
                assert!(drawn.is_empty(), "γ = {gamma}, C = {c}: {drawn:?}");
            }
        }
    }

    /// At C = 0.001 on separable blobs f is nearly flat: every point is a bound vector with
    /// slack. With a linear kernel its own margin lies far beyond the plot, and each slack
    /// segment starts at its point, runs along w towards it, parallel to every other one, and
    /// ends on the plot's edge. With an RBF kernel |f| ≤ |b| + Σ α_i < 1 everywhere: there is
    /// no margin to run to, and no segment is drawn.
    #[test]
    fn slack_segments_at_a_small_c_run_along_w_to_the_plot_edge_or_are_not_drawn() {
        use crate::methods::solvers::svm::SvmModel;
        let data = Preset::Separable.generate(60, 0.2, 3);
        for kernel in ["linear", "rbf&gamma=2"] {
            let hash = format!("kernel={kernel}&C=0.001&slack=1");
            let settings = Settings::from_hash(&hash).unwrap().0;
            let model = fitted(&settings, &data);
            let svm = model.as_any().downcast_ref::<SvmModel>().expect("an SVM");
            let view = View::around(&data.points);
            let scene = pictured(&*model, &settings, &data, 700, 0.0);
            let slack = scene.decoration("slack").expect("slack").lines();
            let with_slack: Vec<usize> = (svm.bound().into_iter())
                .filter(|&i| svm.slack(i) > 0.0)
                .collect();
            assert!(with_slack.len() >= 50, "{kernel}: {}", with_slack.len());
            if svm.w.is_none() {
                let most = svm.bias.abs() + svm.expansion().iter().map(|e| e.1.abs()).sum::<f64>();
                assert!(most < 1.0, "{kernel}: |f| ≤ {most}");
                assert!(slack.is_empty(), "{kernel}: {slack:?}");
                continue;
            }
            assert_eq!(slack.len(), with_slack.len(), "{kernel}");
            let on_edge = |p: Point| on_the_edge(&view, p);
            for (&(start, end), &i) in slack.iter().zip(&with_slack) {
                assert_eq!(start, data.points[i], "{kernel}");
                assert!(
                    on_edge(end),
                    "point {i}: the margin is beyond the plot, {end:?}"
                );
                // Along ±w, towards the own margin.
                let d = [end[0] - start[0], end[1] - start[1]];
                let g = svm.gradient(start);
                let sine = (d[0] * g[1] - d[1] * g[0]) / (d[0].hypot(d[1]) * g[0].hypot(g[1]));
                let towards = (d[0] * g[0] + d[1] * g[1]) * (svm.y[i] - svm.decision_value(start));
                assert!(towards > 0.0, "point {i}: away from its margin");
                assert!(sine.abs() < 1e-9, "point {i}: off w ({sine})");
            }
        }
    }

    #[test]
    fn class_regions_match_the_ensemble_prediction() {
        let data = Preset::Spiral3.generate(150, 0.1, 2);
        for scheme in ["ovo", "ovr"] {
            let mut settings = Settings::default();
            settings.set("mc", scheme).unwrap();
            let model = fitted(&settings, &data);
            assert_eq!(model.classes().len(), 3);
            let scene = pictured(&*model, &settings, &data, 500, 0.0);
            let labels = scene.labels.expect("a label field");
            let grid = labels.grid;
            let mut wrong = 0;
            for r in 0..grid.rows {
                for c in 0..grid.cols {
                    if labels.at(r, c).0 as usize != model.label_and_confidence(grid.node(r, c)).0 {
                        wrong += 1;
                    }
                }
            }
            assert!(
                wrong <= 5,
                "{scheme}: {wrong} nodes painted the wrong class"
            );
        }
    }

    #[test]
    fn narrow_kernels_get_a_finer_lattice() {
        let data = Preset::Overlapping.generate(100, 0.3, 1);
        for gamma in ["2", "30", "300"] {
            let mut settings = Settings::default();
            settings.set("gamma", gamma).unwrap();
            settings.set("C", "10").unwrap();
            let wrong = misplaced_nodes(&settings, &data);
            assert!(
                wrong <= 5,
                "γ = {gamma}: {wrong} nodes on the wrong side of a level"
            );
        }
    }
}

//! What each fitted model adds to the picture: the SVM its margins f = ±1, support vectors
//! (free and bound), slacks and w arrow; the perceptron its mistake counts, the point of the
//! last update and w; logistic regression its probability contours p = 0.1, 0.25, 0.75, 0.9;
//! k-nearest neighbours its vote shares, Voronoi cells (k = 1) with the exact class boundary
//! along them and their Delaunay dual, and lines to the neighbours of the pointer; with more
//! than two classes, class regions and boundaries from a label field, and each pairwise model's
//! own boundary on request.

use crate::contour::level_curves;
use crate::data::{Dataset, Point};
use crate::field::{Field, Grid, LabelField, View};
use crate::fitted::{Fitted, PROBABILITY_LEVELS};
use crate::model::Classifier;
use crate::multiclass::{Multiclass, MAX_CLASSES};
use crate::scene::{Curve, CurveKind, Layers, Layout, Mark, Scene, Shading};
use crate::solvers::knn::Metric;
use crate::solvers::perceptron::PerceptronModel;
use crate::solvers::svm::AlphaStatus;
use crate::voronoi::{delaunay_edges, voronoi_cells};

/// Grid nodes per side of the coarse lattice in the adaptive field (see [`Field::adaptive`])
/// for smooth models.
const COARSE_STEP: usize = 8;

/// The coarse lattice's step for this model on `grid`: 8 nodes for smooth fields; for an RBF
/// kernel (or RBF features) of width 1/√γ, small enough that a bump around one point spans
/// a few lattice cells; 4 for k-NN, whose piecewise-constant votes give the refinement no
/// slope to go by.
fn coarse_step(model: &Fitted, grid: &Grid) -> usize {
    let node_spacing = grid.view.width() / (grid.cols - 1) as f64;
    let for_gamma = |gamma: f64| {
        let width = 0.35 / gamma.sqrt();
        ((width / node_spacing).floor() as usize).clamp(2, COARSE_STEP)
    };
    match model {
        Fitted::Svm(m) => match m.kernel {
            crate::kernel::Kernel::Rbf { gamma } => for_gamma(gamma),
            _ => COARSE_STEP,
        },
        Fitted::Perceptron(m) => match m.kernel {
            crate::kernel::Kernel::Rbf { gamma } => for_gamma(gamma),
            _ => COARSE_STEP,
        },
        Fitted::Logistic(m) => match m.map.features {
            crate::solvers::logistic::Features::Rbf { gamma } => for_gamma(gamma),
            _ => COARSE_STEP,
        },
        Fitted::Knn(_) => 4,
        Fitted::Multi(multi) => multi
            .members
            .iter()
            .map(|member| coarse_step(&member.model, grid))
            .min()
            .unwrap_or(COARSE_STEP),
    }
}

impl Fitted {
    /// Adds this method's field, curves and marks to `scene`.
    pub fn decorate(
        &self,
        scene: &mut Scene,
        data: &Dataset,
        layout: &Layout,
        layers: &Layers,
        view: View,
    ) {
        // A node every 2 pixels; k-NN, whose every node is a neighbour search, every 3.
        let spacing = if matches!(self, Fitted::Knn(_)) {
            3.0
        } else {
            2.0
        };
        let nodes = (layout.plot.width / spacing).clamp(60.0, 320.0) as usize + 1;
        let grid = Grid::new(view, nodes, nodes);
        if self.is_multiclass() {
            self.decorate_classes(scene, data, layers, grid);
            return;
        }
        let (levels, shading): (Vec<(f64, CurveKind, Option<String>)>, Shading) = match self {
            Fitted::Svm(_) => (
                vec![
                    (0.0, CurveKind::Boundary, None),
                    (-1.0, CurveKind::Level, None),
                    (1.0, CurveKind::Level, None),
                ],
                Shading::Margin { scale: 1.0 },
            ),
            Fitted::Perceptron(model) => (
                vec![(0.0, CurveKind::Boundary, None)],
                Shading::Margin {
                    scale: typical_margin(model, &data.points),
                },
            ),
            Fitted::Logistic(_) => {
                let mut levels = vec![(0.0, CurveKind::Boundary, None)];
                for p in PROBABILITY_LEVELS {
                    levels.push((
                        (p / (1.0 - p)).ln(),
                        CurveKind::Level,
                        Some(format!("p = {p}")),
                    ));
                }
                (levels, Shading::Probability)
            }
            Fitted::Knn(_) | Fitted::Multi(_) => {
                (vec![(0.0, CurveKind::Boundary, None)], Shading::Share)
            }
        };
        scene.shading = shading;
        let level_values: Vec<f64> = levels.iter().map(|l| l.0).collect();
        let field = match self.classifier() {
            Some(model) => {
                let evaluator = model.grid_evaluator(&grid);
                Field::adaptive(grid, coarse_step(self, &grid), &level_values, &*evaluator)
            }
            None => {
                let f = |r: usize, c: usize| self.decision(grid.node(r, c));
                Field::adaptive(grid, coarse_step(self, &grid), &level_values, &f)
            }
        };
        for (level, kind, label) in levels {
            if kind == CurveKind::Level && !layers.margins {
                continue;
            }
            for points in level_curves(&field, level) {
                scene.curves.push(Curve {
                    points,
                    kind,
                    label: label.clone(),
                });
            }
        }
        // Probability labels once per level, not on every piece of a broken contour.
        let mut labelled = std::collections::HashSet::new();
        for curve in scene.curves.iter_mut() {
            if let Some(label) = &curve.label {
                if !labelled.insert(label.clone()) || curve.points.len() < 8 {
                    curve.label = None;
                }
            }
        }
        scene.field = Some(field);

        match self {
            Fitted::Svm(model) => {
                for (i, mark) in scene.marks.iter_mut().enumerate() {
                    *mark = match model.status(i) {
                        AlphaStatus::NonSupport => Mark::Plain,
                        AlphaStatus::Free => Mark::FreeSupport,
                        AlphaStatus::Bound => Mark::BoundSupport,
                    };
                }
                if layers.slack {
                    scene.slack_segments = model
                        .bound()
                        .into_iter()
                        .filter_map(|i| model.slack_segment(i))
                        .collect();
                }
                if layers.w_arrow {
                    scene.w_arrow = model.w.and_then(|w| w_arrow(w, model.bias, &view));
                }
            }
            Fitted::Perceptron(model) => {
                scene.point_labels = (0..model.alpha.len())
                    .filter(|&i| model.alpha[i] > 0.0)
                    .map(|i| (i, format!("{}", model.alpha[i] as usize)))
                    .collect();
                scene.emphasis = model.last_update;
                if layers.w_arrow {
                    scene.w_arrow = model.w.and_then(|w| w_arrow(w, model.bias, &view));
                }
            }
            Fitted::Logistic(model) => {
                if layers.w_arrow {
                    scene.w_arrow = model.w().and_then(|w| w_arrow(w, model.bias, &view));
                }
            }
            Fitted::Multi(_) => {}
            Fitted::Knn(model) => {
                if model.params().k == 1 && model.params().metric == Metric::Euclidean {
                    let sites = &data.points;
                    let cells = voronoi_cells(sites, &view);
                    // With one neighbour the class boundary is exactly the Voronoi edges
                    // between cells of different classes: draw those, not the grid's contour.
                    scene.curves.retain(|c| c.kind != CurveKind::Boundary);
                    for (i, j) in delaunay_edges(sites) {
                        if data.labels[i] == data.labels[j] {
                            continue;
                        }
                        if let Some((a, b)) = shared_edge(&cells[i], sites[i], sites[j], &view) {
                            scene.curves.push(Curve {
                                points: vec![a, b],
                                kind: CurveKind::Boundary,
                                label: None,
                            });
                        }
                    }
                    if layers.voronoi {
                        scene.cell_edges = cell_edges(&cells);
                    }
                    if layers.delaunay {
                        scene.delaunay_edges = delaunay_edges(sites)
                            .into_iter()
                            .map(|(a, b)| (sites[a], sites[b]))
                            .collect();
                    }
                }
            }
        }
    }

    /// Regions, class boundaries and (SVM) support vectors for more than two classes; with the
    /// pairwise layer, each two-class model's own boundary f = 0, dashed and labelled.
    fn decorate_classes(&self, scene: &mut Scene, data: &Dataset, layers: &Layers, grid: Grid) {
        let labels = match self {
            // Each member's own grid evaluator (separable RBF and the like), combined per node.
            Fitted::Multi(multi) => {
                let evaluators: Vec<_> = multi
                    .members
                    .iter()
                    .filter_map(|m| m.model.classifier().map(|c| c.grid_evaluator(&grid)))
                    .collect();
                let f = |r: usize, c: usize| {
                    let mut values = [0.0; MAX_CLASSES * (MAX_CLASSES - 1) / 2];
                    for (v, evaluate) in values.iter_mut().zip(&evaluators) {
                        *v = evaluate(r, c);
                    }
                    let (class, confidence) = multi.combine(&values[..evaluators.len()]);
                    (class as u8, confidence as f32)
                };
                LabelField::adaptive(grid, coarse_step(self, &grid), &f)
            }
            _ => {
                let f = |r: usize, c: usize| {
                    let (class, confidence) = self.label_and_confidence(grid.node(r, c));
                    (class as u8, confidence as f32)
                };
                LabelField::adaptive(grid, coarse_step(self, &grid), &f)
            }
        };
        let classes = self.classes();
        for k in 0..classes.len() {
            for points in level_curves(&labels.indicator(k as u8), 0.5) {
                scene.curves.push(Curve {
                    points,
                    kind: CurveKind::Boundary,
                    label: None,
                });
            }
        }
        scene.labels = Some(labels);
        let Fitted::Multi(multi) = self else { return };
        if layers.support_vectors {
            scene.marks = support_marks(multi, data.len());
        }
        if layers.pairwise {
            for member in &multi.members {
                let Some(model) = member.model.classifier() else {
                    continue;
                };
                let evaluator = model.grid_evaluator(&grid);
                let field =
                    Field::adaptive(grid, coarse_step(&member.model, &grid), &[0.0], &*evaluator);
                let name = match member.negative {
                    Some(i) => format!("{} | {}", i + 1, member.positive + 1),
                    None => format!("{} | rest", member.positive + 1),
                };
                for points in level_curves(&field, 0.0) {
                    scene.curves.push(Curve {
                        points,
                        kind: CurveKind::Level,
                        label: Some(name.clone()),
                    });
                }
            }
        }
    }

    /// Lines from `at` to its nearest neighbours (k-NN only).
    pub fn neighbour_lines(&self, at: Point, data: &Dataset) -> Vec<(Point, Point)> {
        match self {
            Fitted::Knn(model) => model
                .neighbours(at)
                .into_iter()
                .map(|(i, _)| (at, data.points[i]))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// How each training point is marked by an ensemble of SVMs: a support vector of any member
/// is ringed, as a bound one if it is bound in any member.
pub(crate) fn support_marks(multi: &Multiclass, n: usize) -> Vec<Mark> {
    let mut marks = vec![Mark::Plain; n];
    for member in &multi.members {
        let Fitted::Svm(model) = &member.model else {
            continue;
        };
        for (local, &t) in member.indices.iter().enumerate() {
            let mark = match model.status(local) {
                AlphaStatus::NonSupport => continue,
                AlphaStatus::Free => Mark::FreeSupport,
                AlphaStatus::Bound => Mark::BoundSupport,
            };
            if marks[t] != Mark::BoundSupport {
                marks[t] = mark;
            }
        }
    }
    marks
}

/// A scale for shading a perceptron's f, which has no natural unit: the median |f| over the
/// training points.
fn typical_margin(model: &PerceptronModel, points: &[Point]) -> f64 {
    let mut values: Vec<f64> = points
        .iter()
        .map(|&p| model.decision_value(p).abs())
        .collect();
    values.sort_by(|a, b| a.total_cmp(b));
    values
        .get(values.len() / 2)
        .copied()
        .filter(|m| *m > 0.0)
        .unwrap_or(1.0)
}

/// The edges of the Voronoi cells (an edge shared by two cells comes twice, which draws the same).
fn cell_edges(cells: &[Vec<Point>]) -> Vec<(Point, Point)> {
    let mut edges = Vec::new();
    for cell in cells {
        for (k, &a) in cell.iter().enumerate() {
            edges.push((a, cell[(k + 1) % cell.len()]));
        }
    }
    edges
}

/// The edge of `cell` (the cell of `site`) that lies on the perpendicular bisector of `site`
/// and `other`: the Voronoi edge the two cells share, if they share one inside the view.
fn shared_edge(cell: &[Point], site: Point, other: Point, view: &View) -> Option<(Point, Point)> {
    let tolerance = 1e-9 * view.width() * view.width();
    let on_bisector = |p: Point| {
        let d = |q: Point| (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2);
        (d(site) - d(other)).abs() <= tolerance
    };
    (0..cell.len())
        .map(|k| (cell[k], cell[(k + 1) % cell.len()]))
        .find(|&(a, b)| a != b && on_bisector(a) && on_bisector(b))
}

/// The w arrow: from the boundary point nearest the view's centre, along w, a quarter of the
/// view long (its direction is w's; ‖w‖ is in the status line).
pub fn w_arrow(w: [f64; 2], bias: f64, view: &View) -> Option<(Point, Point)> {
    let norm2 = w[0] * w[0] + w[1] * w[1];
    if norm2 <= 0.0 || !norm2.is_finite() {
        return None;
    }
    let centre = [
        (view.x_min + view.x_max) / 2.0,
        (view.y_min + view.y_max) / 2.0,
    ];
    // Move the centre along w onto wᵀx + b = 0.
    let t = -(w[0] * centre[0] + w[1] * centre[1] + bias) / norm2;
    let tail = [centre[0] + t * w[0], centre[1] + t * w[1]];
    if !view.contains(tail) {
        return None;
    }
    let length = 0.25 * view.width() / norm2.sqrt();
    Some((tail, [tail[0] + length * w[0], tail[1] + length * w[1]]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Preset;
    use crate::solvers::svm::SvmTrainer;
    use crate::state::Settings;

    /// Nodes where the page's adaptive field and the exact field put f on different sides of
    /// one of the levels drawn.
    fn misplaced_nodes(settings: &Settings, data: &Dataset) -> usize {
        let model = Fitted::fit(settings, data, &mut SvmTrainer::new(), None).unwrap();
        let layout = Layout::new(700, 700);
        let mut scene = Scene {
            marks: vec![Mark::Plain; data.len()],
            ..Scene::default()
        };
        let view = View::around(&data.points);
        model.decorate(&mut scene, data, &layout, &settings.layers, view);
        let field = scene.field.expect("a two-class field");
        let grid = field.grid;
        let exact = Field::exact(grid, &|r, c| model.decision(grid.node(r, c)));
        let levels = [-1.0, 0.0, 1.0];
        field
            .values
            .iter()
            .zip(&exact.values)
            .filter(|(a, b)| levels.iter().any(|&l| (**a > l) != (**b > l)))
            .count()
    }

    #[test]
    fn class_regions_match_the_ensemble_prediction() {
        let data = Preset::Spiral3.generate(150, 0.1, 2);
        for scheme in ["ovo", "ovr"] {
            let mut settings = Settings::default();
            settings.set("mc", scheme).unwrap();
            let model = Fitted::fit(&settings, &data, &mut SvmTrainer::new(), None).unwrap();
            let Fitted::Multi(multi) = &model else {
                panic!("three classes")
            };
            let mut scene = Scene::default();
            let layout = Layout::new(500, 500);
            model.decorate(
                &mut scene,
                &data,
                &layout,
                &settings.layers,
                View::around(&data.points),
            );
            let labels = scene.labels.expect("a label field");
            let grid = labels.grid;
            let mut wrong = 0;
            for r in 0..grid.rows {
                for c in 0..grid.cols {
                    if labels.at(r, c).0 as usize != multi.predict_index(grid.node(r, c)).0 {
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

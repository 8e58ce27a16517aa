//! A fitted model of any method, and what each method adds to the picture, the status line and
//! the hover readout: the SVM its margins, support vectors and slacks; the perceptron its
//! mistake counts, the point of the last update and Novikoff's bound; logistic regression its
//! probability contours p = 0.1, 0.25, 0.75, 0.9; k-nearest neighbours its vote shares, Voronoi
//! cells (k = 1) with their Delaunay dual, and lines to the neighbours of the pointer.

use crate::contour::level_curves;
use crate::data::{Dataset, Point};
use crate::error::Error;
use crate::field::{Field, Grid, LabelField, View};
use crate::model::{Classifier, ExitReason};
use crate::multiclass::{argmax, Multiclass, Scheme, MAX_CLASSES};
use crate::scene::{Curve, CurveKind, Layers, Layout, Mark, Scene, Shading};
use crate::solvers::knn::{KnnModel, Metric};
use crate::solvers::logistic::{sigmoid, LogisticModel, LogisticParams};
use crate::solvers::perceptron::{PerceptronModel, PerceptronParams};
use crate::solvers::svm::{AlphaStatus, SvmModel, SvmTrainer};
use crate::state::Settings;
use crate::voronoi::{delaunay_edges, voronoi_cells};
use serde::Serialize;

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

/// The probabilities whose contours logistic regression shows besides p = ½.
pub const PROBABILITY_LEVELS: [f64; 4] = [0.1, 0.25, 0.75, 0.9];

/// The numbers of the status line (what does not apply is `None`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Status {
    pub model: String,
    pub points: usize,
    pub classes: usize,
    pub train_accuracy: Option<f64>,
    pub support: usize,
    pub free: usize,
    pub bound: usize,
    pub objective: Option<f64>,
    pub iterations: Option<usize>,
    pub converged: Option<bool>,
    pub warm_start: Option<bool>,
    pub bias: Option<f64>,
    pub w: Option<[f64; 2]>,
    pub margin_width: Option<f64>,
    pub mistakes: Option<usize>,
    pub epochs: Option<usize>,
    pub novikoff_bound: Option<f64>,
    pub log_loss: Option<f64>,
    pub k: Option<usize>,
    /// More than two classes: "ovo" or "ovr", and how many two-class models.
    pub scheme: Option<String>,
    pub members: Option<usize>,
    /// Updates shown when stepping through a run.
    pub steps: Option<usize>,
    /// What the person should know: why nothing is fitted, or why the fit is not to be trusted.
    pub message: Option<String>,
}

/// What is under the pointer.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Inspection {
    pub x: f64,
    pub y: f64,
    /// f at (x, y) for two-class models.
    pub decision: Option<f64>,
    /// p(positive class | x), logistic regression.
    pub probability: Option<f64>,
    /// The predicted label there.
    pub predicted: Option<i32>,
    /// The k-NN vote shares, in class order.
    pub votes: Option<Vec<f64>>,
    /// The training point under the pointer, if any.
    pub index: Option<usize>,
    pub label: Option<i32>,
    /// y_i ∈ {−1, +1}.
    pub target: Option<f64>,
    /// α_i (SVM multiplier, or perceptron mistake count).
    pub alpha: Option<f64>,
    /// y_i f(x_i).
    pub margin: Option<f64>,
    pub slack: Option<f64>,
    /// The KKT case in words.
    pub case: Option<String>,
}

/// A fitted model.
#[derive(Clone, Debug)]
pub enum Fitted {
    Svm(SvmModel),
    Perceptron(PerceptronModel),
    Logistic(LogisticModel),
    Knn(KnnModel),
    /// More than two classes from two-class models (one-versus-one or one-versus-rest).
    Multi(Box<Multiclass>),
}

impl Fitted {
    /// Fits the method the settings name. `steps` limits a perceptron run to that many
    /// updates, or logistic regression to that many iterations (stepping through a run).
    pub fn fit(
        settings: &Settings,
        data: &Dataset,
        trainer: &mut SvmTrainer,
        steps: Option<usize>,
    ) -> Result<Fitted, Error> {
        let (points, labels) = (&data.points, &data.labels);
        let classes = data.classes().len();
        if classes > MAX_CLASSES {
            return Err(Error::TooManyClasses {
                found: classes,
                max: MAX_CLASSES,
            });
        }
        if classes > 2 && settings.model != "knn" {
            let scheme = match settings.model.as_str() {
                "svm" => settings.multiclass,
                _ => Scheme::OneVsRest,
            };
            let multi = Multiclass::fit(data, scheme, |pair| {
                Fitted::fit(settings, pair, &mut SvmTrainer::new(), None)
            })?;
            return Ok(Fitted::Multi(Box::new(multi)));
        }
        Ok(match settings.model.as_str() {
            "perceptron" => {
                let params = PerceptronParams {
                    max_updates: steps,
                    ..settings.perceptron_params()?
                };
                Fitted::Perceptron(PerceptronModel::fit(points, labels, &params)?)
            }
            "logistic" => {
                let params = LogisticParams {
                    max_iter: steps,
                    ..settings.logistic_params()?
                };
                Fitted::Logistic(LogisticModel::fit(points, labels, &params)?)
            }
            "knn" => {
                let model = KnnModel::fit(points, labels, &settings.knn_params()?)?;
                if model.classes().len() < 2 {
                    return Err(Error::OneClass);
                }
                Fitted::Knn(model)
            }
            _ => Fitted::Svm(trainer.fit(points, labels, &settings.svm_params()?)?),
        })
    }

    /// The two-class decision function, for the methods that have one.
    fn classifier(&self) -> Option<&dyn Classifier> {
        match self {
            Fitted::Svm(m) => Some(m),
            Fitted::Perceptron(m) => Some(m),
            Fitted::Logistic(m) => Some(m),
            Fitted::Knn(_) | Fitted::Multi(_) => None,
        }
    }

    /// Whether the model tells more than two classes apart.
    pub fn is_multiclass(&self) -> bool {
        match self {
            Fitted::Knn(m) => m.classes().len() > 2,
            Fitted::Multi(_) => true,
            _ => false,
        }
    }

    /// One score per class (k-NN: vote shares; one-versus-one: votes; one-versus-rest: each
    /// model's f; two-class models: [−f, f]).
    pub fn scores(&self, x: Point) -> Vec<f64> {
        match self {
            Fitted::Knn(m) => {
                let mut votes = vec![0.0; m.classes().len()];
                m.votes(x, &mut votes);
                votes
            }
            Fitted::Multi(m) => {
                let mut scores = vec![0.0; m.classes.len()];
                m.scores(x, &mut scores);
                scores
            }
            other => {
                let f = other.decision(x);
                vec![-f, f]
            }
        }
    }

    /// The predicted class index and a confidence in [0, 1], for painting regions.
    fn label_and_confidence(&self, x: Point) -> (usize, f64) {
        match self {
            Fitted::Multi(m) => m.predict_index(x),
            other => {
                let votes = other.scores(x);
                let best = argmax(&votes);
                let k = votes.len() as f64;
                (
                    best,
                    ((votes[best] - 1.0 / k) / (1.0 - 1.0 / k)).clamp(0.0, 1.0),
                )
            }
        }
    }

    /// f(x): the decision value, or for k-NN 2·(vote share of the second class) − 1; for more
    /// than two classes, the winning class's score.
    pub fn decision(&self, x: Point) -> f64 {
        match self {
            Fitted::Multi(_) => {
                let scores = self.scores(x);
                scores[argmax(&scores)]
            }
            Fitted::Knn(m) if m.classes().len() > 2 => {
                let scores = self.scores(x);
                scores[argmax(&scores)]
            }
            Fitted::Knn(m) => {
                let mut votes = [0.0; 2];
                m.votes(x, &mut votes);
                votes[1] - votes[0]
            }
            other => other
                .classifier()
                .expect("two-class model")
                .decision_value(x),
        }
    }

    pub fn classes(&self) -> Vec<i32> {
        match self {
            Fitted::Knn(m) => m.classes().to_vec(),
            Fitted::Multi(m) => m.classes.clone(),
            other => other
                .classifier()
                .expect("two-class model")
                .classes()
                .to_vec(),
        }
    }

    pub fn predict(&self, x: Point) -> i32 {
        match self {
            Fitted::Knn(m) => m.predict(x),
            Fitted::Multi(m) => m.predict(x),
            other => other.classifier().expect("two-class model").predict(x),
        }
    }

    pub fn accuracy(&self, data: &Dataset) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let correct = data
            .points
            .iter()
            .zip(&data.labels)
            .filter(|(&p, &l)| self.predict(p) == l)
            .count();
        correct as f64 / data.len() as f64
    }

    /// Whether the last fit was a warm start (only the SVM warm-starts).
    pub fn warm_started(&self) -> bool {
        matches!(self, Fitted::Svm(m) if m.report.warm_start)
    }

    /// Fills in what this method reports.
    pub fn report(&self, data: &Dataset, status: &mut Status) {
        status.train_accuracy = Some(self.accuracy(data));
        match self {
            Fitted::Svm(model) => {
                let statuses: Vec<AlphaStatus> =
                    (0..model.alpha.len()).map(|i| model.status(i)).collect();
                status.free = statuses.iter().filter(|&&s| s == AlphaStatus::Free).count();
                status.bound = statuses
                    .iter()
                    .filter(|&&s| s == AlphaStatus::Bound)
                    .count();
                status.support = status.free + status.bound;
                status.objective = Some(model.report.objective);
                status.iterations = Some(model.report.iterations);
                status.converged = Some(model.report.exit == ExitReason::Converged);
                status.warm_start = Some(model.report.warm_start);
                status.bias = Some(model.bias);
                status.w = model.w;
                status.margin_width = model.margin_width();
                status.message = if model.hard_margin_failed() {
                    Some("not linearly separable in this feature space — lower C".into())
                } else if model.report.exit == ExitReason::IterationCap {
                    Some(format!(
                        "SMO stopped at its iteration cap ({} iterations) before the KKT \
                         conditions held; the picture is approximate",
                        model.report.iterations
                    ))
                } else {
                    None
                };
            }
            Fitted::Perceptron(model) => {
                status.mistakes = Some(model.mistakes);
                status.epochs = Some(model.epochs);
                status.converged = Some(model.converged);
                status.bias = Some(model.bias);
                status.w = model.w;
                status.novikoff_bound = model.novikoff_bound();
                status.message = match (model.finished, model.converged, model.out_of_work) {
                    (true, false, true) => Some(format!(
                        "the kernel perceptron stopped after {} updates without converging: \
                         the data are probably not separable in this feature space",
                        model.mistakes
                    )),
                    (true, false, false) => Some(format!(
                        "the perceptron did not converge in {} epochs: the data are not \
                         separable in this feature space (or need more epochs)",
                        model.epochs
                    )),
                    _ => None,
                };
            }
            Fitted::Logistic(model) => {
                status.objective = Some(model.objective);
                status.log_loss = Some(model.log_loss);
                status.iterations = Some(model.report.iterations);
                status.converged = Some(model.report.exit == ExitReason::Converged);
                status.bias = Some(model.bias);
                status.w = model.w();
                let stepping = status.steps.is_some();
                status.message = if model.overshoot {
                    Some(
                        "gradient descent overshoots (the objective rose): lower the learning rate"
                            .into(),
                    )
                } else if model.report.exit != ExitReason::Converged && !stepping {
                    Some(format!(
                        "the solver stopped after {} iterations before converging; {}",
                        model.report.iterations,
                        if model.lambda < 1e-3 {
                            "with a tiny λ on separable data the weights grow without bound"
                        } else {
                            "raise the learning rate or use Newton"
                        }
                    ))
                } else {
                    None
                };
            }
            Fitted::Knn(model) => {
                status.k = Some(model.params().k.min(data.len()));
            }
            Fitted::Multi(multi) => {
                let marks = support_marks(multi, data.len());
                status.free = marks.iter().filter(|&&m| m == Mark::FreeSupport).count();
                status.bound = marks.iter().filter(|&&m| m == Mark::BoundSupport).count();
                status.support = status.free + status.bound;
                status.scheme = Some(multi.scheme.name().to_string());
                status.members = Some(multi.members.len());
                let mut messages = Vec::new();
                for member in &multi.members {
                    let mut part = Status::default();
                    member.model.report(data, &mut part);
                    if let Some(m) = part.message {
                        messages.push(m);
                    }
                }
                messages.dedup();
                status.message = messages.into_iter().next();
            }
        }
    }

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

    /// The hover readout at `p`, and for training point `index` its multiplier and case.
    pub fn inspect(&self, p: Point, index: Option<usize>, data: &Dataset, info: &mut Inspection) {
        let at = index.map_or(p, |i| data.points[i]);
        info.predicted = Some(self.predict(at));
        match self {
            Fitted::Knn(_) | Fitted::Multi(_) => info.votes = Some(self.scores(at)),
            other => info.decision = Some(other.decision(at)),
        }
        if let Fitted::Logistic(model) = self {
            info.probability = Some(sigmoid(model.decision_value(at)));
        }
        let Some(i) = index else { return };
        match self {
            // A model fitted before the last edit may not know this point yet.
            Fitted::Svm(model) if i < model.alpha.len() => {
                info.target = Some(model.y[i]);
                info.alpha = Some(model.alpha[i]);
                info.margin = Some(model.margins[i]);
                info.slack = Some(model.slack(i));
                info.case = Some(model.status(i).describe().to_string());
            }
            Fitted::Perceptron(model) if i < model.alpha.len() => {
                info.target = Some(model.y[i]);
                info.alpha = Some(model.alpha[i]);
                info.margin = Some(model.y[i] * model.decision_value(at));
                info.case = Some(format!("{} mistakes on this point", model.alpha[i]));
            }
            Fitted::Logistic(model) => {
                let y = if data.labels[i] == model.classes[1] {
                    1.0
                } else {
                    -1.0
                };
                info.target = Some(y);
                info.margin = Some(y * model.decision_value(at));
            }
            _ => {}
        }
    }
}

/// How each training point is marked by an ensemble of SVMs: a support vector of any member
/// is ringed, as a bound one if it is bound in any member.
fn support_marks(multi: &Multiclass, n: usize) -> Vec<Mark> {
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

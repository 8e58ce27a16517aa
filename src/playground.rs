//! The lab itself, free of any browser: the points, the settings, the fitted model, and what a
//! frame shows. The web facade and the command line are thin shells around a [`Playground`].
//!
//! Edits are reported to the solver as they happen (a moved point patches the kernel cache, an
//! added one gets α = 0), so the next fit is a warm start from the last solution.

use crate::contour::level_curves;
use crate::data::{Dataset, Point};
use crate::error::Error;
use crate::field::{Field, Grid, View};
use crate::model::{Classifier, ExitReason};
use crate::scene::{Layout, Mark, Scene};
use crate::solvers::svm::{AlphaStatus, SvmModel, SvmTrainer};
use crate::state::{Effect, Settings};
use serde::Serialize;

/// The contour levels drawn: the margins f = −1 and f = +1 and the boundary f = 0.
pub const LEVELS: [f64; 3] = [-1.0, 0.0, 1.0];

/// Grid nodes per side of the coarse lattice in the adaptive field (see [`Field::adaptive`]).
const COARSE_STEP: usize = 8;

/// The numbers of the status line.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Status {
    pub points: usize,
    pub support: usize,
    pub free: usize,
    pub bound: usize,
    pub train_accuracy: Option<f64>,
    pub objective: Option<f64>,
    pub iterations: Option<usize>,
    pub converged: Option<bool>,
    pub warm_start: Option<bool>,
    pub bias: Option<f64>,
    pub w: Option<[f64; 2]>,
    pub margin_width: Option<f64>,
    /// What the person should know: why nothing is fitted, or why the fit is not to be trusted.
    pub message: Option<String>,
}

/// What is under the pointer.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Inspection {
    pub x: f64,
    pub y: f64,
    /// f at (x, y), when a model is fitted.
    pub decision: Option<f64>,
    /// The training point under the pointer, if any.
    pub index: Option<usize>,
    pub label: Option<i32>,
    /// y_i ∈ {−1, +1}.
    pub target: Option<f64>,
    pub alpha: Option<f64>,
    /// y_i f(x_i).
    pub margin: Option<f64>,
    pub slack: Option<f64>,
    /// The KKT case in words.
    pub case: Option<String>,
}

/// The lab: settings, points, solver state and the last fit.
#[derive(Clone, Debug)]
pub struct Playground {
    settings: Settings,
    data: Dataset,
    /// The points differ from what the preset generates (so the URL must carry them).
    edited: bool,
    trainer: SvmTrainer,
    model: Option<SvmModel>,
    problem: Option<Error>,
    needs_fit: bool,
    /// The point drawn highlighted (under the pointer or being dragged).
    pub highlight: Option<usize>,
    /// Problems met while reading a shared link.
    pub warnings: Vec<String>,
}

impl Playground {
    pub fn new(settings: Settings) -> Playground {
        let data = settings
            .preset
            .generate(settings.count, settings.noise, settings.seed);
        Playground {
            settings,
            data,
            edited: false,
            trainer: SvmTrainer::new(),
            model: None,
            problem: None,
            needs_fit: true,
            highlight: None,
            warnings: Vec::new(),
        }
    }

    /// The scene a URL hash describes; a damaged hash opens with warnings, never fails.
    pub fn from_hash(hash: &str) -> Playground {
        let (settings, points, warnings) = Settings::from_hash(hash);
        let mut playground = Playground::new(settings);
        if let Some(data) = points {
            playground.replace_data(data);
        }
        playground.warnings = warnings;
        playground
    }

    /// The URL hash of the current scene.
    pub fn hash(&self) -> String {
        self.settings
            .to_hash(if self.edited { Some(&self.data) } else { None })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn data(&self) -> &Dataset {
        &self.data
    }

    pub fn model(&self) -> Option<&SvmModel> {
        self.model.as_ref()
    }

    /// Changes one setting (by its URL key); on error nothing changes.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Error> {
        match self.settings.set(key, value)? {
            Effect::Refit => self.needs_fit = true,
            Effect::Regenerate => self.regenerate(),
            Effect::Redraw => {}
        }
        Ok(())
    }

    /// Replaces the points by the preset's.
    pub fn regenerate(&mut self) {
        let s = &self.settings;
        let data = s.preset.generate(s.count, s.noise, s.seed);
        self.replace_data(data);
        self.edited = false;
    }

    /// Replaces the points (a loaded file, a shared link).
    pub fn replace_data(&mut self, data: Dataset) {
        self.data = data;
        self.edited = true;
        self.trainer.forget();
        self.highlight = None;
        self.needs_fit = true;
    }

    /// Reads `x,y,label` CSV; on error the current points stay.
    pub fn load_csv(&mut self, text: &str) -> Result<(), Error> {
        let data = Dataset::from_csv(text)?;
        self.replace_data(data);
        Ok(())
    }

    pub fn clear(&mut self) {
        self.replace_data(Dataset::new());
    }

    pub fn add_point(&mut self, p: Point, label: i32) -> Result<usize, Error> {
        let index = self.data.push(p, label)?;
        self.trainer.point_added();
        self.edited = true;
        self.needs_fit = true;
        Ok(index)
    }

    pub fn move_point(&mut self, index: usize, p: Point) -> Result<(), Error> {
        self.data.move_point(index, p)?;
        self.trainer.point_moved(index, &self.data.points);
        self.edited = true;
        self.needs_fit = true;
        Ok(())
    }

    pub fn remove_point(&mut self, index: usize) -> Result<(), Error> {
        self.data.remove(index)?;
        self.trainer.point_removed(index);
        self.highlight = None;
        self.edited = true;
        self.needs_fit = true;
        Ok(())
    }

    /// The point within `radius` (data units) of `p`, nearest first.
    pub fn point_near(&self, p: Point, radius: f64) -> Option<usize> {
        self.data.nearest_within(p, radius)
    }

    /// Called when an interaction ends (a drag released, a slider let go): if the model on
    /// show came from a warm start, fit it again from α = 0. Warm and cold fits agree to the
    /// solver's tolerance, not to the last bit; this makes what is left on screen exactly what
    /// reopening the scene's link shows.
    pub fn settle(&mut self) {
        if self.needs_fit || self.model.as_ref().is_some_and(|m| m.report.warm_start) {
            self.trainer.forget();
            self.needs_fit = true;
        }
    }

    /// The plotted window.
    pub fn view(&self) -> View {
        View::around(&self.data.points)
    }

    /// Whether the next [`Playground::fit`] will train (something changed).
    pub fn needs_fit(&self) -> bool {
        self.needs_fit
    }

    /// Trains if anything changed since the last fit.
    pub fn fit(&mut self) {
        if !self.needs_fit {
            return;
        }
        self.needs_fit = false;
        let result = self.settings.svm_params().and_then(|params| {
            self.trainer
                .fit(&self.data.points, &self.data.labels, &params)
        });
        match result {
            Ok(model) => {
                self.model = Some(model);
                self.problem = None;
            }
            Err(e) => {
                self.model = None;
                self.problem = Some(e);
            }
        }
    }

    /// The status line's numbers and message.
    pub fn status(&self) -> Status {
        let mut status = Status {
            points: self.data.len(),
            ..Status::default()
        };
        status.message = self.problem.as_ref().map(|e| e.to_string());
        let Some(model) = &self.model else {
            return status;
        };
        let statuses: Vec<AlphaStatus> = (0..model.alpha.len()).map(|i| model.status(i)).collect();
        status.free = statuses.iter().filter(|&&s| s == AlphaStatus::Free).count();
        status.bound = statuses
            .iter()
            .filter(|&&s| s == AlphaStatus::Bound)
            .count();
        status.support = status.free + status.bound;
        status.train_accuracy = Some(model.accuracy(&self.data.points, &self.data.labels));
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
                "SMO stopped at its iteration cap ({} iterations) before the KKT conditions \
                 held; the picture is approximate",
                model.report.iterations
            ))
        } else {
            None
        };
        status
    }

    /// Everything the picture of this frame shows, for a picture of `layout`'s size.
    pub fn scene(&self, layout: &Layout) -> Scene {
        let view = self.view();
        let layers = self.settings.layers;
        let mut scene = Scene {
            view: Some(view),
            points: self.data.points.clone(),
            colour_of: self.colour_indices(),
            marks: vec![Mark::Plain; self.data.len()],
            region_colours: [0, 1],
            highlight: self.highlight,
            ..Scene::default()
        };
        let Some(model) = &self.model else {
            return scene;
        };
        let classes = self.data.classes();
        let index_of = |label: i32| classes.iter().position(|&c| c == label).unwrap_or(0);
        scene.region_colours = [index_of(model.classes[0]), index_of(model.classes[1])];
        let nodes = (layout.plot.width / 2.0).clamp(60.0, 320.0) as usize + 1;
        let grid = Grid::new(view, nodes, nodes);
        let evaluator = model.grid_evaluator(&grid);
        let field = Field::adaptive(grid, COARSE_STEP, &LEVELS, &*evaluator);
        scene.boundary = level_curves(&field, 0.0);
        if layers.margins {
            scene.margins = level_curves(&field, -1.0);
            scene.margins.extend(level_curves(&field, 1.0));
        }
        scene.field = Some(field);
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
        scene
    }

    /// The colour index of each point: its label's rank among the labels present.
    fn colour_indices(&self) -> Vec<usize> {
        let classes = self.data.classes();
        self.data
            .labels
            .iter()
            .map(|l| classes.iter().position(|c| c == l).unwrap_or(0))
            .collect()
    }

    /// What is at `p`: the nearest point within `radius` with its α, margin, slack and KKT
    /// case, or else f(p).
    pub fn inspect(&self, p: Point, radius: f64) -> Inspection {
        let mut info = Inspection {
            x: p[0],
            y: p[1],
            decision: self.model.as_ref().map(|m| m.decision_value(p)),
            ..Inspection::default()
        };
        if let Some(i) = self.point_near(p, radius) {
            info.index = Some(i);
            info.label = Some(self.data.labels[i]);
            info.x = self.data.points[i][0];
            info.y = self.data.points[i][1];
            // A model fitted before the last edit may not know this point yet.
            if let Some(model) = self.model.as_ref().filter(|m| i < m.alpha.len()) {
                info.decision = Some(model.decision_value(self.data.points[i]));
                info.target = Some(model.y[i]);
                info.alpha = Some(model.alpha[i]);
                info.margin = Some(model.margins[i]);
                info.slack = Some(model.slack(i));
                info.case = Some(model.status(i).describe().to_string());
            }
        }
        info
    }
}

/// The w arrow: from the boundary point nearest the view's centre, along w, a quarter of the
/// view long (its direction is w's; ‖w‖ is in the status line).
fn w_arrow(w: [f64; 2], bias: f64, view: &View) -> Option<(Point, Point)> {
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

    #[test]
    fn edits_refit_warm_and_agree_with_a_cold_fit() {
        let mut lab = Playground::new(Settings::default());
        lab.fit();
        assert!(!lab.model().unwrap().report.warm_start);
        lab.move_point(3, [0.1, 0.2]).unwrap();
        lab.add_point([0.5, -0.5], 1).unwrap();
        lab.remove_point(0).unwrap();
        lab.set("C", "3").unwrap();
        lab.fit();
        let warm = lab.model().unwrap().clone();
        assert!(warm.report.warm_start);
        let params = lab.settings().svm_params().unwrap();
        let cold = SvmModel::fit(&lab.data().points, &lab.data().labels, &params).unwrap();
        for x in [[0.0, 0.0], [0.5, 0.5], [-0.7, 0.3]] {
            assert!((warm.decision_value(x) - cold.decision_value(x)).abs() < 1e-2);
        }
    }

    #[test]
    fn settling_leaves_the_cold_fit_on_screen() {
        let mut lab = Playground::new(Settings::default());
        lab.fit();
        lab.set("C", "5").unwrap();
        lab.fit();
        assert!(lab.model().unwrap().report.warm_start);
        lab.settle();
        lab.fit();
        assert!(!lab.model().unwrap().report.warm_start);
        // Settling with a change pending makes that fit cold too.
        lab.set("C", "7").unwrap();
        lab.settle();
        lab.fit();
        assert!(!lab.model().unwrap().report.warm_start);
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
        assert!(lab
            .status()
            .message
            .unwrap()
            .contains("not linearly separable"));
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
        let (tail, head) = scene.w_arrow.expect("w arrow");
        let model = lab.model().unwrap();
        assert!(model.decision_value(tail).abs() < 1e-9);
        assert!(model.decision_value(head) > 0.0);
        assert_eq!(scene.boundary.len(), 1);
        assert_eq!(scene.margins.len(), 2);
    }
}

//! The lab itself, free of any browser: the points, the settings, the fitted model, and what a
//! frame shows. The web facade and the command line are thin shells around a [`Playground`].
//!
//! The background jobs of the views (the cross-validation grid, the validation curve) are in
//! `jobs.rs`.
//!
//! Edits are reported to the solver as they happen (a moved point patches the kernel cache, an
//! added one gets α = 0), so the next fit is a warm start from the last solution.

use crate::data::{Dataset, Point};
use crate::error::Error;
use crate::field::View;
use crate::model::{Fact, FactValue, FitOptions, Model, Trace, WarmStart};
use crate::params::Effect;
use crate::plane::{Layout, LegendEntry, LegendMark, Mark, Scene};
use crate::state::{Refusal, Settings};
use crate::task::Task;

mod jobs;
mod mirror;
mod session;
pub use jobs::{Job, JobProgress, CURVE, GRID, JOBS, LEARN, PATH};
pub use mirror::Edit;
use serde::Serialize;
pub use session::Session;
use std::collections::BTreeMap;

/// The status line: what every model has (points, classes, training accuracy), the model's
/// own facts, and what the person should know.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Status {
    pub model: String,
    pub points: usize,
    pub classes: usize,
    /// How many points are trained on and how many are held out.
    pub train_points: usize,
    pub test_points: usize,
    pub train_accuracy: Option<f64>,
    /// The accuracy on the held-out points, when there are any.
    pub test_accuracy: Option<f64>,
    /// Updates shown when stepping through a run.
    pub steps: Option<usize>,
    /// Why nothing is fitted, or why the fit is not to be trusted.
    pub message: Option<String>,
    pub facts: Vec<Fact>,
}

/// What is under the pointer: the training point there, if any, and the model's facts about
/// it and about the place.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Inspection {
    pub x: f64,
    pub y: f64,
    pub index: Option<usize>,
    pub label: Option<i32>,
    /// The point is held out (a test point).
    pub test: Option<bool>,
    /// The predicted label there.
    pub predicted: Option<i32>,
    pub facts: Vec<Fact>,
}

/// Where a 3-D view is seen from: the turn about the vertical axis and the tilt towards it, in
/// radians (plotters' yaw and pitch).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    pub yaw: f64,
    pub pitch: f64,
}

impl Default for Orbit {
    fn default() -> Orbit {
        Orbit {
            yaw: 0.6,
            pitch: 0.25,
        }
    }
}

impl Orbit {
    /// Turned by (yaw, pitch) radians; the tilt stays short of looking straight down or up.
    pub fn turned(self, yaw: f64, pitch: f64) -> Orbit {
        let limit = std::f64::consts::FRAC_PI_2 - 0.05;
        Orbit {
            yaw: (self.yaw + yaw).rem_euclid(std::f64::consts::TAU),
            pitch: (self.pitch + pitch).clamp(-limit, limit),
        }
    }
}

/// The lab: settings, points, solver state and the last fit.
#[derive(Debug)]
pub struct Playground {
    settings: Settings,
    data: Dataset,
    /// Which points are held out for testing (never trained on), aligned with `data`.
    test: Vec<bool>,
    /// The points trained on, and the index in `data` of each.
    train: Dataset,
    train_index: Vec<usize>,
    /// The points (or their roles) differ from what the preset and the test fraction make (so
    /// the URL must carry them).
    edited: bool,
    /// What each method keeps between fits (warm starts), by method id.
    warm: BTreeMap<&'static str, Box<dyn WarmStart>>,
    model: Option<Box<dyn Model>>,
    problem: Option<Error>,
    needs_fit: bool,
    /// Stepping through a perceptron or gradient-descent run: how many updates to show
    /// (`None`: the whole run).
    steps: Option<usize>,
    /// The point drawn highlighted (under the pointer or being dragged).
    pub highlight: Option<usize>,
    /// Where the pointer is, for the lines to its nearest neighbours.
    pointer: Option<Point>,
    /// The angle the 3-D views are seen from (dragging turns it); like the highlight, it is
    /// not part of the link.
    pub orbit: Orbit,
    /// Bumped by every change that alters the picture other than the highlight and the pointer.
    version: u64,
    /// How many fits this lab has made.
    fits: u64,
    /// The last picture, by (version, width, height): hovering and highlighting redraw it
    /// without recomputing the field.
    scene_cache: Option<((u64, u32, u32), Scene)>,
    /// The last status line, by version.
    status_cache: Option<(u64, Status)>,
    /// The fingerprint of the points, their labels and roles, by version (every change to
    /// them bumps it): walking a million points for each frame's fingerprint costs more than
    /// the frame may take.
    points_print: std::cell::Cell<Option<(u64, u64)>>,
    /// The classes in colour order ([`Dataset::class_order`]), by version, for the same reason.
    class_order: std::cell::RefCell<Option<(u64, Vec<i32>)>>,
    /// Problems met while reading a shared link.
    pub warnings: Vec<String>,
    /// The cross-validation grid over the method's tuning parameters, the validation curve
    /// along one of them and the regularisation path, each by what it was started from (see
    /// `jobs.rs`).
    jobs: [Option<(u64, Job)>; JOBS],
    /// The tuning parameter moved last: the validation curve's.
    last_tuned: Option<&'static str>,
    /// Fits done by [`Playground::work`], for views that show a job as it fills in.
    grid_steps: u64,
    /// The whole run's trace, recorded by a cold fit of its own, by the scene's hash (which
    /// stepping does not change): see [`Playground::run_trace`].
    run_trace: Option<(String, Option<Trace>)>,
}

/// The key a click on the trace sets: how many updates to show when stepping (not a setting
/// of the URL table; see [`Playground::set`]).
pub const STEPS_KEY: &str = "steps";

impl Playground {
    pub fn new(settings: Settings) -> Playground {
        let data = settings.generate();
        let test = settings.split(&data);
        let mut playground = Playground {
            settings,
            data,
            test,
            train: Dataset::new(),
            train_index: Vec::new(),
            edited: false,
            warm: BTreeMap::new(),
            model: None,
            problem: None,
            needs_fit: true,
            steps: None,
            highlight: None,
            pointer: None,
            orbit: Orbit::default(),
            version: 0,
            fits: 0,
            scene_cache: None,
            status_cache: None,
            points_print: std::cell::Cell::new(None),
            class_order: std::cell::RefCell::new(None),
            warnings: Vec::new(),
            jobs: [None, None, None, None],
            last_tuned: None,
            grid_steps: 0,
            run_trace: None,
        };
        playground.refresh_training();
        playground
    }

    /// The scene a link describes, read whole: one that cannot be (damaged, or from a newer
    /// version) is refused, naming why, and nothing of it is applied.
    pub fn open(hash: &str) -> Result<Playground, Refusal> {
        let (settings, points, warnings) = Settings::from_hash(hash)?;
        let mut playground = Playground::new(settings);
        if let Some((data, test)) = points {
            // The points' roles are the link's: the page marks every held-out point, so one
            // without the mark is trained on, whatever the test fraction (points clicked in
            // after a clear are all training points).
            playground.replace_data(data);
            playground.test = test;
            playground.changed();
        }
        playground.warnings = warnings;
        Ok(playground)
    }

    /// The scene a URL hash this lab wrote describes (tests, a worker's copy of the page's
    /// scene). Never half of one: a hash that cannot be read whole opens the default scene,
    /// with the reason as its warning.
    pub fn from_hash(hash: &str) -> Playground {
        Playground::open(hash).unwrap_or_else(|refusal| {
            let mut playground = Playground::new(Settings::default());
            playground.warnings = vec![format!("the scene was not opened: {refusal}")];
            playground
        })
    }

    /// The URL hash of the current scene.
    pub fn hash(&self) -> String {
        self.settings.to_hash(if self.edited {
            Some((&self.data, &self.test))
        } else {
            None
        })
    }

    /// A lower bound on the length of [`Playground::hash`], found without writing it: each
    /// point takes at least its coordinates' written text (one character when it has none), a
    /// label character and three separators. A scene too large for a link is known so in
    /// microseconds rather than after writing megabytes of text.
    pub fn hash_length_at_least(&self) -> usize {
        if !self.edited {
            return 0;
        }
        (0..self.data.len())
            .map(|i| match self.data.written.get(i) {
                Some(Some([x, y])) => x.len() + y.len() + 4,
                _ => 6,
            })
            .sum()
    }

    /// Bumped by every change that alters what the views show (other than the highlight and
    /// the pointer): views cache their figures by it.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// How many fits this lab has made (with a worker behind the page, the page's own copy
    /// makes none).
    pub fn fits(&self) -> u64 {
        self.fits
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn data(&self) -> &Dataset {
        &self.data
    }

    /// Which points are held out for testing.
    pub fn test(&self) -> &[bool] {
        &self.test
    }

    /// The points the model is trained on, and the index in [`Playground::data`] of each.
    pub fn training(&self) -> (&Dataset, &[usize]) {
        (&self.train, &self.train_index)
    }

    /// Where point `index` sits among the training points, if it is one.
    fn train_position(&self, index: usize) -> Option<usize> {
        self.train_index.binary_search(&index).ok()
    }

    /// Rebuilds the training subset from the points and their roles.
    fn refresh_training(&mut self) {
        self.train_index = (0..self.data.len()).filter(|&i| !self.test[i]).collect();
        self.train = Dataset::from_parts(
            self.train_index
                .iter()
                .map(|&i| self.data.points[i])
                .collect(),
            self.train_index
                .iter()
                .map(|&i| self.data.labels[i])
                .collect(),
        );
    }

    pub fn model(&self) -> Option<&dyn Model> {
        self.model.as_deref()
    }

    /// The fitted model as its own type, when it is one: for tests that look inside a
    /// method's own type. Views and tools ask through `Model`'s capabilities instead.
    pub fn model_as<T: 'static>(&self) -> Option<&T> {
        self.model.as_ref()?.as_any().downcast_ref::<T>()
    }

    /// Shows the run from the start (w = 0) and steps through it.
    pub fn reset_steps(&mut self) {
        self.steps = Some(0);
        self.changed();
    }

    /// One more update (or iteration) of the run. Returns false when the run has ended.
    pub fn step(&mut self) -> bool {
        if let Some(shown) = self.steps {
            if self.model.as_ref().is_none_or(|m| m.run_ended(shown)) {
                return false;
            }
        }
        self.steps = Some(self.steps.map_or(1, |s| s + 1));
        self.changed();
        true
    }

    /// Shows the whole run again: the scene's own fit, from α = 0, which is what its link
    /// reopens to the last digit (going on from the step on show would stop elsewhere within
    /// the solver's tolerance).
    pub fn finish_steps(&mut self) {
        self.steps = None;
        self.warm.values_mut().for_each(|w| w.forget());
        self.changed();
    }

    pub fn steps(&self) -> Option<usize> {
        self.steps
    }

    /// The per-iteration trace of the whole run from the start, whatever step is on show:
    /// a cold fit that records it ([`FitOptions::record`]), done only when asked (the trace
    /// view) and kept until the scene changes. `None` for methods that record none.
    pub fn run_trace(&mut self) -> Option<&Trace> {
        let key = self.hash();
        if self.run_trace.as_ref().is_none_or(|(k, _)| *k != key) {
            let options = FitOptions {
                max_iter: self.settings.max_iter,
                record: true,
                ..FitOptions::default()
            };
            let method = self.settings.method();
            let trace = crate::registry::fit(method, &self.settings.values, &self.train, options)
                .ok()
                .and_then(|m| m.trace().cloned());
            self.run_trace = Some((key, trace));
        }
        self.run_trace.as_ref().and_then(|(_, t)| t.as_ref())
    }

    /// Changes one setting (by its URL key); on error nothing changes. [`STEPS_KEY`] steps to
    /// that many updates (clicking the trace). A preset is chosen as the menu chooses it
    /// ([`Settings::choose_preset`]).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Error> {
        if key == STEPS_KEY {
            let steps = value
                .trim()
                .parse::<usize>()
                .map_err(|_| Error::Parameter(format!("steps: '{value}' is not a count")))?;
            self.steps = Some(steps);
            self.changed();
            return Ok(());
        }
        self.version += 1;
        if let Some(tuned) = self.settings.method().tuning().iter().find(|k| **k == key) {
            self.last_tuned = Some(tuned);
        }
        let was_standardised = self.standardised();
        // Choosing a preset brings its lesson's settings (those not changed by hand).
        let effect = if key == "preset" {
            self.settings.choose_preset(value)?
        } else {
            self.settings.set(key, value)?
        };
        // A new task on an untouched preset of the old one starts from the new task's own
        // first preset; points the student placed or loaded stay.
        let (preset, ..) = self.settings.preset();
        if key == crate::state::TASK_KEY && !self.edited && preset.task() != self.settings.task {
            if let Some(first) = crate::data::Preset::ALL
                .into_iter()
                .find(|p| p.task() == self.settings.task)
            {
                self.settings.choose_preset(first.name())?;
                self.regenerate();
            }
        }
        if self.standardised() != was_standardised {
            // The solvers' kept states hold the points in the other units.
            self.warm.values_mut().for_each(|w| w.data_replaced());
        }
        match effect {
            Effect::Refit => self.needs_fit = true,
            Effect::Regenerate => self.regenerate(),
            Effect::Resplit => self.resplit(),
            Effect::Redraw => {}
        }
        Ok(())
    }

    /// Whether the methods see the standardised points z = (x − μ)/σ: then any edit of a
    /// point moves every z, and the solvers' kept states hear of it as new data.
    fn standardised(&self) -> bool {
        self.settings.values.flag("std")
    }

    /// Replaces the points by the preset's.
    pub fn regenerate(&mut self) {
        let data = self.settings.generate();
        self.replace_data(data);
        self.settings.window = None;
        self.edited = false;
    }

    /// Holds out a fresh stratified share of the points, as the test fraction and seed say.
    pub fn resplit(&mut self) {
        self.test = self.settings.split(&self.data);
        self.warm.values_mut().for_each(|w| w.data_replaced());
        self.changed();
    }

    /// Turns point `index` from a training point into a test point or back.
    pub fn toggle_test(&mut self, index: usize) -> Result<(), Error> {
        let role = self
            .test
            .get_mut(index)
            .ok_or_else(|| Error::Parameter(format!("no point with index {index}")))?;
        *role = !*role;
        self.warm.values_mut().for_each(|w| w.data_replaced());
        self.edited = true;
        self.changed();
        Ok(())
    }

    /// Replaces the points (a loaded file, a shared link).
    pub fn replace_data(&mut self, data: Dataset) {
        self.test = self.settings.split(&data);
        self.data = data;
        self.edited = true;
        self.warm.values_mut().for_each(|w| w.data_replaced());
        self.highlight = None;
        self.changed();
    }

    /// Replaces the points by a file's, and the window goes back to fitting them.
    pub fn load_data(&mut self, data: Dataset) {
        self.replace_data(data);
        self.settings.window = None;
    }

    /// Replaces the points with those of a CSV or LIBSVM-format file ([`Dataset::from_text`]);
    /// on error the current points stay.
    pub fn load_csv(&mut self, text: &str) -> Result<(), Error> {
        let data = Dataset::from_text(text)?;
        self.load_data(data);
        Ok(())
    }

    /// Replaces the points with those of a file's bytes, read for the scene's task as the
    /// command line reads them ([`crate::data::files`]), from `columns` (the defaults when
    /// `None`); on error the current points stay. Returns the sentence to show when part of
    /// the file was left out (a novelty file's labels).
    pub fn load_file(
        &mut self,
        bytes: &[u8],
        columns: Option<&[crate::table::ColumnRef]>,
    ) -> Result<Option<String>, Error> {
        let reading = crate::data::files::read_for(self.settings.task, bytes, columns)?;
        self.load_data(reading.data);
        Ok(reading.notice)
    }

    /// Removes every point; the window goes back to fitting them.
    pub fn clear(&mut self) {
        self.replace_data(Dataset::new());
        self.settings.window = None;
    }

    /// The first `limit` points as a link writes them, `x,y,label` (`x,y,label,t` for a test
    /// point) joined by `;`, each coordinate as it was written; also for an untouched preset.
    pub fn points_text(&self, limit: usize) -> String {
        (0..self.data.len().min(limit))
            .map(|i| crate::state::point_text(&self.data, &self.test, i))
            .collect::<Vec<_>>()
            .join(";")
    }

    pub fn add_point(&mut self, p: Point, label: i32) -> Result<usize, Error> {
        let index = self.data.push(p, label)?;
        self.test.push(false);
        if self.standardised() {
            self.warm.values_mut().for_each(|w| w.data_replaced());
        } else {
            self.warm.values_mut().for_each(|w| w.point_added());
        }
        self.edited = true;
        self.changed();
        Ok(index)
    }

    pub fn move_point(&mut self, index: usize, p: Point) -> Result<(), Error> {
        self.data.move_point(index, p)?;
        self.edited = true;
        self.changed();
        if self.standardised() {
            self.warm.values_mut().for_each(|w| w.data_replaced());
        } else if let Some(position) = self.train_position(index) {
            let points = &self.train.points;
            self.warm
                .values_mut()
                .for_each(|w| w.point_moved(position, points));
        }
        Ok(())
    }

    pub fn remove_point(&mut self, index: usize) -> Result<(), Error> {
        let position = self.train_position(index);
        self.data.remove(index)?;
        self.test.remove(index);
        if self.standardised() {
            self.warm.values_mut().for_each(|w| w.data_replaced());
        } else if let Some(position) = position {
            self.warm
                .values_mut()
                .for_each(|w| w.point_removed(position));
        }
        self.highlight = None;
        self.edited = true;
        self.changed();
        Ok(())
    }

    /// The pointer moved to `at` (or left the plot): whether the picture changes (the lines
    /// to k-NN's neighbours).
    pub fn set_pointer(&mut self, at: Option<Point>) -> bool {
        let before = self.pointer_lines();
        self.pointer = at;
        before != self.pointer_lines()
    }

    /// Where the pointer is, if it is over the plot.
    pub fn pointer(&self) -> Option<Point> {
        self.pointer
    }

    fn pointer_lines(&self) -> Vec<(Point, Point)> {
        match (self.pointer, &self.model) {
            (Some(at), Some(model)) => model.neighbour_lines(at, &self.train),
            _ => Vec::new(),
        }
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
        if self.needs_fit || self.model.as_ref().is_some_and(|m| m.warm_started()) {
            self.warm.values_mut().for_each(|w| w.forget());
            self.changed();
        }
    }

    /// The next fit starts from nothing: no warm start and no cached kernel columns (how a
    /// benchmark times a cold fit).
    pub fn refit_cold(&mut self) {
        self.warm.values_mut().for_each(|w| w.data_replaced());
        self.changed();
    }

    /// The plotted window.
    pub fn view(&self) -> View {
        self.settings
            .window
            .unwrap_or_else(|| View::around(&self.data.points))
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
        self.version += 1;
        self.fits += 1;
        let method = self.settings.method();
        if !self.warm.contains_key(method.id()) {
            if let Some(state) = method.warm_start() {
                self.warm.insert(method.id(), state);
            }
        }
        let options = FitOptions {
            steps: if method.steppable() { self.steps } else { None },
            warm: self
                .warm
                .get_mut(method.id())
                .map(|w| &mut **w as &mut dyn WarmStart),
            max_iter: self.settings.max_iter,
            record: false,
        };
        match crate::registry::fit(method, &self.settings.values, &self.train, options) {
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
    pub fn status(&mut self) -> Status {
        // It scores every training point, so it is kept until something changes rather than
        // recomputed on every frame (hovering redraws without a change).
        match &self.status_cache {
            Some((version, status)) if *version == self.version => status.clone(),
            _ => {
                let status = self.compute_status();
                self.status_cache = Some((self.version, status.clone()));
                status
            }
        }
    }

    fn compute_status(&self) -> Status {
        let mut status = Status {
            model: self.settings.model.clone(),
            points: self.data.len(),
            classes: self.data.classes().len(),
            train_points: self.train.len(),
            test_points: self.data.len() - self.train.len(),
            steps: self.steps.filter(|_| self.settings.method().steppable()),
            ..Status::default()
        };
        match &self.model {
            // Novelty detection has no labels to score; its facts say the ν-property.
            Some(model) if self.settings.task == Task::Novelty => {
                status.facts = model.facts(&self.train);
                status.message = model.message();
            }
            Some(model) if self.settings.task == Task::Regression => {
                // Scores of the fit, not accuracies: RMSE and R² (among the model's facts),
                // and on the held-out points too.
                status.facts = model.facts(&self.train);
                let held: Vec<Point> = (0..self.data.len())
                    .filter(|&i| self.test[i])
                    .map(|i| self.data.points[i])
                    .collect();
                if let Some((rmse, r2)) = crate::solvers::regression::scores(&**model, &held) {
                    // After the training scores, as the accuracies read.
                    let at = status
                        .facts
                        .iter()
                        .take_while(|f| f.key.starts_with("train_"))
                        .count();
                    let test = std::iter::once(Fact::new("test_rmse", "test RMSE", rmse))
                        .chain(r2.map(|r2| Fact::new("test_r2", "test R²", r2)));
                    status.facts.splice(at..at, test);
                }
                status.message = model.message();
            }
            Some(model) => {
                status.train_accuracy = Some(model.training_accuracy(&self.train));
                let held: Vec<usize> = (0..self.data.len()).filter(|&i| self.test[i]).collect();
                if !held.is_empty() {
                    let correct = held
                        .iter()
                        .filter(|&&i| model.predict(self.data.points[i]) == self.data.labels[i])
                        .count();
                    status.test_accuracy = Some(correct as f64 / held.len() as f64);
                }
                status.facts = model.facts(&self.train);
                status.message = model.message();
                self.name_classes(model.as_ref(), &mut status.facts);
            }
            None => {
                status.message = self.problem.as_ref().map(|e| {
                    let text = e.to_string();
                    if self.data.label_texts.is_empty() {
                        return text;
                    }
                    let names = (self.data.classes().into_iter())
                        .map(|c| (c, self.data.class_name(c)))
                        .collect();
                    crate::labels::name_labels(&text, &names)
                })
            }
        }
        status
    }

    /// Something that needs a new fit changed.
    /// A file's classes by their names in per-class lists of `facts` ("priors: -1: 0.5, +1:
    /// 0.5" where the model numbers them by rank); the lab's own classes stay as they are.
    fn name_classes(&self, model: &dyn Model, facts: &mut [Fact]) {
        if self.data.label_texts.is_empty() {
            return;
        }
        let names: Vec<String> = model
            .classes()
            .iter()
            .map(|&c| self.data.class_name(c))
            .collect();
        for fact in facts {
            if let FactValue::Text(text) = &mut fact.value {
                *text = crate::labels::name_ranks(text, &names);
            }
        }
    }

    fn changed(&mut self) {
        self.refresh_training();
        self.needs_fit = true;
        self.version += 1;
    }

    /// Everything the picture of this frame shows, for a picture of `layout`'s size.
    pub fn scene(&mut self, layout: &Layout) -> Scene {
        let key = (self.version, layout.width, layout.height);
        let mut scene = match &self.scene_cache {
            Some((cached, scene)) if *cached == key => scene.clone(),
            _ => {
                let scene = self.compute_scene(layout);
                self.scene_cache = Some((key, scene.clone()));
                scene
            }
        };
        scene.highlight = self.highlight;
        scene.neighbour_lines = self.pointer_lines();
        scene
    }

    fn compute_scene(&self, layout: &Layout) -> Scene {
        let view = self.view();
        let mut scene = Scene {
            view: Some(view),
            points: self.data.points.clone(),
            colour_of: self.colour_indices(),
            marks: vec![Mark::Plain; self.data.len()],
            hollow: self.test.clone(),
            region_colours: [0, 1],
            targets: self.settings.task == Task::Regression,
            novelty: self.settings.task == Task::Novelty,
            ..Scene::default()
        };
        let Some(model) = &self.model else {
            return scene;
        };
        let classes = self.data.classes();
        let model_classes = model.classes();
        let index_of = |label: i32| classes.iter().position(|&c| c == label).unwrap_or(0);
        scene.region_colours = if scene.targets {
            // Below the curve and above it.
            [0, 1]
        } else if self.settings.task == Task::Novelty {
            // Outside the learned region and inside it.
            [1, 0]
        } else {
            [
                index_of(model_classes[0]),
                index_of(model_classes[model_classes.len() - 1]),
            ]
        };
        let layers = self.settings.layers();
        let setting = crate::picture::Setting {
            data: &self.train,
            classes: &classes,
            layers: &layers,
            view,
            threshold: self.settings.values.real("threshold"),
        };
        crate::picture::decorate(&**model, &mut scene, layout, &setting);
        // The model's marks are by training point; the picture's by point.
        let full = |t: usize| self.train_index[t];
        let mut marks = vec![Mark::Plain; self.data.len()];
        for (t, &mark) in scene.marks.iter().enumerate().take(self.train.len()) {
            marks[full(t)] = mark;
        }
        scene.marks = marks;
        for label in scene.point_labels.iter_mut() {
            label.0 = full(label.0);
        }
        scene.emphasis = scene.emphasis.map(full);
        scene.pair = scene.pair.map(|(i, j)| (full(i), full(j)));
        scene
    }

    /// The legend of `scene` drawn with this lab's layers (`regions`: its regions are
    /// painted), its classes named as their buttons are (`-1`, `setosa`, `class 1`).
    pub fn legend(&self, scene: &Scene, regions: bool) -> Vec<LegendEntry> {
        let layers = self.settings.layers();
        let classes = self.class_order();
        let mut entries = scene.legend(&layers, regions);
        for e in &mut entries {
            if let LegendMark::Class { colour } = e.mark {
                // A regression's points are named by what they are, (x, t).
                if let Some(&label) = classes
                    .get(colour)
                    .filter(|_| !scene.targets && !scene.novelty)
                {
                    e.label = self.data.class_name(label);
                }
            }
        }
        entries
    }

    /// The classes in colour order ([`Dataset::class_order`]), kept by version.
    fn class_order(&self) -> Vec<i32> {
        let mut kept = self.class_order.borrow_mut();
        match &*kept {
            Some((version, order)) if *version == self.version => order.clone(),
            _ => {
                let order = self.data.class_order();
                *kept = Some((self.version, order.clone()));
                order
            }
        }
    }

    /// The colour index of each point: its label's rank among the labels (those present,
    /// and while there is only one, the classes its buttons offer beside it), so a point's
    /// colour is its class button's, and −1 / +1 or 3 / 7 are drawn as 0 / 1 are.
    fn colour_indices(&self) -> Vec<usize> {
        // The points of regression and novelty detection are all of one kind, whatever labels
        // they kept from a classification scene (kept, for going back to it).
        if self.settings.task != Task::Classification {
            return vec![0; self.data.len()];
        }
        let classes = self.class_order();
        let rank = |l: &i32| classes.iter().position(|c| c == l).unwrap_or(0);
        // Labels close together (0 / 1, 1…10, −1 / +1) are ranked by a table: a million
        // points are coloured in every frame that composes them anew.
        match (classes.first(), classes.last()) {
            (Some(&lo), Some(&hi)) if (hi as i64 - lo as i64) < 4096 => {
                let table: Vec<usize> = (lo..=hi).map(|l| rank(&l)).collect();
                self.data
                    .labels
                    .iter()
                    .map(|&l| table[(l - lo) as usize])
                    .collect()
            }
            _ => self.data.labels.iter().map(rank).collect(),
        }
    }

    /// What is at `p` without the model: the nearest point within `radius`, its class and
    /// role (what the page knows while the model is computed behind it).
    pub fn inspect_point(&self, p: Point, radius: f64) -> Inspection {
        let mut info = Inspection {
            x: p[0],
            y: p[1],
            ..Inspection::default()
        };
        let index = self.point_near(p, radius);
        if let Some(i) = index {
            info.index = Some(i);
            info.test = Some(self.test[i]);
            info.label = Some(self.data.labels[i]);
            info.x = self.data.points[i][0];
            info.y = self.data.points[i][1];
        }
        info
    }

    /// What is at `p`: the nearest point within `radius` with its multiplier, margin, slack
    /// and KKT case, or else the model's value at `p`.
    pub fn inspect(&self, p: Point, radius: f64) -> Inspection {
        let mut info = self.inspect_point(p, radius);
        let index = info.index;
        if let Some(model) = &self.model {
            let at = index.map_or(p, |i| self.data.points[i]);
            info.predicted = Some(model.predict(at));
            match index.map(|i| (i, self.train_position(i))) {
                Some((_, Some(t))) => info.facts = model.point_facts(t, &self.train),
                Some((_, None)) => info.facts.push(Fact::new(
                    "held_out",
                    "",
                    "a test point: held out, never trained on",
                )),
                None => {}
            }
            info.facts.extend(model.facts_at(at));
            self.name_classes(model.as_ref(), &mut info.facts);
        }
        info
    }
}

#[cfg(test)]
mod tests;

//! The lab itself, free of any browser: the points, the settings, the fitted model, and what a
//! frame shows. The web facade and the command line are thin shells around a [`Playground`].
//!
//! Edits are reported to the solver as they happen (a moved point patches the kernel cache, an
//! added one gets α = 0), so the next fit is a warm start from the last solution.

use crate::data::{Dataset, Point};
use crate::error::Error;
use crate::field::View;
use crate::model::{Fact, FitOptions, Model, WarmStart};
use crate::params::Effect;
use crate::plane::{Layout, Mark, Scene};
use crate::state::Settings;
use crate::validation::{Axis, Folds, GridJob, Progress};
use serde::Serialize;
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
    /// Bumped by every change that alters the picture other than the highlight and the pointer.
    version: u64,
    /// The last picture, by (version, width, height): hovering and highlighting redraw it
    /// without recomputing the field.
    scene_cache: Option<((u64, u32, u32), Scene)>,
    /// The last status line, by version.
    status_cache: Option<(u64, Status)>,
    /// Problems met while reading a shared link.
    pub warnings: Vec<String>,
    /// The cross-validation grid over the method's tuning parameters and the validation
    /// curve along one of them, each by what it was started from (see [`Playground::job`]).
    jobs: [Option<(u64, GridJob)>; 2],
    /// The tuning parameter moved last: the validation curve's.
    last_tuned: Option<&'static str>,
    /// Fits done by [`Playground::work`], for views that show a job as it fills in.
    grid_steps: u64,
}

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
            version: 0,
            scene_cache: None,
            status_cache: None,
            warnings: Vec::new(),
            jobs: [None, None],
            last_tuned: None,
            grid_steps: 0,
        };
        playground.refresh_training();
        playground
    }

    /// The scene a URL hash describes; a damaged hash opens with warnings, never fails.
    pub fn from_hash(hash: &str) -> Playground {
        let (settings, points, warnings) = Settings::from_hash(hash);
        let mut playground = Playground::new(settings);
        if let Some((data, test)) = points {
            playground.replace_data(data);
            if test.iter().any(|&t| t) {
                playground.test = test;
                playground.changed();
            }
        }
        playground.warnings = warnings;
        playground
    }

    /// The URL hash of the current scene.
    pub fn hash(&self) -> String {
        self.settings.to_hash(if self.edited {
            Some((&self.data, &self.test))
        } else {
            None
        })
    }

    /// Bumped by every change that alters what the views show (other than the highlight and
    /// the pointer): views cache their figures by it.
    pub fn version(&self) -> u64 {
        self.version
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
        self.train = Dataset {
            points: self
                .train_index
                .iter()
                .map(|&i| self.data.points[i])
                .collect(),
            labels: self
                .train_index
                .iter()
                .map(|&i| self.data.labels[i])
                .collect(),
        };
    }

    pub fn model(&self) -> Option<&dyn Model> {
        self.model.as_deref()
    }

    /// The fitted model as its own type, when it is one (tests and tools look inside).
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

    /// Shows the whole run again.
    pub fn finish_steps(&mut self) {
        self.steps = None;
        self.changed();
    }

    pub fn steps(&self) -> Option<usize> {
        self.steps
    }

    /// Changes one setting (by its URL key); on error nothing changes.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Error> {
        self.version += 1;
        if let Some(tuned) = self.settings.method().tuning().iter().find(|k| **k == key) {
            self.last_tuned = Some(tuned);
        }
        match self.settings.set(key, value)? {
            Effect::Refit => self.needs_fit = true,
            Effect::Regenerate => self.regenerate(),
            Effect::Resplit => self.resplit(),
            Effect::Redraw => {}
        }
        Ok(())
    }

    /// Replaces the points by the preset's.
    pub fn regenerate(&mut self) {
        let data = self.settings.generate();
        self.replace_data(data);
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
        self.test.push(false);
        self.warm.values_mut().for_each(|w| w.point_added());
        self.edited = true;
        self.changed();
        Ok(index)
    }

    pub fn move_point(&mut self, index: usize, p: Point) -> Result<(), Error> {
        self.data.move_point(index, p)?;
        self.edited = true;
        self.changed();
        if let Some(position) = self.train_position(index) {
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
        if let Some(position) = position {
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
        self.version += 1;
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

    /// The axes a cross-validation grid scans: the first two of the method's tuning
    /// parameters that matter for the current settings, over their controls' ranges.
    pub fn tuning_axes(&self) -> Vec<Axis> {
        let method = self.settings.method();
        let values = &self.settings.values;
        method
            .tuning()
            .iter()
            .filter(|key| method.params().contains(key))
            .filter(|key| {
                crate::params::param(key).is_some_and(|row| values.enabled(row, method.params()))
            })
            .filter_map(|key| Axis::over_slider(key))
            .take(2)
            .collect()
    }

    /// The tuning parameter moved last (which the validation curve follows).
    pub fn last_tuned(&self) -> Option<&'static str> {
        self.last_tuned
    }

    /// Says which tuning parameter was moved last (a copy of the lab in a worker follows the
    /// page's).
    pub fn set_last_tuned(&mut self, key: &str) {
        let method = self.settings.method();
        self.last_tuned = method.tuning().iter().copied().find(|k| *k == key);
    }

    /// The parameter the validation curve runs along: the tuning parameter moved last, if it
    /// still matters, else the first that does.
    pub fn curve_axis(&self) -> Option<Axis> {
        let axes: Vec<Axis> = {
            let method = self.settings.method();
            let values = &self.settings.values;
            method
                .tuning()
                .iter()
                .filter(|key| method.params().contains(key))
                .filter(|key| {
                    crate::params::param(key)
                        .is_some_and(|row| values.enabled(row, method.params()))
                })
                .filter_map(|key| Axis::over_slider(key))
                .collect()
        };
        let last = self.last_tuned;
        axes.iter()
            .find(|a| Some(a.key.as_str()) == last)
            .or(axes.first())
            .cloned()
    }

    /// What a job depends on: the training points, the method and its settings other than the
    /// axes, the folds and the seed. A new value of any of them starts the job afresh.
    fn job_signature(&self, axes: &[Axis]) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for (p, l) in self.train.points.iter().zip(&self.train.labels) {
            (p[0].to_bits(), p[1].to_bits(), l).hash(&mut h);
        }
        self.settings.model.hash(&mut h);
        for axis in axes {
            axis.key.hash(&mut h);
        }
        for row in crate::params::PARAMS {
            let drawn_only =
                matches!(row.effect, crate::params::Effect::Redraw) && row.key != "folds";
            if axes.iter().all(|a| a.key != row.key) && !drawn_only {
                self.settings.values.text(row.key).hash(&mut h);
            }
        }
        h.finish()
    }

    /// Job `which` (0: the grid, 1: the validation curve) as far as it has got, started afresh
    /// when what it depends on changed.
    fn job(&mut self, which: usize) -> &mut GridJob {
        let axes = if which == 0 {
            self.tuning_axes()
        } else {
            self.curve_axis().into_iter().collect()
        };
        let signature = self.job_signature(&axes);
        if self.jobs[which]
            .as_ref()
            .is_none_or(|(s, _)| *s != signature)
        {
            let folds =
                Folds::from_name(self.settings.values.choice("folds")).unwrap_or(Folds::KFold(5));
            let assignment = folds.assign(&self.train.labels, self.settings.values.whole("seed"));
            let job = GridJob::new(
                &self.settings.values,
                &self.settings.model,
                &self.train,
                axes,
                assignment,
            );
            let job = if which == 1 { job.with_training() } else { job };
            self.jobs[which] = Some((signature, job));
        }
        &mut self.jobs[which].as_mut().expect("just made").1
    }

    /// The cross-validation grid of the current scene, as far as it has got.
    pub fn grid(&mut self) -> &GridJob {
        self.job(0)
    }

    /// The validation curve of the current scene, as far as it has got.
    pub fn curve(&mut self) -> &GridJob {
        self.job(1)
    }

    /// The signature of job `which` as the scene stands (what a copy computed elsewhere must
    /// match to be adopted), and what it has computed.
    pub fn job_progress(&mut self, which: usize) -> (u64, Progress) {
        let progress = self.job(which).progress();
        (self.jobs[which].as_ref().expect("made").0, progress)
    }

    /// Takes over what a copy of job `which` computed elsewhere, if it was computed for the
    /// scene as it stands; returns whether it was.
    pub fn adopt_job(&mut self, which: usize, signature: u64, progress: Progress) -> bool {
        self.job(which);
        let (current, job) = self.jobs[which].as_mut().expect("made");
        if *current != signature {
            return false;
        }
        job.adopt(progress);
        self.grid_steps += 1;
        true
    }

    /// Fits up to `folds` folds of the grid; returns whether work remains.
    pub fn work(&mut self, folds: usize) -> bool {
        self.work_on(0, folds)
    }

    /// Fits up to `steps` fits of the validation curve; returns whether work remains.
    pub fn work_curve(&mut self, steps: usize) -> bool {
        self.work_on(1, steps)
    }

    fn work_on(&mut self, which: usize, steps: usize) -> bool {
        let mut remaining = true;
        for _ in 0..steps {
            self.grid_steps += 1;
            if !self.job(which).step() {
                remaining = false;
                break;
            }
        }
        remaining && !self.job(which).done()
    }

    /// How many folds the grid has fitted so far (over all grids).
    pub fn grid_steps(&self) -> u64 {
        self.grid_steps
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
            Some(model) => {
                status.train_accuracy =
                    Some(model.accuracy(&self.train.points, &self.train.labels));
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
            }
            None => status.message = self.problem.as_ref().map(|e| e.to_string()),
        }
        status
    }

    /// Something that needs a new fit changed.
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
            ..Scene::default()
        };
        let Some(model) = &self.model else {
            return scene;
        };
        let classes = self.data.classes();
        let model_classes = model.classes();
        let index_of = |label: i32| classes.iter().position(|&c| c == label).unwrap_or(0);
        scene.region_colours = [
            index_of(model_classes[0]),
            index_of(model_classes[model_classes.len() - 1]),
        ];
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

    /// What is at `p`: the nearest point within `radius` with its multiplier, margin, slack
    /// and KKT case, or else the model's value at `p`.
    pub fn inspect(&self, p: Point, radius: f64) -> Inspection {
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
        }
        info
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plane::CurveKind;
    use crate::solvers::svm::{SvmModel, SvmParams};

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
    fn stepping_ends_with_the_run() {
        // Non-separable data: the run ends at the epoch cap, and so does stepping.
        let mut lab = Playground::from_hash(
            "model=perceptron&kernel=linear&preset=overlapping&n=40&epochs=2",
        );
        lab.fit();
        let total = lab
            .model_as::<crate::solvers::perceptron::PerceptronModel>()
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
}

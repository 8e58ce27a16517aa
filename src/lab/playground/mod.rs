//! The lab itself, free of any browser: the points, the settings, the fitted model, and what a
//! frame shows. The web facade and the command line are thin shells around a [`Playground`].
//!
//! The views' background jobs (the cross-validation grid, the validation curve, the
//! regularisation path, the learning curves) are kept by kind, as each view declares it, in
//! `jobs.rs`.
//!
//! Edits are reported to the solver as they happen (a moved point patches the kernel cache, an
//! added one gets α = 0), so the next fit is a warm start from the last solution.
//!
//! The lab's work is in files along its parts: `edits.rs` (settings and points changed),
//! `fitting.rs` (fits and their warm starts, stepping through a run), `frame.rs` (what a frame
//! shows: the scene, the legend, the pointer, the status line and what is under the pointer);
//! the page's copy and the worker's are kept in step by `session.rs` and `mirror.rs`.

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::View;
use crate::core::plane::Scene;
use crate::lab::state::{Refusal, Settings};
use crate::methods::model::{Fact, FactValue, Model, Trace, WarmStart};

mod edits;
mod fitting;
mod frame;
mod jobs;
mod mirror;
mod session;
pub use edits::STEPS_KEY;
pub use frame::{Inspection, Orbit, Status};
pub use jobs::{Job, JobKind, JobState};
pub use mirror::{Edit, PointsKey};
pub use session::Session;
use std::collections::BTreeMap;

/// The lab: settings, points, solver state and the last fit.
#[derive(Debug)]
pub struct Playground {
    settings: Settings,
    data: Dataset,
    /// Which points are held out for testing (never trained on), aligned with `data`.
    test: Vec<bool>,
    /// The points trained on and the index in `data` of each, when some are held out. When
    /// none is (every large file), the training set is `data` itself: a million points are
    /// not held, nor copied, twice.
    held_in: Option<(Dataset, Vec<usize>)>,
    /// 0, 1, …, n − 1: the index of each training point when none is held out, made when a
    /// view first asks ([`Playground::training`]).
    all_index: std::cell::OnceCell<Vec<usize>>,
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
    /// Bumped by every change of the points, their labels or their roles (a setting leaves
    /// it): what is kept of the points alone is kept by it.
    points_version: u64,
    /// How many fits this lab has made.
    fits: u64,
    /// The last picture, by (version, width, height, draft): hovering and highlighting redraw it
    /// without recomputing the field.
    scene_cache: Option<((u64, u32, u32, u8), Scene)>,
    /// Whether the last picture asked for was computed, not found in `scene_cache`.
    scene_computed: bool,
    /// The last status line, by version.
    status_cache: Option<(u64, Status)>,
    /// The fingerprint of the points, their labels and roles, by points version: walking a
    /// million points for each frame (or each move of a slider) costs more than a frame may
    /// take.
    points_print: std::cell::Cell<Option<(u64, u64)>>,
    /// The fingerprint of the settings (their link, hashed), by version: the page asks for the
    /// scene's fingerprint several times a frame, and writing the link is most of it.
    settings_print: std::cell::Cell<Option<(u64, u64)>>,
    /// The classes in colour order ([`Dataset::class_order`]), by points version, for the
    /// same reason.
    class_order: std::cell::RefCell<Option<(u64, Vec<i32>)>>,
    /// The window around the points ([`View::around`]), by points version.
    around: std::cell::Cell<Option<(u64, View)>>,
    /// The points' colour indices, by points version and task.
    colours: std::cell::RefCell<Option<(PointsKey, Vec<usize>)>>,
    /// The colours of the points being coloured a share at a time
    /// ([`Playground::prepare_points`]), until every point has its own.
    colouring: std::cell::RefCell<Option<(PointsKey, Vec<usize>)>>,
    /// Problems met while reading a shared link.
    pub warnings: Vec<String>,
    /// The views' background jobs, each by its kind's id with the signature of what it was
    /// started from (see `jobs.rs`).
    jobs: jobs::Jobs,
    /// The tuning parameter moved last: the validation curve's.
    last_tuned: Option<&'static str>,
    /// Fits done by [`Playground::work`], for views that show a job as it fills in.
    grid_steps: u64,
    /// The whole run's trace, recorded by a cold fit of its own, by the scene's hash (which
    /// stepping does not change): see [`Playground::run_trace`].
    run_trace: Option<(String, Option<Trace>)>,
}

impl Playground {
    pub fn new(settings: Settings) -> Playground {
        let data = settings.generate();
        let test = settings.split(&data);
        let mut playground = Playground {
            settings,
            data,
            test,
            held_in: None,
            all_index: std::cell::OnceCell::new(),
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
            points_version: 0,
            fits: 0,
            scene_cache: None,
            scene_computed: false,
            status_cache: None,
            points_print: std::cell::Cell::new(None),
            settings_print: std::cell::Cell::new(None),
            class_order: std::cell::RefCell::new(None),
            around: std::cell::Cell::new(None),
            colours: std::cell::RefCell::new(None),
            colouring: std::cell::RefCell::new(None),
            warnings: Vec::new(),
            jobs: jobs::Jobs::default(),
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
            playground.points_changed();
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

    /// Whether [`Playground::hash`] is longer than `limit` characters, found without writing
    /// it: each point takes at least its coordinates' text as the link writes them, a label
    /// character and three separators. The count stops once past the limit, so a scene of
    /// many points is known long after a few thousand of them rather than after writing
    /// megabytes of text, and one of more than `limit / 6` points (each coordinate at least a
    /// character) at once: the page asks after every frame.
    pub fn hash_longer_than(&self, limit: usize) -> bool {
        if !self.edited {
            return false;
        }
        if self.data.len().saturating_mul(6) > limit {
            return true;
        }
        let mut at_least = 0;
        for i in 0..self.data.len() {
            at_least +=
                self.data.coordinate_text(i, 0).len() + self.data.coordinate_text(i, 1).len() + 4;
            if at_least > limit {
                return true;
            }
        }
        false
    }

    /// Bumped by every change that alters what the views show (other than the highlight and
    /// the pointer): views cache their figures by it.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// How many fits this lab has made (the page's own copy makes none while a worker fits
    /// the plane).
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
        match &self.held_in {
            Some((train, index)) => (train, index),
            None => (
                &self.data,
                self.all_index
                    .get_or_init(|| (0..self.data.len()).collect()),
            ),
        }
    }

    /// The points the model is trained on ([`Playground::training`] without their indices).
    pub fn training_set(&self) -> &Dataset {
        train_of(&self.data, &self.held_in)
    }

    /// The index in [`Playground::data`] of training point `t`.
    fn full_index(&self, t: usize) -> Option<usize> {
        match &self.held_in {
            Some((_, index)) => index.get(t).copied(),
            None => (t < self.data.len()).then_some(t),
        }
    }

    /// Where point `index` sits among the training points, if it is one.
    fn train_position(&self, index: usize) -> Option<usize> {
        match &self.held_in {
            Some((_, train_index)) => train_index.binary_search(&index).ok(),
            None => (index < self.data.len()).then_some(index),
        }
    }

    /// Gathers the training subset again from the points and their roles (none when no point
    /// is held out: the training set is then the points).
    fn refresh_training(&mut self) {
        self.all_index = std::cell::OnceCell::new();
        if !self.test.contains(&true) {
            self.held_in = None;
            return;
        }
        let index: Vec<usize> = (0..self.data.len()).filter(|&i| !self.test[i]).collect();
        let train = Dataset::from_parts(
            index.iter().map(|&i| self.data.points[i]).collect(),
            index.iter().map(|&i| self.data.labels[i]).collect(),
        );
        self.held_in = Some((train, index));
    }

    pub fn model(&self) -> Option<&dyn Model> {
        self.model.as_deref()
    }

    /// The fitted model as its own type, when it is one: for tests that look inside a
    /// method's own type. Views and tools ask through `Model`'s capabilities instead.
    pub fn model_as<T: 'static>(&self) -> Option<&T> {
        self.model.as_ref()?.as_any().downcast_ref::<T>()
    }

    /// Whether the methods see the standardised points z = (x − μ)/σ: then any edit of a
    /// point moves every z, and the solvers' kept states hear of it as new data.
    fn standardised(&self) -> bool {
        self.settings.values.flag("std")
    }

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
                *text = crate::core::labels::name_ranks(text, &names);
            }
        }
    }

    /// Something that needs a new fit changed (a setting, the steps on show, a settle).
    fn changed(&mut self) {
        self.needs_fit = true;
        self.version += 1;
    }

    /// The points, their labels or their roles changed: the training set is gathered again,
    /// what was kept of the points is stale, and the model needs a new fit.
    fn points_changed(&mut self) {
        self.points_version += 1;
        self.refresh_training();
        self.changed();
    }
}

/// The training set of points `data` with `held_in` ([`Playground::training_set`]), as a function
/// of the two fields, for a caller that changes a third at the same time.
fn train_of<'a>(data: &'a Dataset, held_in: &'a Option<(Dataset, Vec<usize>)>) -> &'a Dataset {
    held_in.as_ref().map_or(data, |(train, _)| train)
}

/// What `make` gives, kept in `cell` by `version`: made again only once the version has moved
/// (the fingerprints of the points and of the settings, the window around the points).
fn kept_by<T: Copy>(
    cell: &std::cell::Cell<Option<(u64, T)>>,
    version: u64,
    make: impl FnOnce() -> T,
) -> T {
    match cell.get() {
        Some((at, value)) if at == version => value,
        _ => {
            let value = make();
            cell.set(Some((version, value)));
            value
        }
    }
}

#[cfg(test)]
mod tests;

//! The lab's background jobs, which views show as they fill in: the cross-validation grid over
//! the method's two tuning parameters, the validation curve along the one moved last, the
//! SVM's regularisation path over C, and the learning curves. Each is kept with the signature of what it was started
//! from (the training points, the method and its other settings, the folds, the seed) and
//! starts afresh when that changes; a copy computed elsewhere (a Web Worker) can be adopted
//! when its signature matches.

use super::Playground;
use crate::learning::{LearningJob, LearningProgress};
use crate::reg_path::{log_spaced, PathJob, PathProgress, PATH_STEPS};
use crate::validation::{Axis, Folds, GridJob, Progress};
use serde::{Deserialize, Serialize};

/// Job 0: the cross-validation grid.
pub const GRID: usize = 0;
/// Job 1: the validation curve.
pub const CURVE: usize = 1;
/// Job 2: the regularisation path.
pub const PATH: usize = 2;
/// Job 3: the learning curves.
pub const LEARN: usize = 3;
/// How many kinds of job the lab keeps.
pub const JOBS: usize = 4;

/// A background job: a grid of cross-validated fits, a path of warm-started ones, or
/// learning curves.
#[derive(Debug)]
pub enum Job {
    Grid(GridJob),
    Path(Box<PathJob>),
    Learning(LearningJob),
}

/// What a job has computed, to hand to a copy of it elsewhere.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum JobProgress {
    Grid(Progress),
    Path(PathProgress),
    Learning(LearningProgress),
}

impl JobProgress {
    /// How many units (cells, values of C) are finished, of how many.
    pub fn counts(&self) -> (usize, usize) {
        match self {
            JobProgress::Grid(p) => (p.scores.iter().flatten().count(), p.scores.len()),
            JobProgress::Path(p) => (p.points.iter().flatten().count(), p.points.len()),
            JobProgress::Learning(p) => (
                p.points.iter().flatten().flatten().count(),
                p.points.iter().map(Vec::len).sum(),
            ),
        }
    }

    /// Whether nothing remains to compute (finished, or stopped by a problem).
    pub fn done(&self) -> bool {
        let (finished, all) = self.counts();
        let problem = match self {
            JobProgress::Grid(p) => p.problem.is_some(),
            JobProgress::Path(p) => p.problem.is_some(),
            JobProgress::Learning(_) => false,
        };
        problem || finished == all
    }
}

impl Job {
    fn step(&mut self) -> bool {
        match self {
            Job::Grid(job) => job.step(),
            Job::Path(job) => job.step(),
            Job::Learning(job) => job.step(),
        }
    }

    fn done(&self) -> bool {
        match self {
            Job::Grid(job) => job.done(),
            Job::Path(job) => job.done(),
            Job::Learning(job) => job.done(),
        }
    }

    fn progress(&self) -> JobProgress {
        match self {
            Job::Grid(job) => JobProgress::Grid(job.progress()),
            Job::Path(job) => JobProgress::Path(job.progress()),
            Job::Learning(job) => JobProgress::Learning(job.progress()),
        }
    }

    fn adopt(&mut self, progress: JobProgress) {
        match (self, progress) {
            (Job::Grid(job), JobProgress::Grid(p)) => job.adopt(p),
            (Job::Path(job), JobProgress::Path(p)) => job.adopt(p),
            (Job::Learning(job), JobProgress::Learning(p)) => job.adopt(p),
            _ => {}
        }
    }
}

impl Playground {
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
    /// keys it runs along (`axes`), and the folds and the seed if it `folds`. A new value of
    /// any of them starts the job afresh.
    fn job_signature(&self, axes: &[&str], folds: bool) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for (p, l) in self.train.points.iter().zip(&self.train.labels) {
            (p[0].to_bits(), p[1].to_bits(), l).hash(&mut h);
        }
        self.settings.model.hash(&mut h);
        axes.hash(&mut h);
        for row in crate::params::PARAMS {
            let drawn_only = matches!(row.effect, crate::params::Effect::Redraw)
                && !(folds && row.key == "folds");
            let random = row.key == "seed" && !folds;
            if !axes.contains(&row.key) && !drawn_only && !random {
                self.settings.values.text(row.key).hash(&mut h);
            }
        }
        h.finish()
    }

    /// Job `which` ([`GRID`], [`CURVE`] or [`PATH`]) as far as it has got, started afresh
    /// when what it depends on changed.
    fn job(&mut self, which: usize) -> &mut Job {
        let signature = if which == PATH {
            self.job_signature(&["C"], false)
        } else if which == LEARN {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            use std::hash::{Hash, Hasher};
            self.job_signature(&[], true).hash(&mut h);
            self.learning_methods().hash(&mut h);
            h.finish()
        } else {
            let axes = self.job_axes(which);
            let keys: Vec<&str> = axes.iter().map(|a| a.key.as_str()).collect();
            self.job_signature(&keys, true)
        };
        if self.jobs[which]
            .as_ref()
            .is_none_or(|(s, _)| *s != signature)
        {
            let job = if which == PATH {
                Job::Path(Box::new(self.new_path()))
            } else if which == LEARN {
                Job::Learning(self.new_learning())
            } else {
                let folds = Folds::from_name(self.settings.values.choice("folds"))
                    .unwrap_or(Folds::KFold(5));
                let assignment =
                    folds.assign(&self.train.labels, self.settings.values.whole("seed"));
                let job = GridJob::new(
                    &self.settings.values,
                    &self.settings.model,
                    &self.train,
                    self.job_axes(which),
                    assignment,
                )
                .in_task(self.settings.task);
                Job::Grid(if which == CURVE {
                    job.with_training()
                } else {
                    job
                })
            };
            self.jobs[which] = Some((signature, job));
        }
        &mut self.jobs[which].as_mut().expect("just made").1
    }

    /// The axes grid job `which` runs along.
    fn job_axes(&self, which: usize) -> Vec<Axis> {
        if which == GRID {
            self.tuning_axes()
        } else {
            self.curve_axis().into_iter().collect()
        }
    }

    /// A path over the C slider's range, log-spaced, for the training points.
    fn new_path(&self) -> PathJob {
        let (lo, hi) = match crate::params::param("C").map(|row| row.kind) {
            Some(crate::params::Kind::LogSlider { lo, hi }) => (lo, hi),
            _ => (-3.0, 4.0),
        };
        PathJob::new(
            self.settings.method(),
            &self.settings.values,
            &self.train,
            log_spaced(lo, hi, PATH_STEPS),
        )
    }

    /// The learning curves' methods: the lab's own, and the one chosen beside it (unless it
    /// is the same).
    fn learning_methods(&self) -> Vec<String> {
        let own = &self.settings.model;
        // A method to compare with is one of the same task.
        let task = self.settings.task;
        let beside = self
            .settings
            .learn_vs
            .as_ref()
            .filter(|m| *m != own && crate::registry::method_in(task, m).is_ok());
        std::iter::once(own).chain(beside).cloned().collect()
    }

    /// Learning curves over the folds of the training points.
    fn new_learning(&self) -> LearningJob {
        let folds =
            Folds::from_name(self.settings.values.choice("folds")).unwrap_or(Folds::KFold(5));
        let seed = self.settings.values.whole("seed");
        let assignment = folds.assign(&self.train.labels, seed);
        LearningJob::new(
            &self.settings.values,
            self.learning_methods(),
            &self.train,
            &assignment,
            seed,
        )
        .in_task(self.settings.task)
    }

    /// Grid job `which`.
    fn grid_job(&mut self, which: usize) -> &GridJob {
        match self.job(which) {
            Job::Grid(job) => job,
            _ => unreachable!("jobs 0 and 1 are grids"),
        }
    }

    /// The learning curves of the current scene, as far as they have got.
    pub fn learning(&mut self) -> &LearningJob {
        match self.job(LEARN) {
            Job::Learning(job) => job,
            _ => unreachable!("job 3 is the learning curves"),
        }
    }

    /// The cross-validation grid of the current scene, as far as it has got.
    pub fn grid(&mut self) -> &GridJob {
        self.grid_job(GRID)
    }

    /// The validation curve of the current scene, as far as it has got.
    pub fn curve(&mut self) -> &GridJob {
        self.grid_job(CURVE)
    }

    /// The regularisation path of the current scene, as far as it has got.
    pub fn path(&mut self) -> &PathJob {
        match self.job(PATH) {
            Job::Path(job) => job,
            _ => unreachable!("job 2 is the path"),
        }
    }

    /// Whether job `which` has nothing left to compute for the scene as it stands.
    pub fn job_done(&mut self, which: usize) -> bool {
        self.job(which).done()
    }

    /// The signature of job `which` as the scene stands (what a copy computed elsewhere must
    /// match to be adopted), and what it has computed.
    pub fn job_progress(&mut self, which: usize) -> (u64, JobProgress) {
        let progress = self.job(which).progress();
        (self.jobs[which].as_ref().expect("made").0, progress)
    }

    /// Takes over what a copy of job `which` computed elsewhere, if it was computed for the
    /// scene as it stands; returns whether it was.
    pub fn adopt_job(&mut self, which: usize, signature: u64, progress: JobProgress) -> bool {
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
        self.work_on(GRID, folds)
    }

    /// Fits up to `steps` fits of the validation curve; returns whether work remains.
    pub fn work_curve(&mut self, steps: usize) -> bool {
        self.work_on(CURVE, steps)
    }

    /// Solves up to `steps` values of C of the regularisation path; returns whether work
    /// remains.
    pub fn work_path(&mut self, steps: usize) -> bool {
        self.work_on(PATH, steps)
    }

    /// Does up to `steps` units of job `which`; returns whether work remains.
    pub fn work_on(&mut self, which: usize, steps: usize) -> bool {
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
}

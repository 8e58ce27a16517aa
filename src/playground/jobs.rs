//! The lab's background jobs, which the views of model selection show as they fill in: the
//! cross-validation grid over the method's two tuning parameters and the validation curve
//! along the one moved last. Each is kept with the signature of what it was started from (the
//! training points, the method and its other settings, the folds, the seed) and starts afresh
//! when that changes; a copy computed elsewhere (a Web Worker) can be adopted when its
//! signature matches.

use super::Playground;
use crate::validation::{Axis, Folds, GridJob, Progress};

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
}

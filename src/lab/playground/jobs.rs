//! The lab's background jobs, which views show as they fill in (the cross-validation grid, the
//! validation curve, the regularisation path, the learning curves: see [`crate::core::job`]). The
//! view that shows a job declares its kind ([`JobKind`]): what it depends on and how it starts.
//! The lab keeps each kind's job with the signature of what it was started from (the training
//! points, the method and its other settings, the folds, the seed), starts it afresh when that
//! changes, and adopts a copy computed elsewhere (a Web Worker) when its signature matches.

use super::Playground;
pub use crate::core::job::Job;
use crate::methods::validation::Axis;

/// A kind of background job, as the view that shows it declares it.
pub struct JobKind {
    /// Its name, one per kind.
    pub id: &'static str,
    /// What the job depends on, as the scene stands: a new value starts it afresh.
    pub signature: fn(&Playground) -> u64,
    /// The job, started for the scene as it stands.
    pub start: fn(&Playground) -> Box<dyn Job>,
}

/// The lab's jobs, each by its kind's id with the signature of what it was started from.
#[derive(Default)]
pub(super) struct Jobs(pub(super) Vec<(&'static str, u64, Box<dyn Job>)>);

/// The jobs by their kinds and signatures (their contents are the views' to show): a job's
/// `Debug` is not kept in the page's module for this.
impl std::fmt::Debug for Jobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kinds: Vec<(&str, u64)> = self.0.iter().map(|(id, s, _)| (*id, *s)).collect();
        write!(f, "Jobs({kinds:?})")
    }
}

impl std::fmt::Debug for JobKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JobKind({})", self.id)
    }
}

/// How far a job has got, as the scene stands.
#[derive(Clone, Debug, PartialEq)]
pub struct JobState {
    /// The signature it was started from (what a copy computed elsewhere must match).
    pub signature: u64,
    /// Units finished, of how many.
    pub finished: usize,
    pub all: usize,
    /// Whether what it has computed is all there will be ([`Job::complete`]).
    pub complete: bool,
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
                crate::methods::table::param(key)
                    .is_some_and(|row| values.enabled(row, method.params()))
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
                    crate::methods::table::param(key)
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
    pub fn job_signature(&self, axes: &[&str], folds: bool) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let train = self.training_set();
        for (p, l) in train.points.iter().zip(&train.labels) {
            (p[0].to_bits(), p[1].to_bits(), l).hash(&mut h);
        }
        self.settings.model.hash(&mut h);
        axes.hash(&mut h);
        // Every row's value, each method's own solver too: the learning curves' second
        // method reads its own, whichever the lab's model is.
        for (row, text) in self.settings.values.each() {
            let drawn_only = matches!(row.effect, crate::core::params::Effect::Redraw)
                && !(folds && row.key == "folds");
            let random = row.key == "seed" && !folds;
            if !axes.contains(&row.key) && !drawn_only && !random {
                text.hash(&mut h);
            }
        }
        h.finish()
    }

    /// The job of `kind` as far as it has got, started afresh when what it depends on
    /// changed, with the signature it was started from.
    fn job_entry(&mut self, kind: &JobKind) -> (u64, &mut dyn Job) {
        let signature = (kind.signature)(self);
        let at = self.jobs.0.iter().position(|(id, ..)| *id == kind.id);
        let at = match at {
            Some(at) if self.jobs.0[at].1 == signature => at,
            Some(at) => {
                self.jobs.0[at] = (kind.id, signature, (kind.start)(self));
                at
            }
            None => {
                self.jobs.0.push((kind.id, signature, (kind.start)(self)));
                self.jobs.0.len() - 1
            }
        };
        (signature, self.jobs.0[at].2.as_mut())
    }

    /// The job of `kind` as far as it has got.
    fn job(&mut self, kind: &JobKind) -> &mut dyn Job {
        self.job_entry(kind).1
    }

    /// The job of `kind` as its own type `T` (the type `kind` starts), as far as it has got;
    /// `None` if `kind` starts another type.
    pub fn job_as<T: Job>(&mut self, kind: &JobKind) -> Option<&T> {
        self.job(kind).as_any().downcast_ref::<T>()
    }

    /// Whether the job of `kind` has nothing left to compute for the scene as it stands.
    pub fn job_done(&mut self, kind: &JobKind) -> bool {
        self.job(kind).done()
    }

    /// How far the job of `kind` has got, as the scene stands.
    pub fn job_state(&mut self, kind: &JobKind) -> JobState {
        let (signature, job) = self.job_entry(kind);
        let (finished, all) = job.counts();
        let complete = job.complete();
        JobState {
            signature,
            finished,
            all,
            complete,
        }
    }

    /// What the job of `kind` has computed, as JSON, to hand to a copy of the lab elsewhere.
    pub fn job_progress(&mut self, kind: &JobKind) -> serde_json::Value {
        self.job(kind).progress_json()
    }

    /// Takes over what a copy of the job of `kind` computed elsewhere, if it was computed for
    /// the scene as it stands (`signature`); returns whether it was.
    pub fn adopt_job(
        &mut self,
        kind: &JobKind,
        signature: u64,
        progress: &serde_json::Value,
    ) -> bool {
        let (current, job) = self.job_entry(kind);
        if current != signature || !job.adopt_json(progress) {
            return false;
        }
        self.grid_steps += 1;
        true
    }

    /// Does up to `steps` units of the job of `kind`; returns whether work remains.
    pub fn work_on(&mut self, kind: &JobKind, steps: usize) -> bool {
        let mut remaining = true;
        for _ in 0..steps {
            self.grid_steps += 1;
            if !self.job(kind).step() {
                remaining = false;
                break;
            }
        }
        remaining && !self.job(kind).done()
    }

    /// How many units of work the jobs have done so far (all kinds together, adoptions
    /// counted), for views that show a job as it fills in.
    pub fn grid_steps(&self) -> u64 {
        self.grid_steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A view's job depends on every setting a method it fits may read: with the SVM as the
    /// lab's model, logistic regression's own solver (the learning curves' second method
    /// reads it) still starts the job afresh when it changes.
    #[test]
    fn a_jobs_signature_follows_another_methods_own_row() {
        let mut lab = Playground::open("model=svm&preset=moons&n=30&learn_vs=logistic").unwrap();
        let before = lab.job_signature(&[], true);
        lab.set("solver", "gd").unwrap();
        assert_eq!(
            lab.settings().values.choice("solver"),
            "smo",
            "the SVM's stays"
        );
        assert_ne!(lab.job_signature(&[], true), before);
        let after = lab.job_signature(&[], true);
        lab.set("C", "1").unwrap();
        assert_eq!(
            lab.job_signature(&[], true),
            after,
            "an unchanged value changes nothing"
        );
    }
}

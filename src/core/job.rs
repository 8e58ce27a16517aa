//! A background job: the work behind a view that fills in as it goes — a grid of
//! cross-validated fits, a path of warm-started ones, learning curves — done one unit at a time
//! (a fold's fit, a value of C) so that the page stays live between units. A copy of the lab in
//! a Web Worker computes it and the page's copy takes over what it computed, handed across as
//! JSON.
//!
//! Each kind of job implements this trait in its own file; the lab keeps the jobs it was asked
//! for as trait objects (see `playground::jobs`), and a view names the kind it shows.

use std::any::Any;

/// Work a view shows as it fills in.
pub trait Job: Any {
    /// Does one unit of work; returns whether work remains after it.
    fn step(&mut self) -> bool;

    /// Whether the job has nothing left to do (every unit done, or stopped by a problem).
    fn done(&self) -> bool;

    /// How many units are finished, of how many.
    fn counts(&self) -> (usize, usize);

    /// Whether a problem stopped it (the view says which).
    fn stopped(&self) -> bool {
        false
    }

    /// Whether what it has computed is all there will be — every unit, or as far as a
    /// problem let it go — so that nobody need wait for more.
    fn complete(&self) -> bool {
        let (finished, all) = self.counts();
        self.stopped() || finished == all
    }

    /// What it has computed, as JSON, to hand to a copy of it elsewhere.
    fn progress_json(&self) -> serde_json::Value;

    /// Takes over what a copy of it computed elsewhere ([`Job::progress_json`]) and goes on
    /// from there; returns whether that could be read as this kind of job's progress.
    fn adopt_json(&mut self, progress: &serde_json::Value) -> bool;

    /// The job as its own type, for the view that started it.
    fn as_any(&self) -> &dyn Any;
}

/// [`Job::adopt_json`] for a job whose progress is `P`: reads it and adopts it with `adopt`.
pub fn adopt_as<P: serde::de::DeserializeOwned>(
    progress: &serde_json::Value,
    adopt: impl FnOnce(P),
) -> bool {
    match P::deserialize(progress) {
        Ok(progress) => {
            adopt(progress);
            true
        }
        Err(_) => false,
    }
}

/// [`Job::progress_json`] for a job whose progress is `progress`.
pub fn progress_as_json(progress: impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(progress).unwrap_or(serde_json::Value::Null)
}

//! Fitting the method to the training points: a fit is made only when something changed
//! ([`Playground::needs_fit`]), and starts warm from what the method kept of the last one (its
//! multipliers α, its kernel cache), by method id. When an interaction ends the model on show is
//! fitted again from α = 0, so the screen shows what the scene's link reopens to. Stepping
//! through a perceptron or gradient-descent run shows its first updates only; the whole run's
//! trace is a cold fit of its own, kept until the scene changes.

use super::Playground;
use crate::methods::model::{FitOptions, Trace, WarmStart};
use std::collections::BTreeMap;

impl Playground {
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
            let trace = crate::methods::registry::fit(
                method,
                &self.settings.values,
                self.training_set(),
                options,
            )
            .ok()
            .and_then(|m| m.trace().cloned());
            self.run_trace = Some((key, trace));
        }
        self.run_trace.as_ref().and_then(|(_, t)| t.as_ref())
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
            // Only the method on show keeps a state: a kernel cache may hold up to 128 MiB,
            // and one per method tried in a session would add up on a phone.
            self.warm = BTreeMap::new();
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
        let train = super::train_of(&self.data, &self.held_in);
        match crate::methods::registry::fit(method, &self.settings.values, train, options) {
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
}

//! A grid of parameter values scored by cross-validation: its axes, and the job that scores
//! its cells a few at a time (each fold keeping a warm start while the data are small).

use super::{task_score, Score};
use crate::core::data::Dataset;
use crate::core::error::Error;
use crate::core::job::{adopt_as, progress_as_json, Job};
use crate::core::params::Values;
use crate::core::task::Task;
use crate::methods::model::{FitOptions, WarmStart};
use crate::methods::registry;
use serde::{Deserialize, Serialize};

/// One axis of a grid: a parameter key and its values.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub key: String,
    pub values: Vec<f64>,
}

impl Axis {
    /// Reads `key=lo:hi:count`: `count` values from `lo` to `hi`, log-spaced (integer
    /// parameters rounded and de-duplicated).
    pub fn parse(text: &str) -> Result<Axis, Error> {
        let bad = || Error::Parameter(format!("grid axis '{text}' is not key=lo:hi:count"));
        let (key, range) = text.split_once('=').ok_or_else(bad)?;
        let parts: Vec<&str> = range.split(':').collect();
        let [lo, hi, count] = parts.as_slice() else {
            return Err(bad());
        };
        let lo: f64 = lo.parse().map_err(|_| bad())?;
        let hi: f64 = hi.parse().map_err(|_| bad())?;
        let count: usize = count.parse().map_err(|_| bad())?;
        let ordered = lo > 0.0 && hi >= lo && hi.is_finite();
        if !ordered || !(1..=50).contains(&count) {
            return Err(Error::Parameter(format!(
                "grid axis '{text}': need 0 < lo <= hi and 1 to 50 values"
            )));
        }
        let row = crate::methods::table::param(key.trim())
            .ok_or_else(|| Error::Parameter(format!("unknown setting '{}'", key.trim())))?;
        let whole = matches!(row.kind, crate::core::params::Kind::Integer { .. });
        // Powers of ten of evenly spaced exponents, the ends exactly as typed, so that
        // C=1e-2:1e2:5 is 0.01, 0.1, 1, 10, 100.
        let mut values: Vec<f64> = (0..count)
            .map(|i| {
                let v = if i == 0 {
                    lo
                } else if i + 1 == count {
                    hi
                } else {
                    let t = i as f64 / (count - 1) as f64;
                    10f64.powf(lo.log10() + t * (hi.log10() - lo.log10()))
                };
                if whole {
                    v.round()
                } else {
                    v
                }
            })
            .collect();
        values.dedup();
        Ok(Axis {
            key: row.key.to_string(),
            values,
        })
    }
}

impl Axis {
    /// About 13 values over the control's range of `key`: log-spaced for a log slider,
    /// evenly spaced for a slider, every whole number (or log-spaced, rounded, once each) for
    /// an integer.
    pub fn over_slider(key: &str) -> Option<Axis> {
        const COUNT: usize = 13;
        let row = crate::methods::table::param(key)?;
        let spaced = |lo: f64, hi: f64, count: usize| -> Vec<f64> {
            (0..count)
                .map(|i| lo + (hi - lo) * i as f64 / (count - 1) as f64)
                .collect()
        };
        let mut values: Vec<f64> = match row.kind {
            crate::core::params::Kind::LogSlider { lo, hi } => spaced(lo, hi, COUNT)
                .into_iter()
                .map(|e| 10f64.powf(e))
                .collect(),
            crate::core::params::Kind::Slider { lo, hi, .. } => spaced(lo, hi, 11),
            crate::core::params::Kind::Integer {
                min, slider_max, ..
            } => {
                let (lo, hi) = (min.max(1) as f64, slider_max as f64);
                if hi - lo < COUNT as f64 {
                    (min.max(1)..=slider_max).map(|v| v as f64).collect()
                } else {
                    spaced(lo.ln(), hi.ln(), COUNT)
                        .into_iter()
                        .map(|e| e.exp().round())
                        .collect()
                }
            }
            _ => return None,
        };
        values.dedup();
        Some(Axis {
            key: row.key.to_string(),
            values,
        })
    }
}

/// A grid cell: its parameter values and its score.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub params: Vec<(String, f64)>,
    pub score: Score,
}

/// Cross-validates every combination of the axes' values (the first axis slowest), starting
/// from `values`.
pub fn grid(
    values: &Values,
    method_id: &str,
    data: &Dataset,
    axes: &[Axis],
    assignment: &[Vec<usize>],
    max_iter: Option<usize>,
) -> Result<Vec<Cell>, Error> {
    registry::method(method_id)?;
    let mut job = GridJob::new(values, method_id, data, axes.to_vec(), assignment.to_vec());
    job.max_iter = max_iter;
    while job.step() {}
    if let Some(problem) = job.problem {
        return Err(Error::Parameter(problem));
    }
    Ok(job
        .combinations
        .into_iter()
        .zip(job.scores)
        .map(|(params, score)| Cell {
            params,
            score: score.expect("a finished grid"),
        })
        .collect())
}

/// The most points for which a grid keeps a warm-start state per fold.
const WARM_FOLDS_UP_TO: usize = 2000;

/// What a [`GridJob`] has computed: each cell's score, each training accuracy, and why it
/// stopped, if it did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub scores: Vec<Option<Score>>,
    pub training: Option<Vec<Option<f64>>>,
    pub problem: Option<String>,
}

/// A grid cross-validated a fold at a time, so that the page can spread the work over frames
/// and show the cells as they finish. The cells are visited with the first axis running
/// fastest and every fold keeps its method's warm-start state, so along C (the SVM's first
/// axis) each fit starts from the last one's solution scaled to the new C.
#[derive(Debug)]
pub struct GridJob {
    values: Values,
    method_id: String,
    /// The method's task, which also says how a fold is scored ([`task_score`]).
    task: Task,
    data: Dataset,
    pub axes: Vec<Axis>,
    assignment: Vec<Vec<usize>>,
    /// Every combination of the axes' values, first axis slowest.
    pub combinations: Vec<Vec<(String, f64)>>,
    /// The score of each finished cell.
    pub scores: Vec<Option<Score>>,
    /// The fold accuracies of the cell in progress.
    partial: Vec<f64>,
    /// The order the cells are visited in: the first axis fastest.
    order: Vec<usize>,
    /// The next (position in `order`, repetition, fold) to fit.
    next: (usize, usize, usize),
    /// Each (repetition, fold)'s warm-start state, for methods that keep one.
    warm: std::collections::BTreeMap<(usize, usize), Box<dyn WarmStart>>,
    /// Why the grid stopped, if it could not go on.
    pub problem: Option<String>,
    /// The solvers' iteration cap (the command line's), if not the page's.
    pub max_iter: Option<usize>,
    /// With training accuracies: each cell's accuracy on all the points, fitted on all of
    /// them (computed before the folds), for a validation curve.
    pub training: Option<Vec<Option<f64>>>,
}

impl GridJob {
    pub fn new(
        values: &Values,
        method_id: &str,
        data: &Dataset,
        axes: Vec<Axis>,
        assignment: Vec<Vec<usize>>,
    ) -> GridJob {
        let mut combinations: Vec<Vec<(String, f64)>> = vec![Vec::new()];
        for axis in &axes {
            combinations = combinations
                .into_iter()
                .flat_map(|prefix| {
                    axis.values.iter().map(move |&v| {
                        let mut c = prefix.clone();
                        c.push((axis.key.clone(), v));
                        c
                    })
                })
                .collect();
        }
        // Combination c is (c / |second axis|, c % |second axis|).
        let inner = axes.get(1).map_or(1, |a| a.values.len());
        let outer = axes.first().map_or(1, |a| a.values.len());
        let order = (0..inner)
            .flat_map(|j| (0..outer).map(move |i| i * inner + j))
            .collect();
        GridJob {
            order,
            warm: std::collections::BTreeMap::new(),
            values: values.clone(),
            method_id: method_id.to_string(),
            task: Task::Classification,
            data: data.clone(),
            scores: vec![None; combinations.len()],
            combinations,
            axes,
            assignment,
            partial: Vec::new(),
            next: (0, 0, 0),
            problem: None,
            max_iter: None,
            training: None,
        }
    }

    /// What has been computed, to hand to a copy of this job elsewhere (a Web Worker's
    /// results to the page's).
    pub fn progress(&self) -> Progress {
        Progress {
            scores: self.scores.clone(),
            training: self.training.clone(),
            problem: self.problem.clone(),
        }
    }

    /// Takes over what a copy of this job has computed; it goes on from there.
    pub fn adopt(&mut self, progress: Progress) {
        if progress.scores.len() != self.scores.len() {
            return;
        }
        self.scores = progress.scores;
        if let (Some(mine), Some(theirs)) = (&mut self.training, progress.training) {
            if mine.len() == theirs.len() {
                *mine = theirs;
            }
        }
        self.problem = progress.problem;
        self.partial.clear();
        let next = self.order.iter().position(|&c| self.scores[c].is_none());
        self.next = (next.unwrap_or(self.order.len()), 0, 0);
    }

    /// How many cells are finished.
    pub fn finished(&self) -> usize {
        self.scores.iter().filter(|s| s.is_some()).count()
    }

    pub fn done(&self) -> bool {
        self.problem.is_some() || self.next.0 >= self.order.len()
    }

    /// The job for a method of `task` (classification's unless said), scored as that task is.
    pub fn in_task(mut self, task: Task) -> GridJob {
        self.task = task;
        self
    }

    /// Also scores each cell on all the points it is fitted to (for a validation curve).
    pub fn with_training(mut self) -> GridJob {
        self.training = Some(vec![None; self.combinations.len()]);
        self
    }

    /// The settings of cell `cell`.
    fn cell_values(&self, cell: usize) -> Result<Values, Error> {
        let mut values = self.values.clone();
        for (key, v) in &self.combinations[cell] {
            values.set(key, &v.to_string())?;
        }
        Ok(values)
    }

    /// Fits `train`, warm from fold `fold`'s last fit when there is one.
    fn fit(
        &mut self,
        values: &Values,
        train: &Dataset,
        fold: Option<(usize, usize)>,
    ) -> Result<Box<dyn crate::methods::model::Model>, Error> {
        let method = registry::method_in(self.task, &self.method_id)?;
        // Each fold's state holds a kernel cache of its own (up to the whole Gram matrix of
        // its training part): beyond a couple of thousand points, folds fit cold instead.
        let fold = fold.filter(|_| self.data.len() <= WARM_FOLDS_UP_TO);
        let warm = match fold {
            Some(key) => match self.warm.entry(key) {
                std::collections::btree_map::Entry::Occupied(e) => Some(e.into_mut()),
                std::collections::btree_map::Entry::Vacant(e) => {
                    method.warm_start().map(|state| e.insert(state))
                }
            },
            None => None,
        };
        let options = FitOptions {
            max_iter: self.max_iter,
            warm: warm.map(|w| &mut **w as &mut dyn WarmStart),
            ..FitOptions::default()
        };
        registry::fit(method, values, train, options)
    }

    /// Fits and scores one fold (or, first, one cell on all the points); returns whether work
    /// remains.
    pub fn step(&mut self) -> bool {
        if self.done() {
            return false;
        }
        if let Some(cell) = self
            .training
            .as_ref()
            .and_then(|t| t.iter().position(|a| a.is_none()))
        {
            let data = self.data.clone();
            let scored = self.cell_values(cell).and_then(|values| {
                let model = self.fit(&values, &data, None)?;
                task_score(self.task, model.as_ref(), &data)
            });
            match scored {
                Ok(accuracy) => self.training.as_mut().expect("checked")[cell] = Some(accuracy),
                Err(e) => {
                    self.problem = Some(format!("the fit on all the points failed: {e}"));
                    return false;
                }
            }
            return true;
        }
        let (position, repetition, fold) = self.next;
        let cell = self.order[position];
        let folds = &self.assignment[repetition];
        let count = folds.iter().copied().max().map_or(0, |k| k + 1);
        let values = match self.cell_values(cell) {
            Ok(values) => values,
            Err(e) => {
                self.problem = Some(e.to_string());
                return false;
            }
        };
        let (mut train, mut test) = (Dataset::new(), Dataset::new());
        for ((&point, &label), &f) in self.data.points.iter().zip(&self.data.labels).zip(folds) {
            let side = if f == fold { &mut test } else { &mut train };
            side.points.push(point);
            side.labels.push(label);
        }
        if !test.is_empty() {
            let fitted = self.fit(&values, &train, Some((repetition, fold)));
            match fitted.and_then(|model| task_score(self.task, model.as_ref(), &test)) {
                Ok(score) => self.partial.push(score),
                Err(e) => {
                    self.problem = Some(format!("a fold could not be fitted: {e}"));
                    return false;
                }
            }
        }
        self.next = if fold + 1 < count {
            (position, repetition, fold + 1)
        } else if repetition + 1 < self.assignment.len() {
            (position, repetition + 1, 0)
        } else {
            self.scores[cell] = Some(Score::of(std::mem::take(&mut self.partial)));
            (position + 1, 0, 0)
        };
        !self.done()
    }
}

impl Job for GridJob {
    fn step(&mut self) -> bool {
        GridJob::step(self)
    }

    fn done(&self) -> bool {
        GridJob::done(self)
    }

    fn counts(&self) -> (usize, usize) {
        (self.finished(), self.scores.len())
    }

    fn stopped(&self) -> bool {
        self.problem.is_some()
    }

    fn progress_json(&self) -> serde_json::Value {
        progress_as_json(self.progress())
    }

    fn adopt_json(&mut self, progress: &serde_json::Value) -> bool {
        adopt_as(progress, |p: Progress| self.adopt(p))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

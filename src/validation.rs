//! Choosing hyper-parameters honestly (CURRICULUM §11): cross-validation over folds of the
//! training points, and a grid of parameter values scored that way.
//!
//! - k-fold: the points are split into k folds; each fold in turn is held out, the model is
//!   fitted on the other k − 1 and scored on it. The CV accuracy is the mean of the k fold
//!   accuracies, with their standard deviation (population, as NumPy's `std`).
//! - Leave-one-out: k = n, one point per fold.
//! - 5×2 (Dietterich): five repetitions of 2-fold cross-validation, each with its own shuffle;
//!   ten fold accuracies.
//!
//! In regression a fold is scored by R² = 1 − Σ r² / Σ (t − t̄)² of its held-out points (1 for a
//! perfect fit, 0 for the held-out mean, negative for worse), as scikit-learn's `cross_val_score`
//! scores a regressor; novelty detection has no labels to score against.
//!
//! Folds are stratified — every class is dealt round the folds in a seeded shuffle, so each
//! fold keeps the class proportions (as scikit-learn's `StratifiedKFold(shuffle=True)`, though
//! not its random stream) — and seeded: the same labels, scheme and seed give the same folds,
//! which the command line exports so that scikit-learn can be run on exactly them.

use crate::data::Dataset;
use crate::error::Error;
use crate::model::{FitOptions, Model, WarmStart};
use crate::params::Values;
use crate::registry;
use crate::task::Task;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// How the points are split into folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Folds {
    /// k folds, 2 ≤ k ≤ 20.
    KFold(usize),
    LeaveOneOut,
    /// Five repetitions of 2-fold.
    FiveByTwo,
}

impl Folds {
    /// Reads "5", "loo" or "5x2".
    pub fn from_name(name: &str) -> Result<Folds, Error> {
        match name.trim() {
            "loo" => Ok(Folds::LeaveOneOut),
            "5x2" => Ok(Folds::FiveByTwo),
            k => match k.parse::<usize>() {
                Ok(k) if (2..=20).contains(&k) => Ok(Folds::KFold(k)),
                _ => Err(Error::Parameter(format!(
                    "folds '{k}' is not a number of folds from 2 to 20, loo or 5x2"
                ))),
            },
        }
    }

    pub fn name(&self) -> String {
        match self {
            Folds::KFold(k) => k.to_string(),
            Folds::LeaveOneOut => "loo".into(),
            Folds::FiveByTwo => "5x2".into(),
        }
    }

    /// The fold of every point, one list per repetition (one repetition except for 5×2).
    pub fn assign(&self, labels: &[i32], seed: u64) -> Vec<Vec<usize>> {
        match *self {
            Folds::KFold(k) => vec![stratified_folds(labels, k, seed)],
            Folds::LeaveOneOut => vec![(0..labels.len()).collect()],
            Folds::FiveByTwo => (0..5u64)
                .map(|r| stratified_folds(labels, 2, seed.wrapping_add(r.wrapping_mul(7919))))
                .collect(),
        }
    }
}

/// Deals every class's points, in a seeded shuffle, round k folds.
fn stratified_folds(labels: &[i32], k: usize, seed: u64) -> Vec<usize> {
    let mut rng = StdRng::seed_from_u64(seed ^ 0xF01D_5EED);
    let mut fold = vec![0; labels.len()];
    let mut classes = labels.to_vec();
    crate::sorting::sort(&mut classes);
    classes.dedup();
    // The next fold to deal into carries over from class to class, so small classes do not
    // all start at fold 0 and the folds' sizes differ by at most one.
    let mut next = 0;
    for class in classes {
        let mut members: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == class).collect();
        for j in (1..members.len()).rev() {
            members.swap(j, rng.random_range(0..=j));
        }
        for i in members {
            fold[i] = next % k;
            next += 1;
        }
    }
    fold
}

/// One cross-validated score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// The accuracy on each held-out fold, repetition by repetition.
    pub fold_accuracy: Vec<f64>,
    pub mean: f64,
    /// Population standard deviation of the fold accuracies.
    pub sd: f64,
}

impl Score {
    pub(crate) fn of(fold_accuracy: Vec<f64>) -> Score {
        let n = fold_accuracy.len().max(1) as f64;
        let mean = fold_accuracy.iter().sum::<f64>() / n;
        let sd = (fold_accuracy
            .iter()
            .map(|a| (a - mean).powi(2))
            .sum::<f64>()
            / n)
            .sqrt();
        Score {
            fold_accuracy,
            mean,
            sd,
        }
    }
}

/// The score of `model` on `data` in `task`: the accuracy in classification, R² in regression
/// (none where the targets are all equal, as in a held-out part of one point), and none in
/// novelty detection.
pub fn task_score(task: Task, model: &dyn Model, data: &Dataset) -> Result<f64, Error> {
    let why = match task {
        Task::Classification => return Ok(model.accuracy(&data.points, &data.labels)),
        Task::Regression => match crate::solvers::regression::scores(model, &data.points) {
            Some((_, Some(r2))) => return Ok(r2),
            _ => "R² needs held-out targets that differ (leave-one-out has none): use k folds",
        },
        Task::Novelty => "novelty detection has no labels to score held-out points against",
    };
    Err(Error::Parameter(why.into()))
}

/// Cross-validates the method `values` name on `data` over the folds `assignment` gives
/// (one fold index per point per repetition). A fold whose training part cannot be fitted
/// (one class left, say) is an error that says why.
pub fn cross_validate(
    values: &Values,
    method_id: &str,
    data: &Dataset,
    assignment: &[Vec<usize>],
) -> Result<Score, Error> {
    let cells = grid(values, method_id, data, &[], assignment, None)?;
    Ok(cells
        .into_iter()
        .next()
        .expect("a grid without axes has one cell")
        .score)
}

/// Every point's class scores (in `data`'s class order) from the model of the fold that held
/// it out — out-of-fold scores, as scikit-learn's `cross_val_predict`: for two classes one
/// score, f(x); for more, one per class (probabilities where the model has them), −∞ for a
/// class the fold's training part lacked.
pub fn out_of_fold_scores(
    values: &Values,
    method_id: &str,
    data: &Dataset,
    folds: &[usize],
) -> Result<Vec<Vec<f64>>, Error> {
    let method = registry::method(method_id)?;
    let classes = data.classes();
    let mut scores = vec![Vec::new(); data.len()];
    let count = folds.iter().copied().max().map_or(0, |k| k + 1);
    for f in 0..count {
        let mut train = Dataset::new();
        for ((&point, &label), &fold) in data.points.iter().zip(&data.labels).zip(folds) {
            if fold != f {
                train.points.push(point);
                train.labels.push(label);
            }
        }
        let model = registry::fit(method, values, &train, FitOptions::default())?;
        let own = model.classes();
        for (i, &fold) in folds.iter().enumerate() {
            if fold != f {
                continue;
            }
            let x = data.points[i];
            scores[i] = if classes.len() == 2 {
                vec![model.decision_value(x)]
            } else {
                let s = model.probabilities(x).unwrap_or_else(|| model.scores(x));
                classes
                    .iter()
                    .map(|c| {
                        own.iter()
                            .position(|o| o == c)
                            .map_or(f64::NEG_INFINITY, |k| s[k])
                    })
                    .collect()
            };
        }
    }
    Ok(scores)
}

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
        let row = crate::params::param(key.trim())
            .ok_or_else(|| Error::Parameter(format!("unknown setting '{}'", key.trim())))?;
        let whole = matches!(row.kind, crate::params::Kind::Integer { .. });
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
        let row = crate::params::param(key)?;
        let spaced = |lo: f64, hi: f64, count: usize| -> Vec<f64> {
            (0..count)
                .map(|i| lo + (hi - lo) * i as f64 / (count - 1) as f64)
                .collect()
        };
        let mut values: Vec<f64> = match row.kind {
            crate::params::Kind::LogSlider { lo, hi } => spaced(lo, hi, COUNT)
                .into_iter()
                .map(|e| 10f64.powf(e))
                .collect(),
            crate::params::Kind::Slider { lo, hi, .. } => spaced(lo, hi, 11),
            crate::params::Kind::Integer {
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
    ) -> Result<Box<dyn crate::model::Model>, Error> {
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

/// How far apart two mean accuracies may be and still tie: rounding only, so cells tie when
/// they got the same share of the held-out points right (the hover shows the same number).
pub const TIE: f64 = 1e-9;

/// The best cell of a grid and the cells that tie with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    /// The cell picked: of the tied cells, the simplest ([`simpler`]).
    pub index: usize,
    /// Every cell whose mean ties the highest (within [`TIE`]), `index` among them, in grid
    /// order.
    pub tied: Vec<usize>,
}

/// Whether a smaller value of parameter `key` gives the simpler model: a smaller C (a wider
/// margin, more points allowed inside it), a smaller γ (a smoother function), a lower degree;
/// for λ, k (of k-NN), QDA's reg and the ε of ε-SVR it is the larger value (a stronger
/// penalty, a vote over more neighbours, covariances pulled further towards the identity, a
/// wider tube with fewer support vectors).
pub fn simpler_when_smaller(key: &str) -> bool {
    !matches!(key, "lambda" | "k" | "reg" | "epsilon")
}

/// The order in which parameters decide which of two tied cells is simpler: first the ones
/// that set the shape of the function (γ, the degree, k), then the penalty (C, λ, reg).
fn precedence(key: &str) -> u8 {
    match key {
        "gamma" | "degree" | "k" => 0,
        _ => 1,
    }
}

/// The parameter keys of `params` in the order they decide simplicity.
fn by_precedence(params: &[(String, f64)]) -> Vec<&(String, f64)> {
    let mut keys: Vec<&(String, f64)> = params.iter().collect();
    crate::sorting::sort_by_key(&mut keys, |(k, _)| precedence(k));
    keys
}

/// Orders two cells' parameter values from the simpler model to the more complex one
/// (parameter by parameter, those that shape the function, γ, the degree and k, before the
/// penalty; see [`simpler_when_smaller`]).
pub fn simpler(a: &[(String, f64)], b: &[(String, f64)]) -> std::cmp::Ordering {
    for ((key, x), (_, y)) in by_precedence(a).into_iter().zip(by_precedence(b)) {
        let (x, y) = if simpler_when_smaller(key) {
            (*x, *y)
        } else {
            (-*x, -*y)
        };
        match x.partial_cmp(&y) {
            Some(std::cmp::Ordering::Equal) | None => {}
            Some(order) => return order,
        }
    }
    std::cmp::Ordering::Equal
}

/// The rule that picks among tied cells, in words: "smallest γ, then smallest C", with why
/// each is simpler.
pub fn tie_rule(params: &[(String, f64)]) -> String {
    let words: Vec<String> = by_precedence(params)
        .into_iter()
        .map(|(key, _)| {
            let label = crate::params::param(key).map_or(key.as_str(), |p| p.label);
            let why = match key.as_str() {
                "C" => " (the widest margin)",
                "gamma" => " (the smoothest boundary)",
                "degree" => " (the fewest monomials)",
                "lambda" => " (the strongest penalty)",
                "k" => " (a vote over the most neighbours)",
                "reg" => " (covariances nearest the identity)",
                _ => "",
            };
            let extreme = match (simpler_when_smaller(key), key.as_str()) {
                (true, "degree") => "lowest",
                (true, _) => "smallest",
                (false, _) => "largest",
            };
            format!("{extreme} {label}{why}")
        })
        .collect();
    words.join(", then ")
}

/// The best cell: the highest mean accuracy; when cells tie for it (within [`TIE`]), the
/// simplest of them ([`simpler`]), the first in grid order if they are equally simple.
pub fn best_of(cells: &[Cell]) -> Option<Best> {
    let high = cells
        .iter()
        .map(|c| c.score.mean)
        .fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<usize> = (0..cells.len())
        .filter(|&i| cells[i].score.mean >= high - TIE)
        .collect();
    let index = tied
        .iter()
        .copied()
        .min_by(|&a, &b| simpler(&cells[a].params, &cells[b].params))?;
    Some(Best { index, tied })
}

/// The index of the best cell ([`best_of`]).
pub fn best(cells: &[Cell]) -> Option<usize> {
    best_of(cells).map(|b| b.index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Preset;

    #[test]
    fn folds_are_stratified_balanced_and_seeded() {
        let data = Preset::Blobs3.generate(61, 0.2, 1);
        let folds = Folds::KFold(5).assign(&data.labels, 3);
        assert_eq!(folds.len(), 1);
        let fold = &folds[0];
        let sizes: Vec<usize> = (0..5)
            .map(|f| fold.iter().filter(|&&x| x == f).count())
            .collect();
        assert!(
            sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1,
            "{sizes:?}"
        );
        for class in 0..3 {
            let per_fold: Vec<usize> = (0..5)
                .map(|f| {
                    (0..61)
                        .filter(|&i| fold[i] == f && data.labels[i] == class)
                        .count()
                })
                .collect();
            assert!(per_fold.iter().max().unwrap() - per_fold.iter().min().unwrap() <= 1);
        }
        assert_eq!(folds, Folds::KFold(5).assign(&data.labels, 3));
        assert_ne!(folds, Folds::KFold(5).assign(&data.labels, 4));
        let five_by_two = Folds::FiveByTwo.assign(&data.labels, 3);
        assert_eq!(five_by_two.len(), 5);
        assert_ne!(
            five_by_two[0], five_by_two[1],
            "each repetition its own shuffle"
        );
        assert_eq!(
            Folds::LeaveOneOut.assign(&data.labels, 3)[0],
            (0..61).collect::<Vec<_>>()
        );
    }

    #[test]
    fn names_and_axes_parse() {
        assert_eq!(Folds::from_name("loo").unwrap(), Folds::LeaveOneOut);
        assert_eq!(Folds::from_name("10").unwrap(), Folds::KFold(10));
        assert!(Folds::from_name("1").is_err());
        let axis = Axis::parse("C=1e-2:1e2:5").unwrap();
        assert_eq!(axis.key, "C");
        assert_eq!(axis.values, [0.01, 0.1, 1.0, 10.0, 100.0]);
        // 1, 1.31, 1.71, 2.24, 2.92, 3.82, 5, 6.54, 8.55, 11.2, 14.6, 19.1, 25: rounded, once each.
        assert_eq!(
            Axis::parse("k=1:25:13").unwrap().values,
            [1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 9.0, 11.0, 15.0, 19.0, 25.0]
        );
        assert!(Axis::parse("C=0:1:3").is_err());
        assert!(Axis::parse("bogus=1:2:3").is_err());
    }

    #[test]
    fn a_fold_score_is_the_held_out_accuracy() {
        let data = Preset::Overlapping.generate(40, 0.3, 2);
        let assignment = Folds::KFold(4).assign(&data.labels, 1);
        let values = Values::default();
        let score = cross_validate(&values, "knn", &data, &assignment).unwrap();
        assert_eq!(score.fold_accuracy.len(), 4);
        // Fold 0 by hand.
        let (mut train, mut test) = (Dataset::new(), Dataset::new());
        for (i, &fold) in assignment[0].iter().enumerate() {
            let side = if fold == 0 { &mut test } else { &mut train };
            side.push(data.points[i], data.labels[i]).unwrap();
        }
        let model = registry::fit(
            registry::method("knn").unwrap(),
            &values,
            &train,
            FitOptions::default(),
        )
        .unwrap();
        assert_eq!(
            score.fold_accuracy[0],
            model.accuracy(&test.points, &test.labels)
        );
        let mean = score.fold_accuracy.iter().sum::<f64>() / 4.0;
        assert!((score.mean - mean).abs() < 1e-15);
    }

    fn cell(c: f64, gamma: f64, mean: f64) -> Cell {
        Cell {
            params: vec![("C".into(), c), ("gamma".into(), gamma)],
            score: Score {
                fold_accuracy: vec![mean],
                mean,
                sd: 0.0,
            },
        }
    }

    #[test]
    fn tied_cells_are_all_named_and_the_simplest_is_picked() {
        // C slowest, as a grid is laid out; 0.9 at three cells, one of them a rounding apart.
        let cells = vec![
            cell(0.001, 0.1, 0.5),
            cell(0.001, 31.6, 0.9),
            cell(1.0, 0.1, 0.6),
            cell(1.0, 3.16, 0.9 + 1e-12),
            cell(100.0, 3.16, 0.9),
            cell(100.0, 31.6, 0.85),
        ];
        let b = best_of(&cells).unwrap();
        assert_eq!(b.tied, [1, 3, 4]);
        // The smallest γ first (3.16, not the corner's 31.6), then the smallest C.
        assert_eq!(b.index, 3);
        assert_eq!(best(&cells), Some(3));
        assert_eq!(
            tie_rule(&cells[0].params),
            "smallest γ (the smoothest boundary), then smallest C (the widest margin)"
        );
        // A lone best is the best, however complex.
        let mut alone = cells.clone();
        alone[5].score.mean = 0.95;
        assert_eq!(
            best_of(&alone).unwrap(),
            Best {
                index: 5,
                tied: vec![5]
            }
        );
        assert_eq!(best_of(&[]), None);
    }

    #[test]
    fn larger_is_simpler_for_penalties_and_neighbours() {
        let k = |k: f64| vec![("k".to_string(), k)];
        assert_eq!(simpler(&k(15.0), &k(3.0)), std::cmp::Ordering::Less);
        let lg = |l: f64, g: f64| vec![("lambda".to_string(), l), ("gamma".to_string(), g)];
        assert_eq!(
            simpler(&lg(0.01, 1.0), &lg(1.0, 10.0)),
            std::cmp::Ordering::Less
        );
        assert_eq!(
            simpler(&lg(1.0, 1.0), &lg(0.01, 1.0)),
            std::cmp::Ordering::Less
        );
        assert!(tie_rule(&lg(1.0, 1.0)).starts_with("smallest γ"));
    }
}

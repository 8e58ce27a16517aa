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
//!
//! The parts: `grid` (the axes of a grid, and the job that scores its cells a few at a time)
//! and `best` (which cell wins, and how ties go to the simpler model).

use crate::core::data::Dataset;
use crate::core::error::Error;
use crate::core::params::Values;
use crate::core::task::Task;
use crate::methods::model::{FitOptions, Model};
use crate::methods::registry;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

mod best;
mod grid;
pub use best::{best, best_of, simpler, simpler_when_smaller, tie_rule, Best, TIE};
pub use grid::{grid, Axis, Cell, GridJob, Progress};

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
    crate::core::sorting::sort(&mut classes);
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
        Task::Regression => {
            match crate::methods::solvers::regression::scores(model, &data.points) {
                Some((_, Some(r2))) => return Ok(r2),
                _ => "R² needs held-out targets that differ (leave-one-out has none): use k folds",
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;

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
        let values = crate::methods::table::defaults();
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

//! Cross-validation agrees with scikit-learn's `cross_val_score` run on exactly our folds:
//! the SVM (RBF, polynomial, three classes one-vs-one), logistic regression with polynomial
//! features and k-NN, over k-fold, leave-one-out and 5×2 folds and grids of C, γ, λ and k.
//! Every fold accuracy must be equal, as both are the same count over the same fold size;
//! only a fold holding a point the fixture lists as a near-tie (a decision value within
//! rounding of zero, a k-NN vote or k-th-neighbour distance tie) may differ, by at most one
//! point per listed near-tie.
//! Fixtures: tests/fixtures/cv_sklearn.json, made by tests/fixtures/make_cv_fixtures.py.

use kernel_playground::core::data::Dataset;
use kernel_playground::methods::validation::{cross_validate, Axis, Folds};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Fixtures {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    model: String,
    /// Parameter keys with their text, as the command line's `--key text`.
    settings: BTreeMap<String, String>,
    grid: Option<String>,
    folds_scheme: String,
    seed: u64,
    x: Vec<[f64; 2]>,
    labels: Vec<i32>,
    /// The fold of every point, one list per repetition.
    folds: Vec<Vec<usize>>,
    cells: Vec<Cell>,
    near_ties: Vec<NearTie>,
}

#[derive(Deserialize)]
struct Cell {
    /// Each grid value as text, as `Values::set` reads it: serde_json's default float parsing
    /// may land one unit in the last place away from a 17-digit number, and the fit must see
    /// exactly the value scikit-learn saw.
    params: BTreeMap<String, String>,
    /// scikit-learn's accuracy on every held-out fold, repetition by repetition.
    fold_accuracy: Vec<f64>,
    /// The points of each held-out fold scikit-learn predicted correctly (exact integers, so
    /// its accuracy is exactly fold_correct / fold size).
    fold_correct: Vec<usize>,
    mean: f64,
}

/// A held-out point whose prediction a near-tie may decide.
#[derive(Deserialize)]
struct NearTie {
    cell: usize,
    /// Index into `fold_accuracy`.
    fold: usize,
    point: usize,
}

fn fixtures() -> Fixtures {
    serde_json::from_str(include_str!("fixtures/cv_sklearn.json")).expect("fixture JSON")
}

fn dataset(case: &Case) -> Dataset {
    let mut data = Dataset::new();
    for (&point, &label) in case.x.iter().zip(&case.labels) {
        data.push(point, label).unwrap();
    }
    assert_eq!(
        data.points, case.x,
        "{}: points change on the 10⁻⁴ grid",
        case.name
    );
    data
}

/// The held-out folds in `fold_accuracy` order: (repetition, fold, size).
fn held_out_folds(case: &Case) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for (r, folds) in case.folds.iter().enumerate() {
        let count = folds.iter().max().map_or(0, |&k| k + 1);
        for f in 0..count {
            out.push((r, f, folds.iter().filter(|&&g| g == f).count()));
        }
    }
    out
}

#[test]
fn covers_the_schemes_models_and_three_classes() {
    let cases = fixtures().cases;
    for scheme in ["loo", "5x2"] {
        assert!(cases.iter().any(|c| c.folds_scheme == scheme), "{scheme}");
    }
    assert!(cases
        .iter()
        .any(|c| c.folds_scheme.parse::<usize>().is_ok()));
    for model in ["svm", "logistic", "knn"] {
        assert!(cases.iter().any(|c| c.model == model), "{model}");
    }
    assert!(
        cases.iter().any(|c| c.labels.contains(&2)),
        "a 3-class case"
    );
}

#[test]
fn folds_are_the_seeded_assignment() {
    for case in fixtures().cases {
        let folds = Folds::from_name(&case.folds_scheme).unwrap();
        assert_eq!(
            folds.assign(&case.labels, case.seed),
            case.folds,
            "{}: Folds::assign no longer gives the recorded folds",
            case.name
        );
    }
}

#[test]
fn grid_axes_give_the_recorded_cells() {
    for case in fixtures().cases {
        let axes: Vec<Axis> = match &case.grid {
            Some(text) => text.split(',').map(|a| Axis::parse(a).unwrap()).collect(),
            None => Vec::new(),
        };
        // The first axis slowest, as validation::grid walks them.
        let mut expected: Vec<Vec<(String, f64)>> = vec![Vec::new()];
        for axis in &axes {
            expected = expected
                .into_iter()
                .flat_map(|prefix| {
                    axis.values.iter().map(move |&v| {
                        let mut cell = prefix.clone();
                        cell.push((axis.key.clone(), v));
                        cell.sort_by(|a, b| a.0.cmp(&b.0));
                        cell
                    })
                })
                .collect();
        }
        let recorded: Vec<Vec<(String, f64)>> = case
            .cells
            .iter()
            .map(|c| {
                c.params
                    .iter()
                    .map(|(key, text)| (key.clone(), text.parse().unwrap()))
                    .collect()
            })
            .collect();
        assert_eq!(
            recorded, expected,
            "{}: the grid's values changed; regenerate the fixture",
            case.name
        );
    }
}

#[test]
fn fold_accuracies_match_scikit_learn() {
    for case in fixtures().cases {
        let data = dataset(&case);
        let folds = held_out_folds(&case);
        for tie in &case.near_ties {
            let (r, f, _) = folds[tie.fold];
            assert_eq!(case.folds[r][tie.point], f, "{}: a near-tie", case.name);
        }
        let mut base = kernel_playground::methods::table::defaults();
        for (key, text) in &case.settings {
            base.set(key, text).unwrap();
        }
        for (c, cell) in case.cells.iter().enumerate() {
            let mut values = base.clone();
            for (key, text) in &cell.params {
                values.set(key, text).unwrap();
            }
            let score = cross_validate(&values, &case.model, &data, &case.folds)
                .unwrap_or_else(|e| panic!("{} {:?}: {e}", case.name, cell.params));
            assert_eq!(score.fold_accuracy.len(), folds.len(), "{}", case.name);
            assert_eq!(cell.fold_correct.len(), folds.len(), "{}", case.name);
            let mut slack_sum = 0.0;
            for (f, (&ours, &correct)) in score
                .fold_accuracy
                .iter()
                .zip(&cell.fold_correct)
                .enumerate()
            {
                let size = folds[f].2 as f64;
                let theirs = correct as f64 / size;
                assert!(
                    (theirs - cell.fold_accuracy[f]).abs() <= 1e-15,
                    "{} fold {f}: fold_accuracy is not fold_correct / fold size",
                    case.name
                );
                let ties = case
                    .near_ties
                    .iter()
                    .filter(|t| t.cell == c && t.fold == f)
                    .count();
                let slack = ties as f64 / size;
                slack_sum += slack;
                let agree = if ties == 0 {
                    ours == theirs
                } else {
                    (ours - theirs).abs() <= slack + 1e-12
                };
                assert!(
                    agree,
                    "{} {:?} fold {f}: accuracy {ours}, scikit-learn {theirs} ({ties} near-ties)",
                    case.name, cell.params
                );
            }
            let slack_mean = slack_sum / cell.fold_accuracy.len() as f64;
            assert!(
                (score.mean - cell.mean).abs() <= slack_mean + 1e-12,
                "{} {:?}: mean {}, scikit-learn {}",
                case.name,
                cell.params,
                score.mean,
                cell.mean
            );
        }
    }
}

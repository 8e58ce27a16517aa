//! The cross-validation heat map (CURRICULUM §11): the mean k-fold accuracy on the training
//! points for every pair of values of the method's two main hyper-parameters — C × γ for the
//! SVM, λ × γ or λ × degree for logistic regression and kernel ridge — over the sliders'
//! ranges, log-spaced where the slider is, as a viridis colour with a colour bar. The best cell
//! and the current settings are marked. When cells tie for the highest mean (the same share
//! right, up to rounding), every tied cell is outlined and the best is the simplest of them
//! ([`crate::methods::validation::best_of`]: the smallest γ, then the smallest C, for the SVM), which
//! the note says. Hovering a cell gives its mean ± sd and every fold's
//! accuracy, clicking it moves the sliders there. A method with one such parameter gets a strip
//! (k for k-NN, reg for QDA); one with none, its single cross-validated score.
//!
//! In regression a cell is scored by the mean R² of its held-out folds
//! ([`crate::methods::validation::task_score`]); novelty detection has no labels to score against, and
//! the view says so.
//!
//! The grid is computed a fold at a time ([`Playground::work_on`]), so the page fills it in over
//! frames while it stays live; it starts afresh when the points, the method's other settings,
//! the folds or the seed change.

use super::chart::{viridis, Chart, ColourBar, HeatCell, Marker};
use super::{Figure, ViewKind};
use crate::core::plane::Layout;
use crate::core::task::Task;
use crate::lab::playground::{JobKind, Playground};
use crate::methods::model::short;
use crate::methods::validation::{best_of, tie_rule, Axis, Cell, Folds, GridJob};

/// Why cross-validation does not apply in novelty detection.
pub const NO_LABELS: &str =
    "Cross-validation scores held-out points against their labels: novelty detection has none.";

/// What a fold is scored by in `task`, and how the folds are dealt.
pub fn score_words(task: Task) -> (&'static str, &'static str) {
    match task {
        Task::Regression => ("R²", "seeded folds"),
        _ => ("accuracy", "stratified, seeded folds"),
    }
}

pub struct CvView;

impl ViewKind for CvView {
    fn settings(&self) -> &'static [&'static str] {
        &["folds"]
    }

    fn id(&self) -> &'static str {
        "cv"
    }

    fn title(&self) -> &'static str {
        "cross-validation grid"
    }

    fn tab(&self) -> &'static str {
        "CV grid"
    }

    fn layout(&self, width: u32, height: u32, type_px: f64) -> Layout {
        Layout::chart_with_type(width, height, type_px).with_colour_bar()
    }

    /// Taller than a plain chart, so that the grid's cells stay large beside the colour bar
    /// in a projector's type.
    fn aspect(&self) -> f64 {
        0.7
    }

    fn job(&self) -> Option<&'static JobKind> {
        Some(&GRID)
    }

    fn compute(&self, lab: &mut Playground, _layout: &Layout) -> Figure {
        Figure::Chart(Box::new(cv_chart(lab)))
    }
}

/// The cross-validation grid over the method's first two tuning parameters (those that matter
/// for the current settings): started afresh for new training points, method, settings other
/// than its axes, folds or seed.
pub static GRID: JobKind = JobKind {
    id: "grid",
    signature: |lab| {
        let axes = lab.tuning_axes();
        let keys: Vec<&str> = axes.iter().map(|a| a.key.as_str()).collect();
        lab.job_signature(&keys, true)
    },
    start: |lab| Box::new(grid_job(lab, lab.tuning_axes())),
};

/// A cross-validation grid over `axes` for the scene as it stands: its training points, method,
/// settings, folds and seed.
pub fn grid_job(lab: &Playground, axes: Vec<Axis>) -> GridJob {
    let settings = lab.settings();
    let train = lab.training_set();
    let folds = Folds::from_name(settings.values.choice("folds")).unwrap_or(Folds::KFold(5));
    let assignment = folds.assign(&train.labels, settings.values.whole("seed"));
    GridJob::new(&settings.values, &settings.model, train, axes, assignment).in_task(settings.task)
}

/// The grid of the scene as it stands, as far as it has got.
pub fn cv_grid(lab: &mut Playground) -> &GridJob {
    lab.job_as(&GRID).expect("GRID starts a GridJob")
}

/// A value as the axis shows it: log₁₀ for a log-spaced axis.
fn position(value: f64, log: bool) -> f64 {
    if log {
        value.log10()
    } else {
        value
    }
}

/// The edges of cells centred on `values` (positions), halfway between neighbours.
fn edges(positions: &[f64]) -> Vec<(f64, f64)> {
    let n = positions.len();
    (0..n)
        .map(|i| {
            let half_below = if i > 0 {
                (positions[i] - positions[i - 1]) / 2.0
            } else if n > 1 {
                (positions[1] - positions[0]) / 2.0
            } else {
                0.5
            };
            let half_above = if i + 1 < n {
                (positions[i + 1] - positions[i]) / 2.0
            } else {
                half_below
            };
            (positions[i] - half_below, positions[i] + half_above)
        })
        .collect()
}

/// How a parameter value reads.
fn named(key: &str, value: f64) -> String {
    let label = crate::methods::table::param(key).map_or(key, |p| p.label);
    format!("{label} = {}", short(value))
}

/// The chart for the lab as it is.
pub fn cv_chart(lab: &mut Playground) -> Chart {
    let task = lab.settings().task;
    if task == Task::Novelty {
        return Chart::says(NO_LABELS);
    }
    let (measure, folds_are) = score_words(task);
    let current = |key: &str| lab.settings().values.real(key);
    let (current_x, current_y) = {
        let axes = lab.tuning_axes();
        (
            axes.first().map(|a| current(&a.key)),
            axes.get(1).map(|a| current(&a.key)),
        )
    };
    let training = lab.training_set().len();
    let folds = lab.settings().values.choice("folds");
    let job = cv_grid(lab);
    let axes = job.axes.clone();
    let log = |k: usize| {
        axes.get(k).is_some_and(|a| {
            crate::methods::table::param(&a.key)
                .is_some_and(|p| matches!(p.kind, crate::core::params::Kind::LogSlider { .. }))
                || a.values.len() > 13
        })
    };
    let xs: Vec<f64> = axes.first().map_or(vec![0.0], |a| {
        a.values.iter().map(|&v| position(v, log(0))).collect()
    });
    let ys: Vec<f64> = axes.get(1).map_or(vec![0.0], |a| {
        a.values.iter().map(|&v| position(v, log(1))).collect()
    });
    let (x_edges, y_edges) = (edges(&xs), edges(&ys));
    // The finished cells, and each one's index in the grid.
    let (finished, at): (Vec<Cell>, Vec<usize>) = job
        .combinations
        .iter()
        .zip(&job.scores)
        .enumerate()
        .filter_map(|(c, (params, score))| {
            score.clone().map(|score| {
                (
                    Cell {
                        params: params.clone(),
                        score,
                    },
                    c,
                )
            })
        })
        .unzip();
    let chosen = best_of(&finished);
    // Every cell tied for the best is outlined (when more than one is).
    let outlined: Vec<usize> = chosen
        .as_ref()
        .filter(|b| b.tied.len() > 1)
        .map_or(Vec::new(), |b| b.tied.iter().map(|&t| at[t]).collect());
    let means: Vec<f64> = finished.iter().map(|c| c.score.mean).collect();
    // A poor R² may be far below 0: the colours spread over the range from −1 up.
    let low = means
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        .max(-1.0);
    let high = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let scale = |m: f64| {
        if high > low {
            (m - low) / (high - low)
        } else {
            1.0
        }
    };
    let mut heat = Vec::new();
    for (c, params) in job.combinations.iter().enumerate() {
        // The first axis runs slowest: cell c is (c / |y|, c % |y|).
        let (i, j) = (c / ys.len(), c % ys.len());
        let described: Vec<String> = params.iter().map(|(k, v)| named(k, *v)).collect();
        let (colour, text) = match &job.scores[c] {
            Some(score) => {
                let folds: Vec<String> = score.fold_accuracy.iter().map(|a| short(*a)).collect();
                (
                    Some(viridis(scale(score.mean))),
                    format!(
                        "{}: CV {measure} {} ± {} (folds {})",
                        described.join(", "),
                        short(score.mean),
                        short(score.sd),
                        folds.join(", ")
                    ),
                )
            }
            None => (None, format!("{}: not yet computed", described.join(", "))),
        };
        heat.push(HeatCell {
            x: x_edges[i],
            y: y_edges[j],
            colour,
            text,
            settings: params
                .iter()
                .map(|(k, v)| (k.clone(), v.to_string()))
                .collect(),
            outlined: outlined.contains(&c),
        });
    }
    let mut markers = Vec::new();
    let centre = |params: &[(String, f64)]| {
        let at = |k: usize| params.get(k).map_or(0.0, |(_, v)| position(*v, log(k)));
        (at(0), at(1))
    };
    if let Some(b) = chosen.as_ref().map(|b| b.index) {
        markers.push(Marker {
            at: centre(&finished[b].params),
            colour: (255, 255, 255),
            label: format!("best {}", short(finished[b].score.mean)),
        });
    }
    if let Some(x) = current_x {
        markers.push(Marker {
            at: (
                position(x, log(0)),
                current_y.map_or(0.0, |y| position(y, log(1))),
            ),
            colour: (204, 121, 167),
            label: "now".into(),
        });
    }
    let axis_label = |k: usize| {
        axes.get(k).map_or(String::new(), |a| {
            let label = crate::methods::table::param(&a.key).map_or(a.key.as_str(), |p| p.label);
            if log(k) {
                format!("log₁₀ {label}")
            } else {
                label.to_string()
            }
        })
    };
    let scheme = match folds {
        "loo" => "leave-one-out".to_string(),
        "5x2" => "5 × 2-fold".to_string(),
        k => format!("{k}-fold"),
    };
    let progress = if job.done() {
        match &job.problem {
            Some(problem) => format!(" Stopped: {problem}."),
            None => String::new(),
        }
    } else {
        format!(
            " {} of {} cells done…",
            job.finished(),
            job.combinations.len()
        )
    };
    let summary = match &chosen {
        Some(b) if axes.is_empty() => format!(
            "{scheme} CV {measure} {} ± {}",
            short(finished[b.index].score.mean),
            short(finished[b.index].score.sd)
        ),
        Some(b) => {
            let cell = &finished[b.index];
            let at: Vec<String> = cell.params.iter().map(|(k, v)| named(k, *v)).collect();
            let ties = if b.tied.len() > 1 {
                format!(
                    ". {} cells tie at {} (outlined); the best is the simplest of them: {}",
                    b.tied.len(),
                    short(cell.score.mean),
                    tie_rule(&cell.params)
                )
            } else {
                String::new()
            };
            format!(
                "best {}: {} ± {}{ties}",
                at.join(", "),
                short(cell.score.mean),
                short(cell.score.sd)
            )
        }
        None => String::new(),
    };
    let summary = match summary.is_empty() {
        true => summary,
        false => format!(" {summary}."),
    };
    Chart {
        x_range: (x_edges[0].0, x_edges[x_edges.len() - 1].1),
        y_range: (y_edges[0].0, y_edges[y_edges.len() - 1].1),
        x_label: axis_label(0),
        y_label: axis_label(1),
        heat,
        colour_bar: (high >= low).then_some(ColourBar { low, high }),
        markers,
        note: format!(
            "Mean {scheme} cross-validation {measure} on the {training} training points \
             ({folds_are}).{summary}{progress} Hover a cell for its folds; click it to move \
             the sliders there."
        ),
        ..Chart::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::validation::{best, grid, Folds};

    #[test]
    fn the_finished_map_is_the_grid_and_clicking_a_cell_sets_its_values() {
        let mut lab = Playground::from_hash("preset=moons&n=40&kernel=rbf&folds=3");
        lab.fit();
        assert_eq!(
            lab.tuning_axes()
                .iter()
                .map(|a| a.key.as_str())
                .collect::<Vec<_>>(),
            ["C", "gamma"]
        );
        while lab.work_on(&GRID, 50) {}
        let chart = cv_chart(&mut lab);
        assert_eq!(chart.heat.len(), 13 * 13);
        assert!(chart.heat.iter().all(|c| c.colour.is_some()));
        let train = lab.training_set();
        let assignment = Folds::KFold(3).assign(&train.labels, 1);
        let axes = lab.tuning_axes();
        let cells = grid(
            &lab.settings().values,
            "svm",
            train,
            &axes,
            &assignment,
            None,
        )
        .unwrap();
        let b = best(&cells).unwrap();
        assert!(
            chart.note.contains(&short(cells[b].score.mean)),
            "{}",
            chart.note
        );
        assert!(chart.heat[b].text.contains(&short(cells[b].score.mean)));
        assert_eq!(
            chart.markers[0].label,
            format!("best {}", short(cells[b].score.mean))
        );
        // A cell's settings are its parameter values.
        for (key, value) in &chart.heat[b].settings {
            lab.set(key, value).unwrap();
        }
        assert_eq!(lab.settings().values.real("C"), cells[b].params[0].1);
    }

    #[test]
    fn the_grid_restarts_when_the_points_change_but_not_when_an_axis_moves() {
        let mut lab = Playground::from_hash("preset=moons&n=30&folds=3");
        lab.fit();
        lab.work_on(&GRID, 30);
        let done = cv_grid(&mut lab).finished();
        assert!(done > 0);
        lab.set("C", "3").unwrap();
        assert_eq!(
            cv_grid(&mut lab).finished(),
            done,
            "C is an axis: nothing to redo"
        );
        lab.move_point(0, [0.2, 0.2]).unwrap();
        lab.fit();
        assert_eq!(cv_grid(&mut lab).finished(), 0, "new points: start again");
    }

    #[test]
    fn one_axis_gives_a_strip_and_none_a_single_score() {
        let mut lab = Playground::from_hash("preset=overlapping&n=40&model=knn&folds=5");
        lab.fit();
        while lab.work_on(&GRID, 100) {}
        let chart = cv_chart(&mut lab);
        assert_eq!(chart.heat.len(), 11, "k over 1..25, rounded, once each");
        let mut lab = Playground::from_hash("preset=overlapping&n=40&model=lda&folds=5");
        lab.fit();
        while lab.work_on(&GRID, 100) {}
        let chart = cv_chart(&mut lab);
        assert_eq!(chart.heat.len(), 1);
        assert!(chart.note.contains("5-fold CV accuracy"), "{}", chart.note);
    }

    #[test]
    fn tied_cells_are_outlined_and_the_simplest_is_marked_best() {
        let mut lab = Playground::from_hash("preset=moons&n=40&kernel=rbf&folds=3");
        lab.fit();
        while lab.work_on(&GRID, 50) {}
        let chart = cv_chart(&mut lab);
        let train = lab.training_set();
        let assignment = Folds::KFold(3).assign(&train.labels, 1);
        let axes = lab.tuning_axes();
        let values = lab.settings().values.clone();
        let cells = grid(&values, "svm", train, &axes, &assignment, None).unwrap();
        let b = crate::methods::validation::best_of(&cells).unwrap();
        assert!(b.tied.len() > 1, "this scene has ties: {:?}", b.tied);
        let outlined: Vec<usize> = (0..chart.heat.len())
            .filter(|&c| chart.heat[c].outlined)
            .collect();
        assert_eq!(outlined, b.tied);
        // The marked best is the tied cell of the smallest γ, then of the smallest C.
        let gamma = |c: usize| cells[c].params[1].1;
        let smoothest = b
            .tied
            .iter()
            .map(|&c| gamma(c))
            .fold(f64::INFINITY, f64::min);
        assert_eq!(gamma(b.index), smoothest);
        let c_of = |c: usize| cells[c].params[0].1;
        assert!(b
            .tied
            .iter()
            .filter(|&&c| gamma(c) == smoothest)
            .all(|&c| c_of(c) >= c_of(b.index)));
        let (x, y) = chart.markers[0].at;
        assert_eq!((x, y), (c_of(b.index).log10(), gamma(b.index).log10()));
        let said = format!(
            "{} cells tie at {} (outlined); the best is the simplest of them: smallest γ \
             (the smoothest boundary), then smallest C (the widest margin).",
            b.tied.len(),
            short(cells[b.index].score.mean)
        );
        assert!(chart.note.contains(&said), "{}", chart.note);
    }

    /// Points exactly on a line: every fold of the least-squares line scores R² = 1, and so
    /// does the validation curve of kernel ridge regression with the linear kernel at a small
    /// λ; the figures say R², not accuracy.
    #[test]
    fn regression_folds_on_a_known_line_score_r2_of_one() {
        let line = |x: f64| 0.6 * x - 0.2;
        let points = (0..30).map(|i| {
            let x = -0.9 + 1.8 * ((i * 7) % 30) as f64 / 29.0;
            [x, line(x)]
        });
        let data = crate::core::data::Dataset::from_parts(points.collect(), vec![0; 30]);
        let mut lab = Playground::from_hash("task=regression&model=lsq&folds=5");
        lab.replace_data(data.clone());
        lab.fit();
        while lab.work_on(&GRID, 50) {}
        let chart = cv_chart(&mut lab);
        assert_eq!(chart.heat.len(), 1);
        assert!(chart.note.contains("5-fold CV R² 1 ± 0"), "{}", chart.note);
        let score = cv_grid(&mut lab).scores[0].clone().unwrap();
        assert_eq!(score.fold_accuracy.len(), 5);
        for r2 in score.fold_accuracy {
            assert!((r2 - 1.0).abs() < 1e-12, "{r2}");
        }
        // A constant fit of the same points scores R² ≤ 0 on the held-out folds: the score
        // is R², not a share of labels (which would be 1 here too).
        let mut flat = Playground::from_hash(
            "task=regression&model=krr&kernel=rbf&gamma=0.001&lambda=100&folds=5",
        );
        flat.replace_data(data.clone());
        flat.fit();
        while flat.work_on(&GRID, 400) {}
        let chart = cv_chart(&mut flat);
        assert!(chart.note.contains("cross-validation R²"), "{}", chart.note);
        // Leave-one-out holds out one point at a time, which has no R²: the grid says so.
        let mut loo = Playground::from_hash("task=regression&model=lsq&folds=loo");
        loo.replace_data(data.clone());
        loo.fit();
        while loo.work_on(&GRID, 50) {}
        let chart = cv_chart(&mut loo);
        assert!(
            chart.note.contains("leave-one-out has none"),
            "{}",
            chart.note
        );
        let worst = cv_grid(&mut flat)
            .scores
            .iter()
            .flatten()
            .map(|s| s.mean)
            .fold(f64::INFINITY, f64::min);
        assert!(worst < 0.5, "{worst}");
    }

    /// What a copy of the lab computed elsewhere (a Web Worker) is taken over only for the
    /// scene it was computed for, and only as the job it is: a stale signature or another
    /// kind's progress changes nothing.
    #[test]
    fn a_copys_grid_is_adopted_only_for_its_own_scene_and_kind() {
        let hash = "preset=overlapping&n=40&kernel=linear&C=1&folds=3&seed=2";
        let mut page = Playground::from_hash(hash);
        let mut copy = Playground::from_hash(hash);
        page.fit();
        copy.fit();
        while copy.work_on(&GRID, 50) {}
        let theirs = copy.job_state(&GRID);
        assert!(theirs.all > 0 && theirs.finished == theirs.all && theirs.complete);
        let progress = copy.job_progress(&GRID);

        let path = &crate::views::path::PATH;
        let path_signature = page.job_state(path).signature;
        assert!(
            !page.adopt_job(path, path_signature, &progress),
            "a grid is no path"
        );
        assert_eq!(page.job_state(path).finished, 0);
        assert!(
            !page.adopt_job(&GRID, theirs.signature ^ 1, &progress),
            "stale"
        );
        assert_eq!(page.job_state(&GRID).finished, 0);

        assert!(page.adopt_job(&GRID, theirs.signature, &progress));
        assert_eq!(page.job_state(&GRID), theirs);
        assert!(page.job_done(&GRID));
        let scores = cv_grid(&mut copy).scores.clone();
        assert_eq!(cv_grid(&mut page).scores, scores);

        // A moved point is another scene: the copy's progress is refused until it catches up.
        page.move_point(0, [0.25, -0.5]).unwrap();
        assert!(!page.adopt_job(&GRID, theirs.signature, &progress));
        assert_eq!(page.job_state(&GRID).finished, 0, "started afresh");
    }
}

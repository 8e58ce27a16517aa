//! Learning curves (CURRICULUM §11): training accuracy and cross-validated accuracy (± sd, a
//! band) against the number of points trained on, for the lab's method and, dashed beside
//! it, a second method chosen above the view (see [`crate::methods::learning`]). Computed a fit at a
//! time like the grid, behind the page, filling in as it goes. In regression the scores are
//! R²; novelty detection has no labels to score against, and the view says so.

use super::chart::{Band, Chart, Line};
use super::cv::{score_words, NO_LABELS};
use super::{Figure, ViewKind};
use crate::core::plane::Layout;
use crate::core::task::Task;
use crate::lab::playground::{JobKind, Playground};
use crate::methods::learning::{LearningJob, Point};
use crate::methods::validation::Folds;

/// Okabe–Ito: blue and vermillion for the lab's method, sky blue and orange for the other.
const OWN: [(u8, u8, u8); 2] = [(0, 114, 178), (213, 94, 0)];
const OTHER: [(u8, u8, u8); 2] = [(86, 180, 233), (230, 159, 0)];

pub struct LearningView;

impl ViewKind for LearningView {
    fn settings(&self) -> &'static [&'static str] {
        &["folds", crate::lab::state::LEARN_VS_KEY]
    }

    fn id(&self) -> &'static str {
        "learning"
    }

    fn title(&self) -> &'static str {
        "learning curves"
    }

    fn job(&self) -> Option<&'static JobKind> {
        Some(&LEARN)
    }

    /// Taller than a plain chart: its legend holds up to four lines.
    fn aspect(&self) -> f64 {
        0.7
    }

    fn compute(&self, lab: &mut Playground, _layout: &Layout) -> Figure {
        Figure::Chart(Box::new(learning_chart(lab)))
    }
}

/// The learning curves of the lab's method and the one chosen beside it, over the folds of
/// the training points: started afresh for new training points, settings, folds, seed or
/// methods.
pub static LEARN: JobKind = JobKind {
    id: "learning",
    signature: |lab| {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        lab.job_signature(&[], true).hash(&mut h);
        learning_methods(lab).hash(&mut h);
        h.finish()
    },
    start: |lab| {
        let values = &lab.settings().values;
        let train = lab.training_set();
        let folds = Folds::from_name(values.choice("folds")).unwrap_or(Folds::KFold(5));
        let seed = values.whole("seed");
        let assignment = folds.assign(&train.labels, seed);
        Box::new(
            LearningJob::new(values, learning_methods(lab), train, &assignment, seed)
                .in_task(lab.settings().task),
        )
    },
};

/// The learning curves' methods: the lab's own, and the one chosen beside it (unless it is the
/// same, or of another task).
fn learning_methods(lab: &Playground) -> Vec<String> {
    let settings = lab.settings();
    let own = &settings.model;
    let beside = settings
        .learn_vs
        .as_ref()
        .filter(|m| *m != own && crate::methods::registry::method_in(settings.task, m).is_ok());
    std::iter::once(own).chain(beside).cloned().collect()
}

/// The learning curves of the scene as it stands, as far as they have got.
fn learning(lab: &mut Playground) -> &LearningJob {
    lab.job_as(&LEARN).expect("LEARN starts a LearningJob")
}

/// A method's title.
fn title(task: Task, id: &str) -> String {
    crate::methods::registry::method_in(task, id).map_or(id.to_string(), |m| m.title().to_string())
}

/// The chart for the lab as it is.
pub fn learning_chart(lab: &mut Playground) -> Chart {
    let task = lab.settings().task;
    if task == Task::Novelty {
        return Chart::says(NO_LABELS);
    }
    let (measure, _) = score_words(task);
    // R² may fall far below 0: the axis goes no lower than −1.
    let bottom = if task == Task::Regression { -1.0 } else { 0.0 };
    let folds = lab.settings().values.choice("folds").to_string();
    let job: &LearningJob = learning(lab);
    let sizes: Vec<f64> = job.sizes.iter().map(|&n| n as f64).collect();
    let (lo, hi) = match (sizes.first(), sizes.last()) {
        (Some(&lo), Some(&hi)) => (lo, hi),
        _ => (0.0, 1.0),
    };
    let pad = if hi > lo { 0.03 * (hi - lo) } else { 0.5 };
    let (mut lines, mut bands, mut unfitted) = (Vec::new(), Vec::new(), Vec::new());
    for (m, points) in job.points.iter().enumerate() {
        let (colours, dashed) = if m == 0 { (OWN, false) } else { (OTHER, true) };
        let name = title(task, &job.methods[m]);
        // The lab's own lines are the view's subject; the other's are named.
        let prefix = if m == 0 {
            String::new()
        } else {
            format!("{}, ", title(task, &job.methods[m]))
        };
        let scored: Vec<(f64, f64, f64, f64, f64)> = sizes
            .iter()
            .zip(points)
            .filter_map(|(&n, p)| match p {
                Some(Point::Scored {
                    training,
                    validation,
                }) => Some((
                    n,
                    training.mean,
                    training.sd,
                    validation.mean,
                    validation.sd,
                )),
                Some(Point::Failed(why)) => {
                    unfitted.push(format!("{name} at {n} points: {why}"));
                    None
                }
                None => None,
            })
            .collect();
        for (k, label) in ["training", "validation"].into_iter().enumerate() {
            let pick = |s: &(f64, f64, f64, f64, f64)| if k == 0 { (s.1, s.2) } else { (s.3, s.4) };
            if !scored.is_empty() {
                bands.push(Band {
                    x: scored.iter().map(|s| s.0).collect(),
                    low: scored.iter().map(|s| pick(s).0 - pick(s).1).collect(),
                    high: scored.iter().map(|s| pick(s).0 + pick(s).1).collect(),
                    colour: colours[k],
                });
            }
            lines.push(Line {
                points: scored.iter().map(|s| (s.0, pick(s).0)).collect(),
                colour: colours[k],
                weight: 1.6,
                dashed,
                label: Some(format!("{prefix}{label}")),
            });
        }
    }
    let scheme = match folds.as_str() {
        "loo" => "leave-one-out".to_string(),
        "5x2" => "5 × 2-fold".to_string(),
        k => format!("{k}-fold"),
    };
    let (finished, all) = job.counts();
    let progress = if job.done() {
        String::new()
    } else {
        format!(" {finished} of {all} sizes scored…")
    };
    let unfitted = match unfitted.first() {
        Some(first) => format!(" Not fitted: {first}."),
        None => String::new(),
    };
    // The accuracies' range, with room below for the legend (in the lower right).
    let lowest = bands
        .iter()
        .flat_map(|b| b.low.iter().copied())
        .fold(1.0f64, f64::min)
        .max(bottom);
    let room = 0.4 * lines.len() as f64 / 2.0 + 0.2;
    let floor = ((lowest - room * (1.05 - lowest)) * 10.0).floor() / 10.0;
    Chart {
        x_range: (lo - pad, hi + pad),
        y_range: (floor.max(bottom), 1.05),
        x_label: "training points".into(),
        y_label: measure.into(),
        lines,
        bands,
        legend_lower_right: true,
        note: format!(
            "{own}: {measure} on the points trained on and, {scheme} cross-validated, on the \
             points held out, against how many points it is trained on (± sd over the \
             folds).{other} A gap that closes slowly is variance; curves that meet low are \
             bias.{progress}{unfitted}",
            own = title(task, &job.methods[0]),
            other = job
                .methods
                .get(1)
                .map_or(String::new(), |m| format!(" Dashed: {}.", title(task, m))),
        ),
        ..Chart::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With a second method chosen, four lines: the lab's solid, the other's dashed; the
    /// x axis runs over the training-set sizes.
    #[test]
    fn the_other_method_is_drawn_dashed_beside() {
        let mut lab = Playground::from_hash(
            "preset=moons&n=120&noise=0.3&seed=4&model=logistic&learn_vs=nb&folds=3",
        );
        lab.fit();
        while lab.work_on(&LEARN, 50) {}
        let chart = learning_chart(&mut lab);
        let labels: Vec<String> = chart
            .lines
            .iter()
            .map(|l| l.label.clone().unwrap_or_default())
            .collect();
        assert_eq!(labels.len(), 4, "{labels:?}");
        assert_eq!(
            labels,
            [
                "training",
                "validation",
                "Gaussian naive Bayes, training",
                "Gaussian naive Bayes, validation"
            ]
        );
        assert_eq!(
            chart.lines.iter().map(|l| l.dashed).collect::<Vec<_>>(),
            [false, false, true, true]
        );
        let job = learning(&mut lab);
        assert_eq!(job.methods, ["logistic", "nb"]);
        let xs: Vec<f64> = chart.lines[1].points.iter().map(|p| p.0).collect();
        let sizes: Vec<f64> = job.sizes.iter().map(|&n| n as f64).collect();
        assert_eq!(xs, sizes);
        assert!(!chart.note.contains("sizes scored"), "{}", chart.note);
    }

    /// A method of another task is not beside the lab's own: a classification method left
    /// chosen when the scene turned to regression is not run, one of regression is.
    #[test]
    fn the_other_method_is_of_the_scenes_task() {
        for (other, methods) in [("nb", &["krr"][..]), ("lsq", &["krr", "lsq"][..])] {
            let mut lab = Playground::from_hash(&format!(
                "preset=sine&n=60&noise=0.1&seed=4&task=regression&model=krr&learn_vs={other}&folds=3"
            ));
            lab.fit();
            assert_eq!(learning(&mut lab).methods, methods);
        }
    }
}

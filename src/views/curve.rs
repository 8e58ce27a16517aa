//! The validation curve (CURRICULUM §11): training accuracy and cross-validated accuracy (with
//! a ± sd band) against one hyper-parameter over its slider's range — the parameter moved
//! last (C, γ, λ, k, degree, reg), else the method's first. Where the training accuracy keeps
//! climbing while the CV accuracy falls, the model is overfitting; the current value is
//! marked, and clicking the plot sets the parameter to the value there. In regression the
//! scores are R² ([`crate::methods::validation::task_score`]); in novelty detection the view says why
//! there is no curve. Like the grid, it is computed a fit at a time and fills in over frames.

use super::chart::{Band, Chart, ClickAxis, Line, Marker};
use super::cv::{grid_job, score_words, NO_LABELS};
use super::{Figure, ViewKind};
use crate::core::plane::Layout;
use crate::core::task::Task;
use crate::lab::playground::{JobKind, Playground};
use crate::methods::model::short;
use crate::methods::validation::GridJob;

/// Okabe–Ito blue for training, vermillion for cross-validation.
const TRAINING: (u8, u8, u8) = (0, 114, 178);
const VALIDATION: (u8, u8, u8) = (213, 94, 0);

pub struct CurveView;

impl ViewKind for CurveView {
    fn settings(&self) -> &'static [&'static str] {
        &["folds"]
    }

    fn id(&self) -> &'static str {
        "curve"
    }

    fn title(&self) -> &'static str {
        "validation curve"
    }

    fn job(&self) -> Option<&'static JobKind> {
        Some(&CURVE)
    }

    /// Taller than a plain chart: its legend's three lines in a projector's type take room.
    fn aspect(&self) -> f64 {
        0.7
    }

    fn compute(&self, lab: &mut Playground, _layout: &Layout) -> Figure {
        Figure::Chart(Box::new(curve_chart(lab)))
    }
}

/// The validation curve: a cross-validation grid along the tuning parameter moved last (see
/// [`Playground::curve_axis`]), each value also scored on the points it was fitted to.
pub static CURVE: JobKind = JobKind {
    id: "curve",
    signature: |lab| {
        let axis = lab.curve_axis();
        let keys: Vec<&str> = axis.iter().map(|a| a.key.as_str()).collect();
        lab.job_signature(&keys, true)
    },
    start: |lab| Box::new(grid_job(lab, lab.curve_axis().into_iter().collect()).with_training()),
};

/// The curve of the scene as it stands, as far as it has got.
fn curve(lab: &mut Playground) -> &GridJob {
    lab.job_as(&CURVE).expect("CURVE starts a GridJob")
}

/// The chart for the lab as it is.
pub fn curve_chart(lab: &mut Playground) -> Chart {
    let task = lab.settings().task;
    if task == Task::Novelty {
        return Chart::says(NO_LABELS);
    }
    let (measure, _) = score_words(task);
    let Some(axis) = lab.curve_axis() else {
        return Chart::says("This method has no hyper-parameter to draw a validation curve along.");
    };
    let row = crate::methods::table::param(&axis.key);
    let label = row.map_or(axis.key.as_str(), |p| p.label).to_string();
    let log = row.is_some_and(|p| matches!(p.kind, crate::core::params::Kind::LogSlider { .. }))
        || axis.values.len() > 13;
    let at = |v: f64| if log { v.log10() } else { v };
    let current = lab.settings().values.real(&axis.key);
    let folds = lab.settings().values.choice("folds").to_string();
    let job = curve(lab);
    let training = job.training.clone().unwrap_or_default();
    let xs: Vec<f64> = axis.values.iter().map(|&v| at(v)).collect();
    let (lo, hi) = (xs[0], xs[xs.len() - 1]);
    let pad = if hi > lo { 0.03 * (hi - lo) } else { 0.5 };
    let train_line: Vec<(f64, f64)> = xs
        .iter()
        .zip(&training)
        .filter_map(|(&x, a)| a.map(|a| (x, a)))
        .collect();
    let scored: Vec<(f64, f64, f64)> = xs
        .iter()
        .zip(&job.scores)
        .filter_map(|(&x, s)| s.as_ref().map(|s| (x, s.mean, s.sd)))
        .collect();
    let mut lines = vec![Line {
        points: train_line,
        colour: TRAINING,
        weight: 1.6,
        dashed: false,
        label: Some(format!("training {measure}")),
    }];
    let mut bands = Vec::new();
    if !scored.is_empty() {
        bands.push(Band {
            x: scored.iter().map(|s| s.0).collect(),
            low: scored.iter().map(|s| s.1 - s.2).collect(),
            high: scored.iter().map(|s| s.1 + s.2).collect(),
            colour: VALIDATION,
        });
        lines.push(Line {
            points: scored.iter().map(|s| (s.0, s.1)).collect(),
            colour: VALIDATION,
            weight: 1.6,
            dashed: false,
            label: Some(format!("CV {measure} ± sd")),
        });
    }
    // R² may fall far below 0: the axis goes down to the lowest score, but not below −1.
    let floor = bands
        .iter()
        .flat_map(|b| b.low.iter())
        .chain(lines.iter().flat_map(|l| l.points.iter().map(|p| &p.1)))
        .fold(0.0f64, |low, &v| low.min(v))
        .max(-1.0);
    lines.push(Line {
        points: vec![(at(current), floor), (at(current), 1.05)],
        colour: (204, 121, 167),
        weight: 1.0,
        dashed: true,
        label: Some(format!("now: {label} = {}", short(current))),
    });
    let best = scored
        .iter()
        .copied()
        .fold(None::<(f64, f64, f64)>, |b, s| match b {
            Some(b) if b.1 >= s.1 => Some(b),
            _ => Some(s),
        });
    let markers = best
        .map(|b| Marker {
            at: (b.0, b.1),
            colour: VALIDATION,
            label: format!("best {}", short(b.1)),
        })
        .into_iter()
        .collect();
    let scheme = match folds.as_str() {
        "loo" => "leave-one-out".to_string(),
        "5x2" => "5 × 2-fold".to_string(),
        k => format!("{k}-fold"),
    };
    let progress = if job.done() {
        job.problem
            .as_ref()
            .map_or(String::new(), |p| format!(" Stopped: {p}."))
    } else {
        format!(
            " {} of {} values cross-validated…",
            job.finished(),
            job.combinations.len()
        )
    };
    Chart {
        x_range: (lo - pad, hi + pad),
        y_range: (floor, 1.05),
        x_label: if log {
            format!("log₁₀ {label}")
        } else {
            label.clone()
        },
        y_label: measure.into(),
        lines,
        bands,
        markers,
        legend_lower_right: true,
        note: format!(
            "Training {measure} (fitted on all {} training points) and {scheme} cross-validated \
             {measure} along {label}; click to set {label}, or move another slider to follow it \
             instead.{progress}",
            lab.training_set().len()
        ),
        click_sets: Some(ClickAxis {
            key: axis.key.clone(),
            values: axis.values.clone(),
            log,
        }),
        ..Chart::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_follows_the_slider_moved_last_and_overfits_at_large_gamma() {
        let mut lab = Playground::from_hash("preset=overlapping&n=60&noise=0.5&folds=3&C=100");
        lab.fit();
        assert_eq!(
            lab.curve_axis().unwrap().key,
            "C",
            "the first tuning parameter"
        );
        lab.set("gamma", "5").unwrap();
        assert_eq!(lab.curve_axis().unwrap().key, "gamma");
        while lab.work_on(&CURVE, 50) {}
        let chart = curve_chart(&mut lab);
        let training = &chart.lines[0].points;
        let validation = &chart.lines[1].points;
        assert_eq!(training.len(), 13);
        assert_eq!(validation.len(), 13);
        // At the widest γ the model fits its training points better than new ones.
        let (last_train, last_cv) = (training[12].1, validation[12].1);
        assert!(last_train > last_cv, "{last_train} vs {last_cv}");
        assert_eq!(last_train, 1.0);
        assert!(chart.note.contains("along γ"), "{}", chart.note);
    }

    /// In regression the curve is R² along the parameter, and a click on the plot sets the
    /// parameter to the value there (as in classification); novelty detection says why it has
    /// no curve.
    #[test]
    fn a_regression_curve_scores_r2_and_a_click_sets_its_parameter() {
        let mut lab = Playground::from_hash("task=regression&model=krr&n=30&folds=3");
        lab.fit();
        while lab.work_on(&CURVE, 100) {}
        let chart = curve_chart(&mut lab);
        assert_eq!(chart.y_label, "R²");
        assert_eq!(chart.lines[1].label.as_deref(), Some("CV R² ± sd"));
        let axis = lab.curve_axis().unwrap();
        assert_eq!(axis.key, "lambda");
        assert_eq!(chart.lines[1].points.len(), axis.values.len());
        assert!(chart.lines[0].points.iter().all(|p| p.1 <= 1.0));
        let layout = CurveView.layout(600, 420, 0.0);
        let plot = chart.panels(&layout)[0].plot();
        let settings = chart.settings_at(&layout, plot.left + 2.0, plot.top + plot.height / 2.0);
        assert_eq!(
            settings,
            [("lambda".to_string(), axis.values[0].to_string())]
        );
        for (key, value) in &settings {
            lab.set(key, value).unwrap();
        }
        assert_eq!(lab.settings().values.real("lambda"), axis.values[0]);
        let mut novelty = Playground::from_hash("task=novelty");
        novelty.fit();
        let chart = curve_chart(&mut novelty);
        assert!(chart.is_blank() && chart.note.contains("novelty detection has none"));
    }
}

//! Model choice (CURRICULUM §11, the Bayesian chapter): three ways to choose the polynomial
//! degree d of the features (or, with other features, the prior precision λ), side by side
//! over that setting's range:
//!
//! - the log-evidence log p(D | d) of the Laplace approximation, which rewards the fit and
//!   charges for the posterior's shrinking from the prior (its Occam factor);
//! - BIC = log p(D | w_ML) − (D/2) log n, the large-n shortcut of the same trade (absent where
//!   the points are separable in the features and w_ML does not exist);
//! - the cross-validated accuracy (the folds setting), which asks new points instead.
//!
//! Each criterion's choice is marked, the current value is the dashed line, and clicking a
//! column sets it. The view applies to a method whose model reports its log-evidence (the
//! Bayesian logistic regression); it is computed behind the page, each value a fit and a
//! cross-validation. Outside classification the view says there is no such method.

use super::chart::{Chart, ClickAxis, Line, Marker};
use super::{Figure, ViewKind};
use crate::core::plane::Layout;
use crate::core::task::Task;
use crate::lab::playground::Playground;
use crate::methods::model::{short, FactValue, FitOptions};
use crate::methods::validation::{cross_validate, Axis, Folds};

/// Okabe–Ito: blue for the evidence, bluish green for BIC, vermillion for CV accuracy.
const EVIDENCE: (u8, u8, u8) = (0, 114, 178);
const BIC: (u8, u8, u8) = (0, 158, 115);
const CV: (u8, u8, u8) = (213, 94, 0);
const NOW: (u8, u8, u8) = (204, 121, 167);

pub struct ChoiceView;

impl ViewKind for ChoiceView {
    fn id(&self) -> &'static str {
        "model-choice"
    }

    fn title(&self) -> &'static str {
        "model choice"
    }

    fn settings(&self) -> &'static [&'static str] {
        &["folds"]
    }

    /// Two panels stacked.
    fn aspect(&self) -> f64 {
        0.9
    }

    /// Beside the plot at 1280 × 720 the height is short: the curves take the width.
    fn widens(&self) -> bool {
        true
    }

    fn compute(&self, lab: &mut Playground, _layout: &Layout) -> Figure {
        Figure::Chart(Box::new(choice_chart(lab)))
    }
}

/// One value of the axis: its log-evidence, BIC and CV accuracy (each `None` where it could
/// not be had).
struct Column {
    x: f64,
    evidence: Option<f64>,
    bic: Option<f64>,
    cv: Option<f64>,
}

/// The axis the criteria run along: the degree with polynomial features, else λ.
fn axis(lab: &Playground) -> Option<Axis> {
    let values = &lab.settings().values;
    let method = lab.settings().method();
    let poly = method.params().contains(&"degree")
        && method.params().contains(&"features")
        && values.choice("features") == "poly";
    let key = if poly { "degree" } else { "lambda" };
    method
        .params()
        .contains(&key)
        .then(|| Axis::over_slider(key))
        .flatten()
}

/// A number fact of a fitted model, by key.
fn number(facts: &[crate::methods::model::Fact], key: &str) -> Option<f64> {
    facts
        .iter()
        .find(|f| f.key == key)
        .and_then(|f| match f.value {
            FactValue::Number(v) if v.is_finite() => Some(v),
            _ => None,
        })
}

/// The chart for the lab as it is.
pub fn choice_chart(lab: &mut Playground) -> Chart {
    match lab.settings().task {
        Task::Regression => return Chart::says(
            "Model choice compares the evidence of Bayesian logistic regression, a classifier: regression has no such method here.",
        ),
        Task::Novelty => return Chart::says(
            "Model choice compares the evidence of Bayesian logistic regression, a classifier: novelty detection has no such method here.",
        ),
        Task::Classification => {}
    }
    lab.fit();
    let reports_evidence = lab
        .model()
        .is_some_and(|m| number(&m.facts(lab.training_set()), "log_evidence").is_some());
    let axis = axis(lab).filter(|_| reports_evidence);
    let Some(axis) = axis else {
        return Chart {
            x_range: (0.0, 1.0),
            y_range: (0.0, 1.0),
            note: "Model choice compares the log-evidence, BIC and cross-validated accuracy of \
                   a model that reports its evidence: choose Bayesian logistic regression."
                .into(),
            ..Chart::default()
        };
    };
    let settings = lab.settings().clone();
    let method = settings.method();
    let train = lab.training_set().clone();
    let folds = Folds::from_name(settings.values.choice("folds")).unwrap_or(Folds::KFold(5));
    let assignment = folds.assign(&train.labels, settings.values.whole("seed"));
    let log = axis.key == "lambda";
    let at = |v: f64| if log { v.log10() } else { v };
    let columns: Vec<Column> = axis
        .values
        .iter()
        .map(|&v| {
            let mut values = settings.values.clone();
            let set = values.set(&axis.key, &v.to_string()).is_ok();
            let fitted = set
                .then(|| {
                    crate::methods::registry::fit(method, &values, &train, FitOptions::default())
                })
                .and_then(Result::ok);
            let facts = fitted.map(|m| m.facts(&train)).unwrap_or_default();
            let cv = set
                .then(|| cross_validate(&values, method.id(), &train, &assignment).ok())
                .flatten();
            Column {
                x: at(v),
                evidence: number(&facts, "log_evidence"),
                bic: number(&facts, "bic"),
                cv: cv.map(|s| s.mean),
            }
        })
        .collect();
    let label = crate::methods::table::param(&axis.key).map_or(axis.key.as_str(), |p| p.label);
    let x_label = if log {
        format!("log₁₀ {label}")
    } else {
        label.to_string()
    };
    let xs: Vec<f64> = columns.iter().map(|c| c.x).collect();
    let (lo, hi) = (xs[0], xs[xs.len() - 1]);
    let pad = if hi > lo { 0.04 * (hi - lo) } else { 0.5 };
    let x_range = (lo - pad, hi + pad);
    let now = at(settings.values.real(&axis.key));
    let series = |pick: &dyn Fn(&Column) -> Option<f64>| -> Vec<(f64, f64)> {
        columns
            .iter()
            .filter_map(|c| pick(c).map(|y| (c.x, y)))
            .collect()
    };
    let best = |points: &[(f64, f64)]| {
        points
            .iter()
            .copied()
            .fold(None::<(f64, f64)>, |b, p| match b {
                Some(b) if b.1 >= p.1 => Some(b),
                _ => Some(p),
            })
    };
    let shown = |x: f64| short(if log { 10f64.powf(x) } else { x });
    let line = |points: Vec<(f64, f64)>, colour, dashed, label: &str| Line {
        points,
        colour,
        weight: 1.8,
        dashed,
        label: Some(label.to_string()),
    };
    let now_line = |(low, high): (f64, f64)| Line {
        points: vec![(now, low), (now, high)],
        colour: NOW,
        weight: 1.2,
        dashed: true,
        label: None,
    };
    // Top: log-evidence and BIC, both in nats of log p(D).
    let evidence = series(&|c| c.evidence);
    let bic = series(&|c| c.bic);
    let (mut low, mut high) = evidence
        .iter()
        .chain(&bic)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p.1), h.max(p.1))
        });
    if low > high {
        (low, high) = (-1.0, 0.0);
    }
    let room = (high - low).max(1.0);
    let top_range = (low - 0.05 * room, high + 0.6 * room);
    let mut markers = Vec::new();
    if let Some(b) = best(&evidence) {
        markers.push(Marker {
            at: b,
            colour: EVIDENCE,
            label: format!("evidence: {}", shown(b.0)),
        });
    }
    // (A single BIC, where all others are missing, chooses nothing.)
    if let Some(b) = best(&bic).filter(|_| bic.len() > 1) {
        markers.push(Marker {
            at: b,
            colour: BIC,
            label: format!("BIC: {}", shown(b.0)),
        });
    }
    let mut top = Chart {
        x_range,
        y_range: top_range,
        y_label: "log p(D)".into(),
        lines: vec![
            line(evidence.clone(), EVIDENCE, false, "log-evidence"),
            line(bic.clone(), BIC, true, "BIC"),
            now_line(top_range),
        ],
        markers,
        legend_lower_right: true,
        ..Chart::default()
    };
    // Below: the cross-validated accuracy.
    let cv = series(&|c| c.cv);
    let cv_low = cv.iter().map(|p| p.1).fold(1.0f64, f64::min);
    let cv_range = (((cv_low - 0.1) * 10.0).floor() / 10.0).max(0.0);
    let cv_range = (cv_range, 1.05);
    let below = Chart {
        x_range,
        y_range: cv_range,
        x_label,
        y_label: "CV accuracy".into(),
        lines: vec![
            line(cv.clone(), CV, false, "CV accuracy"),
            now_line(cv_range),
        ],
        markers: best(&cv)
            .map(|b| Marker {
                at: b,
                colour: CV,
                label: format!("CV: {}", shown(b.0)),
            })
            .into_iter()
            .collect(),
        legend_lower_right: true,
        ..Chart::default()
    };
    top.below = vec![below];
    top.click_sets = Some(ClickAxis {
        key: axis.key.clone(),
        values: axis.values.clone(),
        log,
    });
    let missing_bic = if bic.len() < columns.len() {
        " BIC is missing where the points are separable in the features (w_ML does not exist)."
    } else {
        ""
    };
    let picks = [
        ("evidence", best(&evidence)),
        ("BIC", best(&bic).filter(|_| bic.len() > 1)),
        ("CV", best(&cv)),
    ]
    .iter()
    .filter_map(|(name, b)| b.map(|b| format!("{name} {}", shown(b.0))))
    .collect::<Vec<_>>()
    .join(", ");
    top.note = format!(
        "Three choices of {label} for {}: the Laplace log-evidence (the fit less its Occam \
         factor), BIC and {} cross-validated accuracy (in a panel of its own, where the \
         picture has room), each one's best marked — here {picks}; the dashed line is now, and a click \
         sets {label}.{missing_bic}",
        method.title(),
        match folds {
            Folds::LeaveOneOut => "leave-one-out".to_string(),
            Folds::FiveByTwo => "5 × 2-fold".to_string(),
            Folds::KFold(k) => format!("{k}-fold"),
        }
    );
    top
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On points whose classes a circle parts, the evidence prefers degree 2 to a line, and
    /// the chart has a column per degree of the slider, with the click setting the degree.
    #[test]
    fn the_evidence_chooses_a_curved_boundary_for_a_ring() {
        let hash = "preset=rings&n=80&noise=0.1&seed=3&model=bayeslogistic&features=poly\
                    &degree=1&lambda=1&folds=3";
        let mut lab = Playground::from_hash(hash);
        let chart = choice_chart(&mut lab);
        let evidence = &chart.lines[0].points;
        assert_eq!(evidence.len(), 10, "{:?}", chart.note);
        assert!(evidence[1].1 > evidence[0].1, "{evidence:?}");
        let click = chart.click_sets.as_ref().unwrap();
        assert_eq!(click.key, "degree");
        assert_eq!(click.values.first(), Some(&1.0));
        let cv = &chart.below[0].lines[0].points;
        assert_eq!(cv.len(), 10);
        assert!(cv[1].1 > cv[0].1, "{cv:?}");
        assert!(chart
            .markers
            .iter()
            .any(|m| m.label.starts_with("evidence: ")));
    }

    /// A method without evidence is told what the view needs.
    #[test]
    fn a_model_without_evidence_is_told_so() {
        let mut lab = Playground::from_hash("preset=moons&n=40&model=lda");
        let chart = choice_chart(&mut lab);
        assert!(chart.lines.is_empty());
        assert!(chart.note.contains("Bayesian logistic regression"));
    }
}

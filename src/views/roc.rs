//! The ROC view (CURRICULUM §11): a classifier as a family of thresholds. For two classes, the
//! ROC curve of the decision values f(x) with its area, the operating point of the threshold
//! t — the plane draws the boundary f(x) = t — and, at t, the confusion counts with precision,
//! recall and F1. The scores are those of the held-out test points when there are any;
//! otherwise each training point's out-of-fold f(x) from 5-fold cross-validation (seeded by the
//! scene's seed), and the note says which. For more than two classes, one one-vs-rest curve
//! per class (its score against the rest). Regression and novelty detection have no classes,
//! and the view says so.

use super::chart::{Chart, Line, Marker};
use super::{Figure, ViewKind};
use crate::core::plane::Layout;
use crate::core::roc::{Confusion, Roc};
use crate::core::task::Task;
use crate::draw::regions::CLASS_COLOURS;
use crate::lab::playground::Playground;
use crate::methods::validation::{out_of_fold_scores, Folds};

/// The colour of the curve and of the operating point.
const CURVE: (u8, u8, u8) = (20, 20, 20);
const OPERATING: (u8, u8, u8) = (204, 121, 167);

pub struct RocView;

impl ViewKind for RocView {
    fn settings(&self) -> &'static [&'static str] {
        &["threshold"]
    }

    fn id(&self) -> &'static str {
        "roc"
    }

    fn title(&self) -> &'static str {
        "ROC curve"
    }

    /// Taller than a plain chart, so that "true-positive rate" fits along the y axis in a
    /// projector's type.
    fn aspect(&self) -> f64 {
        0.7
    }

    fn compute(&self, lab: &mut Playground, _layout: &Layout) -> Figure {
        Figure::Chart(Box::new(roc_chart(lab)))
    }
}

/// Where the scores come from, and the scores with their labels.
struct Scored {
    source: String,
    scores: Vec<Vec<f64>>,
    labels: Vec<i32>,
}

/// The test points' scores, or else the training points' out-of-fold ones.
fn scored(lab: &Playground) -> Result<Scored, String> {
    let model = lab.model().ok_or("no model is fitted")?;
    let data = lab.data();
    let two = model.classes().len() == 2;
    let held: Vec<usize> = (0..data.len()).filter(|&i| lab.test()[i]).collect();
    if !held.is_empty() {
        let scores = held
            .iter()
            .map(|&i| {
                let x = data.points[i];
                if two {
                    vec![model.decision_value(x)]
                } else {
                    model.probabilities(x).unwrap_or_else(|| model.scores(x))
                }
            })
            .collect();
        return Ok(Scored {
            source: format!("the {} held-out test points", held.len()),
            scores,
            labels: held.iter().map(|&i| data.labels[i]).collect(),
        });
    }
    let train = lab.training_set();
    let settings = lab.settings();
    let folds = Folds::KFold(5).assign(&train.labels, settings.values.whole("seed"));
    let scores = out_of_fold_scores(&settings.values, &settings.model, train, &folds[0])
        .map_err(|e| e.to_string())?;
    Ok(Scored {
        source: format!(
            "the {} training points, each scored out of fold by 5-fold cross-validation \
             (no test points: set a test fraction to use held-out ones)",
            train.len()
        ),
        scores,
        labels: train.labels.clone(),
    })
}

/// The chart for the lab as it is.
pub fn roc_chart(lab: &Playground) -> Chart {
    match lab.settings().task {
        Task::Regression => {
            return Chart::says("ROC needs two classes: regression has targets, not labels.")
        }
        Task::Novelty => {
            return Chart::says("ROC needs two classes: novelty detection's points have no labels.")
        }
        Task::Classification => {}
    }
    let mut chart = Chart {
        x_range: (0.0, 1.0),
        y_range: (0.0, 1.0),
        x_label: "false-positive rate".into(),
        y_label: "true-positive rate".into(),
        legend_lower_right: true,
        lines: vec![Line {
            points: vec![(0.0, 0.0), (1.0, 1.0)],
            colour: (150, 150, 150),
            weight: 0.6,
            dashed: true,
            label: Some("chance".into()),
        }],
        ..Chart::default()
    };
    let scored = match scored(lab) {
        Ok(scored) => scored,
        Err(why) => {
            chart.note = format!("No ROC curve: {why}.");
            return chart;
        }
    };
    let classes = lab
        .model()
        .map(|m| m.classes().to_vec())
        .unwrap_or_default();
    let all_classes = lab.data().classes();
    if classes.len() == 2 {
        let scores: Vec<f64> = scored.scores.iter().map(|s| s[0]).collect();
        let positive: Vec<bool> = scored.labels.iter().map(|&l| l == classes[1]).collect();
        let Some(roc) = Roc::of(&scores, &positive) else {
            chart.note = format!("No ROC curve: {} hold only one class.", scored.source);
            return chart;
        };
        chart.lines.push(Line {
            points: roc
                .fpr
                .iter()
                .copied()
                .zip(roc.tpr.iter().copied())
                .collect(),
            colour: CURVE,
            weight: 1.6,
            dashed: false,
            label: Some(format!("AUC = {}", crate::methods::model::short(roc.auc))),
        });
        let t = lab.settings().values.real("threshold");
        let c = Confusion::at(&scores, &positive, t);
        let (fpr, tpr) = (
            c.false_positive_rate().unwrap_or(0.0),
            c.recall().unwrap_or(0.0),
        );
        chart.markers.push(Marker {
            at: (fpr, tpr),
            colour: OPERATING,
            label: format!("t = {}", crate::methods::model::short(t)),
        });
        let or_dash = |v: Option<f64>| v.map_or("–".to_string(), crate::methods::model::short);
        chart.note = format!(
            "ROC of f(x) on {}, {} positive. At t = {}: TP {}, FP {}, TN {}, FN {}; \
             precision {}, recall {}, F1 {}.",
            scored.source,
            lab.data().class_name(classes[1]),
            crate::methods::model::short(t),
            c.true_positive,
            c.false_positive,
            c.true_negative,
            c.false_negative,
            or_dash(c.precision()),
            or_dash(c.recall()),
            or_dash(c.f1()),
        );
        return chart;
    }
    // More classes: each class against the rest, by its own score.
    for (k, &class) in classes.iter().enumerate() {
        let scores: Vec<f64> = scored.scores.iter().map(|s| s[k]).collect();
        let positive: Vec<bool> = scored.labels.iter().map(|&l| l == class).collect();
        let Some(roc) = Roc::of(&scores, &positive) else {
            continue;
        };
        let colour = all_classes.iter().position(|&c| c == class).unwrap_or(k);
        chart.lines.push(Line {
            points: roc
                .fpr
                .iter()
                .copied()
                .zip(roc.tpr.iter().copied())
                .collect(),
            colour: CLASS_COLOURS[colour % CLASS_COLOURS.len()],
            weight: 1.4,
            dashed: false,
            label: Some(format!(
                "{} vs rest: AUC = {}",
                lab.data().class_name(class),
                crate::methods::model::short(roc.auc)
            )),
        });
    }
    chart.note = format!(
        "One-vs-rest ROC curves of each class's score on {}.",
        scored.source
    );
    chart
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classes_are_named_as_the_data_gives_them() {
        let mut lab = Playground::from_hash("preset=moons&n=60");
        lab.fit();
        assert!(roc_chart(&lab).note.contains(", class 2 positive."));
        let mut rows = String::from("x,y,label\n");
        for i in 0..12 {
            let (x, label) = (i as f64 * 0.1, ["-1", "+1", "x"][i % 3]);
            rows.push_str(&format!("{x},{},{label}\n", (i * 7 % 5) as f64 * 0.2));
        }
        lab.load_file(rows.replace(",x\n", ",+1\n").as_bytes(), None)
            .unwrap();
        lab.fit();
        let note = roc_chart(&lab).note;
        assert!(note.contains(", +1 positive."), "{note}");
        lab.load_file(rows.replace(",x\n", ",7\n").as_bytes(), None)
            .unwrap();
        lab.fit();
        let chart = roc_chart(&lab);
        let names: Vec<&str> = chart
            .lines
            .iter()
            .filter_map(|l| l.label.as_deref())
            .collect();
        assert!(
            names.iter().any(|n| n.starts_with("-1 vs rest")),
            "{names:?}"
        );
        assert!(
            names.iter().any(|n| n.starts_with("7 vs rest")),
            "{names:?}"
        );
    }

    #[test]
    fn test_points_give_the_curve_and_the_threshold_its_operating_point() {
        let mut lab = Playground::from_hash("preset=overlapping&n=80&test=0.25&threshold=0.5");
        lab.fit();
        let chart = roc_chart(&lab);
        assert!(
            chart.note.contains("20 held-out test points"),
            "{}",
            chart.note
        );
        let curve = &chart.lines[1];
        assert!(curve.label.as_ref().unwrap().starts_with("AUC = "));
        // The operating point is the rates at t among the test points.
        let model = lab.model().unwrap();
        let data = lab.data();
        let (mut tp, mut fp, mut p, mut n) = (0.0, 0.0, 0.0, 0.0);
        for i in (0..80).filter(|&i| lab.test()[i]) {
            let predicted = model.decision_value(data.points[i]) > 0.5;
            if data.labels[i] == 1 {
                p += 1.0;
                tp += predicted as u8 as f64;
            } else {
                n += 1.0;
                fp += predicted as u8 as f64;
            }
        }
        assert_eq!(chart.markers[0].at, (fp / n, tp / p));
    }

    #[test]
    fn without_test_points_the_scores_are_out_of_fold() {
        let mut lab = Playground::from_hash("preset=moons&n=60");
        lab.fit();
        let chart = roc_chart(&lab);
        assert!(chart.note.contains("out of fold"), "{}", chart.note);
        assert_eq!(chart.lines.len(), 2);
        let mut lab = Playground::from_hash("preset=blobs3&n=60&model=lda");
        lab.fit();
        let chart = roc_chart(&lab);
        assert_eq!(chart.lines.len(), 4, "chance and one curve per class");
        assert!(chart.note.contains("One-vs-rest"));
    }
}

//! The loss functions of the margin z = y·f(x) (CURRICULUM §9): 0–1, hinge, squared hinge,
//! logistic log₂(1 + e^(−z)) (in bits, so that it passes through (0, 1) like the others),
//! exponential e^(−z), squared (1 − z)² and the perceptron's max(0, −z). The current model's
//! own loss is drawn heavier. Every training point is a tick at its z in its class colour,
//! and the note gives each loss's total Σ_i L(z_i) over the training set: the SVM minimises
//! ½‖w‖² + C·Σ hinge, logistic regression λ/2‖w‖² + Σ log loss (in nats), the perceptron's
//! updates follow Σ max(0, −z).
//!
//! In regression and novelty detection the view shows their own losses instead
//! ([`super::residuals`]).
//!
//! With more than two classes a two-class method's margin is that of the point's own class
//! (one-vs-rest: f_own(x); one-vs-one: the smallest pairwise margin), as the note says.

use super::chart::{Chart, Line, Tick};
use super::{Figure, ViewKind};
use crate::core::plane::Layout;
use crate::core::task::Task;
use crate::lab::playground::Playground;
use crate::methods::model::Loss;

/// Okabe–Ito colours (and black) for the seven losses, in [`Loss::ALL`] order.
const LOSS_COLOURS: [(u8, u8, u8); 7] = [
    (20, 20, 20),
    (0, 114, 178),
    (86, 180, 233),
    (213, 94, 0),
    (204, 121, 167),
    (0, 158, 115),
    (230, 159, 0),
];

/// The margins shown by default, and the widest the axis grows to hold the points.
const Z_SHOWN: (f64, f64) = (-2.5, 3.0);
const Z_LIMIT: f64 = 8.0;
const LOSS_TOP: f64 = 4.0;

pub struct LossView;

impl ViewKind for LossView {
    fn id(&self) -> &'static str {
        "loss"
    }

    /// Taller than a plain chart: seven curves' legend in a projector's type takes rows.
    fn aspect(&self) -> f64 {
        0.7
    }

    /// Beside the plot at 1280 × 720 the height is short: the chart takes the column's width,
    /// and its legend goes right of the curves instead of over them.
    fn widens(&self) -> bool {
        true
    }

    fn title(&self) -> &'static str {
        "loss functions"
    }

    fn compute(&self, lab: &mut Playground, _layout: &Layout) -> Figure {
        Figure::Chart(Box::new(match lab.settings().task {
            Task::Classification => loss_chart(lab),
            Task::Regression => super::residuals::residual_chart(lab),
            Task::Novelty => super::residuals::slack_chart(lab),
        }))
    }
}

/// The chart for the lab as it is.
pub fn loss_chart(lab: &Playground) -> Chart {
    // The training points only: their losses are what the fit minimised.
    let (data, index) = lab.training();
    let classes = lab.data().classes();
    let (margins, own, kind) = match lab.model() {
        Some(model) => {
            let margins: Vec<Option<f64>> =
                (0..data.len()).map(|t| model.margin(t, data)).collect();
            (margins, model.loss(), Some(model.margin_kind()))
        }
        None => (vec![None; data.len()], None, None),
    };
    // (index among all points, training position, z).
    let known: Vec<(usize, usize, f64)> = margins
        .iter()
        .enumerate()
        .filter_map(|(t, z)| z.filter(|z| z.is_finite()).map(|z| (index[t], t, z)))
        .collect();
    let lowest = known.iter().map(|p| p.2).fold(Z_SHOWN.0, f64::min);
    let highest = known.iter().map(|p| p.2).fold(Z_SHOWN.1, f64::max);
    let x_range = ((lowest - 0.25).max(-Z_LIMIT), (highest + 0.25).min(Z_LIMIT));
    // The totals go in the note: in the legend they would make it wider than the plot in
    // the type a projector needs.
    let mut totals = Vec::new();
    let lines = Loss::ALL
        .iter()
        .zip(LOSS_COLOURS)
        .map(|(&loss, colour)| {
            let total: f64 = known.iter().map(|&(_, _, z)| loss.eval(z)).sum();
            let this = own == Some(loss);
            totals.push(format!(
                "{} {}",
                loss.name(),
                crate::methods::model::short(total)
            ));
            let label = format!(
                "{}{}",
                loss.name(),
                if this { "  ← this model" } else { "" }
            );
            Line {
                points: curve(loss, x_range),
                colour,
                weight: if this { 2.2 } else { 0.8 },
                dashed: false,
                label: Some(label),
            }
        })
        .collect::<Vec<_>>();
    let rug = known
        .iter()
        .map(|&(index, t, z)| Tick {
            x: z.clamp(x_range.0, x_range.1),
            colour: classes
                .iter()
                .position(|&c| c == data.labels[t])
                .unwrap_or(0),
            index,
        })
        .collect();
    let note = match kind {
        None => "No model is fitted, so there are no margins to show.".to_string(),
        Some(_) if known.is_empty() => {
            "This model has no margin y·f(x) for more than two classes.".to_string()
        }
        Some(kind) => format!(
            "Each tick is a training point at its margin z = {kind} (ticks beyond the axis sit \
             at its end). Each loss summed over the {} training points: {}.",
            known.len(),
            totals.join(", ")
        ),
    };
    Chart {
        x_range,
        y_range: (-0.5, LOSS_TOP),
        x_label: "margin z = y·f(x)".into(),
        // The legend says the logistic loss is in log₂.
        y_label: "loss".into(),
        lines,
        rug,
        highlight: lab.highlight,
        note,
        ..Chart::default()
    }
}

/// The loss sampled across the axis, clipped a little above the chart's top (the 0–1 loss as
/// its two steps).
fn curve(loss: Loss, (from, to): (f64, f64)) -> Vec<(f64, f64)> {
    if loss == Loss::ZeroOne {
        return vec![(from, 1.0), (0.0, 1.0), (0.0, 0.0), (to, 0.0)];
    }
    const SAMPLES: usize = 400;
    (0..=SAMPLES)
        .map(|k| {
            let z = from + (to - from) * k as f64 / SAMPLES as f64;
            (z, loss.eval(z).min(LOSS_TOP * 1.5))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::state::Settings;

    #[test]
    fn ticks_sit_at_the_training_margins_and_totals_add_up() {
        let mut lab = Playground::from_hash("preset=overlapping&n=60&kernel=linear&C=1");
        lab.fit();
        let chart = loss_chart(&lab);
        let (model, data) = (lab.model().unwrap(), lab.data());
        let margin = |i| model.margin(i, data).expect("a margin");
        assert_eq!(chart.rug.len(), 60);
        for tick in &chart.rug {
            let z = margin(tick.index);
            assert!((tick.x - z.clamp(chart.x_range.0, chart.x_range.1)).abs() < 1e-12);
        }
        // The hinge total is the SVM's Σξ, ξᵢ = max(0, 1 − yᵢf(xᵢ)).
        let slack: f64 = (0..60).map(|i| (1.0 - margin(i)).max(0.0)).sum();
        let hinge = chart
            .lines
            .iter()
            .find(|l| l.weight > 1.0)
            .expect("own loss");
        let label = hinge.label.as_ref().unwrap();
        assert!(label.starts_with("hinge"), "{label}");
        assert!(
            chart
                .note
                .contains(&format!("hinge {}", crate::methods::model::short(slack))),
            "{} vs {slack}",
            chart.note
        );
    }

    #[test]
    fn a_hovered_point_marks_its_tick_and_a_tick_finds_its_point() {
        let mut lab = Playground::new(Settings::default());
        lab.fit();
        lab.highlight = Some(7);
        let chart = loss_chart(&lab);
        assert_eq!(chart.highlight, Some(7));
        let layout = Layout::new(600, 400);
        let tick = chart.rug.iter().find(|t| t.index == 7).unwrap();
        let plot = layout.plot;
        let px = plot.left
            + (tick.x - chart.x_range.0) / (chart.x_range.1 - chart.x_range.0) * plot.width;
        let py = plot.top + plot.height - 2.0;
        let found = chart.tick_at(&layout, px, py, 1.0).expect("a tick there");
        // Another point may sit at the same margin; then it is as near.
        let found_x = chart.rug.iter().find(|t| t.index == found).unwrap().x;
        assert!((found_x - tick.x).abs() * plot.width / (chart.x_range.1 - chart.x_range.0) <= 1.0);
        assert_eq!(
            chart.tick_at(&layout, px, plot.top + 5.0, 1.0),
            None,
            "above the rug"
        );
    }

    #[test]
    fn every_model_has_its_own_loss_or_says_why_not() {
        for model in ["svm", "perceptron", "logistic", "knn"] {
            let mut lab = Playground::from_hash(&format!("model={model}&preset=blobs3&n=60"));
            lab.fit();
            let chart = loss_chart(&lab);
            assert!(!chart.note.is_empty());
            if model == "knn" {
                assert!(chart.rug.is_empty(), "k-NN with 3 classes has no margin");
            } else {
                assert_eq!(chart.rug.len(), 60, "{model}");
                assert!(chart.lines.iter().any(|l| l.weight > 1.0), "{model}");
            }
        }
    }
}

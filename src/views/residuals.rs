//! The loss view outside classification, where there is no margin y·f(x).
//!
//! - **Regression**: the losses of the residual r = t − f(x) — ε-insensitive max(0, |r| − ε)
//!   (ε-SVR and ν-SVR, with the ε in use: ν-SVR's is the one it found), squared r² (least
//!   squares, kernel ridge regression) and absolute |r| (least absolute deviations) — with a
//!   tick per training point at its residual and each loss's total in the note.
//! - **Novelty detection**: the one-class SVM's slack. Schölkopf's ν-formulation asks
//!   wᵀφ(xᵢ) ≥ ρ − ξᵢ; in the units of the lab's f(x) = Σ αⱼK(xⱼ, x) − ρ (LIBSVM's, νn times
//!   the textbook's) the slack of a point is max(0, −f(xᵢ)) = νn·ξᵢ, and the fit makes
//!   ½‖w‖² − νnρ + Σ max(0, −f(xᵢ)) least. A tick per training point at f(xᵢ); the ones left
//!   of 0 are outside the region.

use super::chart::{Chart, Line, Tick};
use crate::lab::playground::Playground;
use crate::methods::model::short;
use crate::methods::solvers::regression::{curve_of, ResidualLoss};

/// Okabe–Ito colours of the ε-insensitive, squared and absolute losses.
const COLOURS: [(u8, u8, u8); 3] = [(0, 114, 178), (213, 94, 0), (0, 158, 115)];

/// The tick of training position `t` (point `index`) at x, in the one colour of the task.
fn tick(index: usize, x: f64) -> Tick {
    Tick {
        x,
        colour: 0,
        index,
    }
}

/// Room under y = 0 for the rug, as a share of the loss axis.
const RUG: f64 = 0.12;

/// The regression loss chart: every training point's residual and the three losses of it.
pub fn residual_chart(lab: &Playground) -> Chart {
    let Some(curve) = lab.model().and_then(curve_of) else {
        return Chart::says("No model is fitted, so there are no residuals to show.");
    };
    let (data, index) = lab.training();
    let residuals: Vec<(usize, f64)> = data
        .points
        .iter()
        .zip(index)
        .map(|(p, &i)| (i, p[1] - curve.at(p[0])))
        .filter(|r| r.1.is_finite())
        .collect();
    let own = curve.loss();
    let epsilon = match own {
        ResidualLoss::EpsilonInsensitive(e) => e,
        _ => lab.settings().values.real("epsilon"),
    };
    let reach = residuals
        .iter()
        .map(|r| r.1.abs())
        .fold(2.0 * epsilon, f64::max)
        .max(1e-6)
        * 1.1;
    // The upper half is left to the legend: the curves' arms reach `reach` at most.
    let top = 2.0 * reach;
    let losses = [
        (ResidualLoss::EpsilonInsensitive(epsilon), "ε-insensitive"),
        (ResidualLoss::Squared, "squared"),
        (ResidualLoss::Absolute, "absolute"),
    ];
    let mut totals = Vec::new();
    let lines = losses
        .iter()
        .zip(COLOURS)
        .map(|(&(loss, name), colour)| {
            let total: f64 = residuals.iter().map(|r| loss.eval(r.1)).sum();
            // The ε in use is said in the note: the legend keeps within a narrow plot.
            let said = match loss {
                ResidualLoss::EpsilonInsensitive(e) => format!("{name} (ε = {})", short(e)),
                _ => name.to_string(),
            };
            totals.push(format!("{said} {}", short(total)));
            let this = loss == own;
            Line {
                points: sampled(|r| loss.eval(r), reach, top),
                colour,
                weight: if this { 2.2 } else { 0.8 },
                dashed: false,
                label: Some(format!(
                    "{name}{}",
                    if this { "  ← this model" } else { "" }
                )),
            }
        })
        .collect();
    Chart {
        x_range: (-reach, reach),
        y_range: (-RUG * top, top),
        x_label: "residual r = t − f(x)".into(),
        y_label: "loss L(r)".into(),
        lines,
        rug: residuals.iter().map(|&(i, r)| tick(i, r)).collect(),
        highlight: lab.highlight,
        note: format!(
            "Each tick is a training point at its residual r = t − f(x). Each loss summed over \
             the {} training points: {}.",
            residuals.len(),
            totals.join(", ")
        ),
        ..Chart::default()
    }
}

/// `loss` over (−reach, reach), cut a little above the chart's top.
fn sampled(loss: impl Fn(f64) -> f64, reach: f64, top: f64) -> Vec<(f64, f64)> {
    const SAMPLES: usize = 200;
    (0..=SAMPLES)
        .map(|k| {
            let r = reach * (2.0 * k as f64 / SAMPLES as f64 - 1.0);
            (r, loss(r).min(1.5 * top))
        })
        .collect()
}

/// The novelty loss chart: the one-class SVM's slack max(0, −f(x)) and a tick per training
/// point at f(xᵢ).
pub fn slack_chart(lab: &Playground) -> Chart {
    let Some((model, dual)) = lab.model().and_then(|m| Some((m, m.one_class()?))) else {
        return Chart::says("No model is fitted, so there is no slack to show.");
    };
    let (data, index) = lab.training();
    let values: Vec<(usize, f64)> = data
        .points
        .iter()
        .zip(index)
        .map(|(&p, &i)| (i, model.decision_value(p)))
        .filter(|v| v.1.is_finite())
        .collect();
    let (low, high) = values
        .iter()
        .fold((0.0f64, 0.0f64), |(l, h), v| (l.min(v.1), h.max(v.1)));
    let pad = 0.08 * (high - low).max(1e-6);
    let (low, high) = (low - pad, high + pad);
    let top = (-low).max(0.3 * (high - low));
    let slack: f64 = values.iter().map(|v| (-v.1).max(0.0)).sum();
    let values_of_all = data.points.iter().map(|&p| model.decision_value(p));
    let outside = (dual.outlier_fraction(values_of_all) * data.len() as f64).round();
    let nu_n = dual.nu * data.len() as f64;
    Chart {
        x_range: (low, high),
        y_range: (-RUG * top, top),
        x_label: "f(x) = Σ αⱼK(xⱼ, x) − ρ".into(),
        y_label: "slack".into(),
        lines: vec![Line {
            points: vec![(low, -low), (0.0, 0.0), (high, 0.0)],
            colour: COLOURS[0],
            weight: 2.2,
            dashed: false,
            label: Some("slack max(0, −f(x))".into()),
        }],
        rug: values.iter().map(|&(i, f)| tick(i, f)).collect(),
        highlight: lab.highlight,
        note: format!(
            "Each tick is a training point at f(x); left of 0 it is outside the region and its \
             slack is −f(x) (νn·ξ in Schölkopf's ν-formulation). Σ slack over the {} training \
             points = {} (Σ ξ = {}); {} of them outside, at most νn = {}.",
            values.len(),
            short(slack),
            short(slack / nu_n.max(f64::MIN_POSITIVE)),
            outside,
            short(nu_n)
        ),
        ..Chart::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::model::FactValue;

    fn fitted(hash: &str) -> Playground {
        let mut lab = Playground::from_hash(hash);
        assert!(lab.warnings.is_empty(), "{hash}: {:?}", lab.warnings);
        lab.fit();
        assert!(lab.model().is_some(), "{hash}");
        lab
    }

    #[test]
    fn regression_ticks_sit_at_the_residuals_and_the_totals_add_up() {
        let lab = fitted("task=regression&model=lsq&preset=line_outliers&n=40");
        let chart = residual_chart(&lab);
        let model = lab.model().unwrap();
        let data = lab.data();
        assert_eq!(chart.rug.len(), 40);
        for tick in &chart.rug {
            let r = model.decision_value(data.points[tick.index]);
            assert_eq!(tick.x, r);
            assert!(tick.x > chart.x_range.0 && tick.x < chart.x_range.1);
        }
        // The squared loss is the line's own, and its total is the Σ rᵢ² it made least.
        let own: Vec<&Line> = chart.lines.iter().filter(|l| l.weight > 1.0).collect();
        assert_eq!(own.len(), 1);
        assert!(own[0].label.as_ref().unwrap().starts_with("squared"));
        let objective = model
            .facts(data)
            .into_iter()
            .find(|f| f.key == "objective")
            .map(|f| match f.value {
                FactValue::Number(v) => v,
                _ => panic!("a number"),
            })
            .unwrap();
        let squared: f64 = chart.rug.iter().map(|t| t.x * t.x).sum();
        assert!(
            (squared - objective).abs() <= 1e-9 * objective,
            "{squared} vs {objective}"
        );
        let absolute: f64 = chart.rug.iter().map(|t| t.x.abs()).sum();
        for said in [
            format!("squared {}", short(squared)),
            format!("absolute {}", short(absolute)),
        ] {
            assert!(chart.note.contains(&said), "{said}: {}", chart.note);
        }
    }

    #[test]
    fn each_regression_method_emphasises_its_own_loss() {
        for (model, own) in [
            ("svr&epsilon=0.2", "ε-insensitive  ← this model"),
            ("nusvr", "ε-insensitive"),
            ("krr", "squared"),
            ("lsq", "squared"),
            ("lad", "absolute"),
        ] {
            let lab = fitted(&format!("task=regression&model={model}"));
            let chart = residual_chart(&lab);
            let heavy: Vec<&str> = chart
                .lines
                .iter()
                .filter(|l| l.weight > 1.0)
                .map(|l| l.label.as_deref().unwrap())
                .collect();
            assert_eq!(heavy.len(), 1, "{model}");
            assert!(heavy[0].starts_with(own), "{model}: {heavy:?}");
        }
        // ν-SVR's ε is the one it found, not the slider's.
        let lab = fitted("task=regression&model=nusvr&epsilon=0.5");
        let found = curve_of(lab.model().unwrap()).unwrap().tube().unwrap();
        let chart = residual_chart(&lab);
        assert!(
            chart.note.contains(&format!("(ε = {})", short(found))),
            "{found}: {}",
            chart.note
        );
        // A point inside the tube costs nothing: the ε-insensitive total is Σ over the rest.
        let outside: f64 = chart.rug.iter().map(|t| (t.x.abs() - found).max(0.0)).sum();
        let said = format!("(ε = {}) {}", short(found), short(outside));
        assert!(chart.note.contains(&said), "{said}: {}", chart.note);
    }

    #[test]
    fn novelty_ticks_sit_at_f_and_the_slack_is_what_lies_outside() {
        let lab = fitted("task=novelty&nu=0.2");
        let chart = slack_chart(&lab);
        let model = lab.model().unwrap();
        let data = lab.data();
        assert_eq!(chart.rug.len(), data.len());
        let mut slack = 0.0;
        for tick in &chart.rug {
            let f = model.decision_value(data.points[tick.index]);
            assert_eq!(tick.x, f);
            slack += (-f).max(0.0);
        }
        assert!(slack > 0.0, "ν = 0.2 leaves points outside");
        assert!(
            chart.note.contains(&format!(
                "Σ slack over the {} training points = {}",
                data.len(),
                short(slack)
            )),
            "{}",
            chart.note
        );
        // The slack line is 0 inside (f ≥ 0) and −f outside.
        let line = &chart.lines[0].points;
        assert_eq!(line[1], (0.0, 0.0));
        assert_eq!(line[0].1, -line[0].0);
    }
}

//! The training trace: what an iterative method did per iteration, in panels stacked on one x
//! axis — SMO's dual and primal objectives, its maximal KKT violation and duality gap (log
//! scale) and the number of support vectors; the perceptron's mistakes per epoch; logistic
//! regression's J and ‖∇J‖ (log scale). The run is the whole one from the start, recorded by a
//! fit of its own only while this view is open ([`Playground::run_trace`]). When stepping, the
//! step on show is marked, and for a steppable method clicking the trace steps to there.

use super::chart::{Chart, ClickAxis, Line};
use super::{Figure, ViewKind};
use crate::core::plane::Layout;
use crate::core::task::Task;
use crate::lab::playground::{Playground, STEPS_KEY};
use crate::methods::model::{short, Trace};

/// Okabe–Ito: one colour per curve of a panel, and reddish purple for the step on show.
const CURVE_COLOURS: [(u8, u8, u8); 3] = [(0, 114, 178), (213, 94, 0), (0, 158, 115)];
const NOW: (u8, u8, u8) = (204, 121, 167);

pub struct TraceView;

impl ViewKind for TraceView {
    fn id(&self) -> &'static str {
        "trace"
    }

    fn title(&self) -> &'static str {
        "training trace"
    }

    fn layout(&self, width: u32, height: u32, type_px: f64) -> Layout {
        Layout::chart_with_type(width, height, type_px).with_headline()
    }

    fn aspect(&self) -> f64 {
        0.9
    }

    /// Where the window's height leaves too little for the panels stacked, the column's
    /// width lets them stand side by side.
    fn widens(&self) -> bool {
        true
    }

    fn compute(&self, lab: &mut Playground, _layout: &Layout) -> Figure {
        Figure::Chart(Box::new(trace_chart(lab)))
    }
}

/// The chart for the lab as it is.
pub fn trace_chart(lab: &mut Playground) -> Chart {
    let method = lab.settings().method();
    let steppable = method.steppable();
    let title = method.title();
    let steps = lab.steps().filter(|_| steppable);
    let Some(trace) = lab.run_trace().cloned().filter(|t| !t.is_empty()) else {
        return Chart {
            x_range: (0.0, 1.0),
            y_range: (0.0, 1.0),
            headline: format!("No trace: the {title} records none here."),
            note: match lab.settings().task {
                Task::Classification => {
                    "The training trace shows iterative methods (the SVM's SMO with two \
                     classes, the perceptron, logistic regression) per iteration."
                }
                _ => {
                    "In regression the training trace shows kernel ridge regression's gradient \
                     iteration; the support vector regressions' and the one-class SVM's SMO \
                     record none yet."
                }
            }
            .into(),
            ..Chart::default()
        };
    };
    let last = trace.last_x() as f64;
    let first = trace.first as f64;
    let span = (last - first).max(1.0);
    let x_range = (first - 0.02 * span, last + 0.02 * span);
    let now = steps.map(|s| (s as f64).clamp(first, last));
    let mut panels: Vec<Chart> = trace
        .panels
        .iter()
        .map(|panel| {
            let mut lines: Vec<Line> = Vec::new();
            let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
            for (k, curve) in panel.curves.iter().enumerate() {
                let points: Vec<(f64, f64)> = curve
                    .values
                    .iter()
                    .enumerate()
                    .filter_map(|(t, &v)| {
                        let y = if panel.log {
                            (v > 0.0).then(|| v.log10())?
                        } else {
                            v
                        };
                        y.is_finite().then_some((trace.x(t) as f64, y))
                    })
                    .collect();
                for p in &points {
                    low = low.min(p.1);
                    high = high.max(p.1);
                }
                lines.push(Line {
                    points,
                    colour: CURVE_COLOURS[k % CURVE_COLOURS.len()],
                    weight: 1.4,
                    dashed: k > 0,
                    label: Some(curve.label.into()),
                });
            }
            if low > high {
                (low, high) = (0.0, 1.0);
            }
            // Room above the curves for the legend.
            let room = (high - low).max(1e-9 * high.abs().max(1.0));
            let (low, high) = (low - 0.05 * room, high + 0.9 * room);
            if let Some(x) = now {
                lines.push(Line {
                    points: vec![(x, low), (x, high)],
                    colour: NOW,
                    weight: 1.2,
                    dashed: true,
                    label: None,
                });
            }
            Chart {
                x_range,
                y_range: (low, high),
                y_label: panel.y_label.into(),
                lines,
                ..Chart::default()
            }
        })
        .collect();
    let mut top = panels.remove(0);
    match panels.last_mut() {
        Some(lowest) => lowest.x_label = trace.x_label.into(),
        None => top.x_label = trace.x_label.into(),
    }
    top.below = panels;
    // The method is named beside the plot; the headline keeps to the run, so that it fits
    // one line in a projector's type.
    top.headline = match steps {
        Some(s) => format!("{} {}, step {s} on show", trace.last_x(), trace.x_label),
        None => format!("{} {}", trace.last_x(), trace.x_label),
    };
    top.note = trace_note(&trace, steppable, steps);
    if steppable {
        top.click_sets = Some(ClickAxis {
            key: STEPS_KEY.into(),
            values: (0..trace.len()).map(|t| trace.x(t) as f64).collect(),
            log: false,
        });
    }
    top
}

/// The line of explanation: what each panel is, and what clicking does.
fn trace_note(trace: &Trace, steppable: bool, steps: Option<usize>) -> String {
    let mut note = format!(
        "Per {} of the whole run from the start: {}.",
        trace.x_label.trim_end_matches('s'),
        trace
            .panels
            .iter()
            .map(|p| {
                let curves: Vec<&str> = p.curves.iter().map(|c| c.label).collect();
                format!(
                    "{}{}",
                    curves.join(" and "),
                    if p.log { " (log scale)" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    );
    if !trace.thinned_at.is_empty() {
        note.push_str(&format!(
            " A long run: {} of its values are drawn.",
            trace.len()
        ));
    }
    if let (Some(p), Some(d)) = (trace.curve("primal"), trace.curve("dual")) {
        if let (Some(p), Some(d)) = (p.last(), d.last()) {
            note.push_str(&format!(
                " At the end the primal is {} and the dual {}: weak duality keeps P ≥ D, and \
                 the gap closes at the optimum.",
                short(*p),
                short(*d)
            ));
        }
    }
    if steppable {
        note.push_str(match steps {
            Some(_) => " The dashed line marks the step on show; click to step there.",
            None => " Click to step through the run from there.",
        });
    }
    note
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_svm_trace_has_its_panels_and_clicking_steps() {
        let mut lab = Playground::from_hash("preset=moons&n=40&kernel=rbf&gamma=2&C=10");
        lab.fit();
        let chart = trace_chart(&mut lab);
        assert_eq!(chart.below.len(), 2, "{}", chart.headline);
        assert!(
            chart.headline.contains("SMO iterations"),
            "{}",
            chart.headline
        );
        let layout = TraceView.layout(900, 800, 0.0);
        let panels = chart.panels(&layout);
        let lowest = panels[2].plot();
        let (x0, x1) = chart.x_range;
        let px = lowest.left + (5.0 - x0) / (x1 - x0) * lowest.width;
        let py = lowest.top + 0.5 * lowest.height;
        let settings = chart.settings_at(&layout, px, py);
        assert_eq!(settings, vec![(STEPS_KEY.to_string(), "5".to_string())]);
        lab.set(&settings[0].0, &settings[0].1).unwrap();
        assert_eq!(lab.steps(), Some(5));
        lab.fit();
        let chart = trace_chart(&mut lab);
        assert!(
            chart.headline.contains("step 5 on show"),
            "{}",
            chart.headline
        );
    }

    #[test]
    fn a_perceptron_on_separable_data_ends_with_a_clean_epoch() {
        let mut lab = Playground::from_hash("model=perceptron&preset=separable&n=40&kernel=linear");
        lab.fit();
        let trace = lab
            .run_trace()
            .cloned()
            .expect("a perceptron records a trace");
        let mistakes = trace.curve("mistakes").unwrap();
        assert!(mistakes[0] > 0.0);
        assert_eq!(*mistakes.last().unwrap(), 0.0);
        assert_eq!(trace.first, 1);
        let chart = trace_chart(&mut lab);
        assert!(chart.headline.contains("epochs"), "{}", chart.headline);
    }

    #[test]
    fn logistic_regression_traces_j_falling_and_its_gradient() {
        let mut lab = Playground::from_hash("model=logistic&preset=moons&n=40&solver=gd&lr=0.5");
        lab.fit();
        let trace = lab.run_trace().cloned().expect("recorded");
        let j = trace.curve("objective").unwrap();
        let g = trace.curve("gradient_norm").unwrap();
        assert_eq!(j.len(), g.len());
        assert!(j.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-12)));
        assert!(g.last().unwrap() < &g[0]);
        let chart = trace_chart(&mut lab);
        assert_eq!(chart.below.len(), 1);
    }

    #[test]
    fn methods_without_a_trace_say_so() {
        let mut lab = Playground::from_hash("model=knn&preset=moons&n=30");
        lab.fit();
        let chart = trace_chart(&mut lab);
        assert!(chart.headline.starts_with("No trace"), "{}", chart.headline);
    }
}

//! The regularisation path (CURRICULUM §3): every training point's α_i against log C over the
//! C slider's range, in its class colour — solid where it is free (0 < α < C, on the margin),
//! dashed where it is bound (α = C, on or inside the margin), and gone where α = 0 — with the
//! line α = C for reference. Under it, ‖w‖ (and for the linear kernel the margin width 2/‖w‖)
//! and the number of free and bound support vectors. The current C is marked; clicking sets C.
//!
//! At the slider's low end every point of the smaller class is bound and α/C no longer
//! changes: the boundary stops rotating and only ‖w‖ ∝ C shrinks (see [`crate::methods::reg_path`]).
//! The path is computed a C at a time with warm starts and fills in over frames, or in the
//! page's Web Worker. Outside classification the view says there is no path.

use super::chart::{Chart, ClickAxis, Line};
use super::{Figure, ViewKind};
use crate::core::plane::Layout;
use crate::core::task::Task;
use crate::lab::playground::{JobKind, Playground};
use crate::methods::model::short;
use crate::methods::reg_path::{log_spaced, PathJob, PATH_STEPS};

/// Okabe–Ito: blue for free, vermillion for bound, bluish green for the margin width.
const FREE: (u8, u8, u8) = (0, 114, 178);
const BOUND: (u8, u8, u8) = (213, 94, 0);
const MARGIN: (u8, u8, u8) = (0, 158, 115);
const NOW: (u8, u8, u8) = (204, 121, 167);
const INK: (u8, u8, u8) = (40, 40, 40);

pub struct PathView;

impl ViewKind for PathView {
    fn id(&self) -> &'static str {
        "path"
    }

    fn title(&self) -> &'static str {
        "regularisation path"
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

    fn job(&self) -> Option<&'static JobKind> {
        Some(&PATH)
    }

    fn compute(&self, lab: &mut Playground, _layout: &Layout) -> Figure {
        Figure::Chart(Box::new(path_chart(lab)))
    }
}

/// The regularisation path: the SVM solved at each of [`PATH_STEPS`] values of C over the C
/// slider's range, log-spaced, each warm from the last; started afresh for new training points
/// or settings other than C.
pub static PATH: JobKind = JobKind {
    id: "path",
    signature: |lab| lab.job_signature(&["C"], false),
    start: |lab| {
        let (lo, hi) = match crate::methods::table::param("C").map(|row| row.kind) {
            Some(crate::core::params::Kind::LogSlider { lo, hi }) => (lo, hi),
            _ => (-3.0, 4.0),
        };
        let settings = lab.settings();
        Box::new(PathJob::new(
            settings.method(),
            &settings.values,
            lab.training_set(),
            log_spaced(lo, hi, PATH_STEPS),
        ))
    },
};

/// The path of the scene as it stands, as far as it has got.
fn path(lab: &mut Playground) -> &PathJob {
    lab.job_as(&PATH).expect("PATH starts a PathJob")
}

/// The chart for the lab as it is.
pub fn path_chart(lab: &mut Playground) -> Chart {
    match lab.settings().task {
        Task::Regression => {
            return Chart::says(
                "The regularisation path is drawn for the two-class SVM only, not for regression's methods.",
            )
        }
        Task::Novelty => {
            return Chart::says(
                "The regularisation path follows the two-class SVM's C: the one-class SVM has ν instead.",
            )
        }
        Task::Classification => {}
    }
    let current = lab.settings().values.real("C");
    let hard = lab.settings().values.flag("hard");
    let classes = lab.data().classes();
    let (labels, train_index) = {
        let (train, index) = lab.training();
        (train.labels.clone(), index.to_vec())
    };
    let highlight = lab
        .highlight
        .and_then(|i| train_index.binary_search(&i).ok());
    let job = path(lab);
    let xs: Vec<f64> = job.c.iter().map(|c| c.log10()).collect();
    let (lo, hi) = (xs[0], xs[xs.len() - 1]);
    let x_range = (lo - 0.02 * (hi - lo), hi + 0.02 * (hi - lo));
    let click_sets = Some(ClickAxis {
        key: "C".into(),
        values: job.c.clone(),
        log: true,
    });
    if let Some(problem) = job.problem.as_ref().filter(|_| job.finished() == 0) {
        return Chart {
            x_range,
            y_range: (0.0, 1.0),
            x_label: "log₁₀ C".into(),
            headline: format!("No path: {problem}."),
            note: format!(
                "The regularisation path is the two-class SVM's α(C); here {problem}. Choose the \
                 SVM and two classes to see it."
            ),
            ..Chart::default()
        };
    }
    let now = current.log10().clamp(lo, hi);
    let colour_of = |t: usize| {
        let k = classes.iter().position(|&c| c == labels[t]).unwrap_or(0);
        crate::draw::scene::CLASS_COLOURS[k % crate::draw::scene::CLASS_COLOURS.len()]
    };
    // α is drawn on a log scale down to a tenth of the smallest C; α = 0 is not drawn.
    let floor = lo - 1.0;
    let alpha_lines = alpha_lines(job, &xs, floor, highlight, colour_of);
    // (plotters pulls a point beyond the axes onto them: the diagonal starts in range.)
    let mut lines = vec![Line {
        points: vec![(x_range.0, x_range.0), (x_range.1, x_range.1)],
        colour: (190, 190, 190),
        weight: 2.5,
        dashed: false,
        label: Some("α = C".into()),
    }];
    lines.extend(alpha_lines);
    let now_label = if hard {
        format!("slider: C = {} (hard margin on)", short(current))
    } else {
        format!("now: C = {}", short(current))
    };
    let marker = |y: (f64, f64), label: Option<String>| Line {
        points: vec![(now, y.0), (now, y.1)],
        colour: NOW,
        weight: 1.2,
        dashed: true,
        label,
    };
    let y_range = (floor, x_range.1 + 0.2);
    lines.push(marker(y_range, Some(now_label)));
    let solved: Vec<(f64, f64, &crate::methods::reg_path::PathPoint)> = xs
        .iter()
        .zip(&job.c)
        .zip(&job.points)
        .filter_map(|((&x, &c), p)| p.as_ref().map(|p| (x, c, p)))
        .collect();
    // ‖w‖ and the margin width, on a log scale.
    let w_line: Vec<(f64, f64)> = solved
        .iter()
        .filter(|s| s.2.w_norm > 0.0)
        .map(|s| (s.0, s.2.w_norm.log10()))
        .collect();
    let margin_line: Vec<(f64, f64)> = if job.linear {
        w_line.iter().map(|&(x, w)| (x, 2f64.log10() - w)).collect()
    } else {
        Vec::new()
    };
    let norm_values = w_line.iter().chain(&margin_line).map(|p| p.1);
    let (low, high) = norm_values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    // Room above the curves for the legend.
    let (low, high) = if low <= high {
        let (low, high) = (low.floor(), high.ceil().max(low.floor() + 1.0));
        (low, high + 0.6 * (high - low))
    } else {
        (-1.0, 1.0)
    };
    let mut norm_lines = vec![Line {
        points: w_line,
        colour: INK,
        weight: 1.6,
        dashed: false,
        label: Some("‖w‖".into()),
    }];
    if job.linear {
        norm_lines.push(Line {
            points: margin_line,
            colour: MARGIN,
            weight: 1.6,
            dashed: false,
            label: Some("margin width 2/‖w‖".into()),
        });
    }
    norm_lines.push(marker((low, high), None));
    let counts: Vec<(f64, usize, usize)> = solved
        .iter()
        .map(|&(x, c, p)| {
            let (free, bound) = p.counts(c);
            (x, free, bound)
        })
        .collect();
    let most = counts
        .iter()
        .map(|c| c.1.max(c.2))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let count_lines = vec![
        Line {
            points: counts.iter().map(|c| (c.0, c.1 as f64)).collect(),
            colour: FREE,
            weight: 1.6,
            dashed: false,
            label: Some("free SVs".into()),
        },
        Line {
            points: counts.iter().map(|c| (c.0, c.2 as f64)).collect(),
            colour: BOUND,
            weight: 1.6,
            dashed: true,
            label: Some("bound SVs".into()),
        },
        marker((0.0, most * 1.7), None),
    ];
    let below = vec![
        Chart {
            x_range,
            y_range: (low, high),
            y_label: "log₁₀".into(),
            lines: norm_lines,
            ..Chart::default()
        },
        Chart {
            x_range,
            y_range: (0.0, most * 1.7),
            x_label: "log₁₀ C".into(),
            y_label: "SVs".into(),
            lines: count_lines,
            ..Chart::default()
        },
    ];
    Chart {
        x_range,
        y_range,
        y_label: "log₁₀ α".into(),
        lines,
        legend_lower_right: true,
        headline: "αᵢ(C): solid free (0 < α < C), dashed bound (α = C)".into(),
        below,
        click_sets,
        note: path_note(job, labels.len()),
        ..Chart::default()
    }
}

/// Each point's α against log C, a line per stretch of one KKT case: solid where free, dashed
/// where bound, none where α = 0 (a stretch runs on to the next C, so that the curve joins).
fn alpha_lines(
    job: &PathJob,
    xs: &[f64],
    floor: f64,
    highlight: Option<usize>,
    colour_of: impl Fn(usize) -> (u8, u8, u8),
) -> Vec<Line> {
    let solved: Vec<(f64, f64, &[f64])> = xs
        .iter()
        .zip(&job.c)
        .zip(&job.points)
        .map_while(|((&x, &c), p)| p.as_ref().map(|p| (x, c, p.alpha.as_slice())))
        .collect();
    let n = solved.first().map_or(0, |s| s.2.len());
    // 0: α = 0, 1: free, 2: bound.
    let case = |c: f64, a: f64| {
        if a <= 0.0 {
            0
        } else if a >= c {
            2
        } else {
            1
        }
    };
    let mut lines = Vec::new();
    for i in 0..n {
        let at = |k: usize| (solved[k].0, solved[k].2[i].log10().max(floor));
        let mut start = 0;
        while start < solved.len() {
            let kind = case(solved[start].1, solved[start].2[i]);
            let mut end = start;
            while end + 1 < solved.len() && case(solved[end + 1].1, solved[end + 1].2[i]) == kind {
                end += 1;
            }
            if kind != 0 {
                // On to the next C (down to the floor when α leaves the support), and up from
                // the floor when it joins.
                let last = (end + 1).min(solved.len() - 1);
                let first = if start > 0 && case(solved[start - 1].1, solved[start - 1].2[i]) == 0 {
                    start - 1
                } else {
                    start
                };
                lines.push(Line {
                    points: (first..=last).map(at).collect(),
                    colour: colour_of(i),
                    weight: if highlight == Some(i) { 2.4 } else { 0.7 },
                    dashed: kind == 2,
                    label: None,
                });
            }
            start = end + 1;
        }
    }
    lines
}

/// The line of explanation: what is drawn, where the small-C regime ends, and how far the
/// path has got.
fn path_note(job: &PathJob, n: usize) -> String {
    let first = job.c[0];
    let mut note = format!(
        "αᵢ of each of the {n} training points against C ({} values from {} to {}, each fit \
         warm-started from the last), α = 0 not drawn; below, ‖w‖ from the α \
         (‖w‖² = Σ αᵢαⱼyᵢyⱼKᵢⱼ){} and the number of free and bound support vectors. Click to \
         set C.",
        job.c.len(),
        short(first),
        short(job.c[job.c.len() - 1]),
        if job.linear {
            ", the margin width 2/‖w‖"
        } else {
            ""
        },
    );
    if let (Some(up_to), Some(Some(point))) = (job.frozen_up_to(), job.points.first()) {
        let (positive, negative) = (
            job.y.iter().filter(|&&y| y > 0.0).count(),
            job.y.iter().filter(|&&y| y < 0.0).count(),
        );
        let (_, bound) = point.counts(first);
        let all_bound = if positive == negative {
            "every α is C".to_string()
        } else {
            format!(
                "every point of the smaller class is bound and the larger one shares the same \
                 total Σα = {}·C (Σ yᵢαᵢ = 0), {bound} bound in all",
                positive.min(negative)
            )
        };
        note.push_str(&format!(
            " Small C: at C = {}, {all_bound}; up to C ≈ {} α/C stays the same, so the \
             boundary no longer rotates and only ‖w‖ ∝ C shrinks.",
            short(first),
            short(up_to)
        ));
    }
    if let Some(solver) = job.other_solver() {
        note.push_str(&format!(
            " The path is SMO's, with a separate bias: {solver} absorbs b (K + 1) and finds a \
             slightly different solution at each C."
        ));
    }
    let capped: Vec<f64> = job
        .c
        .iter()
        .zip(&job.points)
        .filter(|(_, p)| p.as_ref().is_some_and(|p| !p.converged))
        .map(|(c, _)| *c)
        .collect();
    if let Some(c) = capped.first() {
        note.push_str(&format!(
            " SMO reached its iteration cap at {} values of C from {} (not converged there).",
            capped.len(),
            short(*c)
        ));
    }
    if let Some(problem) = &job.problem {
        note.push_str(&format!(" Stopped: {problem}."));
    } else if !job.done() {
        note.push_str(&format!(
            " {} of {} values of C solved…",
            job.finished(),
            job.c.len()
        ));
    }
    note
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figure_fills_in_and_clicking_it_sets_c() {
        let mut lab = Playground::from_hash("preset=overlapping&n=40&kernel=linear&C=1");
        lab.fit();
        let chart = path_chart(&mut lab);
        assert!(
            chart.note.contains("0 of 50 values of C solved"),
            "{}",
            chart.note
        );
        while lab.work_on(&PATH, 10) {}
        let chart = path_chart(&mut lab);
        assert!(!chart.note.contains("solved…"), "{}", chart.note);
        assert!(chart.note.contains("every α is C"), "{}", chart.note);
        assert!(!chart.note.contains("SMO's"), "{}", chart.note);
        assert_eq!(chart.below.len(), 2);
        // At the smallest C every point is bound: 40 bound, 0 free.
        let counts = &chart.below[1].lines;
        assert_eq!(counts[1].points[0].1, 40.0);
        assert_eq!(counts[0].points[0].1, 0.0);
        // A click over the lowest panel at log₁₀ C = 2 sets C to the path's value there.
        let layout = PathView.layout(900, 800, 0.0);
        let panels = chart.panels(&layout);
        let lowest = panels[2].plot();
        let (x0, x1) = chart.x_range;
        let px = lowest.left + (2.0 - x0) / (x1 - x0) * lowest.width;
        let py = lowest.top + 0.5 * lowest.height;
        let settings = chart.settings_at(&layout, px, py);
        assert_eq!(settings.len(), 1);
        assert_eq!(settings[0].0, "C");
        let c: f64 = settings[0].1.parse().unwrap();
        assert!((c.log10() - 2.0).abs() < 0.08, "{c}");
        lab.set("C", &settings[0].1).unwrap();
        assert_eq!(lab.settings().values.real("C"), c);
        assert!(path(&mut lab).done(), "moving C keeps the path");
        // Outside the plots a click sets nothing.
        assert!(chart.settings_at(&layout, 2.0, 2.0).is_empty());
    }

    #[test]
    fn with_dca_chosen_the_note_says_the_path_is_smos() {
        let mut lab = Playground::from_hash("preset=overlapping&n=30&kernel=linear&svm_solver=dca");
        lab.fit();
        let chart = path_chart(&mut lab);
        assert!(
            chart.note.contains("The path is SMO's") && chart.note.contains("DCA absorbs b"),
            "{}",
            chart.note
        );
    }

    #[test]
    fn other_methods_and_three_classes_say_so() {
        let mut lab = Playground::from_hash("model=knn&preset=moons&n=30");
        lab.fit();
        let chart = path_chart(&mut lab);
        assert!(chart.headline.starts_with("No path"), "{}", chart.headline);
        assert!(chart.below.is_empty());
        let mut lab = Playground::from_hash("preset=blobs3&n=30");
        lab.fit();
        let chart = path_chart(&mut lab);
        assert!(chart.headline.contains("two classes"), "{}", chart.headline);
    }
}

//! What an SVM run shows along the way: its trace (the objectives, the violation, the gap and
//! the support vectors per iterate, for the training-trace view) and, while a run is stepped,
//! the double ring round the SMO pair of the step shown and the inset of its two-variable
//! sub-problem.

use super::*;
use crate::core::plane::{Colour, Decoration, Depth, Pen, Primitive, SwatchShape, Weight};
use crate::methods::marks;

/// A solver's iterates as the trace view shows them: the dual and primal objectives (the
/// primal from f on the training points), the maximal violation and the gap on a log scale,
/// the support vectors. Pegasos has only the primal and the support (its `dual` and
/// `violation` are empty, and so are their panels). DCA's and Pegasos' runs of 10⁵ steps are
/// thinned to [`TRACE_VALUES`] values.
pub(super) fn trace_of(trace: SmoTrace, solver: SvmSolver) -> Trace {
    let gap: Vec<f64> = trace
        .primal
        .iter()
        .zip(&trace.dual)
        .map(|(p, d)| p - d)
        .collect();
    let (x_label, primal, violation) = match solver {
        SvmSolver::Smo => (
            "SMO iterations",
            "primal P(w, b)",
            "max violation m(α) − M(α)",
        ),
        SvmSolver::NoBias(NoBiasSolver::Dca) => (
            "coordinate steps",
            "primal P(w̃)",
            "largest projected gradient",
        ),
        SvmSolver::NoBias(NoBiasSolver::Pegasos) => ("Pegasos steps", "primal ½‖w̃‖² + CΣξ", ""),
    };
    let curve = |key, label, values| TraceCurve { key, label, values };
    let panels = vec![
        TracePanel {
            y_label: "objective",
            log: false,
            curves: vec![
                curve("dual", "dual D(α)", trace.dual),
                curve("primal", primal, trace.primal),
            ],
        },
        TracePanel {
            y_label: "log₁₀",
            log: true,
            curves: vec![
                curve("violation", violation, trace.violation),
                curve("gap", "duality gap P − D", gap),
            ],
        },
        TracePanel {
            y_label: "SVs",
            log: false,
            curves: vec![curve(
                "support",
                "support vectors",
                trace.support.iter().map(|&s| s as f64).collect(),
            )],
        },
    ];
    let panels = panels
        .into_iter()
        .map(|mut panel| {
            panel.curves.retain(|c| !c.values.is_empty());
            panel
        })
        .filter(|panel| !panel.curves.is_empty())
        .collect();
    let trace = Trace {
        x_label,
        first: 0,
        thinned_at: Vec::new(),
        panels,
    };
    match solver {
        SvmSolver::Smo => trace,
        SvmSolver::NoBias(_) => trace.thinned(TRACE_VALUES),
    }
}

/// The double ring round the SMO pair of the step shown.
pub(super) fn working_pair((i, j): (usize, usize)) -> Decoration {
    let rings = Primitive::Rings {
        points: vec![i, j],
        colour: marks::UPDATE_COLOUR,
        double: true,
    };
    let swatch = vec![
        SwatchShape::ring(4.5, Pen::solid(marks::UPDATE_COLOUR, Weight::Px(2))),
        SwatchShape::ring(8.0, Pen::solid(marks::UPDATE_COLOUR, Weight::Px(2))),
    ];
    Decoration::new("working_pair", Depth::Top, vec![rings]).named(
        50,
        "SMO working pair i, j",
        "The two multipliers αᵢ, αⱼ the step shown optimised together, keeping Σαᵢyᵢ = 0.",
        swatch,
    )
}

/// The inset of the step's two-variable sub-problem, with the `pair` layer.
pub(super) fn sub_problem(step: PairStep) -> Decoration {
    // The box [0, C]² and the line the pair moves along.
    let ink = Pen::solid(Colour::Ink, Weight::Px(2));
    let line = |from: [f32; 2], to: [f32; 2]| SwatchShape::Line { from, to, pen: ink };
    let (a, b, c, d) = ([4.0, 2.0], [22.0, 2.0], [22.0, 16.0], [4.0, 16.0]);
    let swatch = vec![line(a, b), line(b, c), line(c, d), line(d, a), line(d, b)];
    let inset = Primitive::Inset {
        step,
        points: step.pair,
    };
    Decoration::new("sub_problem", Depth::Top, vec![inset])
        .on_layer("pair")
        .named(
            60,
            "SMO sub-problem (inset)",
            crate::core::params::layer_explain("pair"),
            swatch,
        )
}

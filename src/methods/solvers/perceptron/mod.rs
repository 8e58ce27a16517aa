//! The perceptron, primal and kernel (dual) in one: Rosenblatt's rule with the bias absorbed
//! by augmenting every input with a constant 1.
//!
//! Primal, on x̃ = (x, 1): whenever y_i f(x_i) ≤ 0 (a mistake), w̃ ← w̃ + y_i x̃_i. Writing w̃ as
//! Σ α_i y_i x̃_i, α_i counts the mistakes made on x_i, and f(x) = Σ α_i y_i (x_iᵀx + 1): the
//! dual form, which only needs inner products and so takes any kernel,
//! f(x) = Σ α_i y_i (K(x_i, x) + 1). For the linear kernel the two are the same algorithm, and
//! w = Σ α_i y_i x_i, b = Σ α_i y_i.
//!
//! Points are visited in input order, epoch after epoch; the run stops after an epoch without
//! a mistake (the data are separated: converged) or at the epoch cap (it never stops on
//! non-separable data).
//!
//! Stepping through a run shows w̃ after k updates. The run is a state that stops and goes on
//! (the `run` module): [`PerceptronTrainer`] keeps the stepped run, so that asking for k + 1
//! updates on the same points and parameters makes one update from there — the same
//! arithmetic in the same order, so the same α, w̃ and trace as a run from w̃ = 0 — instead of
//! k + 1 from the start. Fewer updates than kept, or any edit, starts again from w̃ = 0.
//!
//! Novikoff's theorem: if ‖x̃_i‖ ≤ R and some w̃ separates the data with geometric margin γ
//! (through the origin of the augmented space), the perceptron makes at most (R/γ)² mistakes.
//! [`max_margin_through_origin`] finds the best such γ: the hard-margin SVM without bias on the
//! augmented inputs, solved by dual coordinate ascent
//! α_i ← max(0, α_i + (1 − y_i f(x_i))/K̃_ii), where at the optimum ‖w̃‖² = Σα_i and γ = 1/‖w̃‖.

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::{expansion_evaluator, Grid, Smoothness};
use crate::core::kernel::Kernel;
use crate::core::params::Values;
use crate::core::params::{model_row, Kind, Param};
use crate::core::plane::{
    Colour, Dash, Decoration, Depth, Pen, Primitive, Scene, Shading, SwatchShape, Weight, Words,
};
use crate::core::sklearn::{shown, Arg, Counterpart, Estimator, Multiclass};
use crate::methods::marks;
use crate::methods::model::{
    kernel_of, Context, ExitReason, Fact, FitOptions, FitReport, Method, Model, Trace, TraceCurve,
    TracePanel, WarmStart,
};
pub use run::{PerceptronTrainer, WORK_LIMIT};
use run::{Run, Stop};

mod run;

/// The memory the kernel-column cache of a run may use.
const CACHE_BYTES: usize = 64 << 20;

/// The parameters of a perceptron run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerceptronParams {
    pub kernel: Kernel,
    /// Stop after this many epochs even if mistakes remain.
    pub max_epochs: usize,
    /// Stop after this many updates (for stepping through a run); `None` runs to the end.
    pub max_updates: Option<usize>,
    /// Record the mistakes of every epoch (the trace view).
    pub record: bool,
}

impl PerceptronParams {
    pub fn new(kernel: Kernel, max_epochs: usize) -> Self {
        Self {
            kernel,
            max_epochs,
            max_updates: None,
            record: false,
        }
    }

    pub fn check(&self) -> Result<(), Error> {
        if !(1..=10_000).contains(&self.max_epochs) {
            return Err(Error::Parameter(
                "max epochs must be between 1 and 10000".into(),
            ));
        }
        Ok(())
    }
}

/// A perceptron after (part of) a run.
#[derive(Clone, Debug)]
pub struct PerceptronModel {
    pub kernel: Kernel,
    pub classes: [i32; 2],
    pub points: Vec<Point>,
    pub y: Vec<f64>,
    /// α_i: the number of mistakes made on point i.
    pub alpha: Vec<f64>,
    /// (w, b) for the linear kernel.
    pub w: Option<[f64; 2]>,
    pub bias: f64,
    /// Total mistakes (= updates).
    pub mistakes: usize,
    /// Epochs started.
    pub epochs: usize,
    /// An epoch passed without a mistake.
    pub converged: bool,
    /// The run ended by itself (converged, or at the epoch cap or the work budget), not at
    /// the number of updates asked for when stepping.
    pub finished: bool,
    /// A kernel run stopped at the work budget ([`WORK_LIMIT`]) before the epoch cap.
    pub out_of_work: bool,
    novikoff: Option<f64>,
    /// The point of the last update, when the run was limited to a number of updates (stepping).
    pub last_update: Option<usize>,
    /// Mistakes per epoch, when recorded.
    pub trace: Option<Trace>,
    pub report: FitReport,
    /// (x_i, α_i y_i) for the points with mistakes: f(x) = Σ α_i y_i K(x_i, x) + b.
    expansion: Vec<(Point, f64)>,
}

impl PerceptronModel {
    /// Runs the perceptron from w̃ = 0 (to the end, or to `params.max_updates` updates).
    pub fn fit(
        points: &[Point],
        labels: &[i32],
        params: &PerceptronParams,
    ) -> Result<PerceptronModel, Error> {
        PerceptronTrainer::new().fit(points, labels, params)
    }

    /// The perceptron where `run` stopped (for the reason `stop`), on `points` with targets
    /// `y` ∈ {−1, +1} for `classes`.
    fn from_run(
        points: &[Point],
        classes: [i32; 2],
        y: Vec<f64>,
        params: &PerceptronParams,
        run: &Run,
        stop: Stop,
        novikoff: Option<f64>,
    ) -> PerceptronModel {
        let n = points.len();
        let kernel = params.kernel;
        let alpha = run.alpha.clone();
        let bias: f64 = alpha.iter().zip(&y).map(|(a, yi)| a * yi).sum();
        let w = kernel.is_linear().then(|| {
            (0..n).fold([0.0, 0.0], |w, i| {
                let c = alpha[i] * y[i];
                [w[0] + c * points[i][0], w[1] + c * points[i][1]]
            })
        });
        let expansion = (0..n)
            .filter(|&i| alpha[i] > 0.0)
            .map(|i| (points[i], alpha[i] * y[i]))
            .collect();
        PerceptronModel {
            novikoff,
            expansion,
            kernel,
            classes,
            points: points.to_vec(),
            y,
            alpha,
            w,
            bias,
            mistakes: run.mistakes,
            epochs: run.epochs,
            converged: run.converged,
            finished: stop != Stop::Updates,
            out_of_work: run.out_of_work,
            last_update: params.max_updates.and(run.last_update),
            trace: params.record.then(|| Trace {
                x_label: "epochs",
                first: 1,
                thinned_at: Vec::new(),
                panels: vec![TracePanel {
                    y_label: "mistakes",
                    log: false,
                    curves: vec![TraceCurve {
                        key: "mistakes",
                        label: "mistakes in the epoch",
                        values: run.per_epoch.clone(),
                    }],
                }],
            }),
            report: FitReport {
                iterations: run.mistakes,
                exit: if run.converged {
                    ExitReason::Converged
                } else {
                    ExitReason::IterationCap
                },
                objective: run.mistakes as f64,
                warm_start: false,
            },
        }
    }

    /// Novikoff's bound (R/γ)² for these points and this kernel, if they are separable
    /// through the origin of the augmented feature space (computed up to
    /// [`NOVIKOFF_LIMIT`] points).
    /// Computed once, when the run converges (a run that does not converge has data that
    /// are not separable this way, so there is no bound to show).
    pub fn novikoff_bound(&self) -> Option<f64> {
        self.novikoff
    }
}

/// The most points for which the Novikoff bound is computed (it needs the n × n Gram matrix).
pub const NOVIKOFF_LIMIT: usize = 2000;

/// (R/γ)² with R = max ‖φ̃(x_i)‖ and γ from [`max_margin_through_origin`].
fn novikoff_bound(points: &[Point], y: &[f64], kernel: Kernel) -> Option<f64> {
    let radius2 = points
        .iter()
        .map(|&p| kernel.eval(p, p) + 1.0)
        .fold(0.0, f64::max);
    let gamma = max_margin_through_origin(points, y, kernel)?;
    Some(radius2 / (gamma * gamma))
}

impl Model for PerceptronModel {
    fn classes(&self) -> &[i32] {
        &self.classes
    }

    fn decision_value(&self, x: Point) -> f64 {
        if let Some(w) = self.w {
            return w[0] * x[0] + w[1] * x[1] + self.bias;
        }
        // Σ α_i y_i (K(x_i, x) + 1) = Σ α_i y_i K(x_i, x) + b with b = Σ α_i y_i.
        self.bias
            + self
                .expansion
                .iter()
                .map(|&(z, c)| c * self.kernel.eval(z, x))
                .sum::<f64>()
    }

    /// f has no natural unit: shade by |f| over its median on the training points.
    fn shading(&self) -> Shading {
        let mut values: Vec<f64> = self
            .points
            .iter()
            .map(|&p| self.decision_value(p).abs())
            .collect();
        crate::core::sorting::sort_by(&mut values, f64::total_cmp);
        let scale = values
            .get(values.len() / 2)
            .copied()
            .filter(|m| *m > 0.0)
            .unwrap_or(1.0);
        Shading::Margin { scale }
    }

    fn smoothness(&self) -> Smoothness {
        Smoothness::of_kernel(self.kernel)
    }

    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        let tags: Vec<_> = (0..self.alpha.len())
            .filter(|&i| self.alpha[i] > 0.0)
            .map(|i| (i, format!("{}", self.alpha[i] as usize).into()))
            .collect();
        if !tags.is_empty() {
            scene.decorations.push(mistake_counts(tags));
        }
        scene
            .decorations
            .extend(self.last_update.map(marks::last_update));
        // With the linear kernel, x̃ = (x, 1) in the plane itself: R shows as a circle.
        if self.novikoff.is_some() && self.kernel == Kernel::Linear {
            scene
                .decorations
                .push(novikoff_circle(&context.data.points));
        }
        if context.layers.on("w") {
            let arrow = self
                .w
                .and_then(|w| marks::w_arrow(w, self.bias, &context.view));
            scene.decorations.extend(arrow);
        }
    }

    fn facts(&self, _data: &Dataset) -> Vec<Fact> {
        let bound = self.novikoff.map(|b| {
            format!(
                "≤ Novikoff bound (R/γ)² = {}",
                crate::methods::model::short(b)
            )
        });
        let mut mistakes = Fact::new("mistakes", "mistakes", self.mistakes);
        mistakes.note = bound;
        let mut facts = vec![
            Fact::new("kernel", "", self.kernel.name()),
            mistakes,
            Fact::new("epochs", "epochs", self.epochs)
                .with_note(if self.converged {
                    "(converged)"
                } else {
                    "(not converged)"
                })
                .inside(),
            Fact::data("converged", self.converged),
            Fact::data("iterations", self.mistakes),
        ];
        if let Some(bound) = self.novikoff {
            facts.push(Fact::data("novikoff_bound", bound));
        }
        if let Some(w) = self.w {
            facts.push(Fact::new("w", "w =", w));
        }
        facts.push(Fact::new("bias", "b =", self.bias));
        facts.push(Fact::data("alpha", self.alpha.clone()));
        facts
    }

    fn point_facts(&self, i: usize, _data: &Dataset) -> Vec<Fact> {
        if i >= self.alpha.len() {
            return Vec::new();
        }
        vec![
            Fact::new("y", "y =", self.y[i]),
            Fact::new("alpha", "α =", self.alpha[i]).with_note("(mistakes on this point)"),
            Fact::new(
                "margin",
                "y·f(x) =",
                self.y[i] * self.decision_value(self.points[i]),
            ),
        ]
    }

    fn message(&self) -> Option<String> {
        match (self.finished, self.converged, self.out_of_work) {
            (true, false, true) => Some(format!(
                "the kernel perceptron stopped after {} updates without converging: the data \
                 are probably not separable in this feature space",
                self.mistakes
            )),
            (true, false, false) => Some(format!(
                "the perceptron did not converge in {} epochs: the data are not separable in \
                 this feature space (or need more epochs)",
                self.epochs
            )),
            _ => None,
        }
    }

    fn run_ended(&self, _shown: usize) -> bool {
        self.finished
    }

    fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
    }

    fn loss(&self) -> Option<crate::methods::model::Loss> {
        Some(crate::methods::model::Loss::PerceptronCriterion)
    }

    fn kernel_expansion(&self) -> Option<crate::methods::model::KernelExpansion<'_>> {
        // With a w (the linear kernel) f is computed from w, not from the expansion.
        self.w
            .is_none()
            .then_some(crate::methods::model::KernelExpansion {
                kernel: self.kernel,
                terms: &self.expansion,
                bias: self.bias,
            })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        match self.w {
            Some(_) => Box::new(move |row, col| self.decision_value(grid.node(row, col))),
            None => expansion_evaluator(self.kernel, &self.expansion, self.bias, grid),
        }
    }
}

/// The registry entry: the perceptron, primal for the linear kernel and dual otherwise.
pub struct PerceptronMethod;

impl Method for PerceptronMethod {
    fn rows(&self) -> &'static [crate::core::params::Param] {
        ROWS
    }

    fn id(&self) -> &'static str {
        "perceptron"
    }

    fn title(&self) -> &'static str {
        "perceptron"
    }

    fn explain(&self) -> &'static str {
        "On every mistake, yᵢf(xᵢ) ≤ 0, it adds yᵢxᵢ to w (with a kernel, 1 to αᵢ), and it stops after an epoch without a mistake, which comes only when the classes are separable."
    }

    fn params(&self) -> &'static [&'static str] {
        &["kernel", "kexpr", "gamma", "degree", "coef0", "epochs"]
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["gamma", "degree"]
    }

    fn steppable(&self) -> bool {
        true
    }

    /// The stepped run and the kernel columns, kept so that a step costs one update.
    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(PerceptronTrainer::new()))
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let params = PerceptronParams {
            max_updates: options.steps,
            record: options.record,
            ..PerceptronParams::new(kernel_of(values)?, values.whole("epochs") as usize)
        };
        let trainer = options
            .warm
            .and_then(|w| w.as_any().downcast_mut::<PerceptronTrainer>());
        let model = match trainer {
            Some(trainer) => trainer.fit(&data.points, &data.labels, &params)?,
            None => PerceptronModel::fit(&data.points, &data.labels, &params)?,
        };
        Ok(Box::new(model))
    }

    /// scikit-learn's `Perceptron` with a step of 1, no penalty, the points in the order
    /// given and no early stop is this rule in the primal, to the same arithmetic; it has no
    /// kernel perceptron.
    fn sklearn(&self, values: &Values, _data: &Dataset) -> Counterpart {
        if values.choice("kernel") != "linear" {
            return Counterpart::missing(
                "scikit-learn's Perceptron is linear: it has no kernel (dual) perceptron. \
                 Perceptron on explicit features (PolynomialFeatures for the polynomial kernel) \
                 comes nearest, but its updates differ from the lab's dual ones",
            );
        }
        let epochs = values.whole("epochs");
        let perceptron = Estimator::sklearn("sklearn.linear_model", "Perceptron")
            .arg("eta0", 1.0)
            .arg("penalty", Arg::None)
            .arg("fit_intercept", true)
            .arg("shuffle", false)
            .arg("max_iter", epochs)
            .arg("tol", Arg::None);
        let unused = "(the linear kernel does not use it)";
        Counterpart::same(vec![perceptron], Multiclass::OneVsRest)
            .map(
                "kernel",
                "kernel = linear → Perceptron, in the primal: on a mistake yᵢf(xᵢ) ≤ 0, \
                 w ← w + yᵢxᵢ and b ← b + yᵢ (eta0=1.0, penalty=None), the points in the \
                 order given (shuffle=False)",
            )
            .map("kexpr", "K(x, z) = … → (the linear kernel does not use it)")
            .map(
                "epochs",
                format!(
                    "{} → max_iter={epochs} and tol=None: every epoch is run, and after an \
                     epoch without a mistake nothing changes, where the lab stops",
                    shown(values, "epochs")
                ),
            )
            .map("gamma", format!("γ {unused}"))
            .map("degree", format!("degree {unused}"))
            .map("coef0", format!("coef0 {unused}"))
    }
}

/// The geometric margin γ of the best separator through the origin of the augmented space
/// (K̃ = K + 1), from below: dual coordinate ascent on the hard-margin problem, and then the
/// margin min_i y_i f(x_i)/‖w̃‖ of the separator w̃ = Σ α_i y_i φ̃(x_i) it has reached, with
/// ‖w̃‖² = Σ α_i y_i f(x_i). Any separator's margin is at most the best one's, so the bound
/// (R/γ)² built on it stays a valid bound; at convergence the two agree. `None` when the
/// iterate does not separate the points (they are not separable that way, or too nearly so).
pub fn max_margin_through_origin(points: &[Point], y: &[f64], kernel: Kernel) -> Option<f64> {
    let n = points.len();
    if n == 0 {
        return None;
    }
    let mut gram = kernel.gram(points);
    for k in gram.iter_mut() {
        *k += 1.0;
    }
    let mut alpha = vec![0.0; n];
    // f_i = Σ_j α_j y_j K̃_ij, kept up to date.
    let mut f = vec![0.0; n];
    for _sweep in 0..2_000 {
        let mut largest_step: f64 = 0.0;
        for i in 0..n {
            let kii = gram[i * n + i];
            if kii <= 0.0 {
                return None;
            }
            let new = (alpha[i] + (1.0 - y[i] * f[i]) / kii).max(0.0);
            let delta = new - alpha[i];
            if delta != 0.0 {
                largest_step = largest_step.max(delta.abs());
                alpha[i] = new;
                for k in 0..n {
                    f[k] += delta * y[i] * gram[i * n + k];
                }
            }
            if !alpha[i].is_finite() || alpha[i] > 1e12 {
                return None;
            }
        }
        let total: f64 = alpha.iter().sum();
        if largest_step <= 1e-10 * total.max(1.0) {
            break;
        }
    }
    let margin = (0..n).map(|i| y[i] * f[i]).fold(f64::INFINITY, f64::min);
    let norm2: f64 = (0..n).map(|i| alpha[i] * y[i] * f[i]).sum();
    (margin > 0.0 && norm2 > 0.0).then(|| margin / norm2.sqrt())
}

/// The perceptron's row: how many epochs at most.
pub static ROWS: &[Param] = &[EPOCHS_ROW];

pub const EPOCHS_ROW: Param = Param {
    more: true,
    ..model_row(
        "epochs",
        "max epochs",
        Kind::Integer {
            min: 1,
            max: 10_000,
            slider_max: 500,
        },
        "100",
        "How many passes over the training points at most: the perceptron stops after an \
         epoch without a mistake, which never comes when no line separates the classes.",
    )
};

/// Novikoff's R for the linear kernel: the circle about the origin through the point farthest
/// from it, of radius r = max ‖xᵢ‖, within which every input lies; R = max ‖x̃ᵢ‖ = √(r² + 1).
fn novikoff_circle(points: &[Point]) -> Decoration {
    let r = points.iter().map(|p| p[0].hypot(p[1])).fold(0.0, f64::max);
    let circle = (0..192)
        .map(|k| {
            let t = std::f64::consts::TAU * k as f64 / 192.0;
            [r * t.cos(), r * t.sin()]
        })
        .collect();
    let grey = Colour::Rgb(86, 86, 86);
    let pen = Pen::solid(grey, Weight::Light).dashed(Dash::Long);
    let swatch = vec![
        SwatchShape::ring(7.5, Pen::solid(grey, Weight::Px(2)).dashed(Dash::Long)),
        SwatchShape::Ellipse {
            centre: [13.0, 9.0],
            radii: [1.5, 1.5],
            pen: Pen::solid(grey, Weight::Px(1)),
            fill: Some(grey),
        },
    ];
    let shapes = vec![
        Primitive::Outline {
            points: circle,
            pen,
        },
        Primitive::Dots {
            at: vec![[0.0, 0.0]],
            colour: grey,
        },
    ];
    Decoration::new("novikoff_radius", Depth::UnderCurves, shapes).named(
        35,
        "radius R of Novikoff's bound (dashed circle)",
        "Every input lies within the circle about the origin through the farthest point: \
         ‖x̃ᵢ‖ ≤ R with x̃ = (x, 1), so R² is its radius squared plus 1. On separable data the \
         perceptron makes at most (R/γ)² mistakes: moving the points away from the origin \
         raises R and the bound.",
        swatch,
    )
}

/// Each point's count of mistakes, αᵢ, beside it.
fn mistake_counts(tags: Vec<(usize, Words)>) -> Decoration {
    let swatch = vec![SwatchShape::Text {
        at: [13.0, 9.0],
        text: "2".into(),
        colour: Colour::Ink,
    }];
    Decoration::new(
        "mistake_count",
        Depth::OverPoints,
        vec![Primitive::Tags { tags }],
    )
    .named(
        30,
        "mistakes on a point, αᵢ",
        "How many updates this point caused: αᵢ in the dual, f(x) = Σ αᵢyᵢK(xᵢ, x).",
        swatch,
    )
}

#[cfg(test)]
mod tests;

//! What every learning method is to the rest of the lab, in two traits.
//!
//! - [`Method`] is a registry entry: a name, the parameter keys it reads (rows of
//!   `methods::table`), whether it tells any number of classes apart by itself, and
//!   `fit`, which checks its typed parameters and trains.
//! - [`Model`] is a fitted model of any method: decision values f(x) and class scores on points
//!   and on a grid, how its field is drawn (the level curves and the shading), what it adds to
//!   the plane (support vectors, ellipses, Voronoi cells…) and its *facts*: an ordered list of
//!   (key, label, value) that the page joins into the status line and the hover readout and the
//!   command line prints as JSON.
//!
//! For two classes the larger label is the positive class and the prediction is sign f(x)
//! (scikit-learn's convention). More classes come either from the method itself or from
//! the `multiclass` module, which wraps any two-class model through this trait.
//!
//! Beside the traits: `facts` (a fact and its value), `loss` (the losses of a margin),
//! `trace` (what an iterative fit records) and `expansion` (a kernel expansion evaluated on
//! points and, approximately, on a grid).

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
pub use crate::core::field::Smoothness;
use crate::core::field::{Grid, View};
use crate::core::kernel::{Kernel, PanelParams};
use crate::core::params::{Values, EXPRESSION_KEY};
use crate::core::plane::{Decoration, Layers, Mark, Scene, Shading};
use crate::core::sklearn::Counterpart;
use std::any::Any;
use std::fmt::Debug;

mod expansion;
mod facts;
mod loss;
mod trace;
pub use expansion::{GridApproximation, KernelExpansion};
pub use facts::{Fact, FactValue};
pub use loss::Loss;
pub use trace::{Trace, TraceCurve, TracePanel};

/// Why a solver stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitReason {
    /// The optimality conditions hold to the requested tolerance.
    Converged,
    /// The iteration cap was reached first; the model is the best found so far.
    IterationCap,
    /// A hard-margin fit met a multiplier at its stand-in for ∞: the data are not separable
    /// (in the kernel's feature space), so there is no hard-margin solution to wait for.
    NotSeparable,
}

/// How an iterative fit went.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    pub iterations: usize,
    pub exit: ExitReason,
    /// The objective the method maximises or minimises (for the SVM: the dual objective
    /// Σα_i − ½ΣΣ α_i α_j y_i y_j K(x_i, x_j), to be maximised).
    pub objective: f64,
    /// Whether the fit started from the previous solution.
    pub warm_start: bool,
}

/// A level curve of f to draw: its value, whether it is the boundary (solid) or another level
/// (dashed, with the margins layer), and an optional label.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub value: f64,
    pub boundary: bool,
    pub label: Option<String>,
}

impl Level {
    pub fn boundary() -> Level {
        Level {
            value: 0.0,
            boundary: true,
            label: None,
        }
    }

    pub fn dashed(value: f64, label: Option<String>) -> Level {
        Level {
            value,
            boundary: false,
            label,
        }
    }

    /// The levels p = ½ (the boundary) and the given probabilities of a log-odds f.
    pub fn probabilities(ps: &[f64]) -> Vec<Level> {
        let mut levels = vec![Level::boundary()];
        levels.extend(
            ps.iter()
                .map(|&p| Level::dashed((p / (1.0 - p)).ln(), Some(format!("p = {p}")))),
        );
        levels
    }
}

/// The most classes the lab handles (keys 1–6, six colours).
pub const MAX_CLASSES: usize = 6;

/// The probabilities whose contours the probabilistic models show besides p = ½.
pub const PROBABILITY_LEVELS: [f64; 4] = [0.1, 0.25, 0.75, 0.9];

/// What a model's [`Model::decorate`] may look at.
pub struct Context<'a> {
    /// The points the model was trained on.
    pub data: &'a Dataset,
    /// Every label on show, whose position is its colour.
    pub classes: &'a [i32],
    pub layers: &'a Layers,
    pub view: View,
    /// The grid the field is evaluated on (for methods that draw their own curves from it).
    pub grid: Grid,
    /// The picture's two-class field on that grid, which holds f − `threshold` (exact at the
    /// nodes near the levels drawn, interpolated elsewhere), for marks that follow f cheaply.
    pub field: Option<&'a crate::core::field::Field>,
    pub threshold: f64,
    /// The picture's draft level ([`crate::core::plane::Layout::draft`]; 0 for the full
    /// picture): marks with grids of their own may coarsen them by as much as `grid` is.
    pub draft: u8,
}

/// What a method may keep between fits (a kernel cache, the last multipliers) and must hear
/// about every edit of the points to keep aligned.
pub trait WarmStart: Debug + Send {
    /// A point was appended (by default nothing kept holds any more).
    fn point_added(&mut self) {
        self.data_replaced();
    }
    fn point_moved(&mut self, index: usize, points: &[Point]);
    /// Point `index` was removed (by default nothing kept holds any more).
    fn point_removed(&mut self, _index: usize) {
        self.data_replaced();
    }
    /// The next fit starts cold; caches that still hold may stay.
    fn forget(&mut self);
    /// The points were replaced wholesale: nothing cached holds.
    fn data_replaced(&mut self);
    fn as_any(&mut self) -> &mut dyn Any;
}

/// How a fit is run, besides the parameters.
#[derive(Default)]
pub struct FitOptions<'a> {
    /// Stepping through a run: stop after this many updates or iterations.
    pub steps: Option<usize>,
    /// The method's state from earlier fits, if it keeps one.
    pub warm: Option<&'a mut dyn WarmStart>,
    /// The command line's iteration cap for solvers that have one (LIBSVM's 10⁷); `None`
    /// keeps the page's interactive cap.
    pub max_iter: Option<usize>,
    /// Record the per-iteration [`Trace`] (for the trace view; off for ordinary fits, which
    /// then pay nothing for it).
    pub record: bool,
}

/// A method of the registry.
pub trait Method: Sync {
    /// The short name used in the URL, the CLI and the registry (`svm` for the SVM).
    fn id(&self) -> &'static str;
    /// The name people read ("support vector machine").
    fn title(&self) -> &'static str;
    /// What the method does, in one sentence in the lecture's words (the model menu's
    /// description on the page).
    fn explain(&self) -> &'static str;
    /// The parameter keys it reads, in the order its controls are shown.
    fn params(&self) -> &'static [&'static str];
    /// The parameter rows it brings, declared in its own file: the settings no method before
    /// it in the registry has (a method reading C, γ or λ names them in `params` only).
    /// `methods::table` gathers them into the one table.
    fn rows(&self) -> &'static [crate::core::params::Param] {
        &[]
    }
    /// The task it learns (its id is unique within the task).
    fn task(&self) -> crate::core::task::Task {
        crate::core::task::Task::Classification
    }
    /// Its number among LIBSVM's SVM types, svm-train's `-s` (0 C-SVC, 1 ν-SVC, 2 one-class,
    /// 3 ε-SVR, 4 ν-SVR), for a method that is one of them (option strings read it).
    fn svm_type(&self) -> Option<u8> {
        None
    }
    /// Every key its fit depends on: its own [`Method::params`] and the settings every
    /// classifier reads ([`EVERY_METHOD_READS`], applied by the registry's fit, which leaves
    /// the points of the other tasks as they are).
    fn reads(&self) -> Vec<&'static str> {
        let params = self.params();
        // Wherever γ is read, the page may move a Gaussian kernel's γ as its bandwidth σ.
        let bandwidth = params
            .contains(&"gamma")
            .then_some(crate::core::params::BANDWIDTH_KEY);
        let every: &[&str] = match self.task() {
            crate::core::task::Task::Classification => EVERY_METHOD_READS,
            _ => &[],
        };
        params
            .iter()
            .chain(every)
            .copied()
            .chain(bandwidth)
            .collect()
    }
    /// Whether, with these settings, it tells any number of classes apart by itself (logistic
    /// regression does when its `multi` setting asks for the softmax model); otherwise the
    /// `multiclass` module combines two-class models (one-vs-one when the method reads the
    /// `mc` key and it says so, else one-vs-rest).
    fn native_multiclass(&self, _values: &Values) -> bool {
        false
    }
    /// Whether a run can be stepped through (Reset / Step / Play).
    fn steppable(&self) -> bool {
        false
    }
    /// The hyper-parameters worth tuning by cross-validation, most important first (a grid
    /// takes the first two that matter for the current settings).
    fn tuning(&self) -> &'static [&'static str] {
        &[]
    }
    /// A fresh state to keep between fits, for methods that warm-start.
    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        None
    }
    /// Checks the parameters and fits `data` (two classes unless `native_multiclass`).
    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error>;
    /// What scikit-learn fits in its place with these settings on the training points `data`
    /// (all its classes: a two-class method's multi-class wrapper is the export's, as the
    /// registry's is), with the mapping of every key of [`Method::params`]; or why it has
    /// nothing that does.
    fn sklearn(&self, values: &Values, data: &Dataset) -> Counterpart;
}

/// Settings every method reads, because the registry applies them around any fit: `std`
/// standardises the features (see the `standardise` module).
pub const EVERY_METHOD_READS: &[&str] = &["std"];

/// A fitted model.
pub trait Model: Debug + Send + Sync + Any {
    /// The labels it tells apart, ascending.
    fn classes(&self) -> &[i32];

    /// f(x): for two classes the decision value (positive means `classes()[1]`); for more,
    /// the winning class's score.
    fn decision_value(&self, x: Point) -> f64;

    /// One score per class, in `classes()` order (two classes: [−f, f]).
    fn scores(&self, x: Point) -> Vec<f64> {
        let f = self.decision_value(x);
        vec![-f, f]
    }

    /// p(class | x) per class, for the models that have probabilities.
    fn probabilities(&self, _x: Point) -> Option<Vec<f64>> {
        None
    }

    /// The top class's probability max_k p(k | x) at grid node (row, column), for the models
    /// that have probabilities (their contours, with more than two classes). Methods override
    /// it to share work between nodes.
    fn top_probability<'a>(
        &'a self,
        grid: &'a Grid,
    ) -> Option<Box<dyn Fn(usize, usize) -> f64 + 'a>> {
        self.probabilities(grid.node(0, 0))?;
        Some(Box::new(move |row, col| {
            self.probabilities(grid.node(row, col))
                .map_or(0.0, |p| p.into_iter().fold(0.0, f64::max))
        }))
    }

    /// The predicted label.
    fn predict(&self, x: Point) -> i32 {
        let classes = self.classes();
        if classes.len() == 2 {
            return classes[(self.decision_value(x) > 0.0) as usize];
        }
        classes[argmax(&self.scores(x))]
    }

    /// The fraction of `labels` predicted correctly at `points`.
    fn accuracy(&self, points: &[Point], labels: &[i32]) -> f64 {
        if points.is_empty() {
            return 0.0;
        }
        let correct = points
            .iter()
            .zip(labels)
            .filter(|(&p, &l)| self.predict(p) == l)
            .count();
        correct as f64 / points.len() as f64
    }

    /// The fraction of the training points `data` (the ones it was fitted to, in order)
    /// predicted correctly. A solver that already holds f at every training point (SMO's
    /// gradient) answers from it instead of evaluating f again.
    fn training_accuracy(&self, data: &Dataset) -> f64 {
        self.accuracy(&data.points, &data.labels)
    }

    /// The predicted class index and a confidence in [0, 1], for painting the regions of more
    /// than two classes.
    fn label_and_confidence(&self, x: Point) -> (usize, f64) {
        let scores = match self.probabilities(x) {
            Some(p) => p,
            None => self.scores(x),
        };
        let best = argmax(&scores);
        let k = scores.len() as f64;
        (
            best,
            ((scores[best] - 1.0 / k) / (1.0 - 1.0 / k)).clamp(0.0, 1.0),
        )
    }

    /// f at grid node (row, column), prepared for `grid`. Methods override it to share work
    /// between nodes (separable kernels, collapsed polynomials).
    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        Box::new(move |row, col| self.decision_value(grid.node(row, col)))
    }

    /// The class index and confidence at grid node (row, column), for more than two classes.
    fn label_evaluator<'a>(
        &'a self,
        grid: &'a Grid,
    ) -> Box<dyn Fn(usize, usize) -> (usize, f64) + 'a> {
        Box::new(move |row, col| self.label_and_confidence(grid.node(row, col)))
    }

    /// Whether [`Model::label_evaluator`] gives every node its exact class at a cost per node
    /// that does not grow with the model's terms (a multi-class model over kernel expansions
    /// with bounded grid approximations): the label field then evaluates every node.
    fn exact_labels_on_grid(&self) -> bool {
        false
    }

    /// The level curves of f to draw (two classes).
    fn levels(&self) -> Vec<Level> {
        vec![Level::boundary()]
    }

    /// How the regions' depth of colour follows f (two classes).
    fn shading(&self) -> Shading {
        Shading::Margin { scale: 1.0 }
    }

    fn smoothness(&self) -> Smoothness {
        Smoothness::Smooth
    }

    /// How each training point is marked (support vectors); empty where the method marks none.
    fn marks(&self) -> Vec<Mark> {
        Vec::new()
    }

    /// Adds the method's own marks to the plane (support vectors, ellipses, cells…).
    fn decorate(&self, _scene: &mut Scene, _context: &Context<'_>) {}

    /// What the model draws about the place `at` under the pointer (k-NN's lines to the
    /// neighbours that vote there), with `data` its training points.
    fn pointer_marks(&self, _at: Point, _data: &Dataset) -> Vec<Decoration> {
        Vec::new()
    }

    /// What the status line and the command line report, in order.
    fn facts(&self, data: &Dataset) -> Vec<Fact>;

    /// What the hover readout says at a place x: p(class | x) for probabilistic models, f(x)
    /// for the others.
    fn facts_at(&self, x: Point) -> Vec<Fact> {
        match self.probabilities(x) {
            Some(p) if p.len() == 2 => vec![Fact::new("probability", "p(class 2 | x) =", p[1])],
            Some(p) => {
                let shares: Vec<String> = p
                    .iter()
                    .enumerate()
                    .map(|(c, v)| format!("class {}: {}", c + 1, short(*v)))
                    .collect();
                vec![Fact::new(
                    "probabilities",
                    "p(class | x):",
                    shares.join(", "),
                )]
            }
            None if self.classes().len() == 2 => {
                vec![Fact::new("decision", "f(x) =", self.decision_value(x))]
            }
            None => {
                let scores: Vec<String> = self
                    .scores(x)
                    .iter()
                    .enumerate()
                    .map(|(c, v)| format!("class {}: {}", c + 1, short(*v)))
                    .collect();
                vec![Fact::new("scores", "scores", scores.join(", "))]
            }
        }
    }

    /// What the hover readout says about training point `index`.
    fn point_facts(&self, _index: usize, _data: &Dataset) -> Vec<Fact> {
        Vec::new()
    }

    /// Why the picture should not be trusted, if it should not.
    fn message(&self) -> Option<String> {
        None
    }

    /// Whether this fit started from an earlier solution.
    fn warm_started(&self) -> bool {
        false
    }

    /// Stepping: whether showing `shown` updates already shows the whole run.
    fn run_ended(&self, _shown: usize) -> bool {
        true
    }

    /// The per-iteration trace, when the fit recorded one ([`FitOptions::record`]).
    fn trace(&self) -> Option<&Trace> {
        None
    }

    /// The margin z = y·f(x) of training point `index` (for the loss view); `None` where the
    /// method has none.
    fn margin(&self, index: usize, data: &Dataset) -> Option<f64> {
        let classes = self.classes();
        if classes.len() != 2 {
            return None;
        }
        let y = if data.labels[index] == classes[1] {
            1.0
        } else {
            -1.0
        };
        Some(y * self.decision_value(data.points[index]))
    }

    /// The loss on the margin the method minimises (with its regulariser), if it is one of
    /// [`Loss`].
    fn loss(&self) -> Option<Loss> {
        None
    }

    /// What [`Model::margin`] measures, in words.
    fn margin_kind(&self) -> &'static str {
        "y·f(x)"
    }

    /// f as a kernel expansion f(x) = Σ_j c_j K(x_j, x) + b, where the model is one: what
    /// the kernel-lift view needs to place w = Σ_j c_j φ(x_j) in the kernel's feature space.
    fn kernel_expansion(&self) -> Option<KernelExpansion<'_>> {
        None
    }

    /// The one-class SVM's ρ and α, where the model is one: what the novelty views and the
    /// command line's JSON read.
    fn one_class(&self) -> Option<crate::methods::capabilities::OneClassDual<'_>> {
        None
    }

    fn as_any(&self) -> &dyn Any;
}

/// A number in four significant digits (exponent form when very large or small), as the
/// page prints them.
pub fn short(v: f64) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    let a = v.abs();
    if a == 0.0 {
        return "0".into();
    }
    if !(1e-3..1e5).contains(&a) {
        return format!("{v:.2e}");
    }
    let digits = (3 - a.log10().floor() as i32).max(0) as usize;
    let text = format!("{v:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// The index of the largest value; ties go to the smallest index.
pub fn argmax(values: &[f64]) -> usize {
    let mut best = 0;
    for (k, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = k;
        }
    }
    best
}

/// The kernel the `kernel`, `gamma`, `degree` and `coef0` settings describe (and, for a
/// kernel built by rule, its expression).
pub fn kernel_of(values: &Values) -> Result<Kernel, Error> {
    if values.choice("kernel") == "composed" {
        let panel = PanelParams {
            gamma: values.real("gamma"),
            degree: values.whole("degree") as u32,
            coef0: values.real("coef0"),
        };
        return Kernel::composed(values.expression(EXPRESSION_KEY), panel);
    }
    Kernel::from_name(
        values.choice("kernel"),
        values.real("gamma"),
        values.whole("degree") as u32,
        values.real("coef0"),
    )
}

/// Checks that `data` has two classes at least and at most `max`.
pub fn check_classes(data: &Dataset, max: usize) -> Result<Vec<i32>, Error> {
    if data.len() < 2 {
        return Err(Error::TooFewPoints);
    }
    let classes = data.classes();
    match classes.len() {
        0 | 1 => Err(Error::OneClass),
        found if found > max => Err(Error::TooManyClasses { found, max }),
        _ => Ok(classes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_go_to_the_smaller_class() {
        assert_eq!(argmax(&[1.0, 1.0, 1.0]), 0);
        assert_eq!(argmax(&[0.0, 2.0, 2.0]), 1);
    }

    #[test]
    fn losses_at_textbook_points() {
        for loss in Loss::ALL {
            // Every loss but the perceptron's (0 there) is 1 at z = 0.
            let want = if loss == Loss::PerceptronCriterion {
                0.0
            } else {
                1.0
            };
            assert!((loss.eval(0.0) - want).abs() < 1e-12, "{}", loss.name());
        }
        assert_eq!(Loss::Hinge.eval(2.0), 0.0);
        assert_eq!(Loss::Squared.eval(2.0), 1.0);
        assert!((Loss::Logistic.eval(-800.0) - 800.0 / std::f64::consts::LN_2).abs() < 1e-9);
        assert!((Loss::Logistic.eval(3.0) - (1.0 + (-3f64).exp()).log2()).abs() < 1e-15);
        assert_eq!(Loss::PerceptronCriterion.eval(-2.0), 2.0);
        assert_eq!(Loss::ZeroOne.eval(-0.1), 1.0);
        assert_eq!(Loss::ZeroOne.eval(0.1), 0.0);
    }

    #[test]
    fn a_thinned_trace_keeps_its_x_and_its_end() {
        let trace = Trace {
            x_label: "steps",
            first: 1,
            thinned_at: Vec::new(),
            panels: vec![TracePanel {
                y_label: "",
                log: false,
                curves: vec![TraceCurve {
                    key: "k",
                    label: "",
                    values: (1..=11).map(|t| t as f64).collect(),
                }],
            }],
        };
        assert_eq!(trace.clone().thinned(20), trace);
        assert_eq!(trace.last_x(), 11);
        let thin = trace.thinned(5);
        // 11 values, at most 5: every third from x = 1, and the last.
        assert_eq!(thin.curve("k").unwrap(), &[1.0, 4.0, 7.0, 10.0, 11.0]);
        assert_eq!(thin.last_x(), 11);
        for t in 0..thin.len() {
            assert_eq!(thin.x(t) as f64, thin.curve("k").unwrap()[t]);
        }
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short(12.3456), "12.35");
        assert_eq!(short(0.5), "0.5");
        assert_eq!(short(2.0e6), "2.00e6");
        assert_eq!(short(0.0), "0");
    }

    #[test]
    fn probability_levels_are_log_odds() {
        let levels = Level::probabilities(&[0.5, 0.9]);
        assert!(levels[0].boundary);
        assert!(levels[1].value.abs() < 1e-15);
        assert!((levels[2].value - 9f64.ln()).abs() < 1e-12);
    }
}

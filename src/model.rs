//! What every classifier of the lab is to the rest of the program: a decision function f(x)
//! over the plane (predicted class = sign f(x) for two classes) plus a report of how the fit
//! went. The field, the scene and the command line only talk to this trait, so a new method is
//! one new file in `solvers/`.

use crate::data::Point;
use crate::field::Grid;

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

/// How a fit went: the numbers the status line and the CLI print.
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

/// A fitted two-class model.
pub trait Classifier {
    /// The method's short name ("svm", …).
    fn method(&self) -> &'static str;

    /// The labels of the negative and positive class.
    fn classes(&self) -> [i32; 2];

    /// The decision value f(x); positive means `classes()[1]`.
    fn decision_value(&self, x: Point) -> f64;

    /// A function of grid node (row, column) returning f there, prepared for `grid`.
    /// Methods override it to share work between nodes (separable kernels, collapsed
    /// polynomials); the default evaluates f at each node's coordinates.
    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        Box::new(move |row, col| self.decision_value(grid.node(row, col)))
    }

    /// The predicted label at x.
    fn predict(&self, x: Point) -> i32 {
        let [negative, positive] = self.classes();
        if self.decision_value(x) > 0.0 {
            positive
        } else {
            negative
        }
    }

    /// Fraction of `labels` predicted correctly at `points`.
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
}

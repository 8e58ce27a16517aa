//! The KKT conditions of the soft-margin dual, checked on a fitted [`SvmModel`]: 0 ≤ α ≤ C,
//! Σ α_i y_i = 0, and each point's case agrees with its margin y_i f(x_i), recomputed from the
//! model rather than taken from the solver's gradient.
//!
//! `slack` is how far a margin may miss its case (10·tol for a solver stopped at tol). Rounding
//! adds to it: f(x_i) is a sum of terms α_j y_j K(x_j, x_i) whose size, not f's, bounds the
//! error of any floating-point evaluation, so the checks allow `relative` times that size on
//! top (0 for data at the scale of a lecture).

use kernel_playground::methods::model::Model;
use kernel_playground::methods::solvers::svm::{AlphaStatus, SvmModel};

/// How many training points fell in each KKT case.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cases {
    pub non_support: usize,
    pub free: usize,
    pub bound: usize,
}

/// The tolerances of [`check`].
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// How far a margin may miss its case.
    pub slack: f64,
    /// Rounding allowed, relative to the size of the terms summed in f(x_i).
    pub relative: f64,
}

/// Checks the KKT conditions of `model` on its training points; the first one broken is the
/// error, in words.
pub fn check(model: &SvmModel, tolerance: Tolerance) -> Result<Cases, String> {
    let n = model.alpha.len();
    let c = model.c;
    let total: f64 = model.alpha.iter().sum();
    let balance: f64 = model.alpha.iter().zip(&model.y).map(|(a, y)| a * y).sum();
    if balance.abs() > 1e-9 * total.max(1.0) {
        return Err(format!("Σαy = {balance} (Σα = {total})"));
    }
    let mut cases = Cases::default();
    for i in 0..n {
        let a = model.alpha[i];
        if !(0.0..=c).contains(&a) {
            return Err(format!("α_{i} = {a} is outside [0, {c}]"));
        }
        let margin = model.y[i] * model.decision_value(model.points[i]);
        // The size of the terms of f(x_i): what rounding is relative to.
        let size: f64 = (0..n)
            .map(|j| (model.alpha[j] * model.kernel.eval(model.points[j], model.points[i])).abs())
            .sum::<f64>()
            + model.bias.abs();
        let rounding = tolerance.relative * size;
        if (margin - model.margins[i]).abs() > 1e-8 + rounding {
            return Err(format!(
                "point {i}: y f = {margin} from the model but {} from the solver",
                model.margins[i]
            ));
        }
        let slack = tolerance.slack + rounding;
        match model.status(i) {
            AlphaStatus::NonSupport => {
                cases.non_support += 1;
                if margin < 1.0 - slack {
                    return Err(format!("point {i}: α = 0 but y f = {margin}"));
                }
            }
            AlphaStatus::Free => {
                cases.free += 1;
                if (margin - 1.0).abs() > slack {
                    return Err(format!("point {i}: free (α = {a}) but y f = {margin}"));
                }
            }
            AlphaStatus::Bound => {
                cases.bound += 1;
                if margin > 1.0 + slack {
                    return Err(format!("point {i}: bound but y f = {margin}"));
                }
                let want = (1.0 - margin).max(0.0);
                if (model.slack(i) - want).abs() > 1e-12 + rounding {
                    return Err(format!(
                        "point {i}: slack {} but 1 − y f = {want}",
                        model.slack(i)
                    ));
                }
            }
        }
    }
    Ok(cases)
}

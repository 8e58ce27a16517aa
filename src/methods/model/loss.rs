//! The losses of a margin z = y·f(x) that the lectures compare: zero-one, hinge, squared
//! hinge, logistic, exponential, squared and the perceptron criterion.

use std::fmt::Debug;

/// The losses of a margin z = y·f(x) that the lectures compare (CURRICULUM §9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// 1 where z ≤ 0 (a mistake, or on the boundary), else 0.
    ZeroOne,
    /// max(0, 1 − z): the SVM's.
    Hinge,
    /// max(0, 1 − z)².
    SquaredHinge,
    /// log₂(1 + e^(−z)): logistic regression's log loss, in bits so that it passes through
    /// (0, 1) like the others.
    Logistic,
    /// e^(−z): boosting's.
    Exponential,
    /// (1 − z)²: least squares on ±1 targets (it also punishes z > 1).
    Squared,
    /// max(0, −z): the perceptron's.
    PerceptronCriterion,
}

impl Loss {
    pub const ALL: [Loss; 7] = [
        Loss::ZeroOne,
        Loss::Hinge,
        Loss::SquaredHinge,
        Loss::Logistic,
        Loss::Exponential,
        Loss::Squared,
        Loss::PerceptronCriterion,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Loss::ZeroOne => "0–1",
            Loss::Hinge => "hinge",
            Loss::SquaredHinge => "squared hinge",
            Loss::Logistic => "logistic (log₂)",
            Loss::Exponential => "exponential",
            Loss::Squared => "squared",
            Loss::PerceptronCriterion => "perceptron criterion",
        }
    }

    /// The loss at margin z.
    pub fn eval(self, z: f64) -> f64 {
        match self {
            Loss::ZeroOne => (z <= 0.0) as u8 as f64,
            Loss::Hinge => (1.0 - z).max(0.0),
            Loss::SquaredHinge => (1.0 - z).max(0.0).powi(2),
            Loss::Logistic => {
                // log₂(1 + e^(−z)) without overflow for very negative z.
                let softplus = if z < 0.0 {
                    -z + z.exp().ln_1p()
                } else {
                    (-z).exp().ln_1p()
                };
                softplus / std::f64::consts::LN_2
            }
            Loss::Exponential => (-z).exp(),
            Loss::Squared => (1.0 - z).powi(2),
            Loss::PerceptronCriterion => (-z).max(0.0),
        }
    }
}

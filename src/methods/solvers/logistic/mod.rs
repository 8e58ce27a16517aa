//! L2-regularised logistic regression: p(y = +1 | x) = σ(f(x)), σ(z) = 1/(1 + e^(−z)),
//! f(x) = wᵀφ(x) + b, fitted by minimising
//!
//! ```text
//!     J(w, b) = Σ_i log(1 + exp(−y_i f(x_i))) + (λ/2)‖w‖²      (b is not penalised)
//! ```
//!
//! which is scikit-learn's `LogisticRegression` with C = 1/λ. Without λ, separable data send
//! ‖w‖ to infinity; λ is a Gaussian prior on w (the MAP estimate).
//!
//! Features φ: the inputs themselves (a linear boundary); all monomials x₁^a x₂^b with
//! 1 ≤ a + b ≤ d, ordered by degree and then by falling power of x₁ (scikit-learn's
//! `PolynomialFeatures` order); or RBF bumps φ_j(x) = exp(−γ‖x − c_j‖²) centred on up to
//! [`MAX_CENTRES`] training points spread evenly through the data (kernel logistic regression on
//! a subset of the training points as basis, with the L2 penalty on the basis weights).
//!
//! Solvers, which reach the same optimum (J is convex), run by the `solver` module for this
//! model and the softmax one alike:
//! - Newton's method, i.e. iteratively reweighted least squares: with t_i ∈ {0, 1} and
//!   p_i = σ(f(x_i)), the gradient is Σ(p_i − t_i) φ̃_i + λ(w, 0) and the Hessian
//!   Σ p_i(1 − p_i) φ̃_i φ̃_iᵀ + λ diag(1, …, 1, 0) on φ̃ = (φ, 1); each step solves H Δ = −∇
//!   (Cholesky, nalgebra) with a backtracking line search, until ‖∇J‖ ≤ tol · J(0);
//! - gradient descent on the mean J/n with a fixed learning rate η: θ ← θ − η ∇J/n, for at
//!   most [`GD_ITERATIONS`] steps; a rise of J shows η is too large.
//!
//! More than two classes: one such model per class against the rest (the `multiclass`
//! module's one-vs-rest), or, with the `multi` setting `multinomial`, one softmax model of
//! every class at once ([`softmax`]), solved by the same Newton and gradient steps.
//!
//! Stepping through either solver shows θ after k iterations. [`LogisticTrainer`] keeps the
//! stepped run (θ, J, ∇J and the design matrix), so that asking for k + 1 on the same points
//! and parameters takes one iteration from there — the same arithmetic, so the same θ, as a
//! run from θ = 0 — instead of k + 1 from the start. It also keeps where the last whole
//! Newton run ended: while a slider or a drag goes on, the next fit starts there, and the lab
//! fits from θ = 0 again when the interaction ends.

use crate::core::data::Dataset;
use crate::core::error::Error;
use crate::core::kernel::{MAX_DEGREE, MIN_DEGREE};
use crate::core::params::Values;
use crate::core::sklearn::{python_float, shown, Arg, Counterpart, Estimator, Multiclass};
use crate::methods::model::{FitOptions, Method, Model, WarmStart};

mod features;
mod model;
mod objective;
pub mod softmax;
mod solver;

use crate::core::params::{choice, model_row, Kind, Param};
use features::design;
pub use features::feature_steps;
pub use features::FeatureMap;
pub use model::LogisticModel;
use objective::Problem;
pub use objective::{newton, sigmoid, NewtonSolution, Prior};
pub use softmax::SoftmaxModel;
pub use solver::LogisticTrainer;
use solver::{solve, solver_message, Objective, Run};

/// Gradient descent's default iteration cap: enough for the lab's data at a good learning
/// rate, and few enough that a drag never waits long.
pub const GD_ITERATIONS: usize = 3_000;

/// The most RBF centres used as basis.
pub const MAX_CENTRES: usize = 100;

/// How the inputs are expanded before the linear model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Features {
    Linear,
    Polynomial { degree: u32 },
    Rbf { gamma: f64 },
}

impl Features {
    /// The features the `features`, `degree` and `gamma` settings describe.
    pub fn from_values(values: &Values) -> Features {
        match values.choice("features") {
            "linear" => Features::Linear,
            "poly" => Features::Polynomial {
                degree: values.whole("degree") as u32,
            },
            _ => Features::Rbf {
                gamma: values.real("gamma"),
            },
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Features::Linear => "linear",
            Features::Polynomial { .. } => "poly",
            Features::Rbf { .. } => "rbf",
        }
    }
}

/// How more than two classes are told apart (the `multi` setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiClass {
    /// One two-class model per class against all the others.
    OneVsRest,
    /// One softmax model over every class at once ([`softmax`]), for two classes too.
    Multinomial,
}

impl MultiClass {
    /// The scheme the `multi` setting names.
    pub fn from_values(values: &Values) -> MultiClass {
        match values.choice("multi") {
            "multinomial" => MultiClass::Multinomial,
            _ => MultiClass::OneVsRest,
        }
    }
}

/// Which optimiser.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Solver {
    Newton,
    GradientDescent { learning_rate: f64 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogisticParams {
    pub features: Features,
    /// λ > 0, the L2 penalty (C = 1/λ in scikit-learn).
    pub lambda: f64,
    pub solver: Solver,
    /// One-vs-rest or the softmax model, for more than two classes.
    pub multi: MultiClass,
    /// Stop when ‖∇J‖ ≤ tol · max(1, J(0)), J(0) = n log 2.
    pub tol: f64,
    /// Iteration cap; `None` means 100 for Newton and [`GD_ITERATIONS`] for gradient descent.
    pub max_iter: Option<usize>,
    /// Record J and ‖∇J‖ at every iterate (the trace view).
    pub record: bool,
}

impl LogisticParams {
    /// The parameters the settings describe.
    pub fn from_values(values: &Values) -> Result<LogisticParams, Error> {
        let features = Features::from_values(values);
        let solver = match values.as_read_by(ROWS).choice("solver") {
            "gd" => Solver::GradientDescent {
                learning_rate: values.real("lr"),
            },
            _ => Solver::Newton,
        };
        // Gradient descent stops at a tolerance that is tight for the picture (‖∇J‖ ≤ 10⁻⁵ J(0))
        // rather than Newton's 10⁻⁸, which it would need thousands more steps to reach.
        let tol = match solver {
            Solver::GradientDescent { .. } => 1e-5,
            Solver::Newton => 1e-8,
        };
        let params = LogisticParams {
            solver,
            tol,
            multi: MultiClass::from_values(values),
            ..LogisticParams::new(features, values.real("lambda"))
        };
        params.check()?;
        Ok(params)
    }

    pub fn new(features: Features, lambda: f64) -> Self {
        Self {
            features,
            lambda,
            solver: Solver::Newton,
            multi: MultiClass::OneVsRest,
            tol: 1e-8,
            max_iter: None,
            record: false,
        }
    }

    pub fn check(&self) -> Result<(), Error> {
        if !(self.lambda.is_finite() && self.lambda > 0.0) {
            return Err(Error::Parameter("lambda <= 0".into()));
        }
        if let Features::Polynomial { degree } = self.features {
            if !(MIN_DEGREE..=MAX_DEGREE).contains(&degree) {
                return Err(Error::Parameter(format!(
                    "degree must be between {MIN_DEGREE} and {MAX_DEGREE}"
                )));
            }
        }
        if let Features::Rbf { gamma } = self.features {
            if !(gamma.is_finite() && gamma > 0.0) {
                return Err(Error::Parameter("gamma <= 0".into()));
            }
        }
        if let Solver::GradientDescent { learning_rate } = self.solver {
            if !(learning_rate.is_finite() && learning_rate > 0.0) {
                return Err(Error::Parameter("learning rate <= 0".into()));
            }
        }
        if !(self.tol.is_finite() && self.tol > 0.0) {
            return Err(Error::Parameter("tol <= 0".into()));
        }
        Ok(())
    }
}

/// The registry entry: L2-regularised logistic regression, Newton or gradient descent.
pub struct LogisticMethod;

impl Method for LogisticMethod {
    fn rows(&self) -> &'static [crate::core::params::Param] {
        ROWS
    }

    fn id(&self) -> &'static str {
        "logistic"
    }

    fn title(&self) -> &'static str {
        "logistic regression"
    }

    fn explain(&self) -> &'static str {
        "Models p(y = 1 | x) = σ(wᵀφ(x) + b) and minimises the log loss plus λ/2‖w‖²; the boundary is where p = ½."
    }

    fn params(&self) -> &'static [&'static str] {
        &[
            "features", "lambda", "gamma", "degree", "multi", "solver", "lr",
        ]
    }

    /// With the `multi` setting `multinomial`: the softmax model tells every class apart.
    fn native_multiclass(&self, values: &Values) -> bool {
        MultiClass::from_values(values) == MultiClass::Multinomial
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["lambda", "gamma", "degree"]
    }

    fn steppable(&self) -> bool {
        true
    }

    /// The stepped run, kept so that a step costs one iteration, and the last converged
    /// Newton θ, which the next fit starts from while an interaction goes on.
    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(LogisticTrainer::new()))
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let params = LogisticParams {
            max_iter: options.steps,
            record: options.record,
            ..LogisticParams::from_values(values)?
        };
        let trainer = options
            .warm
            .and_then(|w| w.as_any().downcast_mut::<LogisticTrainer>());
        let mut fresh = LogisticTrainer::new();
        let trainer = trainer.unwrap_or(&mut fresh);
        let (points, labels) = (&data.points, &data.labels);
        Ok(match params.multi {
            MultiClass::Multinomial => Box::new(trainer.fit_softmax(points, labels, &params)?),
            MultiClass::OneVsRest => Box::new(trainer.fit(points, labels, &params)?),
        })
    }

    /// `LogisticRegression` minimises C Σ log-loss + ½‖w‖², the lab's J divided by λ, with
    /// the same unpenalised intercept: C = 1/λ, after the same features.
    fn sklearn(&self, values: &Values, data: &Dataset) -> Counterpart {
        let lambda = values.real("lambda");
        // The softmax model of two classes is the two-class model with the penalty halved
        // (its two weight vectors are opposite): scikit-learn's C doubled.
        let softmax_pair = values.choice("multi") == "multinomial" && data.classes().len() == 2;
        let c = match softmax_pair {
            true => format!("2 / {}", python_float(lambda)),
            false => format!("1 / {}", python_float(lambda)),
        };
        let (mut steps, feature_lines) = feature_steps(values);
        steps.push(
            Estimator::sklearn("sklearn.linear_model", "LogisticRegression")
                .arg("C", Arg::Expression(c.clone()))
                .arg("tol", 1e-12)
                .arg("max_iter", 100_000_u64),
        );
        let gd = values.as_read_by(ROWS).choice("solver") == "gd";
        let counterpart = Counterpart::same(steps, Multiclass::Otherwise)
            .map(
                "lambda",
                format!(
                    "{} → C={c}: scikit-learn weighs the log loss by C where the lab \
                     weighs ½‖w‖² by λ; neither penalises the intercept (the default L2 \
                     penalty){}",
                    shown(values, "lambda"),
                    if softmax_pair {
                        "; the lab's softmax model of two classes has two opposite weight \
                         vectors, so its penalty is the two-class model's halved"
                    } else {
                        ""
                    }
                ),
            )
            .map_all(feature_lines)
            .map(
                "multi",
                match (softmax_pair, values.choice("multi")) {
                    (true, _) => "softmax of two classes → the two-class model, C doubled \
                                  (above)"
                        .to_string(),
                    (false, "multinomial") => "softmax → LogisticRegression's own multinomial \
                                               model: one weight vector per class, p = softmax"
                        .to_string(),
                    _ => "one-vs-rest → with more than two classes, one two-class model per \
                          class against the rest (OneVsRestClassifier)"
                        .to_string(),
                },
            )
            .map(
                "solver",
                format!(
                    "{} → L-BFGS (scikit-learn's default) to tol=1e-12: J is convex, so it \
                     ends at the minimum the lab's {}",
                    shown(&values.as_read_by(ROWS), "solver"),
                    if gd {
                        "gradient descent heads for"
                    } else {
                        "Newton steps reach"
                    }
                ),
            )
            .map(
                "lr",
                "learning rate → none: L-BFGS chooses its own steps (the rate matters to the \
                 lab's gradient descent only)",
            );
        if gd {
            counterpart.near(format!(
                "the lab's gradient descent stops after at most {GD_ITERATIONS} steps or at \
                 ‖∇J‖ ≤ 10⁻⁵ J(0), short of the minimum L-BFGS reaches"
            ))
        } else {
            counterpart
        }
    }
}

/// Logistic regression's rows: the feature map, λ, how it tells more classes apart, its solver and gradient descent's learning rate (Bayesian logistic regression and kernel ridge read the feature map and λ from here).
pub static ROWS: &[Param] = &[
    FEATURES_ROW,
    LAMBDA_ROW,
    MORE_CLASSES_ROW,
    SOLVER_ROW,
    LEARNING_RATE_ROW,
];

pub const MORE_CLASSES_ROW: Param = Param {
    more: true,
    ..model_row(
        "multi",
        "more classes",
        Kind::Choice {
            options: &[
                choice(
                    "ovr",
                    "one-vs-rest",
                    "One two-class model per class against all the others, K in all, each \
                     fitted on its own; the class whose model gives the highest f wins.",
                ),
                choice(
                    "multinomial",
                    "multinomial (softmax)",
                    "One model of every class at once: a weight vector wₖ and a bias bₖ per \
                     class, p(k | x) = exp(sₖ)/Σₗ exp(sₗ) with sₖ = wₖᵀφ(x) + bₖ, fitted to \
                     the cross-entropy plus λ/2 Σₖ‖wₖ‖²; the probabilities sum to 1. On \
                     two classes it is two-class logistic regression with λ halved.",
                ),
            ],
        },
        "ovr",
        "How logistic regression tells three or more classes apart: K separate two-class \
         models, or one softmax model of them all (scikit-learn's multinomial).",
    )
};

pub const FEATURES_ROW: Param = model_row(
    "features",
    "features",
    Kind::Choice {
        options: &[
            choice(
                "linear",
                "linear  (x₁, x₂)",
                "φ(x) = (x₁, x₂): the boundary is a straight line.",
            ),
            choice(
                "poly",
                "polynomial up to degree",
                "Every monomial x₁ᵃx₂ᵇ with a + b ≤ degree: the boundary is a polynomial \
                 curve.",
            ),
            choice(
                "rbf",
                "RBF bumps  exp(−γ‖x − c‖²)",
                "One Gaussian bump exp(−γ‖x − c‖²) per centre c, the centres taken from \
                 the training points.",
            ),
        ],
    },
    "poly",
    "The feature map φ(x) the model is linear in: a line wᵀφ(x) + b = 0 in feature space is \
     a curve in the plane.",
);

pub const LAMBDA_ROW: Param = model_row(
    "lambda",
    "λ",
    Kind::LogSlider { lo: -4.0, hi: 2.0 },
    "0.01",
    "The weight of the penalty λ/2‖w‖² (a Gaussian prior on w): a larger λ keeps the \
     weights small and the boundary smooth; in kernel ridge it is the λ of \
     β = (K + λI)⁻¹y.",
);

pub const SOLVER_ROW: Param = Param {
    more: true,
    ..model_row(
        "solver",
        "solver",
        Kind::Choice {
            options: &[
                choice(
                    "newton",
                    "Newton (IRLS)",
                    "Newton's method as iteratively reweighted least squares: each step solves \
                     with the Hessian Σ pᵢ(1 − pᵢ)xᵢxᵢᵀ + λI, and a few steps reach the minimum.",
                ),
                choice(
                    "gd",
                    "gradient descent",
                    "Many small steps against the gradient Σ(σ(f(xᵢ)) − tᵢ)xᵢ + λw, each as \
                     long as the learning rate says.",
                ),
            ],
        },
        "newton",
        "How the log loss plus λ/2‖w‖² is minimised: both reach the same weights, at \
         different speeds.",
    )
};

pub const LEARNING_RATE_ROW: Param = Param {
    more: true,
    enabled_by: &[("solver", &["gd"])],
    ..model_row(
        "lr",
        "learning rate",
        Kind::LogSlider { lo: -3.0, hi: 2.0 },
        "4",
        "The step size η of gradient descent, θ ← θ − η∇J/n: too small and it crawls, too \
         large and the loss rises as it overshoots.",
    )
};

#[cfg(test)]
mod tests;

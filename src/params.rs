//! Every setting a person can change, as one declarative table: a row names the key (the URL
//! key, the CLI flag `--key` and the control's id), the label the page shows, the kind of value
//! with its range and default, what else must hold for it to matter (a γ only matters for a
//! kernel that has one), and what a change asks of the lab (refit, regenerate the points, or
//! only redraw). The URL, the command line, validation with its messages and the page's
//! controls all come from this table; which methods use a row is said by the methods
//! themselves (a method's `params`, in the model layer).
//!
//! [`Values`] holds one value per row, checked against the row when it is set, so code that
//! reads a value (a method building its typed parameters) never sees one out of range.

pub mod row;

use crate::error::Error;
pub use crate::kernel::rows::{BANDWIDTH_KEY, EXPRESSION_KEY};
use crate::kernel::{Composition, PanelParams};
use row::{choice, layer_row, model_row, points_row};
pub use row::{Choice, Effect, Group, Kind, Param};
use serde::Serialize;

/// Whether `text` is written in an expression's characters (and is more than one word): a
/// refused kernel is then said as a faulty expression, else as an unknown kernel.
fn looks_like_an_expression(text: &str) -> bool {
    let text = text.trim();
    text.contains(|c: char| !c.is_ascii_alphanumeric())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " .,()+*^-".contains(c))
}

/// Valid kernel parameters, to check an expression's text by.
const ANY_PANEL: PanelParams = PanelParams {
    gamma: 1.0,
    degree: 3,
    coef0: 0.0,
};
use std::collections::BTreeMap;

/// The k-fold options of the `folds` row share their explanation.
const K_FOLD: &str = "The points split into k stratified parts; each part is tested once, by a \
                      model fitted to the other k − 1.";

/// The table, in URL order. (The method itself, `model`, is the lab's choice from the
/// registry, not a row here.)
pub const PARAMS: &[Param] = &[
    crate::kernel::rows::KERNEL,
    crate::kernel::rows::EXPRESSION,
    Param {
        more: true,
        hint: "DCA and Pegasos: no separate bias (K + 1)",
        ..model_row(
            "svm_solver",
            "solver",
            Kind::Choice {
                options: &[
                    choice(
                        "smo",
                        "SMO (with bias, LIBSVM)",
                        "Sequential minimal optimisation: two multipliers at a time in closed \
                         form, keeping Σαᵢyᵢ = 0, the pair chosen by second-order working-set \
                         selection as in LIBSVM.",
                    ),
                    choice(
                        "dca",
                        "dual coordinate ascent",
                        "One multiplier at a time, αᵢ ← clip(αᵢ + (1 − yᵢf(xᵢ))/Kᵢᵢ, 0, C); the \
                         bias is absorbed by the kernel K + 1, so there is no Σαᵢyᵢ = 0 to keep.",
                    ),
                    choice(
                        "pegasos",
                        "Pegasos (primal SGD)",
                        "Stochastic sub-gradient steps on the primal λ/2‖w‖² + (1/n)Σ hinge, \
                         λ = 1/(nC), with step ηₜ = 1/(λt); the bias is absorbed by K + 1.",
                    ),
                ],
            },
            "smo",
            "How the soft-margin problem is solved: each solver reaches the same kind of \
             boundary by its own path, which Step shows one update at a time.",
        )
    },
    Param {
        more: true,
        ..model_row(
            "mc",
            "multi-class",
            Kind::Choice {
                options: &[
                    choice(
                        "ovo",
                        "one-vs-one, voting (LIBSVM)",
                        "One classifier for each pair of classes, K(K − 1)/2 in all; each votes, \
                         and the class with the most votes wins (LIBSVM's choice).",
                    ),
                    choice(
                        "ovr",
                        "one-vs-rest",
                        "One classifier per class against all the others, K in all; the class \
                         with the highest score wins.",
                    ),
                ],
            },
            "ovo",
            "How a two-class method tells three or more classes apart: by combining two-class \
             classifiers.",
        )
    },
    Param {
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
    },
    model_row(
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
    ),
    Param {
        more: true,
        hint: "z = (x − μ)/σ per feature",
        ..model_row(
            "std",
            "standardise",
            Kind::Flag,
            "0",
            "Fit on z = (x − μ)/σ per feature, μ and σ from the training points: methods that \
             measure distances (k-NN, the RBF kernel) are sensitive to the features' scales.",
        )
    },
    Param {
        enabled_by: &[("hard", &["0"])],
        ..model_row(
            "C",
            "C",
            Kind::LogSlider { lo: -3.0, hi: 4.0 },
            "1",
            "The price of a margin violation in ½‖w‖² + C Σξᵢ, and the box 0 ≤ αᵢ ≤ C of the \
             dual: small C allows a wide margin with many bound support vectors; large C \
             approaches the hard margin.",
        )
    },
    model_row(
        "nu",
        "ν",
        Kind::Slider {
            min: 0.0,
            max: 1.0,
            lo: 0.01,
            hi: 1.0,
            step: 0.01,
        },
        "0.5",
        "ν-SVC's ν in (0, 1], in place of C: at most a fraction ν of the points are margin \
         errors (yᵢf(xᵢ) < 1) and at least a fraction ν are support vectors, so ν sets how \
         many points may violate the margin; too large a ν for a small class is infeasible. In \
         ν-SVR, in place of ε: at most a fraction ν of the points lie outside the tube.",
    ),
    model_row(
        "epsilon",
        "ε",
        Kind::LogSlider { lo: -3.0, hi: 0.0 },
        "0.1",
        "The half-width of support vector regression's tube: a residual |t − f(x)| within ε \
         costs nothing, one beyond it costs C per unit; a wider tube has fewer support \
         vectors and a flatter f.",
    ),
    Param {
        more: true,
        hint: "C = ∞",
        ..model_row(
            "hard",
            "hard margin",
            Kind::Flag,
            "0",
            "Demand yᵢf(xᵢ) ≥ 1 of every point, with no slack (C = ∞): it has a solution only \
             when the classes are separable, and the lab says so when they are not.",
        )
    },
    model_row(
        "lambda",
        "λ",
        Kind::LogSlider { lo: -4.0, hi: 2.0 },
        "0.01",
        "The weight of the penalty λ/2‖w‖² (a Gaussian prior on w): a larger λ keeps the \
         weights small and the boundary smooth; in kernel ridge it is the λ of \
         β = (K + λI)⁻¹y.",
    ),
    model_row(
        "gp",
        "GP band",
        Kind::Flag,
        "0",
        "Read kernel ridge regression as a Gaussian process (prior f ~ GP(0, K), noise variance \
         λ): its mean is the same f, and the dashed band f ± 2σ(x) holds about 95 % of the \
         posterior of f — narrow among the points, widening away from them.",
    ),
    crate::kernel::rows::GAMMA,
    crate::kernel::rows::BANDWIDTH,
    crate::kernel::rows::DEGREE,
    crate::kernel::rows::COEF0,
    Param {
        group: Group::Hidden,
        ..model_row(
            "tol",
            "tolerance",
            Kind::LogSlider { lo: -6.0, hi: -1.0 },
            "0.001",
            "The solver stops when the largest violation of the KKT conditions is below this \
             (LIBSVM's default is 10⁻³).",
        )
    },
    Param {
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
    },
    Param {
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
    },
    Param {
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
    },
    model_row(
        "k",
        "k",
        Kind::Integer {
            min: 1,
            max: 25,
            slider_max: 25,
        },
        "5",
        "How many of the nearest training points vote: k = 1 follows every point, noise \
         included, along Voronoi edges; a larger k smooths the boundary and resists label \
         noise.",
    ),
    Param {
        more: true,
        ..model_row(
            "metric",
            "metric",
            Kind::Choice {
                options: &[
                    choice(
                        "euclidean",
                        "Euclidean  ‖x − z‖₂",
                        "The straight-line distance √((x₁ − z₁)² + (x₂ − z₂)²): a neighbourhood \
                         is a disc.",
                    ),
                    choice(
                        "manhattan",
                        "Manhattan  ‖x − z‖₁",
                        "|x₁ − z₁| + |x₂ − z₂|: a neighbourhood is a diamond.",
                    ),
                    choice(
                        "chebyshev",
                        "Chebyshev  ‖x − z‖∞",
                        "max(|x₁ − z₁|, |x₂ − z₂|): a neighbourhood is a square.",
                    ),
                ],
            },
            "euclidean",
            "How the distance to a neighbour is measured, which decides which points are nearest \
             and so the shape of the cells.",
        )
    },
    Param {
        more: true,
        ..model_row(
            "weights",
            "weights",
            Kind::Choice {
                options: &[
                    choice(
                        "uniform",
                        "uniform",
                        "Each of the k neighbours has one vote.",
                    ),
                    choice(
                        "distance",
                        "by inverse distance",
                        "A neighbour's vote counts 1/distance, so the closest count most.",
                    ),
                ],
            },
            "uniform",
            "How much each of the k neighbours' votes counts.",
        )
    },
    Param {
        hint: "Σ_k ← (1 − reg)Σ_k + reg·I",
        ..model_row(
            "reg",
            "reg",
            Kind::Slider {
                min: 0.0,
                max: 1.0,
                lo: 0.0,
                hi: 1.0,
                step: 0.01,
            },
            "0",
            "Shrinks each class's covariance towards the identity, Σₖ ← (1 − reg)Σₖ + reg·I, so \
             a class of few or collinear points still has a usable Gaussian.",
        )
    },
    points_row(
        "preset",
        "preset",
        Kind::Choice {
            options: &[
                choice(
                    "separable",
                    "separable blobs",
                    "Two blobs a line separates: the hard margin has a solution.",
                ),
                choice(
                    "overlapping",
                    "overlapping blobs",
                    "Two blobs that overlap: no line separates them, and C sets how much slack \
                     is allowed.",
                ),
                choice(
                    "xor",
                    "XOR",
                    "Four clusters in an XOR pattern: no line separates them, a polynomial or \
                     RBF kernel does.",
                ),
                choice(
                    "rings",
                    "concentric rings",
                    "One class inside a ring of the other: separable by a plane after the map \
                     φ(x) = (x₁², x₂², √2 x₁x₂).",
                ),
                choice(
                    "moons",
                    "two moons",
                    "Two interleaved half-moons: the boundary has to curve.",
                ),
                choice(
                    "blobs3",
                    "three blobs (3 classes)",
                    "Three classes: one-vs-one and one-vs-rest at work.",
                ),
                choice(
                    "spiral3",
                    "3-arm spiral (3 classes)",
                    "Three interleaved spiral arms: only a very flexible boundary follows them.",
                ),
                choice(
                    "outlier",
                    "outlier (least squares fails)",
                    "Two separable blobs and a few far points of one class on its own side: \
                     the maximum-margin line ignores them, a least-squares line tilts towards \
                     them.",
                ),
                choice(
                    "sine",
                    "sine (regression)",
                    "Points (x, t) around t = 0.6 sin 3x: a line cannot follow them, a narrow \
                     RBF kernel follows the noise.",
                ),
                choice(
                    "line_outliers",
                    "line with outliers (regression)",
                    "Points around a line and a few far above it: squared loss leans towards \
                     them, absolute and ε-insensitive losses hardly do.",
                ),
                choice(
                    "step",
                    "step (regression)",
                    "A jump at x = 0: a smooth kernel overshoots on both sides of it.",
                ),
                choice(
                    "heteroscedastic",
                    "growing noise (regression)",
                    "Points around a line whose noise grows from left to right: one tube width \
                     cannot suit both ends.",
                ),
                choice(
                    "blob",
                    "blob with strays (novelty)",
                    "Points without labels: one blob and a tenth of them scattered around it, \
                     which a one-class SVM should leave outside its region.",
                ),
            ],
        },
        "moons",
        "The points a lesson starts from, drawn from the seed; click to add more.",
    ),
    Param {
        more: true,
        ..points_row(
            "n",
            "points",
            Kind::Integer {
                min: 2,
                max: 20_000,
                slider_max: 2000,
            },
            "100",
            "How many points the preset makes.",
        )
    },
    Param {
        more: true,
        ..points_row(
            "noise",
            "noise",
            Kind::Slider {
                min: 0.0,
                max: 2.0,
                lo: 0.0,
                hi: 1.0,
                step: 0.01,
            },
            "0.2",
            "How far the points scatter from the preset's shape (a Gaussian jitter of standard \
             deviation 0.25 × noise): more noise makes the classes overlap.",
        )
    },
    Param {
        more: true,
        ..points_row(
            "seed",
            "seed",
            Kind::Number,
            "1",
            "The random seed: the same seed gives the same points, so a link brings back the same \
             scene; 'new' draws another set.",
        )
    },
    Param {
        more: true,
        effect: Effect::Resplit,
        hint: "held out, stratified",
        ..points_row(
            "test",
            "test fraction",
            Kind::Slider {
                min: 0.0,
                max: 0.5,
                lo: 0.0,
                hi: 0.5,
                step: 0.05,
            },
            "0",
            "The share of each class held out, drawn hollow and never trained on: their \
             accuracy, not the training accuracy, estimates how the model does on new points.",
        )
    },
    Param {
        key: "threshold",
        label: "threshold t",
        kind: Kind::Slider {
            min: -1e6,
            max: 1e6,
            lo: -3.0,
            hi: 3.0,
            step: 0.05,
        },
        default: "0",
        enabled_by: &[],
        effect: Effect::Redraw,
        group: Group::View,
        hint: "predict the positive class where f(x) > t",
        explain: "Predict the positive class where f(x) > t: moving t trades true positives \
                  against false positives, and sweeping it traces the ROC curve.",
        more: false,
    },
    Param {
        key: "folds",
        label: "folds",
        kind: Kind::Choice {
            options: &[
                choice("3", "3-fold", K_FOLD),
                choice("5", "5-fold", K_FOLD),
                choice("10", "10-fold", K_FOLD),
                choice("20", "20-fold", K_FOLD),
                choice(
                    "loo",
                    "leave-one-out",
                    "n fits, each tested on the one point it left out.",
                ),
                choice(
                    "5x2",
                    "5 × 2-fold",
                    "2-fold cross-validation on five different random halvings of the points.",
                ),
            ],
        },
        default: "5",
        enabled_by: &[],
        effect: Effect::Redraw,
        group: Group::View,
        hint: "stratified, seeded",
        explain: "How cross-validation splits the points: every point is tested once by a \
                  model that never saw it, and the mean accuracy is the estimate; never tune \
                  on the test set.",
        more: false,
    },
    layer_row(
        "hulls",
        "convex hulls and their bisector",
        "0",
        "Each class's convex hull, the shortest segment between the two hulls and its \
         perpendicular bisector: for separable classes that bisector is the hard-margin SVM's \
         boundary, and half the segment is the margin 1/‖w‖.",
    ),
    layer_row(
        "regions",
        "decision regions",
        "1",
        "Colours each place by the class predicted there, deeper where the model is surer: by \
         |f| for a margin, |2p − 1| for a probability, the vote share for neighbours.",
    ),
    layer_row(
        "margins",
        "margins f = ±1 / contours p",
        "1",
        "Dashed level curves: an SVM's margins f = ±1, 2/‖w‖ apart, or a probabilistic \
         model's contours of p(y = 1 | x).",
    ),
    layer_row(
        "sv",
        "support vectors",
        "1",
        "Marks the points with αᵢ > 0, the only ones the boundary depends on: a circle when \
         0 < αᵢ < C (exactly on the margin), a square when αᵢ = C (on or inside it).",
    ),
    layer_row(
        "slack",
        "slack ξ",
        "1",
        "Draws each bound support vector's slack ξᵢ = 1 − yᵢf(xᵢ) as a segment to its own \
         margin; ξᵢ > 1 means the point is misclassified.",
    ),
    layer_row(
        "w",
        "w arrow",
        "1",
        "The weight vector w of a linear boundary wᵀx + b = 0: the boundary is orthogonal to \
         it, and f grows in its direction.",
    ),
    layer_row(
        "pair",
        "SMO sub-problem inset (stepping)",
        "1",
        "While stepping SMO: the two-variable sub-problem of the pair being optimised, the box \
         [0, C]² and the line yᵢαᵢ + yⱼαⱼ = const the pair moves along.",
    ),
    layer_row(
        "vor",
        "Voronoi cells (k = 1)",
        "1",
        "With k = 1 each training point owns its Voronoi cell, the places nearer to it than to \
         any other; the boundary runs along the edges between cells of different classes.",
    ),
    layer_row(
        "del",
        "Delaunay triangulation",
        "0",
        "The dual of the Voronoi diagram: two points are joined when their cells share an \
         edge.",
    ),
    layer_row(
        "pairs",
        "pairwise boundaries (3+ classes)",
        "0",
        "With three or more classes, each two-class member's own boundary, dashed and named \
         by the classes it separates.",
    ),
];

/// The row of `key`.
pub fn param(key: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.key == key)
}

/// A checked value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Real(f64),
    Whole(u64),
    Choice(&'static str),
    Flag(bool),
    Text(String),
}

impl Value {
    /// As written in the URL (shortest text that reads back to the same number).
    pub fn text(&self) -> String {
        match self {
            Value::Real(v) => v.to_string(),
            Value::Whole(v) => v.to_string(),
            Value::Choice(v) => v.to_string(),
            Value::Flag(on) => if *on { "1" } else { "0" }.to_string(),
            Value::Text(text) => text.clone(),
        }
    }
}

impl Param {
    /// Reads `text` as this row's value, or says what is wrong with it.
    pub fn parse(&self, text: &str) -> Result<Value, Error> {
        let text = text.trim();
        // Messages name a value as people read it ("max epochs"), but Greek letters as
        // they are typed ("gamma", "lambda").
        let name = if self.label.is_ascii() {
            self.label
        } else {
            self.key
        };
        let real = || -> Result<f64, Error> {
            let v: f64 = text
                .parse()
                .map_err(|_| Error::Parameter(format!("{name} '{text}' is not a number")))?;
            if v.is_finite() {
                Ok(v)
            } else {
                Err(Error::Parameter(format!("{name} must be a finite number")))
            }
        };
        match self.kind {
            Kind::LogSlider { .. } => {
                let v = real()?;
                if v > 0.0 {
                    Ok(Value::Real(v))
                } else {
                    Err(Error::Parameter(format!("{name} <= 0")))
                }
            }
            Kind::Slider { min, max, .. } => {
                let v = real()?;
                if (min..=max).contains(&v) {
                    Ok(Value::Real(v))
                } else {
                    Err(Error::Parameter(format!(
                        "{name} must be between {min} and {max}"
                    )))
                }
            }
            Kind::Integer { min, max, .. } => {
                let v: u64 = text.parse().map_err(|_| {
                    Error::Parameter(format!("{name} '{text}' is not a whole number"))
                })?;
                if (min..=max).contains(&v) {
                    Ok(Value::Whole(v))
                } else {
                    Err(Error::Parameter(format!(
                        "{name} must be between {min} and {max}"
                    )))
                }
            }
            Kind::Number => text
                .parse()
                .map(Value::Whole)
                .map_err(|_| Error::Parameter(format!("{name} '{text}' is not a whole number"))),
            Kind::Choice { options } => {
                // "polynomial" is the long name of the polynomial kernel.
                let text = if self.key == "kernel" && text == "polynomial" {
                    "poly"
                } else {
                    text
                };
                options
                    .iter()
                    .find(|o| o.value == text)
                    .map(|o| Value::Choice(o.value))
                    .ok_or_else(|| {
                        let names: Vec<&str> = options.iter().map(|o| o.value).collect();
                        Error::Parameter(format!(
                            "unknown {name} '{text}' (use {})",
                            names.join(", ")
                        ))
                    })
            }
            Kind::Flag => match text {
                "1" | "true" | "on" => Ok(Value::Flag(true)),
                "0" | "false" | "off" => Ok(Value::Flag(false)),
                _ => Err(Error::Parameter(format!("{name} must be 0 or 1"))),
            },
            // Read with any γ, degree and coef0: bases written bare take whatever valid
            // values the sliders hold when the kernel is built, so only the text can be wrong.
            Kind::Expression => {
                Composition::parse(text, ANY_PANEL).map(|_| Value::Text(text.into()))
            }
        }
    }

    /// The default value.
    pub fn default_value(&self) -> Value {
        self.parse(self.default)
            .expect("every default in the table is valid")
    }
}

/// One checked value per row of [`PARAMS`].
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    values: BTreeMap<&'static str, Value>,
}

impl Default for Values {
    fn default() -> Self {
        Values {
            values: PARAMS.iter().map(|p| (p.key, p.default_value())).collect(),
        }
    }
}

impl Values {
    /// Sets `key` from its text, checked against its row; on error nothing changes.
    ///
    /// A kernel given as an expression (`kernel=rbf*linear`, `--kernel 'rbf + 1'`) is the kernel
    /// built by rule with that expression.
    pub fn set(&mut self, key: &str, text: &str) -> Result<Effect, Error> {
        let row = param(key).ok_or_else(|| Error::Parameter(format!("unknown setting '{key}'")))?;
        let value = match row.parse(text) {
            Ok(value) => value,
            Err(unknown) if key == "kernel" => {
                let expression = param(EXPRESSION_KEY)
                    .expect("the table has the expression's row")
                    .parse(text);
                match expression {
                    Ok(expression) => {
                        self.values.insert(EXPRESSION_KEY, expression);
                        Value::Choice("composed")
                    }
                    // A word alone is a kernel's name mistyped, and so is text no expression
                    // could hold; anything else, an expression with its fault named.
                    Err(e) if looks_like_an_expression(text) => return Err(e),
                    Err(_) => return Err(unknown),
                }
            }
            Err(e) => return Err(e),
        };
        self.values.insert(row.key, value);
        Ok(row.effect)
    }

    /// The text of a setting typed as text (a kernel's expression).
    pub fn expression(&self, key: &str) -> &str {
        match self.get(key) {
            Value::Text(text) => text,
            other => panic!("'{key}' is not typed text: {other:?}"),
        }
    }

    /// The value of `key` as written in the URL.
    pub fn text(&self, key: &str) -> Option<String> {
        self.values.get(key).map(Value::text)
    }

    fn get(&self, key: &str) -> &Value {
        self.values
            .get(key)
            .unwrap_or_else(|| panic!("'{key}' is not a row of the parameter table"))
    }

    /// A real-valued setting (log sliders and sliders).
    pub fn real(&self, key: &str) -> f64 {
        match self.get(key) {
            Value::Real(v) => *v,
            Value::Whole(v) => *v as f64,
            other => panic!("'{key}' is not a number: {other:?}"),
        }
    }

    /// A whole-number setting.
    pub fn whole(&self, key: &str) -> u64 {
        match self.get(key) {
            Value::Whole(v) => *v,
            other => panic!("'{key}' is not a whole number: {other:?}"),
        }
    }

    /// The chosen option of a choice.
    pub fn choice(&self, key: &str) -> &'static str {
        match self.get(key) {
            Value::Choice(v) => v,
            other => panic!("'{key}' is not a choice: {other:?}"),
        }
    }

    pub fn flag(&self, key: &str) -> bool {
        match self.get(key) {
            Value::Flag(v) => *v,
            other => panic!("'{key}' is not a flag: {other:?}"),
        }
    }

    /// Whether row `param` matters for a method that uses the keys `uses`.
    pub fn enabled(&self, param: &Param, uses: &[&str]) -> bool {
        let relevant: Vec<_> = param
            .enabled_by
            .iter()
            .filter(|(key, _)| uses.contains(key))
            .collect();
        relevant.is_empty()
            || relevant
                .iter()
                .any(|(key, values)| self.text(key).is_some_and(|v| values.contains(&v.as_str())))
    }

    /// The notes' other name for a setting, shown beside its readout: for γ of a Gaussian
    /// (RBF) kernel or feature map, the bandwidth σ of exp(−‖x − z‖²/2σ²) = exp(−γ‖x − z‖²),
    /// σ = 1/√(2γ). `None` where the method (reading the keys `uses`) has no such kernel.
    pub fn also_written(&self, key: &str, uses: &[&str]) -> Option<String> {
        if self.shown_as(key, uses).is_some() {
            // The slider moves σ: beside it, the γ it sets.
            return Some(format!("γ = {}", four_digits(self.real(key))));
        }
        let gaussian = self.gaussian(uses);
        (key == "gamma" && gaussian && uses.contains(&"gamma")).then(|| {
            let sigma = 1.0 / (2.0 * self.real("gamma")).sqrt();
            format!("σ = {}", four_digits(sigma))
        })
    }
}

/// A setting the page shows in other units than it is kept in (γ of a Gaussian kernel as its
/// bandwidth σ): the word for it, and its slider's range in log₁₀ of those units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ShownAs {
    pub label: &'static str,
    pub lo: f64,
    pub hi: f64,
}

impl Values {
    /// Whether the method (reading the keys `uses`) has a Gaussian kernel or feature map.
    fn gaussian(&self, uses: &[&str]) -> bool {
        ["kernel", "features"]
            .iter()
            .any(|k| uses.contains(k) && self.text(k).as_deref() == Some("rbf"))
    }

    /// How the page shows setting `key`, when not as itself: γ as the bandwidth σ of
    /// exp(−‖x − z‖²/2σ²), σ = 1/√(2γ), while [`BANDWIDTH_KEY`] says so and the kernel is
    /// Gaussian. The slider keeps γ's range: log₁₀σ = −½ log₁₀(2γ), so γ from 10^lo to
    /// 10^hi is σ from 10^(−(hi + log₁₀2)/2) to 10^(−(lo + log₁₀2)/2), widened to whole
    /// hundredths (the slider's steps start at its low end, and σ = 1 is a step).
    pub fn shown_as(&self, key: &str, uses: &[&str]) -> Option<ShownAs> {
        let Kind::LogSlider { lo, hi } = param(key)?.kind else {
            return None;
        };
        let sigma = key == "gamma"
            && uses.contains(&BANDWIDTH_KEY)
            && self.gaussian(uses)
            && self.choice(BANDWIDTH_KEY) == "sigma";
        sigma.then(|| ShownAs {
            label: "σ",
            lo: (-(hi + 2f64.log10()) / 2.0 * 100.0).floor() / 100.0,
            hi: (-(lo + 2f64.log10()) / 2.0 * 100.0).ceil() / 100.0,
        })
    }

    /// Setting `key` in the units the page shows it in ([`Values::shown_as`]): σ = 1/√(2γ),
    /// as a number's shortest text; the setting's own text when it is shown as itself.
    pub fn shown(&self, key: &str, uses: &[&str]) -> Option<String> {
        match self.shown_as(key, uses) {
            Some(_) => Some((1.0 / (2.0 * self.real(key)).sqrt()).to_string()),
            None => self.text(key),
        }
    }

    /// The text of setting `key` for `text` given in the units the page shows it in: γ =
    /// 1/(2σ²) for a bandwidth σ (a positive finite number whose γ is one too).
    pub fn setting_from_shown(
        &self,
        key: &str,
        uses: &[&str],
        text: &str,
    ) -> Result<String, Error> {
        let Some(shown) = self.shown_as(key, uses) else {
            return Ok(text.trim().to_string());
        };
        let sigma: f64 = text
            .trim()
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s > 0.0)
            .ok_or_else(|| {
                Error::Parameter(format!(
                    "{}: '{}' is not a positive number",
                    shown.label,
                    text.trim()
                ))
            })?;
        let gamma = 1.0 / (2.0 * sigma * sigma);
        if !(gamma.is_finite() && gamma > 0.0) {
            return Err(Error::Parameter(format!(
                "{} = {sigma} gives γ = 1/(2σ²) = {gamma}, which is not a positive finite number",
                shown.label
            )));
        }
        Ok(gamma.to_string())
    }
}

/// A value to four significant digits, without trailing zeros (0.5, 1.581, 2.236e-4).
fn four_digits(v: f64) -> String {
    if v != 0.0 && !(1e-3..1e5).contains(&v.abs()) {
        return format!("{v:.3e}");
    }
    let digits = (3 - v.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{v:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_defaults_valid() {
        let mut keys: Vec<&str> = PARAMS.iter().map(|p| p.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), PARAMS.len());
        for p in PARAMS {
            assert!(p.parse(p.default).is_ok(), "{}", p.key);
            for (key, _) in p.enabled_by {
                assert!(param(key).is_some(), "{} depends on unknown {key}", p.key);
            }
        }
    }

    #[test]
    fn every_control_and_kernel_explains_itself() {
        for p in PARAMS.iter().filter(|p| p.group != Group::Hidden) {
            assert!(p.explain.ends_with('.'), "{}: '{}'", p.key, p.explain);
        }
        let Kind::Choice { options } = param("kernel").unwrap().kind else {
            panic!("the kernel is a choice")
        };
        for o in options {
            assert!(o.explain.ends_with('.'), "kernel {}", o.value);
        }
    }

    #[test]
    fn values_are_checked_against_their_rows() {
        let mut v = Values::default();
        assert_eq!(v.set("C", "0").unwrap_err().to_string(), "C <= 0");
        assert!(v.set("C", "inf").is_err());
        assert!(v.set("degree", "11").is_err());
        assert!(v
            .set("kernel", "cubic")
            .unwrap_err()
            .to_string()
            .contains("use linear, poly"));
        assert!(v.set("noise", "3").is_err());
        assert!(v.set("bogus", "1").is_err());
        assert_eq!(v, Values::default(), "refused values change nothing");
        assert_eq!(v.set("kernel", "polynomial").unwrap(), Effect::Refit);
        assert_eq!(v.choice("kernel"), "poly");
        assert_eq!(v.set("seed", "12").unwrap(), Effect::Regenerate);
        assert_eq!(v.set("slack", "0").unwrap(), Effect::Redraw);
        assert!(!v.flag("slack"));
    }

    #[test]
    fn enabling_follows_the_method_keys() {
        let mut v = Values::default();
        let gamma = param("gamma").unwrap();
        v.set("kernel", "linear").unwrap();
        assert!(!v.enabled(gamma, &["kernel", "gamma"]));
        v.set("features", "rbf").unwrap();
        // A method using features (not kernel) sees γ through its features.
        assert!(v.enabled(gamma, &["features", "gamma"]));
        assert!(!v.enabled(gamma, &["kernel", "gamma"]));
        assert!(v.enabled(param("k").unwrap(), &["k"]));
    }

    #[test]
    fn gamma_is_also_written_as_the_bandwidth_sigma() {
        let svm = ["kernel", "C", "gamma"];
        let mut v = Values::default();
        // γ = 2 is σ = ½; γ = 1/(2·3²) is σ = 3.
        v.set("gamma", "2").unwrap();
        assert_eq!(v.also_written("gamma", &svm).as_deref(), Some("σ = 0.5"));
        v.set("gamma", &(1.0 / 18.0).to_string()).unwrap();
        assert_eq!(v.also_written("gamma", &svm).as_deref(), Some("σ = 3"));
        v.set("gamma", "0.2").unwrap();
        assert_eq!(v.also_written("gamma", &svm).as_deref(), Some("σ = 1.581"));
        assert_eq!(v.also_written("C", &svm), None);
        // Not for the polynomial kernel, nor for a method that reads no γ.
        v.set("kernel", "poly").unwrap();
        assert_eq!(v.also_written("gamma", &svm), None);
        v.set("features", "rbf").unwrap();
        assert_eq!(
            v.also_written("gamma", &["features", "lambda", "gamma"])
                .as_deref(),
            Some("σ = 1.581")
        );
        assert_eq!(v.also_written("gamma", &["k"]), None);
    }

    /// With the slider in σ, a typed σ sets γ = 1/(2σ²) and γ is shown as σ = 1/√(2γ); the
    /// slider's range is γ's, in σ; with another kernel, or without the choice, γ is itself.
    #[test]
    fn the_rbf_slider_may_move_the_bandwidth_sigma() {
        let svm = ["kernel", "C", "gamma", BANDWIDTH_KEY];
        let mut v = Values::default();
        v.set("kernel", "rbf").unwrap();
        assert_eq!(v.shown_as("gamma", &svm), None);
        assert_eq!(v.setting_from_shown("gamma", &svm, "3").unwrap(), "3");
        v.set(BANDWIDTH_KEY, "sigma").unwrap();
        let shown = v.shown_as("gamma", &svm).unwrap();
        assert_eq!((shown.label, shown.lo, shown.hi), ("σ", -1.66, 1.35));
        assert_eq!(v.shown("gamma", &svm).as_deref(), Some("0.5"));
        assert_eq!(v.also_written("gamma", &svm).as_deref(), Some("γ = 2"));
        let gamma = v.setting_from_shown("gamma", &svm, "3").unwrap();
        assert_eq!(gamma.parse::<f64>().unwrap(), 1.0 / 18.0);
        v.set("gamma", &gamma).unwrap();
        assert_eq!(v.shown("gamma", &svm).as_deref(), Some("3"));
        // A σ that is no number, or whose γ overflows, is refused in words.
        assert!(v.setting_from_shown("gamma", &svm, "-1").is_err());
        assert!(v.setting_from_shown("gamma", &svm, "1e-300").is_err());
        // Not for the polynomial kernel, nor for a method without the choice.
        assert_eq!(v.shown_as("gamma", &["kernel", "C", "gamma"]), None);
        v.set("kernel", "poly").unwrap();
        assert_eq!(v.shown_as("gamma", &svm), None);
        assert_eq!(v.shown("gamma", &svm).as_deref(), Some(gamma.as_str()));
    }
}

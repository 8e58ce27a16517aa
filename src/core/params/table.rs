//! The parameter table, in URL order: the kernel's rows (from `kernel::rows`), then each
//! method's rows (its solver, regularisation C or λ, γ, degree, k, epochs …), the points'
//! rows (preset, n, noise, seed …) and the layers' rows (margin, slack, support vectors …),
//! and the look-up of a row by its key.

use super::row::{choice, layer_row, model_row, points_row, Effect, Group, Kind, Param};

/// The k-fold options of the `folds` row share their explanation.
const K_FOLD: &str = "The points split into k stratified parts; each part is tested once, by a \
                      model fitted to the other k − 1.";

/// The table, in URL order. (The method itself, `model`, is the lab's choice from the
/// registry, not a row here.)
pub const PARAMS: &[Param] = &[
    crate::core::kernel::rows::KERNEL,
    crate::core::kernel::rows::EXPRESSION,
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
    crate::core::kernel::rows::GAMMA,
    crate::core::kernel::rows::BANDWIDTH,
    crate::core::kernel::rows::DEGREE,
    crate::core::kernel::rows::COEF0,
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

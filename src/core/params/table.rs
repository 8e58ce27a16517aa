//! The lab's own rows, in URL order: the points' rows (preset, n, noise, seed, the held-out
//! share), the views' (the ROC threshold, the folds) and the layers' (margins, slack, support
//! vectors …). The methods' rows are declared in their own files and gathered with these into
//! the one table by `methods::table`; the kernel's are in `kernel::rows`.

use super::row::{choice, layer_row, points_row, Effect, Group, Kind, Param};

/// The k-fold options of the `folds` row share their explanation.
const K_FOLD: &str = "The points split into k stratified parts; each part is tested once, by a \
                      model fitted to the other k − 1.";

/// The lab's rows, in URL order (after the methods' rows).
pub const LAB_ROWS: &[Param] = &[
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

/// The lab's row of `key` (a layer, a view's setting or the points').
pub fn lab_row(key: &str) -> Option<&'static Param> {
    LAB_ROWS.iter().find(|p| p.key == key)
}

/// The explanation of a layer's row (empty for a key that has none): a mark that is one layer
/// is explained once, where its switch is, and its legend entry says the same.
pub fn layer_explain(key: &str) -> &'static str {
    lab_row(key).map_or("", |p| p.explain)
}

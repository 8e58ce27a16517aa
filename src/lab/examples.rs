//! The lectures' worked examples, one click away: each is a scene written as its link (the
//! points, the method and every setting exact) with a title for the menu and a one-line caption
//! of what to look at. The page lists them beside the presets and opens one as it opens a
//! shared link.
//!
//! The soft-margin examples are the classic ones with a linear kernel: three points
//! (1, 1, +1), (3, 1, +1), (3, 5, −1) with a hard margin, whose boundary is the line x₂ = 3
//! (w = (0, −½), b = 3/2, margin 1/‖w‖ = 2); then a fourth point (−1, 2, −1) and C falling from
//! ½ through 5/16 to 1/10. At C = ½ the hard-margin solution, α = (½, 0, 1/10, 2/5),
//! w = (3/5, −4/5), b = 6/5, still fits in the box (margin 1); at C = 5/16 the first point's α
//! is bound and the margin grows to 1.6 (α = (5/16, 0, 1/16, 1/4), w = (3/8, −1/2), b = 3/8);
//! at C = 1/10 every α_i = C, so w = C Σ y_i x_i = (1/5, −1/2) and the boundary has stopped
//! rotating: a smaller C only shrinks w (margin 1/‖w‖ ≈ 1.857). `tests/examples.rs` checks
//! each number.

/// One worked example.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Example {
    /// Its key (the menu's value and `--example`).
    pub id: &'static str,
    /// The menu's words.
    pub title: &'static str,
    /// What to look at, in one line.
    pub caption: &'static str,
    /// The scene, as the part of a link after `#`.
    pub link: &'static str,
}

// The classes named as the notes write them, −1 and +1 (not the lab's own "class 1", "class 2").
const THREE: &str = "points=1,1,1;3,1,1;3,5,-1&names=-1:-1;1:%2B1";
const FOUR: &str = "points=1,1,1;3,1,1;3,5,-1;-1,2,-1&names=-1:-1;1:%2B1";

/// The examples, in the order of the lecture.
pub const EXAMPLES: &[Example] = &[
    Example {
        id: "three-hard",
        title: "three points, hard margin",
        caption: "Three points, C = ∞: the boundary x₂ = 3 is midway between the classes; \
                  margin 1/‖w‖ = 2, and the point (1, 1) has α = 0.",
        link: "model=svm&kernel=linear&hard=1&tol=1e-9&THREE",
    },
    Example {
        id: "four-half",
        title: "four points, C = ½",
        caption: "A fourth point, C = ½: the hard-margin solution α = (½, 0, ⅒, ⅖) still fits \
                  in the box 0 ≤ α ≤ C, so nothing is bound; margin 1.",
        link: "model=svm&kernel=linear&C=0.5&tol=1e-9&FOUR",
    },
    Example {
        id: "four-5-16",
        title: "four points, C = 5/16",
        caption: "C = 5/16: the first point is bound (α = C, slack ξ = ¾), the boundary rotates \
                  and the margin grows to 1.6: w = (0.375, −0.5), b = 0.375.",
        link: "model=svm&kernel=linear&C=0.3125&tol=1e-9&FOUR",
    },
    Example {
        id: "four-tenth",
        title: "four points, C = 1/10",
        caption: "C = 1/10: every α is C, so w = C Σyᵢxᵢ = (0.2, −0.5); below this C the \
                  boundary stops rotating and only ‖w‖ shrinks (try the C slider).",
        link: "model=svm&kernel=linear&C=0.1&tol=1e-9&FOUR",
    },
    Example {
        id: "xor-lift",
        title: "XOR lifted by (xᵀz)²",
        caption: "No line separates XOR; the kernel (xᵀz)² maps x to (x₁², x₂², √2x₁x₂), where \
                  a plane does: turn the 3-D view.",
        link: "preset=xor&n=80&model=svm&kernel=poly&degree=2&gamma=1&coef0=0&C=10&views=lift",
    },
    Example {
        id: "ring",
        title: "a ring inside a ring",
        caption: "Concentric rings: the degree-2 kernel separates them by x₁² + x₂², a circle \
                  in the plane and a plane in the lifted space.",
        link: "preset=rings&n=120&model=svm&kernel=poly&degree=2&gamma=1&coef0=0&C=10&views=lift",
    },
    Example {
        id: "outlier",
        title: "least squares and an outlier",
        caption: "Regressing on ±1 makes far points count quadratically: least squares (left) \
                  tilts towards the outliers, logistic regression (right) does not.",
        link: "preset=outlier&n=60&model=lsq&compare=model%3Dlogistic",
    },
    Example {
        id: "perceptron-bound",
        title: "the perceptron and its mistake bound",
        caption: "Separable data: the perceptron stops after a finite number of mistakes, at \
                  most (R/γ)² (Novikoff); Step through it and compare the count with the bound.",
        link: "preset=separable&n=40&model=perceptron",
    },
    Example {
        id: "moons-overfit",
        title: "two moons: over-fitting",
        caption: "30 % held out: raise γ and C and the training accuracy climbs to 100 % while \
                  the test accuracy falls — choose them by cross-validation instead.",
        link: "preset=moons&n=100&noise=0.4&test=0.3&model=svm&kernel=rbf&C=1&gamma=2&views=curve",
    },
];

impl Example {
    /// The example's link, its points written out (the table above names them once).
    pub fn hash(&self) -> String {
        self.link.replace("THREE", THREE).replace("FOUR", FOUR)
    }
}

/// The example with this id.
pub fn example(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
}

//! The kernel's parameter rows: the kernel's name with what each kernel is, the expression of
//! one built by rule, and γ (or the bandwidth σ), the degree and coef0 with the kernels (and
//! logistic regression's feature maps) that take them. They are declared here, once, beside
//! [`super::Kernel::from_name`] which reads the same names and degree range; the parameter
//! table (`methods::table`) places them in URL order around the methods' rows.

use crate::core::params::row::{choice, model_row, Choice, Effect, Kind, Param};

/// The kernels by the names the command line, the URL and the page use (LIBSVM's short
/// names), with the words the menu shows. `poly1` is the notes' polynomial kernel
/// (1 + xᵀz)^d: LIBSVM's with γ = 1 and coef0 = 1, whatever those settings say; `composed` is
/// one built by rule from an expression ([`super::Kernel::composed`]).
pub const KERNELS: &[Choice] = &[
    choice(
        "linear",
        "linear  xᵀz",
        "K(x, z) = xᵀz: the boundary is a straight line, orthogonal to w.",
    ),
    choice(
        "poly",
        "polynomial  (γxᵀz + coef0)^degree",
        "K(x, z) = (γxᵀz + coef0)^degree: the boundary is a curve of that degree; already \
         (xᵀz)² separates XOR and a ring by a plane in the feature space (x₁², x₂², √2 x₁x₂).",
    ),
    choice(
        "poly1",
        "polynomial of the notes  (1 + xᵀz)^degree",
        "K(x, z) = (1 + xᵀz)^degree, the polynomial kernel as the lecture notes write it: \
         LIBSVM's with γ = 1 and coef0 = 1. Its features are every monomial of x₁, x₂ up to \
         that degree, so the boundary is any curve of that degree.",
    ),
    choice(
        "rbf",
        "RBF  exp(−γ‖x − z‖²)",
        "K(x, z) = exp(−γ‖x − z‖²), a Gaussian bump round each support vector, with \
         γ = 1/(2σ²): a large γ gives narrow bumps and a boundary that can wind round single \
         points.",
    ),
    choice(
        "sigmoid",
        "sigmoid  tanh(γxᵀz + coef0)",
        "K(x, z) = tanh(γxᵀz + coef0), a neural network's unit: not always a valid kernel, as \
         its Gram matrix need not be positive semi-definite.",
    ),
    choice(
        "composed",
        "built by rule  (type it)",
        "A kernel composed from the four by the rules that keep a kernel valid: sums, \
         products, positive scaling, an added constant ≥ 0, powers and exp — typed below, as \
         rbf * poly + 0.5 * linear or exp(linear)^2.",
    ),
];

/// The kernels (and feature maps) with a γ, a degree and a coef0.
pub const WITH_GAMMA: &[(&str, &[&str])] = &[
    ("kernel", &["poly", "rbf", "sigmoid", "composed"]),
    ("features", &["rbf"]),
];
/// The kernels (and feature maps) that are Gaussian, whose γ may be given as a bandwidth σ.
pub const WITH_BANDWIDTH: &[(&str, &[&str])] = &[("kernel", &["rbf"]), ("features", &["rbf"])];
/// The choice of the number the Gaussian kernel's slider moves: γ or σ = 1/√(2γ).
pub const BANDWIDTH_KEY: &str = "bandwidth";
pub const WITH_DEGREE: &[(&str, &[&str])] = &[
    ("kernel", &["poly", "poly1", "composed"]),
    ("features", &["poly"]),
];
pub const WITH_COEF0: &[(&str, &[&str])] = &[("kernel", &["poly", "sigmoid", "composed"])];
/// The expression of a kernel built by rule.
pub const WITH_EXPRESSION: &[(&str, &[&str])] = &[("kernel", &["composed"])];
/// The key of that expression.
pub const EXPRESSION_KEY: &str = "kexpr";

/// The kernel, by name.
pub const KERNEL: Param = model_row(
    "kernel",
    "kernel",
    Kind::Choice { options: KERNELS },
    "rbf",
    "The similarity K(x, z) = ⟨φ(x), φ(z)⟩ that takes the place of xᵀz, so a linear method \
     draws a curved boundary: f(x) = Σ αᵢyᵢK(xᵢ, x) + b.",
);

/// The expression of a kernel built by rule.
pub const EXPRESSION: Param = Param {
    enabled_by: WITH_EXPRESSION,
    hint: "+  *  ^  exp( )  numbers ≥ 0",
    ..model_row(
        EXPRESSION_KEY,
        "K(x, z) =",
        Kind::Expression,
        "rbf + linear",
        "The kernel built by rule: linear, poly, rbf and sigmoid combined with + (sum), \
         * (product, or scaling by a number > 0), + c (a constant ≥ 0), ^n (power) and \
         exp( ). Bare, a base takes the sliders' γ, degree and coef0; rbf(γ), \
         poly(degree, γ, coef0) and sigmoid(γ, coef0) take their own. Each rule keeps the \
         Gram matrix positive semi-definite (the Gram view's λ_min shows it on the data).",
    )
};

/// γ: the RBF's width, the scale of xᵀz in the polynomial and sigmoid kernels.
pub const GAMMA: Param = Param {
    enabled_by: WITH_GAMMA,
    ..model_row(
        "gamma",
        "γ",
        Kind::LogSlider { lo: -3.0, hi: 3.0 },
        "2",
        "The kernel's scale: in the RBF exp(−γ‖x − z‖²), γ = 1/(2σ²), so a large γ makes \
         narrow bumps and a wiggly boundary and a small γ a nearly straight one; in the \
         polynomial and sigmoid kernels it multiplies xᵀz.",
    )
};

/// Whether the Gaussian kernel's slider moves γ or σ.
pub const BANDWIDTH: Param = Param {
    more: true,
    enabled_by: WITH_BANDWIDTH,
    effect: Effect::Redraw,
    ..model_row(
        BANDWIDTH_KEY,
        "RBF slider",
        Kind::Choice {
            options: &[
                choice(
                    "gamma",
                    "γ, as LIBSVM: exp(−γ‖x − z‖²)",
                    "The slider sets γ, as LIBSVM and scikit-learn write the Gaussian kernel.",
                ),
                choice(
                    "sigma",
                    "σ, as the notes: exp(−‖x − z‖²/2σ²)",
                    "The slider sets the bandwidth σ, as the lecture notes write the Gaussian                          kernel; the model is the same, with γ = 1/(2σ²) (the link keeps γ).",
                ),
            ],
        },
        "gamma",
        "Which number the Gaussian kernel's slider moves: γ as in LIBSVM, or the bandwidth              σ of the lecture notes, γ = 1/(2σ²) — a larger σ is a wider bump and a smoother              boundary.",
    )
};

/// The polynomial kernel's (and feature map's) degree.
pub const DEGREE: Param = Param {
    enabled_by: WITH_DEGREE,
    ..model_row(
        "degree",
        "degree",
        Kind::Integer {
            min: super::MIN_DEGREE as u64,
            max: super::MAX_DEGREE as u64,
            slider_max: super::MAX_DEGREE as u64,
        },
        "3",
        "The power d of the polynomial kernel (γxᵀz + coef0)^d, or of the polynomial \
         features: the boundary is a curve of degree at most d.",
    )
};

/// The constant added to γxᵀz in the polynomial and sigmoid kernels.
pub const COEF0: Param = Param {
    more: true,
    enabled_by: WITH_COEF0,
    ..model_row(
        "coef0",
        "coef0",
        Kind::Slider {
            min: f64::NEG_INFINITY,
            max: f64::INFINITY,
            lo: -2.0,
            hi: 2.0,
            step: 0.05,
        },
        "0",
        "The constant c₀ in (γxᵀz + c₀)^d and tanh(γxᵀz + c₀): with c₀ > 0 the polynomial \
         kernel holds the lower-degree and constant features too, as (xᵀz + 1)² does.",
    )
};

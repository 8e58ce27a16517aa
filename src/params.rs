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

use crate::error::Error;
use serde::Serialize;
use std::collections::BTreeMap;

/// What a value is, with its range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Kind {
    /// A positive real shown on a slider in log₁₀ units from 10^`lo` to 10^`hi`; any positive
    /// finite value is accepted (the command line may go beyond the slider).
    LogSlider { lo: f64, hi: f64 },
    /// A real number in [`min`, `max`], on a slider from `lo` to `hi` with this step.
    Slider {
        min: f64,
        max: f64,
        lo: f64,
        hi: f64,
        step: f64,
    },
    /// A whole number in [`min`, `max`]; the slider stops at `slider_max`.
    Integer { min: u64, max: u64, slider_max: u64 },
    /// A whole number typed in a box (a seed).
    Number,
    /// One of a list of (value, label) options.
    Choice {
        #[serde(skip)]
        options: &'static [(&'static str, &'static str)],
    },
    /// On or off, written 1 or 0.
    Flag,
}

/// What changing a setting asks of the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Refit the model.
    Refit,
    /// Regenerate the preset's points, then refit.
    Regenerate,
    /// Hold out a new set of test points, then refit.
    Resplit,
    /// Only redraw.
    Redraw,
}

/// Where a row's control sits on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// The model and its parameters.
    Model,
    /// The preset that makes the points.
    Points,
    /// What the plane shows.
    Layer,
    /// A setting of the views beside the plane (the ROC threshold).
    View,
    /// Not a control (set through the URL or the command line only).
    Hidden,
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Param {
    pub key: &'static str,
    pub label: &'static str,
    pub kind: Kind,
    /// The default, as written in the URL.
    pub default: &'static str,
    /// The row matters only when, for some (key, values) here whose key the current method
    /// uses, that key's value is one of `values`; an empty list: always.
    pub enabled_by: &'static [(&'static str, &'static [&'static str])],
    pub effect: Effect,
    pub group: Group,
    /// A few words shown beside the control.
    pub hint: &'static str,
    /// Another name for the command line's flag (besides `--key` in lower case). When it is
    /// another row's key, the row has no flag of its own and shares that row's: `--solver`
    /// sets the SVM's `svm_solver` or logistic regression's `solver`, whichever the model
    /// reads ([`Param::shares_flag_of`]).
    pub alias: &'static str,
    /// Folded under "more" on the page until asked for: a first visit sees the model, its
    /// kernel and main sliders and the preset; the solver, the multi-class scheme, the
    /// points' size and noise and the like are a click away (a link still sets them all).
    pub more: bool,
}

const KERNELS: &[(&str, &str)] = &[
    ("linear", "linear  xᵀz"),
    ("poly", "polynomial  (γxᵀz + coef0)^degree"),
    ("rbf", "RBF  exp(−γ‖x − z‖²)"),
    ("sigmoid", "sigmoid  tanh(γxᵀz + coef0)"),
];

/// The kernels (and feature maps) with a γ, a degree and a coef0.
const WITH_GAMMA: &[(&str, &[&str])] = &[
    ("kernel", &["poly", "rbf", "sigmoid"]),
    ("features", &["rbf"]),
];
const WITH_DEGREE: &[(&str, &[&str])] = &[("kernel", &["poly"]), ("features", &["poly"])];
const WITH_COEF0: &[(&str, &[&str])] = &[("kernel", &["poly", "sigmoid"])];

const fn model_row(
    key: &'static str,
    label: &'static str,
    kind: Kind,
    default: &'static str,
) -> Param {
    Param {
        key,
        label,
        kind,
        default,
        enabled_by: &[],
        effect: Effect::Refit,
        group: Group::Model,
        hint: "",
        alias: "",
        more: false,
    }
}

const fn layer_row(key: &'static str, label: &'static str, default: &'static str) -> Param {
    Param {
        key,
        label,
        kind: Kind::Flag,
        default,
        enabled_by: &[],
        effect: Effect::Redraw,
        group: Group::Layer,
        hint: "",
        alias: "",
        more: false,
    }
}

const fn points_row(
    key: &'static str,
    label: &'static str,
    kind: Kind,
    default: &'static str,
) -> Param {
    Param {
        key,
        label,
        kind,
        default,
        enabled_by: &[],
        effect: Effect::Regenerate,
        group: Group::Points,
        hint: "",
        alias: "",
        more: false,
    }
}

/// The table, in URL order. (The method itself, `model`, is the lab's choice from the
/// registry, not a row here.)
pub const PARAMS: &[Param] = &[
    model_row("kernel", "kernel", Kind::Choice { options: KERNELS }, "rbf"),
    Param {
        hint: "DCA and Pegasos: no separate bias (K + 1)",
        alias: "solver",
        more: true,
        ..model_row(
            "svm_solver",
            "solver",
            Kind::Choice {
                options: &[
                    ("smo", "SMO (with bias, LIBSVM)"),
                    ("dca", "dual coordinate ascent"),
                    ("pegasos", "Pegasos (primal SGD)"),
                ],
            },
            "smo",
        )
    },
    Param {
        more: true,
        ..model_row(
            "mc",
            "multi-class",
            Kind::Choice {
                options: &[
                    ("ovo", "one-vs-one, voting (LIBSVM)"),
                    ("ovr", "one-vs-rest"),
                ],
            },
            "ovo",
        )
    },
    model_row(
        "features",
        "features",
        Kind::Choice {
            options: &[
                ("linear", "linear  (x₁, x₂)"),
                ("poly", "polynomial up to degree"),
                ("rbf", "RBF bumps  exp(−γ‖x − c‖²)"),
            ],
        },
        "poly",
    ),
    Param {
        hint: "z = (x − μ)/σ per feature",
        more: true,
        ..model_row("std", "standardise", Kind::Flag, "0")
    },
    Param {
        enabled_by: &[("hard", &["0"])],
        ..model_row("C", "C", Kind::LogSlider { lo: -3.0, hi: 4.0 }, "1")
    },
    Param {
        hint: "C = ∞",
        more: true,
        ..model_row("hard", "hard margin", Kind::Flag, "0")
    },
    model_row("lambda", "λ", Kind::LogSlider { lo: -4.0, hi: 2.0 }, "0.01"),
    Param {
        enabled_by: WITH_GAMMA,
        ..model_row("gamma", "γ", Kind::LogSlider { lo: -3.0, hi: 3.0 }, "2")
    },
    Param {
        enabled_by: WITH_DEGREE,
        ..model_row(
            "degree",
            "degree",
            Kind::Integer {
                min: 1,
                max: 10,
                slider_max: 10,
            },
            "3",
        )
    },
    Param {
        enabled_by: WITH_COEF0,
        more: true,
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
        )
    },
    Param {
        group: Group::Hidden,
        ..model_row(
            "tol",
            "tolerance",
            Kind::LogSlider { lo: -6.0, hi: -1.0 },
            "0.001",
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
        )
    },
    Param {
        more: true,
        ..model_row(
            "solver",
            "solver",
            Kind::Choice {
                options: &[("newton", "Newton (IRLS)"), ("gd", "gradient descent")],
            },
            "newton",
        )
    },
    Param {
        enabled_by: &[("solver", &["gd"])],
        alias: "learning-rate",
        more: true,
        ..model_row(
            "lr",
            "learning rate",
            Kind::LogSlider { lo: -3.0, hi: 2.0 },
            "4",
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
    ),
    Param {
        more: true,
        ..model_row(
            "metric",
            "metric",
            Kind::Choice {
                options: &[
                    ("euclidean", "Euclidean  ‖x − z‖₂"),
                    ("manhattan", "Manhattan  ‖x − z‖₁"),
                    ("chebyshev", "Chebyshev  ‖x − z‖∞"),
                ],
            },
            "euclidean",
        )
    },
    Param {
        more: true,
        ..model_row(
            "weights",
            "weights",
            Kind::Choice {
                options: &[("uniform", "uniform"), ("distance", "by inverse distance")],
            },
            "uniform",
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
        )
    },
    points_row(
        "preset",
        "preset",
        Kind::Choice {
            options: &[
                ("separable", "separable blobs"),
                ("overlapping", "overlapping blobs"),
                ("xor", "XOR"),
                ("rings", "concentric rings"),
                ("moons", "two moons"),
                ("blobs3", "three blobs (3 classes)"),
                ("spiral3", "3-arm spiral (3 classes)"),
                ("outlier", "outlier (least squares fails)"),
            ],
        },
        "moons",
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
        )
    },
    Param {
        more: true,
        ..points_row("seed", "seed", Kind::Number, "1")
    },
    Param {
        effect: Effect::Resplit,
        hint: "held out, stratified",
        more: true,
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
        alias: "",
        more: false,
    },
    Param {
        key: "folds",
        label: "folds",
        kind: Kind::Choice {
            options: &[
                ("3", "3-fold"),
                ("5", "5-fold"),
                ("10", "10-fold"),
                ("20", "20-fold"),
                ("loo", "leave-one-out"),
                ("5x2", "5 × 2-fold"),
            ],
        },
        default: "5",
        enabled_by: &[],
        effect: Effect::Redraw,
        group: Group::View,
        hint: "stratified, seeded",
        alias: "",
        more: false,
    },
    layer_row("regions", "decision regions", "1"),
    layer_row("margins", "margins f = ±1 / contours p", "1"),
    layer_row("sv", "support vectors", "1"),
    layer_row("slack", "slack ξ", "1"),
    layer_row("w", "w arrow", "1"),
    layer_row("pair", "SMO sub-problem inset (stepping)", "1"),
    layer_row("vor", "Voronoi cells (k = 1)", "1"),
    layer_row("del", "Delaunay triangulation", "0"),
    layer_row("pairs", "pairwise boundaries (3+ classes)", "0"),
];

/// The row of `key`.
pub fn param(key: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.key == key)
}

impl Param {
    /// The row whose command-line flag this row shares (its alias is that row's key).
    pub fn shares_flag_of(&self) -> Option<&'static Param> {
        param(self.alias).filter(|other| other.key != self.key)
    }
}

/// A checked value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Real(f64),
    Whole(u64),
    Choice(&'static str),
    Flag(bool),
}

impl Value {
    /// As written in the URL (shortest text that reads back to the same number).
    pub fn text(&self) -> String {
        match self {
            Value::Real(v) => v.to_string(),
            Value::Whole(v) => v.to_string(),
            Value::Choice(v) => v.to_string(),
            Value::Flag(on) => if *on { "1" } else { "0" }.to_string(),
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
                    .find(|(value, _)| *value == text)
                    .map(|(value, _)| Value::Choice(value))
                    .ok_or_else(|| {
                        let names: Vec<&str> = options.iter().map(|o| o.0).collect();
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
    pub fn set(&mut self, key: &str, text: &str) -> Result<Effect, Error> {
        let row = param(key).ok_or_else(|| Error::Parameter(format!("unknown setting '{key}'")))?;
        let value = row.parse(text)?;
        self.values.insert(row.key, value);
        Ok(row.effect)
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
}

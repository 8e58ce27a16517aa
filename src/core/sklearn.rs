//! A method's counterpart in scikit-learn, as data: the estimator that fits the model the lab
//! fits with the same settings, how each setting maps onto its arguments, and how far the two
//! can be expected to agree. Each method declares its own (`Method::sklearn`, in the model
//! layer), so nothing else names a method; the Python export (the `python` module, with the
//! drawing) wraps it as the registry wraps the method (a `StandardScaler` in front when the
//! lab standardises, a one-vs-rest or one-vs-one wrapper for more classes) and writes it out
//! as a script.
//!
//! How close the script comes to the lab ([`Agreement`]):
//! - *same*: the estimator minimises the same objective, or computes the same closed form, on
//!   the same points, so it predicts what the lab predicts everywhere except within the
//!   solvers' tolerances of the boundary (and, for neighbours, where distances tie);
//! - *near*: the same problem, but the lab's run stops elsewhere (Pegasos' fixed number of
//!   stochastic steps, gradient descent cut short) or breaks ties between votes otherwise;
//! - *missing*: scikit-learn has no such estimator; the script says so and shows the points.

use crate::core::kernel::rules::{Base, Step};
use crate::core::kernel::{Composition, PanelParams};
use crate::core::params::{Values, EXPRESSION_KEY};

/// A keyword argument's value, written as Python.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Float(f64),
    Int(i64),
    Text(&'static str),
    Bool(bool),
    None,
    /// A Python expression written out, such as `1 / 0.01` (C = 1/λ, with λ in sight).
    Expression(String),
    Estimator(Box<Estimator>),
    /// Estimators one after the other, `make_pipeline(a, b)` (one alone is itself).
    Pipeline(Vec<Estimator>),
}

impl From<f64> for Arg {
    fn from(v: f64) -> Arg {
        Arg::Float(v)
    }
}

impl From<u64> for Arg {
    fn from(v: u64) -> Arg {
        Arg::Int(v.try_into().unwrap_or(i64::MAX))
    }
}

impl From<&'static str> for Arg {
    fn from(v: &'static str) -> Arg {
        Arg::Text(v)
    }
}

impl From<bool> for Arg {
    fn from(v: bool) -> Arg {
        Arg::Bool(v)
    }
}

impl From<Estimator> for Arg {
    fn from(v: Estimator) -> Arg {
        Arg::Estimator(Box::new(v))
    }
}

impl Arg {
    /// As Python source.
    pub fn python(&self) -> String {
        match self {
            Arg::Float(v) => python_float(*v),
            Arg::Int(v) => v.to_string(),
            Arg::Text(v) => python_str(v),
            Arg::Bool(v) => if *v { "True" } else { "False" }.to_string(),
            Arg::None => "None".to_string(),
            Arg::Expression(v) => v.clone(),
            Arg::Estimator(e) => e.python(),
            Arg::Pipeline(steps) => pipeline(steps),
        }
    }
}

/// `steps` as one Python expression: `make_pipeline(a, b)`, or the one step itself.
pub fn pipeline(steps: &[Estimator]) -> String {
    match steps {
        [one] => one.python(),
        _ => {
            let inner: Vec<String> = steps.iter().map(Estimator::python).collect();
            format!("make_pipeline({})", inner.join(", "))
        }
    }
}

/// A Python string literal of `text`, in double quotes: backslashes, quotes and control
/// characters escaped, everything else as it is (Python reads its source as UTF-8).
pub fn python_str(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A float as a Python literal that reads back as the same f64: Rust's shortest round-trip
/// form with a decimal point or an exponent (`1.0`, `0.001`, `1e-7`), `float("inf")` for ∞.
pub fn python_float(v: f64) -> String {
    if v.is_nan() {
        "float(\"nan\")".to_string()
    } else if v.is_infinite() {
        if v > 0.0 {
            "float(\"inf\")"
        } else {
            "-float(\"inf\")"
        }
        .to_string()
    } else {
        format!("{v:?}")
    }
}

/// Classes the script defines itself, where scikit-learn has the pieces but not the whole;
/// the Python export writes their code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Helper {
    /// A transformer to RBF bumps φⱼ(x) = exp(−γ‖x − cⱼ‖²), the centres cⱼ every ⌈n/100⌉-th
    /// training point in order: logistic regression's RBF features.
    RbfBumps,
    /// A regressor as a classifier: targets t = +1 for a class and −1 for the others (one
    /// column per class; for two classes one, +1 for the larger label), the prediction the
    /// class of the largest f (for two classes the larger label where f > 0): kernel ridge
    /// as the lab classifies with it.
    SignOfRegression,
}

impl Helper {
    /// Its class name in the script.
    pub fn class(self) -> &'static str {
        match self {
            Helper::RbfBumps => "RbfBumps",
            Helper::SignOfRegression => "SignOfRegression",
        }
    }
}

/// Where an estimator's class comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A scikit-learn module (`sklearn.svm`).
    Module(&'static str),
    /// The script's own class.
    Script(Helper),
}

/// An estimator: its class and keyword arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimator {
    pub source: Source,
    pub class: &'static str,
    pub args: Vec<(&'static str, Arg)>,
}

impl Estimator {
    /// The class `class` of scikit-learn's module `module`.
    pub fn sklearn(module: &'static str, class: &'static str) -> Estimator {
        Estimator {
            source: Source::Module(module),
            class,
            args: Vec::new(),
        }
    }

    /// One of the script's own classes.
    pub fn helper(helper: Helper) -> Estimator {
        Estimator {
            source: Source::Script(helper),
            class: helper.class(),
            args: Vec::new(),
        }
    }

    /// With the keyword argument `name=value`.
    pub fn arg(mut self, name: &'static str, value: impl Into<Arg>) -> Estimator {
        self.args.push((name, value.into()));
        self
    }

    /// As a Python expression: `SVC(kernel="rbf", C=1.0)`.
    pub fn python(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|(name, value)| format!("{name}={}", value.python()))
            .collect();
        format!("{}({})", self.class, args.join(", "))
    }

    /// Where its class and those of the estimators among its arguments come from, with their
    /// names, outermost first.
    pub fn sources(&self) -> Vec<(Source, &'static str)> {
        let mut out = vec![(self.source, self.class)];
        for (_, arg) in &self.args {
            match arg {
                Arg::Estimator(inner) => out.extend(inner.sources()),
                Arg::Pipeline(steps) => out.extend(steps.iter().flat_map(Estimator::sources)),
                _ => {}
            }
        }
        out
    }
}

/// How an estimator tells more than two classes apart by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Multiclass {
    /// One classifier per pair of classes and a vote, ties to the smaller class (LIBSVM's).
    OneVsOne,
    /// One classifier per class against the rest, the largest decision value winning.
    OneVsRest,
    /// Some other way (a multinomial model): the lab's schemes need a wrapper.
    Otherwise,
}

/// How far the script's predictions can be expected to follow the lab's (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub enum Agreement {
    Same,
    /// The same problem solved elsewhere; why, in a sentence.
    Near(String),
    /// scikit-learn has none; what it lacks and what comes nearest, in a sentence or two.
    Missing(String),
}

/// A method's counterpart with given settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Counterpart {
    /// The steps of its pipeline, the classifier last; empty when it is missing.
    pub steps: Vec<Estimator>,
    pub multiclass: Multiclass,
    /// How each setting the method reads maps onto the arguments: (the setting's key, a
    /// sentence); the key is empty for a remark about the method as a whole.
    pub mapping: Vec<(&'static str, String)>,
    pub agreement: Agreement,
}

impl Counterpart {
    /// The pipeline `steps`, which fits what the lab fits.
    pub fn same(steps: Vec<Estimator>, multiclass: Multiclass) -> Counterpart {
        Counterpart {
            steps,
            multiclass,
            mapping: Vec::new(),
            agreement: Agreement::Same,
        }
    }

    /// None in scikit-learn: `why`.
    pub fn missing(why: impl Into<String>) -> Counterpart {
        Counterpart {
            steps: Vec::new(),
            multiclass: Multiclass::Otherwise,
            mapping: Vec::new(),
            agreement: Agreement::Missing(why.into()),
        }
    }

    /// The same problem, which the lab's run leaves elsewhere: `why`.
    pub fn near(mut self, why: impl Into<String>) -> Counterpart {
        if self.agreement == Agreement::Same {
            self.agreement = Agreement::Near(why.into());
        }
        self
    }

    /// With the mapping of setting `key` (empty: a remark) said in `line`.
    pub fn map(mut self, key: &'static str, line: impl Into<String>) -> Counterpart {
        self.mapping.push((key, line.into()));
        self
    }

    /// With several mapping lines.
    pub fn map_all(mut self, lines: Vec<(&'static str, String)>) -> Counterpart {
        self.mapping.extend(lines);
        self
    }
}

/// The mapping line of LIBSVM's stopping tolerance, which the lab's solvers share.
pub fn libsvm_tol(values: &Values) -> (&'static str, String) {
    (
        "tol",
        format!(
            "{} → tol={}: LIBSVM's stopping tolerance, as the lab's",
            shown(values, "tol"),
            crate::core::sklearn::python_float(values.real("tol"))
        ),
    )
}

/// `KernelRidge(alpha=λ)` with the lab's kernel, and the mapping of λ and the kernel: kernel
/// ridge regression, the classifier's regressor as well as a method of its own.
pub fn kernel_ridge(values: &Values, uses: &[&str]) -> (Estimator, Vec<(&'static str, String)>) {
    let lambda = values.real("lambda");
    let ridge = Estimator::sklearn("sklearn.kernel_ridge", "KernelRidge").arg("alpha", lambda);
    let (ridge, mut lines) = kernel_args(ridge, values, uses);
    lines.insert(
        0,
        (
            "lambda",
            format!(
                "{} → alpha={}: β = (K + λI)⁻¹t, f(x) = Σ βⱼK(xⱼ, x), no intercept in either",
                shown(values, "lambda"),
                python_float(lambda)
            ),
        ),
    );
    (ridge, lines)
}

/// A setting as the lab shows it, `label = value` (`C = 1`, `kernel = rbf`, `γ = 2`).
pub fn shown(values: &Values, key: &str) -> String {
    // A label that ends in '=' (the expression's `K(x, z) =`) takes no second one.
    let label = values
        .row(key)
        .map_or(key, |row| row.label.trim_end_matches([' ', '=']));
    format!("{label} = {}", values.text(key).unwrap_or_default())
}

/// The kernel's arguments as LIBSVM, `SVC` and `KernelRidge` take them — the same formulas as
/// the lab's (linear xᵀz, polynomial (γxᵀz + coef0)^degree, RBF exp(−γ‖x − z‖²), sigmoid
/// tanh(γxᵀz + coef0)) — every one passed, since the defaults differ (`SVC`'s gamma is
/// `"scale"`, `KernelRidge`'s coef0 is 1); and their mapping lines. `uses` are the method's
/// parameter keys, to say which a kernel leaves unused.
pub fn kernel_args(
    estimator: Estimator,
    values: &Values,
    uses: &[&str],
) -> (Estimator, Vec<(&'static str, String)>) {
    let unused = |key: &str| {
        if values
            .row(key)
            .is_some_and(|row| !values.enabled(row, uses))
        {
            "; this kernel does not use it"
        } else {
            ""
        }
    };
    let chosen = values.choice("kernel");
    // The notes' (1 + xᵀz)^d is LIBSVM's polynomial with γ = 1 and coef0 = 1.
    let notes = chosen == "poly1";
    let (gamma, coef0) = if notes {
        (1.0, 1.0)
    } else {
        (values.real("gamma"), values.real("coef0"))
    };
    let composed = composed_kernel(values);
    let kernel = match &composed {
        Some((python, _)) => Arg::Expression(python.clone()),
        None if notes => Arg::Text("poly"),
        None => Arg::Text(chosen),
    };
    let estimator = estimator
        .arg("kernel", kernel.clone())
        .arg("gamma", gamma)
        .arg("degree", values.whole("degree"))
        .arg("coef0", coef0);
    let formula = match chosen {
        "linear" => "xᵀz",
        "poly" => "(γxᵀz + coef0)^degree",
        "poly1" => "(1 + xᵀz)^degree",
        "rbf" => "exp(−γ‖x − z‖²)",
        _ => "tanh(γxᵀz + coef0)",
    };
    let expression_line = match &composed {
        Some((_, written)) => format!(
            "{} → kernel=a function of two arrays of points: K(x, z) = {written}, built by the \
             same rules from LIBSVM's formulas",
            shown(values, EXPRESSION_KEY)
        ),
        None => format!(
            "{}: not used, the kernel is named",
            shown(values, EXPRESSION_KEY)
        ),
    };
    let kernel_line = match &composed {
        Some(_) => format!(
            "{} → kernel=the function below (gamma, degree and coef0 are the bare kernels' own)",
            shown(values, "kernel")
        ),
        None if notes => format!(
            "{} → kernel=\"poly\" with gamma=1.0 and coef0=1.0: K(x, z) = {formula} in both",
            shown(values, "kernel"),
        ),
        None => format!(
            "{} → kernel={}: K(x, z) = {formula} in both (LIBSVM's formulas)",
            shown(values, "kernel"),
            kernel.python()
        ),
    };
    let lines = vec![
        ("kernel", kernel_line),
        (EXPRESSION_KEY, expression_line),
        (
            "gamma",
            format!(
                "{} → gamma={}, a number (scikit-learn's default \"scale\" is not the lab's){}",
                shown(values, "gamma"),
                python_float(values.real("gamma")),
                unused("gamma")
            ),
        ),
        (
            "degree",
            format!(
                "{} → degree={}{}",
                shown(values, "degree"),
                values.whole("degree"),
                unused("degree")
            ),
        ),
        (
            "coef0",
            format!(
                "{} → coef0={}{}",
                shown(values, "coef0"),
                python_float(values.real("coef0")),
                unused("coef0")
            ),
        ),
    ];
    (estimator, lines)
}

/// For a kernel built by rule: a Python function of two arrays of points (or of two points,
/// as `KernelRidge` calls it) that computes the same composition with NumPy, and the
/// composition written out in full. `None` for a named kernel or one that does not read.
fn composed_kernel(values: &Values) -> Option<(String, String)> {
    if values.choice("kernel") != "composed" {
        return None;
    }
    let panel = PanelParams {
        gamma: values.real("gamma"),
        degree: values.whole("degree") as u32,
        coef0: values.real("coef0"),
    };
    let composition = Composition::parse(values.expression(EXPRESSION_KEY), panel).ok()?;
    let mut stack: Vec<String> = Vec::new();
    for step in composition.postfix() {
        let code = match step {
            Step::Base(Base::Linear) => "(A @ B.T)".to_string(),
            Step::Base(Base::Polynomial {
                gamma,
                degree,
                coef0,
            }) => format!(
                "({} * (A @ B.T) + {}) ** {degree}",
                python_float(gamma),
                python_float(coef0)
            ),
            Step::Base(Base::Rbf { gamma }) => format!(
                "np.exp(-{} * ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1))",
                python_float(gamma)
            ),
            Step::Base(Base::Sigmoid { gamma, coef0 }) => format!(
                "np.tanh({} * (A @ B.T) + {})",
                python_float(gamma),
                python_float(coef0)
            ),
            Step::Constant(c) => python_float(c),
            Step::Add | Step::Multiply => {
                let b = stack.pop()?;
                let a = stack.pop()?;
                let op = if step == Step::Add { "+" } else { "*" };
                format!("({a} {op} {b})")
            }
            Step::Power(n) => format!("({}) ** {n}", stack.pop()?),
            Step::Exp => format!("np.exp({})", stack.pop()?),
        };
        stack.push(code);
    }
    let body = stack.pop()?;
    // SVC calls it with two arrays of points; KernelRidge, point by point.
    let python = format!(
        "lambda X, Z: (lambda K: K if np.ndim(X) == 2 else K[0, 0])(\
         (lambda A, B: {body})(np.atleast_2d(X), np.atleast_2d(Z)))"
    );
    Some((python, composition.written()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_read_back_in_python_as_the_same_number() {
        assert_eq!(python_float(1.0), "1.0");
        assert_eq!(python_float(0.001), "0.001");
        assert_eq!(python_float(1e-7), "1e-7");
        assert_eq!(python_float(2.5e20), "2.5e20");
        assert_eq!(python_float(-0.0), "-0.0");
        assert_eq!(python_float(f64::INFINITY), "float(\"inf\")");
        let v = 0.1 + 0.2;
        assert_eq!(python_float(v).parse::<f64>().unwrap(), v);
    }

    /// A setting in a script's comments reads `label = value`, with one '=' also where the
    /// label ends in one (the kernel expression's `K(x, z) =`).
    #[test]
    fn a_setting_is_shown_with_one_equals_sign() {
        let values = crate::methods::table::defaults();
        assert_eq!(shown(&values, "C"), "C = 1");
        let expression = shown(&values, EXPRESSION_KEY);
        assert!(
            expression.starts_with("K(x, z) = ") && !expression.contains("= ="),
            "{expression}"
        );
    }

    #[test]
    fn strings_are_quoted_for_python() {
        assert_eq!(python_str("setosa"), "\"setosa\"");
        assert_eq!(python_str("a \"b\"\\c"), "\"a \\\"b\\\"\\\\c\"");
        assert_eq!(python_str("σ\n\u{7}"), "\"σ\\n\\u0007\"");
    }

    #[test]
    fn estimators_write_themselves_as_python() {
        let inner = Estimator::sklearn("sklearn.kernel_ridge", "KernelRidge")
            .arg("alpha", 0.5)
            .arg("kernel", "rbf");
        let outer = Estimator::helper(Helper::SignOfRegression)
            .arg("regressor", inner)
            .arg("fit_intercept", true)
            .arg("tol", Arg::None)
            .arg("C", Arg::Expression("1 / 0.01".into()))
            .arg("max_iter", 100_u64);
        assert_eq!(
            outer.python(),
            "SignOfRegression(regressor=KernelRidge(alpha=0.5, kernel=\"rbf\"), \
             fit_intercept=True, tol=None, C=1 / 0.01, max_iter=100)"
        );
        assert_eq!(
            outer.sources(),
            vec![
                (Source::Script(Helper::SignOfRegression), "SignOfRegression"),
                (Source::Module("sklearn.kernel_ridge"), "KernelRidge"),
            ]
        );
    }

    #[test]
    fn kernel_arguments_say_which_the_kernel_leaves_unused() {
        let mut values = crate::methods::table::defaults();
        values.set("kernel", "rbf").unwrap();
        let uses = ["kernel", "gamma", "degree", "coef0"];
        let (svc, lines) = kernel_args(Estimator::sklearn("sklearn.svm", "SVC"), &values, &uses);
        assert_eq!(
            svc.python(),
            "SVC(kernel=\"rbf\", gamma=2.0, degree=3, coef0=0.0)"
        );
        let line = |key| &lines.iter().find(|(k, _)| *k == key).unwrap().1;
        assert!(!line("gamma").contains("does not use"));
        assert!(
            line("degree").contains("does not use"),
            "{}",
            line("degree")
        );
        assert!(line("coef0").contains("does not use"));
        assert!(line("kernel").starts_with("kernel = rbf → kernel=\"rbf\""));
    }
}

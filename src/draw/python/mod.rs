//! "Export as Python": a script that rebuilds the lab's scene with NumPy and scikit-learn —
//! the points exactly as the lab holds them, the held-out ones marked, the model with the same
//! parameters — fits it, prints the training and test accuracy, and plots the points and the
//! decision regions over the lab's window with matplotlib. `--predict N` makes it print its
//! predictions on an N × N grid over the window as JSON instead (no plot, no matplotlib),
//! which is how the tests hold it to the lab's own predictions.
//!
//! The model is the method's [`Counterpart`] ([`crate::methods::model::Method::sklearn`]), wrapped as
//! the registry wraps the method: `make_pipeline(StandardScaler(), …)` when the lab
//! standardises (z = (x − μ)/σ per feature, μ and σ from the training points with divisor n,
//! as `StandardScaler`), and for more than two classes a two-class method inside
//! `OneVsRestClassifier` or `OneVsOneClassifier` as the lab's scheme says, unless the estimator
//! already tells classes apart that way. The script states every parameter's mapping in its
//! comments, and says so where scikit-learn has no counterpart (then it shows the points).
//!
//! Numbers are written so that Python reads the same f64: a coordinate as its text in the
//! file or link it came from (`1.50`, `6.02E8`, `-0.000`;
//! [`crate::core::data::Dataset::coordinate_text`]), which Python's float literal reads as Rust's
//! parser does, and every other number in Rust's shortest round-trip form.

use crate::core::data::Dataset;
use crate::core::sklearn::{
    pipeline, python_float, python_str, Agreement, Arg, Counterpart, Estimator, Helper, Multiclass,
    Source,
};
use crate::draw::regions::CLASS_COLOURS;
use crate::draw::scene::{Shape, SHAPES};
use crate::lab::playground::Playground;
use crate::methods::multiclass::Scheme;
use crate::methods::registry;
mod code;
mod tasks;
use crate::core::task::Task;
use code::{helper_code, ENTRY, MAIN};

/// The script for `lab`'s scene (its left side when comparing: the one the page's file
/// actions save).
pub fn script(lab: &Playground) -> String {
    let settings = lab.settings();
    let method = settings.method();
    let data = lab.data();
    let counterpart = counterpart(lab);
    let mut out = String::new();
    out.push_str(&header(lab, &counterpart));
    out.push_str(&imports(&counterpart));
    out.push_str(&points(data, lab.test()));
    let view = lab.view();
    out.push_str(&format!(
        "\n# The lab's window: x1 from the first number to the second, x2 from the third to \
         the fourth.\nWINDOW = ({}, {}, {}, {})\nTITLE = {}\n",
        python_float(view.x_min),
        python_float(view.x_max),
        python_float(view.y_min),
        python_float(view.y_max),
        python_str(method.title()),
    ));
    out.push_str(&model(lab, &counterpart));
    for helper in helpers(&counterpart) {
        out.push_str(helper_code(helper));
    }
    out.push_str(&colours());
    out.push_str(match settings.task {
        Task::Classification => MAIN,
        Task::Regression => tasks::REGRESSION,
        Task::Novelty => tasks::NOVELTY,
    });
    out.push_str(ENTRY);
    out
}

/// The method's counterpart for `lab`'s settings and training points, with the pipeline and
/// multi-class wrapper the registry's fit puts around the method.
pub fn counterpart(lab: &Playground) -> Counterpart {
    let settings = lab.settings();
    let (method, values) = (settings.method(), &settings.values);
    let train = lab.training_set();
    let mut c = method.sklearn(values, train);
    let missing = matches!(c.agreement, Agreement::Missing(_));
    if !missing && train.classes().len() > 2 && !method.native_multiclass(values) {
        let scheme = registry::scheme(method, values).unwrap_or(Scheme::OneVsRest);
        let own = matches!(
            (scheme, c.multiclass),
            (Scheme::OneVsOne, Multiclass::OneVsOne) | (Scheme::OneVsRest, Multiclass::OneVsRest)
        );
        let wrapper = match scheme {
            Scheme::OneVsOne => "OneVsOneClassifier",
            Scheme::OneVsRest => "OneVsRestClassifier",
        };
        if !own {
            let inner = std::mem::take(&mut c.steps);
            c.steps = vec![Estimator::sklearn("sklearn.multiclass", wrapper)
                .arg("estimator", Arg::Pipeline(inner))];
            if scheme == Scheme::OneVsOne {
                c = c.near(
                    "OneVsOneClassifier breaks tied votes by the summed confidences, the lab \
                     (as LIBSVM) by the smaller class",
                );
            }
        }
        if scheme == Scheme::OneVsRest && !method.params().contains(&"mc") {
            c = c.map(
                "",
                format!(
                    "more than two classes: the lab fits one model per class against the rest \
                     and predicts the class of the largest f → {}",
                    if own {
                        "the estimator's own one-vs-rest"
                    } else {
                        "OneVsRestClassifier around it"
                    }
                ),
            );
        }
    }
    // Only a classifier's points are standardised (the registry leaves (x, t) pairs and
    // novelty's points as they are).
    if settings.task != crate::core::task::Task::Classification {
        return c;
    }
    let standardise = values.flag("std");
    if standardise && !missing {
        c.steps.insert(
            0,
            Estimator::sklearn("sklearn.preprocessing", "StandardScaler"),
        );
    }
    c.map(
        "std",
        if standardise {
            "standardise on → StandardScaler() first: z = (x − μ)/σ per feature, μ and σ \
             (divisor n) from the training points, as the lab"
        } else {
            "standardise off → the points as they are, no StandardScaler"
        },
    )
}

/// The docstring: what the script is and how to run it.
fn header(lab: &Playground, counterpart: &Counterpart) -> String {
    let data = lab.data();
    let held = lab.test().iter().filter(|&&t| t).count();
    let held_text = match held {
        0 => String::new(),
        k => format!(" ({k} held out for testing)"),
    };
    let task = lab.settings().task;
    let fits = match counterpart.agreement {
        Agreement::Missing(_) => "shows the points (scikit-learn has no such model; see below)",
        _ => tasks::what_it_does(task),
    };
    format!(
        "#!/usr/bin/env python3\n\
         \"\"\"A Kernel Playground scene in NumPy and scikit-learn.\n\
         \n\
         The {title}, on {n} points{held_text}. The script\n\
         {fits} with matplotlib.\n\
         \n\
         \x20   python3 kernel-playground.py                  show the plot\n\
         \x20   python3 kernel-playground.py --out scene.png  save it instead\n\
         \x20   python3 kernel-playground.py --predict 41     no plot: {predict}\n\
         \n\
         The lab's settings, as its link writes them (the points are below):\n\
         #{hash}\n\
         \"\"\"\n",
        title = lab.settings().method().title(),
        n = data.len(),
        hash = lab.settings().to_hash(None),
        predict = tasks::what_predict_prints(task),
    )
}

/// The import lines: NumPy, then what the model's estimators and helpers need, by module,
/// each list in order.
fn imports(counterpart: &Counterpart) -> String {
    // Kept sorted by insertion: a map type would cost the page's module its own copies of the
    // map's code for a list of a dozen names.
    let mut from: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut add = |module: &'static str, names: &[&'static str]| {
        let at = match from.binary_search_by(|(m, _)| m.cmp(&module)) {
            Ok(at) => at,
            Err(at) => {
                from.insert(at, (module, Vec::new()));
                at
            }
        };
        for name in names {
            if let Err(place) = from[at].1.binary_search(name) {
                from[at].1.insert(place, name);
            }
        }
    };
    let mut pipelines = counterpart.steps.len() > 1;
    for step in &counterpart.steps {
        pipelines |= step.python().contains("make_pipeline(");
        for (source, class) in step.sources() {
            match source {
                Source::Module(module) => add(module, &[class]),
                Source::Script(Helper::RbfBumps) => {
                    add("sklearn.base", &["BaseEstimator", "TransformerMixin"]);
                    add("sklearn.metrics.pairwise", &["rbf_kernel"]);
                }
                Source::Script(Helper::SignOfRegression) => {
                    add(
                        "sklearn.base",
                        &["BaseEstimator", "ClassifierMixin", "clone"],
                    );
                }
            }
        }
    }
    if pipelines {
        add("sklearn.pipeline", &["make_pipeline"]);
    }
    let mut out = String::from("\nimport json\nimport sys\n\nimport numpy as np\n");
    for (module, names) in from {
        out.push_str(&format!("from {module} import {}\n", names.join(", ")));
    }
    out
}

/// The points, one row each: the coordinates as written, the label as given and whether the
/// point is held out; and the classes' names.
fn points(data: &Dataset, test: &[bool]) -> String {
    // Labels written as texts keep them, mapped to the lab's numbering of the classes (sorted
    // as scikit-learn's LabelEncoder sorts them); labels that are integers are those integers.
    let named = data
        .label_texts
        .values()
        .any(|t| crate::core::labels::integer(t).is_none());
    let label = |class: i32| {
        if named {
            python_str(&data.label_text(class))
        } else {
            class.to_string()
        }
    };
    let mut out = String::from(
        "\n# The points: x1 and x2 exactly as the lab holds them (as written in its file or link), \
         the label,\n# and whether the point is held out for testing (drawn hollow, never trained on).\n\
         POINTS = [\n",
    );
    for i in 0..data.len() {
        let held = if test.get(i).copied().unwrap_or(false) {
            "True"
        } else {
            "False"
        };
        out.push_str(&format!(
            "    ({}, {}, {}, {held}),\n",
            python_number(&data.coordinate_text(i, 0)),
            python_number(&data.coordinate_text(i, 1)),
            label(data.labels[i]),
        ));
    }
    out.push_str("]\n");
    let classes = data.classes();
    if named {
        let codes: Vec<String> = classes
            .iter()
            .map(|&c| format!("{}: {c}", label(c)))
            .collect();
        out.push_str(&format!(
            "\n# The labels are texts: the lab numbers the classes 0, 1, 2, … in their sorted order, as\n\
             # scikit-learn's LabelEncoder does, and so does this script.\n\
             CLASS_OF_LABEL = {{{}}}\n",
            codes.join(", ")
        ));
    }
    let names: Vec<String> = classes
        .iter()
        .map(|&c| format!("{c}: {}", python_str(&data.class_name(c))))
        .collect();
    out.push_str(&format!(
        "# The classes as the lab names them; their order gives their colours and shapes.\n\
         CLASS_NAMES = {{{}}}\n\n\
         X = np.array([p[:2] for p in POINTS], dtype=float).reshape(-1, 2)\n\
         y = np.array([{} for p in POINTS], dtype=int)\n\
         held_out = np.array([p[3] for p in POINTS], dtype=bool)\n",
        names.join(", "),
        if named {
            "CLASS_OF_LABEL[p[2]]"
        } else {
            "p[2]"
        },
    ));
    out
}

/// A coordinate's text as a Python expression of the same f64. Python reads every decimal
/// text Rust's parser does as a float literal, to the same correctly rounded number, except
/// integers with leading zeros (`007` is not Python) and negative zero written as an integer
/// (`-0` is the integer 0 in Python): those are read by `float("…")`, which takes any of them.
fn python_number(text: &str) -> String {
    let digits = text.trim_start_matches(['+', '-']);
    let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let zero = digits.bytes().all(|b| b == b'0');
    let leading_zero = digits.len() > 1 && digits.starts_with('0') && !zero;
    if integer && (leading_zero || (zero && text.starts_with('-'))) {
        format!("float({})", python_str(text))
    } else {
        text.to_string()
    }
}

/// `make_model()` with the mapping of every setting in its comments.
fn model(lab: &Playground, counterpart: &Counterpart) -> String {
    let method = lab.settings().method();
    let mut out = format!("\n\n# The model: {}.\n", method.title());
    let said = match &counterpart.agreement {
        Agreement::Same if lab.settings().task == Task::Regression => {
            "scikit-learn fits the same model, so its curve is the lab's within the solvers' \
             tolerances."
                .to_string()
        }
        Agreement::Same => {
            "scikit-learn fits the same model, so it predicts what the lab predicts \
             except within the solvers' tolerances of the boundary."
                .to_string()
        }
        Agreement::Near(why) => format!(
            "scikit-learn solves the same problem, but {why}: near the boundary the two may \
             differ."
        ),
        Agreement::Missing(why) => {
            format!("{why}. So the script shows the points only, with no model.")
        }
    };
    out.push_str(&comment(&said, "# ", "# "));
    out.push_str(match counterpart.agreement {
        Agreement::Missing(_) => "# The lab's settings, and what comes nearest in scikit-learn:\n",
        _ => "# The lab's settings → scikit-learn:\n",
    });
    // Each setting in the method's order, then standardising, then remarks.
    let order: Vec<&str> = method.params().iter().copied().chain(["std", ""]).collect();
    for key in order {
        for (_, line) in counterpart.mapping.iter().filter(|(k, _)| *k == key) {
            out.push_str(&comment(line, "#   ", "#     "));
        }
    }
    out.push_str("\n\ndef make_model():\n");
    if counterpart.steps.is_empty() {
        out.push_str("    return None\n");
    } else {
        out.push_str(&format!(
            "    return {}\n",
            layout(&counterpart.steps, 4, 11)
        ));
    }
    out
}

/// The longest line the script's code is laid out to.
const WIDTH: usize = 92;

/// `steps` (a pipeline, or one estimator) as Python starting at `column` on a line indented
/// by `indent`: on that line if it fits, else one argument a line, each laid out the same way.
fn layout(steps: &[Estimator], indent: usize, column: usize) -> String {
    let flat = pipeline(steps);
    if column + flat.chars().count() <= WIDTH {
        return flat;
    }
    let inner = indent + 4;
    let (head, items): (&str, Vec<String>) = match steps {
        [estimator] => (
            estimator.class,
            estimator
                .args
                .iter()
                .map(|(name, value)| {
                    let column = inner + name.len() + 1;
                    let value = match value {
                        Arg::Estimator(e) => layout(std::slice::from_ref(e), inner, column),
                        Arg::Pipeline(steps) => layout(steps, inner, column),
                        other => other.python(),
                    };
                    format!("{name}={value}")
                })
                .collect(),
        ),
        _ => (
            "make_pipeline",
            steps
                .iter()
                .map(|step| layout(std::slice::from_ref(step), inner, inner))
                .collect(),
        ),
    };
    let pad = " ".repeat(inner);
    let lines: String = items.iter().map(|item| format!("{pad}{item},\n")).collect();
    format!("{head}(\n{lines}{})", " ".repeat(indent))
}

/// `text` as comment lines of at most 96 characters, each word kept whole.
fn comment(text: &str, first: &str, next: &str) -> String {
    let mut text = text.trim().to_string();
    if !text.ends_with('.') {
        text.push('.');
    }
    let mut out = String::new();
    let mut line = String::from(first);
    for word in text.split_whitespace() {
        let prefix_only = line == first || line == next;
        if !prefix_only && line.chars().count() + 1 + word.chars().count() > 96 {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(next);
        } else if !prefix_only {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The script's own classes the model uses, each once.
fn helpers(counterpart: &Counterpart) -> Vec<Helper> {
    let mut found = Vec::new();
    for step in &counterpart.steps {
        for (source, _) in step.sources() {
            if let Source::Script(helper) = source {
                if !found.contains(&helper) {
                    found.push(helper);
                }
            }
        }
    }
    found
}

/// The lab's class colours and shapes, as matplotlib takes them.
fn colours() -> String {
    let colours: Vec<String> = CLASS_COLOURS
        .iter()
        .map(|(r, g, b)| format!("\"#{r:02x}{g:02x}{b:02x}\""))
        .collect();
    let markers: Vec<&str> = SHAPES
        .iter()
        .map(|shape| match shape {
            Shape::Disc => "\"o\"",
            Shape::Triangle => "\"^\"",
            Shape::Diamond => "\"D\"",
            Shape::TriangleDown => "\"v\"",
            Shape::Star => "\"*\"",
            Shape::Plus => "\"P\"",
        })
        .collect();
    format!(
        "\n\n# The lab's class colours (Okabe–Ito) and marker shapes, by a class's place among the labels.\n\
         COLOURS = [{}]\nMARKERS = [{}]\n",
        colours.join(", "),
        markers.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The script's comments as one line of text.
    fn prose(script: &str) -> String {
        let words: Vec<&str> = script
            .lines()
            .filter_map(|line| line.strip_prefix('#'))
            .flat_map(str::split_whitespace)
            .collect();
        words.join(" ")
    }

    fn script_of(hash: &str) -> String {
        let lab = Playground::open(hash).unwrap_or_else(|e| panic!("{hash}: {e}"));
        script(&lab)
    }

    #[test]
    fn coordinates_are_the_text_they_were_written_as() {
        let text = script_of(
            "model=svm&kernel=linear&points=1.50,6.02E8,0;-0.000,2.5e-3,1,t;007,-0,1;\
             0.1,-3,0&window=-2,8,-1,7e8",
        );
        for row in [
            "(1.50, 6.02E8, 0, False),",
            "(-0.000, 2.5e-3, 1, True),",
            "(float(\"007\"), float(\"-0\"), 1, False),",
            "(0.1, -3, 0, False),",
        ] {
            assert!(text.contains(row), "{row} in\n{text}");
        }
        assert!(text.contains("WINDOW = (-2.0, 8.0, -1.0, 700000000.0)"));
        assert!(text.contains("CLASS_NAMES = {0: \"class 1\", 1: \"class 2\"}"));
    }

    #[test]
    fn python_reads_every_coordinate_text_as_the_same_number() {
        for text in [
            "1.50", "-0.000", "6.02E8", "2.5e-3", ".5", "5.", "+1.25", "1E+05", "42",
        ] {
            assert_eq!(python_number(text), text);
        }
        assert_eq!(python_number("007"), "float(\"007\")");
        assert_eq!(python_number("-0"), "float(\"-0\")");
        assert_eq!(python_number("-00"), "float(\"-00\")");
        assert_eq!(python_number("0"), "0");
        assert_eq!(python_number("00"), "00");
    }

    #[test]
    fn labels_written_as_texts_keep_them() {
        let text = script_of(
            "model=lda&points=1,2,0;2,1,1;3,3,2;0,1,0;1,0,1;2,3,2\
             &names=0:setosa;1:versi%22color;2:virginica",
        );
        assert!(text.contains("(1, 2, \"setosa\", False),"), "{text}");
        assert!(text.contains("(2, 1, \"versi\\\"color\", False),"));
        assert!(text
            .contains("CLASS_OF_LABEL = {\"setosa\": 0, \"versi\\\"color\": 1, \"virginica\": 2}"));
        assert!(text.contains("y = np.array([CLASS_OF_LABEL[p[2]] for p in POINTS], dtype=int)"));
        assert!(text.contains("    return LinearDiscriminantAnalysis()\n"));
    }

    #[test]
    fn the_svm_keeps_every_parameter() {
        let text = script_of(
            "model=svm&kernel=poly&C=0.3125&gamma=0.7&degree=4&coef0=1.5&tol=0.0001&preset=xor&n=40",
        );
        assert!(text.contains(
            "    return SVC(kernel=\"poly\", gamma=0.7, degree=4, coef0=1.5, C=0.3125, tol=0.0001)\n"
        ));
        assert!(text.contains("from sklearn.svm import SVC\n"));
        for line in [
            "#   C = 0.3125 → C=0.3125",
            "#   γ = 0.7 → gamma=0.7",
            "#   degree = 4 → degree=4",
        ] {
            assert!(text.contains(line), "{line}");
        }
        // The hard margin is C = ∞, capped so that LIBSVM ends on inseparable points.
        let hard = script_of("model=svm&kernel=linear&hard=1&preset=separable&n=20");
        assert!(hard.contains(
            "        C=float(\"inf\"),\n        tol=0.001,\n        max_iter=10000000,\n"
        ));
    }

    #[test]
    fn logistic_regression_takes_c_as_one_over_lambda_after_its_features() {
        let text = script_of("model=logistic&features=poly&degree=3&lambda=0.25&preset=moons&n=40");
        assert!(text.contains(
            "make_pipeline(\n        PolynomialFeatures(degree=3, include_bias=False),\n        \
             LogisticRegression(C=1 / 0.25, tol=1e-12, max_iter=100000),\n    )"
        ), "{text}");
        let rbf = script_of("model=logistic&features=rbf&gamma=5&preset=moons&n=40");
        assert!(rbf.contains("RbfBumps(gamma=5.0, max_centres=100)"));
        assert!(rbf.contains("class RbfBumps(TransformerMixin, BaseEstimator):"));
        assert!(rbf.contains("from sklearn.metrics.pairwise import rbf_kernel\n"));
    }

    #[test]
    fn standardising_and_more_classes_wrap_the_model_as_the_registry_does() {
        let text = script_of("model=logistic&features=linear&std=1&preset=blobs3&n=30");
        assert!(
            text.contains(
                "    return make_pipeline(\n        StandardScaler(),\n        \
                 OneVsRestClassifier(\n            \
                 estimator=LogisticRegression(C=1 / 0.01, tol=1e-12, max_iter=100000),\n        \
                 ),\n    )\n"
            ),
            "{text}"
        );
        assert!(text.contains("from sklearn.multiclass import OneVsRestClassifier\n"));
        assert!(text.contains("from sklearn.pipeline import make_pipeline\n"));
        assert!(text.contains("from sklearn.preprocessing import StandardScaler\n"));
        // The SVM votes one-vs-one by itself, as the lab's default; one-vs-rest is wrapped.
        let ovo = script_of("model=svm&preset=blobs3&n=30");
        assert!(ovo.contains("    return SVC("));
        let ovr = script_of("model=svm&mc=ovr&preset=blobs3&n=30");
        assert!(ovr.contains("    return OneVsRestClassifier(\n        estimator=SVC("));
        // Methods that tell classes apart themselves are not wrapped; k is at most n.
        let knn = script_of("model=knn&k=25&preset=blobs3&n=18");
        assert!(knn.contains("    return KNeighborsClassifier(\n        n_neighbors=18,\n"));
        assert!(!knn.contains("OneVsRestClassifier"));
    }

    #[test]
    fn what_scikit_learn_lacks_is_said_and_the_points_still_shown() {
        for hash in [
            "model=bayeslogistic&preset=moons&n=30",
            "model=perceptron&kernel=rbf&preset=moons&n=30",
            "model=nearest_mean&preset=blobs3&n=30",
            "model=svm&kernel=rbf&svm_solver=dca&preset=moons&n=30",
        ] {
            let text = script_of(hash);
            assert!(
                prose(&text).contains("So the script shows the points only, with no model."),
                "{hash}"
            );
            assert!(text.contains("    return None\n"), "{hash}");
            assert!(text.contains("POINTS = ["), "{hash}");
        }
        let means = script_of("model=nearest_mean&preset=moons&n=30");
        assert!(means.contains("    return NearestCentroid()\n"));
    }

    #[test]
    fn every_method_states_the_mapping_of_every_parameter() {
        let scenes = [
            "preset=moons&n=30",
            "preset=blobs3&n=30&std=1",
            "preset=xor&n=30&kernel=linear&features=rbf&solver=gd&weights=distance",
            "preset=moons&n=30&kernel=poly&features=linear&svm_solver=dca&hard=1",
            "preset=moons&n=30&kernel=sigmoid&svm_solver=pegasos&mc=ovr",
        ];
        for method in crate::methods::registry::methods_of(crate::core::task::Task::Classification)
        {
            for scene in scenes {
                let lab = Playground::open(&format!("model={}&{scene}", method.id())).unwrap();
                let c = counterpart(&lab);
                if matches!(c.agreement, Agreement::Missing(_)) {
                    continue;
                }
                for key in method.params().iter().chain(&["std"]) {
                    assert!(
                        c.mapping.iter().any(|(k, _)| k == key),
                        "{} on {scene}: no line for {key}",
                        method.id()
                    );
                }
                assert!(!c.steps.is_empty(), "{}", method.id());
            }
        }
    }
}

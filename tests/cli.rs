//! The `kernel-playground` binary as a script would use it: JSON out, figures out, and one-line
//! errors with exit status 2 for bad input.

#[path = "common/mod.rs"]
mod common;

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn scratch(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kp-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kernel-playground"))
        .args(args)
        .output()
        .expect("run kernel-playground")
}

/// Runs a command that must fail: status 2, nothing on stdout, one line on stderr naming
/// the problem.
fn fails_with(args: &[&str], message: &str) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(message), "{args:?}: {stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
}

/// Runs a command that must succeed (its stderr shown if it does not).
fn succeeds(args: &[&str]) -> Output {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn fit_json(args: &[&str]) -> Value {
    serde_json::from_slice(&succeeds(args).stdout).expect("JSON on stdout")
}

const SEPARABLE: &str =
    "x,y,label\n-1,0,3\n1,0,7\n0.5,0.8,7\n-0.4,-0.9,3\n-0.8,0.5,3\n0.9,-0.4,7\n";

#[test]
fn fit_prints_the_whole_model() {
    let data = scratch("separable.csv", SEPARABLE);
    let json = fit_json(&[
        "fit",
        "--data",
        data.to_str().unwrap(),
        "--model",
        "svm",
        "--kernel",
        "linear",
        "--c",
        "inf",
    ]);
    assert_eq!(json["model"], "svm");
    assert_eq!(json["classes"], serde_json::json!([3, 7]));
    assert_eq!(json["alpha"].as_array().unwrap().len(), 6);
    assert_eq!(json["slack"].as_array().unwrap().len(), 6);
    assert_eq!(json["predicted"], serde_json::json!([3, 7, 7, 3, 3, 7]));
    assert_eq!(json["train_accuracy"], 1.0);
    let support: Vec<u64> = json["support"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert!(support.len() >= 2);
    // On a hard margin, the support vectors sit exactly on f = ±1.
    for &i in &support {
        let f = json["decision"][i as usize].as_f64().unwrap();
        assert!((f.abs() - 1.0).abs() < 1e-3, "f = {f}");
    }
    let w: Vec<f64> = json["w"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let width = json["margin_width"].as_f64().unwrap();
    assert!((width - 2.0 / w[0].hypot(w[1])).abs() < 1e-12);
    // The margin 1/‖w‖ beside its width 2/‖w‖.
    assert!((json["margin"].as_f64().unwrap() - 1.0 / w[0].hypot(w[1])).abs() < 1e-12);
    assert!(json["bound"].as_array().unwrap().is_empty());
    for key in ["bias", "objective", "iterations"] {
        assert!(json[key].is_number(), "{key}");
    }
}

#[test]
fn fit_reports_the_time_of_the_fit_alone() {
    let data = scratch("timed.csv", SEPARABLE);
    for model in ["svm", "knn"] {
        let json = fit_json(&["fit", "--data", data.to_str().unwrap(), "--model", model]);
        let fit_ms = json["fit_ms"].as_f64().expect("fit_ms is a number");
        // A six-point fit takes microseconds; a minute would mean the clock spans something else.
        assert!(
            (0.0..60_000.0).contains(&fit_ms),
            "{model}: fit_ms = {fit_ms}"
        );
    }
}

#[test]
fn fit_with_query_matches_libsvm() {
    let fixtures: Value = serde_json::from_str(include_str!("fixtures/svm_libsvm.json")).unwrap();
    for case in fixtures["cases"].as_array().unwrap().iter().step_by(5) {
        let mut train = String::from("x,y,label\n");
        for (x, l) in case["x"]
            .as_array()
            .unwrap()
            .iter()
            .zip(case["labels"].as_array().unwrap())
        {
            train.push_str(&format!("{},{},{}\n", x[0], x[1], l));
        }
        let mut query = String::from("x,y\n");
        for q in case["query"].as_array().unwrap() {
            query.push_str(&format!("{},{}\n", q[0], q[1]));
        }
        let name = case["name"].as_str().unwrap();
        let train = scratch(&format!("{name}-train.csv"), &train);
        let query = scratch(&format!("{name}-query.csv"), &query);
        let number = |k: &str| case[k].to_string();
        let json = fit_json(&[
            "fit",
            "--data",
            train.to_str().unwrap(),
            "--query",
            query.to_str().unwrap(),
            "--kernel",
            case["kernel"].as_str().unwrap(),
            "--c",
            &number("C"),
            "--gamma",
            &number("gamma"),
            "--degree",
            &number("degree"),
            "--coef0",
            &number("coef0"),
            "--tol",
            "1e-6",
        ]);
        let expected = case["decision_query"].as_array().unwrap();
        let scale = expected
            .iter()
            .fold(1.0f64, |m, v| m.max(v.as_f64().unwrap().abs()));
        for (got, want) in json["decision"].as_array().unwrap().iter().zip(expected) {
            let (got, want) = (got.as_f64().unwrap(), want.as_f64().unwrap());
            assert!(
                (got - want).abs() <= 1e-3 * scale,
                "{name}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn bad_input_is_one_line_and_status_two() {
    let good = scratch("good.csv", SEPARABLE);
    let good = good.to_str().unwrap();
    let malformed = scratch("malformed.csv", "x,y,label\n0,0,1\n1,2\n");
    let nan = scratch("nan.csv", "0,0,1\nNaN,1,0\n");
    let infinite = scratch("inf.csv", "0,0,1\n1,inf,0\n");
    let one_class = scratch("one.csv", "0,0,1\n1,1,1\n");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["fit", "--data", malformed.to_str().unwrap()],
            "line 3: expected 3 fields",
        ),
        (
            vec!["fit", "--data", nan.to_str().unwrap()],
            "line 2: x 'NaN' is not a finite number",
        ),
        (
            vec!["fit", "--data", infinite.to_str().unwrap()],
            "line 2: y 'inf' is not a finite number",
        ),
        (
            vec!["fit", "--data", one_class.to_str().unwrap()],
            "same class",
        ),
        (vec!["fit", "--data", good, "--c", "0"], "C <= 0"),
        (vec!["fit", "--data", good, "--c", "-1"], "C <= 0"),
        (vec!["fit", "--data", good, "--gamma", "0"], "gamma <= 0"),
        (
            vec!["fit", "--data", good, "--kernel", "cubic"],
            "unknown kernel 'cubic'",
        ),
        (
            vec!["fit", "--data", good, "--model", "tree"],
            "unknown model 'tree'",
        ),
        (
            vec!["fit", "--data", good, "--model", "knn", "--k", "0"],
            "k must be between 1 and 25",
        ),
        (
            vec![
                "fit", "--data", good, "--model", "logistic", "--lambda", "0",
            ],
            "lambda <= 0",
        ),
        (
            vec![
                "fit",
                "--data",
                good,
                "--model",
                "logistic",
                "--features",
                "cubic",
            ],
            "unknown features 'cubic'",
        ),
        (
            vec![
                "fit",
                "--data",
                good,
                "--model",
                "perceptron",
                "--epochs",
                "0",
            ],
            "max epochs",
        ),
        (vec!["fit", "--data", "/no/such/file.csv"], "cannot read"),
        (
            vec!["render", "--data", good, "--out", "/tmp/figure.jpg"],
            "must end in .svg or .png",
        ),
    ];
    for (args, message) in cases {
        fails_with(&args, message);
    }
}

#[test]
fn render_writes_svg_and_png() {
    let data = scratch("render.csv", SEPARABLE);
    let dir = data.parent().unwrap();
    let svg = dir.join("figure.svg");
    let png = dir.join("figure.png");
    for out in [&svg, &png] {
        succeeds(&[
            "render",
            "--data",
            data.to_str().unwrap(),
            "--kernel",
            "rbf",
            "--out",
            out.to_str().unwrap(),
            "--width",
            "400",
            "--height",
            "400",
        ]);
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    assert!(text.contains("<image"), "regions embedded as one image");
    assert!(text.contains("x₁"), "axis titles");
    assert!(
        text.len() < 2_000_000,
        "no per-pixel rectangles: {} bytes",
        text.len()
    );
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}

/// `render --view loss` draws the loss view with the page's code: the seven losses in the
/// legend, the model's own marked, and the margin axis; an unknown view is a one-line error.
#[test]
fn render_draws_the_loss_view() {
    let data = scratch("loss.csv", SEPARABLE);
    let out = data.parent().unwrap().join("loss.svg");
    let args = |view: &'static str| {
        vec![
            "render".to_string(),
            "--data".into(),
            data.to_str().unwrap().into(),
            "--kernel".into(),
            "linear".into(),
            "--view".into(),
            view.into(),
            "--out".into(),
            out.to_str().unwrap().into(),
            "--width".into(),
            "900".into(),
            "--height".into(),
            "500".into(),
        ]
    };
    let loss = args("loss");
    succeeds(&loss.iter().map(String::as_str).collect::<Vec<_>>());
    let text = std::fs::read_to_string(&out).unwrap();
    for label in [
        "0–1",
        "hinge",
        "squared hinge",
        "logistic (log₂)",
        "exponential",
        "squared",
        "perceptron criterion",
    ] {
        // plotters writes a text element's content on a line of its own.
        let marked = format!("{label}  ← this model");
        assert!(
            text.lines().any(|line| line == label || line == marked),
            "legend has {label}"
        );
    }
    assert!(
        text.contains("← this model"),
        "the SVM's own loss is marked"
    );
    assert!(
        text.contains("margin z = y·f(x)"),
        "the axis says what z is"
    );
    let bad = args("nope");
    fails_with(
        &bad.iter().map(String::as_str).collect::<Vec<_>>(),
        "unknown view 'nope' (use plane, loss, ",
    );
}

/// `fit --test` scores held-out points: their predictions, decisions and accuracy.
#[test]
fn fit_scores_a_test_file() {
    let train = scratch("train.csv", SEPARABLE);
    let test = scratch(
        "test.csv",
        "x,y,label\n-0.9,0.1,3\n0.8,0.2,7\n0.9,0.3,3\n-0.5,-0.5,7\n",
    );
    let json = fit_json(&[
        "fit",
        "--data",
        train.to_str().unwrap(),
        "--test",
        test.to_str().unwrap(),
        "--kernel",
        "linear",
    ]);
    // The last two test points carry the wrong label for their side.
    assert_eq!(json["test_predicted"], serde_json::json!([3, 7, 7, 3]));
    assert_eq!(json["test_accuracy"], 0.5);
    let decision = json["test_decision"].as_array().unwrap();
    assert!(decision[0].as_f64().unwrap() < 0.0 && decision[1].as_f64().unwrap() > 0.0);
    let bad = scratch("bad-test.csv", "x,y,label\n1,2,3\n1,oops,3\n");
    fails_with(
        &[
            "fit",
            "--data",
            train.to_str().unwrap(),
            "--test",
            bad.to_str().unwrap(),
        ],
        "line 3",
    );
}

/// `render --view cv` computes the whole grid before drawing it.
#[test]
fn render_draws_a_finished_cross_validation_grid() {
    let data = scratch("cv-render.csv", SEPARABLE);
    let out = data.parent().unwrap().join("cv.svg");
    succeeds(&[
        "render",
        "--data",
        data.to_str().unwrap(),
        "--model",
        "knn",
        "--view",
        "cv",
        "--out",
        out.to_str().unwrap(),
        "--width",
        "700",
        "--height",
        "400",
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    // Every cell coloured: no grey (235, 235, 235) cell still waiting.
    assert!(
        !text.contains("#EBEBEB") && !text.contains("rgb(235,235,235)"),
        "unfinished cells"
    );
    assert!(text.contains("<rect"), "the cells are drawn");
}

#[test]
fn fit_reports_every_method() {
    let data = scratch("methods.csv", SEPARABLE);
    let data = data.to_str().unwrap();
    let perceptron = fit_json(&[
        "fit",
        "--data",
        data,
        "--model",
        "perceptron",
        "--kernel",
        "linear",
        "--epochs",
        "50",
    ]);
    assert_eq!(perceptron["model"], "perceptron");
    assert_eq!(perceptron["converged"], true);
    assert!(perceptron["mistakes"].as_u64().unwrap() >= 1);
    let alpha_sum: f64 = perceptron["alpha"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_f64().unwrap())
        .sum();
    assert_eq!(
        alpha_sum,
        perceptron["mistakes"].as_f64().unwrap(),
        "α counts the mistakes"
    );
    assert!(
        perceptron["novikoff_bound"].as_f64().unwrap() >= perceptron["mistakes"].as_f64().unwrap()
    );
    assert_eq!(perceptron["w"].as_array().unwrap().len(), 2);

    let logistic = fit_json(&[
        "fit",
        "--data",
        data,
        "--model",
        "logistic",
        "--features",
        "linear",
        "--lambda",
        "0.1",
    ]);
    let (w, b) = (&logistic["w"], logistic["bias"].as_f64().unwrap());
    for (i, p) in logistic["probability"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let f = logistic["decision"][i].as_f64().unwrap();
        assert!(
            (p.as_f64().unwrap() - 1.0 / (1.0 + (-f).exp())).abs() < 1e-12,
            "p = σ(f)"
        );
        assert!(w.is_array() && b.is_finite());
    }
    let gd = fit_json(&[
        "fit",
        "--data",
        data,
        "--model",
        "logistic",
        "--features",
        "linear",
        "--lambda",
        "0.1",
        "--solver",
        "gd",
        "--learning-rate",
        "2",
    ]);
    for (a, c) in gd["coef"]
        .as_array()
        .unwrap()
        .iter()
        .zip(logistic["coef"].as_array().unwrap())
    {
        assert!(
            (a.as_f64().unwrap() - c.as_f64().unwrap()).abs() < 1e-3,
            "Newton and GD agree"
        );
    }

    let knn = fit_json(&[
        "fit",
        "--data",
        data,
        "--model",
        "knn",
        "--k",
        "3",
        "--metric",
        "manhattan",
        "--weights",
        "distance",
    ]);
    assert_eq!(knn["k"], 3);
    assert_eq!(knn["metric"], "manhattan");
    assert_eq!(knn["predicted"], serde_json::json!([3, 7, 7, 3, 3, 7]));
}

#[test]
fn three_classes_give_labels_and_one_score_per_class() {
    let data = scratch(
        "three.csv",
        "x,y,label\n0,0.8,0\n0.1,0.7,0\n-0.1,0.9,0\n-0.7,-0.4,1\n-0.8,-0.5,1\n-0.6,-0.6,1\n0.7,-0.4,2\n0.8,-0.5,2\n0.6,-0.6,2\n",
    );
    let query = scratch("three-query.csv", "0,0.75\n-0.7,-0.5\n0.7,-0.5\n");
    for model in ["svm", "perceptron", "logistic", "knn"] {
        let json = fit_json(&[
            "fit",
            "--data",
            data.to_str().unwrap(),
            "--query",
            query.to_str().unwrap(),
            "--model",
            model,
            "--kernel",
            "linear",
            "--features",
            "linear",
            "--k",
            "1",
        ]);
        assert_eq!(json["classes"], serde_json::json!([0, 1, 2]), "{model}");
        assert_eq!(json["predicted"], serde_json::json!([0, 1, 2]), "{model}");
        for scores in json["decision"].as_array().unwrap() {
            assert_eq!(
                scores.as_array().unwrap().len(),
                3,
                "{model}: one score per class"
            );
        }
        assert_eq!(json["train_accuracy"], 1.0, "{model}");
    }
    let svm = fit_json(&[
        "fit",
        "--data",
        data.to_str().unwrap(),
        "--kernel",
        "linear",
    ]);
    assert_eq!(svm["scheme"], "ovo");
    assert_eq!(svm["members"], 3);
}

#[test]
fn render_draws_every_method() {
    let data = scratch("render-all.csv", SEPARABLE);
    for model in ["perceptron", "logistic", "knn"] {
        let out = data.parent().unwrap().join(format!("{model}.svg"));
        let result = run(&[
            "render",
            "--data",
            data.to_str().unwrap(),
            "--model",
            model,
            "--out",
            out.to_str().unwrap(),
            "--width",
            "300",
            "--height",
            "300",
        ]);
        assert!(
            result.status.success(),
            "{model}: {}",
            String::from_utf8_lossy(&result.stderr)
        );
        assert!(
            std::fs::read_to_string(&out).unwrap().contains("<image"),
            "{model}"
        );
    }
}

/// A fixture case's training points (`x`, `labels`) as a CSV file.
fn training_file(case: &Value, name: &str) -> PathBuf {
    let rows: Vec<String> = case["x"]
        .as_array()
        .unwrap()
        .iter()
        .zip(case["labels"].as_array().unwrap())
        .map(|(p, l)| format!("{},{},{}", p[0], p[1], l))
        .collect();
    scratch(&format!("{name}.csv"), &rows.join("\n"))
}

/// A fixture case's training points (`x`, `labels`) and query points (`query`) as CSV files.
fn fixture_files(case: &Value, name: &str) -> (PathBuf, PathBuf) {
    let queries: Vec<String> = case["query"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{},{}", p[0], p[1]))
        .collect();
    (
        training_file(case, name),
        scratch(&format!("{name}-query.csv"), &queries.join("\n")),
    )
}

/// `fit --model lda|qda|nb` against the scikit-learn fixtures, through CSV files: the
/// probabilities (p of the larger label for two classes, one list per point otherwise), the
/// predictions, and the fitted parameters.
#[test]
fn fit_reports_the_gaussian_models_as_scikit_learn() {
    let fixtures: Value =
        serde_json::from_str(include_str!("fixtures/gaussian_sklearn.json")).unwrap();
    for case in fixtures["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let (data, query) = fixture_files(case, name);
        let classes = case["classes"].as_array().unwrap().len();
        let reference = [
            ("lda", "0", &case["lda"]),
            ("qda", "0", &case["qda"][0]),
            ("nb", "0", &case["nb"]),
        ];
        for (model, reg, want) in reference {
            let got = fit_json(&[
                "fit",
                "--data",
                data.to_str().unwrap(),
                "--query",
                query.to_str().unwrap(),
                "--model",
                model,
                "--reg",
                reg,
            ]);
            assert_eq!(got["model"], model);
            assert_eq!(got["predicted"], want["predicted"], "{name} {model}");
            assert_eq!(got["priors"].as_array().unwrap().len(), classes);
            assert_eq!(got["means"].as_array().unwrap().len(), classes);
            for (q, p) in want["proba"].as_array().unwrap().iter().enumerate() {
                let p: Vec<f64> = p
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap())
                    .collect();
                let shown = &got["probability"][q];
                if classes == 2 {
                    let diff = (shown.as_f64().unwrap() - p[1]).abs();
                    assert!(diff < 1e-6, "{name} {model} query {q}: {diff}");
                } else {
                    for (k, want) in p.iter().enumerate() {
                        let diff = (shown[k].as_f64().unwrap() - want).abs();
                        assert!(diff < 1e-6, "{name} {model} query {q} class {k}: {diff}");
                    }
                }
            }
        }
        let lda = fit_json(&["fit", "--data", data.to_str().unwrap(), "--model", "lda"]);
        // One shared 2 × 2 covariance; QDA one per class; naive Bayes two variances per class.
        assert_eq!(lda["covariances"].as_array().unwrap().len(), 2);
        assert_eq!(lda["covariances"][0].as_array().unwrap().len(), 2);
        assert_eq!(
            lda["w"].is_array(),
            classes == 2,
            "{name}: w for two classes"
        );
        let nb = fit_json(&["fit", "--data", data.to_str().unwrap(), "--model", "nb"]);
        assert_eq!(nb["covariances"].as_array().unwrap().len(), classes);
        assert_eq!(nb["covariances"][0].as_array().unwrap().len(), 2);
    }
    let data = scratch("gaussian-bad.csv", SEPARABLE);
    fails_with(
        &[
            "fit",
            "--data",
            data.to_str().unwrap(),
            "--model",
            "qda",
            "--reg",
            "2",
        ],
        "reg must be between 0 and 1",
    );
}

/// `fit --model krr|lsq` against the scikit-learn and numpy fixtures, through CSV files: kernel
/// ridge's dual coefficients and decision values, least squares' w, b and decision values.
#[test]
fn fit_reports_kernel_ridge_and_least_squares_as_the_references() {
    let fixtures: Value =
        serde_json::from_str(include_str!("fixtures/ridge_sklearn.json")).unwrap();
    let number = |v: &Value| v.as_f64().unwrap();
    for case in fixtures["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let (data, query) = fixture_files(case, name);
        let (data, query) = (data.to_str().unwrap(), query.to_str().unwrap());
        let got = if case["method"] == "kernel_ridge" {
            let (lambda, gamma) = (case["lambda"].to_string(), case["gamma"].to_string());
            let (degree, coef0) = (case["degree"].to_string(), case["coef0"].to_string());
            let got = fit_json(&[
                "fit",
                "--data",
                data,
                "--query",
                query,
                "--model",
                "krr",
                "--kernel",
                case["kernel"].as_str().unwrap(),
                "--lambda",
                &lambda,
                "--gamma",
                &gamma,
                "--degree",
                &degree,
                "--coef0",
                &coef0,
            ]);
            let shown: f64 = got["parameters"]["lambda"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(
                shown,
                number(&case["lambda"]),
                "{name}: the parameters as fitted"
            );
            for (got, want) in got["dual_coef"]
                .as_array()
                .unwrap()
                .iter()
                .zip(case["dual_coef"].as_array().unwrap())
            {
                assert!((number(got) - number(want)).abs() < 1e-6, "{name}: β");
            }
            got
        } else {
            let got = fit_json(&["fit", "--data", data, "--query", query, "--model", "lsq"]);
            for k in 0..2 {
                assert!(
                    (number(&got["w"][k]) - number(&case["w"][k])).abs() < 1e-9,
                    "{name}"
                );
            }
            assert!(
                (number(&got["bias"]) - number(&case["bias"])).abs() < 1e-9,
                "{name}"
            );
            got
        };
        for (q, want) in case["decision_query"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            let diff = (number(&got["decision"][q]) - number(want)).abs();
            assert!(diff < 1e-6, "{name} query {q}: {diff}");
        }
        assert!(got.get("probability").is_none(), "{name}: no probabilities");
    }
    let data = scratch("ridge-bad.csv", SEPARABLE);
    fails_with(
        &[
            "fit",
            "--data",
            data.to_str().unwrap(),
            "--model",
            "krr",
            "--lambda",
            "0",
        ],
        "lambda <= 0",
    );
}

/// `cv` prints the folds, a cell per grid point with its fold accuracies, and the best cell;
/// `roc` the curve of the test decisions that `fit --test` prints.
#[test]
fn cv_and_roc_report_what_they_computed() {
    let rows: Vec<String> = (0..40)
        .map(|i| {
            let t = i as f64 / 40.0 * std::f64::consts::TAU;
            let label = i % 2;
            let r = if label == 0 { 0.3 } else { 0.8 };
            format!("{:.4},{:.4},{label}", r * t.cos(), r * t.sin())
        })
        .collect();
    let data = scratch("rings.csv", &rows.join("\n"));
    let data = data.to_str().unwrap();
    let cv = fit_json(&[
        "cv",
        "--data",
        data,
        "--folds",
        "4",
        "--seed",
        "2",
        "--grid",
        "C=0.1:10:3",
    ]);
    assert_eq!(cv["folds"].as_array().unwrap().len(), 40);
    let cells = cv["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 3);
    let mut means = Vec::new();
    for cell in cells {
        let folds: Vec<f64> = cell["fold_accuracy"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(folds.len(), 4);
        let mean = folds.iter().sum::<f64>() / 4.0;
        assert!((cell["mean"].as_f64().unwrap() - mean).abs() < 1e-12);
        means.push(mean);
    }
    let best = means.iter().cloned().fold(f64::MIN, f64::max);
    assert_eq!(cv["best"]["mean"].as_f64().unwrap(), best);
    let plain = fit_json(&["cv", "--data", data, "--folds", "5x2"]);
    assert_eq!(
        plain["folds"].as_array().unwrap().len(),
        5,
        "five repetitions"
    );
    assert_eq!(
        plain["cells"][0]["fold_accuracy"].as_array().unwrap().len(),
        10
    );
    fails_with(
        &["cv", "--data", data, "--folds", "1"],
        "from 2 to 20, loo or 5x2",
    );

    let test_rows: Vec<String> = (0..20)
        .map(|i| {
            let t = (i as f64 + 0.5) / 20.0 * std::f64::consts::TAU;
            let label = i % 2;
            let r = if i % 3 == 0 {
                0.55
            } else if label == 0 {
                0.35
            } else {
                0.75
            };
            format!("{:.4},{:.4},{label}", r * t.cos(), r * t.sin())
        })
        .collect();
    let test = scratch("rings-test.csv", &test_rows.join("\n"));
    let test = test.to_str().unwrap();
    let roc = fit_json(&["roc", "--data", data, "--test", test, "--gamma", "3"]);
    let fit = fit_json(&["fit", "--data", data, "--test", test, "--gamma", "3"]);
    assert_eq!(roc["decision"], fit["test_decision"]);
    assert!(roc["thresholds"][0].is_null(), "+∞ first");
    let fpr: Vec<f64> = roc["fpr"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let tpr: Vec<f64> = roc["tpr"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(fpr.windows(2).all(|w| w[0] <= w[1]) && tpr.windows(2).all(|w| w[0] <= w[1]));
    let area: f64 = fpr
        .windows(2)
        .zip(tpr.windows(2))
        .map(|(x, y)| (x[1] - x[0]) * (y[0] + y[1]) / 2.0)
        .sum();
    assert!((roc["auc"].as_f64().unwrap() - area).abs() < 1e-12);
    let one_class = scratch("one-class-test.csv", "0.1,0.1,0\n0.2,0.2,0\n");
    fails_with(
        &["roc", "--data", data, "--test", one_class.to_str().unwrap()],
        "need both classes",
    );
}

/// `render --view gram` and `render --view lift` draw the kernel views to SVG with the page's
/// code: the Gram matrix says when the sigmoid kernel is not a Mercer kernel, and the lift of
/// the degree-2 polynomial kernel draws the feature space's planes.
#[test]
fn render_draws_the_gram_matrix_and_the_kernel_lift() {
    const XOR: &str = "x,y,label\n0.5,0.5,0\n0.6,0.4,0\n-0.5,-0.5,0\n-0.4,-0.6,0\n\
                       -0.5,0.5,1\n-0.6,0.4,1\n0.5,-0.5,1\n0.4,-0.6,1\n";
    let data = scratch("xor.csv", XOR);
    let render = |view: &str, kernel: &[&str]| {
        let out = data.parent().unwrap().join(format!("{view}.svg"));
        let mut args = vec![
            "render",
            "--data",
            data.to_str().unwrap(),
            "--view",
            view,
            "--out",
            out.to_str().unwrap(),
            "--width",
            "900",
            "--height",
            "520",
        ];
        args.extend_from_slice(kernel);
        succeeds(&args);
        std::fs::read_to_string(&out).unwrap()
    };
    let gram = render(
        "gram",
        &["--kernel", "sigmoid", "--gamma", "2", "--coef0", "1"],
    );
    assert!(gram.starts_with("<svg"), "SVG");
    assert!(gram.contains("not a Mercer kernel"), "the headline");
    assert!(
        gram.matches("<rect").count() >= 64,
        "one cell per pair of points"
    );
    let gram = render("gram", &["--kernel", "rbf"]);
    assert!(gram.contains("positive semi-definite"));
    let lift = render(
        "lift",
        &["--kernel", "poly", "--degree", "2", "--coef0", "0"],
    );
    assert!(lift.starts_with("<svg"), "SVG");
    assert!(lift.contains("φ(x)"), "the feature map in the headline");
    assert!(lift.contains("<polygon"), "the planes");
    let lift = render("lift", &["--kernel", "rbf"]);
    assert!(lift.contains("z = f(x)"), "the surface");
}

/// `render --view path` computes the whole regularisation path and draws its three panels:
/// α against log C with the line α = C, ‖w‖ and the margin width, and the counts of support
/// vectors; with three classes it says plainly that there is no path.
#[test]
fn render_draws_the_regularisation_path() {
    const OVERLAPPING: &str = "x,y,label\n-0.5,-0.4,0\n-0.2,0.1,0\n0.1,-0.3,0\n0.3,0.2,0\n\
                               -0.6,0.2,0\n0.5,0.4,1\n0.2,-0.1,1\n-0.1,0.3,1\n-0.3,-0.2,1\n\
                               0.6,-0.2,1\n";
    const THREE: &str = "x,y,label\n-0.5,-0.4,0\n-0.4,-0.5,0\n0.5,0.4,1\n0.4,0.5,1\n\
                         0.5,-0.5,2\n0.4,-0.4,2\n";
    let render = |name: &str, csv: &str| {
        let data = scratch(&format!("{name}.csv"), csv);
        let out = data.parent().unwrap().join(format!("{name}.svg"));
        succeeds(&[
            "render",
            "--data",
            data.to_str().unwrap(),
            "--kernel",
            "linear",
            "--c",
            "0.5",
            "--view",
            "path",
            "--out",
            out.to_str().unwrap(),
            "--width",
            "900",
            "--height",
            "800",
        ]);
        std::fs::read_to_string(&out).unwrap()
    };
    let path = render("path", OVERLAPPING);
    assert!(path.starts_with("<svg"), "SVG");
    for label in [
        "log₁₀ α",
        "α = C",
        "now: C = 0.5",
        "‖w‖",
        "margin width 2/‖w‖",
        "free SVs",
        "bound SVs",
        "log₁₀ C",
    ] {
        assert!(path.contains(label), "{label}");
    }
    let three = render("path-three", THREE);
    assert!(three.contains("No path"), "the headline");
    assert!(three.contains("two classes"), "says why");
    assert!(!three.contains("‖w‖"), "no panels");
}

#[test]
fn path_prints_the_regularisation_path_as_scikit_learn_finds_it() {
    let fixtures: Value = serde_json::from_str(include_str!("fixtures/path_sklearn.json")).unwrap();
    for case in fixtures["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let data = training_file(case, &format!("path-{name}"));
        let json = fit_json(&[
            "path",
            "--data",
            data.to_str().unwrap(),
            "--kernel",
            case["kernel"].as_str().unwrap(),
            "--gamma",
            &case["gamma"].to_string(),
            "--tol",
            "1e-6",
            "--c-range",
            "1e-3:1e4:8",
        ]);
        let steps = case["steps"].as_array().unwrap();
        assert_eq!(json["C"].as_array().unwrap().len(), 8);
        for (k, step) in steps.iter().enumerate() {
            let c = step["C"].as_f64().unwrap();
            assert_eq!(json["C"][k].as_f64().unwrap(), c, "{name}: the C values");
            let alpha = json["alpha"][k].as_array().unwrap();
            for (got, want) in alpha.iter().zip(step["alpha"].as_array().unwrap()) {
                let (got, want) = (got.as_f64().unwrap(), want.as_f64().unwrap());
                assert!(
                    (got - want).abs() <= 1e-4 * c.max(1.0),
                    "{name} C = {c}: α {got} vs {want}"
                );
            }
            let w = json["w_norm"][k].as_f64().unwrap();
            let want = step["w_norm"].as_f64().unwrap();
            assert!(
                (w - want).abs() <= 1e-4 * want.max(1.0),
                "{name} C = {c}: ‖w‖ {w} vs {want}"
            );
            assert_eq!(json["n_free"][k], step["free"], "{name} C = {c}");
            assert_eq!(json["n_bound"][k], step["bound"], "{name} C = {c}");
        }
    }
    // Not the SVM: a one-line error.
    let data = scratch("path-knn.csv", SEPARABLE);
    fails_with(
        &["path", "--data", data.to_str().unwrap(), "--model", "knn"],
        "has none",
    );
    fails_with(
        &[
            "path",
            "--data",
            data.to_str().unwrap(),
            "--c-range",
            "1:0.1:5",
        ],
        "--c-range",
    );
}

const MOONS_LIKE: &str = "x,y,label\n-0.9,0.1,0\n-0.6,0.6,0\n0.0,0.9,0\n0.6,0.6,0\n0.3,0.1,0\n\
                          -0.3,-0.1,1\n0.0,-0.5,1\n0.6,-0.6,1\n1.2,-0.5,1\n1.5,0.0,1\n\
                          0.1,0.3,1\n-0.1,0.2,0\n";

/// `fit --steps N` stops SMO after N pair updates and reports the last pair, its α before and
/// after, and the maximal KKT violation; `--trace` adds the whole run's arrays.
#[test]
fn fit_steps_through_smo_and_traces_it() {
    let data = scratch("moons-like.csv", MOONS_LIKE);
    let args = |extra: &[&'static str]| {
        let mut args = vec![
            "fit",
            "--data",
            data.to_str().unwrap(),
            "--kernel",
            "rbf",
            "--gamma",
            "2",
            "--c",
            "10",
        ];
        args.extend_from_slice(extra);
        fit_json(&args)
    };
    let two = args(&["--steps", "2"]);
    assert_eq!(two["steps"], 2);
    assert_eq!(two["iterations"], 2);
    let pair = two["pair"].as_array().expect("the pair as indices");
    assert_eq!(pair.len(), 2);
    assert!(
        two["violation"].as_f64().unwrap() > 1e-3,
        "not optimal after 2 steps"
    );
    assert_eq!(two["alpha_before"].as_array().unwrap().len(), 2);
    let full = args(&["--trace"]);
    let trace = &full["trace"];
    let dual = trace["dual"].as_array().unwrap();
    assert_eq!(dual.len() as u64, full["iterations"].as_u64().unwrap() + 1);
    let last = dual.last().unwrap().as_f64().unwrap();
    assert!((last - full["objective"].as_f64().unwrap()).abs() < 1e-9 * last.abs());
    for key in ["primal", "gap", "violation", "support"] {
        assert_eq!(trace[key].as_array().unwrap().len(), dual.len(), "{key}");
    }
    assert!(full.get("pair").is_none(), "no pair without stepping");
}

/// `render --view trace` draws the stacked panels of SMO's trace.
#[test]
fn render_draws_the_training_trace() {
    let data = scratch("trace.csv", MOONS_LIKE);
    let out = data.parent().unwrap().join("trace.svg");
    succeeds(&[
        "render",
        "--data",
        data.to_str().unwrap(),
        "--kernel",
        "rbf",
        "--view",
        "trace",
        "--steps",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&out).unwrap();
    for label in [
        "dual D(α)",
        "primal P(w, b)",
        "max violation",
        "duality gap",
        "support vectors",
        "SMO iterations",
        "step 3 on show",
    ] {
        assert!(svg.contains(label), "{label}");
    }
}

/// `fit --solver dca|pegasos` for the SVM: with the linear kernel, `w` and `bias` (the weight of
/// the absorbed constant feature) as liblinear finds them (tests/fixtures/dca_liblinear.json,
/// made by tests/fixtures/make_dca_fixtures.py); Pegasos near liblinear's primal optimum;
/// stepping and the trace through the binary.
#[test]
fn fit_trains_the_svm_by_dca_and_pegasos() {
    let fixtures: Value =
        serde_json::from_str(include_str!("fixtures/dca_liblinear.json")).expect("fixture JSON");
    for case in fixtures["cases"].as_array().unwrap().iter().take(3) {
        let name = case["name"].as_str().unwrap();
        let data = training_file(case, &format!("dca-{name}"));
        let c = case["C"].as_f64().unwrap().to_string();
        let fit = |solver: &str, extra: &[&str]| {
            let mut args = vec![
                "fit",
                "--data",
                data.to_str().unwrap(),
                "--kernel",
                "linear",
                "--c",
                &c,
                "--solver",
                solver,
            ];
            args.extend_from_slice(extra);
            fit_json(&args)
        };
        let dca = fit("dca", &["--tol", "1e-9"]);
        assert_eq!(dca["parameters"]["solver"], "dca");
        assert_eq!(dca["solver"], "DCA");
        let w = dca["w"].as_array().expect("w for the linear kernel");
        assert_eq!(w.len(), 2);
        let want = case["w"].as_array().unwrap();
        for k in 0..2 {
            let (got, want) = (w[k].as_f64().unwrap(), want[k].as_f64().unwrap());
            assert!((got - want).abs() <= 1e-4, "{name}: w {got} vs {want}");
        }
        let (b, want_b) = (
            dca["bias"].as_f64().unwrap(),
            case["bias"].as_f64().unwrap(),
        );
        assert!((b - want_b).abs() <= 1e-4, "{name}: bias {b} vs {want_b}");

        let pegasos = fit("pegasos", &["--trace"]);
        assert_eq!(pegasos["iterations"], 20_000, "{name}");
        assert_eq!(pegasos["w"].as_array().unwrap().len(), 2);
        assert!(pegasos["bias"].is_number());
        let optimum = case["primal"].as_f64().unwrap();
        let primal = pegasos["trace"]["primal"].as_array().unwrap();
        let x = pegasos["trace"]["x"].as_array().unwrap();
        assert_eq!(x.len(), primal.len());
        assert!(primal.len() <= 2000, "{name}: thinned");
        assert_eq!(x.last().unwrap(), 20_000, "{name}: to the end");
        let reached = primal.last().unwrap().as_f64().unwrap();
        assert!(
            reached >= optimum * (1.0 - 1e-6) && reached <= 1.05 * optimum,
            "{name}: Pegasos {reached} vs liblinear's {optimum}"
        );

        // Three coordinate updates: the third point's α before and after, and the violation.
        let three = fit("dca", &["--steps", "3"]);
        assert_eq!(three["steps"], 3);
        assert_eq!(three["iterations"], 3);
        assert!(three["step_point"].as_u64().unwrap() < 40 * 3);
        assert!(three["alpha_after"].is_number() && three["violation"].is_number());
        let trace = fit("dca", &["--trace"]);
        for key in ["dual", "primal", "gap", "violation", "support"] {
            assert!(
                trace["trace"][key].as_array().unwrap().len() > 3,
                "{name}: {key}"
            );
        }
    }
    let data = scratch("separable-dca.csv", SEPARABLE);
    fails_with(
        &[
            "fit",
            "--data",
            data.to_str().unwrap(),
            "--solver",
            "dca",
            "--c",
            "inf",
        ],
        "DCA needs a finite C",
    );
    fails_with(
        &["fit", "--data", data.to_str().unwrap(), "--solver", "gd"],
        "unknown solver 'gd' (use smo, dca, pegasos)",
    );
    fails_with(
        &[
            "fit",
            "--data",
            data.to_str().unwrap(),
            "--model",
            "logistic",
            "--solver",
            "dca",
        ],
        "unknown solver 'dca' (use newton, gd)",
    );
}

/// Output that is larger than a pipe holds (about 400 kB of JSON), so the program is still
/// writing when its reader goes away.
fn large_fit_args() -> Vec<String> {
    let mut csv = String::from("x,y,label\n");
    for i in 0..8000 {
        csv.push_str(&format!("{},{},{}\n", i % 97, i % 89, i % 2));
    }
    let data = scratch("large.csv", &csv);
    ["fit", "--data", data.to_str().unwrap(), "--model", "knn"]
        .map(String::from)
        .to_vec()
}

#[test]
fn a_reader_that_stops_early_ends_the_program_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    // `fit … | head -c 1`: one byte read, then the pipe closed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_kernel-playground"))
        .args(large_fit_args())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    stdout.read_exact(&mut byte).unwrap();
    assert_eq!(&byte, b"{");
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn write_errors_are_one_line_naming_the_path() {
    let full = std::fs::File::options().write(true).open("/dev/full");
    let Ok(full) = full else {
        eprintln!("no /dev/full here: skipped");
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_kernel-playground"))
        .args(large_fit_args())
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: cannot write <stdout>: "),
        "{stderr}"
    );
    // Help goes the same way.
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kernel-playground"))
        .args(["fit", "--help"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: cannot write <stdout>: "));
    // A figure written to a full device, or where no directory is: the path is named.
    let good = scratch("good-for-figures.csv", SEPARABLE);
    let dir = good.parent().unwrap();
    for extension in ["png", "svg"] {
        let link = dir.join(format!("full.{extension}"));
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("/dev/full", &link).unwrap();
        let path = link.to_str().unwrap();
        fails_with(
            &[
                "render",
                "--data",
                good.to_str().unwrap(),
                "--out",
                path,
                "--width",
                "64",
                "--height",
                "64",
            ],
            &format!("cannot write {path}: No space left on device"),
        );
        let missing = dir.join(format!("no-such-dir/figure.{extension}"));
        let missing = missing.to_str().unwrap();
        fails_with(
            &[
                "render",
                "--data",
                good.to_str().unwrap(),
                "--out",
                missing,
                "--width",
                "64",
                "--height",
                "64",
            ],
            &format!("cannot write {missing}: "),
        );
    }
}

/// `fit --model bayeslogistic` prints the contract: `w_map` (logistic regression's
/// `coef` order, then the bias), `posterior_cov`, `log_evidence`, `occam`, `bic` (null with a
/// `bic_message` where w_ML does not exist), and per query point `probability` (the MAP
/// σ(w_MAPᵀφ̃)) and `predictive` (the probit approximation), each as the independent SciPy
/// computation in tests/fixtures/bayes_logistic_scipy.json gives it, to 10⁻⁶.
#[test]
fn fit_prints_the_bayesian_logistic_contract() {
    let fixtures: Value =
        serde_json::from_str(include_str!("fixtures/bayes_logistic_scipy.json")).unwrap();
    let cases = fixtures["cases"].as_array().unwrap();
    let case = |name: &str| {
        cases
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no case {name}"))
    };
    let numbers = |v: &Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let close = |got: f64, want: f64, what: &str| {
        assert!(
            (got - want).abs() <= 1e-6 * want.abs().max(1.0),
            "{what}: {got} vs SciPy {want}"
        );
    };
    for (name, defined) in [
        ("poly_d3_xornoisy_l0p5", true),
        ("linear_overlapping_l1", true),
        ("poly_d2_rings_l0p05", false),
    ] {
        let c = case(name);
        let mut csv = String::from("x,y,label\n");
        for (p, l) in c["x"]
            .as_array()
            .unwrap()
            .iter()
            .zip(c["labels"].as_array().unwrap())
        {
            csv += &format!("{},{},{}\n", p[0], p[1], l);
        }
        let mut query = String::from("x,y\n");
        for q in c["query"].as_array().unwrap() {
            query += &format!("{},{}\n", q[0], q[1]);
        }
        let data = scratch(&format!("bayes-{name}.csv"), &csv);
        let queries = scratch(&format!("bayes-{name}-q.csv"), &query);
        let lambda = c["lambda"].as_f64().unwrap().to_string();
        let degree = c["degree"].to_string();
        let features = c["features"].as_str().unwrap();
        let base = [
            "fit",
            "--data",
            data.to_str().unwrap(),
            "--lambda",
            &lambda,
            "--features",
            features,
            "--degree",
            &degree,
            "--query",
            queries.to_str().unwrap(),
        ];
        let out = fit_json(&[&base[..], &["--model", "bayeslogistic"]].concat());
        let logistic = fit_json(&[&base[..], &["--model", "logistic"]].concat());
        let w_map = numbers(&out["w_map"]);
        assert_eq!(w_map.len(), numbers(&logistic["coef"]).len() + 1, "{name}");
        assert_eq!(out["feature_names"], logistic["feature_names"], "{name}");
        for (j, (got, want)) in w_map.iter().zip(numbers(&c["w_map"])).enumerate() {
            close(*got, want, &format!("{name}: w_map[{j}]"));
        }
        let cov = out["posterior_cov"].as_array().unwrap();
        assert_eq!(cov.len(), w_map.len());
        for (row, want) in cov.iter().zip(c["posterior_cov"].as_array().unwrap()) {
            for (got, want) in numbers(row).iter().zip(numbers(want)) {
                close(*got, want, &format!("{name}: posterior_cov"));
            }
        }
        for key in ["log_evidence", "occam"] {
            close(
                out[key].as_f64().unwrap(),
                c[key].as_f64().unwrap(),
                &format!("{name}: {key}"),
            );
        }
        if defined {
            close(
                out["bic"].as_f64().unwrap(),
                c["bic"].as_f64().unwrap(),
                &format!("{name}: bic"),
            );
            assert!(out.get("bic_message").is_none(), "{name}");
        } else {
            assert!(out["bic"].is_null(), "{name}: {}", out["bic"]);
            let message = out["bic_message"].as_str().unwrap();
            assert!(
                message.contains("w_ML") && message.contains("separable"),
                "{message}"
            );
        }
        for key in ["probability", "predictive"] {
            let got = numbers(&out[key]);
            let want = numbers(&c[key]);
            assert_eq!(got.len(), want.len(), "{name}: {key}");
            for (g, w) in got.iter().zip(&want) {
                close(*g, *w, &format!("{name}: {key}"));
            }
        }
        // The logistic model's probability column is still its own σ(f).
        for (p, f) in numbers(&logistic["probability"])
            .iter()
            .zip(numbers(&logistic["decision"]))
        {
            assert!((p - 1.0 / (1.0 + (-f).exp())).abs() < 1e-12);
        }
    }
}

/// `fit --model logistic --multi-class multinomial` prints `probability` as scikit-learn's
/// `predict_proba` (one row per query point, the classes in increasing order; p of the larger
/// label for two classes) and `predicted` as its `predict`, on every case of
/// tests/fixtures/softmax_sklearn.json, to 10⁻⁵; without the flag, one-vs-rest.
#[test]
fn fit_prints_the_multinomial_contract() {
    let fixtures: Value =
        serde_json::from_str(include_str!("fixtures/softmax_sklearn.json")).unwrap();
    for case in fixtures["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let (data, query) = fixture_files(case, &format!("softmax-{name}"));
        let lambda = case["lambda"].to_string();
        let degree = case["degree"].to_string();
        let gamma = case["gamma"].as_f64().unwrap_or(1.0).to_string();
        let base = [
            "fit",
            "--data",
            data.to_str().unwrap(),
            "--model",
            "logistic",
            "--lambda",
            &lambda,
            "--features",
            case["features"].as_str().unwrap(),
            "--degree",
            &degree,
            "--gamma",
            &gamma,
            "--query",
            query.to_str().unwrap(),
        ];
        let got = fit_json(&[&base[..], &["--multi-class", "multinomial"]].concat());
        assert_eq!(got["classes"], case["classes"], "{name}");
        assert_eq!(got["scheme"], "multinomial", "{name}");
        assert_eq!(got["parameters"]["multi"], "multinomial", "{name}");
        let classes = case["classes"].as_array().unwrap().len();
        let want = case["proba_query"].as_array().unwrap();
        for (q, want) in want.iter().enumerate() {
            let want: Vec<f64> = want
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let shown = &got["probability"][q];
            let shown: Vec<f64> = if classes == 2 {
                vec![1.0 - shown.as_f64().unwrap(), shown.as_f64().unwrap()]
            } else {
                let row = shown.as_array().unwrap();
                assert_eq!(row.len(), classes, "{name}: one column per class");
                row.iter().map(|v| v.as_f64().unwrap()).collect()
            };
            for (k, (g, w)) in shown.iter().zip(&want).enumerate() {
                assert!(
                    (g - w).abs() < 1e-5,
                    "{name} query {q} class {k}: {g} vs {w}"
                );
            }
            let mut sorted = want.clone();
            sorted.sort_by(|a, b| b.total_cmp(a));
            if sorted[0] - sorted[1] > 1e-6 {
                assert_eq!(
                    got["predicted"][q], case["predicted_query"][q],
                    "{name} {q}"
                );
            }
        }
        let coef = got["coef"].as_array().unwrap();
        assert_eq!(coef.len(), classes, "{name}: one row of coef per class");
        // The default is one-vs-rest.
        let ovr = fit_json(&base);
        assert_eq!(ovr["parameters"]["multi"], "ovr", "{name}");
        if classes > 2 {
            assert_eq!(ovr["scheme"], "ovr", "{name}");
        }
    }
    let data = scratch("softmax-bad.csv", SEPARABLE);
    fails_with(
        &[
            "fit",
            "--data",
            data.to_str().unwrap(),
            "--model",
            "logistic",
            "--multi-class",
            "softmax",
        ],
        "use ovr, multinomial",
    );
}

#[test]
fn export_python_writes_the_scene_from_data_a_link_or_a_scene_file() {
    let data = scratch(
        "export.csv",
        "x,y,label\n1.50,2,3\n-0.25,6.02E8,7\n0.5,-1,3\n2,0.125,7\n",
    );
    let test = scratch("export-test.csv", "x,y,label\n0.75,1.0,7\n");
    let out = succeeds(&[
        "export-python",
        "--data",
        data.to_str().unwrap(),
        "--test",
        test.to_str().unwrap(),
        "--kernel",
        "linear",
        "--c",
        "0.3125",
    ]);
    let script = String::from_utf8(out.stdout).unwrap();
    for line in [
        "    (1.50, 2, 3, False),",
        "    (-0.25, 6.02E8, 7, False),",
        "    (0.75, 1.0, 7, True),",
        "    return SVC(kernel=\"linear\", gamma=2.0, degree=3, coef0=0.0, C=0.3125, tol=0.001)",
    ] {
        assert!(script.contains(line), "{line} in\n{script}");
    }
    // A link carries every setting and its window; a page's whole address is taken too.
    let link = "https://example.org/lab/#model=knn&k=3&preset=moons&n=20&window=-2,2,-1.5,1.5";
    let out = dir_file("export.py");
    let written = succeeds(&[
        "export-python",
        "--link",
        link,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&written.stdout).starts_with("wrote "));
    let script = std::fs::read_to_string(&out).unwrap();
    assert!(script.contains("KNeighborsClassifier(\n        n_neighbors=3,\n"));
    assert!(script.contains("WINDOW = (-2.0, 2.0, -1.5, 1.5)"));
    assert_eq!(script.matches(", False),\n").count(), 20);
    // A scene file, as the page's "Save scene" writes it.
    let lab = kernel_playground::lab::playground::Playground::from_hash(
        "model=qda&reg=0.25&points=1,1,0;2,1.5,0;1.5,2,0;4,4,1;5,4.5,1;4.5,5,1,t",
    );
    let scene = scratch(
        "export-scene.json",
        &lab.settings().to_scene_json(lab.data(), lab.test()),
    );
    let script =
        String::from_utf8(succeeds(&["export-python", "--scene", scene.to_str().unwrap()]).stdout)
            .unwrap();
    assert!(script.contains("    return QuadraticDiscriminantAnalysis(reg_param=0.25)"));
    assert!(script.contains("    (4.5, 5, 1, True),"));
    // A model flag beside a link would be ignored: it is refused instead.
    fails_with(
        &["export-python", "--link", "#model=svm", "--kernel", "poly"],
        "--link carries every setting: drop --kernel",
    );
    fails_with(&["export-python"], "give the scene: --data FILE");
    fails_with(&["export-python", "--link", "#model=svm&C=0"], "C");
}

fn dir_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kp-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn kernel_takes_a_kernel_built_by_rule() {
    let data = scratch("rule.csv", SEPARABLE);
    let data = data.to_str().unwrap();
    let query = scratch("rule-query.csv", "0.2,0.3\n-0.7,0.1\n");
    let query = query.to_str().unwrap();
    let fit = |kernel: &[&str]| {
        let mut args = vec!["fit", "--data", data, "--query", query, "--c", "3"];
        args.extend_from_slice(kernel);
        fit_json(&args)
    };
    // (xᵀz + 1)² by rule is the polynomial kernel of degree 2 with γ = 1 and coef0 = 1, to the
    // bit; written with --kexpr or straight into --kernel.
    let rule = fit(&["--kernel", "(linear + 1)^2"]);
    let named = fit(&[
        "--kernel", "poly", "--degree", "2", "--gamma", "1", "--coef0", "1",
    ]);
    let flagged = fit(&["--kernel", "composed", "--kexpr", "(linear+1)^2"]);
    assert!(rule["decision"].as_array().is_some_and(|d| d.len() == 2));
    assert_eq!(rule["decision"], named["decision"]);
    assert_eq!(rule["decision"], flagged["decision"]);
    // Another composition is another model.
    let other = fit(&["--kernel", "rbf(3) * linear + 0.5"]);
    assert_ne!(other["decision"], rule["decision"]);
    fails_with(
        &["fit", "--data", data, "--kernel", "rbf * "],
        "kernel expression needs a kernel, a number or '(' at character 6",
    );
    fails_with(
        &["fit", "--data", data, "--kernel", "rbf - linear"],
        "kernel expression needs an operator",
    );
    fails_with(
        &["fit", "--data", data, "--kernel", "rfb"],
        "unknown kernel 'rfb'",
    );
    // Text no expression could hold is an unknown kernel, as before.
    fails_with(
        &["fit", "--data", data, "--kernel", "<b>rbf</b>"],
        "unknown kernel '<b>rbf</b>'",
    );
    fails_with(
        &[
            "fit", "--data", data, "--kernel", "composed", "--kexpr", "-rbf",
        ],
        "minus sign",
    );
}

/// `fit --model nusvc` prints the C-SVM's fields (`decision`, `predicted`, `alpha`, `support`,
/// `bias`) as scikit-learn's `NuSVC` finds them, with `margin_error_fraction` ≤ ν ≤
/// `support_fraction`; more classes give one-vs-one score lists; a ν outside (0, 1] or an
/// infeasible one is one line and status 2.
#[test]
fn fit_prints_the_nu_svc_contract() {
    use common::numbers;
    let fixtures: Value =
        serde_json::from_str(include_str!("fixtures/nusvc_sklearn.json")).unwrap();
    // A case's fit at tol 10⁻⁶ on its query points, and ν's place between the fractions.
    let fit_case = |case: &Value| {
        let name = format!("nusvc-{}", case["name"].as_str().unwrap());
        let (data, query) = fixture_files(case, &name);
        let mut args: Vec<String> = ["fit", "--data", data.to_str().unwrap(), "--query"]
            .iter()
            .map(|a| a.to_string())
            .collect();
        args.extend([
            query.to_str().unwrap().into(),
            "--model".into(),
            "nusvc".into(),
        ]);
        for key in ["nu", "kernel", "gamma", "degree", "coef0", "tol"] {
            let value = &case[key];
            args.push(format!("--{key}"));
            args.push(
                value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_string),
            );
        }
        let json = fit_json(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let nu = case["nu"].as_f64().unwrap();
        let errors = json["margin_error_fraction"].as_f64().unwrap();
        let support = json["support_fraction"].as_f64().unwrap();
        assert!(
            errors <= nu && nu <= support,
            "{name}: {errors} ≤ {nu} ≤ {support}"
        );
        assert_eq!(json["model"], "nusvc");
        (name, json)
    };
    let cases = fixtures["cases"].as_array().unwrap();
    for case in cases.iter().filter(|c| c["bias"].is_number()).step_by(3) {
        let (name, json) = fit_case(case);
        let want = numbers(&case["decision_query"]);
        for (got, want) in numbers(&json["decision"]).iter().zip(&want) {
            assert!(
                (got - want).abs() <= 1e-3 * want.abs().max(1.0),
                "{name}: {got} vs {want}"
            );
        }
        assert_eq!(json["predicted"].as_array().unwrap().len(), want.len());
        assert_eq!(json["support"], case["support"], "{name}");
        assert_eq!(
            json["alpha"].as_array().unwrap().len(),
            case["x"].as_array().unwrap().len()
        );
        let bias = case["bias"].as_f64().unwrap();
        assert!((json["bias"].as_f64().unwrap() - bias).abs() <= 1e-3 * bias.abs().max(1.0));
    }
    let three = cases.iter().find(|c| c["pairs"].is_array()).unwrap();
    let (_, json) = fit_case(three);
    assert_eq!(json["scheme"], "ovo");
    assert_eq!(json["predicted"], three["predicted_query"]);
    for scores in json["decision"].as_array().unwrap() {
        assert_eq!(scores.as_array().unwrap().len(), 3, "one score per class");
    }

    // 3 against 7 points: ν·10/2 ≤ 3 means ν ≤ 0.6.
    let small = scratch(
        "nusvc-small.csv",
        "0,0,1\n0.2,0.1,1\n0.1,0.3,1\n1,1,2\n1.2,1,2\n1,1.3,2\n1.4,1.2,2\n1.1,0.8,2\n0.9,1.2,2\n1.3,0.9,2\n",
    );
    let small = small.to_str().unwrap();
    let fit = |nu: &'static str| vec!["fit", "--data", small, "--model", "nusvc", "--nu", nu];
    fails_with(&fit("0.7"), "infeasible");
    fails_with(&fit("0.7"), "choose ν ≤ 0.6");
    fails_with(&fit("0"), "nu must be in (0, 1]");
    fails_with(&fit("1.5"), "nu must be between 0 and 1");
    fails_with(&fit("-0.2"), "nu must be between 0 and 1");
    fails_with(&fit("nan"), "nu must be a finite number");
    succeeds(&fit("0.5"));
}

/// `fit --task regression --model krr` prints β and f at the query points as scikit-learn's
/// `KernelRidge(alpha=0.1, kernel="rbf", gamma=1)` gives them on these five points (its
/// `dual_coef_` and `predict` at 0 and 0.25, to 8 digits), with RMSE and R²; a file with a
/// label column, a classification model and a single point are one line and status 2.
#[test]
fn fit_regresses_with_kernel_ridge_as_scikit_learn() {
    let data = scratch(
        "regress.csv",
        "x,t\n-1,0.1\n-0.5,-0.4\n0,0.05\n0.5,0.45\n1,0.2\n",
    );
    let query = scratch("regress-query.csv", "x\n0\n0.25\n");
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();
    let (data, query) = (path(&data), path(&query));
    let out = succeeds(&[
        "fit",
        "--task",
        "regression",
        "--model",
        "krr",
        "--kernel",
        "rbf",
        "--gamma",
        "1",
        "--lambda",
        "0.1",
        "--data",
        &data,
        "--query",
        &query,
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = |key: &str| -> Vec<f64> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let reference = [1.01863468, -1.56708287, 0.29389994, 0.95051866, -0.45624732];
    for (got, want) in list("dual_coef").iter().zip(reference) {
        assert!((got - want).abs() < 1e-8, "{got} against {want}");
    }
    for (got, want) in list("prediction").iter().zip([0.02061001, 0.22968173]) {
        assert!((got - want).abs() < 1e-8, "{got} against {want}");
    }
    assert!(json["train_rmse"].as_f64().unwrap() > 0.0);
    assert!(json["train_r2"].as_f64().unwrap() < 1.0);
    let labelled = path(&scratch("regress-labels.csv", "1,2,0\n2,3,1\n"));
    fails_with(
        &["fit", "--task", "regression", "--data", &labelled],
        "a regression file has two columns, x and t",
    );
    fails_with(
        &[
            "fit",
            "--task",
            "regression",
            "--model",
            "svm",
            "--data",
            &data,
        ],
        "unknown model 'svm' for regression (use svr, nusvr, krr",
    );
    let single = path(&scratch("regress-one.csv", "x,t\n1,2\n"));
    fails_with(
        &["fit", "--task", "regression", "--data", &single],
        "at least two points",
    );
}

/// `fit --task regression --model svr` as scikit-learn's `SVR(C=10, epsilon=0.1, gamma=1)`
/// fits these five points (its `dual_coef_`, `support_`, `intercept_` and `predict`, at the
/// default tolerance 10⁻³ of both, so f and b to 2·10⁻³, α − α* to 5·10⁻³).
#[test]
fn fit_regresses_with_epsilon_svr_as_scikit_learn() {
    let data = scratch(
        "svr.csv",
        "x,t\n-1,0.1\n-0.5,-0.4\n0,0.05\n0.5,0.45\n1,0.2\n",
    );
    let query = scratch("svr-query.csv", "x\n0\n0.25\n");
    let path = |p: &PathBuf| p.to_str().unwrap().to_string();
    let (data, query) = (path(&data), path(&query));
    let out = succeeds(&[
        "fit",
        "--task",
        "regression",
        "--model",
        "svr",
        "--kernel",
        "rbf",
        "--gamma",
        "1",
        "--c",
        "10",
        "--epsilon",
        "0.1",
        "--data",
        &data,
        "--query",
        &query,
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = |key: &str| -> Vec<f64> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let reference = [0.94415502, -1.50662474, 0.0, 1.10109676, -0.53862703];
    for (got, want) in list("dual_coef").iter().zip(reference) {
        assert!((got - want).abs() < 5e-3, "{got} against {want}");
    }
    assert_eq!(list("support"), vec![0.0, 1.0, 3.0, 4.0]);
    assert!((json["bias"].as_f64().unwrap() - 0.12293948).abs() < 2e-3);
    assert_eq!(json["epsilon"].as_f64(), Some(0.1));
    for (got, want) in list("prediction").iter().zip([-0.04370063, 0.18988046]) {
        assert!((got - want).abs() < 2e-3, "{got} against {want}");
    }
}

/// `fit --task novelty --model oneclass` as scikit-learn's `OneClassSVM(nu=0.2, gamma=1,
/// tol=1e-6)` fits these 30 points (three far ones first): ρ (its `offset_`), the decision
/// values of the first four points and the support vectors; the ν-property holds.
#[test]
fn fit_detects_novelty_as_scikit_learns_one_class_svm() {
    let rows = "1.5,1.5\n-1.4,1.2\n1.3,-1.6\n-0.808,-0.0928\n-0.3461,1.3292\n0.0903,-0.1411\n\
                -0.1125,-0.2672\n-0.4221,-0.1563\n0.1928,-0.0954\n0.3831,-0.0799\n0.0097,0.6183\n\
                0.218,-0.2021\n-0.0731,0.2162\n0.774,-0.1078\n-0.0974,0.4009\n-0.3546,-0.1167\n\
                0.353,0.2321\n0.0366,0.268\n-1.1313,0.4085\n-0.3839,-0.6674\n0.1106,0.2802\n\
                -0.1779,-0.4306\n0.0104,-0.0211\n0.5622,0.299\n0.0775,0.4447\n-0.0822,-0.3704\n\
                0.2336,0.233\n-0.0859,-0.3131\n0.0917,-0.9976\n0.276,0.1965\n";
    let data = scratch("novelty.csv", rows);
    let data = data.to_str().unwrap();
    let out = succeeds(&[
        "fit", "--task", "novelty", "--model", "oneclass", "--nu", "0.2", "--kernel", "rbf",
        "--gamma", "1", "--tol", "1e-6", "--data", data,
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((json["rho"].as_f64().unwrap() - 1.22674212).abs() < 1e-6);
    let decision: Vec<f64> = json["decision"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    for (got, want) in decision
        .iter()
        .zip([-1.43349017e-01, 8.36677898e-08, -7.78157184e-02])
    {
        assert!((got - want).abs() < 1e-5, "{got} against {want}");
    }
    let support: Vec<u64> = json["support"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(support, vec![0, 1, 2, 3, 4, 13, 18, 19, 23, 28]);
    let (outliers, supports) = (
        json["outlier_fraction"].as_f64().unwrap(),
        json["support_fraction"].as_f64().unwrap(),
    );
    assert!(
        outliers <= 0.2 && 0.2 <= supports,
        "{outliers} ≤ 0.2 ≤ {supports}"
    );
    assert_eq!(json["predicted"][0], -1);
}

/// Each setting has one flag, `--key`; `--solver` is the chosen model's own (the SVM's or
/// logistic regression's). The flags of earlier versions still set the key they stood for:
/// `--svm_solver` the SVM's `solver`, `--learning-rate` and `--multi-class` logistic
/// regression's `lr` and `multi`.
#[test]
fn old_flags_set_the_key_they_stood_for() {
    let data = scratch("old-flags.csv", SEPARABLE);
    let data = data.to_str().unwrap();
    // The fit's result without its wall-clock time.
    let fit = |extra: &[&str]| {
        let mut fit = fit_json(&[&["fit", "--data", data][..], extra].concat());
        fit.as_object_mut()
            .unwrap()
            .remove("fit_ms")
            .expect("a time");
        fit
    };
    let svm = fit(&["--solver", "dca"]);
    assert_eq!(svm["parameters"]["solver"], "dca");
    assert_eq!(svm, fit(&["--svm_solver", "dca"]));
    // Each model's `--solver` takes its own solvers only.
    fails_with(
        &["fit", "--data", data, "--solver", "gd"],
        "unknown solver 'gd' (use smo, dca, pegasos)",
    );
    fails_with(
        &[
            "fit", "--data", data, "--model", "logistic", "--solver", "dca",
        ],
        "unknown solver 'dca' (use newton, gd)",
    );
    let logistic = ["--model", "logistic", "--solver", "gd"];
    let new = fit(&[&logistic[..], &["--lr", "2", "--multi", "multinomial"]].concat());
    assert_eq!(new["parameters"]["lr"], "2");
    assert_eq!(new["parameters"]["multi"], "multinomial");
    let old = fit(&[
        &logistic[..],
        &["--learning-rate", "2", "--multi-class", "multinomial"],
    ]
    .concat());
    assert_eq!(new, old);
}

/// `render --link` draws a link's scene; `--regions grid` draws the plane as the page paints it,
/// the regions at the field grid's resolution stretched over the plot (the page's first
/// picture, built by scripts/build-web.sh), a smaller file than with the plot-sized regions.
#[test]
fn render_draws_a_link_with_the_regions_at_the_grid() {
    let dir = scratch("first.txt", "").parent().unwrap().to_path_buf();
    let (at_grid, at_plot) = (dir.join("first-grid.svg"), dir.join("first-plot.svg"));
    for (out, regions) in [(&at_grid, "grid"), (&at_plot, "plot")] {
        let out = out.to_str().unwrap();
        let args = ["render", "--link", "#", "--regions", regions, "--out", out];
        succeeds(&[&args[..], &["--width", "480", "--height", "480"]].concat());
    }
    let grid = std::fs::read_to_string(&at_grid).unwrap();
    let plot = std::fs::read_to_string(&at_plot).unwrap();
    assert_eq!(grid.matches("<image").count(), 1);
    // The same image place and size, drawn from fewer pixels (the grid's size is checked in
    // `draw::svg`'s own tests).
    let place = |svg: &str| {
        let at = svg.find("<image").unwrap();
        svg[at..at + svg[at..].find(" preserveAspectRatio").unwrap()].to_string()
    };
    assert_eq!(place(&grid), place(&plot));
    assert!(
        grid.len() * 4 < plot.len() * 3,
        "{} against {} bytes",
        grid.len(),
        plot.len()
    );
    // Everything else is the same drawing: the default scene's hundred points and the axes.
    let after_image = |svg: &str| {
        svg[svg.find("<image").unwrap()..]
            .split_once("/>")
            .unwrap()
            .1
            .to_string()
    };
    assert_eq!(after_image(&grid), after_image(&plot));
    assert_eq!(
        grid.matches("<circle").count(),
        plot.matches("<circle").count()
    );
    // A link names its own scene.
    let knn = dir.join("knn.svg");
    succeeds(&[
        "render",
        "--link",
        "https://example.org/lab/#model=knn&preset=xor&n=40&k=3",
        "--out",
        knn.to_str().unwrap(),
    ]);
    assert!(std::fs::read_to_string(&knn).unwrap().contains("<image"));
    let png = dir.join("first.png");
    fails_with(
        &[
            "render",
            "--link",
            "#",
            "--regions",
            "grid",
            "--out",
            png.to_str().unwrap(),
        ],
        "--regions grid draws the plane view's SVG only",
    );
    fails_with(
        &[
            "render",
            "--link",
            "#",
            "--c",
            "3",
            "--out",
            at_grid.to_str().unwrap(),
        ],
        "--link carries every setting: drop --c",
    );
    fails_with(
        &["render", "--out", at_grid.to_str().unwrap()],
        "give the scene: --data FILE",
    );
}

//! `kernel-playground`: the lab on the command line, for scripting and for figures.
//!
//! - `fit` trains on a CSV file and prints one JSON object (multipliers, bias, support vectors,
//!   slacks, decision values…), comparable with scikit-learn's SVC;
//! - `render` draws the scene exactly as the page does, to SVG or PNG;
//! - `cv` cross-validates the model, or a grid of parameter values, over seeded stratified folds;
//! - `roc` gives the ROC curve and AUC of the decision values on held-out points;
//! - `export-python` writes a Python script that rebuilds the scene with scikit-learn;
//! - `bench` times fits and field evaluation (see `bench.rs`).
//!
//! Files are read as the page reads them ([`Dataset::read`]: any encoding, delimiter and
//! columns of `kernel_playground::table`); `--columns` chooses the columns.
//!
//! Bad input exits with status 2 and one line naming the problem. Output never panics: a
//! reader that stops early (`| head -c 1`, a closed pipe) ends the program quietly with status
//! 0; any other write error exits with status 2 and one line naming the path (`<stdout>` for
//! the standard output).

mod bench;
mod novelty;
mod regression;

use clap::{Arg, ArgMatches, Command};
use kernel_playground::data::files;
use kernel_playground::data::{Dataset, Point};
use kernel_playground::model::FactValue;
use kernel_playground::params::{param, Effect, Group, Kind, Param, EXPRESSION_KEY, PARAMS};
use kernel_playground::plane::Layout;
use kernel_playground::playground::{Playground, STEPS_KEY};
use kernel_playground::registry::{self, METHODS};
use kernel_playground::roc::Roc;
use kernel_playground::state::Settings;
use kernel_playground::table::ColumnRef;
use kernel_playground::task::Task;
use kernel_playground::validation::{self, Axis, Folds};
use kernel_playground::views::{self, Cache, VIEWS};
use kernel_playground::Error;
use plotters::prelude::BitMapBackend;
use serde_json::{json, Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The command line: its subcommands, with the model flags made from the parameter table.
fn cli() -> Command {
    let mut ids: Vec<&str> = METHODS.iter().map(|m| m.id()).collect();
    ids.dedup();
    let view_ids: Vec<&str> = VIEWS.iter().map(|v| v.id()).collect();
    let model_args = |command: Command| {
        let mut command = command
            .arg(
                Arg::new("data")
                    .long("data")
                    .required(true)
                    .value_parser(clap::value_parser!(PathBuf))
                    .help(
                        "Training data: x,y,label rows (comma, semicolon, tab or space \
                         separated; a header, more columns, text labels and any common \
                         encoding are read; LIBSVM's format too)",
                    ),
            )
            .arg(Arg::new("columns").long("columns").help(
                "The x, y and label columns of every file read, as 1-based numbers or \
                         header names, e.g. 1,2,5 or sepal_length,sepal_width,species \
                         (default: the first two numeric columns, and the column named \
                         label, class or target, else the last one)",
            ))
            .arg(
                Arg::new("task")
                    .long("task")
                    .default_value("classification")
                    .help(
                        "classification (x,y,label rows), regression (x,t rows: fit t ≈ f(x)) \
                         or novelty",
                    ),
            )
            .arg(
                Arg::new("model")
                    .long("model")
                    .default_value(METHODS[0].id())
                    .help(format!("The method: {}", ids.join(", "))),
            )
            .arg(
                Arg::new("max-iter")
                    .long("max-iter")
                    .default_value("10000000")
                    .value_parser(clap::value_parser!(usize))
                    .help("The iteration cap of iterative solvers (SMO: LIBSVM's default)"),
            )
            .arg(
                Arg::new("steps")
                    .long("steps")
                    .value_parser(clap::value_parser!(usize))
                    .help(
                        "Stop a steppable method after N updates, as the page's Step does \
                         (the SVM: N SMO pair updates, DCA coordinate updates or Pegasos \
                         steps; the fit reports the last pair or point and the KKT violation)",
                    ),
            );
        // One flag per parameter row: --key (lower case), the row's default; a flag of an
        // earlier version that is no key today still works, unlisted ([`OLD_FLAGS`]).
        for row in PARAMS.iter().filter(|p| command_line_row(p)) {
            let long: &'static str = Box::leak(row.key.to_ascii_lowercase().into_boxed_str());
            let old = OLD_FLAGS
                .iter()
                .filter(|(old, key)| *key == row.key && param(old).is_none())
                .map(|(old, _)| *old);
            let arg = Arg::new(row.key)
                .long(long)
                .aliases(old)
                .allow_hyphen_values(true)
                .default_value(row.default)
                .help(flag_help(row));
            command = command.arg(arg);
        }
        command
    };
    Command::new("kernel-playground")
        .version(env!("CARGO_PKG_VERSION"))
        .about(
            "Kernel SVMs and their relatives on points in the plane: classification, regression \
             and novelty detection",
        )
        .subcommand_required(true)
        .subcommand(
            model_args(Command::new("fit"))
                .about("Fit a model to x,y,label rows and print the result as JSON")
                .arg(
                    Arg::new("query")
                        .long("query")
                        .value_parser(clap::value_parser!(PathBuf))
                        .help("Points to evaluate (x,y rows); the training points when absent"),
                )
                .arg(
                    Arg::new("test")
                        .long("test")
                        .value_parser(clap::value_parser!(PathBuf))
                        .help("Held-out points (x,y,label rows) to score: test_accuracy and more"),
                )
                .arg(
                    Arg::new("trace")
                        .long("trace")
                        .action(clap::ArgAction::SetTrue)
                        .help(
                            "Add the per-iteration arrays of the whole run (SMO and DCA: dual, \
                             primal, gap, violation, support; Pegasos: primal, support; \
                             perceptron: mistakes per epoch; logistic: J and gradient norm), \
                             and x, the iteration of each value (long runs are thinned)",
                        ),
                ),
        )
        .subcommand(
            model_args(Command::new("render"))
                .about("Draw a view of the fitted scene, as the page does, to .svg or .png")
                .arg(
                    Arg::new("out")
                        .long("out")
                        .required(true)
                        .value_parser(clap::value_parser!(PathBuf))
                        .help("Output file; its extension (.svg or .png) chooses the format"),
                )
                .arg(
                    Arg::new("view")
                        .long("view")
                        .default_value(VIEWS[0].id())
                        .help(format!("Which view: {}", view_ids.join(", "))),
                )
                .arg(
                    Arg::new("width")
                        .long("width")
                        .default_value("800")
                        .value_parser(clap::value_parser!(u32)),
                )
                .arg(
                    Arg::new("height")
                        .long("height")
                        .default_value("800")
                        .value_parser(clap::value_parser!(u32)),
                ),
        )
        .subcommand(
            model_args(Command::new("cv"))
                .about("Cross-validate the model, or a grid of parameter values, and print JSON")
                .arg(
                    Arg::new("folds")
                        .long("folds")
                        .default_value("5")
                        .help("k (2 to 20) stratified folds, loo or 5x2"),
                )
                .arg(
                    Arg::new("seed")
                        .long("seed")
                        .default_value("1")
                        .value_parser(clap::value_parser!(u64))
                        .help("Seeds the folds' shuffle"),
                )
                .arg(Arg::new("grid").long("grid").help(
                    "One or two axes key=lo:hi:count (log-spaced), comma-separated, e.g. \
                     C=1e-2:1e4:13,gamma=1e-2:1e3:13",
                )),
        )
        .subcommand(
            model_args(Command::new("path"))
                .about("The SVM's regularisation path: every α_i, ‖w‖ and the counts of free and bound support vectors over log-spaced C, as JSON")
                .arg(
                    Arg::new("c-range")
                        .long("c-range")
                        .default_value("1e-3:1e4:50")
                        .help("lo:hi:N, N log-spaced values of C from lo to hi (N ≤ 50)"),
                ),
        )
        .subcommand(
            model_args(Command::new("roc"))
                .about("The ROC curve and its area of the model's decision values on test points")
                .arg(
                    Arg::new("test")
                        .long("test")
                        .required(true)
                        .value_parser(clap::value_parser!(PathBuf))
                        .help("Held-out points (x,y,label rows) to score"),
                ),
        )
        .subcommand(
            model_args(Command::new("export-python"))
                .about(
                    "Write a Python script that rebuilds the scene with NumPy and scikit-learn: \
                     the points as written, held-out ones marked, the same model and \
                     parameters (each mapping stated in its comments), its score (accuracy; RMSE \
                     and R²; or the ν-property's fractions, by the task) and a matplotlib plot; `python3 \
                     SCRIPT --predict N` prints its predictions on an N x N grid over the \
                     window as JSON (for regression, f on N points along x)",
                )
                .mut_arg("data", |arg| arg.required(false))
                .arg(
                    Arg::new("link")
                        .long("link")
                        .conflicts_with_all(["data", "scene"])
                        .help(
                            "The scene of a link the page wrote (the whole address, or the part \
                             after '#'): its settings, points and window",
                        ),
                )
                .arg(
                    Arg::new("scene")
                        .long("scene")
                        .value_parser(clap::value_parser!(PathBuf))
                        .conflicts_with("data")
                        .help("The scene of a file the page's \"Save scene\" wrote (.json)"),
                )
                .arg(
                    Arg::new("test")
                        .long("test")
                        .value_parser(clap::value_parser!(PathBuf))
                        .requires("data")
                        .help("Held-out points (x,y,label rows) to add to --data's, marked as held out"),
                )
                .arg(
                    Arg::new("out")
                        .long("out")
                        .value_parser(clap::value_parser!(PathBuf))
                        .help("Write the script here (default: the standard output)"),
                ),
        )
        .subcommand(
            Command::new("bench")
                .about("Time fits and field evaluation on two moons")
                .arg(
                    Arg::new("sizes")
                        .long("sizes")
                        .value_delimiter(',')
                        .default_value("100,500,2000")
                        .value_parser(clap::value_parser!(usize)),
                )
                .arg(
                    Arg::new("repeats")
                        .long("repeats")
                        .default_value("9")
                        .value_parser(clap::value_parser!(usize)),
                )
                .arg(
                    Arg::new("field")
                        .long("field")
                        .action(clap::ArgAction::SetTrue)
                        .help(
                            "Only the decision field at scale: noisy moons at n = 2000 and \
                             10 000, and 20 000 points with random labels",
                        ),
                ),
        )
}

/// Whether row `p` has a flag: the model's settings and the hidden ones, but not those that
/// only change how the page shows a setting (the RBF slider in σ), which fit nothing.
fn command_line_row(p: &Param) -> bool {
    matches!(p.group, Group::Model | Group::Hidden) && p.effect != Effect::Redraw
}

/// Flags of earlier versions, each with the one key it stands for today: `--learning-rate`
/// and `--multi-class` were other names of `--lr` and `--multi`, and `--solver` set the SVM's
/// solver too, so for a model that reads `svm_solver` and not `solver` it still does.
const OLD_FLAGS: &[(&str, &str)] = &[
    ("learning-rate", "lr"),
    ("multi-class", "multi"),
    ("solver", "svm_solver"),
];

/// A flag's help: the row's label, and a menu's choices (two rows are labelled "solver").
fn flag_help(row: &Param) -> String {
    match row.kind {
        Kind::Choice { options } => {
            let names: Vec<&str> = options.iter().map(|o| o.value).collect();
            format!("{}: {}", row.label, names.join("|"))
        }
        _ => row.label.to_string(),
    }
}

/// The settings the model flags describe.
fn settings(args: &ArgMatches) -> Result<Settings, Error> {
    let mut settings = Settings::default();
    let model = args.get_one::<String>("model").expect("default");
    settings.set("model", model)?;
    let task = Task::from_id(args.get_one::<String>("task").expect("default"))?;
    settings.set("task", task.id())?;
    // A model named for another task is an error, not the task's first method.
    if args.value_source("model") == Some(clap::parser::ValueSource::CommandLine) {
        registry::method_in(task, model)?;
    }
    let reads = settings.method().reads();
    let mut hard_margin = false;
    // An old flag that is a key today, given for a model that reads the key it once stood
    // for and not its own, sets that key (`--solver dca` for the SVM), unless that key's own
    // flag is given.
    let given =
        |flag: &str| args.value_source(flag) == Some(clap::parser::ValueSource::CommandLine);
    let lent: Vec<(&str, &str)> = OLD_FLAGS
        .iter()
        .copied()
        .filter(|&(old, key)| {
            param(old).is_some()
                && given(old)
                && !given(key)
                && reads.contains(&key)
                && !reads.contains(&old)
        })
        .collect();
    for row in PARAMS.iter().filter(|p| command_line_row(p)) {
        if lent.iter().any(|&(old, _)| old == row.key) {
            continue;
        }
        let flag = lent
            .iter()
            .find(|&&(_, key)| key == row.key)
            .map_or(row.key, |&(old, _)| old);
        let Some(value) = args.get_one::<String>(flag) else {
            continue;
        };
        // `--kernel 'rbf * linear'` has set the expression: the flag's default does not undo it.
        if row.key == EXPRESSION_KEY
            && args.value_source(flag) == Some(clap::parser::ValueSource::DefaultValue)
        {
            continue;
        }
        // `--c inf` asks for the hard margin (C = ∞).
        if row.key == "C" && matches!(value.trim(), "inf" | "infinity" | "∞") {
            hard_margin = true;
            continue;
        }
        settings.set(row.key, value)?;
    }
    if hard_margin {
        settings.set("hard", "1")?;
    }
    settings.max_iter = Some((*args.get_one::<usize>("max-iter").expect("default")).max(1));
    Ok(settings)
}

/// The lab with the flags' settings and the training data, fitted.
fn fitted_lab(args: &ArgMatches) -> Result<Playground, Error> {
    timed_fit(args).map(|(lab, _)| lab)
}

/// [`fitted_lab`], and the wall-clock milliseconds of the fit alone (the solver and the model
/// made from its solution; not reading the CSV, not the status line). The clock is here
/// because the core, which also runs in the browser, has none.
fn timed_fit(args: &ArgMatches) -> Result<(Playground, f64), Error> {
    let path = args.get_one::<PathBuf>("data").expect("required");
    let settings = settings(args)?;
    // A novelty file's labels are left out, as its contract says, without a word.
    let data = files::read_for(settings.task, &read(path)?, columns(args)?.as_deref())
        .map_err(|e| in_file(path, e))?
        .data;
    let mut lab = Playground::new(settings);
    lab.replace_data(data);
    if let Some(steps) = args.get_one::<usize>("steps") {
        lab.set(STEPS_KEY, &steps.to_string())?;
    }
    let start = Instant::now();
    lab.fit();
    let fit_ms = start.elapsed().as_secs_f64() * 1e3;
    if let Some(message) = lab.status().message.filter(|_| lab.model().is_none()) {
        return Err(Error::Parameter(message));
    }
    Ok((lab, fit_ms))
}

fn read(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path)
        .map_err(|e| Error::Parameter(format!("cannot read {}: {e}", path.display())))
}

/// The `--columns` asked for, if any.
fn columns(args: &ArgMatches) -> Result<Option<Vec<ColumnRef>>, Error> {
    match args.get_one::<String>("columns") {
        Some(text) => {
            ColumnRef::parse_list(text).map_err(|e| Error::Parameter(format!("--columns: {e}")))
        }
        None => Ok(None),
    }
}

/// Held-out points with labels: the training data's `--columns`, and its classes where they
/// are texts.
fn read_test(args: &ArgMatches, path: &Path, train: &Dataset) -> Result<Dataset, Error> {
    Dataset::read_against(&read(path)?, columns(args)?.as_deref(), &train.label_texts)
        .map_err(|e| in_file(path, e))
}

/// A file's error with its path: a line of it, or the columns asked of it.
fn in_file(path: &Path, e: Error) -> Error {
    Error::Parameter(format!("{}: {e}", path.display()))
}

fn fit(args: &ArgMatches) -> Result<String, Error> {
    let (mut lab, fit_ms) = timed_fit(args)?;
    match lab.settings().task {
        Task::Regression => return regression::fit(args, &mut lab, fit_ms),
        Task::Novelty => return novelty::fit(args, &lab, fit_ms),
        Task::Classification => {}
    }
    let status = lab.status();
    let model = lab.model().expect("fitted");
    let data = lab.data();
    let queries: Vec<Point> = match args.get_one::<PathBuf>("query") {
        Some(path) => Dataset::read_points(&read(path)?, columns(args)?.as_deref())
            .map_err(|e| in_file(path, e))?,
        None => data.points.clone(),
    };
    let two = model.classes().len() == 2;
    let decision: Vec<Value> = queries
        .iter()
        .map(|&x| {
            if two {
                json!(model.decision_value(x))
            } else {
                json!(model.scores(x))
            }
        })
        .collect();
    let mut out = Map::new();
    out.insert("model".into(), json!(status.model));
    out.insert("classes".into(), json!(model.classes()));
    // Classes a file names by texts (`setosa`) or writes otherwise (`1.0`): their texts.
    let texts: Vec<String> = model
        .classes()
        .iter()
        .map(|&c| data.label_text(c).into_owned())
        .collect();
    if model
        .classes()
        .iter()
        .zip(&texts)
        .any(|(c, t)| c.to_string() != *t)
    {
        out.insert("class_names".into(), json!(texts));
    }
    out.insert("decision".into(), json!(decision));
    out.insert(
        "predicted".into(),
        json!(queries
            .iter()
            .map(|&x| model.predict(x))
            .collect::<Vec<_>>()),
    );
    if model.probabilities([0.0, 0.0]).is_some() {
        // p(larger label) for two classes, as scikit-learn's predict_proba[:, 1]; a list per
        // point, in ascending label order, for more.
        let probability: Vec<Value> = queries
            .iter()
            .map(|&x| {
                let p = model.probabilities(x).expect("a probabilistic model");
                if two {
                    json!(p[1])
                } else {
                    json!(p)
                }
            })
            .collect();
        out.insert("probability".into(), json!(probability));
    }
    // The hover's numbers at each query point, one list per key (a Bayesian model's MAP
    // `probability` and its `predictive` one): where a key is also a column above, the two
    // are the same number for the other methods, and the model's own word wins.
    let mut columns: Vec<(&str, Vec<f64>)> = Vec::new();
    for &x in &queries {
        for fact in model.facts_at(x) {
            if let FactValue::Number(v) = fact.value {
                match columns.iter_mut().find(|(key, _)| *key == fact.key) {
                    Some((_, values)) => values.push(v),
                    None => columns.push((fact.key, vec![v])),
                }
            }
        }
    }
    for (key, values) in columns {
        if values.len() == queries.len() {
            out.insert(key.into(), json!(values));
        }
    }
    out.insert("train_accuracy".into(), json!(status.train_accuracy));
    out.insert("fit_ms".into(), json!(fit_ms));
    if let Some(path) = args.get_one::<PathBuf>("test") {
        let test = read_test(args, path, data)?;
        let predicted: Vec<i32> = test.points.iter().map(|&x| model.predict(x)).collect();
        let decision: Vec<Value> = test
            .points
            .iter()
            .map(|&x| {
                if two {
                    json!(model.decision_value(x))
                } else {
                    json!(model.scores(x))
                }
            })
            .collect();
        out.insert(
            "test_accuracy".into(),
            json!(model.accuracy(&test.points, &test.labels)),
        );
        out.insert("test_decision".into(), json!(decision));
        out.insert("test_predicted".into(), json!(predicted));
    }
    let method = lab.settings().method();
    let parameters: Map<String, Value> = method
        .reads()
        .iter()
        .map(|&key| (key.to_string(), json!(lab.settings().get(key))))
        .collect();
    out.insert("parameters".into(), Value::Object(parameters));
    for fact in &status.facts {
        out.insert(fact.key.into(), json!(fact.value));
    }
    if let Some(message) = status.message {
        out.insert("message".into(), json!(message));
    }
    if let Some(steps) = status.steps {
        out.insert("steps".into(), json!(steps));
    }
    if args.get_flag("trace") {
        // `x`: the iteration of each value (a long run is thinned to a few thousand).
        let trace: Map<String, Value> = lab
            .run_trace()
            .map(|t| {
                t.panels
                    .iter()
                    .flat_map(|p| &p.curves)
                    .map(|c| (c.key.to_string(), json!(c.values)))
                    .chain([(
                        "x".to_string(),
                        json!((0..t.len()).map(|k| t.x(k)).collect::<Vec<_>>()),
                    )])
                    .collect()
            })
            .unwrap_or_default();
        out.insert("trace".into(), Value::Object(trace));
    }
    Ok(serde_json::to_string_pretty(&Value::Object(out)).expect("JSON"))
}

/// The regularisation path over `--c-range`, each C warm-started from the last.
fn path(args: &ArgMatches) -> Result<String, Error> {
    let lab = fitted_lab(args)?;
    let range = args.get_one::<String>("c-range").expect("default");
    let c = Axis::parse(&format!("C={range}"))
        .map_err(|_| {
            Error::Parameter(format!(
                "--c-range '{range}' is not lo:hi:N with 0 < lo <= hi and N ≤ 50"
            ))
        })?
        .values;
    let settings = lab.settings();
    let mut job = kernel_playground::reg_path::PathJob::new(
        settings.method(),
        &settings.values,
        lab.data(),
        c.clone(),
    );
    while job.step() {}
    if let Some(problem) = &job.problem {
        return Err(Error::Parameter(problem.clone()));
    }
    let points: Vec<_> = job.points.iter().flatten().collect();
    let counts: Vec<(usize, usize)> = points.iter().zip(&c).map(|(p, &c)| p.counts(c)).collect();
    Ok(json!({
        "C": c,
        "alpha": points.iter().map(|p| &p.alpha).collect::<Vec<_>>(),
        "w_norm": points.iter().map(|p| p.w_norm).collect::<Vec<_>>(),
        "n_free": counts.iter().map(|c| c.0).collect::<Vec<_>>(),
        "n_bound": counts.iter().map(|c| c.1).collect::<Vec<_>>(),
        "iterations": points.iter().map(|p| p.iterations).collect::<Vec<_>>(),
        "converged": points.iter().map(|p| p.converged).collect::<Vec<_>>(),
    })
    .to_string())
}

fn cross_validate(args: &ArgMatches) -> Result<String, Error> {
    let lab = fitted_lab(args)?;
    let data = lab.data();
    let folds = Folds::from_name(args.get_one::<String>("folds").expect("default"))?;
    let seed = *args.get_one::<u64>("seed").expect("default");
    let assignment = folds.assign(&data.labels, seed);
    let axes = match args.get_one::<String>("grid") {
        Some(text) => text
            .split(',')
            .map(Axis::parse)
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    if axes.len() > 2 {
        return Err(Error::Parameter("--grid takes one or two axes".into()));
    }
    let settings = lab.settings();
    let cells = validation::grid(
        &settings.values,
        &settings.model,
        data,
        &axes,
        &assignment,
        settings.max_iter,
    )?;
    let cell_json = |cell: &validation::Cell| {
        let params: Map<String, Value> = cell
            .params
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        json!({
            "params": params,
            "fold_accuracy": cell.score.fold_accuracy,
            "mean": cell.score.mean,
            "sd": cell.score.sd,
        })
    };
    let folds_json = if assignment.len() == 1 {
        json!(assignment[0])
    } else {
        json!(assignment)
    };
    let out = json!({
        "model": settings.model,
        "folds_scheme": folds.name(),
        "seed": seed,
        "folds": folds_json,
        "cells": cells.iter().map(cell_json).collect::<Vec<_>>(),
        "best": validation::best(&cells).map(|b| cell_json(&cells[b])),
    });
    Ok(serde_json::to_string_pretty(&out).expect("JSON"))
}

fn roc(args: &ArgMatches) -> Result<String, Error> {
    let lab = fitted_lab(args)?;
    let model = lab.model().expect("fitted");
    let classes = model.classes();
    if classes.len() != 2 {
        return Err(Error::Parameter(format!(
            "an ROC curve needs two classes; the training data have {}",
            classes.len()
        )));
    }
    let path = args.get_one::<PathBuf>("test").expect("required");
    let test = read_test(args, path, lab.data())?;
    let scores: Vec<f64> = test
        .points
        .iter()
        .map(|&x| model.decision_value(x))
        .collect();
    let positive: Vec<bool> = test.labels.iter().map(|&l| l == classes[1]).collect();
    let curve = Roc::of(&scores, &positive).ok_or_else(|| {
        Error::Parameter("the test points need both classes for an ROC curve".into())
    })?;
    // JSON has no infinity: the first threshold, +∞, is written null.
    let thresholds: Vec<Value> = curve
        .thresholds
        .iter()
        .map(|&t| if t.is_finite() { json!(t) } else { Value::Null })
        .collect();
    let out = json!({
        "model": lab.settings().model,
        "classes": classes,
        "decision": scores,
        "fpr": curve.fpr,
        "tpr": curve.tpr,
        "thresholds": thresholds,
        "auc": curve.auc,
    });
    Ok(serde_json::to_string_pretty(&out).expect("JSON"))
}

fn render(args: &ArgMatches) -> Result<String, Error> {
    let width = *args.get_one::<u32>("width").expect("default");
    let height = *args.get_one::<u32>("height").expect("default");
    let out = args.get_one::<PathBuf>("out").expect("required");
    if !(64..=8192).contains(&width) || !(64..=8192).contains(&height) {
        return Err(Error::Parameter(
            "width and height must be between 64 and 8192".into(),
        ));
    }
    let view = views::view(args.get_one::<String>("view").expect("default"))?;
    let extension = out.extension().and_then(|e| e.to_str()).unwrap_or("");
    let extension = extension.to_ascii_lowercase();
    if extension != "svg" && extension != "png" {
        return Err(Error::Parameter("--out must end in .svg or .png".into()));
    }
    let mut lab = fitted_lab(args)?;
    // A figure is drawn whole on the command line: a grid is computed to the end first.
    while view.work(&mut lab, 1000) {}
    // A chart's type is at least that of a plane picture as tall as it, as beside the plane
    // in the page.
    let layout = view.layout(width, height, Layout::new(height, height).font_px);
    let mut cache = Cache::default();
    let figure = cache.figure(view, &mut lab, &layout).clone();
    kernel_playground::scene::load_system_font()?;
    if extension == "svg" {
        let svg = kernel_playground::svg::document(width, height, |backend| {
            views::draw(backend, &figure, &layout, &lab)
        })?;
        std::fs::write(out, svg)
            .map_err(|e| Error::Parameter(format!("cannot write {}: {e}", out.display())))?;
    } else {
        // Drawn into memory and written here, so a write error names the path.
        let mut pixels = vec![0u8; width as usize * height as usize * 3];
        views::draw(
            BitMapBackend::with_buffer(&mut pixels, (width, height)),
            &figure,
            &layout,
            &lab,
        )?;
        let mut png = Vec::new();
        let mut encoder = png::Encoder::new(&mut png, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder
            .write_header()
            .and_then(|mut w| w.write_image_data(&pixels))
            .map_err(|e| Error::Draw(e.to_string()))?;
        std::fs::write(out, png)
            .map_err(|e| Error::Parameter(format!("cannot write {}: {e}", out.display())))?;
    }
    Ok(format!("wrote {}", out.display()))
}

/// The scene `export-python` writes: a link's or a scene file's as the page opens them, or
/// `--data` (with `--test`'s points held out) under the model flags.
fn scene_lab(args: &ArgMatches) -> Result<Playground, Error> {
    let hash = if let Some(link) = args.get_one::<String>("link") {
        only_the_scene(args, "--link")?;
        link.split_once('#')
            .map_or(link.as_str(), |(_, hash)| hash)
            .to_string()
    } else if let Some(path) = args.get_one::<PathBuf>("scene") {
        only_the_scene(args, "--scene")?;
        let text = String::from_utf8(read(path)?)
            .map_err(|_| Error::Parameter(format!("{}: not UTF-8 text", path.display())))?;
        let (settings, (data, test), warnings) =
            Settings::from_scene_json(&text).map_err(|e| in_file(path, e))?;
        warn(&warnings);
        settings.to_hash(Some((&data, &test)))
    } else {
        let Some(path) = args.get_one::<PathBuf>("data") else {
            return Err(Error::Parameter(
                "give the scene: --data FILE (with the model flags), --link or --scene".into(),
            ));
        };
        let settings = settings(args)?;
        let mut data = files::read_for(settings.task, &read(path)?, columns(args)?.as_deref())
            .map_err(|e| in_file(path, e))?
            .data;
        let mut test = vec![false; data.len()];
        if let Some(path) = args.get_one::<PathBuf>("test") {
            let held = read_test(args, path, &data)?;
            for i in 0..held.len() {
                let written = held.written.get(i).cloned().flatten();
                data.push_written(held.points[i], held.labels[i], written)?;
                test.push(true);
            }
        }
        settings.to_hash(Some((&data, &test)))
    };
    let lab = Playground::open(&hash).map_err(|refusal| Error::Parameter(refusal.to_string()))?;
    warn(&lab.warnings);
    Ok(lab)
}

/// A link or a scene file carries every setting: a model flag beside it is refused rather
/// than silently ignored.
fn only_the_scene(args: &ArgMatches, source: &str) -> Result<(), Error> {
    let given: Vec<String> = args
        .ids()
        .map(|id| id.as_str())
        .filter(|id| !matches!(*id, "link" | "scene" | "out"))
        .filter(|id| args.value_source(id) == Some(clap::parser::ValueSource::CommandLine))
        .map(|id| format!("--{}", id.to_ascii_lowercase()))
        .collect();
    match given.as_slice() {
        [] => Ok(()),
        flags => Err(Error::Parameter(format!(
            "{source} carries every setting: drop {}",
            flags.join(", ")
        ))),
    }
}

/// What a scene's reading left out, one line each on the standard error.
fn warn(warnings: &[String]) {
    for warning in warnings {
        let _ = writeln!(std::io::stderr(), "warning: {warning}");
    }
}

fn export_python(args: &ArgMatches) -> Result<String, Error> {
    let script = kernel_playground::python::script(&scene_lab(args)?);
    match args.get_one::<PathBuf>("out") {
        Some(out) => {
            std::fs::write(out, script)
                .map_err(|e| Error::Parameter(format!("cannot write {}: {e}", out.display())))?;
            Ok(format!("wrote {}", out.display()))
        }
        None => Ok(script.trim_end().to_string()),
    }
}

fn main() -> ExitCode {
    // Help and the version are output like any other: a closed pipe or a full disk is handled
    // by `print`, not left to clap (which ignores a failed write).
    let matches = match cli().try_get_matches() {
        Ok(matches) => matches,
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) =>
        {
            return print(e.render().to_string().trim_end());
        }
        Err(e) => e.exit(),
    };
    let result = match matches.subcommand() {
        Some(("fit", args)) => fit(args),
        Some(("render", args)) => render(args),
        Some(("cv", args)) => cross_validate(args),
        Some(("path", args)) => path(args),
        Some(("roc", args)) => roc(args),
        Some(("export-python", args)) => export_python(args),
        Some(("bench", args)) => {
            let sizes: Vec<usize> = args
                .get_many::<usize>("sizes")
                .expect("default")
                .copied()
                .collect();
            let repeats = *args.get_one::<usize>("repeats").expect("default");
            if args.get_flag("field") {
                Ok(bench::field_at_scale(repeats.max(1)))
            } else {
                Ok(bench::run(&sizes, repeats.max(1)))
            }
        }
        _ => unreachable!("a subcommand is required"),
    };
    match result {
        Ok(text) => print(&text),
        Err(e) => fail(&e.to_string()),
    }
}

/// Writes the result and a newline to the standard output. A reader that went away (a closed
/// pipe) ends the program quietly, as a Unix tool ends on SIGPIPE but with status 0; any other
/// write error is one line and status 2.
fn print(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(&format!("cannot write <stdout>: {e}")),
    }
}

/// One line `error: …` on the standard error (itself never a panic) and status 2.
fn fail(message: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "error: {message}");
    ExitCode::from(2)
}

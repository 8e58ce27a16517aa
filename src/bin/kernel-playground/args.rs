//! The command line's arguments: the subcommands and their flags, the model flags made from
//! the parameter table (`kernel_playground::methods::table`), and the [`Settings`] they describe.

use clap::{Arg, ArgMatches, Command};
use kernel_playground::core::params::{Effect, Group, Kind, Param, EXPRESSION_KEY};
use kernel_playground::core::task::Task;
use kernel_playground::lab::state::Settings;
use kernel_playground::methods::registry::{self, METHODS};
use kernel_playground::methods::table::{own_readers, param, rows};
use kernel_playground::views::VIEWS;
use kernel_playground::Error;
use std::path::PathBuf;

/// `--link` and `--scene`: the scene of a link or of a saved scene file, in place of `--data`
/// and the model flags.
fn scene_args(command: Command) -> Command {
    command
        .mut_arg("data", |arg| arg.required(false))
        .arg(
            Arg::new("link")
                .long("link")
                .conflicts_with_all(["data", "scene"])
                .help(
                    "The scene of a link the page wrote (the whole address, or the part after \
                     '#'; '#' alone is the page's first scene): its settings, points and window",
                ),
        )
        .arg(
            Arg::new("scene")
                .long("scene")
                .value_parser(clap::value_parser!(PathBuf))
                .conflicts_with("data")
                .help("The scene of a file the page's \"Save scene\" wrote (.json)"),
        )
}

/// The command line: its subcommands, with the model flags made from the parameter table.
pub(super) fn cli() -> Command {
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
        // One flag per parameter key: --key (lower case), the row's default; a flag of an
        // earlier version that is no key today still works, unlisted ([`OLD_FLAGS`]). A key two
        // methods each have a row of (`--solver`) is one flag, set only when given.
        for (key, rows_of_key) in flag_rows() {
            let long: &'static str = Box::leak(key.to_ascii_lowercase().into_boxed_str());
            let old = OLD_FLAGS
                .iter()
                .filter(|(old, new)| *new == key && param(old).is_none())
                .map(|(old, _)| *old);
            // A key of several methods' rows names each with its method.
            let help: Vec<String> = match rows_of_key[..] {
                [row] => vec![flag_help(row)],
                _ => rows_of_key
                    .iter()
                    .map(|row| {
                        let methods = own_readers(row).unwrap_or_default();
                        let titles: Vec<&str> = methods.iter().map(|m| m.title()).collect();
                        format!("{} ({})", flag_help(row), titles.join(", "))
                    })
                    .collect(),
            };
            let mut arg = Arg::new(key)
                .long(long)
                .aliases(old)
                .allow_hyphen_values(true)
                .help(help.join("; "));
            if let [row] = rows_of_key[..] {
                arg = arg.default_value(row.default);
            }
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
            scene_args(model_args(Command::new("render")))
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
                    Arg::new("regions")
                        .long("regions")
                        .value_parser(["plot", "grid"])
                        .default_value("plot")
                        .help(
                            "The plane's SVG: its decision regions at the picture's resolution \
                             (plot), or at the field grid's, stretched and smoothed by the viewer \
                             as the page paints them (grid: a smaller file)",
                        ),
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
            scene_args(model_args(Command::new("export-python")))
                .about(
                    "Write a Python script that rebuilds the scene with NumPy and scikit-learn: \
                     the points as written, held-out ones marked, the same model and \
                     parameters (each mapping stated in its comments), its score (accuracy; RMSE \
                     and R²; or the ν-property's fractions, by the task) and a matplotlib plot; `python3 \
                     SCRIPT --predict N` prints its predictions on an N x N grid over the \
                     window as JSON (for regression, f on N points along x)",
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
/// and `--multi-class` were other names of `--lr` and `--multi`, and `--svm_solver` of the SVM's
/// `--solver`.
const OLD_FLAGS: &[(&str, &str)] = &[
    ("learning-rate", "lr"),
    ("multi-class", "multi"),
    ("svm_solver", "solver"),
];

/// The command line's rows by key, in the table's order: one flag per key, which names the
/// row of the chosen model (the SVM's `--solver` or logistic regression's).
fn flag_rows() -> Vec<(&'static str, Vec<&'static Param>)> {
    let mut keys: Vec<(&'static str, Vec<&'static Param>)> = Vec::new();
    for row in rows().iter().copied().filter(|p| command_line_row(p)) {
        match keys.iter_mut().find(|(key, _)| *key == row.key) {
            Some((_, rows_of_key)) => rows_of_key.push(row),
            None => keys.push((row.key, vec![row])),
        }
    }
    keys
}

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
pub(super) fn settings(args: &ArgMatches) -> Result<Settings, Error> {
    let mut settings = Settings::default();
    let model = args.get_one::<String>("model").expect("default");
    settings.set("model", model)?;
    let task = Task::from_id(args.get_one::<String>("task").expect("default"))?;
    settings.set("task", task.id())?;
    // A model named for another task is an error, not the task's first method.
    if args.value_source("model") == Some(clap::parser::ValueSource::CommandLine) {
        registry::method_in(task, model)?;
    }
    let mut hard_margin = false;
    let reads = settings.method().params();
    for (key, rows_of_key) in flag_rows() {
        let flag = key;
        let Some(value) = args.get_one::<String>(flag) else {
            continue;
        };
        // A key of two methods' rows is the chosen model's, when it reads one (`--solver gd`
        // is no solver of the SVM's).
        if rows_of_key.len() > 1 && reads.contains(&key) {
            if let Some(row) = settings.values.row(key) {
                row.parse(value)?;
            }
        }
        // `--kernel 'rbf * linear'` has set the expression: the flag's default does not undo it.
        if key == EXPRESSION_KEY
            && args.value_source(flag) == Some(clap::parser::ValueSource::DefaultValue)
        {
            continue;
        }
        // `--c inf` asks for the hard margin (C = ∞).
        if key == "C" && matches!(value.trim(), "inf" | "infinity" | "∞") {
            hard_margin = true;
            continue;
        }
        settings.set(key, value)?;
    }
    if hard_margin {
        settings.set("hard", "1")?;
    }
    settings.max_iter = Some((*args.get_one::<usize>("max-iter").expect("default")).max(1));
    Ok(settings)
}

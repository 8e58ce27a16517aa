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
//! columns of `kernel_playground::core::table`); `--columns` chooses the columns.
//!
//! Bad input exits with status 2 and one line naming the problem. Output never panics: a
//! reader that stops early (`| head -c 1`, a closed pipe) ends the program quietly with status
//! 0; any other write error exits with status 2 and one line naming the path (`<stdout>` for
//! the standard output).
//!
//! The parts: `args` (the flags, from the parameter table, and the settings they give), `fit`
//! (`fit` and `path`), `evaluate` (`cv` and `roc`), `render` (`render` and `export-python`),
//! `regression` and `novelty` (what `fit` prints for those tasks) and `bench`.

mod args;
mod bench;
mod evaluate;
mod fit;
mod novelty;
mod regression;
mod render;

use clap::ArgMatches;
use kernel_playground::core::data::files;
use kernel_playground::core::data::Dataset;
use kernel_playground::core::table::ColumnRef;
use kernel_playground::lab::playground::{Playground, STEPS_KEY};
use kernel_playground::Error;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The lab with the flags' settings and the training data, fitted.
fn fitted_lab(args: &ArgMatches) -> Result<Playground, Error> {
    timed_fit(args).map(|(lab, _)| lab)
}

/// [`fitted_lab`], and the wall-clock milliseconds of the fit alone (the solver and the model
/// made from its solution; not reading the CSV, not the status line). The clock is here
/// because the core, which also runs in the browser, has none.
fn timed_fit(args: &ArgMatches) -> Result<(Playground, f64), Error> {
    let path = args.get_one::<PathBuf>("data").expect("required");
    let settings = args::settings(args)?;
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
    refused(&mut lab)?;
    Ok((lab, fit_ms))
}

/// The status line's message as an error when the fit gave no model.
fn refused(lab: &mut Playground) -> Result<(), Error> {
    match lab.status().message.filter(|_| lab.model().is_none()) {
        Some(message) => Err(Error::Parameter(message)),
        None => Ok(()),
    }
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

fn main() -> ExitCode {
    // Help and the version are output like any other: a closed pipe or a full disk is handled
    // by `print`, not left to clap (which ignores a failed write).
    let matches = match args::cli().try_get_matches() {
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
        Some(("fit", args)) => fit::fit(args),
        Some(("render", args)) => render::render(args),
        Some(("cv", args)) => evaluate::cross_validate(args),
        Some(("path", args)) => fit::path(args),
        Some(("roc", args)) => evaluate::roc(args),
        Some(("export-python", args)) => render::export_python(args),
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

//! `kernel-playground`: the lab on the command line, for scripting and for figures.
//!
//! - `fit` trains on a CSV file and prints one JSON object (multipliers, bias, support vectors,
//!   slacks, decision values…), comparable with scikit-learn's SVC;
//! - `render` draws the scene exactly as the page does, to SVG or PNG;
//! - `bench` times fits and field evaluation (see `bench.rs`).
//!
//! Bad input exits with status 2 and one line naming the problem.

mod bench;

use clap::{Args, Parser, Subcommand};
use kernel_playground::data::{points_from_csv, Dataset, Point};
use kernel_playground::fitted::Fitted;
use kernel_playground::model::ExitReason;
use kernel_playground::playground::Playground;
use kernel_playground::scene::{self, Layout};
use kernel_playground::state::Settings;
use kernel_playground::Error;
use plotters::prelude::{BitMapBackend, SVGBackend};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "kernel-playground",
    version,
    about = "Kernel SVMs on points in the plane"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Fit a model to x,y,label rows and print the result as JSON.
    Fit {
        #[command(flatten)]
        model: ModelArgs,
        /// Points to evaluate (x,y rows); the training points when absent.
        #[arg(long)]
        query: Option<PathBuf>,
    },
    /// Draw the fitted scene, as the page does, to an .svg or .png file.
    Render {
        #[command(flatten)]
        model: ModelArgs,
        /// Output file; its extension (.svg or .png) chooses the format.
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 800)]
        width: u32,
        #[arg(long, default_value_t = 800)]
        height: u32,
    },
    /// Time cold fits, warm refits and field evaluation on two moons (RBF, C = 1, γ = 2).
    Bench {
        /// Point counts to time.
        #[arg(long, value_delimiter = ',', default_values_t = [100, 500, 2000])]
        sizes: Vec<usize>,
        /// Repetitions per figure (the median is printed).
        #[arg(long, default_value_t = 9)]
        repeats: usize,
    },
}

#[derive(Args)]
struct ModelArgs {
    /// Training data: x,y,label rows, header optional.
    #[arg(long)]
    data: PathBuf,
    /// The method.
    #[arg(long, default_value = "svm")]
    model: String,
    /// linear, poly, rbf or sigmoid.
    #[arg(long, default_value = "rbf")]
    kernel: String,
    /// The soft-margin penalty, or `inf` for the hard margin.
    #[arg(long = "c", default_value = "1", allow_hyphen_values = true)]
    c: String,
    #[arg(long, default_value = "2", allow_hyphen_values = true)]
    gamma: String,
    #[arg(long, default_value = "3", allow_hyphen_values = true)]
    degree: String,
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    coef0: String,
    /// SVM: stopping tolerance on the maximal KKT violation.
    #[arg(long, default_value = "0.001", allow_hyphen_values = true)]
    tol: String,
    /// SVM: SMO's iteration cap (LIBSVM's default).
    #[arg(long = "max-iter", default_value_t = 10_000_000)]
    max_iter: usize,
    /// Perceptron: the epoch cap.
    #[arg(long, default_value = "100", allow_hyphen_values = true)]
    epochs: String,
    /// Logistic regression: the L2 penalty λ (scikit-learn's C = 1/λ).
    #[arg(long, default_value = "0.01", allow_hyphen_values = true)]
    lambda: String,
    /// Logistic regression: linear, poly (degree --degree) or rbf (γ --gamma) features.
    #[arg(long, default_value = "poly")]
    features: String,
    /// Logistic regression: newton or gd.
    #[arg(long, default_value = "newton")]
    solver: String,
    /// Logistic regression: gradient descent's step on the mean loss.
    #[arg(
        long = "learning-rate",
        default_value = "4",
        allow_hyphen_values = true
    )]
    learning_rate: String,
    /// k-nearest neighbours: how many vote.
    #[arg(long, default_value = "5", allow_hyphen_values = true)]
    k: String,
    /// k-nearest neighbours: euclidean, manhattan or chebyshev.
    #[arg(long, default_value = "euclidean")]
    metric: String,
    /// k-nearest neighbours: uniform or distance.
    #[arg(long, default_value = "uniform")]
    weights: String,
}

impl ModelArgs {
    fn settings(&self) -> Result<Settings, Error> {
        let mut settings = Settings::default();
        settings.set("model", &self.model)?;
        settings.set("kernel", &self.kernel)?;
        if matches!(self.c.trim(), "inf" | "infinity" | "∞") {
            settings.set("hard", "1")?;
        } else {
            settings.set("C", &self.c)?;
        }
        settings.set("gamma", &self.gamma)?;
        settings.set("degree", &self.degree)?;
        settings.set("coef0", &self.coef0)?;
        settings.set("tol", &self.tol)?;
        settings.set("epochs", &self.epochs)?;
        settings.set("lambda", &self.lambda)?;
        settings.set("features", &self.features)?;
        settings.set("solver", &self.solver)?;
        settings.set("lr", &self.learning_rate)?;
        settings.set("k", &self.k)?;
        settings.set("metric", &self.metric)?;
        settings.set("weights", &self.weights)?;
        settings.svm_max_iter = Some(self.max_iter.max(1));
        Ok(settings)
    }

    /// The lab with these settings and the training data, fitted.
    fn fitted_lab(&self) -> Result<Playground, Error> {
        let data = Dataset::from_csv(&read(&self.data)?).map_err(|e| in_file(&self.data, e))?;
        let mut lab = Playground::new(self.settings()?);
        lab.replace_data(data);
        lab.fit();
        if let Some(message) = lab.status().message.filter(|_| lab.model().is_none()) {
            return Err(Error::Parameter(message));
        }
        Ok(lab)
    }
}

fn read(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path)
        .map_err(|e| Error::Parameter(format!("cannot read {}: {e}", path.display())))
}

fn in_file(path: &Path, e: Error) -> Error {
    match e {
        Error::Csv { .. } => Error::Parameter(format!("{}: {e}", path.display())),
        other => other,
    }
}

fn fit(model_args: &ModelArgs, query: Option<&PathBuf>) -> Result<String, Error> {
    let mut lab = model_args.fitted_lab()?;
    let status = lab.status();
    let model = lab.model().expect("fitted");
    let data = lab.data();
    let queries: Vec<Point> = match query {
        Some(path) => points_from_csv(&read(path)?).map_err(|e| in_file(path, e))?,
        None => data.points.clone(),
    };
    let decision = if model.is_multiclass() {
        json!(queries.iter().map(|&x| model.scores(x)).collect::<Vec<_>>())
    } else {
        json!(queries
            .iter()
            .map(|&x| model.decision(x))
            .collect::<Vec<_>>())
    };
    let mut out = json!({
        "model": status.model,
        "classes": model.classes(),
        "decision": decision,
        "predicted": queries.iter().map(|&x| model.predict(x)).collect::<Vec<_>>(),
        "train_accuracy": model.accuracy(data),
    });
    match model {
        Fitted::Svm(svm) => {
            out["kernel"] = json!(svm.kernel.name());
            out["C"] = if svm.hard_margin {
                json!("inf")
            } else {
                json!(svm.c)
            };
            out["bias"] = json!(svm.bias);
            out["alpha"] = json!(svm.alpha);
            out["support"] = json!(svm.support());
            out["bound"] = json!(svm.bound());
            out["slack"] = json!((0..data.len()).map(|i| svm.slack(i)).collect::<Vec<_>>());
            out["objective"] = json!(svm.report.objective);
            out["iterations"] = json!(svm.report.iterations);
            out["converged"] = json!(svm.report.exit == ExitReason::Converged);
            out["max_violation"] = json!(svm.max_violation);
            if let (Some(w), Some(width)) = (svm.w, svm.margin_width()) {
                out["w"] = json!(w);
                out["margin_width"] = json!(width);
            }
        }
        Fitted::Perceptron(p) => {
            out["kernel"] = json!(p.kernel.name());
            out["alpha"] = json!(p.alpha);
            out["bias"] = json!(p.bias);
            out["mistakes"] = json!(p.mistakes);
            out["epochs"] = json!(p.epochs);
            out["converged"] = json!(p.converged);
            out["iterations"] = json!(p.mistakes);
            if let Some(w) = p.w {
                out["w"] = json!(w);
            }
            if let Some(bound) = status.novikoff_bound {
                out["novikoff_bound"] = json!(bound);
            }
        }
        Fitted::Logistic(l) => {
            out["features"] = json!(l.map.features.name());
            out["feature_names"] = json!(l.map.names());
            out["coef"] = json!(l.weights);
            out["bias"] = json!(l.bias);
            out["lambda"] = json!(l.lambda);
            out["objective"] = json!(l.objective);
            out["log_loss"] = json!(l.log_loss);
            out["iterations"] = json!(l.report.iterations);
            out["converged"] = json!(l.report.exit == ExitReason::Converged);
            out["probability"] = json!(queries
                .iter()
                .map(|&x| l.probability(x))
                .collect::<Vec<_>>());
            if let Some(w) = l.w() {
                out["w"] = json!(w);
            }
        }
        Fitted::Multi(multi) => {
            out["scheme"] = json!(multi.scheme.name());
            out["members"] = json!(multi.members.len());
            // Support vectors of any pairwise (or one-versus-rest) SVM.
            let mut support: Vec<usize> = multi
                .members
                .iter()
                .filter_map(|m| match &m.model {
                    Fitted::Svm(svm) => Some(svm.support().into_iter().map(|l| m.indices[l])),
                    _ => None,
                })
                .flatten()
                .collect();
            support.sort_unstable();
            support.dedup();
            if matches!(multi.members[0].model, Fitted::Svm(_)) {
                out["support"] = json!(support);
            }
        }
        Fitted::Knn(k) => {
            out["k"] = json!(k.params().k);
            out["metric"] = json!(k.params().metric.name());
            out["weights"] = json!(k.params().weights.name());
        }
    }
    if let Some(message) = status.message {
        out["message"] = json!(message);
    }
    Ok(serde_json::to_string_pretty(&out).expect("JSON"))
}

fn render(model_args: &ModelArgs, out: &Path, width: u32, height: u32) -> Result<String, Error> {
    if !(64..=8192).contains(&width) || !(64..=8192).contains(&height) {
        return Err(Error::Parameter(
            "width and height must be between 64 and 8192".into(),
        ));
    }
    let mut lab = model_args.fitted_lab()?;
    let layout = Layout::new(width, height);
    let scene = lab.scene(&layout);
    let layers = lab.settings().layers;
    scene::load_system_font()?;
    let extension = out.extension().and_then(|e| e.to_str()).unwrap_or("");
    match extension.to_ascii_lowercase().as_str() {
        "svg" => scene::draw(
            SVGBackend::new(out, (width, height)),
            &scene,
            &layout,
            &layers,
            true,
        )?,
        "png" => scene::draw(
            BitMapBackend::new(out, (width, height)),
            &scene,
            &layout,
            &layers,
            true,
        )?,
        _ => return Err(Error::Parameter("--out must end in .svg or .png".into())),
    }
    Ok(format!("wrote {}", out.display()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Fit { model, query } => fit(model, query.as_ref()),
        Command::Render {
            model,
            out,
            width,
            height,
        } => render(model, out, *width, *height),
        Command::Bench { sizes, repeats } => Ok(bench::run(sizes, (*repeats).max(1))),
    };
    match result {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

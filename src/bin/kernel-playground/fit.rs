//! `fit` and `path`: the fitted model's numbers as one JSON object, and the regularisation
//! path over a range of C.

use super::{columns, fitted_lab, in_file, read, read_test, timed_fit};
use super::{novelty, regression};
use clap::ArgMatches;
use kernel_playground::core::data::{Dataset, Point};
use kernel_playground::core::task::Task;
use kernel_playground::methods::model::{FactValue, Model};
use kernel_playground::methods::validation::Axis;
use kernel_playground::Error;
use serde_json::{json, Map, Value};
use std::path::PathBuf;

/// Each point's decision value: f(x) for two classes, else the list of per-class scores.
fn decision_values(model: &dyn Model, points: &[Point]) -> Vec<Value> {
    let two = model.classes().len() == 2;
    points
        .iter()
        .map(|&x| match two {
            true => json!(model.decision_value(x)),
            false => json!(model.scores(x)),
        })
        .collect()
}

pub(super) fn fit(args: &ArgMatches) -> Result<String, Error> {
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
    let decision = decision_values(model, &queries);
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
        let decision = decision_values(model, &test.points);
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
pub(super) fn path(args: &ArgMatches) -> Result<String, Error> {
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
    let mut job = kernel_playground::methods::reg_path::PathJob::new(
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

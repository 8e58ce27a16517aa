//! `fit --task novelty`: the one-class SVM's numbers as JSON, as scikit-learn's `OneClassSVM`
//! reports them.

use super::{columns, in_file, read, ArgMatches, Error, PathBuf, Playground};
use kernel_playground::data::{Dataset, Point};
use kernel_playground::solvers::novelty::Novelty;
use serde_json::{json, Map, Value};

/// The JSON of a fitted one-class SVM: `decision` and `predicted` (+1 inside, −1 outside) at
/// each query point (the training points when there is no `--query`), `rho`, `alpha` (one per
/// training point), `support`, `outlier_fraction` and `support_fraction`.
pub fn fit(args: &ArgMatches, lab: &Playground, fit_ms: f64) -> Result<String, Error> {
    let model = lab.model().expect("fitted");
    let novelty = model
        .as_any()
        .downcast_ref::<Novelty>()
        .ok_or_else(|| Error::Parameter("novelty detection needs --model oneclass".into()))?;
    let queries: Vec<Point> = match args.get_one::<PathBuf>("query") {
        Some(path) => Dataset::read_points(&read(path)?, columns(args)?.as_deref())
            .map_err(|e| in_file(path, e))?,
        None => lab.data().points.clone(),
    };
    let decision: Vec<f64> = queries.iter().map(|&x| novelty.fit.decision(x)).collect();
    let predicted: Vec<i32> = decision
        .iter()
        .map(|&f| if f >= 0.0 { 1 } else { -1 })
        .collect();
    let mut out = Map::new();
    out.insert("task".into(), json!("novelty"));
    out.insert("model".into(), json!(lab.settings().model));
    out.insert("decision".into(), json!(decision));
    out.insert("predicted".into(), json!(predicted));
    out.insert("rho".into(), json!(novelty.fit.rho));
    out.insert("alpha".into(), json!(novelty.fit.alpha));
    out.insert("support".into(), json!(novelty.fit.support));
    out.insert(
        "outlier_fraction".into(),
        json!(novelty.fit.outlier_fraction(&lab.data().points)),
    );
    out.insert(
        "support_fraction".into(),
        json!(novelty.fit.support_fraction()),
    );
    out.insert("fit_ms".into(), json!(fit_ms));
    Ok(serde_json::to_string_pretty(&Value::Object(out)).unwrap_or_default())
}

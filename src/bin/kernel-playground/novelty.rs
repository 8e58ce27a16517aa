//! `fit --task novelty`: the one-class SVM's numbers as JSON, as scikit-learn's `OneClassSVM`
//! reports them.

use super::{columns, in_file, read, ArgMatches, Error, PathBuf, Playground};
use kernel_playground::core::data::{Dataset, Point};
use serde_json::{json, Map, Value};

/// The JSON of a fitted one-class SVM: `decision` and `predicted` (+1 inside, −1 outside) at
/// each query point (the training points when there is no `--query`), `rho`, `alpha` (one per
/// training point), `support`, `outlier_fraction` and `support_fraction`.
pub fn fit(args: &ArgMatches, lab: &Playground, fit_ms: f64) -> Result<String, Error> {
    let model = lab.model().expect("fitted");
    let dual = model
        .one_class()
        .ok_or_else(|| Error::Parameter("novelty detection needs --model oneclass".into()))?;
    let queries: Vec<Point> = match args.get_one::<PathBuf>("query") {
        Some(path) => Dataset::read_points(&read(path)?, columns(args)?.as_deref())
            .map_err(|e| in_file(path, e))?,
        None => lab.data().points.clone(),
    };
    let decision: Vec<f64> = queries.iter().map(|&x| model.decision_value(x)).collect();
    let predicted: Vec<i32> = decision
        .iter()
        .map(|&f| if f >= 0.0 { 1 } else { -1 })
        .collect();
    let mut out = Map::new();
    out.insert("task".into(), json!("novelty"));
    out.insert("model".into(), json!(lab.settings().model));
    out.insert("decision".into(), json!(decision));
    out.insert("predicted".into(), json!(predicted));
    out.insert("rho".into(), json!(dual.rho));
    out.insert("alpha".into(), json!(dual.alpha));
    out.insert("support".into(), json!(dual.support));
    out.insert(
        "outlier_fraction".into(),
        json!(dual.outlier_fraction(lab.data().points.iter().map(|&x| model.decision_value(x)))),
    );
    out.insert("support_fraction".into(), json!(dual.support_fraction()));
    out.insert("fit_ms".into(), json!(fit_ms));
    Ok(serde_json::to_string_pretty(&Value::Object(out)).unwrap_or_default())
}

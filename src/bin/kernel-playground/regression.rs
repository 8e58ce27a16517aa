//! `fit --task regression`: the fitted curve's numbers as JSON, as scikit-learn's regressors
//! report them.

use super::{read, ArgMatches, Error, PathBuf, Playground};
use kernel_playground::core::data::files::read_inputs;
use kernel_playground::methods::solvers::regression::{curve_of, scores};
use serde_json::{json, Map, Value};

/// The JSON of a fitted regression: `prediction` at each query x (the training inputs when
/// there is no `--query`), `train_rmse`, `train_r2`, and the method's own numbers.
pub fn fit(args: &ArgMatches, lab: &mut Playground, fit_ms: f64) -> Result<String, Error> {
    let model = lab.model().expect("fitted");
    let curve = curve_of(model).expect("a regression model");
    let data = lab.data();
    let inputs = match args.get_one::<PathBuf>("query") {
        Some(path) => read_inputs(&read(path)?)
            .map_err(|e| Error::Parameter(format!("{}: {e}", path.display())))?,
        None => data.points.iter().map(|p| p[0]).collect(),
    };
    let mut out = Map::new();
    out.insert("task".into(), json!("regression"));
    out.insert("model".into(), json!(lab.settings().model));
    let prediction: Vec<f64> = inputs.iter().map(|&x| curve.at(x)).collect();
    out.insert("prediction".into(), json!(prediction));
    let (rmse, r2) = scores(model, &data.points).expect("at least two points");
    out.insert("train_rmse".into(), json!(rmse));
    out.insert("train_r2".into(), json!(r2));
    for (key, values) in curve.numbers() {
        out.insert(key.into(), json!(values));
    }
    for (key, values) in curve.indices() {
        out.insert(key.into(), json!(values));
    }
    for (key, value) in curve.scalars() {
        out.insert(key.into(), json!(value));
    }
    out.insert("fit_ms".into(), json!(fit_ms));
    Ok(serde_json::to_string_pretty(&Value::Object(out)).unwrap_or_default())
}

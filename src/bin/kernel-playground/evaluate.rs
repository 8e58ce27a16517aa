//! `cv` and `roc`: how the model does on points it was not fitted to — accuracy over seeded
//! stratified folds (for one setting or a grid), and the ROC curve and AUC of the decision
//! values on held-out points.

use super::{fitted_lab, read_test};
use clap::ArgMatches;
use kernel_playground::core::roc::Roc;
use kernel_playground::methods::validation::{self, Axis, Folds};
use kernel_playground::Error;
use serde_json::{json, Map, Value};
use std::path::PathBuf;

pub(super) fn cross_validate(args: &ArgMatches) -> Result<String, Error> {
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

pub(super) fn roc(args: &ArgMatches) -> Result<String, Error> {
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

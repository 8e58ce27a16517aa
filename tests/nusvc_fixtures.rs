//! ν-SVC against scikit-learn's `NuSVC` (LIBSVM): decision values within 10⁻³ of max(1, |ref|),
//! the same support vectors, and the ν-property (fraction of margin errors ≤ ν ≤ fraction of
//! support vectors); two classes directly, more classes one-versus-one with every pair's
//! decision value and the voted predictions. Fixtures: tests/fixtures/nusvc_sklearn.json, made
//! by make_nusvc_fixtures.py.

#[path = "common/mod.rs"]
mod common;

use common::numbers;
use kernel_playground::core::data::{Dataset, Point};
use kernel_playground::core::kernel::Kernel;
use kernel_playground::lab::state::Settings;
use kernel_playground::methods::model::{ExitReason, FactValue, FitOptions, Model};
use kernel_playground::methods::multiclass::{Multiclass, Scheme};
use kernel_playground::methods::registry;
use kernel_playground::methods::solvers::nu_svc::{NuSvcModel, NuSvcParams};
use serde_json::Value;

/// A case read from the fixture file: its name, settings and points (the expected values
/// stay in `json`).
struct Case {
    name: String,
    nu: f64,
    params: NuSvcParams,
    x: Vec<Point>,
    labels: Vec<i32>,
    query: Vec<Point>,
    support: Vec<usize>,
    json: Value,
}

fn points(v: &Value) -> Vec<Point> {
    let flat = v.as_array().unwrap().iter().flat_map(numbers);
    let flat: Vec<f64> = flat.collect();
    flat.chunks(2).map(|p| [p[0], p[1]]).collect()
}

fn cases() -> Vec<Case> {
    let fixtures: Value =
        serde_json::from_str(include_str!("fixtures/nusvc_sklearn.json")).unwrap();
    let read = |c: &Value| {
        let number = |key: &str| c[key].as_f64().unwrap();
        let kernel = c["kernel"].as_str().unwrap();
        let kernel = Kernel::from_name(
            kernel,
            number("gamma"),
            number("degree") as u32,
            number("coef0"),
        )
        .unwrap();
        let whole = |key: &str| -> Vec<i64> {
            c[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect()
        };
        Case {
            name: c["name"].as_str().unwrap().to_string(),
            nu: number("nu"),
            params: NuSvcParams {
                tol: number("tol"),
                ..NuSvcParams::new(kernel, number("nu"))
            },
            x: points(&c["x"]),
            labels: whole("labels").into_iter().map(|l| l as i32).collect(),
            query: points(&c["query"]),
            support: whole("support").into_iter().map(|i| i as usize).collect(),
            json: c.clone(),
        }
    };
    fixtures["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(read)
        .collect()
}

/// The cases that have `key`: two classes have `decision_query`, more have `pairs`.
fn cases_with(key: &str) -> Vec<Case> {
    cases()
        .into_iter()
        .filter(|c| c.json[key].is_array())
        .collect()
}

fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-3 * want.abs().max(1.0),
        "{what}: {got} vs {want}"
    );
}

/// Fraction of margin errors ≤ ν ≤ fraction of support vectors, in the model's own numbers.
fn nu_property_holds(model: &NuSvcModel, name: &str) {
    let (errors, support) = (model.margin_error_fraction(), model.support_fraction());
    assert!(
        errors <= model.nu && model.nu <= support,
        "{name}: {errors} ≤ {} ≤ {support}",
        model.nu
    );
}

#[test]
fn two_classes_match_libsvm() {
    let cases = cases_with("decision_query");
    assert!(cases.len() >= 8);
    for case in &cases {
        let model = NuSvcModel::fit(&case.x, &case.labels, &case.params)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(
            model.svm.report.exit,
            ExitReason::Converged,
            "{}",
            case.name
        );
        let points = case.x.iter().chain(&case.query);
        let mut expected = numbers(&case.json["decision_train"]);
        expected.extend(numbers(&case.json["decision_query"]));
        for (k, (x, &want)) in points.zip(&expected).enumerate() {
            close(
                model.decision_value(*x),
                want,
                &format!("{} f at {k}", case.name),
            );
        }
        assert_eq!(model.svm.support(), case.support, "{}: support", case.name);
        let alpha = numbers(&case.json["alpha"]);
        let scale = alpha.iter().fold(1.0f64, |m, a| m.max(*a));
        for (i, (&got, &want)) in model.svm.alpha.iter().zip(&alpha).enumerate() {
            assert!(
                (got - want).abs() <= 1e-3 * scale,
                "{}: α_{i} {got} vs {want}",
                case.name
            );
        }
        let bias = case.json["bias"].as_f64().unwrap();
        close(model.svm.bias, bias, &format!("{} b", case.name));
        let fraction = case.json["support_fraction"].as_f64();
        assert_eq!(Some(model.support_fraction()), fraction);
        nu_property_holds(&model, &case.name);
    }
}

#[test]
fn more_classes_match_libsvm_one_versus_one() {
    let cases = cases_with("pairs");
    assert!(cases.len() >= 4);
    for case in &cases {
        let params = case.params;
        let data = Dataset::from_parts(case.x.clone(), case.labels.clone());
        let multi = Multiclass::fit(&data, Scheme::OneVsOne, |pair| {
            Ok(Box::new(NuSvcModel::fit(
                &pair.points,
                &pair.labels,
                &params,
            )?))
        })
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let pairs: Vec<[usize; 2]> = multi
            .members
            .iter()
            .map(|m| [m.negative.unwrap(), m.positive])
            .collect();
        let want_pairs: Vec<[usize; 2]> =
            serde_json::from_value(case.json["pairs"].clone()).unwrap();
        assert_eq!(pairs, want_pairs, "{}", case.name);
        let expected = case.json["pair_decision_query"].as_array().unwrap();
        let predicted = case.json["predicted_query"].as_array().unwrap();
        for (q, (x, values)) in case.query.iter().zip(expected).enumerate() {
            for (member, &want) in multi.members.iter().zip(&numbers(values)) {
                // LIBSVM's pair value is positive for the smaller class; ours for the larger.
                let got = -member.model.decision_value(*x);
                close(got, want, &format!("{} query {q}", case.name));
            }
            assert_eq!(
                i64::from(multi.predict(*x)),
                predicted[q].as_i64().unwrap(),
                "{} query {q}",
                case.name
            );
        }
        let mut support: Vec<usize> = Vec::new();
        for member in &multi.members {
            let model = member
                .model
                .as_any()
                .downcast_ref::<NuSvcModel>()
                .expect("a ν-SVC");
            nu_property_holds(model, &case.name);
            support.extend(model.svm.support().into_iter().map(|l| member.indices[l]));
        }
        support.sort_unstable();
        support.dedup();
        assert_eq!(support, case.support, "{}: support vectors", case.name);
    }
}

/// Through the registry, as the page and the command line fit it: the status line's
/// ν-property is the worst pair's, and it holds.
#[test]
fn the_registry_reports_the_nu_property_of_the_worst_pair() {
    let case = cases_with("pairs").remove(0);
    let mut settings = Settings::default();
    for key in ["kernel", "gamma", "degree", "coef0", "nu"] {
        let value = &case.json[key];
        let text = value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string);
        settings.set(key, &text).unwrap();
    }
    settings.set("model", "nusvc").unwrap();
    let data = Dataset::from_parts(case.x.clone(), case.labels.clone());
    let model = registry::fit(
        settings.method(),
        &settings.values,
        &data,
        FitOptions::default(),
    )
    .unwrap();
    let facts = model.facts(&data);
    let number = |key: &str| match facts.iter().find(|f| f.key == key).map(|f| &f.value) {
        Some(FactValue::Number(v)) => *v,
        other => panic!("{key}: {other:?}"),
    };
    let (errors, support) = (number("margin_error_fraction"), number("support_fraction"));
    assert!(
        errors <= case.nu && case.nu <= support,
        "{errors} ≤ ν ≤ {support}"
    );
    assert!(facts
        .iter()
        .any(|f| f.key == "nu_property" && f.label.contains("pairs")));
}

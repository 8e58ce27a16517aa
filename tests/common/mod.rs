//! Helpers shared by more than one integration test (each test uses a part of them).
#![allow(dead_code)]

pub mod kkt;
pub mod lines;

use serde_json::Value;

/// A JSON array of numbers.
pub fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// The cases of a fixture file (`{"generator", "sklearn_version", "cases"}`).
pub fn cases(text: &str) -> Vec<Value> {
    let fixtures: Value = serde_json::from_str(text).expect("a fixture file");
    fixtures["cases"].as_array().expect("its cases").clone()
}

//! Helpers shared by more than one integration test (each test uses a part of them).
#![allow(dead_code)]

pub mod kkt;

use serde_json::Value;

/// A JSON array of numbers.
pub fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

//! Helpers shared by the integration tests that read JSON fixtures.

use serde_json::Value;

/// A JSON array of numbers.
pub fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

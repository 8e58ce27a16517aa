//! A model's facts: ordered (key, label, value) entries that the page joins into the status
//! line and the hover readout, and the command line prints as JSON.

use serde::Serialize;
use std::fmt::Debug;

/// A fact's value.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum FactValue {
    /// A quantity that does not exist here (JSON `null`); a fact beside it says why.
    Null,
    Bool(bool),
    Count(usize),
    Number(f64),
    Text(String),
    Vector([f64; 2]),
    Numbers(Vec<f64>),
    Indices(Vec<usize>),
    Texts(Vec<String>),
    Rows(Vec<Vec<f64>>),
    Matrices(Vec<[[f64; 2]; 2]>),
}

/// One thing a model reports: `key` for JSON, `label` for people (empty: not in the status
/// line), and an optional `note` the page shows after the value. An `inside` fact (an
/// objective, an iteration count, a solver's step) is one the page keeps out of the status
/// line's headline, under its "details"; the command line's JSON has every fact all the same.
///
/// The page's frame carries the facts with a single value (numbers, flags, texts, w); the
/// command line prints every fact, lists per training point included. A list may reuse the key
/// of a count given earlier (the SVM's `support`: how many in the status line, which ones in
/// the JSON): in the JSON the later fact wins.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fact {
    pub key: &'static str,
    pub label: &'static str,
    pub value: FactValue,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inside: bool,
}

impl Fact {
    pub fn new(key: &'static str, label: &'static str, value: impl Into<FactValue>) -> Fact {
        Fact {
            key,
            label,
            value: value.into(),
            note: None,
            inside: false,
        }
    }

    /// A fact for the JSON only (per-point arrays and the like).
    pub fn data(key: &'static str, value: impl Into<FactValue>) -> Fact {
        Fact::new(key, "", value)
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Fact {
        self.note = Some(note.into());
        self
    }

    /// An inside number: in the page's details rather than its status line's headline.
    pub fn inside(mut self) -> Fact {
        self.inside = true;
        self
    }
}

impl FactValue {
    /// Whether this is a single value (not a list), as the page's frame carries.
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            FactValue::Bool(_)
                | FactValue::Count(_)
                | FactValue::Number(_)
                | FactValue::Text(_)
                | FactValue::Vector(_)
        )
    }
}

impl From<bool> for FactValue {
    fn from(v: bool) -> Self {
        FactValue::Bool(v)
    }
}
impl From<usize> for FactValue {
    fn from(v: usize) -> Self {
        FactValue::Count(v)
    }
}
impl From<f64> for FactValue {
    fn from(v: f64) -> Self {
        FactValue::Number(v)
    }
}
impl From<&str> for FactValue {
    fn from(v: &str) -> Self {
        FactValue::Text(v.to_string())
    }
}
impl From<String> for FactValue {
    fn from(v: String) -> Self {
        FactValue::Text(v)
    }
}
impl From<[f64; 2]> for FactValue {
    fn from(v: [f64; 2]) -> Self {
        FactValue::Vector(v)
    }
}
impl From<Vec<f64>> for FactValue {
    fn from(v: Vec<f64>) -> Self {
        FactValue::Numbers(v)
    }
}
impl From<Vec<String>> for FactValue {
    fn from(v: Vec<String>) -> Self {
        FactValue::Texts(v)
    }
}
impl From<Vec<usize>> for FactValue {
    fn from(v: Vec<usize>) -> Self {
        FactValue::Indices(v)
    }
}
impl From<Vec<[f64; 2]>> for FactValue {
    fn from(v: Vec<[f64; 2]>) -> Self {
        FactValue::Rows(v.into_iter().map(|p| p.to_vec()).collect())
    }
}
impl From<Vec<Vec<f64>>> for FactValue {
    fn from(v: Vec<Vec<f64>>) -> Self {
        FactValue::Rows(v)
    }
}
impl From<Vec<[[f64; 2]; 2]>> for FactValue {
    fn from(v: Vec<[[f64; 2]; 2]>) -> Self {
        FactValue::Matrices(v)
    }
}

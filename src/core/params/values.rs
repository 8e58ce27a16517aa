//! [`Values`]: one checked value per row of the table, set from text (a kernel may be given
//! as an expression), read back typed (real, whole, choice, flag, text), and whether a row
//! matters for a method that reads given keys (a γ only for a kernel that has one).

use super::{param, Effect, Param, Value, EXPRESSION_KEY, PARAMS};
use crate::core::error::Error;
use std::collections::BTreeMap;

/// Whether `text` is written in an expression's characters (and is more than one word): a
/// refused kernel is then said as a faulty expression, else as an unknown kernel.
fn looks_like_an_expression(text: &str) -> bool {
    let text = text.trim();
    text.contains(|c: char| !c.is_ascii_alphanumeric())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " .,()+*^-".contains(c))
}

/// One checked value per row of [`PARAMS`].
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    values: BTreeMap<&'static str, Value>,
}

impl Default for Values {
    fn default() -> Self {
        Values {
            values: PARAMS.iter().map(|p| (p.key, p.default_value())).collect(),
        }
    }
}

impl Values {
    /// Sets `key` from its text, checked against its row; on error nothing changes.
    ///
    /// A kernel given as an expression (`kernel=rbf*linear`, `--kernel 'rbf + 1'`) is the kernel
    /// built by rule with that expression.
    pub fn set(&mut self, key: &str, text: &str) -> Result<Effect, Error> {
        let row = param(key).ok_or_else(|| Error::Parameter(format!("unknown setting '{key}'")))?;
        let value = match row.parse(text) {
            Ok(value) => value,
            Err(unknown) if key == "kernel" => {
                let expression = param(EXPRESSION_KEY)
                    .expect("the table has the expression's row")
                    .parse(text);
                match expression {
                    Ok(expression) => {
                        self.values.insert(EXPRESSION_KEY, expression);
                        Value::Choice("composed")
                    }
                    // A word alone is a kernel's name mistyped, and so is text no expression
                    // could hold; anything else, an expression with its fault named.
                    Err(e) if looks_like_an_expression(text) => return Err(e),
                    Err(_) => return Err(unknown),
                }
            }
            Err(e) => return Err(e),
        };
        self.values.insert(row.key, value);
        Ok(row.effect)
    }

    /// The text of a setting typed as text (a kernel's expression).
    pub fn expression(&self, key: &str) -> &str {
        match self.get(key) {
            Value::Text(text) => text,
            other => panic!("'{key}' is not typed text: {other:?}"),
        }
    }

    /// The value of `key` as written in the URL.
    pub fn text(&self, key: &str) -> Option<String> {
        self.values.get(key).map(Value::text)
    }

    fn get(&self, key: &str) -> &Value {
        self.values
            .get(key)
            .unwrap_or_else(|| panic!("'{key}' is not a row of the parameter table"))
    }

    /// A real-valued setting (log sliders and sliders).
    pub fn real(&self, key: &str) -> f64 {
        match self.get(key) {
            Value::Real(v) => *v,
            Value::Whole(v) => *v as f64,
            other => panic!("'{key}' is not a number: {other:?}"),
        }
    }

    /// A whole-number setting.
    pub fn whole(&self, key: &str) -> u64 {
        match self.get(key) {
            Value::Whole(v) => *v,
            other => panic!("'{key}' is not a whole number: {other:?}"),
        }
    }

    /// The chosen option of a choice.
    pub fn choice(&self, key: &str) -> &'static str {
        match self.get(key) {
            Value::Choice(v) => v,
            other => panic!("'{key}' is not a choice: {other:?}"),
        }
    }

    pub fn flag(&self, key: &str) -> bool {
        match self.get(key) {
            Value::Flag(v) => *v,
            other => panic!("'{key}' is not a flag: {other:?}"),
        }
    }

    /// Whether row `param` matters for a method that uses the keys `uses`.
    pub fn enabled(&self, param: &Param, uses: &[&str]) -> bool {
        let relevant: Vec<_> = param
            .enabled_by
            .iter()
            .filter(|(key, _)| uses.contains(key))
            .collect();
        relevant.is_empty()
            || relevant
                .iter()
                .any(|(key, values)| self.text(key).is_some_and(|v| values.contains(&v.as_str())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_against_their_rows() {
        let mut v = Values::default();
        assert_eq!(v.set("C", "0").unwrap_err().to_string(), "C <= 0");
        assert!(v.set("C", "inf").is_err());
        assert!(v.set("degree", "11").is_err());
        assert!(v
            .set("kernel", "cubic")
            .unwrap_err()
            .to_string()
            .contains("use linear, poly"));
        assert!(v.set("noise", "3").is_err());
        assert!(v.set("bogus", "1").is_err());
        assert_eq!(v, Values::default(), "refused values change nothing");
        assert_eq!(v.set("kernel", "polynomial").unwrap(), Effect::Refit);
        assert_eq!(v.choice("kernel"), "poly");
        assert_eq!(v.set("seed", "12").unwrap(), Effect::Regenerate);
        assert_eq!(v.set("slack", "0").unwrap(), Effect::Redraw);
        assert!(!v.flag("slack"));
    }

    #[test]
    fn enabling_follows_the_method_keys() {
        let mut v = Values::default();
        let gamma = param("gamma").unwrap();
        v.set("kernel", "linear").unwrap();
        assert!(!v.enabled(gamma, &["kernel", "gamma"]));
        v.set("features", "rbf").unwrap();
        // A method using features (not kernel) sees γ through its features.
        assert!(v.enabled(gamma, &["features", "gamma"]));
        assert!(!v.enabled(gamma, &["kernel", "gamma"]));
        assert!(v.enabled(param("k").unwrap(), &["k"]));
    }
}

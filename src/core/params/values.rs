//! [`Values`]: one checked value per row of a table (the lab's, gathered by `methods::table`
//! from the methods' declarations; core knows no method), set from text (a kernel may be given
//! as an expression), read back typed (real, whole, choice, flag, text), and whether a row
//! matters for a method that reads given keys (a γ only for a kernel that has one).

use super::{Effect, Param, Value, EXPRESSION_KEY};
use crate::core::error::Error;

/// Whether `text` is written in an expression's characters (and is more than one word): a
/// refused kernel is then said as a faulty expression, else as an unknown kernel.
fn looks_like_an_expression(text: &str) -> bool {
    let text = text.trim();
    text.contains(|c: char| !c.is_ascii_alphanumeric())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " .,()+*^-".contains(c))
}

/// One checked value per row of its table, read as one method reads them.
///
/// A key names one setting for each method: two methods may each bring a row of the same key
/// (the SVM's `solver` and logistic regression's), and each reads its own. The values keep
/// both; which one a key names is said by the rows of the method that reads them
/// ([`Values::read_by`]): that method's own row of the key, else the one row of that key in
/// the table.
#[derive(Clone)]
pub struct Values {
    rows: &'static [&'static Param],
    /// The rows the reading method brings itself.
    own: &'static [Param],
    /// One value per row of `rows`, in its order.
    values: Vec<Value>,
}

/// The values as `key: value` (the rows' texts would fill a screen).
impl std::fmt::Debug for Values {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let values = self.rows.iter().zip(&self.values);
        f.debug_map()
            .entries(values.map(|(row, value)| (row.key, value)))
            .finish()
    }
}

/// Two sets of values are equal when every setting is (their tables are the lab's).
impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        self.values == other.values
    }
}

impl Values {
    /// Every row of `rows` at its default.
    pub fn new(rows: &'static [&'static Param]) -> Values {
        Values {
            rows,
            own: &[],
            values: rows.iter().map(|p| p.default_value()).collect(),
        }
    }

    /// From now on read by a method that brings the rows `own` (the lab's settings follow
    /// their model; a method reads its own row of a key another has through
    /// [`Values::as_read_by`]).
    pub fn read_by(&mut self, own: &'static [Param]) {
        self.own = own;
    }

    /// These values as read by the method that brings `own` (borrowed when they are): what a
    /// method reads through it is its own row of a key that another method has a row of too.
    #[inline(never)]
    pub fn as_read_by(&self, own: &'static [Param]) -> std::borrow::Cow<'_, Values> {
        if self.is_read_by(own) {
            std::borrow::Cow::Borrowed(self)
        } else {
            let mut values = self.clone();
            values.read_by(own);
            std::borrow::Cow::Owned(values)
        }
    }

    /// Whether these are read by the method that brings `own`.
    pub fn is_read_by(&self, own: &'static [Param]) -> bool {
        std::ptr::eq(self.own, own)
    }

    /// Every row with its value as the URL writes it, in URL order: each method's own row of
    /// a key another has too, whoever reads (what depends on every setting hashes them all).
    pub fn each(&self) -> impl Iterator<Item = (&'static Param, String)> + '_ {
        self.rows
            .iter()
            .copied()
            .zip(self.values.iter().map(Value::text))
    }

    /// The rows these are values of, in URL order.
    pub fn rows(&self) -> &'static [&'static Param] {
        self.rows
    }

    /// The rows the reader sees, in URL order: one per key (another method's own row of a
    /// key the reader's own row shares, or that two others share, is not seen).
    pub fn seen(&self) -> impl Iterator<Item = &'static Param> + '_ {
        (0..self.rows.len())
            .filter(|&i| self.slot(self.rows[i].key) == Some(i))
            .map(|i| self.rows[i])
    }

    /// Where the value `key` names for the reader is kept. (One copy of this search, not
    /// one inlined into each read: the module carries every setting's readers.)
    #[inline(never)]
    fn slot(&self, key: &str) -> Option<usize> {
        let mut found = None;
        let mut rows_of_key = 0;
        for (i, row) in self.rows.iter().enumerate().filter(|(_, r)| r.key == key) {
            if self.own.iter().any(|own| std::ptr::eq(own, *row)) {
                return Some(i);
            }
            rows_of_key += 1;
            found = Some(i);
        }
        found.filter(|_| rows_of_key == 1)
    }

    /// The row `key` names for the reader.
    pub fn row(&self, key: &str) -> Option<&'static Param> {
        self.slot(key).map(|i| self.rows[i])
    }

    /// Sets `key` from its text, checked against its row; on error nothing changes.
    ///
    /// A key that is also another method's row (`solver=gd` while the SVM reads: logistic
    /// regression's) sets the row that takes the text when the reader's own does not, so a
    /// link read before its `model` and an older link that wrote every method's settings set
    /// each where it belongs.
    ///
    /// A kernel given as an expression (`kernel=rbf*linear`, `--kernel 'rbf + 1'`) is the kernel
    /// built by rule with that expression.
    pub fn set(&mut self, key: &str, text: &str) -> Result<Effect, Error> {
        let others = || {
            (0..self.rows.len())
                .filter(|&i| self.rows[i].key == key)
                .find(|&i| self.rows[i].parse(text).is_ok())
        };
        let slot = match self.slot(key) {
            Some(i) if self.rows[i].parse(text).is_err() => others().unwrap_or(i),
            Some(i) => i,
            None => others()
                .or_else(|| self.rows.iter().position(|r| r.key == key))
                .ok_or_else(|| Error::Parameter(format!("unknown setting '{key}'")))?,
        };
        let row = self.rows[slot];
        let value = match row.parse(text) {
            Ok(value) => value,
            Err(unknown) if key == "kernel" => {
                let at = self
                    .slot(EXPRESSION_KEY)
                    .expect("the table has the expression's row");
                match self.rows[at].parse(text) {
                    Ok(expression) => {
                        self.values[at] = expression;
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
        self.values[slot] = value;
        Ok(row.effect)
    }

    /// The text of a setting typed as text (a kernel's expression).
    #[inline(never)]
    pub fn expression(&self, key: &str) -> &str {
        match self.get(key) {
            Value::Text(text) => text,
            other => panic!("'{key}' is not typed text: {other:?}"),
        }
    }

    /// The value of `key` as written in the URL.
    #[inline(never)]
    pub fn text(&self, key: &str) -> Option<String> {
        self.slot(key).map(|i| self.values[i].text())
    }

    #[inline(never)]
    fn get(&self, key: &str) -> &Value {
        let i = self
            .slot(key)
            .unwrap_or_else(|| panic!("'{key}' is not a row of the parameter table"));
        &self.values[i]
    }

    /// A real-valued setting (log sliders and sliders).
    // The typed readers are kept out of line, like the search: inlined at each of the hundred
    // places that read a setting, they cost the page's module kilobytes.
    #[inline(never)]
    pub fn real(&self, key: &str) -> f64 {
        match self.get(key) {
            Value::Real(v) => *v,
            Value::Whole(v) => *v as f64,
            other => panic!("'{key}' is not a number: {other:?}"),
        }
    }

    /// A whole-number setting.
    #[inline(never)]
    pub fn whole(&self, key: &str) -> u64 {
        match self.get(key) {
            Value::Whole(v) => *v,
            other => panic!("'{key}' is not a whole number: {other:?}"),
        }
    }

    /// The chosen option of a choice.
    #[inline(never)]
    pub fn choice(&self, key: &str) -> &'static str {
        match self.get(key) {
            Value::Choice(v) => v,
            other => panic!("'{key}' is not a choice: {other:?}"),
        }
    }

    #[inline(never)]
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
    use crate::methods::table::defaults;

    #[test]
    fn values_are_checked_against_their_rows() {
        let mut v = defaults();
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
        assert_eq!(v, defaults(), "refused values change nothing");
        assert_eq!(v.set("kernel", "polynomial").unwrap(), Effect::Refit);
        assert_eq!(v.choice("kernel"), "poly");
        assert_eq!(v.set("seed", "12").unwrap(), Effect::Regenerate);
        assert_eq!(v.set("slack", "0").unwrap(), Effect::Redraw);
        assert!(!v.flag("slack"));
    }

    #[test]
    fn enabling_follows_the_method_keys() {
        let mut v = defaults();
        let gamma = v.row("gamma").unwrap();
        v.set("kernel", "linear").unwrap();
        assert!(!v.enabled(gamma, &["kernel", "gamma"]));
        v.set("features", "rbf").unwrap();
        // A method using features (not kernel) sees γ through its features.
        assert!(v.enabled(gamma, &["features", "gamma"]));
        assert!(!v.enabled(gamma, &["kernel", "gamma"]));
        assert!(v.enabled(v.row("k").unwrap(), &["k"]));
    }

    /// Two methods' rows of one key: each method reads its own; a text only the other's row
    /// takes sets that one (an older link's logistic `solver` beside an SVM), and a text
    /// neither takes is refused in the reader's words.
    #[test]
    fn each_method_reads_its_own_row_of_a_shared_key() {
        use crate::methods::registry::{method, METHODS};
        let svm = method("svm").unwrap().rows();
        let logistic = method("logistic").unwrap().rows();
        let mut v = defaults();
        v.read_by(svm);
        assert_eq!(v.choice("solver"), "smo");
        v.set("solver", "dca").unwrap();
        v.set("solver", "gd").unwrap();
        assert_eq!(v.choice("solver"), "dca", "gd is logistic regression's");
        assert_eq!(
            v.set("solver", "bfgs").unwrap_err().to_string(),
            "unknown solver 'bfgs' (use smo, dca, pegasos)"
        );
        assert_eq!(v.as_read_by(logistic).choice("solver"), "gd");
        // Each reader sees one row of the key; one that has neither sees none.
        let seen = |v: &Values| v.seen().filter(|p| p.key == "solver").count();
        assert_eq!(seen(&v), 1);
        assert_eq!(seen(&v.as_read_by(logistic)), 1);
        let knn = METHODS.iter().find(|m| m.id() == "knn").unwrap().rows();
        assert_eq!(seen(&v.as_read_by(knn)), 0);
        assert_eq!(v.as_read_by(knn).text("solver"), None);
        // Copies read by different methods are equal when their values are.
        assert_eq!(*v.as_read_by(knn), v);
    }
}

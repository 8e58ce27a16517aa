//! The one parameter table, gathered from where each row is declared: the kernel's name and
//! expression (`core::kernel::rows`), the rows each method brings (declared in its own file,
//! `Method::rows`, in the registry's order), standardising (`standardise`), the kernel's
//! parameters γ (or σ), degree and coef0, and the lab's own rows (the points', the views', the
//! layers', `core::params::LAB_ROWS`). That is URL order, and the order of the page's controls.
//!
//! A method declares only the rows it brings; a setting another method brought first (C, ν,
//! λ, the tolerance) it names in its `params` and reads as it is. Two methods may each bring a
//! row of the same key (the SVM's `solver` and logistic regression's): each reads its own
//! (`core::params::Values`), and no other method may read that key.

use crate::core::kernel::rows::{BANDWIDTH, COEF0, DEGREE, EXPRESSION, GAMMA, KERNEL};
use crate::core::params::{Param, Values, LAB_ROWS};
use crate::methods::model::Method;
use crate::methods::registry::METHODS;
use crate::methods::standardise::STANDARDISE;
use std::sync::OnceLock;

/// Every row, in URL order (gathered at the first call).
pub fn rows() -> &'static [&'static Param] {
    static ROWS: OnceLock<Vec<&'static Param>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut rows: Vec<&'static Param> = vec![&KERNEL, &EXPRESSION];
        rows.extend(METHODS.iter().flat_map(|method| method.rows()));
        rows.extend([&STANDARDISE, &GAMMA, &BANDWIDTH, &DEGREE, &COEF0]);
        rows.extend(LAB_ROWS);
        rows
    })
}

/// The row of `key` (the first of a key two methods each have a row of: the values a method
/// reads name its own, `Values::row`).
pub fn param(key: &str) -> Option<&'static Param> {
    rows().iter().copied().find(|p| p.key == key)
}

/// The methods that bring `row` itself, when its key is also another method's row (the SVM's
/// `solver` and logistic regression's); `None` for a key of one row, read by every method
/// that names it.
pub fn own_readers(row: &Param) -> Option<Vec<&'static dyn Method>> {
    let shared_key = rows().iter().filter(|r| r.key == row.key).count() > 1;
    shared_key.then(|| {
        METHODS
            .iter()
            .copied()
            .filter(|m| m.rows().iter().any(|own| std::ptr::eq(own, row)))
            .collect()
    })
}

/// A name for `row` unique in the table (a control's id on the page): its key, or for a key
/// that is also another method's row, `method-key` (`svm-solver`).
pub fn row_id(row: &Param) -> String {
    match own_readers(row).as_deref() {
        Some([first, ..]) => format!("{}-{}", first.id(), row.key),
        _ => row.key.to_string(),
    }
}

/// Every setting at its default.
pub fn defaults() -> Values {
    Values::new(rows())
}

/// The rows `method` declares, for a test of its file.
#[cfg(test)]
fn declared(method: &dyn Method) -> Vec<&'static str> {
    method.rows().iter().map(|r| r.key).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_reads_a_row_it_sees_and_only_methods_share_a_key() {
        for m in METHODS {
            for key in declared(*m) {
                assert!(
                    m.params().contains(&key),
                    "{} declares {key} unread",
                    m.id()
                );
            }
            // Each key it reads names one row for it: its own, or the one row of that key.
            let mut values = defaults();
            values.read_by(m.rows());
            for key in m.params() {
                assert!(
                    values.row(key).is_some(),
                    "{}: no row {key} it sees",
                    m.id()
                );
            }
        }
        let shared: Vec<&str> = rows()
            .iter()
            .filter(|row| own_readers(row).is_some())
            .map(|row| row.key)
            .collect();
        assert_eq!(shared, ["solver", "solver"], "only the solvers share a key");
        let ids: Vec<String> = rows()
            .iter()
            .filter(|row| row.key == "solver")
            .map(|row| row_id(row))
            .collect();
        assert_eq!(ids, ["svm-solver", "logistic-solver"]);
        assert_eq!(row_id(param("gamma").unwrap()), "gamma");
    }

    #[test]
    fn the_table_keeps_url_order() {
        let keys: Vec<&str> = rows().iter().map(|p| p.key).collect();
        let at = |key: &str| keys.iter().position(|k| *k == key).unwrap();
        assert_eq!(&keys[..3], ["kernel", "kexpr", "solver"]);
        assert!(at("reg") < at("std") && at("std") < at("gamma"));
        assert!(at("C") < at("gamma") && at("lambda") < at("gamma") && at("k") < at("gamma"));
        assert!(at("coef0") < at("preset") && at("preset") < at("regions"));
        assert_eq!(keys.last(), Some(&"pairs"));
    }
}

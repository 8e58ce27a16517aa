//! Every setting a person can change, as one declarative table: a row names the key (the URL
//! key, the CLI flag `--key` and the control's id), the label the page shows, the kind of value
//! with its range and default, what else must hold for it to matter (a γ only matters for a
//! kernel that has one), and what a change asks of the lab (refit, regenerate the points, or
//! only redraw). The URL, the command line, validation with its messages and the page's
//! controls all come from this table; which methods use a row is said by the methods
//! themselves (a method's `params`, in the model layer).
//!
//! [`Values`] holds one value per row, checked against the row when it is set, so code that
//! reads a value (a method building its typed parameters) never sees one out of range.
//!
//! The parts: [`row`] says what a row is (its kind, group and effect); `table` is the table
//! itself, [`PARAMS`]; `value` reads a row's text as a checked [`Value`]; `values` keeps one
//! value per row ([`Values`]); `shown` shows γ of a Gaussian kernel as its bandwidth σ.

pub mod row;
mod shown;
mod table;
mod value;
mod values;

pub use crate::core::kernel::rows::{BANDWIDTH_KEY, EXPRESSION_KEY};
pub use row::{Choice, Effect, Group, Kind, Param};
pub use shown::ShownAs;
pub use table::{param, PARAMS};
pub use value::Value;
pub use values::Values;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_defaults_valid() {
        let mut keys: Vec<&str> = PARAMS.iter().map(|p| p.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), PARAMS.len());
        for p in PARAMS {
            assert!(p.parse(p.default).is_ok(), "{}", p.key);
            for (key, _) in p.enabled_by {
                assert!(param(key).is_some(), "{} depends on unknown {key}", p.key);
            }
        }
    }

    #[test]
    fn every_control_and_kernel_explains_itself() {
        for p in PARAMS.iter().filter(|p| p.group != Group::Hidden) {
            assert!(p.explain.ends_with('.'), "{}: '{}'", p.key, p.explain);
        }
        let Kind::Choice { options } = param("kernel").unwrap().kind else {
            panic!("the kernel is a choice")
        };
        for o in options {
            assert!(o.explain.ends_with('.'), "kernel {}", o.value);
        }
    }
}

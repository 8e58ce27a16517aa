//! Every setting a person can change, as one declarative table: a row names the key (the URL
//! key, the CLI flag `--key` and the control's id), the label the page shows, the kind of value
//! with its range and default, what else must hold for it to matter (a γ only matters for a
//! kernel that has one), and what a change asks of the lab (refit, regenerate the points, or
//! only redraw). The URL, the command line, validation with its messages and the page's
//! controls all come from the one table, which `methods::table` gathers: the kernel's rows
//! (`kernel::rows`), the rows each method declares in its own file, and the lab's own rows
//! here (the points', the views', the layers'). Which methods read a row is said by the
//! methods themselves (a method's `params`, in the model layer).
//!
//! [`Values`] holds one value per row, checked against the row when it is set, so code that
//! reads a value (a method building its typed parameters) never sees one out of range.
//!
//! The parts: [`row`] says what a row is (its kind, group and effect); `table` holds the lab's
//! own rows, [`LAB_ROWS`]; `value` reads a row's text as a checked [`Value`]; `values` keeps one
//! value per row ([`Values`]); `shown` shows γ of a Gaussian kernel as its bandwidth σ.

pub mod row;
mod shown;
mod table;
mod value;
mod values;

pub use crate::core::kernel::rows::{BANDWIDTH_KEY, EXPRESSION_KEY};
pub(crate) use row::{choice, model_row};
pub use row::{Choice, Effect, Group, Kind, Param};
pub use shown::ShownAs;
pub use table::{lab_row, layer_explain, LAB_ROWS};
pub use value::Value;
pub use values::Values;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::table::{param, rows};

    #[test]
    fn defaults_are_valid_and_only_methods_share_a_key() {
        for p in rows().iter() {
            assert!(p.parse(p.default).is_ok(), "{}", p.key);
            for (key, _) in p.enabled_by {
                assert!(param(key).is_some(), "{} depends on unknown {key}", p.key);
            }
            // A key of two rows is two methods' own rows (`methods::table` checks who reads it).
            let rows_of_key = rows().iter().filter(|q| q.key == p.key).count();
            assert!(rows_of_key == 1 || p.group == Group::Model, "{}", p.key);
        }
    }

    #[test]
    fn every_control_and_kernel_explains_itself() {
        for p in rows().iter().filter(|p| p.group != Group::Hidden) {
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

//! Training points and their labels: the dataset a scene is made of, reading and writing it as
//! CSV (`x,y,label`), and the seeded presets a lecture starts from. Files as people have them
//! (other delimiters, more columns, encodings, labels that are texts) are split into rows by
//! [`crate::core::table`], whose rules they follow; [`Dataset::read`] reads a file's bytes so.
//!
//! Labels are small integers, each class keeping the text it was written as
//! ([`crate::core::labels`]). For a two-class problem the larger label is the positive class,
//! y = +1, and the smaller one y = −1 (scikit-learn's convention), so numbers printed here can be
//! compared with `SVC.decision_function` directly.
//!
//! Coordinates are kept exactly as given, as f64, in any units. A point read from a file or a
//! link also keeps the text it was written as (until it is moved), so writing the data back
//! reproduces that text; other points are written in the shortest form that reads back as the
//! same f64 (Rust's `Display`), so a write–read round trip is exact either way. The presets
//! place their points on a grid of 10⁻⁴ ([`on_preset_grid`]) only to keep their links short.
//!
//! - `dataset.rs`: the [`Dataset`] type, its edits, its classes, and the held-out split;
//! - `text.rs`: reading and writing CSV and LIBSVM text, errors naming their line;
//! - `presets.rs`: the seeded presets ([`Preset`]) and random labels;
//! - `targets.rs`: the regression presets' shapes; `files.rs`: a file read for a task.

mod dataset;
pub mod files;
mod presets;
pub mod targets;
mod text;

pub use dataset::{stratified_split, Dataset};
pub use presets::{gaussian, on_preset_grid, random_labels, Preset, FAR_POINT};
pub use text::{is_libsvm, points_from_csv};
use text::{libsvm_lines, parse_coordinate, points_from_table};

/// A point of the input plane, (x₁, x₂).
pub type Point = [f64; 2];

/// The text a coordinate pair was written as, where it came from a file or a link.
pub type Written = [Box<str>; 2];

/// The largest coordinate accepted: data in any units a person measures (10⁻⁶ to 10⁹ and
/// beyond) fits, and squared distances (≤ 10³⁰) and polynomial kernels of the slider's degrees
/// at unit γ stay finite.
pub const MAX_COORDINATE: f64 = 1e15;

//! Property-based tests: nothing a class can type, load or link breaks the lab (issue 9).
//!
//! - `csv`: any text read as CSV; rows with hostile fields; read → write → read is exact.
//! - `dialects`: files in every dialect the reader takes (delimiters, decimal commas, quotes,
//!   encodings, extra columns, text labels) read exactly; read → write → read keeps every text.
//! - `files`: any text read as LIBSVM's format or as a scene file; LIBSVM rows with hostile
//!   fields; LIBSVM and scene files written → read → written are exact.
//! - `hash`: any text read as a URL hash, hashes of 1 MB, every key set to hostile text; a
//!   scene written to a hash and read back is identical.
//! - `solvers`: every method of the registry on random points (duplicates, collinear points,
//!   one class, coordinates up to ±10¹⁵, spreads down to 10⁻¹²) with parameters far beyond the
//!   sliders: no panic, no hang, one-line errors, finite decision values, and the SVM's KKT
//!   conditions when it says it converged.
//! - `svr`: ε-SVR and ν-SVR on hostile points, targets and parameters: no panic, no hang,
//!   one-line errors, finite fits, and the KKT conditions and the ν-property when converged.
//! - `one_class`: the one-class SVM on the same points with every kernel and ν, γ, tol far
//!   beyond the sliders: a one-line error or α within its constraints and finite f; the
//!   ν-property when converged.
//! - `lines`: the least-squares and least-absolute lines on the same points read as (x, t), with
//!   NaN, ∞ and 10³⁰⁰ mixed in: a one-line error or a finite line no worse, in its own loss,
//!   than the other one or any line through two data points.
//!
//! The number of cases is `PROPERTY_CASES` (default [`DEFAULT_CASES`], a budget of a few
//! seconds for `cargo test`), divided down for the slower properties; a long run is
//! `PROPERTY_CASES=100000 cargo test --release --test properties`. (proptest's own
//! `PROPTEST_CASES` also works, but sets every property to the same count, the megabyte links
//! and the solvers included.)

#[path = "../common/mod.rs"]
mod common;
mod csv;
mod dialects;
mod files;
mod hash;
mod lines;
mod one_class;
mod solvers;
mod svr;

use proptest::prelude::*;

/// Cases per property when `PROPERTY_CASES` is not set.
const DEFAULT_CASES: u32 = 64;

/// The configuration every property runs with: `PROPERTY_CASES` cases (or the default), divided
/// by `divisor` for the slower properties (a solver case costs a thousand parses).
pub fn config(divisor: u32) -> ProptestConfig {
    let cases = std::env::var("PROPERTY_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(DEFAULT_CASES);
    ProptestConfig {
        cases: (cases / divisor).max(1),
        // A failure found in a long run is kept under tests/properties/ and replayed first.
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::Direct(
                "tests/properties/proptest-regressions.txt",
            ),
        )),
        ..ProptestConfig::default()
    }
}

/// Whether `message` is one line, as every error the lab shows must be: no line break, no
/// other control character.
pub fn one_line(message: &str) -> bool {
    !message.contains(|c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
}

/// Text a class might paste to break things: markup, quotes, escapes, separators, numbers
/// that overflow or are not numbers, and control characters.
pub fn hostile_text() -> impl Strategy<Value = String> {
    let fragments = prop_oneof![
        Just("<script>alert(1)</script>".to_string()),
        Just("<img src=x onerror=window.__pwned=1>".to_string()),
        Just("\"".to_string()),
        Just("'".to_string()),
        Just("`".to_string()),
        Just("%".to_string()),
        Just("%2C".to_string()),
        Just("%3B".to_string()),
        Just("%26".to_string()),
        Just("%0A".to_string()),
        Just("%0D".to_string()),
        Just("%00".to_string()),
        Just("%E0%A4%A".to_string()),
        Just("%ZZ".to_string()),
        Just("&".to_string()),
        Just("=".to_string()),
        Just("#".to_string()),
        Just(",".to_string()),
        Just(";".to_string()),
        Just("\n".to_string()),
        Just("\r".to_string()),
        Just("\t".to_string()),
        Just("\u{feff}".to_string()),
        Just("\u{2028}".to_string()),
        Just("NaN".to_string()),
        Just("nan".to_string()),
        Just("inf".to_string()),
        Just("-inf".to_string()),
        Just("infinity".to_string()),
        Just("-0".to_string()),
        Just("0".to_string()),
        Just("1e308".to_string()),
        Just("1e309".to_string()),
        Just("-1e400".to_string()),
        Just("1e-400".to_string()),
        Just("99999999999999999999999999".to_string()),
        Just("18446744073709551616".to_string()),
        Just("4294967296".to_string()),
        Just("0x10".to_string()),
        Just("1_000".to_string()),
        Just("+.5".to_string()),
        Just(".".to_string()),
        Just("e5".to_string()),
        Just(String::new()),
        Just(" ".to_string()),
        "[ -~]{0,8}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(fragments, 0..6).prop_map(|parts| parts.concat())
}

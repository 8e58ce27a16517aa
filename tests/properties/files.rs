//! LIBSVM's format and scene files: any text reads without a panic and fails in one line;
//! rows with hostile fields read exactly or fail; written → read → written is exact.

use crate::{config, hostile_text, one_line};
use kernel_playground::data::{Dataset, MAX_COORDINATE};
use kernel_playground::state::Settings;
use proptest::prelude::*;

fn check_libsvm(text: &str) -> Result<(), TestCaseError> {
    for read in [Dataset::from_libsvm(text), Dataset::from_text(text)] {
        match read {
            Ok(data) => {
                prop_assert_eq!(data.points.len(), data.labels.len());
                for p in &data.points {
                    prop_assert!(p.iter().all(|v| v.is_finite() && v.abs() <= MAX_COORDINATE));
                }
                let written = data.to_libsvm();
                let back = Dataset::from_libsvm(&written)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(&back.points, &data.points);
                prop_assert_eq!(&back.labels, &data.labels);
                prop_assert_eq!(back.to_libsvm(), written);
            }
            Err(e) => prop_assert!(one_line(&e.to_string()), "{:?}", e.to_string()),
        }
    }
    Ok(())
}

/// A LIBSVM row: a label and features in some order, each a number or something hostile.
fn libsvm_row() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        4 => (-1e15..1e15f64).prop_map(|v| v.to_string()),
        1 => any::<f64>().prop_map(|v| v.to_string()),
        1 => hostile_text(),
    ];
    let feature = prop_oneof![4 => Just("1"), 4 => Just("2"), 1 => Just("3"), 1 => Just("0")];
    (
        prop_oneof![4 => any::<i32>().prop_map(|l| l.to_string()), 1 => hostile_text()],
        prop::collection::vec((feature, value), 0..3),
    )
        .prop_map(|(label, features)| {
            let mut row = label;
            for (index, value) in features {
                row.push_str(&format!(" {index}:{value}"));
            }
            row
        })
}

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn any_text_reads_as_libsvm_or_fails_in_one_line(text in any::<String>()) {
        check_libsvm(&text)?;
    }

    #[test]
    fn libsvm_rows_read_exactly_or_fail_in_one_line(rows in prop::collection::vec(libsvm_row(), 1..20)) {
        check_libsvm(&rows.join("\n"))?;
    }

    #[test]
    fn any_text_reads_as_a_scene_or_fails_in_one_line(text in any::<String>()) {
        if let Err(e) = Settings::from_scene_json(&text) {
            prop_assert!(one_line(&e.to_string()), "{:?}", e.to_string());
        }
    }

    #[test]
    fn scene_files_round_trip_exactly(
        points in prop::collection::vec(((-1e15..1e15f64), (-1e15..1e15f64), -3i32..4, any::<bool>()), 0..40),
        key in prop::sample::select(Settings::keys().collect::<Vec<_>>()),
        value in hostile_text(),
    ) {
        let mut settings = Settings::default();
        let _ = settings.set(key, &value);
        let mut data = Dataset::new();
        let mut test = Vec::new();
        for &(x, y, label, held) in &points {
            data.push([x, y], label).unwrap();
            test.push(held);
        }
        let text = settings.to_scene_json(&data, &test);
        let (back, (read, roles), warnings) = Settings::from_scene_json(&text)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(warnings.is_empty(), "{:?}", warnings);
        prop_assert_eq!(&back, &settings);
        prop_assert_eq!(&read.points, &data.points);
        prop_assert_eq!(&read.labels, &data.labels);
        prop_assert_eq!(&roles, &test);
        prop_assert_eq!(back.to_scene_json(&read, &roles), text);
    }
}

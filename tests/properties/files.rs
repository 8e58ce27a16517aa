//! LIBSVM's format and scene files: any text reads without a panic and fails in one line;
//! rows with hostile fields read exactly or fail; written → read → written is exact. The same
//! for each task's files (regression's `x,t` and `t 1:x`, novelty's unlabelled points) and for
//! svm-train option strings.

use crate::{config, hostile_text, one_line};
use kernel_playground::core::data::files::{read_for, to_csv, to_libsvm};
use kernel_playground::core::data::{Dataset, MAX_COORDINATE};
use kernel_playground::core::task::Task;
use kernel_playground::lab::state::Settings;
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

/// Reads `text` as each task's file: a panic never, an error in one line, and what is read
/// finite, of the one class 0 outside classification, and written back in both of the task's
/// forms to the same points.
fn check_task_files(text: &str) -> Result<(), TestCaseError> {
    for task in Task::ALL {
        match read_for(task, text.as_bytes(), None) {
            Ok(read) => {
                let data = read.data;
                for p in &data.points {
                    prop_assert!(p.iter().all(|v| v.is_finite() && v.abs() <= MAX_COORDINATE));
                }
                if task != Task::Classification {
                    prop_assert!(data.labels.iter().all(|&l| l == 0));
                }
                for written in [to_csv(task, &data), to_libsvm(task, &data)] {
                    let back = read_for(task, written.as_bytes(), None)
                        .map_err(|e| TestCaseError::fail(format!("{written:?}: {e}")))?;
                    prop_assert_eq!(&back.data.points, &data.points);
                }
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
    fn any_text_reads_as_each_tasks_file_or_fails_in_one_line(text in any::<String>()) {
        check_task_files(&text)?;
    }

    #[test]
    fn libsvm_rows_read_as_each_tasks_file_or_fail_in_one_line(rows in prop::collection::vec(libsvm_row(), 1..20)) {
        check_task_files(&rows.join("\n"))?;
    }

    /// Any option string is read, checked against the settings, or refused in one line; what
    /// is read applies without an error, and the settings it makes write a string that reads
    /// back to themselves.
    #[test]
    fn any_option_string_reads_or_fails_in_one_line(
        tokens in prop::collection::vec(prop_oneof![
            3 => prop::sample::select(vec!["-s", "-t", "-c", "-g", "-d", "-r", "-n", "-p", "-e", "-b", "-v", "-w1", "-m", "-h", "-q", "-x"]).prop_map(String::from),
            2 => (-5..12i32).prop_map(|v| v.to_string()),
            2 => any::<f64>().prop_map(|v| v.to_string()),
            1 => hostile_text(),
        ], 0..12),
    ) {
        let text = tokens.join(" ");
        let now = Settings::opening();
        match kernel_playground::lab::options::read(&text, &now) {
            Ok(options) => {
                let mut settings = now.clone();
                for (key, value) in &options.edits {
                    settings.set(key, value).map_err(|e| TestCaseError::fail(format!("{text}: {key}={value}: {e}")))?;
                }
                if let Ok(written) = kernel_playground::lab::options::write(&settings) {
                    let again = kernel_playground::lab::options::read(&written, &settings)
                        .map_err(|e| TestCaseError::fail(format!("{written}: {e}")))?;
                    let mut back = settings.clone();
                    for (key, value) in &again.edits {
                        back.set(key, value).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    }
                    prop_assert_eq!(back, settings, "{} → {}", text, written);
                }
            }
            Err(e) => prop_assert!(one_line(&e.to_string()), "{:?}", e.to_string()),
        }
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

//! CSV: any text reads without a panic and fails in one line; rows with hostile fields fail on
//! the first bad row and read exactly otherwise; read → write → read keeps every bit and every
//! number's text.

use crate::{config, hostile_text, one_line};
use kernel_playground::core::data::{points_from_csv, Dataset, MAX_COORDINATE};
use proptest::prelude::*;

/// Whether `field` (already trimmed) is a coordinate the reader accepts.
fn accepted(field: &str) -> bool {
    field
        .parse::<f64>()
        .is_ok_and(|v| v.is_finite() && v.abs() <= MAX_COORDINATE)
}

/// A coordinate's text: a number in one of the ways people write them, or something hostile.
fn coordinate_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => any::<f64>().prop_map(|v| v.to_string()),
        2 => (-1e15..1e15f64).prop_map(|v| v.to_string()),
        2 => (-1e15..1e15f64).prop_map(|v| format!("{v:e}")),
        1 => (-1e6..1e6f64, 0usize..12).prop_map(|(v, digits)| format!("{v:.digits$}")),
        1 => (any::<i32>(), -20i32..20).prop_map(|(m, e)| format!("{m}e{e}")),
        1 => Just("-0".to_string()),
        1 => Just("+.5".to_string()),
        1 => Just("1e-400".to_string()),
        1 => Just("1E15".to_string()),
        1 => Just("1.0000000000000001e15".to_string()),
        2 => hostile_text(),
    ]
}

fn label_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => any::<i32>().prop_map(|l| l.to_string()),
        1 => (0i32..5).prop_map(|l| format!("+{l}")),
        1 => hostile_text(),
    ]
}

/// Checks what every read must give: finite points in range, and one-line errors.
fn check_read(text: &str) -> Result<(), TestCaseError> {
    match Dataset::from_csv(text) {
        Ok(data) => {
            prop_assert_eq!(data.points.len(), data.labels.len());
            for p in &data.points {
                prop_assert!(p.iter().all(|v| v.is_finite() && v.abs() <= MAX_COORDINATE));
            }
            assert_round_trip(&data)?;
        }
        Err(e) => prop_assert!(one_line(&e.to_string()), "{:?}", e.to_string()),
    }
    match points_from_csv(text) {
        Ok(points) => prop_assert!(points.iter().flatten().all(|v| v.is_finite())),
        Err(e) => prop_assert!(one_line(&e.to_string()), "{:?}", e.to_string()),
    }
    Ok(())
}

/// Written, then read again: the same points bit for bit, the same labels, the same text.
fn assert_round_trip(data: &Dataset) -> Result<(), TestCaseError> {
    let written = data.to_csv();
    let back = Dataset::from_csv(&written).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let bits = |d: &Dataset| -> Vec<[u64; 2]> {
        d.points
            .iter()
            .map(|p| [p[0].to_bits(), p[1].to_bits()])
            .collect()
    };
    prop_assert_eq!(bits(&back), bits(data));
    prop_assert_eq!(&back.labels, &data.labels);
    prop_assert_eq!(back.to_csv(), written);
    Ok(())
}

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn any_text_reads_or_fails_in_one_line(text in any::<String>()) {
        check_read(&text)?;
    }

    #[test]
    fn csv_like_text_reads_or_fails_in_one_line(
        text in "[-+0-9eE.,#\n\r\t a-zA-Z\u{feff}]{0,200}",
    ) {
        check_read(&text)?;
    }

    #[test]
    fn hostile_rows_fail_on_the_first_bad_row(
        rows in prop::collection::vec((coordinate_text(), coordinate_text(), label_text()), 1..20),
    ) {
        // Hostile text may hold separators or quotes of its own; only rows that stay three
        // unquoted fields on one line are what this property builds (quoting and other
        // delimiters are the dialect properties').
        let rows: Vec<_> = rows
            .into_iter()
            .filter(|(x, y, l)| {
                let joined = format!("{x}{y}{l}");
                !joined.contains([',', '\n', '\r', '"'])
            })
            .collect();
        let mut text = String::from("x,y,label\n");
        for (x, y, l) in &rows {
            text.push_str(&format!("{x},{y},{l}\n"));
        }
        let result = Dataset::from_csv(&text);
        check_read(&text)?;
        // Lines that are blank or comments once trimmed are skipped.
        let data_rows: Vec<(usize, &(String, String, String))> = rows
            .iter()
            .enumerate()
            .map(|(i, row)| (i + 2, row))
            .filter(|(_, (x, y, l))| {
                let line = format!("{x},{y},{l}");
                let line = line.trim();
                !line.is_empty() && !line.starts_with('#')
            })
            .collect();
        // Any label is a class but an empty one or one with a control character.
        let label_ok = |l: &str| !l.is_empty() && !l.contains(char::is_control);
        let first_bad = data_rows.iter().find(|(_, (x, y, l))| {
            !(accepted(x.trim()) && accepted(y.trim()) && label_ok(l.trim()))
        });
        // Labels that are all integers are those integers, written as first seen; else each
        // label is its own text.
        let integer = |l: &str| {
            l.parse::<i32>().ok().or_else(|| {
                let v: f64 = l.parse().ok()?;
                (v.fract() == 0.0 && v.abs() <= i32::MAX as f64).then_some(v as i32)
            })
        };
        let integers: Option<Vec<i32>> = data_rows.iter().map(|(_, (_, _, l))| integer(l.trim())).collect();
        let numbers = data_rows
            .iter()
            .all(|(_, (_, _, l))| l.trim().parse::<f64>().is_ok_and(f64::is_finite));
        let label_written = |l: &str| -> String {
            match integer(l) {
                Some(v) if integers.is_some() => data_rows
                    .iter()
                    .map(|(_, (_, _, l))| l.trim())
                    .find(|t| integer(t) == Some(v))
                    .unwrap_or(l)
                    .to_string(),
                _ => l.to_string(),
            }
        };
        match (first_bad, result) {
            (None, Ok(data)) if !data_rows.is_empty() => {
                prop_assert_eq!(data.len(), data_rows.len());
                for (i, (_, (x, y, l))) in data_rows.iter().enumerate() {
                    let want = [x.trim().parse::<f64>().unwrap(), y.trim().parse::<f64>().unwrap()];
                    prop_assert_eq!(data.points[i][0].to_bits(), want[0].to_bits());
                    prop_assert_eq!(data.points[i][1].to_bits(), want[1].to_bits());
                    if let Some(integers) = &integers {
                        prop_assert_eq!(data.labels[i], integers[i]);
                    }
                    for (j, (_, (_, _, m))) in data_rows.iter().enumerate() {
                        // The same class exactly when the same label.
                        let same = match &integers {
                            Some(v) => v[i] == v[j],
                            None => l.trim() == m.trim(),
                        };
                        prop_assert_eq!(data.labels[i] == data.labels[j], same);
                        if integers.is_none() {
                            // Texts are numbered in sorted order: by value when all are
                            // numbers, else by code point.
                            let before = match (numbers, l.trim().parse::<f64>(), m.trim().parse::<f64>()) {
                                (true, Ok(a), Ok(b)) => a < b,
                                _ => l.trim() < m.trim(),
                            };
                            prop_assert_eq!(data.labels[i] < data.labels[j], before);
                        }
                    }
                    // The text read is the text written back.
                    prop_assert_eq!(&*data.coordinate_text(i, 0), x.trim());
                    prop_assert_eq!(&*data.coordinate_text(i, 1), y.trim());
                }
                let expected_rows: Vec<String> = data_rows
                    .iter()
                    .map(|(_, (x, y, l))| {
                        format!("{},{},{}", x.trim(), y.trim(), label_written(l.trim()))
                    })
                    .collect();
                let written = data.to_csv();
                let written_rows: Vec<&str> = written.lines().skip(1).collect();
                prop_assert_eq!(written_rows, expected_rows);
            }
            (None, Err(e)) => prop_assert!(data_rows.is_empty(), "refused good rows: {}", e),
            (Some((line, _)), Err(e)) => {
                let message = e.to_string();
                let prefix = format!("line {line}: ");
                prop_assert!(message.starts_with(&prefix), "{}", message);
            }
            (first_bad, Ok(_)) => prop_assert!(false, "accepted a bad row: {:?}", first_bad),
        }
    }

    #[test]
    fn any_points_write_and_read_back_exactly(
        rows in prop::collection::vec(
            (-MAX_COORDINATE..=MAX_COORDINATE, -MAX_COORDINATE..=MAX_COORDINATE, any::<i32>()),
            1..50,
        ),
        scale in prop_oneof![Just(1.0), Just(1e-12), Just(1e-300), Just(-0.0), Just(1e-15)],
    ) {
        let mut data = Dataset::new();
        for (x, y, l) in rows {
            data.push([x * scale, y * scale], l).unwrap();
        }
        assert_round_trip(&data)?;
    }
}

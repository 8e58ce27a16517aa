//! Files in the dialects people bring (`tests/fixtures/dialects/`, made by
//! `make_dialect_fixtures.py`): each reads as its expected `x,y,label` file says, in the
//! library and on the command line; each refused file fails in one line naming its line.

use kernel_playground::core::data::Dataset;
use kernel_playground::core::table::ColumnRef;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dialects() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dialects")
}

/// Every fixture that must read, with its expected reading.
fn fixtures() -> Vec<(PathBuf, String)> {
    let mut files: Vec<(PathBuf, String)> = std::fs::read_dir(dialects())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
            let expected = dialects().join("expected").join(format!("{stem}.csv"));
            (p, std::fs::read_to_string(expected).unwrap())
        })
        .collect();
    files.sort();
    assert!(files.len() >= 18, "{} fixtures", files.len());
    files
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kernel-playground"))
        .args(args)
        .output()
        .expect("run kernel-playground")
}

/// The label texts of an expected file: its last field, unquoted.
fn expected_labels(expected: &str) -> Vec<String> {
    expected
        .lines()
        .skip(1)
        .map(|row| {
            let [_, _, label] = row.splitn(3, ',').collect::<Vec<_>>()[..] else {
                panic!("{row}");
            };
            match label.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
                Some(quoted) => quoted.replace("\"\"", "\""),
                None => label.to_string(),
            }
        })
        .collect()
}

#[test]
fn every_dialect_reads_as_expected() {
    for (path, expected) in fixtures() {
        let bytes = std::fs::read(&path).unwrap();
        let data =
            Dataset::read(&bytes, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(data.to_csv(), expected, "{}", path.display());
        // The expected file reads back to the same points and labels.
        let again = Dataset::read(expected.as_bytes(), None).unwrap();
        assert_eq!(again, data, "{}", path.display());
        assert_eq!(again.to_csv(), expected, "{}", path.display());
    }
}

#[test]
fn the_command_line_reads_every_dialect_into_the_same_classes() {
    for (path, expected) in fixtures() {
        let out = run(&[
            "fit",
            "--data",
            path.to_str().unwrap(),
            "--model",
            "knn",
            "--k",
            "1",
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: {stderr}", path.display());
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        // Class texts as the file wrote them: `class_names` where they differ from the
        // integers, the integers otherwise.
        let names: Vec<String> = match json.get("class_names") {
            Some(names) => serde_json::from_value(names.clone()).unwrap(),
            None => json["classes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.to_string())
                .collect(),
        };
        let labels = expected_labels(&expected);
        let mut distinct = labels.clone();
        distinct.sort();
        distinct.dedup();
        let mut got = names.clone();
        got.sort();
        assert_eq!(got, distinct, "{}", path.display());
        // Every training point predicted as its own class by its nearest neighbour (itself).
        let predicted: Vec<String> = json["predicted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let classes = json["classes"].as_array().unwrap();
                let at = classes.iter().position(|c| c == p).unwrap();
                names[at].clone()
            })
            .collect();
        assert_eq!(predicted, labels, "{}", path.display());
        assert_eq!(json["train_accuracy"], 1.0, "{}", path.display());
    }
}

/// The refused files and the one line each must give.
const REFUSED: &[(&str, &str)] = &[
    (
        "ragged.csv",
        "line 3: expected 3 fields (as line 1) but found 2",
    ),
    ("not_a_number.csv", "line 3: y 'abc' is not a number"),
    ("nan.csv", "line 2: x 'NaN' is not a finite number"),
    ("infinite.csv", "line 3: y '-inf' is not a finite number"),
    ("too_large.csv", "line 3: x '1e300' lies outside ±1e15"),
    ("empty.csv", "line 1: no data rows"),
    ("comments_only.csv", "line 2: no data rows"),
    ("header_only.csv", "line 1: no data rows after the header"),
    (
        "one_column.csv",
        "line 1: one column only, '1.5': expected x,y,label separated by commas, semicolons, \
         tabs or spaces",
    ),
    (
        "two_columns.csv",
        "line 1: expected x,y,label but found 2 fields: which column is the label?",
    ),
    (
        "unclosed_quote.csv",
        "line 3: a quote opened in field 1 does not close on its line",
    ),
    ("empty_label.csv", "line 3: the label is empty"),
    (
        "binary.png",
        "line 2: control character U+001A: this is not a text file of points",
    ),
];

#[test]
fn refused_files_fail_in_one_line_naming_the_line() {
    let listed = std::fs::read_dir(dialects().join("refused"))
        .unwrap()
        .count();
    assert_eq!(listed, REFUSED.len(), "a refused fixture without a test");
    for &(name, message) in REFUSED {
        let path = dialects().join("refused").join(name);
        let bytes = std::fs::read(&path).unwrap();
        let error = Dataset::read(&bytes, None).unwrap_err();
        assert_eq!(error.to_string(), message, "{name}");
        let out = run(&["fit", "--data", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(out.stdout.is_empty(), "{name}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("error: {}: {message}\n", path.display()),
        );
    }
}

#[test]
fn columns_are_chosen_by_number_or_name() {
    let iris = dialects().join("iris.csv");
    let bytes = std::fs::read(&iris).unwrap();
    let by_name = ColumnRef::parse_list("petal_length,petal_width,species").unwrap();
    let by_number = ColumnRef::parse_list("3, 4, 5").unwrap();
    let a = Dataset::read(&bytes, by_name.as_deref()).unwrap();
    let b = Dataset::read(&bytes, by_number.as_deref()).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.points[0], [1.4, 0.2]);
    assert_eq!(a.points[5], [1.9, 0.2]);
    assert_eq!(a.labels, [0, 1, 2, 0, 2, 1]);
    // Query points in the same layout, without the label column: x and y are what is read.
    let dir = std::env::temp_dir().join(format!("kp-columns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let query = dir.join("petals.csv");
    std::fs::write(
        &query,
        "a,b,petal_length,petal_width\n0,0,1.4,0.2\n0,0,1.9,0.2\n",
    )
    .unwrap();
    let out = run(&[
        "fit",
        "--data",
        iris.to_str().unwrap(),
        "--model",
        "knn",
        "--k",
        "1",
        "--columns",
        "3,4,5",
        "--query",
        query.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["predicted"],
        serde_json::json!([0, 1]),
        "setosa, versicolor"
    );
    // The name column as labels: six classes, numbered in sorted order of their texts.
    let extra = dialects().join("extra_columns.csv");
    let out = run(&[
        "fit",
        "--data",
        extra.to_str().unwrap(),
        "--model",
        "knn",
        "--k",
        "1",
        "--columns",
        "1,2,5",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<String> = (0..6).map(|i| format!("point {i}")).collect();
    assert_eq!(json["class_names"], serde_json::json!(names));
    for (columns, message) in [
        (
            "1,2,9",
            "extra_columns.csv: column 9 does not exist: the file has 5 columns",
        ),
        (
            "x,y,species",
            "no column named 'species': the first row has x, y, label, weight, name",
        ),
        (
            "1",
            "--columns: columns '1': give x,y,label (or x,y), e.g. 1,2,5",
        ),
        ("1,1,3", "x, y and the label must be different columns"),
    ] {
        let out = run(&[
            "fit",
            "--data",
            extra.to_str().unwrap(),
            "--columns",
            columns,
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{columns}");
        assert!(stderr.contains(message), "{columns}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn held_out_labels_take_the_training_classes() {
    let iris = dialects().join("iris.csv");
    // Only virginica held out: numbered afresh it would be class 0, setosa's.
    let dir = std::env::temp_dir().join(format!("kp-dialects-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let test = dir.join("virginica.csv");
    std::fs::write(
        &test,
        "sepal_length;sepal_width;petal_length;petal_width;species\n\
         -3,75;0,125;1,6;0,2;virginica\n-0;1e3;1,8;0,2;virginica\n",
    )
    .unwrap();
    let out = run(&[
        "fit",
        "--data",
        iris.to_str().unwrap(),
        "--model",
        "knn",
        "--k",
        "1",
        "--test",
        test.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["test_accuracy"], 1.0);
    assert_eq!(json["test_predicted"], serde_json::json!([2, 2]));
    std::fs::write(&test, "1,2,3,4,rose\n").unwrap();
    let out = run(&[
        "fit",
        "--data",
        iris.to_str().unwrap(),
        "--test",
        test.to_str().unwrap(),
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: {}: line 1: label 'rose' is not a class of the training data \
             (setosa, versicolor, virginica)\n",
            test.display()
        )
    );
}

//! A file of points read for the scene's task, as the page and the command line read it:
//!
//! - **classification**: labelled points, CSV `x,y,label` in any dialect of [`crate::core::table`]
//!   or LIBSVM's `label 1:x 2:y` ([`Dataset::read`]);
//! - **regression**: pairs (x, t), CSV rows `x,t` (a header optional) or LIBSVM's `t 1:x`, the
//!   form svm-toy saves a regression scene in (the target first, the input as feature 1). A
//!   third CSV column is refused: a file with labels is a classification scene;
//! - **novelty detection**: unlabelled points, CSV `x,y` or LIBSVM's lines. Labels the file has
//!   (a third column, LIBSVM's first token) are read past, and [`Reading::notice`] says so.
//!
//! Every coordinate keeps the text it was written as, and every error names its 1-based line.
//! The points of a regression or novelty scene are all of the one class 0.

use super::{is_libsvm, libsvm_lines, parse_coordinate, points_from_table, Dataset};
use crate::core::error::Error;
use crate::core::table::{self, ColumnRef, Table};
use crate::core::task::Task;

/// The points read, and a sentence for the reader when something in the file was left out.
#[derive(Debug)]
pub struct Reading {
    pub data: Dataset,
    pub notice: Option<String>,
}

/// What the page says when a novelty file's labels are left out.
pub const LABELS_IGNORED: &str =
    "the labels in it are ignored (novelty detection learns from unlabelled points)";

/// Reads `bytes` as a file of points for `task`, with the columns `columns` (classification
/// and novelty detection; the defaults when `None`).
pub fn read_for(task: Task, bytes: &[u8], columns: Option<&[ColumnRef]>) -> Result<Reading, Error> {
    let (data, notice) = match task {
        Task::Classification => (Dataset::read(bytes, columns)?, None),
        Task::Regression => (read_targets(bytes)?, None),
        Task::Novelty => read_unlabelled(bytes, columns)?,
    };
    Ok(Reading { data, notice })
}

/// Reads a regression file: CSV rows `x,t` or LIBSVM's `t 1:x` lines.
pub fn read_targets(bytes: &[u8]) -> Result<Dataset, Error> {
    let text = table::decode(bytes)?;
    if is_libsvm(&text) {
        return targets_from_libsvm(&text);
    }
    let table = Table::read(&text)?;
    if table.width > 2 {
        return Err(Error::Csv {
            line: table.rows[0].line,
            message: format!(
                "a regression file has two columns, x and t; this one has {} (a label column?)",
                table.width
            ),
        });
    }
    let mut data = Dataset::new();
    for (point, written) in points_from_table(&text, None)? {
        data.push_written(point, 0, Some(written))?;
    }
    Ok(data)
}

/// LIBSVM's regression lines, `t 1:x`: a missing feature 1 is 0, as LIBSVM reads it.
fn targets_from_libsvm(text: &str) -> Result<Dataset, Error> {
    let mut data = Dataset::new();
    for row in libsvm_lines(text, 1, "a regression point has one input, feature 1")? {
        let csv_error = |message: String| Error::Csv {
            line: row.line,
            message,
        };
        let x_text = row.features[0].unwrap_or("0");
        let point = [
            parse_coordinate("x", x_text).map_err(csv_error)?,
            parse_coordinate("t", row.first).map_err(csv_error)?,
        ];
        data.push_written(point, 0, Some([x_text.into(), row.first.into()]))
            .map_err(|e| csv_error(e.to_string()))?;
    }
    Ok(data)
}

/// Reads a novelty file: its points as written, each of class 0, and the notice when it had
/// labels.
pub fn read_unlabelled(
    bytes: &[u8],
    columns: Option<&[ColumnRef]>,
) -> Result<(Dataset, Option<String>), Error> {
    let text = table::decode(bytes)?;
    let mut data = Dataset::new();
    if is_libsvm(&text) {
        let labelled = Dataset::from_libsvm(&text)?;
        for i in 0..labelled.len() {
            let written = labelled.written.get(i).cloned().flatten();
            data.push_written(labelled.points[i], 0, written)?;
        }
        return Ok((data, Some(LABELS_IGNORED.into())));
    }
    let table = Table::read(&text)?;
    let labelled = match columns {
        Some(refs) => refs.len() > 2,
        None => table.width > 2,
    };
    for (point, written) in points_from_table(&text, columns.map(|c| &c[..c.len().min(2)]))? {
        data.push_written(point, 0, Some(written))?;
    }
    Ok((data, labelled.then(|| LABELS_IGNORED.into())))
}

/// Reads the inputs x of a regression query file: the first column of each row (one column,
/// or more with the rest ignored), a header row skipped.
pub fn read_inputs(bytes: &[u8]) -> Result<Vec<f64>, Error> {
    let text = table::decode(bytes)?;
    let mut inputs = Vec::new();
    for (k, line) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        let row = line.trim();
        if row.is_empty() || row.starts_with('#') {
            continue;
        }
        let field = row
            .split([',', ';', '\t', ' '])
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"');
        match table::number(field) {
            Some(x) if x.is_finite() => inputs.push(x),
            None if inputs.is_empty() && k == 0 => {} // a header
            _ => {
                return Err(Error::Csv {
                    line: k + 1,
                    message: format!("x '{field}' is not a finite number"),
                })
            }
        }
    }
    Ok(inputs)
}

/// The points as a CSV file of `task`, read back the same by [`read_for`]: `x,t` rows for
/// regression, `x,y` for novelty detection, `x,y,label` for classification.
pub fn to_csv(task: Task, data: &Dataset) -> String {
    let header = match task {
        Task::Classification => return data.to_csv(),
        Task::Regression => "x,t\n",
        Task::Novelty => "x,y\n",
    };
    let mut out = String::from(header);
    for i in 0..data.len() {
        let (x, y) = (data.coordinate_text(i, 0), data.coordinate_text(i, 1));
        out.push_str(&format!("{x},{y}\n"));
    }
    out
}

/// The points in LIBSVM's format for `task`: `t 1:x` for regression (as svm-toy saves a
/// regression scene), `label 1:x 2:y` otherwise.
pub fn to_libsvm(task: Task, data: &Dataset) -> String {
    if task != Task::Regression {
        return data.to_libsvm();
    }
    let mut out = String::new();
    for i in 0..data.len() {
        let (x, t) = (data.coordinate_text(i, 0), data.coordinate_text(i, 1));
        out.push_str(&format!("{t} 1:{x}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_reads_csv_and_svm_toys_lines_keeping_the_text() {
        let csv = read_for(Task::Regression, b"x,t\n0.10,-1.5\n2,3e-1\n", None).unwrap();
        assert_eq!(csv.data.points, vec![[0.1, -1.5], [2.0, 0.3]]);
        assert_eq!(csv.data.to_csv(), "x,y,label\n0.10,-1.5,0\n2,3e-1,0\n");
        assert!(csv.notice.is_none());
        let libsvm =
            read_for(Task::Regression, b"-1.5 1:0.10\n0.3\n# c\n2.5 1:-4\n", None).unwrap();
        assert_eq!(
            libsvm.data.points,
            vec![[0.1, -1.5], [0.0, 0.3], [-4.0, 2.5]]
        );
        assert_eq!(libsvm.data.labels, vec![0, 0, 0]);
        assert_eq!(
            libsvm.data.to_csv(),
            "x,y,label\n0.10,-1.5,0\n0,0.3,0\n-4,2.5,0\n"
        );
    }

    #[test]
    fn regression_errors_name_the_line() {
        let line = |bytes: &[u8]| match read_for(Task::Regression, bytes, None).unwrap_err() {
            Error::Csv { line, message } => (line, message),
            other => panic!("{other:?}"),
        };
        assert_eq!(line(b"1 1:0\n2 2:1\n").0, 2);
        assert!(line(b"1 1:0\n2 2:1\n").1.contains("feature 1"));
        assert_eq!(line(b"1 1:0\nx 1:1\n").0, 2);
        assert_eq!(line(b"1 1:0 1:2\n").0, 1);
        assert!(line(b"x,y,label\n1,2,0\n").1.contains("two columns"));
    }

    #[test]
    fn novelty_reads_past_labels_and_says_so() {
        let plain = read_for(Task::Novelty, b"x,y\n1,2\n3,4\n", None).unwrap();
        assert_eq!(plain.data.points, vec![[1.0, 2.0], [3.0, 4.0]]);
        assert!(plain.notice.is_none());
        let csv = read_for(Task::Novelty, b"1,2,a\n3,4,b\n", None).unwrap();
        assert_eq!(csv.data.labels, vec![0, 0]);
        assert_eq!(csv.notice.as_deref(), Some(LABELS_IGNORED));
        let libsvm = read_for(Task::Novelty, b"+1 1:1.50 2:2\n-1 1:3 2:4\n", None).unwrap();
        assert_eq!(libsvm.data.points, vec![[1.5, 2.0], [3.0, 4.0]]);
        assert_eq!(libsvm.data.labels, vec![0, 0]);
        assert_eq!(libsvm.data.to_csv(), "x,y,label\n1.50,2,0\n3,4,0\n");
        assert!(libsvm.notice.is_some());
    }

    #[test]
    fn each_tasks_files_read_back_as_written() {
        for (task, csv, libsvm) in [
            (
                Task::Regression,
                "x,t\n0.10,-1.5\n2,3e-1\n",
                "-1.5 1:0.10\n3e-1 1:2\n",
            ),
            (
                Task::Novelty,
                "x,y\n0.10,-1.5\n2,3e-1\n",
                "0 1:0.10 2:-1.5\n0 1:2 2:3e-1\n",
            ),
        ] {
            let data = read_for(task, csv.as_bytes(), None).unwrap().data;
            assert_eq!(to_csv(task, &data), csv);
            assert_eq!(to_libsvm(task, &data), libsvm);
            let again = read_for(task, libsvm.as_bytes(), None).unwrap().data;
            assert_eq!(to_csv(task, &again), csv);
        }
    }

    #[test]
    fn classification_reads_labels_as_before() {
        let read = read_for(Task::Classification, b"1,2,-1\n3,4,+1\n", None).unwrap();
        assert_eq!(read.data, Dataset::read(b"1,2,-1\n3,4,+1\n", None).unwrap());
        assert!(read.notice.is_none());
    }
}

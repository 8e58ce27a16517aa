//! A [`Dataset`] as text, read and written: CSV `x,y,label` in any dialect of [`crate::core::table`]
//! (other delimiters, more columns, encodings, labels that are texts), and LIBSVM's (svmlight's)
//! sparse format, `label 1:x₁ 2:x₂` a line. Every reading error names its 1-based line; a
//! coordinate must be a finite number within ±[`MAX_COORDINATE`], and keeps the text it was
//! written as, so writing the data back reproduces it. Also the query points of the command line
//! and of a file (`x,y`, a label column not needed).

use super::{Dataset, Point, Written, MAX_COORDINATE};
use crate::core::error::Error;
use crate::core::labels::{self, LabelTexts};
use crate::core::table::{self, ColumnRef, Table};

impl Dataset {
    /// Reads a file of points, CSV in any dialect of [`crate::core::table`] or LIBSVM's format, from
    /// its bytes, with the columns `columns` (the defaults when `None`). Errors name the
    /// 1-based line where there is one.
    pub fn read(bytes: &[u8], columns: Option<&[ColumnRef]>) -> Result<Dataset, Error> {
        Dataset::read_against(bytes, columns, &LabelTexts::new())
    }

    /// [`Dataset::read`] for held-out points: labels that are texts take the classes they
    /// have in `known`, the training data's [`Dataset::label_texts`].
    pub fn read_against(
        bytes: &[u8],
        columns: Option<&[ColumnRef]>,
        known: &LabelTexts,
    ) -> Result<Dataset, Error> {
        let text = table::decode(bytes)?;
        if is_libsvm(&text) {
            Dataset::from_libsvm(&text)
        } else {
            Dataset::from_table(&text, columns, known)
        }
    }

    /// Reads CSV text in any dialect of [`crate::core::table`], with the default columns.
    pub fn from_csv(text: &str) -> Result<Dataset, Error> {
        Dataset::from_table(text, None, &LabelTexts::new())
    }

    fn from_table(
        text: &str,
        columns: Option<&[ColumnRef]>,
        known: &LabelTexts,
    ) -> Result<Dataset, Error> {
        let table = Table::read(text)?;
        let layout = table.layout(columns, true)?;
        let rows = table.data_rows(&layout)?;
        let label = layout.label.expect("a label column");
        // Row by row, so the error named is the first bad row's.
        let mut points = Vec::with_capacity(rows.len());
        for row in rows {
            table.check_width(row, &layout, false)?;
            points.push(row_point(row, layout.x, layout.y)?);
            if let Some(message) = labels::problem(&row.fields[label], known) {
                return Err(Error::Csv {
                    line: row.line,
                    message,
                });
            }
        }
        let texts: Vec<(usize, &str)> = rows
            .iter()
            .map(|r| (r.line, r.fields[label].as_str()))
            .collect();
        let (classes, label_texts) = labels::code(&texts, known)?;
        let mut data = Dataset {
            label_texts,
            ..Dataset::default()
        };
        for ((point, written), class) in points.into_iter().zip(classes) {
            data.push_written(point, class, Some(written))?;
        }
        Ok(data)
    }

    /// Reads LIBSVM's (svmlight's) sparse format, `label 1:x₁ 2:x₂` a line: features by
    /// index, a missing one 0 (as LIBSVM reads it), a `#` starting a comment. Only features 1
    /// and 2 exist in the plane; labels are integers (`+1`, `-1`, `3`, or `1.0`). Errors name
    /// the 1-based line.
    pub fn from_libsvm(text: &str) -> Result<Dataset, Error> {
        let mut data = Dataset::new();
        for row in libsvm_lines(text, 2, "the plane has only features 1 and 2")? {
            let csv_error = |message: String| Error::Csv {
                line: row.line,
                message,
            };
            let label = labels::integer(row.first)
                .ok_or_else(|| csv_error(format!("label '{}' is not an integer", row.first)))?;
            data.label_texts
                .entry(label)
                .or_insert_with(|| row.first.into());
            let [x, y] = row.features.map(|f| f.unwrap_or("0"));
            let point = [
                parse_coordinate("x", x).map_err(csv_error)?,
                parse_coordinate("y", y).map_err(csv_error)?,
            ];
            data.push_written(point, label, Some([x.into(), y.into()]))
                .map_err(|e| csv_error(e.to_string()))?;
        }
        Ok(data)
    }

    /// Writes LIBSVM's format, `label 1:x 2:y` a line (zeros written too, so every line has
    /// both features).
    pub fn to_libsvm(&self) -> String {
        let mut out = String::new();
        for (i, &l) in self.labels.iter().enumerate() {
            let (x, y) = (self.coordinate_text(i, 0), self.coordinate_text(i, 1));
            // LIBSVM's labels are numbers: a class named by a text is written as its integer.
            let text = self.label_text(l);
            let label = match labels::integer(&text) {
                Some(_) => text,
                None => std::borrow::Cow::Owned(l.to_string()),
            };
            out.push_str(&format!("{label} 1:{x} 2:{y}\n"));
        }
        out
    }

    /// Points in either format a person may bring: LIBSVM's `label 1:x 2:y` when the first
    /// line with content has a `:` in it, else CSV.
    pub fn from_text(text: &str) -> Result<Dataset, Error> {
        if is_libsvm(text) {
            Dataset::from_libsvm(text)
        } else {
            Dataset::from_csv(text)
        }
    }

    /// Writes `x,y,label` rows with a header, each label as its class is written
    /// ([`Dataset::label_text`], quoted when it must be).
    pub fn to_csv(&self) -> String {
        let mut out = String::from("x,y,label\n");
        for (i, &l) in self.labels.iter().enumerate() {
            let (x, y) = (self.coordinate_text(i, 0), self.coordinate_text(i, 1));
            let label = self.label_text(l);
            out.push_str(&format!("{x},{y},{}\n", labels::csv_field(&label)));
        }
        out
    }
}

/// Whether text is in LIBSVM's format: the first line with content has no comma and is a
/// label followed by `index:value` tokens (at least one).
pub fn is_libsvm(text: &str) -> bool {
    let first = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let mut features = first.split_whitespace().skip(1).peekable();
    !first.contains(',') && features.peek().is_some() && features.all(|t| t.contains(':'))
}

/// A content line of LIBSVM's format: its 1-based number, its first token (a label, or a
/// regression's target) and the text of each feature (`None`: left out, which LIBSVM reads as
/// 0).
pub(crate) struct LibsvmLine<'a> {
    pub line: usize,
    pub first: &'a str,
    pub features: [Option<&'a str>; 2],
}

/// The content lines of LIBSVM's text (blank lines and `#` comments left out), each with at
/// most `features` features, numbered from 1; a feature beyond them is an error that ends with
/// `beyond`. Every error names its line, and a text with no content line is one.
pub(crate) fn libsvm_lines<'a>(
    text: &'a str,
    features: usize,
    beyond: &str,
) -> Result<Vec<LibsvmLine<'a>>, Error> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let csv_error = |message: String| Error::Csv { line, message };
        let row = raw.split('#').next().unwrap_or("").trim();
        let mut tokens = row.split_whitespace();
        let Some(first) = tokens.next() else {
            continue;
        };
        let mut read = LibsvmLine {
            line,
            first,
            features: [None; 2],
        };
        for token in tokens {
            let (feature, value) = token
                .split_once(':')
                .ok_or_else(|| csv_error(format!("'{token}' is not index:value")))?;
            let slot = match feature.parse::<usize>() {
                Ok(k) if (1..=features).contains(&k) => &mut read.features[k - 1],
                _ => return Err(csv_error(format!("feature '{feature}': {beyond}"))),
            };
            if slot.replace(value).is_some() {
                return Err(csv_error(format!("feature {feature} given twice")));
            }
        }
        rows.push(read);
    }
    if rows.is_empty() {
        return Err(Error::Csv {
            line: text.lines().count().max(1),
            message: "no data rows".into(),
        });
    }
    Ok(rows)
}

/// The point of a data row and the text of its coordinates, or the row's error.
fn row_point(row: &table::Row, x: usize, y: usize) -> Result<(Point, Written), Error> {
    let csv_error = |message: String| Error::Csv {
        line: row.line,
        message,
    };
    let (tx, ty) = (row.fields[x].as_str(), row.fields[y].as_str());
    let point = [
        parse_coordinate("x", tx).map_err(csv_error)?,
        parse_coordinate("y", ty).map_err(csv_error)?,
    ];
    Ok((point, [tx.into(), ty.into()]))
}

impl Dataset {
    /// Query points from a file's bytes: the x and y columns of `columns` (the defaults when
    /// `None`); a label column is not needed, and one named in `columns` is not read.
    pub fn read_points(bytes: &[u8], columns: Option<&[ColumnRef]>) -> Result<Vec<Point>, Error> {
        let text = table::decode(bytes)?;
        let rows = points_from_table(&text, columns.map(|c| &c[..c.len().min(2)]))?;
        Ok(rows.into_iter().map(|(point, _)| point).collect())
    }
}

/// Query points for the CLI: rows `x,y` or `x,y,label` (a label is ignored), in any dialect
/// of [`crate::core::table`].
pub fn points_from_csv(text: &str) -> Result<Vec<Point>, Error> {
    Ok(points_from_table(text, None)?
        .into_iter()
        .map(|(point, _)| point)
        .collect())
}

pub(super) fn points_from_table(
    text: &str,
    columns: Option<&[ColumnRef]>,
) -> Result<Vec<(Point, Written)>, Error> {
    let table = Table::read(text)?;
    let layout = table.layout(columns, false)?;
    table
        .data_rows(&layout)?
        .iter()
        .map(|row| {
            table.check_width(row, &layout, true)?;
            row_point(row, layout.x, layout.y)
        })
        .collect()
}

/// A coordinate as a file gives it: a finite number within ±[`MAX_COORDINATE`], or what is
/// wrong with it.
pub(super) fn parse_coordinate(name: &str, s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("{name} '{s}' is not a number"))?;
    if !v.is_finite() {
        return Err(format!("{name} '{s}' is not a finite number"));
    }
    if v.abs() > MAX_COORDINATE {
        return Err(format!("{name} '{s}' lies outside ±{MAX_COORDINATE:e}"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_round_trip_with_header() {
        let data = Dataset::from_csv("x,y,label\n0.5,-0.25,1\n\n# note\n1,2,0\n").unwrap();
        assert_eq!(data.points, vec![[0.5, -0.25], [1.0, 2.0]]);
        assert_eq!(data.labels, vec![1, 0]);
        assert_eq!(Dataset::from_csv(&data.to_csv()).unwrap(), data);
    }

    #[test]
    fn csv_errors_name_the_line() {
        let err = Dataset::from_csv("0,0,1\n1,oops,0\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2: y 'oops' is not a number");
        let err = Dataset::from_csv("0,0,1\n1,NaN,0\n").unwrap_err();
        assert!(err.to_string().starts_with("line 2:"), "{err}");
        let err = Dataset::from_csv("x,y,label\n0,0\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: expected 3 fields (as line 1) but found 2"
        );
        assert_eq!(
            points_from_csv("x,y\n1,2\n3,4,0\n").unwrap(),
            vec![[1.0, 2.0], [3.0, 4.0]]
        );
        assert!(points_from_csv("1\n")
            .unwrap_err()
            .to_string()
            .starts_with("line 1: one column only"));
        assert_eq!(
            Dataset::from_csv("\u{feff}0.5,1,0\n2,3,1\n").unwrap().len(),
            2
        );
        // The first bad row is the one named, whatever is wrong with later ones.
        let err = Dataset::from_csv("0,0,1\n1,x,0\n2,\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2: y 'x' is not a number");
        let err = Dataset::from_csv("0,0,1\n1,2\n2,x,0\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: expected 3 fields (as line 1) but found 2"
        );
        let err = Dataset::from_csv("0,0,1\n1e305,0,0\n").unwrap_err();
        assert_eq!(err.to_string(), "line 2: x '1e305' lies outside ±1e15");
        // A label that is not an integer is a text: its class is its rank.
        let data = Dataset::from_csv("0,0,1.5\n1,1,0.5\n").unwrap();
        assert_eq!(data.labels, [1, 0]);
        assert_eq!(data.to_csv(), "x,y,label\n0,0,1.5\n1,1,0.5\n");
        assert!(Dataset::from_csv("x,y,label\n").is_err());
    }

    #[test]
    fn libsvm_format_reads_and_writes() {
        let text = "+1 1:0.5 2:-0.25\n-1 2:3 # only x2\n\n# a comment\n3 1:1e-3\n";
        let data = Dataset::from_libsvm(text).unwrap();
        assert_eq!(data.points, vec![[0.5, -0.25], [0.0, 3.0], [1e-3, 0.0]]);
        assert_eq!(data.labels, vec![1, -1, 3]);
        // Labels keep their text (`+1`); a missing feature is written 0.
        assert_eq!(
            data.to_libsvm(),
            "+1 1:0.5 2:-0.25\n-1 1:0 2:3\n3 1:1e-3 2:0\n"
        );
        assert_eq!(Dataset::from_libsvm(&data.to_libsvm()).unwrap(), data);
        assert_eq!(Dataset::from_text(text).unwrap(), data);
        assert_eq!(Dataset::from_text("x,y,label\n1,2,0\n").unwrap().len(), 1);
        // A `:` in a header or a label does not make a file LIBSVM's.
        let semicolons = Dataset::from_text("time:s;x;y;label\n1;2;3;a:b\n").unwrap();
        assert_eq!(semicolons.points, [[1.0, 2.0]]);
        assert_eq!(semicolons.to_csv(), "x,y,label\n1,2,a:b\n");
        assert_eq!(
            Dataset::from_libsvm("1.0 1:1 2:2\n").unwrap().labels,
            vec![1]
        );
        let bad = [
            (
                "1 1:1 3:2\n",
                "line 1: feature '3': the plane has only features 1 and 2",
            ),
            ("1 1:1\nx 1:2\n", "line 2: label 'x' is not an integer"),
            ("1 1:1\n0 1:nan\n", "line 2: x 'nan' is not a finite number"),
            ("1 1:1 1:2\n", "line 1: feature 1 given twice"),
            ("1 1=2\n", "line 1: '1=2' is not index:value"),
            ("0.5 1:1\n", "line 1: label '0.5' is not an integer"),
            ("# nothing\n", "line 1: no data rows"),
        ];
        for (text, message) in bad {
            assert_eq!(Dataset::from_libsvm(text).unwrap_err().to_string(), message);
        }
    }
}

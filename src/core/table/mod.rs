//! Files of points as people have them: the bytes of a file decoded to text, the text split
//! into rows and fields, and the columns that hold x, y and the label chosen. This module owns
//! the rules; `Dataset` (in `data`) turns a [`Table`] into points and labels, and the page
//! and the command line both read files through it, so they read every file identically.
//!
//! **Encoding** ([`decode`], in [`encoding`]): UTF-8, UTF-16 or Windows-1252, as a browser
//! reads a file; a file with control characters is not text.
//!
//! **Rows**: lines end at LF, CRLF or a lone CR; a line that is blank or starts with `#` once
//! trimmed is skipped. Line numbers count from 1 in the decoded text.
//!
//! **Delimiter** ([`Delimiter`]): tab, semicolon, comma or whitespace (runs of spaces and
//! tabs). Each is tried on the first [`SAMPLE_ROWS`] content rows; one qualifies when every
//! sampled row splits into at least two fields. Among those the one whose rows all have the
//! same number of fields wins, then the one giving the most numbers, then the one leaving the
//! fewest numbers inside fields between spaces, then the order above.
//!
//! **Fields**: trimmed of spaces; a field may be quoted, RFC 4180 style (`"1.5"`,
//! `"a ""b"""`), and then holds the delimiter too. A quote must close on its line. A number
//! may be written with a decimal comma (`1,5` = 1.5) when the delimiter is not a comma, or
//! when the field is quoted; it is then kept as written with a point (`1.5`), every digit as
//! given. Thousands separators are not read.
//!
//! **Header**: the first content row is a header when none of the fields in the coordinate
//! columns is a number (so a quoted file without a header keeps its first row).
//!
//! **Columns** ([`Layout`]): a file of two or three columns is `x,y` or `x,y,label`. With more,
//! the label is the column a header names `label`, `class` or `target` (any case), else the
//! last column; x and y are the first two other columns that hold numbers in the first data
//! row. A choice ([`ColumnRef`], `--columns` on the command line, the column dialog on the
//! page) overrides this: 1-based numbers or header names.

use crate::core::error::Error;
use std::cmp::Reverse;

pub mod encoding;
pub use encoding::decode;

/// Content rows read to choose the delimiter.
pub const SAMPLE_ROWS: usize = 50;

/// How the fields of a row are separated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delimiter {
    Tab,
    Semicolon,
    Comma,
    /// One or more spaces or tabs.
    Whitespace,
}

impl Delimiter {
    /// In order of preference when two qualify equally.
    pub const ALL: [Delimiter; 4] = [
        Delimiter::Tab,
        Delimiter::Semicolon,
        Delimiter::Comma,
        Delimiter::Whitespace,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Delimiter::Tab => "tab",
            Delimiter::Semicolon => "semicolon",
            Delimiter::Comma => "comma",
            Delimiter::Whitespace => "whitespace",
        }
    }

    fn separates(self, c: char) -> bool {
        match self {
            Delimiter::Tab => c == '\t',
            Delimiter::Semicolon => c == ';',
            Delimiter::Comma => c == ',',
            Delimiter::Whitespace => c == ' ' || c == '\t',
        }
    }
}

/// The lines of `text` with their 1-based numbers: LF, CRLF and a lone CR end a line.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match current.find(['\n', '\r']) {
            Some(at) => {
                let skip = if current[at..].starts_with("\r\n") {
                    2
                } else {
                    1
                };
                rest = Some(&current[at + skip..]);
                Some(&current[..at])
            }
            None => {
                rest = None;
                (!current.is_empty()).then_some(current)
            }
        }
    })
    .enumerate()
    .map(|(i, line)| (i + 1, line))
}

/// A content row: its line and its fields (unquoted, trimmed, decimal commas made points).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub line: usize,
    pub fields: Vec<String>,
}

/// A file's content rows, split by its delimiter. The first row may be a header; which it is
/// depends on the columns chosen ([`Table::layout`]).
#[derive(Clone, Debug)]
pub struct Table {
    pub delimiter: Delimiter,
    pub rows: Vec<Row>,
    /// The number of fields of the first row.
    pub width: usize,
}

/// A column asked for: a 1-based number or a header's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnRef {
    Number(usize),
    Name(String),
}

impl ColumnRef {
    /// Parses `1,2,5` or `sepal_length,sepal_width,species` (two or three columns: x, y and
    /// the label); blank text is no choice.
    pub fn parse_list(text: &str) -> Result<Option<Vec<ColumnRef>>, Error> {
        if text.trim().is_empty() {
            return Ok(None);
        }
        let refs: Vec<ColumnRef> = text
            .split(',')
            .map(|t| {
                let t = t.trim();
                match t.parse::<usize>() {
                    Ok(n) if n >= 1 => Ok(ColumnRef::Number(n)),
                    Ok(_) => Err(Error::Parameter("columns count from 1".into())),
                    Err(_) if t.is_empty() => Err(Error::Parameter(format!(
                        "columns '{text}' has an empty entry"
                    ))),
                    Err(_) => Ok(ColumnRef::Name(t.to_string())),
                }
            })
            .collect::<Result<_, _>>()?;
        if !(2..=3).contains(&refs.len()) {
            return Err(Error::Parameter(format!(
                "columns '{text}': give x,y,label (or x,y), e.g. 1,2,5"
            )));
        }
        Ok(Some(refs))
    }
}

/// Which columns (0-based) hold x, y and the label, and whether the first row is a header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub x: usize,
    pub y: usize,
    pub label: Option<usize>,
    pub header: bool,
}

impl Table {
    /// Splits `text` into content rows. Fails, with the line, when there is no content, a row
    /// has one field, or a quote does not close.
    pub fn read(text: &str) -> Result<Table, Error> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let content: Vec<(usize, &str)> = lines(text)
            .map(|(line, raw)| (line, raw.trim()))
            .filter(|(_, row)| !row.is_empty() && !row.starts_with('#'))
            .collect();
        if content.is_empty() {
            return Err(Error::Csv {
                line: lines(text).count().max(1),
                message: "no data rows".into(),
            });
        }
        let delimiter = choose_delimiter(&content);
        let mut rows = Vec::with_capacity(content.len());
        for &(line, row) in &content {
            let fields = split(row, delimiter).map_err(|message| Error::Csv { line, message })?;
            if fields.len() < 2 {
                return Err(Error::Csv {
                    line,
                    message: format!(
                        "one column only, '{}': expected x,y,label separated by commas, \
                         semicolons, tabs or spaces",
                        fields.concat()
                    ),
                });
            }
            rows.push(Row { line, fields });
        }
        // A delimiter ending every row (as some spreadsheets write) adds no column.
        if rows
            .iter()
            .all(|r| r.fields.len() > 2 && r.fields.last().is_some_and(String::is_empty))
        {
            for row in &mut rows {
                row.fields.pop();
            }
        }
        let width = rows[0].fields.len();
        Ok(Table {
            delimiter,
            rows,
            width,
        })
    }

    /// The columns to read: `choice` if given, else the defaults of the module docs. Fails
    /// when a chosen column does not exist or a needed one is missing.
    pub fn layout(&self, choice: Option<&[ColumnRef]>, need_label: bool) -> Result<Layout, Error> {
        let first = &self.rows[0];
        let sample = self.rows.get(1).unwrap_or(first);
        let is_header = |x: usize, y: usize| {
            [x, y]
                .iter()
                .all(|&c| first.fields.get(c).is_none_or(|f| number(f).is_none()))
        };
        let layout = match choice {
            Some(refs) => {
                let named = refs.iter().any(|r| matches!(r, ColumnRef::Name(_)));
                let index = |r: &ColumnRef| self.column_index(r);
                let x = index(&refs[0])?;
                let y = index(&refs[1])?;
                let label = refs.get(2).map(index).transpose()?;
                let header = named || is_header(x, y);
                if named && !is_header(x, y) {
                    return Err(Error::Csv {
                        line: first.line,
                        message: "columns are named but the first row is not a header".into(),
                    });
                }
                Layout {
                    x,
                    y,
                    label,
                    header,
                }
            }
            None => {
                let guess = self.defaults(Some(&first.fields), sample);
                if is_header(guess.x, guess.y) && self.rows.len() > 1 {
                    Layout {
                        header: true,
                        ..guess
                    }
                } else if is_header(guess.x, guess.y) {
                    return Err(Error::Csv {
                        line: first.line,
                        message: "no data rows after the header".into(),
                    });
                } else {
                    self.defaults(None, first)
                }
            }
        };
        if need_label && layout.label.is_none() {
            return Err(Error::Csv {
                line: first.line,
                message: format!(
                    "expected x,y,label but found {} fields: which column is the label?",
                    self.width
                ),
            });
        }
        if layout.x == layout.y || Some(layout.x) == layout.label || Some(layout.y) == layout.label
        {
            return Err(Error::Parameter(
                "columns: x, y and the label must be different columns".into(),
            ));
        }
        Ok(layout)
    }

    /// The default columns for a first data row `sample`, with the header `names` if the
    /// first row is one.
    fn defaults(&self, names: Option<&[String]>, sample: &Row) -> Layout {
        let n = self.width;
        let label = if n < 3 {
            None
        } else {
            let named = names.and_then(|names| {
                names.iter().position(|name| {
                    let name = name.to_ascii_lowercase();
                    matches!(name.as_str(), "label" | "class" | "target")
                })
            });
            Some(named.unwrap_or(n - 1))
        };
        let others: Vec<usize> = (0..n).filter(|&c| Some(c) != label).collect();
        let mut xy: Vec<usize> = others
            .iter()
            .copied()
            .filter(|&c| sample.fields.get(c).is_some_and(|f| number(f).is_some()))
            .take(2)
            .collect();
        for &c in &others {
            if xy.len() < 2 && !xy.contains(&c) {
                xy.push(c);
            }
        }
        crate::core::sorting::sort(&mut xy);
        Layout {
            x: xy[0],
            y: xy[1],
            label,
            header: false,
        }
    }

    fn column_index(&self, r: &ColumnRef) -> Result<usize, Error> {
        match r {
            ColumnRef::Number(n) if *n <= self.width => Ok(n - 1),
            ColumnRef::Number(n) => Err(Error::Parameter(format!(
                "column {n} does not exist: the file has {} columns",
                self.width
            ))),
            ColumnRef::Name(name) => {
                let names = &self.rows[0].fields;
                names
                    .iter()
                    .position(|h| h == name)
                    .or_else(|| names.iter().position(|h| h.eq_ignore_ascii_case(name)))
                    .ok_or_else(|| {
                        Error::Parameter(format!(
                            "no column named '{name}': the first row has {}",
                            names.join(", ")
                        ))
                    })
            }
        }
    }

    /// The data rows under `layout` (the rows after a header). Fails when there are none.
    pub fn data_rows(&self, layout: &Layout) -> Result<&[Row], Error> {
        let rows = &self.rows[usize::from(layout.header)..];
        if rows.is_empty() {
            return Err(Error::Csv {
                line: self.rows[0].line,
                message: "no data rows after the header".into(),
            });
        }
        Ok(rows)
    }

    /// Whether `row` is as wide as the first row; `lenient` (query points) accepts any row
    /// that reaches the columns read. Callers check row by row, so the error named is the
    /// first bad row's.
    pub fn check_width(&self, row: &Row, layout: &Layout, lenient: bool) -> Result<(), Error> {
        let needed = layout.x.max(layout.y).max(layout.label.unwrap_or(0)) + 1;
        let found = row.fields.len();
        let fits = if lenient {
            found >= needed
        } else {
            found == self.width
        };
        if fits {
            return Ok(());
        }
        Err(Error::Csv {
            line: row.line,
            message: format!(
                "expected {} fields (as line {}) but found {found}",
                self.width, self.rows[0].line
            ),
        })
    }
}

/// What the page's column dialog shows of a file: its columns, the first rows, and the
/// columns the lab would read by default.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Preview {
    pub delimiter: &'static str,
    /// Fields a row.
    pub width: usize,
    /// The first row's fields when it is a header under the default columns.
    pub header: Option<Vec<String>>,
    /// The first data rows (at most [`Preview::ROWS`]).
    pub rows: Vec<Vec<String>>,
    /// The default x, y and label columns, 0-based (the label `None` when there is none).
    pub x: usize,
    pub y: usize,
    pub label: Option<usize>,
}

impl Preview {
    pub const ROWS: usize = 5;

    /// The preview of CSV text (in any dialect of this module).
    pub fn of(text: &str) -> Result<Preview, Error> {
        let table = Table::read(text)?;
        let layout = table.layout(None, false)?;
        let rows = &table.rows[usize::from(layout.header)..];
        Ok(Preview {
            delimiter: table.delimiter.name(),
            width: table.width,
            header: layout.header.then(|| table.rows[0].fields.clone()),
            rows: rows
                .iter()
                .take(Preview::ROWS)
                .map(|r| r.fields.clone())
                .collect(),
            x: layout.x,
            y: layout.y,
            label: layout.label,
        })
    }
}

/// The delimiter for these content rows (see the module docs).
fn choose_delimiter(content: &[(usize, &str)]) -> Delimiter {
    let sample = &content[..content.len().min(SAMPLE_ROWS)];
    // Same widths, numbers, fewest numbers hidden inside fields.
    type Score = (bool, usize, Reverse<usize>);
    let mut best: Option<(Score, Delimiter)> = None;
    for delimiter in Delimiter::ALL {
        let mut widths = Vec::with_capacity(sample.len());
        let mut numbers = 0;
        let mut hidden = 0;
        for (_, row) in sample {
            match split(row, delimiter) {
                Ok(fields) if fields.len() >= 2 => {
                    numbers += fields.iter().filter(|f| number(f).is_some()).count();
                    // Numbers inside a field, between spaces: a sign of the wrong delimiter.
                    hidden += fields
                        .iter()
                        .filter(|f| f.contains([' ', '\t']))
                        .flat_map(|f| f.split_whitespace())
                        .filter(|t| number(t).is_some())
                        .count();
                    widths.push(fields.len());
                }
                _ => break,
            }
        }
        if widths.len() < sample.len() {
            continue;
        }
        let consistent = widths.iter().all(|&w| w == widths[0]);
        let score = (consistent, numbers, Reverse(hidden));
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, delimiter));
        }
    }
    best.map_or(Delimiter::Comma, |(_, d)| d)
}

/// Splits a trimmed row into fields: unquoted, trimmed, numbers with a decimal comma written
/// with a point (see the module docs). Fails on a quote that does not close or text after one.
fn split(row: &str, delimiter: Delimiter) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut chars = row.chars().peekable();
    let blank = |c: char| c == ' ' || (c == '\t' && delimiter != Delimiter::Tab);
    loop {
        while chars.peek().is_some_and(|&c| blank(c)) {
            chars.next();
        }
        let mut field = String::new();
        let mut quoted = false;
        if chars.peek() == Some(&'"') {
            quoted = true;
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => {
                        return Err(format!(
                            "a quote opened in field {} does not close on its line",
                            fields.len() + 1
                        ))
                    }
                }
            }
            if delimiter != Delimiter::Whitespace {
                while chars.peek().is_some_and(|&c| blank(c)) {
                    chars.next();
                }
            }
            if let Some(&c) = chars.peek() {
                if !delimiter.separates(c) {
                    return Err(format!(
                        "text after the closing quote of field {}",
                        fields.len() + 1
                    ));
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if delimiter.separates(c) {
                    break;
                }
                field.push(c);
                chars.next();
            }
        }
        let field = field.trim();
        let decimal_comma = quoted || delimiter != Delimiter::Comma;
        fields.push(match decimal_comma.then(|| with_point(field)).flatten() {
            Some(number) => number,
            None => field.to_string(),
        });
        if delimiter == Delimiter::Whitespace {
            while chars.peek().is_some_and(|&c| delimiter.separates(c)) {
                chars.next();
            }
            if chars.peek().is_none() {
                return Ok(fields);
            }
        } else if chars.next().is_none() {
            return Ok(fields);
        }
    }
}

/// `1,5` → `1.5`: a number written with a decimal comma (digits on both sides or after it, an
/// optional sign and exponent), written with a point instead.
fn with_point(field: &str) -> Option<String> {
    let (whole, fraction) = field.split_once(',')?;
    let digits = whole.strip_prefix(['-', '+']).unwrap_or(whole);
    let (fraction_digits, exponent) = match fraction.find(['e', 'E']) {
        Some(at) => fraction.split_at(at),
        None => (fraction, ""),
    };
    let exponent_ok = exponent.is_empty() || {
        let e = exponent[1..]
            .strip_prefix(['-', '+'])
            .unwrap_or(&exponent[1..]);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    };
    let ok = digits.bytes().all(|b| b.is_ascii_digit())
        && !fraction_digits.is_empty()
        && fraction_digits.bytes().all(|b| b.is_ascii_digit())
        && exponent_ok;
    ok.then(|| format!("{whole}.{fraction}"))
}

/// The value of a field that is a number (Rust's reading: `1e5`, `+.5`, `inf`, `NaN`…).
pub fn number(field: &str) -> Option<f64> {
    field.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Vec<Vec<String>> {
        Table::read(text)
            .unwrap()
            .rows
            .into_iter()
            .map(|r| r.fields)
            .collect()
    }

    #[test]
    fn delimiters_are_detected() {
        assert_eq!(Table::read("1,2,0\n").unwrap().delimiter, Delimiter::Comma);
        assert_eq!(
            Table::read("1;2;0\n").unwrap().delimiter,
            Delimiter::Semicolon
        );
        assert_eq!(Table::read("1\t2\t0\n").unwrap().delimiter, Delimiter::Tab);
        assert_eq!(
            Table::read(" 1   2 0\n").unwrap().delimiter,
            Delimiter::Whitespace
        );
        assert_eq!(fields("1,5;-2,25e3;0\n"), [["1.5", "-2.25e3", "0"]]);
        assert_eq!(fields("1,5 2,5 a b\n"), [["1.5", "2.5", "a", "b"]]);
        // As many numbers split by commas (0, 45) as by spaces, but commas leave two inside
        // the field `50 setosa -27`.
        assert_eq!(
            fields("0,50 setosa -27,45\n"),
            [["0.50", "setosa", "-27.45"]]
        );
        assert_eq!(
            fields("\"1,5\",\"2\",\"a \"\"b\"\"\"\n"),
            [["1.5", "2", "a \"b\""]]
        );
        assert_eq!(
            fields("1,2,0,\n3,4,1,\n"),
            [["1", "2", "0"], ["3", "4", "1"]]
        );
        assert_eq!(fields("a\tb\t\tc\n"), [["a", "b", "", "c"]]);
        assert_eq!(fields("0\t0\ta b\n"), [["0", "0", "a b"]]);
    }

    #[test]
    fn refusals_name_the_line() {
        let message = |text: &str| Table::read(text).unwrap_err().to_string();
        assert_eq!(
            message("1,2,0\n\"3,4,1\n"),
            "line 2: a quote opened in field 1 does not close on its line"
        );
        assert_eq!(
            message("1,2,0\n\"3\"x,4,1\n"),
            "line 2: text after the closing quote of field 1"
        );
        assert!(message("# only\n\n").starts_with("line 2: no data rows"));
        assert!(message("1\n2\n").starts_with("line 1: one column only, '1'"));
    }

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr() {
        assert_eq!(
            lines("a\r\nb\rc\n\nd").collect::<Vec<_>>(),
            [(1, "a"), (2, "b"), (3, "c"), (4, ""), (5, "d")]
        );
    }

    #[test]
    fn headers_and_columns() {
        let layout = |text: &str, choice: &str| {
            let choice = ColumnRef::parse_list(choice).unwrap();
            Table::read(text).unwrap().layout(choice.as_deref(), true)
        };
        let plain = Layout {
            x: 0,
            y: 1,
            label: Some(2),
            header: false,
        };
        assert_eq!(layout("\"1\",\"2\",\"a\"\n3,4,b\n", "").unwrap(), plain);
        assert_eq!(
            layout("x,y,c\n3,4,b\n", "").unwrap(),
            Layout {
                header: true,
                ..plain
            }
        );
        assert_eq!(
            layout("name,x,y,label,w\nn,1,2,0,1\n", "").unwrap(),
            Layout {
                x: 1,
                y: 2,
                label: Some(3),
                header: true
            }
        );
        assert_eq!(
            layout("a,1,2,3,s\n", "").unwrap(),
            Layout {
                x: 1,
                y: 2,
                label: Some(4),
                header: false
            }
        );
        assert_eq!(
            layout("p,q,r,s\n1,2,3,4\n", "4,3,1").unwrap(),
            Layout {
                x: 3,
                y: 2,
                label: Some(0),
                header: true
            }
        );
        assert_eq!(layout("p,q,r,s\n1,2,3,4\n", "S,r,p").unwrap().x, 3);
        let message = |text: &str, choice: &str| layout(text, choice).unwrap_err().to_string();
        assert_eq!(
            message("p,q,r\n1,2,3\n", "p,q,z"),
            "no column named 'z': the first row has p, q, r"
        );
        assert_eq!(
            message("1,2,3\n", "1,2,7"),
            "column 7 does not exist: the file has 3 columns"
        );
        assert_eq!(
            message("x,y\n1,2\n", ""),
            "line 1: expected x,y,label but found 2 fields: which column is the label?"
        );
        assert_eq!(
            message("x,y,label\n", ""),
            "line 1: no data rows after the header"
        );
        assert!(ColumnRef::parse_list("1").is_err());
        assert!(ColumnRef::parse_list("0,1,2").is_err());
    }
}

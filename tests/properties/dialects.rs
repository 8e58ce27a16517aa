//! Files in the dialects the reader takes (`kernel_playground::core::table`): random delimiters
//! (comma, semicolon, tab, spaces), decimal commas, quoting, encodings (UTF-8 with and
//! without a byte-order mark, UTF-16 LE and BE, Latin-1), line endings, comments, headers,
//! extra columns in any order, and labels that are integers, reals or texts. Each file reads
//! into exactly the values written, and read → write → read keeps every value's text.

use crate::config;
use kernel_playground::core::data::Dataset;
use kernel_playground::core::table::ColumnRef;
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Encoding {
    Utf8,
    Utf8Bom,
    Utf16Le,
    Utf16Be,
    Latin1,
}

fn encode(text: &str, encoding: Encoding) -> Vec<u8> {
    match encoding {
        Encoding::Utf8 => text.as_bytes().to_vec(),
        Encoding::Utf8Bom => [&[0xEF, 0xBB, 0xBF][..], text.as_bytes()].concat(),
        Encoding::Utf16Le => std::iter::once(0xFEFF)
            .chain(text.encode_utf16())
            .flat_map(u16::to_le_bytes)
            .collect(),
        Encoding::Utf16Be => std::iter::once(0xFEFF)
            .chain(text.encode_utf16())
            .flat_map(u16::to_be_bytes)
            .collect(),
        // Every character used here is below U+0100: Latin-1 is its code point as a byte.
        Encoding::Latin1 => text.chars().map(|c| c as u32 as u8).collect(),
    }
}

/// A coordinate's text, with a decimal point.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (-1e6..1e6f64).prop_map(|v| v.to_string()),
        (-1e15..1e15f64).prop_map(|v| format!("{v:e}")),
        (-1e4..1e4f64, 0usize..7).prop_map(|(v, d)| format!("{v:.d$}")),
        any::<i32>().prop_map(|v| v.to_string()),
        Just("-0".to_string()),
        Just("0.50".to_string()),
    ]
}

/// Label texts that name classes (none is a number).
const WORDS: &[&str] = &[
    "setosa",
    "versicolor",
    "Virginica",
    "café",
    "a b",
    "x,y",
    "say \"hi\"",
    "Ünïcode",
    "#tag",
];

#[derive(Clone, Debug)]
struct File {
    delimiter: char,
    decimal_comma: bool,
    quote_all: bool,
    encoding: Encoding,
    crlf: bool,
    comment: bool,
    header: bool,
    /// Column positions: `order[0]` is x, `order[1]` y, `order[2]` the label.
    order: Vec<usize>,
    /// Per row: x, y, the label, and the other columns' texts.
    rows: Vec<(String, String, String, Vec<String>)>,
}

fn file() -> impl Strategy<Value = File> {
    let labels = prop_oneof![
        // Integers, as people write them: 1, +1, 1.0.
        (-3i32..4, 0..3u8).prop_map(|(l, form)| match form {
            0 => l.to_string(),
            1 => format!("{l:+}"),
            _ => format!("{l}.0"),
        }),
        prop::sample::select(WORDS).prop_map(str::to_string),
    ];
    let filler = prop_oneof![
        number_text(),
        prop::sample::select(WORDS).prop_map(str::to_string)
    ];
    (3usize..7, any::<bool>())
        .prop_flat_map(move |(width, words)| {
            let label = if words {
                prop::sample::select(WORDS).prop_map(str::to_string).boxed()
            } else {
                labels.clone().boxed()
            };
            let row = (
                number_text(),
                number_text(),
                label,
                prop::collection::vec(filler.clone(), width - 3),
            );
            (
                (
                    prop::sample::select(vec![',', ';', '\t', ' ']),
                    any::<bool>(),
                    any::<bool>(),
                    prop_oneof![
                        Just(Encoding::Utf8),
                        Just(Encoding::Utf8Bom),
                        Just(Encoding::Utf16Le),
                        Just(Encoding::Utf16Be),
                        Just(Encoding::Latin1),
                    ],
                ),
                (any::<bool>(), any::<bool>(), any::<bool>()),
                Just((0..width).collect::<Vec<_>>()).prop_shuffle(),
                prop::collection::vec(row, 1..15),
            )
        })
        .prop_map(
            |(
                (delimiter, decimal_comma, quote_all, encoding),
                (crlf, comment, header),
                order,
                rows,
            )| File {
                delimiter,
                decimal_comma,
                quote_all,
                encoding,
                crlf,
                comment,
                header,
                order,
                rows,
            },
        )
}

impl File {
    /// A field as the file writes it: quoted when asked, or when it must be.
    fn field(&self, text: &str, number: bool) -> String {
        let text = if number && self.decimal_comma {
            text.replace('.', ",")
        } else {
            text.to_string()
        };
        let must = text.contains(self.delimiter)
            || text.contains('"')
            || (self.delimiter == ' ' && text.contains([' ', '\t']))
            || text.starts_with('#');
        if self.quote_all || must {
            format!("\"{}\"", text.replace('"', "\"\""))
        } else {
            text
        }
    }

    fn text(&self) -> String {
        let width = self.order.len();
        let end = if self.crlf { "\r\n" } else { "\n" };
        let mut out = String::new();
        if self.comment {
            out.push_str(&format!("# points, {width} columns{end}{end}"));
        }
        if self.header {
            let names: Vec<String> = (0..width)
                .map(|c| self.field(&format!("h{c}"), false))
                .collect();
            out.push_str(&names.join(&self.delimiter.to_string()));
            out.push_str(end);
        }
        for (x, y, label, others) in &self.rows {
            let mut fields = vec![String::new(); width];
            fields[self.order[0]] = self.field(x, true);
            fields[self.order[1]] = self.field(y, true);
            fields[self.order[2]] = self.field(label, false);
            for (slot, other) in self.order[3..].iter().zip(others) {
                let number = other.parse::<f64>().is_ok();
                fields[*slot] = self.field(other, number);
            }
            out.push_str(&fields.join(&self.delimiter.to_string()));
            out.push_str(end);
        }
        out
    }

    fn columns(&self) -> Vec<ColumnRef> {
        self.order[..3]
            .iter()
            .map(|&c| ColumnRef::Number(c + 1))
            .collect()
    }
}

/// The class of each row's label, and the text each class is written as, by the rules the
/// reader documents: integers when all are, else the sorted texts numbered from 0.
fn expected_classes(labels: &[&str]) -> (Vec<i32>, Vec<String>) {
    let integers: Option<Vec<i32>> = labels
        .iter()
        .map(|l| {
            let v: f64 = l.parse().ok()?;
            (v.fract() == 0.0).then_some(v as i32)
        })
        .collect();
    match integers {
        Some(values) => {
            let texts = labels
                .iter()
                .zip(&values)
                .map(|(_, v)| {
                    let first = values.iter().position(|w| w == v).unwrap();
                    labels[first].to_string()
                })
                .collect();
            (values, texts)
        }
        None => {
            let mut distinct: Vec<&str> = labels.to_vec();
            distinct.sort();
            distinct.dedup();
            let classes = labels
                .iter()
                .map(|l| distinct.iter().position(|d| d == l).unwrap() as i32)
                .collect();
            (classes, labels.iter().map(|l| l.to_string()).collect())
        }
    }
}

proptest! {
    #![proptest_config(config(2))]

    #[test]
    fn every_dialect_reads_exactly_and_round_trips(file in file()) {
        let text = file.text();
        let bytes = encode(&text, file.encoding);
        let data = Dataset::read(&bytes, Some(&file.columns()))
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(data.len(), file.rows.len());
        let labels: Vec<&str> = file.rows.iter().map(|r| r.2.as_str()).collect();
        let (classes, texts) = expected_classes(&labels);
        prop_assert_eq!(&data.labels, &classes, "{}", text);
        for (i, (x, y, _, _)) in file.rows.iter().enumerate() {
            for (axis, written) in [x, y].into_iter().enumerate() {
                let value: f64 = written.parse().unwrap();
                prop_assert_eq!(data.points[i][axis].to_bits(), value.to_bits(), "{}", text);
                prop_assert_eq!(&*data.coordinate_text(i, axis), written.as_str());
            }
            prop_assert_eq!(&*data.label_text(data.labels[i]), texts[i].as_str());
        }
        // The defaults find the same columns when they are the first three.
        if file.order[..3] == [0, 1, 2] && file.order.len() == 3 {
            let default = Dataset::read(&bytes, None).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(default.to_csv(), data.to_csv());
        }
        // Written and read again: the same values, the same texts.
        let written = data.to_csv();
        let back = Dataset::read(written.as_bytes(), None)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{written}")))?;
        prop_assert_eq!(&back.labels, &data.labels);
        for i in 0..data.len() {
            for axis in 0..2 {
                prop_assert_eq!(back.points[i][axis].to_bits(), data.points[i][axis].to_bits());
                prop_assert_eq!(back.coordinate_text(i, axis), data.coordinate_text(i, axis));
            }
            prop_assert_eq!(back.label_text(back.labels[i]), data.label_text(data.labels[i]));
        }
        prop_assert_eq!(back.to_csv(), written);
    }
}

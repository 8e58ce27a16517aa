//! Class labels as files write them, and the integers the lab computes with.
//!
//! Inside the lab a class is an `i32` (the larger of two is the positive class). A file may
//! write its labels as integers (`-1`, `+1`, `3`), as reals that are integers (`1.0`, `-1e0`,
//! as LIBSVM writes them), or as text (`setosa`, `versicolor`):
//!
//! - when every label of a file is an integer, the class is that integer;
//! - otherwise every label is a text, and the classes are 0, 1, 2, … in the sorted order of
//!   the distinct texts (by value when they are all numbers, else by Unicode code point), as
//!   scikit-learn's `LabelEncoder` and `np.unique` number them, so with two classes the later
//!   text is the positive class, as in scikit-learn's `SVC`.
//!
//! Each class keeps the text it was first written as ([`LabelTexts`]), so a file saved again
//! writes `1.0` or `setosa` back; when one class is written two ways (`1` and `1.0`), the
//! first is kept. A file of held-out points read against a training set whose labels are
//! texts takes the training set's numbering ([`code`] with `known`).

use crate::core::error::Error;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The text each class was written as, where it came from a file or a link.
pub type LabelTexts = BTreeMap<i32, Box<str>>;

/// A label that is an integer: `3`, `+1`, or a real with no fraction (`1.0`, `-1e0`).
pub fn integer(text: &str) -> Option<i32> {
    text.parse::<i32>().ok().or_else(|| {
        let v: f64 = text.parse().ok()?;
        (v.fract() == 0.0 && v.abs() <= i32::MAX as f64).then_some(v as i32)
    })
}

/// Whether these texts name classes (some label is not an integer).
fn named(texts: &LabelTexts) -> bool {
    texts.values().any(|t| integer(t).is_none())
}

/// The classes of labels written as `texts` (each with its line), by the rules of the module
/// docs, and the text of each class. With `known` texts that name classes, every label must be
/// one of them and takes its class. Fails, with the line, on an empty label, one with a
/// control character, or one `known` does not have.
pub fn code(texts: &[(usize, &str)], known: &LabelTexts) -> Result<(Vec<i32>, LabelTexts), Error> {
    for &(line, text) in texts {
        if let Some(message) = problem(text, known) {
            return Err(Error::Csv { line, message });
        }
    }
    let mut classes = LabelTexts::new();
    if named(known) {
        let labels = texts
            .iter()
            .map(|&(_, text)| {
                let class = known_class(text, known).unwrap_or_default();
                classes.entry(class).or_insert_with(|| text.into());
                class
            })
            .collect();
        return Ok((labels, classes));
    }
    let integers: Option<Vec<i32>> = texts.iter().map(|(_, t)| integer(t)).collect();
    if let Some(labels) = integers {
        for (&class, &(_, text)) in labels.iter().zip(texts) {
            classes.entry(class).or_insert_with(|| text.into());
        }
        return Ok((labels, classes));
    }
    let mut distinct: Vec<&str> = texts.iter().map(|&(_, t)| t).collect();
    crate::core::sorting::sort(&mut distinct);
    distinct.dedup();
    let values: Option<Vec<f64>> = distinct.iter().map(|t| t.parse::<f64>().ok()).collect();
    if let Some(values) = values.filter(|v| v.iter().all(|v| v.is_finite())) {
        let mut order: Vec<usize> = (0..distinct.len()).collect();
        crate::core::sorting::sort_by(&mut order, |&a, &b| {
            values[a].total_cmp(&values[b]).then(a.cmp(&b))
        });
        distinct = order.into_iter().map(|i| distinct[i]).collect();
    }
    let class_of = |text: &str| distinct.iter().position(|&t| t == text).unwrap_or(0) as i32;
    let labels: Vec<i32> = texts.iter().map(|&(_, t)| class_of(t)).collect();
    for (class, text) in distinct.iter().enumerate() {
        classes.insert(class as i32, (*text).into());
    }
    Ok((labels, classes))
}

/// What is wrong with a label, if anything: it is empty, has a control character, or is not
/// one of the `known` texts that name classes.
pub fn problem(text: &str, known: &LabelTexts) -> Option<String> {
    if text.is_empty() {
        Some("the label is empty".to_string())
    } else if text.contains(char::is_control) {
        Some(format!("label '{text}' has a control character"))
    } else if named(known) && known_class(text, known).is_none() {
        let names: Vec<&str> = known.values().map(|t| &**t).collect();
        Some(format!(
            "label '{text}' is not a class of the training data ({})",
            names.join(", ")
        ))
    } else {
        None
    }
}

fn known_class(text: &str, known: &LabelTexts) -> Option<i32> {
    known.iter().find(|(_, t)| &***t == text).map(|(&c, _)| c)
}

/// `text` with each `class k:` of a per-class list ("class 1: 0.2, class 2: 0.8", the k-th
/// class in increasing order) written as that class's name, `names[k - 1]` ("-1: 0.2, +1:
/// 0.8"); a `k` past the names is left as it is.
pub fn name_ranks(text: &str, names: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("class ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "class ".len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let name = after[..digits]
            .parse::<usize>()
            .ok()
            .filter(|_| after[digits..].starts_with(':'))
            .and_then(|k| names.get(k.checked_sub(1)?));
        match name {
            Some(name) => {
                out.push_str(name);
                rest = &after[digits..];
            }
            None => {
                out.push_str("class ");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `text` with each `class n` that names label `n − 1` (the lab's own naming of its classes 0,
/// 1, … as class 1, class 2, …, which the Gaussian models' messages use for any label) written
/// as that label's name in `names` ("class 0 has a single point" for label −1 becomes "-1 has
/// a single point"); a label not in `names` is left as it is.
pub fn name_labels(text: &str, names: &BTreeMap<i32, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("class ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "class ".len()..];
        let sign = usize::from(after.starts_with('-'));
        let digits = after[sign..].len()
            - after[sign..]
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        let label = after[..sign + digits]
            .parse::<i64>()
            .ok()
            .and_then(|n| i32::try_from(n - 1).ok());
        match label.and_then(|l| names.get(&l)).filter(|_| digits > 0) {
            Some(name) => {
                out.push_str(name);
                rest = &after[sign + digits..];
            }
            None => {
                out.push_str("class ");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A label as a CSV field: quoted (quotes doubled) when it holds a comma, a quote, or starts
/// or ends with a space.
pub fn csv_field(text: &str) -> Cow<'_, str> {
    if text.contains([',', '"']) || text.trim() != text {
        Cow::Owned(format!("\"{}\"", text.replace('"', "\"\"")))
    } else {
        Cow::Borrowed(text)
    }
}

/// The texts as the link's `names` value: `class:text` joined by `;`, every byte of a text
/// but letters, digits and `-_.~` percent-encoded.
pub fn to_link(texts: &LabelTexts) -> String {
    let escape = |text: &str| -> String {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    texts
        .iter()
        .map(|(class, text)| format!("{class}:{}", escape(text)))
        .collect::<Vec<_>>()
        .join(";")
}

/// Reads [`to_link`]'s text (still percent-encoded).
pub fn from_link(value: &str) -> Result<LabelTexts, Error> {
    let mut texts = LabelTexts::new();
    for part in value.split(';').filter(|p| !p.is_empty()) {
        let bad = || Error::State(format!("class name '{part}' is not class:text"));
        let (class, text) = part.split_once(':').ok_or_else(bad)?;
        let class: i32 = class.parse().map_err(|_| bad())?;
        let mut bytes = Vec::with_capacity(text.len());
        let mut rest = text.as_bytes();
        while let Some((&b, tail)) = rest.split_first() {
            let hex = tail.get(..2).and_then(|h| std::str::from_utf8(h).ok());
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(v) if b == b'%' => {
                    bytes.push(v);
                    rest = &tail[2..];
                }
                _ => {
                    bytes.push(b);
                    rest = tail;
                }
            }
        }
        let text = String::from_utf8(bytes).map_err(|_| bad())?;
        if text.is_empty() || text.contains(char::is_control) {
            return Err(bad());
        }
        texts.insert(class, text.into());
    }
    Ok(texts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_take_the_names_of_the_labels_they_number() {
        let names: BTreeMap<i32, String> =
            [(-1, "-1".to_string()), (1, "+1".into()), (-5, "m5".into())].into();
        assert_eq!(
            name_labels("class 0 has a single point; class 2 and class -4", &names),
            "-1 has a single point; +1 and m5"
        );
        for same in [
            "class 1 is alone",
            "class mean",
            "class -",
            "class 99",
            "class",
        ] {
            assert_eq!(name_labels(same, &names), same);
        }
    }

    #[test]
    fn per_class_lists_take_the_names_by_rank() {
        let names = ["-1".to_string(), "+1".into(), "setosa".into()];
        assert_eq!(
            name_ranks("class 1: 0.2, class 2: 0.8, class 3: 0", &names),
            "-1: 0.2, +1: 0.8, setosa: 0"
        );
        // Only "class k:" with k among the names: other uses of the word stay.
        for same in [
            "class mean μ",
            "p(class 2 | x)",
            "class 4: 1",
            "class 0: 1",
            "class 1",
        ] {
            assert_eq!(name_ranks(same, &names), same);
        }
        assert_eq!(name_ranks("votes class 12: 3", &names), "votes class 12: 3");
    }

    fn lines<'a>(texts: &[&'a str]) -> Vec<(usize, &'a str)> {
        texts.iter().enumerate().map(|(i, &t)| (i + 1, t)).collect()
    }

    #[test]
    fn integers_and_texts_are_classes() {
        let none = LabelTexts::new();
        let (labels, texts) = code(&lines(&["1.0", "-1.0", "+1", "-1"]), &none).unwrap();
        assert_eq!(labels, [1, -1, 1, -1]);
        assert_eq!(&*texts[&1], "1.0");
        assert_eq!(&*texts[&-1], "-1.0");
        let names = ["virginica", "setosa", "versicolor", "setosa"];
        let (labels, texts) = code(&lines(&names), &none).unwrap();
        assert_eq!(labels, [2, 0, 1, 0]);
        assert_eq!(
            texts.values().map(|t| &**t).collect::<Vec<_>>(),
            ["setosa", "versicolor", "virginica"]
        );
        // Numbers that are not all integers are sorted by value, not as text.
        let (labels, _) = code(&lines(&["10.5", "2.5", "-1"]), &none).unwrap();
        assert_eq!(labels, [2, 1, 0]);
        // Held-out labels take the training numbering.
        let (labels, _) = code(&lines(&["virginica"]), &texts).unwrap();
        assert_eq!(labels, [2]);
        assert_eq!(
            code(&lines(&["setosa", "rose"]), &texts).unwrap_err().to_string(),
            "line 2: label 'rose' is not a class of the training data (setosa, versicolor, virginica)"
        );
        assert_eq!(
            code(&lines(&["1", ""]), &none).unwrap_err().to_string(),
            "line 2: the label is empty"
        );
    }

    #[test]
    fn texts_survive_csv_and_links() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("Iris setosa"), "Iris setosa");
        let texts: LabelTexts = [(0, "a;b:c%&d".into()), (-3, "é 1".into())].into();
        let link = to_link(&texts);
        assert_eq!(link, "-3:%C3%A9%201;0:a%3Bb%3Ac%25%26d");
        assert_eq!(from_link(&link).unwrap(), texts);
        assert!(from_link("x:1").is_err());
    }
}

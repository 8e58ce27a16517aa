//! The one error type of the crate: every message is written for the person at the keyboard,
//! short and specific (in the spirit of LIBSVM's "C <= 0"), so the page, the command line and
//! the tests can show it as it is.

use std::borrow::Cow;
use std::fmt;

/// Everything that can go wrong between reading points and drawing a fitted model.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// A CSV row that is not `x,y,label`; `line` counts from 1.
    Csv { line: usize, message: String },
    /// A coordinate that is NaN or infinite.
    NotFinite { what: String },
    /// Fewer than two points to learn from.
    TooFewPoints,
    /// Every point has the same label.
    OneClass,
    /// More distinct labels than the model handles.
    TooManyClasses { found: usize, max: usize },
    /// A parameter outside its range, e.g. `C <= 0`.
    Parameter(String),
    /// Anything from the URL state that cannot be read back.
    State(String),
    /// Drawing failed (a backend error, a missing font for PNG output).
    Draw(String),
    /// A hard margin asked of classes that no surface of the kernel separates.
    NotSeparable(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Csv { line, message } => write!(f, "line {line}: {}", one_line(message)),
            Error::NotFinite { what } => write!(f, "{} is not a finite number", one_line(what)),
            Error::TooFewPoints => write!(f, "need at least two points to fit a model"),
            Error::OneClass => {
                write!(
                    f,
                    "all points have the same class: add points of the other class"
                )
            }
            Error::TooManyClasses { found, max } => {
                write!(f, "found {found} classes; this model handles at most {max}")
            }
            Error::Parameter(message) => write!(f, "{}", one_line(message)),
            Error::State(message) => write!(f, "cannot read the scene: {}", one_line(message)),
            Error::Draw(message) => write!(f, "drawing failed: {}", one_line(message)),
            Error::NotSeparable(message) => write!(f, "{}", one_line(message)),
        }
    }
}

/// `text` with its line breaks and other control characters escaped (`\n`, `\u{2028}`):
/// messages quote what was typed or loaded, and a message is one line wherever it is shown.
fn one_line(text: &str) -> Cow<'_, str> {
    let breaks = |c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}');
    if !text.contains(breaks) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if breaks(c) {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_cannot_break_a_message_over_lines() {
        let e = Error::Csv {
            line: 2,
            message: "x '\u{feff}\r+' is not a number".into(),
        };
        assert_eq!(e.to_string(), "line 2: x '\u{feff}\\r+' is not a number");
        let e = Error::Parameter("lambda 'NaN\nA' is not a number".into());
        assert_eq!(e.to_string(), "lambda 'NaN\\nA' is not a number");
        let e = Error::State("point 1 ('1,2\u{2028}') is not x,y,label".into());
        assert_eq!(
            e.to_string(),
            "cannot read the scene: point 1 ('1,2\\u{2028}') is not x,y,label"
        );
        assert_eq!(Error::Parameter("C <= 0".into()).to_string(), "C <= 0");
    }
}

//! The one error type of the crate: every message is written for the person at the keyboard,
//! short and specific (in the spirit of LIBSVM's "C <= 0"), so the page, the command line and
//! the tests can show it as it is.

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
            Error::Csv { line, message } => write!(f, "line {line}: {message}"),
            Error::NotFinite { what } => write!(f, "{what} is not a finite number"),
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
            Error::Parameter(message) => write!(f, "{message}"),
            Error::State(message) => write!(f, "cannot read the scene: {message}"),
            Error::Draw(message) => write!(f, "drawing failed: {message}"),
            Error::NotSeparable(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for Error {}

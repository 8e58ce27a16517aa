//! A row's value, checked: [`Param::parse`] reads the text of a URL key, a CLI flag or a
//! control as the row's kind says (a number in its range, a whole number, one of a choice's
//! options, a flag, a kernel expression) and names what is wrong in one line ("C <= 0").

use super::{Kind, Param};
use crate::core::error::Error;
use crate::core::kernel::{Composition, PanelParams};

/// Valid kernel parameters, to check an expression's text by.
const ANY_PANEL: PanelParams = PanelParams {
    gamma: 1.0,
    degree: 3,
    coef0: 0.0,
};

/// A checked value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Real(f64),
    Whole(u64),
    Choice(&'static str),
    Flag(bool),
    Text(String),
}

impl Value {
    /// As written in the URL (shortest text that reads back to the same number).
    pub fn text(&self) -> String {
        match self {
            Value::Real(v) => v.to_string(),
            Value::Whole(v) => v.to_string(),
            Value::Choice(v) => v.to_string(),
            Value::Flag(on) => if *on { "1" } else { "0" }.to_string(),
            Value::Text(text) => text.clone(),
        }
    }
}

impl Param {
    /// Reads `text` as this row's value, or says what is wrong with it.
    pub fn parse(&self, text: &str) -> Result<Value, Error> {
        let text = text.trim();
        // Messages name a value as people read it ("max epochs"), but Greek letters as
        // they are typed ("gamma", "lambda").
        let name = if self.label.is_ascii() {
            self.label
        } else {
            self.key
        };
        let real = || -> Result<f64, Error> {
            let v: f64 = text
                .parse()
                .map_err(|_| Error::Parameter(format!("{name} '{text}' is not a number")))?;
            if v.is_finite() {
                Ok(v)
            } else {
                Err(Error::Parameter(format!("{name} must be a finite number")))
            }
        };
        match self.kind {
            Kind::LogSlider { .. } => {
                let v = real()?;
                if v > 0.0 {
                    Ok(Value::Real(v))
                } else {
                    Err(Error::Parameter(format!("{name} <= 0")))
                }
            }
            Kind::Slider { min, max, .. } => {
                let v = real()?;
                if (min..=max).contains(&v) {
                    Ok(Value::Real(v))
                } else {
                    Err(Error::Parameter(format!(
                        "{name} must be between {min} and {max}"
                    )))
                }
            }
            Kind::Integer { min, max, .. } => {
                let v: u64 = text.parse().map_err(|_| {
                    Error::Parameter(format!("{name} '{text}' is not a whole number"))
                })?;
                if (min..=max).contains(&v) {
                    Ok(Value::Whole(v))
                } else {
                    Err(Error::Parameter(format!(
                        "{name} must be between {min} and {max}"
                    )))
                }
            }
            Kind::Number => text
                .parse()
                .map(Value::Whole)
                .map_err(|_| Error::Parameter(format!("{name} '{text}' is not a whole number"))),
            Kind::Choice { options } => {
                // "polynomial" is the long name of the polynomial kernel.
                let text = if self.key == "kernel" && text == "polynomial" {
                    "poly"
                } else {
                    text
                };
                options
                    .iter()
                    .find(|o| o.value == text)
                    .map(|o| Value::Choice(o.value))
                    .ok_or_else(|| {
                        let names: Vec<&str> = options.iter().map(|o| o.value).collect();
                        Error::Parameter(format!(
                            "unknown {name} '{text}' (use {})",
                            names.join(", ")
                        ))
                    })
            }
            Kind::Flag => match text {
                "1" | "true" | "on" => Ok(Value::Flag(true)),
                "0" | "false" | "off" => Ok(Value::Flag(false)),
                _ => Err(Error::Parameter(format!("{name} must be 0 or 1"))),
            },
            // Read with any γ, degree and coef0: bases written bare take whatever valid
            // values the sliders hold when the kernel is built, so only the text can be wrong.
            Kind::Expression => {
                Composition::parse(text, ANY_PANEL).map(|_| Value::Text(text.into()))
            }
        }
    }

    /// The default value.
    pub fn default_value(&self) -> Value {
        self.parse(self.default)
            .expect("every default in the table is valid")
    }
}

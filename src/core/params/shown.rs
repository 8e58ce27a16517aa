//! γ of a Gaussian (RBF) kernel shown as its bandwidth σ, as the notes write the kernel:
//! exp(−‖x − z‖²/2σ²) = exp(−γ‖x − z‖²), so σ = 1/√(2γ) and γ = 1/(2σ²). The page may show
//! σ beside γ's readout, or move σ on γ's slider (log₁₀σ = −½ log₁₀(2γ)).

use super::{Kind, Values, BANDWIDTH_KEY};
use crate::core::error::Error;
use serde::Serialize;

/// A setting the page shows in other units than it is kept in (γ of a Gaussian kernel as its
/// bandwidth σ): the word for it, and its slider's range in log₁₀ of those units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ShownAs {
    pub label: &'static str,
    pub lo: f64,
    pub hi: f64,
}

impl Values {
    /// The notes' other name for a setting, shown beside its readout: for γ of a Gaussian
    /// (RBF) kernel or feature map, the bandwidth σ of exp(−‖x − z‖²/2σ²) = exp(−γ‖x − z‖²),
    /// σ = 1/√(2γ). `None` where the method (reading the keys `uses`) has no such kernel.
    pub fn also_written(&self, key: &str, uses: &[&str]) -> Option<String> {
        if self.shown_as(key, uses).is_some() {
            // The slider moves σ: beside it, the γ it sets.
            return Some(format!("γ = {}", four_digits(self.real(key))));
        }
        let gaussian = self.gaussian(uses);
        (key == "gamma" && gaussian && uses.contains(&"gamma")).then(|| {
            let sigma = 1.0 / (2.0 * self.real("gamma")).sqrt();
            format!("σ = {}", four_digits(sigma))
        })
    }

    /// Whether the method (reading the keys `uses`) has a Gaussian kernel or feature map.
    fn gaussian(&self, uses: &[&str]) -> bool {
        ["kernel", "features"]
            .iter()
            .any(|k| uses.contains(k) && self.text(k).as_deref() == Some("rbf"))
    }

    /// How the page shows setting `key`, when not as itself: γ as the bandwidth σ of
    /// exp(−‖x − z‖²/2σ²), σ = 1/√(2γ), while [`BANDWIDTH_KEY`] says so and the kernel is
    /// Gaussian. The slider keeps γ's range: log₁₀σ = −½ log₁₀(2γ), so γ from 10^lo to
    /// 10^hi is σ from 10^(−(hi + log₁₀2)/2) to 10^(−(lo + log₁₀2)/2), widened to whole
    /// hundredths (the slider's steps start at its low end, and σ = 1 is a step).
    pub fn shown_as(&self, key: &str, uses: &[&str]) -> Option<ShownAs> {
        let Kind::LogSlider { lo, hi } = self.row(key)?.kind else {
            return None;
        };
        let sigma = key == "gamma"
            && uses.contains(&BANDWIDTH_KEY)
            && self.gaussian(uses)
            && self.choice(BANDWIDTH_KEY) == "sigma";
        sigma.then(|| ShownAs {
            label: "σ",
            lo: (-(hi + 2f64.log10()) / 2.0 * 100.0).floor() / 100.0,
            hi: (-(lo + 2f64.log10()) / 2.0 * 100.0).ceil() / 100.0,
        })
    }

    /// Setting `key` in the units the page shows it in ([`Values::shown_as`]): σ = 1/√(2γ),
    /// as a number's shortest text; the setting's own text when it is shown as itself.
    pub fn shown(&self, key: &str, uses: &[&str]) -> Option<String> {
        match self.shown_as(key, uses) {
            Some(_) => Some((1.0 / (2.0 * self.real(key)).sqrt()).to_string()),
            None => self.text(key),
        }
    }

    /// The text of setting `key` for `text` given in the units the page shows it in: γ =
    /// 1/(2σ²) for a bandwidth σ (a positive finite number whose γ is one too).
    pub fn setting_from_shown(
        &self,
        key: &str,
        uses: &[&str],
        text: &str,
    ) -> Result<String, Error> {
        let Some(shown) = self.shown_as(key, uses) else {
            return Ok(text.trim().to_string());
        };
        let sigma: f64 = text
            .trim()
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s > 0.0)
            .ok_or_else(|| {
                Error::Parameter(format!(
                    "{}: '{}' is not a positive number",
                    shown.label,
                    text.trim()
                ))
            })?;
        let gamma = 1.0 / (2.0 * sigma * sigma);
        if !(gamma.is_finite() && gamma > 0.0) {
            return Err(Error::Parameter(format!(
                "{} = {sigma} gives γ = 1/(2σ²) = {gamma}, which is not a positive finite number",
                shown.label
            )));
        }
        Ok(gamma.to_string())
    }
}

/// A value to four significant digits, without trailing zeros (0.5, 1.581, 2.236e-4).
fn four_digits(v: f64) -> String {
    if v != 0.0 && !(1e-3..1e5).contains(&v.abs()) {
        return format!("{v:.3e}");
    }
    let digits = (3 - v.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{v:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_is_also_written_as_the_bandwidth_sigma() {
        let svm = ["kernel", "C", "gamma"];
        let mut v = crate::methods::table::defaults();
        // γ = 2 is σ = ½; γ = 1/(2·3²) is σ = 3.
        v.set("gamma", "2").unwrap();
        assert_eq!(v.also_written("gamma", &svm).as_deref(), Some("σ = 0.5"));
        v.set("gamma", &(1.0 / 18.0).to_string()).unwrap();
        assert_eq!(v.also_written("gamma", &svm).as_deref(), Some("σ = 3"));
        v.set("gamma", "0.2").unwrap();
        assert_eq!(v.also_written("gamma", &svm).as_deref(), Some("σ = 1.581"));
        assert_eq!(v.also_written("C", &svm), None);
        // Not for the polynomial kernel, nor for a method that reads no γ.
        v.set("kernel", "poly").unwrap();
        assert_eq!(v.also_written("gamma", &svm), None);
        v.set("features", "rbf").unwrap();
        assert_eq!(
            v.also_written("gamma", &["features", "lambda", "gamma"])
                .as_deref(),
            Some("σ = 1.581")
        );
        assert_eq!(v.also_written("gamma", &["k"]), None);
    }

    /// With the slider in σ, a typed σ sets γ = 1/(2σ²) and γ is shown as σ = 1/√(2γ); the
    /// slider's range is γ's, in σ; with another kernel, or without the choice, γ is itself.
    #[test]
    fn the_rbf_slider_may_move_the_bandwidth_sigma() {
        let svm = ["kernel", "C", "gamma", BANDWIDTH_KEY];
        let mut v = crate::methods::table::defaults();
        v.set("kernel", "rbf").unwrap();
        assert_eq!(v.shown_as("gamma", &svm), None);
        assert_eq!(v.setting_from_shown("gamma", &svm, "3").unwrap(), "3");
        v.set(BANDWIDTH_KEY, "sigma").unwrap();
        let shown = v.shown_as("gamma", &svm).unwrap();
        assert_eq!((shown.label, shown.lo, shown.hi), ("σ", -1.66, 1.35));
        assert_eq!(v.shown("gamma", &svm).as_deref(), Some("0.5"));
        assert_eq!(v.also_written("gamma", &svm).as_deref(), Some("γ = 2"));
        let gamma = v.setting_from_shown("gamma", &svm, "3").unwrap();
        assert_eq!(gamma.parse::<f64>().unwrap(), 1.0 / 18.0);
        v.set("gamma", &gamma).unwrap();
        assert_eq!(v.shown("gamma", &svm).as_deref(), Some("3"));
        // A σ that is no number, or whose γ overflows, is refused in words.
        assert!(v.setting_from_shown("gamma", &svm, "-1").is_err());
        assert!(v.setting_from_shown("gamma", &svm, "1e-300").is_err());
        // Not for the polynomial kernel, nor for a method without the choice.
        assert_eq!(v.shown_as("gamma", &["kernel", "C", "gamma"]), None);
        v.set("kernel", "poly").unwrap();
        assert_eq!(v.shown_as("gamma", &svm), None);
        assert_eq!(v.shown("gamma", &svm).as_deref(), Some(gamma.as_str()));
    }
}

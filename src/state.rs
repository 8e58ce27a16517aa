//! Everything a person can set, as one table of named values, and its round trip through the
//! URL hash — so any scene can be bookmarked or shared, and reloading restores it exactly.
//!
//! The hash reads `#model=svm&kernel=rbf&C=1&…` and, once points have been added, moved or
//! loaded, `&points=x,y,label;x,y,label;…` (coordinates live on a 10⁻⁴ grid, see
//! [`crate::data::quantize`], so four decimals restore them bit for bit). An untouched preset
//! is stored by its name, size, noise and seed alone, which regenerate the same points.

use crate::data::{Dataset, Preset};
use crate::error::Error;
use crate::kernel::Kernel;
use crate::multiclass::Scheme;
use crate::scene::Layers;
use crate::solvers::knn::{KnnParams, Metric, Weights};
use crate::solvers::logistic::{Features, LogisticParams, Solver};
use crate::solvers::perceptron::PerceptronParams;
use crate::solvers::svm::SvmParams;

/// The methods, by their URL names.
pub const MODELS: [&str; 4] = ["svm", "perceptron", "logistic", "knn"];

/// One scene's settings. Every field is a key of the URL and of [`Settings::set`].
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The method: svm, perceptron, logistic or knn.
    pub model: String,
    /// linear, poly, rbf or sigmoid.
    pub kernel: String,
    pub c: f64,
    /// C = ∞.
    pub hard_margin: bool,
    pub gamma: f64,
    pub degree: u32,
    pub coef0: f64,
    pub tol: f64,
    /// Perceptron: the epoch cap.
    pub epochs: usize,
    /// Logistic regression: the L2 penalty λ, the features (linear, poly, rbf), the solver
    /// (newton, gd) and gradient descent's learning rate.
    pub lambda: f64,
    pub features: String,
    pub solver: String,
    pub learning_rate: f64,
    /// k-nearest neighbours: k, the metric and the weights.
    pub k: usize,
    pub metric: Metric,
    pub weights: Weights,
    /// More than two classes with the SVM: one-versus-one (LIBSVM's) or one-versus-rest.
    pub multiclass: Scheme,
    /// SMO's iteration cap (not in the URL: the page keeps SMO's interactive default, the
    /// command line LIBSVM's 10⁷).
    pub svm_max_iter: Option<usize>,
    pub preset: Preset,
    /// How many points the preset generates.
    pub count: usize,
    pub noise: f64,
    pub seed: u64,
    pub layers: Layers,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            model: "svm".into(),
            kernel: "rbf".into(),
            c: 1.0,
            hard_margin: false,
            gamma: 2.0,
            degree: 3,
            coef0: 0.0,
            tol: 1e-3,
            epochs: 100,
            lambda: 0.01,
            features: "poly".into(),
            solver: "newton".into(),
            learning_rate: 4.0,
            k: 5,
            metric: Metric::Euclidean,
            weights: Weights::Uniform,
            multiclass: Scheme::OneVsOne,
            svm_max_iter: None,
            preset: Preset::Moons,
            count: 100,
            noise: 0.2,
            seed: 1,
            layers: Layers::default(),
        }
    }
}

/// The largest preset size (the page's "points" control stops here).
pub const MAX_COUNT: usize = 5000;

/// What a change of setting asks of the playground.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Refit the model.
    Refit,
    /// Regenerate the preset's points, then refit.
    Regenerate,
    /// Only redraw.
    Redraw,
}

impl Settings {
    /// The keys, in URL order.
    pub const KEYS: [&'static str; 30] = [
        "model", "kernel", "C", "hard", "gamma", "degree", "coef0", "tol", "epochs", "lambda",
        "features", "solver", "lr", "k", "metric", "weights", "mc", "preset", "n", "noise", "seed",
        "regions", "margins", "sv", "slack", "w", "vor", "del", "pairs", "v",
    ];

    /// The kernel these settings describe.
    pub fn kernel(&self) -> Result<Kernel, Error> {
        Kernel::from_name(&self.kernel, self.gamma, self.degree, self.coef0)
    }

    /// The SVM parameters these settings describe.
    pub fn svm_params(&self) -> Result<SvmParams, Error> {
        let c = if self.hard_margin {
            f64::INFINITY
        } else {
            self.c
        };
        let params = SvmParams {
            tol: self.tol,
            max_iter: self.svm_max_iter,
            ..SvmParams::new(self.kernel()?, c)
        };
        params.check()?;
        Ok(params)
    }

    pub fn perceptron_params(&self) -> Result<PerceptronParams, Error> {
        let params = PerceptronParams::new(self.kernel()?, self.epochs);
        params.check()?;
        Ok(params)
    }

    pub fn logistic_params(&self) -> Result<LogisticParams, Error> {
        let features = match self.features.as_str() {
            "linear" => Features::Linear,
            "poly" => Features::Polynomial {
                degree: self.degree,
            },
            _ => Features::Rbf { gamma: self.gamma },
        };
        let solver = match self.solver.as_str() {
            "gd" => Solver::GradientDescent {
                learning_rate: self.learning_rate,
            },
            _ => Solver::Newton,
        };
        // Gradient descent stops at a tolerance that is tight for the picture (‖∇J‖ ≤ 10⁻⁵ J(0))
        // rather than Newton's 10⁻⁸, which it would need thousands more steps to reach.
        let tol = match solver {
            Solver::GradientDescent { .. } => 1e-5,
            Solver::Newton => 1e-8,
        };
        let params = LogisticParams {
            solver,
            tol,
            ..LogisticParams::new(features, self.lambda)
        };
        params.check()?;
        Ok(params)
    }

    pub fn knn_params(&self) -> Result<KnnParams, Error> {
        let params = KnnParams {
            k: self.k,
            metric: self.metric,
            weights: self.weights,
        };
        params.check()?;
        Ok(params)
    }

    /// The value of `key` as it is written in the URL.
    pub fn get(&self, key: &str) -> Option<String> {
        let flag = |b: bool| if b { "1" } else { "0" }.to_string();
        Some(match key {
            "model" => self.model.clone(),
            "kernel" => self.kernel.clone(),
            "C" => self.c.to_string(),
            "hard" => flag(self.hard_margin),
            "gamma" => self.gamma.to_string(),
            "degree" => self.degree.to_string(),
            "coef0" => self.coef0.to_string(),
            "tol" => self.tol.to_string(),
            "epochs" => self.epochs.to_string(),
            "lambda" => self.lambda.to_string(),
            "features" => self.features.clone(),
            "solver" => self.solver.clone(),
            "lr" => self.learning_rate.to_string(),
            "k" => self.k.to_string(),
            "metric" => self.metric.name().to_string(),
            "weights" => self.weights.name().to_string(),
            "mc" => self.multiclass.name().to_string(),
            "preset" => self.preset.name().to_string(),
            "n" => self.count.to_string(),
            "noise" => self.noise.to_string(),
            "seed" => self.seed.to_string(),
            "regions" => flag(self.layers.regions),
            "margins" => flag(self.layers.margins),
            "sv" => flag(self.layers.support_vectors),
            "slack" => flag(self.layers.slack),
            "w" => flag(self.layers.w_arrow),
            "vor" => flag(self.layers.voronoi),
            "del" => flag(self.layers.delaunay),
            "pairs" => flag(self.layers.pairwise),
            "v" => "1".to_string(),
            _ => return None,
        })
    }

    /// Sets `key` from its text, checking the range; on error nothing changes.
    pub fn set(&mut self, key: &str, value: &str) -> Result<Effect, Error> {
        let value = value.trim();
        let number = |what: &str| -> Result<f64, Error> {
            let v: f64 = value
                .parse()
                .map_err(|_| Error::Parameter(format!("{what} '{value}' is not a number")))?;
            if v.is_finite() {
                Ok(v)
            } else {
                Err(Error::Parameter(format!("{what} must be a finite number")))
            }
        };
        let positive = |what: &str| -> Result<f64, Error> {
            let v = number(what)?;
            if v > 0.0 {
                Ok(v)
            } else {
                Err(Error::Parameter(format!("{what} <= 0")))
            }
        };
        let whole = |what: &str| -> Result<usize, Error> {
            value
                .parse()
                .map_err(|_| Error::Parameter(format!("{what} '{value}' is not a whole number")))
        };
        let flag = || -> Result<bool, Error> {
            match value {
                "1" | "true" | "on" => Ok(true),
                "0" | "false" | "off" => Ok(false),
                _ => Err(Error::Parameter(format!("{key} must be 0 or 1"))),
            }
        };
        let effect = match key {
            "model" => {
                if !MODELS.contains(&value) {
                    return Err(Error::Parameter(format!(
                        "unknown model '{value}' (use svm, perceptron, logistic or knn)"
                    )));
                }
                self.model = value.into();
                Effect::Refit
            }
            "kernel" => {
                Kernel::from_name(value, 1.0, 1, 0.0)?;
                self.kernel = if value == "polynomial" { "poly" } else { value }.into();
                Effect::Refit
            }
            "C" => {
                self.c = positive("C")?;
                Effect::Refit
            }
            "hard" => {
                self.hard_margin = flag()?;
                Effect::Refit
            }
            "gamma" => {
                self.gamma = positive("gamma")?;
                Effect::Refit
            }
            "degree" => {
                let d: u32 = value.parse().map_err(|_| {
                    Error::Parameter(format!("degree '{value}' is not a whole number"))
                })?;
                if !(1..=10).contains(&d) {
                    return Err(Error::Parameter("degree must be between 1 and 10".into()));
                }
                self.degree = d;
                Effect::Refit
            }
            "coef0" => {
                self.coef0 = number("coef0")?;
                Effect::Refit
            }
            "tol" => {
                self.tol = positive("tol")?;
                Effect::Refit
            }
            "epochs" => {
                let e = whole("max epochs")?;
                if !(1..=10_000).contains(&e) {
                    return Err(Error::Parameter(
                        "max epochs must be between 1 and 10000".into(),
                    ));
                }
                self.epochs = e;
                Effect::Refit
            }
            "lambda" => {
                self.lambda = positive("lambda")?;
                Effect::Refit
            }
            "features" => {
                if !["linear", "poly", "rbf"].contains(&value) {
                    return Err(Error::Parameter(format!(
                        "unknown features '{value}' (use linear, poly or rbf)"
                    )));
                }
                self.features = value.into();
                Effect::Refit
            }
            "solver" => {
                if !["newton", "gd"].contains(&value) {
                    return Err(Error::Parameter(format!(
                        "unknown solver '{value}' (use newton or gd)"
                    )));
                }
                self.solver = value.into();
                Effect::Refit
            }
            "lr" => {
                self.learning_rate = positive("learning rate")?;
                Effect::Refit
            }
            "k" => {
                let k = whole("k")?;
                if !(1..=crate::solvers::knn::MAX_K).contains(&k) {
                    return Err(Error::Parameter(format!(
                        "k must be between 1 and {}",
                        crate::solvers::knn::MAX_K
                    )));
                }
                self.k = k;
                Effect::Refit
            }
            "metric" => {
                self.metric = Metric::from_name(value)?;
                Effect::Refit
            }
            "weights" => {
                self.weights = Weights::from_name(value)?;
                Effect::Refit
            }
            "vor" => {
                self.layers.voronoi = flag()?;
                Effect::Redraw
            }
            "pairs" => {
                self.layers.pairwise = flag()?;
                Effect::Redraw
            }
            "mc" => {
                self.multiclass = Scheme::from_name(value)?;
                Effect::Refit
            }
            "del" => {
                self.layers.delaunay = flag()?;
                Effect::Redraw
            }
            "preset" => {
                self.preset = Preset::from_name(value)?;
                Effect::Regenerate
            }
            "n" => {
                let n: usize = value.parse().map_err(|_| {
                    Error::Parameter(format!("points '{value}' is not a whole number"))
                })?;
                if !(2..=MAX_COUNT).contains(&n) {
                    return Err(Error::Parameter(format!(
                        "points must be between 2 and {MAX_COUNT}"
                    )));
                }
                self.count = n;
                Effect::Regenerate
            }
            "noise" => {
                let v = number("noise")?;
                if !(0.0..=2.0).contains(&v) {
                    return Err(Error::Parameter("noise must be between 0 and 2".into()));
                }
                self.noise = v;
                Effect::Regenerate
            }
            "seed" => {
                self.seed = value.parse().map_err(|_| {
                    Error::Parameter(format!("seed '{value}' is not a whole number"))
                })?;
                Effect::Regenerate
            }
            "regions" => {
                self.layers.regions = flag()?;
                Effect::Redraw
            }
            "margins" => {
                self.layers.margins = flag()?;
                Effect::Redraw
            }
            "sv" => {
                self.layers.support_vectors = flag()?;
                Effect::Redraw
            }
            "slack" => {
                self.layers.slack = flag()?;
                Effect::Redraw
            }
            "w" => {
                self.layers.w_arrow = flag()?;
                Effect::Redraw
            }
            "v" => Effect::Redraw,
            _ => return Err(Error::Parameter(format!("unknown setting '{key}'"))),
        };
        Ok(effect)
    }

    /// The URL hash (without '#') for these settings and, if given, explicit points.
    pub fn to_hash(&self, points: Option<&Dataset>) -> String {
        let mut parts: Vec<String> = Self::KEYS
            .iter()
            .map(|k| format!("{k}={}", self.get(k).unwrap_or_default()))
            .collect();
        if let Some(data) = points {
            let encoded: Vec<String> = data
                .points
                .iter()
                .zip(&data.labels)
                .map(|(p, l)| format!("{},{},{}", p[0], p[1], l))
                .collect();
            parts.push(format!("points={}", encoded.join(";")));
        }
        parts.join("&")
    }

    /// Reads a hash written by [`Settings::to_hash`] (a leading '#' is fine). Unknown keys are
    /// ignored; a bad value keeps its default and adds a warning, so a damaged link still opens.
    pub fn from_hash(hash: &str) -> (Settings, Option<Dataset>, Vec<String>) {
        let mut settings = Settings::default();
        let mut warnings = Vec::new();
        let mut points = None;
        let hash = hash.trim_start_matches('#');
        for part in hash.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let value = percent_decode(value);
            if key == "points" {
                match decode_points(&value) {
                    Ok(data) => points = Some(data),
                    Err(e) => warnings.push(e.to_string()),
                }
            } else if Self::KEYS.contains(&key) {
                if let Err(e) = settings.set(key, &value) {
                    warnings.push(format!("{key}: {e}"));
                }
            }
        }
        (settings, points, warnings)
    }
}

fn decode_points(text: &str) -> Result<Dataset, Error> {
    let mut data = Dataset::new();
    for (i, row) in text.split(';').filter(|r| !r.is_empty()).enumerate() {
        let bad = || Error::State(format!("point {} ('{row}') is not x,y,label", i + 1));
        let fields: Vec<&str> = row.split(',').collect();
        if fields.len() != 3 {
            return Err(bad());
        }
        let x: f64 = fields[0].parse().map_err(|_| bad())?;
        let y: f64 = fields[1].parse().map_err(|_| bad())?;
        let label: i32 = fields[2].parse().map_err(|_| bad())?;
        data.push([x, y], label).map_err(|_| bad())?;
    }
    Ok(data)
}

/// Undoes the escaping browsers apply to a hash (%2C for ',' and the like).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_survives_the_url() {
        let mut s = Settings::default();
        for (k, v) in [
            ("kernel", "poly"),
            ("C", "0.0123"),
            ("hard", "1"),
            ("gamma", "123.5"),
            ("degree", "7"),
            ("coef0", "-0.25"),
            ("preset", "rings"),
            ("n", "321"),
            ("noise", "0.35"),
            ("seed", "99"),
            ("margins", "0"),
            ("slack", "0"),
        ] {
            s.set(k, v).unwrap();
        }
        let mut data = Dataset::new();
        data.push([0.1234, -0.9876], 0).unwrap();
        data.push([1.5, 2.0], 1).unwrap();
        let hash = s.to_hash(Some(&data));
        let (back, points, warnings) = Settings::from_hash(&format!("#{hash}"));
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(back, s);
        assert_eq!(points.unwrap(), data);
        let (_, none, _) = Settings::from_hash(&s.to_hash(None));
        assert!(none.is_none());
    }

    #[test]
    fn damaged_links_open_with_warnings() {
        let (s, points, warnings) = Settings::from_hash("C=-1&gamma=abc&kernel=rbf&points=1,2");
        assert_eq!(s.c, Settings::default().c);
        assert_eq!(s.gamma, Settings::default().gamma);
        assert!(points.is_none());
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0].contains("C <= 0"));
    }

    #[test]
    fn escaped_hashes_decode() {
        let (_, points, warnings) = Settings::from_hash("points=0.5%2C-0.25%2C1%3B0%2C0%2C0");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(points.unwrap().points, vec![[0.5, -0.25], [0.0, 0.0]]);
    }

    #[test]
    fn range_checks() {
        let mut s = Settings::default();
        assert!(s.set("degree", "11").is_err());
        assert!(s.set("n", "1").is_err());
        assert!(s.set("gamma", "0").is_err());
        assert!(s.set("kernel", "cubic").is_err());
        assert!(s.set("C", "inf").is_err());
        assert_eq!(s, Settings::default());
        assert_eq!(s.set("C", "1e4").unwrap(), Effect::Refit);
        assert_eq!(s.set("noise", "0").unwrap(), Effect::Regenerate);
        assert_eq!(s.set("regions", "0").unwrap(), Effect::Redraw);
    }
}

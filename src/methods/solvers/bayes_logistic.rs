//! Bayesian logistic regression in the Laplace approximation: a distribution over models
//! rather than one.
//!
//! The model is logistic regression's, p(y = +1 | x, w) = σ(wᵀφ̃(x)) on φ̃ = (φ(x), 1), with
//! the same features φ (linear, polynomial of degree d, RBF bumps: `logistic::FeatureMap`),
//! and a Gaussian prior N(0, λ⁻¹I) on every weight, the bias included, so that the evidence
//! below is that of a proper prior. With D = dim φ̃ weights:
//!
//! ```text
//!     w_MAP = argmax  log p(D | w) + log N(w; 0, λ⁻¹I)          (Newton, as logistic's)
//!     H     = λI + Σ_i o_i(1 − o_i) φ̃_i φ̃_iᵀ,   o_i = σ(w_MAPᵀφ̃_i)
//!     p(w | D) ≈ N(w_MAP, H⁻¹)                                   (Laplace)
//!
//!     log p(D) ≈ log p(D | w_MAP) + log N(w_MAP; 0, λ⁻¹I) + (D/2) log 2π − ½ log|H|
//!     occam    = log N(w_MAP; 0, λ⁻¹I) + (D/2) log 2π − ½ log|H|
//!              = (D/2) log λ − (λ/2)‖w_MAP‖² − ½ log|H|
//! ```
//!
//! `occam` is what this module reports as the Occam factor: the last three terms together,
//! i.e. log-evidence − log p(D | w_MAP), the log of the factor by which the best fit's
//! likelihood is discounted for the volume of weights the prior allowed and the data ruled out
//! (always ≤ 0 here once the data say anything).
//!
//! BIC, the notes' quick-and-dirty evidence, is log p(D | w_ML) − (D/2) log n with the
//! unregularised maximum-likelihood w_ML (Newton with λ = 0). Where the points are separable
//! in the features, an iterate of that Newton run separates them (which proves it) and the
//! likelihood has no maximum: w_ML does not exist and BIC is reported as null with the
//! reason; likewise when the run does not converge or the likelihood is flat in some direction
//! (Φ̃ᵀΦ̃, or the Hessian where the run ends, with its smallest eigenvalue below 10⁻¹² of its
//! largest: more weights than the points can fix, or nearly separable points).
//!
//! Predictions average over the posterior by the probit approximation: with the activation
//! a = wᵀφ̃ ~ N(μ_a, σ_a²), μ_a = w_MAPᵀφ̃, σ_a² = φ̃ᵀH⁻¹φ̃,
//!
//! ```text
//!     p(y = +1 | x, D) ≈ σ(κ(σ_a²) μ_a),   κ(s) = (1 + πs/8)^(−½).
//! ```
//!
//! The decision value f(x) is κ μ_a, the log-odds of that predictive probability, so the
//! plane's probability shading and contours show the band widening away from the data, where
//! σ_a grows; its sign is μ_a's, so the predicted class is the MAP model's. The plane also
//! shows [`SAMPLES`] boundaries wᵀφ̃(x) = 0 of weights drawn from N(w_MAP, H⁻¹)
//! (w = w_MAP + L⁻ᵀz with H = LLᵀ and z ~ N(0, I) from a fixed seed, so they move smoothly as
//! the points do).

use crate::core::data::{gaussian, Dataset, Point};
use crate::core::error::Error;
use crate::core::field::{Field, Grid, Smoothness};
use crate::core::params::Values;
use crate::core::plane::{Curve, CurveKind, Scene, Shading};
use crate::core::sklearn::{shown, Counterpart};
use crate::methods::model::{
    Context, ExitReason, Fact, FactValue, FitOptions, FitReport, Level, Method, Model, WarmStart,
    PROBABILITY_LEVELS,
};
use crate::methods::solvers::logistic::{
    feature_steps, newton, sigmoid, FeatureMap, Features, LogisticParams, Prior, MAX_CENTRES,
};
use nalgebra::{DMatrix, DVector};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// How many boundaries are drawn from the posterior.
pub const SAMPLES: usize = 8;

/// The seed of the posterior draws: fixed, so the drawn boundaries follow the data smoothly.
const SAMPLE_SEED: u64 = 8;

/// Newton stops when ‖∇J‖ ≤ this · max(1, n log 2), far below what the pictures and the
/// fixtures' 10⁻⁶ need.
const TOL: f64 = 1e-12;

/// The iteration cap of the MAP's Newton run.
const MAX_ITER: usize = 200;

/// The cap without the prior: Newton needs a few dozen iterations where w_ML exists, and
/// nearly separable points, where it does not, would take every one of them.
const MAX_ITER_ML: usize = 50;

/// The most sampled-boundary grid nodes per side (in a draft of level k, 1/(k + 1) as many
/// intervals, as the picture's own grid has).
const SAMPLE_GRID: usize = 121;

/// Logistic regression's features with the prior precision λ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BayesLogisticParams {
    pub features: Features,
    /// λ > 0: the prior N(0, λ⁻¹I) on every weight.
    pub lambda: f64,
}

impl BayesLogisticParams {
    pub fn from_values(values: &Values) -> Result<BayesLogisticParams, Error> {
        let params = BayesLogisticParams {
            features: Features::from_values(values),
            lambda: values.real("lambda"),
        };
        params.check()?;
        Ok(params)
    }

    /// Logistic regression's checks of λ and the features.
    pub fn check(&self) -> Result<(), Error> {
        LogisticParams::new(self.features, self.lambda).check()
    }
}

/// BIC, or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub enum Bic {
    /// log p(D | w_ML) − (D/2) log n.
    Value(f64),
    /// w_ML does not exist (or Newton could not find it), and why.
    Undefined(String),
}

/// A fitted Bayesian logistic regression.
#[derive(Clone, Debug)]
pub struct BayesLogisticModel {
    pub classes: [i32; 2],
    pub map: FeatureMap,
    pub lambda: f64,
    /// w_MAP: the feature weights in the feature map's order, then the bias.
    pub w_map: Vec<f64>,
    /// H⁻¹, the posterior covariance (D × D).
    pub posterior_cov: DMatrix<f64>,
    /// log p(D | w_MAP).
    pub log_likelihood: f64,
    /// log|H|.
    pub log_det_hessian: f64,
    /// log N(w_MAP; 0, λ⁻¹I) + (D/2) log 2π − ½ log|H|.
    pub occam: f64,
    /// log p(D | w_MAP) + occam.
    pub log_evidence: f64,
    pub bic: Bic,
    /// Weights drawn from N(w_MAP, H⁻¹), the bias last.
    pub samples: Vec<Vec<f64>>,
    pub report: FitReport,
}

/// κ(s) = (1 + πs/8)^(−½).
pub fn kappa(variance: f64) -> f64 {
    (1.0 + std::f64::consts::PI * variance / 8.0).sqrt().recip()
}

impl BayesLogisticModel {
    pub fn fit(
        points: &[Point],
        labels: &[i32],
        params: &BayesLogisticParams,
    ) -> Result<BayesLogisticModel, Error> {
        Self::fit_keeping(points, labels, params, &mut KeptBic::default())
    }

    /// [`BayesLogisticModel::fit`], with BIC taken from `kept` when it was computed for the
    /// same points, labels and features (it does not depend on λ), and kept there otherwise.
    pub fn fit_keeping(
        points: &[Point],
        labels: &[i32],
        params: &BayesLogisticParams,
        kept: &mut KeptBic,
    ) -> Result<BayesLogisticModel, Error> {
        params.check()?;
        let data = Dataset::from_parts(points.to_vec(), labels.to_vec());
        let (classes, y) = data.binary_targets()?;
        let map = FeatureMap::new(params.features, points);
        let lambda = params.lambda;
        let solution = newton(&map, points, &y, lambda, Prior::Everything, TOL, MAX_ITER)?;
        let d = solution.theta.len();
        let chol = solution.hessian.clone().cholesky().ok_or_else(|| {
            Error::Parameter("the posterior's Hessian is not positive definite".into())
        })?;
        let l = chol.l();
        let log_det_hessian = 2.0 * l.diagonal().iter().map(|v| v.ln()).sum::<f64>();
        let w2 = solution.theta.norm_squared();
        let tau = std::f64::consts::TAU;
        let log_prior = 0.5 * d as f64 * (lambda / tau).ln() - 0.5 * lambda * w2;
        let occam = log_prior + 0.5 * d as f64 * tau.ln() - 0.5 * log_det_hessian;
        let posterior_cov = chol.inverse();
        let mut rng = StdRng::seed_from_u64(SAMPLE_SEED);
        let samples = (0..SAMPLES)
            .map(|_| {
                let z = DVector::from_fn(d, |_, _| gaussian(&mut rng));
                let offset = l.tr_solve_lower_triangular(&z).unwrap_or(z);
                (&solution.theta + offset).iter().copied().collect()
            })
            .collect();
        let bic = match &kept.0 {
            Some(k)
                if k.features == params.features && k.points == points && k.labels == labels =>
            {
                k.bic.clone()
            }
            _ => {
                let bic = bic(&map, points, &y);
                kept.0 = Some(BicOf {
                    features: params.features,
                    points: points.to_vec(),
                    labels: labels.to_vec(),
                    bic: bic.clone(),
                });
                bic
            }
        };
        Ok(BayesLogisticModel {
            bic,
            classes,
            lambda,
            w_map: solution.theta.iter().copied().collect(),
            posterior_cov,
            log_likelihood: solution.log_likelihood,
            log_det_hessian,
            occam,
            log_evidence: solution.log_likelihood + occam,
            samples,
            report: FitReport {
                iterations: solution.iterations,
                exit: if solution.converged {
                    ExitReason::Converged
                } else {
                    ExitReason::IterationCap
                },
                objective: -solution.log_likelihood + 0.5 * lambda * w2,
                warm_start: false,
            },
            map,
        })
    }

    /// φ̃(x) = (φ(x), 1) into `out`, which holds at least D values; returns D.
    fn expand(&self, x: Point, out: &mut [f64]) -> usize {
        let p = self.map.len();
        self.map.expand(x, &mut out[..p]);
        out[p] = 1.0;
        p + 1
    }

    /// (μ_a, σ_a²) at x.
    pub fn activation(&self, x: Point) -> (f64, f64) {
        let mut phi = [0.0; MAX_CENTRES + 1];
        let d = self.expand(x, &mut phi);
        let phi = &phi[..d];
        let mean = phi.iter().zip(&self.w_map).map(|(a, b)| a * b).sum();
        // φ̃ᵀH⁻¹φ̃ from the upper triangle of the symmetric H⁻¹ (column-major): each column j
        // gives φ_j (2 Σ_{i<j} C_ij φ_i + C_jj φ_j), half the products of the full form.
        let cov = self.posterior_cov.as_slice();
        let mut variance = 0.0;
        for (j, &phi_j) in phi.iter().enumerate() {
            let column = &cov[j * d..j * d + j];
            let above: f64 = column.iter().zip(phi).map(|(c, p)| c * p).sum();
            variance += phi_j * (2.0 * above + cov[j * d + j] * phi_j);
        }
        (mean, variance.max(0.0))
    }

    /// The MAP model's σ(w_MAPᵀφ̃(x)).
    pub fn map_probability(&self, x: Point) -> f64 {
        sigmoid(self.activation(x).0)
    }

    /// The predictive p(y = positive class | x, D) ≈ σ(κ(σ_a²) μ_a).
    pub fn predictive(&self, x: Point) -> f64 {
        sigmoid(self.decision_value(x))
    }

    /// (w, b) of the MAP model when the features are the inputs themselves.
    fn w(&self) -> Option<[f64; 2]> {
        (self.map.features == Features::Linear).then(|| [self.w_map[0], self.w_map[1]])
    }

    /// The sampled boundaries wᵀφ̃ = 0, contoured on a grid over `grid`'s view, as fine as
    /// `grid` and at most [`SAMPLE_GRID`] nodes a side, or that cap's share in a draft.
    fn sample_curves(&self, grid: &Grid, draft: u8) -> Vec<Curve> {
        let most = (SAMPLE_GRID - 1) / (draft as usize + 1) + 1;
        let nodes = grid.cols.min(most).max(2);
        let coarse = Grid::new(grid.view, nodes, nodes);
        // Each node's features once, then every sample's value there.
        let mut values = vec![vec![0.0; nodes * nodes]; self.samples.len()];
        let mut phi = [0.0; MAX_CENTRES + 1];
        for row in 0..nodes {
            for col in 0..nodes {
                let d = self.expand(coarse.node(row, col), &mut phi);
                for (sample, out) in self.samples.iter().zip(values.iter_mut()) {
                    out[row * nodes + col] = phi[..d].iter().zip(sample).map(|(a, b)| a * b).sum();
                }
            }
        }
        let mut curves = Vec::new();
        for out in &values {
            let field = Field::exact(coarse, &|row, col| out[row * nodes + col]);
            for points in crate::core::contour::level_curves(&field, 0.0) {
                curves.push(Curve {
                    points,
                    kind: CurveKind::Sample,
                    label: None,
                });
            }
        }
        curves
    }
}

/// Why a flat likelihood has no w_ML.
const FLAT: &str = "the likelihood is flat along some direction of the weights (more weights \
                    than the points can fix, or nearly separable points), so w_ML is not \
                    determined";

/// Whether a positive semi-definite matrix's smallest eigenvalue is below 10⁻¹² of its
/// largest (or not a number at all).
fn flat(matrix: DMatrix<f64>) -> bool {
    let eigenvalues = matrix.symmetric_eigenvalues();
    let (smallest, largest) = (eigenvalues.min(), eigenvalues.max());
    smallest.is_nan() || smallest <= 1e-12 * largest
}

/// What a Bayesian logistic regression keeps between fits: BIC with the features, points and
/// labels it was computed for. BIC needs the unregularised fit (a second Newton run) but not
/// λ: a step of the λ slider then costs the MAP's run alone, and BIC is the same number.
#[derive(Debug, Default)]
pub struct KeptBic(Option<BicOf>);

/// BIC and the features, points and labels it belongs to.
#[derive(Debug, PartialEq)]
struct BicOf {
    features: Features,
    points: Vec<Point>,
    labels: Vec<i32>,
    bic: Bic,
}

impl WarmStart for KeptBic {
    fn point_moved(&mut self, _index: usize, _points: &[Point]) {
        // The next fit compares the points.
    }
    fn forget(&mut self) {}
    fn data_replaced(&mut self) {
        self.0 = None;
    }
    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// BIC from the unregularised fit, or why it does not exist.
fn bic(map: &FeatureMap, points: &[Point], y: &[f64]) -> Bic {
    // Φ̃ᵀΦ̃ nearly singular: some direction of the weights changes no f(x_i), so the
    // likelihood is flat along it whatever the labels (checked first: Newton would crawl).
    let d = map.len() + 1;
    let mut gram = DMatrix::zeros(d, d);
    let mut phi = DVector::zeros(d);
    for &x in points {
        map.expand(x, &mut phi.as_mut_slice()[..d - 1]);
        phi[d - 1] = 1.0;
        gram.ger(1.0, &phi, &phi, 1.0);
    }
    if flat(gram) {
        return Bic::Undefined(FLAT.into());
    }
    let ml = match newton(map, points, y, 0.0, Prior::Everything, TOL, MAX_ITER_ML) {
        Ok(ml) => ml,
        Err(e) => return Bic::Undefined(e.to_string()),
    };
    if ml.separated {
        return Bic::Undefined(
            "the points are separable in these features, so the likelihood has no maximum \
             (w_ML is at infinity)"
                .into(),
        );
    }
    if !ml.converged || !ml.log_likelihood.is_finite() {
        return Bic::Undefined(format!(
            "Newton without the prior did not converge in {} iterations: the points are \
             nearly separable in these features",
            ml.iterations
        ));
    }
    if flat(ml.hessian) {
        return Bic::Undefined(FLAT.into());
    }
    let d = ml.theta.len() as f64;
    Bic::Value(ml.log_likelihood - 0.5 * d * (points.len() as f64).ln())
}

impl Model for BayesLogisticModel {
    fn classes(&self) -> &[i32] {
        &self.classes
    }

    /// κ(σ_a²) μ_a: the log-odds of the predictive probability.
    fn decision_value(&self, x: Point) -> f64 {
        let (mean, variance) = self.activation(x);
        kappa(variance) * mean
    }

    fn probabilities(&self, x: Point) -> Option<Vec<f64>> {
        let p = self.predictive(x);
        Some(vec![1.0 - p, p])
    }

    /// The boundary and the predictive probability's contours p = 0.1, 0.25, 0.75, 0.9.
    fn levels(&self) -> Vec<Level> {
        Level::probabilities(&PROBABILITY_LEVELS)
    }

    fn shading(&self) -> Shading {
        Shading::Probability
    }

    fn smoothness(&self) -> Smoothness {
        self.map.smoothness()
    }

    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        scene
            .curves
            .extend(self.sample_curves(&context.grid, context.draft));
    }

    fn facts(&self, _data: &Dataset) -> Vec<Fact> {
        let mut facts = vec![
            Fact::new("log_evidence", "log evidence", self.log_evidence),
            Fact::new("occam", "Occam factor", self.occam),
        ];
        match &self.bic {
            Bic::Value(v) => facts.push(Fact::new("bic", "BIC", *v)),
            Bic::Undefined(why) => {
                facts.push(Fact::data("bic", FactValue::Null));
                facts.push(Fact::new(
                    "bic_message",
                    "BIC: none,",
                    format!("no w_ML: {why}"),
                ));
            }
        }
        if let Some(w) = self.w() {
            facts.push(Fact::new("w", "w_MAP =", w));
        }
        let d = self.w_map.len();
        facts.extend([
            Fact::new("bias", "b_MAP =", self.w_map[d - 1]).inside(),
            Fact::new("log_likelihood", "log p(D | w_MAP) =", self.log_likelihood).inside(),
            Fact::new("log_det_hessian", "log|H| =", self.log_det_hessian).inside(),
            Fact::new("weights", "weights D =", d).inside(),
            Fact::new("iterations", "Newton iterations", self.report.iterations)
                .with_note(if self.report.exit == ExitReason::Converged {
                    ""
                } else {
                    "(not converged)"
                })
                .inside(),
            Fact::new("features", "", self.map.features.name()),
            Fact::data("feature_names", self.map.names()),
            Fact::data("lambda", self.lambda),
            Fact::data("w_map", self.w_map.clone()),
            Fact::data(
                "posterior_cov",
                self.posterior_cov
                    .row_iter()
                    .map(|row| row.iter().copied().collect())
                    .collect::<Vec<Vec<f64>>>(),
            ),
        ]);
        facts
    }

    /// The predictive probability, the MAP model's, and how unsure the activation is.
    fn facts_at(&self, x: Point) -> Vec<Fact> {
        let (mean, variance) = self.activation(x);
        vec![
            Fact::new(
                "predictive",
                "p(class 2 | x) =",
                sigmoid(kappa(variance) * mean),
            ),
            Fact::new("probability", "MAP σ(w_MAPᵀφ̃) =", sigmoid(mean)),
            Fact::new("sigma_a", "σ_a =", variance.sqrt()),
        ]
    }

    fn message(&self) -> Option<String> {
        (self.report.exit != ExitReason::Converged).then(|| {
            format!(
                "Newton stopped after {} iterations before converging",
                self.report.iterations
            )
        })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The registry entry.
pub struct BayesLogisticMethod;

impl Method for BayesLogisticMethod {
    fn id(&self) -> &'static str {
        "bayeslogistic"
    }

    fn title(&self) -> &'static str {
        "Bayesian logistic regression (Laplace)"
    }

    fn explain(&self) -> &'static str {
        "Logistic regression with the prior N(0, λ⁻¹I) on the weights, its posterior \
         approximated by N(w_MAP, H⁻¹): the predictive probability is less sure away from the \
         data, and the evidence p(D) scores the model."
    }

    fn params(&self) -> &'static [&'static str] {
        &["features", "lambda", "gamma", "degree"]
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["lambda", "gamma", "degree"]
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        let params = BayesLogisticParams::from_values(values)?;
        let mut own = KeptBic::default();
        let kept = match options
            .warm
            .and_then(|w| w.as_any().downcast_mut::<KeptBic>())
        {
            Some(kept) => kept,
            None => &mut own,
        };
        Ok(Box::new(BayesLogisticModel::fit_keeping(
            &data.points,
            &data.labels,
            &params,
            kept,
        )?))
    }

    /// BIC, kept while only λ changes.
    fn warm_start(&self) -> Option<Box<dyn WarmStart>> {
        Some(Box::new(KeptBic::default()))
    }

    fn sklearn(&self, values: &Values, _data: &Dataset) -> Counterpart {
        let (_, feature_lines) = feature_steps(values);
        Counterpart::missing(
            "scikit-learn has no Bayesian logistic regression: no Laplace posterior, \
             predictive probability σ(κμ) or evidence. Its nearest is LogisticRegression(C=1/λ) \
             after the same features, whose weights are the lab's w_MAP but for the bias, which \
             the lab's prior shrinks too",
        )
        .map(
            "lambda",
            format!(
                "{} → the prior N(0, λ⁻¹I) on every weight; LogisticRegression's C = 1/λ \
                 leaves the bias free",
                shown(values, "lambda")
            ),
        )
        .map_all(feature_lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;

    fn fitted(data: &Dataset, features: Features, lambda: f64) -> BayesLogisticModel {
        BayesLogisticModel::fit(
            &data.points,
            &data.labels,
            &BayesLogisticParams { features, lambda },
        )
        .unwrap()
    }

    #[test]
    fn bic_is_kept_across_lambda_and_computed_again_for_other_points() {
        let mut data = Preset::Overlapping.generate(60, 0.3, 2);
        let features = Features::Polynomial { degree: 2 };
        let mut kept = KeptBic::default();
        let mut fit = |data: &Dataset, lambda: f64| {
            let params = BayesLogisticParams { features, lambda };
            BayesLogisticModel::fit_keeping(&data.points, &data.labels, &params, &mut kept).unwrap()
        };
        let first = fit(&data, 0.1);
        let second = fit(&data, 1.0);
        assert!(matches!(first.bic, Bic::Value(_)), "{:?}", first.bic);
        assert_eq!(second.bic, first.bic);
        assert_eq!(second.w_map, fitted(&data, features, 1.0).w_map);
        // A moved point: BIC of the new points, as a fit from nothing finds it.
        data.points[7] = [2.5, -1.5];
        let moved = fit(&data, 1.0);
        assert_ne!(moved.bic, first.bic);
        assert_eq!(moved.bic, fitted(&data, features, 1.0).bic);
    }

    #[test]
    fn the_predictive_band_widens_away_from_the_data() {
        let data = Preset::Overlapping.generate(60, 0.2, 3);
        let model = fitted(&data, Features::Linear, 0.1);
        // Along the boundary's normal, from the data outwards: σ_a grows, so the predictive
        // probability is pulled towards ½ (never across it), and ever more: the MAP log-odds
        // grows like t while the predictive one levels off at μ_a/√(πσ_a²/8).
        let w = [model.w_map[0], model.w_map[1]];
        let at = |t: f64| [t * w[0], t * w[1]];
        let mut spread = 0.0;
        for t in [1.0, 2.0, 8.0, 32.0, 100.0, 1000.0] {
            let (map, predictive) = (model.map_probability(at(t)), model.predictive(at(t)));
            assert!((predictive - 0.5).abs() <= (map - 0.5).abs(), "t = {t}");
            assert_eq!(predictive > 0.5, map > 0.5, "t = {t}");
            let variance = model.activation(at(t)).1;
            assert!(variance > spread, "t = {t}");
            spread = variance;
        }
        let map_growth = model.activation(at(1000.0)).0 / model.activation(at(100.0)).0;
        let predictive_growth = model.decision_value(at(1000.0)) / model.decision_value(at(100.0));
        assert!((map_growth - 10.0).abs() < 0.5, "{map_growth}");
        assert!((predictive_growth - 1.0).abs() < 0.1, "{predictive_growth}");
    }

    #[test]
    fn separable_points_have_no_bic_and_say_why() {
        let data = Preset::Separable.generate(40, 0.1, 1);
        let model = fitted(&data, Features::Linear, 0.1);
        match &model.bic {
            Bic::Undefined(why) => assert!(why.contains("separable"), "{why}"),
            other => panic!("{other:?}"),
        }
        let facts = model.facts(&data);
        let bic = facts.iter().find(|f| f.key == "bic").unwrap();
        assert_eq!(bic.value, FactValue::Null);
        assert!(facts
            .iter()
            .any(|f| f.key == "bic_message" && !f.label.is_empty()));
        // Overlapping points have a w_ML, and BIC is below the fit's log-likelihood.
        let overlapping = fitted(
            &Preset::Overlapping.generate(60, 0.3, 2),
            Features::Linear,
            0.1,
        );
        match overlapping.bic {
            Bic::Value(v) => assert!(v < overlapping.log_likelihood + 1.0, "{v}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_sampled_boundaries_come_from_the_posterior() {
        let data = Preset::Moons.generate(60, 0.2, 5);
        let model = fitted(&data, Features::Polynomial { degree: 3 }, 0.5);
        assert_eq!(model.samples.len(), SAMPLES);
        // Each draw is w_MAP + L⁻ᵀz: its Mahalanobis distance (w − w_MAP)ᵀH(w − w_MAP) = ‖z‖²,
        // a χ² with D degrees of freedom, so none lies absurdly far (D = 10: < 60 always in
        // practice) and none sits on w_MAP itself.
        let d = model.w_map.len();
        let h = model.posterior_cov.clone().try_inverse().unwrap();
        for sample in &model.samples {
            let v = DVector::from_iterator(d, sample.iter().zip(&model.w_map).map(|(s, m)| s - m));
            let distance = v.dot(&(&h * &v));
            assert!(distance > 0.1 && distance < 60.0, "{distance}");
        }
        let grid = Grid::new(crate::core::field::View::around(&data.points), 120, 120);
        let curves = model.sample_curves(&grid, 0);
        assert!(curves.len() >= SAMPLES, "{}", curves.len());
        assert!(curves.iter().all(|c| c.kind == CurveKind::Sample));
    }

    #[test]
    fn a_draft_contours_the_same_sampled_boundaries_on_a_coarser_grid() {
        let data = Preset::Moons.generate(60, 0.2, 5);
        let model = fitted(&data, Features::Polynomial { degree: 3 }, 0.5);
        let view = crate::core::field::View::around(&data.points);
        let grid = Grid::new(view, 301, 301);
        let vertices = |curves: &[Curve]| curves.iter().map(|c| c.points.len()).sum::<usize>();
        let full = model.sample_curves(&grid, 0);
        let draft = model.sample_curves(&grid, 2);
        // 121 nodes a side in full, 41 in the draft: about a third of the vertices.
        assert!(
            3 * vertices(&draft) < vertices(&full) + vertices(&full) / 2,
            "{} of {}",
            vertices(&draft),
            vertices(&full)
        );
        // Every draft vertex lies on a sampled boundary: within a coarse interval of the full
        // picture's curve of one of the samples.
        let spacing = (view.x_max - view.x_min) / 40.0;
        let near = |p: &Point| {
            full.iter()
                .flat_map(|c| &c.points)
                .any(|q| (p[0] - q[0]).hypot(p[1] - q[1]) < spacing)
        };
        assert!(draft.iter().flat_map(|c| &c.points).all(near));
    }
}

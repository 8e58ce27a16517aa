//! A fitted model of any method, and what each method reports in the status line and the hover
//! readout: the SVM its support vectors, dual objective and margin width; the perceptron its
//! mistakes, epochs and Novikoff's bound; logistic regression its log loss and probabilities;
//! k-nearest neighbours its vote shares. What each adds to the picture is in [`crate::picture`].

use crate::data::{Dataset, Point};
use crate::error::Error;
use crate::model::{Classifier, ExitReason};
use crate::multiclass::{argmax, Multiclass, Scheme, MAX_CLASSES};
use crate::picture::support_marks;
use crate::scene::Mark;
use crate::solvers::knn::KnnModel;
use crate::solvers::logistic::{sigmoid, LogisticModel, LogisticParams};
use crate::solvers::perceptron::{PerceptronModel, PerceptronParams};
use crate::solvers::svm::{AlphaStatus, SvmModel, SvmTrainer};
use crate::state::Settings;
use serde::Serialize;

/// The probabilities whose contours logistic regression shows besides p = ½.
pub const PROBABILITY_LEVELS: [f64; 4] = [0.1, 0.25, 0.75, 0.9];

/// The numbers of the status line (what does not apply is `None`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Status {
    pub model: String,
    pub points: usize,
    pub classes: usize,
    pub train_accuracy: Option<f64>,
    pub support: usize,
    pub free: usize,
    pub bound: usize,
    pub objective: Option<f64>,
    pub iterations: Option<usize>,
    pub converged: Option<bool>,
    pub warm_start: Option<bool>,
    pub bias: Option<f64>,
    pub w: Option<[f64; 2]>,
    pub margin_width: Option<f64>,
    pub mistakes: Option<usize>,
    pub epochs: Option<usize>,
    pub novikoff_bound: Option<f64>,
    pub log_loss: Option<f64>,
    pub k: Option<usize>,
    /// More than two classes: "ovo" or "ovr", and how many two-class models.
    pub scheme: Option<String>,
    pub members: Option<usize>,
    /// Updates shown when stepping through a run.
    pub steps: Option<usize>,
    /// What the person should know: why nothing is fitted, or why the fit is not to be trusted.
    pub message: Option<String>,
}

/// What is under the pointer.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Inspection {
    pub x: f64,
    pub y: f64,
    /// f at (x, y) for two-class models.
    pub decision: Option<f64>,
    /// p(positive class | x), logistic regression.
    pub probability: Option<f64>,
    /// The predicted label there.
    pub predicted: Option<i32>,
    /// The k-NN vote shares, in class order.
    pub votes: Option<Vec<f64>>,
    /// The training point under the pointer, if any.
    pub index: Option<usize>,
    pub label: Option<i32>,
    /// y_i ∈ {−1, +1}.
    pub target: Option<f64>,
    /// α_i (SVM multiplier, or perceptron mistake count).
    pub alpha: Option<f64>,
    /// y_i f(x_i).
    pub margin: Option<f64>,
    pub slack: Option<f64>,
    /// The KKT case in words.
    pub case: Option<String>,
}

/// A fitted model.
#[derive(Clone, Debug)]
pub enum Fitted {
    Svm(SvmModel),
    Perceptron(PerceptronModel),
    Logistic(LogisticModel),
    Knn(KnnModel),
    /// More than two classes from two-class models (one-versus-one or one-versus-rest).
    Multi(Box<Multiclass>),
}

impl Fitted {
    /// Fits the method the settings name. `steps` limits a perceptron run to that many
    /// updates, or logistic regression to that many iterations (stepping through a run).
    pub fn fit(
        settings: &Settings,
        data: &Dataset,
        trainer: &mut SvmTrainer,
        steps: Option<usize>,
    ) -> Result<Fitted, Error> {
        let (points, labels) = (&data.points, &data.labels);
        let classes = data.classes().len();
        if classes > MAX_CLASSES {
            return Err(Error::TooManyClasses {
                found: classes,
                max: MAX_CLASSES,
            });
        }
        if classes > 2 && settings.model != "knn" {
            let scheme = match settings.model.as_str() {
                "svm" => settings.multiclass,
                _ => Scheme::OneVsRest,
            };
            let multi = Multiclass::fit(data, scheme, |pair| {
                Fitted::fit(settings, pair, &mut SvmTrainer::new(), None)
            })?;
            return Ok(Fitted::Multi(Box::new(multi)));
        }
        Ok(match settings.model.as_str() {
            "perceptron" => {
                let params = PerceptronParams {
                    max_updates: steps,
                    ..settings.perceptron_params()?
                };
                Fitted::Perceptron(PerceptronModel::fit(points, labels, &params)?)
            }
            "logistic" => {
                let params = LogisticParams {
                    max_iter: steps,
                    ..settings.logistic_params()?
                };
                Fitted::Logistic(LogisticModel::fit(points, labels, &params)?)
            }
            "knn" => {
                let model = KnnModel::fit(points, labels, &settings.knn_params()?)?;
                if model.classes().len() < 2 {
                    return Err(Error::OneClass);
                }
                Fitted::Knn(model)
            }
            _ => Fitted::Svm(trainer.fit(points, labels, &settings.svm_params()?)?),
        })
    }

    /// The two-class decision function, for the methods that have one.
    pub(crate) fn classifier(&self) -> Option<&dyn Classifier> {
        match self {
            Fitted::Svm(m) => Some(m),
            Fitted::Perceptron(m) => Some(m),
            Fitted::Logistic(m) => Some(m),
            Fitted::Knn(_) | Fitted::Multi(_) => None,
        }
    }

    /// Whether the model tells more than two classes apart.
    pub fn is_multiclass(&self) -> bool {
        match self {
            Fitted::Knn(m) => m.classes().len() > 2,
            Fitted::Multi(_) => true,
            _ => false,
        }
    }

    /// One score per class (k-NN: vote shares; one-versus-one: votes; one-versus-rest: each
    /// model's f; two-class models: [−f, f]).
    pub fn scores(&self, x: Point) -> Vec<f64> {
        match self {
            Fitted::Knn(m) => {
                let mut votes = vec![0.0; m.classes().len()];
                m.votes(x, &mut votes);
                votes
            }
            Fitted::Multi(m) => {
                let mut scores = vec![0.0; m.classes.len()];
                m.scores(x, &mut scores);
                scores
            }
            other => {
                let f = other.decision(x);
                vec![-f, f]
            }
        }
    }

    /// The predicted class index and a confidence in [0, 1], for painting regions.
    pub(crate) fn label_and_confidence(&self, x: Point) -> (usize, f64) {
        match self {
            Fitted::Multi(m) => m.predict_index(x),
            other => {
                let votes = other.scores(x);
                let best = argmax(&votes);
                let k = votes.len() as f64;
                (
                    best,
                    ((votes[best] - 1.0 / k) / (1.0 - 1.0 / k)).clamp(0.0, 1.0),
                )
            }
        }
    }

    /// f(x): the decision value, or for k-NN 2·(vote share of the second class) − 1; for more
    /// than two classes, the winning class's score.
    pub fn decision(&self, x: Point) -> f64 {
        match self {
            Fitted::Multi(_) => {
                let scores = self.scores(x);
                scores[argmax(&scores)]
            }
            Fitted::Knn(m) if m.classes().len() > 2 => {
                let scores = self.scores(x);
                scores[argmax(&scores)]
            }
            Fitted::Knn(m) => {
                let mut votes = [0.0; 2];
                m.votes(x, &mut votes);
                votes[1] - votes[0]
            }
            other => other
                .classifier()
                .expect("two-class model")
                .decision_value(x),
        }
    }

    pub fn classes(&self) -> Vec<i32> {
        match self {
            Fitted::Knn(m) => m.classes().to_vec(),
            Fitted::Multi(m) => m.classes.clone(),
            other => other
                .classifier()
                .expect("two-class model")
                .classes()
                .to_vec(),
        }
    }

    pub fn predict(&self, x: Point) -> i32 {
        match self {
            Fitted::Knn(m) => m.predict(x),
            Fitted::Multi(m) => m.predict(x),
            other => other.classifier().expect("two-class model").predict(x),
        }
    }

    pub fn accuracy(&self, data: &Dataset) -> f64 {
        if data.is_empty() {
            return 0.0;
        }
        let correct = data
            .points
            .iter()
            .zip(&data.labels)
            .filter(|(&p, &l)| self.predict(p) == l)
            .count();
        correct as f64 / data.len() as f64
    }

    /// Whether the last fit was a warm start (only the SVM warm-starts).
    pub fn warm_started(&self) -> bool {
        matches!(self, Fitted::Svm(m) if m.report.warm_start)
    }

    /// Fills in what this method reports.
    pub fn report(&self, data: &Dataset, status: &mut Status) {
        status.train_accuracy = Some(self.accuracy(data));
        match self {
            Fitted::Svm(model) => {
                let statuses: Vec<AlphaStatus> =
                    (0..model.alpha.len()).map(|i| model.status(i)).collect();
                status.free = statuses.iter().filter(|&&s| s == AlphaStatus::Free).count();
                status.bound = statuses
                    .iter()
                    .filter(|&&s| s == AlphaStatus::Bound)
                    .count();
                status.support = status.free + status.bound;
                status.objective = Some(model.report.objective);
                status.iterations = Some(model.report.iterations);
                status.converged = Some(model.report.exit == ExitReason::Converged);
                status.warm_start = Some(model.report.warm_start);
                status.bias = Some(model.bias);
                status.w = model.w;
                status.margin_width = model.margin_width();
                status.message = if model.hard_margin_failed() {
                    Some("not linearly separable in this feature space — lower C".into())
                } else if model.report.exit == ExitReason::IterationCap {
                    Some(format!(
                        "SMO stopped at its iteration cap ({} iterations) before the KKT \
                         conditions held; the picture is approximate",
                        model.report.iterations
                    ))
                } else {
                    None
                };
            }
            Fitted::Perceptron(model) => {
                status.mistakes = Some(model.mistakes);
                status.epochs = Some(model.epochs);
                status.converged = Some(model.converged);
                status.bias = Some(model.bias);
                status.w = model.w;
                status.novikoff_bound = model.novikoff_bound();
                status.message = match (model.finished, model.converged, model.out_of_work) {
                    (true, false, true) => Some(format!(
                        "the kernel perceptron stopped after {} updates without converging: \
                         the data are probably not separable in this feature space",
                        model.mistakes
                    )),
                    (true, false, false) => Some(format!(
                        "the perceptron did not converge in {} epochs: the data are not \
                         separable in this feature space (or need more epochs)",
                        model.epochs
                    )),
                    _ => None,
                };
            }
            Fitted::Logistic(model) => {
                status.objective = Some(model.objective);
                status.log_loss = Some(model.log_loss);
                status.iterations = Some(model.report.iterations);
                status.converged = Some(model.report.exit == ExitReason::Converged);
                status.bias = Some(model.bias);
                status.w = model.w();
                let stepping = status.steps.is_some();
                status.message = if model.overshoot {
                    Some(
                        "gradient descent overshoots (the objective rose): lower the learning rate"
                            .into(),
                    )
                } else if model.report.exit != ExitReason::Converged && !stepping {
                    Some(format!(
                        "the solver stopped after {} iterations before converging; {}",
                        model.report.iterations,
                        if model.lambda < 1e-3 {
                            "with a tiny λ on separable data the weights grow without bound"
                        } else {
                            "raise the learning rate or use Newton"
                        }
                    ))
                } else {
                    None
                };
            }
            Fitted::Knn(model) => {
                status.k = Some(model.params().k.min(data.len()));
            }
            Fitted::Multi(multi) => {
                let marks = support_marks(multi, data.len());
                status.free = marks.iter().filter(|&&m| m == Mark::FreeSupport).count();
                status.bound = marks.iter().filter(|&&m| m == Mark::BoundSupport).count();
                status.support = status.free + status.bound;
                status.scheme = Some(multi.scheme.name().to_string());
                status.members = Some(multi.members.len());
                let mut messages = Vec::new();
                for member in &multi.members {
                    let mut part = Status::default();
                    member.model.report(data, &mut part);
                    if let Some(m) = part.message {
                        messages.push(m);
                    }
                }
                messages.dedup();
                status.message = messages.into_iter().next();
            }
        }
    }

    /// The hover readout at `p`, and for training point `index` its multiplier and case.
    pub fn inspect(&self, p: Point, index: Option<usize>, data: &Dataset, info: &mut Inspection) {
        let at = index.map_or(p, |i| data.points[i]);
        info.predicted = Some(self.predict(at));
        match self {
            Fitted::Knn(_) | Fitted::Multi(_) => info.votes = Some(self.scores(at)),
            other => info.decision = Some(other.decision(at)),
        }
        if let Fitted::Logistic(model) = self {
            info.probability = Some(sigmoid(model.decision_value(at)));
        }
        let Some(i) = index else { return };
        match self {
            // A model fitted before the last edit may not know this point yet.
            Fitted::Svm(model) if i < model.alpha.len() => {
                info.target = Some(model.y[i]);
                info.alpha = Some(model.alpha[i]);
                info.margin = Some(model.margins[i]);
                info.slack = Some(model.slack(i));
                info.case = Some(model.status(i).describe().to_string());
            }
            Fitted::Perceptron(model) if i < model.alpha.len() => {
                info.target = Some(model.y[i]);
                info.alpha = Some(model.alpha[i]);
                info.margin = Some(model.y[i] * model.decision_value(at));
                info.case = Some(format!("{} mistakes on this point", model.alpha[i]));
            }
            Fitted::Logistic(model) => {
                let y = if data.labels[i] == model.classes[1] {
                    1.0
                } else {
                    -1.0
                };
                info.target = Some(y);
                info.margin = Some(y * model.decision_value(at));
            }
            _ => {}
        }
    }
}

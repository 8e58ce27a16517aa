//! More than two classes from two-class models of any method, through the [`Model`] trait.
//!
//! - One-versus-rest: K models, model k separating class k (positive) from all the others;
//!   the prediction is the class whose model scores highest, argmax_k f_k(x).
//! - One-versus-one (LIBSVM's choice for the SVM): K(K−1)/2 models, one per pair of classes
//!   i < j trained on those two classes only; each casts a vote (for j when f_ij(x) ≥ 0, the
//!   larger label being the positive class, else for i) and the class with the most votes
//!   wins, ties going to the smaller class, as in LIBSVM.
//!
//! Methods that vote among all classes at once (k-NN, the generative models) need neither.

use crate::core::contour::level_curves;
use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::{Grid, Smoothness, BAND_PER_ERROR};
use crate::core::plane::{Curve, CurveKind, Mark, Scene, Shading};
use crate::methods::model::{
    argmax, check_classes, Context, Fact, GridApproximation, Model, MAX_CLASSES,
};
use crate::methods::picture::two_class_field;

/// The most two-class members an ensemble has (one-versus-one over six classes).
const MAX_MEMBERS: usize = MAX_CLASSES * (MAX_CLASSES - 1) / 2;

/// How K classes are reduced to two-class problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    OneVsOne,
    OneVsRest,
}

impl Scheme {
    pub fn name(self) -> &'static str {
        match self {
            Scheme::OneVsOne => "ovo",
            Scheme::OneVsRest => "ovr",
        }
    }

    pub fn from_name(name: &str) -> Result<Scheme, Error> {
        match name {
            "ovo" => Ok(Scheme::OneVsOne),
            "ovr" => Ok(Scheme::OneVsRest),
            other => Err(Error::Parameter(format!(
                "unknown multi-class scheme '{other}' (use ovo or ovr)"
            ))),
        }
    }
}

/// One two-class model of the ensemble.
#[derive(Debug)]
pub struct Member {
    /// The class (index into [`Multiclass::classes`]) its positive side stands for.
    pub positive: usize,
    /// One-versus-one: the other class of the pair (its negative side); `None` for the rest.
    pub negative: Option<usize>,
    /// The training points it saw, as indices into the full data.
    pub indices: Vec<usize>,
    pub model: Box<dyn Model>,
}

/// K two-class models combined.
#[derive(Debug)]
pub struct Multiclass {
    pub classes: Vec<i32>,
    pub scheme: Scheme,
    pub members: Vec<Member>,
    /// The members give probabilities (one-versus-rest logistic regression): the regions'
    /// confidence then comes from them.
    probabilistic: bool,
}

impl Multiclass {
    /// Every member's bounded grid approximation, when every member has one.
    fn bounded_members<'a>(&'a self, grid: &'a Grid) -> Option<Vec<GridApproximation<'a>>> {
        self.members
            .iter()
            .map(|m| m.model.kernel_expansion().and_then(|e| e.on_grid(grid)))
            .collect()
    }

    /// Fits every member with `fit_binary` (given a two-class dataset whose larger label is
    /// the positive class).
    pub fn fit(
        data: &Dataset,
        scheme: Scheme,
        mut fit_binary: impl FnMut(&Dataset) -> Result<Box<dyn Model>, Error>,
    ) -> Result<Multiclass, Error> {
        let classes = check_classes(data, MAX_CLASSES)?;
        let mut members = Vec::new();
        match scheme {
            Scheme::OneVsRest => {
                for (k, &class) in classes.iter().enumerate() {
                    let subset = Dataset::from_parts(
                        data.points.clone(),
                        data.labels.iter().map(|&l| (l == class) as i32).collect(),
                    );
                    members.push(Member {
                        positive: k,
                        negative: None,
                        indices: (0..data.len()).collect(),
                        model: fit_binary(&subset)?,
                    });
                }
            }
            Scheme::OneVsOne => {
                for i in 0..classes.len() {
                    for j in i + 1..classes.len() {
                        let indices: Vec<usize> = (0..data.len())
                            .filter(|&t| {
                                data.labels[t] == classes[i] || data.labels[t] == classes[j]
                            })
                            .collect();
                        let subset = Dataset::from_parts(
                            indices.iter().map(|&t| data.points[t]).collect(),
                            indices.iter().map(|&t| data.labels[t]).collect(),
                        );
                        members.push(Member {
                            positive: j,
                            negative: Some(i),
                            indices,
                            model: fit_binary(&subset)?,
                        });
                    }
                }
            }
        }
        let probabilistic = members[0].model.probabilities([0.0, 0.0]).is_some();
        Ok(Multiclass {
            classes,
            scheme,
            members,
            probabilistic,
        })
    }

    fn member_values(&self, x: Point, values: &mut [f64; MAX_MEMBERS]) -> usize {
        for (v, member) in values.iter_mut().zip(&self.members) {
            *v = member.model.decision_value(x);
        }
        self.members.len()
    }

    /// The class scores from the members' decision values (in member order): f_k(x) for
    /// one-versus-rest, the vote count for one-versus-one.
    fn scores_from(&self, values: &[f64], out: &mut [f64]) {
        match self.scheme {
            Scheme::OneVsRest => {
                for (member, &f) in self.members.iter().zip(values) {
                    out[member.positive] = f;
                }
            }
            Scheme::OneVsOne => {
                out.fill(0.0);
                for (member, &f) in self.members.iter().zip(values) {
                    let winner = if f >= 0.0 {
                        member.positive
                    } else {
                        member.negative.expect("one-versus-one member")
                    };
                    out[winner] += 1.0;
                }
            }
        }
    }

    /// The predicted class index and a confidence in [0, 1] from the members' decision values
    /// at a point: for one-versus-one from the winner's closest pairwise duel; for
    /// one-versus-rest the normalised probability margin of probabilistic members or the
    /// score margin of the others.
    pub fn combine(&self, values: &[f64]) -> (usize, f64) {
        match self.scheme {
            Scheme::OneVsOne => self.vote(values),
            Scheme::OneVsRest => self.best_of_rest(values),
        }
    }

    /// One-versus-rest: the class of the largest f_k, and the normalised probability margin
    /// of probabilistic members or the score margin of the others.
    fn best_of_rest(&self, values: &[f64]) -> (usize, f64) {
        let mut scores = [0.0; MAX_CLASSES];
        let scores = &mut scores[..self.classes.len()];
        self.scores_from(values, scores);
        let best = argmax(scores);
        let confidence = if self.probabilistic {
            let p: Vec<f64> = scores.iter().map(|&f| sigmoid(f)).collect();
            let total: f64 = p.iter().sum();
            let k = self.classes.len() as f64;
            ((p[best] / total - 1.0 / k) / (1.0 - 1.0 / k)).clamp(0.0, 1.0)
        } else {
            let second = scores
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != best)
                .map(|(_, &s)| s)
                .fold(f64::NEG_INFINITY, f64::max);
            1.0 - (-0.9 * (scores[best] - second).max(0.0)).exp()
        };
        (best, confidence)
    }

    /// One-versus-one: the class with the most duels won (the first of those tied), and how
    /// far it is from losing one — its smallest |f| against the others, continuous unlike the
    /// vote count — as 1 − e^(−0.9 |f|). One pass over the members (it runs at every node of
    /// the plane's grid).
    fn vote(&self, values: &[f64]) -> (usize, f64) {
        let mut votes = [0u32; MAX_CLASSES];
        let mut closest = [f64::INFINITY; MAX_CLASSES];
        for (member, &f) in self.members.iter().zip(values) {
            let negative = member.negative.expect("one-versus-one member");
            let winner = if f >= 0.0 { member.positive } else { negative };
            votes[winner] += 1;
            // (f64::min keeps the other value when f is NaN: a NaN duel is no closest one.)
            for class in [member.positive, negative] {
                closest[class] = closest[class].min(f.abs());
            }
        }
        let mut best = 0;
        for class in 1..self.classes.len() {
            if votes[class] > votes[best] {
                best = class;
            }
        }
        (best, 1.0 - (-0.9 * closest[best]).exp())
    }

    /// The index of the predicted class and the confidence at x.
    pub fn predict_index(&self, x: Point) -> (usize, f64) {
        let mut values = [0.0; MAX_MEMBERS];
        let m = self.member_values(x, &mut values);
        self.combine(&values[..m])
    }

    /// The name of a member's problem: "1 | 3" (a pair) or "2 | rest", classes 1-based.
    pub fn member_name(member: &Member) -> String {
        match member.negative {
            Some(i) => format!("{} | {}", i + 1, member.positive + 1),
            None => format!("{} | rest", member.positive + 1),
        }
    }
}

/// σ(z) = 1/(1 + e^(−z)), the probability of a log-odds.
fn sigmoid(z: f64) -> f64 {
    0.5 * (1.0 + (0.5 * z).tanh())
}

impl Model for Multiclass {
    fn classes(&self) -> &[i32] {
        &self.classes
    }

    /// The winning class's score.
    fn decision_value(&self, x: Point) -> f64 {
        let scores = self.scores(x);
        scores[argmax(&scores)]
    }

    fn scores(&self, x: Point) -> Vec<f64> {
        let mut values = [0.0; MAX_MEMBERS];
        let m = self.member_values(x, &mut values);
        let mut scores = vec![0.0; self.classes.len()];
        self.scores_from(&values[..m], &mut scores);
        scores
    }

    fn predict(&self, x: Point) -> i32 {
        self.classes[self.predict_index(x).0]
    }

    fn label_and_confidence(&self, x: Point) -> (usize, f64) {
        self.predict_index(x)
    }

    /// One-versus-rest over members with probabilities (logistic regression): each class's
    /// σ(f_k), normalised to sum to 1, as scikit-learn's `OneVsRestClassifier` gives them.
    fn probabilities(&self, x: Point) -> Option<Vec<f64>> {
        if !(self.probabilistic && self.scheme == Scheme::OneVsRest) {
            return None;
        }
        Some(sigmoid_shares(&self.scores(x)))
    }

    fn shading(&self) -> Shading {
        if self.probabilistic && self.scheme == Scheme::OneVsRest {
            Shading::Probability
        } else {
            Shading::Margin { scale: 1.0 }
        }
    }

    /// Members that are kernel expansions: each one's bounded grid approximation
    /// ([`crate::methods::model::KernelExpansion::on_grid`]), with the members whose value could decide
    /// the class summed exactly — a one-versus-one member within [`BAND_PER_ERROR`] error
    /// bounds of 0, every member where the two best one-versus-rest scores are that close —
    /// so every node gets the exact class. Otherwise each member's own grid evaluator,
    /// combined per node.
    fn label_evaluator<'a>(
        &'a self,
        grid: &'a Grid,
    ) -> Box<dyn Fn(usize, usize) -> (usize, f64) + 'a> {
        if let Some(bounded) = self.bounded_members(grid) {
            if self.scheme == Scheme::OneVsOne {
                return Box::new(move |r, c| {
                    let mut values = [0.0; MAX_MEMBERS];
                    for (k, (approximate, error)) in bounded.iter().enumerate() {
                        let value = approximate(r, c);
                        // Not clear of 0 (or NaN): the vote needs f exactly.
                        let clear = value.abs() > BAND_PER_ERROR * error;
                        values[k] = if clear {
                            value
                        } else {
                            self.members[k].model.decision_value(grid.node(r, c))
                        };
                    }
                    self.vote(&values[..bounded.len()])
                });
            }
            return Box::new(move |r, c| {
                let mut values = [0.0; MAX_MEMBERS];
                let mut errors = [0.0; MAX_MEMBERS];
                for (k, (approximate, error)) in bounded.iter().enumerate() {
                    values[k] = approximate(r, c);
                    errors[k] = BAND_PER_ERROR * error;
                }
                let m = bounded.len();
                // One-versus-rest: the two best scores too close to tell apart, every f exactly.
                let best = argmax(&values[..m]);
                let clear = |k: usize| values[best] - values[k] > errors[best] + errors[k];
                if (0..m).any(|k| k != best && !clear(k)) {
                    for (k, value) in values[..m].iter_mut().enumerate() {
                        *value = self.members[k].model.decision_value(grid.node(r, c));
                    }
                }
                self.best_of_rest(&values[..m])
            });
        }
        let evaluators: Vec<_> = self
            .members
            .iter()
            .map(|m| m.model.grid_evaluator(grid))
            .collect();
        Box::new(move |r, c| {
            let mut values = [0.0; MAX_MEMBERS];
            for (v, evaluate) in values.iter_mut().zip(&evaluators) {
                *v = evaluate(r, c);
            }
            self.combine(&values[..evaluators.len()])
        })
    }

    fn exact_labels_on_grid(&self) -> bool {
        self.members.iter().all(|m| {
            m.model
                .kernel_expansion()
                .is_some_and(|e| e.has_grid_bound())
        })
    }

    fn smoothness(&self) -> Smoothness {
        self.members
            .iter()
            .map(|m| m.model.smoothness())
            .fold(Smoothness::Smooth, Smoothness::min)
    }

    /// A point marked by any member is marked, as a bound support vector if it is bound in
    /// any member.
    fn marks(&self) -> Vec<Mark> {
        let n = self
            .members
            .iter()
            .flat_map(|m| m.indices.iter().copied())
            .max()
            .map_or(0, |i| i + 1);
        let mut marks = vec![Mark::Plain; n];
        for member in &self.members {
            for (local, mark) in member.model.marks().into_iter().enumerate() {
                let t = member.indices[local];
                if mark != Mark::Plain && marks[t] != Mark::BoundSupport {
                    marks[t] = mark;
                }
            }
        }
        marks
    }

    /// Support vectors of every member and, with the pairwise layer, each member's own
    /// boundary f = 0, dashed and labelled.
    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        let marks = self.marks();
        if marks.iter().any(|&m| m != Mark::Plain) {
            scene.marks = marks;
        }
        if !context.layers.on("pairs") {
            return;
        }
        let grid = context.grid;
        for member in &self.members {
            let field = two_class_field(&*member.model, grid, &[0.0], 0.0);
            let name = Multiclass::member_name(member);
            for points in level_curves(&field, 0.0) {
                scene.curves.push(Curve {
                    points,
                    kind: CurveKind::Pairwise,
                    label: Some(name.clone()),
                });
            }
        }
    }

    fn facts(&self, data: &Dataset) -> Vec<Fact> {
        let how = match self.scheme {
            Scheme::OneVsOne => "one-vs-one voting",
            Scheme::OneVsRest => "one-vs-rest",
        };
        let mut facts = vec![
            Fact::new(
                "combined",
                "classes:",
                format!("{how} over {} two-class models", self.members.len()),
            )
            .inside(),
            Fact::data("scheme", self.scheme.name()),
            Fact::data("members", self.members.len()),
        ];
        let marks = self.marks();
        if marks.iter().any(|&m| m != Mark::Plain) {
            let count = |m: Mark| marks.iter().filter(|&&x| x == m).count();
            let (free, bound) = (count(Mark::FreeSupport), count(Mark::BoundSupport));
            facts.push(
                Fact::new("support", "support vectors", free + bound)
                    .with_note(format!("(free {free}, bound {bound})")),
            );
            let support: Vec<usize> = (0..marks.len().min(data.len()))
                .filter(|&i| marks[i] != Mark::Plain)
                .collect();
            facts.push(Fact::data("support", support));
        }
        facts.extend(crate::methods::solvers::nu_svc::pairwise_facts(
            self.members.iter().map(|m| &*m.model),
        ));
        facts
    }

    fn facts_at(&self, x: Point) -> Vec<Fact> {
        let label = match self.scheme {
            Scheme::OneVsOne => "votes",
            Scheme::OneVsRest => "f per class",
        };
        let scores: Vec<String> = self
            .scores(x)
            .iter()
            .enumerate()
            .map(|(c, v)| format!("class {}: {}", c + 1, crate::methods::model::short(*v)))
            .collect();
        vec![Fact::new("scores", label, scores.join(", "))]
    }

    fn message(&self) -> Option<String> {
        self.members.iter().find_map(|m| m.model.message())
    }

    /// One-versus-rest: f of the point's own class's model; one-versus-one: the smallest
    /// margin over the pairs that include its class (the duel it is closest to losing).
    fn margin(&self, index: usize, data: &Dataset) -> Option<f64> {
        let own = self.classes.iter().position(|&c| c == data.labels[index])?;
        let x = data.points[index];
        self.members
            .iter()
            .filter_map(|m| {
                let y = if m.positive == own {
                    1.0
                } else if m.negative == Some(own) {
                    -1.0
                } else {
                    return None;
                };
                Some(y * m.model.decision_value(x))
            })
            .reduce(f64::min)
    }

    fn loss(&self) -> Option<crate::methods::model::Loss> {
        self.members[0].model.loss()
    }

    fn margin_kind(&self) -> &'static str {
        match self.scheme {
            Scheme::OneVsOne => "the smallest pairwise margin y·f of the point's own class",
            Scheme::OneVsRest => "the one-vs-rest margin f_own(x) of the point's own class",
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Each class's σ(f_k) as a share of their sum, σ(f_k)/Σⱼσ(f_j). Far from the points every
/// σ(f_k) can underflow to 0; the shares are then taken from log σ(f) = −ln(1 + e^(−f)),
/// shifted by the largest before they are exponentiated.
fn sigmoid_shares(scores: &[f64]) -> Vec<f64> {
    let mut p: Vec<f64> = scores.iter().copied().map(sigmoid).collect();
    let mut total: f64 = p.iter().sum();
    if total == 0.0 {
        let log_sigmoid = |f: f64| {
            if f >= 0.0 {
                -(-f).exp().ln_1p()
            } else {
                f - f.exp().ln_1p()
            }
        };
        let logs: Vec<f64> = scores.iter().copied().map(log_sigmoid).collect();
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        p = logs.iter().map(|l| (l - top).exp()).collect();
        total = p.iter().sum();
    }
    p.iter_mut().for_each(|v| *v /= total);
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;
    use crate::core::kernel::Kernel;
    use crate::methods::solvers::svm::{SvmModel, SvmParams};

    fn svm(data: &Dataset) -> Result<Box<dyn Model>, Error> {
        let params = SvmParams::new(Kernel::Rbf { gamma: 2.0 }, 10.0);
        Ok(Box::new(SvmModel::fit(
            &data.points,
            &data.labels,
            &params,
        )?))
    }

    #[test]
    fn both_schemes_learn_three_blobs() {
        let data = Preset::Blobs3.generate(90, 0.1, 1);
        for scheme in [Scheme::OneVsOne, Scheme::OneVsRest] {
            let model = Multiclass::fit(&data, scheme, svm).unwrap();
            assert_eq!(model.members.len(), 3);
            let correct = data
                .points
                .iter()
                .zip(&data.labels)
                .filter(|(&p, &l)| model.predict(p) == l)
                .count();
            assert!(correct as f64 / 90.0 > 0.95, "{scheme:?}: {correct}");
        }
    }

    /// One-versus-rest logistic regression's shares σ(f_k)/Σσ(f_j) stay probabilities far
    /// from the points, where every σ(f_k) underflows to 0: for f ≪ 0, σ(f) ≈ e^f, so the
    /// shares of f = (−800, −900, −1000) are (1, e^(−100), e^(−200)) over their sum.
    #[test]
    fn far_away_shares_are_still_probabilities() {
        let p = sigmoid_shares(&[-800.0, -900.0, -1000.0]);
        let sum = 1.0 + (-100f64).exp() + (-200f64).exp();
        let want = [1.0 / sum, (-100f64).exp() / sum, (-200f64).exp() / sum];
        for (got, want) in p.iter().zip(want) {
            assert!((got - want).abs() <= 1e-15 * want, "{p:?}");
        }
        // Where the sum does not underflow, the plain ratio, as scikit-learn gives it.
        let near = sigmoid_shares(&[0.5, -1.0, 2.0]);
        let s = [sigmoid(0.5), sigmoid(-1.0), sigmoid(2.0)];
        let total: f64 = s.iter().sum();
        assert_eq!(near, s.map(|v| v / total));
    }

    #[test]
    fn one_versus_one_pairs_see_only_their_classes() {
        let data = Preset::Spiral3.generate(60, 0.0, 2);
        let model = Multiclass::fit(&data, Scheme::OneVsOne, svm).unwrap();
        for member in &model.members {
            let pair = [member.negative.unwrap(), member.positive];
            assert!(pair[0] < pair[1]);
            assert_eq!(member.indices.len(), 40);
            for &t in &member.indices {
                assert!(pair.iter().any(|&c| model.classes[c] == data.labels[t]));
            }
        }
    }

    #[test]
    fn own_class_margins_follow_the_scheme() {
        let data = Preset::Blobs3.generate(60, 0.1, 3);
        let ovr = Multiclass::fit(&data, Scheme::OneVsRest, svm).unwrap();
        let ovo = Multiclass::fit(&data, Scheme::OneVsOne, svm).unwrap();
        for i in 0..data.len() {
            let own = ovr
                .classes
                .iter()
                .position(|&c| c == data.labels[i])
                .unwrap();
            let f_own = ovr.members[own].model.decision_value(data.points[i]);
            assert_eq!(ovr.margin(i, &data), Some(f_own));
            let pairs: Vec<f64> = ovo
                .members
                .iter()
                .filter(|m| m.positive == own || m.negative == Some(own))
                .map(|m| {
                    let f = m.model.decision_value(data.points[i]);
                    if m.positive == own {
                        f
                    } else {
                        -f
                    }
                })
                .collect();
            assert_eq!(pairs.len(), 2);
            assert_eq!(ovo.margin(i, &data), Some(pairs[0].min(pairs[1])));
        }
    }

    #[test]
    fn too_many_classes_is_a_message() {
        let mut data = Dataset::new();
        for l in 0..7 {
            data.push([l as f64 * 0.1, 0.0], l).unwrap();
        }
        let err = Multiclass::fit(&data, Scheme::OneVsRest, svm).unwrap_err();
        assert_eq!(err, Error::TooManyClasses { found: 7, max: 6 });
    }
}

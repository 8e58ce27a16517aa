//! More than two classes from two-class models.
//!
//! - One-versus-rest: K models, model k separating class k (positive) from all the others;
//!   the prediction is the class whose model scores highest, argmax_k f_k(x).
//! - One-versus-one (LIBSVM's choice for the SVM): K(K−1)/2 models, one per pair of classes
//!   i < j trained on those two classes only; each casts a vote (for j when f_ij(x) ≥ 0, the
//!   larger label being the positive class, else for i) and the class with the most votes
//!   wins, ties going to the smaller class, as in LIBSVM.
//!
//! k-nearest neighbours need neither: they vote among all classes at once.

use crate::data::{Dataset, Point};
use crate::error::Error;
use crate::fitted::Fitted;

/// The most classes the lab handles (keys 1–6, six colours).
pub const MAX_CLASSES: usize = 6;

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
#[derive(Clone, Debug)]
pub struct Member {
    /// The class (index into [`Multiclass::classes`]) its positive side stands for.
    pub positive: usize,
    /// One-versus-one: the other class of the pair (its negative side); `None` for the rest.
    pub negative: Option<usize>,
    /// The training points it saw, as indices into the full data.
    pub indices: Vec<usize>,
    pub model: Fitted,
}

/// K two-class models combined.
#[derive(Clone, Debug)]
pub struct Multiclass {
    pub classes: Vec<i32>,
    pub scheme: Scheme,
    pub members: Vec<Member>,
}

impl Multiclass {
    /// Fits every member with `fit_binary` (given a two-class dataset whose larger label is
    /// the positive class).
    pub fn fit(
        data: &Dataset,
        scheme: Scheme,
        mut fit_binary: impl FnMut(&Dataset) -> Result<Fitted, Error>,
    ) -> Result<Multiclass, Error> {
        let classes = data.classes();
        if classes.len() > MAX_CLASSES {
            return Err(Error::TooManyClasses {
                found: classes.len(),
                max: MAX_CLASSES,
            });
        }
        let mut members = Vec::new();
        match scheme {
            Scheme::OneVsRest => {
                for (k, &class) in classes.iter().enumerate() {
                    let subset = Dataset {
                        points: data.points.clone(),
                        labels: data.labels.iter().map(|&l| (l == class) as i32).collect(),
                    };
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
                        let subset = Dataset {
                            points: indices.iter().map(|&t| data.points[t]).collect(),
                            labels: indices.iter().map(|&t| data.labels[t]).collect(),
                        };
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
        Ok(Multiclass {
            classes,
            scheme,
            members,
        })
    }

    /// One score per class: f_k(x) for one-versus-rest, the vote count for one-versus-one.
    pub fn scores(&self, x: Point, out: &mut [f64]) {
        let mut values = [0.0; MAX_CLASSES * (MAX_CLASSES - 1) / 2];
        let values = &mut values[..self.members.len()];
        for (v, member) in values.iter_mut().zip(&self.members) {
            *v = member.model.decision(x);
        }
        self.scores_from(values, out);
    }

    /// The class scores from the members' decision values (in member order).
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

    /// The index of the predicted class and a confidence in [0, 1] (for one-versus-one from the
    /// winner's closest pairwise duel; for one-versus-rest the normalised probability margin of
    /// logistic models or the score margin of the others).
    pub fn predict_index(&self, x: Point) -> (usize, f64) {
        let mut values = [0.0; MAX_CLASSES * (MAX_CLASSES - 1) / 2];
        let values = &mut values[..self.members.len()];
        for (v, member) in values.iter_mut().zip(&self.members) {
            *v = member.model.decision(x);
        }
        self.combine(values)
    }

    /// [`Multiclass::predict_index`] from the members' decision values at a point, so that a
    /// grid can supply them from each member's fast grid evaluator.
    pub fn combine(&self, values: &[f64]) -> (usize, f64) {
        let mut scores = [0.0; MAX_CLASSES];
        let scores = &mut scores[..self.classes.len()];
        self.scores_from(values, scores);
        let best = argmax(scores);
        let confidence = match (self.scheme, &self.members[0].model) {
            // How far the winner is from losing a duel: its smallest |f| against the others
            // (continuous, unlike the vote count).
            (Scheme::OneVsOne, _) => {
                let closest = self
                    .members
                    .iter()
                    .zip(values)
                    .filter(|(m, _)| m.positive == best || m.negative == Some(best))
                    .map(|(_, f)| f.abs())
                    .fold(f64::INFINITY, f64::min);
                1.0 - (-0.9 * closest).exp()
            }
            (Scheme::OneVsRest, Fitted::Logistic(_)) => {
                let p: Vec<f64> = scores
                    .iter()
                    .map(|&f| crate::solvers::logistic::sigmoid(f))
                    .collect();
                let total: f64 = p.iter().sum();
                let k = self.classes.len() as f64;
                ((p[best] / total - 1.0 / k) / (1.0 - 1.0 / k)).clamp(0.0, 1.0)
            }
            (Scheme::OneVsRest, _) => {
                let second = scores
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != best)
                    .map(|(_, &s)| s)
                    .fold(f64::NEG_INFINITY, f64::max);
                1.0 - (-0.9 * (scores[best] - second).max(0.0)).exp()
            }
        };
        (best, confidence)
    }

    pub fn predict(&self, x: Point) -> i32 {
        self.classes[self.predict_index(x).0]
    }
}

/// The index of the largest value; ties go to the smallest index.
pub fn argmax(values: &[f64]) -> usize {
    let mut best = 0;
    for (k, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = k;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Preset;
    use crate::kernel::Kernel;
    use crate::solvers::svm::{SvmParams, SvmTrainer};

    fn svm(data: &Dataset) -> Result<Fitted, Error> {
        let params = SvmParams::new(Kernel::Rbf { gamma: 2.0 }, 10.0);
        Ok(Fitted::Svm(SvmTrainer::new().fit(
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
    fn ties_go_to_the_smaller_class() {
        assert_eq!(argmax(&[1.0, 1.0, 1.0]), 0);
        assert_eq!(argmax(&[0.0, 2.0, 2.0]), 1);
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

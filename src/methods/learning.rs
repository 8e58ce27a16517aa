//! Learning curves (CURRICULUM §11): how a method's training accuracy and its held-out
//! accuracy change with the number of points it is trained on. Over the folds of
//! cross-validation (the lab's folds setting), each fold's training part is put in a seeded
//! order and the method is fitted on its first n points, for n from a tenth of the smallest
//! training part to all of it; it is scored on those n points (training accuracy) and on the
//! fold held out (validation accuracy). A size's score is the mean over the folds, with the
//! standard deviation as a band — as scikit-learn's `learning_curve` with `shuffle=True`,
//! though not its random stream.
//!
//! A large gap between the two curves that closes slowly says the model has more capacity
//! than the points can pin down (variance); two curves that meet low say it has too little
//! (bias). A second method can be run over the same folds and sizes beside the first (LDA or
//! naive Bayes against logistic regression: the generative models learn faster and level off
//! lower).
//!
//! In regression the scores are R² instead of accuracies ([`crate::methods::validation::task_score`]).
//!
//! The order puts the first point of each class first, so every subsample has every class;
//! the smallest size is never below the number of classes.

use crate::core::data::Dataset;
use crate::core::error::Error;
use crate::core::job::{adopt_as, progress_as_json, Job};
use crate::core::params::Values;
use crate::core::task::Task;
use crate::methods::model::FitOptions;
use crate::methods::registry;
use crate::methods::validation::{task_score, Score};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

/// How many training-set sizes a curve has: from a tenth of the points to all of them.
pub const SIZES: usize = 8;

/// One method's curve at one size: its training and validation scores over the folds, or why
/// it could not be fitted there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Point {
    Scored { training: Score, validation: Score },
    Failed(String),
}

/// What a [`LearningJob`] has computed: for each method, each size's point (`None`: not yet).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearningProgress {
    pub points: Vec<Vec<Option<Point>>>,
}

/// Learning curves computed a fit at a time, so that the page (or a Web Worker) can spread
/// the work over frames and show the sizes as they finish.
#[derive(Debug)]
pub struct LearningJob {
    values: Values,
    /// The methods (ids), the lab's own first.
    pub methods: Vec<String>,
    /// The methods' task, which says how they are scored.
    task: Task,
    data: Dataset,
    /// Each (repetition, fold): its training part in subsample order, and its held-out part.
    splits: Vec<(Vec<usize>, Vec<usize>)>,
    /// The training-set sizes, increasing.
    pub sizes: Vec<usize>,
    /// `points[method][size]`.
    pub points: Vec<Vec<Option<Point>>>,
    /// The next (method, size, split) to fit.
    next: (usize, usize, usize),
    /// The fold accuracies (training, validation) of the point in progress.
    partial: (Vec<f64>, Vec<f64>),
}

impl LearningJob {
    /// Curves of `methods` (ids) with the settings `values` on `data`, over the folds
    /// `assignment` gives (one fold index per point per repetition), the subsamples drawn with
    /// `seed`.
    pub fn new(
        values: &Values,
        methods: Vec<String>,
        data: &Dataset,
        assignment: &[Vec<usize>],
        seed: u64,
    ) -> LearningJob {
        let mut rng = StdRng::seed_from_u64(seed ^ 0x1ea4_c0de);
        let mut splits = Vec::new();
        for folds in assignment {
            let count = folds.iter().copied().max().map_or(0, |k| k + 1);
            for fold in 0..count {
                let held: Vec<usize> = (0..data.len()).filter(|&i| folds[i] == fold).collect();
                let mut train: Vec<usize> = (0..data.len()).filter(|&i| folds[i] != fold).collect();
                train.shuffle(&mut rng);
                splits.push((every_class_first(train, &data.labels), held));
            }
        }
        let classes = data.classes().len().max(1);
        let smallest = splits.iter().map(|(t, _)| t.len()).min().unwrap_or(0);
        let mut sizes: Vec<usize> = (0..SIZES)
            .map(|j| {
                let share = 0.1 + 0.9 * j as f64 / (SIZES - 1) as f64;
                ((share * smallest as f64).round() as usize).clamp(classes.min(smallest), smallest)
            })
            .filter(|&n| n > 0)
            .collect();
        sizes.dedup();
        LearningJob {
            values: values.clone(),
            points: vec![vec![None; sizes.len()]; methods.len()],
            methods,
            task: Task::Classification,
            data: data.clone(),
            splits,
            sizes,
            next: (0, 0, 0),
            partial: (Vec::new(), Vec::new()),
        }
    }

    /// The curves of methods of `task` (classification's unless said), scored as that task is.
    pub fn in_task(mut self, task: Task) -> LearningJob {
        self.task = task;
        self
    }

    /// What has been computed, to hand to a copy of this job elsewhere.
    pub fn progress(&self) -> LearningProgress {
        LearningProgress {
            points: self.points.clone(),
        }
    }

    /// Takes over what a copy of this job has computed; it goes on from there.
    pub fn adopt(&mut self, progress: LearningProgress) {
        let shape = |p: &Vec<Vec<Option<Point>>>| p.iter().map(Vec::len).collect::<Vec<_>>();
        if shape(&progress.points) != shape(&self.points) {
            return;
        }
        self.points = progress.points;
        self.partial = (Vec::new(), Vec::new());
        self.next = (0..self.methods.len())
            .flat_map(|m| (0..self.sizes.len()).map(move |s| (m, s)))
            .find(|&(m, s)| self.points[m][s].is_none())
            .map_or((self.methods.len(), 0, 0), |(m, s)| (m, s, 0));
    }

    /// How many (method, size) points are finished, of how many.
    pub fn counts(&self) -> (usize, usize) {
        let all = self.points.iter().map(Vec::len).sum();
        let finished = self.points.iter().flatten().filter(|p| p.is_some()).count();
        (finished, all)
    }

    pub fn done(&self) -> bool {
        self.next.0 >= self.methods.len() || self.splits.is_empty()
    }

    /// Fits and scores one split at one size; returns whether work remains.
    pub fn step(&mut self) -> bool {
        if self.done() {
            return false;
        }
        let (method, size, split) = self.next;
        match self.fit_split(method, size, split) {
            Ok((training, validation)) => {
                self.partial.0.push(training);
                if let Some(v) = validation {
                    self.partial.1.push(v);
                }
            }
            Err(e) => {
                // This size cannot be fitted (too few points for the method): said on its
                // point, and the curve goes on with the next size.
                self.points[method][size] = Some(Point::Failed(e.to_string()));
                self.partial = (Vec::new(), Vec::new());
                self.next = self.after(method, size);
                return !self.done();
            }
        }
        if split + 1 < self.splits.len() {
            self.next = (method, size, split + 1);
        } else {
            let (training, validation) = std::mem::take(&mut self.partial);
            self.points[method][size] = Some(Point::Scored {
                training: Score::of(training),
                validation: Score::of(validation),
            });
            self.next = self.after(method, size);
        }
        !self.done()
    }

    /// The first split of the point after (method, size).
    fn after(&self, method: usize, size: usize) -> (usize, usize, usize) {
        match size + 1 < self.sizes.len() {
            true => (method, size + 1, 0),
            false => (method + 1, 0, 0),
        }
    }

    /// Fits method `method` on the first `sizes[size]` training points of split `split`:
    /// its accuracy on them, and on the split's held-out points (if it has any).
    fn fit_split(
        &self,
        method: usize,
        size: usize,
        split: usize,
    ) -> Result<(f64, Option<f64>), Error> {
        let (train, held) = &self.splits[split];
        let subset = |indices: &[usize]| {
            let mut part = Dataset::new();
            for &i in indices {
                part.points.push(self.data.points[i]);
                part.labels.push(self.data.labels[i]);
            }
            part
        };
        let train = subset(&train[..self.sizes[size].min(train.len())]);
        let held = subset(held);
        let method = registry::method_in(self.task, &self.methods[method])?;
        let model = registry::fit(method, &self.values, &train, FitOptions::default())?;
        let validation = match held.is_empty() {
            true => None,
            false => Some(task_score(self.task, model.as_ref(), &held)?),
        };
        Ok((task_score(self.task, model.as_ref(), &train)?, validation))
    }
}

impl Job for LearningJob {
    fn step(&mut self) -> bool {
        LearningJob::step(self)
    }

    fn done(&self) -> bool {
        LearningJob::done(self)
    }

    fn counts(&self) -> (usize, usize) {
        LearningJob::counts(self)
    }

    fn progress_json(&self) -> serde_json::Value {
        progress_as_json(self.progress())
    }

    fn adopt_json(&mut self, progress: &serde_json::Value) -> bool {
        adopt_as(progress, |p: LearningProgress| self.adopt(p))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `order` with the first point of each class moved to the front (in the order the classes
/// first appear), the rest as they were: every prefix as long as the number of classes has
/// every class.
fn every_class_first(order: Vec<usize>, labels: &[i32]) -> Vec<usize> {
    let mut seen: Vec<i32> = Vec::new();
    let (mut first, mut rest) = (Vec::new(), Vec::new());
    for i in order {
        if seen.contains(&labels[i]) {
            rest.push(i);
        } else {
            seen.push(labels[i]);
            first.push(i);
        }
    }
    first.extend(rest);
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::playground::Playground;
    use crate::methods::validation::Folds;

    fn job(hash: &str, methods: &[&str]) -> LearningJob {
        let lab = Playground::from_hash(hash);
        let (data, values) = (lab.data().clone(), lab.settings().values.clone());
        let assignment = Folds::KFold(5).assign(&data.labels, 3);
        let methods = methods.iter().map(|m| m.to_string()).collect();
        LearningJob::new(&values, methods, &data, &assignment, 3)
    }

    /// Every prefix as long as the number of classes holds every class.
    #[test]
    fn every_subsample_has_every_class() {
        let labels = [1, 1, 1, 0, 1, 2, 0];
        let order = every_class_first((0..7).collect(), &labels);
        assert_eq!(order, vec![0, 3, 5, 1, 2, 4, 6]);
    }

    /// The sizes run from a tenth of the smallest training part to all of it; each point's
    /// scores are the means over the five folds; and a flexible model fits its few training
    /// points better than it predicts new ones, the gap closing as the points grow.
    #[test]
    fn the_curves_meet_as_the_training_set_grows() {
        let mut job = job(
            "preset=moons&n=200&noise=0.3&seed=4&model=knn&k=1",
            &["knn", "lda"],
        );
        assert_eq!(job.sizes.first(), Some(&16));
        assert_eq!(job.sizes.last(), Some(&160));
        assert_eq!(job.sizes.len(), SIZES);
        let mut steps = 0;
        while job.step() {
            steps += 1;
        }
        assert_eq!(steps + 1, 2 * SIZES * 5);
        assert_eq!(job.counts(), (2 * SIZES, 2 * SIZES));
        let score = |m: usize, s: usize| match &job.points[m][s] {
            Some(Point::Scored {
                training,
                validation,
            }) => (training.clone(), validation.clone()),
            other => panic!("{other:?}"),
        };
        for s in 0..SIZES {
            let (training, validation) = score(0, s);
            assert_eq!(training.fold_accuracy.len(), 5);
            assert_eq!(validation.fold_accuracy.len(), 5);
            let mean = validation.fold_accuracy.iter().sum::<f64>() / 5.0;
            assert!((validation.mean - mean).abs() < 1e-15);
            // 1-NN recalls every training point.
            assert_eq!(training.mean, 1.0);
        }
        let (_, few) = score(0, 0);
        let (_, many) = score(0, SIZES - 1);
        assert!(many.mean > few.mean, "{} then {}", few.mean, many.mean);
        // LDA, a line, fits its training points less than perfectly on moons.
        let (lda, _) = score(1, SIZES - 1);
        assert!(lda.mean < 1.0);
    }

    /// A copy's progress is adopted whole, and the job goes on after it.
    #[test]
    fn progress_is_adopted_and_work_goes_on() {
        let hash = "preset=separable&n=60&seed=2&model=lda";
        let mut done = job(hash, &["lda"]);
        for _ in 0..(3 * 5) {
            done.step();
        }
        let mut copy = job(hash, &["lda"]);
        copy.adopt(done.progress());
        assert_eq!(copy.counts(), (3, copy.sizes.len()));
        while copy.step() {}
        while done.step() {}
        assert_eq!(copy.progress(), done.progress());
    }

    /// A size too small for the method is said, and the curve goes on.
    #[test]
    fn a_size_the_method_cannot_fit_is_said_and_passed() {
        let mut job = job("preset=separable&n=40&seed=2&model=qda", &["qda"]);
        assert_eq!(job.sizes[0], 3);
        while job.step() {}
        // Three points leave a class one point, without a covariance to fit.
        assert!(
            matches!(&job.points[0][0], Some(Point::Failed(e)) if !e.is_empty()),
            "{:?}",
            job.points[0][0]
        );
        assert!(matches!(
            job.points[0].last(),
            Some(Some(Point::Scored { .. }))
        ));
        assert_eq!(job.counts(), (job.sizes.len(), job.sizes.len()));
    }
}

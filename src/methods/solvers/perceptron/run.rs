//! A perceptron run that stops and goes on, and the trainer that keeps one between fits.
//!
//! The run is Rosenblatt's loop written as a state: the epoch it is in, the point it visits
//! next, whether that epoch has been clean so far, and what the updates have built (α, and
//! w̃ = (w, b) for the linear kernel or f(x_k) = Σ α_i y_i (K(x_i, x_k) + 1) at every training
//! point for the others). [`Run::advance`] carries on from there until the next mistake would
//! exceed the number of updates asked for, or the run ends by itself. Stopping and going on
//! performs exactly the arithmetic of one uninterrupted run, in the same order, so a run
//! stepped to k updates and then asked for k + 1 is, to the last bit, the run from w̃ = 0
//! stopped at k + 1 — at the cost of one update and the visits up to the next mistake.
//!
//! [`PerceptronTrainer`] keeps the run stepped last (with the points, labels and parameters it
//! ran on) and the kernel-column cache, which outlives a restart: a moved point patches the
//! columns, and any other difference in the points empties them.

use super::{novikoff_bound, PerceptronModel, PerceptronParams, CACHE_BYTES, NOVIKOFF_LIMIT};
use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::kernel::{Kernel, KernelCache};
use crate::methods::model::WarmStart;

/// A kernel run stops after this many kernel-row additions (each update costs n), so a drag
/// never waits long on data no perceptron will separate.
pub const WORK_LIMIT: usize = 20_000_000;

/// Why [`Run::advance`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// An epoch passed without a mistake.
    Converged,
    /// The last epoch allowed ended with mistakes.
    EpochCap,
    /// The next mistake would have cost more than [`WORK_LIMIT`].
    OutOfWork,
    /// The next mistake would have been one update more than asked for (stepping).
    Updates,
}

/// Where a run stands.
#[derive(Clone, Debug)]
pub(super) struct Run {
    /// w̃ = (w, b) on x̃ = (x, 1): the linear kernel runs in the primal.
    w: [f64; 2],
    b: f64,
    /// f(x_k) at every training point: the other kernels run in the dual.
    f: Vec<f64>,
    /// α_i: the mistakes made on point i.
    pub alpha: Vec<f64>,
    /// Updates made (= mistakes).
    pub mistakes: usize,
    /// Epochs started.
    pub epochs: usize,
    /// The point visited next in the current epoch; n once the epoch is over (and before the
    /// first).
    next: usize,
    /// No mistake yet in the current epoch.
    clean: bool,
    pub converged: bool,
    pub out_of_work: bool,
    /// Kernel-row additions so far, against [`WORK_LIMIT`].
    work: usize,
    /// The point of the last update.
    pub last_update: Option<usize>,
    /// Mistakes in every epoch started (cheap: one number an epoch, so always kept).
    pub per_epoch: Vec<f64>,
}

/// What a run visits: the training points with y_i ∈ {−1, +1}, the kernel and the epoch cap.
pub(super) struct Problem<'a> {
    pub points: &'a [Point],
    pub y: &'a [f64],
    pub kernel: Kernel,
    pub max_epochs: usize,
}

/// The work [`Run::advance`] did, for the trainer's counters.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Work {
    pub updates: usize,
    pub visits: usize,
}

impl Run {
    /// w̃ = 0, before the first epoch.
    pub fn start(n: usize) -> Run {
        Run {
            w: [0.0; 2],
            b: 0.0,
            f: vec![0.0; n],
            alpha: vec![0.0; n],
            mistakes: 0,
            epochs: 0,
            next: n,
            clean: false,
            converged: false,
            out_of_work: false,
            work: 0,
            last_update: None,
            per_epoch: Vec::new(),
        }
    }

    /// Runs on until the run ends or until `updates` updates are made and the next mistake
    /// is found (so that the run stops where that update would be made, and going on from
    /// here makes it). A run that has ended returns the same [`Stop`] again, doing nothing.
    /// `cache` must describe `problem`'s kernel on its points unless the kernel is linear.
    pub fn advance(
        &mut self,
        problem: &Problem<'_>,
        cache: &mut KernelCache,
        updates: usize,
        done: &mut Work,
    ) -> Stop {
        let Problem {
            points,
            y,
            kernel,
            max_epochs,
        } = *problem;
        let n = points.len();
        // The linear kernel runs in the primal: f(x_i) = wᵀx_i + b costs O(1) per visit. Other
        // kernels keep f at every training point up to date column by column.
        let linear = kernel.is_linear();
        loop {
            if self.next == n {
                if self.epochs > 0 && self.clean {
                    self.converged = true;
                    return Stop::Converged;
                }
                if self.epochs >= max_epochs {
                    return Stop::EpochCap;
                }
                self.epochs += 1;
                self.per_epoch.push(0.0);
                self.next = 0;
                self.clean = true;
                continue;
            }
            let i = self.next;
            let fi = if linear {
                self.w[0] * points[i][0] + self.w[1] * points[i][1] + self.b
            } else {
                self.f[i]
            };
            if y[i] * fi > 0.0 {
                done.visits += 1;
                self.next += 1;
                continue;
            }
            // Stopping at a mistake leaves `next` on it: going on from here visits point i
            // again and finds the same mistake (nothing changed f in between), so that visit
            // is counted once, when the update is made.
            if self.mistakes >= updates {
                return Stop::Updates;
            }
            if self.work > WORK_LIMIT {
                self.out_of_work = true;
                return Stop::OutOfWork;
            }
            done.visits += 1;
            self.clean = false;
            self.mistakes += 1;
            *self.per_epoch.last_mut().expect("an epoch has begun") += 1.0;
            self.alpha[i] += 1.0;
            self.last_update = Some(i);
            if linear {
                self.w = [
                    self.w[0] + y[i] * points[i][0],
                    self.w[1] + y[i] * points[i][1],
                ];
                self.b += y[i];
            } else {
                // Each update adds y_i (K(x_i, x_k) + 1) to f(x_k); a point's column is
                // computed on its first mistake and kept (up to the cache's budget) for its
                // later ones, and for the runs after this one on the same points.
                cache.ensure(i, points);
                for (fk, k) in self.f.iter_mut().zip(cache.column(i)) {
                    *fk += y[i] * (k + 1.0);
                }
                self.work += n;
            }
            done.updates += 1;
            self.next += 1;
        }
    }
}

/// A run cut short by stepping, with what it ran on.
#[derive(Clone, Debug)]
struct SteppedRun {
    points: Vec<Point>,
    labels: Vec<i32>,
    /// The parameters, without the step count and the recording (neither changes the run).
    params: PerceptronParams,
    run: Run,
    /// Novikoff's bound, once the run has converged and it was computed.
    novikoff: Option<Option<f64>>,
}

/// What the perceptron keeps between fits: the run stepped last, so that one more step on the
/// same points and parameters makes one update from there, and the kernel columns.
#[derive(Clone, Debug)]
pub struct PerceptronTrainer {
    stepped: Option<Box<SteppedRun>>,
    cache: KernelCache,
    /// The points `cache`'s columns were computed on.
    cached_points: Vec<Point>,
    /// Every update this trainer has made (how a test sees that a step costs one).
    pub updates: usize,
    /// Every visit of a point (a test of y_i f(x_i) ≤ 0) this trainer has made.
    pub visits: usize,
}

impl Default for PerceptronTrainer {
    fn default() -> Self {
        Self::new()
    }
}

impl PerceptronTrainer {
    pub fn new() -> Self {
        Self {
            stepped: None,
            cache: KernelCache::new(CACHE_BYTES),
            cached_points: Vec::new(),
            updates: 0,
            visits: 0,
        }
    }

    /// Runs the perceptron from w̃ = 0, or, on the points, labels and parameters of the run
    /// stepped last and asked for at least as many updates as it made, from where that run
    /// stopped. A run limited to a number of updates (`params.max_updates`) is kept.
    pub fn fit(
        &mut self,
        points: &[Point],
        labels: &[i32],
        params: &PerceptronParams,
    ) -> Result<PerceptronModel, Error> {
        params.check()?;
        let data = Dataset::from_parts(points.to_vec(), labels.to_vec());
        let (classes, y) = data.binary_targets()?;
        let budget = params.max_updates.unwrap_or(usize::MAX);
        let same = PerceptronParams {
            max_updates: None,
            record: false,
            ..*params
        };
        let kept = self.stepped.take().filter(|kept| {
            kept.params == same
                && kept.points == points
                && kept.labels == labels
                && kept.run.mistakes <= budget
        });
        let mut kept = kept.unwrap_or_else(|| {
            Box::new(SteppedRun {
                points: points.to_vec(),
                labels: labels.to_vec(),
                params: same,
                run: Run::start(points.len()),
                novikoff: None,
            })
        });
        let kernel = params.kernel;
        if !kernel.is_linear() {
            self.prepare_cache(kernel, points);
        }
        let problem = Problem {
            points,
            y: &y,
            kernel,
            max_epochs: params.max_epochs,
        };
        let mut done = Work::default();
        let stop = kept
            .run
            .advance(&problem, &mut self.cache, budget, &mut done);
        self.updates += done.updates;
        self.visits += done.visits;
        if kept.run.converged && kept.novikoff.is_none() {
            kept.novikoff = Some(
                (points.len() <= NOVIKOFF_LIMIT)
                    .then(|| novikoff_bound(points, &y, kernel))
                    .flatten(),
            );
        }
        let model = PerceptronModel::from_run(
            points,
            classes,
            y,
            params,
            &kept.run,
            stop,
            kept.novikoff.flatten(),
        );
        if params.max_updates.is_some() {
            self.stepped = Some(kept);
        }
        Ok(model)
    }

    /// Makes the cache describe `kernel` on `points`, emptying it first if its columns were
    /// computed on other points.
    fn prepare_cache(&mut self, kernel: Kernel, points: &[Point]) {
        if self.cached_points != points {
            self.cache.invalidate();
            self.cached_points = points.to_vec();
        }
        self.cache.prepare(kernel, points);
    }

    /// Nothing cached holds any more.
    fn drop_cache(&mut self) {
        self.cache.invalidate();
        self.cached_points.clear();
    }
}

impl WarmStart for PerceptronTrainer {
    fn point_added(&mut self) {
        self.stepped = None;
        self.drop_cache();
    }
    fn point_moved(&mut self, index: usize, points: &[Point]) {
        self.stepped = None;
        if index < points.len() && self.cached_points.len() == points.len() {
            self.cache.point_moved(index, points);
            self.cached_points[index] = points[index];
        } else {
            self.drop_cache();
        }
    }
    fn point_removed(&mut self, _index: usize) {
        self.stepped = None;
        self.drop_cache();
    }
    fn forget(&mut self) {
        self.stepped = None;
    }
    fn data_replaced(&mut self) {
        self.stepped = None;
        self.drop_cache();
    }
    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

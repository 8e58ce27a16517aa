//! The SVM's regularisation path (CURRICULUM §3): the dual solution α(C) at log-spaced values
//! of C, traced from the smallest C to the largest with warm starts — each fit starts from the
//! last α scaled by C_new/C_old ([`SvmTrainer`]), so the whole path costs a few cold fits.
//!
//! Along it, for every C: each α_i and its KKT case (α = 0, free 0 < α < C, bound α = C),
//! ‖w‖ from the multipliers alone, ‖w‖² = Σ_ij α_i α_j y_i y_j K(x_i, x_j), and for the linear
//! kernel the margin width 2/‖w‖.
//!
//! What the path shows at small C follows from the dual. The objective Σα_i − ½‖w‖² is linear
//! in α to first order and ‖w‖² is O(C²), so for C small enough the fit maximises Σα_i subject
//! to Σ y_i α_i = 0 and 0 ≤ α_i ≤ C: every point of the smaller class is bound (α = C), and the
//! larger class shares the same total n_min·C. With balanced classes every α is C; otherwise
//! at least n_min points of the larger class carry it (at most n_min of them bound). Either
//! way α/C stops changing: the boundary stops rotating, and only ‖w‖ ∝ C shrinks.
//!
//! The path is computed a value of C at a time ([`PathJob::step`]) so that the page can spread
//! it over frames, or run it in a Web Worker and hand the result over ([`PathProgress`]).

use crate::core::data::Dataset;
use crate::core::error::Error;
use crate::core::job::{adopt_as, progress_as_json, Job};
use crate::core::params::Values;
use crate::methods::model::{ExitReason, Method};
use crate::methods::solvers::smo::SvmTrainer;
use crate::methods::solvers::svm::{SvmParams, SvmSolver};
use serde::{Deserialize, Serialize};

/// LIBSVM's number of the C-SVC, the SVM whose dual the path follows.
const C_SVC: u8 = 0;

/// How many values of C the path visits.
pub const PATH_STEPS: usize = 50;

/// The solution at one C of the path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathPoint {
    /// α_i for every training point, in input order.
    pub alpha: Vec<f64>,
    /// ‖w‖ in the kernel's feature space.
    pub w_norm: f64,
    /// SMO's iterations at this C (from the previous C's solution).
    pub iterations: usize,
    /// Whether SMO reached its tolerance (not its iteration cap).
    pub converged: bool,
}

impl PathPoint {
    /// How many support vectors are free (0 < α < C) and how many bound (α = C).
    pub fn counts(&self, c: f64) -> (usize, usize) {
        let free = self.alpha.iter().filter(|&&a| a > 0.0 && a < c).count();
        let bound = self.alpha.iter().filter(|&&a| a >= c).count();
        (free, bound)
    }
}

/// What a [`PathJob`] has computed, to hand to a copy of it elsewhere.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathProgress {
    pub points: Vec<Option<PathPoint>>,
    pub problem: Option<String>,
}

/// The path over `c` for a scene, filled in a C at a time.
#[derive(Debug)]
pub struct PathJob {
    /// The values of C, ascending.
    pub c: Vec<f64>,
    /// y_i ∈ {−1, +1} (the larger label is +1), empty when there is no path.
    pub y: Vec<f64>,
    /// The solution at each C, once computed.
    pub points: Vec<Option<PathPoint>>,
    /// Whether the kernel is linear (then the margin width is 2/‖w‖ in the plane).
    pub linear: bool,
    /// Why there is no path, or why it stopped.
    pub problem: Option<String>,
    data: Dataset,
    params: Option<SvmParams>,
    trainer: SvmTrainer,
}

/// `count` values from 10^`lo` to 10^`hi`, evenly spaced in log C.
pub fn log_spaced(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    (0..count)
        .map(|k| {
            let t = if count > 1 {
                k as f64 / (count - 1) as f64
            } else {
                0.0
            };
            10f64.powf(lo + t * (hi - lo))
        })
        .collect()
}

impl PathJob {
    /// The path of `method` with `values` (C aside) on `data` over `c`. Only the C-SVC (LIBSVM's
    /// SVM type 0, [`Method::svm_type`]) has one, since the path is of its dual, and only for
    /// two classes; otherwise the job is done at once and says why.
    pub fn new(method: &dyn Method, values: &Values, data: &Dataset, c: Vec<f64>) -> PathJob {
        let classes = data.classes();
        let c_svc = method.svm_type() == Some(C_SVC);
        let params = SvmParams::from_values(values, None);
        let problem = match (c_svc, &params) {
            (false, _) => Some(format!(
                "the regularisation path is the SVM's; {} has none",
                method.title()
            )),
            (_, Err(e)) => Some(e.to_string()),
            _ if classes.len() != 2 => Some(format!(
                "the path is drawn for two classes, and the training points have {}",
                classes.len()
            )),
            _ => None,
        };
        let top = classes.last().copied();
        PathJob {
            points: vec![None; c.len()],
            c,
            y: if problem.is_none() {
                data.labels
                    .iter()
                    .map(|&l| if Some(l) == top { 1.0 } else { -1.0 })
                    .collect()
            } else {
                Vec::new()
            },
            linear: params.as_ref().is_ok_and(|p| p.kernel.is_linear()),
            problem,
            data: data.clone(),
            params: params.ok(),
            trainer: SvmTrainer::new(),
        }
    }

    /// The solver the settings chose, when it is not SMO: the path is always SMO's (with a
    /// bias), which DCA and Pegasos only approach.
    pub fn other_solver(&self) -> Option<&'static str> {
        self.params
            .map(|p| p.solver)
            .filter(|&s| s != SvmSolver::Smo)
            .map(SvmSolver::title)
    }

    /// How many values of C are solved.
    pub fn finished(&self) -> usize {
        self.points.iter().filter(|p| p.is_some()).count()
    }

    pub fn done(&self) -> bool {
        self.problem.is_some() || self.points.iter().all(|p| p.is_some())
    }

    /// Solves the next C (warm from the last); returns whether work remains.
    pub fn step(&mut self) -> bool {
        if self.done() {
            return false;
        }
        let Some(k) = self.points.iter().position(|p| p.is_none()) else {
            return false;
        };
        let params = SvmParams {
            c: self.c[k],
            ..self.params.expect("checked in new")
        };
        match self.solve(&params) {
            Ok(point) => self.points[k] = Some(point),
            Err(e) => {
                self.problem = Some(format!("the fit at C = {} failed: {e}", self.c[k]));
                return false;
            }
        }
        !self.done()
    }

    fn solve(&mut self, params: &SvmParams) -> Result<PathPoint, Error> {
        let model = self
            .trainer
            .fit(&self.data.points, &self.data.labels, params)?;
        let alpha = snap_bound(model.alpha, params.c);
        let w_norm = w_norm(params.kernel, &self.data, &model.y, &alpha);
        Ok(PathPoint {
            alpha,
            w_norm,
            iterations: model.report.iterations,
            converged: model.report.exit == ExitReason::Converged,
        })
    }

    /// What has been computed, for a copy of this job elsewhere.
    pub fn progress(&self) -> PathProgress {
        PathProgress {
            points: self.points.clone(),
            problem: self.problem.clone(),
        }
    }

    /// Takes over what a copy of this job computed; it goes on from there (the next C starts
    /// cold, since this copy's trainer has not seen the last α).
    pub fn adopt(&mut self, progress: PathProgress) {
        if progress.points.len() != self.points.len() {
            return;
        }
        self.points = progress
            .points
            .into_iter()
            .zip(&self.c)
            .map(|(point, &c)| {
                point.map(|p| PathPoint {
                    alpha: snap_bound(p.alpha, c),
                    ..p
                })
            })
            .collect();
        self.problem = progress.problem;
        self.trainer.forget();
    }

    /// The largest C of the path up to which α/C is what it is at the smallest C (within 1 %
    /// of C): the regime where the boundary no longer rotates. `None` before the path starts.
    pub fn frozen_up_to(&self) -> Option<f64> {
        let first = self.points.first()?.as_ref()?;
        let pattern: Vec<f64> = first.alpha.iter().map(|a| a / self.c[0]).collect();
        let mut up_to = self.c[0];
        for (c, point) in self.c.iter().zip(&self.points) {
            let Some(point) = point else { break };
            let same = point
                .alpha
                .iter()
                .zip(&pattern)
                .all(|(a, p)| (a / c - p).abs() <= 0.01);
            if !same {
                break;
            }
            up_to = *c;
        }
        Some(up_to)
    }
}

impl Job for PathJob {
    fn step(&mut self) -> bool {
        PathJob::step(self)
    }

    fn done(&self) -> bool {
        PathJob::done(self)
    }

    fn counts(&self) -> (usize, usize) {
        (self.finished(), self.points.len())
    }

    fn stopped(&self) -> bool {
        self.problem.is_some()
    }

    fn progress_json(&self) -> serde_json::Value {
        progress_as_json(self.progress())
    }

    fn adopt_json(&mut self, progress: &serde_json::Value) -> bool {
        adopt_as(progress, |p: PathProgress| self.adopt(p))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `alpha` with every multiplier within 10⁻⁹·C of C set to C: it is bound. A warm start scales
/// the last α by C_new/C_old (C_old·(C_new/C_old) ≠ C_new in floating point) and SMO leaves a
/// multiplier it never picks where that puts it; and α handed over from a Web Worker as JSON
/// may come back an ulp off. SMO's own precision (a KKT violation of `tol`) is far coarser.
fn snap_bound(alpha: Vec<f64>, c: f64) -> Vec<f64> {
    alpha
        .into_iter()
        .map(|a| if a >= c * (1.0 - 1e-9) { c } else { a })
        .collect()
}

/// ‖w‖ = √(Σ_ij α_i α_j y_i y_j K(x_i, x_j)), over the support vectors.
pub fn w_norm(
    kernel: crate::core::kernel::Kernel,
    data: &Dataset,
    y: &[f64],
    alpha: &[f64],
) -> f64 {
    let support: Vec<usize> = (0..alpha.len()).filter(|&i| alpha[i] > 0.0).collect();
    let mut sum = 0.0;
    for (s, &i) in support.iter().enumerate() {
        let (xi, ci) = (data.points[i], alpha[i] * y[i]);
        sum += ci * ci * kernel.eval(xi, xi);
        for &j in &support[s + 1..] {
            sum += 2.0 * ci * alpha[j] * y[j] * kernel.eval(xi, data.points[j]);
        }
    }
    sum.max(0.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::playground::Playground;
    use crate::methods::solvers::svm::SvmModel;

    /// The training points and settings of a scene, and its whole path.
    fn path_of(hash: &str) -> (Dataset, Values, PathJob) {
        let lab = Playground::from_hash(hash);
        let data = lab.training_set().clone();
        let values = lab.settings().values.clone();
        let mut job = PathJob::new(
            lab.settings().method(),
            &values,
            &data,
            log_spaced(-3.0, 4.0, PATH_STEPS),
        );
        while job.step() {}
        assert!(job.problem.is_none(), "{:?}", job.problem);
        (data, values, job)
    }

    #[test]
    fn the_warm_path_is_a_cold_fit_at_every_c() {
        for hash in [
            "preset=overlapping&n=80&kernel=linear",
            "preset=moons&n=80&kernel=rbf&gamma=2",
        ] {
            let (data, values, job) = path_of(hash);
            let warm_iterations: usize = job.points.iter().flatten().map(|p| p.iterations).sum();
            for k in [0, 12, 25, 37, 49] {
                let c = job.c[k];
                let params = SvmParams {
                    c,
                    ..SvmParams::from_values(&values, None).unwrap()
                };
                let cold = SvmModel::fit(&data.points, &data.labels, &params).unwrap();
                let point = job.points[k].as_ref().unwrap();
                let worst = point
                    .alpha
                    .iter()
                    .zip(&cold.alpha)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max);
                // SMO stops at a KKT violation of 10⁻³: both ends are that close to the optimum.
                assert!(
                    worst <= (0.02 * c).min(0.05),
                    "{hash}, C = {c}: |Δα| = {worst}"
                );
                let norm = w_norm(params.kernel, &data, &cold.y, &cold.alpha);
                assert!(
                    (point.w_norm - norm).abs() <= 0.01 * norm,
                    "{hash}, C = {c}"
                );
            }
            assert!(job.points.iter().flatten().all(|p| p.converged), "{hash}");
            // The warm path costs fewer SMO iterations than fitting every C cold.
            let cold_path: usize = job
                .c
                .iter()
                .map(|&c| {
                    let params = SvmParams {
                        c,
                        ..SvmParams::from_values(&values, None).unwrap()
                    };
                    let cold = SvmModel::fit(&data.points, &data.labels, &params).unwrap();
                    cold.report.iterations
                })
                .sum();
            assert!(
                warm_iterations < cold_path,
                "{hash}: {warm_iterations} warm vs {cold_path} cold"
            );
        }
    }

    #[test]
    fn at_small_c_every_alpha_is_c_when_the_classes_are_balanced() {
        let (_, _, job) = path_of("preset=overlapping&n=80&kernel=rbf");
        let positive = job.y.iter().filter(|&&y| y > 0.0).count();
        assert_eq!(positive * 2, job.y.len(), "a balanced preset");
        let first = job.points[0].as_ref().unwrap();
        assert!(first.alpha.iter().all(|&a| a == job.c[0]));
        assert_eq!(first.counts(job.c[0]), (0, job.y.len()));
        // α/C stays put: the boundary stops rotating while ‖w‖ ∝ C.
        let up_to = job.frozen_up_to().unwrap();
        assert!(up_to >= job.c[3], "{up_to}");
        let second = job.points[1].as_ref().unwrap();
        let ratio = second.w_norm / first.w_norm;
        assert!((ratio - job.c[1] / job.c[0]).abs() < 1e-9, "{ratio}");
    }

    #[test]
    fn at_small_c_the_smaller_class_is_bound_and_the_larger_shares_its_total() {
        let lab = Playground::from_hash("preset=overlapping&n=80&kernel=linear");
        let all = lab.training_set().clone();
        // Keep 40 points of one class and 15 of the other.
        let top = *all.labels.iter().max().unwrap();
        let mut kept = 0;
        let (mut points, mut labels) = (Vec::new(), Vec::new());
        for (&p, &l) in all.points.iter().zip(&all.labels) {
            if l == top {
                if kept == 15 {
                    continue;
                }
                kept += 1;
            }
            points.push(p);
            labels.push(l);
        }
        let data = Dataset::from_parts(points, labels);
        let mut job = PathJob::new(
            lab.settings().method(),
            &lab.settings().values,
            &data,
            log_spaced(-3.0, 4.0, PATH_STEPS),
        );
        while job.step() {}
        let (c, first) = (job.c[0], job.points[0].as_ref().unwrap());
        let minority: Vec<usize> = (0..job.y.len()).filter(|&i| job.y[i] > 0.0).collect();
        let majority: Vec<usize> = (0..job.y.len()).filter(|&i| job.y[i] < 0.0).collect();
        assert_eq!((minority.len(), majority.len()), (15, 40));
        assert!(minority.iter().all(|&i| first.alpha[i] == c));
        // Σ yᵢαᵢ = 0: the larger class carries 15·C in all, so at most 15 of it are bound and
        // at least 15 are support vectors.
        let total: f64 = majority.iter().map(|&i| first.alpha[i]).sum();
        assert!((total - 15.0 * c).abs() < 1e-9 * c, "{total}");
        let bound = majority.iter().filter(|&&i| first.alpha[i] == c).count();
        let support = majority.iter().filter(|&&i| first.alpha[i] > 0.0).count();
        assert!(
            bound <= 15 && support >= 15,
            "{bound} bound, {support} support"
        );
        assert!(
            bound < majority.len(),
            "the larger class cannot all be bound"
        );
        assert_eq!(first.counts(c).1, 15 + bound);
    }

    #[test]
    fn a_path_handed_over_as_json_keeps_its_bound_multipliers() {
        let (data, values, job) = path_of("preset=overlapping&n=60&kernel=linear");
        let json = serde_json::to_string(&job.progress()).unwrap();
        let mut copy = PathJob::new(
            crate::methods::registry::method("svm").unwrap(),
            &values,
            &data,
            job.c.clone(),
        );
        copy.adopt(serde_json::from_str(&json).unwrap());
        assert!(copy.done());
        for ((c, mine), theirs) in job.c.iter().zip(&job.points).zip(&copy.points) {
            let (mine, theirs) = (mine.as_ref().unwrap(), theirs.as_ref().unwrap());
            assert_eq!(mine.counts(*c), theirs.counts(*c), "C = {c}");
        }
    }

    #[test]
    fn other_methods_and_more_classes_have_no_path() {
        let lab = Playground::from_hash("model=logistic&preset=moons&n=30");
        let job = PathJob::new(
            lab.settings().method(),
            &lab.settings().values,
            lab.training_set(),
            log_spaced(-3.0, 4.0, 5),
        );
        assert!(job.done() && job.problem.as_ref().unwrap().contains("SVM's"));
        let lab = Playground::from_hash("preset=blobs3&n=30");
        let job = PathJob::new(
            lab.settings().method(),
            &lab.settings().values,
            lab.training_set(),
            log_spaced(-3.0, 4.0, 5),
        );
        assert!(job.problem.as_ref().unwrap().contains("have 3"));
    }
}

//! The perceptron, primal and kernel (dual) in one: Rosenblatt's rule with the bias absorbed
//! by augmenting every input with a constant 1.
//!
//! Primal, on x̃ = (x, 1): whenever y_i f(x_i) ≤ 0 (a mistake), w̃ ← w̃ + y_i x̃_i. Writing w̃ as
//! Σ α_i y_i x̃_i, α_i counts the mistakes made on x_i, and f(x) = Σ α_i y_i (x_iᵀx + 1): the
//! dual form, which only needs inner products and so takes any kernel,
//! f(x) = Σ α_i y_i (K(x_i, x) + 1). For the linear kernel the two are the same algorithm, and
//! w = Σ α_i y_i x_i, b = Σ α_i y_i.
//!
//! Points are visited in input order, epoch after epoch; the run stops after an epoch without
//! a mistake (the data are separated: converged) or at the epoch cap (it never stops on
//! non-separable data).
//!
//! Novikoff's theorem: if ‖x̃_i‖ ≤ R and some w̃ separates the data with geometric margin γ
//! (through the origin of the augmented space), the perceptron makes at most (R/γ)² mistakes.
//! [`max_margin_through_origin`] finds the best such γ: the hard-margin SVM without bias on the
//! augmented inputs, solved by dual coordinate ascent
//! α_i ← max(0, α_i + (1 − y_i f(x_i))/K̃_ii), where at the optimum ‖w̃‖² = Σα_i and γ = 1/‖w̃‖.

use crate::data::Point;
use crate::error::Error;
use crate::field::{expansion_evaluator, Grid};
use crate::kernel::{Kernel, KernelCache};
use crate::model::{Classifier, ExitReason, FitReport};

/// The memory the kernel-column cache of a run may use.
const CACHE_BYTES: usize = 64 << 20;

/// The parameters of a perceptron run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerceptronParams {
    pub kernel: Kernel,
    /// Stop after this many epochs even if mistakes remain.
    pub max_epochs: usize,
    /// Stop after this many updates (for stepping through a run); `None` runs to the end.
    pub max_updates: Option<usize>,
}

impl PerceptronParams {
    pub fn new(kernel: Kernel, max_epochs: usize) -> Self {
        Self {
            kernel,
            max_epochs,
            max_updates: None,
        }
    }

    pub fn check(&self) -> Result<(), Error> {
        if !(1..=10_000).contains(&self.max_epochs) {
            return Err(Error::Parameter(
                "max epochs must be between 1 and 10000".into(),
            ));
        }
        Ok(())
    }
}

/// A perceptron after (part of) a run.
#[derive(Clone, Debug)]
pub struct PerceptronModel {
    pub kernel: Kernel,
    pub classes: [i32; 2],
    pub points: Vec<Point>,
    pub y: Vec<f64>,
    /// α_i: the number of mistakes made on point i.
    pub alpha: Vec<f64>,
    /// (w, b) for the linear kernel.
    pub w: Option<[f64; 2]>,
    pub bias: f64,
    /// Total mistakes (= updates).
    pub mistakes: usize,
    /// Epochs started.
    pub epochs: usize,
    /// An epoch passed without a mistake.
    pub converged: bool,
    /// The point of the last update, when the run was limited to a number of updates (stepping).
    pub last_update: Option<usize>,
    pub report: FitReport,
    /// (x_i, α_i y_i) for the points with mistakes: f(x) = Σ α_i y_i K(x_i, x) + b.
    expansion: Vec<(Point, f64)>,
}

impl PerceptronModel {
    pub fn fit(
        points: &[Point],
        labels: &[i32],
        params: &PerceptronParams,
    ) -> Result<PerceptronModel, Error> {
        params.check()?;
        let data = crate::data::Dataset {
            points: points.to_vec(),
            labels: labels.to_vec(),
        };
        let (classes, y) = data.binary_targets()?;
        let n = points.len();
        let kernel = params.kernel;
        // f at each training point, kept up to date column by column: each update adds
        // y_i (K(x_i, x_k) + 1) to f(x_k). Kernel columns are computed once, on a point's first
        // mistake, and kept (up to the cache's budget) for its later ones.
        let mut cache = KernelCache::new(CACHE_BYTES);
        cache.prepare(kernel, points);
        let mut f = vec![0.0; n];
        let mut alpha = vec![0.0; n];
        let mut mistakes = 0;
        let mut epochs = 0;
        let mut converged = false;
        let mut last_update = None;
        let budget = params.max_updates.unwrap_or(usize::MAX);
        'run: while epochs < params.max_epochs {
            epochs += 1;
            let mut clean = true;
            for i in 0..n {
                if y[i] * f[i] > 0.0 {
                    continue;
                }
                if mistakes >= budget {
                    break 'run;
                }
                clean = false;
                mistakes += 1;
                alpha[i] += 1.0;
                last_update = Some(i);
                cache.ensure(i, points);
                for (fk, k) in f.iter_mut().zip(cache.column(i)) {
                    *fk += y[i] * (k + 1.0);
                }
            }
            if clean {
                converged = true;
                break;
            }
        }
        let bias: f64 = alpha.iter().zip(&y).map(|(a, yi)| a * yi).sum();
        let w = kernel.is_linear().then(|| {
            (0..n).fold([0.0, 0.0], |w, i| {
                let c = alpha[i] * y[i];
                [w[0] + c * points[i][0], w[1] + c * points[i][1]]
            })
        });
        let expansion = (0..n)
            .filter(|&i| alpha[i] > 0.0)
            .map(|i| (points[i], alpha[i] * y[i]))
            .collect();
        Ok(PerceptronModel {
            expansion,
            kernel,
            classes,
            points: points.to_vec(),
            y,
            alpha,
            w,
            bias,
            mistakes,
            epochs,
            converged,
            last_update: params.max_updates.and(last_update),
            report: FitReport {
                iterations: mistakes,
                exit: if converged {
                    ExitReason::Converged
                } else {
                    ExitReason::IterationCap
                },
                objective: mistakes as f64,
                warm_start: false,
            },
        })
    }

    /// Novikoff's bound (R/γ)² for these points and this kernel, if they are separable
    /// through the origin of the augmented feature space.
    pub fn novikoff_bound(&self) -> Option<f64> {
        let radius2 = self
            .points
            .iter()
            .map(|&p| self.kernel.eval(p, p) + 1.0)
            .fold(0.0, f64::max);
        let gamma = max_margin_through_origin(&self.points, &self.y, self.kernel)?;
        Some(radius2 / (gamma * gamma))
    }
}

impl Classifier for PerceptronModel {
    fn method(&self) -> &'static str {
        "perceptron"
    }

    fn classes(&self) -> [i32; 2] {
        self.classes
    }

    fn decision_value(&self, x: Point) -> f64 {
        if let Some(w) = self.w {
            return w[0] * x[0] + w[1] * x[1] + self.bias;
        }
        // Σ α_i y_i (K(x_i, x) + 1) = Σ α_i y_i K(x_i, x) + b with b = Σ α_i y_i.
        self.bias
            + self
                .expansion
                .iter()
                .map(|&(z, c)| c * self.kernel.eval(z, x))
                .sum::<f64>()
    }

    fn grid_evaluator<'a>(&'a self, grid: &'a Grid) -> Box<dyn Fn(usize, usize) -> f64 + 'a> {
        match self.w {
            Some(_) => Box::new(move |row, col| self.decision_value(grid.node(row, col))),
            None => expansion_evaluator(self.kernel, &self.expansion, self.bias, grid),
        }
    }
}

/// The largest geometric margin γ of a separator through the origin of the augmented space
/// (K̃ = K + 1), or `None` when the points are not separable that way (or too nearly so to
/// tell within the iteration budget).
pub fn max_margin_through_origin(points: &[Point], y: &[f64], kernel: Kernel) -> Option<f64> {
    let n = points.len();
    if n == 0 {
        return None;
    }
    let gram: Vec<f64> = kernel.gram(points).iter().map(|k| k + 1.0).collect();
    let mut alpha = vec![0.0; n];
    // f_i = Σ_j α_j y_j K̃_ij, kept up to date.
    let mut f = vec![0.0; n];
    for _sweep in 0..5_000 {
        let mut worst: f64 = 0.0;
        for i in 0..n {
            let kii = gram[i * n + i];
            if kii <= 0.0 {
                return None;
            }
            let violation = 1.0 - y[i] * f[i];
            let new = (alpha[i] + violation / kii).max(0.0);
            let delta = new - alpha[i];
            if delta != 0.0 {
                worst = worst.max((delta * kii).abs());
                alpha[i] = new;
                for k in 0..n {
                    f[k] += delta * y[i] * gram[i * n + k];
                }
            }
            if !alpha[i].is_finite() || alpha[i] > 1e12 {
                return None;
            }
        }
        if worst < 1e-9 {
            // ‖w̃‖² = Σ_i α_i at the hard-margin optimum (from the KKT conditions).
            let norm2: f64 = alpha.iter().sum();
            let separated = (0..n).all(|i| y[i] * f[i] >= 1.0 - 1e-6);
            return (separated && norm2 > 0.0).then(|| 1.0 / norm2.sqrt());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Preset;

    #[test]
    fn separable_data_converge_within_the_novikoff_bound() {
        for seed in 0..5 {
            let data = Preset::Separable.generate(60, 0.0, seed);
            let model = PerceptronModel::fit(
                &data.points,
                &data.labels,
                &PerceptronParams::new(Kernel::Linear, 1000),
            )
            .unwrap();
            assert!(model.converged);
            assert_eq!(model.accuracy(&data.points, &data.labels), 1.0);
            let bound = model.novikoff_bound().expect("separable");
            assert!(
                model.mistakes as f64 <= bound,
                "{} > {bound}",
                model.mistakes
            );
            // Primal and dual agree for the linear kernel.
            let w = model.w.unwrap();
            for &p in &data.points {
                let dual: f64 = (0..data.len())
                    .map(|i| {
                        model.alpha[i]
                            * model.y[i]
                            * (data.points[i][0] * p[0] + data.points[i][1] * p[1] + 1.0)
                    })
                    .sum();
                assert!((w[0] * p[0] + w[1] * p[1] + model.bias - dual).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn kernel_perceptron_grid_matches_its_decision_function() {
        let data = Preset::Xor.generate(60, 0.1, 4);
        for kernel in [
            Kernel::Rbf { gamma: 4.0 },
            Kernel::Polynomial {
                gamma: 1.0,
                degree: 2,
                coef0: 0.5,
            },
        ] {
            let model = PerceptronModel::fit(
                &data.points,
                &data.labels,
                &PerceptronParams::new(kernel, 50),
            )
            .unwrap();
            let grid = Grid::new(crate::field::View::square(1.0), 7, 9);
            let fast = model.grid_evaluator(&grid);
            for r in 0..grid.rows {
                for c in 0..grid.cols {
                    let direct: f64 = (0..data.len())
                        .map(|i| {
                            model.alpha[i]
                                * model.y[i]
                                * (kernel.eval(data.points[i], grid.node(r, c)) + 1.0)
                        })
                        .sum();
                    assert!(
                        (fast(r, c) - direct).abs() < 1e-9 * direct.abs().max(1.0),
                        "{kernel:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn non_separable_data_stop_at_the_epoch_cap() {
        let data = Preset::Overlapping.generate(60, 0.3, 1);
        let model = PerceptronModel::fit(
            &data.points,
            &data.labels,
            &PerceptronParams::new(Kernel::Linear, 25),
        )
        .unwrap();
        assert!(!model.converged);
        assert_eq!(model.epochs, 25);
        assert!(model.novikoff_bound().is_none());
    }

    #[test]
    fn kernel_perceptron_separates_rings() {
        let data = Preset::Rings.generate(80, 0.0, 3);
        let kernel = Kernel::Polynomial {
            gamma: 1.0,
            degree: 2,
            coef0: 0.0,
        };
        let model = PerceptronModel::fit(
            &data.points,
            &data.labels,
            &PerceptronParams::new(kernel, 500),
        )
        .unwrap();
        assert!(model.converged);
        assert_eq!(model.accuracy(&data.points, &data.labels), 1.0);
        let linear = PerceptronModel::fit(
            &data.points,
            &data.labels,
            &PerceptronParams::new(Kernel::Linear, 50),
        )
        .unwrap();
        assert!(!linear.converged);
    }

    #[test]
    fn stepping_replays_the_run_update_by_update() {
        let data = Preset::Separable.generate(30, 0.1, 2);
        let params = PerceptronParams::new(Kernel::Linear, 100);
        let full = PerceptronModel::fit(&data.points, &data.labels, &params).unwrap();
        let mut previous = 0.0;
        for updates in 0..full.mistakes {
            let partial = PerceptronModel::fit(
                &data.points,
                &data.labels,
                &PerceptronParams {
                    max_updates: Some(updates + 1),
                    ..params
                },
            )
            .unwrap();
            assert_eq!(partial.mistakes, updates + 1);
            let i = partial.last_update.expect("stopped at an update");
            // The highlighted point was misclassified before its update.
            let total: f64 = partial.alpha.iter().sum();
            assert_eq!(total, previous + 1.0);
            assert!(partial.alpha[i] >= 1.0);
            previous = total;
        }
    }

    #[test]
    fn margin_through_origin_of_two_points() {
        // x̃ = (±1, 0, 1): the best separator through the origin is w̃ = (1, 0, 0), γ = 1.
        let gamma =
            max_margin_through_origin(&[[-1.0, 0.0], [1.0, 0.0]], &[-1.0, 1.0], Kernel::Linear)
                .unwrap();
        assert!((gamma - 1.0).abs() < 1e-6, "{gamma}");
    }
}

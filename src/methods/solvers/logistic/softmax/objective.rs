//! The softmax problem as the solvers see it: J(θ), its gradient and Hessian over the stacked
//! θ = (w_1, b_1, …, w_K, b_K), from the design matrix Φ̃ = (φ(x_i), 1), each point's class and
//! λ (the formulas are the parent module's).

use super::super::{design, FeatureMap, Objective};
use crate::core::data::Point;
use crate::methods::model::MAX_CLASSES;
use crate::methods::solvers::gaussian::{log_sum_exp, softmax};
use nalgebra::{DMatrix, DVector};

/// The softmax problem: the design matrix Φ̃ = (φ(x_i), 1), each point's class index and λ.
#[derive(Clone, Debug)]
pub(in crate::methods::solvers::logistic) struct Softmax {
    phi: DMatrix<f64>,
    class: Vec<usize>,
    classes: usize,
    lambda: f64,
}

impl Softmax {
    pub(in crate::methods::solvers::logistic) fn new(
        map: &FeatureMap,
        points: &[Point],
        class: Vec<usize>,
        classes: usize,
        lambda: f64,
    ) -> Self {
        Softmax {
            phi: design(map, points),
            class,
            classes,
            lambda,
        }
    }

    /// Coordinates per class: the weights and the bias.
    pub(in crate::methods::solvers::logistic) fn width(&self) -> usize {
        self.phi.ncols()
    }

    /// The scores s_ik, one row per point.
    fn scores(&self, theta: &DVector<f64>) -> DMatrix<f64> {
        // Class by class, Φ̃θ_k: a product of two matrices would bring a general matrix
        // multiplication into the page's WebAssembly for this one use.
        let width = self.width();
        let mut scores = DMatrix::zeros(self.points(), self.classes);
        for k in 0..self.classes {
            scores.set_column(k, &(&self.phi * theta.rows(k * width, width)));
        }
        scores
    }

    /// Σ_i [log Σ_k exp(s_ik) − s_{i,y_i}], the cross-entropy without the penalty.
    pub(in crate::methods::solvers::logistic) fn cross_entropy(&self, theta: &DVector<f64>) -> f64 {
        let scores = self.scores(theta);
        let mut row = [0.0; MAX_CLASSES];
        let row = &mut row[..self.classes];
        (0..scores.nrows())
            .map(|i| {
                row.iter_mut()
                    .zip(scores.row(i).iter())
                    .for_each(|(r, s)| *r = *s);
                log_sum_exp(row) - row[self.class[i]]
            })
            .sum()
    }

    /// The probabilities p_ik, one row per point.
    fn probabilities(&self, theta: &DVector<f64>) -> DMatrix<f64> {
        let mut p = self.scores(theta);
        let mut row = [0.0; MAX_CLASSES];
        let row = &mut row[..self.classes];
        for i in 0..p.nrows() {
            row.iter_mut()
                .zip(p.row(i).iter())
                .for_each(|(r, s)| *r = *s);
            softmax(row);
            p.row_mut(i)
                .iter_mut()
                .zip(row.iter())
                .for_each(|(q, r)| *q = *r);
        }
        p
    }

    /// (λ/2) Σ_k ‖w_k‖².
    fn penalty(&self, theta: &DVector<f64>) -> f64 {
        let width = self.width();
        let w2: f64 = (0..self.classes)
            .map(|k| theta.rows(k * width, width - 1).norm_squared())
            .sum();
        0.5 * self.lambda * w2
    }
}

impl Objective for Softmax {
    fn dimension(&self) -> usize {
        self.classes * self.width()
    }

    fn points(&self) -> usize {
        self.class.len()
    }

    fn objective(&self, theta: &DVector<f64>) -> f64 {
        self.cross_entropy(theta) + self.penalty(theta)
    }

    fn derivatives(
        &self,
        theta: &DVector<f64>,
        hessian: bool,
    ) -> (DVector<f64>, Option<DMatrix<f64>>) {
        let (n, width, classes) = (self.points(), self.width(), self.classes);
        let p = self.probabilities(theta);
        let mut residual = p.clone();
        for (i, &y) in self.class.iter().enumerate() {
            residual[(i, y)] -= 1.0;
        }
        let mut grad = self.phi.tr_mul(&residual);
        for k in 0..classes {
            for j in 0..width - 1 {
                grad[(j, k)] += self.lambda * theta[k * width + j];
            }
        }
        let grad = DVector::from_column_slice(grad.as_slice());
        let hess = hessian.then(|| {
            let mut h = DMatrix::zeros(self.dimension(), self.dimension());
            for k in 0..classes {
                for l in k..classes {
                    let mut weighted = self.phi.clone();
                    for i in 0..n {
                        let same = if k == l { 1.0 } else { 0.0 };
                        weighted
                            .row_mut(i)
                            .scale_mut(p[(i, k)] * (same - p[(i, l)]));
                    }
                    let block = self.phi.tr_mul(&weighted);
                    h.view_mut((k * width, l * width), (width, width))
                        .copy_from(&block);
                    if l != k {
                        h.view_mut((l * width, k * width), (width, width))
                            .copy_from(&block.transpose());
                    }
                }
            }
            for k in 0..classes {
                for j in 0..width - 1 {
                    h[(k * width + j, k * width + j)] += self.lambda;
                }
                // λ along "every bias alike", where the cross-entropy is flat (module docs).
                for l in 0..classes {
                    h[(k * width + width - 1, l * width + width - 1)] += self.lambda;
                }
            }
            h
        });
        (grad, hess)
    }
}

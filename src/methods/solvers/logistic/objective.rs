//! The objective J(w, b) = Σ_i log(1 + exp(−y_i f(x_i))) + (λ/2)‖w‖², its gradient and
//! Hessian on the design matrix, and Newton's method on it with a Gaussian prior of any
//! reach (which the Bayesian model reuses for its MAP estimate).

use super::{design, FeatureMap, LogisticParams, Objective, Run};
use crate::core::data::Point;
use crate::core::error::Error;
use nalgebra::{DMatrix, DVector};

/// log(1 + e^z) without overflow.
pub(super) fn softplus(z: f64) -> f64 {
    if z > 0.0 {
        z + (-z).exp().ln_1p()
    } else {
        z.exp().ln_1p()
    }
}

/// σ(z).
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// The design matrix with the constant column last, the targets, and J's pieces.
#[derive(Clone, Debug)]
pub(super) struct Problem {
    pub(super) phi: DMatrix<f64>,
    pub(super) y: Vec<f64>,
    pub(super) lambda: f64,
    pub(super) p: usize,
    /// How many leading coordinates of θ the penalty holds: p (w alone) or p + 1 (the bias
    /// too).
    pub(super) penalised: usize,
}

impl Problem {
    /// Φ̃ = (φ(x_i), 1) for every point, with y_i ∈ {−1, +1} and λ.
    pub(super) fn new(map: &FeatureMap, points: &[Point], y: Vec<f64>, lambda: f64) -> Problem {
        let p = map.len();
        Problem {
            phi: design(map, points),
            y,
            lambda,
            p,
            penalised: p,
        }
    }
}

impl Objective for Problem {
    fn dimension(&self) -> usize {
        self.p + 1
    }

    fn points(&self) -> usize {
        self.y.len()
    }

    /// J(θ), θ = (w, b).
    fn objective(&self, theta: &DVector<f64>) -> f64 {
        let f = &self.phi * theta;
        let loss: f64 = f
            .iter()
            .zip(&self.y)
            .map(|(fi, yi)| softplus(-yi * fi))
            .sum();
        let w2: f64 = theta.rows(0, self.penalised).norm_squared();
        loss + 0.5 * self.lambda * w2
    }

    /// ∇J(θ) and, if asked, the Hessian.
    fn derivatives(
        &self,
        theta: &DVector<f64>,
        hessian: bool,
    ) -> (DVector<f64>, Option<DMatrix<f64>>) {
        let f = &self.phi * theta;
        let n = self.y.len();
        // ∂/∂f_i log(1 + e^(−y f)) = −y σ(−y f) = σ(f) − t.
        let residual = DVector::from_iterator(
            n,
            f.iter()
                .zip(&self.y)
                .map(|(fi, yi)| sigmoid(*fi) - (yi + 1.0) / 2.0),
        );
        let mut grad = self.phi.tr_mul(&residual);
        for j in 0..self.penalised {
            grad[j] += self.lambda * theta[j];
        }
        let hess = hessian.then(|| {
            let weights: Vec<f64> = f
                .iter()
                .map(|fi| {
                    let s = sigmoid(*fi);
                    s * (1.0 - s)
                })
                .collect();
            let mut weighted = self.phi.clone();
            for (i, w) in weights.iter().enumerate() {
                weighted.row_mut(i).scale_mut(*w);
            }
            let mut h = self.phi.tr_mul(&weighted);
            for j in 0..self.penalised {
                h[(j, j)] += self.lambda;
            }
            h
        });
        (grad, hess)
    }
}

/// Where the penalty (λ/2)‖·‖² reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prior {
    /// w alone: the bias is free, as in scikit-learn's `LogisticRegression`.
    Weights,
    /// Every coordinate of θ = (w, b): the prior N(0, λ⁻¹I) on all the weights.
    Everything,
}

/// What [`newton`] found.
#[derive(Clone, Debug)]
pub struct NewtonSolution {
    /// θ = (w, b), the bias last.
    pub theta: DVector<f64>,
    /// log p(D | θ) = −Σ_i log(1 + exp(−y_i f(x_i))).
    pub log_likelihood: f64,
    /// ∇²J at θ: Σ_i o_i(1 − o_i) φ̃_i φ̃_iᵀ, plus λ on the diagonal the prior reaches.
    pub hessian: DMatrix<f64>,
    pub iterations: usize,
    pub converged: bool,
    /// With λ = 0: an iterate put every training point strictly on its own side
    /// (y_i f(x_i) > 0 for all i), so the points are separable in the features and the
    /// likelihood has no maximum; the run stopped there.
    pub separated: bool,
}

/// Minimises J(θ) = −log p(D | θ) + (λ/2)‖θ‖², the penalty on the coordinates `prior` names,
/// from θ = 0 by the Newton iterations above, until ‖∇J‖ ≤ tol · max(1, J(0)) or `max_iter`
/// iterations. λ = 0 is allowed: the unregularised maximum likelihood, which stops as soon as
/// an iterate separates the points (then there is no maximum to go to).
pub fn newton(
    map: &FeatureMap,
    points: &[Point],
    y: &[f64],
    lambda: f64,
    prior: Prior,
    tol: f64,
    max_iter: usize,
) -> Result<NewtonSolution, Error> {
    let mut problem = Problem::new(map, points, y.to_vec(), lambda);
    if prior == Prior::Everything {
        problem.penalised = problem.p + 1;
    }
    let params = LogisticParams {
        tol,
        max_iter: Some(max_iter),
        ..LogisticParams::new(map.features, lambda)
    };
    let separates = |theta: &DVector<f64>| {
        (&problem.phi * theta)
            .iter()
            .zip(y)
            .all(|(f, y)| y * f > 0.0)
    };
    let mut run = Run::start(&problem, &params);
    let mut separated = false;
    while !run.converged && run.iterations < max_iter {
        run.iterate(&problem, &params)?;
        if lambda == 0.0 && separates(&run.theta) {
            separated = true;
            break;
        }
    }
    let (_, hessian) = problem.derivatives(&run.theta, true);
    let log_likelihood = -(&problem.phi * &run.theta)
        .iter()
        .zip(y)
        .map(|(f, y)| softplus(-y * f))
        .sum::<f64>();
    Ok(NewtonSolution {
        log_likelihood,
        hessian: hessian.expect("asked for the Hessian"),
        iterations: run.iterations,
        converged: run.converged,
        separated,
        theta: run.theta,
    })
}

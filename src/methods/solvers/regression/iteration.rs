//! The notes' gradient iteration for kernel ridge regression, which Step and Play run: from
//! β = 0,
//!
//! ```text
//!     β ← (1 − αλ)β + α(t − Kβ)  =  β − α∇J(β),     ∇J(β) = (K + λI)β − t,
//! ```
//!
//! gradient descent on J(β) = ½βᵀ(K + λI)β − tᵀβ, whose minimum is the closed form
//! β = (K + λI)⁻¹t. Each step shrinks the error β − β* by the factor I − α(K + λI), so it
//! converges for 0 < α < 2/(λ_max(K) + λ), slowly along the small eigenvalues (as (1 − αλ)^s
//! for the smallest). The lab takes α = 1/(λ + max_i Σ_j |K_ij|): Gershgorin's bound on
//! λ_max(K) keeps it safe for every kernel matrix.

use crate::methods::model::{Fact, Trace, TraceCurve, TracePanel};

/// The most multiply-adds a stepped fit spends (steps × n²): Play cannot stall the page.
const MAX_WORK: usize = 200_000_000;

/// Where a stepped run stands.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Steps taken (fewer than asked when the work cap stopped it).
    pub steps: usize,
    pub asked: usize,
    /// α.
    pub step_size: f64,
    /// ‖∇J(β)‖ = ‖(K + λI)β − t‖ at the end: 0 at the closed form.
    pub gradient: f64,
    /// Whether ‖∇J‖ is down to 10⁻¹⁰ max(1, ‖t‖): further steps change nothing drawn.
    pub converged: bool,
}

impl Iteration {
    /// Whether Step has nothing left to show: the closed form reached, or the work cap.
    pub fn ended(&self) -> bool {
        self.converged || self.steps < self.asked
    }
}

impl Iteration {
    pub fn facts(&self) -> Vec<Fact> {
        let mut step = Fact::new("steps", "gradient steps", self.steps as f64);
        if self.steps < self.asked {
            step = step.with_note(format!("of {} asked: the work cap", self.asked));
        }
        vec![
            step,
            Fact::new("step_size", "α =", self.step_size),
            Fact::new("gradient_norm", "‖(K + λI)β − t‖ =", self.gradient),
        ]
    }
}

/// β after `steps` steps from 0 on the Gram matrix `gram` (n × n, row-major) and targets t
/// (fewer once converged), where the run stands, and its trace (‖∇J‖ and the training RMSE per
/// step) when `record`.
pub fn iterate(
    gram: &[f64],
    targets: &[f64],
    lambda: f64,
    steps: usize,
    record: bool,
) -> (Vec<f64>, Iteration, Option<Trace>) {
    let n = targets.len();
    let bound = (0..n)
        .map(|i| {
            gram[i * n..(i + 1) * n]
                .iter()
                .map(|k| k.abs())
                .sum::<f64>()
        })
        .fold(0.0, f64::max);
    let alpha = 1.0 / (lambda + bound);
    let mut beta = vec![0.0; n];
    let (mut norms, mut rmses) = (Vec::new(), Vec::new());
    let allowed = (MAX_WORK / (n * n).max(1)).min(steps);
    let mut gradient = vec![0.0; n];
    let mut taken = 0;
    let tolerance = converged_below(targets);
    loop {
        // ∇J = (K + λI)β − t, and the fit at the training inputs Kβ.
        let mut squares = 0.0;
        for i in 0..n {
            let k_beta: f64 = gram[i * n..(i + 1) * n]
                .iter()
                .zip(&beta)
                .map(|(k, b)| k * b)
                .sum();
            gradient[i] = k_beta + lambda * beta[i] - targets[i];
            squares += (targets[i] - k_beta).powi(2);
        }
        if record {
            norms.push(norm(&gradient));
            rmses.push((squares / n.max(1) as f64).sqrt());
        }
        if taken == allowed || norm(&gradient) <= tolerance {
            break;
        }
        for i in 0..n {
            beta[i] -= alpha * gradient[i];
        }
        taken += 1;
    }
    let iteration = Iteration {
        steps: taken,
        asked: steps,
        step_size: alpha,
        gradient: norm(&gradient),
        converged: norm(&gradient) <= tolerance,
    };
    let trace = record.then(|| Trace {
        x_label: "gradient steps",
        first: 0,
        thinned_at: Vec::new(),
        panels: vec![
            TracePanel {
                y_label: "‖(K + λI)β − t‖",
                log: true,
                curves: vec![TraceCurve {
                    key: "gradient_norm",
                    label: "‖∇J(β)‖, 0 at the closed form",
                    values: norms,
                }],
            },
            TracePanel {
                y_label: "training RMSE",
                log: false,
                curves: vec![TraceCurve {
                    key: "train_rmse",
                    label: "training RMSE",
                    values: rmses,
                }],
            },
        ],
    });
    (beta, iteration, trace)
}

/// ‖∇J‖ at which the run has converged: 10⁻¹⁰ max(1, ‖t‖).
fn converged_below(targets: &[f64]) -> f64 {
    1e-10 * norm(targets).max(1.0)
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The iteration is the notes' update step by step, and runs towards the closed form
    /// β = (K + λI)⁻¹t (from nalgebra), its gradient falling all the way.
    #[test]
    fn steps_follow_the_update_and_reach_the_closed_form() {
        let gram = [1.0, 0.5, 0.1, 0.5, 1.0, 0.5, 0.1, 0.5, 1.0];
        let t = [1.0, -0.5, 0.25];
        let lambda = 0.1;
        let (one, run, trace) = iterate(&gram, &t, lambda, 1, true);
        let alpha = 1.0 / (lambda + 2.0);
        assert_eq!(run.step_size, alpha);
        // From β = 0 one step is αt.
        for i in 0..3 {
            assert!((one[i] - alpha * t[i]).abs() < 1e-15);
        }
        let trace = trace.unwrap();
        assert_eq!(trace.len(), 2);
        assert!((trace.curve("gradient_norm").unwrap()[0] - norm(&t)).abs() < 1e-15);
        let (beta, run, _) = iterate(&gram, &t, lambda, 20_000, false);
        let system = nalgebra::DMatrix::from_fn(3, 3, |i, j| {
            gram[i * 3 + j] + if i == j { lambda } else { 0.0 }
        });
        let closed = system
            .lu()
            .solve(&nalgebra::DVector::from_column_slice(&t))
            .unwrap();
        for i in 0..3 {
            assert!((beta[i] - closed[i]).abs() < 1e-9, "{i}");
        }
        assert!(run.gradient < 1e-9 && run.steps < 20_000 && run.converged && run.ended());
        assert!(!iterate(&gram, &t, lambda, 3, false).1.ended());
    }

    #[test]
    fn a_run_beyond_the_work_cap_stops_and_says_so() {
        let n = 1000;
        // A diagonal K with eigenvalues down to 1/n: far from converged after the cap's steps.
        let gram: Vec<f64> = (0..n * n)
            .map(|k| {
                if k % (n + 1) == 0 {
                    (k / n + 1) as f64 / n as f64
                } else {
                    0.0
                }
            })
            .collect();
        let t = vec![1.0; n];
        let (_, run, _) = iterate(&gram, &t, 0.001, 10_000, false);
        assert_eq!(run.steps, MAX_WORK / (n * n));
        assert!(run.facts()[0].note.is_some());
    }
}

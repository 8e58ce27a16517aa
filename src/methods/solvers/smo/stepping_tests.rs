//! Stepping through SMO and its trace: every recorded step is the pair the second-order
//! selection picks, its unclipped optimum is the Newton step along the line and its clipped
//! one lies in the box on the line; stepping to the end reaches the full fit; the trace obeys
//! weak duality and closes the gap.

use super::*;
use crate::core::data::{Dataset, Preset};
use crate::methods::model::ExitReason;

fn recorded(kernel: Kernel, c: f64, record: Recording) -> Problem {
    Problem {
        kernel,
        c,
        tol: 1e-3,
        max_iter: 10_000_000,
        stop_at_bound: false,
        record,
    }
}

fn steps(k: usize) -> Recording {
    Recording {
        steps: Some(k),
        trace: false,
    }
}

fn solve(data: &Dataset, problem: &Problem) -> Solution {
    SvmTrainer::new()
        .solve(&data.points, &data.labels, problem)
        .unwrap()
}

/// ∇ = Qα − e, from the kernel directly.
fn gradient(data: &Dataset, kernel: Kernel, y: &[f64], alpha: &[f64]) -> Vec<f64> {
    let n = alpha.len();
    (0..n)
        .map(|t| {
            (0..n)
                .map(|s| y[t] * y[s] * alpha[s] * kernel.eval(data.points[t], data.points[s]))
                .sum::<f64>()
                - 1.0
        })
        .collect()
}

/// WSS 2 of Fan, Chen & Lin (2005), written out again from the paper.
fn second_order_pair(
    data: &Dataset,
    kernel: Kernel,
    y: &[f64],
    alpha: &[f64],
    c: f64,
) -> (usize, usize) {
    let g = gradient(data, kernel, y, alpha);
    let n = alpha.len();
    let up = |t: usize| (y[t] > 0.0 && alpha[t] < c) || (y[t] < 0.0 && alpha[t] > 0.0);
    let low = |t: usize| (y[t] > 0.0 && alpha[t] > 0.0) || (y[t] < 0.0 && alpha[t] < c);
    let i = (0..n)
        .filter(|&t| up(t))
        .max_by(|&a, &b| (-y[a] * g[a]).total_cmp(&(-y[b] * g[b])))
        .unwrap();
    let k = |a: usize, b: usize| kernel.eval(data.points[a], data.points[b]);
    let j = (0..n)
        .filter(|&t| low(t) && -y[t] * g[t] < -y[i] * g[i])
        .min_by(|&a, &b| {
            let score = |t: usize| {
                let b_it = -y[i] * g[i] + y[t] * g[t];
                let a_it = (k(i, i) + k(t, t) - 2.0 * k(i, t)).max(1e-12);
                -b_it * b_it / a_it
            };
            score(a).total_cmp(&score(b))
        })
        .unwrap();
    (i, j)
}

#[test]
fn every_step_is_the_second_order_pair_clipped_onto_the_line_in_the_box() {
    for (preset, kernel, c) in [
        (Preset::Moons, Kernel::Rbf { gamma: 2.0 }, 1.0),
        (Preset::Overlapping, Kernel::Linear, 0.5),
    ] {
        let data = preset.generate(30, 0.4, 7);
        let full = solve(&data, &recorded(kernel, c, steps(usize::MAX)));
        assert_eq!(full.report.exit, ExitReason::Converged);
        let total = full.report.iterations;
        assert!(total > 5, "{preset:?}: {total} iterations");
        let mut before = vec![0.0; data.len()];
        for k in 1..=total {
            let solution = solve(&data, &recorded(kernel, c, steps(k)));
            let step = solution.last_step.expect("a step");
            let (i, j) = step.pair;
            assert_eq!(
                (i, j),
                second_order_pair(&data, kernel, &solution.y, &before, c),
                "{preset:?}, step {k}"
            );
            let y = &solution.y;
            assert_eq!(step.before, [before[i], before[j]]);
            assert_eq!(step.after, [solution.alpha[i], solution.alpha[j]]);
            // The clipped point is in the box and on the line y_i α_i + y_j α_j = const.
            for a in step.after {
                assert!((0.0..=c).contains(&a), "step {k}: {a}");
            }
            let line = |a: [f64; 2]| y[i] * a[0] + y[j] * a[1];
            assert!((line(step.after) - line(step.before)).abs() < 1e-9 * (1.0 + c));
            assert!((line(step.unclipped) - line(step.before)).abs() < 1e-9 * (1.0 + c));
            // The unclipped one is the Newton step along the line: α_i + y_i t, α_j − y_j t,
            // where the objective's derivative g + t·η vanishes.
            let g = gradient(&data, kernel, y, &before);
            let (pi, pj) = (data.points[i], data.points[j]);
            let eta = kernel.eval(pi, pi) + kernel.eval(pj, pj) - 2.0 * kernel.eval(pi, pj);
            let t = (step.unclipped[0] - step.before[0]) * y[i];
            assert!((step.unclipped[1] - (step.before[1] - y[j] * t)).abs() < 1e-9);
            let slope = y[i] * g[i] - y[j] * g[j];
            assert!(
                (slope + t * eta).abs() < 1e-8 * (1.0 + slope.abs()),
                "step {k}: derivative {} at the unclipped optimum",
                slope + t * eta
            );
            // Clipping: the end is the unclipped point pulled back along the line into the box.
            let inside = step.unclipped.iter().all(|a| (0.0..=c).contains(a));
            if inside {
                assert!((step.after[0] - step.unclipped[0]).abs() < 1e-9);
            }
            before = solution.alpha.clone();
        }
        assert_eq!(before, full.alpha, "{preset:?}: stepping to the end");
    }
}

#[test]
fn stepping_to_the_end_reaches_the_full_fit() {
    let data = Preset::Moons.generate(80, 0.3, 2);
    let kernel = Kernel::Rbf { gamma: 3.0 };
    let full = solve(&data, &recorded(kernel, 10.0, Recording::default()));
    let mut k = 0;
    let stepped = loop {
        k += 1;
        let s = solve(&data, &recorded(kernel, 10.0, steps(k)));
        if s.report.exit == ExitReason::Converged {
            break s;
        }
    };
    let plain = {
        let mut trainer = SvmTrainer::new();
        trainer.shrinking = false;
        trainer
            .solve(
                &data.points,
                &data.labels,
                &recorded(kernel, 10.0, Recording::default()),
            )
            .unwrap()
    };
    // Without shrinking the same sequence exactly; with it (the ordinary fit) the same optimum.
    assert_eq!(stepped.alpha, plain.alpha);
    assert_eq!(stepped.report.iterations, plain.report.iterations);
    let largest = stepped
        .alpha
        .iter()
        .zip(&full.alpha)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(largest < 1e-2 * 10.0, "α differ by {largest}");
    assert!(
        (stepped.report.objective - full.report.objective).abs() < 1e-6 * full.report.objective
    );
}

#[test]
fn the_trace_rises_obeys_weak_duality_and_closes_the_gap() {
    for (preset, kernel, c) in [
        (Preset::Moons, Kernel::Rbf { gamma: 3.0 }, 10.0),
        (Preset::Overlapping, Kernel::Linear, 1.0),
        (
            Preset::Xor,
            Kernel::Polynomial {
                gamma: 1.0,
                degree: 2,
                coef0: 1.0,
            },
            100.0,
        ),
    ] {
        let data = preset.generate(120, 0.4, 4);
        let record = Recording {
            steps: None,
            trace: true,
        };
        let solution = solve(&data, &recorded(kernel, c, record));
        let trace = solution.trace.as_ref().expect("recorded");
        let n = solution.report.iterations + 1;
        assert_eq!(trace.dual.len(), n);
        assert_eq!(trace.primal.len(), n);
        let what = format!("{preset:?} {kernel:?} C = {c}");
        for t in 1..n {
            assert!(
                trace.dual[t] >= trace.dual[t - 1] - 1e-12 * trace.dual[t].abs().max(1.0),
                "{what}: dual falls at {t}"
            );
        }
        for t in 0..n {
            assert!(
                trace.primal[t] >= trace.dual[t] - 1e-9 * trace.primal[t].abs().max(1.0),
                "{what}: P {} < D {} at {t}",
                trace.primal[t],
                trace.dual[t]
            );
        }
        assert!(trace.violation[n - 1] < 1e-3, "{what}");
        assert_eq!(trace.violation[n - 1], solution.max_violation);
        assert!(
            (trace.dual[n - 1] - solution.report.objective).abs()
                < 1e-9 * solution.report.objective.abs()
        );
        let gap = trace.primal[n - 1] - trace.dual[n - 1];
        let first_gap = trace.primal[0] - trace.dual[0];
        assert!(
            gap < 1e-3 * first_gap.max(1.0) && gap < 1e-2 * trace.dual[n - 1].abs().max(1.0),
            "{what}: gap {gap} (from {first_gap})"
        );
        assert_eq!(
            *trace.support.last().unwrap(),
            solution.alpha.iter().filter(|&&a| a > 0.0).count()
        );
    }
}

#[test]
fn one_more_step_continues_the_run_exactly() {
    let data = Preset::Moons.generate(50, 0.3, 5);
    let kernel = Kernel::Rbf { gamma: 2.0 };
    let mut trainer = SvmTrainer::new();
    let mut k = 0;
    loop {
        let problem = recorded(kernel, 10.0, steps(k));
        let continued = trainer.solve(&data.points, &data.labels, &problem).unwrap();
        let fresh = solve(&data, &problem);
        assert_eq!(continued.alpha, fresh.alpha, "step {k}");
        assert_eq!(continued.last_step, fresh.last_step, "step {k}");
        assert_eq!(continued.report.iterations, fresh.report.iterations);
        assert_eq!(continued.max_violation, fresh.max_violation);
        if continued.report.exit == ExitReason::Converged {
            break;
        }
        k += 1;
    }
    assert!(k > 10);
    // Going back, or another C, starts again from α = 0.
    for problem in [
        recorded(kernel, 10.0, steps(3)),
        recorded(kernel, 5.0, steps(4)),
    ] {
        let again = trainer.solve(&data.points, &data.labels, &problem).unwrap();
        assert_eq!(again.alpha, solve(&data, &problem).alpha);
    }
}

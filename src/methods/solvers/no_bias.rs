//! Training the SVM without a bias, by dual coordinate ascent or by Pegasos (the problem and
//! both algorithms are in the `dca` module beside this one): running either to its end or to
//! a number of steps, keeping a stepped run so that one more step costs one update, and
//! recording the trace.
//!
//! - **DCA** stops when an epoch ends with the largest projected gradient below `tol` (the
//!   no-bias KKT conditions), or at the step cap. Its trace has, after every coordinate update,
//!   the dual D(α) = eᵀα − ½αᵀQ̃α, the primal P = ½‖w̃‖² + CΣξ of the same α (f on the training
//!   points), the gap P − D ≥ 0 and the largest projected gradient, and the number of α_i > 0.
//! - **Pegasos** has no stopping test: it runs [`PEGASOS_STEPS`] steps (fewer if the caller
//!   caps it), the number within which it reaches 1 % of DCA's optimum on the README's data. Its
//!   trace is the primal objective ½‖w̃‖² + CΣξ after every step (the same scale as DCA's, which
//!   is nC times the λ/2‖w̃‖² + (1/n)Σξ it descends) and the number of points in f.
//!
//! The trace's rows are SMO's ([`SmoTrace`]), one per step; the model thins long runs to
//! [`TRACE_VALUES`] values per curve for the trace view. A run stepped to k updates is
//! kept (its α, y f(x) and random stream); asking for k + 1 on the same problem and points
//! takes one more update from there, which is the update a run from the start would make.
//!
//! The solver returns a [`NoBiasFit`]; the SVM's model is made from it in the `svm` module.

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::kernel::Kernel;
use crate::methods::model::{ExitReason, FitReport};
pub use crate::methods::solvers::dca::{CoordinateStep, PEGASOS_STEPS};
use crate::methods::solvers::dca::{DcaRun, PegasosRun};
use crate::methods::solvers::smo::{Recording, SmoTrace};

/// The seed of DCA's epoch orders (the fixture tests' seed).
pub const DCA_SEED: u64 = 1;
/// The seed of Pegasos' draws (the one [`PEGASOS_STEPS`] was measured with).
pub const PEGASOS_SEED: u64 = 7;
/// The most values per curve the trace view draws of a run.
pub const TRACE_VALUES: usize = 2000;

/// Which of the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoBiasSolver {
    Dca,
    Pegasos,
}

/// The problem given to the solver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoBiasProblem {
    pub solver: NoBiasSolver,
    pub kernel: Kernel,
    /// C: finite (the hard margin is SMO's).
    pub c: f64,
    /// DCA's tolerance on the largest projected gradient.
    pub tol: f64,
    /// The step cap: DCA's coordinate updates, or Pegasos' steps (its run length).
    pub max_steps: usize,
    pub record: Recording,
}

/// What a run found: the coefficients of f(x) = Σ_j α_j y_j (K(x_j, x) + 1).
#[derive(Clone, Debug)]
pub struct NoBiasFit {
    pub classes: [i32; 2],
    /// y_i ∈ {−1, +1}.
    pub y: Vec<f64>,
    /// α_i (DCA) or a_i/(λt) (Pegasos).
    pub alpha: Vec<f64>,
    /// y_i f(x_i).
    pub margins: Vec<f64>,
    /// `iterations`: steps; `objective`: the dual (DCA) or the primal (Pegasos).
    pub report: FitReport,
    /// DCA's largest projected gradient now (0 for Pegasos).
    pub max_violation: f64,
    /// The epochs DCA began (0 for Pegasos).
    pub epochs: usize,
    /// The last update, when stepping.
    pub last_step: Option<CoordinateStep>,
    /// The rows of every step from the start, when recorded.
    pub trace: Option<SmoTrace>,
}

#[derive(Clone, Debug)]
enum Run {
    Dca(DcaRun),
    Pegasos(PegasosRun),
}

impl Run {
    fn new(problem: &NoBiasProblem, points: &[Point], y: &[f64]) -> Run {
        match problem.solver {
            NoBiasSolver::Dca => Run::Dca(DcaRun::new(
                problem.kernel,
                points,
                y,
                problem.c,
                problem.tol,
                DCA_SEED,
            )),
            NoBiasSolver::Pegasos => Run::Pegasos(PegasosRun::new(
                problem.kernel,
                points,
                y,
                problem.c,
                PEGASOS_SEED,
            )),
        }
    }

    fn step(&mut self, points: &[Point]) -> CoordinateStep {
        match self {
            Run::Dca(run) => run.step(points),
            Run::Pegasos(run) => run.step(points),
        }
    }

    fn steps(&self) -> usize {
        match self {
            Run::Dca(run) => run.steps(),
            Run::Pegasos(run) => run.steps(),
        }
    }

    /// DCA met its tolerance; Pegasos has no such test.
    fn converged(&self) -> bool {
        matches!(self, Run::Dca(run) if run.converged())
    }

    fn alpha(&self) -> Vec<f64> {
        match self {
            Run::Dca(run) => run.alpha().to_vec(),
            Run::Pegasos(run) => run.coefficients(),
        }
    }

    fn margins(&self) -> Vec<f64> {
        match self {
            Run::Dca(run) => run.margins(),
            Run::Pegasos(run) => run.margins(),
        }
    }

    /// The objective the solver works on: DCA's dual, Pegasos' primal.
    fn objective(&self) -> f64 {
        match self {
            Run::Dca(run) => run.dual(),
            Run::Pegasos(run) => run.primal(),
        }
    }
}

/// Records one row of the trace: the rows SMO records ([`SmoTrace`]), Pegasos' without the
/// dual and the violation.
fn record(rows: &mut SmoTrace, run: &Run) {
    rows.support
        .push(run.alpha().iter().filter(|&&a| a > 0.0).count());
    match run {
        Run::Dca(run) => {
            rows.dual.push(run.dual());
            rows.primal.push(run.primal());
            rows.violation.push(run.max_violation());
        }
        Run::Pegasos(run) => rows.primal.push(run.primal()),
    }
}

/// A run cut short by stepping, with what it ran on.
#[derive(Clone, Debug)]
struct SteppedRun {
    points: Vec<Point>,
    labels: Vec<i32>,
    problem: NoBiasProblem,
    run: Run,
    last_step: Option<CoordinateStep>,
}

/// Runs DCA or Pegasos, keeping a stepped run to continue.
#[derive(Clone, Debug, Default)]
pub struct NoBiasTrainer {
    stepped: Option<Box<SteppedRun>>,
    /// Every update this trainer has made (how a test sees that a step costs one).
    pub updates: usize,
}

impl NoBiasTrainer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Nothing kept holds any more.
    pub fn forget(&mut self) {
        self.stepped = None;
    }

    /// Solves `problem` on `points` with `labels` (two distinct labels; the larger is +1).
    pub fn solve(
        &mut self,
        points: &[Point],
        labels: &[i32],
        problem: &NoBiasProblem,
    ) -> Result<NoBiasFit, Error> {
        if let Some(bad) = points
            .iter()
            .position(|p| !(p[0].is_finite() && p[1].is_finite()))
        {
            return Err(Error::NotFinite {
                what: format!("point {bad}"),
            });
        }
        if !(problem.c.is_finite() && problem.c > 0.0) {
            return Err(Error::Parameter("C must be finite and positive".into()));
        }
        let data = Dataset::from_parts(points.to_vec(), labels.to_vec());
        let (classes, y) = data.binary_targets()?;
        if let Some(i) = points
            .iter()
            .position(|&p| !problem.kernel.eval(p, p).is_finite())
        {
            return Err(Error::Parameter(format!(
                "the kernel overflows at point {}: rescale the data, or lower γ or the degree",
                i + 1
            )));
        }
        let target = problem
            .record
            .steps
            .map_or(problem.max_steps, |s| s.min(problem.max_steps));
        let continues = |kept: &SteppedRun| {
            NoBiasProblem {
                record: problem.record,
                ..kept.problem
            } == *problem
                && kept.points == points
                && kept.labels == labels
                && kept.run.steps() <= target
        };
        let resumed = match (problem.record, self.stepped.take()) {
            (
                Recording {
                    steps: Some(_),
                    trace: false,
                },
                Some(kept),
            ) if continues(&kept) => Some(kept),
            _ => None,
        };
        let (mut run, mut last_step) = match resumed {
            Some(kept) => (kept.run, kept.last_step),
            None => (Run::new(problem, points, &y), None),
        };
        let mut rows = problem.record.trace.then(SmoTrace::default);
        if let Some(rows) = rows.as_mut() {
            record(rows, &run);
        }
        while run.steps() < target && !run.converged() {
            last_step = Some(run.step(points));
            self.updates += 1;
            if let Some(rows) = rows.as_mut() {
                record(rows, &run);
            }
        }
        let exit = if run.converged()
            || (problem.solver == NoBiasSolver::Pegasos && run.steps() >= problem.max_steps)
        {
            ExitReason::Converged
        } else {
            ExitReason::IterationCap
        };
        let (max_violation, epochs) = match &run {
            Run::Dca(run) => (run.max_violation(), run.epochs()),
            Run::Pegasos(_) => (0.0, 0),
        };
        let fit = NoBiasFit {
            classes,
            y,
            alpha: run.alpha(),
            margins: run.margins(),
            report: FitReport {
                iterations: run.steps(),
                exit,
                objective: run.objective(),
                warm_start: false,
            },
            max_violation,
            epochs,
            last_step: problem.record.steps.and(last_step),
            trace: rows,
        };
        if problem.record.steps.is_some() && !problem.record.trace {
            self.stepped = Some(Box::new(SteppedRun {
                points: points.to_vec(),
                labels: labels.to_vec(),
                problem: *problem,
                run,
                last_step,
            }));
        }
        Ok(fit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::Preset;
    use crate::methods::solvers::dca::{dual_coordinate_ascent, pegasos};

    fn problem(solver: NoBiasSolver, steps: Option<usize>) -> NoBiasProblem {
        NoBiasProblem {
            solver,
            kernel: Kernel::Rbf { gamma: 2.0 },
            c: 1.0,
            tol: 1e-3,
            max_steps: 100_000,
            record: Recording {
                steps,
                trace: false,
            },
        }
    }

    #[test]
    fn stepping_on_costs_one_update_and_matches_a_run_from_the_start() {
        let data = Preset::Moons.generate(30, 0.2, 4);
        for solver in [NoBiasSolver::Dca, NoBiasSolver::Pegasos] {
            let mut kept = NoBiasTrainer::new();
            for k in 1..=75 {
                let before = kept.updates;
                let stepped = kept
                    .solve(&data.points, &data.labels, &problem(solver, Some(k)))
                    .unwrap();
                assert_eq!(
                    kept.updates - before,
                    1,
                    "{solver:?}: step {k} took one update"
                );
                let fresh = NoBiasTrainer::new()
                    .solve(&data.points, &data.labels, &problem(solver, Some(k)))
                    .unwrap();
                assert_eq!(stepped.alpha, fresh.alpha, "{solver:?} step {k}");
                assert_eq!(stepped.last_step, fresh.last_step, "{solver:?} step {k}");
                assert_eq!(stepped.report.iterations, k);
            }
            // Stepping back starts again.
            let back = kept
                .solve(&data.points, &data.labels, &problem(solver, Some(3)))
                .unwrap();
            assert_eq!(back.report.iterations, 3);
        }
    }

    #[test]
    fn a_dca_step_is_the_clipped_coordinate_formula() {
        let data = Preset::Overlapping.generate(20, 0.5, 2);
        let kernel = Kernel::Rbf { gamma: 2.0 };
        let mut trainer = NoBiasTrainer::new();
        let mut previous = vec![0.0; data.len()];
        for k in 1..=60 {
            let fit = trainer
                .solve(
                    &data.points,
                    &data.labels,
                    &problem(NoBiasSolver::Dca, Some(k)),
                )
                .unwrap();
            let step = fit.last_step.unwrap();
            let i = step.index;
            // y_i f(x_i) before the step, from the previous α written out.
            let f: f64 = (0..data.len())
                .map(|j| {
                    previous[j] * fit.y[j] * (kernel.eval(data.points[j], data.points[i]) + 1.0)
                })
                .sum();
            assert!((step.margin - fit.y[i] * f).abs() < 1e-12);
            let kii = kernel.eval(data.points[i], data.points[i]) + 1.0;
            let want = (previous[i] + (1.0 - fit.y[i] * f) / kii).clamp(0.0, 1.0);
            assert!((fit.alpha[i] - want).abs() < 1e-12, "step {k}");
            for j in (0..data.len()).filter(|&j| j != i) {
                assert_eq!(fit.alpha[j], previous[j], "only α_{i} moves");
            }
            previous = fit.alpha;
        }
    }

    #[test]
    fn whole_runs_are_the_solvers_and_their_traces_close_the_gap() {
        let data = Preset::Moons.generate(40, 0.2, 1);
        let (_, y) = data.binary_targets().unwrap();
        let kernel = Kernel::Rbf { gamma: 2.0 };
        let mut record = problem(NoBiasSolver::Dca, None);
        record.record.trace = true;
        let fit = NoBiasTrainer::new()
            .solve(&data.points, &data.labels, &record)
            .unwrap();
        let direct = dual_coordinate_ascent(kernel, &data.points, &y, 1.0, 1e-3, 100_000, DCA_SEED);
        assert_eq!(fit.alpha, direct.alpha);
        assert_eq!(fit.report.exit, ExitReason::Converged);
        let trace = fit.trace.unwrap();
        let (dual, primal) = (&trace.dual, &trace.primal);
        assert_eq!(
            dual.len(),
            fit.report.iterations + 1,
            "a row per step, and α = 0"
        );
        assert_eq!(dual[0], 0.0, "α = 0 at the start");
        for (p, d) in primal.iter().zip(dual) {
            assert!(p >= &(d - 1e-9), "weak duality: {p} < {d}");
        }
        let gap = |k: usize| primal[k] - dual[k];
        assert!(
            gap(dual.len() - 1) < 1e-2 * gap(0),
            "{}",
            gap(dual.len() - 1)
        );
        assert_eq!(*dual.last().unwrap(), fit.report.objective);

        let mut record = problem(NoBiasSolver::Pegasos, None);
        record.max_steps = 3000;
        record.record.trace = true;
        let fit = NoBiasTrainer::new()
            .solve(&data.points, &data.labels, &record)
            .unwrap();
        let direct = pegasos(kernel, &data.points, &y, 1.0, 3000, 0, PEGASOS_SEED);
        assert_eq!(fit.alpha, direct.alpha);
        let trace = fit.trace.unwrap();
        assert_eq!(trace.primal.len(), 3001);
        assert!(trace.dual.is_empty() && trace.violation.is_empty());
        assert_eq!(*trace.primal.last().unwrap(), fit.report.objective);
    }
}

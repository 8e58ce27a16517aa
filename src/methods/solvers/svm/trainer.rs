//! The SVM's trainers: SMO's [`SvmTrainer`] fitting an [`SvmModel`], and [`SvmState`], what
//! the SVM keeps between fits for warm starts and stepping whichever solver runs.

use super::*;

impl SvmTrainer {
    /// Fits the SVM to `points` with `labels` (exactly two distinct labels; the larger one is
    /// the positive class), starting from the last solution when there is one.
    pub fn fit(
        &mut self,
        points: &[Point],
        labels: &[i32],
        params: &SvmParams,
    ) -> Result<SvmModel, Error> {
        params.check()?;
        let n = points.len();
        let c = params.box_bound(points, labels)?;
        // Scaling α by C_new/C_old only helps between nearby boxes; into or out of an unbounded
        // one it would start absurdly far off.
        let ratio = c / self.last_box();
        if !(1e-6..=1e6).contains(&ratio) {
            self.forget();
        }
        let problem = Problem {
            kernel: params.kernel,
            c,
            tol: params.tol,
            max_iter: params.max_iter.unwrap_or((100 * n).max(100_000)),
            stop_at_bound: params.is_hard_margin(),
            record: params.record,
        };
        let solution = self.solve(points, labels, &problem)?;
        let model = SvmModel::from_solution(points, params, c, solution);
        // A run cut short by stepping is unfinished by request, not a failed hard margin.
        let cut = params.record.steps.is_some() && model.report.exit == ExitReason::IterationCap;
        if params.is_hard_margin() && !cut {
            if let Some(why) = model.no_hard_margin(c) {
                self.forget();
                return Err(not_separable(&why));
            }
        }
        Ok(model)
    }
}

/// What the SVM keeps between fits: SMO's trainer (its kernel cache and last α, for warm
/// starts and stepping) and the stepped run of DCA or Pegasos.
#[derive(Clone, Debug, Default)]
pub struct SvmState {
    pub smo: SvmTrainer,
    pub no_bias: NoBiasTrainer,
}

impl SvmState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Fits with the solver `params` name, continuing what is kept where it can.
    pub fn fit(
        &mut self,
        points: &[Point],
        labels: &[i32],
        params: &SvmParams,
    ) -> Result<SvmModel, Error> {
        let solver = match params.solver {
            SvmSolver::Smo => return self.smo.fit(points, labels, params),
            SvmSolver::NoBias(solver) => solver,
        };
        params.check()?;
        // DCA's cap in coordinate updates is SMO's in pair updates; Pegasos runs its fixed
        // number of steps, or fewer when the caller caps it.
        let max_steps = match solver {
            NoBiasSolver::Dca => params.max_iter.unwrap_or((100 * points.len()).max(100_000)),
            NoBiasSolver::Pegasos => PEGASOS_STEPS.min(params.max_iter.unwrap_or(usize::MAX)),
        };
        let problem = NoBiasProblem {
            solver,
            kernel: params.kernel,
            c: params.c,
            tol: params.tol,
            max_steps,
            record: params.record,
        };
        let fit = self.no_bias.solve(points, labels, &problem)?;
        Ok(SvmModel::from_no_bias(points, params, fit))
    }
}

impl WarmStart for SvmState {
    fn point_added(&mut self) {
        self.smo.point_added();
        self.no_bias.forget();
    }
    fn point_moved(&mut self, index: usize, points: &[Point]) {
        self.smo.point_moved(index, points);
        self.no_bias.forget();
    }
    fn point_removed(&mut self, index: usize) {
        self.smo.point_removed(index);
        self.no_bias.forget();
    }
    fn forget(&mut self) {
        self.smo.forget();
        self.no_bias.forget();
    }
    fn data_replaced(&mut self) {
        self.smo.data_replaced();
        self.no_bias.forget();
    }
    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

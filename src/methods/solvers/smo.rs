//! SMO for the soft-margin SVM dual (see the `svm` module beside it for the problem).
//!
//! SMO (Platt, 1998) changes two multipliers at a time in closed form, keeping Σ y_i α_i = 0.
//! The pair is chosen as in LIBSVM (Chang & Lin, 2011), by second-order working-set selection
//! (`selection`); shrinking (`shrinking`) sets aside the multipliers that have settled at a
//! bound; the pair itself moves in closed form (`update`); the bias and the objectives come
//! from the KKT conditions (`bias`). `state` holds the loop that ties them together, and
//! `trainer` the [`SvmTrainer`] that keeps a cache and the last solution between fits.
//!
//! **Stepping and the trace.** A [`Recording`] asks SMO to stop after a number of pair updates
//! (describing the last one as a [`PairStep`]: the pair, α_i and α_j before and after, and the
//! unclipped optimum on the line y_i α_i + y_j α_j = const) and/or to keep a [`SmoTrace`], one
//! row per iterate. A recorded run starts from α = 0 without shrinking, so every iterate's
//! gradient is exact and the pairs are the ones the second-order selection picks from the
//! whole problem; the ordinary fit records nothing and pays nothing. Mid-run, b is defined as at
//! the end: LIBSVM's −ρ, the mean of −y_i∇_i over the free multipliers, or with none free the
//! midpoint of the interval the bound ones leave — the b SMO would return if it stopped there.
//! Each trace row has the dual objective D(α), the primal objective of that (w, b),
//! P = ½‖w‖² + C Σ max(0, 1 − y_i f(x_i)) with ‖w‖² = αᵀQα and y_i f(x_i) = ∇_i + 1 + y_i b (so
//! P ≥ D by weak duality, and the gap P − D → 0), the maximal violation m(α) − M(α), and the
//! number of support vectors. A stepped run is kept by the trainer (α and its exact gradient), so
//! asking for one more update on the same problem and points continues it: a step costs one
//! update, not a replay from α = 0, and gives the same iterate as the replay would.
//!
//! The solver returns a [`Solution`] (LIBSVM's `SolutionInfo` together with α); the model is
//! built from it in the `svm` module, so this file knows nothing of models.

use crate::core::data::Point;
use crate::core::kernel::{Kernel, KernelCache};
pub use crate::core::plane::PairStep;
use crate::methods::model::{FitReport, WarmStart};

mod bias;
pub(crate) mod general;
mod selection;
mod shrinking;
mod state;
mod trainer;
mod update;
mod warm;
pub(crate) use bias::{compute_rho, objectives};
pub(crate) use state::{solve_from, Solved};
pub use trainer::SvmTrainer;
pub(crate) use update::update_pair;
pub(crate) use warm::rescaled;

/// LIBSVM's stand-in for a non-positive curvature K_ii + K_jj − 2K_ij.
pub(crate) const TAU: f64 = 1e-12;

/// The memory the kernel cache may use: 128 MiB, which at n = 10 000 holds 1 677 whole
/// columns of 80 kB (the whole Gram matrix would take 800 MB), while at n = 2 000 the whole
/// Gram matrix (32 MB) fits. LIBSVM's default (scikit-learn's `cache_size`) is 200 MB of
/// single-precision rows.
pub(crate) const CACHE_BYTES: usize = 128 << 20;

/// What a fit that always starts from LIBSVM's α keeps between fits (ν-SVC, the one-class
/// SVM): the kernel columns, a moved point's entries patched. A column holds the same values
/// whether kept or computed afresh, so the fit is the cold fit to the last bit.
#[derive(Clone, Debug)]
pub struct KeptColumns {
    pub cache: KernelCache,
}

impl Default for KeptColumns {
    fn default() -> Self {
        Self {
            cache: KernelCache::new(CACHE_BYTES),
        }
    }
}

impl KeptColumns {
    /// The cache kept in `warm` when it is one of these, else a cache for this fit alone, put
    /// in `own`.
    pub fn cache<'a>(
        warm: Option<&'a mut (dyn WarmStart + '_)>,
        own: &'a mut Option<KeptColumns>,
    ) -> &'a mut KernelCache {
        match warm.and_then(|w| w.as_any().downcast_mut::<KeptColumns>()) {
            Some(kept) => &mut kept.cache,
            None => &mut own.insert(KeptColumns::default()).cache,
        }
    }
}

impl WarmStart for KeptColumns {
    fn point_added(&mut self) {
        self.cache.invalidate();
    }
    fn point_moved(&mut self, index: usize, points: &[Point]) {
        self.cache.point_moved(index, points);
    }
    fn point_removed(&mut self, _index: usize) {
        self.cache.invalidate();
    }
    fn forget(&mut self) {}
    fn data_replaced(&mut self) {
        self.cache.invalidate();
    }
    fn as_any(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// The dual problem SMO is given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Problem {
    pub kernel: Kernel,
    /// The box bound C (a large stand-in for the hard margin).
    pub c: f64,
    /// Stopping tolerance on the maximal KKT violation.
    pub tol: f64,
    pub max_iter: usize,
    /// Stop as soon as a multiplier reaches C (the hard margin: then the data are not
    /// separable, and there is no point in going on).
    pub stop_at_bound: bool,
    /// What to record besides the answer (nothing by default).
    pub record: Recording,
}

/// What a solve records for stepping and the trace view (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recording {
    /// Stop after this many pair updates and describe the last one.
    pub steps: Option<usize>,
    /// Keep one [`SmoTrace`] row per iterate.
    pub trace: bool,
}

impl Recording {
    /// Whether anything is recorded (then the run starts cold and does not shrink).
    pub fn any(&self) -> bool {
        self.steps.is_some() || self.trace
    }
}

/// SMO's iterates, row k after k pair updates (row 0 is α = 0). DCA and Pegasos record the
/// same rows per step (`no_bias`; Pegasos only the primal and the support).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SmoTrace {
    /// D(α) = eᵀα − ½αᵀQα.
    pub dual: Vec<f64>,
    /// P(w, b) = ½‖w‖² + C Σ max(0, 1 − y_i f(x_i)) for the iterate's w and b.
    pub primal: Vec<f64>,
    /// m(α) − M(α).
    pub violation: Vec<f64>,
    /// The number of α_i > 0.
    pub support: Vec<usize>,
}

/// What SMO found.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The labels of the negative and positive class.
    pub classes: [i32; 2],
    /// y_i ∈ {−1, +1}.
    pub y: Vec<f64>,
    pub alpha: Vec<f64>,
    pub bias: f64,
    /// y_i f(x_i), from the gradient SMO keeps: ∇_i + 1 + y_i b.
    pub margins: Vec<f64>,
    pub report: FitReport,
    pub max_violation: f64,
    /// How often the final check, on the gradient reconstructed after shrinking, found a
    /// violation above `tol` and SMO went on (0 without shrinking).
    pub reopened: usize,
    /// The fewest multipliers active at once (n when nothing was shrunk).
    pub fewest_active: usize,
    /// The last pair update, when stepping.
    pub last_step: Option<PairStep>,
    /// The iterates, when asked for.
    pub trace: Option<SmoTrace>,
}

#[cfg(test)]
mod stepping_tests;
#[cfg(test)]
mod tests;

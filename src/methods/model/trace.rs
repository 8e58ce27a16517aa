//! What an iterative fit records per iteration: panels of curves over a common x, as the
//! trace view stacks them, thinned to a bounded number of values.

use serde::Serialize;
use std::fmt::Debug;

/// What an iterative fit did per iteration, recorded when
/// [`FitOptions::record`](super::FitOptions::record) asks: panels of curves over a common x
/// (the iteration or epoch), as the trace view stacks them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trace {
    /// What x counts ("SMO iterations", "epochs").
    pub x_label: &'static str,
    /// The x of every curve's first value (0: the start, before any update).
    pub first: usize,
    /// The x of each value when a long run was thinned ([`Trace::thinned`]); empty when
    /// there is a value for every x from `first` on.
    pub thinned_at: Vec<usize>,
    pub panels: Vec<TracePanel>,
}

/// A panel of the trace: curves sharing a y axis, on a log₁₀ scale when `log`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TracePanel {
    pub y_label: &'static str,
    pub log: bool,
    pub curves: Vec<TraceCurve>,
}

/// One quantity per iteration.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TraceCurve {
    /// Its JSON key (`dual`, `primal`, `violation`…).
    pub key: &'static str,
    pub label: &'static str,
    pub values: Vec<f64>,
}

impl Trace {
    /// The number of values per curve.
    pub fn len(&self) -> usize {
        self.panels
            .iter()
            .flat_map(|p| &p.curves)
            .map(|c| c.values.len())
            .max()
            .unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The x of value `t` of every curve.
    pub fn x(&self, t: usize) -> usize {
        self.thinned_at.get(t).copied().unwrap_or(self.first + t)
    }

    /// The x of the last value (`first` when empty).
    pub fn last_x(&self) -> usize {
        self.x(self.len().saturating_sub(1))
    }

    /// At most `max_values` per curve (at least 2): every k-th value from the first, and the
    /// last one, so that a run of 10⁵ steps is drawn from 2 000 of them and still ends where
    /// it ended.
    pub fn thinned(mut self, max_values: usize) -> Trace {
        let len = self.len();
        if len <= max_values.max(2) {
            return self;
        }
        let by = len.div_ceil(max_values.max(2) - 1);
        let mut kept: Vec<usize> = (0..len).step_by(by).collect();
        if kept.last() != Some(&(len - 1)) {
            kept.push(len - 1);
        }
        for curve in self.panels.iter_mut().flat_map(|p| &mut p.curves) {
            curve.values = kept
                .iter()
                .filter_map(|&t| curve.values.get(t).copied())
                .collect();
        }
        self.thinned_at = kept.iter().map(|&t| self.x(t)).collect();
        self
    }

    /// The curve with this key.
    pub fn curve(&self, key: &str) -> Option<&[f64]> {
        self.panels
            .iter()
            .flat_map(|p| &p.curves)
            .find(|c| c.key == key)
            .map(|c| c.values.as_slice())
    }
}

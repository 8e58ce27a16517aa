//! The search behind k-nearest neighbours: a k-d tree over the training points (median splits
//! along the wider side, buckets at the leaves) and the running list of the k best candidates.
//! A subtree is skipped only when the distance from the query to its bounding box is larger
//! than the k-th best so far, which keeps the result, ties in index order included, identical
//! to brute force for every metric.

use super::{Metric, MAX_K};
use crate::core::data::Point;

/// Training points per leaf of the k-d tree: a linear scan of a bucket this size is cheaper
/// than descending further.
const LEAF_SIZE: usize = 8;

/// The best candidates so far as (rank, index), sorted by rank then index; at most k ≤ MAX_K.
pub(super) struct Nearest {
    k: usize,
    len: usize,
    found: [(f64, usize); MAX_K],
}

impl Nearest {
    pub(super) fn new(k: usize) -> Self {
        Nearest {
            k,
            len: 0,
            found: [(f64::INFINITY, usize::MAX); MAX_K],
        }
    }

    pub(super) fn as_slice(&self) -> &[(f64, usize)] {
        &self.found[..self.len]
    }

    /// Whether a subtree whose points all have rank ≥ `bound` may still hold a candidate. An
    /// equal rank may: it wins if its index is lower.
    #[inline]
    pub(super) fn may_improve(&self, bound: f64) -> bool {
        self.len < self.k || bound <= self.found[self.len - 1].0
    }

    #[inline]
    pub(super) fn offer(&mut self, rank: f64, index: usize) {
        let before =
            |a: (f64, usize), b: (f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).is_lt();
        let candidate = (rank, index);
        if self.len == self.k {
            if !before(candidate, self.found[self.len - 1]) {
                return;
            }
            self.len -= 1;
        }
        let mut slot = self.len;
        while slot > 0 && before(candidate, self.found[slot - 1]) {
            self.found[slot] = self.found[slot - 1];
            slot -= 1;
        }
        self.found[slot] = candidate;
        self.len += 1;
    }
}

/// A node of the k-d tree, stored in pre-order: a split's lower child follows it directly.
#[derive(Clone, Copy, Debug)]
enum KdNode {
    /// Training points `start..end` of [`KdTree::points`].
    Leaf { start: usize, end: usize },
    /// Points of the lower child have `p[axis] ≤ value`, of the upper child `p[axis] ≥ value`.
    Split {
        axis: usize,
        value: f64,
        upper: usize,
    },
}

#[derive(Clone, Debug)]
pub(super) struct KdTree {
    nodes: Vec<KdNode>,
    /// The training points reordered so each leaf is a contiguous run, with their input index.
    points: Vec<(Point, usize)>,
}

impl KdTree {
    pub(super) fn new(training: &[Point]) -> KdTree {
        let mut tree = KdTree {
            nodes: Vec::with_capacity(2 * training.len() / LEAF_SIZE + 1),
            points: training.iter().copied().zip(0..).collect(),
        };
        tree.build(0, training.len());
        tree
    }

    pub(super) fn build(&mut self, start: usize, end: usize) {
        if end - start <= LEAF_SIZE {
            self.nodes.push(KdNode::Leaf { start, end });
            return;
        }
        let run = &mut self.points[start..end];
        let spread = |axis: usize| {
            let (lo, hi) = run
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p.0[axis]), hi.max(p.0[axis]))
                });
            hi - lo
        };
        let axis = if spread(0) >= spread(1) { 0 } else { 1 };
        let middle = run.len() / 2;
        run.select_nth_unstable_by(middle, |a, b| a.0[axis].total_cmp(&b.0[axis]));
        let value = run[middle].0[axis];
        let here = self.nodes.len();
        self.nodes.push(KdNode::Leaf { start, end }); // patched below
        self.build(start, start + middle);
        let upper = self.nodes.len();
        self.build(start + middle, end);
        self.nodes[here] = KdNode::Split { axis, value, upper };
    }

    /// The training points' input indices in the order the leaves hold them (points of a
    /// leaf, and of neighbouring leaves, lie close together).
    pub(super) fn leaf_order(&self) -> impl Iterator<Item = usize> + '_ {
        self.points.iter().map(|&(_, index)| index)
    }

    /// Offers every point of subtree `node` that may be among the nearest; `offsets` are lower
    /// bounds on |x − p| per coordinate for all points p of the subtree.
    pub(super) fn search(
        &self,
        node: usize,
        x: Point,
        offsets: [f64; 2],
        metric: Metric,
        best: &mut Nearest,
    ) {
        match self.nodes[node] {
            KdNode::Leaf { start, end } => {
                for &(p, index) in &self.points[start..end] {
                    best.offer(metric.rank(x, p), index);
                }
            }
            KdNode::Split { axis, value, upper } => {
                let lower = node + 1;
                let (near, far) = if x[axis] <= value {
                    (lower, upper)
                } else {
                    (upper, lower)
                };
                self.search(near, x, offsets, metric, best);
                let mut far_offsets = offsets;
                far_offsets[axis] = far_offsets[axis].max((x[axis] - value).abs());
                if best.may_improve(metric.rank_of_offsets(far_offsets[0], far_offsets[1])) {
                    self.search(far, x, far_offsets, metric, best);
                }
            }
        }
    }
}

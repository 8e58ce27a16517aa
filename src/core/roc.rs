//! A two-class classifier as a family of thresholds (CURRICULUM §11): predict the positive class
//! when f(x) > t. Sweeping t from +∞ down to −∞ traces the ROC curve, the true-positive rate
//! TPR = TP/(TP + FN) against the false-positive rate FPR = FP/(FP + TN); the area under it
//! (AUC) is the probability that a random positive scores above a random negative.
//!
//! The curve is computed as scikit-learn's `roc_curve` does (with `drop_intermediate`): one
//! point per distinct score, from the highest down, points that lie on a straight segment
//! between their neighbours dropped, and a first point (0, 0) at t = +∞; the AUC is the
//! trapezoidal area under those points, as `roc_auc_score`. At one threshold, [`Confusion`]
//! counts the four outcomes and gives precision, recall and F1.

/// An ROC curve: `fpr[i]`, `tpr[i]` at threshold `thresholds[i]` (predict positive when the
/// score is ≥ it), the first threshold +∞.
#[derive(Clone, Debug, PartialEq)]
pub struct Roc {
    pub fpr: Vec<f64>,
    pub tpr: Vec<f64>,
    pub thresholds: Vec<f64>,
    pub auc: f64,
}

impl Roc {
    /// The curve of `scores` against `positive` (true for the positive class); `None` when
    /// one class is missing (a rate would divide by zero), as scikit-learn refuses to.
    pub fn of(scores: &[f64], positive: &[bool]) -> Option<Roc> {
        let n = scores.len().min(positive.len());
        let mut order: Vec<usize> = (0..n).collect();
        // Highest score first; a stable sort, reversed, as NumPy's `argsort(kind="mergesort")[::-1]`.
        crate::core::sorting::sort_by(&mut order, |&a, &b| scores[a].total_cmp(&scores[b]));
        order.reverse();
        let (mut tps, mut fps, mut thresholds) = (Vec::new(), Vec::new(), Vec::new());
        let (mut tp, mut fp) = (0.0, 0.0);
        for (k, &i) in order.iter().enumerate() {
            if positive[i] {
                tp += 1.0;
            } else {
                fp += 1.0;
            }
            // The last of a run of equal scores closes one threshold.
            if order.get(k + 1).is_none_or(|&j| scores[j] != scores[i]) {
                tps.push(tp);
                fps.push(fp);
                thresholds.push(scores[i]);
            }
        }
        if tp == 0.0 || fp == 0.0 {
            return None;
        }
        // Keep the ends and every point where the curve bends.
        let keep: Vec<usize> = (0..tps.len())
            .filter(|&k| {
                k == 0
                    || k + 1 == tps.len()
                    || fps[k + 1] - 2.0 * fps[k] + fps[k - 1] != 0.0
                    || tps[k + 1] - 2.0 * tps[k] + tps[k - 1] != 0.0
            })
            .collect();
        let mut fpr = vec![0.0];
        let mut tpr = vec![0.0];
        let mut cut = vec![f64::INFINITY];
        for k in keep {
            fpr.push(fps[k] / fp);
            tpr.push(tps[k] / tp);
            cut.push(thresholds[k]);
        }
        let auc = fpr
            .windows(2)
            .zip(tpr.windows(2))
            .map(|(x, y)| (x[1] - x[0]) * (y[1] + y[0]) / 2.0)
            .sum();
        Some(Roc {
            fpr,
            tpr,
            thresholds: cut,
            auc,
        })
    }
}

/// The outcomes at one threshold t: predict positive when the score is > t.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Confusion {
    pub true_positive: usize,
    pub false_positive: usize,
    pub true_negative: usize,
    pub false_negative: usize,
}

impl Confusion {
    pub fn at(scores: &[f64], positive: &[bool], threshold: f64) -> Confusion {
        let mut c = Confusion::default();
        for (&s, &p) in scores.iter().zip(positive) {
            match (s > threshold, p) {
                (true, true) => c.true_positive += 1,
                (true, false) => c.false_positive += 1,
                (false, false) => c.true_negative += 1,
                (false, true) => c.false_negative += 1,
            }
        }
        c
    }

    /// TP / (TP + FP); `None` when nothing is predicted positive.
    pub fn precision(&self) -> Option<f64> {
        ratio(self.true_positive, self.true_positive + self.false_positive)
    }

    /// TP / (TP + FN), the true-positive rate.
    pub fn recall(&self) -> Option<f64> {
        ratio(self.true_positive, self.true_positive + self.false_negative)
    }

    /// FP / (FP + TN).
    pub fn false_positive_rate(&self) -> Option<f64> {
        ratio(
            self.false_positive,
            self.false_positive + self.true_negative,
        )
    }

    /// The harmonic mean of precision and recall, 2TP / (2TP + FP + FN).
    pub fn f1(&self) -> Option<f64> {
        ratio(
            2 * self.true_positive,
            2 * self.true_positive + self.false_positive + self.false_negative,
        )
    }
}

fn ratio(a: usize, b: usize) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perfect_ranking_has_area_one_and_a_reversed_one_zero() {
        let positive = [false, false, true, true];
        let roc = Roc::of(&[0.1, 0.2, 0.8, 0.9], &positive).unwrap();
        assert_eq!(roc.auc, 1.0);
        assert_eq!(roc.fpr, [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(roc.tpr, [0.0, 0.5, 1.0, 1.0]);
        assert_eq!(roc.thresholds[0], f64::INFINITY);
        assert_eq!(Roc::of(&[0.9, 0.8, 0.2, 0.1], &positive).unwrap().auc, 0.0);
        assert!(Roc::of(&[0.1, 0.2], &[true, true]).is_none());
    }

    #[test]
    fn the_area_is_the_chance_a_positive_outranks_a_negative() {
        let scores = [0.3, -1.0, 2.0, 0.3, 0.7, -0.2, 1.1, 0.0];
        let positive = [true, false, true, false, false, true, true, false];
        let roc = Roc::of(&scores, &positive).unwrap();
        let (mut wins, mut pairs) = (0.0, 0.0);
        for i in 0..8 {
            for j in 0..8 {
                if positive[i] && !positive[j] {
                    pairs += 1.0;
                    wins += if scores[i] > scores[j] {
                        1.0
                    } else if scores[i] == scores[j] {
                        0.5
                    } else {
                        0.0
                    };
                }
            }
        }
        assert!((roc.auc - wins / pairs).abs() < 1e-15);
    }

    #[test]
    fn confusion_counts_and_rates() {
        let scores = [0.9, 0.4, -0.2, -0.8, 0.1];
        let positive = [true, false, true, false, true];
        let c = Confusion::at(&scores, &positive, 0.0);
        assert_eq!(
            (
                c.true_positive,
                c.false_positive,
                c.true_negative,
                c.false_negative
            ),
            (2, 1, 1, 1)
        );
        assert_eq!(c.precision(), Some(2.0 / 3.0));
        assert_eq!(c.recall(), Some(2.0 / 3.0));
        assert_eq!(c.f1(), Some(2.0 / 3.0));
        assert_eq!(Confusion::at(&scores, &positive, 5.0).precision(), None);
    }
}

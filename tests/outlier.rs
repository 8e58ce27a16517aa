//! The "outlier" preset does what CURRICULUM §10 needs it for: the data are linearly separable
//! and the far points are not support vectors of the maximum-margin line, yet least squares,
//! pulled by those far points, misclassifies points of the blobs. Logistic regression stays put.

use kernel_playground::core::data::{Dataset, Preset};
use kernel_playground::core::kernel::Kernel;
use kernel_playground::methods::model::Model;
use kernel_playground::methods::solvers::least_squares::LeastSquares;
use kernel_playground::methods::solvers::logistic::{Features, LogisticModel, LogisticParams};
use kernel_playground::methods::solvers::svm::{SvmModel, SvmParams};

/// The page's defaults (src/lab/state/mod.rs: n = 100, noise 0.2, seed 1), then other seeds and sizes.
const SETTINGS: [(usize, f64, u64); 9] = [
    (100, 0.2, 1),
    (100, 0.2, 2),
    (100, 0.2, 3),
    (100, 0.2, 4),
    (100, 0.2, 5),
    (100, 0.0, 1),
    (100, 0.4, 7),
    (60, 0.2, 1),
    (200, 0.2, 1),
];

/// Which points the preset placed far out: the last `far_points(n)` of class 1.
fn far_mask(data: &Dataset) -> Vec<bool> {
    let n = data.len();
    let far_from = n - 2 * Preset::Outlier.far_points(n);
    (0..n)
        .map(|i| data.labels[i] == 1 && i >= far_from)
        .collect()
}

#[test]
fn far_points_sit_far_out_on_their_own_side() {
    for (n, noise, seed) in SETTINGS {
        let data = Preset::Outlier.generate(n, noise, seed);
        let count = Preset::Outlier.far_points(n);
        assert!(
            count >= 3 && count * 100 >= 5 * n && count * 100 <= 8 * n,
            "n={n}: {count}"
        );
        let far = far_mask(&data);
        assert_eq!(far.iter().filter(|&&f| f).count(), count);
        for (p, is_far) in data.points.iter().zip(&far) {
            let distance = (p[0] - 3.0).hypot(p[1] - 2.5);
            assert_eq!(distance < 1.0, *is_far, "n={n} seed={seed}: {p:?}");
        }
    }
}

#[test]
fn separable_by_the_hard_margin_but_least_squares_misclassifies_blob_points() {
    for (n, noise, seed) in SETTINGS {
        let data = Preset::Outlier.generate(n, noise, seed);
        let far = far_mask(&data);
        let svm = SvmModel::fit(
            &data.points,
            &data.labels,
            &SvmParams::new(Kernel::Linear, f64::INFINITY),
        )
        .unwrap();
        let setting = format!("n={n} noise={noise} seed={seed}");
        assert_eq!(svm.accuracy(&data.points, &data.labels), 1.0, "{setting}");
        // The far points lie beyond the margin: they do not shape the separator.
        for i in svm.support() {
            assert!(!far[i], "{setting}: far point {i} is a support vector");
        }

        let least_squares = LeastSquares::fit(&data.points, &data.labels).unwrap();
        let wrong_in_blobs = (0..n)
            .filter(|&i| !far[i] && least_squares.predict(data.points[i]) != data.labels[i])
            .count();
        assert!(
            wrong_in_blobs >= 1,
            "{setting}: least squares got the blobs right"
        );

        // Logistic regression with a light penalty: the far points' loss is already ≈ 0.
        let logistic = LogisticModel::fit(
            &data.points,
            &data.labels,
            &LogisticParams::new(Features::Linear, 0.01),
        )
        .unwrap();
        assert_eq!(
            logistic.accuracy(&data.points, &data.labels),
            1.0,
            "{setting}"
        );
    }
}

#[test]
fn without_the_far_points_least_squares_is_right() {
    // The blobs alone are classified correctly: the far points are what drags the line.
    for (n, noise, seed) in SETTINGS {
        let data = Preset::Outlier.generate(n, noise, seed);
        let far = far_mask(&data);
        let (points, labels): (Vec<_>, Vec<_>) = data
            .points
            .iter()
            .zip(&data.labels)
            .zip(&far)
            .filter(|(_, &f)| !f)
            .map(|((p, l), _)| (*p, *l))
            .unzip();
        let least_squares = LeastSquares::fit(&points, &labels).unwrap();
        for (p, l) in points.iter().zip(&labels) {
            assert_eq!(
                least_squares.predict(*p),
                *l,
                "n={n} noise={noise} seed={seed}"
            );
        }
    }
}

//! The notes' picture of the maximum margin, checked against the solver: for linearly
//! separable classes the hard-margin SVM's boundary is the perpendicular bisector of the
//! shortest segment between the two classes' convex hulls, and its margin 1/‖w‖ is half that
//! segment's length. On random separable sets the two agree to 10⁻⁹ — the hull geometry from
//! `hull::closest_points`, the SVM from SMO run to a tight tolerance.

use kernel_playground::core::data::Point;
use kernel_playground::core::hull::closest_points;
use kernel_playground::core::kernel::Kernel;
use kernel_playground::methods::solvers::svm::{SvmModel, SvmParams};

/// A small seeded generator (xorshift64*), uniform in [0, 1).
struct Draws(u64);

impl Draws {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Two clouds on either side of a random line through the origin, `gap` apart.
fn separable(seed: u64) -> (Vec<Point>, Vec<i32>) {
    let mut draws = Draws(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let angle = std::f64::consts::TAU * draws.next();
    let normal = [angle.cos(), angle.sin()];
    let gap = 0.2 + draws.next();
    let n = 6 + (draws.next() * 30.0) as usize;
    let mut points = Vec::new();
    let mut labels = Vec::new();
    for i in 0..n {
        let label = if i % 2 == 0 { 1 } else { -1 };
        let across = f64::from(label) * (gap / 2.0 + 2.0 * draws.next());
        let along = 6.0 * draws.next() - 3.0;
        points.push([
            across * normal[0] - along * normal[1] + 0.5,
            across * normal[1] + along * normal[0] - 0.25,
        ]);
        labels.push(label);
    }
    (points, labels)
}

#[test]
fn the_hard_margin_boundary_bisects_the_shortest_segment_between_the_hulls() {
    for seed in 1..=40 {
        let (points, labels) = separable(seed);
        let class = |c: i32| -> Vec<Point> {
            points
                .iter()
                .zip(&labels)
                .filter(|(_, &l)| l == c)
                .map(|(p, _)| *p)
                .collect()
        };
        let (near, far) = closest_points(&class(-1), &class(1)).expect("separable");
        let params = SvmParams {
            tol: 1e-13,
            ..SvmParams::new(Kernel::Linear, f64::INFINITY)
        };
        let model = SvmModel::fit(&points, &labels, &params).unwrap();
        let w = model.w.unwrap();
        let norm = w[0].hypot(w[1]);
        let segment = [far[0] - near[0], far[1] - near[1]];
        let length = segment[0].hypot(segment[1]);
        // The margin is half the segment.
        assert!(
            (1.0 / norm - length / 2.0).abs() < 1e-9,
            "seed {seed}: 1/‖w‖ = {}, half the segment {}",
            1.0 / norm,
            length / 2.0
        );
        // w points along the segment, from the negative hull to the positive one.
        for k in 0..2 {
            assert!(
                (w[k] / norm - segment[k] / length).abs() < 1e-9,
                "seed {seed}: w/‖w‖ = {:?}, segment {:?}",
                [w[0] / norm, w[1] / norm],
                [segment[0] / length, segment[1] / length]
            );
        }
        // The segment's midpoint is on the boundary, and its ends on the margins f = ∓1.
        let f = |p: Point| w[0] * p[0] + w[1] * p[1] + model.bias;
        let mid = [(near[0] + far[0]) / 2.0, (near[1] + far[1]) / 2.0];
        assert!(
            f(mid).abs() / norm < 1e-9,
            "seed {seed}: f(mid) = {}",
            f(mid)
        );
        assert!(
            (f(near) + 1.0).abs() < 1e-8 && (f(far) - 1.0).abs() < 1e-8,
            "seed {seed}"
        );
    }
}

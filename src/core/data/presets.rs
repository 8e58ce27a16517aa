//! The seeded point sets a lecture starts from, [`Preset`]: classification scenes (separable and
//! overlapping Gaussian blobs, XOR, rings, moons, three blobs, three spiral arms, an outlier far
//! on its own side), the regression shapes of [`super::targets`], and a novelty blob. Each is
//! `n` points with Gaussian jitter of standard deviation 0.25 · noise, drawn by Box–Muller
//! ([`gaussian`]) from a seeded generator, so the same arguments always give the same points,
//! placed on a grid of 10⁻⁴ ([`on_preset_grid`]) to keep their links short. Also labels drawn at
//! random ([`random_labels`]): data with nothing to learn.

use super::{targets, Dataset, Point};
use crate::core::error::Error;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Rounds a generated coordinate to the 10⁻⁴ grid the presets' points live on (their shared
/// links then need at most four decimals a coordinate). Data a person gives is never rounded.
pub fn on_preset_grid(v: f64) -> f64 {
    (v * 1e4).round() / 1e4
}

/// `n` points uniform in [−1, 1]² with labels 0 and 1 drawn at random: data with nothing to
/// learn, which a flexible classifier memorises with nearly every point a support vector (the
/// field's hardest scene).
pub fn random_labels(n: usize, seed: u64) -> Dataset {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut data = Dataset::new();
    for _ in 0..n {
        let p = [
            on_preset_grid(rng.random_range(-1.0..=1.0)),
            on_preset_grid(rng.random_range(-1.0..=1.0)),
        ];
        let label = rng.random_range(0..2);
        data.points.push(p);
        data.labels.push(label);
    }
    data
}

/// The seeded point sets a lecture starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Two well-separated Gaussian blobs: linearly separable at low noise.
    Separable,
    /// Two Gaussian blobs that overlap: the soft margin's home ground.
    Overlapping,
    /// Four quadrant clusters, diagonal ones alike: no line separates them.
    Xor,
    /// A disc inside a ring: separable by a circle, i.e. a plane in (x₁², x₂², √2x₁x₂).
    Rings,
    /// Two interleaved half circles.
    Moons,
    /// Three Gaussian blobs at the corners of a triangle (three classes).
    Blobs3,
    /// Three interleaved spiral arms (three classes).
    Spiral3,
    /// Two separable blobs, class 0 left and class 1 right of x₁ = 0, stretched along the
    /// boundary, and a few class-1 points far out on their own side, around [`FAR_POINT`]: the
    /// maximum-margin line classifies them correctly and does not move for them, but they drag
    /// a least-squares line across the blobs. The far points are the last
    /// [`Preset::far_points`] of class 1.
    Outlier,
    /// Regression ([`targets`]): t = 0.6 sin(3x) + noise.
    Sine,
    /// Regression: t = 0.5x + noise, a few points far above the line.
    LineWithOutliers,
    /// Regression: a jump from −0.4 to 0.4 at x = 0.
    Step,
    /// Regression: a line with noise growing from left to right.
    Heteroscedastic,
    /// Novelty detection: one Gaussian blob, and a tenth of the points scattered over the square.
    Blob,
}

/// Where the far points of [`Preset::Outlier`] sit: on class 1's side, but well off the line
/// through the blob centres, so squared loss tilts the boundary instead of only shifting it.
pub const FAR_POINT: Point = [3.0, 2.5];

impl Preset {
    pub const ALL: [Preset; 13] = [
        Preset::Separable,
        Preset::Overlapping,
        Preset::Xor,
        Preset::Rings,
        Preset::Moons,
        Preset::Blobs3,
        Preset::Spiral3,
        Preset::Outlier,
        Preset::Sine,
        Preset::LineWithOutliers,
        Preset::Step,
        Preset::Heteroscedastic,
        Preset::Blob,
    ];

    /// The short name used in the URL, the CLI and the preset menu.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Separable => "separable",
            Preset::Overlapping => "overlapping",
            Preset::Xor => "xor",
            Preset::Rings => "rings",
            Preset::Moons => "moons",
            Preset::Blobs3 => "blobs3",
            Preset::Spiral3 => "spiral3",
            Preset::Outlier => "outlier",
            Preset::Sine => "sine",
            Preset::LineWithOutliers => "line_outliers",
            Preset::Step => "step",
            Preset::Heteroscedastic => "heteroscedastic",
            Preset::Blob => "blob",
        }
    }

    /// The regression shape of a regression preset.
    pub fn shape(self) -> Option<targets::Shape> {
        match self {
            Preset::Sine => Some(targets::Shape::Sine),
            Preset::LineWithOutliers => Some(targets::Shape::LineWithOutliers),
            Preset::Step => Some(targets::Shape::Step),
            Preset::Heteroscedastic => Some(targets::Shape::Heteroscedastic),
            _ => None,
        }
    }

    /// The task the preset's points are for.
    pub fn task(self) -> crate::core::task::Task {
        match self.shape() {
            Some(_) => crate::core::task::Task::Regression,
            None if self == Preset::Blob => crate::core::task::Task::Novelty,
            None => crate::core::task::Task::Classification,
        }
    }

    /// How many classes the preset makes.
    pub fn classes(self) -> usize {
        match self {
            Preset::Blobs3 | Preset::Spiral3 => 3,
            p if p.shape().is_some() || p == Preset::Blob => 1,
            _ => 2,
        }
    }

    pub fn from_name(name: &str) -> Result<Preset, Error> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| Error::Parameter(format!("unknown preset '{name}'")))
    }

    /// The settings a preset brings when it is chosen, where they differ from the table's
    /// defaults, so that at them the scene shows what the preset is for: the two moons with
    /// noise enough to overfit and 30 % of the points held out, so the test accuracy falls
    /// as γ grows past its best (by 16 points from γ ≈ 10 to γ = 300 at seed 1); the
    /// separable blobs with C = 10, where no multiplier reaches C and the support vectors are
    /// the few on the margin (at C = 1 six of them are bound, with the linear kernel). A link
    /// keeps every value it names; only choosing a preset (the settings' `choose_preset`)
    /// brings these.
    pub fn lesson(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Preset::Moons => &[("noise", "0.4"), ("test", "0.3")],
            Preset::Separable => &[("C", "10")],
            // A tenth of the blob's points are strays: ν = 0.1 leaves about them outside.
            Preset::Blob => &[("nu", "0.1")],
            _ => &[],
        }
    }

    /// How many of `n` points [`Preset::generate`] places far out (class 1, the last ones of
    /// that class): 6 % of n but at least 3, while class 1 keeps at least one point in its
    /// blob. Zero for every preset but [`Preset::Outlier`].
    pub fn far_points(self, n: usize) -> usize {
        match self {
            Preset::Outlier => ((6 * n + 50) / 100).max(3).min((n / 2).saturating_sub(1)),
            _ => 0,
        }
    }

    /// `n` points (the classes take turns, labels 0, 1, …) with Gaussian jitter of standard
    /// deviation `0.25 · noise`; the same arguments always give the same points.
    pub fn generate(self, n: usize, noise: f64, seed: u64) -> Dataset {
        let mut rng = StdRng::seed_from_u64(seed ^ (self as u64).wrapping_mul(0x9E37_79B9));
        let jitter = 0.25 * noise.max(0.0);
        // Among the last 2·far indices the classes alternate, so exactly `far` are class 1.
        let far_from = n - 2 * self.far_points(n);
        let mut data = Dataset::new();
        if let Some(shape) = self.shape() {
            for i in 0..n {
                let p = targets::sample(shape, i, n, noise, &mut rng);
                data.push([on_preset_grid(p[0]), on_preset_grid(p[1])], 0)
                    .expect("generated points are finite");
            }
            return data;
        }
        for i in 0..n {
            let label = (i % self.classes()) as i32;
            let base = if label == 1 && i >= far_from {
                [
                    FAR_POINT[0] + 0.15 * gaussian(&mut rng),
                    FAR_POINT[1] + 0.15 * gaussian(&mut rng),
                ]
            } else {
                self.sample(label, &mut rng)
            };
            let p = [
                base[0] + jitter * gaussian(&mut rng),
                base[1] + jitter * gaussian(&mut rng),
            ];
            data.push([on_preset_grid(p[0]), on_preset_grid(p[1])], label)
                .expect("generated points are finite");
        }
        data
    }

    fn sample(self, label: i32, rng: &mut StdRng) -> Point {
        let sign = if label == 1 { 1.0 } else { -1.0 };
        match self {
            Preset::Separable => [
                sign * 0.45 + 0.12 * gaussian(rng),
                sign * 0.35 + 0.12 * gaussian(rng),
            ],
            Preset::Overlapping => [
                sign * 0.25 + 0.25 * gaussian(rng),
                sign * 0.2 + 0.25 * gaussian(rng),
            ],
            Preset::Xor => {
                // One diagonal pair of quadrants per class, kept 0.1 away from the axes.
                let a: f64 = rng.random_range(0.1..0.9);
                let b: f64 = rng.random_range(0.1..0.9);
                let flip = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                [flip * a, flip * sign * b]
            }
            Preset::Rings => {
                let angle = rng.random_range(0.0..std::f64::consts::TAU);
                let radius = if label == 1 {
                    0.4 * rng.random::<f64>().sqrt()
                } else {
                    rng.random_range(0.62..0.9)
                };
                [radius * angle.cos(), radius * angle.sin()]
            }
            Preset::Moons => {
                let t = rng.random_range(0.0..std::f64::consts::PI);
                let (x, y) = if label == 1 {
                    (t.cos(), t.sin())
                } else {
                    (1.0 - t.cos(), 0.5 - t.sin())
                };
                [0.55 * (x - 0.5), 0.55 * (y - 0.25)]
            }
            Preset::Blobs3 => {
                let angle =
                    std::f64::consts::FRAC_PI_2 + label as f64 * std::f64::consts::TAU / 3.0;
                [
                    0.5 * angle.cos() + 0.17 * gaussian(rng),
                    0.5 * angle.sin() + 0.17 * gaussian(rng),
                ]
            }
            Preset::Spiral3 => {
                // Arm c: radius r ∈ (0.08, 0.9], angle growing with r, turned by c·120°.
                let r: f64 = rng.random_range(0.08..0.9);
                let angle = 3.2 * r + label as f64 * std::f64::consts::TAU / 3.0;
                [r * angle.cos(), r * angle.sin()]
            }
            // Stretched along the boundary: the blob ends are where a tilted line cuts in.
            Preset::Outlier => [sign * 0.4 + 0.08 * gaussian(rng), 0.3 * gaussian(rng)],
            Preset::Blob if rng.random_bool(0.1) => {
                [rng.random_range(-0.95..0.95), rng.random_range(-0.95..0.95)]
            }
            Preset::Blob => [0.3 * gaussian(rng), 0.3 * gaussian(rng)],
            // Generated by `targets::sample` instead.
            Preset::Sine | Preset::LineWithOutliers | Preset::Step | Preset::Heteroscedastic => {
                [0.0, 0.0]
            }
        }
    }
}

/// A standard normal draw (Box–Muller), so presets need nothing beyond `rand`.
pub fn gaussian(rng: &mut StdRng) -> f64 {
    let u: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let v: f64 = rng.random();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_seeded_and_balanced() {
        for preset in Preset::ALL {
            let a = preset.generate(101, 0.3, 7);
            assert_eq!(a, preset.generate(101, 0.3, 7));
            assert_ne!(a, preset.generate(101, 0.3, 8));
            assert_eq!(a.len(), 101);
            let per_class = 101 / preset.classes();
            let last = preset.classes() as i32 - 1;
            assert!(a.labels.iter().filter(|&&l| l == last).count() >= per_class);
            assert_eq!(a.classes().len(), preset.classes());
            assert_eq!(Preset::from_name(preset.name()).unwrap(), preset);
            for p in &a.points {
                assert_eq!(p[0], on_preset_grid(p[0]));
            }
        }
        assert!(Preset::from_name("spiral").is_err());
    }
}

//! How decision regions are coloured: each class has a colour-blind-safe hue, and a region's
//! depth of colour shows the method's confidence — nearly white at the boundary, deeper away
//! from it. For two classes the confidence comes from the decision value f (the margin |f| for
//! the SVM and the perceptron, |2σ(f) − 1| for logistic regression, the vote share for k-NN);
//! with more than two classes from the model's own measure (see [`crate::model::Model::label_and_confidence`]).
//!
//! The region image is computed here as pixels, at the field grid's resolution (the page scales
//! it with the browser's smoothing) or at the plot's (SVG and PNG output).

use crate::plane::{Scene, Shading};

/// Okabe–Ito colours, distinguishable with every common colour-vision deficiency:
/// blue for the first class, orange for the second, then the rest of the palette.
pub const CLASS_COLOURS: [(u8, u8, u8); 6] = [
    (0, 114, 178),   // blue
    (230, 159, 0),   // orange
    (0, 158, 115),   // bluish green
    (204, 121, 167), // reddish purple
    (86, 180, 233),  // sky blue
    (213, 94, 0),    // vermillion
];

/// How deep a region's colour is at a confidence c ∈ [0, 1]: nearly white at c = 0, towards the
/// class colour as c grows, capped so that points of the same class still stand out.
fn depth_of_confidence(c: f64) -> f64 {
    0.08 + 0.52 * c.clamp(0.0, 1.0)
}

/// Confidence from a margin |f|: 1 − e^(−0.9|f|), so the band |f| < 1 stays pale.
fn margin_confidence(f_abs: f64) -> f64 {
    1.0 - (-0.9 * f_abs).exp()
}

/// Confidence from a log-odds f: |2σ(f) − 1| = tanh(|f|/2).
fn probability_confidence(f_abs: f64) -> f64 {
    (0.5 * f_abs).tanh()
}

/// The two curved confidences tabulated every 1/256 up to |f| = 16 (beyond, both are flat to
/// 10⁻³), so a frame's hundred thousand pixels cost no exponential each.
const STEPS_PER_UNIT: f64 = 256.0;
const TABLE_LEN: usize = 16 * 256 + 1;

fn tabulated(
    f_abs: f64,
    table: &'static std::sync::OnceLock<Vec<f64>>,
    exact: fn(f64) -> f64,
) -> f64 {
    let table = table.get_or_init(|| {
        (0..TABLE_LEN)
            .map(|i| exact(i as f64 / STEPS_PER_UNIT))
            .collect()
    });
    let index = (f_abs * STEPS_PER_UNIT).round();
    table[(index as usize).min(TABLE_LEN - 1)]
}

impl Shading {
    /// The confidence shown at decision value f.
    pub fn confidence(&self, f: f64) -> f64 {
        static MARGIN: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
        static PROBABILITY: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
        if !f.is_finite() {
            return 0.0;
        }
        match *self {
            Shading::Margin { scale } => tabulated(f.abs() / scale, &MARGIN, margin_confidence),
            Shading::Probability => tabulated(f.abs(), &PROBABILITY, probability_confidence),
            Shading::Share => f.abs().min(1.0),
        }
    }
}

/// The shade of a region at decision value f, as RGB.
pub fn region_shade(f: f64, colours: [usize; 2], shading: Shading) -> [u8; 3] {
    class_shade(colours[(f > 0.0) as usize], shading.confidence(f))
}

/// The grid the regions are painted from, if the scene has regions.
pub fn region_grid(scene: &Scene) -> Option<crate::field::Grid> {
    scene
        .labels
        .as_ref()
        .map(|l| l.grid)
        .or(scene.field.as_ref().map(|f| f.grid))
}

/// The regions as an RGB image of `width` × `height` pixels covering the view (bilinear
/// resampling of a two-class field, nearest node for class labels, when the sizes differ).
pub fn field_image(scene: &Scene, width: u32, height: u32) -> Vec<u8> {
    let mut rgb = Vec::with_capacity(width as usize * height as usize * 3);
    region_pixels(scene, width, height, |shade| rgb.extend_from_slice(&shade));
    rgb
}

/// The same image as RGBA (opaque), as a browser's `ImageData` wants it.
pub fn field_image_rgba(scene: &Scene, width: u32, height: u32) -> Vec<u8> {
    let mut rgba = Vec::with_capacity(width as usize * height as usize * 4);
    region_pixels(scene, width, height, |[r, g, b]| {
        rgba.extend_from_slice(&[r, g, b, 255])
    });
    rgba
}

fn region_pixels(scene: &Scene, width: u32, height: u32, mut emit: impl FnMut([u8; 3])) {
    let Some(grid) = region_grid(scene) else {
        return;
    };
    let same = width as usize == grid.cols && height as usize == grid.rows;
    // Pixel centre → fractional grid position.
    let position = |px: u32, py: u32| -> (f64, f64) {
        (
            (px as f64 + 0.5) / width as f64 * (grid.cols - 1) as f64,
            (py as f64 + 0.5) / height as f64 * (grid.rows - 1) as f64,
        )
    };
    for py in 0..height {
        for px in 0..width {
            if let Some(labels) = &scene.labels {
                let (col, row) = if same {
                    (px as usize, py as usize)
                } else {
                    let (u, v) = position(px, py);
                    (u.round() as usize, v.round() as usize)
                };
                let (class, confidence) = labels.at(row, col);
                emit(class_shade(class as usize, confidence as f64));
                continue;
            }
            let field = scene
                .field
                .as_ref()
                .expect("a region grid comes from a field");
            let f = if same {
                field.at(py as usize, px as usize)
            } else {
                let (u, v) = position(px, py);
                field.sample([
                    grid.view.x_min + u / (grid.cols - 1) as f64 * grid.view.width(),
                    grid.view.y_max - v / (grid.rows - 1) as f64 * grid.view.height(),
                ])
            };
            emit(region_shade(f, scene.region_colours, scene.shading));
        }
    }
}

/// The shade of class `index`'s region at confidence c.
pub fn class_shade(index: usize, confidence: f64) -> [u8; 3] {
    let (r, g, b) = CLASS_COLOURS[index % CLASS_COLOURS.len()];
    let t = depth_of_confidence(confidence);
    let mix = |c: u8| (255.0 + t * (c as f64 - 255.0)).round() as u8;
    [mix(r), mix(g), mix(b)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabulated_shade_matches_the_formula() {
        for i in 0..2000 {
            let f = i as f64 * 0.0071 - 7.0;
            let (r, g, b) = CLASS_COLOURS[(f > 0.0) as usize];
            for (shading, exact) in [
                (Shading::Margin { scale: 1.0 }, margin_confidence(f.abs())),
                (Shading::Probability, (2.0 / (1.0 + (-f).exp()) - 1.0).abs()),
            ] {
                let t = depth_of_confidence(exact);
                let want = [r, g, b].map(|c| 255.0 + t * (c as f64 - 255.0));
                for (got, want) in region_shade(f, [0, 1], shading).iter().zip(want) {
                    assert!((*got as f64 - want).abs() <= 1.0, "f = {f}");
                }
            }
        }
    }

    #[test]
    fn shade_is_white_at_the_boundary_and_deepens_with_confidence() {
        let margin = Shading::Margin { scale: 1.0 };
        let near = region_shade(0.01, [0, 1], margin);
        let far = region_shade(5.0, [0, 1], margin);
        let other = region_shade(-5.0, [0, 1], margin);
        assert!(near.iter().all(|&c| c > 230));
        assert!(far[0] < near[0] && far[2] < near[2], "{far:?}");
        assert_ne!(far, other);
    }
}

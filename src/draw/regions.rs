//! How decision regions are coloured: each class has a colour-blind-safe hue, and a region's
//! depth of colour shows the method's confidence — nearly white at the boundary, deeper away
//! from it. For two classes the confidence comes from the decision value f (the margin |f| for
//! the SVM and the perceptron, |2σ(f) − 1| for logistic regression, the vote share for k-NN);
//! with more than two classes from the model's own measure (see [`crate::methods::model::Model::label_and_confidence`]).
//!
//! The region image is computed here as pixels, at the field grid's resolution (the page scales
//! it with the browser's smoothing) or at the plot's (SVG and PNG output).

use crate::core::plane::{Scene, Shading};

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

/// The table entry for a scaled margin |f| ≥ 0: the nearest step, the last beyond |f| = 16.
#[inline]
fn table_index(f_abs: f64) -> usize {
    ((f_abs * STEPS_PER_UNIT + 0.5) as usize).min(TABLE_LEN - 1)
}

/// The confidences of a curved shading at every table entry, and the scale |f| is divided by
/// first; `None` for the share, which is linear.
fn confidence_table(shading: Shading) -> Option<(&'static [f64], f64)> {
    static MARGIN: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    static PROBABILITY: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let tabulate = |exact: fn(f64) -> f64| -> Vec<f64> {
        (0..TABLE_LEN)
            .map(|i| exact(i as f64 / STEPS_PER_UNIT))
            .collect()
    };
    match shading {
        Shading::Margin { scale } => {
            Some((MARGIN.get_or_init(|| tabulate(margin_confidence)), scale))
        }
        Shading::Probability => Some((
            PROBABILITY.get_or_init(|| tabulate(probability_confidence)),
            1.0,
        )),
        Shading::Share => None,
    }
}

impl Shading {
    /// The confidence shown at decision value f.
    pub fn confidence(&self, f: f64) -> f64 {
        if !f.is_finite() {
            return 0.0;
        }
        match confidence_table(*self) {
            Some((table, scale)) => table[table_index(f.abs() / scale)],
            None => f.abs().min(1.0),
        }
    }
}

/// The shades of a curved shading's two regions at every table entry, so that a pixel of a
/// two-class field costs one division and a lookup ([`ShadeTable::at`] is
/// [`region_shade`], bit for bit).
struct ShadeTable {
    shades: [Vec<[u8; 3]>; 2],
    scale: f64,
}

impl ShadeTable {
    fn new(colours: [usize; 2], shading: Shading) -> Option<ShadeTable> {
        let (confidences, scale) = confidence_table(shading)?;
        let shades = colours.map(|colour| {
            confidences
                .iter()
                .map(|&c| class_shade(colour, c))
                .collect()
        });
        Some(ShadeTable { shades, scale })
    }

    #[inline]
    fn at(&self, f: f64) -> [u8; 3] {
        let index = if f.is_finite() {
            table_index(f.abs() / self.scale)
        } else {
            0
        };
        self.shades[(f > 0.0) as usize][index]
    }
}

/// The shade of a region at decision value f, as RGB.
pub fn region_shade(f: f64, colours: [usize; 2], shading: Shading) -> [u8; 3] {
    class_shade(colours[(f > 0.0) as usize], shading.confidence(f))
}

/// The grid the regions are painted from, if the scene has regions.
pub fn region_grid(scene: &Scene) -> Option<crate::core::field::Grid> {
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
    if let (true, None, Some(field)) = (same, &scene.labels, &scene.field) {
        if let Some(shades) = ShadeTable::new(scene.region_colours, scene.shading) {
            for &f in &field.values {
                emit(shades.at(f));
            }
            return;
        }
    }
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
    // Rounded to the nearest (halves up): the mix lies in [0, 255].
    let mix = |c: u8| (255.0 + t * (c as f64 - 255.0) + 0.5) as u8;
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

    /// The tabulated image of a two-class field is the shade of each node's value, pixel for
    /// pixel, for both curved shadings, any scale and values that are not finite.
    #[test]
    fn the_image_at_the_grid_is_the_shade_of_every_node() {
        use crate::core::field::{Field, Grid, View};
        let grid = Grid::new(View::square(1.0), 41, 23);
        let mut values: Vec<f64> = (0..grid.cols * grid.rows)
            .map(|k| ((k as f64) * 0.37).sin() * 9.0 + (k % 7) as f64 * 1e-3)
            .collect();
        values[3] = f64::NAN;
        values[5] = f64::INFINITY;
        values[8] = f64::NEG_INFINITY;
        values[13] = 1e300;
        values[21] = 0.0;
        values[34] = -0.0;
        for shading in [
            Shading::Margin { scale: 1.0 },
            Shading::Margin { scale: 0.3 },
            Shading::Probability,
            Shading::Share,
        ] {
            let scene = Scene {
                field: Some(Field {
                    grid,
                    values: values.clone(),
                    exact_nodes: 0,
                }),
                region_colours: [2, 5],
                shading,
                ..Scene::default()
            };
            let image = field_image(&scene, grid.cols as u32, grid.rows as u32);
            let want: Vec<u8> = values
                .iter()
                .flat_map(|&f| region_shade(f, [2, 5], shading))
                .collect();
            assert_eq!(image, want, "{shading:?}");
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

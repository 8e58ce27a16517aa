//! The level curves the page draws (f = −1, 0, +1 of a two-class model, through
//! `picture::decorate`) against those of f evaluated exactly at every node of the same grid,
//! on scenes where the field is expensive: every vertex of either within one pixel of the
//! other's curves, and every node on the same side of every level unless it lies within a pixel
//! of that level's exact curve.

use kernel_playground::core::contour::level_curves;
use kernel_playground::core::data::{random_labels, Dataset, Point, Preset};
use kernel_playground::core::field::{Field, View};
use kernel_playground::core::plane::{Layout, Mark, Scene};
use kernel_playground::lab::state::Settings;
use kernel_playground::methods::model::{FitOptions, Model};
use kernel_playground::methods::picture::{decorate, Setting};
use kernel_playground::methods::registry;
use std::collections::HashMap;

const LEVELS: [f64; 3] = [-1.0, 0.0, 1.0];

/// Segments of polylines in pixels, bucketed by cell for nearest-distance queries.
struct Segments {
    cell: f64,
    buckets: HashMap<(i64, i64), Vec<(Point, Point)>>,
}

impl Segments {
    fn new(curves: &[Vec<Point>], to_pixel: &dyn Fn(Point) -> Point) -> Segments {
        let cell = 4.0;
        let mut buckets: HashMap<(i64, i64), Vec<(Point, Point)>> = HashMap::new();
        for curve in curves {
            let pixels: Vec<Point> = curve.iter().map(|&p| to_pixel(p)).collect();
            for pair in pixels.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                // A segment is at most a cell's diagonal (2 nodes, 4 pixels) long: bucketing it
                // by its midpoint and looking one cell around finds it within 1 pixel.
                let key = (
                    ((a[0] + b[0]) / 2.0 / cell).floor() as i64,
                    ((a[1] + b[1]) / 2.0 / cell).floor() as i64,
                );
                buckets.entry(key).or_default().push((a, b));
            }
        }
        Segments { cell, buckets }
    }

    fn distance(&self, p: Point) -> f64 {
        let (i, j) = (
            (p[0] / self.cell).floor() as i64,
            (p[1] / self.cell).floor() as i64,
        );
        let mut best = f64::INFINITY;
        for di in -2..=2 {
            for dj in -2..=2 {
                for &(a, b) in self.buckets.get(&(i + di, j + dj)).into_iter().flatten() {
                    best = best.min(point_to_segment(p, a, b));
                }
            }
        }
        best
    }
}

fn point_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len2 = d[0] * d[0] + d[1] * d[1];
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p[0] - a[0] - t * d[0]).hypot(p[1] - a[1] - t * d[1])
}

/// What one scene's drawn field is, against the exact one.
struct Comparison {
    /// The farthest any vertex of either set of curves lies from the other set, in pixels.
    worst_vertex: f64,
    /// Nodes on the other side of a level than the exact f, farther than a pixel from that
    /// level's exact curve.
    misplaced_nodes: usize,
    vertices: usize,
    exact_nodes: usize,
    nodes: usize,
}

/// The model fitted to `data` and the plane the page draws for it on a `size`-pixel plot.
fn drawn(
    data: &Dataset,
    settings: &Settings,
    threshold: f64,
    size: u32,
) -> (Box<dyn Model>, Scene, Layout, View) {
    let model = registry::fit(
        settings.method(),
        &settings.values,
        data,
        FitOptions::default(),
    )
    .unwrap();
    let layout = Layout::new(size, size);
    let view = View::around(&data.points);
    let classes = data.classes();
    let mut scene = Scene {
        marks: vec![Mark::Plain; data.len()],
        ..Scene::default()
    };
    let setting = Setting {
        data,
        classes: &classes,
        layers: &settings.layers(),
        view,
        threshold,
    };
    decorate(&*model, &mut scene, &layout, &setting);
    (model, scene, layout, view)
}

fn compare(data: &Dataset, settings: &Settings, threshold: f64) -> Comparison {
    let (model, scene, layout, view) = drawn(data, settings, threshold, 600);
    let drawn = scene.field.expect("a two-class field");
    let grid = drawn.grid;
    let evaluator = model.grid_evaluator(&grid);
    let exact = Field::exact(grid, &|r, c| evaluator(r, c) - threshold);
    let rect = layout.plot;
    let to_pixel = |p: Point| {
        let (x, y) = rect.to_pixel(&view, p);
        [x, y]
    };
    let mut comparison = Comparison {
        worst_vertex: 0.0,
        misplaced_nodes: 0,
        vertices: 0,
        exact_nodes: drawn.exact_nodes,
        nodes: grid.rows * grid.cols,
    };
    for level in LEVELS.map(|l| if l == 0.0 { 0.0 } else { l - threshold }) {
        let drawn_curves = level_curves(&drawn, level);
        let exact_curves = level_curves(&exact, level);
        let (drawn_segments, exact_segments) = (
            Segments::new(&drawn_curves, &to_pixel),
            Segments::new(&exact_curves, &to_pixel),
        );
        for (curves, other) in [
            (&drawn_curves, &exact_segments),
            (&exact_curves, &drawn_segments),
        ] {
            for &p in curves.iter().flatten() {
                comparison.worst_vertex = comparison.worst_vertex.max(other.distance(to_pixel(p)));
                comparison.vertices += 1;
            }
        }
        for row in 0..grid.rows {
            for col in 0..grid.cols {
                let (a, b) = (drawn.at(row, col), exact.at(row, col));
                if (a > level) != (b > level)
                    && exact_segments.distance(to_pixel(grid.node(row, col))) > 1.0
                {
                    comparison.misplaced_nodes += 1;
                }
            }
        }
    }
    comparison
}

fn settings(pairs: &[(&str, &str)]) -> Settings {
    let mut settings = Settings::default();
    for (key, value) in pairs {
        settings.set(key, value).unwrap();
    }
    settings
}

fn assert_within_a_pixel(name: &str, c: &Comparison) {
    assert!(c.vertices > 0, "{name}: no contours to compare");
    assert!(
        c.worst_vertex <= 1.0,
        "{name}: a contour vertex {:.3} px from the exact contour",
        c.worst_vertex
    );
    assert_eq!(
        c.misplaced_nodes, 0,
        "{name}: nodes on the wrong side of a level, away from it"
    );
}

#[test]
fn drawn_contours_are_within_a_pixel_of_the_exact_ones_where_support_vectors_abound() {
    let random = random_labels(2000, 3);
    let moons = Preset::Moons.generate(2000, 0.3, 1);
    let scaled = Dataset::from_parts(
        moons.points.iter().map(|p| p.map(|v| 1e3 * v)).collect(),
        moons.labels.clone(),
    );
    let scenes = [
        ("random labels, γ = 2", &random, settings(&[]), 0.0),
        (
            "moons, wide γ = 0.5",
            &moons,
            settings(&[("gamma", "0.5")]),
            0.0,
        ),
        (
            "moons, γ = 1, t = 0.3",
            &moons,
            settings(&[("gamma", "1")]),
            0.3,
        ),
        (
            "moons, polynomial of degree 3",
            &moons,
            settings(&[("kernel", "poly"), ("coef0", "1"), ("gamma", "1")]),
            0.0,
        ),
        (
            "moons in thousands, γ = 10⁻⁶",
            &scaled,
            settings(&[("gamma", "0.000001")]),
            0.0,
        ),
    ];
    for (name, data, settings, threshold) in scenes {
        let c = compare(data, &settings, threshold);
        // The fast paths: exact only in thin bands around the levels.
        assert!(
            c.exact_nodes < c.nodes / 20,
            "{name}: {} of {} nodes exact",
            c.exact_nodes,
            c.nodes
        );
        assert_within_a_pixel(name, &c);
    }
}

#[test]
fn drawn_contours_are_within_a_pixel_of_the_exact_ones_for_narrow_kernels() {
    let moons = Preset::Moons.generate(2000, 0.3, 1);
    for gamma in ["10", "50"] {
        let c = compare(&moons, &settings(&[("gamma", gamma)]), 0.0);
        assert_within_a_pixel(&format!("moons, γ = {gamma}"), &c);
    }
}

#[test]
fn drawn_class_regions_are_the_exact_predictions_for_multi_class_kernel_models() {
    let spiral = Preset::Spiral3.generate(1500, 0.2, 1);
    for (scheme, gamma) in [("ovo", "2"), ("ovr", "2"), ("ovo", "40")] {
        let settings = settings(&[("mc", scheme), ("gamma", gamma)]);
        let (model, scene, _, _) = drawn(&spiral, &settings, 0.0, 500);
        let labels = scene.labels.expect("a label field");
        let grid = labels.grid;
        let wrong = (0..grid.rows * grid.cols)
            .filter(|k| {
                let (r, c) = (k / grid.cols, k % grid.cols);
                labels.at(r, c).0 as usize != model.label_and_confidence(grid.node(r, c)).0
            })
            .count();
        assert_eq!(
            wrong, 0,
            "{scheme}, γ = {gamma}: nodes painted the wrong class"
        );
    }
}

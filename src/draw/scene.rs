//! Drawing a scene with plotters over any backend: the browser canvas (plotters-canvas), SVG
//! and PNG (natively). The page and `kernel-playground render` call the same [`draw`], so a
//! figure for slides is exactly what the page shows.
//!
//! Layers, bottom to top: decision regions (a pixel image of the field, coloured by predicted
//! class and shaded by the method's confidence: |f(x)| for margins, |2p − 1| for probabilities,
//! the vote share for neighbours), the methods' marks under the curves (Delaunay and Voronoi
//! edges, slack segments, ellipses, hulls), level curves (margins f = ±1 or probability
//! contours, dashed; a multi-class model's members' boundaries, dashed, with their layer), the
//! boundary (solid), the marks over the curves (lines to the nearest neighbours, the w arrow),
//! the points (held-out test points hollow, white inside their class's shape) and the
//! support-vector rings (a circle for a free support vector, a square for a bound one), the
//! marks over the points (means, mistake counts), the curves' labels, the marks on top (the
//! point of the last update, the SMO pair), the highlight of the point under the pointer, the
//! axes, and the SMO inset. Which marks a method draws is its own ([`Primitive`]s in a
//! `Decoration`, `core::plane`'s marks); this module knows only the primitives.
//!
//!
//! How regions are coloured is [`crate::draw::regions`]'s business. The region image is painted by
//! the caller's backend in one call (`blit_bitmap`) — per-pixel
//! drawing through canvas calls would be far too slow — or, on the page, by the web facade
//! itself, which then asks [`draw`] for everything else.
//!
//! The parts, one file each: `axes` (the chart, its ticks and their labels), `markers` (the
//! class shapes and the support-vector marks), `overlay` (every layer above the regions),
//! `primitives` (the methods' marks), `tags` (labels on plates) and `pixels` (the quick data
//! → pixel map for the points, and its inverse).

use crate::core::error::Error;
use crate::core::field::View;
pub use crate::core::plane::{Curve, CurveKind, Layers, Layout, Mark, Primitive, Scene, Shading};
pub use crate::draw::regions::{
    class_shade, field_image, field_image_rgba, region_grid, region_shade, CLASS_COLOURS,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

mod axes;
mod markers;
mod overlay;
mod pixels;
mod primitives;
mod tags;
pub(crate) use axes::{axes, tick_label};
pub(crate) use markers::draw_marker;
pub use markers::{draw_disc, marker_half, shape, Shape, SHAPES};
use overlay::draw_overlay;

/// The data plane of a chart, as plotters types it.
pub(crate) type Plane = plotters::coord::cartesian::Cartesian2d<
    plotters::coord::types::RangedCoordf64,
    plotters::coord::types::RangedCoordf64,
>;

/// The dark ink of axes, edges and marks.
const INK: RGBColor = RGBColor(20, 20, 20);

pub(crate) fn colour(index: usize) -> RGBColor {
    let (r, g, b) = CLASS_COLOURS[index % CLASS_COLOURS.len()];
    RGBColor(r, g, b)
}

pub(crate) fn draw_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> Error {
    Error::Draw(e.to_string())
}

/// Who draws the discs of the points that are not held out (the bulk of the points): plotters,
/// a circle and its edge each; or the caller, called at the moment the discs belong in the
/// layering with a way to list every such disc as (pixel x, pixel y, colour index), to stamp a
/// prepared image of [`draw_disc`] per colour. In a browser without a GPU, thousands of discs
/// rasterised as paths are the slowest part of a frame; stamped, they cost a copy each. (A
/// caller that still holds the discs it stamped last, for the same points, need not list them.)
pub enum Discs<'a> {
    Drawn,
    Stamped(&'a mut Stamp<'a>),
}

/// A point's disc as it is stamped: its centre's pixel (x, y) and its class colour index.
pub type Disc = (i32, i32, usize);

/// Lists discs onto the end of the list it is given (the caller's to reuse: a million discs
/// are 16 MB).
pub type ListDiscs<'a> = dyn Fn(&mut Vec<Disc>) + 'a;

/// Stamps discs: its argument lists them.
pub type Stamp<'a> = dyn FnMut(&ListDiscs) -> Result<(), Error> + 'a;

/// Lists the discs a frame of `scene` on `layout` stamps ([`Discs::Stamped`]) for the points
/// in `range`, as it would list them, onto the end of `into`: a page can list a million of
/// them, a range at a time, in tasks of their own before the frame that paints them.
pub fn list_discs(
    scene: &Scene,
    layout: &Layout,
    range: std::ops::Range<usize>,
    into: &mut Vec<Disc>,
) {
    let view = scene.view.unwrap_or(View::square(1.0));
    let pixels = pixels::PixelMap::for_plot(&view, &layout.plot);
    overlay::list_plain(scene, range, &pixels, into);
}

/// Draws `scene` on `backend`. With `paint_field` the backend also gets a white background and
/// the region image; without it the caller has painted those already.
pub fn draw<DB: DrawingBackend>(
    backend: DB,
    scene: &Scene,
    layout: &Layout,
    layers: &Layers,
    paint_field: bool,
) -> Result<(), Error> {
    draw_with(backend, scene, layout, layers, paint_field, Discs::Drawn)
}

/// Paints the whole picture white, under everything else.
pub fn blank<DB: DrawingBackend>(backend: &mut DB, layout: &Layout) -> Result<(), Error> {
    backend
        .draw_rect(
            (0, 0),
            (layout.width as i32, layout.height as i32),
            &WHITE,
            true,
        )
        .map_err(|e| Error::Draw(e.to_string()))
}

/// [`draw`], with the plain points' discs drawn as `discs` says.
pub fn draw_with<DB: DrawingBackend>(
    mut backend: DB,
    scene: &Scene,
    layout: &Layout,
    layers: &Layers,
    paint_field: bool,
    mut discs: Discs,
) -> Result<(), Error> {
    let plot = layout.plot;
    if paint_field {
        blank(&mut backend, layout)?;
        if region_grid(scene).is_some() && layers.on("regions") {
            let (w, h) = (plot.width as u32, plot.height as u32);
            let image = field_image(scene, w, h);
            backend
                .blit_bitmap((plot.left as i32, plot.top as i32), (w, h), &image)
                .map_err(|e| Error::Draw(e.to_string()))?;
        }
    }
    let root = backend.into_drawing_area();
    let view = scene.view.unwrap_or(View::square(1.0));
    let chart = axes(
        &root,
        layout,
        view.x_min..view.x_max,
        view.y_min..view.y_max,
        if scene.task == crate::core::task::Task::Regression {
            ("x", "t")
        } else {
            ("x₁", "x₂")
        },
    )?;
    let area = chart.plotting_area();
    draw_overlay(area, scene, layout, layers, &mut discs)?;
    let insets = scene
        .all_decorations()
        .filter(|d| d.layer_on(layers))
        .flat_map(|d| &d.shapes)
        .filter_map(|shape| match shape {
            Primitive::Inset { step, points } => Some((step, *points)),
            _ => None,
        });
    for (step, pair) in insets {
        let pixels: Vec<(i32, i32)> = scene
            .points
            .iter()
            .map(|p| area.map_coordinate(&(p[0], p[1])))
            .collect();
        crate::draw::inset::draw(&root, step, pair, layout, &pixels)?;
    }
    root.present().map_err(draw_error)?;
    Ok(())
}

/// The plotting area of a chart built by [`draw`] on a backend of this size, for tests that
/// check [`Layout`] against plotters' own layout.
pub fn plotters_plot_area<DB: DrawingBackend>(
    backend: DB,
    layout: &Layout,
) -> (std::ops::Range<i32>, std::ops::Range<i32>) {
    let root: DrawingArea<DB, Shift> = backend.into_drawing_area();
    let chart = axes(&root, layout, -1.0..1.0, -1.0..1.0, ("x", "y")).expect("chart");
    chart.plotting_area().get_pixel_range()
}

/// Where a TrueType sans-serif font is commonly found; `KP_FONT` names another.
#[cfg(not(target_arch = "wasm32"))]
const FONT_PATHS: [&str; 5] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Native drawing lays out and rasterises text with a font from the system (the page uses the
/// browser's). Call once before [`draw`] on an SVG or bitmap backend.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_system_font() -> Result<(), Error> {
    static LOADED: std::sync::OnceLock<Result<(), Error>> = std::sync::OnceLock::new();
    LOADED
        .get_or_init(|| {
            let from_env = std::env::var("KP_FONT").ok();
            let candidates = from_env.iter().map(String::as_str).chain(FONT_PATHS);
            for path in candidates {
                if let Ok(bytes) = std::fs::read(path) {
                    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                    for style in [FontStyle::Normal, FontStyle::Bold] {
                        plotters::style::register_font("sans-serif", style, bytes)
                            .map_err(|_| Error::Draw(format!("{path} is not a usable font")))?;
                    }
                    return Ok(());
                }
            }
            Err(Error::Draw(
                "no TrueType font found: install DejaVu Sans (Debian: fonts-dejavu-core) or set \
                 KP_FONT=/path/to/font.ttf"
                    .into(),
            ))
        })
        .clone()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_plotters_chart_area() {
        let sizes = [
            (640, 640),
            (1000, 1000),
            (300, 300),
            (800, 600),
            (1100, 600),
        ];
        for layout in sizes.iter().flat_map(|&(w, h)| {
            [
                Layout::new(w, h),
                Layout::chart(w, h),
                Layout::chart(w, h).with_colour_bar(),
            ]
        }) {
            let (w, h) = (layout.width, layout.height);
            let mut svg = String::new();
            load_system_font().unwrap();
            let (xs, ys) = plotters_plot_area(SVGBackend::with_string(&mut svg, (w, h)), &layout);
            assert_eq!(xs.start as f64, layout.plot.left, "{w}x{h}");
            assert_eq!(ys.start as f64, layout.plot.top);
            assert_eq!((xs.end - xs.start) as f64, layout.plot.width);
            assert_eq!((ys.end - ys.start) as f64, layout.plot.height);
        }
    }
}

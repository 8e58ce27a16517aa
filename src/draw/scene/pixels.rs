//! The plane's pixels: the quick map from data coordinates to pixels that places the points,
//! and its inverse, pixels → data, for marks laid out in pixels (the w arrow's head).

use super::Plane;
use crate::core::data::Point;
use crate::core::field::{PixelRect, View};
use plotters::prelude::*;
use plotters_backend::DrawingBackend;

/// The plane's map from data coordinates to pixels, the very arithmetic of the plotting
/// area's (`DrawingArea::map_coordinate`, checked against it in the tests) without its
/// generic calls: a million points are placed in each frame that lists their discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PixelMap {
    x: AxisMap,
    y: AxisMap,
}

/// One axis: data `from.0..from.1` onto pixels `to.0..to.1` (ends included), with what
/// every point's mapping shares worked out once.
#[derive(Clone, Copy, Debug, PartialEq)]
struct AxisMap {
    /// The data range's start, and its width `from.1 − from.0` (the same subtraction the
    /// mapping would make for each point).
    start: f64,
    span: f64,
    /// Whether the data range is empty (`from.0 == from.1`).
    empty: bool,
    to: (i32, i32),
    /// The pixel range's length, `to.1 − to.0`, and as a float.
    length: i32,
    scale: f64,
}

impl PixelMap {
    pub(super) fn of<DB: DrawingBackend>(area: &DrawingArea<DB, Plane>) -> PixelMap {
        let (x, y) = (area.get_x_range(), area.get_y_range());
        // The ends of each data range land on the ends of its pixel range.
        let (x0, y0) = area.map_coordinate(&(x.start, y.start));
        let (x1, y1) = area.map_coordinate(&(x.end, y.end));
        PixelMap {
            x: AxisMap::new((x.start, x.end), (x0, x1)),
            y: AxisMap::new((y.start, y.end), (y0, y1)),
        }
    }

    /// The same map worked out from the layout alone, for `view` filling `plot` (the plotting
    /// area plotters lays out for [`super::Layout`], checked in the tests): the points' discs
    /// can be listed before a frame draws its chart.
    pub(super) fn for_plot(view: &View, plot: &PixelRect) -> PixelMap {
        // The last pixel column and row are the area's width and height less one from its
        // first.
        let (left, top) = (plot.left as i32, plot.top as i32);
        let (right, bottom) = (left + plot.width as i32 - 1, top + plot.height as i32 - 1);
        PixelMap {
            x: AxisMap::new((view.x_min, view.x_max), (left, right)),
            y: AxisMap::new((view.y_min, view.y_max), (bottom, top)),
        }
    }

    #[inline]
    pub(super) fn map(&self, p: &Point) -> (i32, i32) {
        (self.x.map(p[0]), self.y.map(p[1]))
    }
}

impl AxisMap {
    fn new((a, b): (f64, f64), to: (i32, i32)) -> AxisMap {
        let length = to.1 - to.0;
        AxisMap {
            start: a,
            span: b - a,
            empty: a == b,
            to,
            length,
            scale: length as f64,
        }
    }

    #[inline]
    fn map(&self, v: f64) -> i32 {
        let (l0, l1) = self.to;
        if self.empty {
            // An empty range puts every value where it put its start.
            return l0;
        }
        let share = (v - self.start) / self.span;
        if self.length == 0 {
            l1
        } else if share.is_infinite() {
            if share.is_sign_positive() {
                l1
            } else {
                l0
            }
        } else if self.length > 0 {
            l0 + (self.scale * share + 1e-3).floor() as i32
        } else {
            l0 + (self.scale * share - 1e-3).ceil() as i32
        }
    }
}

/// Inverse of the area's coordinate map (pixels → data).
pub(super) fn layout_to_data<DB: DrawingBackend>(
    area: &DrawingArea<DB, Plane>,
    px: (f64, f64),
) -> Point {
    let (xr, yr) = area.get_pixel_range();
    let spec = area.as_coord_spec();
    let (x0, x1) = (spec.get_x_range().start, spec.get_x_range().end);
    let (y0, y1) = (spec.get_y_range().start, spec.get_y_range().end);
    let rect = PixelRect {
        left: xr.start as f64,
        top: yr.start as f64,
        width: (xr.end - xr.start) as f64,
        height: (yr.end - yr.start) as f64,
    };
    rect.to_data(
        &View {
            x_min: x0,
            x_max: x1,
            y_min: y0,
            y_max: y1,
        },
        px.0,
        px.1,
    )
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::plane::Layout;
    use crate::draw::scene::{axes, load_system_font};

    /// The discs' quick map from data to pixels puts every point, inside the window or far
    /// outside it, on the very pixel the plotting area's own map does.
    #[test]
    fn pixel_map_is_the_plotting_area_map() {
        load_system_font().unwrap();
        let windows = [
            (-1.0, 1.0, -1.0, 1.0),
            (-3.25, 7.5, 0.001, 0.0015),
            (1e6, 1e6 + 3.0, -2e-9, 5e-9),
        ];
        for (w, h) in [(640, 640), (333, 517), (1100, 600)] {
            for &(x0, x1, y0, y1) in &windows {
                let layout = Layout::new(w, h);
                let mut svg = String::new();
                let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
                let chart = axes(&root, &layout, x0..x1, y0..y1, ("x", "y")).expect("chart");
                let area = chart.plotting_area();
                let map = PixelMap::of(area);
                let view = View {
                    x_min: x0,
                    x_max: x1,
                    y_min: y0,
                    y_max: y1,
                };
                assert_eq!(PixelMap::for_plot(&view, &layout.plot), map, "{w}×{h}");
                let mut state = 7u64;
                let mut next = || {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 11) as f64 / (1u64 << 53) as f64
                };
                for _ in 0..20_000 {
                    let p = [
                        x0 + (x1 - x0) * (3.0 * next() - 1.0),
                        y0 + (y1 - y0) * (3.0 * next() - 1.0),
                    ];
                    assert_eq!(map.map(&p), area.map_coordinate(&(p[0], p[1])), "{p:?}");
                }
                for p in [
                    [x0, y0],
                    [x1, y1],
                    [x0, y1],
                    [f64::INFINITY, f64::NEG_INFINITY],
                ] {
                    assert_eq!(map.map(&p), area.map_coordinate(&(p[0], p[1])), "{p:?}");
                }
            }
        }
    }
}

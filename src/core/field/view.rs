//! The plotted window of the plane: how it grows to fit the points, clipping segments to it,
//! the maps between data coordinates and pixels (clicks snap to a decimal grid finer than a
//! pixel), and the w arrow drawn in it.

use crate::core::data::Point;

/// The window of the plane that is plotted.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct View {
    pub x_min: f64,
    pub x_max: f64,
    pub y_min: f64,
    pub y_max: f64,
}

impl View {
    /// [−half, half]².
    pub fn square(half: f64) -> View {
        View {
            x_min: -half,
            x_max: half,
            y_min: -half,
            y_max: half,
        }
    }

    /// The window for `points`, in whatever units they come:
    /// - [−1, 1]², the lecture's plane, when every point lies in it and they are not all
    ///   crowded into less than a twentieth of it;
    /// - a square centred on the origin and just holding every point with a 5 % border, when
    ///   points lie beyond [−1, 1] around the origin;
    /// - a square around the points' bounding box, when they are crowded far from the origin
    ///   or into a tiny patch of it (data in other units, 10⁻⁶ or 10⁹).
    ///
    /// Half-widths are rounded up to a tidy number (a multiple of a quarter of a power of
    /// ten), so the axis ticks stay readable at every scale.
    pub fn around(points: &[Point]) -> View {
        // The finite points' bounding box, in plain comparisons (a million points each time
        // they change).
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for &[x, y] in points {
            if x.is_finite() && y.is_finite() {
                lo = [
                    if x < lo[0] { x } else { lo[0] },
                    if y < lo[1] { y } else { lo[1] },
                ];
                hi = [
                    if x > hi[0] { x } else { hi[0] },
                    if y > hi[1] { y } else { hi[1] },
                ];
            }
        }
        if lo[0] > hi[0] {
            return View::square(1.0);
        }
        let extent = lo.iter().chain(&hi).fold(0.0f64, |m, v| m.max(v.abs()));
        let spread = (hi[0] - lo[0]).max(hi[1] - lo[1]);
        // Three or more points within a twentieth of their scale: other units, not clicks.
        let crowded = points.len() >= 3 && spread < 0.05 * extent.max(1.0);
        if extent <= 1.0 && !crowded {
            return View::square(1.0);
        }
        let centred = tidy_ceil(extent * 1.05);
        if !crowded && centred <= 3.0 * spread {
            return View::square(centred);
        }
        // Around the bounding box; a lone point (or a stack of one) gets a unit-sized window
        // at its own scale.
        let half = if spread > 0.0 {
            spread / 2.0 * 1.1
        } else if extent > 0.0 {
            0.05 * extent
        } else {
            1.0
        };
        let step = tidy_ceil(half) / 4.0;
        let centre = [
            ((lo[0] + hi[0]) / 2.0 / step).round() * step,
            ((lo[1] + hi[1]) / 2.0 / step).round() * step,
        ];
        let reach = (0..2)
            .map(|a| (hi[a] - centre[a]).max(centre[a] - lo[a]))
            .fold(0.0f64, f64::max);
        let half = tidy_ceil((reach * 1.05).max(half));
        View {
            x_min: centre[0] - half,
            x_max: centre[0] + half,
            y_min: centre[1] - half,
            y_max: centre[1] + half,
        }
    }

    /// The middle of the window.
    pub fn centre(&self) -> Point {
        [
            (self.x_min + self.x_max) / 2.0,
            (self.y_min + self.y_max) / 2.0,
        ]
    }

    pub fn width(&self) -> f64 {
        self.x_max - self.x_min
    }

    pub fn height(&self) -> f64 {
        self.y_max - self.y_min
    }

    pub fn contains(&self, p: Point) -> bool {
        (self.x_min..=self.x_max).contains(&p[0]) && (self.y_min..=self.y_max).contains(&p[1])
    }

    /// The part of the segment from `a` to `b` inside the window (Liang–Barsky), or `None`
    /// when none of it is. Plotters pins each end of a line to its plotting area separately,
    /// so a segment reaching far outside would be drawn bent towards a corner; clipped here
    /// first, it keeps its direction and stops at the window's edge.
    pub fn clip(&self, a: Point, b: Point) -> Option<(Point, Point)> {
        let d = [b[0] - a[0], b[1] - a[1]];
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [
            (-d[0], a[0] - self.x_min),
            (d[0], self.x_max - a[0]),
            (-d[1], a[1] - self.y_min),
            (d[1], self.y_max - a[1]),
        ] {
            if !(p.is_finite() && q.is_finite()) {
                return None;
            }
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else if p < 0.0 {
                t0 = t0.max(q / p);
            } else {
                t1 = t1.min(q / p);
            }
        }
        if t0 > t1 {
            return None;
        }
        let at = |t: f64| {
            let p = [a[0] + t * d[0], a[1] + t * d[1]];
            // Rounding must not put an end a hair outside.
            [
                p[0].clamp(self.x_min, self.x_max),
                p[1].clamp(self.y_min, self.y_max),
            ]
        };
        Some((
            if t0 > 0.0 { at(t0) } else { a },
            if t1 < 1.0 { at(t1) } else { b },
        ))
    }
}

/// The smallest multiple of a quarter of the power of ten below `x` that is at least `x`
/// (2.31 → 2.5, 0.0123 → 0.0125, 7.3·10⁸ → 7.5·10⁸).
fn tidy_ceil(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return 1.0;
    }
    let quarter = 10f64.powf(x.log10().floor()) / 4.0;
    (x / quarter).ceil() * quarter
}

/// A rectangle of pixels: left, top, width, height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelRect {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

impl PixelRect {
    /// The pixel position of a data point when `view` fills this rectangle.
    pub fn to_pixel(&self, view: &View, p: Point) -> (f64, f64) {
        (
            self.left + (p[0] - view.x_min) / view.width() * self.width,
            self.top + (view.y_max - p[1]) / view.height() * self.height,
        )
    }

    /// The data point under a pixel position.
    pub fn to_data(&self, view: &View, px: f64, py: f64) -> Point {
        [
            view.x_min + (px - self.left) / self.width * view.width(),
            view.y_max - (py - self.top) / self.height * view.height(),
        ]
    }

    /// `p` rounded to the coarsest decimal grid finer than a pixel of `view`: a click means
    /// no more than its pixel, and short numbers keep links and files short.
    pub fn snapped(&self, view: &View, p: Point) -> Point {
        let per_pixel = self.data_per_pixel(view);
        if per_pixel.is_nan() || per_pixel <= 0.0 || per_pixel.is_infinite() {
            return p;
        }
        let exponent = per_pixel.log10().floor() as i32;
        p.map(|v| {
            let snapped = if exponent >= 0 {
                // Whole multiples of 10^exponent: exact in f64 up to 2⁵³.
                let unit = 10f64.powi(exponent);
                (v / unit).round() * unit
            } else {
                // Through decimal text, so the stored value is the one its digits name.
                format!("{:.*}", (-exponent) as usize, v)
                    .parse()
                    .unwrap_or(v)
            };
            if snapped.is_finite() {
                snapped
            } else {
                v
            }
        })
    }

    /// How many data units one pixel spans (horizontally).
    pub fn data_per_pixel(&self, view: &View) -> f64 {
        view.width() / self.width
    }
}

/// The w arrow: from the boundary point nearest the view's centre, along w, a quarter of the
/// view long (its direction is w's; ‖w‖ is in the status line).
pub fn w_arrow(w: [f64; 2], bias: f64, view: &View) -> Option<(Point, Point)> {
    let norm2 = w[0] * w[0] + w[1] * w[1];
    if norm2 <= 0.0 || !norm2.is_finite() {
        return None;
    }
    let centre = [
        (view.x_min + view.x_max) / 2.0,
        (view.y_min + view.y_max) / 2.0,
    ];
    // Move the centre along w onto wᵀx + b = 0.
    let t = -(w[0] * centre[0] + w[1] * centre[1] + bias) / norm2;
    let tail = [centre[0] + t * w[0], centre[1] + t * w[1]];
    if !view.contains(tail) {
        return None;
    }
    let length = 0.25 * view.width() / norm2.sqrt();
    Some((tail, [tail[0] + length * w[0], tail[1] + length * w[1]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_and_data_coordinates_invert() {
        let view = View::square(1.5);
        let rect = PixelRect {
            left: 60.0,
            top: 10.0,
            width: 500.0,
            height: 500.0,
        };
        assert_eq!(rect.to_pixel(&view, [-1.5, 1.5]), (60.0, 10.0));
        assert_eq!(rect.to_pixel(&view, [1.5, -1.5]), (560.0, 510.0));
        let p = rect.to_data(&view, 123.0, 456.0);
        let (x, y) = rect.to_pixel(&view, p);
        assert!((x - 123.0).abs() < 1e-9 && (y - 456.0).abs() < 1e-9);
    }

    #[test]
    fn segments_are_clipped_to_the_window_keeping_their_direction() {
        let view = View::square(1.0);
        // Inside: unchanged.
        assert_eq!(
            view.clip([0.0, 0.0], [0.5, 0.5]),
            Some(([0.0, 0.0], [0.5, 0.5]))
        );
        // Far out along a direction that is not a diagonal: stops on the right edge, at the
        // height the line has there (pinning each end would have put it on the corner).
        let (a, b) = view.clip([0.0, 0.0], [1e9, 2e8]).unwrap();
        assert_eq!(a, [0.0, 0.0]);
        assert!(
            (b[0] - 1.0).abs() < 1e-12 && (b[1] - 0.2).abs() < 1e-12,
            "{b:?}"
        );
        // Both ends out, crossing the window.
        let (a, b) = view.clip([-3.0, 0.5], [3.0, 0.5]).unwrap();
        assert_eq!((a, b), ([-1.0, 0.5], [1.0, 0.5]));
        // Missing it, or not finite.
        assert_eq!(view.clip([2.0, 0.0], [3.0, 5.0]), None);
        assert_eq!(view.clip([0.0, 0.0], [f64::NAN, 1.0]), None);
    }

    #[test]
    fn view_grows_only_when_points_need_it() {
        assert_eq!(View::around(&[[0.5, -0.9]]), View::square(1.0));
        assert_eq!(View::around(&[[0.5, -0.9], [0.0, 0.0]]), View::square(1.0));
        let v = View::around(&[[0.0, -2.2], [0.1, 0.3]]);
        assert_eq!(v, View::square(2.5));
        assert!(v.contains([0.0, -2.2]) && v.x_max >= 2.2 * 1.05);
    }

    /// Every point inside, filling at least a third of the window's width or height.
    fn fits(points: &[Point]) -> View {
        let v = View::around(points);
        let spread = |a: usize| {
            let (lo, hi) = points
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
                    (l.min(p[a]), h.max(p[a]))
                });
            hi - lo
        };
        for p in points {
            assert!(v.contains(*p), "{p:?} outside {v:?}");
        }
        assert!(
            spread(0).max(spread(1)) >= v.width() / 3.0,
            "points crowd into a corner of {v:?}"
        );
        v
    }

    #[test]
    fn view_fits_data_of_any_scale_and_place() {
        let scene: Vec<Point> = vec![[-0.7, 0.2], [0.4, -0.5], [0.9, 0.8], [-0.2, -0.9]];
        for scale in [1e-6, 1e-4, 1e-2, 1.0, 1e2, 1e4, 1e9] {
            let scaled: Vec<Point> = scene.iter().map(|p| p.map(|v| v * scale)).collect();
            let v = fits(&scaled);
            assert!(
                (v.width() / (2.0 * scale) - 1.0).abs() < 0.3,
                "{scale}: {v:?}"
            );
            // Moved far from the origin: still filled.
            let shifted: Vec<Point> = scaled
                .iter()
                .map(|p| [p[0] + 3e3 * scale, p[1] - 7e3 * scale])
                .collect();
            fits(&shifted);
        }
        let lone = View::around(&[[5e8, 5e8]]);
        assert!(lone.contains([5e8, 5e8]) && lone.width() > 0.0);
    }

    #[test]
    fn clicks_snap_to_a_decimal_grid_finer_than_a_pixel() {
        let rect = PixelRect {
            left: 0.0,
            top: 0.0,
            width: 800.0,
            height: 800.0,
        };
        let unit = View::square(1.0); // 0.0025 a pixel: three decimals
        assert_eq!(rect.snapped(&unit, [0.123456, -0.98765]), [0.123, -0.988]);
        let big = View::square(4e5); // 1000 a pixel
        assert_eq!(rect.snapped(&big, [123_456.7, -9.0]), [123_000.0, -0.0]);
        let tiny = View::square(1e-6);
        let p = rect.snapped(&tiny, [3.14159e-7, 1e-9]);
        assert_eq!(p, [3.14e-7, 1e-9]);
        for v in p {
            assert!(v.to_string().len() <= 11, "{v}");
        }
    }
}

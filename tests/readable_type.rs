//! Readable from the back row: every view beside the plane, and the plane with its SMO inset,
//! drawn at the sizes the page uses (a 1280 × 720 projector, normal and in presenter mode, and
//! a 390 × 844 phone) and at the command line's default, is checked from what was actually
//! drawn. A backend records every text the drawing code writes — its size, where it is
//! anchored and which way it turns — and the checks are that no text is smaller than the
//! plane's tick labels at the same scale, that no two texts overlap and that every text lies
//! inside the picture.
//!
//! A text's box is estimated from its size and its characters — a sans-serif's advances: 0.6 em
//! for digits and most letters, 0.35 em for the narrow ones (i, l, t, punctuation), 0.7 em for
//! capitals, 0.9 em for m and w — and the ink of a line, 0.8 em tall in the middle of its em
//! square; placed by its anchor and turned about it. The browser test
//! (tests/e2e/viewtype.test.mjs) checks the same with the browser's own measure of its fonts.

use kernel_playground::core::plane::Layout;
use kernel_playground::lab::playground::Playground;
use kernel_playground::views::{self, Cache, Figure, VIEWS};
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::FontTransform;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use std::cell::RefCell;

/// A text as drawn: its content, size in pixels and box (left, top, right, bottom).
#[derive(Clone, Debug)]
struct Drawn {
    text: String,
    size: f64,
    ink: (f64, f64, f64, f64),
}

/// A character's width in em, for the estimated boxes.
fn em_width(c: char) -> f64 {
    match c {
        ' ' | '.' | ',' | ':' | ';' | '!' | '|' | '\'' | 'i' | 'j' | 'l' | 'r' | 't' | 'f'
        | '(' | ')' | '[' | ']' | '-' | 'I' => 0.35,
        'm' | 'w' | 'M' | 'W' | '—' => 0.9,
        c if c.is_uppercase() => 0.7,
        _ => 0.6,
    }
}

/// A text's estimated width in pixels at `size`.
fn width(text: &str, size: f64) -> f64 {
    size * text.chars().map(em_width).sum::<f64>()
}

/// The ink of a line of text, in em, tall and below the top of its em square.
const INK: (f64, f64) = (0.8, 0.1);

/// A backend that draws nothing but remembers every text.
struct Recorder<'a> {
    size: (u32, u32),
    texts: &'a RefCell<Vec<Drawn>>,
}

#[derive(Debug)]
struct Never;
impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never")
    }
}
impl std::error::Error for Never {}

impl DrawingBackend for Recorder<'_> {
    type ErrorType = Never;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }
    fn draw_pixel(
        &mut self,
        _: BackendCoord,
        _: BackendColor,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        _: &S,
        _: bool,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: u32,
        _: &S,
        _: bool,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        _: I,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }
    fn blit_bitmap(
        &mut self,
        _: BackendCoord,
        _: (u32, u32),
        _: &[u8],
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        (x, y): BackendCoord,
    ) -> Result<(), DrawingErrorKind<Never>> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(());
        }
        let size = style.size();
        let (w, h) = (width(text, size), size);
        let anchor = style.anchor();
        let (left, right) = match anchor.h_pos {
            HPos::Left => (0.0, w),
            HPos::Center => (-w / 2.0, w / 2.0),
            HPos::Right => (-w, 0.0),
        };
        let square_top = match anchor.v_pos {
            VPos::Top => 0.0,
            VPos::Center => -h / 2.0,
            VPos::Bottom => -h,
        };
        let top = square_top + INK.1 * h;
        let bottom = top + INK.0 * h;
        // Turned about the anchor: clockwise on the screen (y down) for Rotate90.
        let turn = |(dx, dy): (f64, f64)| match style.transform() {
            FontTransform::Rotate90 => (-dy, dx),
            FontTransform::Rotate180 => (-dx, -dy),
            FontTransform::Rotate270 => (dy, -dx),
            _ => (dx, dy),
        };
        let corners = [(left, top), (right, top), (left, bottom), (right, bottom)].map(turn);
        let min = |f: fn(&(f64, f64)) -> f64| corners.iter().map(f).fold(f64::MAX, f64::min);
        let max = |f: fn(&(f64, f64)) -> f64| corners.iter().map(f).fold(f64::MIN, f64::max);
        let (x, y) = (x as f64, y as f64);
        self.texts.borrow_mut().push(Drawn {
            text: text.to_string(),
            size,
            ink: (
                x + min(|c| c.0),
                y + min(|c| c.1),
                x + max(|c| c.0),
                y + max(|c| c.1),
            ),
        });
        Ok(())
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<Never>> {
        let size = style.size();
        Ok((width(text, size).ceil() as u32, size.ceil() as u32))
    }
}

/// The texts `figure` draws on a picture of `layout`'s size.
fn texts(figure: &Figure, layout: &Layout, lab: &Playground) -> Vec<Drawn> {
    let texts = RefCell::new(Vec::new());
    let recorder = Recorder {
        size: (layout.width, layout.height),
        texts: &texts,
    };
    views::draw(recorder, figure, layout, lab).expect("drawn");
    texts.into_inner()
}

/// What is wrong with `texts` on a `width` × `height` picture whose smallest type may be
/// `floor`: a text too small, two overlapping, one outside.
fn problems(texts: &[Drawn], width: u32, height: u32, floor: f64) -> Vec<String> {
    let mut found = Vec::new();
    for t in texts {
        if t.size + 0.01 < floor {
            found.push(format!(
                "'{}' is {:.1} px, under {floor:.1}",
                t.text, t.size
            ));
        }
        let (l, top, r, b) = t.ink;
        if l < -1.0 || top < -1.0 || r > width as f64 + 1.0 || b > height as f64 + 1.0 {
            found.push(format!(
                "'{}' at ({l:.0}, {top:.0})–({r:.0}, {b:.0}) leaves the {width} × {height} picture",
                t.text
            ));
        }
    }
    for (k, a) in texts.iter().enumerate() {
        // The same text drawn twice in the same place (a 3-D box's shared edge) reads as one.
        for b in texts[k + 1..]
            .iter()
            .filter(|b| b.text != a.text || b.ink != a.ink)
        {
            let across = a.ink.2.min(b.ink.2) - a.ink.0.max(b.ink.0);
            let down = a.ink.3.min(b.ink.3) - a.ink.1.max(b.ink.1);
            if across > 1.0 && down > 1.0 {
                let at = |t: &Drawn| {
                    format!(
                        "({:.0}, {:.0})–({:.0}, {:.0})",
                        t.ink.0, t.ink.1, t.ink.2, t.ink.3
                    )
                };
                found.push(format!(
                    "'{}' at {} overlaps '{}' at {}",
                    a.text,
                    at(a),
                    b.text,
                    at(b)
                ));
            }
        }
    }
    found
}

/// The pictures the page draws, measured in it at a device pixel ratio of 1: (what, the plane
/// canvas's side, the width of the view's column, the window's height). The plane's and the
/// view's canvases scale alike, so the floor is the plane's type as it is.
const PAGE_SIZES: &[(&str, u32, f64, f64)] = &[
    ("1280 × 720", 576, 639.8, 720.0),
    ("1280 × 720 presenter", 666, 525.2, 720.0),
    ("390 × 844", 367, 367.2, 844.0),
];

/// Scenes that give every view something to show (a test share for the ROC, three classes,
/// a polynomial kernel for the lift).
const SCENES: &[&str] = &[
    "preset=moons&n=80&noise=0.25&seed=4&kernel=rbf&C=3&gamma=2&test=0.3",
    "preset=moons&n=60&seed=3&kernel=poly&degree=2&C=10",
    "preset=blobs3&n=60&seed=2&model=logistic",
];

/// The sizes to check `view` at, with the floor of its type: the page's (its canvas as wide
/// as the column but no taller than half the window, as www/views.js sizes it) and the command
/// line's default.
fn sizes(view: &dyn views::ViewKind) -> Vec<(String, (u32, u32), f64)> {
    let aspect = view.aspect();
    let mut out: Vec<(String, (u32, u32), f64)> = PAGE_SIZES
        .iter()
        .map(|&(what, plane, room, window)| {
            let wide = room.min(0.5 * window / aspect).max(200.0);
            let size = (
                (wide.round() as u32).max(300),
                ((wide * aspect).round() as u32).max(200),
            );
            (what.to_string(), size, Layout::new(plane, plane).font_px)
        })
        .collect();
    out.push((
        "render --view (800 × 800)".into(),
        (800, 800),
        Layout::new(800, 800).font_px,
    ));
    out
}

#[test]
fn every_view_reads_as_large_as_the_plane_and_nothing_overlaps() {
    kernel_playground::draw::scene::load_system_font().ok();
    let mut all = Vec::new();
    for hash in SCENES {
        let mut lab = Playground::from_hash(hash);
        assert!(lab.warnings.is_empty(), "{hash}: {:?}", lab.warnings);
        lab.fit();
        for view in VIEWS.iter().skip(1).copied() {
            while view.work(&mut lab, 1000) {}
            for (what, (w, h), floor) in sizes(view) {
                let layout = view.layout(w, h, floor);
                let figure = Cache::default().figure(view, &mut lab, &layout).clone();
                let drawn = texts(&figure, &layout, &lab);
                assert!(!drawn.is_empty(), "{hash} {} draws no text", view.id());
                for p in problems(&drawn, w, h, floor) {
                    all.push(format!("{} at {what} ({w} × {h}), {hash}: {p}", view.id()));
                }
            }
        }
    }
    assert!(
        all.is_empty(),
        "{} problems:\n{}",
        all.len(),
        all.join("\n")
    );
}

/// The plane while stepping an SVM: the SMO inset's texts are no smaller than the plane's
/// tick labels and overlap nothing.
#[test]
fn the_smo_inset_reads_as_large_as_the_ticks_and_nothing_overlaps() {
    kernel_playground::draw::scene::load_system_font().ok();
    let mut all = Vec::new();
    let sides = PAGE_SIZES.iter().map(|&(what, side, ..)| (what, side));
    for (what, side) in sides.chain([("render (800 × 800)", 800)]) {
        // Pair indices of two digits (α₁₅), as in the lecture.
        let mut lab = Playground::from_hash("preset=moons&n=120&kernel=rbf&gamma=2&C=10");
        lab.fit();
        lab.reset_steps();
        lab.fit();
        let layout = Layout::new(side, side);
        let mut seen = 0;
        for step in 0..12 {
            if !lab.step() {
                break;
            }
            lab.fit();
            let scene = lab.scene(&layout);
            if scene.decoration("sub_problem").is_none() {
                continue;
            }
            seen += 1;
            let drawn = texts(&Figure::Plane(Box::new(scene)), &layout, &lab);
            assert!(
                drawn.iter().any(|t| t.text.starts_with("SMO step")),
                "no inset drawn"
            );
            for p in problems(&drawn, side, side, layout.font_px) {
                all.push(format!("plane at {what} ({side}), step {step}: {p}"));
            }
        }
        assert!(seen > 0, "no SMO step shown");
    }
    assert!(
        all.is_empty(),
        "{} problems:\n{}",
        all.len(),
        all.join("\n")
    );
}

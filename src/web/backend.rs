//! The page's one drawing backend: its canvases, or the SVG document of "Save SVG".
//!
//! The scene and every view's chart are drawn by code generic over plotters' `DrawingBackend`,
//! and the compiled module had a copy of all of it for each backend type the page drew on:
//! the canvas, and the SVG of "Save SVG" (about 80 KB of WebAssembly). Drawn through this one
//! type, which hands each call to the backend it holds, the drawing is compiled once; the calls
//! reaching the canvas (and the SVG) are the same, in the same order, so the pictures are too.
//!
//! On the canvas, rectangles, circles, lines and polygons (a support vector's square or ring,
//! each dash of a margin, a tick of the axes or of each point in the loss view, every one in
//! every frame) are drawn here rather than by plotters, which writes the colour as a string
//! for each shape that the browser then reads back: the pen sets the context's colour and
//! width only when they change, with the same string plotters would write, so the canvas ends
//! in the same state. Text too (every tick label of every frame): the browser reads a font's
//! text anew each time it is given one, and the pen gives the font, alignment and colour only
//! when they change.

use crate::draw::svg::SvgWithImages;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use plotters_canvas::CanvasBackend;
use std::fmt;
use wasm_bindgen::JsValue;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

pub enum PageBackend<'a> {
    Canvas(CanvasPen),
    Svg(SvgWithImages<'a>),
}

/// A colour (red, green, blue, the bits of its alpha) and, for a stroke, its width.
type PenStyle = ((u8, u8, u8), u64, u32);

/// A canvas and the styles its context was last given here (`None`: unknown, as after a call
/// plotters made).
pub struct CanvasPen {
    backend: CanvasBackend,
    context: CanvasRenderingContext2d,
    stroke: Option<PenStyle>,
    fill: Option<PenStyle>,
    /// The text's font, baseline and alignment as last given (`None`: unknown).
    type_face: Option<TypeFace>,
}

/// What a text is set in: the font as the context reads it, the baseline and the alignment.
#[derive(Clone, PartialEq)]
struct TypeFace {
    font: String,
    baseline: &'static str,
    align: &'static str,
}

impl PageBackend<'_> {
    /// The backend drawing on `canvas`.
    pub fn on_canvas(canvas: HtmlCanvasElement) -> Result<Self, JsValue> {
        let context = super::context(&canvas)?;
        let backend = CanvasBackend::with_canvas_object(canvas)
            .ok_or_else(|| super::js_error("cannot draw on the canvas"))?;
        Ok(PageBackend::Canvas(CanvasPen {
            backend,
            context,
            stroke: None,
            fill: None,
            type_face: None,
        }))
    }
}

impl CanvasPen {
    /// Sets the context's stroke (`fill` false) or fill colour, and a stroke's width, unless
    /// it has them already; false for a transparent colour, which draws nothing.
    fn take<S: BackendStyle>(&mut self, style: &S, fill: bool) -> bool {
        let BackendColor { alpha, rgb } = style.color();
        if alpha == 0.0 {
            return false;
        }
        let width = if fill { 0 } else { style.stroke_width() };
        let wanted = Some((rgb, alpha.to_bits(), width));
        let held = if fill {
            &mut self.fill
        } else {
            &mut self.stroke
        };
        if *held != wanted {
            *held = wanted;
            let (r, g, b) = rgb;
            let colour = format!("rgba({r},{g},{b},{alpha})");
            if fill {
                self.context.set_fill_style_str(&colour);
            } else {
                self.context.set_stroke_style_str(&colour);
                self.context.set_line_width(width as f64);
            }
        }
        true
    }

    /// Fills `text` at `pos` as plotters' canvas backend does (the same font, baseline,
    /// alignment and colour, rotated about `pos`), giving the context each only when it has
    /// another.
    fn text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Drawn<()> {
        let colour = style.color();
        if colour.alpha == 0.0 {
            return Ok(());
        }
        let turn: f64 = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 90.0,
            FontTransform::Rotate180 => 180.0,
            FontTransform::Rotate270 => 270.0,
        };
        let (mut x, mut y) = (pos.0 as f64, pos.1 as f64);
        // A turned text is set between `save` and `restore`, which gives the context back the
        // styles it had before: the pen's knowledge of them is kept and given back with them.
        let known = (self.fill, self.type_face.clone());
        if turn != 0.0 {
            self.context.save();
            canvas_error(self.context.translate(x, y))?;
            canvas_error(self.context.rotate(turn / 180.0 * std::f64::consts::PI))?;
            (x, y) = (0.0, 0.0);
        }
        let anchor = style.anchor();
        let face = TypeFace {
            font: format!(
                "{} {}px {}",
                style.style().as_str(),
                style.size(),
                style.family().as_str()
            ),
            baseline: match anchor.v_pos {
                VPos::Top => "top",
                VPos::Center => "middle",
                VPos::Bottom => "bottom",
            },
            align: match anchor.h_pos {
                HPos::Left => "start",
                HPos::Right => "end",
                HPos::Center => "center",
            },
        };
        let held = self.type_face.take();
        if held.as_ref().map(|h| h.baseline) != Some(face.baseline) {
            self.context.set_text_baseline(face.baseline);
        }
        if held.as_ref().map(|h| h.align) != Some(face.align) {
            self.context.set_text_align(face.align);
        }
        if held.as_ref().map(|h| &h.font) != Some(&face.font) {
            self.context.set_font(&face.font);
        }
        self.type_face = Some(face);
        let wanted = Some((colour.rgb, colour.alpha.to_bits(), 0));
        if self.fill != wanted {
            self.fill = wanted;
            let ((r, g, b), alpha) = (colour.rgb, colour.alpha);
            self.context
                .set_fill_style_str(&format!("rgba({r},{g},{b},{alpha})"));
        }
        let filled = canvas_error(self.context.fill_text(text, x, y));
        if turn != 0.0 {
            self.context.restore();
            (self.fill, self.type_face) = known;
        }
        filled
    }

    /// A line through `path` (a dash of a dashed line is one), or the polygon it closes,
    /// filled (`fill`).
    fn trace<S: BackendStyle>(
        &mut self,
        path: impl IntoIterator<Item = BackendCoord>,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let mut path = path.into_iter();
        self.context.begin_path();
        if let Some((x, y)) = path.next() {
            self.take(style, fill);
            self.context.move_to(x as f64, y as f64);
            for (x, y) in path {
                self.context.line_to(x as f64, y as f64);
            }
            if fill {
                self.context.close_path();
            }
        }
        match fill {
            true => self.context.fill(),
            false => self.context.stroke(),
        }
        Ok(())
    }
}

fn canvas_error<T>(result: Result<T, JsValue>) -> Drawn<T> {
    result.map_err(|e| {
        DrawingErrorKind::DrawingError(PageError {
            display: format!("{e:?}"),
            debug: format!("{e:?}"),
        })
    })
}

/// A backend's error, kept as it reads.
pub struct PageError {
    display: String,
    debug: String,
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display)
    }
}

impl fmt::Debug for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.debug)
    }
}

impl std::error::Error for PageError {}

type Drawn<T> = Result<T, DrawingErrorKind<PageError>>;

fn lift<T, E: std::error::Error + Send + Sync>(result: Result<T, DrawingErrorKind<E>>) -> Drawn<T> {
    result.map_err(|e| match e {
        DrawingErrorKind::DrawingError(e) => DrawingErrorKind::DrawingError(PageError {
            display: e.to_string(),
            debug: format!("{e:?}"),
        }),
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    })
}

/// The call `$call` on the backend held, as `$b`.
macro_rules! each {
    ($self:expr, $b:ident => $call:expr) => {
        match $self {
            PageBackend::Canvas(pen) => {
                // Plotters may set any style: the pen no longer knows the context's.
                (pen.stroke, pen.fill, pen.type_face) = (None, None, None);
                let $b = &mut pen.backend;
                lift($call)
            }
            PageBackend::Svg($b) => lift($call),
        }
    };
}

impl DrawingBackend for PageBackend<'_> {
    type ErrorType = PageError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            PageBackend::Canvas(pen) => pen.backend.get_size(),
            PageBackend::Svg(b) => b.get_size(),
        }
    }

    // Called before every shape: the canvas has nothing to prepare or present (and keeps its
    // styles).
    fn ensure_prepared(&mut self) -> Drawn<()> {
        match self {
            PageBackend::Canvas(_) => Ok(()),
            PageBackend::Svg(b) => lift(b.ensure_prepared()),
        }
    }

    fn present(&mut self) -> Drawn<()> {
        match self {
            PageBackend::Canvas(_) => Ok(()),
            PageBackend::Svg(b) => lift(b.present()),
        }
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn<()> {
        each!(self, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn<()> {
        let pen = match self {
            PageBackend::Canvas(pen) => pen,
            PageBackend::Svg(b) => return lift(b.draw_line(from, to, style)),
        };
        if !pen.take(style, false) {
            return Ok(());
        }
        // Where plotters' canvas backend draws a line: half a pixel up and left when it is
        // horizontal or vertical, so that a line one pixel wide covers one row of pixels.
        let (mut from, mut to) = ((from.0 as f64, from.1 as f64), (to.0 as f64, to.1 as f64));
        if from.0 == to.0 {
            (from.0, to.0) = (from.0 - 0.5, to.0 - 0.5);
        }
        if from.1 == to.1 {
            (from.1, to.1) = (from.1 - 0.5, to.1 - 0.5);
        }
        pen.context.begin_path();
        pen.context.move_to(from.0, from.1);
        pen.context.line_to(to.0, to.1);
        pen.context.stroke();
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        let pen = match self {
            PageBackend::Canvas(pen) => pen,
            PageBackend::Svg(b) => return lift(b.draw_rect(upper_left, bottom_right, style, fill)),
        };
        if pen.take(style, fill) {
            let (x, y) = (upper_left.0 as f64, upper_left.1 as f64);
            let (w, h) = (
                (bottom_right.0 - upper_left.0) as f64,
                (bottom_right.1 - upper_left.1) as f64,
            );
            match fill {
                true => pen.context.fill_rect(x, y, w, h),
                false => pen.context.stroke_rect(x, y, w, h),
            }
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn<()> {
        let pen = match self {
            PageBackend::Canvas(pen) => pen,
            PageBackend::Svg(b) => return lift(b.draw_path(path, style)),
        };
        pen.trace(path, style, false)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        let pen = match self {
            PageBackend::Canvas(pen) => pen,
            PageBackend::Svg(b) => return lift(b.draw_circle(center, radius, style, fill)),
        };
        if !pen.take(style, fill) {
            return Ok(());
        }
        let context = &pen.context;
        context.begin_path();
        let (x, y) = (center.0 as f64, center.1 as f64);
        canvas_error(context.arc(x, y, radius as f64, 0.0, std::f64::consts::TAU))?;
        match fill {
            true => context.fill(),
            false => context.stroke(),
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn<()> {
        let pen = match self {
            PageBackend::Canvas(pen) => pen,
            PageBackend::Svg(b) => return lift(b.fill_polygon(vert, style)),
        };
        pen.trace(vert, style, true)
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Drawn<()> {
        match self {
            PageBackend::Canvas(pen) => pen.text(text, style, pos),
            PageBackend::Svg(b) => lift(b.draw_text(text, style, pos)),
        }
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Drawn<(u32, u32)> {
        match self {
            PageBackend::Canvas(pen) => lift(pen.backend.estimate_text_size(text, style)),
            PageBackend::Svg(b) => lift(b.estimate_text_size(text, style)),
        }
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Drawn<()> {
        each!(self, b => b.blit_bitmap(pos, size, src))
    }
}

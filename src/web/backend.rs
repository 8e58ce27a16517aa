//! The page's one drawing backend: its canvases, or the SVG document of "Save SVG".
//!
//! The scene and every view's chart are drawn by code generic over plotters' `DrawingBackend`,
//! and the compiled module had a copy of all of it for each backend type the page drew on:
//! the canvas, and the SVG of "Save SVG" (about 80 KB of WebAssembly). Drawn through this one
//! type, which hands each call to the backend it holds, the drawing is compiled once; the calls
//! reaching the canvas (and the SVG) are the same, in the same order, so the pictures are too.

use crate::svg::SvgWithImages;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use std::fmt;

pub enum PageBackend<'a> {
    Canvas(CanvasBackend),
    Svg(SvgWithImages<'a>),
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
            PageBackend::Canvas($b) => lift($call),
            PageBackend::Svg($b) => lift($call),
        }
    };
}

impl DrawingBackend for PageBackend<'_> {
    type ErrorType = PageError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            PageBackend::Canvas(b) => b.get_size(),
            PageBackend::Svg(b) => b.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Drawn<()> {
        each!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Drawn<()> {
        each!(self, b => b.present())
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
        each!(self, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        each!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn<()> {
        each!(self, b => b.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn<()> {
        each!(self, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn<()> {
        each!(self, b => b.fill_polygon(vert, style))
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Drawn<()> {
        each!(self, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Drawn<(u32, u32)> {
        each!(self, b => b.estimate_text_size(text, style))
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Drawn<()> {
        each!(self, b => b.blit_bitmap(pos, size, src))
    }
}

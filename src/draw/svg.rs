//! SVG documents of the lab's figures, for the page's "Save SVG" and the command line's
//! `render --out F.svg` alike: plotters' SVG backend, with every bitmap the scene blits (the
//! shaded decision regions) embedded as one PNG `<image>` rather than a `<rect>` per pixel.
//!
//! plotters' SVG backend embeds bitmaps only natively (through the `image` crate), and writes
//! an unfilled rectangle (a bound support vector's square) without its stroke's width; this
//! wraps it so both targets get the same document. Such an element is drawn as a placeholder
//! text run, `KP-IMAGE-n-`, in its place in the drawing order, and [`document`] swaps each
//! placeholder's `<text>` element for the element (the `<image>`, the `<rect>`) once the
//! drawing is done.

use crate::core::base64;
use crate::core::error::Error;
use crate::core::plane::{Layers, Layout, Scene};
use crate::draw::scene::{blank, draw_with, field_image, region_grid, Discs};
use plotters::prelude::{IntoFont, SVGBackend, BLACK};
use plotters::style::Color;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use std::cell::RefCell;

/// A drawing backend that writes SVG, keeps bitmaps as PNG images and strokes rectangles at
/// their width.
pub struct SvgWithImages<'a> {
    inner: SVGBackend<'a>,
    /// The elements written here (`<image>`, `<rect>`), in the order of their placeholders.
    images: &'a RefCell<Vec<String>>,
    /// What makes a bitmap a PNG file, written in base64.
    encode: &'a PngEncoder,
}

/// Writes an RGB bitmap (3 bytes a pixel, row by row) of `width` × `height` pixels as a PNG
/// file in base64. The command line's is [`png_base64`]; the page hands in the browser's, so
/// that its module carries no PNG encoder of its own.
pub type PngEncoder = dyn Fn(u32, u32, &[u8]) -> Result<String, Error>;

/// The placeholder text of element `index`.
fn placeholder(index: usize) -> String {
    format!("KP-IMAGE-{index}-")
}

/// Draws with `draw` on a `width` × `height` SVG document and returns its text.
pub fn document(
    width: u32,
    height: u32,
    draw: impl FnOnce(SvgWithImages) -> Result<(), Error>,
) -> Result<String, Error> {
    document_with(width, height, &png_base64, draw)
}

/// The same, its bitmaps made PNG files by `encode`.
pub fn document_with(
    width: u32,
    height: u32,
    encode: &PngEncoder,
    draw: impl FnOnce(SvgWithImages) -> Result<(), Error>,
) -> Result<String, Error> {
    let mut text = String::new();
    let images = RefCell::new(Vec::new());
    // The SVG backend writes the document out when it is presented or dropped.
    draw(SvgWithImages {
        inner: SVGBackend::with_string(&mut text, (width, height)),
        images: &images,
        encode,
    })?;
    for (index, image) in images.borrow().iter().enumerate() {
        let marker = placeholder(index);
        let lost = || Error::Draw("an embedded image lost its place".into());
        let at = text.find(&marker).ok_or_else(lost)?;
        let start = text[..at].rfind("<text").ok_or_else(lost)?;
        let end = at + text[at..].find("</text>").ok_or_else(lost)? + "</text>".len();
        text.replace_range(start..end, image);
    }
    Ok(text)
}

impl DrawingBackend for SvgWithImages<'_> {
    type ErrorType = <SVGBackend<'static> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        if fill || style.stroke_width() <= 1 {
            return self.inner.draw_rect(upper_left, bottom_right, style, fill);
        }
        let (r, g, b) = style.color().rgb;
        let element = format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" opacity=\"{}\" fill=\"none\" \
             stroke=\"#{r:02X}{g:02X}{b:02X}\" stroke-width=\"{}\"/>",
            upper_left.0,
            upper_left.1,
            bottom_right.0 - upper_left.0,
            bottom_right.1 - upper_left.1,
            style.color().alpha,
            style.stroke_width()
        );
        self.place(element, upper_left)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_text(text, style, pos)
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        self.inner.estimate_text_size(text, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let shown = (f64::from(size.0), f64::from(size.1));
        self.stretch_bitmap(pos, shown, size, src)
    }
}

impl SvgWithImages<'_> {
    /// Draws an RGB bitmap of `size` pixels at `pos`, stretched to `shown` (width, height) and
    /// smoothed by the viewer, as a browser scales an image on a canvas.
    pub fn stretch_bitmap(
        &mut self,
        pos: BackendCoord,
        shown: (f64, f64),
        (width, height): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<<Self as DrawingBackend>::ErrorType>> {
        let png = (self.encode)(width, height, src)
            .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let element = format!(
            "<image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
             preserveAspectRatio=\"none\" href=\"data:image/png;base64,{}\"/>",
            pos.0, pos.1, shown.0, shown.1, png
        );
        self.place(element, pos)
    }

    /// Puts `element` in the document at this place in the drawing order (its placeholder,
    /// drawn at `pos`, is swapped for it by [`document`]).
    fn place(
        &mut self,
        element: String,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<<Self as DrawingBackend>::ErrorType>> {
        let mut images = self.images.borrow_mut();
        images.push(element);
        let marker = placeholder(images.len() - 1);
        drop(images);
        let style = ("sans-serif", 1).into_font().color(&BLACK.mix(1.0));
        self.inner.draw_text(&marker, &style, pos)
    }
}

/// The plane as the page paints it, as an SVG document of `layout`'s size: the decision
/// regions at the field grid's resolution, stretched over the plot and smoothed by the viewer
/// as the page's canvas scales them, then everything else as vectors. With the regions at
/// the grid's resolution rather than the picture's, the file is smaller: the page shows it
/// while its module loads (`render --regions grid`).
pub fn plane_as_painted(scene: &Scene, layout: &Layout, layers: &Layers) -> Result<String, Error> {
    document(layout.width, layout.height, |mut backend| {
        blank(&mut backend, layout)?;
        if let (Some(grid), true) = (region_grid(scene), layers.on("regions")) {
            let size = (grid.cols as u32, grid.rows as u32);
            let plot = layout.plot;
            backend
                .stretch_bitmap(
                    (plot.left as i32, plot.top as i32),
                    (plot.width, plot.height),
                    size,
                    &field_image(scene, size.0, size.1),
                )
                .map_err(|e| Error::Draw(e.to_string()))?;
        }
        draw_with(backend, scene, layout, layers, false, Discs::Drawn)
    })
}

/// An RGB bitmap (3 bytes a pixel, row by row) as a PNG file in base64 (a [`PngEncoder`]).
pub fn png_base64(width: u32, height: u32, rgb: &[u8]) -> Result<String, Error> {
    encode_png(width, height, rgb).map(|png| base64::encode(&png))
}

/// An RGB bitmap (3 bytes a pixel, row by row) as a PNG file.
fn encode_png(width: u32, height: u32, rgb: &[u8]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let draw_error = |e: png::EncodingError| Error::Draw(e.to_string());
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        // Smooth shades compress best predicted from their neighbours (a third of the bytes).
        encoder.set_compression(png::Compression::Best);
        encoder.set_filter(png::FilterType::Paeth);
        let mut writer = encoder.write_header().map_err(draw_error)?;
        writer.write_image_data(rgb).map_err(draw_error)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blitted_bitmap_becomes_one_png_image_in_its_place() {
        let (w, h) = (40u32, 30u32);
        let pixels: Vec<u8> = (0..w * h * 3).map(|i| (i % 251) as u8).collect();
        let svg = document(100, 80, |mut backend| {
            backend
                .draw_rect((0, 0), (100, 80), &BLACK.mix(0.1), true)
                .map_err(|e| Error::Draw(e.to_string()))?;
            backend
                .blit_bitmap((5, 7), (w, h), &pixels)
                .map_err(|e| Error::Draw(e.to_string()))?;
            backend
                .draw_circle((50, 40), 3, &BLACK, true)
                .map_err(|e| Error::Draw(e.to_string()))
        })
        .unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(!svg.contains("KP-IMAGE"), "no placeholder is left");
        assert_eq!(svg.matches("<image").count(), 1);
        assert!(svg.contains("x=\"5\" y=\"7\" width=\"40\" height=\"30\""));
        // In the drawing order: after the background, before the circle.
        let (rect, image, circle) = (
            svg.find("<rect").unwrap(),
            svg.find("<image").unwrap(),
            svg.find("<circle").unwrap(),
        );
        assert!(rect < image && image < circle);
        // The PNG decodes to the same pixels.
        let start = svg.find("base64,").unwrap() + 7;
        let end = start + svg[start..].find('"').unwrap();
        let png = base64::decode(&svg[start..end]).unwrap();
        let decoder = png::Decoder::new(png.as_slice());
        let mut reader = decoder.read_info().unwrap();
        let mut buffer = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buffer).unwrap();
        assert_eq!((info.width, info.height), (w, h));
        assert_eq!(&buffer[..info.buffer_size()], pixels.as_slice());
    }

    /// The plane as the page paints it: the regions' image has one pixel per node of the field
    /// grid, stretched over the plot rectangle, and a bound support vector's square keeps its
    /// stroke's width (plotters' own SVG writes every rectangle 1 pixel wide).
    #[test]
    fn the_plane_as_painted_stretches_the_grid_over_the_plot() {
        use crate::core::field::{Field, Grid, View};
        use crate::core::plane::{Mark, Shading};
        let grid = Grid::new(View::square(1.0), 41, 23);
        let values: Vec<f64> = (0..grid.cols * grid.rows)
            .map(|k| ((k as f64) * 0.37).sin() * 3.0)
            .collect();
        let scene = Scene {
            view: Some(View::square(1.0)),
            field: Some(Field {
                grid,
                values,
                exact_nodes: 0,
            }),
            region_colours: [0, 1],
            shading: Shading::Margin { scale: 1.0 },
            points: vec![[0.2, 0.3], [-0.4, -0.1]],
            colour_of: vec![0, 1],
            hollow: vec![false, false],
            marks: vec![Mark::BoundSupport, Mark::Plain],
            ..Scene::default()
        };
        let layout = Layout::new(300, 300);
        crate::draw::scene::load_system_font().unwrap();
        let svg = plane_as_painted(&scene, &layout, &Layers::default()).unwrap();
        assert!(!svg.contains("KP-IMAGE"), "no placeholder is left");
        assert_eq!(svg.matches("<image").count(), 1);
        let plot = layout.plot;
        let place = format!(
            "x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
            plot.left as i32, plot.top as i32, plot.width, plot.height
        );
        assert!(svg.contains(&place), "{place}");
        let start = svg.find("base64,").unwrap() + 7;
        let end = start + svg[start..].find('"').unwrap();
        let png = base64::decode(&svg[start..end]).unwrap();
        let mut reader = png::Decoder::new(png.as_slice()).read_info().unwrap();
        let mut buffer = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buffer).unwrap();
        assert_eq!((info.width, info.height), (41, 23));
        assert_eq!(&buffer[..info.buffer_size()], field_image(&scene, 41, 23));
        let square = svg
            .split('<')
            .find(|e| e.starts_with("rect") && e.contains("fill=\"none\""))
            .expect("the bound support vector's square");
        assert!(square.contains("stroke-width=\""), "{square}");
        assert!(!square.contains("stroke-width=\"1\""), "{square}");
    }
}

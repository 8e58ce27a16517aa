//! SVG documents of the lab's figures, for the page's "Save SVG" and the command line's
//! `render --out F.svg` alike: plotters' SVG backend, with every bitmap the scene blits (the
//! shaded decision regions) embedded as one PNG `<image>` rather than a `<rect>` per pixel.
//!
//! plotters' SVG backend embeds bitmaps only natively (through the `image` crate); this wraps
//! it so both targets get the same document. A blitted bitmap is drawn as a placeholder text
//! run, `KP-IMAGE-n-`, in its place in the drawing order, and [`document`] swaps each
//! placeholder's `<text>` element for the `<image>` once the drawing is done.

use crate::core::error::Error;
use plotters::prelude::{IntoFont, SVGBackend, BLACK};
use plotters::style::Color;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use std::cell::RefCell;

/// A drawing backend that writes SVG and keeps bitmaps as PNG images.
pub struct SvgWithImages<'a> {
    inner: SVGBackend<'a>,
    /// The `<image>` elements, in the order of their placeholders.
    images: &'a RefCell<Vec<String>>,
}

/// The placeholder text of image `index`.
fn placeholder(index: usize) -> String {
    format!("KP-IMAGE-{index}-")
}

/// Draws with `draw` on a `width` × `height` SVG document and returns its text.
pub fn document(
    width: u32,
    height: u32,
    draw: impl FnOnce(SvgWithImages) -> Result<(), Error>,
) -> Result<String, Error> {
    let mut text = String::new();
    let images = RefCell::new(Vec::new());
    // The SVG backend writes the document out when it is presented or dropped.
    draw(SvgWithImages {
        inner: SVGBackend::with_string(&mut text, (width, height)),
        images: &images,
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
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
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
        (width, height): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let png =
            encode_png(width, height, src).map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let mut images = self.images.borrow_mut();
        images.push(format!(
            "<image x=\"{}\" y=\"{}\" width=\"{width}\" height=\"{height}\" \
             preserveAspectRatio=\"none\" href=\"data:image/png;base64,{}\"/>",
            pos.0,
            pos.1,
            base64(&png)
        ));
        let marker = placeholder(images.len() - 1);
        drop(images);
        let style = ("sans-serif", 1).into_font().color(&BLACK.mix(1.0));
        self.inner.draw_text(&marker, &style, pos)
    }
}

/// An RGB bitmap (3 bytes a pixel, row by row) as a PNG file.
fn encode_png(width: u32, height: u32, rgb: &[u8]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let draw_error = |e: png::EncodingError| Error::Draw(e.to_string());
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(draw_error)?;
        writer.write_image_data(rgb).map_err(draw_error)?;
    }
    Ok(out)
}

/// Standard base64 (RFC 4648, with padding).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

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
        let png = decode_base64(&svg[start..end]);
        let decoder = png::Decoder::new(png.as_slice());
        let mut reader = decoder.read_info().unwrap();
        let mut buffer = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buffer).unwrap();
        assert_eq!((info.width, info.height), (w, h));
        assert_eq!(&buffer[..info.buffer_size()], pixels.as_slice());
    }

    fn decode_base64(text: &str) -> Vec<u8> {
        let value = |c: u8| match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            _ => 63,
        };
        let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
        let mut out = Vec::new();
        for chunk in digits.chunks(4) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (k, &d)| n | (u32::from(d) << (18 - 6 * k)));
            for k in 0..chunk.len() - 1 {
                out.push((n >> (16 - 8 * k)) as u8);
            }
        }
        out
    }
}

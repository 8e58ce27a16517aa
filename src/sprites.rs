//! Stamping one small image many times onto a layer: how the page paints the discs of a large
//! scene, where a canvas call per point (a few microseconds each without a GPU) would take
//! seconds at a million points.
//!
//! A [`Sprite`] is an RGBA image (as a canvas's `getImageData` gives it: straight, not
//! premultiplied, alpha) kept as its visible pixels only, premultiplied. [`Layer`] is a
//! premultiplied RGBA buffer; stamping a list of sprites composites each over the ones before
//! with the canvas's default operator, source-over: for every channel c (colour premultiplied
//! by alpha, and alpha itself), c_out = c_src + c_dst · (1 − α_src). Pixels outside the layer
//! are clipped. [`Layer::to_straight_rgba`] gives the buffer back in the form `putImageData`
//! takes.
//!
//! Source-over is associative, so the list is composited front to back instead, each sprite
//! *under* what lies above it: c_out = c_dst + c_src · (1 − α_dst), in 8-bit arithmetic
//! rounded to nearest (equal to the back-to-front order up to that rounding). A pixel that is
//! already opaque takes nothing more, and a sprite whose box lies on 8 × 8 tiles that are all
//! opaque is passed over without reading its pixels: a million discs on a plot of half a
//! million pixels cover it many times over, and only the top few layers are ever blended.

/// A small image's visible pixels: (offset from its centre, premultiplied RGBA).
#[derive(Clone, Debug, Default)]
pub struct Sprite {
    pixels: Vec<(i32, i32, [u8; 4])>,
    /// The box of the pixels' offsets: (left, top, right, bottom), inclusive.
    bounds: Option<(i32, i32, i32, i32)>,
}

/// The side of the tiles whose opaque pixels are counted.
const TILE: i32 = 8;

/// 8-bit product a · b / 255, rounded to nearest.
fn mul255(a: u8, b: u8) -> u8 {
    let t = a as u32 * b as u32 + 128;
    ((t + (t >> 8)) >> 8) as u8
}

impl Sprite {
    /// The sprite of a `width` × `height` straight-alpha RGBA image whose centre is at pixel
    /// (`cx`, `cy`); fully transparent pixels are left out.
    pub fn from_straight_rgba(
        rgba: &[u8],
        width: usize,
        height: usize,
        centre: (i32, i32),
    ) -> Self {
        let mut pixels = Vec::new();
        for (i, p) in rgba.chunks_exact(4).take(width * height).enumerate() {
            let (r, g, b, a) = (p[0], p[1], p[2], p[3]);
            if a == 0 {
                continue;
            }
            let (x, y) = ((i % width) as i32, (i / width) as i32);
            let px = [mul255(r, a), mul255(g, a), mul255(b, a), a];
            pixels.push((x - centre.0, y - centre.1, px));
        }
        let bounds = pixels.first().map(|&(x, y, _)| {
            pixels
                .iter()
                .fold((x, y, x, y), |(l, t, r, b), &(x, y, _)| {
                    (l.min(x), t.min(y), r.max(x), b.max(y))
                })
        });
        Sprite { pixels, bounds }
    }

    /// How many visible pixels the sprite has.
    pub fn len(&self) -> usize {
        self.pixels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pixels.is_empty()
    }
}

/// A premultiplied RGBA buffer, `width` × `height`, row by row, transparent at first.
#[derive(Clone, Debug)]
pub struct Layer {
    pub width: usize,
    pub height: usize,
    pixels: Vec<[u8; 4]>,
    /// How many pixels of each [`TILE`]-square tile are not yet opaque, row by row.
    open: Vec<u8>,
    tiles_x: i32,
}

impl Layer {
    pub fn new(width: usize, height: usize) -> Self {
        let (w, h) = (width as i32, height as i32);
        let (tiles_x, tiles_y) = ((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
        // Edge tiles are cut by the layer's edges.
        let open = (0..tiles_y)
            .flat_map(|ty| {
                (0..tiles_x)
                    .map(move |tx| ((w - tx * TILE).min(TILE) * (h - ty * TILE).min(TILE)) as u8)
            })
            .collect();
        Layer {
            width,
            height,
            pixels: vec![[0; 4]; width * height],
            open,
            tiles_x,
        }
    }

    /// Composites the sprites, each centred at its pixel, over the layer in the order given
    /// (the last on top).
    pub fn stamp_all<'s>(
        &mut self,
        stamps: impl DoubleEndedIterator<Item = (&'s Sprite, (i32, i32))>,
    ) {
        for (sprite, at) in stamps.rev() {
            self.stamp_under(sprite, at);
        }
    }

    /// Composites `sprite`, centred at pixel (`x`, `y`), *under* what the layer holds: the
    /// sprites stamped so far lie on top of it.
    pub fn stamp_under(&mut self, sprite: &Sprite, (x, y): (i32, i32)) {
        let (w, h) = (self.width as i32, self.height as i32);
        let Some((x0, y0, x1, y1)) = sprite.bounds else {
            return;
        };
        if x + x1 < 0 || y + y1 < 0 || x + x0 >= w || y + y0 >= h {
            return;
        }
        let (tx0, ty0) = ((x + x0).max(0) / TILE, (y + y0).max(0) / TILE);
        let (tx1, ty1) = ((x + x1).min(w - 1) / TILE, (y + y1).min(h - 1) / TILE);
        let tiles_x = self.tiles_x;
        let covered = (ty0..=ty1)
            .all(|ty| (tx0..=tx1).all(|tx| self.open[(ty * tiles_x + tx) as usize] == 0));
        if covered {
            return;
        }
        for &(dx, dy, src) in &sprite.pixels {
            let (px, py) = (x + dx, y + dy);
            if px < 0 || py < 0 || px >= w || py >= h {
                continue;
            }
            let dst = &mut self.pixels[(py * w + px) as usize];
            if dst[3] == 255 {
                continue;
            }
            let open = 255 - dst[3];
            for c in 0..4 {
                dst[c] = dst[c].saturating_add(mul255(src[c], open));
            }
            if dst[3] == 255 {
                self.open[((py / TILE) * tiles_x + px / TILE) as usize] -= 1;
            }
        }
    }

    /// The premultiplied pixel at (x, y).
    pub fn pixel(&self, x: usize, y: usize) -> [u8; 4] {
        self.pixels[y * self.width + x]
    }

    /// The layer as straight-alpha RGBA bytes (what `ImageData` holds).
    pub fn to_straight_rgba(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 * self.pixels.len());
        for &[r, g, b, a] in &self.pixels {
            if a == 0 {
                out.extend_from_slice(&[0, 0, 0, 0]);
                continue;
            }
            let un = |c: u8| ((c as u32 * 255 + a as u32 / 2) / a as u32).min(255) as u8;
            out.extend_from_slice(&[un(r), un(g), un(b), a]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3 × 3 image: an opaque red centre, half-transparent blue edges, transparent corners.
    fn plus() -> Vec<u8> {
        let mut rgba = vec![0u8; 36];
        for (x, y) in [(1, 0), (0, 1), (2, 1), (1, 2)] {
            rgba[4 * (y * 3 + x)..4 * (y * 3 + x) + 4].copy_from_slice(&[0, 0, 255, 128]);
        }
        rgba[16..20].copy_from_slice(&[255, 0, 0, 255]);
        rgba
    }

    #[test]
    fn a_sprite_keeps_only_its_visible_pixels_premultiplied() {
        let sprite = Sprite::from_straight_rgba(&plus(), 3, 3, (1, 1));
        assert_eq!(sprite.len(), 5);
        // 255 · 128 / 255 = 128: blue at half alpha is (0, 0, 128, 128) premultiplied.
        assert!(sprite.pixels.contains(&(0, -1, [0, 0, 128, 128])));
        assert!(sprite.pixels.contains(&(0, 0, [255, 0, 0, 255])));
    }

    #[test]
    fn source_over_on_an_empty_layer_gives_the_sprite_back() {
        let sprite = Sprite::from_straight_rgba(&plus(), 3, 3, (1, 1));
        let mut layer = Layer::new(3, 3);
        layer.stamp_all([(&sprite, (1, 1))].into_iter());
        assert_eq!(layer.to_straight_rgba(), plus());
    }

    #[test]
    fn overlapping_stamps_composite_source_over() {
        let sprite = Sprite::from_straight_rgba(&plus(), 3, 3, (1, 1));
        let mut layer = Layer::new(4, 4);
        let at = |centres: &[(i32, i32)]| centres.iter().map(|&c| (&sprite, c)).collect::<Vec<_>>();
        layer.stamp_all(at(&[(1, 1), (2, 1)]).into_iter());
        // (2, 1): first the blue edge (0, 0, 128, 128), then the opaque red centre on top.
        assert_eq!(layer.pixel(2, 1), [255, 0, 0, 255]);
        // (1, 1): the red centre, then half-transparent blue over it:
        // r = 0 + 255 · 127/255 = 127, b = 128 + 0, a = 128 + 255 · 127/255 = 255.
        assert_eq!(layer.pixel(1, 1), [127, 0, 128, 255]);
        let mut layer = Layer::new(4, 4);
        layer.stamp_all(at(&[(1, 1), (2, 1), (2, 2)]).into_iter());
        // (1, 2): the blue edge twice: b = a = 128 + 128 · 127/255 = 128 + 64.
        assert_eq!(layer.pixel(1, 2), [0, 0, 192, 192]);
        // (2, 1): the second red centre, then the third's blue edge over it.
        assert_eq!(layer.pixel(2, 1), [127, 0, 128, 255]);
    }

    #[test]
    fn a_covered_sprite_changes_nothing_and_an_uncovered_one_shows() {
        // An opaque 8 × 8 square covers a whole tile; anything under it leaves no trace.
        let square = Sprite::from_straight_rgba(&[0, 255, 0, 255].repeat(64), 8, 8, (0, 0));
        let dot = Sprite::from_straight_rgba(&[255, 0, 0, 255], 1, 1, (0, 0));
        let mut layer = Layer::new(16, 8);
        layer.stamp_all([(&dot, (3, 3)), (&dot, (12, 3)), (&square, (0, 0))].into_iter());
        assert_eq!(layer.pixel(3, 3), [0, 255, 0, 255]);
        assert_eq!(layer.pixel(12, 3), [255, 0, 0, 255]);
        assert_eq!(layer.pixel(11, 3), [0, 0, 0, 0]);
    }

    #[test]
    fn stamps_are_clipped_at_the_layer_edges() {
        let sprite = Sprite::from_straight_rgba(&plus(), 3, 3, (1, 1));
        let mut layer = Layer::new(2, 2);
        layer.stamp_all([(&sprite, (0, 0)), (&sprite, (-5, 9))].into_iter());
        assert_eq!(layer.pixel(0, 0), [255, 0, 0, 255]);
        assert_eq!(layer.pixel(1, 0), [0, 0, 128, 128]);
        assert_eq!(layer.pixel(1, 1), [0, 0, 0, 0]);
    }
}

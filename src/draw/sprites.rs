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

    /// The layer as straight-alpha RGBA bytes (what `ImageData` holds): c · 255 / α rounded
    /// to nearest. An opaque pixel is its own straight form, and an empty one is zeros; only
    /// the others (the discs' antialiased rims) are divided, which in a dense layer are few.
    pub fn to_straight_rgba(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 * self.pixels.len());
        for &pixel in &self.pixels {
            let a = pixel[3];
            if a == 255 || a == 0 {
                out.extend_from_slice(&pixel);
                continue;
            }
            let un = |c: u8| ((c as u32 * 255 + a as u32 / 2) / a as u32).min(255) as u8;
            out.extend_from_slice(&[un(pixel[0]), un(pixel[1]), un(pixel[2]), a]);
        }
        out
    }
}

/// Whether a stamp of half-side `half` (covering `x − half ..< x + half` across and likewise
/// down) centred at `at` reaches into the square of the same size centred at `centre`.
pub fn reaches(at: (i32, i32), centre: (i32, i32), half: i32) -> bool {
    (at.0 - centre.0).abs() < 2 * half && (at.1 - centre.1).abs() < 2 * half
}

/// The square of half-side `half` centred at `centre`, cut by a `width` × `height` layer,
/// composited on a layer of its own from those `stamps` (in order, the last on top) that reach
/// into it: its top-left corner and that layer, or `None` when the square lies off the layer.
/// Each pixel depends only on the sprites covering it, in their order, so the square equals,
/// pixel for pixel, that part of the whole layer composited from every stamp, as long as each
/// sprite lies within its stamp's square.
pub fn square(
    stamps: &[(&Sprite, (i32, i32))],
    (cx, cy): (i32, i32),
    half: i32,
    (width, height): (usize, usize),
) -> Option<((i32, i32), Layer)> {
    let (x0, y0) = ((cx - half).max(0), (cy - half).max(0));
    let (x1, y1) = (
        (cx + half).min(width as i32),
        (cy + half).min(height as i32),
    );
    if x0 >= x1 || y0 >= y1 {
        return None;
    }
    let mut layer = Layer::new((x1 - x0) as usize, (y1 - y0) as usize);
    for &(sprite, (x, y)) in stamps.iter().rev() {
        if reaches((x, y), (cx, cy), half) {
            layer.stamp_under(sprite, (x - x0, y - y0));
        }
    }
    Some(((x0, y0), layer))
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
    fn straight_alpha_divides_each_colour_by_alpha_rounded_to_nearest() {
        // Premultiplied (c, α) → straight c · 255 / α: (64, 128) → 127.5 → 128; (1, 3) → 85;
        // opaque and empty pixels as they are.
        let dot = |rgba: [u8; 4]| Sprite::from_straight_rgba(&rgba, 1, 1, (0, 0));
        let mut layer = Layer::new(4, 1);
        layer.stamp_under(&dot([200, 10, 0, 255]), (0, 0));
        layer.stamp_under(&dot([128, 255, 0, 128]), (1, 0));
        layer.stamp_under(&dot([85, 0, 255, 3]), (2, 0));
        assert_eq!(layer.pixel(1, 0), [64, 128, 0, 128]);
        assert_eq!(layer.pixel(2, 0), [1, 0, 3, 3]);
        assert_eq!(
            layer.to_straight_rgba(),
            [200, 10, 0, 255, 128, 255, 0, 128, 85, 0, 255, 3, 0, 0, 0, 0]
        );
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

    #[test]
    fn a_square_composited_alone_equals_that_square_of_the_whole_layer() {
        // A 6 × 6 disc-like sprite (half-side 3): an opaque core in a half-transparent rim, in
        // two colours, stamped at 60 scattered places on a 40 × 30 layer, some cut by its edges.
        let disc = |rgb: [u8; 3]| {
            let mut rgba = vec![0u8; 6 * 6 * 4];
            for y in 0..6 {
                for x in 0..6 {
                    let d = (x as f64 - 2.5).hypot(y as f64 - 2.5);
                    let alpha = if d < 1.8 {
                        255
                    } else if d < 2.9 {
                        100
                    } else {
                        0
                    };
                    rgba[4 * (y * 6 + x)..4 * (y * 6 + x) + 4]
                        .copy_from_slice(&[rgb[0], rgb[1], rgb[2], alpha]);
                }
            }
            Sprite::from_straight_rgba(&rgba, 6, 6, (3, 3))
        };
        let sprites = [disc([230, 159, 0]), disc([0, 114, 178])];
        let mut seed = 7u64;
        let mut next = |m: i32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % m as u64) as i32 - 2
        };
        let stamps: Vec<(&Sprite, (i32, i32))> = (0..60)
            .map(|i| (&sprites[i % 2], (next(44), next(34))))
            .collect();
        let (width, height) = (40, 30);
        for left_out in [0, 17, 31, 59] {
            let others: Vec<_> = (stamps.iter().enumerate())
                .filter(|&(k, _)| k != left_out)
                .map(|(_, &s)| s)
                .collect();
            let mut whole = Layer::new(width, height);
            whole.stamp_all(others.iter().copied());
            let centre = stamps[left_out].1;
            let Some(((x0, y0), part)) = square(&others, centre, 3, (width, height)) else {
                continue;
            };
            for y in 0..part.height {
                for x in 0..part.width {
                    let at = (x0 as usize + x, y0 as usize + y);
                    assert_eq!(part.pixel(x, y), whole.pixel(at.0, at.1), "{at:?}");
                }
            }
        }
    }
}

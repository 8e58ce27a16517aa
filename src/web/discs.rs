//! The points' discs on the page's canvas. Each disc is stamped from one small canvas per
//! class colour (drawn once by `scene::draw_disc`), and the stamped discs are kept on a layer
//! of their own the size of the canvas: a frame whose discs are where they were (a slider
//! moved, a new model arrived) composites that layer in one `drawImage` instead of stamping
//! every point again, which at 10 000 points is most of a frame's painting.
//!
//! While a point is dragged, only its disc differs from one frame to the next: the layer then
//! holds every other disc, and the dragged one is stamped over it, so a drag repaints one
//! disc per frame (the dragged point is drawn above its neighbours, as the hand holds it).
//! Taking a disc off a complete layer (a drag begins), or putting the last one back, repaints
//! only the square that disc covers, from the discs reaching into it: the first frame of a
//! drag no longer stamps every disc again.
//!
//! A layer of many discs (from [`RASTER_FROM`] on) is composited in wasm memory from the
//! stamps' pixels (`sprites`) and put on its canvas in one call: a canvas call per disc costs
//! a few microseconds without a GPU, which is seconds at a million points. Front to back, a
//! frame's share at a time: compositing stops once the frame has taken [`FRAME_BUDGET_MS`]
//! since it began (after one batch at least), so a frame that first had to list a million
//! discs composites none (it has spent its share), the discs on top show first, the frames
//! after fill in what lies under them, and no frame's task grows with the number of points
//! beyond that share ([`DiscPainter::incomplete`] says when more frames are wanted).
//!
//! A layer being composited is put on its canvas once at first, then at most every
//! [`SHOW_EVERY_MS`] and when it is complete: the frames between only composite
//! ([`DiscPainter::composite_unseen`]), and a frame painted meanwhile for another reason (a new
//! model) shows the layer as it was last put. Putting a layer is a copy of the whole canvas to the
//! browser and on to the screen, which costs the same at every share; on a slow or busy device it
//! made each frame of a million points' layer several times its compositing.

use super::js_error;
use crate::draw::ahead::ListedAhead;
use crate::draw::scene::{self, Layout, ListDiscs};
use crate::draw::sprites::{self, Sprite};
use wasm_bindgen::Clamped;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// From this many discs on, a stale layer is composited in wasm memory rather than stamped
/// disc by disc on its canvas.
pub const RASTER_FROM: usize = 5000;

/// How long a frame may have taken (ms, from its start) before it stops compositing discs in
/// memory and shows what it has.
pub const FRAME_BUDGET_MS: f64 = 16.0;

/// Discs composited between two looks at the clock. The first discs of a layer are the dear
/// ones: on an empty layer every pixel of their stamps is blended, where later ones mostly fall
/// on opaque tiles and are passed over. A frame past its share overshoots by at most a batch,
/// which at 2048 discs was 3–10 ms of a layer's first discs here, and five times that with the
/// CPU slowed.
const BATCH: usize = 256;

/// How long (ms) a layer still being composited may go without being shown again: the frames
/// in between composite it unseen.
pub const SHOW_EVERY_MS: f64 = 100.0;

use crate::draw::scene::Disc;

/// The stamps, and the layer of discs painted last.
#[derive(Default)]
pub struct DiscPainter {
    /// The disc radius (pixels) the stamps are drawn for.
    radius: i32,
    stamps: Vec<Option<HtmlCanvasElement>>,
    /// The stamps' pixels, read back once each when a layer is first composited in memory.
    sprites: Vec<Option<Sprite>>,
    layer: Option<Layer>,
    /// The last layer painted is still being composited: more frames are wanted.
    incomplete: bool,
    /// The list the next discs are listed into: the one painted before the last, kept for
    /// its memory.
    spare: Vec<Disc>,
    /// Discs listed ahead of the frame that paints them ([`DiscPainter::list_ahead`]).
    ahead: ListedAhead,
}

/// Discs stamped on a transparent canvas: `discs` as they were given, all of them there but
/// `left_out`.
struct Layer {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    discs: Vec<Disc>,
    left_out: Option<usize>,
    /// The layer still being composited in memory, if it is.
    raster: Option<Raster>,
}

/// A layer being composited in memory over several frames: `discs[..next]` are still to be
/// stamped under the others, from the top down.
struct Raster {
    layer: sprites::Layer,
    next: usize,
    /// When (ms, `now_ms`) the layer was last put on its canvas, if it has been.
    shown: Option<f64>,
}

impl Raster {
    /// Whether the layer was put on its canvas less than [`SHOW_EVERY_MS`] ago.
    fn shown_lately(&self) -> bool {
        self.shown
            .is_some_and(|at| super::now_ms() - at < SHOW_EVERY_MS)
    }
}

fn new_canvas(width: u32, height: u32) -> Result<HtmlCanvasElement, JsValue> {
    let canvas = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| js_error("no document"))?
        .create_element("canvas")?
        .dyn_into::<HtmlCanvasElement>()
        .map_err(|_| js_error("cannot create a canvas"))?;
    canvas.set_width(width);
    canvas.set_height(height);
    Ok(canvas)
}

/// A point's disc in class colour `colour` on a small canvas of its own, centred at (half,
/// half), drawn by the same code as every other disc.
fn disc_stamp(colour: usize, half: i32, layout: &Layout) -> Result<HtmlCanvasElement, JsValue> {
    let canvas = new_canvas(2 * half as u32, 2 * half as u32)?;
    let backend = super::backend::PageBackend::on_canvas(canvas.clone())?;
    scene::draw_disc(backend, (half, half), colour, layout).map_err(js_error)?;
    Ok(canvas)
}

/// The one index where `a` and `b` (of equal length) differ: `Ok(None)` when they are equal,
/// `Err(())` when they differ in more than one place.
fn one_difference(a: &[Disc], b: &[Disc]) -> Result<Option<usize>, ()> {
    let mut found = None;
    for (i, (p, q)) in a.iter().zip(b).enumerate() {
        if p != q {
            if found.is_some() {
                return Err(());
            }
            found = Some(i);
        }
    }
    Ok(found)
}

impl DiscPainter {
    /// Whether the discs painted last are not all on the layer yet (another frame adds more).
    pub fn incomplete(&self) -> bool {
        self.incomplete
    }

    /// Lists the next share of the discs ahead of the frame that paints them, for what `key`
    /// names (see [`ListedAhead`]).
    pub fn list_ahead(&mut self, key: u64, list: &ListDiscs, shares: (bool, bool)) {
        self.ahead.add(key, list, shares, &mut self.spare);
    }

    /// Paints the discs `list` lists on `target` (a canvas `width` × `height`) at the
    /// layout's point radius, for a frame that began at `started` (ms, `now_ms`); discs
    /// listed ahead for `key` are taken instead of listing them.
    pub fn paint(
        &mut self,
        target: &CanvasRenderingContext2d,
        (width, height): (u32, u32),
        (list, key): (&ListDiscs, Option<u64>),
        layout: &Layout,
        started: f64,
    ) -> Result<(), JsValue> {
        let discs = match self.ahead.take(key) {
            Ok(discs) => discs,
            Err(memory) => {
                let mut discs = memory.unwrap_or_else(|| std::mem::take(&mut self.spare));
                discs.clear();
                list(&mut discs);
                discs
            }
        };
        let radius = layout.point_radius.round() as i32;
        if radius != self.radius {
            self.radius = radius;
            self.stamps.clear();
            self.sprites.clear();
            self.layer = None;
        }
        let half = scene::marker_half(layout);
        // A stamp for every colour up to the highest the discs have.
        let mut colours = 0;
        crate::core::pieces::for_each(&discs, |d| colours = colours.max(d.2 + 1));
        if self.stamps.len() < colours {
            self.stamps.resize(colours, None);
        }
        for colour in 0..colours {
            if self.stamps[colour].is_none() {
                self.stamps[colour] = Some(disc_stamp(colour, half, layout)?);
            }
        }
        let sized = self
            .layer
            .as_ref()
            .is_some_and(|l| l.canvas.width() == width && l.canvas.height() == height);
        if !sized {
            let canvas = new_canvas(width, height)?;
            let context = super::context(&canvas)?;
            self.layer = Some(Layer {
                canvas,
                context,
                discs: Vec::new(),
                left_out: None,
                raster: None,
            });
        }
        let Some(layer) = self.layer.as_mut() else {
            return Ok(());
        };
        let stamps = &self.stamps;
        let stamp =
            |context: &CanvasRenderingContext2d, disc: Disc| stamp(stamps, half, context, disc);
        // Which disc (if any) goes over the layer, and whether the layer must be stamped anew.
        let (left_out, stale) = if layer.discs.len() == discs.len() {
            match one_difference(&layer.discs, &discs) {
                Ok(None) => (layer.left_out, false),
                Ok(Some(i)) if layer.left_out == Some(i) => (Some(i), false),
                // Another disc leaves a complete layer (a drag begins): only the squares of
                // the disc put back and of the one taken off change.
                Ok(Some(i)) if layer.raster.is_none() => {
                    let sprites = &mut self.sprites;
                    let mut square = |(x, y, _): Disc| {
                        repaint_square(layer, &discs, i, (x, y), half, stamps, sprites)
                    };
                    if let Some(j) = layer.left_out {
                        square(discs[j])?;
                    }
                    square(layer.discs[i])?;
                    (Some(i), false)
                }
                Ok(Some(i)) => (Some(i), true),
                Err(()) => (None, true),
            }
        } else {
            (None, true)
        };
        if stale {
            layer
                .context
                .clear_rect(0.0, 0.0, width as f64, height as f64);
            layer.raster = None;
            if discs.len() >= RASTER_FROM {
                layer.raster = Some(Raster {
                    layer: sprites::Layer::new(width as usize, height as usize),
                    next: discs.len(),
                    shown: None,
                });
            } else {
                for (i, &disc) in discs.iter().enumerate() {
                    if Some(i) != left_out {
                        stamp(&layer.context, disc)?;
                    }
                }
            }
            layer.left_out = left_out;
        }
        self.spare = std::mem::replace(&mut layer.discs, discs);
        // A frame that listed a large layer anew and has spent its share on that composites
        // nothing: the next frame begins it, so no one task both lists and composites.
        let spent = stale && layer.raster.is_some() && super::now_ms() > started + FRAME_BUDGET_MS;
        if spent {
            self.incomplete = true;
            return Ok(());
        }
        self.finish(target, half, started)
    }

    /// Paints the discs painted last again, as they were, adding a share of those the layer
    /// still lacks: for a frame whose caller knows its discs are the last frame's (the same
    /// points, window and canvas), which then need not be listed again. Returns whether it
    /// could (there is a layer of the canvas's size, for the layout's point radius).
    pub fn repaint(
        &mut self,
        target: &CanvasRenderingContext2d,
        (width, height): (u32, u32),
        layout: &Layout,
        started: f64,
    ) -> Result<bool, JsValue> {
        let ready = layout.point_radius.round() as i32 == self.radius
            && self
                .layer
                .as_ref()
                .is_some_and(|l| l.canvas.width() == width && l.canvas.height() == height);
        if !ready {
            return Ok(false);
        }
        self.finish(target, scene::marker_half(layout), started)?;
        Ok(true)
    }

    /// For a frame that began at `started` whose discs are the last frame's: composites the
    /// next share of the layer still being composited, unseen, and returns true when the frame
    /// need paint nothing (the layer was shown less than [`SHOW_EVERY_MS`] ago and is not
    /// complete yet). False: the frame paints as usual ([`DiscPainter::repaint`]), and shows
    /// the layer.
    pub fn composite_unseen(&mut self, started: f64) -> bool {
        let Some(layer) = self.layer.as_mut() else {
            return false;
        };
        let Some(raster) = layer.raster.as_mut() else {
            return false;
        };
        if !raster.shown_lately() {
            return false;
        }
        // (Shown once, the layer's sprites have been read.)
        composite_share(raster, &layer.discs, layer.left_out, &self.sprites, started);
        raster.next > 0
    }

    /// Composites the next share of a layer still being composited in memory, then draws the
    /// layer on `target` and the disc left out of it over it.
    fn finish(
        &mut self,
        target: &CanvasRenderingContext2d,
        half: i32,
        started: f64,
    ) -> Result<(), JsValue> {
        let Some(layer) = self.layer.as_mut() else {
            return Ok(());
        };
        let stamps = &self.stamps;
        let stamp =
            |context: &CanvasRenderingContext2d, disc: Disc| stamp(stamps, half, context, disc);
        let discs = &layer.discs;
        let (width, height) = (layer.canvas.width(), layer.canvas.height());
        if let Some(raster) = layer.raster.as_mut() {
            let sprites = sprites_of(&mut self.sprites, stamps, half)?;
            composite_share(raster, discs, layer.left_out, sprites, started);
            // (A frame painted for another reason, a new model, shows the layer as it was
            // last shown if that was less than SHOW_EVERY_MS ago.)
            if raster.next == 0 || !raster.shown_lately() {
                let rgba = raster.layer.to_straight_rgba();
                let image =
                    ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), width, height)?;
                layer.context.put_image_data(&image, 0.0, 0.0)?;
                raster.shown = Some(super::now_ms());
            }
            if raster.next == 0 {
                layer.raster = None;
            }
        }
        self.incomplete = layer.raster.is_some();
        target.draw_image_with_html_canvas_element(&layer.canvas, 0.0, 0.0)?;
        if let Some(i) = layer.left_out {
            stamp(target, layer.discs[i])?;
        }
        Ok(())
    }
}

/// Stamps the next of `discs` under those `raster` holds, from the top down, until the frame
/// that began at `started` has taken [`FRAME_BUDGET_MS`] (one batch at least): all but the
/// one `left_out`.
fn composite_share(
    raster: &mut Raster,
    discs: &[Disc],
    left_out: Option<usize>,
    sprites: &[Option<Sprite>],
    started: f64,
) {
    let deadline = started + FRAME_BUDGET_MS;
    while raster.next > 0 {
        let from = raster.next.saturating_sub(BATCH);
        for i in (from..raster.next).rev() {
            let (x, y, colour) = discs[i];
            if let (true, Some(Some(sprite))) = (Some(i) != left_out, sprites.get(colour)) {
                raster.layer.stamp_under(sprite, (x, y));
            }
        }
        raster.next = from;
        if super::now_ms() > deadline {
            break;
        }
    }
}

/// Paints anew, on `layer`, the square a disc centred at `centre` covers: from every disc of
/// `discs` that reaches into it but the one `left_out`, in their order, as a layer stamped
/// anew would hold them there (composited in memory from `RASTER_FROM` discs on, as such a
/// layer is: see `sprites::square`).
fn repaint_square(
    layer: &Layer,
    discs: &[Disc],
    left_out: usize,
    centre: (i32, i32),
    half: i32,
    stamps: &[Option<HtmlCanvasElement>],
    sprites: &mut Vec<Option<Sprite>>,
) -> Result<(), JsValue> {
    let size = (
        layer.canvas.width() as usize,
        layer.canvas.height() as usize,
    );
    let reaching = (discs.iter().enumerate())
        .filter(|&(k, &(x, y, _))| k != left_out && sprites::reaches((x, y), centre, half))
        .map(|(_, &disc)| disc);
    if discs.len() >= RASTER_FROM {
        let sprites = sprites_of(sprites, stamps, half)?;
        let placed: Vec<(&Sprite, (i32, i32))> = reaching
            .filter_map(|(x, y, colour)| Some((sprites.get(colour)?.as_ref()?, (x, y))))
            .collect();
        let Some(((x0, y0), part)) = sprites::square(&placed, centre, half, size) else {
            return Ok(());
        };
        let rgba = part.to_straight_rgba();
        let (w, h) = (part.width as u32, part.height as u32);
        let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, h)?;
        return layer.context.put_image_data(&image, x0 as f64, y0 as f64);
    }
    let context = &layer.context;
    let (x, y, side) = (
        (centre.0 - half) as f64,
        (centre.1 - half) as f64,
        2.0 * half as f64,
    );
    context.save();
    context.begin_path();
    context.rect(x, y, side, side);
    context.clip();
    context.clear_rect(x, y, side, side);
    let stamped = reaching
        .into_iter()
        .try_for_each(|disc| stamp(stamps, half, context, disc));
    context.restore();
    stamped
}

/// Stamps `disc` on `context` with its colour's stamp (of half-side `half`).
fn stamp(
    stamps: &[Option<HtmlCanvasElement>],
    half: i32,
    context: &CanvasRenderingContext2d,
    (x, y, colour): Disc,
) -> Result<(), JsValue> {
    match &stamps[colour] {
        Some(image) => {
            context.draw_image_with_html_canvas_element(image, (x - half) as f64, (y - half) as f64)
        }
        None => Ok(()),
    }
}

/// The stamps' pixels as sprites centred on (half, half), read from their canvases once.
fn sprites_of<'a>(
    sprites: &'a mut Vec<Option<Sprite>>,
    stamps: &[Option<HtmlCanvasElement>],
    half: i32,
) -> Result<&'a [Option<Sprite>], JsValue> {
    sprites.resize(stamps.len(), None);
    for (sprite, stamp) in sprites.iter_mut().zip(stamps) {
        if let (None, Some(canvas)) = (&sprite, stamp) {
            let side = (2 * half) as u32;
            let data =
                super::context(canvas)?.get_image_data(0.0, 0.0, side as f64, side as f64)?;
            let rgba = data.data();
            *sprite = Some(Sprite::from_straight_rgba(
                &rgba,
                side as usize,
                side as usize,
                (half, half),
            ));
        }
    }
    Ok(sprites)
}

//! Large files without long tasks on the page's thread: the worker behind the page reads the
//! file and hands back its points packed ([`crate::core::packed`]); the page feeds them a piece at a
//! time into a [`PackedPoints`] between frames, and takes them whole when done
//! ([`App::take_points`]), so no task grows with the file's size.

use super::{js_error, App};
use crate::core::packed::Unpacking;
use crate::draw::scene;
use wasm_bindgen::prelude::*;

/// Packed points being read on the page, a slice at a time.
#[wasm_bindgen]
pub struct PackedPoints {
    unpacking: Unpacking,
}

#[wasm_bindgen]
impl PackedPoints {
    #[wasm_bindgen(constructor)]
    pub fn new() -> PackedPoints {
        PackedPoints {
            unpacking: Unpacking::new(),
        }
    }

    /// Reads the points a piece of the packed bytes (from the worker's `read_file`) completes;
    /// the pieces may be cut anywhere.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), JsValue> {
        self.unpacking.feed(bytes).map_err(js_error)
    }

    /// The share read so far, 0 to 1.
    pub fn fraction(&self) -> f64 {
        self.unpacking.fraction()
    }

    /// How many points there are (0 until the first piece has been read).
    pub fn count(&self) -> usize {
        self.unpacking.len()
    }
}

impl Default for PackedPoints {
    fn default() -> Self {
        PackedPoints::new()
    }
}

impl App {
    /// Replaces the points by those read into `points` (every one of them: fails, changing
    /// nothing, while some are unread), keeping the settings, as a loaded file does.
    pub fn take_points(&mut self, points: PackedPoints) -> Result<(), JsValue> {
        let data = points.unpacking.finish().map_err(js_error)?;
        self.copying = None;
        // The worker read the same file itself (it holds these points already): the load is
        // not recorded as a whole scene to send it, which would post every point again.
        (*self.lab).load_data(data);
        Ok(())
    }

    /// Computes step `step` of what the frames keep of the points taken, and returns whether
    /// another step remains: the lab's own ([`crate::lab::playground::Playground::prepare_points`]),
    /// then the points' part of the scene the next frame composes (their copy, colours and
    /// roles, `SHARE` points a step), then their discs, listed ahead of it `SHARE` points a
    /// step. No step grows with the number of points, neither in time nor in the memory it
    /// first touches (a million points' copy is tens of megabytes the page has never used,
    /// which a slow or busy machine hands out slowly).
    pub fn prepare_points(&mut self, step: usize) -> bool {
        let lab_steps = self.lab.preparing_steps();
        if step < lab_steps {
            self.lab.prepare_points(step);
            return true;
        }
        let n = self.lab.data().len();
        let shares = n.div_ceil(SHARE).max(1);
        let k = step - lab_steps;
        if k < shares {
            self.copy_share();
            return true;
        }
        // (A copy left unfinished by an edit is not kept: at a million points it is tens of
        // megabytes.)
        self.copying = None;
        // (An edit since: the scene is another one's, and the frames list its discs.)
        let Some((composed_for, scene)) = &self.spare_scene else {
            return false;
        };
        if *composed_for != self.lab.points_key() {
            return false;
        }
        let n = scene.points.len();
        let start = (k - shares) * SHARE;
        let range = start..n.min(start + SHARE);
        let last = range.end >= n;
        let layout = self.layout();
        let key = self.discs_key(scene, &layout);
        let list = |into: &mut Vec<_>| scene::list_discs(scene, &layout, range.clone(), into);
        self.discs.list_ahead(key, &list, (k == shares, last));
        !last
    }

    /// Copies the next `SHARE` points, with their colours and roles, into the scene being
    /// composed for them; once it holds every point, it is composed over them (as a frame
    /// composes one) and kept for the next frame (`spare_scene`).
    fn copy_share(&mut self) {
        let key = self.lab.points_key();
        let data = self.lab.data();
        let n = data.len();
        let mut scene = match self.copying.take() {
            Some((k, scene)) if k == key => scene,
            _ => scene::Scene {
                points: Vec::with_capacity(n),
                colour_of: Vec::with_capacity(n),
                hollow: Vec::with_capacity(n),
                ..scene::Scene::default()
            },
        };
        let range = scene.points.len()..n.min(scene.points.len() + SHARE);
        scene.points.extend_from_slice(&data.points[range.clone()]);
        scene
            .hollow
            .extend_from_slice(&self.lab.test()[range.clone()]);
        self.lab.colour_indices_into(range, &mut scene.colour_of);
        if scene.points.len() < n {
            self.copying = Some((key, scene));
            return;
        }
        let scene = self.lab.over_points_reusing(None, Some((key, scene)));
        self.spare_scene = Some((key, scene));
    }
}

/// How many points [`App::prepare_points`] copies, or lists the discs of, in one step (a few
/// milliseconds' work on a phone, and a few megabytes).
const SHARE: usize = 1 << 18;

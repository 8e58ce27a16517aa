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
        // The worker read the same file itself (it holds these points already): the load is
        // not recorded as a whole scene to send it, which would post every point again.
        (*self.lab).load_data(data);
        Ok(())
    }

    /// Computes step `step` of what the frames keep of the points taken, a walk of them (or
    /// of a share of them) per step, and returns whether another step remains: the lab's own
    /// ([`crate::lab::playground::Playground::prepare_points`]), then the points' part of the
    /// scene the next frame composes (two steps), then their discs, listed ahead of it
    /// [`LIST_AHEAD`] points a step.
    pub fn prepare_points(&mut self, step: usize) -> bool {
        const LAB_STEPS: usize = 4;
        match step.checked_sub(LAB_STEPS) {
            None => {
                self.lab.prepare_points(step);
                true
            }
            // The scene over the points in two steps: their copy, then their colours and
            // roles (a frame meanwhile completes it the same way).
            Some(0) => {
                let points = self.lab.data().points.clone();
                let scene = scene::Scene {
                    points,
                    ..scene::Scene::default()
                };
                self.spare_scene = Some((self.lab.points_key(), scene));
                true
            }
            Some(1) => {
                let spare = self.spare_scene.take();
                let scene = self.lab.over_points_reusing(None, spare);
                self.spare_scene = Some((self.lab.points_key(), scene));
                true
            }
            Some(k) => {
                // (An edit since: the scene is another one's, and the frames list its discs.)
                let Some((composed_for, scene)) = &self.spare_scene else {
                    return false;
                };
                if *composed_for != self.lab.points_key() {
                    return false;
                }
                let n = scene.points.len();
                let start = (k - 2) * LIST_AHEAD;
                let range = start..n.min(start + LIST_AHEAD);
                let last = range.end >= n;
                let layout = self.layout();
                let key = self.discs_key(scene, &layout);
                let list =
                    |into: &mut Vec<_>| scene::list_discs(scene, &layout, range.clone(), into);
                self.discs.list_ahead(key, &list, (k == 2, last));
                !last
            }
        }
    }
}

/// How many points' discs [`App::prepare_points`] lists in one step (a few milliseconds'
/// work on a phone).
const LIST_AHEAD: usize = 1 << 18;

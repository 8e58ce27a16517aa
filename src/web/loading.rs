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

    /// Computes step `step` of what the frames keep of the points taken, a walk of them per
    /// step, and returns whether another step remains: the lab's own
    /// ([`crate::lab::playground::Playground::prepare_points`]), then the points' part of the
    /// scene the next frame composes, then their discs, listed ahead of it.
    pub fn prepare_points(&mut self, step: usize) -> bool {
        const LAB_STEPS: usize = 4;
        match step.checked_sub(LAB_STEPS) {
            None => {
                self.lab.prepare_points(step);
            }
            Some(0) => {
                let scene = self.lab.over_points(None);
                self.spare_scene = Some((self.lab.points_key(), scene));
            }
            Some(1) => {
                if let Some((_, scene)) = &self.spare_scene {
                    let layout = self.layout();
                    let key = self.discs_key(scene, &layout);
                    let list = |into: &mut Vec<_>| scene::list_discs(scene, &layout, into);
                    self.discs.list_ahead(key, &list);
                }
            }
            Some(_) => {}
        }
        step < LAB_STEPS + 1
    }
}

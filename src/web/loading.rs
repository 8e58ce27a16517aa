//! Large files without long tasks on the page's thread: the worker behind the page reads the
//! file and hands back its points packed ([`crate::packed`]); the page reads them a slice at
//! a time into a [`PackedPoints`] between frames, and takes them whole when done
//! ([`App::take_points`]), so no task grows with the file's size.

use super::{js_error, App};
use crate::packed::Unpacking;
use wasm_bindgen::prelude::*;

/// Packed points being read on the page, a slice at a time.
#[wasm_bindgen]
pub struct PackedPoints {
    unpacking: Unpacking,
}

#[wasm_bindgen]
impl PackedPoints {
    /// Starts reading packed points (bytes from the worker's `read_file`).
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: Vec<u8>) -> Result<PackedPoints, JsValue> {
        let unpacking = Unpacking::new(bytes).map_err(js_error)?;
        Ok(PackedPoints { unpacking })
    }

    /// Reads up to `rows` more points; whether all have been read.
    pub fn step(&mut self, rows: usize) -> Result<bool, JsValue> {
        self.unpacking.step(rows).map_err(js_error)
    }

    /// The share read so far, 0 to 1.
    pub fn fraction(&self) -> f64 {
        self.unpacking.fraction()
    }

    /// How many points there are.
    pub fn count(&self) -> usize {
        self.unpacking.len()
    }
}

#[wasm_bindgen]
impl App {
    /// Replaces the points by those read into `points` (every one of them: fails, changing
    /// nothing, while some are unread), keeping the settings, as a loaded file does.
    pub fn take_points(&mut self, points: PackedPoints) -> Result<(), JsValue> {
        let data = points.unpacking.finish().map_err(js_error)?;
        self.lab.replace_data(data);
        Ok(())
    }
}

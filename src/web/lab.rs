//! The page's one handle on the lab: a [`Comparison`] of the sides on their canvases
//! ([`App`]), which applies the rule of a comparison (what both sides share, which side the
//! controls edit), writes and opens the scene's link and keeps the undo history.
//!
//! What concerns one plot (drawing it, its pointer, its copy behind the page, the views) is
//! asked of a side by number, 0 the left and 1 the right ([`Lab::side_calls`] names those
//! calls; the page's view of a side forwards them, www/page.js).

use super::{js_error, App, PackedPoints};
use crate::lab::comparison::{Comparison, Side};
use wasm_bindgen::prelude::*;

/// The page's lab: both sides of a comparison and the undo history.
#[wasm_bindgen]
pub struct Lab {
    page: Comparison<App>,
    /// The link's warnings when it was opened.
    warnings: Vec<String>,
}

/// The calls made of one side: each takes the side's number first and is the side's own
/// call of the same name; those that only read it first, then those that change it.
macro_rules! side_calls {
    (
        reads { $( fn $read:ident($($rarg:ident: $rty:ty),*) $(-> $rret:ty)?; )* }
        changes { $( fn $change:ident($($carg:ident: $cty:ty),*) $(-> $cret:ty)?; )* }
    ) => {
        #[wasm_bindgen]
        #[allow(clippy::too_many_arguments)]
        impl Lab {
            $(
                pub fn $read(&self, side: usize $(, $rarg: $rty)*) $(-> $rret)? {
                    self.page.side(Side::from_index(side)).$read($($rarg),*)
                }
            )*
            $(
                pub fn $change(&mut self, side: usize $(, $carg: $cty)*) $(-> $cret)? {
                    self.page.side_mut(Side::from_index(side)).$change($($carg),*)
                }
            )*

            /// The names of the calls made of one side, comma-separated.
            pub fn side_calls() -> String {
                [$(stringify!($read),)* $(stringify!($change)),*].join(",")
            }
        }
    };
}

side_calls! {
    reads {
        fn painting() -> bool;
        fn picture_unchanged() -> bool;
        fn fingerprint() -> String;
        fn whole_scene() -> String;
        fn to_data(px: f64, py: f64) -> Vec<f64>;
        fn window() -> Vec<f64>;
        fn to_pixel(x: f64, y: f64) -> Vec<f64>;
        fn in_plot(px: f64, py: f64) -> bool;
        fn point_at(px: f64, py: f64, radius_px: f64) -> i32;
        fn point_xy(index: usize) -> Vec<f64>;
        fn points_text(limit: usize) -> String;
        fn point_count() -> usize;
        fn class_name(label: i32) -> String;
        fn query(px: f64, py: f64, radius_px: f64) -> Vec<f64>;
        fn side_hash() -> String;
        fn get(key: &str) -> String;
        fn enabled(key: &str) -> bool;
        fn also_written(key: &str) -> String;
        fn shown_as(key: &str) -> String;
        fn shown(key: &str) -> String;
        fn setting_from_shown(key: &str, text: &str) -> Result<String, JsValue>;
        fn read_svm_options(text: &str) -> Result<String, JsValue>;
        fn svm_options() -> String;
        fn csv() -> String;
        fn libsvm() -> String;
        fn python() -> String;
        fn scene_json() -> String;
        fn view_computed_behind(view_id: &str) -> bool;
        fn last_tuned() -> String;
    }
    changes {
        fn render() -> Result<String, JsValue>;
        fn set_draft(draft: u8);
        fn set_remote(on: bool);
        fn hand_back(view_id: &str);
        fn forget_painted();
        fn take_edits() -> Option<String>;
        fn adopt_frame(json: &[u8], regions: Vec<u8>) -> Result<bool, JsValue>;
        fn take_points(points: PackedPoints) -> Result<(), JsValue>;
        fn prepare_points(step: usize) -> bool;
        fn class_choices() -> String;
        fn set_pointer(px: f64, py: f64) -> bool;
        fn clear_pointer() -> bool;
        fn inspect(px: f64, py: f64, radius_px: f64) -> String;
        fn reset_steps();
        fn step() -> bool;
        fn finish_steps();
        fn cold_fit_ms() -> f64;
        fn svg(view_id: &str, width: u32, height: u32) -> Result<String, JsValue>;
        fn render_view(canvas_id: &str, view_id: &str) -> Result<String, JsValue>;
        fn adopt_figure(view_id: &str, bytes: &[u8]) -> bool;
        fn view_job_signature(view_id: &str) -> String;
        fn view_progress(view_id: &str) -> Vec<f64>;
        fn adopt(view_id: &str, state: &str) -> bool;
        fn view_work(view_id: &str, budget_ms: f64) -> bool;
        fn view_hover(view_id: &str, width: u32, height: u32, px: f64, py: f64) -> String;
        fn view_click(view_id: &str, width: u32, height: u32, px: f64, py: f64) -> Result<bool, JsValue>;
        fn view_mark_pixel(view_id: &str, width: u32, height: u32, index: usize) -> Vec<f64>;
        fn view_point_at(view_id: &str, width: u32, height: u32, px: f64, py: f64, radius_px: f64) -> i32;
        fn view_drag(view_id: &str, width: u32, dx: f64, dy: f64) -> bool;
    }
}

impl Lab {
    fn travelled(&mut self, step: fn(&mut Comparison<App>) -> Option<Vec<String>>) -> bool {
        step(&mut self.page)
            .map(|warnings| self.warnings = warnings)
            .is_some()
    }
}

#[wasm_bindgen]
impl Lab {
    /// Opens the scene of `hash` (a URL hash; empty for the default scene), the left on the
    /// canvas `left_canvas` and, when comparing, the right on `right_canvas`; a link that
    /// cannot be read whole is refused, its message naming why.
    #[wasm_bindgen(constructor)]
    pub fn new(left_canvas: &str, right_canvas: &str, hash: &str) -> Result<Lab, JsValue> {
        let places = [left_canvas.to_string(), right_canvas.to_string()];
        let (page, warnings) = Comparison::open(places, hash).map_err(js_error)?;
        Ok(Lab { page, warnings })
    }

    /// The parts of the link left out when the scene opened: one-line messages, a line each.
    pub fn warnings(&self) -> String {
        self.warnings.join("\n")
    }

    /// Opens `hash` in place of the scene on screen, both sides; refused (its message naming
    /// why), the scene stays. The history is kept.
    pub fn reopen(&mut self, hash: &str) -> Result<(), JsValue> {
        self.warnings = self.page.reopen(hash).map_err(js_error)?;
        Ok(())
    }

    pub fn comparing(&self) -> bool {
        self.page.comparing()
    }

    /// Compare on (the right opens as the left is, and is the side edited) or off; whether
    /// anything changed.
    pub fn compare(&mut self, on: bool) -> Result<bool, JsValue> {
        self.page.compare(on).map_err(js_error)
    }

    /// The side the model's controls edit: 0 the left, 1 the right.
    pub fn editing(&self) -> usize {
        match self.page.editing() {
            Side::Left => 0,
            Side::Right => 1,
        }
    }

    pub fn choose(&mut self, side: usize) {
        self.page.choose(Side::from_index(side));
    }

    /// Sets a setting where it belongs (both sides, or the side edited); the message says
    /// what is wrong when the value is refused.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), JsValue> {
        self.page.set(key, value).map_err(js_error)
    }

    /// Adds a point of class `label` at pixel (px, py) of `side`'s canvas (kept inside its
    /// plotted square), on both sides; its index.
    pub fn add_point(&mut self, side: usize, px: f64, py: f64, label: i32) -> Result<i32, JsValue> {
        let side = Side::from_index(side);
        let at = self.page.side(side).clamped_data(px, py);
        self.page
            .add_point(side, at, label)
            .map(|i| i as i32)
            .map_err(js_error)
    }

    /// Moves point `index` to pixel (px, py) of `side`'s canvas, on both sides.
    pub fn move_point(
        &mut self,
        side: usize,
        index: usize,
        px: f64,
        py: f64,
    ) -> Result<(), JsValue> {
        let side = Side::from_index(side);
        let at = self.page.side(side).clamped_data(px, py);
        self.page.move_point(side, index, at).map_err(js_error)
    }

    pub fn remove_point(&mut self, index: usize) -> Result<(), JsValue> {
        self.page.remove_point(index).map_err(js_error)
    }

    /// Turns point `index` into a test point (held out) or back into a training point.
    pub fn toggle_test(&mut self, index: usize) -> Result<(), JsValue> {
        self.page.toggle_test(index).map_err(js_error)
    }

    /// Highlights point `index` (−1 for none).
    pub fn set_highlight(&mut self, index: i32) {
        self.page
            .set_highlight((index >= 0).then_some(index as usize));
    }

    /// Removes every point.
    pub fn clear(&mut self) {
        self.page.clear();
    }

    /// Regenerates the preset's points (same preset, size, noise and seed).
    pub fn regenerate(&mut self) {
        self.page.regenerate();
    }

    /// Replaces the points by a file's bytes (any encoding, delimiter and columns the command
    /// line reads, or LIBSVM's format) for the scene's task, with `columns` as `--columns`
    /// takes them (`1,2,5`; empty for the defaults); on error (with its line number) nothing
    /// changes. Returns the sentence to show when part of the file was left out, else "".
    pub fn load_file(&mut self, bytes: &[u8], columns: &str) -> Result<String, JsValue> {
        let columns = crate::core::table::ColumnRef::parse_list(columns).map_err(js_error)?;
        self.page
            .load_file(bytes, columns.as_deref())
            .map(Option::unwrap_or_default)
            .map_err(js_error)
    }

    /// The scene's link (the left's, with the right's own settings as `compare=`), or
    /// nothing for a scene too large for one.
    pub fn link(&self) -> Option<String> {
        self.page.link()
    }

    /// Whether the link is longer than `limit` characters (cheap: it is not written).
    pub fn hash_longer_than(&self, limit: usize) -> bool {
        self.page.hash_longer_than(limit)
    }

    /// An interaction ended: both sides refit from scratch, and the scene is a step of the
    /// undo history if it changed; whether it did.
    pub fn settle(&mut self) -> bool {
        self.page.settle()
    }

    /// Takes the scene on screen as a step of the history; whether it is a new one.
    pub fn remember(&mut self) -> bool {
        self.page.remember()
    }

    /// The scene on screen starts the history, with no step to undo.
    pub fn start_history(&mut self) {
        self.page.start_history();
    }

    /// Whether the history has taken a scene yet.
    pub fn history_started(&self) -> bool {
        self.page.history_current().is_some()
    }

    /// The link of the scene the history took last (nothing: none yet, or too large).
    pub fn history_current(&self) -> Option<String> {
        self.page.history_current().flatten().map(str::to_string)
    }

    /// Reopens the scene before; whether there was one.
    pub fn undo(&mut self) -> bool {
        self.travelled(|page| page.undo())
    }

    /// Reopens the scene undone last; whether there was one.
    pub fn redo(&mut self) -> bool {
        self.travelled(|page| page.redo())
    }

    pub fn can_undo(&self) -> bool {
        self.page.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.page.can_redo()
    }

    /// The pictures' headlines in the page's language from now on (www/i18n.js).
    pub fn translate_pictures() {
        App::translate_pictures();
    }

    /// What the page builds its controls from, as JSON (see `App::catalogue`).
    pub fn catalogue() -> String {
        App::catalogue()
    }

    /// What the column dialog shows of a file's bytes, as JSON, or `null` for LIBSVM's format.
    pub fn file_preview(bytes: &[u8]) -> Result<String, JsValue> {
        App::file_preview(bytes)
    }

    /// A saved scene's JSON as `{"hash", "warnings"}`.
    pub fn scene_hash(json: &str) -> Result<String, JsValue> {
        App::scene_hash(json)
    }

    /// A shared link read whole: `{"left", "right", "warnings"}`, or the message naming why not.
    pub fn read_link(hash: &str) -> Result<String, JsValue> {
        App::read_link(hash)
    }
}

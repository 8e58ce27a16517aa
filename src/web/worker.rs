//! The lab's side of the worker behind the page (`www/worker.js`): [`FrameWorker`], a copy of
//! the lab that applies the page's edits, fits, and sends back the picture of the model and
//! the open view's figure; and [`GridWorker`], a lab that works a view's background job. What
//! crosses to the page: JSON for the status and the scene, one RGBA buffer for the regions,
//! postcard bytes for a figure.

use super::{frame_fields, js_error, now_ms, Timings};
use crate::draw::scene::{self, Layout};
use crate::lab::playground::{Edit, JobKind, Playground};
use crate::views::{self, Cache, VIEWS};
use serde::Serialize;
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;

/// The lab behind the page, in a Web Worker: the page sends it its edits (see
/// `playground::Edit`) and it fits and computes the picture of the model, which the page draws
/// over its own points. The regions travel as one RGBA image ([`FrameWorker::take_regions`]),
/// the rest of the picture as JSON.
#[wasm_bindgen]
pub struct FrameWorker {
    lab: Playground,
    regions: Vec<u8>,
    /// What was sent last: the lab's version, the size, and the pointer's lines (a picture
    /// already sent is not sent again).
    sent: Option<Sent>,
    /// The figures of the views beside the plane, computed here for the page.
    figures: Cache,
}

/// What a worker sent the page last: the lab's version, the canvas size, its draft level, the
/// marks that follow the pointer.
type Sent = (u64, u32, u32, u8, Vec<crate::core::plane::Wire>);

#[wasm_bindgen]
impl FrameWorker {
    #[wasm_bindgen(constructor)]
    pub fn new(hash: &str) -> FrameWorker {
        console_error_panic_hook::set_once();
        FrameWorker {
            lab: Playground::from_hash(hash),
            regions: Vec::new(),
            sent: None,
            figures: Cache::default(),
        }
    }

    /// Replaces this copy's points by a file's bytes (as `Lab.load_file` reads them, with
    /// `columns` as `--columns` takes them) and returns them packed ([`crate::core::packed`]) for the
    /// page, which reads them a slice at a time; on error (with its line number) nothing
    /// changes.
    pub fn read_file(&mut self, bytes: &[u8], columns: &str) -> Result<Vec<u8>, JsValue> {
        let columns = crate::core::table::ColumnRef::parse_list(columns).map_err(js_error)?;
        let task = self.lab.settings().task;
        let data = crate::core::data::files::read_for(task, bytes, columns.as_deref())
            .map_err(js_error)?
            .data;
        let packed = crate::core::packed::pack(&data);
        self.lab.load_data(data);
        self.sent = None;
        Ok(packed)
    }

    /// Replaces this copy's points by packed ones (another side's [`FrameWorker::read_file`]).
    pub fn take_packed(&mut self, packed: &[u8]) -> Result<(), JsValue> {
        let mut unpacking = crate::core::packed::Unpacking::new();
        unpacking.feed(packed).map_err(js_error)?;
        self.lab.load_data(unpacking.finish().map_err(js_error)?);
        self.sent = None;
        Ok(())
    }

    /// This copy's fingerprint (decimal), as the page's `Lab.fingerprint`.
    pub fn fingerprint(&self) -> String {
        self.lab.fingerprint().to_string()
    }

    /// View `view_id`'s figure for a picture of `width` × `height`, from this copy of the lab,
    /// as bytes ([`crate::views::Figure::to_bytes`]); empty for the plane, for a view drawn from a
    /// background job (the page draws those from the job's results) and for an unknown id.
    pub fn figure(&mut self, view_id: &str, width: u32, height: u32) -> Vec<u8> {
        match views::view(view_id) {
            Ok(view) if computed_behind(view) => {
                // What a chart shows does not depend on its type, only how it is drawn: the
                // page draws the figure with the type of its own plane.
                let layout = view.layout(width, height, 0.0);
                self.figures.figure(view, &mut self.lab, &layout).to_bytes()
            }
            _ => Vec::new(),
        }
    }

    /// Applies the page's edits (a JSON list) in order; returns whether this copy now has the
    /// page's fingerprint (a decimal string). When it has not, the page sends the whole scene.
    pub fn apply(&mut self, edits: &str, fingerprint: &str) -> bool {
        let Ok(edits) = serde_json::from_str::<Vec<Edit>>(edits) else {
            return false;
        };
        if edits.iter().any(|edit| matches!(edit, Edit::Scene { .. })) {
            self.sent = None;
        }
        fingerprint
            .parse()
            .is_ok_and(|print| self.lab.follow(&edits, print))
    }

    /// Fits if anything changed; returns the fit's milliseconds (0 when nothing changed).
    pub fn fit(&mut self) -> f64 {
        if !self.lab.needs_fit() {
            return 0.0;
        }
        let start = now_ms();
        self.lab.fit();
        now_ms() - start
    }

    /// The model's picture for a canvas of `width` × `height` and its status, as JSON in UTF-8
    /// bytes (handed to the page as they are: a string would be turned into JavaScript's UTF-16
    /// here and back into UTF-8 on the page, a copy of the scene each way):
    /// `{"frame": {status, timings, fingerprint…}, "scene": the scene or null when the one
    /// sent last still stands, "cols", "rows"}`; the regions image waits in
    /// [`FrameWorker::take_regions`]. `fit_ms` is what [`FrameWorker::fit`] took; a `draft`
    /// level above 0 has the field on a coarser grid ([`Layout::draft`]).
    pub fn frame(&mut self, width: u32, height: u32, fit_ms: f64, draft: u8) -> Vec<u8> {
        let started = now_ms();
        let layout = Layout::new(width, height).drafted(draft);
        let scene = self.lab.model_scene(&layout);
        let computed = now_ms();
        let key = (
            self.lab.version(),
            width,
            height,
            self.lab.drawn_draft(),
            crate::core::plane::Wire::of(&scene.pointer),
        );
        let fresh = self.sent.as_ref() != Some(&key);
        let (mut cols, mut rows) = (0, 0);
        self.regions.clear();
        if fresh {
            let layers = self.lab.settings().layers();
            if let Some(grid) = scene::region_grid(&scene).filter(|_| layers.on("regions")) {
                (cols, rows) = (grid.cols as u32, grid.rows as u32);
                self.regions = scene::field_image_rgba(&scene, cols, rows);
            }
            self.sent = Some(key);
        }
        let imaged = now_ms();
        let status = self.lab.status();
        let statused = now_ms();
        let timings = Timings {
            fit_ms,
            draw_ms: imaged - started,
            status_ms: statused - imaged,
            scene_ms: computed - started,
            regions_ms: imaged - computed,
            overlay_ms: 0.0,
            refit: fit_ms > 0.0,
            exact_nodes: exact_nodes(&scene),
            draft: self.lab.drawn_draft() > 0,
            draft_level: self.lab.drawn_draft(),
            computed: self.lab.picture_computed(),
        };
        let mut frame = frame_fields(&status, &timings, &self.lab.warnings);
        frame.insert(
            "fingerprint".into(),
            json!(self.lab.fingerprint().to_string()),
        );
        frame.insert("follows_pointer".into(), json!(self.lab.follows_pointer()));
        // The regions image (the page paints it: its `regions_ms` is that painting).
        frame.insert("image_ms".into(), json!(imaged - computed));
        let scene = match fresh {
            true => serde_json::to_string(&scene).unwrap_or_else(|_| "null".into()),
            false => "null".into(),
        };
        let serialised = now_ms();
        frame.insert("json_ms".into(), json!(serialised - statused));
        // The worker's whole frame: fit, picture, regions image, status and this JSON.
        frame.insert("frame_ms".into(), json!(serialised - started + fit_ms));
        // A `WorkerFrame`, with the scene written above.
        format!(
            r#"{{"frame":{},"scene":{scene},"cols":{cols},"rows":{rows}}}"#,
            Value::Object(frame)
        )
        .into_bytes()
    }

    /// The regions image of the last [`FrameWorker::frame`] (RGBA, `cols` × `rows`; empty when
    /// it sent no new picture or the regions are off).
    pub fn take_regions(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.regions)
    }

    /// What is at data point (x₁, x₂) within `radius` (data units), as JSON (see
    /// `Lab.inspect`).
    /// The answer carries this copy's fingerprint, so the page uses it only for the scene
    /// as it stands there.
    pub fn inspect(&mut self, x: f64, y: f64, radius: f64) -> String {
        self.lab.fit();
        json!({
            "fingerprint": self.lab.fingerprint().to_string(),
            "info": self.lab.inspect([x, y], radius),
        })
        .to_string()
    }
}

/// Whether a worker computes view `view`'s figure for the page: every view but the plane
/// and those drawn from a background job.
pub(super) fn computed_behind(view: &dyn views::ViewKind) -> bool {
    view.id() != VIEWS[0].id() && view.job().is_none()
}

/// A worker's answer to a frame request: its status and timings, the model's picture (none
/// when the one sent last still stands) and the size of the regions image sent beside it.
#[derive(serde::Deserialize)]
pub(super) struct WorkerFrame {
    pub frame: Map<String, Value>,
    pub scene: Option<scene::Scene>,
    pub cols: u32,
    pub rows: u32,
}

pub(super) fn exact_nodes(scene: &scene::Scene) -> usize {
    scene
        .labels
        .as_ref()
        .map(|l| l.exact_nodes)
        .or(scene.field.as_ref().map(|f| f.exact_nodes))
        .unwrap_or(0)
}

/// A job's progress as a worker hands it to the page (the signature as text: JavaScript
/// numbers would round a u64).
#[derive(Serialize, serde::Deserialize)]
pub(super) struct WorkerState {
    pub signature: String,
    /// The job's own JSON ([`crate::core::job::Job::progress_json`]).
    pub progress: serde_json::Value,
    pub done: bool,
}

/// A lab without a canvas, in a Web Worker: it computes a view's background job (the
/// cross-validation grid, the validation curve, the regularisation path) for the scene a URL hash describes, so that
/// the page's thread stays free.
#[wasm_bindgen]
pub struct GridWorker {
    lab: Playground,
    kind: &'static JobKind,
}

#[wasm_bindgen]
impl GridWorker {
    /// The job of view `view_id` for the scene `hash` describes, where `last_tuned` was the
    /// tuning parameter moved last on the page.
    #[wasm_bindgen(constructor)]
    pub fn new(hash: &str, view_id: &str, last_tuned: &str) -> Result<GridWorker, JsValue> {
        console_error_panic_hook::set_once();
        let kind = views::view(view_id)
            .map_err(js_error)?
            .job()
            .ok_or_else(|| js_error(format!("view '{view_id}' has no background job")))?;
        let mut lab = Playground::from_hash(hash);
        lab.set_last_tuned(last_tuned);
        Ok(GridWorker { lab, kind })
    }

    /// Works for about `budget_ms` milliseconds; returns whether work remains.
    pub fn work(&mut self, budget_ms: f64) -> bool {
        // The worker's own clock (its `performance`): the one a benchmark slows with the
        // worker (www/worker.js), so that a slice is as long as on the device it stands for.
        let start = now_ms();
        loop {
            if !self.lab.work_on(self.kind, 1) {
                return false;
            }
            if now_ms() - start >= budget_ms {
                return true;
            }
        }
    }

    /// What has been computed, as JSON for `Lab.adopt`.
    pub fn state(&mut self) -> String {
        let state = self.lab.job_state(self.kind);
        serde_json::to_string(&WorkerState {
            signature: state.signature.to_string(),
            progress: self.lab.job_progress(self.kind),
            done: state.complete,
        })
        .unwrap_or_default()
    }
}

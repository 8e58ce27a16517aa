//! The browser's door into the lab, and the only code that knows about wasm-bindgen, web-sys
//! and js-sys. JavaScript holds an [`App`]; points and fits stay in wasm memory, and only small
//! values cross: pixel positions in, short strings and JSON out. Errors cross once, as their
//! message text. The worker's side of the lab is in `web/worker.rs`, the stamped discs in
//! `web/discs.rs`.

use crate::field::PixelRect;
use crate::params::PARAMS;
use crate::playground::{Playground, Session, Status};
use crate::registry::METHODS;
use crate::scene::{self, Layout};
use crate::views::{self, Cache, Figure, VIEWS};
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

mod backend;
mod discs;
mod loading;
mod worker;

use backend::PageBackend;
use worker::{computed_behind, exact_nodes, WorkerFrame, WorkerState};

fn js_error(e: impl ToString) -> JsValue {
    JsValue::from(e.to_string())
}

/// From this many points on, a new scene is composed in one frame and drawn from the next
/// (see [`App::render_remote`]).
const COMPOSE_APART_FROM: usize = 100_000;

/// The clock, in a page or in a worker (which has no window but has `performance`).
fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

fn context(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, JsValue> {
    canvas
        .get_context("2d")?
        .ok_or_else(|| js_error("this browser gives no 2D canvas"))?
        .dyn_into::<CanvasRenderingContext2d>()
        .map_err(|_| js_error("this browser gives no 2D canvas"))
}

/// The frame's timings (ms): `fit_ms`, then `scene_ms` (field, contours, marks) +
/// `regions_ms` (the field image onto the canvas) + `overlay_ms` (axes, curves and points
/// through plotters) = `draw_ms`.
#[derive(Serialize)]
struct Timings {
    fit_ms: f64,
    draw_ms: f64,
    /// The status line's numbers (accuracies, facts), computed once per change.
    status_ms: f64,
    scene_ms: f64,
    regions_ms: f64,
    overlay_ms: f64,
    refit: bool,
    exact_nodes: usize,
}

/// A frame's JSON for the page: the status, the timings, every single-valued fact under its
/// own key (lists per training point stay out), the facts to list, and the link's warnings.
fn frame_fields(
    status: &Status,
    timings: &impl Serialize,
    warnings: &[String],
) -> Map<String, Value> {
    let mut frame = Map::new();
    for value in [json!(status), json!(timings)] {
        if let Value::Object(fields) = value {
            frame.extend(fields);
        }
    }
    for fact in status.facts.iter().filter(|f| f.value.is_scalar()) {
        frame.entry(fact.key).or_insert_with(|| json!(fact.value));
    }
    frame.insert(
        "facts".into(),
        json!(status
            .facts
            .iter()
            .filter(|f| !f.label.is_empty())
            .collect::<Vec<_>>()),
    );
    frame.insert("warnings".into(), json!(warnings));
    frame
}

/// The latest picture from the worker behind the page, drawn over the page's own points.
struct Remote {
    scene: scene::Scene,
    regions: Vec<u8>,
    cols: u32,
    rows: u32,
    frame: Map<String, Value>,
}

#[wasm_bindgen]
extern "C" {
    /// The page's translation of a text the lab draws (www/i18n.js), or nothing to keep it.
    #[wasm_bindgen(js_namespace = globalThis, js_name = kernelPlaygroundSay)]
    fn page_says(text: &str) -> Option<String>;
}

/// The lab on one canvas.
#[wasm_bindgen]
pub struct App {
    /// The lab, which records its edits for the worker behind the page.
    lab: Session,
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    /// An off-screen canvas at the field grid's size; drawn scaled onto the plot.
    field_canvas: HtmlCanvasElement,
    field_context: CanvasRenderingContext2d,
    last_fit_ms: f64,
    /// A fit has happened since the last frame was drawn.
    fitted_since_frame: bool,
    /// The figures of the views beside the plane.
    figures: Cache,
    /// With a worker behind the page: the plane's model is fitted and pictured there, and
    /// this holds its latest picture (`None` inside until the first arrives).
    remote: Option<Option<Remote>>,
    /// The points' discs: their stamps, and the layer painted last.
    discs: discs::DiscPainter,
    /// How many frames the worker has sent.
    generation: u64,
    /// The picture painted last from them (`Playground::picture_fingerprint`) and its frame.
    painted: Option<(u64, Map<String, Value>)>,
    /// That picture's scene, kept while a large scene's discs are still to be listed (`false`)
    /// or are being painted (a share per frame), so those frames do not compose every point
    /// again.
    painted_scene: Option<(scene::Scene, bool)>,
    /// What the discs on the painter's layer were listed for, when a frame with a worker
    /// listed them: the points, their roles and colours, the window and the canvas
    /// ([`App::discs_key`]). A new model over the same points need not list them again.
    discs_key: Option<u64>,
    /// With a worker: the latest figure it computed for a view, with the view's id.
    remote_figure: Option<(String, Figure)>,
    /// How many figures the worker has sent.
    figures_adopted: u64,
    /// What the view canvas shows of them, and its note, so that a frame which changes
    /// nothing there does not draw the view again.
    view_painted: Option<(ViewPainted, String)>,
    /// The class buttons' JSON and the scene version it is of: asked for every frame, it
    /// counts the classes of every point only when the points change.
    class_choices: Option<(u64, String)>,
    /// The view canvas's size when last drawn and the type it was drawn with (the plane's
    /// tick labels, in that canvas's pixels), for the hovers and clicks on it.
    view_type: Option<(u32, u32, f64)>,
}

/// A worker's figure as painted: the view, the figure's number, the highlight, the orbit and
/// the canvas size and type.
type ViewPainted = (
    String,
    u64,
    Option<usize>,
    crate::playground::Orbit,
    (u32, u32),
    u64,
);

#[wasm_bindgen]
impl App {
    /// Opens the scene described by `hash` (a URL hash; empty for the default scene) on the
    /// canvas with id `canvas_id`; a hash that cannot be read whole is refused, its message
    /// naming why (see [`App::read_link`]).
    #[wasm_bindgen(constructor)]
    pub fn new(canvas_id: &str, hash: &str) -> Result<App, JsValue> {
        console_error_panic_hook::set_once();
        let document = web_sys::window()
            .and_then(|w| w.document())
            .ok_or_else(|| js_error("no document"))?;
        let canvas = document
            .get_element_by_id(canvas_id)
            .ok_or_else(|| js_error(format!("no element with id '{canvas_id}'")))?
            .dyn_into::<HtmlCanvasElement>()
            .map_err(|_| js_error(format!("'{canvas_id}' is not a canvas")))?;
        let field_canvas = document
            .create_element("canvas")?
            .dyn_into::<HtmlCanvasElement>()
            .map_err(|_| js_error("cannot create a canvas"))?;
        let lab = Session::new(Playground::open(hash).map_err(js_error)?);
        Ok(App {
            lab,
            context: context(&canvas)?,
            field_context: context(&field_canvas)?,
            canvas,
            field_canvas,
            last_fit_ms: 0.0,
            fitted_since_frame: false,
            figures: Cache::default(),
            remote: None,
            discs: discs::DiscPainter::default(),
            generation: 0,
            painted: None,
            painted_scene: None,
            discs_key: None,
            remote_figure: None,
            figures_adopted: 0,
            view_painted: None,
            class_choices: None,
            view_type: None,
        })
    }

    /// The pictures' headlines in the page's language from now on: each is handed to
    /// `globalThis.kernelPlaygroundSay` (www/i18n.js) before it is broken into lines.
    pub fn translate_pictures() {
        crate::words::set_translator(page_says);
    }

    /// Forgets the pictures painted last, so the next frame and view draw their words anew
    /// (the page's language changed).
    pub fn forget_painted(&mut self) {
        self.painted = None;
        self.view_painted = None;
    }

    /// What the page builds its controls from, as JSON: the parameter table (each row with
    /// its explanation, a choice's options with theirs), the methods (id, title, explanation,
    /// the keys they read, whether they step) and the views (id, title).
    pub fn catalogue() -> String {
        let methods: Vec<Value> = METHODS
            .iter()
            .map(|m| {
                json!({
                    "id": m.id(),
                    "title": m.title(),
                    "explain": m.explain(),
                    "params": m.reads(),
                    "steppable": m.steppable(),
                    "task": m.task().id(),
                })
            })
            .collect();
        let mut params: Vec<Value> = PARAMS
            .iter()
            .map(|p| {
                let mut row = serde_json::to_value(p).unwrap_or_default();
                if let crate::params::Kind::Choice { options } = p.kind {
                    row["options"] = json!(options);
                }
                row
            })
            .collect();
        // The learning curves' second method: a menu of the registry's methods.
        let others = crate::registry::methods_of(crate::task::Task::Classification)
            .map(|m| json!({ "value": m.id(), "label": m.title(), "explain": m.explain() }));
        params.push(json!({
            "key": crate::state::LEARN_VS_KEY,
            "label": "beside it",
            "kind": { "type": "choice" },
            "options": std::iter::once(json!({
                "value": "none",
                "label": "no other method",
                "explain": "The lab's own method alone.",
            }))
            .chain(others)
            .collect::<Vec<_>>(),
            "default": "none",
            "group": "view",
            "hint": "",
            "explain": "A second method whose learning curves are drawn dashed beside the lab's \
                        own, over the same folds and training-set sizes, with its settings as \
                        they stand: LDA or naive Bayes against logistic regression learn faster \
                        and level off lower.",
            "more": false,
            "enabled_by": [],
        }));
        let examples: Vec<Value> = crate::examples::EXAMPLES
            .iter()
            .map(
                |e| json!({ "id": e.id, "title": e.title, "caption": e.caption, "hash": e.hash() }),
            )
            .collect();
        let views: Vec<Value> = VIEWS
            .iter()
            .map(|v| {
                json!({
                    "id": v.id(),
                    "title": v.title(),
                    "tab": v.tab(),
                    "orbits": v.orbits(),
                    "aspect": v.aspect(),
                    "widens": v.widens(),
                    "settings": v.settings(),
                })
            })
            .collect();
        // The tasks that have methods, and the task each preset's points are for.
        let tasks: Vec<Value> = crate::task::Task::ALL
            .into_iter()
            .filter(|&t| crate::registry::methods_of(t).next().is_some())
            .map(|t| json!({ "id": t.id(), "title": t.title(), "explain": t.explain() }))
            .collect();
        let preset_tasks: serde_json::Map<String, Value> = crate::data::Preset::ALL
            .into_iter()
            .map(|p| (p.name().to_string(), json!(p.task().id())))
            .collect();
        json!({
            "params": params, "methods": methods, "views": views, "examples": examples,
            "tasks": tasks, "preset_tasks": preset_tasks,
        })
        .to_string()
    }

    /// Whether the setting `key` matters for the current method and settings (a γ for a
    /// kernel that has one).
    pub fn enabled(&self, key: &str) -> bool {
        let settings = self.lab.settings();
        crate::params::param(key)
            .is_some_and(|row| settings.values.enabled(row, &settings.method().reads()))
    }

    /// The notes' other name for setting `key`'s value ("σ = 0.5" for γ = 2 with an RBF
    /// kernel), or an empty string.
    pub fn also_written(&self, key: &str) -> String {
        let settings = self.lab.settings();
        settings
            .values
            .also_written(key, &settings.method().reads())
            .unwrap_or_default()
    }

    /// How the page shows setting `key` when not as itself (γ as the bandwidth σ): JSON
    /// `{label, lo, hi}` (the slider's range in log₁₀ of those units), or an empty string.
    pub fn shown_as(&self, key: &str) -> String {
        let settings = self.lab.settings();
        settings
            .values
            .shown_as(key, &settings.method().reads())
            .map(|shown| json!(shown).to_string())
            .unwrap_or_default()
    }

    /// Setting `key` in the units the page shows it in (σ for γ, see [`App::shown_as`]).
    pub fn shown(&self, key: &str) -> String {
        let settings = self.lab.settings();
        settings
            .values
            .shown(key, &settings.method().reads())
            .unwrap_or_default()
    }

    /// The text of setting `key` for `text` in the units the page shows it in (γ = 1/(2σ²)
    /// for a typed σ); the message says what is wrong when it is refused.
    pub fn setting_from_shown(&self, key: &str, text: &str) -> Result<String, JsValue> {
        let settings = self.lab.settings();
        settings
            .values
            .setting_from_shown(key, &settings.method().reads(), text)
            .map_err(js_error)
    }

    /// The URL hash of the current scene.
    pub fn hash(&self) -> String {
        self.lab.hash()
    }

    /// Whether setting `key` is the same on both sides of a comparison (an edit of it is
    /// made on both) rather than each side's own ([`crate::link::shared`]).
    pub fn shared_setting(key: &str) -> bool {
        crate::link::shared(key)
    }

    /// Whether the scene's URL hash is surely longer than `limit` characters (cheap: the hash
    /// is not written).
    pub fn hash_longer_than(&self, limit: usize) -> bool {
        self.lab.hash_length_at_least() > limit
    }

    /// What an svm-train option string (`-s 3 -t 2 -c 10`) asks of this side, checked but not
    /// applied: `{"edits": [[key, value], …], "notes": […]}`, the settings to apply in order
    /// and what was read past ([`crate::options`]); a string that cannot be read is an error.
    pub fn read_svm_options(&self, text: &str) -> Result<String, JsValue> {
        let options = crate::options::read(text, self.lab.settings()).map_err(js_error)?;
        Ok(json!({ "edits": options.edits, "notes": options.notes }).to_string())
    }

    /// The settings as svm-train options, or `{"why": …}` when they are not one of LIBSVM's
    /// models: `{"options": "-s 0 -t 2 …"}`.
    pub fn svm_options(&self) -> String {
        match crate::options::write(self.lab.settings()) {
            Ok(options) => json!({ "options": options }),
            Err(why) => json!({ "why": why }),
        }
        .to_string()
    }

    /// A setting's value, as written in the URL.
    pub fn get(&self, key: &str) -> String {
        self.lab.settings().get(key).unwrap_or_default()
    }

    /// Changes a setting; the message says what is wrong when the value is refused.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), JsValue> {
        self.lab.set(key, value).map_err(js_error)
    }

    fn layout(&self) -> Layout {
        Layout::new(self.canvas.width(), self.canvas.height())
    }

    fn plot(&self) -> PixelRect {
        self.layout().plot
    }

    /// The data point under canvas pixel (px, py), as [x₁, x₂].
    pub fn to_data(&self, px: f64, py: f64) -> Vec<f64> {
        self.plot().to_data(&self.lab.view(), px, py).to_vec()
    }

    /// The plotted window, [x_min, x_max, y_min, y_max]: as zoomed (the `window` setting) or
    /// fitted to the points.
    pub fn window(&self) -> Vec<f64> {
        let v = self.lab.view();
        vec![v.x_min, v.x_max, v.y_min, v.y_max]
    }

    /// Canvas pixel of data point (x₁, x₂), as [px, py].
    pub fn to_pixel(&self, x: f64, y: f64) -> Vec<f64> {
        let (px, py) = self.plot().to_pixel(&self.lab.view(), [x, y]);
        vec![px, py]
    }

    /// Whether canvas pixel (px, py) is inside the plotted square.
    pub fn in_plot(&self, px: f64, py: f64) -> bool {
        let p = self.plot();
        px >= p.left && px <= p.left + p.width && py >= p.top && py <= p.top + p.height
    }

    /// The index of the point within `radius_px` pixels of (px, py), or −1.
    pub fn point_at(&self, px: f64, py: f64, radius_px: f64) -> i32 {
        let view = self.lab.view();
        let plot = self.plot();
        let at = plot.to_data(&view, px, py);
        self.lab
            .point_near(at, radius_px * plot.data_per_pixel(&view))
            .map_or(-1, |i| i as i32)
    }

    /// Adds a point of class `label` at canvas pixel (px, py); returns its index.
    pub fn add_point(&mut self, px: f64, py: f64, label: i32) -> Result<i32, JsValue> {
        let at = self.clamped_data(px, py);
        self.lab
            .add_point(at, label)
            .map(|i| i as i32)
            .map_err(js_error)
    }

    /// Moves point `index` to canvas pixel (px, py), kept inside the plotted square.
    pub fn move_point(&mut self, index: usize, px: f64, py: f64) -> Result<(), JsValue> {
        let at = self.clamped_data(px, py);
        self.lab.move_point(index, at).map_err(js_error)
    }

    /// The data point under a pixel, inside the plotted square and snapped to the decimal
    /// grid just finer than a pixel.
    fn clamped_data(&self, px: f64, py: f64) -> [f64; 2] {
        let view = self.lab.view();
        let plot = self.plot();
        let p = plot.snapped(&view, plot.to_data(&view, px, py));
        [
            p[0].clamp(view.x_min, view.x_max),
            p[1].clamp(view.y_min, view.y_max),
        ]
    }

    /// Point `index` as [x₁, x₂] (empty if there is none): how a compared twin copies an edit.
    pub fn point_xy(&self, index: usize) -> Vec<f64> {
        self.lab
            .data()
            .points
            .get(index)
            .map_or_else(Vec::new, |p| p.to_vec())
    }

    /// Adds a point of class `label` at data point (x₁, x₂), exactly; returns its index.
    pub fn add_point_xy(&mut self, x: f64, y: f64, label: i32) -> Result<i32, JsValue> {
        self.lab
            .add_point([x, y], label)
            .map(|i| i as i32)
            .map_err(js_error)
    }

    /// Moves point `index` to data point (x₁, x₂), exactly.
    pub fn move_point_xy(&mut self, index: usize, x: f64, y: f64) -> Result<(), JsValue> {
        self.lab.move_point(index, [x, y]).map_err(js_error)
    }

    /// Turns point `index` into a test point (held out) or back into a training point.
    pub fn toggle_test(&mut self, index: usize) -> Result<(), JsValue> {
        self.lab.toggle_test(index).map_err(js_error)
    }

    pub fn remove_point(&mut self, index: usize) -> Result<(), JsValue> {
        self.lab.remove_point(index).map_err(js_error)
    }

    /// An interaction ended: refit from scratch if the last fit was warm-started, so the
    /// scene left on screen is exactly the one its link reopens.
    pub fn settle(&mut self) {
        self.lab.settle();
    }

    /// Removes every point.
    pub fn clear(&mut self) {
        self.lab.clear();
    }

    /// Regenerates the preset's points (same preset, size, noise and seed).
    pub fn regenerate(&mut self) {
        self.lab.regenerate();
    }

    /// The first `limit` points as a link writes them (`x,y,label[,t]` joined by `;`,
    /// coordinates as written): what the points table shows and edits.
    pub fn points_text(&self, limit: usize) -> String {
        self.lab.points_text(limit)
    }

    /// How many points the scene has (training and test).
    pub fn point_count(&self) -> usize {
        self.lab.data().len()
    }

    /// Replaces the points by a file's bytes (any encoding, delimiter and columns the command
    /// line reads, or LIBSVM's format) for the scene's task, with `columns` as `--columns`
    /// takes them (`1,2,5`; empty for the defaults); on error (with its line number) nothing
    /// changes. Returns the sentence to show when part of the file was left out, else "".
    pub fn load_file(&mut self, bytes: &[u8], columns: &str) -> Result<String, JsValue> {
        let columns = crate::table::ColumnRef::parse_list(columns).map_err(js_error)?;
        self.lab
            .load_file(bytes, columns.as_deref())
            .map(Option::unwrap_or_default)
            .map_err(js_error)
    }

    /// What the column dialog shows of a file's bytes, as JSON ([`crate::table::Preview`]),
    /// or `null` for a file in LIBSVM's format (it has no columns to choose).
    pub fn file_preview(bytes: &[u8]) -> Result<String, JsValue> {
        let text = crate::table::decode(bytes).map_err(js_error)?;
        if crate::data::is_libsvm(&text) {
            return Ok("null".into());
        }
        // The first rows decide the delimiter, the header and the default columns.
        let end = text
            .match_indices('\n')
            .nth(200)
            .map_or(text.len(), |(at, _)| at);
        let preview = crate::table::Preview::of(&text[..end]).map_err(js_error)?;
        Ok(serde_json::to_string(&preview).unwrap_or_default())
    }

    /// The class buttons: the classes new points may take in increasing order (a button's
    /// place is its class's colour and shape), as JSON `[{"label": -1, "name": "-1"}, …]`
    /// ([`crate::data::Dataset::class_choices`]).
    pub fn class_choices(&mut self) -> String {
        let version = self.lab.version();
        if let Some((shown, json)) = &self.class_choices {
            if *shown == version {
                return json.clone();
            }
        }
        let choices: Vec<Value> = self
            .lab
            .data()
            .class_choices()
            .into_iter()
            .map(|(label, name)| json!({ "label": label, "name": name }))
            .collect();
        let json = Value::from(choices).to_string();
        self.class_choices = Some((version, json.clone()));
        json
    }

    /// How the page names class `label` (`-1`, `setosa`, `class 1`).
    pub fn class_name(&self, label: i32) -> String {
        self.lab.data().class_name(label)
    }

    /// The points as CSV: `x,y,label`, or `x,t` in regression and `x,y` in novelty detection.
    pub fn csv(&self) -> String {
        crate::data::files::to_csv(self.lab.settings().task, self.lab.data())
    }

    /// Fits from nothing (no warm start, no cached kernel columns) and returns the fit's
    /// milliseconds: what the browser benchmark sets beside LIBSVM's own fit.
    pub fn cold_fit_ms(&mut self) -> f64 {
        self.lab.refit_cold();
        self.fit_timed();
        self.last_fit_ms
    }

    /// The points in LIBSVM's format, `label 1:x 2:y` (`t 1:x` in regression).
    pub fn libsvm(&self) -> String {
        crate::data::files::to_libsvm(self.lab.settings().task, self.lab.data())
    }

    /// A Python script that rebuilds the scene with NumPy and scikit-learn
    /// ([`crate::python`]).
    pub fn python(&self) -> String {
        crate::python::script(&self.lab)
    }

    /// The whole scene, every setting and the points with their roles, as a JSON file.
    pub fn scene_json(&self) -> String {
        self.lab
            .settings()
            .to_scene_json(self.lab.data(), self.lab.test())
    }

    /// The URL hash of a scene file, to open it as a link is opened, with the file's
    /// warnings: `{"hash": …, "warnings": […]}`.
    pub fn scene_hash(json: &str) -> Result<String, JsValue> {
        let (settings, (data, test), warnings) =
            crate::state::Settings::from_scene_json(json).map_err(js_error)?;
        Ok(json!({
            "hash": settings.to_hash(Some((&data, &test))),
            "warnings": warnings,
        })
        .to_string())
    }

    /// A shared link read whole before anything of it is opened: `{"left": …, "right": … or
    /// null, "warnings": […]}`, the hashes each side opens and the parts left out; a link that
    /// cannot be read (a damaged part on either side, a newer version) is an error whose
    /// message names why.
    pub fn read_link(hash: &str) -> Result<String, JsValue> {
        let link = crate::link::read(hash).map_err(js_error)?;
        Ok(json!(link).to_string())
    }

    /// The pointer is at canvas pixel (px, py): whether the picture changes (k-NN draws lines
    /// to its neighbours).
    pub fn set_pointer(&mut self, px: f64, py: f64) -> bool {
        let view = self.lab.view();
        let at = self.plot().to_data(&view, px, py);
        let follows = self.follows_pointer();
        self.lab.set_pointer(Some(at), follows)
    }

    /// The pointer left the plot: whether the picture changes.
    pub fn clear_pointer(&mut self) -> bool {
        let follows = self.follows_pointer();
        self.lab.set_pointer(None, follows)
    }

    /// With a worker behind the page: whether its model draws lines to the pointer (so the
    /// page sends it where the pointer is).
    fn follows_pointer(&self) -> bool {
        matches!(&self.remote, Some(Some(r)) if r.frame.get("follows_pointer") == Some(&Value::Bool(true)))
    }

    /// The edits made here since the last call, for the worker's copy: the JSON list it
    /// reads, or nothing when it must take the whole scene ([`App::whole_scene`]).
    pub fn take_edits(&mut self) -> Option<String> {
        let edits = self.lab.take_edits()?;
        Some(serde_json::to_string(&edits).unwrap_or_default())
    }

    /// Stepping through a perceptron or gradient-descent run: back to w = 0.
    pub fn reset_steps(&mut self) {
        self.lab.reset_steps();
    }

    /// One more update; false when the run has ended.
    pub fn step(&mut self) -> bool {
        self.fit_timed();
        self.lab.step()
    }

    /// Leaves stepping: the whole run again.
    pub fn finish_steps(&mut self) {
        self.lab.finish_steps();
    }

    /// Highlights point `index` (−1 for none).
    pub fn set_highlight(&mut self, index: i32) {
        self.lab.highlight = (index >= 0).then_some(index as usize);
    }

    /// What is under canvas pixel (px, py), as JSON: a point's α, y f(x), ξ and KKT case, or
    /// f there.
    ///
    /// With a worker behind the page and no model here, only the point is described: the
    /// model's facts come from the worker (`FrameWorker.inspect` at [`App::query`]).
    pub fn inspect(&mut self, px: f64, py: f64, radius_px: f64) -> String {
        let [x, y, radius] = self.query(px, py, radius_px)[..] else {
            return String::new();
        };
        let info = if self.remote.is_some() && self.lab.needs_fit() {
            self.lab.inspect_point([x, y], radius)
        } else {
            self.fit_timed();
            self.lab.inspect([x, y], radius)
        };
        serde_json::to_string(&info).unwrap_or_default()
    }

    /// Canvas pixel (px, py) and a radius in pixels, in data units: [x₁, x₂, radius].
    pub fn query(&self, px: f64, py: f64, radius_px: f64) -> Vec<f64> {
        let view = self.lab.view();
        let plot = self.plot();
        let at = plot.to_data(&view, px, py);
        vec![at[0], at[1], radius_px * plot.data_per_pixel(&view)]
    }

    /// Refits if anything changed, draws the frame, and returns the status as JSON. With a
    /// worker behind the page ([`App::set_remote`]) nothing is fitted here: the frame is the
    /// worker's latest picture over the points as they are now (see [`App::render_remote`]).
    pub fn render(&mut self) -> Result<String, JsValue> {
        if self.remote.is_some() {
            return self.render_remote();
        }
        let started = now_ms();
        self.fit_timed();
        let refit = std::mem::take(&mut self.fitted_since_frame);
        let fitted = now_ms();
        let layout = self.layout();
        let scene = self.lab.scene(&layout);
        let computed = now_ms();
        self.paint_white(&layout);
        if let Some(grid) =
            scene::region_grid(&scene).filter(|_| self.lab.settings().layers().on("regions"))
        {
            let (cols, rows) = (grid.cols as u32, grid.rows as u32);
            self.paint_regions(
                &scene::field_image_rgba(&scene, cols, rows),
                cols,
                rows,
                &layout,
            )?;
        }
        let painted = now_ms();
        self.discs_key = None;
        self.draw_overlay(&scene, &layout, false, started)?;
        let drawn = now_ms();
        let regions =
            self.lab.settings().layers().on("regions") && scene::region_grid(&scene).is_some();
        let legend = self.lab.legend(&scene, regions);
        let status = self.lab.status();
        let statused = now_ms();
        let timings = Timings {
            fit_ms: self.last_fit_ms,
            draw_ms: drawn - fitted,
            status_ms: statused - drawn,
            scene_ms: computed - fitted,
            regions_ms: painted - computed,
            overlay_ms: drawn - painted,
            refit,
            exact_nodes: exact_nodes(&scene),
        };
        let mut frame = frame_fields(&status, &timings, &self.lab.warnings);
        frame.insert("legend".into(), json!(legend));
        // The whole of this call: fit, picture, status and this JSON.
        frame.insert("frame_ms".into(), json!(now_ms() - started));
        Ok(Value::Object(frame).to_string())
    }

    /// Hands the plane's fitting and field to a worker behind the page (or takes them back):
    /// from then on the page sends its edits there and adopts what comes back
    /// ([`App::adopt_frame`]).
    pub fn set_remote(&mut self, on: bool) {
        self.remote = on.then_some(None);
        // What was painted last may be this page's own picture: nothing is taken as painted.
        self.painted = None;
        self.painted_scene = None;
        self.discs_key = None;
    }

    /// Whether the points' discs are still being painted (a large scene's take a few frames):
    /// the page then draws another frame.
    pub fn painting(&self) -> bool {
        self.discs.incomplete() || matches!(self.painted_scene, Some((_, false)))
    }

    /// The fingerprint of the scene (decimal): a worker whose copy has another asks for the
    /// whole scene.
    pub fn fingerprint(&self) -> String {
        self.lab.fingerprint().to_string()
    }

    /// The edit that gives a worker this whole scene, as JSON.
    pub fn whole_scene(&self) -> String {
        serde_json::to_string(&self.lab.whole_scene()).unwrap_or_default()
    }

    /// Adopts a worker's frame (JSON from `FrameWorker.frame`, and its regions image); returns
    /// whether it is for the scene as it stands here (false: the model is a step behind).
    pub fn adopt_frame(&mut self, json: &str, regions: Vec<u8>) -> Result<bool, JsValue> {
        let WorkerFrame {
            frame,
            scene: fresh,
            cols,
            rows,
        } = serde_json::from_str(json).map_err(js_error)?;
        let current =
            frame.get("fingerprint").and_then(Value::as_str) == Some(self.fingerprint().as_str());
        let previous = self.remote.take().flatten();
        let remote = match (fresh, previous) {
            (Some(scene), _) => Remote {
                scene,
                regions,
                cols,
                rows,
                frame,
            },
            (None, Some(previous)) => Remote { frame, ..previous },
            (None, None) => Remote {
                scene: scene::Scene::default(),
                regions,
                cols,
                rows,
                frame,
            },
        };
        self.remote = Some(Some(remote));
        self.generation += 1;
        Ok(current)
    }

    /// The frame with a worker behind the page: its latest picture of the model over the
    /// points as they are now, and its status; an empty string until its first frame.
    fn render_remote(&mut self) -> Result<String, JsValue> {
        let started = now_ms();
        let layout = self.layout();
        let Some(Some(remote)) = &self.remote else {
            // Nothing from the worker yet: the points alone.
            let scene = self.lab.over_points(None);
            self.paint_white(&layout);
            self.discs_key = None;
            self.draw_overlay(&scene, &layout, false, started)?;
            return Ok(String::new());
        };
        // What the picture shows: the worker's latest model and the points as they are. A
        // frame that would paint the same picture again (a slider moved, the model not back
        // yet) paints nothing, leaving both threads to the work that changes it.
        let shown = self
            .lab
            .picture_fingerprint(layout.width, layout.height, self.generation);
        if let Some((key, frame)) = &self.painted {
            if *key == shown && !self.painting() {
                let mut frame = frame.clone();
                let behind = frame.get("fingerprint").and_then(Value::as_str)
                    != Some(self.fingerprint().as_str());
                frame.insert("behind".into(), json!(behind));
                frame.insert("page_fits".into(), json!(self.lab.fits()));
                return Ok(Value::Object(frame).to_string());
            }
        }
        let same_picture = matches!(&self.painted, Some((key, _)) if *key == shown);
        let (scene, listed) = match self.painted_scene.take() {
            Some(kept) if same_picture => kept,
            _ => (self.lab.over_points(Some(&remote.scene)), false),
        };
        let composed = now_ms();
        // A scene of very many points is composed (and its legend made) in one frame and
        // drawn from the next: each walks every point, and together they would hold the page
        // longer than a frame should. The canvas shows the last picture meanwhile.
        let draw_now = same_picture || scene.points.len() < COMPOSE_APART_FROM;
        // The model's regions, unless its window is no longer the points' (then the scene
        // has no model parts either).
        let model_drawn = scene.view == remote.scene.view;
        let regions = model_drawn && remote.cols > 0 && self.lab.settings().layers().on("regions");
        if draw_now {
            self.paint_white(&layout);
            if regions {
                self.paint_regions(&remote.regions, remote.cols, remote.rows, &layout)?;
            }
        }
        let painted = now_ms();
        let mut frame = remote.frame.clone();
        if draw_now {
            let key = self.discs_key(&scene, &layout);
            let same_discs = listed || self.discs_key == Some(key);
            self.draw_overlay(&scene, &layout, same_discs, started)?;
            self.discs_key = Some(key);
        }
        let drawn = now_ms();
        let behind =
            frame.get("fingerprint").and_then(Value::as_str) != Some(self.fingerprint().as_str());
        // The legend walks every point: a frame that paints the same picture again (a large
        // scene's discs, a share per frame) keeps the one it had.
        let legend = match &self.painted {
            Some((key, old)) if *key == shown => old.get("legend").cloned(),
            _ => None,
        }
        .unwrap_or_else(|| json!(self.lab.legend(&scene, regions)));
        frame.insert("legend".into(), legend);
        frame.insert("remote".into(), json!(true));
        frame.insert("page_fits".into(), json!(self.lab.fits()));
        frame.insert("behind".into(), json!(behind));
        frame.insert("compose_ms".into(), json!(composed - started));
        frame.insert("regions_ms".into(), json!(painted - composed));
        frame.insert("overlay_ms".into(), json!(drawn - painted));
        frame.insert("paint_ms".into(), json!(now_ms() - started));
        // The problems of the link the page opened (the worker got the scene, not the link).
        frame.insert("warnings".into(), json!(self.lab.warnings));
        self.painted = Some((shown, frame.clone()));
        // Kept while its discs are still to be listed or composited.
        self.painted_scene = (!draw_now || self.discs.incomplete()).then_some((scene, draw_now));
        Ok(Value::Object(frame).to_string())
    }

    /// Draws view `view_id` on the canvas with id `canvas_id`; returns the view's note.
    pub fn render_view(&mut self, canvas_id: &str, view_id: &str) -> Result<String, JsValue> {
        let view = views::view(view_id).map_err(js_error)?;
        let canvas = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(canvas_id))
            .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
            .ok_or_else(|| js_error(format!("no canvas with id '{canvas_id}'")))?;
        let (width, height) = (canvas.width(), canvas.height());
        let type_px = self.plane_type_on(&canvas);
        self.view_type = Some((width, height, type_px));
        let layout = view.layout(width, height, type_px);
        let shown = (
            view.id().to_string(),
            self.figures_adopted,
            self.lab.highlight,
            self.lab.orbit,
            (layout.width, layout.height),
            layout.font_px.to_bits(),
        );
        let behind = self.remote.is_some() && computed_behind(view);
        match &self.view_painted {
            Some((painted, note)) if behind && *painted == shown => return Ok(note.clone()),
            _ => self.view_painted = None,
        }
        let Some(figure) = self.view_figure(view, &layout) else {
            let context = context(&canvas)?;
            context.set_fill_style_str("#ffffff");
            context.fill_rect(0.0, 0.0, layout.width as f64, layout.height as f64);
            return Ok(format!(
                "{} is being computed behind the page…",
                view.title()
            ));
        };
        let backend = CanvasBackend::with_canvas_object(canvas)
            .ok_or_else(|| js_error("cannot draw on the canvas"))?;
        views::draw(PageBackend::Canvas(backend), &figure, &layout, &self.lab).map_err(js_error)?;
        let note = figure.note().to_string();
        if behind {
            self.view_painted = Some((shown, note.clone()));
        }
        Ok(note)
    }

    /// Whether view `view_id`'s figure comes from the worker behind the page (the page then
    /// asks for it with `FrameWorker.figure` and adopts it with [`App::adopt_figure`]).
    pub fn view_computed_behind(&self, view_id: &str) -> bool {
        self.remote.is_some() && views::view(view_id).is_ok_and(computed_behind)
    }

    /// Adopts a figure the worker computed for view `view_id` (bytes from
    /// `FrameWorker.figure`); returns whether it is one.
    pub fn adopt_figure(&mut self, view_id: &str, bytes: &[u8]) -> bool {
        match Figure::from_bytes(bytes) {
            Some(figure) => {
                self.remote_figure = Some((view_id.to_string(), figure));
                self.figures_adopted += 1;
                true
            }
            None => false,
        }
    }

    /// View `view_id` (empty: the plot itself) as an SVG document of `width` × `height`,
    /// drawn by the same code as the command line's `render --out F.svg` (the regions are one
    /// embedded PNG image).
    pub fn svg(&mut self, view_id: &str, width: u32, height: u32) -> Result<String, JsValue> {
        let view = if view_id.is_empty() {
            VIEWS[0]
        } else {
            views::view(view_id).map_err(js_error)?
        };
        let (width, height) = (width.clamp(64, 8192), height.clamp(64, 8192));
        let layout = self.view_layout(view, width, height);
        self.fit_timed();
        let figure = self.figures.figure(view, &mut self.lab, &layout).clone();
        crate::svg::document(width, height, |backend| {
            views::draw(PageBackend::Svg(backend), &figure, &layout, &self.lab)
        })
        .map_err(js_error)
    }

    /// The tuning parameter moved last, which a worker's copy of the lab must follow too.
    pub fn last_tuned(&self) -> String {
        self.lab.last_tuned().unwrap_or_default().to_string()
    }

    /// The signature of the background job view `view_id` shows, as the scene stands (empty
    /// when it shows none): a Web Worker's results are adopted only for this signature.
    pub fn view_job_signature(&mut self, view_id: &str) -> String {
        let Some(which) = views::view(view_id).ok().and_then(|v| v.job()) else {
            return String::new();
        };
        self.lab.job_progress(which).0.to_string()
    }

    /// How far view `view_id`'s background job has got, as [finished cells, all cells] (empty
    /// for a view without one), for the page's progress bar.
    pub fn view_progress(&mut self, view_id: &str) -> Vec<f64> {
        let Some(which) = views::view(view_id).ok().and_then(|v| v.job()) else {
            return Vec::new();
        };
        let progress = self.lab.job_progress(which).1;
        let (finished, all) = progress.counts();
        // A job stopped by a problem (it says which) has nothing left to wait for.
        let finished = if progress.done() { all } else { finished };
        vec![finished as f64, all as f64]
    }

    /// Adopts what a Web Worker computed for view `view_id`'s job (JSON from
    /// `GridWorker.state`); returns whether it was for the scene as it stands.
    pub fn adopt(&mut self, view_id: &str, state: &str) -> bool {
        let Some(which) = views::view(view_id).ok().and_then(|v| v.job()) else {
            return false;
        };
        let Ok(state) = serde_json::from_str::<WorkerState>(state) else {
            return false;
        };
        let Ok(signature) = state.signature.parse::<u64>() else {
            return false;
        };
        self.lab.adopt_job(which, signature, state.progress)
    }

    /// Works on view `view_id`'s figure (a cross-validation grid) for about `budget_ms`
    /// milliseconds; returns whether work remains.
    pub fn view_work(&mut self, view_id: &str, budget_ms: f64) -> bool {
        let Ok(view) = views::view(view_id) else {
            return false;
        };
        let start = now_ms();
        while view.work(&mut self.lab, 1) {
            if now_ms() - start >= budget_ms {
                return true;
            }
        }
        view.pending(&mut self.lab)
    }

    /// What hovering pixel (px, py) of view `view_id` on a canvas `width` × `height` shows
    /// (a heat-map cell's scores), or an empty string.
    pub fn view_hover(
        &mut self,
        view_id: &str,
        width: u32,
        height: u32,
        px: f64,
        py: f64,
    ) -> String {
        let Ok(view) = views::view(view_id) else {
            return String::new();
        };
        let layout = self.view_layout(view, width, height);
        match self.view_figure(view, &layout) {
            Some(Figure::Chart(chart)) => chart.text_at(&layout, px, py),
            _ => String::new(),
        }
    }

    /// A click at pixel (px, py) of view `view_id`: a heat-map cell sets its parameter values,
    /// a chart whose x axis is a parameter sets that parameter.
    /// Returns whether any setting changed.
    pub fn view_click(
        &mut self,
        view_id: &str,
        width: u32,
        height: u32,
        px: f64,
        py: f64,
    ) -> Result<bool, JsValue> {
        let Ok(view) = views::view(view_id) else {
            return Ok(false);
        };
        let layout = self.view_layout(view, width, height);
        let settings = match self.view_figure(view, &layout) {
            Some(Figure::Chart(chart)) => chart.settings_at(&layout, px, py),
            _ => Vec::new(),
        };
        self.lab.set_all(&settings).map_err(js_error)
    }

    /// Where training point `index`'s mark in view `view_id` is on a canvas `width` ×
    /// `height`, as [px, py], or empty (for the tests, which hover it as a person would).
    pub fn view_mark_pixel(
        &mut self,
        view_id: &str,
        width: u32,
        height: u32,
        index: usize,
    ) -> Vec<f64> {
        let Ok(view) = views::view(view_id) else {
            return Vec::new();
        };
        let layout = self.view_layout(view, width, height);
        match self.view_figure(view, &layout) {
            Some(Figure::Chart(chart)) => chart
                .tick_pixel(&layout, index)
                .map_or(Vec::new(), |(x, y)| vec![x, y]),
            _ => Vec::new(),
        }
    }

    /// The training point whose mark in view `view_id` is under pixel (px, py) of a canvas
    /// `width` × `height`, or −1.
    pub fn view_point_at(
        &mut self,
        view_id: &str,
        width: u32,
        height: u32,
        px: f64,
        py: f64,
        radius_px: f64,
    ) -> i32 {
        let Ok(view) = views::view(view_id) else {
            return -1;
        };
        let layout = self.view_layout(view, width, height);
        match self.view_figure(view, &layout) {
            Some(Figure::Chart(chart)) => chart
                .tick_at(&layout, px, py, radius_px)
                .map_or(-1, |i| i as i32),
            _ => -1,
        }
    }

    /// A drag of (dx, dy) pixels over view `view_id` on a canvas `width` wide (or an arrow
    /// key's worth): turns a 3-D view. Returns whether the picture changes.
    pub fn view_drag(&mut self, view_id: &str, width: u32, dx: f64, dy: f64) -> bool {
        views::view(view_id).is_ok_and(|view| view.drag(&mut self.lab, width, dx, dy))
    }

    /// View `view`'s figure for `layout`. With a worker behind the page the page never fits:
    /// a view drawn from a background job is drawn from the results adopted so far, any other
    /// from the worker's latest figure for it (the model may be a step behind, as the
    /// plane's; the highlight is the page's own), and `None` until the first arrives.
    fn view_figure(&mut self, view: &dyn views::ViewKind, layout: &Layout) -> Option<Figure> {
        if self.remote.is_none() {
            self.fit_timed();
            return Some(self.figures.figure(view, &mut self.lab, layout).clone());
        }
        if !computed_behind(view) {
            return Some(
                self.figures
                    .figure_as_is(view, &mut self.lab, layout)
                    .clone(),
            );
        }
        let (id, figure) = self.remote_figure.as_ref()?;
        let mut figure = (id == view.id()).then(|| figure.clone())?;
        if let Figure::Chart(chart) = &mut figure {
            if !chart.rug.is_empty() {
                chart.highlight = self.lab.highlight;
            }
        }
        Some(figure)
    }

    /// The plane's tick labels' size in the pixels of `canvas` (a view's): the plane's type
    /// in its own canvas's pixels, taken to CSS pixels and from them to `canvas`'s, so a view
    /// drawn at any scale reads at least as large on the screen as the plane.
    fn plane_type_on(&self, canvas: &HtmlCanvasElement) -> f64 {
        // Pixels of a canvas per CSS pixel (1 while it is not laid out).
        let scale = |c: &HtmlCanvasElement| {
            let shown = c.client_width();
            if shown > 0 {
                c.width() as f64 / shown as f64
            } else {
                1.0
            }
        };
        self.layout().font_px / scale(&self.canvas) * scale(canvas)
    }

    /// View `view`'s layout on a canvas `width` × `height`: with the type the view canvas
    /// was last drawn with when it has that size, else the plane's at the same scale.
    fn view_layout(&self, view: &dyn views::ViewKind, width: u32, height: u32) -> Layout {
        let type_px = match self.view_type {
            Some((w, h, type_px)) if (w, h) == (width, height) => type_px,
            _ => self.layout().font_px,
        };
        view.layout(width, height, type_px)
    }

    /// Fits if anything changed, timing it.
    fn fit_timed(&mut self) {
        if self.lab.needs_fit() {
            let start = now_ms();
            self.lab.fit();
            self.last_fit_ms = now_ms() - start;
            self.fitted_since_frame = true;
        }
    }

    fn paint_white(&self, layout: &Layout) {
        self.context.set_fill_style_str("#ffffff");
        self.context
            .fill_rect(0.0, 0.0, layout.width as f64, layout.height as f64);
    }

    /// The decision regions, an RGBA image of `cols` × `rows` covering the plotted square,
    /// blitted scaled.
    fn paint_regions(
        &self,
        rgba: &[u8],
        cols: u32,
        rows: u32,
        layout: &Layout,
    ) -> Result<(), JsValue> {
        if rgba.len() != (cols * rows * 4) as usize || cols == 0 {
            return Ok(());
        }
        if self.field_canvas.width() != cols || self.field_canvas.height() != rows {
            self.field_canvas.set_width(cols);
            self.field_canvas.set_height(rows);
        }
        let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(rgba), cols, rows)?;
        self.field_context.put_image_data(&image, 0.0, 0.0)?;
        let ctx = &self.context;
        ctx.set_image_smoothing_enabled(true);
        let plot = layout.plot;
        ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
            &self.field_canvas,
            plot.left,
            plot.top,
            plot.width,
            plot.height,
        )?;
        Ok(())
    }

    /// What a scene's discs are listed from: its points, their roles and colours and the
    /// highlight and layers (the picture's fingerprint without its model), its window and
    /// the canvas.
    fn discs_key(&self, scene: &scene::Scene, layout: &Layout) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.lab
            .picture_fingerprint(layout.width, layout.height, 0)
            .hash(&mut h);
        scene
            .view
            .map(|v| [v.x_min, v.x_max, v.y_min, v.y_max].map(f64::to_bits))
            .hash(&mut h);
        h.finish()
    }

    /// Axes, curves, marks and points through plotters, over what is painted; the points'
    /// discs are stamped (see the `discs` module and `scene::Discs`). With `same_discs` the
    /// caller knows the discs are the last frame's (the same points, roles, window and
    /// canvas), and they are not listed again. `started`: when the frame began (`now_ms`).
    fn draw_overlay(
        &mut self,
        scene: &scene::Scene,
        layout: &Layout,
        same_discs: bool,
        started: f64,
    ) -> Result<(), JsValue> {
        let backend = CanvasBackend::with_canvas_object(self.canvas.clone())
            .ok_or_else(|| js_error("cannot draw on the canvas"))?;
        let layers = self.lab.settings().layers();
        let size = (self.canvas.width(), self.canvas.height());
        let (painter, context) = (&mut self.discs, &self.context);
        let mut stamp = |discs: &dyn Fn() -> Vec<discs::Disc>| -> Result<(), crate::error::Error> {
            let painted = match same_discs {
                true => painter.repaint(context, size, layout, started),
                false => Ok(false),
            }
            .and_then(|done| match done {
                true => Ok(()),
                false => painter.paint(context, size, discs(), layout, started),
            });
            painted.map_err(|e| crate::error::Error::Draw(format!("{e:?}")))
        };
        scene::draw_with(
            PageBackend::Canvas(backend),
            scene,
            layout,
            &layers,
            false,
            scene::Discs::Stamped(&mut stamp),
        )
        .map_err(js_error)
    }
}

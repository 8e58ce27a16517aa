//! The browser's door into the lab, and the only code that knows about wasm-bindgen, web-sys
//! and js-sys. JavaScript holds one [`Lab`] (`web/lab.rs`), both sides of a comparison, each
//! an [`App`] on its canvas; points and fits stay in wasm memory, and only small values cross:
//! pixel positions in, short strings and JSON out. Errors cross once, as their message text.
//! Here: the [`App`], its settings and the catalogue the page builds its controls from.
//! Beside it: the plane's pointer and points (`web/points.rs`), a frame of the plane
//! (`web/frame.rs`), the views' figures (`web/figures.rs`), the worker's side of the lab
//! (`web/worker.rs`), the stamped discs (`web/discs.rs`) and large files (`web/loading.rs`).

use crate::core::field::PixelRect;
use crate::draw::scene::{self, Layout};
use crate::lab::playground::{Playground, PointsKey, Session, Status};
use crate::methods::registry::METHODS;
use crate::methods::table::rows;
use crate::views::{self, Cache, Figure, VIEWS};
use serde::Serialize;
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

mod backend;
mod discs;
mod figures;
mod frame;
pub mod lab;
mod loading;
mod points;
mod worker;

use crate::lab::comparison::SideOf;
use backend::PageBackend;
pub use loading::PackedPoints;
use worker::{computed_behind, exact_nodes, WorkerFrame, WorkerState};

fn js_error(e: impl ToString) -> JsValue {
    JsValue::from(e.to_string())
}

/// From this many points on, a new scene is composed in one frame and drawn from the next
/// (see [`App::render_remote`]).
const COMPOSE_APART_FROM: usize = 100_000;

/// The clock, in a page or in a worker (which has no window but has `performance`).
/// Found once: a frame reads the clock a dozen times, and finding `performance` each time (a
/// name written into JavaScript and looked up) cost more than reading it.
fn now_ms() -> f64 {
    thread_local! {
        static CLOCK: Option<web_sys::Performance> =
            js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
                .ok()
                .and_then(|p| p.dyn_into::<web_sys::Performance>().ok());
    }
    CLOCK.with(|clock| clock.as_ref().map_or_else(js_sys::Date::now, |p| p.now()))
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
    /// A draft picture: the field on a coarser grid (`Layout::draft`).
    draft: bool,
    /// Its level: 0 for the full picture, 1 for half as many intervals a side, 2 a third.
    draft_level: u8,
    /// The picture was computed for this frame (not found at hand): `scene_ms` is its cost.
    computed: bool,
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

    /// The browser's PNG file of an RGB bitmap, in base64 (www/main.js), for "Save SVG": the
    /// module then carries no PNG encoder of its own.
    #[wasm_bindgen(js_namespace = globalThis, js_name = kernelPlaygroundPng, catch)]
    fn browser_png(rgb: &[u8], width: u32, height: u32) -> Result<String, JsValue>;
}

/// One side of the page's lab on its canvas: its session and what draws it. The page holds
/// both sides through one [`Lab`].
pub struct App {
    /// The lab, which records its edits for the worker behind the page.
    lab: Session,
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    /// Off-screen canvases at the field grid's sizes; drawn scaled onto the plot.
    fields: frame::FieldCanvases,
    last_fit_ms: f64,
    /// A fit has happened since the last frame was drawn.
    fitted_since_frame: bool,
    /// The figures of the views beside the plane.
    figures: Cache,
    /// With a worker behind the page: the plane's model is fitted and pictured there, and
    /// this holds its latest picture (`None` inside until the first arrives).
    remote: Option<Option<Remote>>,
    /// The page's own last picture, when it fits the plane itself: kept for a worker that
    /// takes the plane back ([`App::hand_back`]).
    own: Option<Remote>,
    /// The points' discs: their stamps, and the layer painted last.
    discs: discs::DiscPainter,
    /// How many frames the worker has sent.
    generation: u64,
    /// The picture painted last from them (`Playground::picture_fingerprint`) and its frame.
    painted: Option<(u64, Map<String, Value>)>,
    /// That picture's scene, with what its points' parts were composed for, kept while a
    /// large scene's discs are still to be listed (`false`) or are being painted (a share per
    /// frame), so those frames do not compose every point again (nor does a new model that
    /// comes meanwhile: it takes the points from it, as from `spare_scene`).
    painted_scene: Option<(PointsKey, scene::Scene, bool)>,
    /// The last scene composed over the worker's model once it is painted, with what its
    /// points' parts were composed for: the next model over the same points takes them
    /// from it (`Playground::over_points_reusing`) rather than copying every point again.
    spare_scene: Option<(PointsKey, scene::Scene)>,
    /// The points' part of the next scene while it is copied a share at a time, with what it
    /// is copied from ([`App::prepare_points`]).
    copying: Option<(PointsKey, scene::Scene)>,
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
    /// The draft level of the page's own frames ([`App::set_draft`]; 0: the full picture).
    draft: u8,
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
    crate::lab::playground::Orbit,
    (u32, u32),
    u64,
);

impl App {
    /// Opens the scene described by `hash` (a URL hash; empty for the default scene) on the
    /// canvas with id `canvas_id`; a hash that cannot be read whole is refused, its message
    /// naming why (see [`App::read_link`]).
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
        let lab = Session::new(Playground::open(hash).map_err(js_error)?);
        Ok(App {
            lab,
            context: context(&canvas)?,
            canvas,
            fields: frame::FieldCanvases::new(&document)?,
            last_fit_ms: 0.0,
            fitted_since_frame: false,
            figures: Cache::default(),
            remote: None,
            own: None,
            discs: discs::DiscPainter::default(),
            generation: 0,
            painted: None,
            painted_scene: None,
            spare_scene: None,
            copying: None,
            discs_key: None,
            remote_figure: None,
            figures_adopted: 0,
            view_painted: None,
            draft: 0,
            class_choices: None,
            view_type: None,
        })
    }

    /// The pictures' headlines in the page's language from now on: each is handed to
    /// `globalThis.kernelPlaygroundSay` (www/i18n.js) before it is broken into lines.
    pub fn translate_pictures() {
        crate::core::words::set_translator(page_says);
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
        let mut params: Vec<Value> = rows()
            .iter()
            .map(|p| {
                let mut row = serde_json::to_value(p).unwrap_or_default();
                row["id"] = json!(crate::methods::table::row_id(p));
                if let Some(readers) = crate::methods::table::own_readers(p) {
                    row["readers"] = json!(readers.iter().map(|m| m.id()).collect::<Vec<_>>());
                }
                if let crate::core::params::Kind::Choice { options } = p.kind {
                    row["options"] = json!(options);
                }
                row
            })
            .collect();
        // The learning curves' second method: a menu of the registry's methods.
        let others = crate::methods::registry::methods_of(crate::core::task::Task::Classification)
            .map(|m| json!({ "value": m.id(), "label": m.title(), "explain": m.explain() }));
        params.push(json!({
            "key": crate::lab::state::LEARN_VS_KEY,
            "id": crate::lab::state::LEARN_VS_KEY,
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
        let examples: Vec<Value> = crate::lab::examples::EXAMPLES
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
        let tasks: Vec<Value> = crate::core::task::Task::ALL
            .into_iter()
            .filter(|&t| crate::methods::registry::methods_of(t).next().is_some())
            .map(|t| json!({ "id": t.id(), "title": t.title(), "explain": t.explain() }))
            .collect();
        let preset_tasks: serde_json::Map<String, Value> = crate::core::data::Preset::ALL
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
        settings
            .values
            .row(key)
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

    /// What an svm-train option string (`-s 3 -t 2 -c 10`) asks of this side, checked but not
    /// applied: `{"edits": [[key, value], …], "notes": […]}`, the settings to apply in order
    /// and what was read past ([`crate::lab::options`]); a string that cannot be read is an error.
    pub fn read_svm_options(&self, text: &str) -> Result<String, JsValue> {
        let options = crate::lab::options::read(text, self.lab.settings()).map_err(js_error)?;
        Ok(json!({ "edits": options.edits, "notes": options.notes }).to_string())
    }

    /// The settings as svm-train options, or `{"why": …}` when they are not one of LIBSVM's
    /// models: `{"options": "-s 0 -t 2 …"}`.
    pub fn svm_options(&self) -> String {
        match crate::lab::options::write(self.lab.settings()) {
            Ok(options) => json!({ "options": options }),
            Err(why) => json!({ "why": why }),
        }
        .to_string()
    }

    /// This side's scene as its own link (without the other side's settings): what a view's
    /// background job in the worker opens.
    pub fn side_hash(&self) -> String {
        self.lab.hash()
    }

    /// A setting's value, as written in the URL.
    pub fn get(&self, key: &str) -> String {
        self.lab.settings().get(key).unwrap_or_default()
    }
}

impl SideOf for App {
    /// The canvas's id.
    type Place = String;

    fn open(canvas_id: &String, hash: &str) -> Result<App, String> {
        App::new(canvas_id, hash).map_err(|e| e.as_string().unwrap_or_default())
    }

    fn session(&self) -> &Session {
        &self.lab
    }

    fn session_mut(&mut self) -> &mut Session {
        &mut self.lab
    }
}

//! The plane's pointer and points: pixels to data and back, editing the points (each edit
//! recorded by the session for the worker), files and links in and out, the pointer that the
//! regression readout follows, stepping through a run, and the hover readout.

use super::*;

impl App {
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

    /// Point `index` as [x₁, x₂] (empty if there is none).
    pub fn point_xy(&self, index: usize) -> Vec<f64> {
        self.lab
            .data()
            .points
            .get(index)
            .map_or_else(Vec::new, |p| p.to_vec())
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

    /// What the column dialog shows of a file's bytes, as JSON ([`crate::core::table::Preview`]),
    /// or `null` for a file in LIBSVM's format (it has no columns to choose).
    pub fn file_preview(bytes: &[u8]) -> Result<String, JsValue> {
        let text = crate::core::table::decode(bytes).map_err(js_error)?;
        if crate::core::data::is_libsvm(&text) {
            return Ok("null".into());
        }
        // The first rows decide the delimiter, the header and the default columns.
        let end = text
            .match_indices('\n')
            .nth(200)
            .map_or(text.len(), |(at, _)| at);
        let preview = crate::core::table::Preview::of(&text[..end]).map_err(js_error)?;
        Ok(serde_json::to_string(&preview).unwrap_or_default())
    }

    /// The class buttons: the classes new points may take in increasing order (a button's
    /// place is its class's colour and shape), as JSON `[{"label": -1, "name": "-1"}, …]`
    /// ([`crate::core::data::Dataset::class_choices`]).
    pub fn class_choices(&mut self) -> String {
        let version = self.lab.version();
        if let Some((shown, json)) = &self.class_choices {
            if *shown == version {
                return json.clone();
            }
        }
        let choices: Vec<Value> = self
            .lab
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
        crate::core::data::files::to_csv(self.lab.settings().task, self.lab.data())
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
        crate::core::data::files::to_libsvm(self.lab.settings().task, self.lab.data())
    }

    /// A Python script that rebuilds the scene with NumPy and scikit-learn
    /// ([`crate::draw::python`]).
    pub fn python(&self) -> String {
        crate::draw::python::script(&self.lab)
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
            crate::lab::state::Settings::from_scene_json(json).map_err(js_error)?;
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
        let link = crate::lab::link::read(hash).map_err(js_error)?;
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
}

impl App {
    pub(super) fn layout(&self) -> Layout {
        Layout::new(self.canvas.width(), self.canvas.height())
    }

    pub(super) fn plot(&self) -> PixelRect {
        self.layout().plot
    }

    /// The data point under a pixel, inside the plotted square and snapped to the decimal
    /// grid just finer than a pixel.
    pub(crate) fn clamped_data(&self, px: f64, py: f64) -> [f64; 2] {
        let view = self.lab.view();
        let plot = self.plot();
        let p = plot.snapped(&view, plot.to_data(&view, px, py));
        [
            p[0].clamp(view.x_min, view.x_max),
            p[1].clamp(view.y_min, view.y_max),
        ]
    }

    /// With a worker behind the page: whether its model draws lines to the pointer (so the
    /// page sends it where the pointer is).
    pub(super) fn follows_pointer(&self) -> bool {
        matches!(&self.remote, Some(Some(r)) if r.frame.get("follows_pointer") == Some(&Value::Bool(true)))
    }
}

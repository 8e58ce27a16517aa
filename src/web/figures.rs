//! The views beside the plane: their figures drawn (on the page or adopted from the worker),
//! their background work in slices, and their hovers, clicks and drags mapped back to the
//! lab.

use super::*;
use crate::views::chart::Chart;

impl App {
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
        views::draw(PageBackend::on_canvas(canvas)?, &figure, &layout, &self.lab)
            .map_err(js_error)?;
        let note = figure.note_in(&layout);
        if behind {
            self.view_painted = Some((shown, note.clone()));
        }
        Ok(note)
    }

    /// Whether view `view_id`'s figure comes from the worker behind the page when one fits the
    /// plane (the page then asks for it with `FrameWorker.figure` and adopts it with
    /// [`App::adopt_figure`]).
    pub fn view_computed_behind(&self, view_id: &str) -> bool {
        views::view(view_id).is_ok_and(computed_behind)
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
    /// embedded PNG image, which the browser writes).
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
        let png = |width: u32, height: u32, rgb: &[u8]| {
            browser_png(rgb, width, height).map_err(|_| {
                crate::core::error::Error::Draw(
                    "the browser could not write the regions as PNG".into(),
                )
            })
        };
        crate::draw::svg::document_with(width, height, &png, |backend| {
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
        let Some(kind) = views::view(view_id).ok().and_then(|v| v.job()) else {
            return String::new();
        };
        self.lab.job_state(kind).signature.to_string()
    }

    /// How far view `view_id`'s background job has got, as [finished cells, all cells] (empty
    /// for a view without one), for the page's progress bar.
    pub fn view_progress(&mut self, view_id: &str) -> Vec<f64> {
        let Some(kind) = views::view(view_id).ok().and_then(|v| v.job()) else {
            return Vec::new();
        };
        let state = self.lab.job_state(kind);
        // A job stopped by a problem (it says which) has nothing left to wait for.
        let finished = if state.complete {
            state.all
        } else {
            state.finished
        };
        vec![finished as f64, state.all as f64]
    }

    /// Adopts what a Web Worker computed for view `view_id`'s job (JSON from
    /// `GridWorker.state`); returns whether it was for the scene as it stands.
    pub fn adopt(&mut self, view_id: &str, state: &str) -> bool {
        let Some(kind) = views::view(view_id).ok().and_then(|v| v.job()) else {
            return false;
        };
        let Ok(state) = serde_json::from_str::<WorkerState>(state) else {
            return false;
        };
        let Ok(signature) = state.signature.parse::<u64>() else {
            return false;
        };
        self.lab.adopt_job(kind, signature, &state.progress)
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
        self.chart_of(view_id, width, height)
            .map_or_else(String::new, |(chart, layout)| {
                chart.text_at(&layout, px, py)
            })
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
        let settings = self
            .chart_of(view_id, width, height)
            .map_or_else(Vec::new, |(chart, layout)| {
                chart.settings_at(&layout, px, py)
            });
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
        self.chart_of(view_id, width, height)
            .and_then(|(chart, layout)| chart.tick_pixel(&layout, index))
            .map_or(Vec::new(), |(x, y)| vec![x, y])
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
        self.chart_of(view_id, width, height)
            .and_then(|(chart, layout)| chart.tick_at(&layout, px, py, radius_px))
            .map_or(-1, |i| i as i32)
    }

    /// A drag of (dx, dy) pixels over view `view_id` on a canvas `width` wide (or an arrow
    /// key's worth): turns a 3-D view. Returns whether the picture changes.
    pub fn view_drag(&mut self, view_id: &str, width: u32, dx: f64, dy: f64) -> bool {
        views::view(view_id).is_ok_and(|view| view.drag(&mut self.lab, width, dx, dy))
    }
}

impl App {
    /// View `view_id`'s figure on a canvas `width` × `height` when it is a chart, with the
    /// chart's layout: what a hover, a click or a mark of a view is looked up in.
    fn chart_of(&mut self, view_id: &str, width: u32, height: u32) -> Option<(Box<Chart>, Layout)> {
        let view = views::view(view_id).ok()?;
        let layout = self.view_layout(view, width, height);
        match self.view_figure(view, &layout)? {
            Figure::Chart(chart) => Some((chart, layout)),
            _ => None,
        }
    }

    /// View `view`'s figure for `layout`. While a worker fits the plane the page does not:
    /// a view drawn from a background job is drawn from the results adopted so far, any other
    /// from the worker's latest figure for it (the model may be a step behind, as the
    /// plane's; the highlight is the page's own), and `None` until the first arrives.
    pub(super) fn view_figure(
        &mut self,
        view: &dyn views::ViewKind,
        layout: &Layout,
    ) -> Option<Figure> {
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
    pub(super) fn plane_type_on(&self, canvas: &HtmlCanvasElement) -> f64 {
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
    pub(super) fn view_layout(
        &self,
        view: &dyn views::ViewKind,
        width: u32,
        height: u32,
    ) -> Layout {
        let type_px = match self.view_type {
            Some((w, h, type_px)) if (w, h) == (width, height) => type_px,
            _ => self.layout().font_px,
        };
        view.layout(width, height, type_px)
    }
}

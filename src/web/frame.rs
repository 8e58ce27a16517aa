//! A frame of the plane: fitted on the page, or the worker's latest picture adopted and drawn
//! over the points as they are; the regions' image scaled onto the canvas and the points'
//! discs and marks over it.

use super::*;

impl App {
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
        let layout = self.layout().drafted(self.draft);
        let scene = self.lab.scene(&layout);
        let computed = now_ms();
        self.paint_white(&layout);
        let (mut image, mut size) = (Vec::new(), (0, 0));
        if let Some(grid) =
            scene::region_grid(&scene).filter(|_| self.lab.settings().layers().on("regions"))
        {
            size = (grid.cols as u32, grid.rows as u32);
            image = scene::field_image_rgba(&scene, size.0, size.1);
            paint_regions(&mut self.fields, &self.context, &image, size, &layout)?;
        }
        let painted = now_ms();
        self.discs_key = None;
        self.draw_overlay(&scene, &layout, (false, None), started)?;
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
            draft: self.lab.drawn_draft() > 0,
            draft_level: self.lab.drawn_draft(),
            computed: self.lab.picture_computed(),
        };
        let mut frame = frame_fields(&status, &timings, &self.lab.warnings);
        frame.insert("legend".into(), json!(legend));
        // The whole of this call: fit, picture, status and this JSON.
        frame.insert("frame_ms".into(), json!(now_ms() - started));
        let frame = Value::Object(frame);
        let json = frame.to_string();
        if let Value::Object(frame) = frame {
            self.keep_own(scene, image, size, frame);
        }
        Ok(json)
    }

    /// Keeps the picture the page just painted, as a worker's would be kept: a worker taking
    /// the plane back ([`App::hand_back`]) shows it until its own first comes.
    fn keep_own(
        &mut self,
        mut scene: scene::Scene,
        regions: Vec<u8>,
        (cols, rows): (u32, u32),
        mut frame: Map<String, Value>,
    ) {
        // The points are composed anew over it, as they are then.
        scene.points = Vec::new();
        scene.colour_of = Vec::new();
        scene.hollow = Vec::new();
        frame.insert(
            "fingerprint".into(),
            json!(self.lab.fingerprint().to_string()),
        );
        frame.insert("follows_pointer".into(), json!(self.lab.follows_pointer()));
        self.own = Some(Remote {
            scene,
            regions,
            cols,
            rows,
            frame,
        });
    }

    /// The draft level of the frames this page fits and pictures itself, the field on a
    /// coarser grid ([`Layout::draft`]; 0: the full picture): the page asks for drafts while a
    /// slow device keeps up with quick edits, and for the full picture once they pause.
    pub fn set_draft(&mut self, draft: u8) {
        self.draft = draft;
    }

    /// Hands the plane's fitting and field to a worker behind the page (or takes them back):
    /// from then on the page sends its edits there and adopts what comes back
    /// ([`App::adopt_frame`]).
    pub fn set_remote(&mut self, on: bool) {
        self.remote = on.then_some(None);
        self.own = None;
        // What was painted last may be this page's own picture: nothing is taken as painted.
        self.painted = None;
        self.painted_scene = None;
        self.discs_key = None;
    }

    /// Hands the plane back to the worker behind the page after the page fitted it itself for
    /// a while (a small scene, www/remote.js): the page's last picture stays on show, as the
    /// worker's latest would, until the worker's first comes, and so does the page's last
    /// figure of the open view `view_id` where the worker computes that view.
    pub fn hand_back(&mut self, view_id: &str) {
        let own = self.own.take();
        self.set_remote(true);
        if own.is_some() {
            self.remote = Some(own);
            self.generation += 1;
        }
        let behind = views::view(view_id).is_ok_and(computed_behind);
        if let Some(figure) = self.figures.latest(view_id).filter(|_| behind) {
            self.remote_figure = Some((view_id.to_string(), figure.clone()));
            self.figures_adopted += 1;
        }
    }

    /// Whether the points' discs are still being painted (a large scene's take a few frames):
    /// the page then draws another frame.
    pub fn painting(&self) -> bool {
        self.discs.incomplete() || matches!(self.painted_scene, Some((_, _, false)))
    }

    /// Whether a frame now would paint the picture on the canvas again: behind a worker, its
    /// model not back yet after a change that moves nothing on the plane (a slider's). The page
    /// then waits a little for the model rather than spend the frame on the same picture.
    pub fn picture_unchanged(&self) -> bool {
        let layout = self.layout();
        let shown = self
            .lab
            .picture_fingerprint(layout.width, layout.height, self.generation);
        matches!(self.remote, Some(Some(_)))
            && matches!(&self.painted, Some((key, _)) if *key == shown)
            && !self.painting()
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

    /// Adopts a worker's frame (the UTF-8 bytes of `FrameWorker.frame`'s JSON, and its regions
    /// image); returns whether it is for the scene as it stands here (false: the model is a
    /// step behind).
    pub fn adopt_frame(&mut self, json: &[u8], regions: Vec<u8>) -> Result<bool, JsValue> {
        let json = std::str::from_utf8(json).map_err(js_error)?;
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
}

impl App {
    /// The frame with a worker behind the page: its latest picture of the model over the
    /// points as they are now, and its status; an empty string until its first frame.
    pub(super) fn render_remote(&mut self) -> Result<String, JsValue> {
        let started = now_ms();
        let layout = self.layout();
        let Some(Some(remote)) = &self.remote else {
            // Nothing from the worker yet: the points alone.
            let scene = self.lab.over_points(None);
            self.paint_white(&layout);
            self.discs_key = None;
            self.draw_overlay(&scene, &layout, (false, None), started)?;
            return Ok(String::new());
        };
        // What the picture shows: the worker's latest model and the points as they are. A
        // frame that would paint the same picture again (a slider moved, the model not back
        // yet) paints nothing, leaving both threads to the work that changes it.
        let shown = self
            .lab
            .picture_fingerprint(layout.width, layout.height, self.generation);
        let same_picture = matches!(&self.painted, Some((key, _)) if *key == shown);
        // The same picture with a large layer of discs still being composited: most frames
        // only composite a share of it, unseen (see the `discs` module).
        let drawn_scene = matches!(self.painted_scene, Some((_, _, true)));
        let unseen = same_picture && drawn_scene && self.discs.composite_unseen(started);
        if let Some((key, frame)) = &self.painted {
            if *key == shown && (unseen || !self.painting()) {
                let mut frame = frame.clone();
                let behind = frame.get("fingerprint").and_then(Value::as_str)
                    != Some(self.fingerprint().as_str());
                frame.insert("behind".into(), json!(behind));
                frame.insert("page_fits".into(), json!(self.lab.fits()));
                return Ok(Value::Object(frame).to_string());
            }
        }
        let (scene, listed) = match self.painted_scene.take() {
            Some((_, scene, listed)) if same_picture => (scene, listed),
            kept => {
                // The points' parts from whichever scene was composed for the points as they
                // are: the spare one, or the one kept while its discs were being painted.
                let current = self.lab.points_key();
                let spare = (self.spare_scene.take())
                    .filter(|(key, _)| *key == current)
                    .or(kept.map(|(key, scene, _)| (key, scene)));
                let scene = self.lab.over_points_reusing(Some(&remote.scene), spare);
                (scene, false)
            }
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
                let size = (remote.cols, remote.rows);
                paint_regions(
                    &mut self.fields,
                    &self.context,
                    &remote.regions,
                    size,
                    &layout,
                )?;
            }
        }
        let painted = now_ms();
        let mut frame = remote.frame.clone();
        if draw_now {
            let key = self.discs_key(&scene, &layout);
            let same_discs = listed || self.discs_key == Some(key);
            self.draw_overlay(&scene, &layout, (same_discs, Some(key)), started)?;
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
        if !draw_now || self.discs.incomplete() {
            self.painted_scene = Some((self.lab.points_key(), scene, draw_now));
        } else {
            self.spare_scene = Some((self.lab.points_key(), scene));
        }
        Ok(Value::Object(frame).to_string())
    }

    /// Fits if anything changed, timing it.
    pub(super) fn fit_timed(&mut self) {
        if self.lab.needs_fit() {
            let start = now_ms();
            self.lab.fit();
            self.last_fit_ms = now_ms() - start;
            self.fitted_since_frame = true;
        }
    }

    pub(super) fn paint_white(&self, layout: &Layout) {
        self.context.set_fill_style_str("#ffffff");
        self.context
            .fill_rect(0.0, 0.0, layout.width as f64, layout.height as f64);
    }

    /// What a scene's discs are listed from: its points, their roles and colours and the
    /// highlight and layers (the picture's fingerprint without its model), its window and
    /// the canvas.
    pub(super) fn discs_key(&self, scene: &scene::Scene, layout: &Layout) -> u64 {
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
    /// canvas), and they are not listed again; with their key ([`App::discs_key`]) those
    /// listed ahead for it are taken. `started`: when the frame began (`now_ms`).
    pub(super) fn draw_overlay(
        &mut self,
        scene: &scene::Scene,
        layout: &Layout,
        (same_discs, key): (bool, Option<u64>),
        started: f64,
    ) -> Result<(), JsValue> {
        let backend = PageBackend::on_canvas(self.canvas.clone())?;
        let layers = self.lab.settings().layers();
        let size = (self.canvas.width(), self.canvas.height());
        let (painter, context) = (&mut self.discs, &self.context);
        let mut stamp = |discs: &scene::ListDiscs| -> Result<(), crate::core::error::Error> {
            let painted = match same_discs {
                true => painter.repaint(context, size, layout, started),
                false => Ok(false),
            }
            .and_then(|done| match done {
                true => Ok(()),
                false => painter.paint(context, size, (discs, key), layout, started),
            });
            painted.map_err(|e| crate::core::error::Error::Draw(format!("{e:?}")))
        };
        scene::draw_with(
            backend,
            scene,
            layout,
            &layers,
            false,
            scene::Discs::Stamped(&mut stamp),
        )
        .map_err(js_error)
    }
}

/// Off-screen canvases at the sizes of the field grids drawn last, a draft's and the full
/// picture's: a canvas given another size is allocated anew and cleared, and on a slow device
/// the frames alternate between a draft's size and the full picture's (a change of the draft's
/// level is rarer: it takes one of the two a new size).
pub(super) struct FieldCanvases {
    slots: [(HtmlCanvasElement, CanvasRenderingContext2d, (u32, u32)); 2],
    /// The slot used last (the other is the one given a new size).
    last: usize,
}

impl FieldCanvases {
    pub(super) fn new(document: &web_sys::Document) -> Result<FieldCanvases, JsValue> {
        let slot = || -> Result<_, JsValue> {
            let canvas = document
                .create_element("canvas")?
                .dyn_into::<HtmlCanvasElement>()
                .map_err(|_| js_error("cannot create a canvas"))?;
            let size = (canvas.width(), canvas.height());
            Ok((canvas.clone(), context(&canvas)?, size))
        };
        Ok(FieldCanvases {
            slots: [slot()?, slot()?],
            last: 0,
        })
    }

    /// A canvas of `cols` × `rows` and its context.
    fn sized(
        &mut self,
        (cols, rows): (u32, u32),
    ) -> &(HtmlCanvasElement, CanvasRenderingContext2d, (u32, u32)) {
        let i = match self.slots.iter().position(|slot| slot.2 == (cols, rows)) {
            Some(i) => i,
            None => {
                let i = 1 - self.last;
                let slot = &mut self.slots[i];
                slot.0.set_width(cols);
                slot.0.set_height(rows);
                slot.2 = (cols, rows);
                i
            }
        };
        self.last = i;
        &self.slots[i]
    }
}

/// The decision regions, an RGBA image of `cols` × `rows` covering the plotted square,
/// blitted scaled onto `context`.
fn paint_regions(
    fields: &mut FieldCanvases,
    context: &CanvasRenderingContext2d,
    rgba: &[u8],
    (cols, rows): (u32, u32),
    layout: &Layout,
) -> Result<(), JsValue> {
    if rgba.len() != (cols * rows * 4) as usize || cols == 0 {
        return Ok(());
    }
    let (field_canvas, field_context, _) = fields.sized((cols, rows));
    let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(rgba), cols, rows)?;
    field_context.put_image_data(&image, 0.0, 0.0)?;
    context.set_image_smoothing_enabled(true);
    let plot = layout.plot;
    context.draw_image_with_html_canvas_element_and_dw_and_dh(
        field_canvas,
        plot.left,
        plot.top,
        plot.width,
        plot.height,
    )?;
    Ok(())
}

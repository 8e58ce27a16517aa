//! What a frame shows. The [`Scene`] of the plane (the points coloured by class, held-out
//! points hollow, and the fitted model's regions, boundary, margins and marks, drawn by
//! [`crate::methods::picture`]), kept by (version, width, height, draft) so hovering redraws it
//! without recomputing the field (a draft only where the full picture, or a finer draft, is not
//! at hand); the legend with the classes named as their buttons are; the plotted
//! window; the pointer and the lines to its nearest neighbours; and where the 3-D views are seen
//! from ([`Orbit`]).
//!
//! The status line under the plot, [`Status`]: what every model has (how many points, classes,
//! training and held-out points, the training accuracy and the test accuracy, the share of
//! held-out points predicted right), the model's own facts, and why nothing is fitted. A
//! regression is scored by RMSE and R² instead, on the held-out points too; novelty detection
//! has no labels to score. It is kept by the lab's version, since it scores every training point.
//!
//! What is under the pointer, [`Inspection`] (the hover): the training point nearest to it
//! within a radius, its class and role (trained on or held out), the predicted label there, and
//! the model's facts about the point (its multiplier α, margin, slack and KKT case for an SVM)
//! and about the place (the decision value).

use super::Playground;
use crate::core::data::Point;
use crate::core::field::View;
use crate::core::plane::{Decoration, Layout, LegendEntry, LegendMark, Mark, Scene, Wire};
use crate::core::task::Task;
use crate::methods::model::Fact;
use serde::Serialize;

/// Where a 3-D view is seen from: the turn about the vertical axis and the tilt towards it, in
/// radians (plotters' yaw and pitch).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    pub yaw: f64,
    pub pitch: f64,
}

impl Default for Orbit {
    fn default() -> Orbit {
        Orbit {
            yaw: 0.6,
            pitch: 0.25,
        }
    }
}

impl Orbit {
    /// Turned by (yaw, pitch) radians; the tilt stays short of looking straight down or up.
    pub fn turned(self, yaw: f64, pitch: f64) -> Orbit {
        let limit = std::f64::consts::FRAC_PI_2 - 0.05;
        Orbit {
            yaw: (self.yaw + yaw).rem_euclid(std::f64::consts::TAU),
            pitch: (self.pitch + pitch).clamp(-limit, limit),
        }
    }
}

impl Playground {
    /// The pointer moved to `at` (or left the plot): whether the picture changes (the marks
    /// that follow the pointer, such as the lines to k-NN's neighbours).
    pub fn set_pointer(&mut self, at: Option<Point>) -> bool {
        let before = Wire::of(&self.pointer_marks());
        self.pointer = at;
        before != Wire::of(&self.pointer_marks())
    }

    /// Where the pointer is, if it is over the plot.
    pub fn pointer(&self) -> Option<Point> {
        self.pointer
    }

    fn pointer_marks(&self) -> Vec<Decoration> {
        match (self.pointer, &self.model) {
            (Some(at), Some(model)) => model.pointer_marks(at, self.training_set()),
            _ => Vec::new(),
        }
    }

    /// The plotted window.
    pub fn view(&self) -> View {
        if let Some(window) = self.settings.window {
            return window;
        }
        super::kept_by(&self.around, self.points_version, || {
            View::around(&self.data.points)
        })
    }

    /// The draft level of the last picture [`Playground::scene`] gave ([`Layout::draft`]; 0
    /// for the full picture).
    pub fn drawn_draft(&self) -> u8 {
        self.scene_cache
            .as_ref()
            .map_or(0, |((_, _, _, draft), _)| *draft)
    }

    /// Whether the last [`Playground::scene`] computed its picture (rather than finding it
    /// at hand): only then does its time say what a picture costs.
    pub fn picture_computed(&self) -> bool {
        self.scene_computed
    }

    /// Everything the picture of this frame shows, for a picture of `layout`'s size (as a
    /// draft only where neither the full picture nor a finer draft is at hand).
    pub fn scene(&mut self, layout: &Layout) -> Scene {
        let key = (self.version, layout.width, layout.height, layout.draft);
        // A draft is never drawn where the full picture, or a finer draft, is at hand.
        let at_hand = |cached: &(u64, u32, u32, u8)| {
            (cached.0, cached.1, cached.2) == (key.0, key.1, key.2) && cached.3 <= key.3
        };
        let kept = (self.scene_cache.as_ref())
            .filter(|(cached, _)| at_hand(cached))
            .map(|(_, scene)| scene.clone());
        self.scene_computed = kept.is_none();
        let mut scene = kept.unwrap_or_else(|| {
            let scene = self.compute_scene(layout);
            self.scene_cache = Some((key, scene.clone()));
            scene
        });
        scene.highlight = self.highlight;
        scene.pointer = self.pointer_marks();
        scene
    }

    fn compute_scene(&self, layout: &Layout) -> Scene {
        let view = self.view();
        let mut scene = Scene {
            view: Some(view),
            points: self.data.points.clone(),
            colour_of: self.colour_indices(),
            marks: vec![Mark::Plain; self.data.len()],
            hollow: self.test.clone(),
            region_colours: [0, 1],
            task: self.settings.task,
            ..Scene::default()
        };
        let Some(model) = &self.model else {
            return scene;
        };
        let classes = self.data.classes();
        let model_classes = model.classes();
        let index_of = |label: i32| classes.iter().position(|&c| c == label).unwrap_or(0);
        scene.region_colours = if scene.task == Task::Regression {
            // Below the curve and above it.
            [0, 1]
        } else if self.settings.task == Task::Novelty {
            // Outside the learned region and inside it.
            [1, 0]
        } else {
            [
                index_of(model_classes[0]),
                index_of(model_classes[model_classes.len() - 1]),
            ]
        };
        let layers = self.settings.layers();
        let setting = crate::methods::picture::Setting {
            data: self.training_set(),
            classes: &classes,
            layers: &layers,
            view,
            threshold: self.settings.values.real("threshold"),
        };
        crate::methods::picture::decorate(&**model, &mut scene, layout, &setting);
        // The model's marks are by training point; the picture's by point.
        let mut marks = vec![Mark::Plain; self.data.len()];
        for (t, &mark) in scene.marks.iter().enumerate() {
            if let Some(i) = self.full_index(t) {
                marks[i] = mark;
            }
        }
        scene.marks = marks;
        for decoration in &mut scene.decorations {
            decoration.map_points(&|t| self.full_index(t));
        }
        scene
    }

    /// The legend of `scene` drawn with this lab's layers (`regions`: its regions are
    /// painted), its classes named as their buttons are (`-1`, `setosa`, `class 1`).
    pub fn legend(&self, scene: &Scene, regions: bool) -> Vec<LegendEntry> {
        let layers = self.settings.layers();
        let classes = self.class_order();
        let mut entries = scene.legend(&layers, regions);
        for e in &mut entries {
            if let LegendMark::Class { colour } = e.mark {
                // A regression's points are named by what they are, (x, t).
                if let Some(&label) = classes
                    .get(colour)
                    .filter(|_| scene.task == Task::Classification)
                {
                    e.label = self.data.class_name(label);
                }
            }
        }
        entries
    }

    /// [`crate::core::data::Dataset::class_choices`], from the classes kept by points
    /// version: the page asks for them in every frame whose scene changed, and they walk every
    /// label.
    pub fn class_choices(&self) -> Vec<(i32, String)> {
        self.class_order()
            .into_iter()
            .map(|c| (c, self.data.class_name(c)))
            .collect()
    }

    /// The classes in colour order ([`Dataset::class_order`]), kept by points version.
    pub(super) fn class_order(&self) -> Vec<i32> {
        let mut kept = self.class_order.borrow_mut();
        match &*kept {
            Some((version, order)) if *version == self.points_version => order.clone(),
            _ => {
                let order = self.data.class_order();
                *kept = Some((self.points_version, order.clone()));
                order
            }
        }
    }

    /// The colour index of each point: its label's rank among the labels (those present,
    /// and while there is only one, the classes its buttons offer beside it), so a point's
    /// colour is its class button's, and −1 / +1 or 3 / 7 are drawn as 0 / 1 are.
    pub(super) fn colour_indices(&self) -> Vec<usize> {
        let mut colours = Vec::new();
        self.colour_indices_into(0..self.data.len(), &mut colours);
        colours
    }

    /// Whether the colours kept are those of the points as they are.
    fn colours_kept(&self) -> bool {
        let key = self.points_key();
        matches!(&*self.colours.borrow(), Some((k, _)) if *k == key)
    }

    /// What the frames keep of the points, computed a step at a time: step 0 their
    /// fingerprint, 1 their window, 2 their classes, then their colours, `COLOUR_SHARE`
    /// points a step. Returns whether a step remains ([`Playground::preparing_steps`] in all).
    /// A page that has just taken a million points spreads these over tasks of their own
    /// rather than leave them all to its next frame; the colours come in shares because a
    /// million of them are megabytes of memory the page has never touched, which a slow or
    /// busy machine hands out slowly.
    pub fn prepare_points(&self, step: usize) -> bool {
        match step {
            0 => {
                self.fingerprint();
            }
            1 => {
                self.view();
            }
            2 => {
                self.class_order();
            }
            _ => self.colour_share(),
        }
        step + 1 < self.preparing_steps()
    }

    /// How many steps [`Playground::prepare_points`] takes for the points as they are.
    pub fn preparing_steps(&self) -> usize {
        3 + self.data.len().div_ceil(COLOUR_SHARE).max(1)
    }

    /// Colours the next `COLOUR_SHARE` points of those being coloured, keeping the colours
    /// once every point has its own.
    fn colour_share(&self) {
        if self.colours_kept() {
            return;
        }
        let key = self.points_key();
        let n = self.data.len();
        let mut colours = match self.colouring.take() {
            Some((k, colours)) if k == key => colours,
            _ => Vec::with_capacity(n),
        };
        let from = colours.len();
        self.colour_labels(
            &self.data.labels[from..n.min(from + COLOUR_SHARE)],
            &mut colours,
        );
        match colours.len() == n {
            true => *self.colours.borrow_mut() = Some((key, colours)),
            false => *self.colouring.borrow_mut() = Some((key, colours)),
        }
    }

    /// Appends the colour indices of the points `range` to `out` (each its label's rank among
    /// the classes, as the scene colours them), without copying the others: how a page builds a
    /// million points' scene a share at a time.
    pub fn colour_indices_into(&self, range: std::ops::Range<usize>, out: &mut Vec<usize>) {
        if !self.colours_kept() {
            *self.colours.borrow_mut() = Some((self.points_key(), self.rank_colours()));
        }
        if let Some((_, colours)) = &*self.colours.borrow() {
            out.extend_from_slice(&colours[range]);
        }
    }

    /// [`Playground::colour_indices`], computed.
    fn rank_colours(&self) -> Vec<usize> {
        let mut colours = Vec::with_capacity(self.data.len());
        self.colour_labels(&self.data.labels, &mut colours);
        colours
    }

    /// Appends the colour index of each of `labels` to `out`.
    fn colour_labels(&self, labels: &[i32], out: &mut Vec<usize>) {
        // The points of regression and novelty detection are all of one kind, whatever labels
        // they kept from a classification scene (kept, for going back to it).
        if self.settings.task != Task::Classification {
            out.resize(out.len() + labels.len(), 0);
            return;
        }
        let classes = self.class_order();
        let rank = |l: &i32| classes.iter().position(|c| c == l).unwrap_or(0);
        // Labels close together (0 / 1, 1…10, −1 / +1) are ranked by a table: a million
        // points are coloured in every frame that composes them anew.
        match (classes.first(), classes.last()) {
            (Some(&lo), Some(&hi)) if (hi as i64 - lo as i64) < 4096 => {
                let table: Vec<usize> = (lo..=hi).map(|l| rank(&l)).collect();
                out.extend(labels.iter().map(|&l| table[(l - lo) as usize]));
            }
            _ => out.extend(labels.iter().map(rank)),
        }
    }
}

/// How many points [`Playground::prepare_points`] colours in one step.
pub const COLOUR_SHARE: usize = 1 << 18;

/// The status line: what every model has (points, classes, training accuracy), the model's
/// own facts, and what the person should know.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Status {
    pub model: String,
    pub points: usize,
    pub classes: usize,
    /// How many points are trained on and how many are held out.
    pub train_points: usize,
    pub test_points: usize,
    pub train_accuracy: Option<f64>,
    /// The accuracy on the held-out points, when there are any.
    pub test_accuracy: Option<f64>,
    /// Updates shown when stepping through a run.
    pub steps: Option<usize>,
    /// Why nothing is fitted, or why the fit is not to be trusted.
    pub message: Option<String>,
    pub facts: Vec<Fact>,
}

impl Playground {
    /// The status line's numbers and message.
    pub fn status(&mut self) -> Status {
        // It scores every training point, so it is kept until something changes rather than
        // recomputed on every frame (hovering redraws without a change).
        match &self.status_cache {
            Some((version, status)) if *version == self.version => status.clone(),
            _ => {
                let status = self.compute_status();
                self.status_cache = Some((self.version, status.clone()));
                status
            }
        }
    }

    fn compute_status(&self) -> Status {
        let mut status = Status {
            model: self.settings.model.clone(),
            points: self.data.len(),
            classes: self.data.classes().len(),
            train_points: self.training_set().len(),
            test_points: self.data.len() - self.training_set().len(),
            steps: self.steps.filter(|_| self.settings.method().steppable()),
            ..Status::default()
        };
        match &self.model {
            // Novelty detection has no labels to score; its facts say the ν-property.
            Some(model) if self.settings.task == Task::Novelty => {
                status.facts = model.facts(self.training_set());
                status.message = model.message();
            }
            Some(model) if self.settings.task == Task::Regression => {
                // Scores of the fit, not accuracies: RMSE and R² (among the model's facts),
                // and on the held-out points too.
                status.facts = model.facts(self.training_set());
                let held: Vec<Point> = (0..self.data.len())
                    .filter(|&i| self.test[i])
                    .map(|i| self.data.points[i])
                    .collect();
                if let Some((rmse, r2)) =
                    crate::methods::solvers::regression::scores(&**model, &held)
                {
                    // After the training scores, as the accuracies read.
                    let at = status
                        .facts
                        .iter()
                        .take_while(|f| f.key.starts_with("train_"))
                        .count();
                    let test = std::iter::once(Fact::new("test_rmse", "test RMSE", rmse))
                        .chain(r2.map(|r2| Fact::new("test_r2", "test R²", r2)));
                    status.facts.splice(at..at, test);
                }
                status.message = model.message();
            }
            Some(model) => {
                status.train_accuracy = Some(model.training_accuracy(self.training_set()));
                let held: Vec<usize> = (0..self.data.len()).filter(|&i| self.test[i]).collect();
                if !held.is_empty() {
                    let correct = held
                        .iter()
                        .filter(|&&i| model.predict(self.data.points[i]) == self.data.labels[i])
                        .count();
                    status.test_accuracy = Some(correct as f64 / held.len() as f64);
                }
                status.facts = model.facts(self.training_set());
                status.message = model.message();
                self.name_classes(model.as_ref(), &mut status.facts);
            }
            None => {
                status.message = self.problem.as_ref().map(|e| {
                    let text = e.to_string();
                    if self.data.label_texts.is_empty() {
                        return text;
                    }
                    let names = crate::core::sorting::map_of(
                        (self.data.classes().into_iter()).map(|c| (c, self.data.class_name(c))),
                    );
                    crate::core::labels::name_labels(&text, &names)
                })
            }
        }
        status
    }
}

/// What is under the pointer: the training point there, if any, and the model's facts about
/// it and about the place.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Inspection {
    pub x: f64,
    pub y: f64,
    pub index: Option<usize>,
    pub label: Option<i32>,
    /// The point is held out (a test point).
    pub test: Option<bool>,
    /// The predicted label there.
    pub predicted: Option<i32>,
    pub facts: Vec<Fact>,
}

impl Playground {
    /// The point within `radius` (data units) of `p`, nearest first.
    pub fn point_near(&self, p: Point, radius: f64) -> Option<usize> {
        self.data.nearest_within(p, radius)
    }

    /// What is at `p` without the model: the nearest point within `radius`, its class and
    /// role (what the page knows while the model is computed behind it).
    pub fn inspect_point(&self, p: Point, radius: f64) -> Inspection {
        let mut info = Inspection {
            x: p[0],
            y: p[1],
            ..Inspection::default()
        };
        let index = self.point_near(p, radius);
        if let Some(i) = index {
            info.index = Some(i);
            info.test = Some(self.test[i]);
            info.label = Some(self.data.labels[i]);
            info.x = self.data.points[i][0];
            info.y = self.data.points[i][1];
        }
        info
    }

    /// What is at `p`: the nearest point within `radius` with its multiplier, margin, slack
    /// and KKT case, or else the model's value at `p`.
    pub fn inspect(&self, p: Point, radius: f64) -> Inspection {
        let mut info = self.inspect_point(p, radius);
        let index = info.index;
        if let Some(model) = &self.model {
            let at = index.map_or(p, |i| self.data.points[i]);
            info.predicted = Some(model.predict(at));
            match index.map(|i| (i, self.train_position(i))) {
                Some((_, Some(t))) => info.facts = model.point_facts(t, self.training_set()),
                Some((_, None)) => info.facts.push(Fact::new(
                    "held_out",
                    "",
                    "a test point: held out, never trained on",
                )),
                None => {}
            }
            info.facts.extend(model.facts_at(at));
            self.name_classes(model.as_ref(), &mut info.facts);
        }
        info
    }
}

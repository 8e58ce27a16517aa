//! The lab behind the page: a second [`Playground`] in a Web Worker that does the fitting and
//! the field while the page's own copy keeps the points, the pointer and the picture.
//!
//! The page applies every edit to its copy first (a [`super::Session`], which records them) and
//! sends the worker the same [`Edit`]s, in order, with its copy's [`Playground::fingerprint`]. The worker applies them and compares
//! fingerprints; a difference (an edit the page did not send, or sent as a whole new scene)
//! makes the worker ask for the whole scene ([`Edit::Scene`]), so the two copies can never
//! drift apart unnoticed. Edits keep the worker's warm starts, as they do on the page.
//!
//! What the worker sends back is the [`Scene`] of its fitted model; the page draws it over
//! its own points with [`Playground::over_points`], so a dragged point is drawn where the
//! pointer is in every frame while the model catches up.

use super::Playground;
use crate::core::data::Point;
use crate::core::error::Error;
use crate::core::plane::{Mark, Scene};
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};

/// The points' version and the scene's task ([`Playground::points_key`]).
pub type PointsKey = (u64, crate::core::task::Task);

/// The fingerprints' hasher: each 64-bit word w is folded in as h ← (rotl(h, 5) ⊕ w)·K with
/// an odd K (the multiply-rotate step of rustc's FxHasher). Every step is a bijection of h for
/// a given w, so a change in any one word always changes the fingerprint; it is a change
/// detector, not a defence against crafted collisions. It is about ten times as fast as
/// SipHash, which matters at 10⁵ points, where the page computes fingerprints every frame.
#[derive(Default)]
struct Fingerprinter(u64);

impl Hasher for Fingerprinter {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }

    fn write_i32(&mut self, i: i32) {
        self.write_u64(i as u32 as u64);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// One edit of the scene, as the page made it, with exact data coordinates.
///
/// Written as JSON `{"op": "move", "index": 3, "x": 0.5, "y": -1}`; read through `WireEdit`,
/// a flat record, rather than serde's internally tagged enum, whose buffering reader made
/// this the largest function of the page's module.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", try_from = "WireEdit")]
pub enum Edit {
    /// A setting, by its URL key (or [`super::STEPS_KEY`]).
    Set {
        key: String,
        value: String,
    },
    Add {
        x: f64,
        y: f64,
        label: i32,
    },
    Move {
        index: usize,
        x: f64,
        y: f64,
    },
    Remove {
        index: usize,
    },
    ToggleTest {
        index: usize,
    },
    /// An interaction ended: refit cold if the model on show was warm-started.
    Settle,
    Step,
    ResetSteps,
    FinishSteps,
    /// Where the pointer is (none: it left the plot), for k-NN's lines to the neighbours.
    Pointer {
        at: Option<Point>,
    },
    /// The whole scene anew: its link, and how far a run is stepped (not part of a link).
    Scene {
        hash: String,
        steps: Option<usize>,
    },
}

/// An [`Edit`] as it arrives: the operation and whichever fields it has.
#[derive(Deserialize)]
struct WireEdit {
    op: String,
    key: Option<String>,
    value: Option<String>,
    x: Option<f64>,
    y: Option<f64>,
    label: Option<i32>,
    index: Option<usize>,
    at: Option<Point>,
    hash: Option<String>,
    steps: Option<usize>,
}

impl TryFrom<WireEdit> for Edit {
    type Error = String;

    fn try_from(w: WireEdit) -> Result<Edit, String> {
        let op = w.op.as_str();
        let missing = |field: &str| format!("the edit '{op}' has no {field}");
        let index = || w.index.ok_or_else(|| missing("index"));
        let x = || w.x.ok_or_else(|| missing("x"));
        let y = || w.y.ok_or_else(|| missing("y"));
        Ok(match op {
            "set" => Edit::Set {
                key: w.key.clone().ok_or_else(|| missing("key"))?,
                value: w.value.clone().ok_or_else(|| missing("value"))?,
            },
            "add" => Edit::Add {
                x: x()?,
                y: y()?,
                label: w.label.ok_or_else(|| missing("label"))?,
            },
            "move" => Edit::Move {
                index: index()?,
                x: x()?,
                y: y()?,
            },
            "remove" => Edit::Remove { index: index()? },
            "toggle_test" => Edit::ToggleTest { index: index()? },
            "settle" => Edit::Settle,
            "step" => Edit::Step,
            "reset_steps" => Edit::ResetSteps,
            "finish_steps" => Edit::FinishSteps,
            "pointer" => Edit::Pointer { at: w.at },
            "scene" => Edit::Scene {
                hash: w.hash.clone().ok_or_else(|| missing("hash"))?,
                steps: w.steps,
            },
            other => return Err(format!("'{other}' is not an edit")),
        })
    }
}

impl Playground {
    /// Applies one edit as the page applied it. An edit the page's copy refused never comes
    /// here, so an error means the copies differ (the fingerprint then says so too).
    pub fn apply(&mut self, edit: &Edit) -> Result<(), Error> {
        match edit {
            Edit::Set { key, value } => self.set(key, value)?,
            Edit::Add { x, y, label } => {
                self.add_point([*x, *y], *label)?;
            }
            Edit::Move { index, x, y } => self.move_point(*index, [*x, *y])?,
            Edit::Remove { index } => self.remove_point(*index)?,
            Edit::ToggleTest { index } => self.toggle_test(*index)?,
            Edit::Settle => self.settle(),
            Edit::Step => {
                // The page has stepped already and knows whether the run went on; the worker
                // follows it without fitting first.
                self.steps = Some(self.steps.map_or(1, |s| s + 1));
                self.changed();
            }
            Edit::ResetSteps => self.reset_steps(),
            Edit::FinishSteps => self.finish_steps(),
            Edit::Pointer { at } => {
                self.set_pointer(*at);
            }
            Edit::Scene { hash, steps } => {
                // The version goes on from this copy's: what is cached by it (a worker's
                // figures, the picture it sent last) must not take the new scene for the old.
                let version = self.version;
                *self = Playground::from_hash(hash);
                self.version = version;
                self.steps = *steps;
                self.changed();
            }
        }
        Ok(())
    }

    /// Follows the page's `edits` in order; whether this copy then has the page's
    /// `fingerprint`. When it has not (an edit refused, or a change the page did not send),
    /// the page must send the whole scene.
    pub fn follow(&mut self, edits: &[Edit], fingerprint: u64) -> bool {
        edits.iter().all(|edit| self.apply(edit).is_ok()) && self.fingerprint() == fingerprint
    }

    /// The edit that makes another copy equal to this one from any state.
    pub fn whole_scene(&self) -> Edit {
        Edit::Scene {
            hash: self.hash(),
            steps: self.steps,
        }
    }

    /// A fingerprint of everything that decides what the model and its picture are: the
    /// settings, the points to the last bit, their labels and roles, the steps on show and
    /// the pointer. Two copies with equal fingerprints fit the same model.
    pub fn fingerprint(&self) -> u64 {
        let mut hasher = Fingerprinter::default();
        self.settings_print().hash(&mut hasher);
        self.points_print().hash(&mut hasher);
        self.steps.hash(&mut hasher);
        hasher.finish()
    }

    /// A fingerprint of the settings, kept by version (every change of a setting bumps it, in
    /// the same call that makes the change).
    fn settings_print(&self) -> u64 {
        super::kept_by(&self.settings_print, self.version, || {
            let mut hasher = Fingerprinter::default();
            self.settings.to_hash(None).hash(&mut hasher);
            hasher.finish()
        })
    }

    /// A fingerprint of the points to the last bit, their labels and their roles, kept by
    /// version (every edit of them bumps it).
    fn points_print(&self) -> u64 {
        super::kept_by(&self.points_print, self.points_version, || {
            let mut hasher = Fingerprinter::default();
            for p in &self.data.points {
                p[0].to_bits().hash(&mut hasher);
                p[1].to_bits().hash(&mut hasher);
            }
            self.data.labels.hash(&mut hasher);
            self.test.hash(&mut hasher);
            hasher.finish()
        })
    }

    /// A fingerprint of what [`Playground::over_points`] draws over a model's picture on a
    /// canvas `width` × `height`: the points, their labels and roles, the highlight and the
    /// layers on show, with `model`, a count of the pictures the worker has sent.
    pub fn picture_fingerprint(&self, width: u32, height: u32, model: u64) -> u64 {
        let mut hasher = Fingerprinter::default();
        (width, height, model, self.highlight).hash(&mut hasher);
        self.points_print().hash(&mut hasher);
        self.settings.layers().hash(&mut hasher);
        hasher.finish()
    }

    /// The picture `model` (a scene the worker computed, perhaps for points as they were a
    /// moment ago) shows, over the points as they are now. The model's marks are kept while
    /// the points are as many as it knew, and the model's parts are left out altogether when
    /// its window is no longer the points' (a file loaded, points beyond the old window).
    pub fn over_points(&self, model: Option<&Scene>) -> Scene {
        self.over_points_reusing(model, None)
    }

    /// What the points' parts of a scene were composed for: the points' version and the task
    /// (which colours them).
    pub fn points_key(&self) -> PointsKey {
        (self.points_version, self.settings.task)
    }

    /// [`Playground::over_points`], taking the points, their colours and roles from `last`,
    /// a scene it composed at `points_key` (given back, not copied), when the points are
    /// still as they were then: a new model over a million points that stayed put costs
    /// no copy of them. A part `last` lacks (it has another length) is made anew.
    pub fn over_points_reusing(
        &self,
        model: Option<&Scene>,
        last: Option<(PointsKey, Scene)>,
    ) -> Scene {
        let view = self.view();
        let n = self.data.len();
        let mut scene = match model.filter(|m| m.view == Some(view)) {
            Some(m) => {
                let mut scene = m.clone();
                if scene.marks.len() != n {
                    scene.marks = vec![Mark::Plain; n];
                    for decoration in &mut scene.decorations {
                        decoration.map_points(&|i| (i < n).then_some(i));
                    }
                }
                scene
            }
            None => Scene {
                view: Some(view),
                marks: vec![Mark::Plain; n],
                region_colours: [0, 1],
                ..Scene::default()
            },
        };
        // Each part of `last` that is whole (a page composing a million points' scene over
        // two tasks leaves the colours and roles to the second).
        let last = last
            .filter(|(key, _)| *key == self.points_key())
            .map(|(_, s)| s);
        let (points, colour_of, hollow) = match last {
            Some(last) => (last.points, last.colour_of, last.hollow),
            None => Default::default(),
        };
        scene.points = whole(points, n, || self.data.points.clone());
        scene.colour_of = whole(colour_of, n, || self.colour_indices());
        scene.hollow = whole(hollow, n, || self.test.clone());
        scene.highlight = self.highlight;
        scene
    }

    /// Whether the model draws something that follows the pointer (k-NN's lines to the
    /// neighbours), so the page must send where the pointer is.
    pub fn follows_pointer(&self) -> bool {
        let centre = self.view().centre();
        self.model
            .as_ref()
            .is_some_and(|m| !m.pointer_marks(centre, self.training_set()).is_empty())
    }

    /// The scene to send to the page: the model's parts only (the page has the points).
    pub fn model_scene(&mut self, layout: &crate::core::plane::Layout) -> Scene {
        let mut scene = self.scene(layout);
        scene.points = Vec::new();
        scene.colour_of = Vec::new();
        scene.hollow = Vec::new();
        scene.highlight = None;
        // No point is marked (a model without support vectors): the page draws every point
        // plain when the marks are not one per point, so a million "plain"s need not travel.
        if scene
            .marks
            .iter()
            .all(|m| *m == crate::core::plane::Mark::Plain)
        {
            scene.marks = Vec::new();
        }
        scene
    }
}

/// `part` when it has one element per point (`n`), else what `make` makes.
fn whole<T>(part: Vec<T>, n: usize, make: impl FnOnce() -> Vec<T>) -> Vec<T> {
    if part.len() == n {
        part
    } else {
        make()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plane::Layout;

    fn lab() -> Playground {
        Playground::from_hash("preset=moons&n=60&noise=0.2&seed=3&kernel=rbf&gamma=2")
    }

    /// The page's copy and the worker's, after the same edits, fit the same model and draw
    /// the same picture.
    #[test]
    fn mirrored_edits_keep_the_copies_equal() {
        let (mut page, mut worker) = (lab(), lab());
        let edits = [
            Edit::Set {
                key: "C".into(),
                value: "3".into(),
            },
            Edit::Add {
                x: 0.125,
                y: -0.5,
                label: 1,
            },
            Edit::Move {
                index: 4,
                x: 0.3,
                y: 0.7,
            },
            Edit::ToggleTest { index: 7 },
            Edit::Remove { index: 2 },
            Edit::Settle,
        ];
        for edit in &edits {
            page.apply(edit).unwrap();
            worker.apply(edit).unwrap();
            assert_eq!(page.fingerprint(), worker.fingerprint(), "after {edit:?}");
        }
        let layout = Layout::new(400, 400);
        page.fit();
        worker.fit();
        assert!(page.warnings.is_empty(), "{:?}", page.warnings);
        let drawn = page.scene(&layout);
        let sent = worker.model_scene(&layout);
        let json = serde_json::to_string(&sent).unwrap();
        let received: Scene = serde_json::from_str(&json).unwrap();
        let composed = page.over_points(Some(&received));
        assert_eq!(composed.points, drawn.points);
        assert_eq!(composed.marks, drawn.marks);
        assert_eq!(composed.curves, drawn.curves);
        assert_eq!(composed.hollow, drawn.hollow);
        assert!(drawn.marks.iter().any(|m| *m != Mark::Plain));
    }

    /// Any difference between the copies shows in the fingerprint, and the whole scene puts
    /// it right.
    #[test]
    fn the_fingerprint_sees_every_difference_and_the_whole_scene_mends_it() {
        let page = lab();
        let differing: [&dyn Fn(&mut Playground); 4] = [
            &|l| l.set("C", "2").unwrap(),
            &|l| l.move_point(0, [0.1, 0.1 + 1e-15]).unwrap(),
            &|l| l.toggle_test(1).unwrap(),
            &|l| l.reset_steps(),
        ];
        for change in differing {
            let mut worker = lab();
            change(&mut worker);
            assert_ne!(page.fingerprint(), worker.fingerprint());
            let mut mended = lab();
            change(&mut mended);
            mended.apply(&page.whole_scene()).unwrap();
            assert_eq!(page.fingerprint(), mended.fingerprint());
        }
    }

    /// A model drawn for other points keeps its marks only while the count agrees, and is
    /// left out when the window moved.
    #[test]
    fn a_lagging_model_is_drawn_over_the_points_as_they_are() {
        let mut worker = lab();
        worker.fit();
        let layout = Layout::new(300, 300);
        let sent = worker.model_scene(&layout);
        let mut page = lab();
        page.add_point([0.5, 0.5], 0).unwrap();
        let composed = page.over_points(Some(&sent));
        assert_eq!(composed.points.len(), 61);
        assert_eq!(composed.marks, vec![Mark::Plain; 61]);
        assert_eq!(composed.curves, sent.curves);
        assert!(!sent.curves.is_empty());
        page.add_point([40.0, 40.0], 0).unwrap();
        let far = page.over_points(Some(&sent));
        assert!(far.curves.is_empty());
        assert_eq!(far.points.len(), 62);
    }

    /// A whole new scene never gives a version the copy has had before, so a figure cached by
    /// version (as a worker caches the open view's) is computed afresh for it.
    #[test]
    fn every_edit_reads_back_as_written() {
        let edits = vec![
            Edit::Set {
                key: "C".into(),
                value: "0.5".into(),
            },
            Edit::Add {
                x: 0.1,
                y: -3e-9,
                label: -1,
            },
            Edit::Move {
                index: 4,
                x: 1.0 / 3.0,
                y: 2.0,
            },
            Edit::Remove { index: 0 },
            Edit::ToggleTest { index: 7 },
            Edit::Settle,
            Edit::Step,
            Edit::ResetSteps,
            Edit::FinishSteps,
            Edit::Pointer {
                at: Some([0.25, -0.5]),
            },
            Edit::Pointer { at: None },
            Edit::Scene {
                hash: "model=svm&C=2".into(),
                steps: Some(3),
            },
            Edit::Scene {
                hash: String::new(),
                steps: None,
            },
        ];
        let text = serde_json::to_string(&edits).unwrap();
        let back: Vec<Edit> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, edits);
        // Written by hand, and what is not an edit.
        let page: Vec<Edit> =
            serde_json::from_str(r#"[{"op":"move","index":2,"x":0.5,"y":-1},{"op":"settle"}]"#)
                .unwrap();
        assert_eq!(
            page[0],
            Edit::Move {
                index: 2,
                x: 0.5,
                y: -1.0
            }
        );
        assert!(serde_json::from_str::<Edit>(r#"{"op":"move","x":1,"y":2}"#)
            .unwrap_err()
            .to_string()
            .contains("has no index"));
        assert!(serde_json::from_str::<Edit>(r#"{"op":"fly"}"#).is_err());
    }

    #[test]
    fn a_whole_scene_moves_the_version_on() {
        use crate::views::{view, Cache};
        // A worker's copy gets every scene whole, as after a resync.
        let mut worker = Playground::from_hash("");
        let mut figures = Cache::default();
        let loss = view("loss").unwrap();
        let layout = Layout::chart(600, 330);
        worker.apply(&lab().whole_scene()).unwrap();
        worker.fit();
        let before = format!("{:?}", figures.figure(loss, &mut worker, &layout));
        let seen = worker.version();
        let mut other = Playground::from_hash("preset=xor&n=40&seed=9&kernel=rbf&gamma=3");
        worker.apply(&other.whole_scene()).unwrap();
        worker.fit();
        assert!(worker.version() > seen);
        let after = format!("{:?}", figures.figure(loss, &mut worker, &layout));
        assert_ne!(
            before, after,
            "the figure of the new scene, not the old one's"
        );
        other.fit();
        let want = format!("{:?}", Cache::default().figure(loss, &mut other, &layout));
        assert_eq!(after, want);
    }
}

//! Views: the plane and the figures beside it. A view has an id (its URL and `--view` name),
//! a title, and a compute step from the lab's state that gives a [`Figure`]; the lab caches
//! the figure until something it reads changes (the lab's version, the highlighted point, the
//! picture's size). Every figure is drawn by [`draw`] with plotters on any backend: the page's
//! canvas, SVG and PNG.
//!
//! Adding a view: write its file here (a [`ViewKind`] whose `compute` builds a
//! [`chart::Chart`] or a plane [`Scene`]) and add its line to [`VIEWS`].

pub mod chart;
pub mod choice;
pub mod curve;
pub mod cv;
pub mod gram;
pub mod learning;
pub mod lift;
pub mod loss;
pub mod path;
pub mod plane;
pub mod residuals;
pub mod roc;
pub mod trace;

use crate::core::error::Error;
use crate::core::plane::{Layout, Scene};
use crate::lab::playground::{JobKind, Playground};
use plotters_backend::DrawingBackend;

/// What a view shows. A figure computed in a Web Worker reaches the page as bytes
/// ([`Figure::to_bytes`]), every number bit for bit.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Figure {
    /// The plane: points, regions, curves and marks.
    Plane(Box<Scene>),
    /// A chart of curves and marks over two axes.
    Chart(Box<chart::Chart>),
    /// A 3-D picture, seen from the lab's [`crate::lab::playground::Orbit`].
    Lift(Box<lift::Lift>),
}

impl Figure {
    /// The figure as compact bytes (postcard: numbers as their bits, so a copy draws the
    /// same pixels).
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }

    /// The figure [`Figure::to_bytes`] wrote, or `None` for bytes that are not one.
    pub fn from_bytes(bytes: &[u8]) -> Option<Figure> {
        postcard::from_bytes(bytes).ok()
    }

    /// The line of explanation the page shows under the figure.
    pub fn note(&self) -> &str {
        match self {
            Figure::Plane(_) => "",
            Figure::Chart(chart) => &chart.note,
            Figure::Lift(lift) => &lift.note,
        }
    }

    /// [`Figure::note`] for the figure drawn in `layout`: a chart whose stacked panels do not
    /// all fit it says how many it shows, since its note describes them all.
    pub fn note_in(&self, layout: &Layout) -> String {
        let note = self.note();
        let Figure::Chart(chart) = self else {
            return note.to_string();
        };
        let (shown, count) = (chart.panels(layout).len(), chart.below.len() + 1);
        if shown >= count {
            return note.to_string();
        }
        let more = format!(
            "This picture has room for {shown} of its {count} panels: a taller window shows \
             them all."
        );
        if note.is_empty() {
            more
        } else {
            format!("{note} {more}")
        }
    }
}

/// A view of the registry.
pub trait ViewKind: Sync {
    fn id(&self) -> &'static str;
    fn title(&self) -> &'static str;
    /// The words on its tab, where the title is too long for the tabs to keep to two rows.
    fn tab(&self) -> &'static str {
        self.title()
    }
    /// Where things go on a picture of this size (a chart's type follows its width), with
    /// type never smaller than `type_px` in the picture's pixels (the plane's tick labels
    /// beside it; 0 for the picture's own type).
    fn layout(&self, width: u32, height: u32, type_px: f64) -> Layout {
        Layout::chart_with_type(width, height, type_px)
    }
    /// The picture's height as a fraction of its width in the page (stacked panels want more).
    fn aspect(&self) -> f64 {
        0.55
    }
    /// Whether the page may widen the picture beyond [`ViewKind::aspect`] to its column's
    /// width when the window's height is what limits it (a chart, whose axes stretch; not a
    /// matrix or a heat map, whose cells should stay square).
    fn widens(&self) -> bool {
        false
    }
    /// The kind of background job this view shows (declared in the view's own file), which a
    /// Web Worker may compute instead of the page.
    fn job(&self) -> Option<&'static JobKind> {
        None
    }
    /// Whether the figure still has work to do (its job is unfinished).
    fn pending(&self, lab: &mut Playground) -> bool {
        self.job().is_some_and(|kind| {
            lab.fit();
            !lab.job_done(kind)
        })
    }
    /// Does some of that work (`steps` units: a fold fit each for a grid, a value of C for
    /// the path); returns whether more remains.
    fn work(&self, lab: &mut Playground, steps: usize) -> bool {
        self.job().is_some_and(|kind| {
            lab.fit();
            lab.work_on(kind, steps)
        })
    }
    /// Work done towards the figure besides the lab's version (a job filling in): a new
    /// value recomputes the figure.
    fn progress(&self, lab: &Playground) -> u64 {
        if self.job().is_some() {
            lab.grid_steps()
        } else {
            0
        }
    }
    /// Whether dragging over the view turns it ([`ViewKind::drag`]).
    fn orbits(&self) -> bool {
        false
    }
    /// A drag of (dx, dy) pixels over a picture `width` wide (or an arrow key's worth of it):
    /// returns whether the picture changes.
    fn drag(&self, _lab: &mut Playground, _width: u32, _dx: f64, _dy: f64) -> bool {
        false
    }
    /// The view settings (rows of the parameter table's view group) this view reads, which
    /// the page shows above it; the others stay hidden.
    fn settings(&self) -> &'static [&'static str] {
        &[]
    }
    /// The figure for a picture of `layout`'s size, from the lab as it is now.
    fn compute(&self, lab: &mut Playground, layout: &Layout) -> Figure;
}

/// Every view; the first is the plane.
pub static VIEWS: &[&dyn ViewKind] = &[
    &plane::PlaneView,
    &loss::LossView,
    &roc::RocView,
    &cv::CvView,
    &curve::CurveView,
    &learning::LearningView,
    &choice::ChoiceView,
    &path::PathView,
    &gram::GramView,
    &lift::LiftView,
    &trace::TraceView,
];

/// The view with this id, or a message listing the ids there are.
pub fn view(id: &str) -> Result<&'static dyn ViewKind, Error> {
    VIEWS.iter().copied().find(|v| v.id() == id).ok_or_else(|| {
        let ids: Vec<&str> = VIEWS.iter().map(|v| v.id()).collect();
        Error::Parameter(format!("unknown view '{id}' (use {})", ids.join(", ")))
    })
}

/// Draws `figure` on `backend` (white background and all).
pub fn draw<DB: DrawingBackend>(
    backend: DB,
    figure: &Figure,
    layout: &Layout,
    lab: &Playground,
) -> Result<(), Error> {
    match figure {
        Figure::Plane(scene) => {
            crate::draw::scene::draw(backend, scene, layout, &lab.settings().layers(), true)
        }
        Figure::Chart(chart) => chart::draw(backend, chart, layout),
        Figure::Lift(figure) => lift::draw(backend, figure, layout, lab.orbit),
    }
}

/// What a figure is computed from: the view, the lab's version and the view's progress, the
/// highlighted point and the picture's size and type (the bits of its size in pixels).
type CacheKey = (&'static str, (u64, u64), Option<usize>, (u32, u32), u64);

/// A figure cached by what it was computed from.
#[derive(Clone, Debug, Default)]
pub struct Cache {
    entries: Vec<(CacheKey, Figure)>,
}

impl Cache {
    /// The figure of `view` for `layout`, computed again only when the lab has changed since.
    pub fn figure(
        &mut self,
        view: &dyn ViewKind,
        lab: &mut Playground,
        layout: &Layout,
    ) -> &Figure {
        lab.fit();
        self.figure_as_is(view, lab, layout)
    }

    /// The figure of `view_id` computed last, whatever it was computed for.
    pub fn latest(&self, view_id: &str) -> Option<&Figure> {
        self.entries
            .iter()
            .find(|(key, _)| key.0 == view_id)
            .map(|(_, figure)| figure)
    }

    /// The same, from the lab as it stands, without fitting first (for a view drawn from its
    /// background job's results alone).
    pub fn figure_as_is(
        &mut self,
        view: &dyn ViewKind,
        lab: &mut Playground,
        layout: &Layout,
    ) -> &Figure {
        let key = (
            view.id(),
            (lab.version(), view.progress(lab)),
            lab.highlight,
            (layout.width, layout.height),
            layout.font_px.to_bits(),
        );
        if let Some(i) = self.entries.iter().position(|(k, _)| *k == key) {
            return &self.entries[i].1;
        }
        let figure = view.compute(lab, layout);
        self.entries.retain(|(k, _)| k.0 != view.id());
        self.entries.push((key, figure));
        &self.entries.last().expect("just pushed").1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three stacked panels in a short, narrow picture: the upper alone is drawn, and the
    /// note, which describes all three, says so; a tall picture draws them all, its note as
    /// written.
    #[test]
    fn a_note_says_when_panels_did_not_fit() {
        let panel = || chart::Chart {
            x_range: (1.0, 10.0),
            y_range: (0.0, 1.0),
            note: "Above: this; below: that and the other.".into(),
            ..chart::Chart::default()
        };
        let mut top = panel();
        top.below = vec![panel(), panel()];
        let figure = Figure::Chart(Box::new(top));
        let short = Layout::chart_with_type(336, 150, 16.0);
        let note = figure.note_in(&short);
        assert_eq!(
            note,
            "Above: this; below: that and the other. This picture has room for 1 of its 3 \
             panels: a taller window shows them all."
        );
        let tall = Layout::chart_with_type(600, 900, 16.0);
        assert_eq!(figure.note_in(&tall), figure.note());
    }

    #[test]
    fn ids_are_unique_and_the_plane_comes_first() {
        let mut ids: Vec<&str> = VIEWS.iter().map(|v| v.id()).collect();
        assert_eq!(ids[0], "plane");
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), VIEWS.len());
        assert!(view("nope")
            .err()
            .unwrap()
            .to_string()
            .contains("use plane, loss"));
    }

    /// A figure written as bytes (as a worker sends it to the page) reads back as the same
    /// figure, every number bit for bit, for every view and several scenes; other bytes are
    /// refused, not misread.
    #[test]
    fn figures_cross_to_the_page_unchanged() {
        let scenes = [
            "preset=moons&n=80&noise=0.25&seed=4&kernel=rbf&C=3&gamma=2",
            "preset=moons&n=80&noise=0.25&seed=4&kernel=poly&degree=2&test=0.25",
            "preset=blobs3&n=90&seed=2&model=logistic",
            "preset=xor&n=60&seed=1&model=knn&k=5",
        ];
        for hash in scenes {
            let mut lab = Playground::from_hash(hash);
            assert!(lab.warnings.is_empty(), "{hash}: {:?}", lab.warnings);
            lab.fit();
            assert!(lab.model().is_some(), "{hash}");
            for view in VIEWS.iter().skip(1) {
                let layout = view.layout(640, 360, 0.0);
                let figure = view.compute(&mut lab, &layout);
                let bytes = figure.to_bytes();
                assert!(!bytes.is_empty(), "{hash} {}", view.id());
                let back = Figure::from_bytes(&bytes).expect("reads back");
                assert_eq!(
                    format!("{back:?}"),
                    format!("{figure:?}"),
                    "{hash} {}",
                    view.id()
                );
                assert!(Figure::from_bytes(&bytes[..bytes.len() / 2]).is_none());
            }
        }
    }

    /// Every view gives every method of every task a figure or a sentence saying why not —
    /// never an empty frame — and draws it; outside classification no figure speaks of
    /// accuracy, margins y·f(x) or classes it does not have.
    #[test]
    fn every_view_of_every_method_of_every_task_shows_something_or_says_why_not() {
        use crate::core::task::Task;
        for task in Task::ALL {
            for method in crate::methods::registry::methods_of(task) {
                let hash = format!("task={}&model={}&n=30", task.id(), method.id());
                let mut lab = Playground::from_hash(&hash);
                assert!(lab.warnings.is_empty(), "{hash}: {:?}", lab.warnings);
                lab.fit();
                assert!(lab.model().is_some(), "{hash}");
                for view in VIEWS.iter().skip(1) {
                    let id = view.id();
                    view.work(&mut lab, 3);
                    let layout = view.layout(480, 300, 0.0);
                    let figure = view.compute(&mut lab, &layout);
                    let words = match &figure {
                        Figure::Chart(chart) => {
                            let parts: Vec<&str> = [chart.note.as_str(), &chart.headline]
                                .into_iter()
                                .chain([chart.x_label.as_str(), &chart.y_label])
                                .chain(chart.lines.iter().filter_map(|l| l.label.as_deref()))
                                .collect();
                            assert!(
                                !chart.is_blank() || !chart.note.is_empty(),
                                "{hash} {id}: blank"
                            );
                            parts.join(" | ")
                        }
                        Figure::Lift(lift) => {
                            assert!(
                                !lift.points.is_empty() || !lift.note.is_empty(),
                                "{hash} {id}: blank"
                            );
                            format!("{} | {}", lift.headline, lift.note)
                        }
                        Figure::Plane(_) => String::new(),
                    };
                    if task != Task::Classification {
                        for word in ["accuracy", "ordered by class", "y·f(x)"] {
                            assert!(!words.contains(word), "{hash} {id}: {words}");
                        }
                    }
                    let mut svg = String::new();
                    let backend = plotters::prelude::SVGBackend::with_string(
                        &mut svg,
                        (layout.width, layout.height),
                    );
                    draw(backend, &figure, &layout, &lab).expect("draws");
                    assert!(svg.contains("<text"), "{hash} {id}: words in the picture");
                }
            }
        }
    }
}

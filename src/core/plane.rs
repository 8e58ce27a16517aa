//! What the plane view shows, as data: the points and their support-vector marks, the decision
//! field or the class labels on a grid, level curves, and the marks each method adds as an
//! open list of drawing primitives (the `marks` module: a slack segment, the w arrow, an
//! ellipse or a Voronoi edge is a method's [`Decoration`], named in its own file). Methods fill
//! a [`Scene`]; the `scene` module draws it with plotters on any backend and `regions` colours
//! the regions. [`Scene::legend`] names what a scene draws (the `legend` module).

use crate::core::data::Point;
use crate::core::field::{Field, LabelField, PixelRect, View};
use crate::core::params::{Group, Values, LAB_ROWS};
use crate::core::task::Task;
use serde::{Deserialize, Serialize};

mod bits;
mod legend;
mod marks;
mod wire;
pub use legend::{LegendEntry, LegendMark};
pub use marks::{
    Colour, Dash, Decoration, Depth, Legend, PairStep, Pen, Primitive, Swatch, SwatchShape, Weight,
    Words,
};
pub use wire::Wire;

/// How a region's depth of colour follows the decision value f.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shading {
    /// By the margin |f|/scale (SVM: scale 1, so the margin band is pale).
    Margin { scale: f64 },
    /// By the probability's distance from ½: f is a log-odds, depth follows |2σ(f) − 1|.
    Probability,
    /// f is already a share in [−1, 1] (2 × vote share − 1).
    Share,
}

impl Default for Shading {
    fn default() -> Self {
        Shading::Margin { scale: 1.0 }
    }
}

/// How a training point is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mark {
    Plain,
    FreeSupport,
    BoundSupport,
}

/// Which optional layers are drawn: the layer rows of [`crate::core::params::LAB_ROWS`] that are on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layers {
    on: Vec<&'static str>,
}

impl Default for Layers {
    fn default() -> Self {
        Layers {
            on: LAB_ROWS
                .iter()
                .filter(|p| p.group == Group::Layer && p.default == "1")
                .map(|p| p.key)
                .collect(),
        }
    }
}

impl Layers {
    /// The layers `values` switch on.
    pub fn from_values(values: &Values) -> Layers {
        Layers {
            on: LAB_ROWS
                .iter()
                .filter(|p| p.group == Group::Layer && values.flag(p.key))
                .map(|p| p.key)
                .collect(),
        }
    }

    /// Whether the layer with this key (`regions`, `margins`, `sv`, `slack`, `w`, `vor`,
    /// `del`, `pairs`) is drawn.
    pub fn on(&self, key: &str) -> bool {
        self.on.contains(&key)
    }
}

/// What a level curve is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CurveKind {
    /// The decision boundary: solid and thick.
    Boundary,
    /// A margin or another level of f: dashed, shown with the margins layer.
    Level,
    /// The boundary of one two-class member of a multi-class model: dashed, named by the
    /// classes it separates.
    Pairwise,
    /// A boundary drawn from a posterior over the model's weights: thin and faint, so a
    /// handful of them shows where the boundary is uncertain.
    Sample,
}

/// A polyline in data coordinates, with an optional label drawn at its middle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    #[serde(with = "bits")]
    pub points: Vec<Point>,
    pub kind: CurveKind,
    pub label: Option<String>,
}

/// Everything one picture shows, in data coordinates. It travels as JSON from the worker
/// behind the page without its field and labels (the page gets the regions as an image).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Scene {
    pub view: Option<View>,
    /// What is learned from the points: in regression the vertical axis is the target t (the
    /// axes read x and t, not x₁ and x₂); in novelty detection the points are unlabelled. The
    /// legend says what the plane's own marks mean in it ([`Task::plane_words`]).
    #[serde(default)]
    pub task: Task,
    #[serde(with = "bits")]
    pub points: Vec<Point>,
    /// Index into the class colours (`regions::CLASS_COLOURS`) for each point.
    pub colour_of: Vec<usize>,
    pub marks: Vec<Mark>,
    /// Points drawn hollow: held out for testing, never trained on.
    pub hollow: Vec<bool>,
    /// The decision field; regions are coloured by `region_colours[f > 0]`.
    #[serde(skip)]
    pub field: Option<Field>,
    /// With more than two classes: the predicted class index (= colour) at each node, which
    /// then paints the regions instead of `field`.
    #[serde(skip)]
    pub labels: Option<LabelField>,
    /// [negative, positive] colour indices of the regions.
    pub region_colours: [usize; 2],
    pub shading: Shading,
    pub curves: Vec<Curve>,
    /// The method's own marks ([`Decoration`]), in the order they are drawn at each depth.
    pub decorations: Vec<Decoration>,
    /// The marks that follow the pointer (k-NN's lines to the neighbours), drawn before the
    /// others at their depth.
    pub pointer: Vec<Decoration>,
    /// The point under the pointer or chosen, haloed.
    pub highlight: Option<usize>,
}

impl Scene {
    /// The curves of one kind.
    pub fn curves_of(&self, kind: CurveKind) -> impl Iterator<Item = &Curve> {
        self.curves.iter().filter(move |c| c.kind == kind)
    }

    /// Every mark of the method's, those that follow the pointer first.
    pub fn all_decorations(&self) -> impl Iterator<Item = &Decoration> {
        self.pointer.iter().chain(&self.decorations)
    }

    /// The mark named `name`, if the scene has one.
    pub fn decoration(&self, name: &str) -> Option<&Decoration> {
        self.all_decorations().find(|d| d.name == name)
    }
}

/// The largest type a chart takes from the plane beside it (in its pixels): a floor larger
/// than this is a mistake of the caller's, not a reason to fill the picture with one word.
const MAX_TYPE_PX: f64 = 120.0;

/// The coarsest draft ([`Layout::draft`]): a third as many intervals a side as the full
/// picture, for a device too slow for the half.
pub const DRAFT_LEVELS: u8 = 2;

/// Where things go on a picture of a given size (all in the backend's pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub width: u32,
    pub height: u32,
    /// The square the view fills.
    pub plot: PixelRect,
    pub font_px: f64,
    pub margin: u32,
    pub label_area: u32,
    /// The room below the plot for the x axis's ticks and name (`label_area`, or 0 for a
    /// panel whose x axis is the one of the panel below it).
    pub x_label_area: u32,
    /// Radius of a point's disc.
    pub point_radius: f64,
    /// Width of the boundary stroke.
    pub stroke: u32,
    /// A draft picture, drawn while a slow device keeps up with a drag or a slider (the full
    /// picture follows once the edits pause): 0 for the full picture, k for the field on a
    /// grid of 1/(k + 1) as many intervals a side (`methods::picture::grid_for`), up to
    /// [`DRAFT_LEVELS`].
    pub draft: u8,
}

impl Layout {
    /// Large type and thick strokes, scaled to the picture, so a projector shows them well.
    pub fn new(width: u32, height: u32) -> Layout {
        Layout::scaled(width, height, width.min(height))
    }

    /// For a wide chart: type and strokes scaled to three quarters of its width (a chart
    /// beside or under the plane is wider than tall; scaled to its height, its type would be
    /// smaller than the plane's).
    pub fn chart(width: u32, height: u32) -> Layout {
        Layout::chart_with_type(width, height, 0.0)
    }

    /// The same with type never smaller than `type_px` (the tick labels of the plane the
    /// chart is shown beside, in this picture's pixels), and the margins and label areas that
    /// type needs: on a projector the room reads every chart as well as the plane.
    pub fn chart_with_type(width: u32, height: u32, type_px: f64) -> Layout {
        let size = (width * 3 / 4).min(height * 3 / 2);
        let own = Layout::scaled(width, height, size);
        if type_px.is_finite() && type_px > own.font_px {
            Layout::sized(width, height, size, type_px.min(MAX_TYPE_PX))
        } else {
            own
        }
    }

    /// The same as a draft picture of level `draft`, or the full picture for 0 (see
    /// [`Layout::draft`]; levels above [`DRAFT_LEVELS`] are that level).
    pub fn drafted(self, draft: u8) -> Layout {
        Layout {
            draft: draft.min(DRAFT_LEVELS),
            ..self
        }
    }

    /// The same with room right of the plot for a colour bar (the plot narrower by it).
    pub fn with_colour_bar(mut self) -> Layout {
        let bar = (self.font_px * 5.0).round();
        self.plot.width = (self.plot.width - bar).max(10.0);
        self
    }

    /// The same with a line of room above the plot for a headline (the plot lower by it).
    pub fn with_headline(mut self) -> Layout {
        let room = (self.font_px * 1.8).round();
        self.plot.top += room;
        self.plot.height = (self.plot.height - room).max(10.0);
        self
    }

    /// One of several panels stacked in this layout's picture: a strip with `top` pixels
    /// above a plot `plot_height` tall, then the margin, with the same type, strokes and left
    /// and right edges; with `x_axis`, room below the plot for the x axis too (else the panel
    /// below shows it).
    pub fn panel(&self, top: f64, plot_height: f64, x_axis: bool) -> Layout {
        let x_label_area = if x_axis { self.label_area } else { 0 };
        let height = top + plot_height + (self.margin + x_label_area) as f64;
        Layout {
            height: height.round() as u32,
            x_label_area,
            plot: PixelRect {
                top,
                height: plot_height,
                ..self.plot
            },
            ..*self
        }
    }

    /// The room a line of `text` takes in this layout's type, for placing texts that plotters
    /// does not place itself: a little more than a sans-serif's advances (digits and most
    /// letters 0.5–0.64 em, capitals about 0.7, m and w 0.9, the narrow ones under 0.4).
    pub fn text_width(&self, text: &str) -> f64 {
        let em = |c: char| match c {
            '.' | ',' | ':' | ';' | '\'' | '!' | '|' | 'i' | 'j' | 'l' | 'I' | '(' | ')' | '['
            | ']' | '-' | ' ' | 'f' | 't' | 'r' => 0.38,
            'm' | 'w' | 'M' | 'W' | '—' => 0.92,
            c if c.is_uppercase() => 0.74,
            _ => 0.62,
        };
        self.font_px * text.chars().map(em).sum::<f64>()
    }

    /// The margin right of the plot (wider when a colour bar sits there).
    pub fn right_margin(&self) -> u32 {
        (self.width as f64 - self.plot.left - self.plot.width).max(0.0) as u32
    }

    fn scaled(width: u32, height: u32, size: u32) -> Layout {
        let font_px = (size.max(120) as f64 * 0.034).clamp(12.0, 40.0);
        Layout::sized(width, height, size, font_px)
    }

    /// Strokes and discs scaled to `size`, type of `font_px` and the room it needs.
    fn sized(width: u32, height: u32, size: u32, font_px: f64) -> Layout {
        let size = size.max(120) as f64;
        let margin = (font_px * 0.9).round() as u32;
        let label_area = (font_px * 3.4).round() as u32;
        // plotters' chart layout: `margin` on every side, the label areas left and below.
        let side = |length: u32| length.saturating_sub(2 * margin + label_area).max(10) as f64;
        Layout {
            width,
            height,
            plot: PixelRect {
                left: (margin + label_area) as f64,
                top: margin as f64,
                width: side(width),
                height: side(height),
            },
            font_px,
            margin,
            label_area,
            x_label_area: label_area,
            point_radius: (size * 0.0095).clamp(3.0, 14.0),
            stroke: (size * 0.005).round().clamp(2.0, 8.0) as u32,
            draft: 0,
        }
    }
}

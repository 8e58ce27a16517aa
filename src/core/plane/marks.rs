//! The marks a method adds to the plane beside its regions and curves, as an open list: each
//! [`Decoration`] is a few drawing primitives ([`Primitive`]: segments, closed outlines, an
//! arrow, crosses, dots, the line at right angles through a segment's middle, rings and tags
//! at training points, the SMO inset) with what the plane needs to know of it: its name, the
//! layer that shows it, its depth among the plane's own layers ([`Depth`]), whether it means
//! anything outside the units it was fitted in, and its legend entry with a small copy of
//! itself ([`Swatch`]). A method builds its marks in its own file; the drawing code knows the
//! primitives, never a method's mark.
//!
//! Places are in data coordinates; rings and tags name training points by index, so they
//! follow the points when the lab maps the model's training points to the plane's.

use super::wire::Wire;
use crate::core::data::Point;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A name or a sentence: written in a method's file, or read back from the worker's JSON.
pub type Words = Cow<'static, str>;

/// A colour: the ink of axes and boundaries, a class's colour (by its colour index), or a
/// colour of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Ink,
    Class(usize),
    Rgb(u8, u8, u8),
}

/// How wide a line is, against the picture's stroke (`Layout::stroke`, scaled to the picture).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Weight {
    /// So many pixels, whatever the picture's size.
    Px(u32),
    /// One pixel less than the stroke, at least 2.
    Light,
    /// The stroke.
    Stroke,
    /// One pixel more than the stroke.
    Bold,
}

/// A line's dashes, scaled to a point's radius r.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dash {
    Solid,
    /// 2r drawn, 4r/3 left (outlines, the levels).
    Long,
    /// 1.2r drawn and 1.2r left.
    Short,
}

/// A line's colour, width and dashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pen {
    pub colour: Colour,
    pub weight: Weight,
    pub dash: Dash,
}

impl Pen {
    /// A solid line.
    pub const fn solid(colour: Colour, weight: Weight) -> Pen {
        Pen {
            colour,
            weight,
            dash: Dash::Solid,
        }
    }

    /// The same with these dashes.
    pub const fn dashed(self, dash: Dash) -> Pen {
        Pen { dash, ..self }
    }
}

/// What the drawing code draws.
#[derive(Clone, Debug)]
#[cfg_attr(test, derive(PartialEq))]
pub enum Primitive {
    /// Straight segments, each clipped to the view.
    Segments {
        lines: Vec<(Point, Point)>,
        pen: Pen,
    },
    /// A closed polyline.
    Outline { points: Vec<Point>, pen: Pen },
    /// An arrow in ink from `tail` to `head`, its head and `label` (past the head) sized to
    /// the picture's points and type.
    Arrow {
        tail: Point,
        head: Point,
        label: Words,
    },
    /// Crosses larger than a point, each in its colour edged with ink.
    Crosses { at: Vec<(Point, Colour)> },
    /// Filled dots, smaller than a point.
    Dots { at: Vec<Point>, colour: Colour },
    /// The line at right angles to the segment `ends` through its middle, across the view.
    Bisector { ends: (Point, Point), pen: Pen },
    /// Rings round training points (by index), larger than a support vector's; `double`, a
    /// second ring round the first.
    Rings {
        points: Vec<usize>,
        colour: Colour,
        double: bool,
    },
    /// Short texts beside training points (by index).
    Tags { tags: Vec<(usize, Words)> },
    /// The two-variable sub-problem of an SMO step, as an inset in the corner of the plot that
    /// hides the fewest points, the pair's own above all: `points` are the pair's points (they
    /// follow the points as rings do; `step.pair` names them by training point, as the status
    /// and the inset's title do).
    Inset {
        step: PairStep,
        points: (usize, usize),
    },
}

impl Primitive {
    /// Moves every place through `to` (rings, tags and the inset name points or multipliers,
    /// not places: they stay).
    pub fn map_places(&mut self, to: &dyn Fn(Point) -> Point) {
        match self {
            Primitive::Segments { lines, .. } => {
                for (a, b) in lines {
                    (*a, *b) = (to(*a), to(*b));
                }
            }
            Primitive::Outline { points, .. } => points.iter_mut().for_each(|p| *p = to(*p)),
            Primitive::Arrow { tail, head, .. } => (*tail, *head) = (to(*tail), to(*head)),
            Primitive::Crosses { at } => at.iter_mut().for_each(|(p, _)| *p = to(*p)),
            Primitive::Dots { at, .. } => at.iter_mut().for_each(|p| *p = to(*p)),
            Primitive::Bisector { ends: (a, b), .. } => (*a, *b) = (to(*a), to(*b)),
            Primitive::Rings { .. } | Primitive::Tags { .. } | Primitive::Inset { .. } => {}
        }
    }

    /// Renumbers the points its rings and tags name through `to`, and forgets those `to`
    /// gives `None` for.
    pub fn map_points(&mut self, to: &dyn Fn(usize) -> Option<usize>) {
        match self {
            Primitive::Rings { points, .. } => {
                *points = points.iter().filter_map(|&i| to(i)).collect();
            }
            Primitive::Tags { tags } => {
                *tags = std::mem::take(tags)
                    .into_iter()
                    .filter_map(|(i, text)| to(i).map(|i| (i, text)))
                    .collect();
            }
            Primitive::Inset { points, .. } => {
                if let (Some(i), Some(j)) = (to(points.0), to(points.1)) {
                    *points = (i, j);
                }
            }
            _ => {}
        }
    }

    /// Whether it draws anything on a plane of `points` points.
    pub fn shows(&self, points: usize) -> bool {
        match self {
            Primitive::Segments { lines, .. } => !lines.is_empty(),
            Primitive::Outline { points, .. } => !points.is_empty(),
            Primitive::Crosses { at } => !at.is_empty(),
            Primitive::Dots { at, .. } => !at.is_empty(),
            Primitive::Rings { points: on, .. } => on.iter().any(|&i| i < points),
            Primitive::Tags { tags } => tags.iter().any(|&(i, _)| i < points),
            Primitive::Arrow { .. } | Primitive::Bisector { .. } | Primitive::Inset { .. } => true,
        }
    }
}

/// One SMO pair update: the two-variable sub-problem on the box [0, C]² and the line
/// y_i α_i + y_j α_j = const, where (α_i, α_j) started, the unclipped optimum on the line and
/// where it ended (the optimum clipped to the box).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairStep {
    /// (i, j), as training-point indices.
    pub pair: (usize, usize),
    /// y_i and y_j ∈ {−1, +1}.
    pub y: [f64; 2],
    /// The box bound C.
    pub c: f64,
    pub before: [f64; 2],
    pub after: [f64; 2],
    pub unclipped: [f64; 2],
}

/// Where a mark is drawn among the plane's own layers (the regions, the level curves and the
/// boundary, the points, the curves' labels, the highlight of the point under the pointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Depth {
    /// Over the regions, under the curves.
    UnderCurves,
    /// Over the curves, under the points.
    OverCurves,
    /// Over the points, under the curves' labels.
    OverPoints,
    /// Over everything but the highlight.
    Top,
}

/// A small copy of a mark for its legend entry: shapes in a box 26 wide and 18 high (pixels of
/// the legend's type, y down), drawn by the page.
pub type Swatch = Vec<SwatchShape>;

/// One shape of a [`Swatch`]; a pen's weight is in the swatch's pixels ([`Weight::Px`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum SwatchShape {
    Line {
        from: [f32; 2],
        to: [f32; 2],
        pen: Pen,
    },
    /// An ellipse (a circle with equal radii), outlined and perhaps filled.
    Ellipse {
        centre: [f32; 2],
        radii: [f32; 2],
        pen: Pen,
        fill: Option<Colour>,
    },
    /// A closed polygon, filled.
    Polygon { points: Vec<[f32; 2]>, fill: Colour },
    /// A text centred at `at`, bold.
    Text {
        at: [f32; 2],
        text: Words,
        colour: Colour,
    },
}

impl SwatchShape {
    /// A line across the swatch's middle.
    pub fn across(pen: Pen) -> SwatchShape {
        SwatchShape::Line {
            from: [1.0, 9.0],
            to: [25.0, 9.0],
            pen,
        }
    }

    /// A circle of radius `r` at the swatch's centre.
    pub fn ring(r: f32, pen: Pen) -> SwatchShape {
        SwatchShape::Ellipse {
            centre: [13.0, 9.0],
            radii: [r, r],
            pen,
            fill: None,
        }
    }
}

/// A mark's line in the legend.
#[derive(Clone, Debug)]
#[cfg_attr(test, derive(PartialEq))]
pub struct Legend {
    /// A few words naming the mark ("slack ξᵢ").
    pub label: Words,
    /// One or two sentences saying what it means.
    pub explain: Words,
    pub swatch: Swatch,
    /// Its place among the marks' entries, which follow the points', the support vectors'
    /// and the curves' and come before the regions': lower first.
    pub rank: u16,
}

/// One kind of mark of a picture. It travels as numbers and words (`wire`).
///
/// Two lists of marks are compared by their wires ([`Wire::of`]): one comparison, not one
/// for every kind of primitive.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(test, derive(PartialEq))]
#[serde(try_from = "Wire")]
pub struct Decoration {
    /// The mark's name (`slack`, `voronoi_edges`): its legend entry's, for the page.
    pub name: Words,
    pub shapes: Vec<Primitive>,
    pub depth: Depth,
    /// Drawn, and named in the legend, only with this layer on.
    pub layer: Option<Words>,
    /// Whether it means something only in the units the model was fitted in: the w arrow is
    /// normal to the boundary in z = (x − μ)/σ, not in the plane's x, so a standardised
    /// model leaves it out.
    pub fitted_units_only: bool,
    pub legend: Option<Legend>,
}

/// Written as its wire, from the mark itself (serde's `into` would copy it first).
impl Serialize for Decoration {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Wire::from(self).serialize(serializer)
    }
}

impl Decoration {
    /// A mark named `name` of `shapes` at `depth`, on whatever layer, with no legend entry.
    pub fn new(name: &'static str, depth: Depth, shapes: Vec<Primitive>) -> Decoration {
        Decoration {
            name: Cow::Borrowed(name),
            shapes,
            depth,
            layer: None,
            fitted_units_only: false,
            legend: None,
        }
    }

    /// The same, drawn only with the layer `key` on.
    pub fn on_layer(self, key: &'static str) -> Decoration {
        Decoration {
            layer: Some(Cow::Borrowed(key)),
            ..self
        }
    }

    /// The same, meaningful only in the units it was fitted in.
    pub fn fitted_units_only(self) -> Decoration {
        Decoration {
            fitted_units_only: true,
            ..self
        }
    }

    /// The same with its legend entry.
    pub fn named(
        self,
        rank: u16,
        label: impl Into<Words>,
        explain: impl Into<Words>,
        swatch: Swatch,
    ) -> Decoration {
        Decoration {
            legend: Some(Legend {
                label: label.into(),
                explain: explain.into(),
                swatch,
                rank,
            }),
            ..self
        }
    }

    /// The same with its legend entry's words replaced (a shared mark said in one method's
    /// terms).
    pub fn worded(mut self, label: &'static str, explain: &'static str) -> Decoration {
        if let Some(legend) = &mut self.legend {
            (legend.label, legend.explain) = (label.into(), explain.into());
        }
        self
    }

    /// Whether its layer is on (or it has none).
    pub fn layer_on(&self, layers: &super::Layers) -> bool {
        self.layer.as_deref().is_none_or(|key| layers.on(key))
    }

    /// Whether it draws anything on a plane of `points` points with `layers` on.
    pub fn shows(&self, layers: &super::Layers, points: usize) -> bool {
        self.layer_on(layers) && self.shapes.iter().any(|s| s.shows(points))
    }

    /// The segments it draws.
    pub fn lines(&self) -> Vec<(Point, Point)> {
        let segments = self.shapes.iter().filter_map(|s| match s {
            Primitive::Segments { lines, .. } => Some(lines),
            _ => None,
        });
        segments.flatten().copied().collect()
    }

    /// The points its rings circle.
    pub fn ringed(&self) -> Vec<usize> {
        let rings = self.shapes.iter().filter_map(|s| match s {
            Primitive::Rings { points, .. } => Some(points),
            _ => None,
        });
        rings.flatten().copied().collect()
    }

    /// Its arrow's tail and head, if it draws one.
    pub fn arrow(&self) -> Option<(Point, Point)> {
        self.shapes.iter().find_map(|s| match s {
            Primitive::Arrow { tail, head, .. } => Some((*tail, *head)),
            _ => None,
        })
    }

    /// Its inset's SMO step and the pair's points, if it draws one.
    pub fn inset(&self) -> Option<(&PairStep, (usize, usize))> {
        self.shapes.iter().find_map(|s| match s {
            Primitive::Inset { step, points } => Some((step, *points)),
            _ => None,
        })
    }

    /// Moves every place through `to` ([`Primitive::map_places`]).
    pub fn map_places(&mut self, to: &dyn Fn(Point) -> Point) {
        self.shapes.iter_mut().for_each(|s| s.map_places(to));
    }

    /// Renumbers the training points it names ([`Primitive::map_points`]).
    pub fn map_points(&mut self, to: &dyn Fn(usize) -> Option<usize>) {
        self.shapes.iter_mut().for_each(|s| s.map_points(to));
    }
}

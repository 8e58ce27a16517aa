//! Marks that several methods draw alike, built once: the w arrow of a linear model (its
//! normal w, from the boundary), slack segments (an SVM's, ε-SVR's beyond the tube) and the
//! ring round the point of the last update while stepping through a run. Each is a [`Decoration`] with its legend entry; a mark of one method alone
//! lives in that method's file.

use crate::core::data::Point;
use crate::core::field::View;
use crate::core::params::layer_explain;
use crate::core::plane::{Colour, Decoration, Depth, Pen, Primitive, SwatchShape, Weight};

/// Okabe–Ito vermillion: the point of the last update, and the SMO pair.
pub const UPDATE_COLOUR: Colour = Colour::Rgb(213, 94, 0);

/// The w arrow from the boundary wᵀx + b = 0 along w ([`crate::core::field::w_arrow`]), with
/// the `w` layer; none when w is zero or the boundary misses the view.
pub fn w_arrow(w: [f64; 2], bias: f64, view: &View) -> Option<Decoration> {
    crate::core::field::w_arrow(w, bias, view).map(|(tail, head)| arrow("w", tail, head))
}

/// An arrow named `w` in the legend from `tail` to `head` (the nearest-means classifier's
/// from one mean to the other), with the `w` layer; it means nothing in other units.
pub fn arrow(label: &'static str, tail: Point, head: Point) -> Decoration {
    let ink = Pen::solid(Colour::Ink, Weight::Px(3));
    let swatch = vec![
        SwatchShape::Line {
            from: [1.0, 9.0],
            to: [18.0, 9.0],
            pen: ink,
        },
        SwatchShape::Polygon {
            points: vec![[25.0, 9.0], [17.0, 4.0], [17.0, 14.0]],
            fill: Colour::Ink,
        },
    ];
    let shape = Primitive::Arrow {
        tail,
        head,
        label: label.into(),
    };
    Decoration::new("w_arrow", Depth::OverCurves, vec![shape])
        .on_layer("w")
        .fitted_units_only()
        .named(20, "w", layer_explain("w"), swatch)
}

/// The ring round training point `index`, the one the step shown updated the model on.
pub fn last_update(index: usize) -> Decoration {
    let ring = Primitive::Rings {
        points: vec![index],
        colour: UPDATE_COLOUR,
        double: false,
    };
    let swatch = vec![SwatchShape::ring(
        6.5,
        Pen::solid(UPDATE_COLOUR, Weight::Px(3)),
    )];
    Decoration::new("last_update", Depth::Top, vec![ring]).named(
        40,
        "point of the last update",
        "The point the step shown updated the model on.",
        swatch,
    )
}

/// Slack segments, each from a point to where it would pay no slack (an SVM's bound support
/// vector to its own margin), with the `slack` layer.
pub fn slack(lines: Vec<(Point, Point)>) -> Decoration {
    let pen = Pen::solid(SLACK_COLOUR, Weight::Stroke);
    let swatch = vec![SwatchShape::across(Pen::solid(SLACK_COLOUR, Weight::Px(3)))];
    Decoration::new(
        "slack",
        Depth::UnderCurves,
        vec![Primitive::Segments { lines, pen }],
    )
    .on_layer("slack")
    .named(10, "slack ξᵢ", layer_explain("slack"), swatch)
}

/// The purple of slack segments.
const SLACK_COLOUR: Colour = Colour::Rgb(120, 40, 140);

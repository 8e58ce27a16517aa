//! The plane: the points, the decision regions and curves, and each method's marks — the
//! lab's main view (see [`crate::methods::picture`] and [`crate::draw::scene`]).

use super::{Figure, ViewKind};
use crate::core::plane::Layout;
use crate::lab::playground::Playground;

pub struct PlaneView;

impl ViewKind for PlaneView {
    fn id(&self) -> &'static str {
        "plane"
    }

    fn title(&self) -> &'static str {
        "the plane"
    }

    /// The plane's type is its own: the views' follow it, not the other way round.
    fn layout(&self, width: u32, height: u32, _type_px: f64) -> Layout {
        Layout::new(width, height)
    }

    fn compute(&self, lab: &mut Playground, layout: &Layout) -> Figure {
        Figure::Plane(Box::new(lab.scene(layout)))
    }
}

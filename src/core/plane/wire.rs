//! How a [`Decoration`] travels between the worker and the page (as JSON, and in a figure's
//! compact bytes): as two flat lists, its numbers and its words, written and read in one
//! order. The derived form of its nested enums, read in two formats, made the module 37 KB
//! (gzipped) larger; two lists are read by code the module holds already.
//!
//! Numbers: the depth, whether it holds in fitted units only, whether it has a legend entry
//! (then its rank and swatch), and its primitives; a colour is four numbers (kind, then its
//! index or its red, green and blue), a pen seven (its colour, its weight's kind and pixels,
//! its dashes). Words: its name, its layer (empty: none), the legend's label and explanation,
//! then every text of its primitives and swatch in order.

use super::marks::{
    Colour, Dash, Decoration, Depth, Legend, PairStep, Pen, Primitive, SwatchShape, Weight, Words,
};
use crate::core::data::Point;
use serde::{Deserialize, Serialize};

/// A decoration as numbers and words.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Wire {
    numbers: Vec<f64>,
    words: Vec<String>,
}

impl From<&Decoration> for Wire {
    fn from(d: &Decoration) -> Wire {
        let mut w = Wire::default();
        w.word(&d.name);
        w.word(d.layer.as_deref().unwrap_or(""));
        let depth = [
            Depth::UnderCurves,
            Depth::OverCurves,
            Depth::OverPoints,
            Depth::Top,
        ];
        w.count(depth.iter().position(|&x| x == d.depth).unwrap_or(0));
        w.flag(d.fitted_units_only);
        w.flag(d.legend.is_some());
        if let Some(legend) = &d.legend {
            w.word(&legend.label);
            w.word(&legend.explain);
            w.count(legend.rank as usize);
            w.count(legend.swatch.len());
            legend.swatch.iter().for_each(|s| w.swatch(s));
        }
        w.count(d.shapes.len());
        d.shapes.iter().for_each(|p| w.primitive(p));
        w
    }
}

impl TryFrom<Wire> for Decoration {
    type Error = String;

    fn try_from(wire: Wire) -> Result<Decoration, String> {
        Reader {
            numbers: wire.numbers.iter(),
            words: wire.words.into_iter(),
        }
        .decoration()
        .ok_or_else(|| "a mark of the plane that does not read back".to_string())
    }
}

impl Wire {
    /// The wires of `marks`, to compare them.
    pub fn of(marks: &[Decoration]) -> Vec<Wire> {
        marks.iter().map(Wire::from).collect()
    }

    #[inline(never)]
    fn number(&mut self, x: f64) {
        self.numbers.push(x);
    }

    #[inline(never)]
    fn count(&mut self, n: usize) {
        self.numbers.push(n as f64);
    }

    fn flag(&mut self, on: bool) {
        self.numbers.push(on as u8 as f64);
    }

    #[inline(never)]
    fn word(&mut self, text: &str) {
        self.words.push(text.to_string());
    }

    #[inline(never)]
    fn point(&mut self, p: Point) {
        self.numbers.extend(p);
    }

    #[inline(never)]
    fn at(&mut self, p: [f32; 2]) {
        self.numbers.extend(p.map(f64::from));
    }

    #[inline(never)]
    fn colour(&mut self, c: Colour) {
        self.numbers.extend(match c {
            Colour::Ink => [0.0; 4],
            Colour::Class(i) => [1.0, i as f64, 0.0, 0.0],
            Colour::Rgb(r, g, b) => [2.0, r.into(), g.into(), b.into()],
        });
    }

    #[inline(never)]
    fn pen(&mut self, pen: &Pen) {
        self.colour(pen.colour);
        let (kind, px) = match pen.weight {
            Weight::Px(px) => (0, px),
            Weight::Light => (1, 0),
            Weight::Stroke => (2, 0),
            Weight::Bold => (3, 0),
        };
        self.count(kind);
        self.count(px as usize);
        self.count(pen.dash as usize);
    }

    fn primitive(&mut self, p: &Primitive) {
        match p {
            Primitive::Segments { lines, pen } => {
                self.count(0);
                self.pen(pen);
                self.count(lines.len());
                for &(a, b) in lines {
                    self.point(a);
                    self.point(b);
                }
            }
            Primitive::Outline { points, pen } => {
                self.count(1);
                self.pen(pen);
                self.count(points.len());
                points.iter().for_each(|&p| self.point(p));
            }
            Primitive::Arrow { tail, head, label } => {
                self.count(2);
                self.point(*tail);
                self.point(*head);
                self.word(label);
            }
            Primitive::Crosses { at } => {
                self.count(3);
                self.count(at.len());
                for &(p, c) in at {
                    self.point(p);
                    self.colour(c);
                }
            }
            Primitive::Dots { at, colour } => {
                self.count(4);
                self.colour(*colour);
                self.count(at.len());
                at.iter().for_each(|&p| self.point(p));
            }
            Primitive::Bisector { ends, pen } => {
                self.count(5);
                self.pen(pen);
                self.point(ends.0);
                self.point(ends.1);
            }
            Primitive::Rings {
                points,
                colour,
                double,
            } => {
                self.count(6);
                self.colour(*colour);
                self.flag(*double);
                self.count(points.len());
                points.iter().for_each(|&i| self.count(i));
            }
            Primitive::Tags { tags } => {
                self.count(7);
                self.count(tags.len());
                for (i, text) in tags {
                    self.count(*i);
                    self.word(text);
                }
            }
            Primitive::Inset { step, points } => {
                self.count(8);
                self.count(points.0);
                self.count(points.1);
                self.count(step.pair.0);
                self.count(step.pair.1);
                self.numbers.extend(step.y);
                self.number(step.c);
                self.numbers.extend(step.before);
                self.numbers.extend(step.after);
                self.numbers.extend(step.unclipped);
            }
        }
    }

    fn swatch(&mut self, s: &SwatchShape) {
        match s {
            SwatchShape::Line { from, to, pen } => {
                self.count(0);
                self.at(*from);
                self.at(*to);
                self.pen(pen);
            }
            SwatchShape::Ellipse {
                centre,
                radii,
                pen,
                fill,
            } => {
                self.count(1);
                self.at(*centre);
                self.at(*radii);
                self.pen(pen);
                self.flag(fill.is_some());
                self.colour(fill.unwrap_or(Colour::Ink));
            }
            SwatchShape::Polygon { points, fill } => {
                self.count(2);
                self.colour(*fill);
                self.count(points.len());
                points.iter().for_each(|&p| self.at(p));
            }
            SwatchShape::Text { at, text, colour } => {
                self.count(3);
                self.at(*at);
                self.colour(*colour);
                self.word(text);
            }
        }
    }
}

/// Reads a [`Wire`] back in the order it was written; `None` at the first thing out of place.
struct Reader<'a> {
    numbers: std::slice::Iter<'a, f64>,
    words: std::vec::IntoIter<String>,
}

impl Reader<'_> {
    #[inline(never)]
    fn number(&mut self) -> Option<f64> {
        self.numbers.next().copied()
    }

    /// A count, an index or a code: a whole number of at most 2³².
    #[inline(never)]
    fn count(&mut self) -> Option<usize> {
        let x = self.number()?;
        (x >= 0.0 && x.fract() == 0.0 && x <= u32::MAX as f64).then_some(x as usize)
    }

    fn byte(&mut self) -> Option<u8> {
        u8::try_from(self.count()?).ok()
    }

    fn flag(&mut self) -> Option<bool> {
        Some(self.count()? != 0)
    }

    #[inline(never)]
    fn word(&mut self) -> Option<Words> {
        self.words.next().map(Words::Owned)
    }

    #[inline(never)]
    fn point(&mut self) -> Option<Point> {
        Some([self.number()?, self.number()?])
    }

    fn pair(&mut self) -> Option<[f64; 2]> {
        self.point()
    }

    #[inline(never)]
    fn at(&mut self) -> Option<[f32; 2]> {
        Some([self.number()? as f32, self.number()? as f32])
    }

    /// `n` things read by `read`, `n` at most what is left of the numbers (so a wrong count
    /// cannot ask for a huge list).
    fn list<T>(&mut self, read: impl Fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let n = self.count()?;
        if n > self.numbers.len() + self.words.len() {
            return None;
        }
        let mut list = Vec::with_capacity(n);
        for _ in 0..n {
            list.push(read(self)?);
        }
        Some(list)
    }

    #[inline(never)]
    fn colour(&mut self) -> Option<Colour> {
        let (kind, a, b, c) = (self.count()?, self.count()?, self.byte()?, self.byte()?);
        match kind {
            0 => Some(Colour::Ink),
            1 => Some(Colour::Class(a)),
            2 => Some(Colour::Rgb(u8::try_from(a).ok()?, b, c)),
            _ => None,
        }
    }

    #[inline(never)]
    fn pen(&mut self) -> Option<Pen> {
        let colour = self.colour()?;
        let (kind, px) = (self.count()?, self.count()?);
        let weight = match kind {
            0 => Weight::Px(px as u32),
            1 => Weight::Light,
            2 => Weight::Stroke,
            3 => Weight::Bold,
            _ => return None,
        };
        let dash = [Dash::Solid, Dash::Long, Dash::Short]
            .get(self.count()?)
            .copied()?;
        Some(Pen {
            colour,
            weight,
            dash,
        })
    }

    fn primitive(&mut self) -> Option<Primitive> {
        Some(match self.count()? {
            0 => {
                let pen = self.pen()?;
                let lines = self.list(|r| Some((r.point()?, r.point()?)))?;
                Primitive::Segments { lines, pen }
            }
            1 => {
                let pen = self.pen()?;
                let points = self.list(Self::point)?;
                Primitive::Outline { points, pen }
            }
            2 => Primitive::Arrow {
                tail: self.point()?,
                head: self.point()?,
                label: self.word()?,
            },
            3 => Primitive::Crosses {
                at: self.list(|r| Some((r.point()?, r.colour()?)))?,
            },
            4 => {
                let colour = self.colour()?;
                let at = self.list(Self::point)?;
                Primitive::Dots { at, colour }
            }
            5 => Primitive::Bisector {
                pen: self.pen()?,
                ends: (self.point()?, self.point()?),
            },
            6 => {
                let (colour, double) = (self.colour()?, self.flag()?);
                let points = self.list(Self::count)?;
                Primitive::Rings {
                    points,
                    colour,
                    double,
                }
            }
            7 => Primitive::Tags {
                tags: self.list(|r| Some((r.count()?, r.word()?)))?,
            },
            8 => Primitive::Inset {
                points: (self.count()?, self.count()?),
                step: PairStep {
                    pair: (self.count()?, self.count()?),
                    y: self.pair()?,
                    c: self.number()?,
                    before: self.pair()?,
                    after: self.pair()?,
                    unclipped: self.pair()?,
                },
            },
            _ => return None,
        })
    }

    fn swatch(&mut self) -> Option<SwatchShape> {
        Some(match self.count()? {
            0 => SwatchShape::Line {
                from: self.at()?,
                to: self.at()?,
                pen: self.pen()?,
            },
            1 => {
                let (centre, radii, pen) = (self.at()?, self.at()?, self.pen()?);
                let (filled, fill) = (self.flag()?, self.colour()?);
                SwatchShape::Ellipse {
                    centre,
                    radii,
                    pen,
                    fill: filled.then_some(fill),
                }
            }
            2 => {
                let fill = self.colour()?;
                let points = self.list(Self::at)?;
                SwatchShape::Polygon { points, fill }
            }
            3 => SwatchShape::Text {
                at: self.at()?,
                colour: self.colour()?,
                text: self.word()?,
            },
            _ => return None,
        })
    }

    fn decoration(&mut self) -> Option<Decoration> {
        let name = self.word()?;
        let layer = Some(self.word()?).filter(|l| !l.is_empty());
        let depth = [
            Depth::UnderCurves,
            Depth::OverCurves,
            Depth::OverPoints,
            Depth::Top,
        ]
        .get(self.count()?)
        .copied()?;
        let fitted_units_only = self.flag()?;
        let legend = if self.flag()? {
            let (label, explain) = (self.word()?, self.word()?);
            let rank = u16::try_from(self.count()?).ok()?;
            let swatch = self.list(Self::swatch)?;
            Some(Legend {
                label,
                explain,
                swatch,
                rank,
            })
        } else {
            None
        };
        let shapes = self.list(Self::primitive)?;
        let read_all = self.numbers.len() == 0 && self.words.len() == 0;
        read_all.then_some(Decoration {
            name,
            shapes,
            depth,
            layer,
            fitted_units_only,
            legend,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pen() -> Pen {
        Pen::solid(Colour::Rgb(120, 40, 140), Weight::Px(3)).dashed(Dash::Short)
    }

    /// Every primitive and swatch shape, every colour, weight and dash.
    fn every_kind() -> Decoration {
        let step = PairStep {
            pair: (3, 7),
            y: [1.0, -1.0],
            c: 10.0,
            before: [0.0, 0.5],
            after: [1.5, 2.0],
            unclipped: [-0.25, 12.0],
        };
        let shapes = vec![
            Primitive::Segments {
                lines: vec![([0.1, -2.0], [1e9, 3.5]), ([0.0, 0.0], [1.0, 1.0])],
                pen: Pen::solid(Colour::Class(4), Weight::Light),
            },
            Primitive::Outline {
                points: vec![[1.0, 2.0], [3.0, 4.0], [5.0, -6.0]],
                pen: Pen::solid(Colour::Ink, Weight::Bold).dashed(Dash::Long),
            },
            Primitive::Arrow {
                tail: [0.0, 1.0],
                head: [2.0, 3.0],
                label: "w".into(),
            },
            Primitive::Crosses {
                at: vec![([1.0, 1.0], Colour::Class(0)), ([2.0, 2.0], Colour::Ink)],
            },
            Primitive::Dots {
                at: vec![[0.5, 0.25]],
                colour: Colour::Rgb(90, 90, 90),
            },
            Primitive::Bisector {
                ends: ([0.0, 0.0], [1.0, 0.0]),
                pen: Pen::solid(Colour::Ink, Weight::Stroke),
            },
            Primitive::Rings {
                points: vec![0, 12, 4_000_000],
                colour: Colour::Rgb(213, 94, 0),
                double: true,
            },
            Primitive::Tags {
                tags: vec![(2, "3".into()), (5, "α₁₂ & <b>".into())],
            },
            Primitive::Inset {
                step,
                points: (9, 14),
            },
        ];
        let swatch = vec![
            SwatchShape::across(pen()),
            SwatchShape::ring(6.5, pen()),
            SwatchShape::Ellipse {
                centre: [13.0, 9.0],
                radii: [7.0, 4.0],
                pen: pen(),
                fill: Some(Colour::Class(2)),
            },
            SwatchShape::Polygon {
                points: vec![[25.0, 9.0], [17.0, 4.0], [17.0, 14.0]],
                fill: Colour::Ink,
            },
            SwatchShape::Text {
                at: [13.0, 9.0],
                text: "2".into(),
                colour: Colour::Class(1),
            },
        ];
        Decoration::new("every_kind", Depth::OverPoints, shapes)
            .on_layer("slack")
            .fitted_units_only()
            .named(65, "every kind", "Each primitive once.", swatch)
    }

    #[test]
    fn every_kind_of_mark_reads_back_as_it_was_written() {
        let plain = Decoration::new("plain", Depth::Top, Vec::new());
        for decoration in [every_kind(), plain] {
            // As a scene carries it: the mark's own serde, through its wire.
            let json = serde_json::to_string(&decoration).unwrap();
            let read: Decoration = serde_json::from_str(&json).unwrap();
            assert_eq!(read, decoration);
            let bytes = postcard::to_allocvec(&decoration).unwrap();
            let read: Decoration = postcard::from_bytes(&bytes).unwrap();
            assert_eq!(read, decoration);
        }
    }

    #[test]
    fn a_wire_out_of_place_is_refused_not_misread() {
        let whole = Wire::from(&every_kind());
        let mut short = whole.clone();
        short.numbers.pop();
        assert!(Decoration::try_from(short).is_err());
        let mut long = whole.clone();
        long.words.push("more".into());
        assert!(Decoration::try_from(long).is_err());
        let mut huge = whole.clone();
        // The count of the swatch's shapes, written after the depth, two flags and the rank.
        huge.numbers[4] = 1e9;
        assert!(Decoration::try_from(huge).is_err());
        let mut fraction = whole;
        fraction.numbers[0] = 0.5;
        assert!(Decoration::try_from(fraction).is_err());
    }
}

//! The legend of a picture: one entry for each kind of mark the picture draws, in the order a
//! reader meets them (the points, then the model's lines, then its other marks, the regions
//! last), each with a name and a sentence in the lecture's words. It is read off the [`Scene`]
//! and the [`Layers`] with the same conditions `scene::draw` uses to draw, so it names exactly
//! what is on the plot: support vectors only when some point is one and the layer is on, a
//! test point only when some point is held out. What the plane's own marks mean depends on the
//! task (a point, a support vector, the boundary: `Task::plane_words`); a method's marks bring
//! their own words.

use super::marks::{Swatch, Words};
use super::{CurveKind, Layers, Mark, Scene, Shading};
use crate::core::params::layer_explain;
use crate::core::pieces;
use crate::core::task::Task;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// What an entry's swatch shows: enough for the page to draw a small copy of the mark (a
/// class's shape and colour come from its colour index, as in the plane). The plane's own
/// marks are named here; a method's marks ([`super::Decoration`]) bring their name and swatch.
#[derive(Clone, Debug, PartialEq)]
pub enum LegendMark {
    /// A training point of the class with this colour index (and shape).
    Class { colour: usize },
    /// A held-out test point, hollow, drawn in the shape of this colour index.
    Test { colour: usize },
    /// A circle round a free support vector.
    FreeSupport,
    /// A square round a bound support vector.
    BoundSupport,
    /// The decision boundary: a thick solid line.
    Boundary,
    /// Dashed level curves of f (margins or targets), or of p (contours).
    Levels { probability: bool },
    /// The dashed boundaries of a multi-class model's members.
    Pairwise,
    /// Faint thin boundaries drawn from the posterior over the weights.
    PosteriorSamples,
    /// The decision regions in these two colour indices, shaded by `shading`.
    Regions {
        negative: usize,
        positive: usize,
        shading: Shading,
    },
    /// A method's mark, by its name, with its small copy.
    Drawn { name: Words, swatch: Swatch },
}

impl LegendMark {
    /// The page's name of the mark (`class`, `levels`, `slack`), its `type` in JSON.
    pub fn kind(&self) -> &str {
        match self {
            LegendMark::Class { .. } => "class",
            LegendMark::Test { .. } => "test",
            LegendMark::FreeSupport => "free_support",
            LegendMark::BoundSupport => "bound_support",
            LegendMark::Boundary => "boundary",
            LegendMark::Levels { .. } => "levels",
            LegendMark::Pairwise => "pairwise",
            LegendMark::PosteriorSamples => "posterior_samples",
            LegendMark::Regions { .. } => "regions",
            LegendMark::Drawn { name, .. } => name,
        }
    }
}

/// `{"type": kind, …its fields}`, as the page reads it.
impl Serialize for LegendMark {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", self.kind())?;
        match self {
            LegendMark::Class { colour } | LegendMark::Test { colour } => {
                map.serialize_entry("colour", colour)?
            }
            LegendMark::Levels { probability } => {
                map.serialize_entry("probability", probability)?
            }
            LegendMark::Regions {
                negative,
                positive,
                shading,
            } => {
                map.serialize_entry("negative", negative)?;
                map.serialize_entry("positive", positive)?;
                map.serialize_entry("shading", shading)?;
            }
            LegendMark::Drawn { swatch, .. } => map.serialize_entry("swatch", swatch)?,
            _ => {}
        }
        map.end()
    }
}

/// One line of the legend.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LegendEntry {
    pub mark: LegendMark,
    /// A few words naming the mark ("bound support vector, αᵢ = C").
    pub label: String,
    /// One or two sentences saying what it means.
    pub explain: Words,
}

fn entry(mark: LegendMark, label: impl Into<String>, explain: &'static str) -> LegendEntry {
    LegendEntry {
        mark,
        label: label.into(),
        explain: Words::Borrowed(explain),
    }
}

impl Scene {
    /// The marks this scene draws with `layers` on, each named; `regions` says whether its
    /// regions are painted (the caller paints them, from a field the scene may no longer hold).
    /// Classes are named by rank (`class 1`, `class 2`, …); the lab renames them as its
    /// buttons do.
    pub fn legend(&self, layers: &Layers, regions: bool) -> Vec<LegendEntry> {
        let mut entries = Vec::new();
        // Quick passes over the points (a page asks this of a million): which class colours
        // the training points and the test points have, and which marks the training points.
        let n = self.points.len();
        let colours = &self.colour_of[..n.min(self.colour_of.len())];
        // has[role][colour]: whether a training (0) or test (1) point has that colour.
        let mut has: [Vec<bool>; 2] = [Vec::new(), Vec::new()];
        let mut note = |test: bool, colour: usize| {
            let seen = &mut has[test as usize];
            if colour >= seen.len() {
                seen.resize(colour + 1, false);
            }
            seen[colour] = true;
        };
        let roles = || self.hollow.iter().copied().chain(std::iter::repeat(false));
        let any_test = pieces::any(&self.hollow, |&h| h);
        if any_test {
            for (&colour, test) in colours.iter().zip(roles()) {
                note(test, colour);
            }
        } else {
            // The colours below 64 as the bits of one word, which is all this pass writes; any
            // higher one is noted one by one.
            let (mut bits, mut higher) = (0u64, false);
            pieces::for_each(colours, |&colour| match colour < 64 {
                true => bits |= 1 << colour,
                false => higher = true,
            });
            (0..64)
                .filter(|&c| bits >> c & 1 == 1)
                .for_each(|c| note(false, c));
            if higher {
                pieces::for_each(colours, |&colour| note(false, colour));
            }
        }
        // Points past the colours given are drawn in the first colour.
        if colours.len() < n {
            let tested = roles().skip(colours.len()).take(n - colours.len());
            for test in tested {
                note(test, 0);
            }
        }
        // Which support marks the training points have, in one pass.
        let marks = &self.marks[..n.min(self.marks.len())];
        let (mut free, mut bound) = (false, false);
        let mut see = |m: Mark| {
            free |= m == Mark::FreeSupport;
            bound |= m == Mark::BoundSupport;
        };
        match any_test {
            true => marks
                .iter()
                .zip(roles())
                .filter(|&(_, test)| !test)
                .for_each(|(&m, _)| see(m)),
            false => pieces::for_each(marks, |&m| see(m)),
        }
        let present =
            |seen: &[bool]| -> Vec<usize> { (0..seen.len()).filter(|&c| seen[c]).collect() };
        let (trained, tested) = (present(&has[0]), present(&has[1]));
        let words = self.task.plane_words();
        for &colour in &trained {
            entries.push(match words.point {
                Some((label, explain)) => entry(LegendMark::Class { colour }, label, explain),
                None => entry(
                    LegendMark::Class { colour },
                    format!("class {}", colour + 1),
                    "A training point of this class, in its own colour and shape; the model is \
                     fitted to these.",
                ),
            });
        }
        if let Some(&colour) = tested.first() {
            entries.push(entry(
                LegendMark::Test { colour },
                "held-out test point (hollow)",
                "Held out, never trained on: the test accuracy is scored on these, the honest \
                 estimate of how the model does on new points.",
            ));
        }

        if layers.on("sv") && free {
            let (label, explain) = words.free_support;
            entries.push(entry(LegendMark::FreeSupport, label, explain));
        }
        if layers.on("sv") && bound {
            let (label, explain) = words.bound_support;
            entries.push(entry(LegendMark::BoundSupport, label, explain));
        }
        if self.curves_of(CurveKind::Boundary).next().is_some() {
            let (label, explain) = words.boundary;
            entries.push(entry(LegendMark::Boundary, label, explain));
        }
        if self.curves_of(CurveKind::Sample).next().is_some() {
            entries.push(entry(
                LegendMark::PosteriorSamples,
                "boundaries sampled from the posterior (faint)",
                "Boundaries of weights drawn at random from the posterior N(w_MAP, H⁻¹): where \
                 they fan out the data leave the boundary uncertain, and the predictive \
                 probability stays near ½.",
            ));
        }
        if layers.on("margins") && self.curves_of(CurveKind::Level).next().is_some() {
            entries.push(self.levels_entry(trained.len() > 2));
        }
        if self.curves_of(CurveKind::Pairwise).next().is_some() {
            entries.push(entry(
                LegendMark::Pairwise,
                "pairwise boundaries (dashed, named i | j)",
                layer_explain("pairs"),
            ));
        }
        // The method's marks, by their rank, each kind once.
        let mut drawn: Vec<_> = self
            .all_decorations()
            .filter(|d| d.shows(layers, n))
            .filter_map(|d| Some((d.legend.as_ref()?, &d.name)))
            .collect();
        // By rank, those of one rank in the scene's order (a short list: sorted by hand).
        for i in 1..drawn.len() {
            let mut j = i;
            while j > 0 && drawn[j - 1].0.rank > drawn[j].0.rank {
                drawn.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut named: Vec<&str> = Vec::new();
        for (legend, name) in drawn {
            if named.contains(&name.as_ref()) {
                continue;
            }
            named.push(name);
            entries.push(LegendEntry {
                mark: LegendMark::Drawn {
                    name: name.clone(),
                    swatch: legend.swatch.clone(),
                },
                label: legend.label.to_string(),
                explain: legend.explain.clone(),
            });
        }
        if regions {
            // A model of three or more classes paints its labels, not a field f.
            entries.push(if trained.len() > 2 {
                entry(
                    LegendMark::Regions {
                        negative: self.region_colours[0],
                        positive: self.region_colours[1],
                        shading: self.shading,
                    },
                    "regions, deeper where surer",
                    "The class predicted at each place, in its colour, deeper where the model \
                     is surer of it.",
                )
            } else {
                self.regions_entry()
            });
        }
        entries
    }

    /// The dashed levels: unlabelled, an SVM's margins; labelled p = …, probability
    /// contours (of the likeliest class, when the picture has `more_classes` than two);
    /// otherwise the levels their labels name.
    fn levels_entry(&self, more_classes: bool) -> LegendEntry {
        let mut labels: Vec<&str> = Vec::new();
        for curve in self.curves_of(CurveKind::Level) {
            if let Some(label) = curve.label.as_deref() {
                if !labels.contains(&label) {
                    labels.push(label);
                }
            }
        }
        let probability = self.shading == Shading::Probability;
        let mark = LegendMark::Levels { probability };
        let targets = self.task == Task::Regression;
        if targets && labels.contains(&"f + 2σ") {
            entry(
                mark,
                "Gaussian-process band f ± 2σ",
                "Kernel ridge regression read as a Gaussian process: about 95 % of the \
                 posterior of f lies within 2σ(x) of the curve. It is narrow among the points \
                 and widens away from them, where the data say nothing.",
            )
        } else if targets {
            entry(
                mark,
                "ε-tube f ± ε",
                "Within ε of the curve a residual costs nothing (the ε-insensitive loss); the \
                 support vectors lie on the tube's edges or outside it.",
            )
        } else if probability && more_classes {
            entry(
                mark,
                format!("contours of the likeliest class's p {}", labels.join(", ")),
                "Where the probability of the most probable class, max over k of p(k | x), \
                 takes the value written on the curve: inside the p = 0.9 curve one class has \
                 nine chances in ten.",
            )
        } else if probability {
            let label = if labels.is_empty() {
                "probability contours".to_string()
            } else {
                format!("probability contours {}", labels.join(", "))
            };
            entry(
                mark,
                label,
                "Where the model's probability p(y = 1 | x) takes the value written on the \
                 curve; the boundary is p = ½.",
            )
        } else if labels.is_empty() {
            entry(
                mark,
                "margins f = ±1",
                "The lines f(x) = ±1, 2/‖w‖ apart in a linear SVM: the closest points of each \
                 class lie on them, and points inside the band pay slack.",
            )
        } else {
            entry(
                mark,
                format!("levels {}", labels.join(", ")),
                "Where f(x) takes the value written on the curve: least squares aims every \
                 training point at f = ±1, its label.",
            )
        }
    }

    fn regions_entry(&self) -> LegendEntry {
        let [negative, positive] = self.region_colours;
        let task_words = self.task.plane_words().regions;
        let (label, explain) = match (self.shading, task_words) {
            (Shading::Margin { .. }, Some(words)) => words,
            (Shading::Margin { scale: 1.0 }, None) => (
                "regions, deeper with |f|",
                "The class predicted at each place, its colour deeper as |f(x)| grows: pale \
                 inside the margin band |f| < 1.",
            ),
            (Shading::Margin { .. }, None) => (
                "regions, deeper with |f|",
                "The class predicted at each place, its colour deeper as |f(x)| grows \
                 (measured against the training points' typical |f|).",
            ),
            (Shading::Probability, _) => (
                "regions, deeper with |2p − 1|",
                "The class predicted at each place, its colour deeper as the probability moves \
                 away from ½: pale where the model is unsure.",
            ),
            (Shading::Share, _) => (
                "regions, deeper with the vote share",
                "The class predicted at each place, its colour deeper as more of the k \
                 neighbours agree.",
            ),
        };
        entry(
            LegendMark::Regions {
                negative,
                positive,
                shading: self.shading,
            },
            label,
            explain,
        )
    }
}

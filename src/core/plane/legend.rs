//! The legend of a picture: one entry for each kind of mark the picture draws, in the order a
//! reader meets them (the points, then the model's lines, then its other marks, the regions
//! last), each with a name and a sentence in the lecture's words. It is read off the [`Scene`]
//! and the [`Layers`] with the same conditions `scene::draw` uses to draw, so it names exactly
//! what is on the plot: support vectors only when some point is one and the layer is on, a
//! test point only when some point is held out.

use super::{CurveKind, Layers, Mark, Scene, Shading};
use crate::core::params::lab_row;
use crate::core::pieces;
use serde::Serialize;

/// What an entry's swatch shows: enough for the page to draw a small copy of the mark (a
/// class's shape and colour come from its colour index, as in the plane).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
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
    /// A slack segment.
    Slack,
    /// The w arrow.
    WArrow,
    /// A number beside a point: the perceptron's mistakes on it.
    MistakeCount,
    /// The orange ring round the point of the last update.
    LastUpdate,
    /// The double ring round the SMO pair of the step shown.
    WorkingPair,
    /// The SMO sub-problem inset.
    SubProblem,
    /// Voronoi cell edges.
    VoronoiEdges,
    /// Delaunay edges.
    DelaunayEdges,
    /// Lines from the pointer to its nearest neighbours.
    NeighbourLines,
    /// Covariance ellipses, solid at 1σ and dashed at 2σ, in this colour index.
    Ellipses { colour: usize },
    /// Crosses at the class means, in this colour index.
    Means { colour: usize },
    /// The classes' convex hulls, dashed in their colours.
    Hulls,
    /// The shortest segment between the hulls and its perpendicular bisector.
    HullBridge,
    /// The decision regions in these two colour indices, shaded by `shading`.
    Regions {
        negative: usize,
        positive: usize,
        shading: Shading,
    },
}

/// One line of the legend.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegendEntry {
    pub mark: LegendMark,
    /// A few words naming the mark ("bound support vector, αᵢ = C").
    pub label: String,
    /// One or two sentences saying what it means.
    pub explain: &'static str,
}

fn entry(mark: LegendMark, label: impl Into<String>, explain: &'static str) -> LegendEntry {
    LegendEntry {
        mark,
        label: label.into(),
        explain,
    }
}

/// The explanation of a layer's row in the parameter table: a mark that is one layer is
/// explained once, where its switch is.
fn layer_explain(key: &str) -> &'static str {
    lab_row(key).map_or("", |p| p.explain)
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
        let mut top = 0;
        pieces::for_each(colours, |&c| top = top.max(c));
        let mut has: [Vec<bool>; 2] = [vec![false; top + 1], vec![false; top + 1]];
        let roles = || self.hollow.iter().copied().chain(std::iter::repeat(false));
        let any_test = pieces::any(&self.hollow, |&h| h);
        if any_test {
            for (&colour, test) in colours.iter().zip(roles()) {
                has[test as usize][colour] = true;
            }
        } else {
            pieces::for_each(colours, |&colour| has[0][colour] = true);
        }
        // Points past the colours given are drawn in the first colour.
        if colours.len() < n {
            let tested = roles().skip(colours.len()).take(n - colours.len());
            for test in tested {
                has[test as usize][0] = true;
            }
        }
        let marks = &self.marks[..n.min(self.marks.len())];
        let marked = |kind: Mark| match any_test {
            true => marks
                .iter()
                .zip(roles())
                .any(|(&m, test)| !test && m == kind),
            false => pieces::any(marks, |&m| m == kind),
        };
        let (free, bound) = (marked(Mark::FreeSupport), marked(Mark::BoundSupport));
        let present =
            |seen: &[bool]| -> Vec<usize> { (0..seen.len()).filter(|&c| seen[c]).collect() };
        let (trained, tested) = (present(&has[0]), present(&has[1]));
        for &colour in trained.iter().filter(|_| self.novelty) {
            entries.push(entry(
                LegendMark::Class { colour },
                "point (no label)",
                "A training point: the method learns the region where these lie.",
            ));
        }
        for &colour in trained.iter().filter(|_| self.targets) {
            entries.push(entry(
                LegendMark::Class { colour },
                "point (x, t)",
                "A training point: its input x across, its target t up; the curve is fitted \
                 to these.",
            ));
        }
        for &colour in trained.iter().filter(|_| !self.targets && !self.novelty) {
            entries.push(entry(
                LegendMark::Class { colour },
                format!("class {}", colour + 1),
                "A training point of this class, in its own colour and shape; the model is \
                 fitted to these.",
            ));
        }
        if let Some(&colour) = tested.first() {
            entries.push(entry(
                LegendMark::Test { colour },
                "held-out test point (hollow)",
                "Held out, never trained on: the test accuracy is scored on these, the honest \
                 estimate of how the model does on new points.",
            ));
        }

        if layers.on("sv") && self.novelty {
            if free {
                entries.push(entry(
                    LegendMark::FreeSupport,
                    "support vector on the boundary, 0 < αᵢ < 1",
                    "A point exactly on the region's edge, f(xᵢ) = 0; ρ is computed from these.",
                ));
            }
            if bound {
                entries.push(entry(
                    LegendMark::BoundSupport,
                    "support vector at αᵢ = 1, on or outside the boundary",
                    "A point the region does not hold comfortably: f(xᵢ) ≤ 0; those with \
                     f(xᵢ) < 0 are the training set's outliers, at most a fraction ν.",
                ));
            }
        } else if layers.on("sv") && self.targets {
            if free {
                entries.push(entry(
                    LegendMark::FreeSupport,
                    "support vector on the tube, 0 < |αᵢ − αᵢ*| < C",
                    "A point exactly on the tube's edge, |tᵢ − f(xᵢ)| = ε; b is computed from \
                     these.",
                ));
            }
            if bound {
                entries.push(entry(
                    LegendMark::BoundSupport,
                    "support vector at C, on or outside the tube",
                    "A point whose multiplier reached C: its residual is ε or more, and it pays \
                     C per unit beyond ε.",
                ));
            }
        } else if layers.on("sv") {
            if free {
                entries.push(entry(
                    LegendMark::FreeSupport,
                    "free support vector, 0 < αᵢ < C",
                    "A support vector exactly on its margin, yᵢf(xᵢ) = 1; b is computed from \
                     these.",
                ));
            }
            if bound {
                entries.push(entry(
                    LegendMark::BoundSupport,
                    "bound support vector, αᵢ = C",
                    "A support vector on or inside its margin, with slack ξᵢ = 1 − yᵢf(xᵢ) ≥ 0; \
                     ξᵢ > 1 means it is misclassified.",
                ));
            }
        }

        if self.novelty && self.curves_of(CurveKind::Boundary).next().is_some() {
            entries.push(entry(
                LegendMark::Boundary,
                "boundary of the learned region, f(x) = 0",
                "Inside it f(x) > 0: where the training points lie; a new point outside is \
                 novel.",
            ));
        } else if self.targets && self.curves_of(CurveKind::Boundary).next().is_some() {
            entries.push(entry(
                LegendMark::Boundary,
                "fitted curve t = f(x)",
                "The function the method learned: its prediction of t at each x.",
            ));
        } else if self.curves_of(CurveKind::Boundary).next().is_some() {
            entries.push(entry(
                LegendMark::Boundary,
                "decision boundary",
                "Where the predicted class changes: f(x) = t for two classes (t = 0 unless \
                 the ROC view moves it).",
            ));
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
        if layers.on("slack") && !self.slack_segments.is_empty() && self.targets {
            entries.push(entry(
                LegendMark::Slack,
                "slack ξᵢ beyond the tube",
                "How far a point lies outside the tube, |tᵢ − f(xᵢ)| − ε: the ε-insensitive loss \
                 it pays, C per unit.",
            ));
        } else if layers.on("slack") && !self.slack_segments.is_empty() {
            entries.push(entry(LegendMark::Slack, "slack ξᵢ", layer_explain("slack")));
        }
        if layers.on("w") && self.w_arrow.is_some() {
            entries.push(entry(LegendMark::WArrow, "w", layer_explain("w")));
        }
        if !self.point_labels.is_empty() {
            entries.push(entry(
                LegendMark::MistakeCount,
                "mistakes on a point, αᵢ",
                "How many updates this point caused: αᵢ in the dual, f(x) = Σ αᵢyᵢK(xᵢ, x).",
            ));
        }
        if self.emphasis.is_some_and(|i| i < self.points.len()) {
            entries.push(entry(
                LegendMark::LastUpdate,
                "point of the last update",
                "The point the step shown updated the model on.",
            ));
        }
        if self.pair.is_some() {
            entries.push(entry(
                LegendMark::WorkingPair,
                "SMO working pair i, j",
                "The two multipliers αᵢ, αⱼ the step shown optimised together, keeping \
                 Σαᵢyᵢ = 0.",
            ));
        }
        if layers.on("pair") && self.sub_problem.is_some() {
            entries.push(entry(
                LegendMark::SubProblem,
                "SMO sub-problem (inset)",
                layer_explain("pair"),
            ));
        }
        if layers.on("vor") && !self.cell_edges.is_empty() {
            entries.push(entry(
                LegendMark::VoronoiEdges,
                "Voronoi cell edges",
                layer_explain("vor"),
            ));
        }
        if layers.on("del") && !self.delaunay_edges.is_empty() {
            entries.push(entry(
                LegendMark::DelaunayEdges,
                "Delaunay edges",
                layer_explain("del"),
            ));
        }
        if !self.neighbour_lines.is_empty() {
            entries.push(entry(
                LegendMark::NeighbourLines,
                "nearest neighbours of the pointer",
                "Lines from the pointer to the k training points that vote there.",
            ));
        }
        if let Some(outline) = self.outlines.first() {
            entries.push(entry(
                LegendMark::Ellipses {
                    colour: outline.colour,
                },
                "covariance ellipses, 1σ solid, 2σ dashed",
                "Where the class's fitted Gaussian density is 1 and 2 standard deviations from \
                 its mean: the model's picture of how the class spreads.",
            ));
        }
        if let Some(&(_, colour)) = self.centres.first() {
            entries.push(entry(
                LegendMark::Means { colour },
                "class means (crosses)",
                "The mean μₖ of each class's training points (for LDA, QDA and naive Bayes, the \
                 centre of its Gaussian).",
            ));
        }
        if layers.on("hulls") && !self.hulls.is_empty() {
            entries.push(entry(
                LegendMark::Hulls,
                "convex hulls of the classes (dashed)",
                "The smallest convex polygon round each class's training points: a line \
                 separates the classes exactly when the two hulls do not meet.",
            ));
        }
        if layers.on("hulls") && self.hull_bridge.is_some() {
            entries.push(entry(
                LegendMark::HullBridge,
                "shortest segment between the hulls, and its bisector",
                "The closest pair of points of the two hulls and the line halfway between them \
                 at right angles: the hard-margin SVM's boundary, with margin 1/‖w‖ half the \
                 segment's length.",
            ));
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
        if self.targets && labels.contains(&"f + 2σ") {
            entry(
                mark,
                "Gaussian-process band f ± 2σ",
                "Kernel ridge regression read as a Gaussian process: about 95 % of the \
                 posterior of f lies within 2σ(x) of the curve. It is narrow among the points \
                 and widens away from them, where the data say nothing.",
            )
        } else if self.targets {
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
        let (label, explain) = match self.shading {
            Shading::Margin { .. } if self.novelty => (
                "inside and outside the region, deeper with |f|",
                "Inside the learned region f(x) > 0, outside f(x) < 0: the colour deepens with \
                 |f(x)|, measured against ρ.",
            ),
            Shading::Margin { .. } if self.targets => (
                "above and below the curve, deeper with |t − f|",
                "Above the curve t > f(x), below it t < f(x): the colour deepens with the \
                 residual t − f(x), measured against the targets' range.",
            ),
            Shading::Margin { scale: 1.0 } => (
                "regions, deeper with |f|",
                "The class predicted at each place, its colour deeper as |f(x)| grows: pale \
                 inside the margin band |f| < 1.",
            ),
            Shading::Margin { .. } => (
                "regions, deeper with |f|",
                "The class predicted at each place, its colour deeper as |f(x)| grows \
                 (measured against the training points' typical |f|).",
            ),
            Shading::Probability => (
                "regions, deeper with |2p − 1|",
                "The class predicted at each place, its colour deeper as the probability moves \
                 away from ½: pale where the model is unsure.",
            ),
            Shading::Share => (
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

//! k-nearest neighbours: no training problem to solve, only a vote among the training points
//! closest to the query.
//!
//! For a query x, let N_k(x) be the k training points nearest to x under a metric d. The
//! prediction is the class with the largest vote
//!
//! ```text
//!     v_c(x) = Σ_{i ∈ N_k(x), y_i = c} w_i / Σ_{i ∈ N_k(x)} w_i,
//! ```
//!
//! with uniform weights w_i = 1 (a plain majority) or inverse-distance weights
//! w_i = 1 / d(x, x_i). If a neighbour sits exactly on x (d = 0), the neighbours at distance 0
//! get weight 1 and all others weight 0, as scikit-learn does.
//!
//! Metrics ([`Metric`]), for u = x − x_i:
//! - Euclidean ‖u‖₂ = √(u₁² + u₂²); neighbours are ranked by u₁² + u₂², which orders them
//!   the same way, so the square root is taken only for the distances that are reported;
//! - Manhattan ‖u‖₁ = |u₁| + |u₂|;
//! - Chebyshev ‖u‖_∞ = max(|u₁|, |u₂|).
//!
//! Ties, as in scikit-learn's `KNeighborsClassifier`: neighbours at equal distance are ordered
//! by training index, so N_k(x) takes the lower index when the k-th and (k+1)-th points are
//! equally far; equal votes go to the smallest label. k larger than the number of training
//! points n means all n of them.
//!
//! Search: a k-d tree over the training points (median splits along the wider side, buckets of
//! a few points at the leaves). A subtree is skipped only when the distance from x to its
//! bounding box is *larger* than the k-th best distance found so far, which keeps the result
//! identical to brute force for every metric, including the order of equal distances. It is
//! written here rather than taken from a crate because those do not promise that tie order,
//! and the lab's points lie on a 10⁻⁴ grid where equal distances are common.

use crate::core::data::{Dataset, Point};
use crate::core::error::Error;
use crate::core::field::Smoothness;
use crate::core::params::Values;
use crate::core::params::{choice, model_row, Kind, Param};
use crate::core::plane::{
    Colour, Curve, CurveKind, Decoration, Depth, Pen, Primitive, Scene, Shading, SwatchShape,
    Weight,
};
use crate::core::sklearn::{shown, Counterpart, Estimator, Multiclass};
use crate::core::voronoi::{cell_edges, delaunay_edges, shared_edge, voronoi_cells};
use crate::methods::model::{check_classes, Context, Fact, FitOptions, Method, Model};
use search::{KdTree, Nearest};

mod search;

/// The largest k [`KnnParams::check`] accepts.
pub const MAX_K: usize = 25;

/// How the distance between two points is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// ‖u‖₂ = √(u₁² + u₂²).
    Euclidean,
    /// ‖u‖₁ = |u₁| + |u₂| (L1).
    Manhattan,
    /// ‖u‖_∞ = max(|u₁|, |u₂|) (L∞).
    Chebyshev,
}

impl Metric {
    pub const ALL: [Metric; 3] = [Metric::Euclidean, Metric::Manhattan, Metric::Chebyshev];

    /// The short name used in the URL, the CLI and scikit-learn.
    pub fn name(&self) -> &'static str {
        match self {
            Metric::Euclidean => "euclidean",
            Metric::Manhattan => "manhattan",
            Metric::Chebyshev => "chebyshev",
        }
    }

    pub fn from_name(name: &str) -> Result<Metric, Error> {
        Metric::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| Error::Parameter(format!("unknown metric '{name}'")))
    }

    /// d(a, b).
    pub fn distance(&self, a: Point, b: Point) -> f64 {
        self.distance_from_rank(self.rank(a, b))
    }

    /// A number that orders pairs of points as d does: d itself, or d² for Euclidean.
    #[inline]
    fn rank(&self, a: Point, b: Point) -> f64 {
        self.rank_of_offsets((a[0] - b[0]).abs(), (a[1] - b[1]).abs())
    }

    /// The rank of an offset (|u₁|, |u₂|). Non-decreasing in both arguments, also in floating
    /// point, so a lower bound on each offset gives a lower bound on the rank.
    #[inline]
    fn rank_of_offsets(&self, du: f64, dv: f64) -> f64 {
        match self {
            Metric::Euclidean => du * du + dv * dv,
            Metric::Manhattan => du + dv,
            Metric::Chebyshev => du.max(dv),
        }
    }

    #[inline]
    fn distance_from_rank(&self, rank: f64) -> f64 {
        match self {
            Metric::Euclidean => rank.sqrt(),
            Metric::Manhattan | Metric::Chebyshev => rank,
        }
    }
}

/// How the k neighbours' votes are weighted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weights {
    /// w_i = 1: a plain majority.
    Uniform,
    /// w_i = 1/d(x, x_i); neighbours at distance 0 take the whole vote.
    Distance,
}

impl Weights {
    pub const ALL: [Weights; 2] = [Weights::Uniform, Weights::Distance];

    /// The short name used in the URL, the CLI and scikit-learn.
    pub fn name(&self) -> &'static str {
        match self {
            Weights::Uniform => "uniform",
            Weights::Distance => "distance",
        }
    }

    pub fn from_name(name: &str) -> Result<Weights, Error> {
        Weights::ALL
            .into_iter()
            .find(|w| w.name() == name)
            .ok_or_else(|| Error::Parameter(format!("unknown weights '{name}'")))
    }
}

/// The parameters of a k-nearest-neighbour model, checked by [`KnnParams::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnnParams {
    /// How many neighbours vote, 1 ..= [`MAX_K`].
    pub k: usize,
    pub metric: Metric,
    pub weights: Weights,
}

impl Default for KnnParams {
    /// scikit-learn's defaults: k = 5, Euclidean, uniform.
    fn default() -> Self {
        Self {
            k: 5,
            metric: Metric::Euclidean,
            weights: Weights::Uniform,
        }
    }
}

impl KnnParams {
    /// The parameters the settings describe.
    pub fn from_values(values: &Values) -> Result<KnnParams, Error> {
        let params = KnnParams {
            k: values.whole("k") as usize,
            metric: Metric::from_name(values.choice("metric"))?,
            weights: Weights::from_name(values.choice("weights"))?,
        };
        params.check()?;
        Ok(params)
    }

    pub fn check(&self) -> Result<(), Error> {
        if !(1..=MAX_K).contains(&self.k) {
            return Err(Error::Parameter(format!("k must be between 1 and {MAX_K}")));
        }
        Ok(())
    }
}

/// A fitted k-nearest-neighbour classifier: the training points, indexed for search.
#[derive(Clone, Debug)]
pub struct KnnModel {
    params: KnnParams,
    /// Distinct labels, ascending.
    classes: Vec<i32>,
    /// The index into `classes` of each training point's label, in input order.
    class_of: Vec<usize>,
    /// min(k, n): how many neighbours a query returns.
    k: usize,
    tree: KdTree,
}

impl KnnModel {
    /// Indexes the training points. One class is allowed (every query predicts it); no points
    /// is [`Error::TooFewPoints`]; k beyond the number of points is clamped to it.
    pub fn fit(points: &[Point], labels: &[i32], params: &KnnParams) -> Result<KnnModel, Error> {
        params.check()?;
        if points.len() != labels.len() {
            return Err(Error::Parameter(format!(
                "{} points but {} labels",
                points.len(),
                labels.len()
            )));
        }
        if points.is_empty() {
            return Err(Error::TooFewPoints);
        }
        if points.iter().flatten().any(|v| !v.is_finite()) {
            return Err(Error::NotFinite {
                what: "a training point".into(),
            });
        }
        let mut classes = labels.to_vec();
        crate::core::sorting::sort(&mut classes);
        classes.dedup();
        let class_of = labels
            .iter()
            .map(|l| classes.binary_search(l).expect("every label is a class"))
            .collect();
        Ok(KnnModel {
            params: *params,
            classes,
            class_of,
            k: params.k.min(points.len()),
            tree: KdTree::new(points),
        })
    }

    /// The distinct training labels, ascending; [`KnnModel::votes`] follows this order.
    pub fn classes(&self) -> &[i32] {
        &self.classes
    }

    /// The parameters as given (`k` not clamped).
    pub fn params(&self) -> &KnnParams {
        &self.params
    }

    /// The min(k, n) nearest training points as (index, distance), nearest first, equal
    /// distances by increasing index.
    pub fn neighbours(&self, x: Point) -> Vec<(usize, f64)> {
        let metric = self.params.metric;
        self.nearest(x)
            .as_slice()
            .iter()
            .map(|&(rank, index)| (index, metric.distance_from_rank(rank)))
            .collect()
    }

    /// Writes v_c(x), the weighted vote share of each class in [`KnnModel::classes`] order;
    /// the shares sum to 1.
    ///
    /// # Panics
    /// If `out.len()` differs from the number of classes.
    pub fn votes(&self, x: Point, out: &mut [f64]) {
        assert_eq!(
            out.len(),
            self.classes.len(),
            "votes: one slot per class is needed"
        );
        out.fill(0.0);
        let mut total = 0.0;
        self.tally(x, |class, weight| {
            out[class] += weight;
            total += weight;
        });
        for share in out.iter_mut() {
            *share /= total;
        }
    }

    /// The class with the largest vote; equal votes go to the smallest label.
    pub fn predict(&self, x: Point) -> i32 {
        // At most k classes receive a vote: keep (class, weight) pairs on the stack.
        let mut tally = [(usize::MAX, 0.0); MAX_K];
        let mut used = 0;
        self.tally(x, |class, weight| {
            match tally[..used].iter_mut().find(|(c, _)| *c == class) {
                Some(entry) => entry.1 += weight,
                None => {
                    tally[used] = (class, weight);
                    used += 1;
                }
            }
        });
        let (best_class, _) =
            tally[..used]
                .iter()
                .fold((usize::MAX, f64::NEG_INFINITY), |best, &(class, weight)| {
                    if weight > best.1 || (weight == best.1 && class < best.0) {
                        (class, weight)
                    } else {
                        best
                    }
                });
        self.classes[best_class]
    }

    /// Calls `vote(class index, w_i)` for each of the k nearest neighbours, nearest first.
    fn tally(&self, x: Point, mut vote: impl FnMut(usize, f64)) {
        let nearest = self.nearest(x);
        let neighbours = nearest.as_slice();
        let on_a_point = neighbours.first().is_some_and(|&(rank, _)| rank == 0.0);
        for &(rank, index) in neighbours {
            let weight = match self.params.weights {
                Weights::Uniform => 1.0,
                Weights::Distance if on_a_point => {
                    if rank == 0.0 {
                        1.0
                    } else {
                        0.0
                    }
                }
                Weights::Distance => 1.0 / self.params.metric.distance_from_rank(rank),
            };
            vote(self.class_of[index], weight);
        }
    }

    fn nearest(&self, x: Point) -> Nearest {
        let mut nearest = Nearest::new(self.k);
        self.tree
            .search(0, x, [0.0, 0.0], self.params.metric, &mut nearest);
        nearest
    }
}

impl Model for KnnModel {
    fn classes(&self) -> &[i32] {
        &self.classes
    }

    /// Two classes: 2·(share of the second class) − 1; more: the winner's share.
    fn decision_value(&self, x: Point) -> f64 {
        let votes = self.scores(x);
        match votes.len() {
            2 => votes[1] - votes[0],
            _ => votes.iter().copied().fold(0.0, f64::max),
        }
    }

    /// The vote shares.
    fn scores(&self, x: Point) -> Vec<f64> {
        let mut votes = vec![0.0; self.classes.len()];
        self.votes(x, &mut votes);
        votes
    }

    /// The vote shares, which is what scikit-learn's `predict_proba` gives.
    fn probabilities(&self, x: Point) -> Option<Vec<f64>> {
        Some(self.scores(x))
    }

    fn predict(&self, x: Point) -> i32 {
        KnnModel::predict(self, x)
    }

    /// The training points asked in the k-d tree's leaf order, not the input's: consecutive
    /// queries are then near each other and walk the same parts of the tree (at 100 000 points
    /// about twice as fast). The count, and so the accuracy, is the same in any order.
    fn training_accuracy(&self, data: &Dataset) -> f64 {
        if data.points.len() != self.class_of.len() {
            return self.accuracy(&data.points, &data.labels);
        }
        let correct = self
            .tree
            .leaf_order()
            .filter(|&i| self.predict(data.points[i]) == data.labels[i])
            .count();
        correct as f64 / data.points.len().max(1) as f64
    }

    fn shading(&self) -> Shading {
        Shading::Share
    }

    fn smoothness(&self) -> Smoothness {
        Smoothness::Steps
    }

    /// With one Euclidean neighbour, the Voronoi cells, the class boundary exactly along the
    /// Voronoi edges between cells of different classes, and the Delaunay triangulation.
    fn decorate(&self, scene: &mut Scene, context: &Context<'_>) {
        if self.params.k != 1 || self.params.metric != Metric::Euclidean {
            return;
        }
        let (data, view) = (context.data, context.view);
        let sites = &data.points;
        let cells = voronoi_cells(sites, &view);
        // The grid's contour only approximates what is exactly known here.
        scene.curves.retain(|c| c.kind != CurveKind::Boundary);
        for (i, j) in delaunay_edges(sites) {
            if data.labels[i] == data.labels[j] {
                continue;
            }
            if let Some((a, b)) = shared_edge(&cells[i], sites[i], sites[j], &view) {
                scene.curves.push(Curve {
                    points: vec![a, b],
                    kind: CurveKind::Boundary,
                    label: None,
                });
            }
        }
        if context.layers.on("del") {
            let lines = delaunay_edges(sites)
                .into_iter()
                .map(|(a, b)| (sites[a], sites[b]))
                .collect();
            scene.decorations.push(edges(lines, Edges::Delaunay));
        }
        if context.layers.on("vor") {
            let lines = cell_edges(&cells);
            scene.decorations.push(edges(lines, Edges::Voronoi));
        }
    }

    /// Lines from the pointer to the k neighbours that vote there.
    fn pointer_marks(&self, at: Point, data: &Dataset) -> Vec<Decoration> {
        let lines: Vec<_> = self
            .neighbours(at)
            .into_iter()
            .filter(|&(i, _)| i < data.len())
            .map(|(i, _)| (at, data.points[i]))
            .collect();
        if lines.is_empty() {
            return Vec::new();
        }
        let pen = Pen::solid(NEIGHBOUR_COLOUR, Weight::Stroke);
        let swatch = vec![SwatchShape::across(Pen::solid(
            NEIGHBOUR_COLOUR,
            Weight::Px(3),
        ))];
        let lines = Primitive::Segments { lines, pen };
        vec![
            Decoration::new("neighbour_lines", Depth::OverCurves, vec![lines]).named(
                90,
                "nearest neighbours of the pointer",
                "Lines from the pointer to the k training points that vote there.",
                swatch,
            ),
        ]
    }

    fn facts(&self, _data: &Dataset) -> Vec<Fact> {
        vec![
            Fact::new("k", "k =", self.k),
            Fact::data("metric", self.params.metric.name()),
            Fact::data("weights", self.params.weights.name()),
        ]
    }

    fn facts_at(&self, x: Point) -> Vec<Fact> {
        let shares: Vec<String> = self
            .scores(x)
            .iter()
            .enumerate()
            .map(|(c, v)| {
                format!(
                    "class {}: {}%",
                    c + 1,
                    crate::methods::model::short(100.0 * v)
                )
            })
            .collect();
        vec![Fact::new("votes", "votes", shares.join(", "))]
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The registry entry: k-nearest neighbours, voting among any number of classes.
pub struct KnnMethod;

impl Method for KnnMethod {
    fn rows(&self) -> &'static [crate::core::params::Param] {
        ROWS
    }

    fn id(&self) -> &'static str {
        "knn"
    }

    fn title(&self) -> &'static str {
        "k-nearest neighbours"
    }

    fn explain(&self) -> &'static str {
        "Predicts the majority class of the k training points nearest to x: nothing is fitted, the points themselves are the model."
    }

    fn params(&self) -> &'static [&'static str] {
        &["k", "metric", "weights"]
    }

    fn tuning(&self) -> &'static [&'static str] {
        &["k"]
    }

    fn native_multiclass(&self, _values: &Values) -> bool {
        true
    }

    fn fit(
        &self,
        values: &Values,
        data: &Dataset,
        _options: FitOptions<'_>,
    ) -> Result<Box<dyn Model>, Error> {
        check_classes(data, crate::methods::model::MAX_CLASSES)?;
        let params = KnnParams::from_values(values)?;
        Ok(Box::new(KnnModel::fit(
            &data.points,
            &data.labels,
            &params,
        )?))
    }

    /// `KNeighborsClassifier` by brute force: the same neighbours, votes and ties.
    fn sklearn(&self, values: &Values, data: &Dataset) -> Counterpart {
        let k = values.whole("k");
        let n = data.len() as u64;
        let neighbours = k.min(n).max(1);
        let knn = Estimator::sklearn("sklearn.neighbors", "KNeighborsClassifier")
            .arg("n_neighbors", neighbours)
            .arg("metric", values.choice("metric"))
            .arg("weights", values.choice("weights"))
            .arg("algorithm", "brute");
        let k_line = if k > n {
            format!(
                "{} → n_neighbors={neighbours}: the lab takes all {n} training points when k \
                 is larger (scikit-learn refuses)",
                shown(values, "k")
            )
        } else {
            format!("{} → n_neighbors={k}", shown(values, "k"))
        };
        Counterpart::same(vec![knn], Multiclass::Otherwise)
            .map("k", k_line)
            .map(
                "metric",
                format!(
                    "{} → metric={:?}, the same distance",
                    shown(values, "metric"),
                    values.choice("metric")
                ),
            )
            .map(
                "weights",
                format!(
                    "{} → weights={:?}: 1 or 1/d per neighbour, a neighbour at d = 0 taking \
                     the whole vote in both",
                    shown(values, "weights"),
                    values.choice("weights")
                ),
            )
            .map(
                "",
                "algorithm=\"brute\": every distance computed. Equal votes go to the smaller \
                 label in both; where the k-th and (k+1)-th neighbours are equally far, the \
                 lab takes the lower index and scikit-learn may not",
            )
    }
}

/// k-NN's rows: k, the metric and how the votes are weighted.
pub static ROWS: &[Param] = &[K_ROW, METRIC_ROW, WEIGHTS_ROW];

pub const K_ROW: Param = model_row(
    "k",
    "k",
    Kind::Integer {
        min: 1,
        max: 25,
        slider_max: 25,
    },
    "5",
    "How many of the nearest training points vote: k = 1 follows every point, noise \
     included, along Voronoi edges; a larger k smooths the boundary and resists label \
     noise.",
);

pub const METRIC_ROW: Param = Param {
    more: true,
    ..model_row(
        "metric",
        "metric",
        Kind::Choice {
            options: &[
                choice(
                    "euclidean",
                    "Euclidean  ‖x − z‖₂",
                    "The straight-line distance √((x₁ − z₁)² + (x₂ − z₂)²): a neighbourhood \
                     is a disc.",
                ),
                choice(
                    "manhattan",
                    "Manhattan  ‖x − z‖₁",
                    "|x₁ − z₁| + |x₂ − z₂|: a neighbourhood is a diamond.",
                ),
                choice(
                    "chebyshev",
                    "Chebyshev  ‖x − z‖∞",
                    "max(|x₁ − z₁|, |x₂ − z₂|): a neighbourhood is a square.",
                ),
            ],
        },
        "euclidean",
        "How the distance to a neighbour is measured, which decides which points are nearest \
         and so the shape of the cells.",
    )
};

pub const WEIGHTS_ROW: Param = Param {
    more: true,
    ..model_row(
        "weights",
        "weights",
        Kind::Choice {
            options: &[
                choice(
                    "uniform",
                    "uniform",
                    "Each of the k neighbours has one vote.",
                ),
                choice(
                    "distance",
                    "by inverse distance",
                    "A neighbour's vote counts 1/distance, so the closest count most.",
                ),
            ],
        },
        "uniform",
        "How much each of the k neighbours' votes counts.",
    )
};

/// The pink of the lines to the neighbours (as the highlight of the point under the pointer).
const NEIGHBOUR_COLOUR: Colour = Colour::Rgb(204, 121, 167);

/// The two kinds of edge between the sites.
enum Edges {
    /// The cells' edges: dark grey, 2 pixels.
    Voronoi,
    /// The triangulation's: lighter, 1 pixel.
    Delaunay,
}

/// Edges of the cells or of the triangulation, with their layer (`vor` or `del`).
fn edges(lines: Vec<(Point, Point)>, kind: Edges) -> Decoration {
    let (name, layer, rank, label, pen) = match kind {
        Edges::Voronoi => ("voronoi_edges", "vor", 70, "Voronoi cell edges", (60, 2)),
        Edges::Delaunay => ("delaunay_edges", "del", 80, "Delaunay edges", (110, 1)),
    };
    let (grey, px) = pen;
    let pen = Pen::solid(Colour::Rgb(grey, grey, grey), Weight::Px(px));
    let swatch = vec![SwatchShape::across(pen)];
    Decoration::new(
        name,
        Depth::UnderCurves,
        vec![Primitive::Segments { lines, pen }],
    )
    .on_layer(layer)
    .named(
        rank,
        label,
        crate::core::params::layer_explain(layer),
        swatch,
    )
}

#[cfg(test)]
mod tests;

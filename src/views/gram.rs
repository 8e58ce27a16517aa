//! The Gram matrix view (CURRICULUM §4): K_ij = K(x_i, x_j) of the current method's kernel on
//! the training points, ordered by class, as a viridis heat map with a colour bar; lines mark
//! where one class ends and the next begins, and a rug under the matrix gives each column's
//! class. Up to [`CELL_PER_POINT_UP_TO`] points every pair of points is a cell; beyond, the
//! ordered points are cut into [`BINS`] runs and a cell is the mean of K over its block.
//!
//! The headline gives the smallest eigenvalue λ_min ([`crate::core::spectrum`]). Mercer's condition
//! is λ_min ≥ 0 on every finite set; the sigmoid kernel tanh(γ xᵀz + coef0) breaks it for many
//! γ and coef0, and then the figure says so and what it means for the dual. Above
//! [`SAMPLE_ABOVE`] points, the matrix and λ_min are those of a seeded sample of that many.
//!
//! In regression the kernel compares inputs, (x, 0) as the methods see them, ordered by x; in
//! novelty detection the points have no classes and keep the order they were placed in.

use super::chart::{viridis, Chart, ColourBar, HeatCell, Line, Tick};
use super::{Figure, ViewKind};
use crate::core::data::Point;
use crate::core::kernel::Kernel;
use crate::core::plane::Layout;
use crate::core::spectrum::{smallest_eigenvalue, Smallest, LANCZOS_STEPS};
use crate::core::task::Task;
use crate::lab::playground::Playground;
use crate::methods::model::{kernel_of, short};
use rand::seq::index::sample;
use rand::SeedableRng;
use std::sync::{Arc, Mutex};

/// Up to this many points, one cell per pair.
pub const CELL_PER_POINT_UP_TO: usize = 120;
/// Beyond it, this many runs of points per side.
pub const BINS: usize = 80;
/// Above this many points, a seeded sample of this many.
pub const SAMPLE_ABOVE: usize = 1000;

/// The class boundaries' colour: white reads on every viridis colour.
const BOUNDARY: (u8, u8, u8) = (255, 255, 255);

pub struct GramView;

impl ViewKind for GramView {
    fn id(&self) -> &'static str {
        "gram"
    }

    fn title(&self) -> &'static str {
        "Gram matrix"
    }

    fn layout(&self, width: u32, height: u32, type_px: f64) -> Layout {
        Layout::chart_with_type(width, height, type_px)
            .with_colour_bar()
            .with_headline()
    }

    fn compute(&self, lab: &mut Playground, _layout: &Layout) -> Figure {
        Figure::Chart(Box::new(gram_chart(lab)))
    }
}

/// The Gram matrix of `kernel` on some points, with its smallest eigenvalue.
#[derive(Clone, Debug, PartialEq)]
pub struct Gram {
    pub kernel: Kernel,
    /// Row-major, n × n.
    pub matrix: Vec<f64>,
    pub n: usize,
    pub smallest: Smallest,
}

impl Gram {
    pub fn of(kernel: Kernel, points: &[Point]) -> Gram {
        let matrix = kernel.gram(points);
        let smallest = smallest_eigenvalue(&matrix, points.len());
        Gram {
            kernel,
            matrix,
            n: points.len(),
            smallest,
        }
    }

    /// tr K, the scale against which λ_min is "zero to rounding".
    pub fn trace(&self) -> f64 {
        (0..self.n).map(|i| self.matrix[i * self.n + i]).sum()
    }

    /// λ_min is clearly below zero: negative beyond rounding (1e-9 · tr K).
    pub fn indefinite(&self) -> bool {
        self.smallest.value < -1e-9 * self.trace().abs().max(1.0)
    }
}

/// The last Gram matrix, by the kernel and the points it was computed on: moving C, the
/// threshold or anything else the matrix does not read redraws without computing it again.
static LAST: Mutex<Option<(Vec<Point>, Arc<Gram>)>> = Mutex::new(None);

fn cached_gram(kernel: Kernel, points: Vec<Point>) -> Arc<Gram> {
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((cached, gram)) = last.as_ref() {
        if gram.kernel == kernel && *cached == points {
            return Arc::clone(gram);
        }
    }
    let gram = Arc::new(Gram::of(kernel, &points));
    *last = Some((points, Arc::clone(&gram)));
    gram
}

/// What the headline and the note say about λ_min.
fn mercer_text(gram: &Gram) -> (String, String) {
    let how = if gram.smallest.exact {
        format!("from all {} eigenvalues", gram.n)
    } else {
        format!("estimated by {LANCZOS_STEPS} Lanczos steps, an upper bound")
    };
    let value = short(gram.smallest.value);
    if !gram.indefinite() {
        return (
            format!("λ_min = {value} ≥ 0 (to rounding): K is positive semi-definite"),
            format!(
                "λ_min = {value} ({how}). A valid (Mercer) kernel gives a positive semi-definite \
                 Gram matrix on every set of points, so the problem is convex and its solution \
                 (SMO's, or K + λI's) is the global one."
            ),
        );
    }
    let which = match gram.kernel {
        Kernel::Sigmoid { gamma, coef0 } => format!(
            "the sigmoid kernel with γ = {}, coef0 = {} is not a Mercer kernel here",
            short(gamma),
            short(coef0)
        ),
        Kernel::Composed(ref composition) if composition.may_be_indefinite() => {
            "the sigmoid in this composition is not a kernel in general, and the rules keep \
             only kernels positive semi-definite"
                .into()
        }
        _ => "this kernel is not positive semi-definite here".into(),
    };
    (
        format!("λ_min = {value} < 0: not a Mercer kernel here"),
        format!(
            "λ_min = {value} ({how}) < 0: {which}. K is indefinite, so the dual's quadratic \
             term −½ Σ α_i α_j y_i y_j K_ij is no longer concave: SMO (like LIBSVM) still \
             stops where no pair of α's breaks the KKT conditions and returns a model, but \
             that is only a local solution, and f is no longer a hyperplane in any feature \
             space."
        ),
    )
}

/// The chart for the lab as it is.
pub fn gram_chart(lab: &Playground) -> Chart {
    let mut chart = Chart {
        x_range: (0.0, 1.0),
        y_range: (0.0, 1.0),
        y_label: "point i".into(),
        ..Chart::default()
    };
    let settings = lab.settings();
    chart.x_label = match settings.task {
        Task::Classification => "point j (ordered by class)",
        Task::Regression => "point j (ordered by x)",
        Task::Novelty => "point j",
    }
    .into();
    let method = settings.method();
    if !method.params().contains(&"kernel") {
        chart.headline = format!("{} has no kernel: there is no Gram matrix", method.title());
        chart.note = format!(
            "{} does not compare points through a kernel K(x, z), so there is no Gram matrix \
             to show.{}",
            method.title(),
            match settings.task {
                Task::Classification => " Choose the SVM, the perceptron or a kernel method.",
                _ => " Choose a method with a kernel.",
            }
        );
        return chart;
    }
    let kernel = match kernel_of(&settings.values) {
        Ok(kernel) => kernel,
        Err(e) => {
            chart.headline = format!("no Gram matrix: {e}");
            return chart;
        }
    };
    let (data, index) = lab.training();
    let classes = lab.data().classes();
    // Only classification's points have classes (a scene's other labels are left over).
    let classified = settings.task == Task::Classification;
    let class_of = |t: usize| {
        classes
            .iter()
            .position(|&c| classified && c == data.labels[t])
            .unwrap_or(0)
    };
    // The training positions shown: all, or a seeded sample; ordered by class, stably.
    let mut shown: Vec<usize> = if data.len() > SAMPLE_ABOVE {
        let mut rng = rand::rngs::StdRng::seed_from_u64(settings.values.whole("seed"));
        let mut picked = sample(&mut rng, data.len(), SAMPLE_ABOVE).into_vec();
        crate::core::sorting::sort(&mut picked);
        picked
    } else {
        (0..data.len()).collect()
    };
    // By class, or in regression by x (its bits in an order that sorts as the numbers do).
    let regression = settings.task == Task::Regression;
    crate::core::sorting::sort_by_key(&mut shown, |&t| match regression {
        true => {
            let bits = data.points[t][0].to_bits() as i64;
            bits ^ (((bits >> 63) as u64) >> 1) as i64
        }
        false => class_of(t) as i64,
    });
    let n = shown.len();
    if n == 0 {
        chart.headline = "no training points: no Gram matrix".into();
        return chart;
    }
    let points: Vec<_> = shown
        .iter()
        .map(|&t| match regression {
            true => crate::methods::solvers::regression::input(data.points[t]),
            false => data.points[t],
        })
        .collect();
    let gram = cached_gram(kernel, points);

    // Cells: one per pair, or block means over runs of the ordered points.
    let edges: Vec<usize> = if n <= CELL_PER_POINT_UP_TO {
        (0..=n).collect()
    } else {
        (0..=BINS).map(|k| k * n / BINS).collect()
    };
    let runs: Vec<(usize, usize)> = edges.windows(2).map(|w| (w[0], w[1])).collect();
    let mut values = Vec::with_capacity(runs.len() * runs.len());
    for &(i0, i1) in &runs {
        for &(j0, j1) in &runs {
            let mut sum = 0.0;
            for i in i0..i1 {
                sum += gram.matrix[i * n + j0..i * n + j1].iter().sum::<f64>();
            }
            values.push(sum / ((i1 - i0) * (j1 - j0)) as f64);
        }
    }
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let scale = |v: f64| {
        if high > low {
            (v - low) / (high - low)
        } else {
            0.5
        }
    };
    let point_name = |k: usize| match settings.task {
        Task::Classification => format!(
            "point {} ({})",
            index[shown[k]] + 1,
            lab.data().class_name(data.labels[shown[k]])
        ),
        _ => format!("point {}", index[shown[k]] + 1),
    };
    for (a, &(i0, i1)) in runs.iter().enumerate() {
        for (b, &(j0, j1)) in runs.iter().enumerate() {
            let v = values[a * runs.len() + b];
            let text = if i1 - i0 == 1 && j1 - j0 == 1 {
                format!(
                    "K = {} between {} and {}",
                    short(v),
                    point_name(i0),
                    point_name(j0)
                )
            } else {
                format!(
                    "mean K = {} over rows {}–{} × columns {}–{} of the ordered points",
                    short(v),
                    i0 + 1,
                    i1,
                    j0 + 1,
                    j1
                )
            };
            chart.heat.push(HeatCell {
                x: (j0 as f64, j1 as f64),
                y: (i0 as f64, i1 as f64),
                colour: Some(viridis(scale(v))),
                text,
                settings: Vec::new(),
                outlined: false,
            });
        }
    }
    // Where the class changes along the order.
    for k in 1..n {
        if class_of(shown[k]) != class_of(shown[k - 1]) {
            let at = k as f64;
            for points in [
                vec![(at, 0.0), (at, n as f64)],
                vec![(0.0, at), (n as f64, at)],
            ] {
                chart.lines.push(Line {
                    points,
                    colour: BOUNDARY,
                    weight: 0.8,
                    dashed: false,
                    label: None,
                });
            }
        }
    }
    chart.rug = shown
        .iter()
        .enumerate()
        .map(|(k, &t)| Tick {
            x: k as f64 + 0.5,
            colour: class_of(t),
            index: index[t],
        })
        .collect();
    chart.highlight = lab.highlight;
    chart.x_range = (0.0, n as f64);
    chart.y_range = (-0.09 * n as f64, n as f64);
    chart.colour_bar = Some(ColourBar { low, high });
    let (headline, mercer) = mercer_text(&gram);
    chart.headline = headline;
    let cells = if n <= CELL_PER_POINT_UP_TO {
        "one cell per pair of points".to_string()
    } else {
        format!(
            "each cell the mean of K over a block of about {0} × {0} points",
            n / BINS
        )
    };
    let sampled = if data.len() > n {
        format!(
            " (a seeded sample of {n} of the {} training points)",
            data.len()
        )
    } else {
        String::new()
    };
    let order = match settings.task {
        Task::Classification => {
            "ordered by class (white lines where the class changes; the rug gives each \
             column's class)"
        }
        Task::Regression => "at their inputs (x, 0), ordered by x",
        Task::Novelty => "in the order they were placed",
    };
    chart.note = format!(
        "K(x_i, x_j) of the {} kernel on the {n} training points{sampled}, {order}, {cells}, \
         on the viridis scale. {mercer}",
        kernel.name()
    );
    chart
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psd_kernels_have_lambda_min_at_least_minus_rounding() {
        for kernel in ["linear", "poly&degree=3&coef0=1", "rbf&gamma=5"] {
            let mut lab = Playground::from_hash(&format!("preset=moons&n=150&kernel={kernel}"));
            lab.fit();
            let chart = gram_chart(&lab);
            assert!(
                chart.headline.contains("≥ 0"),
                "{kernel}: {}",
                chart.headline
            );
            let data = lab.training_set();
            let gram = Gram::of(kernel_of(&lab.settings().values).unwrap(), &data.points);
            assert!(gram.smallest.value >= -1e-9 * gram.trace(), "{kernel}");
            assert!(chart.note.contains("block"), "150 points are binned");
            assert_eq!(chart.heat.len(), BINS * BINS);
        }
    }

    #[test]
    fn an_indefinite_sigmoid_says_it_is_not_a_mercer_kernel() {
        let mut lab = Playground::from_hash("preset=xor&n=60&kernel=sigmoid&gamma=2&coef0=1");
        lab.fit();
        let chart = gram_chart(&lab);
        assert!(
            chart.headline.contains("not a Mercer kernel"),
            "{}",
            chart.headline
        );
        assert!(chart.note.contains("no longer concave"), "{}", chart.note);
        assert!(chart.note.contains("one cell per pair"));
        assert_eq!(chart.heat.len(), 60 * 60);
        assert_eq!(chart.rug.len(), 60);
    }

    #[test]
    fn points_are_ordered_by_class_with_the_boundary_marked() {
        let mut lab = Playground::from_hash("preset=blobs3&n=30&model=svm");
        lab.fit();
        let chart = gram_chart(&lab);
        let colours: Vec<usize> = chart.rug.iter().map(|t| t.colour).collect();
        assert!(colours.windows(2).all(|w| w[0] <= w[1]), "{colours:?}");
        assert_eq!(
            chart.lines.len(),
            4,
            "two class changes, each a row and a column"
        );
    }

    #[test]
    fn a_method_without_a_kernel_says_so() {
        let mut lab = Playground::from_hash("preset=moons&n=40&model=knn");
        lab.fit();
        let chart = gram_chart(&lab);
        assert!(chart.heat.is_empty());
        assert!(
            chart.headline.contains("has no kernel"),
            "{}",
            chart.headline
        );
    }

    /// In regression the matrix compares the inputs (x, 0), as the methods' kernels see them,
    /// ordered by x; there are no class lines.
    #[test]
    fn regression_compares_inputs_ordered_by_x() {
        let mut lab = Playground::from_hash("task=regression&model=krr&n=30&kernel=rbf&gamma=3");
        lab.fit();
        let chart = gram_chart(&lab);
        let data = lab.data();
        let xs: Vec<f64> = chart.rug.iter().map(|t| data.points[t.index][0]).collect();
        assert_eq!(xs.len(), 30);
        assert!(xs.windows(2).all(|w| w[0] <= w[1]), "{xs:?}");
        assert!(chart.lines.is_empty(), "no classes to part");
        assert!(chart.note.contains("ordered by x"), "{}", chart.note);
        let (i, j) = (chart.rug[2].index, chart.rug[20].index);
        let kernel = Kernel::Rbf { gamma: 3.0 };
        let expected = kernel.eval([data.points[i][0], 0.0], [data.points[j][0], 0.0]);
        assert!(
            chart.heat[2 * 30 + 20]
                .text
                .starts_with(&format!("K = {} ", short(expected))),
            "{}",
            chart.heat[2 * 30 + 20].text
        );
    }
}

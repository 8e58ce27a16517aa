//! `kernel-playground bench`: medians of the per-frame work on two moons with noise
//! (RBF, C = 1, γ = 2) — a cold fit, a warm refit after one point moved, and the decision
//! field on a 512 × 512 grid three ways: summing the kernel over every support vector at every
//! node (naive), the separable-RBF evaluator at every node (exact), and the adaptive field the
//! page draws. Then, for every method with the page's default settings, the fit and the
//! adaptive field. Last, the regularisation path (50 values of C, warm-started) with the linear
//! and the RBF kernel. Timings only; correctness is the tests' business.

use kernel_playground::core::data::{random_labels, Dataset, Preset};
use kernel_playground::core::field::{Field, Grid, View};
use kernel_playground::core::gauss_transform::BinnedRbf;
use kernel_playground::core::kernel::Kernel;
use kernel_playground::core::plane::{Layout, Mark, Scene};
use kernel_playground::core::task::Task;
use kernel_playground::lab::state::Settings;
use kernel_playground::methods::model::{FitOptions, Model};
use kernel_playground::methods::reg_path::{log_spaced, PathJob, PATH_STEPS};
use kernel_playground::methods::registry;
use kernel_playground::methods::solvers::svm::{SvmModel, SvmParams, SvmTrainer};

/// The SVM's contour levels: the margins f = ±1 and the boundary f = 0.
const LEVELS: [f64; 3] = [-1.0, 0.0, 1.0];
use std::time::Instant;

const GRID: usize = 512;

/// What the page draws on the plane after a fit: field, contours and marks.
fn plane(
    model: &dyn Model,
    data: &Dataset,
    settings: &Settings,
    layout: &Layout,
    view: View,
) -> Scene {
    let mut scene = Scene {
        marks: vec![Mark::Plain; data.len()],
        ..Scene::default()
    };
    let setting = kernel_playground::methods::picture::Setting {
        data,
        classes: &data.classes(),
        layers: &settings.layers(),
        view,
        threshold: 0.0,
    };
    kernel_playground::methods::picture::decorate(model, &mut scene, layout, &setting);
    scene
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[samples.len() / 2]
}

fn time_ms(repeats: usize, mut work: impl FnMut()) -> f64 {
    median(
        (0..repeats)
            .map(|_| {
                let start = Instant::now();
                work();
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    )
}

pub fn run(sizes: &[usize], repeats: usize) -> String {
    let params = SvmParams::new(Kernel::Rbf { gamma: 2.0 }, 1.0);
    let mut out = format!(
        "two moons (noise 0.3), RBF C=1 gamma=2, tol 1e-3; medians of {repeats} runs, ms\n\
         {:>6} {:>5} {:>7} {:>9} {:>9} {:>12} {:>12} {:>14} {:>8}\n",
        "n",
        "SVs",
        "iters",
        "cold fit",
        "warm fit",
        "naive field",
        "exact field",
        "adaptive field",
        "speedup"
    );
    for &n in sizes {
        let mut data = Preset::Moons.generate(n, 0.3, 1);
        let cold = time_ms(repeats, || {
            SvmModel::fit(&data.points, &data.labels, &params).expect("fit");
        });
        let model = SvmModel::fit(&data.points, &data.labels, &params).expect("fit");

        let mut trainer = SvmTrainer::new();
        trainer
            .fit(&data.points, &data.labels, &params)
            .expect("fit");
        let mut step = 0usize;
        let warm = time_ms(repeats, || {
            // Nudge one point back and forth, as a drag does.
            step += 1;
            let i = (step * 7) % n;
            let p = data.points[i];
            let delta = if step.is_multiple_of(2) { 0.01 } else { -0.01 };
            data.move_point(i, [p[0] + delta, p[1]]).expect("move");
            trainer.point_moved(i, &data.points);
            trainer
                .fit(&data.points, &data.labels, &params)
                .expect("fit");
        });

        let grid = Grid::new(View::square(1.0), GRID, GRID);
        let naive = time_ms(repeats.min(3), || {
            let direct = |r: usize, c: usize| model.decision_value(grid.node(r, c));
            std::hint::black_box(Field::exact(grid, &direct));
        });
        let exact = time_ms(repeats, || {
            let evaluator = model.grid_evaluator(&grid);
            std::hint::black_box(Field::exact(grid, &*evaluator));
        });
        let adaptive = time_ms(repeats, || {
            let evaluator = model.grid_evaluator(&grid);
            std::hint::black_box(Field::adaptive(grid, 8, &LEVELS, &*evaluator));
        });
        out.push_str(&format!(
            "{n:>6} {:>5} {:>7} {cold:>9.2} {warm:>9.2} {naive:>12.1} {exact:>12.2} {adaptive:>14.2} {:>7.0}x\n",
            model.support().len(),
            model.report.iterations,
            naive / adaptive,
        ));
    }
    out.push_str(&format!(
        "\nevery method, page defaults (SVM and perceptron RBF γ=2, C=1, ≤100 epochs; \
         logistic cubic features λ=0.01, Newton; k-NN k=5; …), two moons noise 0.3; \
         medians of {repeats} runs, ms; field = the page's field, contours and marks on a 512 px plot\n\
         {:>6} {:>12} {:>9} {:>9}\n",
        "n", "model", "fit", "field"
    ));
    for &n in sizes {
        let data = Preset::Moons.generate(n, 0.3, 1);
        for method in registry::methods_of(Task::Classification) {
            let model = method.id();
            let settings = Settings::default();
            let fit = || {
                registry::fit(method, &settings.values, &data, FitOptions::default()).expect("fit")
            };
            let fit_ms = time_ms(repeats, || {
                std::hint::black_box(fit());
            });
            let fitted = fit();
            let layout = Layout::new(GRID as u32, GRID as u32);
            let view = View::around(&data.points);
            let field_ms = time_ms(repeats, || {
                std::hint::black_box(plane(&*fitted, &data, &settings, &layout, view));
            });
            out.push_str(&format!(
                "{n:>6} {model:>12} {fit_ms:>9.2} {field_ms:>9.2}\n"
            ));
        }
    }
    out.push_str(&format!(
        "\nthe regularisation path: {PATH_STEPS} values of C from 1e-3 to 1e4, each fit warm \
         from the last (SVM, tol 1e-3, γ=2), two moons noise 0.3; medians of {repeats} runs, ms\n\
         {:>6} {:>8} {:>9} {:>12}\n",
        "n", "kernel", "path", "SMO iters"
    ));
    // The page's default method is the SVM.
    let svm = Settings::default().method();
    for &n in sizes {
        let data = Preset::Moons.generate(n, 0.3, 1);
        for kernel in ["linear", "rbf"] {
            let mut values = Settings::default().values;
            values.set("kernel", kernel).expect("a kernel");
            let path = || {
                let mut job = PathJob::new(svm, &values, &data, log_spaced(-3.0, 4.0, PATH_STEPS));
                while job.step() {}
                job
            };
            let ms = time_ms(repeats, || {
                std::hint::black_box(path());
            });
            let iterations: usize = path().points.iter().flatten().map(|p| p.iterations).sum();
            out.push_str(&format!("{n:>6} {kernel:>8} {ms:>9.1} {iterations:>12}\n"));
        }
    }
    out
}

/// `kernel-playground bench --field`: the decision field of an RBF SVM where it is expensive —
/// two moons with noise 0.3 (C = 1, γ = 1) at n = 2000 and 10 000, and 20 000 points with
/// random labels (the page's defaults, C = 1, γ = 2), nearly all of them support vectors — on
/// the grid of an 810-pixel plot. Three ways: exact at every node (separable RBF, once), the
/// adaptive field (exact on a lattice and near the levels, the page's path before the binned
/// one), and the field the page draws now ([`kernel_playground::methods::picture::two_class_field`]:
/// binned, exact near the levels, where that is cheaper); then everything the page does for
/// the plane after a fit (field, contours, support vectors and slack segments). Medians of
/// `repeats` runs, ms.
pub fn field_at_scale(repeats: usize) -> String {
    let scenes = [
        ("moons", 2000, Preset::Moons.generate(2000, 0.3, 1), 1.0),
        ("moons", 10_000, Preset::Moons.generate(10_000, 0.3, 1), 1.0),
        ("random", 20_000, random_labels(20_000, 1), 2.0),
    ];
    let mut out = format!(
        "the decision field at scale (RBF, C=1), an 810 px plot; medians of {repeats} runs, ms\n\
         {:>7} {:>6} {:>5} {:>6} {:>7} {:>9} {:>9} {:>8} {:>9} {:>8} {:>9}\n",
        "scene",
        "n",
        "gamma",
        "SVs",
        "nodes",
        "exact",
        "adaptive",
        "lattice",
        "field",
        "at f",
        "plane"
    );
    for (name, n, data, gamma) in scenes {
        let mut settings = Settings::default();
        settings.set("gamma", &gamma.to_string()).expect("gamma");
        let model = registry::fit(
            settings.method(),
            &settings.values,
            &data,
            FitOptions::default(),
        )
        .expect("fit");
        let layout = Layout::new(810, 810);
        let view = View::around(&data.points);
        let grid = kernel_playground::methods::picture::grid_for(&*model, &layout, view);
        let exact = time_ms(1, || {
            let evaluator = model.grid_evaluator(&grid);
            std::hint::black_box(Field::exact(grid, &*evaluator));
        });
        let step = model.smoothness().coarse_step(&grid);
        let adaptive = time_ms(repeats.min(3), || {
            let evaluator = model.grid_evaluator(&grid);
            std::hint::black_box(Field::adaptive(grid, step, &LEVELS, &*evaluator));
        });
        let field =
            || kernel_playground::methods::picture::two_class_field(&*model, grid, &LEVELS, 0.0);
        let field_ms = time_ms(repeats, || {
            std::hint::black_box(field());
        });
        let lattice = model
            .kernel_expansion()
            .and_then(|e| {
                let gamma = match e.kernel {
                    Kernel::Rbf { gamma } => gamma,
                    _ => return None,
                };
                BinnedRbf::for_field(gamma, e.terms, e.bias, &grid)
            })
            .map_or("-".to_string(), |b| {
                format!("{}x{}", b.lattice[0], b.lattice[1])
            });
        let plane_ms = time_ms(repeats.min(3), || {
            std::hint::black_box(plane(&*model, &data, &settings, &layout, view));
        });
        let svs = model.kernel_expansion().map_or(0, |e| e.terms.len());
        out.push_str(&format!(
            "{name:>7} {n:>6} {gamma:>5} {svs:>6} {:>7} {exact:>9.1} {adaptive:>9.2} \
             {lattice:>8} {field_ms:>9.2} {:>8} {plane_ms:>9.1}\n",
            grid.rows * grid.cols,
            field().exact_nodes,
        ));
    }
    out.push_str(
        "(exact: f at every node; adaptive: the lattice-and-refinement field; field: the one \
         drawn; at f: its nodes evaluated exactly; plane: all the page draws on the plane, \
         slack segments included)\n",
    );
    out
}

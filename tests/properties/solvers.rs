//! Every method of the registry, on random points and with parameters far beyond the sliders:
//! each fit ends quickly (an iteration cap, as the command line passes one, and a watchdog),
//! fails with a one-line message or gives finite decision values, scores and facts, and the
//! SVM's KKT conditions hold when it says it converged — as do ν-SVC's (its solution divided
//! by r is a C-SVM's with C = 1/r), with its ν-property.

use crate::common::kkt;
use crate::{config, one_line};
use kernel_playground::core::data::{Dataset, Point, MAX_COORDINATE};
use kernel_playground::core::field::View;
use kernel_playground::core::plane::{Layout, Scene};
use kernel_playground::core::task::Task;
use kernel_playground::lab::playground::{Inspection, Playground, Status};
use kernel_playground::lab::state::Settings;
use kernel_playground::methods::model::{ExitReason, FactValue, FitOptions, Model};
use kernel_playground::methods::registry;
use kernel_playground::methods::solvers::nu_svc::NuSvcModel;
use kernel_playground::methods::solvers::svm::SvmModel;
use proptest::prelude::*;
use std::sync::mpsc;
use std::time::Duration;

/// The iteration cap of every fit (the command line's `--max-iter`).
const MAX_ITER: usize = 20_000;

/// How long one fit may take before it counts as a hang.
const WATCHDOG: Duration = Duration::from_secs(60);

/// How the points of a case are laid out.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// Anywhere in the square.
    Scattered,
    /// On one line.
    Collinear { slope: f64 },
    /// Copies of at most three places.
    Duplicates,
}

/// Points at `centre` ± `spread` in the given shape, labels from `classes` classes (one class
/// happens, and is a case too).
pub(crate) fn points() -> impl Strategy<Value = Dataset> {
    let spread = prop::sample::select(vec![1e-12, 1e-9, 1e-6, 1e-3, 1.0, 1e3, 1e6, 1e9, 1e15]);
    let centre = prop::sample::select(vec![0.0, 1.0, -3e4, 1e9, -5e14, MAX_COORDINATE]);
    let shape = prop_oneof![
        3 => Just(Shape::Scattered),
        1 => prop_oneof![Just(0.0), Just(1.0), Just(-1e9), -10.0..10.0f64]
            .prop_map(|slope| Shape::Collinear { slope }),
        1 => Just(Shape::Duplicates),
    ];
    let rows = prop::collection::vec(((-1.0..=1.0f64, -1.0..=1.0f64), 0usize..64), 1..24);
    (spread, centre, shape, rows, 1usize..=4).prop_map(|(spread, centre, shape, rows, classes)| {
        let mut data = Dataset::new();
        let bases: Vec<(f64, f64)> = rows.iter().take(3).map(|r| r.0).collect();
        for (i, ((u, v), label)) in rows.iter().enumerate() {
            let (u, v) = match shape {
                Shape::Scattered => (*u, *v),
                Shape::Collinear { slope } => (*u, slope * u),
                Shape::Duplicates => bases[i % bases.len()],
            };
            let place = |t: f64| (centre + spread * t).clamp(-MAX_COORDINATE, MAX_COORDINATE);
            data.push([place(u), place(v)], (label % classes) as i32)
                .expect("clamped into range");
        }
        data
    })
}

/// 10^e for e drawn from [lo, hi], as the URL would write it.
fn power(lo: f64, hi: f64) -> impl Strategy<Value = String> {
    (lo..=hi).prop_map(|e| 10f64.powf(e).to_string())
}

/// Settings for `method`, most of them far beyond the sliders' ranges.
fn settings(n: usize) -> impl Strategy<Value = Settings> {
    let ids: Vec<&str> = registry::methods_of(Task::Classification)
        .map(|m| m.id())
        .collect();
    let choice = |options: &[&'static str]| prop::sample::select(options.to_vec());
    let values = (
        (
            choice(&["linear", "poly", "rbf", "sigmoid"]),
            choice(&["ovo", "ovr"]),
            choice(&["linear", "poly", "rbf"]),
            power(-12.0, 12.0),
            prop::bool::weighted(0.15),
            power(-12.0, 12.0),
            power(-12.0, 12.0),
            1u32..=10,
        ),
        (
            prop_oneof![Just(0.0), -1e3..1e3f64],
            power(-12.0, -1.0),
            1u32..=2000,
            choice(&["newton", "gd"]),
            power(-6.0, 6.0),
            1..=(n + 5).min(25),
            choice(&["euclidean", "manhattan", "chebyshev"]),
            choice(&["uniform", "distance"]),
        ),
        0.0..=1.0f64,
        // ν: 0 (refused), tiny, anywhere, 1.
        prop_oneof![
            Just(0.0),
            Just(1.0),
            power(-12.0, 0.0).prop_map(|v| v.parse().unwrap())
        ],
    );
    (prop::sample::select(ids), values).prop_map(|(model, (a, b, reg, nu))| {
        let (kernel, mc, features, c, hard, lambda, gamma, degree) = a;
        let (coef0, tol, epochs, solver, lr, k, metric, weights) = b;
        let mut settings = Settings::default();
        let texts = [
            ("model", model.to_string()),
            ("kernel", kernel.to_string()),
            ("mc", mc.to_string()),
            ("features", features.to_string()),
            ("C", c),
            ("hard", (hard as u8).to_string()),
            ("lambda", lambda),
            ("gamma", gamma),
            ("degree", degree.to_string()),
            ("coef0", coef0.to_string()),
            ("tol", tol),
            ("epochs", epochs.to_string()),
            ("solver", solver.to_string()),
            ("lr", lr),
            ("k", k.to_string()),
            ("metric", metric.to_string()),
            ("weights", weights.to_string()),
            ("reg", reg.to_string()),
            ("nu", f64::min(nu, 1.0).to_string()),
        ];
        for (key, text) in texts {
            settings
                .set(key, &text)
                .unwrap_or_else(|e| panic!("{key} = {text}: {e}"));
        }
        settings.max_iter = Some(MAX_ITER);
        settings
    })
}

/// A scene to fit; it prints as its link (`cargo run -- fit` takes the same settings).
#[derive(Clone)]
struct Case {
    data: Dataset,
    settings: Settings,
}

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let test = vec![false; self.data.len()];
        write!(f, "#{}", self.settings.to_hash(Some((&self.data, &test))))
    }
}

fn case() -> impl Strategy<Value = Case> {
    points().prop_flat_map(|data| {
        let n = data.len();
        (Just(data), settings(n)).prop_map(|(data, settings)| Case { data, settings })
    })
}

/// Runs `work` on another thread, so that one that never ends fails the case instead of the
/// run.
pub(crate) fn within_watchdog<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, TestCaseError> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        // The receiver is gone only when the watchdog fired; nothing is left to tell.
        let _ = send.send(work());
    });
    match receive.recv_timeout(WATCHDOG) {
        Ok(result) => Ok(result),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(TestCaseError::fail(format!(
            "it did not end within {WATCHDOG:?}"
        ))),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(TestCaseError::fail("it panicked (see above)"))
        }
    }
}

/// Fits as the lab does, with the command line's iteration cap.
fn fit_with_watchdog(
    settings: &Settings,
    data: &Dataset,
) -> Result<Result<Box<dyn Model>, String>, TestCaseError> {
    let (settings, data) = (settings.clone(), data.clone());
    within_watchdog(move || {
        let options = FitOptions {
            max_iter: settings.max_iter,
            ..FitOptions::default()
        };
        registry::fit(settings.method(), &settings.values, &data, options)
            .map_err(|e| e.to_string())
    })
}

/// Where to ask the model: the training points, the midpoints of neighbouring ones, and the
/// corners and middle of the view the page shows around them.
fn queries(data: &Dataset) -> Vec<Point> {
    let view = View::around(&data.points);
    let mut points = data.points.clone();
    for pair in data.points.windows(2) {
        points.push([
            0.5 * pair[0][0] + 0.5 * pair[1][0],
            0.5 * pair[0][1] + 0.5 * pair[1][1],
        ]);
    }
    for (s, t) in [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0), (0.5, 0.5)] {
        points.push([
            view.x_min + s * view.width(),
            view.y_min + t * view.height(),
        ]);
    }
    points
}

/// Whether a fact is a number: it may be infinite (the margin's width 2/‖w‖ when w = 0), but
/// never NaN.
fn numeric_fact(value: &FactValue) -> bool {
    match value {
        FactValue::Number(v) => !v.is_nan(),
        FactValue::Vector(v) => !v.iter().any(|x| x.is_nan()),
        FactValue::Numbers(v) => !v.iter().any(|x| x.is_nan()),
        FactValue::Rows(rows) => !rows.iter().flatten().any(|x| x.is_nan()),
        FactValue::Matrices(m) => !m.iter().flatten().flatten().any(|x| x.is_nan()),
        _ => true,
    }
}

fn check_fit(data: &Dataset, settings: &Settings) -> Result<(), TestCaseError> {
    let model = match fit_with_watchdog(settings, data)? {
        Err(message) => {
            prop_assert!(one_line(&message), "{:?}", message);
            prop_assert!(!message.is_empty());
            return Ok(());
        }
        Ok(model) => model,
    };
    let classes = data.classes();
    prop_assert_eq!(model.classes(), classes.as_slice());
    for x in queries(data) {
        let f = model.decision_value(x);
        prop_assert!(f.is_finite(), "f({:?}) = {}", x, f);
        let scores = model.scores(x);
        prop_assert!(
            scores.iter().all(|s| s.is_finite()),
            "scores {:?} at {:?}",
            scores,
            x
        );
        if let Some(p) = model.probabilities(x) {
            prop_assert!(
                p.iter().all(|v| (0.0..=1.0).contains(v)),
                "p {:?} at {:?}",
                p,
                x
            );
        }
        prop_assert!(model.classes().contains(&model.predict(x)));
    }
    for fact in model.facts(data) {
        prop_assert!(numeric_fact(&fact.value), "{}: {:?}", fact.key, fact.value);
    }
    if let Some(message) = model.message() {
        prop_assert!(one_line(&message), "{:?}", message);
    }
    if let Some(svm) = model.as_any().downcast_ref::<SvmModel>() {
        if svm.report.exit == ExitReason::Converged {
            let tolerance = kkt::Tolerance {
                slack: 10.0 * settings.values.real("tol"),
                relative: 1e-8,
            };
            if let Err(broken) = kkt::check(svm, tolerance) {
                prop_assert!(false, "converged, but {}", broken);
            }
        }
    }
    if let Some(nu) = model.as_any().downcast_ref::<NuSvcModel>() {
        check_nu_svc(nu, settings.values.real("tol"))?;
    }
    Ok(())
}

/// A converged ν-SVC: the C-SVM's KKT conditions for C = 1/r, within the tolerance divided by
/// r (it holds for the gradient before the rescaling), Σα = ν·l before the rescaling, and the
/// ν-property.
fn check_nu_svc(model: &NuSvcModel, tol: f64) -> Result<(), TestCaseError> {
    if model.svm.report.exit != ExitReason::Converged {
        return Ok(());
    }
    let tolerance = kkt::Tolerance {
        slack: 10.0 * tol / model.r,
        relative: 1e-8,
    };
    if let Err(broken) = kkt::check(&model.svm, tolerance) {
        prop_assert!(false, "converged, but {}", broken);
    }
    let l = model.svm.alpha.len() as f64;
    let total: f64 = model.svm.alpha.iter().map(|a| a * model.r).sum();
    prop_assert!(
        (total - model.nu * l).abs() <= 1e-9 * l,
        "Σα = {} for νl = {}",
        total,
        model.nu * l
    );
    let (errors, support) = (model.margin_error_fraction(), model.support_fraction());
    prop_assert!(
        errors <= model.nu && model.nu <= support,
        "{} ≤ ν = {} ≤ {}",
        errors,
        model.nu,
        support
    );
    Ok(())
}

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn every_method_ends_with_a_finite_model_or_one_line(case in case()) {
        check_fit(&case.data, &case.settings)?;
    }
}

/// What the page shows of a case: the status line, the picture and the hover readout.
struct Shown {
    status: Status,
    scene: Scene,
    hover: Vec<Inspection>,
}

/// The lab around the fit: its status line, its picture (the decision field on a grid, the
/// contours, the marks) and its hover readout say nothing multi-line and draw nothing at NaN.
fn check_lab(case: &Case) -> Result<(), TestCaseError> {
    let case = case.clone();
    let shown = within_watchdog(move || {
        let mut lab = Playground::new(case.settings.clone());
        lab.replace_data(case.data.clone());
        lab.fit();
        let status = lab.status();
        let scene = lab.scene(&Layout::new(120, 120));
        let hover = queries(&case.data)
            .into_iter()
            .map(|x| lab.inspect(x, 0.0))
            .collect();
        Shown {
            status,
            scene,
            hover,
        }
    })?;
    if let Some(message) = &shown.status.message {
        prop_assert!(one_line(message), "{:?}", message);
    }
    for fact in shown
        .status
        .facts
        .iter()
        .chain(shown.hover.iter().flat_map(|h| &h.facts))
    {
        prop_assert!(numeric_fact(&fact.value), "{}: {:?}", fact.key, fact.value);
    }
    if let Some(field) = &shown.scene.field {
        prop_assert!(field.values.iter().all(|v| !v.is_nan()), "NaN in the field");
    }
    for curve in &shown.scene.curves {
        prop_assert!(
            curve.points.iter().flatten().all(|v| v.is_finite()),
            "a curve at NaN"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(4))]

    #[test]
    fn the_lab_reports_and_draws_every_case(case in case()) {
        check_lab(&case)?;
    }
}

proptest! {
    #![proptest_config(config(1))]

    /// The SVM and ν-SVC alone, so that their KKT checks (and ν-SVC's ν-property) see as
    /// many cases as the other methods together.
    #[test]
    fn the_svm_meets_its_kkt_conditions_when_converged(mut case in case()) {
        for model in ["svm", "nusvc"] {
            case.settings.set("model", model).unwrap();
            check_fit(&case.data, &case.settings)?;
        }
    }
}

/// Fits the scene of a link as the properties do: the regressions below are cases they found,
/// kept as the links they print.
fn replay(link: &str) {
    let (mut settings, points, warnings) = Settings::from_hash(link).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    settings.max_iter = Some(MAX_ITER);
    let (data, _) = points.expect("the link has points");
    if let Err(e) = check_fit(&data, &settings) {
        panic!("{e}");
    }
}

/// A polynomial kernel of degree 10 on coordinates of 10¹⁵ overflowed to NaN decision values
/// that the fit accepted; it is now refused with a message.
#[test]
fn regression_overflowing_kernel_is_refused() {
    let link = "#model=svm&kernel=poly&C=1&gamma=893.195504277467&degree=10&coef0=0&tol=0.1\
        &points=1000000000000000,1000000000000000,0;1000000000000000,1000000000000000,1";
    replay(link);
    let (settings, points, _) = Settings::from_hash(link).unwrap();
    let (data, _) = points.unwrap();
    let error = registry::fit(
        settings.method(),
        &settings.values,
        &data,
        FitOptions::default(),
    )
    .unwrap_err();
    assert!(error.to_string().contains("overflows"), "{error}");
}

/// Ill-conditioned kernel values (a scaled linear kernel at 10⁹ from the origin): SMO's
/// step-by-step gradient drifted by 1 from the model's own f, and the fit still said it had
/// converged with margins that broke the KKT conditions.
#[test]
fn regression_converged_only_on_a_fresh_gradient() {
    replay(
        "#model=svm&kernel=poly&C=63972.65456894172&gamma=1582754.5912264504&degree=1&coef0=0\
         &tol=0.1&points=1000000000.8348352,1000000000.1186408,1;\
         1000000000.1143169,999999999.5469537,0;1000000000.1386547,999999999.3735439,0;\
         999999999.671698,999999999.7087182,1;999999999.6821945,1000000000.8251826,0;\
         1000000000.0637546,1000000000.8688514,1;1000000000.4002787,999999999.8267223,1",
    );
}

/// K(x, x) overflowed for a degree-10 polynomial on coordinates near 10¹⁵ while the decision
/// values happened to stay finite: the fit reported a NaN dual objective.
#[test]
fn regression_infinite_kernel_diagonal_is_refused() {
    replay(
        "#model=svm&kernel=poly&C=1&gamma=6.5383195174062445&degree=10&coef0=0&tol=0.1\
         &points=-24338958674278.03,-160649397520840.94,0;-600000536937436.1,626605315554618.8,1;\
         860014602469823.9,-330170353535551.7,1;-89250839483471.9,-126835053556751.73,1;\
         -363135894087819.94,-868504960253401.8,0;813291821667943.8,629740988805142.3,0;\
         724718430105236.9,-810642807904977.1,1;-131898581816235.84,-700633184113442.4,1;\
         342062229309031.25,-961810536404803.5,1;-908965698853043.3,-121931240220613.34,0",
    );
}

/// A degree-9 polynomial on coordinates near 10¹⁵: finite at the points, but +∞ (kernel
/// ridge) or NaN (+∞ − ∞, the perceptron) at the corners of the view drawn around them. Such
/// fits are refused now.
#[test]
fn regression_overflow_within_the_view_is_refused() {
    let far = "points=-716966083116687.8,494605429241348.06,0;\
        -105162979999473.17,454730498242522.1,0;-983137355256224.6,-804036979728045.5,1;\
        349299039420695.75,-736646130684417,0;576265482188660.8,-332300292384470,0;\
        699711070321058.8,-428574343788345.06,0;-372389529445158,-600475696750397.1,1;\
        85182496816895.34,15422019553887.232,1;945711383978329.1,145645824348513.44,0";
    let links = [
        format!("#model=krr&kernel=poly&lambda=1&gamma=10299.11002109862&degree=9&{far}"),
        format!("#model=perceptron&kernel=poly&gamma=8771.137619644453&degree=9&epochs=33&{far}"),
    ];
    for link in links {
        replay(&link);
        let (settings, points, _) = Settings::from_hash(&link).unwrap();
        let (data, _) = points.unwrap();
        let options = FitOptions {
            max_iter: Some(MAX_ITER),
            ..FitOptions::default()
        };
        let error =
            registry::fit(settings.method(), &settings.values, &data, options).expect_err(&link);
        assert!(error.to_string().contains("overflows"), "{error}");
    }
}

//! "Export as Python" against the lab itself: for every method scikit-learn has, on two scenes
//! each (and a few more for the SVM's solvers and kernels), the exported script is run by
//! `python3 SCRIPT --predict 41` and must predict, at every node of its 41 × 41 grid over the
//! lab's window, the class the lab's own model predicts there, and report the same training and
//! test accuracy. Only nodes beside the lab's own boundary may differ (two solvers stop within
//! their tolerances of the same optimum), and at most three of the 1681. For a method
//! scikit-learn lacks, the script must run and report no model.
//!
//! The suite does not need Python: without `python3` and NumPy and scikit-learn 1.9 or later
//! (whose LDA, QDA and naive Bayes estimate covariances by maximum likelihood, as the lab
//! does), the comparison is skipped with a message saying why.
//! Run alone with `cargo test --test python_export -- --nocapture`.

use kernel_playground::core::sklearn::Agreement;
use kernel_playground::core::task::Task;
use kernel_playground::draw::python;
use kernel_playground::lab::playground::Playground;
use kernel_playground::methods::registry;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

/// The scenes, as links: at least two a method.
const SCENES: &[&str] = &[
    "model=svm&preset=moons&n=60&noise=0.3&test=0.3&seed=3",
    "model=svm&kernel=poly&degree=2&coef0=1&gamma=0.5&C=10&preset=blobs3&n=60&std=1&seed=2",
    "model=svm&kernel=linear&hard=1&preset=separable&n=40&seed=4",
    "model=svm&kernel=sigmoid&gamma=0.3&coef0=-0.5&mc=ovr&preset=blobs3&n=45&seed=6",
    "model=svm&kernel=linear&svm_solver=dca&C=0.5&preset=overlapping&n=60&seed=5",
    "model=nusvc&nu=0.3&preset=moons&n=60&noise=0.3&test=0.3&seed=3",
    "model=nusvc&kernel=poly&degree=2&coef0=1&gamma=0.5&nu=0.33&preset=blobs3&n=60&std=1&seed=2",
    "model=perceptron&kernel=linear&preset=separable&n=50&test=0.2&seed=2",
    "model=perceptron&kernel=linear&epochs=20&preset=blobs3&n=60&std=1&seed=3",
    "model=logistic&preset=moons&n=60&test=0.3&seed=3",
    "model=logistic&features=rbf&gamma=3&lambda=0.1&preset=blobs3&n=60&std=1&seed=4",
    "model=logistic&features=linear&lambda=1&preset=overlapping&n=60&seed=2",
    "model=logistic&features=linear&lambda=0.1&multi=multinomial&preset=blobs3&n=60&seed=5",
    "model=logistic&features=poly&degree=2&lambda=0.1&multi=multinomial&preset=moons&n=60&seed=6",
    "model=bayeslogistic&preset=moons&n=40",
    "model=knn&k=7&weights=distance&metric=chebyshev&preset=moons&n=60&test=0.3&seed=3",
    "model=knn&k=1&metric=manhattan&preset=blobs3&n=60&std=1&seed=2",
    "model=lda&preset=overlapping&n=60&test=0.25&seed=2",
    "model=lda&points=5.1,3.5,0;4.9,3.0,0;4.7,3.2,0;5.0,3.6,0;5.4,3.9,0;7.0,3.2,1;6.4,3.2,1;\
     6.9,3.1,1;5.5,2.3,1;6.5,2.8,1,t;6.3,3.3,2;5.8,2.7,2;7.1,3.0,2;6.3,2.9,2;6.5,3.0,2,t;\
     4.6,3.1,0,t&names=0:setosa;1:versicolor;2:virginica",
    "model=qda&reg=0.3&preset=blobs3&n=60&seed=5",
    "model=qda&preset=xor&n=60&test=0.2&seed=2",
    "model=nb&preset=rings&n=60&seed=2",
    "model=nb&preset=spiral3&n=90&std=1&seed=1",
    "model=lsq&preset=outlier&n=50&seed=2",
    "model=lsq&preset=blobs3&n=60&test=0.2&seed=3",
    "model=nearest_mean&preset=moons&n=60&test=0.3&seed=3",
    "model=nearest_mean&preset=overlapping&n=60&std=1",
    "model=krr&kernel=rbf&gamma=5&lambda=0.1&preset=xor&n=60&seed=2",
    "model=krr&kernel=poly&degree=2&coef0=1&gamma=1&preset=blobs3&n=60&seed=3",
    // The notes' polynomial and kernels built by rule (a function of two arrays for SVC, of
    // two points for KernelRidge).
    "model=svm&kernel=poly1&degree=2&C=10&preset=xor&n=60&seed=5",
    "model=svm&kernel=composed&kexpr=rbf(3)*linear+0.5*exp(0.2*linear)^2&C=5&preset=moons&n=60&seed=4",
    "model=krr&kernel=composed&kexpr=poly(2,1,1)+rbf&gamma=4&lambda=0.05&preset=xor&n=50&seed=6",
    // Regression: f compared at inputs over the window; novelty: inside or outside on the grid.
    "task=regression&model=svr&preset=sine&n=40&tol=0.000001&seed=3",
    "task=regression&model=svr&kernel=poly&degree=3&gamma=1&coef0=1&C=10&epsilon=0.05&preset=line_outliers&n=40&test=0.25&tol=0.000001&seed=2",
    "task=regression&model=nusvr&nu=0.3&preset=sine&n=40&tol=0.000001&seed=4",
    "task=regression&model=nusvr&kernel=linear&C=2&nu=0.6&preset=heteroscedastic&n=40&tol=0.000001",
    "task=regression&model=krr&preset=sine&n=40&lambda=0.1&seed=2",
    "task=regression&model=krr&kernel=poly&degree=2&gamma=1&coef0=1&lambda=0.01&preset=step&n=40&test=0.25",
    "task=regression&model=lsq&preset=line_outliers&n=40&seed=2",
    "task=regression&model=lsq&preset=heteroscedastic&n=40&test=0.25",
    "task=regression&model=lad&preset=line_outliers&n=40&seed=2",
    "task=regression&model=lad&preset=step&n=41&seed=5",
    "task=novelty&model=oneclass&preset=blob&n=60&nu=0.1&tol=0.000001",
    "task=novelty&model=oneclass&gamma=5&nu=0.3&preset=blob&n=60&tol=0.000001&seed=3",
];

const GRID: usize = 41;

/// `python3` with NumPy and scikit-learn ≥ 1.9, or why not.
fn python() -> Result<(), String> {
    let out = Command::new("python3")
        .args(["-c", "import numpy, sklearn; print(sklearn.__version__)"])
        .output()
        .map_err(|e| format!("no python3 ({e})"))?;
    if !out.status.success() {
        return Err("python3 has no NumPy or scikit-learn (pip install numpy scikit-learn)".into());
    }
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let parts: Vec<u32> = version
        .split('.')
        .take(2)
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    if parts.as_slice() < [1, 9].as_slice() {
        return Err(format!(
            "scikit-learn {version} is older than 1.9, whose covariances the lab follows"
        ));
    }
    Ok(())
}

/// Runs the scene's script with `--predict` and compares; the problems found, if any.
fn check(scene: &str, dir: &std::path::Path, index: usize) -> Vec<String> {
    let mut lab = Playground::open(scene).unwrap_or_else(|e| panic!("{scene}: {e}"));
    lab.fit();
    let agreement = python::counterpart(&lab).agreement;
    let path: PathBuf = dir.join(format!("scene{index}.py"));
    std::fs::write(&path, python::script(&lab)).unwrap();
    let out = Command::new("python3")
        .arg(&path)
        .args(["--predict", &GRID.to_string()])
        .output()
        .expect("run python3");
    if !out.status.success() {
        return vec![format!(
            "{scene}: the script failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )];
    }
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{scene}: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    match (lab.settings().task, &agreement) {
        (Task::Regression, Agreement::Same | Agreement::Near(_)) => {
            return compare_curve(scene, &lab, &json, matches!(agreement, Agreement::Same));
        }
        (Task::Novelty, Agreement::Same) => return compare_region(scene, &lab, &json),
        _ => {}
    }
    match agreement {
        Agreement::Missing(_) => {
            if json["predicted"].is_null() && json["train_accuracy"].is_null() {
                Vec::new()
            } else {
                vec![format!(
                    "{scene}: scikit-learn has none, yet the script predicts"
                )]
            }
        }
        Agreement::Near(_) => Vec::new(),
        Agreement::Same => compare(scene, &mut lab, &json),
    }
}

/// The numbers of the script's JSON list `key`.
fn numbers(json: &Value, scene: &str, key: &str) -> Vec<f64> {
    json[key]
        .as_array()
        .unwrap_or_else(|| panic!("{scene}: no {key}"))
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

fn compare(scene: &str, lab: &mut Playground, json: &Value) -> Vec<String> {
    let (x1, x2) = (numbers(json, scene, "x1"), numbers(json, scene, "x2"));
    let theirs: Vec<i64> = json["predicted"]
        .as_array()
        .unwrap_or_else(|| panic!("{scene}: no predictions"))
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(x1.len(), GRID * GRID);
    let model = lab
        .model()
        .unwrap_or_else(|| panic!("{scene}: the lab fits no model"));
    let ours: Vec<i64> = x1
        .iter()
        .zip(&x2)
        .map(|(&a, &b)| i64::from(model.predict([a, b])))
        .collect();
    let beside_boundary = |k: usize| {
        let (row, col) = (k / GRID, k % GRID);
        let mut around = Vec::new();
        if row > 0 {
            around.push(k - GRID);
        }
        if row + 1 < GRID {
            around.push(k + GRID);
        }
        if col > 0 {
            around.push(k - 1);
        }
        if col + 1 < GRID {
            around.push(k + 1);
        }
        around.into_iter().any(|j| ours[j] != ours[k])
    };
    let differ: Vec<usize> = (0..ours.len()).filter(|&k| ours[k] != theirs[k]).collect();
    let mut problems = Vec::new();
    let far: Vec<String> = differ
        .iter()
        .filter(|&&k| !beside_boundary(k))
        .map(|&k| {
            format!(
                "({}, {}): lab {} scikit-learn {}",
                x1[k], x2[k], ours[k], theirs[k]
            )
        })
        .collect();
    if !far.is_empty() || differ.len() > 3 {
        problems.push(format!(
            "{scene}: {} of {} nodes differ, {} away from the lab's boundary: {far:?}",
            differ.len(),
            ours.len(),
            far.len()
        ));
    }
    let status = lab.status();
    for (key, lab_value) in [
        ("train_accuracy", status.train_accuracy),
        ("test_accuracy", status.test_accuracy),
    ] {
        let script_value = json[key].as_f64();
        let same = match (lab_value, script_value) {
            (Some(a), Some(b)) => (a - b).abs() < 1e-12,
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same {
            problems.push(format!(
                "{scene}: {key} lab {lab_value:?} script {script_value:?}"
            ));
        }
    }
    problems
}

/// A regression scene: f at the script's inputs within 10⁻³ of the lab's (relative to
/// max(1, |f|)) and the same training RMSE, when scikit-learn fits the same model; for a line
/// that need not be unique (least absolute deviations), the same least sum of absolute
/// residuals.
fn compare_curve(scene: &str, lab: &Playground, json: &Value, same: bool) -> Vec<String> {
    let model = lab.model().expect("a model");
    // The lab's model is g(x, t) = t − f(x): f(x) = −g(x, 0).
    let f = |x: f64| -model.decision_value([x, 0.0]);
    let (train, _) = lab.training();
    let residuals: Vec<f64> = train
        .points
        .iter()
        .map(|&p| model.decision_value(p))
        .collect();
    let mut problems = Vec::new();
    let abs_sum: f64 = residuals.iter().map(|r| r.abs()).sum();
    let theirs_abs = json["train_abs_sum"].as_f64().unwrap_or(f64::NAN);
    if (abs_sum - theirs_abs).abs() > 1e-6 * abs_sum.max(1.0) && !same {
        problems.push(format!("{scene}: Σ|r| lab {abs_sum} script {theirs_abs}"));
    }
    if !same {
        return problems;
    }
    let xs = json["x"].as_array().expect("x");
    let fs = json["f"].as_array().expect("f");
    assert_eq!(xs.len(), GRID);
    for (x, theirs) in xs.iter().zip(fs) {
        let (x, theirs) = (x.as_f64().unwrap(), theirs.as_f64().unwrap());
        let ours = f(x);
        if (ours - theirs).abs() > 1e-3 * ours.abs().max(1.0) {
            problems.push(format!("{scene}: f({x}) lab {ours} scikit-learn {theirs}"));
        }
    }
    let rmse = (residuals.iter().map(|r| r * r).sum::<f64>() / residuals.len() as f64).sqrt();
    let theirs_rmse = json["train_rmse"].as_f64().unwrap_or(f64::NAN);
    if (rmse - theirs_rmse).abs() > 1e-3 * rmse.max(1.0) {
        problems.push(format!(
            "{scene}: training RMSE lab {rmse} script {theirs_rmse}"
        ));
    }
    problems
}

/// A novelty scene: inside (+1) or outside (−1) at every node of the grid as the lab's f ≥ 0
/// says, but where |f| < 10⁻³ (on the boundary, within the solvers' tolerances).
fn compare_region(scene: &str, lab: &Playground, json: &Value) -> Vec<String> {
    let model = lab.model().expect("a model");
    let numbers = |key: &str| numbers(json, scene, key);
    let (x1, x2, theirs) = (numbers("x1"), numbers("x2"), numbers("predicted"));
    let mut problems = Vec::new();
    for k in 0..x1.len() {
        let f = model.decision_value([x1[k], x2[k]]);
        let ours = if f >= 0.0 { 1.0 } else { -1.0 };
        if ours != theirs[k] && f.abs() > 1e-3 {
            problems.push(format!(
                "{scene}: ({}, {}) lab {ours} (f = {f}) scikit-learn {}",
                x1[k], x2[k], theirs[k]
            ));
        }
    }
    problems
}

#[test]
fn every_method_has_two_scenes() {
    for task in Task::ALL {
        for method in registry::methods_of(task) {
            let of_it: Vec<&&str> = SCENES
                .iter()
                .filter(|s| {
                    let lab = Playground::open(s).unwrap();
                    lab.settings().task == task && lab.settings().method().id() == method.id()
                })
                .collect();
            let missing_everywhere = of_it.iter().all(|s| {
                matches!(
                    python::counterpart(&Playground::open(s).unwrap()).agreement,
                    Agreement::Missing(_)
                )
            });
            assert!(
                of_it.len() >= 2 || (!of_it.is_empty() && missing_everywhere),
                "{} ({}): add two scenes to SCENES",
                method.id(),
                task.id()
            );
        }
    }
}

#[test]
fn the_exported_scripts_predict_what_the_lab_predicts() {
    if let Err(why) = python() {
        eprintln!("skipped: the Python export's comparison needs {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("kp-python-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Two at a time: each run is mostly Python starting and importing scikit-learn.
    let next = Mutex::new(0usize);
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let index = {
                    let mut next = next.lock().unwrap();
                    *next += 1;
                    *next - 1
                };
                let Some(scene) = SCENES.get(index) else {
                    break;
                };
                let found = check(scene, &dir, index);
                problems.lock().unwrap().extend(found);
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    let problems = problems.into_inner().unwrap();
    assert!(problems.is_empty(), "{problems:#?}");
}

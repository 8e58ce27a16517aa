//! The end of the script for the tasks beyond classification, in place of [`super::code::MAIN`]:
//!
//! - **regression**: the points are (x, t), the first column the input and the second the
//!   target; the model is fitted to the training points' x and t, scored by RMSE and R² on the
//!   training and the held-out points, and drawn as the curve t = f(x) (with its tube f ± ε for
//!   ε-SVR). `--predict N` prints f at N inputs evenly spread over the window;
//! - **novelty detection**: the points have no labels; the model is fitted to the training
//!   points alone, and `--predict N` prints its +1 (inside) or −1 (outside) at the nodes of an
//!   N × N grid, and the fractions of the ν-property (outliers and support vectors).

use crate::core::task::Task;

/// What the script does with its model, for the docstring.
pub fn what_it_does(task: Task) -> &'static str {
    match task {
        Task::Classification => {
            "fits the model to the training points, prints its training and test accuracy, and\n\
             plots the points and the decision regions over the lab's window"
        }
        Task::Regression => {
            "fits the curve t = f(x) to the training points (x, t), prints its RMSE and R², and\n\
             plots the points and the curve over the lab's window"
        }
        Task::Novelty => {
            "fits the model to the training points (their labels are not used), prints the\n\
             fractions of outliers and support vectors, and plots the learned region"
        }
    }
}

/// What `--predict` prints, for the docstring.
pub fn what_predict_prints(task: Task) -> &'static str {
    match task {
        Task::Classification => {
            "the predictions on a 41 x 41\n\
            \x20                                                 grid over the window, as JSON"
        }
        Task::Regression => {
            "f at 41 inputs evenly spread\n\
            \x20                                                 over the window, as JSON"
        }
        Task::Novelty => {
            "+1 inside, -1 outside on a 41 x 41\n\
            \x20                                                 grid over the window, as JSON"
        }
    }
}

/// Fitting, scoring, `--predict` and the plot of a regression scene.
pub const REGRESSION: &str = r#"

x = X[:, :1]  # the input, as a column
t = X[:, 1]   # the target


def fitted_model():
    """The curve fitted to the training points (x, t)."""
    return fit(x[~held_out], t[~held_out])


def scores(model, mask):
    """RMSE and R² on the points in `mask` (None for no points; R² None for equal targets)."""
    if model is None or not mask.any():
        return None, None
    r = t[mask] - model.predict(x[mask])
    spread = float(np.sum((t[mask] - t[mask].mean()) ** 2))
    r2 = None if spread == 0 else 1 - float(np.sum(r ** 2)) / spread
    return float(np.sqrt(np.mean(r ** 2))), r2


def summary(model):
    if model is None:
        return f"{len(X)} points, no model"
    rmse, r2 = scores(model, ~held_out)
    line = f"training RMSE {rmse:.3g}" + ("" if r2 is None else f" · R² {r2:.3g}")
    if held_out.any():
        rmse, r2 = scores(model, held_out)
        line += f" · test RMSE {rmse:.3g}" + ("" if r2 is None else f" · R² {r2:.3g}")
    return line


def inputs(n):
    return np.linspace(WINDOW[0], WINDOW[1], n)


def predictions(model, n):
    """What `--predict n` prints: n inputs over the window, f at each, and the scores."""
    xs = inputs(n)
    train, test = scores(model, ~held_out), scores(model, held_out)
    return {
        "x": xs.tolist(),
        "f": None if model is None else model.predict(xs[:, None]).tolist(),
        "train_rmse": train[0], "train_r2": train[1],
        "train_abs_sum": None if model is None else float(np.sum(np.abs(t[~held_out] - model.predict(x[~held_out])))),
        "test_rmse": test[0], "test_r2": test[1],
    }


def plot(model, out=None):
    import matplotlib

    if out:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 7))
    if model is not None:
        xs = inputs(400)
        f = model.predict(xs[:, None])
        ax.plot(xs, f, color="black", linewidth=2, label="t = f(x)")
        # ε-SVR's tube (NuSVR finds its ε inside LIBSVM and does not report it).
        if type(model).__name__ == "SVR":
            epsilon = model.epsilon
            for side in (-1, 1):
                ax.plot(xs, f + side * epsilon, color="black", linestyle="--", linewidth=1,
                        label="f ± ε" if side > 0 else None)
    ax.scatter(x[~held_out, 0], t[~held_out], c=COLOURS[0], s=45, edgecolors="black",
               linewidths=0.6, label="training points")
    if held_out.any():
        ax.scatter(x[held_out, 0], t[held_out], c="white", s=45, edgecolors=COLOURS[0],
                   linewidths=1.6, label="held out")
    finish(fig, ax, model, out, "x", "t")
"#;

/// Fitting, the ν-property, `--predict` and the plot of a novelty scene.
pub const NOVELTY: &str = r#"


def fitted_model():
    """The model fitted to the training points (no labels)."""
    return fit(X[~held_out])


def fractions(model):
    """The ν-property's two sides: the share of training points outside (f < 0) and of
    support vectors."""
    if model is None:
        return None, None
    train = X[~held_out]
    return float(np.mean(model.decision_function(train) < 0)), len(model.support_) / len(train)


def summary(model):
    if model is None:
        return f"{len(X)} points, no model"
    outside, support = fractions(model)
    return f"outliers {outside:.3g} ≤ ν ≤ {support:.3g} support vectors"


def grid(n):
    """n x n nodes over the window, x1 fastest, then x2."""
    return np.meshgrid(np.linspace(WINDOW[0], WINDOW[1], n), np.linspace(WINDOW[2], WINDOW[3], n))


def predictions(model, n):
    """What `--predict n` prints: the grid's nodes, +1 inside and -1 outside at each, and
    the ν-property's fractions."""
    x1, x2 = grid(n)
    nodes = np.c_[x1.ravel(), x2.ravel()]
    outside, support = fractions(model)
    return {
        "x1": nodes[:, 0].tolist(),
        "x2": nodes[:, 1].tolist(),
        "predicted": None if model is None else model.predict(nodes).tolist(),
        "outlier_fraction": outside,
        "support_fraction": support,
    }


def plot(model, out=None):
    import matplotlib

    if out:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 7))
    if model is not None:
        x1, x2 = grid(400)
        f = model.decision_function(np.c_[x1.ravel(), x2.ravel()]).reshape(x1.shape)
        ax.contourf(x1, x2, f > 0, levels=[-0.5, 0.5, 1.5], colors=["white", COLOURS[0]], alpha=0.25)
        ax.contour(x1, x2, f, levels=[0.0], colors="black", linewidths=1.5)
    ax.scatter(X[~held_out, 0], X[~held_out, 1], c=COLOURS[0], s=45, edgecolors="black",
               linewidths=0.6, label="points")
    if held_out.any():
        ax.scatter(X[held_out, 0], X[held_out, 1], c="white", s=45, edgecolors=COLOURS[0],
                   linewidths=1.6, label="held out")
    finish(fig, ax, model, out, "x₁", "x₂")
"#;

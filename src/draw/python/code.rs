//! The Python that every exported script shares, whatever its scene: the classes a model may
//! need that scikit-learn lacks ([`Helper`]), and the script's end — fitting the model to the
//! training points, the accuracies, `--predict N` and the matplotlib plot. It reads the names
//! the script's start defines: `POINTS`, `X`, `y`, `held_out`, `CLASS_NAMES`, `WINDOW`,
//! `TITLE`, `COLOURS`, `MARKERS` and `make_model()`.

use crate::core::sklearn::Helper;

/// The Python code of a helper class ([`Helper`] says what each is).
pub fn helper_code(helper: Helper) -> &'static str {
    match helper {
        Helper::RbfBumps => RBF_BUMPS,
        Helper::SignOfRegression => SIGN_OF_REGRESSION,
    }
}

const RBF_BUMPS: &str = r#"

class RbfBumps(TransformerMixin, BaseEstimator):
    """The lab's RBF features: exp(-gamma |x - c_j|^2) for centres c_j taken from the training
    points, every ceil(n / max_centres)-th one in order (at most max_centres of them)."""

    def __init__(self, gamma=1.0, max_centres=100):
        self.gamma = gamma
        self.max_centres = max_centres

    def fit(self, X, y=None):
        stride = max(-(-len(X) // self.max_centres), 1)
        self.centres_ = np.asarray(X, dtype=float)[::stride]
        return self

    def transform(self, X):
        return rbf_kernel(X, self.centres_, gamma=self.gamma)
"#;

const SIGN_OF_REGRESSION: &str = r#"

class SignOfRegression(ClassifierMixin, BaseEstimator):
    """A regressor as the lab classifies with it: fitted to the targets +1 for a class and -1
    for the others (one column per class; for two classes one, +1 for the larger label), it
    predicts the class of the largest f (for two classes the larger label where f > 0)."""

    def __init__(self, regressor=None):
        self.regressor = regressor

    def fit(self, X, y):
        self.classes_, index = np.unique(y, return_inverse=True)
        targets = np.where(index[:, None] == np.arange(len(self.classes_)), 1.0, -1.0)
        if len(self.classes_) == 2:
            targets = targets[:, 1]
        self.regressor_ = clone(self.regressor).fit(X, targets)
        return self

    def decision_function(self, X):
        return self.regressor_.predict(X)

    def predict(self, X):
        f = self.decision_function(X)
        if f.ndim == 1:
            return self.classes_[(f > 0).astype(int)]
        return self.classes_[np.argmax(f, axis=1)]
"#;

/// Fitting, the accuracies, `--predict` and the plot of a classification scene.
pub const MAIN: &str = r#"

def fitted_model():
    """The model fitted to the training points; None without one (or when scikit-learn
    refuses the points, as for a single class: the reason is printed)."""
    return fit(X[~held_out], y[~held_out])


def accuracy(model, mask):
    """The share of the points in `mask` the model predicts right (None for no points)."""
    if model is None or not mask.any():
        return None
    return float(np.mean(model.predict(X[mask]) == y[mask]))


def grid(n):
    """n x n nodes over the window, x1 fastest, then x2."""
    return np.meshgrid(np.linspace(WINDOW[0], WINDOW[1], n), np.linspace(WINDOW[2], WINDOW[3], n))


def summary(model):
    if model is None:
        return f"{len(X)} points, no model"
    line = f"training accuracy {accuracy(model, ~held_out):.1%}"
    if held_out.any():
        line += f" · test accuracy {accuracy(model, held_out):.1%} ({held_out.sum()} held out)"
    return line


def predictions(model, n):
    """What `--predict n` prints: the grid's nodes, the class predicted at each, and the
    accuracies."""
    x1, x2 = grid(n)
    nodes = np.c_[x1.ravel(), x2.ravel()]
    return {
        "x1": nodes[:, 0].tolist(),
        "x2": nodes[:, 1].tolist(),
        "predicted": None if model is None else model.predict(nodes).tolist(),
        "train_accuracy": accuracy(model, ~held_out),
        "test_accuracy": accuracy(model, held_out),
    }


def plot(model, out=None):
    import matplotlib

    if out:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    classes = sorted(CLASS_NAMES)
    fig, ax = plt.subplots(figsize=(7, 7))
    if model is not None:
        x1, x2 = grid(400)
        predicted = model.predict(np.c_[x1.ravel(), x2.ravel()]).reshape(x1.shape)
        index = np.searchsorted(classes, predicted)
        k = len(classes)
        colours = [COLOURS[i % len(COLOURS)] for i in range(k)]
        ax.contourf(x1, x2, index, levels=np.arange(k + 1) - 0.5, colors=colours, alpha=0.25)
        if k == 2 and hasattr(model, "decision_function"):
            # Two classes: the boundary f = 0, smoother than the edge of the regions.
            f = model.decision_function(np.c_[x1.ravel(), x2.ravel()]).reshape(x1.shape)
            ax.contour(x1, x2, f, levels=[0.0], colors="black", linewidths=1.5)
        elif k > 1:
            ax.contour(x1, x2, index, levels=np.arange(1, k) - 0.5, colors="black", linewidths=1.5)
    for rank, c in enumerate(classes):
        colour, marker = COLOURS[rank % len(COLOURS)], MARKERS[rank % len(MARKERS)]
        train = ~held_out & (y == c)
        test = held_out & (y == c)
        if train.any():
            ax.scatter(X[train, 0], X[train, 1], c=colour, marker=marker, s=45,
                       edgecolors="black", linewidths=0.6, label=CLASS_NAMES[c])
        if test.any():
            ax.scatter(X[test, 0], X[test, 1], c="white", marker=marker, s=45,
                       edgecolors=colour, linewidths=1.6, label=f"{CLASS_NAMES[c]} (held out)")
    finish(fig, ax, model, out, "x₁", "x₂")
"#;

/// The script's entry, and what every task's part shares: fitting, and the plot's frame.
pub const ENTRY: &str = r#"

def fit(*data):
    """make_model() fitted to `data`; None without a model, or when scikit-learn refuses the
    points (a single class, say: the reason is printed)."""
    model = make_model()
    if model is None:
        return None
    try:
        return model.fit(*data)
    except ValueError as e:
        print(f"scikit-learn could not fit the model: {e}", file=sys.stderr)
        return None


def finish(fig, ax, model, out, xlabel, ylabel):
    """The lab's window, the axes' names, the summary as the title; then shown or saved."""
    import matplotlib.pyplot as plt

    ax.set_xlim(WINDOW[0], WINDOW[1])
    ax.set_ylim(WINDOW[2], WINDOW[3])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{TITLE}\n{summary(model)}")
    if len(X):
        ax.legend(loc="best")
    if out:
        fig.savefig(out, dpi=150, bbox_inches="tight")
        print(f"wrote {out}")
    else:
        plt.show()

def main(args):
    model = fitted_model()
    if "--predict" in args:
        n = int(args[args.index("--predict") + 1])
        print(json.dumps(predictions(model, n)))
        return
    print(summary(model))
    plot(model, args[args.index("--out") + 1] if "--out" in args else None)


if __name__ == "__main__":
    main(sys.argv[1:])
"#;

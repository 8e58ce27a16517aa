"""Times the 13 x 13 C x gamma grid of the SVM (RBF, 5-fold cross-validation) on the same
two-moons points and the same folds, in `kernel-playground cv` (native, one process) and in
scikit-learn's GridSearchCV(n_jobs=1) over PredefinedSplit folds, and checks that both find
the same cell accuracies. A benchmark, not a test: run it by hand after `cargo build --release`:

    python3 scripts/bench/grid_vs_sklearn.py [n ...]        (default: 500)

KP_BINARY names another build of kernel-playground (to compare before and after a change).
Needs numpy and scikit-learn (dev tools; nothing shipped uses them).
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from sklearn.model_selection import GridSearchCV, PredefinedSplit
from sklearn.svm import SVC

from moons import moons, write_csv

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("KP_BINARY", os.path.join(ROOT, "target", "release", "kernel-playground"))
GRID = "C=1e-3:1e4:13,gamma=1e-3:1e3:13"


def main(sizes):
    for n in sizes:
        x, y = moons(n)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "moons.csv")
            write_csv(path, x, y)
            args = [BINARY, "cv", "--data", path, "--folds", "5", "--seed", "1", "--grid", GRID]
            start = time.perf_counter()
            out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
            ours = time.perf_counter() - start
        result = json.loads(out)
        folds = np.asarray(result["folds"])
        cs = sorted({c["params"]["C"] for c in result["cells"]})
        gammas = sorted({c["params"]["gamma"] for c in result["cells"]})
        search = GridSearchCV(
            SVC(kernel="rbf", tol=1e-3),
            {"C": cs, "gamma": gammas},
            cv=PredefinedSplit(folds),
            n_jobs=1,
        )
        start = time.perf_counter()
        search.fit(x, y)
        theirs = time.perf_counter() - start
        ours_means = {(c["params"]["C"], c["params"]["gamma"]): c["mean"] for c in result["cells"]}
        differ = 0
        for params, mean in zip(search.cv_results_["params"], search.cv_results_["mean_test_score"]):
            if abs(ours_means[(params["C"], params["gamma"])] - mean) > 1e-9:
                differ += 1
        print(
            f"n = {n}: kernel-playground cv {ours:.2f} s (whole process), "
            f"GridSearchCV(n_jobs=1) {theirs:.2f} s; ratio {theirs / ours:.2f}; "
            f"{differ} of {len(ours_means)} cell means differ"
        )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [500])

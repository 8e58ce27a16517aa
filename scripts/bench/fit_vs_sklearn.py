"""Times one cold SVM fit on the same two-moons points (noise 0.3, RBF, C = 1, gamma = 1,
tol 1e-3) in `kernel-playground fit` (its `fit_ms`: the fit alone, without process start-up,
reading the CSV or writing the output) and in scikit-learn's SVC (LIBSVM; `fit` alone, the
points already in memory), and prints the medians and the ratio ours / LIBSVM. Both fit from
scratch every run, and the runs alternate between the two. A benchmark, not a test: run it
by hand after `cargo build --release`:

    python3 scripts/bench/fit_vs_sklearn.py [n ...]        (default: 2000 5000 20000)

KP_BINARY names another build of kernel-playground (to compare before and after a change);
KP_REPEATS the number of runs per size (default 5); KP_C and KP_GAMMA other parameters (a
large C makes the long runs shrinking is for). Needs numpy and scikit-learn (dev tools;
nothing shipped uses them).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from sklearn.svm import SVC

from moons import moons, write_csv

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("KP_BINARY", os.path.join(ROOT, "target", "release", "kernel-playground"))
REPEATS = int(os.environ.get("KP_REPEATS", "5"))
C = float(os.environ.get("KP_C", "1"))
GAMMA = float(os.environ.get("KP_GAMMA", "1"))


def ours(path):
    """fit_ms, support vectors and iterations of one `kernel-playground fit`."""
    args = [BINARY, "fit", "--data", path, "--model", "svm", "--kernel", "rbf",
            "--c", str(C), "--gamma", str(GAMMA), "--tol", "1e-3"]
    result = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    return result["fit_ms"], len(result["support"]), result["iterations"]


def theirs(x, y):
    """Milliseconds of one SVC fit, and its support vectors and iterations."""
    svc = SVC(kernel="rbf", C=C, gamma=GAMMA, tol=1e-3)
    start = time.perf_counter()
    svc.fit(x, y)
    elapsed = (time.perf_counter() - start) * 1e3
    return elapsed, len(svc.support_), int(svc.n_iter_[0])


def main(sizes):
    print(f"two moons (noise 0.3), RBF C={C} gamma={GAMMA}, tol 1e-3; medians of {REPEATS} runs, ms")
    print(f"{'n':>6} {'SVs':>11} {'iterations':>15} {'ours':>9} {'LIBSVM':>9} {'ours/LIBSVM':>12}")
    for n in sizes:
        x, y = moons(n)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "moons.csv")
            write_csv(path, x, y)
            # Alternate the two, so that load from elsewhere on the machine falls on both.
            runs, reference = [], []
            for _ in range(REPEATS):
                runs.append(ours(path))
                reference.append(theirs(x, y))
        ours_ms = statistics.median(r[0] for r in runs)
        theirs_ms = statistics.median(r[0] for r in reference)
        print(
            f"{n:>6} {runs[0][1]:>5}/{reference[0][1]:<5} {runs[0][2]:>7}/{reference[0][2]:<7} "
            f"{ours_ms:>9.1f} {theirs_ms:>9.1f} {ours_ms / theirs_ms:>12.2f}"
        )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [2000, 5000, 20000])

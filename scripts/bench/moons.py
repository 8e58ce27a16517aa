"""The benchmarks' scene: scikit-learn's two moons (noise 0.3, seed 1), scaled into the lab's
plane and rounded to four decimals so the CSV holds exactly the points scikit-learn fits."""

import numpy as np
from sklearn.datasets import make_moons


def moons(n):
    """n points and their 0/1 labels."""
    x, y = make_moons(n_samples=n, noise=0.3, random_state=1)
    return np.round(x / 1.6, 4), y


def write_csv(path, x, y):
    """The points as `x,y,label` rows, as `kernel-playground` reads them."""
    with open(path, "w") as fh:
        fh.write("x,y,label\n")
        for (a, b), label in zip(x, y):
            fh.write(f"{a},{b},{label}\n")

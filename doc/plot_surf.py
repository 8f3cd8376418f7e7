"""Draw doc/images/surf-epistasis.png (the SURF family on an interaction)
and doc/images/stir-epistasis.png (STIR's q-values on it).

Usage: ``python doc/plot_surf.py``

The data: two attributes whose sum modulo 3 is the class (each alone says
nothing about it), 18 random ones, 400 instances, a tenth of the classes
replaced at random.  Each panel shows one method's weights; the two
interacting attributes are drawn dark.
"""
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from orangecontrib.relief.core.variants import estimators, surf  # noqa: E402,E501
from orangecontrib.relief.core.analysis import significance  # noqa: E402,E501
from orangecontrib.relief.core.generators import modulo  # noqa: E402

IMAGES = Path(__file__).resolve().parent / "images"
OUT = IMAGES / "surf-epistasis.png"
STIR_OUT = IMAGES / "stir-epistasis.png"
METHODS = {
    "ReliefF (k = 10)": lambda X, y, d: estimators.relieff(X, y, d),
    "SURF": lambda X, y, d: surf.surf(X, y, d),
    "SURF*": lambda X, y, d: surf.surfstar(X, y, d),
    "MultiSURF": lambda X, y, d: surf.multisurf(X, y, d),
    "MultiSURF*": lambda X, y, d: surf.multisurfstar(X, y, d),
}


def epistasis(n_instances=400, n_noise=18, flipped=0.1, seed=0):
    """(X, y, discrete): the class is (x1 + x2) mod 3, a `flipped` share of
    it replaced by a random class."""
    problem = modulo(n_instances, 2, n_noise, p=3, seed=seed)
    X, y = problem.X.astype(float), problem.y.astype(float)
    rng = np.random.default_rng(seed + 1)
    noisy = rng.random(n_instances) < flipped
    y[noisy] = rng.integers(0, 3, noisy.sum())
    return X, y, np.ones(X.shape[1], bool)


def stir_figure(X, y, discrete, colours):
    """-log10 q of STIR over MultiSURF's and ReliefF's pairs, with the
    Benjamini-Hochberg cut at q = 0.05."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.2), sharey=True)
    for ax, neighbourhood in zip(axes, ("multisurf", "relieff")):
        result = significance.stir(X, y, discrete,
                                   neighbourhood=neighbourhood)
        q = significance.adjust(result.p, "bh")
        ax.bar(np.arange(1, X.shape[1] + 1),
               -np.log10(np.maximum(q, 1e-300)), color=colours)
        ax.axhline(-np.log10(0.05), color="#d62728", linestyle="--",
                   linewidth=1)
        ax.set_yscale("symlog")
        name = {"multisurf": "MultiSURF", "relieff": "ReliefF (k = 10)"}
        ax.set_title(f"STIR over {name[neighbourhood]} pairs")
        ax.set_xlabel("attribute (1, 2 interact)")
    axes[0].set_ylabel("-log10 q (Benjamini-Hochberg)")
    fig.tight_layout()
    fig.savefig(STIR_OUT, dpi=100)
    print(f"wrote {STIR_OUT}")


def main():
    X, y, discrete = epistasis()
    fig, axes = plt.subplots(1, len(METHODS), figsize=(14, 3.2), sharey=False)
    colours = ["#1f4e79"] * 2 + ["#a6b8c8"] * (X.shape[1] - 2)
    for ax, (name, method) in zip(axes, METHODS.items()):
        weights = method(X, y, discrete)
        ax.bar(np.arange(1, X.shape[1] + 1), weights, color=colours)
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_title(name)
        ax.set_xlabel("attribute (1, 2 interact)")
    axes[0].set_ylabel("weight")
    fig.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    fig.savefig(OUT, dpi=100)
    print(f"wrote {OUT}")
    stir_figure(X, y, discrete, colours)


if __name__ == "__main__":
    main()

"""The survival NPDR authors' simulated data and measures, for
bench_survival.py and bench_survival_auprc.py (Kampmeyer et al. 2026;
pak611/survivalNPDR, ``scripts/simulation/sim_utils.R``,
``main_effect_size_sweep_rsurv.r``, ``interaction_effect_size_sweep_rsurv.r``).

Both designs draw n x p standard normal attributes and survival times of a
lognormal accelerated failure time model, log T = log(100) + effect +
0.25 e (e standard normal; R's ``rsurv::raftreg``), censored at 125 (the
time min(T, 125), the event T <= 125):

* main effects: effect = beta (x_1 + ... + x_5) - beta (x_6 + ... + x_10);
* interactions: effect = beta (x_1 x_2 + x_3 x_4 + ... + x_19 x_20), no
  main effect.

numpy draws them here (:func:`main_effects`, :func:`interactions`, with
folds stratified by the event), or R does, the very data sets and folds of
the authors' runs (:func:`r_draws`, ``survival_sim.R``: their seeds, R's
generator, the lognormal times as ``rsurv::raftreg`` computes them, the
folds as caret's ``createFolds`` deals them).  The evaluation is theirs:
survival NPDR on each training fold, and the area under the
precision-recall curve of |beta| with the functional attributes positive
(PRROC's ``pr.curve(...)$auc.integral``, the interpolation of Davis &
Goadrich 2006).
"""
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

MEANLOG = np.log(100)
SDLOG = 0.25
MAX_TIME = 125.0


def censored(log_time):
    """(time, event) of the true log times, censored at MAX_TIME."""
    true_time = np.exp(log_time)
    return np.minimum(true_time, MAX_TIME), (true_time <= MAX_TIME) * 1.0


def main_effects(n, p, beta, seed, n_main=10):
    """(X, time, event, functional) of the main-effect design."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    betas = np.r_[np.full((n_main + 1) // 2, beta),
                  np.full(n_main // 2, -beta)]
    log_time = (MEANLOG + X[:, :n_main] @ betas
                + SDLOG * rng.standard_normal(n))
    return (X, *censored(log_time), np.arange(n_main))


def interactions(n, p, beta, seed, n_pairs=10):
    """(X, time, event, functional) of the interaction design."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    products = X[:, 0:2 * n_pairs:2] * X[:, 1:2 * n_pairs:2]
    log_time = (MEANLOG + beta * products.sum(axis=1)
                + SDLOG * rng.standard_normal(n))
    return (X, *censored(log_time), np.arange(2 * n_pairs))


def r_draws(design, n, p, beta, sims, folder):
    """Write the authors' data sets 1..`sims` of `design` ("main" or
    "interactions"), drawn by R (``survival_sim.R``), into `folder`;
    RuntimeError naming what is missing when Rscript fails or is absent."""
    if shutil.which("Rscript") is None:
        raise RuntimeError("R's draws need Rscript (R) on the PATH")
    script = Path(__file__).resolve().parent / "survival_sim.R"
    done = subprocess.run(["Rscript", str(script), design, str(n), str(p),
                           repr(beta), str(sims), str(folder)],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"survival_sim.R failed: "
                           f"{done.stderr.strip().splitlines()[-1:]}")


def read_r_draw(folder, sim, n, p):
    """(X, time, event, the training rows of each of the ten folds) of
    data set `sim` (1, 2, ...) that :func:`r_draws` wrote."""
    values = np.fromfile(Path(folder) / f"sim{sim:02d}.bin", "<f8")
    values = values.reshape(n, p + 3)
    fold = values[:, -1].astype(int)
    return (values[:, :p], values[:, p], values[:, p + 1],
            [np.flatnonzero(fold != f) for f in np.unique(fold)])


def training_folds(event, k, seed):
    """The training rows of `k` folds stratified by `event`: each
    event class's rows shuffled and dealt to the folds in turn."""
    rng = np.random.default_rng(seed)
    fold = np.empty(len(event), int)
    for value in np.unique(event):
        rows = rng.permutation(np.flatnonzero(event == value))
        fold[rows] = np.arange(len(rows)) % k
    return [np.flatnonzero(fold != f) for f in range(k)]


def auprc(positive, negative):
    """The area under the precision-recall curve of the scores of the
    `positive` and `negative` instances, precision interpolated between
    the thresholds as Davis & Goadrich (2006) do (PRROC's integral):
    between two points the true positives grow linearly with the false
    positives, and the precision x / (x + fp(x)) is integrated exactly
    over the recall x / P."""
    scores = np.r_[positive, negative]
    labels = np.r_[np.ones(len(positive)), np.zeros(len(negative))]
    order = np.argsort(-scores, kind="stable")
    scores, labels = scores[order], labels[order]
    last = np.r_[scores[1:] != scores[:-1], True]  # a threshold's end
    tp = np.r_[0.0, np.cumsum(labels)[last]]
    fp = np.r_[0.0, np.cumsum(1 - labels)[last]]
    area = 0.0
    for a in range(len(tp) - 1):
        if tp[a + 1] == tp[a]:
            continue
        slope = (fp[a + 1] - fp[a]) / (tp[a + 1] - tp[a])
        scale, offset = 1 + slope, fp[a] - slope * tp[a]

        def primitive(x):
            if offset == 0:
                return x / scale
            return x / scale - offset / scale ** 2 * np.log(scale * x
                                                            + offset)
        area += primitive(tp[a + 1]) - primitive(tp[a])
    return area / len(positive)


def print_markdown(header, rows, left=2):
    """A markdown table of `rows` under `header`, its first `left` columns
    left-aligned and the others right-aligned."""
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join(["---"] * left + ["---:"] * (len(header) - left))
          + " |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def say(message):
    """A line of progress on stderr (the table goes to stdout)."""
    print(message, file=sys.stderr, flush=True)

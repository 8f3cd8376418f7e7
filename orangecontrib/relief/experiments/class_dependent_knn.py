"""Table 2 of Qiu & He (2019): CDRelief and IWCDRelief with class-dependent kNN.

``orange-relief experiment classdep [--out DIR]`` runs it (the knobs are
those of :class:`Settings`).  For each data
set: stratified 10-fold cross-validation; in each fold the training part is
z-scored (its means and standard deviations also scale the test part), the
weights are learnt on it and the test part is classified by the
class-dependent weighted kNN of eq. 1
(:mod:`orangecontrib.relief.core.analysis.weighted_knn`),
with the same
k as the Relief neighbours, k = 3, 5, 7.  Methods:

* ``kNN``: all weights 1 (plain Euclidean kNN on the z-scores);
* ``kNN + ReliefF``: one global ReliefF weight vector for every class;
* ``CDRelief``: eq. 4;
* ``IWCDRelief`` with eq. 6 "as printed" and "as text", threshold
  0.1 .. 0.9: (a) *best*: the threshold with the best mean test accuracy
  per data set and k, as the paper chose it (optimistic: chosen on the test
  folds), and (b) *honest*: in every fold the threshold is chosen by an
  inner stratified cross-validation on the training part only.

Data: the paper's data sets are the numeric versions of the UCI data (the
instance counts of its Table 1 are those with incomplete rows removed), so
rows with a missing value are removed and nominal attributes enter as their
ordinal value codes (natural order: age groups, tumour sizes ...), before
the z-score.  bupa's class is the "selector" column.  The paper's DIABETES
and PIMA are both the Pima Indians data (our ``diabetes``); SPLICE and
THYROID are not available.  Negative weights are set to 0 (see
:mod:`..core.analysis.weighted_knn`).

Outputs in DIR: ``classdep.csv`` (one row per data set, method and k),
``classdep.md`` (the table with the paper's numbers beside ours) and
``classdep_accuracy_vs_k.png``.
"""
import os
import time
from dataclasses import dataclass, field

import numpy as np

from . import (Progress, check_at_least, check_folds, check_one_of,
               check_some_of, fastest_engine, write_csv)
from ..core.variants.classdep import ClassDependentRelief, UPDATES
from ..core.analysis.weighted_knn import (NEGATIVE, THRESHOLDS, accuracies,
                                          column_ranges, fit_class_weights,
                                          iwcdrelief_class_weights, stratified_folds)

__all__ = ["DATASETS", "PAPER", "Settings", "Results", "run", "load"]

#: our data set -> the paper's name(s) in Table 2
DATASETS = {"heart_disease": ("HEART",), "breast-cancer": ("B.CANCER",),
            "diabetes": ("DIABETES", "PIMA"),
            "breast-cancer-wisconsin": ("BREAST-W",), "bupa": ("BUPA",)}
K_VALUES = (3, 5, 7)

#: Table 2 of the paper: name -> method -> k -> (accuracy %, std)
PAPER = {
    "HEART": {"CDRelief": {3: (76.90, 0.096), 5: (72.96, 0.083), 7: (76.30, 0.089)},
              "IWCDRelief": {3: (81.11, 0.075), 5: (80.74, 0.086), 7: (80.74, 0.052)}},
    "B.CANCER": {"CDRelief": {3: (52.75, 0.202), 5: (61.82, 0.160), 7: (45.89, 0.173)},
                 "IWCDRelief": {3: (75.10, 0.072), 5: (75.46, 0.055), 7: (69.23, 0.098)}},
    "DIABETES": {"CDRelief": {3: (55.21, 0.043), 5: (49.47, 0.067), 7: (51.69, 0.038)},
                 "IWCDRelief": {3: (71.49, 0.048), 5: (70.19, 0.034), 7: (68.10, 0.058)}},
    "SPLICE": {"CDRelief": {3: (52.16, 0.006), 5: (51.88, 5.896), 7: (52.07, 0.004)},
               "IWCDRelief": {3: (89.15, 0.014), 5: (93.57, 0.009), 7: (94.51, 0.013)}},
    "THYROID": {"CDRelief": {3: (93.48, 0.067), 5: (93.10, 0.067), 7: (93.05, 0.071)},
                "IWCDRelief": {3: (96.28, 0.046), 5: (94.89, 0.049), 7: (93.51, 0.055)}},
    "BREAST-W": {"CDRelief": {3: (96.04, 0.021), 5: (96.48, 0.018), 7: (96.92, 0.016)},
                 "IWCDRelief": {3: (97.51, 0.015), 5: (97.51, 0.013), 7: (97.07, 0.009)}},
    "BUPA": {"CDRelief": {3: (45.29, 0.094), 5: (48.17, 0.110), 7: (42.93, 0.065)},
             "IWCDRelief": {3: (64.38, 0.036), 5: (61.45, 0.067), 7: (59.44, 0.048)}},
    "PIMA": {"CDRelief": {3: (79.54, 0.054), 5: (81.90, 0.039), 7: (82.29, 0.051)},
             "IWCDRelief": {3: (88.42, 0.026), 5: (86.07, 0.037), 7: (86.47, 0.025)}},
}

BASELINES = ("kNN", "kNN + ReliefF", "CDRelief")
_WEIGHT_METHOD = {"kNN": "none", "kNN + ReliefF": "ReliefF",
                  "CDRelief": "CDRelief"}


# ---------------------------------------------------------------- data ----

def load(name):
    """(X, y, class values) of a shipped data set, prepared as the paper's:
    complete rows only, nominal attributes as ordinal codes."""
    from Orange.data import Table
    from ..datasets import path

    table = Table(path(name))
    X = np.asarray(table.X, dtype=float)
    y = np.asarray(table.Y, dtype=float).ravel()
    complete = ~np.isnan(X).any(axis=1) & ~np.isnan(y)
    return X[complete], y[complete], table.domain.class_var.values


def zscore(train, test):
    """Both parts standardised by the training means and deviations."""
    mean = train.mean(axis=0)
    std = train.std(axis=0)
    std[std == 0] = 1.0
    return (train - mean) / std, (test - mean) / std


# --------------------------------------------------------- evaluation ----

def evaluate_split(train_X, train_y, test_X, test_y, n_classes, k_values,
                   thresholds, seed, negative="clip"):
    """Test accuracy of every method on one split.

    Returns {(method, k): accuracy} with methods "kNN", "kNN + ReliefF",
    "CDRelief" and ("IWCDRelief", update, threshold).  One neighbour search
    (with the largest k) serves CDRelief and every IWCDRelief setting, and
    weights that several settings share (thresholds under every reference's
    distance ratio, say) are tested once.
    """
    discrete = np.zeros(train_X.shape[1], dtype=bool)
    ranges = column_ranges(train_X, discrete)
    search = ClassDependentRelief(
        train_X, train_y, k_nearest=max(k_values), random_state=seed,
        distance_weights=ranges ** 2, n_classes=n_classes)
    result = {}
    for k in k_values:
        weights = {name: fit_class_weights(
            train_X, train_y, discrete, n_classes, k=k, search=search,
            random_state=seed, negative=negative, method=_WEIGHT_METHOD[name])
            for name in BASELINES}
        for update in UPDATES:
            grid = iwcdrelief_class_weights(search, ranges, thresholds, k=k,
                                            update=update, negative=negative)
            weights.update({("IWCDRelief", update, threshold): matrix
                            for threshold, matrix in zip(thresholds, grid)})
        distinct = {matrix.tobytes(): matrix for matrix in weights.values()}
        shares = dict(zip(distinct, accuracies(
            train_X, train_y, list(distinct.values()), discrete, test_X,
            test_y, k)))
        for key, matrix in weights.items():
            result[key, k] = shares[matrix.tobytes()]
    return result


def choose_threshold(train_X, train_y, n_classes, k_values, thresholds,
                     inner_folds, seed, negative="clip"):
    """{(update, k): threshold} with the best mean accuracy of an inner
    stratified cross-validation on the training part (ties: the smaller)."""
    fold = stratified_folds(train_y, inner_folds, seed + 1)
    totals = {}
    for f in range(inner_folds):
        inner_train, inner_test = fold != f, fold == f
        scores = evaluate_split(
            train_X[inner_train], train_y[inner_train], train_X[inner_test],
            train_y[inner_test], n_classes, k_values, thresholds, seed,
            negative)
        for (key, k), share in scores.items():
            totals[key, k] = totals.get((key, k), 0.0) + share
    return {(update, k): max(thresholds, key=lambda t: (
                totals[("IWCDRelief", update, t), k], -t))
            for update in UPDATES for k in k_values}


@dataclass
class DatasetResult:
    """Fold accuracies of one data set: {(method, k): array (folds,)}."""
    name: str
    n_instances: int
    n_attributes: int
    folds: dict = field(default_factory=dict)
    honest_thresholds: dict = field(default_factory=dict)
    seconds: float = 0.0
    n_folds: int = 10


@dataclass(frozen=True)
class Settings:
    """The knobs of the experiment (the defaults are the paper's design).

    Attributes
    ----------
    datasets : tuple of str
        Keys of :data:`DATASETS`.
    k_values : tuple of int
        Neighbours of the Relief weighting and of the classifier.
    thresholds : tuple of float
        IWCDRelief thresholds tried, in [0, 1].
    folds, inner_folds : int
        Folds of the cross-validation and of the threshold choice inside
        each training part (at least 2 each).
    seed : int
        Seed of the folds and of the reference sampling.
    negative : "clip" or "square"
        Negative weights set to 0, or squared as eq. 1 is written.
    plot : bool
        Whether :meth:`Results.write` draws the accuracy against k.
    """
    datasets: tuple = tuple(DATASETS)
    k_values: tuple = K_VALUES
    thresholds: tuple = THRESHOLDS
    folds: int = 10
    inner_folds: int = 5
    seed: int = 0
    negative: str = "clip"
    plot: bool = True

    def __post_init__(self):
        check_some_of("datasets", self.datasets, DATASETS)
        if not self.k_values or min(self.k_values) < 1:
            raise ValueError("k_values must be positive integers")
        if not self.thresholds or not all(0 <= t <= 1
                                          for t in self.thresholds):
            raise ValueError("thresholds must be between 0 and 1")
        check_at_least(self, 2, "folds", "inner_folds")
        check_at_least(self, 0, "seed")
        check_one_of(self, "negative", NEGATIVE)


def run_dataset(name, data, settings, progress):
    """Cross-validate every method on data set `name`, `data` its
    :func:`load` (see the module); `progress` counts the folds."""
    start = time.perf_counter()
    k_values, thresholds = settings.k_values, settings.thresholds
    seed, negative = settings.seed, settings.negative
    n_folds, inner_folds = settings.folds, settings.inner_folds
    X, y, values = data
    n_classes = len(values)
    fold = stratified_folds(y, n_folds, seed)
    per_fold = []
    honest = {}
    for f in range(n_folds):
        progress.check()
        train, test = fold != f, fold == f
        train_X, test_X = zscore(X[train], X[test])
        scores = evaluate_split(train_X, y[train], test_X, y[test], n_classes,
                                k_values, thresholds, seed, negative)
        chosen = choose_threshold(train_X, y[train], n_classes, k_values,
                                  thresholds, inner_folds, seed, negative)
        for (update, k), threshold in chosen.items():
            scores[("IWCDRelief honest", update), k] = scores[
                ("IWCDRelief", update, threshold), k]
            honest.setdefault((update, k), []).append(threshold)
        per_fold.append(scores)
        progress.done()
    result = DatasetResult(name, len(y), X.shape[1],
                           honest_thresholds=honest, n_folds=n_folds)
    for key in per_fold[0]:
        result.folds[key] = np.array([scores[key] for scores in per_fold])
    result.seconds = time.perf_counter() - start
    return result


@dataclass
class Results:
    """The fold accuracies of every data set (:class:`DatasetResult`)."""
    settings: Settings
    datasets: list = field(default_factory=list)
    seconds: float = 0.0

    def rows(self):
        """The table's rows (see :func:`summary_rows`)."""
        return summary_rows(self.datasets, self.settings.thresholds)

    def write(self, out):
        """Write classdep.csv, classdep.md and (with ``settings.plot``) the
        plot to the directory `out`; return their paths."""
        return write_outputs(self, out)

    def summary(self):
        """The table of ours beside the paper's, in Markdown."""
        return markdown_table(self.rows())


def run(settings=Settings(), *, progress_callback=None, should_stop=None):
    """Run every data set of `settings`; return :class:`Results`.

    The work is thousands of searches and rules on a few hundred rows: the
    compiled engine runs it (its compilation pays off over so many), on
    one thread (too little work per search to share).
    `progress_callback` receives the fraction of the folds done;
    `should_stop` is polled between folds.  Raises ValueError, before any
    work, if a data set has too few instances for the folds.
    """
    start = time.perf_counter()
    data = {name: load(name) for name in settings.datasets}
    for name, (_, y, _) in data.items():
        check_folds(settings, len(y), name)
    progress = Progress(len(settings.datasets) * settings.folds,
                        progress_callback, should_stop)
    results = Results(settings)
    with fastest_engine():
        for name in settings.datasets:
            results.datasets.append(run_dataset(name, data[name], settings,
                                                progress))
    results.seconds = time.perf_counter() - start
    return results


# ------------------------------------------------------------- tables ----

def summary_rows(results, thresholds=THRESHOLDS):
    """One dict per (data set, method, k): mean accuracy (%), std of the
    fold accuracies (fraction, as the paper), the threshold, the paper's."""
    rows = []
    for result in results:
        k_values = sorted({k for _, k in result.folds})
        paper_names = DATASETS.get(result.name, ())

        def add(method, k, accuracies, threshold="", paper_method=None):
            row = dict(dataset=result.name, paper_dataset="/".join(paper_names),
                       method=method, k=k,
                       accuracy=100 * accuracies.mean(),
                       std=accuracies.std(ddof=1) if len(accuracies) > 1 else 0.0,
                       threshold=threshold)
            for i, paper_name in enumerate(paper_names):
                paper = PAPER[paper_name].get(paper_method, {}).get(k)
                suffix = "" if i == 0 else f"_{paper_name.lower()}"
                row["paper_accuracy" + suffix] = paper[0] if paper else ""
                row["paper_std" + suffix] = paper[1] if paper else ""
            rows.append(row)

        for k in k_values:
            for name in BASELINES:
                add(name, k, result.folds[name, k],
                    paper_method="CDRelief" if name == "CDRelief" else None)
            for update in UPDATES:
                best = max(thresholds, key=lambda t: (
                    result.folds[("IWCDRelief", update, t), k].mean(), -t))
                add(f"IWCDRelief {update}, best threshold", k,
                    result.folds[("IWCDRelief", update, best), k],
                    threshold=best, paper_method="IWCDRelief")
            for update in UPDATES:
                chosen = result.honest_thresholds[update, k]
                add(f"IWCDRelief {update}, threshold chosen in training", k,
                    result.folds[("IWCDRelief honest", update), k],
                    threshold="median {:.1f}".format(np.median(chosen)),
                    paper_method="IWCDRelief")
    return rows


def reading_gaps(rows):
    """{update: mean |ours - paper| over the IWCDRelief best-threshold
    cells} (paper's first name of each data set)."""
    gaps = {}
    for update in UPDATES:
        method = f"IWCDRelief {update}, best threshold"
        diffs = [abs(r["accuracy"] - r["paper_accuracy"]) for r in rows
                 if r["method"] == method and r["paper_accuracy"] != ""]
        gaps[update] = float(np.mean(diffs)) if diffs else float("nan")
    return gaps


def _cell(row):
    text = f"{row['accuracy']:.2f} ({row['std']:.3f})"
    if row["threshold"] != "":
        threshold = row["threshold"]
        text += (f" t={threshold:.1f}" if isinstance(threshold, float)
                 else f" t {threshold}")
    return text


def markdown_table(rows):
    """Rows: data set x method, then the paper's; columns: the k values."""
    k_values = sorted({r["k"] for r in rows})
    header = ("| Data set | Method | " + " | ".join(f"k={k}" for k in k_values)
              + " |\n|---|---|" + "---|" * len(k_values))
    lines = [header]
    by_key = {(r["dataset"], r["method"], r["k"]): r for r in rows}
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    methods = list(dict.fromkeys(r["method"] for r in rows))
    for dataset in datasets:
        paper_names = DATASETS.get(dataset, ())
        for method in methods:
            cells = [_cell(by_key[dataset, method, k]) for k in k_values]
            lines.append(f"| {dataset} | {method} | " + " | ".join(cells) + " |")
            if method == "CDRelief" or method.endswith("as_text, best threshold"):
                paper_method = ("CDRelief" if method == "CDRelief"
                                else "IWCDRelief")
                for paper_name in paper_names:
                    cells = []
                    for k in k_values:
                        paper = PAPER[paper_name][paper_method].get(k)
                        cells.append(f"{paper[0]:.2f} ({paper[1]:.3f})"
                                     if paper else "")
                    lines.append(f"| {dataset} | *paper: {paper_method} "
                                 f"({paper_name})* | " + " | ".join(cells)
                                 + " |")
    return "\n".join(lines)


def write_outputs(results, out_dir):
    """Write classdep.csv, classdep.md and the plot of :class:`Results`;
    return their paths."""
    os.makedirs(out_dir, exist_ok=True)
    rows = results.rows()
    plot = results.settings.plot
    results = results.datasets
    csv_path = write_csv(os.path.join(out_dir, "classdep.csv"), [
        {key: (f"{value:.4f}" if isinstance(value, float)
               and not key.startswith("paper") else value)
         for key, value in row.items()} for row in rows])
    gaps = reading_gaps(rows)
    md_path = os.path.join(out_dir, "classdep.md")
    with open(md_path, "w", encoding="utf-8") as file:
        file.write("# Class-dependent Relief: Table 2 of Qiu & He (2019)\n\n")
        n_folds = "/".join(sorted({str(r.n_folds) for r in results}))
        file.write(f"Mean {n_folds}-fold CV accuracy in % (standard deviation "
                   f"of the fold accuracies); t = IWCDRelief threshold.\n\n")
        file.write(markdown_table(rows) + "\n\n")
        file.write("Mean |ours - paper| of IWCDRelief (best threshold): "
                   + ", ".join(f"{u} {g:.2f} points" for u, g in gaps.items())
                   + ".\n\n")
        file.write("Data: " + ", ".join(
            f"{r.name} ({r.n_instances} x {r.n_attributes}, {r.seconds:.0f} s)"
            for r in results) + ".\n")
    paths = [csv_path, md_path]
    if plot:
        paths.append(plot_accuracy_vs_k(rows, os.path.join(
            out_dir, "classdep_accuracy_vs_k.png")))
    return paths


PLOTTED = ("kNN", "kNN + ReliefF", "CDRelief",
           "IWCDRelief as_printed, best threshold",
           "IWCDRelief as_text, best threshold",
           "IWCDRelief as_text, threshold chosen in training")


def plot_accuracy_vs_k(rows, filename):
    """Accuracy against k, one panel per data set (the paper's numbers
    dashed), as the paper's Fig. 1."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    k_values = sorted({r["k"] for r in rows})
    fig = Figure(figsize=(3.2 * len(datasets), 3.6))
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(datasets), squeeze=False)[0]
    for ax, dataset in zip(axes, datasets):
        for method in PLOTTED:
            points = sorted((r["k"], r["accuracy"]) for r in rows
                            if r["dataset"] == dataset and r["method"] == method)
            if points:
                ax.plot(*zip(*points), marker="o", label=method)
        for paper_method, ours, style in (
                ("CDRelief", "CDRelief", "C2--"),
                ("IWCDRelief", "IWCDRelief as_text, best threshold", "C4--")):
            points = sorted((r["k"], r["paper_accuracy"]) for r in rows
                            if r["dataset"] == dataset and r["method"] == ours
                            and r["paper_accuracy"] != "")
            if points:
                ax.plot(*zip(*points), style, label=f"paper: {paper_method}")
        ax.set_title(dataset, fontsize=9)
        ax.set_xlabel("k")
        ax.set_xticks(k_values)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("accuracy (%)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=7)
    fig.tight_layout(rect=(0, 0.18, 1, 1))
    fig.savefig(filename, dpi=110)
    return filename

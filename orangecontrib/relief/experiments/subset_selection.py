"""The experiments of the RFSM paper (Arauzo-Azofra, Benitez & Castro,
section 5): ``orange-relief experiment rfsm [--out DIR]``.

Table 1 -- artificial data (CorrAL, Parity3+3 from
:mod:`orangecontrib.relief.generators`): the mean number of attributes a
greedy forward search selects in 10-fold cross-validation (on the training
part of each fold), +- its standard error, with Liu's consistency, the
wrapper (tree), the wrapper (kNN) and RFSM; and in how many folds the
selected set holds every necessary attribute.

Table 2 -- real data (zoo, lung-cancer, voting, breast-cancer, wine shipped
with the add-on; Orange's housing stands in for prostate): accuracy (MSE
for housing) and mean number of attributes with a tree and kNN (k = 21) in
10-fold cross-validation, without selection and after selecting on each
training part with Liu, the wrapper (the same learner) and RFSM.

Learners: Orange's tree with the Tree widget's pre-pruning (min. 2
instances in a leaf, no split of fewer than 5, stop at 95 % majority); for
the numeric class of housing Orange's scikit-learn regression tree with the
same limits (Orange's own regression tree is ~30x slower); Orange's kNN
with k = 21, Euclidean distance on attributes scaled to [0, 1] and the
neighbours weighted by rank, as Orange 2's kNN (which the paper used) did
by default.  The wrapper scores a set by 5-fold cross-validation on
the training part.  Every search is the paper's greedy forward search.
"""
import os
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from . import (Progress, check_at_least, check_folds, check_some_of,
               fastest_engine, run_in_processes, single_thread_worker,
               write_csv)

#: Table 1 of the paper: (data set, method) -> (mean, standard error)
PAPER_TABLE1 = {
    ("CorrAL", "Liu"): (5.0, 0.00), ("Parity3+3", "Liu"): (4.7, 0.21),
    ("CorrAL", "Wrapper (tree)"): (5.2, 0.13),
    ("Parity3+3", "Wrapper (tree)"): (6.5, 0.65),
    ("CorrAL", "Wrapper (kNN)"): (5.0, 0.15),
    ("Parity3+3", "Wrapper (kNN)"): (5.9, 0.85),
    ("CorrAL", "RFSM"): (4.0, 0.00), ("Parity3+3", "RFSM"): (3.0, 0.00),
}

#: Table 2 of the paper: data set -> {row: (accuracy % or MSE, NoF)};
#: our housing stands in for the paper's prostate.
PAPER_TABLE2 = {
    "zoo": {"tree": (96.0, 16.0), "Liu+tree": (95.0, 4.9),
            "Wrapper+tree": (95.0, 4.9), "RFSM+tree": (94.0, 6.0),
            "kNN": (94.1, 16.0), "Liu+kNN": (83.1, 4.9),
            "Wrapper+kNN": (89.0, 9.9), "RFSM+kNN": (88.1, 6.1)},
    "lung-cancer": {"tree": (43.3, 56.0), "Liu+tree": (50.8, 4.5),
                    "Wrapper+tree": (48.3, 8.9), "RFSM+tree": (50.8, 3.5),
                    "kNN": (44.2, 56.0), "Liu+kNN": (45.8, 4.5),
                    "Wrapper+kNN": (41.7, 16.8), "RFSM+kNN": (44.2, 3.9)},
    "voting": {"tree": (96.09, 16.0), "Liu+tree": (96.55, 10.0),
               "Wrapper+tree": (95.60, 8.2), "RFSM+tree": (95.87, 11.5),
               "kNN": (93.32, 16.0), "Liu+kNN": (94.48, 10.0),
               "Wrapper+kNN": (94.50, 5.4), "RFSM+kNN": (95.39, 11.8)},
    "breast-cancer": {"tree": (67.8, 9.0), "Liu+tree": (66.7, 7.9),
                      "Wrapper+tree": (72.1, 3.1), "RFSM+tree": (66.7, 8.1),
                      "kNN": (72.0, 9.0), "Liu+kNN": (71.7, 7.9),
                      "Wrapper+kNN": (67.9, 5.2), "RFSM+kNN": (73.8, 8.2)},
    "wine": {"tree": (93.79, 13.0), "Liu+tree": (94.93, 5.1),
             "Wrapper+tree": (93.90, 4.0), "RFSM+tree": (94.35, 11.0),
             "kNN": (97.19, 13.0), "Liu+kNN": (94.97, 5.1),
             "Wrapper+kNN": (94.30, 6.0), "RFSM+kNN": (97.75, 11.5)},
    "housing": {"tree": (1.32, 8.0), "Liu+tree": (1.33, 7.2),
                "Wrapper+tree": (1.64, 3.7), "RFSM+tree": (1.35, 7.5),
                "kNN": (0.92, 8.0), "Liu+kNN": (0.93, 7.2),
                "Wrapper+kNN": (0.77, 5.3), "RFSM+kNN": (0.99, 6.9)},
}

TABLE1_DATASETS = ("CorrAL", "Parity3+3")
TABLE2_DATASETS = ("zoo", "lung-cancer", "voting", "breast-cancer", "wine",
                   "housing")
LEARNERS = ("tree", "kNN")
TABLE1_METHODS = ("Liu", "Wrapper (tree)", "Wrapper (kNN)", "RFSM")
SELECTIONS = ("none", "Liu", "Wrapper", "RFSM")


@dataclass(frozen=True)
class Settings:
    """The knobs of the experiment (the defaults are the paper's)."""
    folds: int = 10
    inner_folds: int = 5
    seed: int = 0
    table1: tuple = TABLE1_DATASETS
    table2: tuple = TABLE2_DATASETS
    max_instances: int = 0      # > 0: a random sample of that many rows
    k_nearest: int = 1          # RFSM's neighbours (paper: 1)

    def __post_init__(self):
        check_at_least(self, 2, "folds", "inner_folds")
        check_at_least(self, 0, "seed", "max_instances")
        check_at_least(self, 1, "k_nearest")
        check_some_of("table1 and table2", self.table1 + self.table2,
                      TABLE1_DATASETS + TABLE2_DATASETS)


# --- data and learners ------------------------------------------------------

def load(name, settings):
    """The Orange table of a data set of either table."""
    from Orange.data import Table

    from orangecontrib.relief import datasets, generators

    if name == "CorrAL":
        data = generators.corral(seed=settings.seed)
    elif name == "Parity3+3":
        data = generators.parity(seed=settings.seed)
    elif name == "housing":
        data = Table("housing")
    else:
        data = Table(datasets.path(name))
    if 0 < settings.max_instances < len(data):
        rng = np.random.default_rng(settings.seed)
        data = data[np.sort(rng.choice(len(data), settings.max_instances,
                                       replace=False))]
    return data


def orange2_rank_weights(distances):
    """Orange 2's kNN weighting of neighbours by rank (its default, which
    the paper used): the r-th of k neighbours weighs exp(-r^2 / s^2) with
    s^2 = k^2 / ln 1000, so that the k-th weighs 0.001."""
    k = distances.shape[1]
    ranks = np.arange(1, k + 1)
    weights = np.exp(-ranks ** 2 * np.log(1000) / k ** 2)
    return np.broadcast_to(weights, distances.shape).copy()


def _capped_fit(learner_class):
    """An Orange kNN learner that uses at most as many neighbours as there
    are training instances (scikit-learn refuses more; only tiny runs of the
    experiment train on fewer than 21)."""
    class Capped(learner_class):
        def fit(self, X, Y, W=None):
            params = self.params
            self.params = dict(params, n_neighbors=min(params["n_neighbors"],
                                                       len(X)))
            try:
                return super().fit(X, Y, W)
            finally:
                self.params = params
    Capped.__name__ = Capped.__qualname__ = "Capped" + learner_class.__name__
    return Capped


def _knn_fitter():
    from Orange.classification import KNNLearner
    from Orange.modelling import Fitter
    from Orange.regression import KNNRegressionLearner

    class KNN(Fitter):
        __fits__ = {"classification": _capped_fit(KNNLearner),
                    "regression": _capped_fit(KNNRegressionLearner)}
        name = "kNN"
    return KNN


def make_learner(name, class_var):
    """The paper's "tree" (with pruning) or "kNN" (k = 21)."""
    from Orange.classification import TreeLearner
    from Orange.preprocess import (Continuize, Normalize, RemoveNaNColumns,
                                   SklImpute)
    from Orange.regression import SklTreeRegressionLearner

    if name == "tree":
        if class_var.is_discrete:
            return TreeLearner(min_samples_leaf=2, min_samples_split=5,
                               max_depth=100, sufficient_majority=0.95)
        return SklTreeRegressionLearner(min_samples_leaf=2,
                                        min_samples_split=5, max_depth=100,
                                        random_state=0)
    preprocessors = [Continuize(), RemoveNaNColumns(), SklImpute(),
                     Normalize(norm_type=Normalize.NormalizeBySpan)]
    return _knn_fitter()(n_neighbors=21, weights=orange2_rank_weights,
                         preprocessors=preprocessors)


def outer_folds(data, settings):
    """(train, test) index pairs of the outer cross-validation."""
    from sklearn.model_selection import KFold, StratifiedKFold

    y = data.Y
    if data.domain.class_var.is_discrete and \
            np.bincount(y.astype(int)).max() >= settings.folds:
        splitter = StratifiedKFold(settings.folds, shuffle=True,
                                   random_state=settings.seed)
    else:
        splitter = KFold(settings.folds, shuffle=True,
                         random_state=settings.seed)
    return list(splitter.split(np.zeros(len(y)), y))


def necessary_groups(domain):
    """Sets of attribute indices of which a good selection keeps at least
    one each: a relevant attribute with its redundant copies."""
    names = [var.name for var in domain.attributes]
    groups = []
    for i, var in enumerate(domain.attributes):
        if var.attributes.get("role") == "relevant":
            copies = [j for j, other in enumerate(names)
                      if other == var.name + "_copy"]
            groups.append({i, *copies})
    return groups


def choose(data, method, settings, learner=None):
    """Attribute indices selected on `data` by a greedy forward search."""
    from orangecontrib.relief.selection import select

    if method == "Liu":
        return select(data, "Consistency").selected
    if method == "RFSM":
        return select(data, "RFSM", measure_options=dict(
            k_nearest=settings.k_nearest)).selected
    return select(data, "Wrapper", learner=learner, measure_options=dict(
        folds=settings.inner_folds, random_state=settings.seed)).selected


# --- one fold ---------------------------------------------------------------

def table1_fold(settings, name, fold):
    """{method: (number selected, every necessary group kept)}."""
    data = load(name, settings)
    train = data[outer_folds(data, settings)[fold][0]]
    groups = necessary_groups(data.domain)
    out = {}
    for method in TABLE1_METHODS:
        learner = None
        if method.startswith("Wrapper"):
            kind = "tree" if "tree" in method else "kNN"
            learner = make_learner(kind, data.domain.class_var)
        chosen = set(choose(train, method.split()[0], settings, learner))
        out[method] = (len(chosen), all(g & chosen for g in groups))
    return out


def table2_fold(settings, name, fold):
    """Predictions on the fold's test part and numbers of attributes:
    {"actual": y, (learner, selection): (predictions, n_attributes)}."""
    from orangecontrib.relief.selection import reduce_data

    data = load(name, settings)
    train_rows, test_rows = outer_folds(data, settings)[fold]
    train, test = data[train_rows], data[test_rows]
    n_all = len(data.domain.attributes)
    shared = {"none": list(range(n_all)),
              "Liu": choose(train, "Liu", settings),
              "RFSM": choose(train, "RFSM", settings)}
    out = {"actual": test.Y.copy()}
    for kind in LEARNERS:
        learner = make_learner(kind, data.domain.class_var)
        chosen = dict(shared, Wrapper=choose(train, "Wrapper", settings,
                                             learner))
        for selection in SELECTIONS:
            attributes = chosen[selection]
            if attributes:
                model = learner(reduce_data(train, attributes))
                predicted = np.asarray(model(reduce_data(test, attributes)),
                                       float)
            else:
                predicted = _constant_predictions(train, len(test))
            out[(kind, selection)] = (predicted, len(attributes))
    return out


def _constant_predictions(train, n):
    from Orange.modelling import ConstantLearner

    model = ConstantLearner()(train)
    return np.full(n, float(np.asarray(model(train[:1]))[0]))


def run_task(settings, task):
    """Run one (table, data set, fold) task."""
    from threadpoolctl import threadpool_limits

    table, name, fold = task
    with threadpool_limits(limits=1):
        if table == 1:
            return table1_fold(settings, name, fold)
        return table2_fold(settings, name, fold)


def _worker_init():
    import warnings

    single_thread_worker()
    warnings.filterwarnings("ignore")


def _run_in_worker(fields, task):
    return run_task(Settings(**fields), task)


# --- the whole experiment ---------------------------------------------------

@dataclass
class Results:
    """Table 1 and Table 2 rows (lists of dicts) and the time taken."""
    settings: Settings
    table1: list = field(default_factory=list)
    table2: list = field(default_factory=list)
    seconds: float = 0.0

    def write(self, out):
        """Write rfsm_table1.csv, rfsm_table2.csv and rfsm.md to the
        directory `out`; return their paths."""
        return write(self, out)

    def summary(self):
        """Both tables, ours with the paper's numbers beside, in
        Markdown."""
        return markdown(self)


def tasks(settings):
    """Every (table, data set, fold) task of the experiment.

    Raises ValueError if a data set (or its sample of `max_instances`) has
    too few instances for the folds.
    """
    out = []
    for table, names in ((1, settings.table1), (2, settings.table2)):
        for name in names:
            sampled = (f"{name} (max_instances {settings.max_instances})"
                       if settings.max_instances else name)
            check_folds(settings, len(load(name, settings)), sampled)
            out.extend((table, name, fold) for fold in range(settings.folds))
    return out


def run(settings=Settings(), *, jobs=1, progress_callback=None,
        should_stop=None):
    """Run the experiment; return :class:`Results`.

    `progress_callback` receives the fraction of the (table, data set,
    fold) tasks done; `should_stop` is polled between tasks (jobs=1) or
    while the worker processes run.  Raises ValueError, before any work,
    if a data set has too few instances for the folds.
    """
    import warnings

    start = time.perf_counter()
    todo = tasks(settings)
    progress = Progress(len(todo), progress_callback, should_stop)
    parts = {}

    def done(task, part):
        parts[task] = part
        progress.done()

    if jobs <= 1:
        with warnings.catch_warnings(), fastest_engine():
            warnings.simplefilter("ignore")
            for task in todo:
                progress.check()
                done(task, run_task(settings, task))
    else:
        run_in_processes(_run_in_worker, asdict(settings), todo, jobs, done,
                         initializer=_worker_init, poll=progress.check)
    results = Results(settings, seconds=0.0)
    results.table1 = _table1_rows(settings, parts)
    results.table2 = _table2_rows(settings, parts)
    results.seconds = time.perf_counter() - start
    return results


def _table1_rows(settings, parts):
    rows = []
    for method in TABLE1_METHODS:
        for name in settings.table1:
            folds = [v for (t, n, _), v in parts.items()
                     if t == 1 and n == name]
            counts = np.array([f[method][0] for f in folds], float)
            kept = sum(f[method][1] for f in folds)
            paper = PAPER_TABLE1.get((name, method), (None, None))
            rows.append(dict(
                dataset=name, method=method, mean=counts.mean(),
                stderr=counts.std(ddof=1) / np.sqrt(len(counts))
                if len(counts) > 1 else 0.0,
                necessary_kept=f"{kept}/{len(folds)}",
                paper_mean=paper[0], paper_stderr=paper[1]))
    return rows


def _table2_rows(settings, parts):
    rows = []
    for name in settings.table2:
        folds = [v for (t, n, _), v in parts.items() if t == 2 and n == name]
        actual = np.concatenate([f["actual"] for f in folds])
        regression = name == "housing"
        for kind in LEARNERS:
            for selection in SELECTIONS:
                predicted = np.concatenate([f[(kind, selection)][0]
                                            for f in folds])
                n_attributes = np.mean([f[(kind, selection)][1]
                                        for f in folds])
                score = (np.mean((predicted - actual) ** 2) if regression
                         else 100 * np.mean(predicted == actual))
                label = kind if selection == "none" else f"{selection}+{kind}"
                paper = PAPER_TABLE2.get(name, {}).get(label, (None, None))
                rows.append(dict(
                    dataset=name, row=label,
                    measure="MSE" if regression else "accuracy",
                    score=score, nof=n_attributes, paper_score=paper[0],
                    paper_nof=paper[1]))
    return rows


# --- output -----------------------------------------------------------------

def _fmt(value, digits=2):
    return "" if value is None else f"{value:.{digits}f}"


def table1_markdown(rows, names):
    """Table 1 as Markdown: ours and the paper's mean +- std. error."""
    lines = ["| Method | " + " | ".join(
        f"{n} (ours) | {n} (paper) | {n} necessary kept" for n in names)
        + " |", "|---" * (1 + 3 * len(names)) + "|"]
    for method in TABLE1_METHODS:
        cells = [method]
        for name in names:
            row = next(r for r in rows
                       if r["method"] == method and r["dataset"] == name)
            cells.append(f"{row['mean']:.1f} ± {row['stderr']:.2f}")
            cells.append("" if row["paper_mean"] is None else
                         f"{row['paper_mean']:.1f} ± {row['paper_stderr']:.2f}")
            cells.append(row["necessary_kept"])
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def table2_markdown(rows, names):
    """Table 2 as Markdown: accuracy (MSE) and NoF, ours (paper)."""
    header = ["Method"]
    for name in names:
        shown = "housing (paper: prostate)" if name == "housing" else name
        measure = "MSE" if name == "housing" else "Acc."
        header += [f"{shown} {measure}", f"{shown} NoF"]
    lines = ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    labels = [r["row"] for r in rows if r["dataset"] == names[0]]
    for label in labels:
        cells = [label]
        for name in names:
            row = next(r for r in rows
                       if r["row"] == label and r["dataset"] == name)
            cells.append(f"{row['score']:.2f} ({_fmt(row['paper_score'])})")
            cells.append(f"{row['nof']:.1f} ({_fmt(row['paper_nof'], 1)})")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def markdown(results):
    """The report: both tables, ours with the paper's numbers beside."""
    s = results.settings
    lines = ["# RFSM experiment (Arauzo-Azofra, Benitez & Castro, section 5)",
             "",
             f"{s.folds}-fold cross-validation (seed {s.seed}); wrapper: "
             f"{s.inner_folds}-fold inner cross-validation; greedy forward "
             f"search; RFSM with k = {s.k_nearest}"
             + (f"; at most {s.max_instances} instances per data set"
                if s.max_instances else "") + f"; {results.seconds:.0f} s.",
             ""]
    if results.table1:
        lines += ["## Table 1: number of selected attributes ± std. error",
                  ""] + table1_markdown(results.table1, s.table1) + [""]
    if results.table2:
        lines += ["## Table 2: accuracy % (MSE for housing) and number of "
                  "attributes, ours (paper)", ""]
        lines += table2_markdown(results.table2, s.table2) + [""]
    return "\n".join(lines)


def write(results, out):
    """Write rfsm_table1.csv, rfsm_table2.csv and rfsm.md to `out`."""
    os.makedirs(out, exist_ok=True)
    paths = []
    for name, rows in (("rfsm_table1.csv", results.table1),
                       ("rfsm_table2.csv", results.table2)):
        if not rows:
            continue
        paths.append(write_csv(os.path.join(out, name), rows))
    path = os.path.join(out, "rfsm.md")
    with open(path, "w", encoding="utf-8") as file:
        file.write(markdown(results))
    paths.append(path)
    return paths

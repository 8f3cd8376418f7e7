"""The separability experiment of Prat & Belanche (2006), sections 4-5.

For each problem, number of relevant attributes n = 1 .. 50 and number of
irrelevant ones m = 1 .. 2n, ten data sets of 100 instances are generated
(the full blocking design of Fig. 5) and weighted by ReliefF, dReliefF and
pdReliefF (k = 10, every instance a reference).  Each run gives the
separability (eq. 5.1)::

    s = max_{a in relevant} w(a) - max_{a in irrelevant} w(a)

Fig. 7 plots the mean s against the number of attributes n + m, one panel
per problem and one curve per algorithm; Fig. 8 the accumulated mean
separability (eq. 5.2), the running sum of those means over n + m.

The experiment has the shape of every experiment of the add-on:
:class:`Settings` holds the knobs (the defaults are the paper's full
design; a smaller design for tests, the widget and quick looks),
:func:`run` runs them (in parallel over data sets, seeded per data set so
the numbers do not depend on the number of processes or on the knobs: a
smaller design computes a subset of the full one's runs) and returns
:class:`Results`, which write themselves (:meth:`Results.write`: the CSV
and the figures) and summarise themselves (:meth:`Results.summary`).
:func:`curves` makes the figures' data.

This module imports neither Orange nor Qt.
"""
import csv
import os
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from . import (Progress, check_at_least, check_some_of, fastest_engine,
               run_in_processes)
from ..core import generators
from ..core.variants.double import (DEFAULT_EXPONENT, DEFAULT_S, content_order,
                                    double_weights)
from ..core.variants.estimators import prepared
from ..core.options import DIFF, K_RELIEFF, T_DIFF, T_EQ
from ..core.registry import DRELIEFF, PDRELIEFF, RELIEFF

#: the paper's three algorithms, variants of the registry
ALGORITHMS = (RELIEFF.name, DRELIEFF.name, PDRELIEFF.name)
PROBLEMS = tuple(generators.PROBLEMS)
#: Problem names as the paper's figures label them.
PAPER_NAMES = {"RDG1-numeric": "RDG1NamedContinuous",
               "RandomRBF": "RandomRBFRandRed",
               "NonMonotonic": "NonMonotonic", "MajorityN": "MajorityN",
               "ModuloP": "ModuloP", "RDG1-boolean": "RDG1NamedCategorical"}
COLUMNS = ("problem", "n_relevant", "n_irrelevant", "n_attributes",
           "dataset") + ALGORITHMS
MAX_ATTEMPTS = 100  # draws of a data set until it has two classes
IRRELEVANT_CHUNK = 10  # irrelevant counts per parallel task


@dataclass(frozen=True)
class Settings:
    """The knobs of the experiment; the defaults are the paper's design.

    Attributes
    ----------
    problems : tuple of str
        Keys of :data:`orangecontrib.relief.core.generators.PROBLEMS`.
    max_relevant : int
        Relevant attributes n = 1 .. max_relevant (paper: 50).
    irrelevant_factor : int
        Irrelevant attributes m = 1 .. irrelevant_factor * n (paper: 2).
    n_datasets : int
        Data sets per (problem, n, m) cell (paper: 10).
    n_instances : int
        Instances per data set (paper: 100).
    k_nearest : int
        Neighbours per class (paper: 10).
    relevant_step : int
        Use only n = 1, 1 + step, ... (1: all; a cheaper design).
    seed : int
        Base of every data set's seed.
    a, s : float
        pdReliefF's c(t) exponent and steepness.
    """
    problems: tuple = PROBLEMS
    max_relevant: int = 50
    irrelevant_factor: int = 2
    n_datasets: int = 10
    n_instances: int = 100
    k_nearest: int = K_RELIEFF
    relevant_step: int = 1
    seed: int = 0
    a: float = DEFAULT_EXPONENT
    s: float = DEFAULT_S

    def __post_init__(self):
        check_some_of("problems", self.problems, PROBLEMS)
        check_at_least(self, 1, "max_relevant", "irrelevant_factor",
                       "n_datasets", "k_nearest", "relevant_step")
        check_at_least(self, 2, "n_instances")
        check_at_least(self, 0, "seed")

    def relevant_counts(self):
        return list(range(1, self.max_relevant + 1, self.relevant_step))

    def cells(self):
        """(problem, n_relevant, n_irrelevant) of every cell, in order."""
        return [(problem, n, m) for problem in self.problems
                for n in self.relevant_counts()
                for m in range(1, self.irrelevant_factor * n + 1)]

    @property
    def n_runs(self):
        """Number of data sets (each weighted by the three algorithms)."""
        return len(self.cells()) * self.n_datasets

    def tasks(self):
        """Units of parallel work: (problem, n, [m, ...]), costliest first."""
        tasks = []
        for problem in self.problems:
            for n in self.relevant_counts():
                counts = list(range(1, self.irrelevant_factor * n + 1))
                for start in range(0, len(counts), IRRELEVANT_CHUNK):
                    tasks.append((problem, n,
                                  counts[start:start + IRRELEVANT_CHUNK]))
        return sorted(tasks, key=lambda t: -(t[1] + t[2][-1]) * len(t[2]))


def separability(weights, relevant):
    """Eq. 5.1: the best relevant weight minus the best irrelevant one."""
    weights = np.asarray(weights)
    relevant = np.asarray(relevant, dtype=bool)
    return weights[relevant].max() - weights[~relevant].max()


def dataset_seed(settings, problem, n_relevant, n_irrelevant, dataset,
                 attempt=0):
    """The seed of one data set: fixed by its place in the full design."""
    return np.random.SeedSequence([
        settings.seed, PROBLEMS.index(problem), n_relevant, n_irrelevant,
        dataset, attempt])


def generate(settings, problem, n_relevant, n_irrelevant, dataset):
    """The data set of a cell (drawn again while it has a single class)."""
    function, options, _ = generators.PROBLEMS[problem]
    for attempt in range(MAX_ATTEMPTS):
        data = function(settings.n_instances, n_relevant, n_irrelevant,
                        seed=dataset_seed(settings, problem, n_relevant,
                                          n_irrelevant, dataset, attempt),
                        **options)
        if len(np.unique(data.y)) > 1:
            return data
    raise RuntimeError(f"{problem} gave a single class {MAX_ATTEMPTS} times")


def algorithm_weights(X, y, discrete, settings):
    """ReliefF, dReliefF and pdReliefF weights of one data set (prepared
    once; every instance a reference, in order, and for the double
    variants in the order of its content, as their estimators take
    them)."""
    data, refs, kernels = prepared(X, y, discrete, None, None,
                                   task="classification", diff=DIFF,
                                   t_eq=T_EQ, t_diff=T_DIFF)
    neighbours = kernels.find_neighbours(data, refs, settings.k_nearest)
    relieff = kernels.relieff_rule(data.exact, refs, neighbours, data.priors)
    ordered = content_order(data)
    drelieff = double_weights(data, ordered, settings.k_nearest, None,
                              clip_negative=True, exponent=settings.a, s=-1.0)
    pdrelieff = double_weights(data, ordered, settings.k_nearest, None,
                               clip_negative=True, exponent=settings.a,
                               s=settings.s)
    return relieff, drelieff, pdrelieff


def run_task(settings, task, dataset_done=None):
    """Separabilities of one task: array (len(counts), n_datasets, 3)."""
    problem, n_relevant, counts = task
    out = np.empty((len(counts), settings.n_datasets, len(ALGORITHMS)))
    with fastest_engine():  # tiny data: one thread per data set is best
        for c, n_irrelevant in enumerate(counts):
            for d in range(settings.n_datasets):
                data = generate(settings, problem, n_relevant, n_irrelevant, d)
                weights = algorithm_weights(data.X, data.y, data.discrete,
                                            settings)
                out[c, d] = [separability(w, data.relevant) for w in weights]
                if dataset_done is not None:
                    dataset_done()
    return out


def _run_task_in_worker(fields, task):
    return run_task(Settings(**fields), task)


@dataclass
class Results:
    """Separabilities of a settings: one row per data set.

    ``columns[name]`` for name in :data:`COLUMNS`; the algorithms' columns
    hold the separability of that data set's weights.
    """
    settings: Settings
    columns: dict = field(default_factory=dict)
    seconds: float = 0.0

    FILES = ("separability.csv", "separability.png",
             "accumulated_separability.png")

    def write(self, out):
        """Write the CSV and Fig. 7 and 8 to the directory `out`; return
        their paths."""
        os.makedirs(out, exist_ok=True)
        paths = [os.path.join(out, name) for name in self.FILES]
        self.write_csv(paths[0])
        plot_figures(self, paths[1], paths[2])
        return paths

    def summary(self):
        """Per problem, the mean separability and the final accumulated
        separability of each algorithm (the end points of Fig. 8)."""
        lines = [f"{'problem':<22}"
                 + "".join(f"{name:>22}" for name in ALGORITHMS)]
        for problem, (x, per_algorithm) in curves(self).items():
            cells = [f"{per_algorithm[name][0].mean():>9.4f} / "
                     f"{per_algorithm[name][1][-1]:>9.3f}"
                     for name in ALGORITHMS]
            lines.append(f"{problem:<22}"
                         + "".join(f"{cell:>22}" for cell in cells))
        lines.append("(mean separability / accumulated separability at the "
                     "largest number of attributes)")
        lines.append(f"{self.settings.n_runs} data sets in "
                     f"{self.seconds:.1f} s")
        return "\n".join(lines)

    def __len__(self):
        return len(self.columns["dataset"])

    def rows(self):
        return zip(*(self.columns[name] for name in COLUMNS))

    def write_csv(self, path):
        with open(path, "w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            writer.writerow(COLUMNS)
            for row in self.rows():
                writer.writerow([f"{v:.10g}" if isinstance(v, float) else v
                                 for v in row])

    @classmethod
    def read_csv(cls, path, settings=None):
        """Results from a CSV written by :meth:`write_csv`."""
        with open(path, newline="", encoding="utf-8") as file:
            rows = list(csv.reader(file))
        header, body = rows[0], rows[1:]
        columns = {}
        for i, name in enumerate(header):
            values = [row[i] for row in body]
            if name == "problem":
                columns[name] = np.array(values, dtype=object)
            elif name in ALGORITHMS:
                columns[name] = np.array(values, dtype=float)
            else:
                columns[name] = np.array(values, dtype=int)
        problems = tuple(dict.fromkeys(columns["problem"]))
        return cls(settings or Settings(problems=problems), columns)


def _assemble(settings, parts, seconds):
    rows = {name: [] for name in COLUMNS}
    for problem, n, m in settings.cells():
        values = parts[(problem, n, m)]
        for d in range(settings.n_datasets):
            rows["problem"].append(problem)
            rows["n_relevant"].append(n)
            rows["n_irrelevant"].append(m)
            rows["n_attributes"].append(n + m)
            rows["dataset"].append(d)
            for a, name in enumerate(ALGORITHMS):
                rows[name].append(float(values[d, a]))
    columns = {name: np.array(values, dtype=object if name == "problem"
                              else float if name in ALGORITHMS else int)
               for name, values in rows.items()}
    return Results(settings, columns, seconds)


def run(settings=Settings(), *, jobs=1, progress_callback=None,
        should_stop=None):
    """Run the design of `settings`; return :class:`Results`.

    Parameters
    ----------
    settings : Settings
    jobs : int
        Worker processes (1: in this process, with progress after every
        data set).  Numba uses one thread per data set either way.
    progress_callback : callable(float) or None
        Receives the fraction of the data sets done.
    should_stop : callable() -> bool, or None
        Polled between data sets (jobs=1) or tasks; True stops the run
        with :class:`~orangecontrib.relief.core.progress.Interrupted`.
    """
    start = time.perf_counter()
    progress = Progress(settings.n_runs, progress_callback, should_stop)
    parts = {}

    def record(task, values):
        problem, n, counts = task
        for c, m in enumerate(counts):
            parts[(problem, n, m)] = values[c]

    def one_done():
        progress.check()
        progress.done()

    if jobs <= 1:
        for task in settings.tasks():
            progress.check()
            record(task, run_task(settings, task, one_done))
    else:
        def task_done(task, values):
            record(task, values)
            progress.done(len(task[2]) * settings.n_datasets)

        run_in_processes(_run_task_in_worker, asdict(settings),
                         settings.tasks(), jobs, task_done,
                         poll=progress.check)
    return _assemble(settings, parts, time.perf_counter() - start)


# --- the figures' data --------------------------------------------------------

def curves(results):
    """Fig. 7 and 8 data: {problem: (x, {algorithm: (mean s, accumulated)})}.

    x is every number of attributes n + m present; mean s averages the
    separability over all data sets (and cells) with that n + m; the
    accumulated separability is its running sum (eq. 5.2).
    """
    columns = results.columns
    out = {}
    for problem in dict.fromkeys(columns["problem"]):
        rows = columns["problem"] == problem
        x_all = columns["n_attributes"][rows]
        x, inverse = np.unique(x_all, return_inverse=True)
        counts = np.bincount(inverse)
        per_algorithm = {}
        for name in ALGORITHMS:
            mean = np.bincount(inverse, weights=columns[name][rows]) / counts
            per_algorithm[name] = (mean, np.cumsum(mean))
        out[problem] = (x, per_algorithm)
    return out


COLOURS = dict(zip(ALGORITHMS, ("#1f77b4", "#d62728", "#2ca02c")))


def plot_figures(results, separability_png, accumulated_png, dpi=110):
    """Write Fig. 7 (separability) and Fig. 8 (accumulated separability) of
    the paper for `results` as PNG files, one panel per problem."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    data = curves(results)
    for path, which, label in (
            (separability_png, 0, "separability s (eq. 5.1)"),
            (accumulated_png, 1, "accumulated separability (eq. 5.2)")):
        n_panels = len(data)
        n_cols = min(3, n_panels)
        n_rows = -(-n_panels // n_cols)
        figure = Figure(figsize=(4.2 * n_cols, 3.3 * n_rows))
        FigureCanvasAgg(figure)
        for number, (problem, (x, per_algorithm)) in enumerate(data.items()):
            axes = figure.add_subplot(n_rows, n_cols, number + 1)
            for name in ALGORITHMS:
                axes.plot(x, per_algorithm[name][which], label=name,
                          color=COLOURS[name], linewidth=1.2)
            axes.axhline(0, color="#999999", linewidth=0.6)
            axes.set_title(f"({'abcdef'[number % 6]}) {problem}",
                           fontsize=10)
            axes.set_xlabel("number of attributes (n + m)", fontsize=8)
            axes.set_ylabel(label, fontsize=8)
            axes.tick_params(labelsize=7)
            axes.grid(alpha=0.3)
            if number == 0:
                axes.legend(fontsize=7)
        figure.tight_layout()
        figure.savefig(path, dpi=dpi)

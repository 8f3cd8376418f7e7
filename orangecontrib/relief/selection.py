"""Attribute-set selection on Orange tables: RFSM, Liu's consistency and the
wrapper, searched greedily or otherwise (Arauzo-Azofra, Benitez & Castro).

The measures of :mod:`orangecontrib.relief.core` (RFSM, Consistency) work on
arrays; this module feeds them an Orange table and adds the Orange-dependent
measure, :class:`WrapperMeasure` (cross-validated quality of an Orange
learner).  :func:`select` runs a search of :data:`core.search.SEARCHES`
with one of the :data:`MEASURES` and returns a
:class:`~orangecontrib.relief.core.search.SearchResult`; :func:`reduce_data`
keeps the chosen attributes.  :class:`RFSMScorer` ranks attributes for
Orange's Rank widget by the gain each brought in the greedy RFSM search.

Example::

    from Orange.data import Table
    from orangecontrib.relief.selection import select, reduce_data
    data = Table("zoo")
    result = select(data, "RFSM")
    reduced = reduce_data(data, result.selected)
"""
import copy

import numpy as np

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.data.filter import HasClass
from Orange.modelling import ConstantLearner, Fitter

from . import core
from .core.search import SEARCHES, SetMeasure
from .scorers import ReliefScorer

__all__ = ["MEASURES", "SEARCHES", "table_arrays", "WrapperMeasure",
           "make_measure", "select", "reduce_data", "RFSMScorer"]

MEASURES = ("RFSM", "Consistency", "Wrapper")


def table_arrays(data):
    """(X, y, discrete, task) of an Orange table with a class; rows with an
    unknown class are kept (the core measures drop them)."""
    if data.domain.class_var is None:
        raise ValueError("The data has no (single) class variable.")
    if not data.domain.attributes:
        raise ValueError("The data has no attributes.")
    data = data.to_dense() if hasattr(data, "to_dense") else data
    discrete = np.array([var.is_discrete for var in data.domain.attributes])
    task = ("classification" if data.domain.class_var.is_discrete
            else "regression")
    return np.asarray(data.X, float), np.asarray(data.Y, float), discrete, task


def _concrete_learner(learner, class_var):
    """The classification or regression learner a Fitter would use."""
    if isinstance(learner, Fitter):
        return learner.get_learner(Fitter.CLASSIFICATION if class_var.is_discrete
                                   else Fitter.REGRESSION)
    return learner


def _source(var, originals):
    """The attribute of `originals` that `var` was computed from, or None."""
    for _ in range(10):
        if var in originals:
            return var
        var = getattr(var.compute_value, "variable", None)
        if var is None:
            return None
    return None


_CONTROLLER = []


def _thread_controller():
    """One threadpoolctl controller (making one scans the loaded libraries,
    which costs more than a small cross-validation)."""
    if not _CONTROLLER:
        from threadpoolctl import ThreadpoolController
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0]


class WrapperMeasure(SetMeasure):
    """Cross-validated quality of an Orange learner on the attribute set.

    The value is the classification accuracy (discrete class) or the
    negative mean squared error (numeric class) over `folds` folds, which
    stay the same for every set.  The empty set is scored by a constant
    model (majority class or mean).  Not monotone.

    Parameters
    ----------
    data : Orange.data.Table
        With a class variable; rows with an unknown class are dropped.
    learner : Orange learner or fitter
        E.g. ``TreeLearner()`` or ``KNNLearner(n_neighbors=21)``.
    folds : int
        Folds of the (stratified, for a discrete class) cross-validation.
    random_state : int
        Seed of the fold assignment.
    preprocess_once : bool
        Apply the learner's preprocessors (continuization, imputation ...)
        once to all the data and fit the learner without them on the
        attribute subsets: much faster (kNN in Orange spends most of its
        time in preprocessing), at the price that fitted preprocessors such
        as imputation see the held-out fold.  Falls back to the plain way if
        a derived column cannot be traced to its attribute.

    References
    ----------
    Kohavi, R., John, G. H. (1997). Wrappers for feature subset selection.
    Artificial Intelligence 97, 273-324.
    """
    monotone = False

    def __init__(self, data, learner, *, folds=5, random_state=0,
                 preprocess_once=True):
        from sklearn.model_selection import KFold, StratifiedKFold

        data = HasClass()(data)
        if len(data) < 2:
            raise ValueError("The wrapper needs at least two instances "
                             "with a known class.")
        self.data = data
        self.class_var = data.domain.class_var
        self.n_attributes = len(data.domain.attributes)
        self.learner = _concrete_learner(learner, self.class_var)
        self.constant = _concrete_learner(ConstantLearner(), self.class_var)
        y = data.Y
        n_folds = max(2, min(folds, len(data)))
        if self.class_var.is_discrete:
            smallest = np.bincount(y.astype(int)).max()
            splitter = (StratifiedKFold if smallest >= n_folds else KFold)(
                n_folds, shuffle=True, random_state=random_state)
        else:
            splitter = KFold(n_folds, shuffle=True, random_state=random_state)
        self.folds = list(splitter.split(np.zeros(len(y)), y))
        self._columns = None
        if preprocess_once:
            self._prepare_once()

    def _prepare_once(self):
        learner = copy.copy(self.learner)
        prepared = learner.preprocess(self.data)
        originals = self.data.domain.attributes
        columns = [[] for _ in originals]
        for var in prepared.domain.attributes:
            source = _source(var, originals)
            if source is None:
                return
            columns[originals.index(source)].append(var)
        learner.preprocessors = ()
        learner.use_default_preprocessors = False
        self.prepared, self._columns, self._stripped = prepared, columns, learner

    def _table(self, subset):
        if self._columns is not None:
            attributes = [var for a in sorted(subset) for var in self._columns[a]]
            return self.prepared, attributes, self._stripped
        attributes = [self.data.domain.attributes[a] for a in sorted(subset)]
        return self.data, attributes, self.learner

    def evaluate(self, subset):
        """Accuracy, or -MSE, of the learner on `subset` (column indices)."""
        data, attributes, learner = self._table(subset)
        if not attributes:
            data, learner = self.data, self.constant
        table = data.transform(Domain(attributes, self.class_var))
        scores = []
        # BLAS / OpenMP threads cost more than they give on folds this small
        with _thread_controller().limit(limits=1):
            for train, test in self.folds:
                model = learner(table[train])
                predicted = np.asarray(model(table[test]), dtype=float)
                actual = table.Y[test]
                if self.class_var.is_discrete:
                    scores.append(np.mean(predicted == actual))
                else:
                    scores.append(-np.mean((predicted - actual) ** 2))
        weights = [len(test) for _, test in self.folds]
        return float(np.average(scores, weights=weights))


def make_measure(name, data, *, learner=None, **options):
    """The set measure `name` (one of :data:`MEASURES`) of an Orange table.

    Parameters
    ----------
    name : "RFSM", "Consistency" or "Wrapper"
    data : Orange.data.Table
    learner : Orange learner
        The wrapper's learner (required for "Wrapper").
    **options
        Passed to :class:`core.RFSM`, :class:`core.Consistency` or
        :class:`WrapperMeasure`.
    """
    if name == "Wrapper":
        if learner is None:
            raise ValueError("The wrapper measure needs a learner.")
        return WrapperMeasure(data, learner, **options)
    X, y, discrete, task = table_arrays(data)
    if name == "RFSM":
        return core.RFSM(X, y, discrete, task=task, **options)
    if name == "Consistency":
        return core.Consistency(X, y, discrete, task=task, **options)
    raise ValueError(f"Unknown measure {name!r}; use one of "
                     + ", ".join(MEASURES))


def select(data, measure="RFSM", search="greedy forward", *, learner=None,
           measure_options=None, search_options=None, progress_callback=None):
    """Search the attribute sets of `data` with `measure`.

    Returns
    -------
    SearchResult
        ``selected`` holds attribute indices of ``data.domain.attributes``.
    """
    if search not in SEARCHES:
        raise ValueError(f"Unknown search {search!r}; use one of "
                         + ", ".join(SEARCHES))
    measure = make_measure(measure, data, learner=learner,
                           **(measure_options or {}))
    return SEARCHES[search](measure, progress_callback=progress_callback,
                            **(search_options or {}))


def reduce_data(data, selected):
    """`data` with only the attributes `selected` (indices; kept in domain
    order), the class and the metas."""
    attributes = [var for i, var in enumerate(data.domain.attributes)
                  if i in set(selected)]
    domain = Domain(attributes, data.domain.class_vars, data.domain.metas)
    return data.transform(domain)


class RFSMScorer(ReliefScorer):
    """Scores attributes by the greedy RFSM search (for the Rank widget).

    The greedy forward search of the RFSM paper is run to the end (every
    attribute gets a place); ``score="gain"`` (default) gives each attribute
    the increase of W_S it brought when it was added, ``score="order"``
    gives a - position (a for the first added), so that sorting by the
    score reproduces the order.  Attributes added after the search's
    stopping point brought no gain.  After a call, ``result_`` holds the
    :class:`SearchResult` (``selected`` = where the search stopped).

    Parameters are those of :class:`core.RFSM` (k_nearest, n_iterations,
    random_state, priors, diff, ...).
    """
    class_type = (DiscreteVariable, ContinuousVariable)
    friendly_name = "RFSM"

    def __init__(self, score="gain", **options):
        if score not in ("gain", "order"):
            raise ValueError(f"score must be 'gain' or 'order', not {score!r}")
        self.score = score
        self.options = options
        self.result_ = None

    def _weights(self, X, y, discrete, progress_callback):
        task = "classification" if self._discrete_class else "regression"
        measure = core.RFSM(X, y, discrete, task=task,
                            progress_callback=progress_callback,
                            **self.options)
        result = core.greedy_forward(measure, continue_to_end=True)
        self.result_ = result
        scores = np.zeros(X.shape[1])
        steps = result.trace[1:len(result.trace)]
        for position, step in enumerate(steps):
            if step.attribute is None:
                continue
            if self.score == "order":
                scores[step.attribute] = X.shape[1] - position
            else:
                previous = result.trace[position].value
                scores[step.attribute] = max(step.value - previous, 0.0)
        return scores

    def score_table(self, data, progress_callback=None):
        self._discrete_class = data.domain.class_var is not None and \
            data.domain.class_var.is_discrete
        return super().score_table(data, progress_callback)

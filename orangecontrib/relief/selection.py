"""Attribute-set selection on Orange tables: RFSM, Liu's consistency and the
wrapper, searched greedily or otherwise (Arauzo-Azofra, Benitez & Castro).

The measures of :mod:`orangecontrib.relief.core` (RFSM, Consistency) work on
arrays; this module feeds them an Orange table and adds the Orange-dependent
measure, :class:`WrapperMeasure` (cross-validated quality of an Orange
learner).  :func:`select` runs a search of
:data:`~orangecontrib.relief.core.subsets.SEARCHES` with one of the
:data:`MEASURES` and returns a
:class:`~orangecontrib.relief.core.subsets.SearchResult`; :func:`reduce_data`
keeps the chosen attributes.

Example::

    from Orange.data import Table
    from orangecontrib.relief.selection import select, reduce_data
    data = Table("zoo")
    result = select(data, "RFSM")
    reduced = reduce_data(data, result.selected)
"""
import numbers

import numpy as np

from Orange.data import Domain
from Orange.data.filter import HasClass
from Orange.modelling import ConstantLearner

from .arrays import check_table, table_arrays, without_weights
from .core.options import check_choice
from .core.progress import Interrupted
from .core.subsets import SEARCHES, Consistency, RFSM, SetMeasure
from .learners import PreprocessedOnce, concrete_learner, single_threaded

__all__ = ["MEASURES", "SEARCHES", "WrapperMeasure", "make_measure",
           "select", "reduce_data"]

MEASURES = ("RFSM", "Consistency", "Wrapper")


class WrapperMeasure(SetMeasure):
    """Cross-validated quality of an Orange learner on the attribute set.

    The value is the classification accuracy (discrete class) or the
    negative mean squared error (numeric class) over `folds` folds, which
    stay the same for every set.  The empty set is scored by a constant
    model (majority class or mean).  Not monotone.

    Parameters
    ----------
    data : Orange.data.Table
        With a class variable; rows with an unknown class are dropped, and
        instance weights ignored (neither the learner nor the accuracy
        sees them).
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
    should_stop : callable() -> bool, or None
        Polled before each fold's fit; True stops the evaluation (and the
        search) with :class:`~orangecontrib.relief.core.progress.Interrupted`.

    References
    ----------
    Kohavi, R., John, G. H. (1997). Wrappers for feature subset selection.
    Artificial Intelligence 97, 273-324.
    """
    monotone = False

    def __init__(self, data, learner, *, folds=5, random_state=0,
                 preprocess_once=True, should_stop=None):
        from sklearn.model_selection import KFold, StratifiedKFold

        check_table(data, "The wrapper")
        data = HasClass()(without_weights(data))
        if len(data) < 2:
            raise ValueError("The wrapper needs at least two instances "
                             "with a known class.")
        self.data = data
        self.class_var = data.domain.class_var
        self.n_attributes = len(data.domain.attributes)
        self.learner = concrete_learner(learner, self.class_var)
        self.constant = concrete_learner(ConstantLearner(), self.class_var)
        y = data.Y
        n_folds = max(2, min(folds, len(data)))
        if self.class_var.is_discrete:
            counts = np.bincount(y.astype(int))
            smallest = counts[counts > 0].min()
            splitter = (StratifiedKFold if smallest >= n_folds else KFold)(
                n_folds, shuffle=True, random_state=random_state)
        else:
            splitter = KFold(n_folds, shuffle=True, random_state=random_state)
        self.folds = list(splitter.split(np.zeros(len(y)), y))
        self.should_stop = should_stop
        self.once = (PreprocessedOnce(self.learner, data) if preprocess_once
                     else None)

    def evaluate(self, subset):
        """Accuracy, or -MSE, of the learner on `subset` (column indices)."""
        if not len(subset):
            table = self.data.transform(Domain([], self.class_var))
            learner = self.constant
        elif self.once is not None:
            table, learner = self.once.table(subset)
        else:
            table = self.data.transform(Domain(
                [self.data.domain.attributes[a] for a in sorted(subset)],
                self.class_var))
            learner = self.learner
        scores = []
        with single_threaded():
            for train, test in self.folds:
                if self.should_stop is not None and self.should_stop():
                    raise Interrupted
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
        Passed to :class:`~orangecontrib.relief.core.subsets.RFSM`,
        :class:`~orangecontrib.relief.core.subsets.Consistency` or
        :class:`WrapperMeasure`.
    """
    check_choice("measure", name, MEASURES)
    if name == "Wrapper":
        if learner is None:
            raise ValueError("The wrapper measure needs a learner.")
        return WrapperMeasure(data, learner, **options)
    arrays = table_arrays(data, name)
    measure = RFSM if name == "RFSM" else Consistency
    return measure(arrays.X, arrays.y, arrays.discrete, task=arrays.task,
                   **options)


def select(data, measure="RFSM", search="greedy forward", *, learner=None,
           measure_options=None, search_options=None, progress_callback=None):
    """Search the attribute sets of `data` with `measure`.

    Returns
    -------
    SearchResult
        ``selected`` holds attribute indices of ``data.domain.attributes``.
    """
    check_choice("search", search, tuple(SEARCHES))
    measure = make_measure(measure, data, learner=learner,
                           **(measure_options or {}))
    return SEARCHES[search](measure, progress_callback=progress_callback,
                            **(search_options or {}))


def reduce_data(data, selected):
    """`data` with only the attributes `selected` (indices; kept in domain
    order), the class and the metas."""
    n_attributes = len(data.domain.attributes)
    chosen = set()
    for i in selected:
        if (not isinstance(i, numbers.Integral) or isinstance(i, bool)
                or not 0 <= i < n_attributes):
            raise ValueError(f"selected must be attribute indices in "
                             f"0..{n_attributes - 1}, got {i!r}.")
        chosen.add(int(i))
    attributes = [var for i, var in enumerate(data.domain.attributes)
                  if i in chosen]
    domain = Domain(attributes, data.domain.class_vars, data.domain.metas)
    return data.transform(domain)

"""An Orange learner fitted many times on subsets of one table's attributes.

The wrapper measure (:mod:`.selection`) and the selection curve
(:mod:`.curve`) fit a learner on many subsets of the same attributes.
Orange's learners preprocess every table they get (continuization,
imputation, normalization), which can cost more than the fit;
:class:`PreprocessedOnce` applies the preprocessing once and fits the
learner without it on the derived columns of each subset.  Preprocessors
that work column by column give the same columns either way.
"""
import copy

from Orange.data import Domain
from Orange.modelling import Fitter

__all__ = ["concrete_learner", "source_attribute", "single_threaded",
           "PreprocessedOnce"]


def concrete_learner(learner, class_var):
    """The classification or regression learner a Fitter would use."""
    if isinstance(learner, Fitter):
        return learner.get_learner(Fitter.CLASSIFICATION if class_var.is_discrete
                                   else Fitter.REGRESSION)
    return learner


def source_attribute(var, originals):
    """The attribute of `originals` that `var` was computed from, or None."""
    for _ in range(10):
        if var in originals:
            return var
        var = getattr(var.compute_value, "variable", None)
        if var is None:
            return None
    return None


_CONTROLLER = []


def single_threaded():
    """A context in which BLAS and OpenMP use one thread: on the small
    tables of a cross-validation their threads cost more than they give.
    (One threadpoolctl controller is kept: making one scans the loaded
    libraries, which costs more than a small cross-validation.)"""
    if not _CONTROLLER:
        from threadpoolctl import ThreadpoolController
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1)


class PreprocessedOnce:
    """`learner`'s preprocessing of `data`, applied once, and the learner
    without it.

    Attributes
    ----------
    prepared : Orange.data.Table
        `data` preprocessed as `learner` would (its preprocessors fitted on
        `data`).
    columns : list of lists, or None
        The columns of `prepared` derived from each attribute of `data`;
        None where a column cannot be traced to one attribute (a projection
        such as PCA): :meth:`table` then falls back to the plain learner.
    stripped : learner
        `learner` without preprocessors.
    """

    def __init__(self, learner, data):
        self.data, self.learner = data, learner
        self.columns = None
        stripped = copy.copy(learner)
        self.prepared = stripped.preprocess(data)
        originals = data.domain.attributes
        columns = [[] for _ in originals]
        for var in self.prepared.domain.attributes:
            source = source_attribute(var, originals)
            if source is None:
                return
            columns[originals.index(source)].append(var)
        stripped.preprocessors = ()
        stripped.use_default_preprocessors = False
        self.columns, self.stripped = columns, stripped

    def table(self, attributes):
        """(table, learner): the table of `attributes` (indices of the
        attributes of `data`) and the class, and the learner that fits it
        as `learner` fits `data` with only those attributes."""
        if self.columns is None:
            chosen = [self.data.domain.attributes[a] for a in sorted(attributes)]
            data, learner = self.data, self.learner
        else:
            chosen = [var for a in sorted(attributes) for var in self.columns[a]]
            data, learner = self.prepared, self.stripped
        return data.transform(Domain(chosen, data.domain.class_vars)), learner

    def prepare(self, data):
        """`data` (of the domain of the data the learner prepared) in the
        prepared domain, so that a model of :meth:`fit` predicts it by
        picking its columns rather than preprocessing it again."""
        if self.columns is None:
            return data
        return data.transform(self.prepared.domain)

    def fit(self, attributes):
        """The learner's model of `data` with only `attributes`."""
        table, learner = self.table(attributes)
        return learner(table)

"""An Orange table as the arrays the core reads.

The one place where the Orange layer turns a table into ``X``, ``y``, the
nominal mask and the task; the scorers, the set measures and the learner
all come through here, so a table that cannot be scored gets the same
message everywhere.  Instance weights (``data.W``) are not among the
arrays: the add-on ignores them, as Orange's own ReliefF does.
"""
from collections import namedtuple

import numpy as np
import scipy.sparse as sp
from Orange.data import Table

from .readers.sources import core_input

TableArrays = namedtuple("TableArrays", [
    "X",         # (n, a): attribute values, NaN for missing, value codes
                 # for discrete attributes: float64, or with `sparse` the
                 # table's X as the core takes it (readers.sources.
                 # core_input: a CSR matrix of its dtype where it stores
                 # no NaN)
    "y",         # float64 (n,): class codes or the numeric target
    "discrete",  # bool (a,): which attributes are discrete (nominal)
    "task",      # "classification" or "regression"
])


def check_table(data, what):
    """Raise ValueError unless `data` has a single class variable and at
    least one attribute; `what` names the method in the message."""
    if data.domain.class_var is None:
        raise ValueError(f"{what} needs data with a single target "
                         f"variable (class).")
    if not data.domain.attributes:
        raise ValueError(f"{what}: the data has no attributes to score.")


def without_weights(data):
    """`data` without its instance weights, sharing its arrays (`data`
    itself if it has none).  For the entry points that hand a table to
    Orange's preprocessors, learners or scorers: Orange's imputation fails
    on a weighted table, and some of its scorers would read the weights."""
    if not data.has_weights():
        return data
    unweighted = Table.from_numpy(data.domain, data.X, data.Y, data.metas,
                                  attributes=data.attributes, ids=data.ids)
    unweighted.name = data.name
    return unweighted


def table_arrays(data, what, sparse=False):
    """The :class:`TableArrays` of `data` (rows with an unknown class are
    kept, the core leaves them out).  A sparse table is made dense, or
    with `sparse` its X goes to the core through
    :func:`~orangecontrib.relief.readers.sources.core_input`, the one place
    that decides what the core gets of it (a CSR matrix, read as it is by
    :mod:`.core.compact`, unless it stores a missing value)."""
    check_table(data, what)
    discrete = np.array([var.is_discrete for var in data.domain.attributes],
                        dtype=bool)
    task = ("classification" if data.domain.class_var.is_discrete
            else "regression")
    if not sp.issparse(data.X):
        X = np.asarray(data.X, dtype=np.float64)
    elif sparse:
        X = core_input(data.X)
    else:
        X = data.X.toarray().astype(np.float64, copy=False)
    return TableArrays(X,
                       np.asarray(data.Y, dtype=np.float64).ravel(),
                       discrete, task)

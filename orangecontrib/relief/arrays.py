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

TableArrays = namedtuple("TableArrays", [
    "X",         # float64 (n, a): attribute values, NaN for missing,
                 # value codes for discrete attributes (a CSR matrix
                 # where a sparse table is kept sparse)
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
    with `sparse` its X kept as a CSR matrix (the core reads it as it is:
    :mod:`.core.compact`) unless it stores a missing value (NaN), which
    the core reads only in a dense array."""
    check_table(data, what)
    if sp.issparse(data.X) and not (
            sparse and not np.isnan(data.X.data).any()):
        data = data.to_dense()
    discrete = np.array([var.is_discrete for var in data.domain.attributes],
                        dtype=bool)
    task = ("classification" if data.domain.class_var.is_discrete
            else "regression")
    X = (sp.csr_matrix(data.X) if sp.issparse(data.X)
         else np.asarray(data.X, dtype=np.float64))
    return TableArrays(X,
                       np.asarray(data.Y, dtype=np.float64).ravel(),
                       discrete, task)

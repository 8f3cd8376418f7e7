"""Scoring subsets of the attributes of arrays: what TuRF (:mod:`.turf`)
and VLS (:mod:`.vls`) share.  Both run a scorer on chosen columns, round
by round or subset by subset; their rounds take a ``score_columns``
function, which arrays, Orange tables and column-block sources each
provide in their own way."""
import numpy as np
import scipy.sparse as sp

from ..columns import is_column_source
from ..compact.store import ColumnStore
from ..errors import ReliefInputError
from ..targets import as_nominal_mask
from ..values import as_real, check_dtype


def columns_scorer(score, X, y, discrete):
    """``(score_columns, n_attributes)`` of the arrays (X, y, discrete):
    ``score_columns(columns, progress_callback)`` runs
    ``score(X[:, columns], y, discrete[columns], progress_callback=...)``.
    X is read as it is: a sparse matrix's columns are a sparse matrix, a
    column-block source's a source of those columns (nothing read until
    the scorer reads them), an array's an array of its dtype.

    Raises ReliefInputError unless X is 2-D, or for a nominal mask of
    another length."""
    # an array, a sparse matrix or a column-block source as it is (an
    # int8 genotype stays narrow, sparse stays sparse), anything else (a
    # list) as numbers or refused
    if is_column_source(X):
        X = ColumnStore(X)
    elif sp.issparse(X):
        check_dtype(X.dtype, "The data")  # its stored values' dtype
    elif not isinstance(X, np.ndarray):
        X = as_real(X, "The data")
    if len(X.shape) != 2:
        raise ReliefInputError(f"X must be a 2-D array (instances x "
                               f"attributes), got shape {X.shape}.")
    discrete = as_nominal_mask(discrete, X.shape[1])

    def score_columns(columns, progress_callback):
        subset = X.take(columns) if is_column_source(X) else X[:, columns]
        return score(subset, y, discrete[columns],
                     progress_callback=progress_callback)

    return score_columns, X.shape[1]

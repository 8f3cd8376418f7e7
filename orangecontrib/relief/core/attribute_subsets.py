"""Scoring subsets of the attributes of arrays: what TuRF (:mod:`.turf`)
and VLS (:mod:`.vls`) share.  Both run a scorer on chosen columns, round
by round or subset by subset; their rounds take a ``score_columns``
function, which arrays, Orange tables and column-block sources each
provide in their own way."""
import numpy as np

from .errors import ReliefInputError
from .prepare import as_nominal_mask, as_real


def columns_scorer(score, X, y, discrete):
    """``(score_columns, n_attributes)`` of the arrays (X, y, discrete):
    ``score_columns(columns, progress_callback)`` runs
    ``score(X[:, columns], y, discrete[columns], progress_callback=...)``.

    Raises ReliefInputError unless X is 2-D, or for a nominal mask of
    another length."""
    # an array as it is (an int8 genotype stays narrow), anything else
    # (a list, a sparse matrix) as numbers or refused
    X = X if isinstance(X, np.ndarray) else as_real(X, "The data")
    if X.ndim != 2:
        raise ReliefInputError(f"X must be a 2-D array (instances x "
                               f"attributes), got shape {X.shape}.")
    discrete = as_nominal_mask(discrete, X.shape[1])

    def score_columns(columns, progress_callback):
        return score(X[:, columns], y, discrete[columns],
                     progress_callback=progress_callback)

    return score_columns, X.shape[1]

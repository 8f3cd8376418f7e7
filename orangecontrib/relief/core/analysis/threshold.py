"""Choosing attributes from Relief weights."""
import numbers

import numpy as np

from ..errors import ReliefInputError
from ..options import ABSOLUTE, Interval, PositiveInt, check
from ..validation import validated
from ..values import as_real


def float_array(values, ndim=None):
    """`values` as a float64 array (a copy), or None if they are not real
    numbers (:func:`..prepare.as_real`) or, given `ndim`, have another
    number of dimensions."""
    try:
        values = np.array(as_real(values, "values"))
    except ReliefInputError:
        return None
    return values if ndim is None or values.ndim == ndim else None


def as_scores(values, what):
    """`values`, one per attribute, as a float64 1-D array (NaN: none)."""
    values = float_array(values, ndim=1)
    if values is None:
        raise ReliefInputError(f"The {what} must be a 1-D array of numbers, "
                               f"one per attribute.")
    return values


@validated
def chebyshev_threshold(alpha, m):
    """Kira & Rendell's relevance threshold tau = 1 / sqrt(alpha * m).

    By Chebyshev's inequality an irrelevant attribute's weight, estimated
    from m references, exceeds tau with probability at most alpha (the
    Type I error); Kira & Rendell note that tau can be much smaller.
    """
    m = PositiveInt()("m", m)
    if alpha == 0:
        raise ReliefInputError("alpha must be in (0, 1], got 0.")
    return 1 / np.sqrt(alpha * m)


@validated
def ranking_scores(weights, absolute=ABSOLUTE):
    """What a ranking sorts by, one per attribute, higher first: the
    `weights`, or with `absolute` their magnitude (NaN stays NaN)."""
    weights = as_scores(weights, "weights")
    return np.abs(weights) if absolute else weights


@validated
def best_first(weights, absolute=ABSOLUTE):
    """The attributes' indices by :func:`ranking_scores`, best first;
    equal scores keep the lower index first, NaN (no score) last."""
    scores = ranking_scores.unchecked(weights, absolute)
    return np.argsort(-scores, kind="stable")  # NaN sorts last


def select_features(weights, threshold=None, top_k=None, absolute=ABSOLUTE):
    """Indices of the chosen attributes, best first.

    With `threshold`, the attributes whose weight exceeds it; with `top_k`,
    the k best (both: the k best of those over the threshold).  Equal
    weights keep the lower index first.  With `absolute` the attributes
    are ranked, and compared with `threshold`, by the magnitude of their
    weights (:func:`ranking_scores`).  ``select_features.unchecked``
    takes options checked already.
    """
    if threshold is not None:
        threshold = Interval(-np.inf)("threshold", threshold)
    if top_k is not None and (not isinstance(top_k, numbers.Integral)
                              or isinstance(top_k, bool) or top_k < 0):
        raise ReliefInputError(
            f"top_k must be an integer >= 0, got {top_k!r}.")
    return _selected(weights, threshold, top_k, check("absolute", absolute))


def _selected(weights, threshold, top_k, absolute):
    """:func:`select_features` of options checked already."""
    scores = ranking_scores.unchecked(weights, absolute)
    order = best_first.unchecked(scores)
    if threshold is not None:
        order = order[scores[order] > threshold]
    if top_k is not None:
        order = order[:top_k]
    return order


select_features.unchecked = _selected

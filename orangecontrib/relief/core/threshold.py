"""Choosing attributes from Relief weights."""
import numpy as np

from .errors import ReliefInputError


def chebyshev_threshold(alpha, m):
    """Kira & Rendell's relevance threshold tau = 1 / sqrt(alpha * m).

    By Chebyshev's inequality an irrelevant attribute's weight, estimated
    from m references, exceeds tau with probability at most alpha (the
    Type I error); Kira & Rendell note that tau can be much smaller.
    """
    if not 0 < alpha <= 1:
        raise ReliefInputError(f"alpha must be in (0, 1], got {alpha!r}.")
    if m < 1:
        raise ReliefInputError(f"m must be at least 1, got {m!r}.")
    return 1 / np.sqrt(alpha * m)


def select_features(weights, threshold=None, top_k=None):
    """Indices of the chosen attributes, best first.

    With `threshold`, the attributes whose weight exceeds it; with `top_k`,
    the k best (both: the k best of those over the threshold).  Equal
    weights keep the lower index first.
    """
    weights = np.asarray(weights, dtype=np.float64)
    order = np.argsort(-weights, kind="stable")
    if threshold is not None:
        order = order[weights[order] > threshold]
    if top_k is not None:
        if top_k < 0:
            raise ReliefInputError(f"top_k must be >= 0, got {top_k!r}.")
        order = order[:top_k]
    return order

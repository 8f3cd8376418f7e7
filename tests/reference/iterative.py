"""Slow literal reference of Iter (scikit-rebate 0.8's ``skrebate/iter.py``
as ``doc/iter.md`` defines it): rounds of a variant's literal reference,
each weighting the distance by the scores before, in plain Python loops.
"""
import math

import numpy as np

from . import surf


def as_distance_weights(scores, absolute):
    """T(W): negative scores 0 (with `absolute`, every score its
    magnitude), divided by the largest; all 0 if none is positive; a
    missing score weighs 0."""
    values = [s if math.isfinite(s) else 0.0 for s in scores]
    values = [abs(s) if absolute else max(s, 0.0) for s in values]
    top = max(values)
    return [v / top if top > 0 else 0.0 for v in values]


def iterative(weigh, *, max_rounds=10, tol=1e-4, beta=0.1, absolute=False,
              convergence="scores"):
    """The scores of the last round of ``weigh(distance_weights)`` (None:
    the plain distance): round 2 weighs the distance by T(W_1), round t > 2
    by w_(t-1) + beta (T(W_(t-1)) - w_(t-1)); stop when every score moved
    by less than `tol` (with convergence "scikit-rebate" and without
    `absolute`, T(W_(t-1)) against W_t), or when no weight is positive."""
    scores = list(weigh(None))
    weights = None
    for _ in range(max_rounds - 1):
        target = as_distance_weights(scores, absolute)
        if weights is None:
            weights = target
        else:
            weights = [w + beta * (t - w) for w, t in zip(weights, target)]
        if not any(w > 0 for w in weights):
            break
        if convergence == "scikit-rebate" and not absolute:
            previous = target
        else:
            previous = scores
        scores = list(weigh(weights))
        if all(not abs(s - p) >= tol for s, p in zip(scores, previous)):
            break
    return np.array(scores)


def iter_multisurf(X, y, discrete=None, *, max_rounds=10, tol=1e-4,
                   beta=0.1, absolute=False, convergence="scores",
                   **options):
    """Iter around MultiSURF's literal reference (:mod:`.surf`)."""
    return iterative(
        lambda weights: surf.multisurf(X, y, discrete,
                                       distance_weights=weights, **options),
        max_rounds=max_rounds, tol=tol, beta=beta, absolute=absolute,
        convergence=convergence)

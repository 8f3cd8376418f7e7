"""Iter: Relief by rounds, each round's distance weighted by the scores
of the rounds before (scikit-rebate 0.8's ``Iter``).

Noise attributes blur the distance from which Relief picks neighbours;
Draper, Kaito & Bins (2003) weigh each attribute's diff in the distance
by its last Relief weight and score again.  scikit-rebate 0.8 wraps any
of its estimators so (``skrebate/iter.py``); this module does the same
around any variant that takes attribute weights of its distance,
D(i, j) = sum_A w_A diff(A, i, j) (Prat & Belanche 2006, eq. 3.1).

The rounds, in scikit-rebate 0.8.4's order:

* round 1 fits the variant as it is (every w_A = 1), scores W_1;
* its scores become distance weights T(W): the negative scores 0 and
  the others divided by the largest (with `absolute`, |W| / max |W|);
* round 2 fits with w_2 = T(W_1), taken whole;
* round t > 2 fits with the Widrow-Hoff (least mean squares) update of
  the last round's weights towards the new target, at the rate `beta`:
  w_t = w_(t-1) + beta (T(W_(t-1)) - w_(t-1)) (Widrow & Hoff 1960);
* after each round t > 1, the rounds stop if no score moved by `tol` or
  more, |W_t[A] - W_(t-1)[A]| < tol for every A (:func:`converged`), and
  after `max_rounds` fits in all.

The result is the scores of the last round.  Two differences from
scikit-rebate 0.8.4 (``doc/iter.md``):

* convergence "scikit-rebate" measures the change as it does: without
  `absolute` its transform T overwrites the last round's scores in
  place, so it compares T(W_(t-1)) (weights in [0, 1]) with the new
  scores W_t, a change that seldom falls below `tol` (its rounds then
  run to `max_rounds`); "scores" (the default) compares the scores;
* where T(W) would give no attribute a positive weight, every distance
  would be 0 (scikit-rebate's weighted Hamming distance 0 / 0, NaN):
  the rounds stop there, the last round's scores the result
  (:data:`NO_WEIGHT`).

References
----------
scikit-rebate 0.8 (Urbanowicz et al., UrbsLab/scikit-rebate),
``skrebate/iter.py``.

Draper, B., Kaito, C., Bins, J. (2003). Iterative Relief. CVPR Workshop
on Learning in Computer Vision and Pattern Recognition.

Widrow, B., Hoff, M. E. (1960). Adaptive switching circuits. IRE WESCON
Convention Record 4, 96-104.
"""
from collections import namedtuple

import numpy as np

from ..errors import ReliefInputError
from .estimators import reusing_preparations
from ..options import (ABSOLUTE, DEVIATION, DIFF, ITER_BETA, ITER_CONVERGENCE,
                       ITER_ROUNDS, ITER_TOL, RANDOM_STATE, T_DIFF, T_EQ)
from ..progress import report, wrap_callback
from .surf import multisurf
from ..analysis.threshold import float_array
from ..validation import validated

#: why the rounds stopped: no score moved by tol, the last of max_rounds
#: fits, or the scores gave no attribute a positive distance weight
CONVERGED, LAST_ROUND, NO_WEIGHT = "converged", "max_rounds", "no weight"

IterResult = namedtuple("IterResult", [
    "scores",   # (a,) the last round's scores
    "rounds",   # [(distance weights, or None in the first, scores)]
    "stopped",  # CONVERGED, LAST_ROUND or NO_WEIGHT
])


def distance_weights_of(scores, absolute=ABSOLUTE):
    """T(W): the scores as distance weights, the negative ones 0 and the
    others divided by the largest (all 0 if none is positive); with
    `absolute`, |W| / max |W|.  An attribute without a score (NaN) weighs
    0."""
    scores = np.where(np.isfinite(scores), scores, 0.0)
    weights = np.abs(scores) if absolute else np.maximum(scores, 0.0)
    top = weights.max(initial=0.0)
    return weights / top if top > 0 else np.zeros_like(weights)


def widrow_hoff(weights, target, beta):
    """The Widrow-Hoff update of `weights` towards `target` at the rate
    `beta`: w + beta (target - w)."""
    return weights + beta * (target - weights)


def converged(previous, scores, tol):
    """Whether no score moved by `tol` or more (a NaN in either counts as
    no move, as scikit-rebate 0.8.4's comparison reads it)."""
    return not (np.abs(scores - previous) >= tol).any()


def checked_scores(scores, first=None):
    """The scores of a round as float64, one per attribute (as many as
    the `first` round's), or ReliefInputError."""
    values = float_array(scores)
    if values is None or values.ndim != 1 or (
            first is not None and values.shape != first.shape):
        raise ReliefInputError(
            "Iter needs one score per attribute from each round"
            + ("" if first is None else f" ({len(first)})")
            + f", got {np.shape(values)}.")
    return values


@validated
def iterate(score, *, max_rounds=ITER_ROUNDS, tol=ITER_TOL, beta=ITER_BETA,
            absolute=ABSOLUTE, convergence=ITER_CONVERGENCE,
            progress_callback=None):
    """The rounds of Iter (the module docstring) around
    ``score(distance_weights, progress_callback)``, the wrapped variant's
    scores of every attribute with the distance weighted so (None:
    unweighted).

    Parameters
    ----------
    max_rounds : int >= 1
        The most fits of the variant (scikit-rebate's ``max_iter``).
    tol : float >= 0
        The rounds stop once no score moves by this much or more
        (``convergence_threshold``).
    beta : float in [0, 1]
        The rate of the Widrow-Hoff update of the distance weights.
    absolute : bool
        Distance weights from the scores' magnitudes (scikit-rebate's
        ``rank_absolute``); the scores returned keep their signs.
    convergence : "scores" or "scikit-rebate"
        What the stopping rule compares: the scores of two rounds, or as
        scikit-rebate 0.8.4 compares them (the module docstring).

    Returns
    -------
    IterResult
    """
    as_scikit_rebate = convergence == "scikit-rebate" and not absolute

    def round_scores(weights, t, first=None):
        return checked_scores(score(weights, wrap_callback(
            progress_callback, t / max_rounds, (t + 1) / max_rounds)), first)

    scores = round_scores(None, 0)
    rounds, weights, stopped = [(None, scores)], None, LAST_ROUND
    for t in range(1, max_rounds):
        target = distance_weights_of(scores, absolute)
        weights = target if weights is None else widrow_hoff(weights, target,
                                                             beta)
        if not (weights > 0).any():
            stopped = NO_WEIGHT
            break
        previous = target if as_scikit_rebate else scores
        scores = round_scores(weights, t, rounds[0][1])
        rounds.append((weights, scores))
        if converged(previous, scores, tol):
            stopped = CONVERGED
            break
    report(progress_callback, 1.0)
    return IterResult(scores, rounds, stopped)


@validated
def iterated(variant, X, y, discrete=None, *, task=None,
             max_rounds=ITER_ROUNDS, tol=ITER_TOL, beta=ITER_BETA,
             absolute=ABSOLUTE, convergence=ITER_CONVERGENCE,
             progress_callback=None, **options):
    """:func:`iterate` around a registered `variant`
    (:class:`..registry.Variant`) with its `options`, on (X, y, discrete)
    of `task` (the variant's first if None).  The variant must take
    distance weights.

    Returns
    -------
    IterResult
    """
    if "distance_weights" not in variant.parameters:
        raise ReliefInputError(
            f"Iter weights the distance of the variant it wraps each "
            f"round; {variant.name} takes no distance weights.")

    def score(weights, progress_callback):  # options checked on entry
        return variant.weights(X, y, discrete, task=task,
                               distance_weights=weights,
                               progress_callback=progress_callback,
                               checked=True, **options)
    with reusing_preparations():  # each round changes the weights only
        return iterate.unchecked(score, max_rounds=max_rounds, tol=tol,
                                 beta=beta, absolute=absolute,
                                 convergence=convergence,
                                 progress_callback=progress_callback)


@validated
def iter_multisurf(X, y, discrete=None, *, task="classification",
                   max_rounds=ITER_ROUNDS, tol=ITER_TOL, beta=ITER_BETA,
                   absolute=ABSOLUTE, convergence=ITER_CONVERGENCE,
                   deviation=DEVIATION, n_iterations=None,
                   random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                   t_diff=T_DIFF, progress_callback=None):
    """The scores of Iter around MultiSURF (the default of the Orange
    Iter): `max_rounds`, `tol`, `beta`, `absolute` and `convergence` are
    :func:`iterate`'s, the others MultiSURF's (:func:`.surf.multisurf`).

    Returns
    -------
    float64 array (a,)
        :attr:`IterResult.scores`.
    """
    def score(weights, progress_callback):
        return multisurf(X, y, discrete, task=task, deviation=deviation,
                         n_iterations=n_iterations,
                         random_state=random_state, diff=diff, t_eq=t_eq,
                         t_diff=t_diff, distance_weights=weights,
                         progress_callback=progress_callback)
    with reusing_preparations():
        return iterate.unchecked(score, max_rounds=max_rounds, tol=tol,
                                 beta=beta, absolute=absolute,
                                 convergence=convergence,
                                 progress_callback=progress_callback).scores

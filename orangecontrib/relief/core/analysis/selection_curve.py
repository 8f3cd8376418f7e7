"""How many attributes to keep: a cross-validated score against the number
of the best-ranked attributes, and the smallest number as good as the best.

In each fold of a cross-validation the attributes are ranked on the
training part only, and a learner, fitted on the training part with the
best n of them, is scored on the test part, for every n of
:func:`count_grid`.  :func:`one_standard_error` then picks the smallest n
whose mean score is within one standard error of the best mean (Hastie,
Tibshirani & Friedman 2009, section 7.10).  The ranking and the learner
are callables, so that this module stays free of any learner library;
:mod:`orangecontrib.relief.curve` gives them for Orange.
"""
from collections import namedtuple

import numpy as np

from ..errors import ReliefInputError
from ..options import N_FOLDS, RANDOM_STATE, TURF_FRACTION, TURF_SCHEDULE
from ..progress import report, wrap_callback
from .resampling import draw_folds
from ..variants.turf import round_sizes
from ..validation import validated

#: every count up to this one is on the grid, then a log scale
EVERY_COUNT = 10
#: points of the log scale from 1 to all attributes
LOG_POINTS = 20

SelectionCurve = namedtuple("SelectionCurve", [
    "counts",    # int (C,): the numbers of attributes kept, ascending
    "scores",    # (F, C) the score of each fold at each count
    "mean",      # (C,) their mean over the folds
    "error",     # (C,) its standard error, sd / sqrt(F)
    "best",      # the count of the best mean (the smaller on a tie)
    "chosen",    # the smallest count whose mean is within one standard
                 # error of the best mean
    "rankings",  # (F, a) the attributes' scores on each training part
    "folds",     # [(training rows, test rows)]
])


@validated
def count_grid(n_attributes):
    """The numbers of attributes a curve tries: every number from 1 to
    :data:`EVERY_COUNT`, then :data:`LOG_POINTS` points equally spaced on
    a log scale up to all attributes (rounded, without repeats)."""
    spaced = np.rint(np.geomspace(1, n_attributes, LOG_POINTS))
    return np.union1d(np.arange(1, min(EVERY_COUNT, n_attributes) + 1),
                      spaced.astype(np.int64))


@validated
def turf_sizes(n_attributes, fraction=TURF_FRACTION, n_keep=None,
               schedule=TURF_SCHEDULE):
    """The numbers of attributes TuRF scores, round by round, the last
    the kept ones, smallest first (Moore & White 2007; see
    :func:`..variants.turf.round_sizes`)."""
    sizes = round_sizes.unchecked(n_attributes, fraction, n_keep, schedule)
    return np.array(sizes[::-1])


def as_counts(counts, n_attributes):
    """`counts` as sorted distinct integers in 1..n_attributes."""
    values = np.asarray(counts)
    if (values.ndim != 1 or not len(values)
            or not np.issubdtype(values.dtype, np.integer)
            or values.min() < 1 or values.max() > n_attributes):
        raise ReliefInputError(
            f"counts must be numbers of attributes in 1..{n_attributes}, "
            f"got {counts!r}.")
    return np.unique(values)


def one_standard_error(counts, scores):
    """(mean, standard error, best count, chosen count) of the (F, C)
    `scores` of F folds at the `counts` (higher is better; a NaN, a fold
    that could not be scored, is left out of its count's mean).

    The best count has the highest mean (the smaller count on a tie); the
    chosen one is the smallest count whose mean is at least the best mean
    less its standard error: the simplest model the folds cannot tell
    from the best (Breiman et al. 1984; Hastie, Tibshirani
    & Friedman 2009, section 7.10).
    """
    scores = np.asarray(scores, dtype=np.float64)
    folds = np.sum(~np.isnan(scores), axis=0)
    if not folds.any():
        raise ReliefInputError("No fold could be scored at any count.")
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.nansum(scores, axis=0) / folds
        spread = np.sqrt(np.nansum((scores - mean) ** 2, axis=0)
                         / (folds - 1))
        error = np.where(folds > 1, spread / np.sqrt(folds), 0.0)
    best = int(np.nanargmax(mean))
    within = np.flatnonzero(mean >= mean[best] - error[best])
    return mean, error, int(counts[best]), int(counts[within[0]])


@validated
def selection_curve(rank_rows, evaluate, groups, n_attributes, *,
                    counts=None, n_folds=N_FOLDS, random_state=RANDOM_STATE,
                    progress_callback=None):
    """The cross-validated score against the number of attributes kept.

    Parameters
    ----------
    rank_rows : callable(int array) -> (a,) array
        The attributes' scores on the instances of a training part (the
        higher, the better; ties go to the lower index).
    evaluate : callable(train, test, order, counts, progress_callback)
        The scores (one per count) of a learner fitted on the rows
        `train` with the attributes ``order[:count]`` (the best first) and
        tested on the rows `test`; the callback takes the share done.
    groups : int array (n,)
        The stratum of each instance (:func:`.resampling.draw_folds`).
    n_attributes : int
    counts : int array or None
        The numbers of attributes to try (None: :func:`count_grid`).
    n_folds, random_state
        Of the stratified cross-validation.
    progress_callback : callable(float) or None
        Gets the share done; may raise to stop.

    Returns
    -------
    SelectionCurve
    """
    counts = (count_grid.unchecked(n_attributes) if counts is None
              else as_counts(counts, n_attributes))
    folds = draw_folds.unchecked(groups, n_folds, random_state)
    scores = np.empty((len(folds), len(counts)))
    rankings = np.empty((len(folds), n_attributes))
    for f, (train, test) in enumerate(folds):
        rankings[f] = rank_rows(train)
        report(progress_callback, (f + 0.2) / len(folds))
        order = np.argsort(-rankings[f], kind="stable")
        scores[f] = evaluate(train, test, order, counts, wrap_callback(
            progress_callback, (f + 0.2) / len(folds), (f + 1) / len(folds)))
    mean, error, best, chosen = one_standard_error(counts, scores)
    return SelectionCurve(counts, scores, mean, error, best, chosen,
                          rankings, folds)

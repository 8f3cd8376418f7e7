"""TuRF: Relief by rounds, dropping the worst attributes between them.

Moore & White (2007): in large data most attributes are noise, and noise
blurs the distances from which Relief picks neighbours; scoring again
after dropping the worst attributes sharpens the neighbourhoods of the
rest.  Any scorer can be wrapped.

Two schedules of the rounds (:func:`round_sizes`): "every round" runs
int(1 / fraction) of them, stopping early only where at most `n_keep`
attributes remain before a round; "scikit-rebate" is scikit-rebate
0.8.4's ``TURF``, which stops after the first round that leaves at most
`n_keep` (by default :data:`..options.SKREBATE_N_KEEP`, its
``num_scores_to_return``), so that on up to 200 attributes it drops half
of them once and stops (doc/surf.md).
"""
from collections import namedtuple

import numpy as np

from .attribute_subsets import columns_scorer
from ..compact.store import is_compact
from ..errors import ReliefInputError
from .estimators import relieff, relieff_columns
from ..options import (ABSOLUTE, DEVIATION, DIFF, K_RELIEFF, RANDOM_STATE,
                       SKREBATE_N_KEEP, T_DIFF, T_EQ, TURF_FRACTION,
                       TURF_SCHEDULE)
from ..progress import report, wrap_callback
from .surf import neighbourhood_sums, radius_columns
from ..analysis.threshold import float_array, ranking_scores
from ..validation import validated

TurfResult = namedtuple("TurfResult", [
    "scores",   # (a,) the kept attributes' last scores; dropped ones below
                # every kept one, those dropped later above those dropped
                # earlier
    "kept",     # indices of the attributes left after the last round
                # (without those the last scoring gave no score, NaN)
    "rounds",   # [(attributes scored, their scores)] round by round
])


def rounds_of(fraction):
    """TuRF's number of rounds for dropping `fraction` each round:
    int(1 / fraction), as Moore & White's (and scikit-rebate's) iterations."""
    return max(1, int(1 / fraction))


@validated(n_attributes=None)
def round_sizes(n_attributes, fraction=TURF_FRACTION, n_keep=None,
                schedule=TURF_SCHEDULE):
    """The numbers of attributes TuRF scores, round by round, the last one
    the kept attributes' final scoring.

    A round keeps ceil(r (1 - fraction)) of the r remaining attributes;
    there are at most :func:`rounds_of` (fraction) rounds, and none that
    would drop no attribute (nor would a later one).  `schedule` "every
    round" stops before a round when at most `n_keep` remain (None: never);
    "scikit-rebate" after the first round that leaves at most `n_keep`
    (None: :data:`..options.SKREBATE_N_KEEP`), scikit-rebate 0.8.4's
    ``TURF.fit``.
    """
    every_round = schedule == "every round"
    if not every_round and n_keep is None:
        n_keep = SKREBATE_N_KEEP
    sizes = [n_attributes]
    for _ in range(rounds_of(fraction)):
        size = sizes[-1]
        keep = int(np.ceil(size * (1 - fraction)))
        if keep == size or every_round and n_keep is not None \
                and size <= n_keep:
            break
        sizes.append(keep)
        if not every_round and keep <= n_keep:
            break
    return sizes


def share(progress_callback, t, n_rounds):
    """The progress of round t of n_rounds + 1 scorings (the last one
    scores the kept attributes)."""
    return wrap_callback(progress_callback, t / (n_rounds + 1),
                         (t + 1) / (n_rounds + 1))


@validated
def turf(score, X, y, discrete=None, *, fraction=TURF_FRACTION,
         n_keep=None, schedule=TURF_SCHEDULE, absolute=ABSOLUTE,
         progress_callback=None):
    """Scores of TuRF around `score` (Moore & White 2007).

    Each round scores the remaining attributes with
    ``score(X[:, remaining], y, discrete[remaining])`` and keeps the best
    ceil(r (1 - fraction)) of the r remaining (ties to the lower index;
    with scikit-rebate's schedule, as it breaks them: numpy's argsort,
    reversed); the rounds are those of :func:`round_sizes` (`fraction`,
    `n_keep`, `schedule`).  The kept
    attributes are scored once more; an attribute dropped in round t of T
    gets the lowest final score minus (T - t + 1) / 100 of the final
    scores' range (at least 0.01 each), so that sorting by score puts the
    kept first and the dropped by how long they lasted (scikit-rebate's
    order).

    A score that is not a finite number is kept, never spread to others:
    in a round, NaN (no score) ranks below every number and -inf (a
    significance test's no verdict) below every finite one, so they are
    dropped first; in the final scores they stay as given, and the lowest
    final score and the range above are those of the finite ones (0 and
    1 if there are none).  An attribute the final scoring gives NaN is
    not among the kept: it has no score to be kept for.  A scorer that
    gives another number of scores than attributes is refused.

    Parameters
    ----------
    score : callable(X, y, discrete, progress_callback=None) -> (a,) array
    fraction : float in (0, 1)
        The share of the remaining attributes dropped each round.
    n_keep : int or None
        Stop once this many or fewer remain (None: run every round; with
        scikit-rebate's schedule, 100).
    schedule : "every round" or "scikit-rebate"
        :func:`round_sizes`.
    absolute : bool
        Rank by the magnitude of the scores: each round drops the
        attributes of the smallest |score|, and the kept attributes'
        final scores are their magnitudes (so that sorting by score
        ranks them by it).

    Returns
    -------
    TurfResult

    References
    ----------
    Moore, J. H., White, B. C. (2007). Tuning ReliefF for genome-wide
    genetic analysis. EvoBIO 2007, LNCS 4447, 166-175.
    """
    score_columns, n_attributes = columns_scorer(score, X, y, discrete)
    return turf_rounds.unchecked(
        score_columns, n_attributes, fraction=fraction, n_keep=n_keep,
        schedule=schedule, absolute=absolute,
        progress_callback=progress_callback)


def turf_multisurf(X, y, discrete=None, *, task="classification",
                   fraction=TURF_FRACTION, n_keep=None,
                   schedule=TURF_SCHEDULE, deviation=DEVIATION,
                   n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                   t_eq=T_EQ, t_diff=T_DIFF, progress_callback=None):
    """The scores of :func:`turf` around MultiSURF (the default scorer of
    the Orange TuRF): `fraction`, `n_keep` and `schedule` are TuRF's, the
    other parameters MultiSURF's (:func:`.surf.multisurf`).  Narrow,
    sparse, streamed or wide data are prepared once (:func:`turf_prepared`)
    and every round scores columns of them: no round prepares them again.

    Returns
    -------
    float64 array (a,)
        :attr:`TurfResult.scores`.
    """
    return turf_prepared(
        "MultiSURF", X, y, discrete, task=task, fraction=fraction,
        n_keep=n_keep, schedule=schedule, progress_callback=progress_callback,
        deviation=deviation, n_iterations=n_iterations,
        random_state=random_state, diff=diff, t_eq=t_eq,
        t_diff=t_diff).scores


def turf_relieff(X, y, discrete=None, *, fraction=TURF_FRACTION,
                 n_keep=None, schedule=TURF_SCHEDULE, k_nearest=K_RELIEFF,
                 n_iterations=None,
                 random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, progress_callback=None):
    """The scores of :func:`turf` around ReliefF, Moore & White's own
    (2007): `fraction`, `n_keep` and `schedule` are TuRF's, the other
    parameters
    ReliefF's (:func:`.estimators.relieff`); narrow, sparse, streamed or
    wide data prepared once (:func:`turf_prepared`).

    Returns
    -------
    float64 array (a,)
        :attr:`TurfResult.scores`.
    """
    return turf_prepared(
        "ReliefF", X, y, discrete, fraction=fraction, n_keep=n_keep,
        schedule=schedule, progress_callback=progress_callback,
        k_nearest=k_nearest,
        n_iterations=n_iterations, random_state=random_state, diff=diff,
        t_eq=t_eq, t_diff=t_diff).scores


def _relieff(X, y, discrete, task, **options):
    return relieff.unchecked(X, y, discrete, **options)


def _relieff_columns(X, y, discrete, task, **options):
    return relieff_columns.unchecked(X, y, discrete, **options)


def _radius(method):
    """The weights and the columns' preparation of a SURF-family
    `method`, as :data:`PREPARED_ONCE` calls them."""
    def weights(X, y, discrete, task, **options):
        return neighbourhood_sums.unchecked(
            X, y, discrete, method=method, task=task, **options).weights

    def columns(X, y, discrete, task, **options):
        return radius_columns.unchecked(X, y, discrete, method=method,
                                        task=task, **options)
    return weights, columns


#: the variants whose rounds score columns of data prepared once: name ->
#: (weights, columns), ``weights(X, y, discrete, task, **options)`` the
#: variant's weights and ``columns(X, y, discrete, task, **options)`` its
#: preparation for scoring columns, (score_columns, a)
#: (:func:`.estimators.relieff_columns`); both take options checked
#: already (:func:`turf_prepared` checks them once a call, not a round)
PREPARED_ONCE = {
    "ReliefF": (_relieff, _relieff_columns),
    "SURF": _radius("surf"), "SURF*": _radius("surf*"),
    "MultiSURF": _radius("multisurf"), "MultiSURF*": _radius("multisurf*"),
}


@validated
def turf_prepared(name, X, y, discrete=None, *, task="classification",
                  fraction=TURF_FRACTION, n_keep=None, schedule=TURF_SCHEDULE,
                  absolute=ABSOLUTE, progress_callback=None, **options):
    """:func:`turf` around the variant `name` (a key of
    :data:`PREPARED_ONCE`), with its `options` (`fraction`, `n_keep`,
    `schedule` and `absolute` are :func:`turf`'s).  Narrow, sparse, streamed
    or wide data (:func:`..compact.store.is_compact`) are prepared once,
    every round scoring columns of them; other data (long float64 arrays,
    whose search on tables of their own is the faster) are prepared each
    round, the same weights.

    Returns
    -------
    TurfResult
    """
    if name not in PREPARED_ONCE:
        raise ReliefInputError(
            f"TuRF prepares the data once for "
            f"{', '.join(PREPARED_ONCE)}, not {name!r}.")
    weights, columns = PREPARED_ONCE[name]
    if not is_compact(X):
        return turf.unchecked(
            lambda X, y, discrete, progress_callback=None: weights(
                X, y, discrete, task, progress_callback=progress_callback,
                **options), X, y, discrete, fraction=fraction,
            n_keep=n_keep, schedule=schedule, absolute=absolute,
            progress_callback=progress_callback)
    score_columns, n_attributes = columns(X, y, discrete, task, **options)
    return turf_rounds.unchecked(
        score_columns, n_attributes, fraction=fraction, n_keep=n_keep,
        schedule=schedule, absolute=absolute,
        progress_callback=progress_callback)


def best_first(weights, schedule):
    """The order of a round's attributes by `weights`, best first, NaN
    last and -inf above it; ties to the lower index, or with
    scikit-rebate's schedule as its ``TURF.fit`` breaks them
    (``numpy.argsort`` of the weights, reversed)."""
    if schedule == "scikit-rebate":
        return np.argsort(np.where(np.isnan(weights), -np.inf, weights))[::-1]
    return np.lexsort((np.arange(len(weights)), -weights))


@validated(n_attributes=None)
def turf_rounds(score_columns, n_attributes, *, fraction=TURF_FRACTION,
                n_keep=None, schedule=TURF_SCHEDULE, absolute=ABSOLUTE,
                progress_callback=None):
    """The rounds of :func:`turf` over `n_attributes` attributes, each
    round's scores given by ``score_columns(columns, progress_callback)``:
    the scores of the attributes `columns` (indices, in order) scored
    without the others.  For scorers that take something other than
    arrays (an Orange table, for one)."""
    sizes = round_sizes.unchecked(n_attributes, fraction, n_keep, schedule)
    n_rounds = rounds_of(fraction)

    def scores_of(columns, t):
        scores = float_array(score_columns(
            columns, share(progress_callback, t, n_rounds)))
        if scores is None:
            raise ReliefInputError("The scorer must give numbers, one score "
                                   "per attribute.")
        if scores.shape != (len(columns),):
            raise ReliefInputError(
                f"The scorer gave {scores.size} scores for "
                f"{len(columns)} attributes.")
        return ranking_scores.unchecked(scores, absolute)

    remaining = np.arange(n_attributes)
    history, dropped = [], []
    for t, keep in enumerate(sizes[1:]):
        weights = scores_of(remaining, t)
        history.append((remaining, weights))
        order = best_first(weights, schedule)
        dropped.append(remaining[np.sort(order[keep:])])
        remaining = remaining[np.sort(order[:keep])]
    final = scores_of(remaining, n_rounds)
    history.append((remaining, final))
    scores = np.zeros(n_attributes)
    scores[remaining] = final
    numbers = final[np.isfinite(final)]  # NaN, +-inf: no place to measure
    low = numbers.min() if len(numbers) else 0.0
    spread = numbers.max() - low if len(numbers) else 0.0
    step = 0.01 * (spread if spread > 0 else 1.0)
    for t, attributes in enumerate(dropped):
        scores[attributes] = low - step * (len(dropped) - t)
    report(progress_callback, 1.0)
    return TurfResult(scores, remaining[~np.isnan(final)], history)

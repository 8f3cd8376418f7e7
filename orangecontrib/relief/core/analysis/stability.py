"""How stable a ranking of attributes is over resamples of the instances.

A scorer run on B resamples of the instances (:mod:`.resampling`) gives B
score vectors.  From them: each attribute's rank in every resample
(:func:`ranks`), how often it is among the best k (its selection
frequency), the median and an interval of its rank
(:func:`summarise`), and how much the selected sets agree, the stability
index of Nogueira, Sechidis & Brown (2018) with its variance and
confidence interval (:func:`stability_index`).
"""
from collections import namedtuple

import numpy as np
from scipy.special import ndtri

from ..errors import ReliefInputError
from ..options import CONFIDENCE, N_RESAMPLES, RANDOM_STATE, RESAMPLING, TOP_K
from .resampling import draw_resamples, score_resamples
from .threshold import float_array
from ..validation import validated

StabilityIndex = namedtuple("StabilityIndex", [
    "value",     # the estimate: 1 when every set is the same, about 0
                 # for sets drawn at random, whatever their sizes
    "variance",  # its estimated variance
    "low",       # the confidence interval of the population's stability,
    "high",      # value -+ z sqrt(variance), the high end at most 1
    "confidence",
])

RankingStability = namedtuple("RankingStability", [
    "scores",       # (B, a) the scores of every resample
    "ranks",        # (B, a) int: 1 for the best score of a resample
    "selected",     # (B, a) bool: the top_k of each resample
    "top_k",
    "frequency",    # (a,) the share of the resamples that selected it
    "median_rank",  # (a,)
    "rank_low",     # (a,) int: the rank interval holding `confidence`
    "rank_high",    #   of the resamples' ranks
    "index",        # StabilityIndex of the selected sets (None where it
                    # is undefined: every set empty, or every set all)
    "resamples",    # [int array] the rows of every resample
])


def as_score_matrix(scores):
    """`scores` as a float64 (B, a) array, B >= 2 resamples."""
    matrix = float_array(scores, ndim=2)
    if matrix is None or matrix.shape[0] < 2 or matrix.shape[1] < 1:
        raise ReliefInputError(
            "The scores of the resamples must be a 2-D array, a row per "
            "resample (two at least) and a column per attribute.")
    return matrix


def ranks(scores):
    """(B, a) ranks of the (B, a) `scores`: 1 for the best score of each
    row, equal scores ranked by the lower attribute index first, a NaN
    (an attribute the scorer could not score) after every number."""
    scores = as_score_matrix(scores)
    order = np.argsort(-scores, axis=1, kind="stable")  # NaN sorts last
    ranked = np.empty(scores.shape, np.int64)
    np.put_along_axis(ranked, order,
                      np.arange(1, scores.shape[1] + 1)[None, :], axis=1)
    return ranked


def default_top_k(n_attributes):
    """The attributes counted as selected where no k is given: the
    :data:`..options.TOP_K` best, at most half of the attributes (at least
    one), so that the selected sets can differ."""
    return max(1, min(TOP_K, n_attributes // 2))


@validated
def stability_index(selected, confidence=CONFIDENCE):
    """The stability of M selected sets of d attributes (Nogueira,
    Sechidis & Brown 2018, Definition 4)::

        Phi = 1 - (1/d sum_f s_f^2) / (k/d (1 - k/d))
        s_f^2 = M / (M - 1) p_f (1 - p_f)

    p_f is the share of the sets that hold attribute f (s_f^2 the unbiased
    variance of its selection) and k the mean size of the sets.  Phi is 1
    when all sets are the same, and its expectation is 0 for sets drawn at
    random (of any sizes).  Its variance is estimated from each set's
    share in it (the estimate their Corollary 9 rests on)::

        var = 4 / M^2 sum_i (phi_i - mean phi)^2
        phi_i = (1/d sum_f z_if p_f - k_i k / d^2
                 + Phi / 2 (2 k_i k / d^2 - k_i / d - k / d + 1))
                / (k/d (1 - k/d))

    and the interval is Phi -+ z_{(1 + confidence) / 2} sqrt(var), the
    asymptotic normal interval of their Corollary 9, its upper end cut
    at 1, which no stability exceeds.

    Parameters
    ----------
    selected : bool array (M, d)
        Row i: the attributes of the i-th set (M >= 2).
    confidence : float in (0, 1)

    Returns
    -------
    StabilityIndex

    Raises
    ------
    ReliefInputError
        Where Phi is undefined: every set empty, or every set holds every
        attribute (k/d is 0 or 1).

    References
    ----------
    Nogueira, S., Sechidis, K., Brown, G. (2018). On the stability of
    feature selection algorithms. Journal of Machine Learning Research
    18(174):1-54.
    """
    Z = np.asarray(selected)
    if Z.ndim != 2 or Z.shape[0] < 2 or Z.shape[1] < 1 or not (
            Z.dtype == bool or np.isin(Z, (0, 1)).all()):
        raise ReliefInputError(
            "The selected sets must be a 2-D array of 0 and 1 (or bools), "
            "a row per set (two at least) and a column per attribute.")
    Z = Z.astype(np.float64)
    M, d = Z.shape
    p = Z.mean(axis=0)
    k = p.sum()
    spread = k / d * (1 - k / d)
    if spread == 0:
        raise ReliefInputError(
            "The stability index is undefined when every set is empty or "
            "every set holds every attribute; count fewer attributes as "
            "selected, or more.")
    value = 1 - (M / (M - 1) * p * (1 - p)).mean() / spread
    sizes = Z.sum(axis=1)
    phi = ((Z * p).mean(axis=1) - sizes * k / d ** 2
           + value / 2 * (2 * sizes * k / d ** 2 - sizes / d - k / d + 1)
           ) / spread
    variance = 4 / M ** 2 * ((phi - phi.mean()) ** 2).sum()
    half = ndtri((1 + confidence) / 2) * np.sqrt(variance)
    return StabilityIndex(value, variance, value - half,
                          min(value + half, 1.0), confidence)


@validated
def summarise(scores, top_k, confidence=CONFIDENCE, resamples=None):
    """The :data:`RankingStability` of the (B, a) `scores` of B resamples
    (their rows in `resamples`, if given), the best `top_k` of each
    counted as selected.

    The rank interval is the empirical one: the ranks at (1 - confidence)
    / 2 and (1 + confidence) / 2 of the resamples' ranks (the inverse of
    their distribution function, so both are ranks that occurred).
    """
    ranked = ranks(scores)
    if top_k > ranked.shape[1]:
        raise ReliefInputError(f"top_k must be at most the number of "
                               f"attributes ({ranked.shape[1]}), got "
                               f"{top_k}.")
    selected = ranked <= top_k
    tail = (1 - confidence) / 2
    low, high = np.quantile(ranked, [tail, 1 - tail], axis=0,
                            method="inverted_cdf")
    try:
        index = stability_index.unchecked(selected, confidence)
    except ReliefInputError:  # top_k = a: every set holds everything
        index = None
    return RankingStability(
        as_score_matrix(scores), ranked, selected, top_k,
        selected.mean(axis=0), np.median(ranked, axis=0),
        low.astype(np.int64), high.astype(np.int64), index, resamples)


@validated
def ranking_stability(score_rows, groups, *, n_resamples=N_RESAMPLES,
                      resampling=RESAMPLING, subsample=None,
                      top_k=None, confidence=CONFIDENCE,
                      random_state=RANDOM_STATE, client=None,
                      progress_callback=None):
    """How stable the ranking of ``score_rows(rows)`` is over resamples.

    Parameters
    ----------
    score_rows : callable(int array) -> (a,) array
        The scores of the attributes on the instances `rows` (indices,
        sorted, repeated where drawn more than once).
    groups : int array (n,)
        The stratum of each instance (its class, or 0 for a numeric
        target; -1: never drawn, e.g. an unknown target): see
        :func:`.resampling.draw_resamples`.
    n_resamples, resampling, subsample, random_state
        How the resamples are drawn (:func:`.resampling.draw_resamples`).
    top_k : int or None
        The attributes counted as selected in each resample (None:
        :func:`default_top_k`).
    confidence : float in (0, 1)
        Of the rank intervals and of the stability index's interval.
    client : distributed.Client or None
        Score the resamples as tasks on this Dask cluster
        (:func:`.resampling.score_resamples`).
    progress_callback : callable(float) or None

    Returns
    -------
    RankingStability
    """
    resamples = draw_resamples.unchecked(
        groups, n_resamples, resampling=resampling, subsample=subsample,
        random_state=random_state)
    scores = score_resamples(score_rows, resamples, client=client,
                             progress_callback=progress_callback)
    if top_k is None:
        top_k = default_top_k(scores.shape[1])
    return summarise.unchecked(scores, top_k, confidence, resamples)

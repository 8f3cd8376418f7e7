"""VLSRelief: Relief on subsets of the attributes, each attribute's best.

Eppstein & Haake (2008): in data of very many attributes, most of them
noise, the noise blurs the distances from which Relief picks neighbours,
and two attributes that matter only together (epistasis) are hard to
find.  Scoring small subsets of the attributes instead sharpens the
neighbourhoods; an attribute's weight is the largest of its weights over
the subsets that hold it.  Two interacting attributes are found only in
a subset that holds both: with ``cover_pairs`` (the default) the subsets
are built so that *every pair* of attributes shares one (as
scikit-rebate's newest VLS does), not left to chance.

The subsets are scored one at a time and only the running maximum is
kept: memory is one subset's columns and O(attributes), whatever their
number.  Any scorer can be wrapped (:func:`vls`); :func:`vls_relieff` is
the registry's VLSReliefF.
"""
import math
from collections import namedtuple

import numpy as np

from .attribute_subsets import columns_scorer
from ..errors import ReliefInputError
from .estimators import relieff
from ..options import (COVER_PAIRS, DIFF, K_RELIEFF, RANDOM_STATE, T_DIFF,
                       T_EQ, TIES)
from ..progress import report, wrap_callback
from ..analysis.threshold import float_array
from ..validation import validated

VlsResult = namedtuple("VlsResult", [
    "scores",   # (a,) each attribute's largest weight over its subsets
    "subsets",  # [int64 array] the attributes of each subset, ascending
    "best",     # (a,) int64: the subset that gave each attribute's score
])


def default_subset_size(n_attributes):
    """A third of the attributes (at least 2, at most all): with pair
    coverage, 6 groups and 15 subsets, five times the work of scoring
    every attribute once."""
    return min(n_attributes, max(2, math.ceil(n_attributes / 3)))


def groups_of(n_attributes, subset_size, random_state):
    """The attributes in random order, cut into groups of at most
    ``subset_size // 2``: a permutation drawn by
    ``numpy.random.default_rng(random_state).permutation(n_attributes)``,
    cut into G = ceil(a / (subset_size // 2)) runs whose sizes differ by
    at most one (the first ``a mod G`` one longer)."""
    order = np.random.default_rng(random_state).permutation(n_attributes)
    n_groups = math.ceil(n_attributes / (subset_size // 2))
    return np.array_split(order, n_groups)


@validated
def vls_subsets(n_attributes, *, subset_size=None, cover_pairs=COVER_PAIRS,
                n_subsets=None, random_state=RANDOM_STATE):
    """The subsets of attributes VLS scores, each sorted.

    With `cover_pairs`, the attributes are cut into groups of at most
    ``subset_size // 2`` (:func:`groups_of`) and every pair of groups is a
    subset: any two attributes share at least one subset, and there are
    G (G - 1) / 2 subsets of at most `subset_size` (one subset of all
    attributes if they fit in it).  Without, as Eppstein & Haake drew
    them: the groups of :func:`groups_of` with ``2 subset_size`` (a
    partition, so that every attribute is scored), then random subsets
    of `subset_size` attributes, up to `n_subsets` (default: as many as
    the pair design has), each drawn without replacement by the same
    generator.

    Raises ReliefInputError for a `subset_size` below 2 or `n_subsets`
    below 1.
    """
    if subset_size is None:
        subset_size = default_subset_size(n_attributes)
    if subset_size >= n_attributes:
        return [np.arange(n_attributes)]
    rng = np.random.default_rng(random_state)
    groups = groups_of(n_attributes, subset_size if cover_pairs
                       else 2 * subset_size, rng)
    if cover_pairs:
        return [np.sort(np.concatenate((groups[g], groups[h])))
                for g in range(len(groups))
                for h in range(g + 1, len(groups))]
    subsets = [np.sort(group) for group in groups]
    if n_subsets is None:
        g = math.ceil(2 * n_attributes / subset_size)
        n_subsets = g * (g - 1) // 2
    while len(subsets) < n_subsets:
        subsets.append(np.sort(rng.choice(n_attributes, subset_size,
                                          replace=False)))
    return subsets


@validated(n_attributes=None)
def vls_rounds(score_columns, n_attributes, *, subset_size=None,
               cover_pairs=COVER_PAIRS, n_subsets=None,
               random_state=RANDOM_STATE, progress_callback=None):
    """VLS over `n_attributes` attributes, each subset's weights given by
    ``score_columns(columns, progress_callback)``: the weights of the
    attributes `columns` (ascending indices) scored without the others.
    For scorers that take something other than arrays (an Orange table, a
    column-block source).

    An attribute's score is the largest of its weights (NaN, no weight,
    is passed over: an attribute with no number in any subset keeps NaN);
    ties keep the first subset in :attr:`VlsResult.best`.

    Returns
    -------
    VlsResult
    """
    if n_attributes == 0:
        raise ReliefInputError("The data has no attributes to score.")
    subsets = vls_subsets.unchecked(
        n_attributes, subset_size=subset_size, cover_pairs=cover_pairs,
        n_subsets=n_subsets, random_state=random_state)
    scores = np.full(n_attributes, np.nan)
    best = np.full(n_attributes, -1, dtype=np.int64)
    for s, columns in enumerate(subsets):
        weights = float_array(score_columns(columns, wrap_callback(
            progress_callback, s / len(subsets), (s + 1) / len(subsets))))
        if weights is None or weights.shape != (len(columns),):
            raise ReliefInputError(
                f"The scorer must give one number per attribute: "
                f"{len(columns)} for a subset, got "
                f"{'none' if weights is None else weights.size}.")
        better = weights > scores[columns]
        better |= np.isnan(scores[columns]) & ~np.isnan(weights)
        scores[columns[better]] = weights[better]
        best[columns[better]] = s
    report(progress_callback, 1.0)
    return VlsResult(scores, subsets, best)


@validated
def vls(score, X, y, discrete=None, *, subset_size=None,
        cover_pairs=COVER_PAIRS, n_subsets=None, random_state=RANDOM_STATE,
        progress_callback=None):
    """Scores of VLSRelief around `score` (Eppstein & Haake 2008): each
    subset of :func:`vls_subsets` is scored with
    ``score(X[:, subset], y, discrete[subset], progress_callback=...)``,
    and an attribute's score is its largest weight
    (:func:`vls_rounds`).

    Parameters
    ----------
    score : callable(X, y, discrete, progress_callback=None) -> (a,) array
    subset_size : int or None
        Attributes per subset, at least 2 (default: a third of them,
        :func:`default_subset_size`).
    cover_pairs : bool
        Build the subsets so that every pair of attributes shares one
        (G (G - 1) / 2 subsets for G = ceil(2 a / subset_size) groups);
        False draws random subsets.
    n_subsets : int or None
        Without `cover_pairs`: how many subsets.
    random_state : int, numpy Generator or None
        The seed of the subsets.

    Returns
    -------
    VlsResult

    References
    ----------
    Eppstein, M. J., Haake, P. (2008). Very large scale ReliefF for
    genome-wide association analysis. IEEE Symposium on Computational
    Intelligence in Bioinformatics and Computational Biology (CIBCB
    2008), 112-119.
    """
    score_columns, n_attributes = columns_scorer(score, X, y, discrete)
    return vls_rounds.unchecked(
        score_columns, n_attributes, subset_size=subset_size,
        cover_pairs=cover_pairs, n_subsets=n_subsets,
        random_state=random_state, progress_callback=progress_callback)


@validated
def vls_relieff(X, y, discrete=None, *, subset_size=None,
                cover_pairs=COVER_PAIRS, n_subsets=None,
                k_nearest=K_RELIEFF, n_iterations=None,
                random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                t_diff=T_DIFF, ties=TIES, progress_callback=None):
    """VLSReliefF (Eppstein & Haake 2008): the scores of :func:`vls`
    around ReliefF (:func:`.estimators.relieff`); `subset_size`,
    `cover_pairs` and `n_subsets` are VLS's, the other parameters
    ReliefF's; `random_state` seeds both the subsets and ReliefF's
    references.

    Returns
    -------
    float64 array (a,)
        :attr:`VlsResult.scores`.
    """
    def score(X, y, discrete, progress_callback=None):
        return relieff.unchecked(
            X, y, discrete, k_nearest=k_nearest, n_iterations=n_iterations,
            random_state=random_state, diff=diff, t_eq=t_eq, t_diff=t_diff,
            ties=ties, progress_callback=progress_callback)

    return vls.unchecked(score, X, y, discrete, subset_size=subset_size,
                         cover_pairs=cover_pairs, n_subsets=n_subsets,
                         random_state=random_state,
                         progress_callback=progress_callback).scores

"""Significance and stability of the rankings of several targets: the
overall ranking and each target's of multi-target RReliefF and
multi-label ReliefF (:mod:`..variants.multitarget`), each tested and summarised
as a ranking of one target is.

A permutation test of several targets permutes the rows of the targets
together, each row's targets kept as they are (so the targets' relation
to one another is kept and only their relation to the attributes is
broken): the null hypothesis is that the attributes say nothing of any
target.  Every permutation gives every ranking's weights at once; each
ranking's p-values count its own permuted weights
(:func:`.significance.permutation_test`: with the same seed, the same
permutations as a test of one target draws).  STIR has no pairs to test
here: its hits and misses are of one categorical class.

The stability of the rankings scores each resample of the instances
once for every ranking and summarises each ranking's scores
(:func:`.stability.summarise`).
"""
import numpy as np

from ..variants.multitarget import as_targets
from ..options import (CONFIDENCE, N_PERMUTATIONS, N_RESAMPLES, RANDOM_STATE,
                       RESAMPLING)
from .resampling import draw_resamples, score_resamples
from .significance import permutation_test
from .stability import default_top_k, summarise
from ..validation import validated


def stacked(weights):
    """The rankings of TargetWeights as one (1 + t, a) array, the
    overall ranking first."""
    return np.vstack([weights.overall, weights.per_target])


@validated
def target_permutation_test(rescore, Y, n_permutations=N_PERMUTATIONS,
                            random_state=RANDOM_STATE,
                            progress_callback=None):
    """Permutation p-values of every ranking of ``rescore(Y)`` (a
    TargetWeights; :func:`..variants.multitarget.rrelieff_multitarget` with
    ``rescorer=True``), the rows of Y (n, t) permuted together.

    The rows whose targets are all known are permuted among themselves,
    as :func:`.significance.permutation_test` permutes a target's known
    values (with the same generator: the same permutations of the rows),
    and each ranking's p-value of an attribute is (1 + #{permuted weight
    >= observed}) / (1 + n_permutations).

    Returns
    -------
    (observed (1 + t, a), p (1 + t, a)), the overall ranking first, then
    each target's.
    """
    Y = as_targets(Y, "A permutation test of several targets")
    own = np.arange(len(Y))
    rows = np.where(np.isnan(Y).any(axis=1), np.nan, own)

    def rescore_rows(order):
        order = np.where(np.isnan(order), own, order).astype(np.int64)
        return stacked(rescore(Y[order])).ravel()

    observed, p = permutation_test.unchecked(  # checked on entry
        rescore_rows, rows, n_permutations, random_state, progress_callback)
    shape = (1 + Y.shape[1], -1)
    return observed.reshape(shape), p.reshape(shape)


@validated
def target_stability(score_rows, groups, n_rankings, *,
                     n_resamples=N_RESAMPLES, resampling=RESAMPLING,
                     subsample=None, top_k=None, confidence=CONFIDENCE,
                     random_state=RANDOM_STATE, client=None,
                     progress_callback=None):
    """The stability of each of `n_rankings` rankings over resamples:
    ``score_rows(rows)`` gives every ranking's scores of the instances
    `rows`, one after another, (n_rankings * a,); the resamples are drawn
    and scored once, and each ranking's scores summarised as
    :func:`.stability.ranking_stability` summarises one ranking's.

    Returns
    -------
    list of :data:`.stability.RankingStability`, one per ranking
    """
    resamples = draw_resamples.unchecked(  # checked on entry
        groups, n_resamples, resampling=resampling, subsample=subsample,
        random_state=random_state)
    scores = score_resamples(score_rows, resamples, client=client,
                             progress_callback=progress_callback)
    each = scores.reshape(len(scores), n_rankings, -1)
    if top_k is None:
        top_k = default_top_k(each.shape[2])
    return [summarise.unchecked(each[:, r], top_k, confidence, resamples)
            for r in range(n_rankings)]

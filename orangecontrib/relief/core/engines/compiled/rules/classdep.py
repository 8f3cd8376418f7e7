"""The class-dependent rules (Qiu & He 2019, eq. 4-6; Marchiori 2013).

CDRelief's rule (eq. 4) updates the weights of the reference's own class
from its hits and its misses pooled over the other classes; IWCDRelief's
(eq. 5, 6) keeps only references near a class border and sends the update
to one class or the other.  :mod:`....classdep` states the conventions.
"""
import numba
import numpy as np
from numba import prange

from ....formulas.instance_weight import instance_weight
from ..diffs import for_kernels
from ..neighbours.exact_ranking import exact_distance
from ..neighbours.topk import offer
from .relieff import UPDATE_BLOCK, add_diffs, n_found


@numba.njit(cache=True)
def pooled_misses(tables, weights, i, neighbours, own, dist, index):
    """The k nearest instances of all classes but `own`, nearest first.

    The pooled top-k is a subset of the union of the per-class top-k lists
    (each of its members is among the k nearest of its own class), so it is
    merged from those lists by (distance, index), exactly as one search over
    the pooled classes would order it.  Returns how many were found; the
    indices are in ``index[0, :count]``.
    """
    n = tables.values.shape[1]
    k = neighbours.shape[1]
    for s in range(k):
        dist[0, s] = np.inf
        index[0, s] = n
    for g in range(neighbours.shape[0]):
        if g == own:
            continue
        for s in range(n_found(neighbours, g)):
            j = neighbours[g, s]
            offer(dist, index, 0, exact_distance(tables, weights, i, j), j)
    count = 0
    while count < k and index[0, count] < n:
        count += 1
    return count


@numba.njit(inline="always", cache=True)
def add_mean_diffs(acc, tables, i, members, count, coef):
    """acc[A] += coef * mean_{s < count} diff(A, I_i, I_members[s])."""
    for s in range(count):
        add_diffs(acc, tables, i, members[s], coef / count)


@numba.njit(cache=True)
def cdrelief_update(acc, exact, squared, weights, i, neighbours, scale,
                    dist, index):
    """acc[A] += scale * (mean miss diff - mean hit diff) (eq. 4, one x)."""
    own = exact.groups[i]
    hits = n_found(neighbours, own)
    add_mean_diffs(acc, exact, i, neighbours[own], hits, -scale)
    misses = pooled_misses(squared, weights, i, neighbours, own, dist, index)
    add_mean_diffs(acc, exact, i, index[0], misses, scale)


def cdrelief_rule(exact, squared, weights, refs, scale, neighbours, n_groups):
    """Rows W[c] of eq. 4: every reference updates the row of its class.

    `exact` holds the update's diffs, `squared` the neighbour search's
    (float64, like the exact search the neighbours come from)."""
    return cdrelief_rows(for_kernels(exact), for_kernels(squared), weights,
                         refs, scale, neighbours, n_groups)


@numba.njit(parallel=True, cache=True)
def cdrelief_rows(exact, squared, weights, refs, scale, neighbours, n_groups):
    """:func:`cdrelief_rule` of the kernels' exact tables."""
    m, k = neighbours.shape[0], neighbours.shape[2]
    n_blocks = -(-m // UPDATE_BLOCK)
    partial = np.zeros((n_blocks, n_groups, exact.values.shape[0]))
    for b in prange(n_blocks):
        dist = np.empty((1, k))
        index = np.empty((1, k), np.int64)
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            i = refs[r]
            cdrelief_update(partial[b, exact.groups[i]], exact, squared,
                            weights, i, neighbours[r], scale[r], dist, index)
    return partial.sum(axis=0)


@numba.njit(cache=True)
def euclidean(tables, weights, i, j):
    """sqrt(sum_A w_A diff(A, I_i, I_j)) on float64 squared-diff tables."""
    return np.sqrt(exact_distance(tables, weights, i, j))


@numba.njit(inline="always", cache=True)
def mean_distance(tables, weights, i, members, count):
    total = 0.0
    for s in range(count):
        total += euclidean(tables, weights, i, members[s])
    return total / count


instance_weight = numba.njit(inline="always", cache=True)(instance_weight)


@numba.njit(cache=True)
def iwcdrelief_update(acc, exact, metric, weights, i, neighbours, scale,
                      pair_coef, threshold, as_printed):
    """Add reference I_i's eq. 6 updates to the rows of `acc` (classes).

    For each other class l, with its own k misses, d2 and IW: the update
    IW * scale * pair_coef[c, l] * (mean miss diff - mean hit diff) goes to
    row c or row l by the sign of d2 - d1 and the reading of eq. 6.
    """
    own = exact.groups[i]
    hits = n_found(neighbours, own)
    if hits == 0:
        return  # no hit: x's place relative to the border is unknown
    d1 = mean_distance(metric, weights, i, neighbours[own], hits)
    for other in range(neighbours.shape[0]):
        if other == own:
            continue
        misses = n_found(neighbours, other)
        if misses == 0:
            continue
        d2 = mean_distance(metric, weights, i, neighbours[other], misses)
        if instance_weight(d1, d2, threshold) == 0.0:
            continue
        if (d2 - d1 > 0) == as_printed:
            row = own
        else:
            row = other
        coef = scale * pair_coef[own, other]
        add_mean_diffs(acc[row], exact, i, neighbours[other], misses, coef)
        add_mean_diffs(acc[row], exact, i, neighbours[own], hits, -coef)


def iwcdrelief_rule(exact, metric, weights, refs, scale, neighbours,
                    pair_coef, thresholds, as_printed):
    """Rows W[c] of eq. 6 summed over all references (fixed block order),
    for each of the `thresholds`: (thresholds, groups, attributes)."""
    exact, metric = for_kernels(exact), for_kernels(metric)
    return np.stack([iwcdrelief_rows(exact, metric, weights, refs, scale,
                                     neighbours, pair_coef, threshold,
                                     as_printed)
                     for threshold in thresholds])


@numba.njit(parallel=True, cache=True)
def iwcdrelief_rows(exact, metric, weights, refs, scale, neighbours,
                    pair_coef, threshold, as_printed):
    """:func:`iwcdrelief_rule` of the kernels' exact tables."""
    m = neighbours.shape[0]
    n_groups = neighbours.shape[1]
    n_blocks = -(-m // UPDATE_BLOCK)
    partial = np.zeros((n_blocks, n_groups, exact.values.shape[0]))
    for b in prange(n_blocks):
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            iwcdrelief_update(partial[b], exact, metric, weights, refs[r],
                              neighbours[r], scale[r], pair_coef, threshold,
                              as_printed)
    return partial.sum(axis=0)

"""mu-Relief's neighbourhood, compiled: the deviations of each
reference's distances from its class means
(:mod:`....formulas.mean_farthest`), ROWS references at a time.

A block of references gets its exact distances to every instance
(:func:`.distance_rows.distance_block`, those of the SURF family's
kernels) and each row its deviations, by the formula compiled as it is.
The add-on's rows are ranked by the vectorised engine's
:func:`...vectorised.farthest.farthest_lists`.  scikit-rebate 0.8's
deviations (:func:`scikit_rebate_deviations`, numpy's floats) are ranked
here: the k largest of each class, the largest first, which is the
order of numpy's sort wherever the k + 1 largest of each class are
distinct; a row with equal ones among them is ranked by numpy's sort
(:func:`...vectorised.farthest.argsort_selection`), so that the lists are
those of the vectorised engine.  The references are taken in parts of
:class:`....neighbours.NeighbourLists`, so memory is a part's rows of n,
never n x n.
"""
import math

import numba
import numpy as np
from numba import prange

from ....formulas.mean_farthest import class_mean_deviations
from ....neighbours import lists_of
from ....options import TIES
from ...vectorised.farthest import (argsort_selection, farthest_lists,
                                    selected_lists)
from ..diffs import for_kernels
from ..pairwise import numpy_sum
from .block import ROWS
from .distance_rows import distance_block

class_mean_deviations = numba.njit(cache=True)(class_mean_deviations)


@numba.njit(cache=True)
def scikit_rebate_deviations(dist, groups, n_groups, own, divisor, scratch,
                             out):
    """out[j] = |D_j - mean_g(j)| in scikit-rebate 0.8's floats: D_j
    = dist[j] / `divisor` (its distances), mean_g the mean of the D of
    j's group ``groups[j]`` but the reference `own`, as ``np.mean`` adds
    them (:func:`..pairwise.numpy_sum`, in instance order); the
    reference's entry 0.  `scratch` (n,) holds a group's distances."""
    for g in range(n_groups):
        count = 0
        for j in range(len(dist)):
            if groups[j] == g and j != own:
                scratch[count] = dist[j] / divisor
                count += 1
        if count == 0:
            continue
        mean = numpy_sum(scratch, count) / count
        count = 0
        for j in range(len(dist)):
            if groups[j] == g and j != own:
                out[j] = math.fabs(scratch[count] - mean)
                count += 1
    out[own] = 0.0


@numba.njit(cache=True)
def largest_by_group(deviation, groups, n_groups, k, best, value, counts):
    """best[g, :counts[g]]: the instances of the k largest deviations of
    group g, the largest first (`value` their deviations, k + 1 places
    each; the reference, of deviation 0, a candidate of its group).
    Returns whether two of a group's k + 1 largest are equal (then the
    order of numpy's sort decides, not the values)."""
    counts[:] = 0
    for j in range(len(deviation)):
        g, d = groups[j], deviation[j]
        c = counts[g]
        if c == k + 1:
            if d <= value[g, k]:
                continue
            c = k
        p = c
        while p > 0 and value[g, p - 1] < d:
            best[g, p], value[g, p] = best[g, p - 1], value[g, p - 1]
            p -= 1
        best[g, p], value[g, p] = j, d
        counts[g] = c + 1
    tied = False
    for g in range(n_groups):
        for p in range(1, counts[g]):
            tied |= value[g, p] == value[g, p - 1]
        counts[g] = min(counts[g], k)
    return tied


@numba.njit(parallel=True, cache=True)
def deviation_rows(values, exact, groups, n_groups, refs, divisor, k, dist,
                   deviation, selected, counts, tied):
    """dist[r] = D(refs[r], .) and deviation[r] its deviations from the
    class means, for every reference, ROWS at a time on the threads; with
    a `divisor` above 0, scikit-rebate's deviations of the distances
    divided by it, their k largest of each class in selected[r, g,
    :counts[r, g]] (:func:`largest_by_group`) and whether they tie in
    tied[r]."""
    m, n = len(refs), values.shape[1]
    for b in prange(-(-m // ROWS)):
        first = b * ROWS
        count = min(ROWS, m - first)
        rows = np.empty(ROWS, np.int64)
        for r in range(ROWS):
            rows[r] = refs[first + min(r, count - 1)]
        block = np.empty((ROWS, n))
        distance_block(values, exact, rows, count, block, 0)
        sums = np.empty(n_groups)
        group_counts = np.empty(n_groups, np.int64)
        scratch = np.empty(n)
        best = np.empty((n_groups, k + 1), np.int64)
        value = np.empty((n_groups, k + 1))
        for r in range(count):
            i = first + r
            dist[i] = block[r]
            if divisor > 0:
                scikit_rebate_deviations(block[r], groups, n_groups, rows[r],
                                         divisor, scratch, deviation[i])
                tied[i] = largest_by_group(deviation[i], groups, n_groups, k,
                                           best, value, group_counts)
                selected[i] = best[:, :k]
                counts[i] = group_counts
            else:
                class_mean_deviations(block[r], groups, n_groups, rows[r],
                                      sums, group_counts, deviation[i])
            dist[i, rows[r]] = 0.0


def mean_farthest_neighbours(data, refs, k, ties=TIES, scikit_rebate=None,
                             progress_callback=None):
    """The compiled engine's
    :meth:`...interface.Engine.mean_farthest_neighbours`: mu-Relief's
    :class:`....neighbours.NeighbourLists`."""
    exact = for_kernels(data.exact)
    values = np.ascontiguousarray(exact.values)
    n_groups, groups = data.n_groups, data.groups.astype(np.int64)
    n = values.shape[1]
    k = min(k, n)
    members = [np.flatnonzero(groups == g) for g in range(n_groups)]
    divisor = 0.0 if scikit_rebate is None else float(scikit_rebate)

    def lists_of_unique(unique):
        rows = len(unique)
        dist, deviation = np.empty((rows, n)), np.empty((rows, n))
        ranked = rows if scikit_rebate is not None else 0
        selected = np.empty((ranked, n_groups, k), np.int64)
        counts = np.empty((ranked, n_groups), np.int64)
        tied = np.zeros(ranked, bool)
        deviation_rows(values, exact, groups, n_groups, unique, divisor, k,
                       dist, deviation, selected, counts, tied)
        if scikit_rebate is None:
            return farthest_lists(deviation, dist, unique, members, groups,
                                  k, ties, None)
        if tied.any():
            selected[tied], counts[tied] = argsort_selection(
                deviation[tied], groups, n_groups, k)
        return selected_lists(selected, counts, dist, k)

    return lists_of(refs, k, n_groups, lists_of_unique, progress_callback, n)

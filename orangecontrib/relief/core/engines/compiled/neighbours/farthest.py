"""mu-Relief's neighbourhood, compiled: the deviations |D - mu_c| of each
reference's distances from its class means
(:mod:`....formulas.mean_farthest`), ROWS references at a time.

A block of references gets its exact distances to every instance
(:func:`.distance_rows.distance_block`, those of the SURF family's
kernels) and each row its deviations, by the formula compiled as it is;
the rows are ranked by the vectorised engine's
:func:`...vectorised.farthest.farthest_lists` (a selection of k per class
by the deviations, the same lists on both engines).  The references are
taken in parts of :class:`....neighbours.NeighbourLists`, so memory is a
part's rows of n, never n x n.
"""
import numba
import numpy as np
from numba import prange

from ....formulas.mean_farthest import class_mean_deviations
from ....neighbours import lists_of
from ....options import TIES
from ...vectorised.farthest import farthest_lists
from ..diffs import for_kernels
from .block import ROWS
from .distance_rows import distance_block

class_mean_deviations = numba.njit(cache=True)(class_mean_deviations)


@numba.njit(parallel=True, cache=True)
def deviation_rows(values, exact, groups, n_groups, refs, dist, deviation):
    """dist[r] = D(refs[r], .) and deviation[r] its deviations from the
    class means, for every reference, ROWS at a time on the threads."""
    m, n = len(refs), values.shape[1]
    for b in prange(-(-m // ROWS)):
        first = b * ROWS
        count = min(ROWS, m - first)
        rows = np.empty(ROWS, np.int64)
        for r in range(ROWS):
            rows[r] = refs[first + min(r, count - 1)]
        block = np.empty((ROWS, n))
        distance_block(values, exact, rows, count, block)
        sums = np.empty(n_groups)
        counts = np.empty(n_groups, np.int64)
        for r in range(count):
            dist[first + r] = block[r]
            class_mean_deviations(block[r], groups, n_groups, rows[r], sums,
                                  counts, deviation[first + r])
            dist[first + r, rows[r]] = 0.0


def mean_farthest_neighbours(data, refs, k, ties=TIES, scikit_rebate=None,
                             progress_callback=None):
    """mu-Relief's :class:`....neighbours.NeighbourLists` (the interface
    of :func:`...vectorised.farthest.mean_farthest_neighbours`)."""
    exact = for_kernels(data.exact)
    values = np.ascontiguousarray(exact.values)
    n_groups, groups = data.n_groups, data.groups.astype(np.int64)
    n = values.shape[1]
    k = min(k, n)
    members = [np.flatnonzero(groups == g) for g in range(n_groups)]

    def lists_of_unique(unique):
        dist, deviation = np.empty((len(unique), n)), np.empty((len(unique),
                                                                 n))
        deviation_rows(values, exact, groups, n_groups, unique, dist,
                       deviation)
        return farthest_lists(deviation, dist, unique, members, groups, k,
                              ties, scikit_rebate)

    return lists_of(refs, k, n_groups, lists_of_unique, progress_callback, n)

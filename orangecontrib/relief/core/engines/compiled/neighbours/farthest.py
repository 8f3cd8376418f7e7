"""mu-Relief's neighbourhood, compiled: the deviations of each
reference's distances from its class means
(:mod:`....formulas.mean_farthest`), ROWS references at a time.

A block of references gets its exact distances to every instance
(:func:`.distance_rows.distance_block`, those of the SURF family's
kernels) and each row its deviations, by the formula compiled as it is.
The add-on's rows are ranked by the vectorised engine's
:func:`...vectorised.farthest.farthest_lists`.  scikit-rebate 0.8's
deviations (:func:`group_deviations`, numpy's floats) are ranked here,
a class at a time over its members only: the k largest of each class,
the largest first (:func:`largest_first`), which is the order of numpy's
sort wherever the k + 1 largest of each class are distinct; a row with
equal ones among them is ranked by numpy's sort
(:func:`...vectorised.farthest.argsort_selection`), so that the lists are
those of the vectorised engine.  Only such a row's distances and
deviations are kept; the others give their lists' entries alone.  The
references are taken in parts of :class:`....neighbours.NeighbourLists`,
so memory is a part's rows of n, never n x n.
"""
import math
from collections import namedtuple

import numba
import numpy as np
from numba import prange

from ....formulas.mean_farthest import class_mean_deviations
from ....neighbours import lists_of
from ....formulas.ties import TIES
from ...vectorised.farthest import (argsort_selection, farthest_lists,
                                    selected_distances, selected_lists)
from ..diffs import for_kernels
from ..pairwise import numpy_sum
from .block import ROWS, block_refs
from .distance_rows import distance_block

class_mean_deviations = numba.njit(cache=True)(class_mean_deviations)

#: the most buckets of :func:`largest_first`
BUCKETS = 1024

#: The instances of each class: those of class g are
#: members[starts[g]:starts[g + 1]], in instance order
Classes = namedtuple("Classes", ["members", "starts"])

#: scikit-rebate's lists as :func:`scikit_rebate_rows` fills them, a row
#: per reference r: selected[r, g, :counts[r, g]] the k of class g, their
#: distances distance[r, g], tied[r] whether two of a class's k + 1
#: largest deviations are equal, and then the row's distances dist[r] and
#: deviations deviation[r]
Selection = namedtuple("Selection", ["selected", "distance", "counts",
                                     "tied", "dist", "deviation"])


@numba.njit(cache=True)
def group_deviations(dist, group, own, divisor, scratch, out):
    """out[c] = |D_j - mean| for the instances j = group[c] of a group
    (sorted) in scikit-rebate 0.8's floats: D_j = dist[j] / `divisor` (its
    distances), mean the mean of the group's D but the reference `own`'s,
    as ``np.mean`` adds them (:func:`..pairwise.numpy_sum`, in instance
    order); the reference's entry 0.  `scratch` holds the others' D."""
    size = len(group)
    for c in range(size):
        out[c] = dist[group[c]]
    if divisor != 1.0:  # x / 1 is x: a division only where it changes one
        for c in range(size):
            out[c] = out[c] / divisor
    at = np.searchsorted(group, own)
    mine = at < size and group[at] == own
    count = size - 1 if mine else size
    for c in range(count):  # element by element (:mod:`..` says why)
        scratch[c] = out[c if c < at else size - count + c]
    mean = numpy_sum(scratch, count) / count if count else 0.0
    for c in range(size):
        out[c] = math.fabs(out[c] - mean)
    if mine:
        out[at] = 0.0


@numba.njit(cache=True)
def largest_first(deviation, k, count, bucket, order, value, index):
    """The k + 1 largest of `deviation` (all of them where fewer), the
    largest first, in value[:size] and their positions in index[:size];
    returns size.  Equal deviations are in no defined order
    (:func:`any_equal` tells whether the k + 1 hold any).

    A bucket sort, then the sorted insertion of the few candidates:
    each deviation gets the bucket ``int(d * (B - 1) / max)`` of its share
    of the largest (B = ``len(count)`` at most, one per deviation), which
    grows with d, so that counting them from the top finds the bucket of
    the (k + 1)-th largest; the deviations of it and above (`order`, their
    positions, B ints `count`, n ints `bucket` and `order` scratch) are
    then inserted into the sorted k + 1 places in order of their buckets,
    each moving few.  Where one bucket holds most of them, this is the
    insertion of them all (k moves each at most)."""
    n = len(deviation)
    n_buckets = max(1, min(len(count), n))
    top = 0.0
    for j in range(n):
        top = max(top, deviation[j])
    scale = (n_buckets - 1) / top if top > 0 else 0.0
    count[:n_buckets] = 0
    for j in range(n):
        b = min(max(int(deviation[j] * scale), 0), n_buckets - 1)
        bucket[j] = b
        count[b] += 1
    low, above = n_buckets - 1, 0
    while low > 0 and above + count[low] < min(k + 1, n):
        above += count[low]
        low -= 1
    start = 0
    for b in range(n_buckets - 1, low - 1, -1):  # where each one's begin
        start += count[b]
        count[b] = start - count[b]
    for j in range(n):
        b = bucket[j]
        if b >= low:
            order[count[b]] = j
            count[b] += 1
    size = 0
    for c in range(start):
        j = order[c]
        size = insert_largest(value, index, size, k, deviation[j], j)
    return size


@numba.njit(inline="always", cache=True)
def insert_largest(value, index, size, k, d, j):
    """Insert (d, j) into value[:size] (sorted, the largest first, k + 1
    places at most; the least drops out where they are full) after those
    not less than d; returns the new size."""
    if size == k + 1:
        if d <= value[k]:
            return size
        size = k
    p = size
    while p > 0 and value[p - 1] < d:
        value[p], index[p] = value[p - 1], index[p - 1]
        p -= 1
    value[p], index[p] = d, j
    return size + 1


@numba.njit(inline="always", cache=True)
def any_equal(value, size):
    """Whether two of the sorted value[:size] are equal."""
    for p in range(1, size):
        if value[p] == value[p - 1]:
            return True
    return False


@numba.njit(parallel=True, cache=True)
def deviation_rows(values, exact, groups, n_groups, refs, dist, deviation):
    """dist[r] = D(refs[r], .) and deviation[r] its deviations from the
    class means (:func:`class_mean_deviations`), for every reference,
    ROWS at a time on the threads."""
    for b in prange(-(-len(refs) // ROWS)):
        deviation_block(values, exact, groups, n_groups, refs, b * ROWS,
                        dist, deviation)


@numba.njit(cache=True)
def deviation_block(values, exact, groups, n_groups, refs, first, dist,
                    deviation):
    """:func:`deviation_rows` of the ROWS references from position
    `first`: the body of its parallel loop, compiled apart, so that
    numba's passes over the loop see a call, not its body."""
    n = values.shape[1]
    rows = np.empty(ROWS, np.int64)
    count = block_refs(refs, first, len(refs), rows)
    block = np.empty((ROWS, n))
    distance_block(values, exact, rows, count, block, 0)
    sums = np.empty(n_groups)
    group_counts = np.empty(n_groups, np.int64)
    for r in range(count):
        i = first + r
        for j in range(n):  # element by element (:mod:`..` says why)
            dist[i, j] = block[r, j]
        class_mean_deviations(block[r], groups, n_groups, rows[r], sums,
                              group_counts, deviation[i])
        dist[i, rows[r]] = 0.0


@numba.njit(parallel=True, cache=True)
def scikit_rebate_rows(values, exact, classes, refs, divisor, k, out):
    """For every reference r, ROWS at a time on the threads: its k
    largest of scikit-rebate's deviations from the class means of its
    distances divided by `divisor` (:func:`group_deviations`) in each
    class g of the :class:`Classes` `classes`, the largest first
    (:func:`largest_first`), into the :class:`Selection` `out`; where two
    of a class's k + 1 largest are equal, its distances and deviations
    too (whose order numpy's sort decides)."""
    largest = 0
    for g in range(len(classes.starts) - 1):
        largest = max(largest, classes.starts[g + 1] - classes.starts[g])
    for b in prange(-(-len(refs) // ROWS)):
        scikit_rebate_block(values, exact, classes, refs, b * ROWS, divisor,
                            k, largest, out)


@numba.njit(cache=True)
def scikit_rebate_block(values, exact, classes, refs, first, divisor, k,
                        largest, out):
    """:func:`scikit_rebate_rows` of the ROWS references from position
    `first` (`largest`: the size of the largest class): the body of its
    parallel loop, compiled apart, so that numba's passes over the loop
    see a call, not its body."""
    members, starts = classes
    selected, distance, counts, tied, dist, deviation = out
    n = values.shape[1]
    rows = np.empty(ROWS, np.int64)
    count = block_refs(refs, first, len(refs), rows)
    block = np.empty((ROWS, n))
    distance_block(values, exact, rows, count, block, 0)
    scratch, row = np.empty(largest), np.empty(largest)
    buckets = np.empty(min(BUCKETS, largest), np.int64)
    bucket, order = np.empty(largest, np.int64), np.empty(largest, np.int64)
    value, index = np.empty(k + 1), np.empty(k + 1, np.int64)
    for r in range(count):
        i, own = first + r, rows[r]
        block[r, own] = 0.0
        tie = False
        for g in range(len(starts) - 1):
            group = members[starts[g]:starts[g + 1]]
            group_deviations(block[r], group, own, divisor, scratch, row)
            size = largest_first(row[:len(group)], k, buckets, bucket,
                                 order, value, index)
            tie |= any_equal(value, size)
            counts[i, g] = min(size, k)
            for p in range(min(size, k)):
                selected[i, g, p] = group[index[p]]
                distance[i, g, p] = block[r, group[index[p]]]
        tied[i] = tie
        if tie:
            for j in range(n):  # element by element (:mod:`..` says why)
                dist[i, j] = block[r, j]
            for g in range(len(starts) - 1):
                group = members[starts[g]:starts[g + 1]]
                group_deviations(block[r], group, own, divisor, scratch, row)
                for c in range(len(group)):
                    deviation[i, group[c]] = row[c]


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

    def add_on_lists(unique):
        dist, deviation = np.empty((len(unique), n)), np.empty((len(unique), n))
        deviation_rows(values, exact, groups, n_groups, unique, dist,
                       deviation)
        return farthest_lists(deviation, dist, unique, members, groups, k,
                              ties, None)

    def scikit_rebate_lists(unique):
        return scikit_rebate_selection(values, exact, members, groups, unique,
                                       float(scikit_rebate), k)

    return lists_of(refs, k, n_groups, add_on_lists if scikit_rebate is None
                    else scikit_rebate_lists, progress_callback, n)


def scikit_rebate_selection(values, exact, members, groups, refs, divisor, k):
    """scikit-rebate's lists of the distinct references `refs`
    (:func:`scikit_rebate_rows`); the rows whose k + 1 largest deviations
    of a class tie ranked by numpy's sort (:func:`...vectorised.farthest.
    argsort_selection`).  Only their rows of distances and deviations are
    written, so that the other rows' pages are never touched."""
    rows, n_groups, n = len(refs), len(members), values.shape[1]
    selected = np.empty((rows, n_groups, k), np.int64)
    distance = np.empty((rows, n_groups, k))
    counts = np.empty((rows, n_groups), np.int64)
    tied = np.zeros(rows, bool)
    dist, deviation = np.empty((rows, n)), np.empty((rows, n))
    classes = Classes(np.concatenate(members),
                      np.cumsum([0] + [len(group) for group in members]))
    scikit_rebate_rows(values, exact, classes, refs, divisor, k,
                       Selection(selected, distance, counts, tied, dist,
                                 deviation))
    if tied.any():
        chosen, counts[tied] = argsort_selection(deviation[tied], groups,
                                                 n_groups, k)
        selected[tied] = chosen
        distance[tied] = selected_distances(chosen, dist[tied])
    return selected_lists(selected, counts, distance, k)

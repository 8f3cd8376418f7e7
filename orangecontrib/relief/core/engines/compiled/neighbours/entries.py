"""The ranked lists laid end to end: the entry arrays of
:class:`.....neighbours.Neighbours` in one pass.

:func:`.exact_ranking.rank_lists` leaves each list in a row of width K,
its first ``count`` entries used.  :meth:`.....neighbours.Neighbours.ranked`
would take them masked out of the rows and find the tie sets with a dozen
array operations over every entry; here one loop copies the entries and
one gives each its tie set and share (:func:`tie_sets`, the rule of
:func:`.....formulas.ties.fill_shares`), the same numbers.  On 1000 x 50
(k = 10, 20 000 entries, one thread) the array operations took 1.6 ms
of the call's 22 ms of processor time, the loops about 0.3 ms.  Lists
that were searched again (:func:`.search.ranked_lists`) take the second
loop alone.
"""
import numba
import numpy as np


@numba.njit(cache=True)
def laid_end_to_end(index, dist, count, k, shared):
    """(offsets, index, distance, share, first, tied) of the lists
    (refs x groups x K rows of `index` and `dist`, the first ``count[r,
    g]`` entries of row (r, g) listed), as
    :meth:`.....neighbours.Neighbours.ranked` computes them: list l =
    r * groups + g is entries ``offsets[l]:offsets[l + 1]``, each entry
    with its tie set and share (:func:`tie_sets`)."""
    n_lists, width = count.size, index.shape[-1]
    rows_index = index.reshape(n_lists, width)
    rows_dist = dist.reshape(n_lists, width)
    counts = count.ravel()
    offsets = np.zeros(n_lists + 1, np.int64)
    for lst in range(n_lists):
        offsets[lst + 1] = offsets[lst] + counts[lst]
    total = offsets[n_lists]
    flat_index, flat_dist = np.empty(total, np.int64), np.empty(total)
    for lst in range(n_lists):
        for p in range(counts[lst]):
            flat_index[offsets[lst] + p] = rows_index[lst, p]
            flat_dist[offsets[lst] + p] = rows_dist[lst, p]
    share, first, tied = tie_sets(offsets, flat_dist, k, shared)
    return offsets, flat_index, flat_dist, share, first, tied


@numba.njit(cache=True)
def tie_sets(offsets, dist, k, shared):
    """(share, first, tied) of the entries of ranked lists laid end to
    end (list l: entries ``offsets[l]:offsets[l + 1]`` of `dist`, by
    (distance, index)), as :meth:`.....neighbours.Neighbours.ranked`
    gives them: with `shared`, equal distances within a list form a tie
    set (else every entry is a set of its own), whose members all have
    the first place `first` of the set, its size `tied`, and the share
    min(tied, k - first) / tied (:func:`.....formulas.ties.tie_share`)."""
    total = offsets[len(offsets) - 1]
    share = np.empty(total)
    first = np.empty(total, np.int32)
    tied = np.empty(total, np.int32)
    for lst in range(len(offsets) - 1):
        base, count, s = offsets[lst], offsets[lst + 1] - offsets[lst], 0
        while s < count:
            end = s + 1
            if shared:
                while end < count and dist[base + end] == dist[base + s]:
                    end += 1
            size = end - s
            for p in range(s, end):
                share[base + p] = min(size, k - s) / size
                first[base + p] = s
                tied[base + p] = size
            s = end
    return share, first, tied

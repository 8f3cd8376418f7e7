"""Step 2 on compact data: the k nearest instances of each group.

The distances of a chunk of references to every instance are exact
(:mod:`.distances`), so their lists are those of the float64 path
(:func:`..engines.vectorised.neighbours.lists_of_rows`): ranked by
(distance, index), the candidates at the k-th distance sharing the last
places by the tie rule (:mod:`..neighbours`).  On bit planes every
distance is a whole number of halves, so ties are exact ties, as on the
float64 path.  The references are taken in chunks whose distances fit
:data:`DISTANCE_BYTES` (each chunk a pass over the columns); the lists of
every reference are held at once, as one part of
:class:`..neighbours.NeighbourLists`, since the rules read them once per
block of columns.
"""
import numpy as np

from ..engines.vectorised.farthest import (class_mean_deviations,
                                           farthest_lists,
                                           scikit_rebate_deviations)
from ..engines.vectorised.neighbours import lists_of_rows, search_weights
from ..neighbours import Neighbours, NeighbourLists
from ..options import TIES
from ..progress import wrap_callback
from .distances import distances, sparse_scale

#: the distances held at once (references x instances float64)
DISTANCE_BYTES = 2 ** 28
#: the same of sparse data, whose distances are rows of their own (no
#: pass over the columns to save), where memory counts in stored entries
SPARSE_DISTANCE_BYTES = 2 ** 23


def chunks(count, n, limit=DISTANCE_BYTES):
    """Slices of `count` references whose distances to n instances fit
    `limit` bytes."""
    size = max(1, limit // (8 * max(n, 1)))
    return [slice(first, min(first + size, count))
            for first in range(0, count, size)]


def find_neighbours(data, refs, k, weights=None, progress_callback=None,
                    client=None, ties=TIES):
    """The :class:`..neighbours.NeighbourLists` of each reference's k
    nearest instances of each group by the tie rule `ties`: the lists of
    :func:`..engines.compiled.neighbours.search.find_neighbours` on the
    data in float64, field for field.  `weights` are the distance's
    attribute weights (None: 1), rounded to float32 as the search rounds
    them.  On a Dask `client`'s cluster the distances are tasks
    (:mod:`.cluster`), the same to the bit."""
    k = min(k, data.n_instances)
    if weights is not None:
        weights = search_weights(weights, data.n_attributes)
    members = group_members(data)

    def rank(dist, rows):
        dist[np.arange(len(rows)), rows] = np.inf
        return lists_of_rows(dist, members, k, ties)

    return chunked_lists(data, refs, k, ties, rank, weights,
                         progress_callback, client)


def mean_farthest_neighbours(data, refs, k, ties=TIES, scikit_rebate=None,
                             progress_callback=None):
    """mu-Relief's lists (:mod:`..engines.vectorised.farthest`) of
    compact data: those of the data in float64, field for field (its
    distances are exact, and so their class means and deviations)."""
    k = min(k, data.n_instances)
    members, groups = group_members(data), data.groups

    def rank(dist, rows):
        deviation = (class_mean_deviations(dist, rows, groups, members)
                     if scikit_rebate is None else
                     scikit_rebate_deviations(dist, rows, members,
                                              scikit_rebate))
        dist[np.arange(len(rows)), rows] = 0.0
        return farthest_lists(deviation, dist, rows, members, groups, k,
                              ties, scikit_rebate)

    return chunked_lists(data, refs, k, ties, rank, None, progress_callback,
                         None)


def group_members(data):
    """The instances of each group, in order."""
    return [np.flatnonzero(data.groups == g) for g in range(data.n_groups)]


def chunked_lists(data, refs, k, ties, rank, weights, progress_callback,
                  client):
    """The lists of `refs` as one part of
    :class:`..neighbours.NeighbourLists`: ``rank(dist, rows)`` of the
    distances of each chunk of the distinct references `rows` to every
    instance (rows x n, theirs to write over)."""
    n = data.n_instances
    unique, inverse = np.unique(refs, return_inverse=True)
    sparse = data.store.is_sparse and client is None
    scale = sparse_scale(data) if sparse else None
    parts = chunks(len(unique), n, SPARSE_DISTANCE_BYTES if sparse
                   else DISTANCE_BYTES)
    found = []
    for p, part in enumerate(parts):
        rows = unique[part]
        dist = distances(data, rows, weights, wrap_callback(
            progress_callback, p / len(parts), (p + 1) / len(parts)),
            client, scale)
        found.append(rank(dist, rows))
        del dist
    lists = Neighbours.concatenate(found, k, data.n_groups, ties)
    return NeighbourLists.holding(lists.take(inverse.ravel()))

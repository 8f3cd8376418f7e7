"""The k nearest instances of each group, by exact float64 distance.

A reference's distances to every instance (:class:`.diffs.Rows`) are
ranked, per group, as a stable sort would rank them (:mod:`.topk`): equal
distances keep the lower instance index first, the order of the compiled
search.  The distances' columns hold the instances sorted by group (a
stable sort), so that a group's candidates are a run of columns, read
where they are rather than gathered.  A list holds what the tie rule
lists (:mod:`...formulas.ties`): the k nearest, and with ``ties="share"``
every candidate as near as the k-th; :class:`...neighbours.Neighbours`
gives the places they take.  A
reference is never its own neighbour; a group with fewer than k
candidates gives all it has.  References are taken in parts
(:class:`...neighbours.NeighbourLists`) and within a part in blocks, on
the engine's threads (:mod:`.threads`), so that memory stays O(block x
n) per thread.
"""
import numpy as np

from ...errors import ReliefInputError
from ...formulas.ties import SHARE
from ...neighbours import Neighbours, lists_of
from ...formulas.ties import TIES
from .diffs import TILE, Rows
from .threads import each, thread_count
from .topk import smallest, smallest_tied

#: distances held at once by a thread: a block of references x every
#: instance
BLOCK_ENTRIES = 2 ** 20
#: the least work (references x instances x attributes) shared by
#: threads: a few milliseconds, many times what starting a thread's block
#: costs
SHARED_WORK = 2 ** 22


def search_weights(weights, n_attributes):
    """The distance weights as the compiled engine applies them: rounded
    to float32 (its search's precision) and widened again for the exact
    distance."""
    if weights is None:
        return np.ones(n_attributes)
    return np.asarray(weights, np.float32).astype(np.float64)


def group_candidates(dist, members, k, ties):
    """The listed candidates of one group for each row of `dist` (rows x
    len(members), a reference's own distance inf): (row, instance,
    distance) by (row, distance, instance), the k nearest of each row
    and, with ``ties="share"``, every one as near as the k-th; every
    member but the reference where k reaches the group's size."""
    rows, size = dist.shape
    if k >= size:
        row, column = np.nonzero(np.isfinite(dist))
        order = np.lexsort((column, dist[row, column], row))
        row, column = row[order], column[order]
    elif ties == SHARE:
        row, column = smallest_tied(dist, k)
    else:
        row = np.repeat(np.arange(rows), k)
        column = smallest(dist, k).ravel()
    return row, members[column], dist[row, column]


def lists_of_rows(dist, members, k, ties, bounds=None):
    """The :class:`...neighbours.Neighbours` of the references whose
    distances are the rows of `dist` (rows x n, each reference's own
    distance inf), one list per group of `members`; with `bounds`, the
    columns of group g are bounds[g]:bounds[g + 1] (those of its
    members, in order), else members[g]."""
    n_groups = len(members)
    found = [group_candidates(
        dist[:, members[g]] if bounds is None
        else dist[:, bounds[g]:bounds[g + 1]], members[g], k, ties)
        for g in range(n_groups)]
    lists = np.concatenate([row * n_groups + g
                            for g, (row, _, _) in enumerate(found)])
    instance = np.concatenate([f[1] for f in found])
    distance = np.concatenate([f[2] for f in found])
    order = np.lexsort((instance, distance, lists))
    counts = np.bincount(lists, minlength=len(dist) * n_groups)
    return Neighbours.ranked(k, n_groups,
                             np.concatenate([[0], np.cumsum(counts)]),
                             instance[order], distance[order], ties)


def blocks(start, stop, size, work):
    """Slices of start:stop, at most `size` long, and as many as the
    engine has threads where the `work` of an item (references x
    instances x attributes) makes enough to share."""
    count = -(-(stop - start) // size)
    if (stop - start) * work >= SHARED_WORK:
        count = max(count, min(thread_count(), stop - start))
    bounds = np.linspace(start, stop, count + 1).astype(np.int64)
    return [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:])]


def find_neighbours(data, refs, k, weights=None, progress_callback=None,
                    client=None, ties=TIES, distances=True):
    """The lists of each reference's k nearest instances of each group,
    by the tie rule `ties`, as :class:`...neighbours.NeighbourLists`;
    see :func:`..compiled.neighbours.search.find_neighbours` (same
    arguments, same lists; every distance is computed here, so the lists
    hold them whatever `distances`).  There is no cluster search here: a Dask
    `client`'s calls go to the compiled engine
    (:func:`...variants.estimators.prepared`)."""
    if client is not None:
        raise ReliefInputError("The vectorised engine searches here; a Dask "
                               "client's search runs on the compiled engine.")
    exact, n_groups = data.exact, data.n_groups
    n = exact.values.shape[1]
    k = min(k, n)
    order = np.argsort(data.groups, kind="stable")
    position = np.empty_like(order)
    position[order] = np.arange(n)
    rows = Rows(exact, search_weights(weights, exact.values.shape[0]), order)
    bounds = np.searchsorted(data.groups[order], np.arange(n_groups + 1))
    members = [order[bounds[g]:bounds[g + 1]] for g in range(n_groups)]

    def lists_of_unique(unique):
        found = {}

        def search(block):
            refs = unique[block]
            dist = rows.distances(refs, np.empty((len(refs), n)))
            dist[np.arange(len(refs)), position[refs]] = np.inf
            found[block.start] = lists_of_rows(dist, members, k, ties,
                                               bounds)

        size = max(1, BLOCK_ENTRIES // max(n, 1))
        each(search, blocks(0, len(unique), size, n * exact.values.shape[0]))
        return Neighbours.concatenate([found[s] for s in sorted(found)], k,
                                      n_groups, ties)

    return lists_of(refs, k, n_groups, lists_of_unique, progress_callback, n)


def nearest_prototypes(train_X, train_y, squared_weights, discrete, X, k,
                       ties=TIES):
    """The k training prototypes nearest to each row of X by Qiu & He's
    (2019) eq. 1, for each set of class weights of `squared_weights` (sets
    x classes x attributes): a list of :class:`...neighbours.Neighbours`,
    one per set, a list of one group per row of X, the places of the
    prototypes at the k-th distance by the tie rule `ties`; see
    :func:`..compiled.neighbours.prototypes.nearest_prototypes`.

    d(y, x)^2 = sum_j w_{c(x), j}^2 (y_j - x_j)^2, the terms added in
    column order, each as (w^2 delta) delta, as the compiled kernel adds
    them; equal distances in training order.  Every set's distances are
    computed together (a query's differences serve them all), the queries
    in tiles (:data:`.diffs.TILE`) on the engine's threads.
    """
    n, n_sets = len(train_X), len(squared_weights)
    columns = np.ascontiguousarray(train_X.T)  # a column's prototypes together
    # weights[j][s, i]: set s's weight of column j for prototype i
    weights = np.ascontiguousarray(
        np.moveaxis(squared_weights[:, train_y], 2, 0))[:, :, None, :]
    found = {}

    def search(block):
        rows = X[block]
        total = np.zeros((n_sets, len(rows), n))
        delta, term = np.empty((len(rows), n)), np.empty_like(total)
        for j in range(X.shape[1]):
            np.subtract(rows[:, j, None], columns[j], out=delta)
            if discrete[j]:
                np.not_equal(delta, 0.0, out=delta)
            np.multiply(weights[j], delta, out=term)
            term *= delta
            total += term
        found[block.start] = [
            Neighbours.ranked(k, 1, *prototype_lists(dist, k, ties), ties)
            for dist in total]

    size = max(1, TILE // max(n * n_sets, 1))
    each(search, blocks(0, len(X), size, n * n_sets * X.shape[1]))
    return [Neighbours.concatenate([found[b][s] for b in sorted(found)], k, 1,
                                   ties)
            for s in range(n_sets)]


def prototype_lists(dist, k, ties):
    """(offsets, index, distance) of the listed prototypes of each row of
    `dist` (queries x prototypes, k at most the prototypes), by (row,
    distance, prototype)."""
    if ties == SHARE:
        row, column = smallest_tied(dist, k)
    else:
        row = np.repeat(np.arange(len(dist)), k)
        column = smallest(dist, k).ravel()
    counts = np.bincount(row, minlength=len(dist))
    return (np.concatenate([[0], np.cumsum(counts)]), column,
            dist[row, column])

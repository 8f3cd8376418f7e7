"""The k nearest instances of each group, by exact float64 distance.

A reference's distances to every instance (:class:`.diffs.Rows`) are
ranked, per group, as a stable sort would rank them (:mod:`.topk`): equal
distances keep the lower instance index first, the tie-break of the
compiled search.  A reference is never its own neighbour; a group with
fewer than k candidates gives all it has, padded with -1.  References are
taken in blocks, on the engine's threads (:mod:`.threads`), so that
memory stays O(block x n) per thread.
"""
import numpy as np

from ...errors import ReliefInputError
from ...progress import report, step_bounds
from .diffs import TILE, Rows
from .threads import each, thread_count
from .topk import smallest

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


def nearest_of_group(dist, members, k, own):
    """The indices of the (at most) k members nearest by `dist` (chunk x
    len(members)) for each row, -1 padded; `own` (chunk,) tells for each
    row whether its reference is one of the members (its own distance is
    inf, so it ranks last and is left out)."""
    nearest = members[smallest(dist, min(k, len(members)))]
    count = np.minimum(k, len(members) - own)
    nearest[np.arange(nearest.shape[1])[None, :] >= count[:, None]] = -1
    out = np.full((len(dist), k), -1, np.int64)
    out[:, :nearest.shape[1]] = nearest
    return out


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
                    client=None):
    """The k nearest instances of each group to each reference; see
    :func:`..compiled.neighbours.search.find_neighbours` (same arguments,
    same result).  There is no cluster search here: a Dask `client`'s
    calls go to the compiled engine (:func:`...estimators.prepared`)."""
    if client is not None:
        raise ReliefInputError("The vectorised engine searches here; a Dask "
                               "client's search runs on the compiled engine.")
    exact, n_groups = data.exact, data.n_groups
    n = exact.values.shape[1]
    k = min(k, n)
    rows = Rows(exact, search_weights(weights, exact.values.shape[0]))
    unique, inverse = np.unique(refs, return_inverse=True)
    members = [np.flatnonzero(data.groups == g) for g in range(n_groups)]
    out = np.empty((len(unique), n_groups, k), np.int64)

    def search(block):
        refs = unique[block]
        dist = rows.distances(refs, np.empty((len(refs), n)))
        dist[np.arange(len(refs)), refs] = np.inf
        for g in range(n_groups):
            out[block, g] = nearest_of_group(
                dist[:, members[g]], members[g], k,
                (data.groups[refs] == g).astype(np.int64))

    size = max(1, BLOCK_ENTRIES // max(n, 1))
    bounds = step_bounds(len(unique), progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        each(search, blocks(start, stop, size, n * exact.values.shape[0]))
        report(progress_callback, stop / len(unique))
    return out[inverse]


def nearest_prototypes(train_X, train_y, squared_weights, discrete, X, k):
    """The k training prototypes nearest to each row of X by Qiu & He's
    (2019) eq. 1, for each set of class weights of `squared_weights` (sets
    x classes x attributes): (sets, m, k); see
    :func:`..compiled.neighbours.prototypes.nearest_prototypes`.

    d(y, x)^2 = sum_j w_{c(x), j}^2 (y_j - x_j)^2, the terms added in
    column order, each as (w^2 delta) delta, as the compiled kernel adds
    them; ties go to the lower training index.  Every set's distances are
    computed together (a query's differences serve them all), the queries
    in tiles (:data:`.diffs.TILE`) on the engine's threads.
    """
    n, n_sets = len(train_X), len(squared_weights)
    columns = np.ascontiguousarray(train_X.T)  # a column's prototypes together
    # weights[j][s, i]: set s's weight of column j for prototype i
    weights = np.ascontiguousarray(
        np.moveaxis(squared_weights[:, train_y], 2, 0))[:, :, None, :]
    index = np.empty((n_sets, len(X), k), np.int64)

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
        index[:, block] = smallest(total.reshape(-1, n), k).reshape(
            n_sets, len(rows), k)

    size = max(1, TILE // max(n * n_sets, 1))
    each(search, blocks(0, len(X), size, n * n_sets * X.shape[1]))
    return index

"""The k nearest instances of each group, by exact float64 distance.

A reference's distances to every instance (:func:`.diffs.distances`) are
sorted, per group, by a stable sort: equal distances keep the lower
instance index first, the tie-break of the compiled search.  A reference
is never its own neighbour; a group with fewer than k candidates gives all
it has, padded with -1.  References are taken in chunks, so that memory
stays O(chunk x n).
"""
import numpy as np

from ...errors import ReliefInputError
from ...progress import report, step_bounds
from .diffs import distances

#: distances held at once: a chunk of references x every instance
CHUNK_ENTRIES = 2 ** 21


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
    inf, so it sorts last and is left out)."""
    order = np.argsort(dist, axis=1, kind="stable")[:, :k]
    nearest = members[order]
    count = np.minimum(k, len(members) - own)
    nearest[np.arange(nearest.shape[1])[None, :] >= count[:, None]] = -1
    out = np.full((len(dist), k), -1, np.int64)
    out[:, :nearest.shape[1]] = nearest
    return out


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
    weights = search_weights(weights, exact.values.shape[0])
    unique, inverse = np.unique(refs, return_inverse=True)
    members = [np.flatnonzero(data.groups == g) for g in range(n_groups)]
    out = np.empty((len(unique), n_groups, k), np.int64)
    chunk = max(1, CHUNK_ENTRIES // max(n, 1))
    bounds = step_bounds(len(unique), progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        for first in range(start, stop, chunk):
            rows = unique[first:min(first + chunk, stop)]
            dist = distances(exact, weights, rows)
            dist[np.arange(len(rows)), rows] = np.inf
            for g in range(n_groups):
                out[first:first + len(rows), g] = nearest_of_group(
                    dist[:, members[g]], members[g], k,
                    (data.groups[rows] == g).astype(np.int64))
        report(progress_callback, stop / len(unique))
    return out[inverse]


def nearest_prototypes(train_X, train_y, squared_weights, discrete, X, k):
    """The k training prototypes nearest to each row of X by Qiu & He's
    (2019) eq. 1; see :func:`..compiled.neighbours.prototypes.nearest_prototypes`.

    d(y, x)^2 = sum_j w_{c(x), j}^2 (y_j - x_j)^2, the terms added in
    column order; ties go to the lower training index.
    """
    m, n = len(X), len(train_X)
    weights = squared_weights[train_y]
    index = np.empty((m, k), np.int64)
    chunk = max(1, CHUNK_ENTRIES // max(n, 1))
    for first in range(0, m, chunk):
        rows = X[first:first + chunk]
        total = np.zeros((len(rows), n))
        for j in range(X.shape[1]):
            delta = rows[:, j, None] - train_X[None, :, j]
            if discrete[j]:
                delta = (delta != 0).astype(np.float64)
            total += weights[None, :, j] * delta * delta
        index[first:first + len(rows)] = np.argsort(
            total, axis=1, kind="stable")[:, :k]
    return index

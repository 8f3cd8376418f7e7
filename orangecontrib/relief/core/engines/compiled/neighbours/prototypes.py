"""The class-dependent kNN's search: the k training prototypes nearest to
each query by the weighted distance of Qiu & He (2019), eq. 1, which
weights a prototype's distance with the weights of its own class."""
import numba
import numpy as np
from numba import prange

from ....formulas.ties import SHARE
from ....neighbours import Neighbours
from ....formulas.ties import TIES
from .topk import offer


def nearest_prototypes(train_X, train_y, squared_weights, discrete, X, k,
                       ties=TIES):
    """The lists of the k training prototypes nearest to each row of X by
    eq. 1, for each set of weights of `squared_weights` (sets x classes x
    attributes): a :class:`.....neighbours.Neighbours` per set (one group,
    a list per row of X), the places of the prototypes at the k-th
    distance by the tie rule `ties` (with ``"share"``, every prototype as
    near as the k-th is listed)."""
    m = len(X)
    out = []
    for weights in squared_weights:
        index, dist = np.empty((m, k), np.int64), np.empty((m, k))
        nearest_of_weights(train_X, train_y, weights, discrete, X, k, index,
                           dist)
        offsets = np.arange(0, m * k + 1, k)
        if ties == SHARE:
            limit, counts = dist[:, -1].copy(), np.empty(m, np.int64)
            count_within(train_X, train_y, weights, discrete, X, limit,
                         counts)
            offsets = np.concatenate([[0], np.cumsum(counts)])
            index, dist = (np.empty(offsets[-1], np.int64),
                           np.empty(offsets[-1]))
            fill_within(train_X, train_y, weights, discrete, X, limit,
                        offsets, index, dist)
        out.append(Neighbours.ranked(k, 1, offsets, index.ravel(),
                                     dist.ravel(), ties))
    return out


@numba.njit(inline="always", cache=True)
def prototype_distance(train_X, train_y, squared_weights, discrete, X, q, i):
    """d(y, x)^2 = sum_j w_{c(x), j}^2 (y_j - x_j)^2 of query q and
    prototype i (eq. 1); a nominal column differs by 0 or 1."""
    w = squared_weights[train_y[i]]
    total = 0.0
    for j in range(X.shape[1]):
        delta = X[q, j] - train_X[i, j]
        if discrete[j]:
            delta = 1.0 if delta != 0 else 0.0
        total += w[j] * delta * delta
    return total


@numba.njit(parallel=True, cache=True)
def nearest_of_weights(train_X, train_y, squared_weights, discrete, X, k,
                       index, dist):
    """The k training prototypes nearest to each row of X by eq. 1, with
    ``squared_weights`` = w^2 (classes x attributes), nearest first, equal
    distances in training order, into `index` and `dist` (m, k; k is at
    most the number of prototypes)."""
    m, n = X.shape[0], train_X.shape[0]
    for q in prange(m):
        best_d = np.full((1, k), np.inf)
        best = np.full((1, k), n, np.int64)
        for i in range(n):
            total = prototype_distance(train_X, train_y, squared_weights,
                                       discrete, X, q, i)
            if total <= best_d[0, k - 1]:
                offer(best_d, best, 0, total, i)
        index[q] = best[0]
        dist[q] = best_d[0]


@numba.njit(parallel=True, cache=True)
def count_within(train_X, train_y, squared_weights, discrete, X, limit,
                 counts):
    """counts[q]: the prototypes at most limit[q] from query q."""
    for q in prange(X.shape[0]):
        counts[q] = 0
        for i in range(train_X.shape[0]):
            counts[q] += prototype_distance(train_X, train_y, squared_weights,
                                            discrete, X, q, i) <= limit[q]


@numba.njit(parallel=True, cache=True)
def fill_within(train_X, train_y, squared_weights, discrete, X, limit,
                offsets, index, dist):
    """The prototypes at most limit[q] from each query q (those
    :func:`count_within` counted), by (distance, prototype), into entries
    offsets[q] .. offsets[q + 1] - 1 of `index` and `dist`."""
    for q in prange(X.shape[0]):
        start, stop = offsets[q], offsets[q + 1]
        found = np.empty(stop - start, np.int64)
        near = np.empty(stop - start)
        count = 0
        for i in range(train_X.shape[0]):
            total = prototype_distance(train_X, train_y, squared_weights,
                                       discrete, X, q, i)
            if total <= limit[q]:
                found[count], near[count] = i, total
                count += 1
        order = np.argsort(near, kind="mergesort")  # stable: by prototype
        index[start:stop] = found[order]
        dist[start:stop] = near[order]

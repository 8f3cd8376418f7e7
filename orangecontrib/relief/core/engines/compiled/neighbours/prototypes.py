"""The class-dependent kNN's search: the k training prototypes nearest to
each query by the weighted distance of Qiu & He (2019), eq. 1, which
weights a prototype's distance with the weights of its own class."""
import numba
import numpy as np
from numba import prange

from .topk import offer


def nearest_prototypes(train_X, train_y, squared_weights, discrete, X, k):
    """:func:`nearest_of_weights` for each set of weights of
    `squared_weights` (sets x classes x attributes): (sets, m, k)."""
    return np.stack([nearest_of_weights(train_X, train_y, weights, discrete,
                                        X, k)
                     for weights in squared_weights])


@numba.njit(parallel=True, cache=True)
def nearest_of_weights(train_X, train_y, squared_weights, discrete, X, k):
    """The k training prototypes nearest to each row of X by eq. 1.

    d(y, x)^2 = sum_j w_{c(x), j}^2 (y_j - x_j)^2 with ``squared_weights``
    = w^2 (classes x attributes); a nominal column differs by 0 or 1.  Ties
    of distance go to the lower training index.  Returns int64 (m, k),
    nearest first (k is at most the number of prototypes).
    """
    m, n = X.shape[0], train_X.shape[0]
    index = np.empty((m, k), np.int64)
    for q in prange(m):
        dist = np.full((1, k), np.inf)
        best = np.full((1, k), n, np.int64)
        for i in range(n):
            w = squared_weights[train_y[i]]
            total = 0.0
            for j in range(X.shape[1]):
                delta = X[q, j] - train_X[i, j]
                if discrete[j]:
                    delta = 1.0 if delta != 0 else 0.0
                total += w[j] * delta * delta
            if total <= dist[0, k - 1]:
                offer(dist, best, 0, total, i)
        index[q] = best[0]
    return index

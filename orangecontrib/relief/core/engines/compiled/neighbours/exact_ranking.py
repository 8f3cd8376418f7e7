"""Exact re-ranking: the float32 lists ranked as float64 arithmetic would.

The search ranks candidates in float32, which doubles the SIMD width, and
keeps k + EXTRA of them.  A proven bound on the float32 error
(:func:`float32_error_bound`) decides: a list whose consecutive distances
differ by more than twice the bound is in exact order already (almost
every list of continuous data); the others are ranked again by their
float64 distance, and the bound tells whether an instance outside the list
could still belong in it (a near tie), in which case that list is rebuilt
from exact distances.  The result is that of float64 arithmetic, ties
going to the lower instance index.
"""
import numba
import numpy as np
from numba import prange

from ..diffs import (any_missing, attribute_diff, every_attribute_slotted,
                     linear_diff, slotted_linear_diff)
from ....tables import LINEAR, RAMP, SQUARED
from .block import BLOCK, ROWS
from .distances import column_sums, distance_rows
from .topk import offer


@numba.njit(cache=True)  # compiled once for its several callers
def exact_distance(exact, weights, i, j):
    """sum_A w_A diff(A, I_i, I_j) in float64, in column order (eq. 3.1).

    The re-ranking passes the float32 weights the search used, widened;
    CDRELIEF's pooling and Euclidean distances pass float64 weights."""
    d = 0.0
    if not any_missing(exact) and exact.kind == LINEAR:  # the common case
        for a in range(exact.values.shape[0]):
            d += weights[a] * linear_diff(exact.values[a, i], exact.values[a, j],
                                          exact.nominal[a])
        return d
    if exact.kind == LINEAR and every_attribute_slotted(exact):
        gi, gj = exact.groups[i], exact.groups[j]
        for a in range(exact.values.shape[0]):
            d += weights[a] * slotted_linear_diff(exact, a, i, j, gi, gj)
        return d
    for a in range(exact.values.shape[0]):
        if weights[a] != 0:
            d += weights[a] * attribute_diff(exact, a, i, j)
    return d


@numba.njit(cache=True)  # rarely run: compiled once, not inlined
def float32_row(search, weights32, i, row, out, rows):
    """row[j] = the float32 search distance of search positions i and j."""
    n = search.values.shape[1]
    rows[:] = i
    sums = np.empty(BLOCK, out.dtype)
    for j0 in range(0, n, BLOCK):
        width = min(j0 + BLOCK, n) - j0
        column_sums(search, weights32, j0, width, sums)
        distance_rows(search, weights32, rows, j0, width, out, sums, True)
        row[j0:j0 + width] = out[0, :width]


@numba.njit(cache=True)  # rarely run: compiled once, not inlined
def rescan_exactly(exact, weights, i, g, row, order, dist, index, delta):
    """Rebuild reference i's list of group g with exact distances.

    ``row[p]`` is the float32 distance to instance ``order[p]`` (the search
    order).  The true k nearest are at most dist[0, -1] (the exact k-th
    distance of some k candidates) away, so their float32 distance is at
    most delta more: only those candidates need their exact distance.
    """
    n = exact.values.shape[1]
    limit = dist[0, dist.shape[1] - 1] + delta
    dist[:] = np.inf
    index[:] = n
    for p in range(n):
        j = order[p]
        if row[p] <= limit and j != i and exact.groups[j] == g:
            offer(dist, index, 0, exact_distance(exact, weights, i, j), j)


@numba.njit(inline="always", cache=True)
def float32_order_is_exact(dist, found, k, delta):
    """True when a float32 top list provably ranks as exact arithmetic.

    Each float32 distance is within `delta` of the exact one, so when
    consecutive distances up to the (k + 1)-th differ by more than
    2 delta, the exact order of the first k is the same and everything
    beyond them is farther.  With delta == 0 the float32 distances are
    exact, and the search already broke their ties by index.
    """
    if delta == 0:
        return True
    for s in range(min(k, found - 1)):
        if np.float64(dist[s + 1]) - np.float64(dist[s]) <= 2 * delta:
            return False
    return True


@numba.njit(cache=True)
def rerank_reference(search, exact, weights32, weights, i, candidates,
                     cand_dist, delta, order, position, out):
    """Instance i's k nearest of each group by exact distance, from its
    float32 lists.

    ``candidates[g]`` are i's K nearest instances of group g by float32
    distance ``cand_dist[g]`` (K > k, the search's EXTRA), `weights` the
    float64 copy of the search's `weights32`; ``out[g]`` receives the k
    nearest, -1 where the group ran out.  A list whose float32 order is
    provably exact (:func:`float32_order_is_exact`, almost every list of
    continuous data) is kept; the others are ranked again by exact
    (distance, index) in float64.  The float32 distance of any pair is
    within `delta` of the exact one, so an instance outside the list is at
    least ``cand_dist[g, K - 1] - delta`` away: when that is above the
    exact k-th distance the list is provably right; otherwise (a near tie
    beyond the K candidates) the group is scanned again
    (:func:`rescan_exactly`) over i's float32 row of distances.
    Everything here is in instance numbers, except the float32 row, which
    is in the search tables' `order` (instance order[p] at position p;
    `position` is its inverse).
    """
    n = exact.values.shape[1]
    n_groups, k = out.shape
    last = candidates.shape[1] - 1
    dist = np.empty((1, k))
    index = np.empty((1, k), dtype=np.int64)
    row = np.empty(0, dtype=search.values.dtype)
    for g in range(n_groups):
        found = 0
        while found <= last and candidates[g, found] < n:
            found += 1
        if float32_order_is_exact(cand_dist[g], found, k, delta):
            for s in range(k):
                out[g, s] = candidates[g, s] if s < found else -1
            continue
        dist[:] = np.inf
        index[:] = n
        for s in range(found):
            j = candidates[g, s]
            offer(dist, index, 0, exact_distance(exact, weights, i, j), j)
        if found == last + 1 and cand_dist[g, last] - delta <= dist[0, k - 1]:
            if len(row) == 0:
                row = np.empty(n, dtype=search.values.dtype)
                float32_row(search, weights32, position[i], row,
                            np.empty((ROWS, BLOCK), dtype=row.dtype),
                            np.empty(ROWS, dtype=np.int64))
            rescan_exactly(exact, weights, i, g, row, order, dist, index,
                           delta)
        for s in range(k):
            out[g, s] = index[0, s] if index[0, s] < n else -1


@numba.njit(parallel=True, cache=True)
def rerank_exactly(search, exact, weights32, refs, candidates, cand_dist,
                   delta, order, position, out):
    """:func:`rerank_reference` for each reference: ``candidates[r]``,
    ``cand_dist[r]`` are refs[r]'s float32 lists, ``out[r]`` its result."""
    weights = weights32.astype(np.float64)
    for r in prange(len(refs)):
        rerank_reference(search, exact, weights32, weights, refs[r],
                         candidates[r], cand_dist[r], delta, order, position,
                         out[r])


@numba.njit(cache=True)
def float32_error_bound(tables, weights):
    """A bound on |float32 distance - exact distance| of any pair.

    Each term w_A diff(A) carries the rounding of the two values, their
    difference, the transform (scaled by its slope L), the weight and the
    product, at most |w_A| (3L + 4) u with u = 2^-24.  Every partial sum
    is a sum of terms w_A d_A with |d_A| <= 1, so each addition adds at
    most u * sum(|w|): one per attribute, and with missing values one per
    correction too (distance_rows, column_corrections): one per value the
    pair misses, at most twice the most any instance misses, and one for
    a tile's corrections.  A linear diff is summed as x + v - 2 min(x, v)
    (add_linear): the scaled values lie in [0, 1], so the three sums, of
    w_A x_A, w_A v_A and w_A min(x_A, v_A), are sums of such terms too,
    with one addition per attribute each (the last one's counted twice,
    for its doubling), and their rounded products (3 u |w_A|, the doubled
    one 4) stay within the 7 u |w_A| of the term above; the two last
    operations act on values below 2 sum(|w|): 4 additions more.  A
    RELIEF-D correction's own term (the table entry rounded to float32,
    the diff against 0 it replaces, their difference, the product) adds at
    most |w_A| (L + 4) u, once per attribute.  A ramp with t_eq == t_diff
    is a step (unbounded slope): every list is then checked in float64.
    Nominal attributes without missing values and integer weights give
    integer distances, exact in float32 (bound 0).
    """
    total, integral = 0.0, True
    for w in weights:
        total += abs(np.float64(w))
        integral &= np.floor(w) == w
    if (integral and total < 2 ** 24 and tables.known.shape[0] == 0
            and tables.nominal.all()):
        return 0.0
    u = 2.0 ** -24
    slope = 2.0 if tables.kind == SQUARED else 1.0
    if tables.kind == RAMP:
        width = np.float64(tables.t_diff) - np.float64(tables.t_eq)
        slope = np.inf if width <= 0 else max(1.0, 1.0 / width)
    additions, terms = len(weights), 3 * slope + 4
    if tables.kind == LINEAR:  # add_linear's three sums
        additions = 4 * len(weights) + 4
    if tables.known.shape[0]:
        most_missed = np.diff(tables.gap_start).max()
        additions += 2 * most_missed + 1
        terms += slope + 4
    return 1.01 * u * total * (terms + additions) + 1e-12 * total

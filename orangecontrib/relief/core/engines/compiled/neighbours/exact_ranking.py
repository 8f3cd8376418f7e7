"""Exact ranking: the float32 lists ranked as float64 arithmetic would.

The search ranks candidates in float32, which doubles the SIMD width, and
keeps K > k of them (:data:`.search.EXTRA` more).  A proven bound delta
on the float32 error (:func:`ranking_bound`) decides how a list is
ranked (:func:`rank_list`):

* with delta = 0 (integer weights over nominal attributes or values on a
  grid of halves, quarters, ..., such as genotypes, without missing
  values: :func:`exact_in_float32`) the float32 distances are exact: the
  list is read off them;
* a list whose consecutive distances differ by more than 2 delta up to
  the (k + 1)-th is in exact order, with no tie among them (almost every
  list of continuous data): its first k are the list;
* otherwise the candidates are ranked again by their float64 distance;
* for a caller that reads no distance, whatever the list, only its near
  ties are ranked by their float64 distances (:func:`rank_near_ties`),
  the other entries' distances left NaN.

A list holds what the tie rule lists (:func:`...formulas.ties.listed`):
the k nearest and, with ``ties="share"``, every candidate as near as the
k-th.  An instance outside the K candidates is at least ``cand_dist[K -
1] - delta`` away; where that could be as near as the list's last entry
(a tie or a near tie beyond the candidates), the list is not proven, and
its reference is searched again with more candidates
(:func:`.search.ranked_lists`).  The result is that of float64
arithmetic, equal distances in instance order.
"""
from collections import namedtuple

import numba
import numpy as np
from numba import prange

from ..diffs import (any_missing, attribute_diff, every_attribute_slotted,
                     linear_diff, slotted_linear_diff)
from ....formulas.ties import listed
from ..threads import serial_and_parallel
from ....tables import LINEAR, RAMP, SQUARED
from .topk import offer

listed = numba.njit(cache=True)(listed)


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


#: candidates whose exact distances :func:`exact_distances` sums side by side
LANES = 4


@numba.njit(inline="always", cache=True)
def exact_distances(exact, weights, i, cand, count, out):
    """out[s] = :func:`exact_distance` of I_i and I_cand[s], s < count.

    Each sum runs over the attributes in column order, as
    :func:`exact_distance` adds it (the same floats); without missing
    values and with the linear diff, :data:`LANES` candidates' sums run
    side by side, so that each addition no longer waits for the one
    before (a float64 sum in a fixed order does not vectorise, and one
    chain of additions took a quarter of a search's time on 2000 x
    100); the last group is filled up with its last candidate, whose
    sums the filling lanes repeat, rather than summing its few alone.
    Inlined: called per list, it took :func:`rank_lists` 1.0 ms rather
    than 0.86-0.92 to rank the 2,000 lists of 1000 x 50 (k = 10, one
    thread; :func:`rank_list` inlined as well saved 0.05 ms more, for 3.5
    s more of compilation in dReliefF's kernel that calls it too)."""
    if not any_missing(exact) and exact.kind == LINEAR:
        values, nominal, last = exact.values, exact.nominal, count - 1
        for s in range(0, count, LANES):
            j0, j1 = cand[s], cand[min(s + 1, last)]
            j2, j3 = cand[min(s + 2, last)], cand[min(s + 3, last)]
            d0 = d1 = d2 = d3 = 0.0
            for a in range(values.shape[0]):
                x, w, nom = values[a, i], weights[a], nominal[a]
                d0 += w * linear_diff(x, values[a, j0], nom)
                d1 += w * linear_diff(x, values[a, j1], nom)
                d2 += w * linear_diff(x, values[a, j2], nom)
                d3 += w * linear_diff(x, values[a, j3], nom)
            out[s] = d0
            if s + 1 < count:  # the filling lanes' sums are dropped
                out[s + 1] = d1
            if s + 2 < count:
                out[s + 2] = d2
            if s + 3 < count:
                out[s + 3] = d3
        return
    for t in range(count):
        out[t] = exact_distance(exact, weights, i, cand[t])


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


#: How :func:`rank_list` ranks a list: the `k` nearest, `delta` the
#: bound on a float32 distance's error (:func:`float32_error_bound`), the
#: candidates at the k-th distance sharing its places when `shared`, every
#: listed candidate's exact distance computed when `distances` (else only
#: those of near ties, the others NaN: a caller that reads none of them)
Ranking = namedtuple("Ranking", ["k", "delta", "shared", "distances"])

#: What :func:`rank_lists` fills, per reference r and group g: the
#: list's instances index[r, g] and exact distances dist[r, g], its
#: length count[r, g] (-1: not proven)
Ranked = namedtuple("Ranked", ["index", "dist", "count"])


@numba.njit(cache=True)
def rank_list(exact, weights, i, cand, cand_dist, k, delta, shared,
              distances, index, dist):
    """Instance i's list of one group from its float32 candidates.

    ``cand`` are i's K nearest instances of the group by float32
    distance ``cand_dist`` (instance n: an empty slot), `weights` the
    float64 copy of the search's float32 weights.  The list (:mod:`the
    module docstring <.exact_ranking>`) goes to ``index``, ``dist`` (K
    each: the instances and their exact distances, by (distance,
    index)); returns its length, or -1 where the candidates do not prove
    it (an instance beyond them may be as near as its last entry).
    Without `distances`, only its near ties are ranked by their exact
    distances, the other entries taking NaN (:func:`rank_near_ties`):
    ReliefF's rule reads the instances and their places alone, and the
    exact distances of its lists took a sixth of a call at 2000 x 100
    (2.5 of 15.9 ms on the two cores of an AMD EPYC, Zen 4).
    """
    last = len(cand) - 1
    found = 0
    while found <= last and cand[found] < exact.values.shape[1]:
        found += 1
    if delta == 0:  # exact float32 distances, ordered by (distance, index)
        for s in range(found):
            index[s], dist[s] = cand[s], cand_dist[s]
    elif not distances:
        return rank_near_ties(exact, weights, i, cand, cand_dist, found, k,
                              delta, shared, index, dist)
    elif float32_order_is_exact(cand_dist, found, k, delta):
        count = min(k, found)
        for s in range(count):  # element by element (:mod:`..` says why)
            index[s] = cand[s]
        exact_distances(exact, weights, i, cand, count, dist)
        return count
    else:
        rank_exactly(exact, weights, i, cand, 0, found, index, dist)
    count = listed(dist, found, k, shared)
    if found == last + 1 and count > 0 \
            and cand_dist[last] - delta <= dist[count - 1]:
        return -1
    return count


@numba.njit(inline="always", cache=True)
def rank_exactly(exact, weights, i, cand, start, stop, index, dist):
    """index[start:stop], dist[start:stop] = the candidates
    cand[start:stop] by their exact (distance, index) from instance i,
    and those distances."""
    exact_dist = np.empty(stop - start)
    exact_distances(exact, weights, i, cand[start:stop], stop - start,
                    exact_dist)
    run_dist = dist[start:stop].reshape(1, -1)
    run_index = index[start:stop].reshape(1, -1)
    run_dist[:] = np.inf
    run_index[:] = exact.values.shape[1]
    for s in range(stop - start):
        offer(run_dist, run_index, 0, exact_dist[s], cand[start + s])


@numba.njit(inline="always", cache=True)
def rank_near_ties(exact, weights, i, cand, cand_dist, found, k, delta,
                   shared, index, dist):
    """:func:`rank_list` for a caller that reads no distance: only the
    near ties are ranked by their exact distances.

    Where two consecutive float32 distances differ by more than 2 delta,
    every exact distance before the gap is below every one after it, so
    the gaps cut the candidates into runs whose order is exact.  A run of
    one keeps its place, with a NaN distance (no other candidate is as
    near); a run of several (near ties) is ranked by exact (distance,
    index), which also finds the ties (:func:`rank_exactly`).  Runs are
    ranked until the one that holds the k-th place; the list is proven
    unless that run reaches the last of K candidates (an instance beyond
    them may be as near).  A list that :func:`float32_order_is_exact`
    proves is k runs of one.  The instances and places are those of the
    ranking of every candidate."""
    start, end = 0, 0
    while start < min(k, found):  # the runs up to the k-th place's
        end = start + 1
        while end < found and (np.float64(cand_dist[end])
                               - np.float64(cand_dist[end - 1]) <= 2 * delta):
            end += 1
        if end - start == 1:
            index[start], dist[start] = cand[start], np.nan
        else:
            rank_exactly(exact, weights, i, cand, start, end, index, dist)
        start = end
    if found == len(cand) and end == found and found > 0:
        return -1
    return listed(dist, end, k, shared)


def rank_lists(exact, weights32, refs, candidates, cand_dist, ranking,
               ranked):
    """:func:`rank_list` of every group of each reference by the
    :class:`Ranking` `ranking`: ``candidates[r, g]``, ``cand_dist[r, g]``
    are refs[r]'s float32 list of group g, and row [r, g] of the
    :class:`Ranked` `ranked` its result."""
    k, delta, shared, distances = ranking
    index, dist, count = ranked
    weights = weights32.astype(np.float64)
    for r in prange(len(refs)):
        for g in range(candidates.shape[1]):
            count[r, g] = rank_list(exact, weights, refs[r], candidates[r, g],
                                    cand_dist[r, g], k, delta, shared,
                                    distances, index[r, g], dist[r, g])


RANK_LISTS = serial_and_parallel(rank_lists)


@numba.njit(cache=True)
def grid_scale(values, nominal):
    """The least power of two 2^s (at most 2^23) such that every value of
    the numeric attributes (rows of `values`, float64) is a multiple of
    1 / 2^s, or inf where there is none: 2 for genotypes coded 0, 1, 2
    (scaled to 0, 1/2, 1), 1 for binary columns; a measured quantity
    almost never has one, and its first value ends the scan.  A property
    of the data, taken once per call of the search."""
    scale = 1.0
    for a in range(values.shape[0]):
        if nominal[a]:
            continue
        for i in range(values.shape[1]):
            v = values[a, i] * scale
            while v != np.floor(v):  # doubling is exact
                scale *= 2.0
                if scale > 2.0 ** 23:
                    return np.inf
                v *= 2.0
    return scale


@numba.njit(cache=True)
def ranking_bound(tables, weights, scale):
    """The bound on a float32 distance's error that :func:`rank_list`
    ranks by: 0 where the search `tables` hold the exact distances
    (:func:`exact_in_float32`; `scale` the exact values' :func:`grid_scale`),
    else :func:`float32_error_bound`."""
    if exact_in_float32(tables, weights, scale):
        return 0.0
    return float32_error_bound(tables, weights)


@numba.njit(cache=True)
def exact_in_float32(tables, weights, scale):
    """Whether every float32 distance of the search `tables` under the
    `weights` is the exact one.  Without missing values and with integer
    weights, nominal attributes alone give integer distances, exact below
    2^24.  So do numeric values on a grid of 1 / 2^s with the linear diff
    (`scale` = 2^s, the exact values' :func:`grid_scale`) where
    2^s * 2 sum(|w|) stays within 2^24: every term, partial sum and value
    of add_linear is then a multiple of 1 / 2^s below 2^24 / 2^s, held
    exactly, and the float64 values are the float32 ones.  Genotypes then
    have their lists read off the search rather than ranked again
    (ReliefF on 1000 SNPs coded 0, 1, 2 x 2000 instances, 2-core AMD EPYC:
    97-100 ms rather than 114-116)."""
    total, integral = 0.0, True
    for w in weights:
        total += abs(np.float64(w))
        integral &= np.floor(w) == w
    if not integral or tables.known.shape[0] > 0:
        return False
    if total == 0 or tables.nominal.all():
        return total < 2 ** 24
    return tables.kind == LINEAR and scale * total <= 2.0 ** 23


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
    """
    total = 0.0
    for w in weights:
        total += abs(np.float64(w))
    u = 2.0 ** -24
    slope = 2.0 if tables.kind == SQUARED else 1.0
    if tables.kind == RAMP:
        width = np.float64(tables.t_diff) - np.float64(tables.t_eq)
        slope = np.inf if width <= 0 else max(1.0, 1.0 / width)
    additions, terms = len(weights), 3 * slope + 4
    if tables.kind == LINEAR:  # add_linear's three sums
        additions = 4 * len(weights) + 4
    if tables.known.shape[0]:
        most_missed = 0
        for p in range(len(tables.gap_start) - 1):
            most_missed = max(most_missed,
                              tables.gap_start[p + 1] - tables.gap_start[p])
        additions += 2 * most_missed + 1
        terms += slope + 4
    return 1.01 * u * total * (terms + additions) + 1e-12 * total

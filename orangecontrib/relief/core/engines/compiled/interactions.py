"""The interaction map's compiled kernels (:mod:`...networks.interactions`): the
sums of every attribute's diffs over the neighbour pairs, and each
reference's share z_i of the map over the chosen attributes, neither
writing the pairs' diffs out.

Both split their work into blocks fixed by the size of the data alone
(never by the number of threads), each block summed into its own partial
sums in order and the blocks added in order, so that the results are the
same to the bit with any number of threads.

Where the chosen attributes' diffs are 0 or 1 (nominal, no value missing)
and a reference's pairs take few distinct multipliers (the SURF family's
near sets: one per class), a reference's products are counts: each
attribute's diffs on the pairs of one multiplier are the bits of a few
words, and the number of pairs where A and B both differ is the popcount
of their and.  The centred products follow from the counts,

    sum_p c_p (d_p(A) - m_A) (d_p(B) - m_B)
        = C_AB - m_B C_AA - m_A C_BB + w m_A m_B,

C_AB the counts of the pairs where both differ weighted by their
multipliers c, summed over the multipliers, and w the sum of the c.
Elsewhere each pair's centred, weighted diffs are multiplied out.
"""
from collections import namedtuple

import numba
import numpy as np
from numba import prange

from ...tables import LINEAR
from .diffs import attribute_diff, for_kernels, linear_diff
from .neighbours.wide import popcount

#: references per block of :func:`pair_sums` and :func:`map_sums`
REFERENCE_BLOCK = 16
#: the partial sums held at once (float64 cells), which caps the blocks
CELLS = 2 ** 22
#: a reference's pairs of more distinct multipliers are multiplied out
MOST_GROUPS = 8

#: The neighbour pairs, a reference's in a run: pair p joins reference
#: first[p] and second[p], its multipliers u_p = miss[p] (as a miss) and
#: v_p = hit[p] (as a hit)
MultipliedPairs = namedtuple("MultipliedPairs", ["first", "second", "miss",
                                                 "hit"])

#: A reference's pairs grouped by their multipliers
#: (:func:`multiplier_groups`): keys[g] the (u, v) of group g, sizes[g]
#: its pairs; member[q] and place[q] the group of the reference's pair q
#: and its place in it
MultiplierGroups = namedtuple("MultiplierGroups", ["keys", "member", "place",
                                                   "sizes"])

#: The buffers of :func:`counted_products`: bits (a run of words per
#: multiplier group, a column per attribute), both[t, s] the pairs where
#: A_t and A_s both differ, counted[side] the counts weighted by the
#: multipliers of the misses (0) and the hits (1)
ProductCounts = namedtuple("ProductCounts", ["bits", "both", "counted"])


def n_blocks(count, size, width):
    """Blocks of about `size` items of `count`, fewer where their partial
    sums (`width` cells each) would take more than :data:`CELLS`."""
    return max(1, min(-(-count // size), CELLS // max(width, 1)))


def pair_sums(tables, first, second, miss, hit):
    """The compiled engine's :meth:`..interface.Engine.pair_sums`: blocks
    of consecutive references in parallel (:func:`pair_sum_blocks`), d u
    and d v summed and the weights taken as their difference."""
    tables = for_kernels(tables)
    rows = np.ascontiguousarray(tables.values.T)
    starts = reference_starts(first)
    count = n_blocks(len(starts) - 1, REFERENCE_BLOCK, 3 * rows.shape[1])
    sums = pair_sum_blocks(tables, rows, MultipliedPairs(first, second, miss,
                                                         hit), starts, count)
    return np.vstack([sums[0] - sums[1], sums])


def reference_starts(first):
    """Where each reference's run of pairs starts, and the end."""
    if len(first) == 0:
        return np.zeros(1, np.int64)
    return np.flatnonzero(np.r_[True, first[1:] != first[:-1], True])


@numba.njit(parallel=True, cache=True)
def pair_sum_blocks(tables, rows, pairs, starts, count):
    """The sums of d u, d v and d of :func:`pair_sums` over the
    :class:`MultipliedPairs` in `count` blocks of consecutive references
    (reference r's pairs from starts[r] on); `rows` the values instance
    by instance, for diffs taken along a pair.  A reference's diffs are
    summed per group of equal multipliers, then weighted once (or, of
    more than :data:`MOST_GROUPS`, weighted pair by pair)."""
    first, second, miss, hit = pairs
    n_attributes = tables.values.shape[0]
    n_references = len(starts) - 1
    size = -(-n_references // count)
    plain = tables.kind == LINEAR and tables.relief_d.shape[2] == 0
    most = 1
    for r in range(n_references):
        most = max(most, starts[r + 1] - starts[r])
    partial = np.zeros((count, 3, n_attributes))
    for b in prange(count):
        out = partial[b]
        d = np.empty(n_attributes)
        grouped = np.empty((MOST_GROUPS, n_attributes))
        multipliers = multiplier_buffers(most)
        keys, member = multipliers.keys, multipliers.member
        for r in range(b * size, min(n_references, (b + 1) * size)):
            start, stop = starts[r], starts[r + 1]
            groups = multiplier_groups(pairs, start, stop, multipliers)
            grouped[:] = 0.0
            for p in range(start, stop):
                i, j = first[p], second[p]
                if plain:
                    for a in range(n_attributes):
                        d[a] = linear_diff(rows[i, a], rows[j, a],
                                           tables.nominal[a])
                else:
                    for a in range(n_attributes):
                        d[a] = attribute_diff(tables, a, i, j)
                if groups > 0:
                    summed = grouped[member[p - start]]
                    for a in range(n_attributes):
                        summed[a] += d[a]
                    continue
                u, v = miss[p], hit[p]
                for a in range(n_attributes):
                    out[0, a] += d[a] * u
                    out[1, a] += d[a] * v
                    out[2, a] += d[a]
            for g in range(max(groups, 0)):
                u, v = keys[g, 0], keys[g, 1]
                for a in range(n_attributes):
                    out[0, a] += grouped[g, a] * u
                    out[1, a] += grouped[g, a] * v
                    out[2, a] += grouped[g, a]
    total = np.zeros((3, n_attributes))
    for b in range(count):
        total += partial[b]
    return total


def map_sums(tables, first, second, miss, hit, attributes, mean, squares):
    """The compiled engine's :meth:`..interface.Engine.map_sums`: blocks of
    consecutive references in parallel (:func:`map_blocks`); where every
    attribute is nominal and known, a reference's pairs of equal
    multipliers are counted by popcount instead of pair by pair."""
    tables = for_kernels(tables)
    attributes = np.asarray(attributes, np.int64)
    starts = reference_starts(first)
    codes = np.ascontiguousarray(tables.values[attributes].T)
    binary = bool(tables.nominal[attributes].all()
                  and not np.isnan(codes).any())
    k = len(attributes)
    count = n_blocks(len(starts) - 1, REFERENCE_BLOCK, 2 * k * k)
    return map_blocks(tables, codes, MultipliedPairs(first, second, miss, hit),
                      attributes, np.ascontiguousarray(mean, np.float64),
                      starts, squares, binary, count)


@numba.njit(parallel=True, cache=True)
def map_blocks(tables, codes, pairs, attributes, mean, starts, squares,
               binary, count):
    """:func:`map_sums` over the :class:`MultipliedPairs` in `count`
    blocks of consecutive references (reference r's pairs from starts[r]
    on)."""
    k = len(attributes)
    n_references = len(starts) - 1
    size = -(-n_references // count)
    most = 1
    for r in range(n_references):
        most = max(most, starts[r + 1] - starts[r])
    delta = np.zeros((count, k, k))
    square = np.zeros((count, k, k))
    for b in prange(count):
        z = np.zeros((k, k))
        miss_rows, hit_rows = np.empty((most, k)), np.empty((most, k))
        multipliers = multiplier_buffers(most)
        counts = ProductCounts(
            np.empty((most // 64 + MOST_GROUPS + 1, k), np.uint64),
            np.empty((k, k), np.uint64), np.empty((2, k, k)))
        for r in range(b * size, min(n_references, (b + 1) * size)):
            start, stop = starts[r], starts[r + 1]
            groups = (multiplier_groups(pairs, start, stop, multipliers)
                      if binary else -1)
            z[:] = 0.0
            if groups > 0:
                counted_products(z, codes, pairs, start, stop, mean,
                                 multipliers, groups, counts)
            else:
                multiplied_products(z, tables, attributes, pairs, start,
                                    stop, mean, miss_rows, hit_rows)
            for t in range(k):
                for s in range(t, k):
                    delta[b, t, s] += z[t, s]
                    if squares:
                        square[b, t, s] += z[t, s] * z[t, s]
    return symmetric_total(delta), symmetric_total(square)


@numba.njit(cache=True)
def symmetric_total(partial):
    """The blocks' upper triangles added in order, mirrored."""
    total = np.zeros(partial.shape[1:])
    for b in range(partial.shape[0]):
        total += partial[b]
    for t in range(total.shape[0]):
        for s in range(t + 1, total.shape[0]):
            total[s, t] = total[t, s]
    return total


@numba.njit(cache=True)
def multiplier_buffers(most):
    """:class:`MultiplierGroups` of a reference of at most `most` pairs."""
    return MultiplierGroups(np.empty((MOST_GROUPS, 2)),
                            np.empty(most, np.int64),
                            np.empty(most, np.int64),
                            np.empty(MOST_GROUPS, np.int64))


@numba.njit(cache=True)
def multiplier_groups(pairs, start, stop, multipliers):
    """The distinct (u, v) of the :class:`MultipliedPairs` start..stop into
    the :class:`MultiplierGroups` `multipliers`: its keys, each pair's
    group (`member`) and place in it, the groups' `sizes`; their number,
    or -1 where there are more than :data:`MOST_GROUPS`."""
    miss, hit = pairs.miss, pairs.hit
    keys, member, place, sizes = multipliers
    n = 0
    for p in range(start, stop):
        g = 0
        while g < n and not (keys[g, 0] == miss[p] and keys[g, 1] == hit[p]):
            g += 1
        if g == n:
            if n == MOST_GROUPS:
                return -1
            keys[n, 0], keys[n, 1] = miss[p], hit[p]
            sizes[n] = 0
            n += 1
        member[p - start] = g
        place[p - start] = sizes[g]
        sizes[g] += 1
    return n


@numba.njit(cache=True)
def counted_products(z, codes, pairs, start, stop, mean, multipliers, groups,
                     counts):
    """z += the centred products of the reference of the
    :class:`MultipliedPairs` start..stop from counts (the module's
    docstring), its `groups` multiplier groups those of the
    :class:`MultiplierGroups` `multipliers`: its pairs' 0/1 diffs as
    bits, a run of words per group of equal multipliers, the popcounts
    of their ands weighted by the group's multiplier and summed over the
    groups of each side (misses, hits), then centred, in the
    :class:`ProductCounts` `counts`."""
    reference, second = pairs.first[start], pairs.second
    keys, member, place, sizes = multipliers
    bits, both, counted = counts
    k = codes.shape[1]
    ends = np.zeros(groups + 1, np.int64)
    for g in range(groups):
        ends[g + 1] = ends[g] + (sizes[g] + 63) // 64
    bits[:ends[groups]] = 0
    own = codes[reference]
    for p in range(start, stop):
        other = codes[second[p]]
        at = place[p - start]
        row = bits[ends[member[p - start]] + at // 64]
        shift = np.uint64(at % 64)
        for t in range(k):
            row[t] |= np.uint64(own[t] != other[t]) << shift
    counted[:] = 0.0
    total = np.zeros(2)
    for g in range(groups):
        both[:] = 0
        for w in range(ends[g], ends[g + 1]):
            row = bits[w]
            for t in range(k):
                for s in range(t, k):
                    both[t, s] += popcount(row[t] & row[s])
        for side in range(2):
            c = keys[g, side]
            if c > 0:
                total[side] += c * sizes[g]
                add_weighted(counted[side], both, c)
    add_centred(z, counted[0], total[0], mean[0], 1.0)
    add_centred(z, counted[1], total[1], mean[1], -1.0)


@numba.njit(cache=True)
def add_weighted(counted, both, c):
    """counted[t, s] += c N_ts (s >= t)."""
    for t in range(counted.shape[0]):
        for s in range(t, counted.shape[0]):
            counted[t, s] += c * float(both[t, s])


@numba.njit(cache=True)
def add_centred(z, counted, total, m, sign):
    """z[t, s] += sign (C_ts - m_s C_tt - m_t C_ss + total m_t m_s), C
    the counts weighted by the multipliers, `total` the multipliers'
    sum: the centred products of 0/1 diffs."""
    for t in range(z.shape[0]):
        for s in range(t, z.shape[0]):
            z[t, s] += sign * (counted[t, s] - m[s] * counted[t, t]
                               - m[t] * counted[s, s] + total * m[t] * m[s])


@numba.njit(cache=True)
def multiplied_products(z, tables, attributes, pairs, start, stop, mean,
                        miss_rows, hit_rows):
    """z += the centred products of the reference of the
    :class:`MultipliedPairs` start..stop multiplied out: each pair's
    diffs less the mean, times the square root of its multiplier, as a
    row of the misses (u > 0) or of the hits (v > 0)."""
    first, second, miss, hit = pairs
    k = len(attributes)
    misses = hits = 0
    for p in range(start, stop):
        for c, m, rows, at in ((miss[p], mean[0], miss_rows, misses),
                               (hit[p], mean[1], hit_rows, hits)):
            if c > 0:
                root = np.sqrt(c)
                for t in range(k):
                    rows[at, t] = (attribute_diff(tables, attributes[t],
                                                  first[p], second[p])
                                   - m[t]) * root
        misses += miss[p] > 0
        hits += hit[p] > 0
    add_outer(z, miss_rows, misses, 1.0)
    add_outer(z, hit_rows, hits, -1.0)


@numba.njit(cache=True)
def add_outer(z, rows, count, sign):
    """z[t, s] += sign sum_p rows[p, t] rows[p, s] (s >= t), four rows
    at a time."""
    k = z.shape[0]
    p = 0
    while p + 4 <= count:
        for t in range(k):
            a0, a1 = sign * rows[p, t], sign * rows[p + 1, t]
            a2, a3 = sign * rows[p + 2, t], sign * rows[p + 3, t]
            for s in range(t, k):
                z[t, s] += ((a0 * rows[p, s] + a1 * rows[p + 1, s])
                            + (a2 * rows[p + 2, s] + a3 * rows[p + 3, s]))
        p += 4
    for q in range(p, count):
        for t in range(k):
            a0 = sign * rows[q, t]
            for s in range(t, k):
                z[t, s] += a0 * rows[q, s]

"""SURF's pairs put on the sides of its limit while the limit is summed.

SURF and SURF* (Greene et al. 2009) compare each pair's distance with one
limit, the mean distance T of all pairs, known only once every distance
has been summed (:func:`.distance_rows.symmetric_row_sums`).  An interval
that holds T is known before: each attribute's sum over the pairs, from
its sorted values, with a bound on both sums' rounding
(:func:`mean_interval`).  So the pass that sums T also marks each pair
below or above the interval by the exact float64 distance it sums
(:func:`mark_rows`, then :func:`mirror`); once T is summed the few pairs
within the interval are marked by their exact distances
(:func:`settled`), and the rules read the members of their
neighbourhoods off the bits (:func:`sided_members`).  The float32 screen
(:mod:`.screened`), which the rules take where the bits do not fit,
computed every distance a second time.  Either way each pair lies on
the side of T its exact distance does, and the weights are the same
bits.  Memory: two bits a pair (:func:`bytes_of`).
"""
import math
from collections import namedtuple

import numba
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from .exact_ranking import exact_distances

#: What the pass marks: below[i, w] and above[i, w], the bits 1 << t of
#: the instances j = 64 w + t whose exact distance to I_i lies below `low`
#: (above `high`); the pairs of neither are within the interval.
Sides = namedtuple("Sides", ["below", "above", "low", "high"])

#: no pair to mark (:func:`.distance_rows.symmetric_row_sums`)
UNMARKED = Sides(np.zeros((0, 0), np.uint64), np.zeros((0, 0), np.uint64),
                 0.0, 0.0)

#: the unit roundoff of float64
UNIT = 2.0 ** -53


@numba.njit(inline="always", cache=True)
def words(n):
    """The 64-bit words of a row of n pairs' bits."""
    return -(-n // 64)


def bytes_of(n):
    """The bytes of the :class:`Sides` of n instances: two bits a pair,
    each row whole words."""
    return 16 * n * words(n)


def sides_of(values, budget):
    """The :class:`Sides` of the pairs of the instances of `values` (the
    exact tables' numeric values, attributes x instances), every bit
    clear, and the interval of their mean distance
    (:func:`mean_interval`); None where their 2 n ceil(n / 64) words
    (:func:`bytes_of`) exceed `budget` bytes."""
    n = values.shape[1]
    if n < 2 or bytes_of(n) > budget:
        return None
    return Sides(np.zeros((n, words(n)), np.uint64),
                 np.zeros((n, words(n)), np.uint64), *mean_interval(values))


def mean_interval(values):
    """(low, high): an interval that holds SURF's T, the mean distance
    sum_A |x_A(I_i) - x_A(I_j)| of the n (n - 1) ordered pairs, as the
    pass sums it in float64 (:func:`.distance_rows.pair_sums`).

    Each attribute's sum over the pairs is that of the gaps between its
    sorted values, each gap times the k (n - k) pairs whose values lie on
    either side of it (:func:`spanned_gaps`): n log n operations an
    attribute where the pass takes n^2.  No term is negative, so each
    sum, in any order, is off the exact one by at most gamma_m = m u / (1
    - m u) of itself, m the length of its longest chain of roundings
    (Higham 2002, eq. 4.4): the pass's by a + 1 for each distance, n for
    a row's total and at most 2 log2 n + 128 for numpy's sum of the rows'
    totals; this one's by n + a + 4.  The interval is twice both
    together: at 5000 x 100 about 2e-12 of T either side."""
    a, n = values.shape
    mean = 2.0 * spanned_gaps(values) / (n * (n - 1))
    chains = (a + 1) + n + (2 * math.log2(n) + 128) + (n + a + 4)
    slack = 2.0 * chains * UNIT / (1.0 - chains * UNIT) * mean
    return mean - slack, mean + slack


def spanned_gaps(values):
    """sum_A sum_k (x_A(k+1) - x_A(k)) k (n - k), x_A(k) the k-th least
    value of attribute A: the sum of |x_A(I_i) - x_A(I_j)| over the pairs
    i < j.  Element by element (a product of matrices would start BLAS's
    threads, which then spin beside the pass's: SURF at 5000 x 100 took
    a sixth longer), and numpy's sort (numba's took seven times as long)."""
    n = values.shape[1]
    k = np.arange(1, n, dtype=np.float64)
    return float((np.diff(np.sort(values, axis=1), axis=1)
                  * (k * (n - k))).sum())


def settled(sides, exact, limit):
    """`sides` with every pair on its side of `limit`, `limit` within
    their interval (the pass's bits of the pairs i < j :func:`mirror` ed,
    those within the interval then marked by their exact distances,
    :func:`resolve`); else None."""
    if not sides.low <= limit <= sides.high:
        return None
    mirror(sides.below)
    mirror(sides.above)
    resolve(exact, sides.below, sides.above, limit)
    return sides._replace(low=limit, high=limit)


@numba.njit(cache=True)
def resolve(exact, below, above, limit):
    """Mark each pair (I_i, I_j) within the interval, row by row, by its
    exact distance (:func:`.exact_ranking.exact_distances`, a row's
    pairs four side by side): below `limit`, above it, or (equal to it)
    neither.  In one thread: the interval holds few pairs, if any (at
    5000 x 100 none, and the pass over the bits took 1.1 ms)."""
    n = below.shape[0]
    ones = np.ones(exact.values.shape[0])
    cand, dist = np.empty(n, np.int64), np.empty(n)
    for i in range(n):
        count = 0
        for w in range(words(n)):
            open_bits = ~(below[i, w] | above[i, w])
            if w == words(n) - 1 and n % 64:
                open_bits &= (np.uint64(1) << np.uint64(n % 64)) - np.uint64(1)
            while open_bits:
                cand[count] = 64 * w + trailing_zeros(open_bits)
                count += 1
                open_bits &= open_bits - np.uint64(1)
        exact_distances(exact, ones, i, cand, count, dist)
        for c in range(count):
            w, t = cand[c] // 64, cand[c] % 64
            b, a = side_bits(dist[c], limit, limit, t)
            below[i, w] |= b
            above[i, w] |= a


@numba.njit(inline="always", cache=True)
def side_bits(d, low, high, t):
    """The bits 1 << t of a distance d below `low` and above `high`."""
    return (np.uint64(d < low) << np.uint64(t),
            np.uint64(d > high) << np.uint64(t))


@numba.njit(inline="always", cache=True)
def mark_rows(tile, first, count, j0, width, below, above, low, high):
    """The :class:`Sides` bits (`below`, `above` of the interval [`low`,
    `high`]) of rows first <= i < first + count with the columns j0 <= j
    < j0 + width (j0 a multiple of 64), whose distances are tile[i -
    first, j - j0]: whole words, each row's its own."""
    for r in range(count):
        for w in range(j0 // 64, words(j0 + width)):
            below_word = above_word = np.uint64(0)
            for t in range(min(64, j0 + width - 64 * w)):
                b, a = side_bits(tile[r, 64 * w + t - j0], low, high, t)
                below_word |= b
                above_word |= a
            below[first + r, w], above[first + r, w] = below_word, above_word


@numba.njit(inline="always", cache=True)
def transpose_bits(block):
    """block[r] bit c -> block[c] bit r, in place: a 64 x 64 matrix of
    bits, each row a word, transposed by swapping its off-diagonal halves
    of 32, then of 16 in each, and so on (Warren 2012, sec. 7-3)."""
    half = 32
    mask = np.uint64(0x00000000FFFFFFFF)
    while half:
        k = 0
        while k < 64:
            swap = ((block[k] >> np.uint64(half)) ^ block[k + half]) & mask
            block[k] ^= swap << np.uint64(half)
            block[k + half] ^= swap
            k = (k + half + 1) & ~half
        half >>= 1
        mask ^= mask << np.uint64(half)


@numba.njit(cache=True)
def mirror(bits):
    """bits[j, i / 64] bit i % 64 = bits[i, j / 64] bit j % 64 for every
    pair j > i of a different block of 64, from those of i < j
    (:func:`mark_rows` marks a stripe's columns only in the rows before
    its end, the distances being symmetric): the blocks below the
    diagonal as the transposes of those above it."""
    n = bits.shape[0]
    block = np.empty(64, np.uint64)
    for first in range(words(n)):
        for second in range(first + 1, words(n)):
            for c in range(64):
                row = 64 * first + c
                block[c] = bits[row, second] if row < n else np.uint64(0)
            transpose_bits(block)
            for r in range(min(64, n - 64 * second)):
                bits[64 * second + r, first] = block[r]


@numba.njit(cache=True)
def sided_members(sides, rows, count, with_far, members):
    """members[0, j] and members[1, j]: the bits 1 << r of the references
    rows[r], r < count (at most 64), whose near set (far set, with
    `with_far`) holds I_j, by the settled :class:`Sides` (:func:`settled`):
    the pairs below their limit (above it), the reference itself in
    neither.  64 instances at a time, the references' words of them
    transposed (:func:`transpose_bits`), where the rules' distances,
    filled from the bits pair by pair and compared with T, took three
    times as long with the counts (SURF at 5000 x 100, one thread: 47-55
    million clock ticks a call against 159-173 million, AMD EPYC)."""
    n = members.shape[1]
    block = np.empty(64, np.uint64)
    for s in range(2):
        bits = sides.below if s == 0 else sides.above
        for w in range(words(n)):
            block[:] = 0
            if s == 0 or with_far:
                for r in range(count):
                    block[r] = bits[rows[r], w]
                transpose_bits(block)
            for t in range(min(64, n - 64 * w)):
                members[s, 64 * w + t] = np.int64(block[t])
    for r in range(count):
        members[0, rows[r]] &= ~(np.int64(1) << r)
        members[1, rows[r]] &= ~(np.int64(1) << r)

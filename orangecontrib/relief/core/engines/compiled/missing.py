"""Kononenko's RELIEF-D treatment of missing values, as exact lookup tables.

Prat & Belanche (2006), eq. 2.5, after Kononenko (1994)::

    diff(A, I1, I2) = 1 - P(value(A, I2) | class(I1))          I1 missing
                    = 1 - sum_v P(v | class(I1)) P(v | class(I2))   both missing

For a numeric attribute the same idea is an expectation: the missing value is
a draw X from the known values of the instance's class, and

    diff(A, I1, I2) = E[ g(|X - v| / range) ]                   I1 missing
                    = E[ g(|X - Y| / range) ]                   both missing

with g the diff transform (linear, squared or ramp).  The expectations are
computed exactly from sorted values and prefix sums, never by sampling.

"Group" is the class for classification and one single group for regression.
A group with no known value of an attribute uses the whole column's known
values; a column with no known value at all has diff 0 everywhere.

The result is a table ``one[A, g, j]``: the diff between an instance of group
``g`` that misses attribute A and instance ``j`` (the both-missing
expectation when ``j`` misses it too), 0 for attributes without missing
values.
"""
from collections import namedtuple

import numba
import numpy as np
from numba import prange

from ...tables import LINEAR, SQUARED


@numba.njit(cache=True)
def _nominal_table(column, groups, one):
    """one[g, j] for a nominal column (value codes): 1 - P(x_j | g), and
    1 - sum_v P(v | g) P(v | h) when x_j is missing (h: j's group).

    P(v | g) are the frequencies among group g's known values; a group
    with none takes the whole column's.
    """
    n_groups, n = one.shape
    counts = np.zeros((n_groups, int(np.nanmax(column)) + 1))
    for j in range(n):
        if not np.isnan(column[j]):
            counts[groups[j], int(column[j])] += 1
    everything = counts.sum(axis=0)
    probs = np.empty_like(counts)
    for g in range(n_groups):
        size = counts[g].sum()
        probs[g] = (counts[g] / size if size > 0
                    else everything / everything.sum())
    both = np.empty((n_groups, n_groups))
    for g in range(n_groups):
        for h in range(n_groups):
            both[g, h] = 1 - (probs[g] * probs[h]).sum()
    for j in range(n):
        for g in range(n_groups):
            one[g, j] = (both[g, groups[j]] if np.isnan(column[j])
                         else 1 - probs[g, int(column[j])])


@numba.njit(parallel=True, cache=True)
def _nominal_tables(columns, rows, attributes, groups, one):
    """_nominal_table of ``columns[rows]`` (attribute attributes[r] of the
    data for row r), in parallel."""
    for c in prange(len(rows)):
        _nominal_table(columns[rows[c]], groups, one[attributes[rows[c]]])


@numba.njit(inline="always", cache=True)
def _advance(s, pos, x, right):
    """The first position >= pos where s[pos] > x (right) or >= x (left)."""
    while pos < len(s) and (s[pos] < x or (right and s[pos] == x)):
        pos += 1
    return pos


@numba.njit(cache=True)
def _prefix_sums(s, sample, n_samples):
    """cnt[h, q], csum[h, q]: how many of s[:q] are in sample h, and their
    sum (``sample[q]``: the sample of s[q])."""
    c = len(s)
    cnt = np.empty((n_samples, c + 1))
    csum = np.empty((n_samples, c + 1))
    for h in range(n_samples):  # a sample at a time: sums kept in registers
        count, total = 0.0, 0.0
        cnt[h, 0], csum[h, 0] = 0.0, 0.0
        for q in range(c):
            member = 1.0 * (sample[q] == h)  # 0 or 1: no unpredictable branch
            count += member
            total += member * s[q]
            cnt[h, q + 1], csum[h, q + 1] = count, total
    return cnt, csum


@numba.njit(cache=True)
def _sample_sums(s, sample, n_samples):
    """size[h], total[h]: how many of the values `s` are in sample h, and
    their sum (added in order, as _prefix_sums adds them)."""
    size, total = np.empty(n_samples), np.empty(n_samples)
    for h in range(n_samples):  # a sample at a time: sums kept in registers
        count, acc = 0.0, 0.0
        for q in range(len(s)):
            member = 1.0 * (sample[q] == h)
            count += member
            acc += member * s[q]
        size[h], total[h] = count, acc
    return size, total


@numba.njit(cache=True)
def _linear_expectations(s, sample, h, size, total, per, out):
    """out[q] = E[|X_h - s[q]|] for every q, X_h uniform over sample h's
    values (`size` of them, summing to `total`; ``per = 1 / size``).

    Below p = s[q] the values of h add p - x, above it x - p; a running
    count and sum of h's values below q give both sides in one pass.
    """
    count, below = 0.0, 0.0
    for q in range(len(s)):
        p = s[q]
        if q > 0 and p == s[q - 1]:  # equal values, in whatever order the
            out[q] = out[q - 1]      # rows came: the same expectation
        else:
            left = p * count - below
            right = (total - below) - p * (size - count)
            out[q] = (left + right) * per
        member = 1.0 * (sample[q] == h)
        count += member
        below += member * p


@numba.njit(cache=True)
def expected_numeric_diffs(s, sample, size, total, kind, t_eq, t_diff):
    """E[g(|X_h - p|)] for every sample h and every value p of `s`.

    `s` are a column's known values, sorted; X_h is uniform over the values
    of sample h (``sample[q]``: the sample of s[q]; `size` and `total`:
    each sample's count and sum, from :func:`_sample_sums`).  Values are
    already divided by the attribute's range, so |X - p| is the plain diff
    d, and g is the transform `kind` (ramp uses t_eq and t_diff).  For each
    p the sorted values split at a few positions into runs where g is 0, 1
    or linear in X, and each run's expectation follows from the sample's
    prefix counts and sums up to those positions; the positions only move
    forward as p grows, so a column costs O(c) after sorting.  An empty
    sample gives NaN.
    """
    c, n_samples = len(s), len(size)
    per = np.full(n_samples, np.nan)  # 1 / size: an empty sample gives NaN
    for h in range(n_samples):
        if size[h] > 0:
            per[h] = 1 / size[h]
    out = np.empty((n_samples, c))
    if kind == LINEAR:  # values equal to p add 0 on either side
        for h in range(n_samples):
            _linear_expectations(s, sample, h, size[h], total[h], per[h],
                                 out[h])
        return out
    if kind == SQUARED:  # E[(X - p)^2] = E[X^2] - 2 p E[X] + p^2
        squares = np.zeros(n_samples)
        for q in range(c):
            squares[sample[q]] += s[q] * s[q]
        for h in range(n_samples):
            for q in range(c):
                p = s[q]
                out[h, q] = max(0.0, (squares[h] - 2 * p * total[h]) * per[h]
                                + p * p)
        return out
    cnt, csum = _prefix_sums(s, sample, n_samples)
    width = t_diff - t_eq
    far_left = near_left = near_right = far_right = 0
    for q in range(c):
        p = s[q]
        # ramp: 0 for d <= t_eq, 1 for d >= t_diff, linear in between
        far_left = _advance(s, far_left, p - t_diff, True)      # d >= t_diff
        near_left = _advance(s, near_left, p - t_eq, False)     # d > t_eq
        near_right = _advance(s, near_right, p + t_eq, True)    # d <= t_eq
        far_right = _advance(s, far_right, p + t_diff, False)   # d < t_diff
        for h in range(n_samples):
            if width > 0:
                inner = ((p - t_eq) * (cnt[h, near_left] - cnt[h, far_left])
                         - (csum[h, near_left] - csum[h, far_left])
                         + (csum[h, far_right] - csum[h, near_right])
                         - (p + t_eq) * (cnt[h, far_right] - cnt[h, near_right]))
                ones = cnt[h, far_left] + size[h] - cnt[h, far_right]
                out[h, q] = (ones + inner / width) * per[h]
            else:  # a step: 0 for d <= t_eq, else 1
                out[h, q] = (cnt[h, near_left] + size[h]
                             - cnt[h, near_right]) * per[h]
    return out


@numba.njit(parallel=True, cache=True)
def _sort_keys(columns, rows, index_bits):
    """keys[c, i]: value i of ``columns[rows[c]]`` as an unsigned key that
    sorts like the value, its lowest `index_bits` bits replaced by i; a
    missing value sorts last.

    np.sort orders such keys several times faster than np.argsort orders
    the values, and yields the rows with them; values that differ only in
    the replaced bits may come out of order (:func:`_sorted_known` puts
    them back).
    """
    bits = columns.view(np.uint64)
    sign, low = np.uint64(1 << 63), np.uint64((1 << index_bits) - 1)
    keys = np.empty((len(rows), columns.shape[1]), np.uint64)
    for c in prange(len(rows)):
        r = rows[c]
        for i in range(columns.shape[1]):
            u = bits[r, i]
            u = ~u if u & sign else u | sign  # float order as unsigned order
            keys[c, i] = (u & ~low) | np.uint64(i)
            if np.isnan(columns[r, i]):
                keys[c, i] = ~np.uint64(0)
    return keys


@numba.njit(cache=True)
def _sorted_known(column, keys, n_known, index_bits):
    """The rows of the known values of `column` sorted by value, and the
    sorted values, from the column's sorted keys (:func:`_sort_keys`).

    The keys order the values up to the bits the row number replaced; an
    insertion pass restores the order of values that differ only there
    (it moves nothing when no two values are that close).
    """
    low = np.uint64((1 << index_bits) - 1)
    order = np.empty(n_known, np.int64)
    s = np.empty(n_known)
    for q in range(n_known):
        i = np.int64(keys[q] & low)
        x, p = column[i], q
        while p > 0 and s[p - 1] > x:
            s[p], order[p] = s[p - 1], order[p - 1]
            p -= 1
        s[p], order[p] = x, i
    return order, s


@numba.njit(cache=True)
def _sums_by_sample(table, sample, n_samples):
    """sums[g, h]: the sum of table[g, q] over the q of sample h.

    Four partial sums, which a sample's values take by turns (so that
    consecutive values do not wait for each other's addition); the turns
    count within the sample, so equal values of different samples may
    come in any order."""
    sums = np.empty((table.shape[0], n_samples))
    part = np.empty((4, n_samples))
    turn = np.empty(n_samples, np.int64)
    for g in range(table.shape[0]):
        part[:] = 0.0
        turn[:] = 0
        for q in range(table.shape[1]):
            h = sample[q]
            part[turn[h] & 3, h] += table[g, q]
            turn[h] += 1
        for h in range(n_samples):
            sums[g, h] = (part[0, h] + part[1, h]) + (part[2, h] + part[3, h])
    return sums


@numba.njit(cache=True)
def _numeric_table(column, order, s, groups, kind, t_eq, t_diff, one):
    """one[g, j] for a numeric column (values scaled to [0, 1]).

    ``order`` lists the rows of the known values sorted by value, ``s``
    the values.  Group g's sample is its known values; a group with none
    takes the whole column's, whose expectation is the mean of the
    groups' weighted by their sizes.  Both missing: E[g(|X_g - X_h|)] is
    the mean of E[g(|X_g - p|)] over the values p of group h's sample,
    i.e. of the one-missing table.
    """
    n_groups, c = one.shape[0], len(order)
    sample = groups[order]
    size, total = _sample_sums(s, sample, n_groups)
    table = expected_numeric_diffs(s, sample, size, total, kind, t_eq, t_diff)
    for g in range(n_groups):
        if size[g] == 0:
            table[g] = 0.0
            for h in np.flatnonzero(size):
                table[g] += size[h] / c * table[h]
    sums = _sums_by_sample(table, sample, n_groups)
    for g in range(n_groups):
        for q in range(c):
            one[g, order[q]] = table[g, q]
    for j in np.flatnonzero(np.isnan(column)):
        h = groups[j]
        for g in range(n_groups):  # an empty group h: the whole column
            one[g, j] = (sums[g, h] / size[h] if size[h] > 0
                         else sums[g].sum() / c)


#: The diff transform of numeric attributes (:mod:`...formulas.diffs`)
Transform = namedtuple("Transform", ["kind", "t_eq", "t_diff"])


@numba.njit(parallel=True, cache=True)
def _numeric_tables(columns, rows, keys, index_bits, n_known, attributes,
                    groups, transform, one):
    """_numeric_table of ``columns[rows]`` (attribute attributes[r] of the
    data for row r, n_known[r] known values), in parallel, from their
    sorted keys (:func:`_sort_keys`), by the :class:`Transform`
    `transform`."""
    kind, t_eq, t_diff = transform
    for c in prange(len(rows)):
        column = columns[rows[c]]
        order, s = _sorted_known(column, keys[c], n_known[rows[c]],
                                 index_bits)
        _numeric_table(column, order, s, groups, kind, t_eq, t_diff,
                       one[attributes[rows[c]]])


def missing_diff_tables(scaled, nominal, groups, n_groups, kind, t_eq, t_diff):
    """Build the RELIEF-D lookup tables for every column with missing values.

    Parameters
    ----------
    scaled : float64 array (n, a)
        Numeric columns scaled to [0, 1] by their range, nominal columns as
        value codes; NaN marks a missing value.
    nominal : bool array (a,)
    groups : int array (n,)
        Group (class) code of each instance, 0 .. n_groups - 1.
    kind, t_eq, t_diff
        The diff transform of numeric attributes.

    Returns
    -------
    slot : int32 array (a,)
        0, 1, ... for the attributes with missing values, in order; -1 for
        the others.
    one : float64 array (a, n_groups, n), Fortran order
        ``one[A, g, j]`` is diff(A, I, j) for an instance I of group g
        whose value of A is missing (eq. 2.5 and its numeric expectation),
        0 for an attribute without missing values; an instance's entries
        lie together, for the rules, which run along the attributes.
        (0, n_groups, n) when no value is missing.
    """
    n, n_attrs = scaled.shape
    gaps = np.isnan(scaled)  # counted where there is one (40 of 50
    # microseconds at 1000 x 50)
    n_missing = (gaps.sum(axis=0) if gaps.any()
                 else np.zeros(n_attrs, np.int64))
    slot = np.full(n_attrs, -1, dtype=np.int32)
    slot[n_missing > 0] = np.arange((n_missing > 0).sum(), dtype=np.int32)
    one = np.zeros((n_attrs if n_missing.any() else 0, n_groups, n), order="F")
    filled = np.flatnonzero((n_missing > 0) & (n_missing < n))
    columns = np.ascontiguousarray(scaled[:, filled].T)  # a column together
    rows = np.flatnonzero(nominal[filled])
    if len(rows):  # (only then compiled)
        _nominal_tables(columns, rows, filled, groups, one)
    rows = np.flatnonzero(~nominal[filled])
    if len(rows):
        index_bits = max(1, (n - 1).bit_length())
        keys = _sort_keys(columns, rows, index_bits)
        keys.sort(axis=1)
        _numeric_tables(columns, rows, keys, index_bits, n - n_missing[filled],
                        filled, groups,
                        Transform(kind, float(t_eq), float(t_diff)), one)
    return slot, one

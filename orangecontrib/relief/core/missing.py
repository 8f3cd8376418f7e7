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

The result is a table ``one[slot, g, j]``: the diff between an instance of
group ``g`` that misses the attribute and instance ``j`` (the both-missing
expectation when ``j`` misses it too).  Only columns with missing values get
a slot.
"""
import numba
import numpy as np
from numba import prange

from .diffs import LINEAR, SQUARED


def _group_members(groups, n_groups):
    """(n_groups, c) bool: which of c known values belong to each group's
    sample; a group with no known value takes them all."""
    member = groups[None, :] == np.arange(n_groups)[:, None]
    member[~member.any(axis=1)] = True
    return member


def _nominal_table(column, groups, n_groups):
    """one[g, j] = 1 - P(x_j | g); both[g1, g2] = 1 - sum_v P(v|g1) P(v|g2)."""
    known = ~np.isnan(column)
    codes = column[known].astype(np.int64)
    member = _group_members(groups[known], n_groups)
    n_values = codes.max() + 1
    probs = np.array([np.bincount(codes[m], minlength=n_values) / m.sum()
                      for m in member])
    one = np.empty((n_groups, len(column)))
    one[:, known] = 1 - probs[:, codes]
    one[:, ~known] = (1 - probs @ probs.T)[:, groups[~known]]
    return one


@numba.njit(inline="always", cache=True)
def _advance(s, pos, x, right):
    """The first position >= pos where s[pos] > x (right) or >= x (left)."""
    while pos < len(s) and (s[pos] < x or (right and s[pos] == x)):
        pos += 1
    return pos


@numba.njit(cache=True)
def _prefix_sums(s, sample, n_samples):
    """cnt[h, q], csum[h, q]: how many of s[:q] are in sample h, and their
    sum (``sample[q]``: the sample of s[q]; the last sample, n_samples - 1,
    holds every value)."""
    c = len(s)
    cnt = np.zeros((n_samples, c + 1))
    csum = np.zeros((n_samples, c + 1))
    everything = n_samples - 1
    for q in range(c):
        for h in range(n_samples):
            cnt[h, q + 1] = cnt[h, q]
            csum[h, q + 1] = csum[h, q]
        for h in (sample[q], everything):
            cnt[h, q + 1] += 1
            csum[h, q + 1] += s[q]
    return cnt, csum


@numba.njit(cache=True)
def expected_numeric_diffs(s, sample, n_samples, kind, t_eq, t_diff):
    """E[g(|X_h - p|)] for every sample h and every value p of `s`.

    `s` are a column's known values, sorted; X_h is uniform over the values
    of sample h (``sample[q]``: the sample s[q] belongs to besides the
    last, which holds them all).  Values are already divided by the
    attribute's range, so |X - p| is the plain diff d, and g is the
    transform `kind` (ramp uses t_eq and t_diff).  For each p the sorted
    values split at a few positions into runs where g is 0, 1 or linear in
    X, and each run's expectation follows from the sample's prefix counts
    and sums up to those positions; the positions only move forward as p
    grows, so a column costs O(c) after sorting.  An empty sample gives NaN.
    """
    c = len(s)
    cnt, csum = _prefix_sums(s, sample, n_samples)
    total, size = csum[:, c], cnt[:, c]
    per = np.full(n_samples, np.nan)  # 1 / size: an empty sample gives NaN
    for h in range(n_samples):
        if size[h] > 0:
            per[h] = 1 / size[h]
    out = np.empty((n_samples, c))
    if kind == SQUARED:  # E[(X - p)^2] = E[X^2] - 2 p E[X] + p^2
        squares = np.zeros(n_samples)
        for q in range(c):
            squares[sample[q]] += s[q] * s[q]
        squares[n_samples - 1] = (s * s).sum()
        for h in range(n_samples):
            for q in range(c):
                p = s[q]
                out[h, q] = max(0.0, (squares[h] - 2 * p * total[h]) * per[h]
                                + p * p)
        return out
    width = t_diff - t_eq
    far_left = near_left = near_right = far_right = 0
    for q in range(c):
        p = s[q]
        if kind == LINEAR:  # values equal to p add 0 on either side
            for h in range(n_samples):
                left = p * cnt[h, q] - csum[h, q]
                right = (total[h] - csum[h, q]) - p * (size[h] - cnt[h, q])
                out[h, q] = (left + right) * per[h]
            continue
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


@numba.njit(cache=True)
def _numeric_table(column, order, groups, kind, t_eq, t_diff, one):
    """one[g, j] for a numeric column (values scaled to [0, 1]).

    `order` lists the rows of the known values, sorted by value.  Group
    g's sample is its known values, or the whole column's when it has none
    (the last sample of expected_numeric_diffs).  Both missing:
    E[g(|X_g - X_h|)] is the mean of E[g(|X_g - p|)] over the values p of
    group h's sample, i.e. of the one-missing table.
    """
    n_groups, c = one.shape[0], len(order)
    everything = n_groups
    sample = groups[order]
    size = np.zeros(n_groups + 1)
    for q in range(c):
        size[sample[q]] += 1
    size[everything] = c
    own = np.where(size > 0, np.arange(n_groups + 1), everything)
    table = expected_numeric_diffs(column[order], sample, n_groups + 1,
                                   kind, t_eq, t_diff)
    sums = np.zeros((n_groups, n_groups + 1))  # sums[g, h]: over sample h
    for q in range(c):
        for g in range(n_groups):
            x = table[own[g], q]
            one[g, order[q]] = x
            sums[g, sample[q]] += x
            sums[g, everything] += x
    for j in np.flatnonzero(np.isnan(column)):
        h = own[groups[j]]
        for g in range(n_groups):
            one[g, j] = sums[g, h] / size[h]


@numba.njit(parallel=True, cache=True)
def _numeric_tables(columns, orders, n_known, slots, groups, kind, t_eq,
                    t_diff, one):
    """_numeric_table of every column (rows of `columns`), in parallel;
    ``orders[c, :n_known[c]]`` sorts column c's known values."""
    for c in prange(len(slots)):
        _numeric_table(columns[c], orders[c, :n_known[c]], groups, kind,
                       t_eq, t_diff, one[slots[c]])


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
        Row of each attribute in `one`, -1 for attributes without missing values.
    one : float64 array (n_slots, n_groups, n)
        ``one[slot[A], g, j]`` is diff(A, I, j) for an instance I of group g
        whose value of A is missing (eq. 2.5 and its numeric expectation).
    """
    n, n_attrs = scaled.shape
    columns = np.flatnonzero(np.isnan(scaled).any(axis=0))
    slot = np.full(n_attrs, -1, dtype=np.int32)
    slot[columns] = np.arange(len(columns), dtype=np.int32)
    one = np.zeros((len(columns), n_groups, n))
    filled = columns[~np.isnan(scaled[:, columns]).all(axis=0)]
    for col in filled[nominal[filled]]:
        one[slot[col]] = _nominal_table(scaled[:, col], groups, n_groups)
    numeric = filled[~nominal[filled]]
    if len(numeric) == 0:  # nothing for the numba kernels (nor to compile)
        return slot, one
    columns = np.ascontiguousarray(scaled[:, numeric].T)
    # missing values last (NaN itself would make numpy's sort several times slower)
    orders = np.argsort(np.where(np.isnan(columns), np.inf, columns), axis=1)
    n_known = (~np.isnan(columns)).sum(axis=1)
    _numeric_tables(columns, orders, n_known, slot[numeric], groups, kind,
                    float(t_eq), float(t_diff), one)
    return slot, one

"""Kononenko's RELIEF-D tables (Prat & Belanche 2006, eq. 2.5; Kononenko
1994) in numpy, with the compiled engine's arithmetic.

The same tables as :func:`..compiled.missing.missing_diff_tables` (whose docstring
gives the definitions): the diff between an instance of group g missing
attribute A and instance j is 1 - P(x_j | g) for a nominal attribute and
E[g(|X_g - x_j|)] over the known values X_g of group g for a numeric one;
both missing, the expectation over both groups' values.  A group with no
known value takes the whole column's.

Each expectation is computed as the compiled engine computes it (from the
sorted values, running counts and sums, added in the same order: numpy's
cumulative sums add one term at a time, as its loops do), so that both
engines' tables, and with them their distances, ties and weights, are the
same to the bit.  Tests check both against the definition.
"""
import numpy as np

from ...tables import LINEAR, SQUARED


def running(values):
    """The sums of values[..., :q] for q = 0 .. n along the last axis,
    added in order."""
    start = np.zeros(values.shape[:-1] + (1,))
    return np.concatenate([start, np.add.accumulate(values, axis=-1)],
                          axis=-1)


def total(values):
    """The sums of `values` along the last axis, added in order (0 for
    none)."""
    return running(values)[..., -1]


def nominal_table(column, groups, n_groups):
    """one[g, j] of a nominal column (value codes, NaN missing):
    1 - P(x_j | g), and 1 - sum_v P(v | g) P(v | h) when x_j is missing
    (h: j's group); a group without known values takes the whole
    column's frequencies."""
    known = ~np.isnan(column)
    codes = column[known].astype(np.int64)
    counts = np.zeros((n_groups, int(codes.max()) + 1))
    np.add.at(counts, (groups[known], codes), 1)
    everything = counts.sum(axis=0)  # whole numbers: exact in any order
    sizes = counts.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        probs = np.where(sizes > 0, counts / sizes,
                         everything / everything.sum())
    both = 1 - total(probs[:, None, :] * probs[None, :, :])
    one = np.empty((n_groups, len(column)))
    one[:, known] = 1 - probs[:, codes]
    one[:, ~known] = both[:, groups[~known]]
    return one


def expected_numeric_diffs(s, sample, n_groups, kind, t_eq, t_diff):
    """E[g(|X_h - p|)] for every group h and every value p of the sorted
    known values `s` (``sample[q]``: the group of s[q]), and each group's
    count of values; NaN for a group without values.

    As :func:`..compiled.missing.expected_numeric_diffs`: for each p the sorted
    values split into runs where g is 0, 1 or linear in X, and each run's
    expectation follows from the group's running counts and sums.
    """
    member = (sample[None, :] == np.arange(n_groups)[:, None]) * 1.0
    cnt, csum = running(member), running(member * s)  # (groups, c + 1)
    size, sums = cnt[:, -1:], csum[:, -1:]
    with np.errstate(divide="ignore"):
        per = np.where(size > 0, 1 / size, np.nan)
    if kind == LINEAR:  # values equal to p add 0 on either side; equal
        start = np.searchsorted(s, s, "left")  # values share one expectation
        count, below = cnt[:, start], csum[:, start]
        left = s * count - below
        right = (sums - below) - s * (size - count)
        return (left + right) * per, size[:, 0]
    if kind == SQUARED:  # E[(X - p)^2] = E[X^2] - 2 p E[X] + p^2
        squares = total(member * s * s)[:, None]
        return (np.maximum(0.0, (squares - 2 * s * sums) * per + s * s),
                size[:, 0])
    # ramp: 0 for d <= t_eq, 1 for d >= t_diff, linear in between
    far_left = np.searchsorted(s, s - t_diff, "right")    # d >= t_diff
    near_left = np.searchsorted(s, s - t_eq, "left")      # d > t_eq
    near_right = np.searchsorted(s, s + t_eq, "right")    # d <= t_eq
    far_right = np.searchsorted(s, s + t_diff, "left")    # d < t_diff
    width = t_diff - t_eq
    if width > 0:
        inner = ((s - t_eq) * (cnt[:, near_left] - cnt[:, far_left])
                 - (csum[:, near_left] - csum[:, far_left])
                 + (csum[:, far_right] - csum[:, near_right])
                 - (s + t_eq) * (cnt[:, far_right] - cnt[:, near_right]))
        ones = cnt[:, far_left] + size - cnt[:, far_right]
        return (ones + inner / width) * per, size[:, 0]
    return ((cnt[:, near_left] + size - cnt[:, near_right]) * per,  # a step
            size[:, 0])


def sums_by_group(table, sample, n_groups):
    """sums[g, h]: the sum of table[g, q] over the q of group h, as the
    compiled engine adds them: four running sums, each group's values
    taking them by turns, then (0 + 1) + (2 + 3)."""
    turn = np.empty(len(sample), np.int64)
    for h in range(n_groups):
        turn[sample == h] = np.arange((sample == h).sum()) % 4
    parts = np.zeros((4, len(table), n_groups))
    for r in range(4):
        for h in range(n_groups):
            parts[r, :, h] = total(table[:, (turn == r) & (sample == h)])
    return (parts[0] + parts[1]) + (parts[2] + parts[3])


def numeric_table(column, groups, n_groups, kind, t_eq, t_diff):
    """one[g, j] of a numeric column (scaled to [0, 1], NaN missing)."""
    known = np.flatnonzero(~np.isnan(column))
    order = known[np.argsort(column[known], kind="stable")]
    s, sample = column[order], groups[order]
    c = len(s)
    table, size = expected_numeric_diffs(s, sample, n_groups, kind, t_eq,
                                         t_diff)
    for g in np.flatnonzero(size == 0):  # the whole column's values
        mixed = 0.0
        for h in np.flatnonzero(size):
            mixed = mixed + size[h] / c * table[h]
        table[g] = mixed
    sums = sums_by_group(table, sample, n_groups)
    one = np.empty((n_groups, len(column)))
    one[:, order] = table
    missing = np.flatnonzero(np.isnan(column))
    h = groups[missing]
    whole = total(sums) / c
    with np.errstate(invalid="ignore", divide="ignore"):
        one[:, missing] = np.where(size[h] > 0, sums[:, h] / size[h],
                                   whole[:, None])
    return one


def missing_diff_tables(scaled, nominal, groups, n_groups, kind, t_eq,
                        t_diff):
    """(slot, one) as :func:`..compiled.missing.missing_diff_tables` returns them."""
    n, n_attrs = scaled.shape
    n_missing = np.isnan(scaled).sum(axis=0)
    slot = np.full(n_attrs, -1, dtype=np.int32)
    slot[n_missing > 0] = np.arange((n_missing > 0).sum(), dtype=np.int32)
    one = np.zeros((n_attrs if n_missing.any() else 0, n_groups, n),
                   order="F")
    for a in np.flatnonzero((n_missing > 0) & (n_missing < n)):
        column = scaled[:, a]
        one[a] = (nominal_table(column, groups, n_groups) if nominal[a]
                  else numeric_table(column, groups, n_groups, kind,
                                     float(t_eq), float(t_diff)))
    return slot, one


def tables(scaled, nominal, groups, n_groups, kind, t_eq, t_diff, order):
    """The vectorised engine's part of step 1 (:class:`..interface.Engine`):
    the RELIEF-D tables, and no search tables (its search reads the exact
    ones)."""
    return (*missing_diff_tables(scaled, nominal, groups, n_groups, kind,
                                 t_eq, t_diff), None)

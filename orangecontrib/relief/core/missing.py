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
import numpy as np

from .diffs import LINEAR, SQUARED


def expected_numeric_diff(sample, points, kind, t_eq, t_diff):
    """E[g(|X - p|)] for each p in `points`, X uniform over `sample`.

    Values are already divided by the attribute's range, so |X - p| is the
    plain diff d, and g is the transform `kind` (ramp uses t_eq and t_diff).
    """
    s = np.sort(np.asarray(sample, dtype=np.float64))
    p = np.asarray(points, dtype=np.float64)
    c = len(s)
    if kind == SQUARED:
        mean, mean_sq = s.mean(), (s * s).mean()
        return np.maximum(mean_sq - 2 * p * mean + p * p, 0.0)
    csum = np.concatenate(([0.0], np.cumsum(s)))
    if kind == LINEAR:
        below = np.searchsorted(s, p)
        left = p * below - csum[below]
        right = (csum[c] - csum[below]) - p * (c - below)
        return (left + right) / c
    # ramp: 0 within t_eq, 1 from t_diff on, linear in between
    far_left = np.searchsorted(s, p - t_diff, "right")   # d >= t_diff
    near_left = np.searchsorted(s, p - t_eq, "left")     # t_eq < d < t_diff
    near_right = np.searchsorted(s, p + t_eq, "right")   # d <= t_eq
    far_right = np.searchsorted(s, p + t_diff, "left")
    if t_diff > t_eq:
        width = t_diff - t_eq
        left = ((p - t_eq) * (near_left - far_left)
                - (csum[near_left] - csum[far_left])) / width
        right = ((csum[far_right] - csum[near_right])
                 - (p + t_eq) * (far_right - near_right)) / width
    else:  # a step: 0 for d <= t_eq, else 1
        left = right = 0.0
        far_left, far_right = near_left, near_right
    return (far_left + (c - far_right) + left + right) / c


def _group_samples(column, groups, n_groups):
    """Known values of `column` per group (whole column when a group has none)."""
    known = ~np.isnan(column)
    every = column[known]
    samples = []
    for g in range(n_groups):
        own = column[known & (groups == g)]
        samples.append(own if len(own) else every)
    return samples


def _nominal_table(column, samples):
    """one[g, j] = 1 - P(x_j | g); both[g1, g2] = 1 - sum_v P(v|g1) P(v|g2)."""
    n_values = int(np.nanmax(column)) + 1
    probs = np.array([np.bincount(s.astype(np.int64), minlength=n_values) / len(s)
                      for s in samples])
    known = ~np.isnan(column)
    one = np.empty((len(samples), len(column)))
    one[:, known] = 1 - probs[:, column[known].astype(np.int64)]
    both = 1 - probs @ probs.T
    return one, both


def _numeric_table(column, samples, kind, t_eq, t_diff):
    """The same expectations for a numeric column (values scaled to [0, 1])."""
    n_groups = len(samples)
    known = ~np.isnan(column)
    one = np.empty((n_groups, len(column)))
    both = np.empty((n_groups, n_groups))
    for g in range(n_groups):
        one[g, known] = expected_numeric_diff(samples[g], column[known],
                                              kind, t_eq, t_diff)
        for h in range(g, n_groups):
            both[g, h] = both[h, g] = expected_numeric_diff(
                samples[g], samples[h], kind, t_eq, t_diff).mean()
    return one, both


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
    for s, col in enumerate(columns):
        column = scaled[:, col]
        if np.isnan(column).all():
            continue
        samples = _group_samples(column, groups, n_groups)
        if nominal[col]:
            table, both = _nominal_table(column, samples)
        else:
            table, both = _numeric_table(column, samples, kind, t_eq, t_diff)
        missing = np.isnan(column)
        table[:, missing] = both[:, groups[missing]]
        one[s] = table
    return slot, one

"""Kononenko's RELIEF-D tables by their definition (Prat & Belanche 2006,
eq. 2.5; Kononenko 1994), without sorting or prefix sums.

The same tables as :func:`..missing.missing_diff_tables` (whose docstring
gives the definitions): the diff between an instance of group g missing
attribute A and instance j is 1 - P(x_j | g) for a nominal attribute and
E[g(|X_g - x_j|)] over the known values X_g of group g for a numeric one;
both missing, the expectation over both groups' values.  A group with no
known value takes the whole column's.  The numeric expectations are means
over the known values, taken a block of values at a time (O(c^2) work for
c known values, which the vectorised engine's small problems afford).
"""
import numpy as np

from .diffs import transform

#: known values compared at once in the numeric expectations
BLOCK = 512


def probabilities(codes, groups, n_groups):
    """P(v | g): the frequencies of the value codes `codes` in each
    group's known values; a group with none takes the whole column's."""
    counts = np.zeros((n_groups, int(codes.max()) + 1))
    np.add.at(counts, (groups, codes.astype(np.int64)), 1)
    sizes = counts.sum(axis=1, keepdims=True)
    everything = counts.sum(axis=0) / counts.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        probs = counts / sizes
    return np.where(sizes > 0, probs, everything)


def nominal_table(column, groups, n_groups):
    """one[g, j] of a nominal column (value codes, NaN missing)."""
    known = ~np.isnan(column)
    probs = probabilities(column[known], groups[known], n_groups)
    one = np.empty((n_groups, len(column)))
    one[:, known] = 1 - probs[:, column[known].astype(np.int64)]
    both = 1 - probs @ probs.T
    one[:, ~known] = both[:, groups[~known]]
    return one


def group_means(table, sample, n_groups):
    """The mean of the columns of `table` (rows: values) over each
    group's rows (`sample`: the group of each row); a group with none takes
    the mean over all rows.  Rows are added in order within a group."""
    order = np.argsort(sample, kind="stable")
    sizes = np.bincount(sample, minlength=n_groups)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    means = np.empty((n_groups, table.shape[1]))
    present = sizes > 0
    means[present] = (np.add.reduceat(table[order], starts[present], axis=0)
                      / sizes[present, None])
    means[~present] = table.mean(axis=0)
    return means


def numeric_table(column, groups, n_groups, kind, t_eq, t_diff):
    """one[g, j] of a numeric column (scaled to [0, 1], NaN missing)."""
    known = ~np.isnan(column)
    values, sample = column[known], groups[known]
    expected = np.empty((n_groups, len(values)))  # E[g(|X_g - p|)], p known
    for start in range(0, len(values), BLOCK):
        block = values[start:start + BLOCK]
        diffs = transform(np.abs(values[:, None] - block[None, :]), kind,
                          t_eq, t_diff)
        expected[:, start:start + BLOCK] = group_means(diffs, sample,
                                                       n_groups)
    one = np.empty((n_groups, len(column)))
    one[:, known] = expected
    both = group_means(expected.T, sample, n_groups).T  # both[g, h]
    one[:, ~known] = both[:, groups[~known]]
    return one


def missing_diff_tables(scaled, nominal, groups, n_groups, kind, t_eq,
                        t_diff):
    """(slot, one) as :func:`..missing.missing_diff_tables` returns them."""
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

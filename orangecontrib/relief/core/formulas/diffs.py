"""diff(A, I_i, I_j) of many pairs at once, by definition.

Prat & Belanche (2006), eq. 2.2 (nominal), 2.3 (numeric, scaled by the
range) and 2.5 (Kononenko's RELIEF-D where a value is missing), with the
transforms of Robnik-Sikonja & Kononenko (2003), on the exact tables
(float64, a missing value NaN), for index arrays that broadcast.  The
vectorised engine computes with these; the step-by-step and STIR's pairs
read them too.
"""
import numpy as np

from ..tables import RAMP, SQUARED


def transform(d, kind, t_eq, t_diff):
    """g(d) of numeric diffs d = |a - b| / range."""
    if kind == SQUARED:
        return d * d
    if kind == RAMP:
        with np.errstate(invalid="ignore", divide="ignore"):
            between = (d - t_eq) / (t_diff - t_eq)
        return np.where(d <= t_eq, 0.0, np.where(d >= t_diff, 1.0, between))
    return d


def attribute_diffs(exact, a, i, j):
    """diff(A_a, I_i, I_j) for index arrays `i`, `j` (broadcast against
    each other), RELIEF-D values where either value is missing."""
    values = exact.values[a]
    xi, xj = values[i], values[j]
    if exact.nominal[a]:
        d = (xi != xj).astype(np.float64)
    else:
        d = transform(np.abs(xi - xj), exact.kind, exact.t_eq, exact.t_diff)
    if exact.slot[a] < 0:
        return d
    missing_i, missing_j = np.isnan(xi), np.isnan(xj)
    if not (missing_i.any() or missing_j.any()):
        return d
    table = exact.relief_d[exact.slot[a]]
    groups = exact.groups
    relief_d = np.where(missing_i, table[groups[i], j], table[groups[j], i])
    return np.where(missing_i | missing_j, relief_d, d)


def diffs_of_pairs(exact, i, j):
    """diff(A, I_i, I_j) of index arrays `i`, `j` (broadcast against each
    other), every attribute at once: (*shape, a), the attributes last."""
    values = exact.values.T  # an instance's values together
    xi, xj = values[i], values[j]
    d = transform(np.abs(xj - xi), exact.kind, exact.t_eq, exact.t_diff)
    if exact.nominal.any():
        d = np.where(exact.nominal, xj != xi, d)
    if exact.relief_d.shape[0] == 0:
        return d
    missing_i, missing_j = np.isnan(xi), np.isnan(xj)
    if not (missing_i.any() or missing_j.any()):
        return d
    attributes = np.arange(len(exact.values))
    groups = exact.groups
    i, j = np.asarray(i)[..., None], np.asarray(j)[..., None]
    relief_d = np.where(missing_i, exact.relief_d[attributes, groups[i], j],
                        exact.relief_d[attributes, groups[j], i])
    return np.where(missing_i | missing_j, relief_d, d)


def pair_diffs(exact, i, j):
    """The (a, len(j)) diffs of instance `i` (an int) against the instances
    `j` (an int array), every attribute at once."""
    return diffs_of_pairs(exact, i, j).T


def weighted(diffs, coef):
    """sum over r, j of coef[r, j] diffs[a, r, j], per attribute a."""
    return np.einsum("arj,rj->a", diffs, coef)


def distance_row(exact, weights, i):
    """The exact distances of instance `i` to every instance, and the
    diffs they were summed from: sum_A w_A diff(A, I_i, I_j), added in
    attribute order."""
    diffs = pair_diffs(exact, i, np.arange(exact.values.shape[1]))
    return np.cumsum(weights[:, None] * diffs, axis=0)[-1], diffs

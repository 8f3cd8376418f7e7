"""The vectorised engine's distances: a reference's diffs to every
instance, attribute by attribute, summed in attribute order.

The diffs are those of :mod:`...formulas.diffs`; a block of references is
taken at once, so that numpy does the loops.
"""
import numpy as np

from ...formulas.diffs import transform
from ...tables import RAMP, SQUARED


def row_diffs(exact, a, rows, out):
    """diff(A_a, I_rows[r], I_j) for every instance j, into `out`
    (len(rows), n), which it returns.

    Where a value is missing the RELIEF-D table is read: a missing column
    value first, then a missing row value over it (both missing: the
    row's entry, as :func:`...formulas.diffs.attribute_diffs` and the
    compiled kernels choose)."""
    values = exact.values[a]
    xi, xj = values[rows, None], values[None, :]
    if exact.nominal[a]:
        np.not_equal(xi, xj, out=out)
    else:
        np.subtract(xi, xj, out=out)
        np.abs(out, out=out)
        if exact.kind == SQUARED:
            out *= out
        elif exact.kind == RAMP:
            out[:] = transform(out, RAMP, exact.t_eq, exact.t_diff)
    d = out
    if exact.slot[a] < 0:
        return d
    table, groups = exact.relief_d[exact.slot[a]], exact.groups
    columns = np.flatnonzero(np.isnan(values))
    d[:, columns] = table[groups[columns][None, :], rows[:, None]]
    missing = np.flatnonzero(np.isnan(values[rows]))
    d[missing] = table[groups[rows[missing]]]
    return d


def distances(exact, weights, rows):
    """D[r, j] = sum_A w_A diff(A, I_rows[r], I_j) for every instance j,
    the terms added in attribute order (eq. 2.1, 3.1), as the compiled
    engine's exact distance adds them."""
    rows = np.asarray(rows)
    total = np.zeros((len(rows), exact.values.shape[1]))
    term = np.empty_like(total)
    for a in np.flatnonzero(weights):
        row_diffs(exact, a, rows, term)
        term *= weights[a]
        total += term
    return total


def reference_distances(rows, references, nominal, kind, t_eq, t_diff, out):
    """out[j, r] = sum_A diff(A, row j, reference r) of streamed (scaled,
    complete) `rows` and `references`, the attributes added in their order
    (as the in-memory exact distance adds them)."""
    out[:] = 0.0
    for a in range(rows.shape[1]):
        if nominal[a]:
            out += rows[:, a, None] != references[None, :, a]
        else:
            out += transform(np.abs(references[None, :, a] - rows[:, a, None]),
                             kind, t_eq, t_diff)

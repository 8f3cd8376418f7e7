"""Distance-threshold neighbourhoods (the SURF family), compiled.

A reference's neighbourhood depends on its distances to every instance
(MultiSURF's mean and spread), so the references are taken ROWS at a
time and their exact float64 distances to all n instances computed in
column tiles of BLOCK (:func:`distance_block`); each reference then reads
its thresholds off its own row (:mod:`..radius`) and its update rule
visits the instances within them (:mod:`..rules.radius`).  Memory: ROWS
rows of n distances per thread, never n x n.
"""
import numba
import numpy as np
from numba import prange

from ..diffs import attribute_diff, transform
from ..tables import LINEAR
from .block import BLOCK, ROWS, block_rows, row_values


@numba.njit(inline="always", cache=True)
def add_numeric(out, x, column, width, kind, t_eq, t_diff):
    """out[r, jj] += g(|x[r] - column[jj]|) for the ROWS rows at once, so
    that each loaded column value serves every row (:mod:`.block`)."""
    for jj in range(width):
        v = column[jj]
        out[0, jj] += transform(abs(x[0] - v), kind, t_eq, t_diff)
        out[1, jj] += transform(abs(x[1] - v), kind, t_eq, t_diff)
        out[2, jj] += transform(abs(x[2] - v), kind, t_eq, t_diff)
        out[3, jj] += transform(abs(x[3] - v), kind, t_eq, t_diff)


@numba.njit(inline="always", cache=True)
def add_nominal(out, x, column, width):
    """out[r, jj] += (x[r] != column[jj]) for the ROWS rows at once."""
    for jj in range(width):
        v = column[jj]
        out[0, jj] += x[0] != v
        out[1, jj] += x[1] != v
        out[2, jj] += x[2] != v
        out[3, jj] += x[3] != v


@numba.njit(inline="always", cache=True)
def add_attribute(out, values, exact, a, rows, j0, width):
    """out[r, jj] += diff(A_a, I_rows[r], I_(j0 + jj)), for data without
    missing values (loops over the columns that vectorise)."""
    column = values[a, j0:j0 + width]
    x = row_values(values, a, rows)
    if exact.nominal[a]:
        add_nominal(out, x, column, width)
    elif exact.kind == LINEAR:
        add_numeric(out, x, column, width, LINEAR, 0.0, 0.0)
    else:
        add_numeric(out, x, column, width, exact.kind, exact.t_eq,
                    exact.t_diff)


@numba.njit(cache=True)
def distance_block(values, exact, rows, count, dist):
    """dist[r, j] = D(I_rows[r], I_j) = sum_A diff(A, I_rows[r], I_j) for
    every instance j, the attributes added in their order (as
    :func:`..neighbours.exact.exact_distance` and the literal definition).

    `values` is ``exact.values`` in C order (attributes x instances), so
    that a tile's columns are contiguous; with missing values each diff
    reads the RELIEF-D tables (:func:`..diffs.attribute_diff`).
    """
    n, n_attrs = values.shape[1], values.shape[0]
    out = np.empty((ROWS, BLOCK))
    for j0 in range(0, n, BLOCK):
        width = min(j0 + BLOCK, n) - j0
        out[:, :width] = 0.0
        if exact.relief_d.shape[0] == 0:
            for a in range(n_attrs):
                add_attribute(out, values, exact, a, rows, j0, width)
        else:
            for a in range(n_attrs):
                for r in range(count):
                    for jj in range(width):
                        out[r, jj] += attribute_diff(exact, a, rows[r],
                                                     j0 + jj)
        dist[:count, j0:j0 + width] = out[:count, :width]


@numba.njit(parallel=True, cache=True)
def row_sums(values, exact):
    """Each instance's summed distance to the n - 1 others."""
    n = values.shape[1]
    n_blocks = -(-n // ROWS)
    totals = np.zeros(n)
    for b in prange(n_blocks):
        rows = np.empty(ROWS, np.int64)
        dist = np.empty((ROWS, n))
        count = block_rows(b * ROWS, n, rows)
        distance_block(values, exact, rows, count, dist)
        for r in range(count):
            total = 0.0
            for j in range(n):
                if j != rows[r]:
                    total += dist[r, j]
            totals[rows[r]] = total
    return totals


def mean_distance(values, exact):
    """T of SURF: the mean distance of the n (n - 1) / 2 pairs."""
    n = values.shape[1]
    return row_sums(values, exact).sum() / (n * (n - 1))

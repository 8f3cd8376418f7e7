"""The rules of Relief, ReliefF (Kononenko 1994) and RReliefF
(Robnik-Sikonja & Kononenko 1997), compiled; the diff of a pair read from
the exact tables (:mod:`..diffs`)."""
import numba
import numpy as np
from numba import prange
from numba.extending import overload

from ..diffs import (any_missing, as_dtype_of, attribute_diff,
                     every_attribute_slotted, kernel_tables, known_diff,
                     linear_diff, numeric_and_known, slotted_linear_diff)
from ....tables import LINEAR, NarrowTables

UPDATE_BLOCK = 64  # references per partial sum


@numba.njit(inline="always", cache=True)
def n_found(neighbours, g):
    """How many neighbours of group g a reference has (lists pad with -1)."""
    count = 0
    while count < neighbours.shape[1] and neighbours[g, count] >= 0:
        count += 1
    return count


@numba.njit(inline="always", cache=True)
def add_numeric_diffs(acc, values, i, j, coef):
    """acc[A] += coef * |x_A(I_i) - x_A(I_j)|: numeric attributes, the
    linear diff, no missing values (a loop that vectorises)."""
    for a in range(acc.shape[0]):
        acc[a] += coef * abs(values[a, i] - values[a, j])


@numba.njit(inline="always", cache=True)
def add_known_diffs(acc, tables, i, j, coef):
    """acc[A] += coef * diff(A, I_i, I_j) for data without missing values.

    Branch-free over the attributes, so that it vectorises; the exact
    tables store an instance's values together ("F" order).  (Numeric data
    take :func:`add_numeric_diffs`, without the nominal select.)
    """
    values, nominal = tables.values, tables.nominal
    if tables.kind == LINEAR:
        for a in range(acc.shape[0]):
            acc[a] += coef * linear_diff(values[a, i], values[a, j], nominal[a])
    else:
        for a in range(acc.shape[0]):
            acc[a] += coef * known_diff(tables, a, values[a, i], values[a, j])


def add_diffs(acc, tables, i, j, coef):
    """acc[A] += coef * diff(A, I_i, I_j) for every attribute A, of the
    exact tables (:func:`add_exact_diffs`) or of small integers as given
    (:class:`....tables.NarrowTables`, :func:`add_narrow_diffs`): numba
    compiles the one of the tables' type."""
    raise NotImplementedError("compiled code only")


@overload(add_diffs)
def add_diffs_of(acc, tables, i, j, coef):
    """The implementation of :func:`add_diffs` for the type of `tables`."""
    if getattr(tables, "instance_class", None) is NarrowTables:
        return add_narrow_diffs
    return add_exact_diffs


def add_narrow_diffs(acc, tables, i, j, coef):
    """:func:`add_diffs` of narrow tables: the diff of two small integers
    x_i, x_j is |x_i - x_j| / range, exact where the range is 1 or 2, so
    |x_i - x_j| * unit is the float64 path's |s_i - s_j| to the bit (and
    a nominal one's x_i != x_j its 0 or 1)."""
    values, unit, nominal = tables.values, tables.unit, tables.nominal
    for a in range(acc.shape[0]):
        xi, xj = np.float64(values[a, i]), np.float64(values[a, j])
        d = abs(xi - xj) * unit[a]
        acc[a] += coef * (as_dtype_of(xi, xi != xj) if nominal[a] else d)


def add_exact_diffs(acc, tables, i, j, coef):
    """:func:`add_diffs` of the exact tables."""
    if numeric_and_known(tables):  # without the nominal select
        add_numeric_diffs(acc, tables.values, i, j, coef)
    elif not any_missing(tables):
        add_known_diffs(acc, tables, i, j, coef)
    elif tables.kind == LINEAR and every_attribute_slotted(tables):
        gi, gj = tables.groups[i], tables.groups[j]
        for a in range(acc.shape[0]):
            acc[a] += coef * slotted_linear_diff(tables, a, i, j, gi, gj)
    else:
        for a in range(acc.shape[0]):
            acc[a] += coef * attribute_diff(tables, a, i, j)


@numba.njit(cache=True)
def relieff_update(acc, tables, i, neighbours, priors):
    """acc[A] += m times reference I_i's ReliefF update (Fig. 2, lines 8-9)::

        - sum_j diff(A, R, H_j) / k
        + sum_{C != class(R)} P(C) / (1 - P(class(R))) sum_j diff(A, R, M_j(C)) / k

    `neighbours` is the reference's (n_groups, k) list; k becomes the
    number of neighbours a class actually has.  With two classes and k = 1
    this is Kira & Rendell's Relief (Fig. 1).
    """
    own = tables.groups[i]
    for g in range(neighbours.shape[0]):
        count = n_found(neighbours, g)
        if count == 0:
            continue
        if g == own:
            coef = -1.0 / count
        else:
            coef = priors[g] / (1 - priors[own]) / count
        for s in range(count):
            add_diffs(acc, tables, i, neighbours[g, s], coef)


def relieff_rule(exact, refs, neighbours, priors):
    """ReliefF weights (Kononenko 1994): the mean of the references' updates."""
    return relieff_weights(kernel_tables(exact), refs, neighbours, priors)


@numba.njit(parallel=True, cache=True)
def relieff_weights(exact, refs, neighbours, priors):
    """:func:`relieff_rule` of the kernels' exact tables."""
    m = neighbours.shape[0]
    n_blocks = -(-m // UPDATE_BLOCK)
    partial = np.zeros((n_blocks, exact.values.shape[0]))
    for b in prange(n_blocks):
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            relieff_update(partial[b], exact, refs[r], neighbours[r], priors)
    return partial.sum(axis=0) / m


@numba.njit(cache=True)
def rrelieff_update(sums, tables, i, neighbours, target, rank_weights):
    """Add reference I_i's terms to RReliefF's sums (Robnik-Sikonja &
    Kononenko 1997, 2003)::

        N_dC      += diff(tau, R, I_j) d(R, I_j)          (sums[0, 0])
        N_dA[A]   += diff(A, R, I_j) d(R, I_j)             (sums[1])
        N_dCdA[A] += diff(tau, R, I_j) diff(A, R, I_j) d(R, I_j)   (sums[2])

    d(R, I_j) = rank_weights[j] / the sum over R's neighbours;
    diff(tau, ...) = |target difference| (target scaled to [0, 1]).
    """
    count = n_found(neighbours, 0)
    norm = rank_weights[:count].sum()
    for s in range(count):
        j = neighbours[0, s]
        d = rank_weights[s] / norm
        d_target = abs(target[i] - target[j])
        sums[0, 0] += d_target * d
        add_diffs(sums[1], tables, i, j, d)
        add_diffs(sums[2], tables, i, j, d_target * d)


def rrelieff_sums(exact, refs, neighbours, target, rank_weights):
    """RReliefF's (N_dC, N_dA, N_dCdA) summed over all references."""
    return rrelieff_terms(kernel_tables(exact), refs, neighbours, target,
                          rank_weights)


@numba.njit(parallel=True, cache=True)
def rrelieff_terms(exact, refs, neighbours, target, rank_weights):
    """:func:`rrelieff_sums` of the kernels' exact tables."""
    m = neighbours.shape[0]
    n_blocks = -(-m // UPDATE_BLOCK)
    partial = np.zeros((n_blocks, 3, exact.values.shape[0]))
    for b in prange(n_blocks):
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            rrelieff_update(partial[b], exact, refs[r], neighbours[r],
                            target, rank_weights)
    sums = partial.sum(axis=0)
    return sums[0, 0], sums[1], sums[2]

"""The rules of Relief, ReliefF (Kononenko 1994) and RReliefF
(Robnik-Sikonja & Kononenko 1997), compiled; the diff of a pair read from
the exact tables (:mod:`..diffs`), the neighbours from the parts of
:class:`.....neighbours.NeighbourLists`, each weighted by its share of
its list's places."""
import numba
import numpy as np
from numba import prange
from numba.extending import overload

from ..diffs import (any_missing, as_dtype_of, attribute_diff,
                     every_attribute_slotted, kernel_tables, known_diff,
                     linear_diff, numeric_and_known, slotted_linear_diff)
from ..threads import by_work, serial_and_parallel
from ....tables import LINEAR, NarrowTables
from .unrolled import add_list_numeric, add_numeric_diffs

UPDATE_BLOCK = 64  # references per partial sum


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
        add_numeric_diffs(acc, tables.values.T, i, j, coef)
    elif not any_missing(tables):
        add_known_diffs(acc, tables, i, j, coef)
    elif tables.kind == LINEAR and every_attribute_slotted(tables):
        gi, gj = tables.groups[i], tables.groups[j]
        for a in range(acc.shape[0]):
            acc[a] += coef * slotted_linear_diff(tables, a, i, j, gi, gj)
    else:
        for a in range(acc.shape[0]):
            acc[a] += coef * attribute_diff(tables, a, i, j)


def add_list_diffs(acc, tables, i, index, share, start, stop, coef):
    """acc[A] += coef * share[e] * diff(A, I_i, I_index[e]) for the
    entries e = start .. stop - 1 of a list, in order: :func:`add_diffs`
    of each, the form of the diff chosen once for the list (numba
    compiles the one of the tables' type)."""
    raise NotImplementedError("compiled code only")


@overload(add_list_diffs)
def add_list_diffs_of(acc, tables, i, index, share, start, stop, coef):
    """The implementation of :func:`add_list_diffs` for the type of
    `tables`."""
    if getattr(tables, "instance_class", None) is NarrowTables:
        return add_entries_diffs.py_func
    return add_exact_list_diffs


@numba.njit(inline="always", cache=True)
def add_entries_diffs(acc, tables, i, index, share, start, stop, coef):
    """:func:`add_list_diffs`, entry by entry."""
    for e in range(start, stop):
        add_diffs(acc, tables, i, index[e], coef * share[e])


def add_exact_list_diffs(acc, tables, i, index, share, start, stop, coef):
    """:func:`add_list_diffs` of the exact tables: numeric attributes
    without missing values read the values array itself, taken out of
    the tables once for the list (through the tables for each entry,
    ReliefF's update took four times as long: 2.9 against 0.75 ns an
    entry and attribute, 1000 x 50, one thread, processor time), four
    entries a pass (:func:`.unrolled.add_list_numeric`).  Other data
    entry by entry."""
    if numeric_and_known(tables):
        add_list_numeric(acc, tables.values.T, i, index, share, start,
                         stop, coef)
    else:
        add_entries_diffs(acc, tables, i, index, share, start, stop, coef)


@numba.njit(cache=True)
def relieff_update(acc, tables, i, offsets, index, share, places, priors):
    """acc[A] += m times reference I_i's ReliefF update (Fig. 2, lines 8-9)::

        - sum_j diff(A, R, H_j) / k
        + sum_{C != class(R)} P(C) / (1 - P(class(R))) sum_j diff(A, R, M_j(C)) / k

    over its lists, list g the entries ``offsets[g]:offsets[g + 1]`` of
    `index`, each neighbour's terms times its `share` of the list's
    ``places[g]`` places (k, or what a class has: k becomes that).  With
    two classes and k = 1 this is Kira & Rendell's Relief (Fig. 1).
    """
    own = tables.groups[i]
    for g in range(len(places)):
        if places[g] == 0:
            continue
        if g == own:
            coef = -1.0 / places[g]
        else:
            coef = priors[g] / (1 - priors[own]) / places[g]
        add_list_diffs(acc, tables, i, index, share, offsets[g],
                       offsets[g + 1], coef)


def relieff_rule(exact, refs, neighbours, priors):
    """ReliefF weights (Kononenko 1994): the mean of the references'
    updates, over the parts of `neighbours` (:mod:`.....neighbours`)."""
    tables = kernel_tables(exact)
    m, n_attrs = len(refs), exact.values.shape[0]
    partial = np.zeros((-(-m // UPDATE_BLOCK), n_attrs))
    for start, part in neighbours:
        kernel = by_work(RELIEFF_BLOCKS, part.n_entries * n_attrs)
        kernel(tables, refs[start:start + len(part)], part.offsets,
               part.index, part.share, part.places, priors,
               partial[start // UPDATE_BLOCK:])
    return mean_of_blocks(partial, m)


def relieff_blocks(exact, refs, offsets, index, share, places, priors,
                   partial):
    """The references' updates (:func:`relieff_update`) added into
    ``partial[b]``, block b of UPDATE_BLOCK references."""
    m, n_groups = places.shape
    for b in prange(-(-m // UPDATE_BLOCK)):
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            relieff_update(partial[b], exact, refs[r],
                           offsets[r * n_groups:(r + 1) * n_groups + 1],
                           index, share, places[r], priors)


RELIEFF_BLOCKS = serial_and_parallel(relieff_blocks)


@numba.njit(cache=True)
def mean_of_blocks(partial, m):
    """The sum of the blocks' partial sums, in block order, over m."""
    return partial.sum(axis=0) / m


@numba.njit(cache=True)
def rrelieff_update(sums, tables, i, start, stop, index, weight, norm,
                    target):
    """Add reference I_i's terms to RReliefF's sums (Robnik-Sikonja &
    Kononenko 1997, 2003)::

        N_dC      += diff(tau, R, I_j) d(R, I_j)          (sums[0, 0])
        N_dA[A]   += diff(A, R, I_j) d(R, I_j)             (sums[1])
        N_dCdA[A] += diff(tau, R, I_j) diff(A, R, I_j) d(R, I_j)   (sums[2])

    over its neighbours, entries start .. stop - 1: d(R, I_j) =
    weight[e] (the neighbour's expected rank weight) / `norm` (the sum of
    the rank weights of the list's places); diff(tau, ...) = |target
    difference| (target scaled to [0, 1]).
    """
    for e in range(start, stop):
        j = index[e]
        d = weight[e] / norm
        d_target = abs(target[i] - target[j])
        sums[0, 0] += d_target * d
        add_diffs(sums[1], tables, i, j, d)
        add_diffs(sums[2], tables, i, j, d_target * d)


def rrelieff_sums(exact, refs, neighbours, target, rank_weights):
    """RReliefF's (N_dC, N_dA, N_dCdA) summed over all references, over
    the parts of `neighbours`, each neighbour weighted by its expected
    rank weight (:meth:`.....neighbours.Neighbours.place_weights`)."""
    tables = kernel_tables(exact)
    m, n_attrs = len(refs), exact.values.shape[0]
    partial = np.zeros((-(-m // UPDATE_BLOCK), 3, n_attrs))
    for start, part in neighbours:
        kernel = by_work(RRELIEFF_BLOCKS, 2 * part.n_entries * n_attrs)
        kernel(tables, refs[start:start + len(part)], part.offsets,
               part.index, part.place_weights(rank_weights),
               part.places[:, 0], target, rank_weights,
               partial[start // UPDATE_BLOCK:])
    sums = sum_of_blocks(partial)
    return sums[0, 0], sums[1], sums[2]


def rrelieff_blocks(exact, refs, offsets, index, weight, places, target,
                    rank_weights, partial):
    """The references' terms (:func:`rrelieff_update`) added into
    ``partial[b]``, block b of UPDATE_BLOCK references."""
    m = len(places)
    for b in prange(-(-m // UPDATE_BLOCK)):
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            norm = rank_weights[:places[r]].sum()
            rrelieff_update(partial[b], exact, refs[r], offsets[r],
                            offsets[r + 1], index, weight, norm, target)


RRELIEFF_BLOCKS = serial_and_parallel(rrelieff_blocks)


@numba.njit(cache=True)
def sum_of_blocks(partial):
    """The sum of the blocks' partial sums, in block order."""
    return partial.sum(axis=0)

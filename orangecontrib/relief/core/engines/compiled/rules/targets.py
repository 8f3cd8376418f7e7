"""The rules of several targets, compiled: multi-target RReliefF
(Petkovic, Kocev & Dzeroski 2020) and multi-label ReliefF (Reyes, Morell
& Ventura 2015).

Their terms are each neighbour's coefficients times the pair's diffs, a
coefficient per ranking (the overall one and each target's): the diffs
of a pair are computed once and every ranking's sums take them, in the
one pass over the neighbour lists.
"""
import numba
import numpy as np
from numba import prange

from ..diffs import kernel_tables
from .relieff import UPDATE_BLOCK, add_diffs, sum_of_blocks


def neighbour_sums(exact, refs, neighbours, coefficients):
    """The compiled engine's :meth:`...interface.Engine.neighbour_sums`:
    each part's references in blocks of :data:`UPDATE_BLOCK`, summed in
    block order."""
    tables = kernel_tables(exact)
    m, n_attrs = len(refs), exact.values.shape[0]
    partial = totals = None
    for start, part in neighbours:
        coefs = np.ascontiguousarray(coefficients(start, part), np.float64)
        if partial is None:
            n_blocks = -(-m // UPDATE_BLOCK)
            partial = np.zeros((n_blocks, coefs.shape[1], n_attrs))
            totals = np.zeros((n_blocks, coefs.shape[1]))
        first = start // UPDATE_BLOCK
        coefficient_blocks(tables, refs[start:start + len(part)],
                           part.offsets, part.index, coefs, part.n_groups,
                           partial[first:], totals[first:])
    return sum_of_blocks(totals), sum_of_blocks(partial)


@numba.njit(parallel=True, cache=True)
def coefficient_blocks(exact, refs, offsets, index, coefs, n_groups,
                       partial, totals):
    """Block b of UPDATE_BLOCK references into ``partial[b]`` and
    ``totals[b]``: for each reference I_i, its neighbours I_j (entries
    ``offsets[r G]:offsets[(r + 1) G]``) in order, the diffs of the pair
    computed once, then ``partial[b, c] += coefs[e, c] diff(., I_i,
    I_j)`` and ``totals[b, c] += coefs[e, c]`` for every column c."""
    m, n_columns = len(refs), coefs.shape[1]
    for b in prange(-(-m // UPDATE_BLOCK)):
        diffs = np.empty(partial.shape[2])
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            i = refs[r]
            for e in range(offsets[r * n_groups],
                           offsets[(r + 1) * n_groups]):
                diffs[:] = 0.0
                add_diffs(diffs, exact, i, index[e], 1.0)
                for c in range(n_columns):
                    add_scaled(partial[b, c], diffs, coefs[e, c])
                    totals[b, c] += coefs[e, c]


@numba.njit(inline="always", cache=True)
def add_scaled(acc, diffs, coef):
    """acc[A] += coef * diffs[A] (a loop that vectorises)."""
    for a in range(acc.shape[0]):
        acc[a] += coef * diffs[a]

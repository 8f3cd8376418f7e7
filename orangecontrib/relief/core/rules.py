"""Step 3: the update rules, applied to the neighbours the search found.

Each rule reads the float64 diff tables, so the weights are exact given the
neighbours.  References are processed in fixed blocks whose partial sums are
added in block order: the result does not depend on the number of threads.
"""
import numba
import numpy as np
from numba import prange

from .diffs import attribute_diff

UPDATE_BLOCK = 64  # references per partial sum


@numba.njit(inline="always", cache=True)
def n_found(neighbours, r, g):
    """How many neighbours of group g reference r has (the list pads with -1)."""
    count = 0
    while count < neighbours.shape[2] and neighbours[r, g, count] >= 0:
        count += 1
    return count


@numba.njit(inline="always", cache=True)
def add_diffs(acc, tables, i, j, coef):
    """acc[A] += coef * diff(A, I_i, I_j) for every attribute A."""
    for a in range(acc.shape[0]):
        acc[a] += coef * attribute_diff(tables, a, i, j)


@numba.njit(parallel=True, cache=True)
def relieff_rule(tables, refs, neighbours, priors):
    """ReliefF weights (Kononenko 1994; Prat & Belanche 2006, Fig. 2)::

        W[A] -= sum_j diff(A, R, H_j) / (m k)
        W[A] += sum_{C != class(R)} P(C) / (1 - P(class(R)))
                                    * sum_j diff(A, R, M_j(C)) / (m k)

    with k replaced by the number of neighbours a class actually has.  With
    two classes and k = 1 this is Kira & Rendell's Relief (Fig. 1).
    """
    m, n_groups = neighbours.shape[0], neighbours.shape[1]
    n_blocks = -(-m // UPDATE_BLOCK)
    partial = np.zeros((n_blocks, tables.values.shape[0]))
    for b in prange(n_blocks):
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            i = refs[r]
            own = tables.groups[i]
            for g in range(n_groups):
                count = n_found(neighbours, r, g)
                if count == 0:
                    continue
                if g == own:
                    coef = -1.0 / count
                else:
                    coef = priors[g] / (1 - priors[own]) / count
                for s in range(count):
                    add_diffs(partial[b], tables, i, neighbours[r, g, s], coef)
    return partial.sum(axis=0) / m


@numba.njit(parallel=True, cache=True)
def rrelieff_sums(tables, refs, neighbours, target, rank_weights):
    """RReliefF's sums (Robnik-Sikonja & Kononenko 1997, 2003)::

        N_dC     += diff(tau, R, I_j) d(R, I_j)
        N_dA[A]  += diff(A, R, I_j) d(R, I_j)
        N_dCdA[A] += diff(tau, R, I_j) diff(A, R, I_j) d(R, I_j)

    d(R, I_j) = rank_weights[j] / sum of the rank weights of R's neighbours,
    diff(tau, ...) = |target difference| (target scaled to [0, 1]).
    Returns (N_dC, N_dA, N_dCdA) summed over all references.
    """
    m, n_attrs = neighbours.shape[0], tables.values.shape[0]
    n_blocks = -(-m // UPDATE_BLOCK)
    n_dc = np.zeros(n_blocks)
    n_da = np.zeros((n_blocks, n_attrs))
    n_dcda = np.zeros((n_blocks, n_attrs))
    for b in prange(n_blocks):
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            i = refs[r]
            count = n_found(neighbours, r, 0)
            norm = rank_weights[:count].sum()
            for s in range(count):
                j = neighbours[r, 0, s]
                d = rank_weights[s] / norm
                d_target = abs(target[i] - target[j])
                n_dc[b] += d_target * d
                add_diffs(n_da[b], tables, i, j, d)
                add_diffs(n_dcda[b], tables, i, j, d_target * d)
    return n_dc.sum(), n_da.sum(axis=0), n_dcda.sum(axis=0)


def rrelieff_weights(n_dc, n_da, n_dcda, m):
    """W[A] = N_dCdA / N_dC - (N_dA - N_dCdA) / (m - N_dC).

    A term whose denominator is 0 (no neighbour ever differs in the target,
    or every one differs fully) carries no evidence and counts as 0.
    """
    first = n_dcda / n_dc if n_dc > 0 else np.zeros_like(n_dcda)
    second = (n_da - n_dcda) / (m - n_dc) if m > n_dc else np.zeros_like(n_da)
    return first - second

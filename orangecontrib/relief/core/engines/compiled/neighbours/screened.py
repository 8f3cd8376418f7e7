"""SURF's distances to one limit: float32 where that decides, else exact.

SURF and SURF* read a reference's distances only against one limit, the
mean distance T of all pairs (Greene et al. 2009; a member of the near
set lies below it, of the far set above it).  Where no distance is
weighted and numeric data have the linear diff and no missing value,
each distance is computed in float32 (twice the SIMD width of float64)
with a proven bound on its error (:func:`error_bound`); a pair whose
float32 distance lies farther than the bound from T is on the side of T
its exact distance is on, and the few within the bound get their exact
float64 distance (:func:`.exact_ranking.exact_distance`, the bits
:func:`.distance_rows.distance_tile` gives).  The sets, and so the
weights, are those of the exact distances to the bit.
"""
from collections import namedtuple

import numba
import numpy as np

from .block import BLOCK, ROWS
from .distance_rows import distance_tile
from .exact_ranking import exact_distance

#: What the screen reads: `values`, float32 (attributes x instances, C
#: order) of each attribute's values less its least; `magnitudes`,
#: float64 (instances), each instance's sum of those (before rounding).
Screen = namedtuple("Screen", ["values", "magnitudes"])

#: the unit roundoff of float32
UNIT = 2.0 ** -24


def screen_of(values):
    """The :class:`Screen` of `values` (float64, attributes x
    instances): shifted by each attribute's least value, so that their
    rounding to float32 is small against their differences."""
    shifted = values - values.min(axis=1, keepdims=True)
    return Screen(np.ascontiguousarray(shifted, dtype=np.float32),
                  shifted.sum(axis=0))


@numba.njit(inline="always", cache=True)
def error_bound(screen, d, i, j):
    """A bound on |d - D(I_i, I_j)|, d their float32 distance on the
    screen and D the exact one.

    With s_A the shifted values (x_A - min_A, exact but for one float64
    rounding), u = 2^-24: each term |fl(s_A(I_i)) - fl(s_A(I_j))| is off
    |s_A(I_i) - s_A(I_j)| by at most u (s_A(I_i) + s_A(I_j)) for the two
    roundings to float32 and u times itself for the subtraction, so the
    terms together by u (S_i + S_j + d) (S the instances' magnitudes);
    each of the a - 1 additions by u times its partial sum, at most d (the
    terms are not negative).  Together u ((a + 1) d + S_i + S_j), times
    1.01 for the float64 roundings (of the shift, of D's own a additions,
    of this bound)."""
    a = screen.values.shape[0]
    return 1.01 * UNIT * ((a + 1) * d + screen.magnitudes[i]
                          + screen.magnitudes[j])


@numba.njit(cache=True)
def screened_block(exact, screen, rows, count, dist, limit):
    """dist[r, j], for r < count and every instance j, compared with
    `limit` as D(I_rows[r], I_j) compares (:func:`error_bound`): the
    float32 distance where it lies farther than the bound from `limit`,
    else the exact one.  A tile serves every ROWS of `rows` in turn, as
    :func:`.distance_rows.distance_block` takes them."""
    n = screen.values.shape[1]
    ones = np.ones(screen.values.shape[0])
    out = np.empty((ROWS, BLOCK), np.float32)
    for j0 in range(0, n, BLOCK):
        width = min(j0 + BLOCK, n) - j0
        for q in range(0, count, ROWS):
            n_rows = min(ROWS, count - q)
            block = rows[q:q + ROWS]
            distance_tile(screen.values, exact, block, n_rows, out, j0, width)
            for r in range(n_rows):
                i = block[r]
                for jj in range(width):
                    j = j0 + jj
                    d = np.float64(out[r, jj])
                    if abs(d - limit) <= error_bound(screen, d, i, j):
                        d = exact_distance(exact, ones, i, j)
                    dist[q + r, j] = d

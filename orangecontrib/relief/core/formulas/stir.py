"""The sums STIR tests (Le et al. 2019), gathered over pairs of a
reference and its neighbours.

Each pair (i, j) enters with a weight w_ij, the magnitude of its
coefficient in the method's update of reference i: 1 / k_Hi for a hit,
1 / k_Mi for a miss of two classes (k_Hi, k_Mi: i's hits and misses), a
miss of class C among more ReliefF's P(C) / sum of P(C') over the miss
classes, over C's neighbours of i.  Then the means over the m references,

    mean_H = (1 / m) sum_i sum_{j in H_i} w_ij diff(A, i, j),

and likewise mean_M, differ by the method's own weight, and the variances
are weighted alike (Le et al. 2019, for two classes, as the authors' R
package computes them).

The SWRF family (Stokes & Visweswaran 2012) weights each near neighbour
by a sigmoid s_ij of its distance from the set's limit, so its pair's
coefficient is the SURF family's times s_ij, and w_ij carries it: the
means still differ by the method's near weight.  A pair then counts s_ij
in n_H and n_M (a neighbour near the limit counts little, as in the
method), and a reference's place in the variances is the sum of its
pairs' w_ij (below 1): the weighted t-test of frequency weights, which
is STIR's own where every s_ij is 1.  Per attribute the kernels keep sum w d and
sum w d^2 of each kind of pair; with the numbers of pairs and of
references having pairs of the kind, that is all
:func:`..analysis.significance.stir_test` needs.  The vectorised engine adds them
over blocks of references, ReliefF's pairs
(:func:`..analysis.significance.relieff_pair_sums`) over one reference at a time.
"""
from collections import namedtuple

import numpy as np

from .diffs import weighted

#: rows of STIR's sums beside a rule's update and far update (rows 0, 1)
HIT_SUM, HIT_SQUARES, MISS_SUM, MISS_SQUARES = 2, 3, 4, 5
#: places of STIR's counts
N_HIT, N_MISS, HIT_REFS, MISS_REFS = 0, 1, 2, 3
#: how many
COUNT_PLACES = MISS_REFS + 1
#: places after them of the SWRF family's far-set terms that do not depend
#: on the attribute, summed over the references: sum c (any miss - any
#: hit, :func:`.neighbourhoods.far_presence`) and sum c w over the
#: members; and the number of places of a classification rule's scalars
FAR_PRESENCE, FAR_WEIGHT = COUNT_PLACES, COUNT_PLACES + 1
CLASS_SCALARS = FAR_WEIGHT + 1

StirSums = namedtuple("StirSums", [
    "hit_sum",       # (a,) sum of w d over the hit pairs
    "hit_squares",   # (a,) sum of w d^2 over the hit pairs
    "n_hit",         # number of hit pairs (the sum of their s, weighted)
    "hit_refs",      # references with a hit (the sum of the hits' w)
    "miss_sum",      # (a,) the same over the miss pairs
    "miss_squares",
    "n_miss",
    "miss_refs",
    "n_refs",        # m, the references: the means' divisor
])


def add_stir_sums(sums, counts, diffs, coef, hit, miss, pairs=None):
    """STIR's sums of the (reference, instance) pairs of the (rows x n)
    masks `hit` and `miss`, each weighted by the magnitude of its
    coefficient `coef` (rows x n) in the rule: rows HIT_SUM to
    MISS_SQUARES of `sums` (a is the last axis of `sums`, the first of
    `diffs`) and places N_HIT to MISS_REFS of `counts`.  `pairs`, if
    given, are the (hit, miss) pairs to count, where the masks' entries
    are not whole pairs (a k-nearest list's tied candidates sharing its
    last places count as the places they fill)."""
    weight = np.abs(coef)
    for mask, row in ((hit, HIT_SUM), (miss, MISS_SUM)):
        sums[row] += weighted(diffs, weight * mask)
        sums[row + 1] += weighted(diffs ** 2, weight * mask)
    n_hit, n_miss = (hit.sum(), miss.sum()) if pairs is None else pairs
    counts[N_HIT] += n_hit
    counts[N_MISS] += n_miss
    counts[HIT_REFS] += hit.any(axis=1).sum()
    counts[MISS_REFS] += miss.any(axis=1).sum()


def stir_sums(sums, counts, n_refs):
    """The :data:`StirSums` of the rows of :func:`add_stir_sums` over
    `n_refs` references."""
    return StirSums(sums[HIT_SUM], sums[HIT_SQUARES], counts[N_HIT],
                    counts[HIT_REFS], sums[MISS_SUM], sums[MISS_SQUARES],
                    counts[N_MISS], counts[MISS_REFS], n_refs)

"""The sums STIR tests (Le et al. 2019), gathered over pairs of a
reference and its neighbours: the hits' and the misses' diffs and the
squared diffs of both, and the numbers of hit and miss pairs.  The
vectorised engine adds them over blocks of references, ReliefF's pairs
(:func:`..significance.relieff_pair_sums`) over one reference at a time.
"""
from .diffs import weighted


def add_stir_sums(sums, constant, diffs, hit, miss):
    """STIR's sums (Le et al. 2019) of the (reference, instance) pairs of
    the (rows x n) masks `hit` and `miss`, in the layout of
    :func:`..engines.vectorised.surf.classification_sums`: the hits'
    diffs to row 2 of `sums`, the squared diffs of both to row 3 (the
    pooled variance needs no more),
    the misses' diffs to row 4, and the numbers of hits and misses to
    constant[1:3]."""
    sums[2] += weighted(diffs, hit)
    sums[3] += weighted(diffs ** 2, hit | miss)
    sums[4] += weighted(diffs, miss)
    constant[1] += hit.sum()
    constant[2] += miss.sum()


def stir_sums(sums, constant):
    """(hit_sum, n_hit, miss_sum, n_miss, squares) of the rows of
    :func:`add_stir_sums`: the arguments of :func:`..significance.stir_test`."""
    return sums[2], constant[1], sums[4], constant[2], sums[3]

"""Distance-threshold neighbourhoods: the definitions both engines share.

The SURF family replaces ReliefF's k nearest neighbours by every instance
within a distance threshold of the reference, D(i, j) = sum_A diff(A, i, j):

* SURF (Greene et al. 2009): near_i = {j : D(i, j) < T}, T the mean of D
  over the n (n - 1) / 2 pairs;
* SURF* (Greene et al. 2010): also far_i = {j : D(i, j) > T}, scored with
  the opposite sign;
* MultiSURF (Urbanowicz et al. 2018, J Biomed Inform 85:168, eq. 2):
  near_i = {j : D(i, j) < mu_i - sigma_i / 2}, mu_i and sigma_i the mean
  and standard deviation of i's distances to the n - 1 others;
* MultiSURF* (Granizo-Mackenzie & Moore 2013): also
  far_i = {j : D(i, j) > mu_i + sigma_i / 2}, the band between ignored,
  the far ones scored by their similarity 1 - diff, hits against and
  misses for the attribute;
* the SWRF family (Stokes & Visweswaran 2012, as scikit-rebate 0.8 defines
  it): the neighbourhoods of SURF (SWRF), of MultiSURF without its dead
  band (MultiSWRF, limits mu_i) or with it (MultiSWRFDB), each member
  weighted by :func:`sigmoid_weight` of its distance from its set's limit;
  the starred ones also score the far set by its weighted similarity.

MultiSURF*'s similarity update over a far set S is SURF*'s opposite update
plus a term that is the same for every attribute::

    sum_C w_C mean_{S_C} (1 - diff) - mean_{S_own} (1 - diff)
        = (any miss in S) - (any hit in S) - u_S(A)

The term is 0 where S holds hits and misses; where it lacks either, it
would give an attribute that never differs (a constant one) a weight of
+-1/m and move every other weight by as much, whatever the attributes
say.  It carries no information about any attribute, so it is left out:
both star forms subtract the far update, and a constant attribute weighs
0.  (scikit-rebate keeps it; its MultiSURF* weights differ from ours by
that common shift where a far set lacks hits or misses, and rank the
attributes alike.)  The SWRF family's weighted similarity leaves out its
attribute-free term alike, sum_C w_C mean_{S_C} w, unless it follows
scikit-rebate's convention (:mod:`..variants.swrf`), whose terms
:func:`far_presence` and the rules' sums of c w give.

The functions here are plain Python on scalars and small arrays: the
compiled engine compiles them (:mod:`..engines.compiled.rules.surf`) and the vectorised
one calls them as they are, so that both read one definition.
"""
import math
from collections import namedtuple

import numpy as np

#: how the far instances of a reference are scored: not at all, or by
#: the update subtracted (SURF*, and MultiSURF*'s similarity without its
#: attribute-free term)
NO_FAR, OPPOSITE = 0, 1

#: the standard deviations MultiSURF may use: the population's (scikit-rebate,
#: fast-select) or the sample's (STIR, NPDR)
SIGMAS = {"population": 0, "sample": 1}


#: the half-width of MultiSURF's dead band, in standard deviations
DEAD_BAND = 0.5

#: the priors of a numeric target's hits (code 0) and misses (1) where the
#: classification rule scores them (scikit-rebate's continuous endpoint,
#: :func:`pair_codes`): any equal pair, as with two classes a miss's
#: factor is 1 whatever the priors
PAIR_PRIORS = np.array([0.5, 0.5])


def pair_codes(target, i, hit_bound, codes):
    """codes[j]: 0 where I_j is a hit of the reference I_i for a numeric
    `target` (|y_i - y_j| < `hit_bound`, scikit-rebate 0.8's continuous
    endpoint, the bound the target's sample standard deviation), else 1
    (a miss); the reference itself 0."""
    for j in range(len(target)):
        codes[j] = 0 if abs(target[j] - target[i]) < hit_bound else 1
    codes[i] = 0


def thresholds(mean, sigma, local, global_mean, band=DEAD_BAND):
    """(near, far) distance limits of a reference.

    `local` (MultiSURF): mean -+ band sigma of the reference's own
    distances (band 1/2; 0 for MultiSWRF); else (SURF) both are the mean
    distance of all pairs.
    """
    if local:
        return mean - band * sigma, mean + band * sigma
    return global_mean, global_mean


def global_statistics(total, squares, n, diagonal):
    """(mean, population standard deviation) of the distances of all pairs
    from their sums over the n (n - 1) ordered pairs of distinct
    instances, `total` of D and `squares` of D^2; with `diagonal` the n
    zero distances of the instances to themselves count too (SWRF's T
    and sigma as scikit-rebate 0.8 takes them from its n x n matrix)."""
    count = n * n if diagonal else n * (n - 1)
    if count == 0:
        return 0.0, 0.0
    mean = total / count
    return mean, math.sqrt(max(squares / count - mean * mean, 0.0))


def sigmoid_scale(sigma):
    """4 / sigma of :func:`sigmoid_weight`, a sigma of 0 read as 1 (as
    scikit-rebate 0.8 reads it)."""
    return 4.0 / (sigma if sigma > 0 else 1.0)


def sigmoid_weight(distance, limit, scale):
    """The weight of a neighbour at `distance` from the reference, in the
    set bounded by `limit` (Stokes & Visweswaran 2012, eq. 1, the sign
    taken by the set)::

        w = 2 / (1 + exp(-|D - limit| scale)) - 1 = tanh(2 |D - limit| / sigma)

    scale = 4 / sigma (:func:`sigmoid_scale`), the exponent clipped at -50
    as scikit-rebate 0.8 clips it: 0 on the limit, near 1 a standard
    deviation away.  Scalars or numpy arrays alike."""
    return 2.0 / (1.0 + np.exp(np.maximum(-np.abs(distance - limit) * scale,
                                          -50.0))) - 1.0


def standard_deviation(squares_about_mean, n_others, ddof):
    """sigma of a reference's n_others distances from their squared
    deviations about their mean, divided by n_others - ddof (0 when that
    is below 1)."""
    if n_others - ddof < 1:
        return 0.0
    return math.sqrt(squares_about_mean / (n_others - ddof))


def class_coefficients(counts, own, priors, coefs):
    """coefs[c]: the factor of a neighbour of class c in the reference's
    update over one neighbourhood, given the neighbourhood's class counts::

        u(A) = sum_{c != own, counts[c] > 0} w_c mean_c diff(A)
               - mean_own diff(A)
        w_c = P(c) / sum of P(c') over the miss classes present

    ReliefF's prior weighting of the misses (Kononenko 1994), renormalised
    over the classes the neighbourhood holds; with two classes w_c = 1, the
    scikit-rebate and fast-select scores.
    """
    present = 0.0
    for c in range(len(counts)):
        if c != own and counts[c] > 0:
            present += priors[c]
    for c in range(len(counts)):
        if counts[c] == 0:
            coefs[c] = 0.0
        elif c == own:
            coefs[c] = -1.0 / counts[c]
        else:
            coefs[c] = priors[c] / present / counts[c]


def far_presence(counts, own):
    """(any miss) - (any hit) of a set with the class `counts`: the sum of
    its members' coefficients (:func:`class_coefficients`), the part of
    scikit-rebate's far score 1 - w diff of a numeric attribute that does
    not depend on the attribute (the SWRF family)."""
    miss = 0.0
    for c in range(len(counts)):
        if c != own and counts[c] > 0:
            miss = 1.0
    return miss - (1.0 if counts[own] > 0 else 0.0)


#: distances the SURF family's rules read instead of computing them (the
#: rules of a block of columns, whose neighbourhoods depend on every
#: column: :mod:`...compact.hoods`)
GivenDistances = namedtuple("GivenDistances", [
    "rows",         # float64 (r, n): D(i, j) of some instances i
    "row_of",       # int64 (n,): the row of instance i (-1: none)
    "global_mean",  # SURF's T, the mean distance of all pairs (0 if unused)
    "global_scale",  # SWRF's sigmoid scale of their deviation (1 if unused)
])

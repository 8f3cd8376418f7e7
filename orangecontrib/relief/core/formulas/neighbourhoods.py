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
  misses for the attribute.

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
attributes alike.)

The functions here are plain Python on scalars and small arrays: the
compiled engine compiles them (:mod:`..engines.compiled.rules.surf`) and the vectorised
one calls them as they are, so that both read one definition.
"""
import math
from collections import namedtuple

#: how the far instances of a reference are scored: not at all, or by
#: the update subtracted (SURF*, and MultiSURF*'s similarity without its
#: attribute-free term)
NO_FAR, OPPOSITE = 0, 1

#: the standard deviations MultiSURF may use: the population's (scikit-rebate,
#: fast-select) or the sample's (STIR, NPDR)
SIGMAS = {"population": 0, "sample": 1}


def thresholds(mean, sigma, local, global_mean):
    """(near, far) distance limits of a reference.

    `local` (MultiSURF): mean -+ sigma / 2 of the reference's own
    distances; else (SURF) both are the mean distance of all pairs.
    """
    if local:
        return mean - sigma / 2, mean + sigma / 2
    return global_mean, global_mean


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


#: distances the SURF family's rules read instead of computing them (the
#: rules of a block of columns, whose neighbourhoods depend on every
#: column: :mod:`...compact.hoods`)
GivenDistances = namedtuple("GivenDistances", [
    "rows",         # float64 (r, n): D(i, j) of some instances i
    "row_of",       # int64 (n,): the row of instance i (-1: none)
    "global_mean",  # SURF's T, the mean distance of all pairs (0 if unused)
])

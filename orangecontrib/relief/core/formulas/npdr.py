"""NPDR's regressions over neighbour pairs: the definitions both engines
share (Le, Dawkins & McKinney 2020).

For every attribute A, NPDR regresses the pairs' outcome difference on
their diff of A (and the diffs of the covariates), over the neighbour
pairs (i, j)::

    logistic:  P(y_ij = 1) = mu(eta_ij),  y_ij = 1 for a miss, 0 for a hit
    linear:    y_ij = eta_ij + e_ij,      y_ij = |y_i - y_j| (scaled)
    eta_ij = b_0 + b_A diff(A, i, j) + sum_c b_c diff(c, i, j)

The design row of a pair is x = (1, diff(A), diff(c_1), ...), k columns.
Both fits solve normal equations H delta = g with

    H = sum_pairs w x x',   g = sum_pairs r x

(linear: w = 1, r = y, one solve; logistic: w = mu (1 - mu),
r = y - mu, Newton's steps, which are the IRLS steps of R's glm, until
the next would move no coefficient by more than TOLERANCE; the standard
error is then that of H at the coefficients reported).  The functions
here are plain Python on floats and small arrays, or written so that the
same text computes on a numpy array: the compiled engine compiles them
and the vectorised one calls them, and every sum over pairs is added in
pair order, so both engines compute the same numbers to the bit.  One
of them is the exponential: numpy's and the compiler's ``exp`` may
differ in the last bit, so :func:`logistic_mean` computes it from a
polynomial and exact powers of two.
"""
import math

import numpy as np

#: R's binomial link (family.c, logit_linkinv): e^eta for |eta| <= 30,
#: else DBL_EPSILON or its inverse, so that mu never reaches 0 or 1
ETA_LIMIT = 30.0
EPSILON = float(np.finfo(np.float64).eps)

#: ln 2 in two parts (fdlibm's): k LN2_HI is exact for |k| < 2^20
LN2_HI = 6.93147180369123816490e-01
LN2_LO = 1.90821492927058770002e-10
INV_LN2 = 1.44269504088896338700e+00
#: 1/13!, ..., 1/2!, 1, 1: e^r by Horner's rule, |r| <= ln 2 / 2, the
#: truncation below 5e-18 of e^r
TAYLOR = tuple(1.0 / math.factorial(n) for n in range(13, -1, -1))
#: 2^-64: the powers of two are built as 2^(k + 64), k + 64 in [20, 108]
POW2_OFFSET = 64
INV_POW2_OFFSET = 2.0 ** -64

#: Newton's steps: converged when no coefficient moves by more than
#: TOLERANCE times the largest (at least 1); a fit still moving after
#: MAX_ITERATIONS is reported as not converged (a separating attribute)
TOLERANCE = 1e-10
MAX_ITERATIONS = 50
#: what a Newton step did (:func:`newton_update`)
STEPPED, CONVERGED, FAILED = 0, 1, 2
#: a Cholesky pivot at most this share of its diagonal entry: the
#: columns are collinear (a constant attribute or covariate), no fit
SINGULAR = 1e-12

#: the authors' number of neighbours (R's knnSURF) with the SURF family's
#: dead band of half a standard deviation
SD_FRACTION = 0.5


def authors_k(n):
    """The ReliefF neighbourhood's k of the NPDR package when none is
    given: the number of neighbours MultiSURF expects among n instances,
    floor((n - 1) (1 - erf(1/2 / sqrt 2)) / 2) (knnSURF of insilico/npdr;
    493 for n = 1600), at least 1."""
    fraction = (1 - math.erf(SD_FRACTION / math.sqrt(2))) / 2
    return max(1, math.floor((n - 1) * fraction))


def logistic_mean(eta):
    """mu = t / (1 + t), t = e^eta, with R's limits (:data:`ETA_LIMIT`):
    binomial()$linkinv of R's glm, for a number or a numpy array.

    e^x, |x| <= ETA_LIMIT, within two units in the last place: x = k ln 2
    + r with |r| <= ln 2 / 2, e^r by its Taylor polynomial (Horner), times
    2^k, built exactly as the product of the powers of k + 64's binary
    digits.  Branch-free: each of the three cases of eta is a factor 0 or
    1, so the products and sums that select one are exact.
    """
    below = eta < -ETA_LIMIT
    above = eta > ETA_LIMIT
    inside = 1.0 - below - above
    x = eta * inside - ETA_LIMIT * below + ETA_LIMIT * above
    j = np.int64(x * INV_LN2 + (POW2_OFFSET + 0.5))  # k + 64, rounded
    k = np.float64(j - POW2_OFFSET)
    r = (x - k * LN2_HI) - k * LN2_LO
    p = TAYLOR[0] * (r - r + 1.0)
    for coefficient in TAYLOR[1:]:
        p = p * r + coefficient
    power = ((1.0 + (j & 1)) * (1.0 + 3.0 * ((j >> 1) & 1))
             * (1.0 + 15.0 * ((j >> 2) & 1)) * (1.0 + 255.0 * ((j >> 3) & 1))
             * (1.0 + 65535.0 * ((j >> 4) & 1))
             * (1.0 + 4294967295.0 * ((j >> 5) & 1))
             * (1.0 + 18446744073709551615.0 * ((j >> 6) & 1)))
    t = (p * power * INV_POW2_OFFSET * inside + EPSILON * below
         + (1.0 / EPSILON) * above)
    return t / (1.0 + t)


def n_sums(k):
    """How many sums a fit of k columns needs: H's upper triangle, g."""
    return k * (k + 1) // 2 + k


def solve(sums, k, delta):
    """delta = H^-1 g from the sums of a fit (H's upper triangle by rows,
    then g; :func:`n_sums`), by Cholesky's factorisation; returns
    [H^-1]_11, the variance factor of the attribute's coefficient, or NaN
    (delta untouched) when H is singular (:data:`SINGULAR`)."""
    lower = np.zeros((k, k))
    q = 0
    for s in range(k):
        for t in range(s, k):
            lower[t, s] = sums[q]
            q += 1
    for s in range(k):
        pivot = lower[s, s]
        for u in range(s):
            pivot -= lower[s, u] * lower[s, u]
        if not pivot > SINGULAR * lower[s, s]:
            return np.nan
        lower[s, s] = math.sqrt(pivot)
        for t in range(s + 1, k):
            value = lower[t, s]
            for u in range(s):
                value -= lower[t, u] * lower[s, u]
            lower[t, s] = value / lower[s, s]
    forward = np.zeros(k)
    for s in range(k):
        value = sums[q + s]
        for u in range(s):
            value -= lower[s, u] * forward[u]
        forward[s] = value / lower[s, s]
    for s in range(k - 1, -1, -1):
        value = forward[s]
        for u in range(s + 1, k):
            value -= lower[u, s] * delta[u]
        delta[s] = value / lower[s, s]
    # [H^-1]_11 = ||L^-1 e_1||^2
    column = np.zeros(k)
    variance = 0.0
    for s in range(1, k):
        value = 1.0 if s == 1 else 0.0
        for u in range(1, s):
            value -= lower[s, u] * column[u]
        column[s] = value / lower[s, s]
        variance += column[s] * column[s]
    return variance


def newton_update(coefficients, delta, variance):
    """Newton's step `delta` (from :func:`solve`, whose result is
    `variance`) at `coefficients`: STEPPED (the step added to them),
    CONVERGED (the step would move no coefficient by more than TOLERANCE
    times the largest, at least 1: the coefficients are the fit, H is
    evaluated at them) or FAILED (H singular or the step not finite, as
    a separating attribute's; the coefficients as they were)."""
    k = len(coefficients)
    if not np.isfinite(variance):
        return FAILED
    largest = 1.0
    moved = 0.0
    for s in range(k):
        if not np.isfinite(delta[s]):
            return FAILED
        largest = max(largest, abs(coefficients[s]))
        moved = max(moved, abs(delta[s]))
    if moved <= TOLERANCE * largest:
        return CONVERGED
    for s in range(k):
        coefficients[s] += delta[s]
    return STEPPED

#: an attribute of at most this many values, none missing, is fitted
#: from its pairs grouped by the values of both instances (a logistic fit
#: without covariates): the same likelihood, a pass over the pairs to
#: count them, and Newton's steps over at most MAX_LEVELS^2 groups
MAX_LEVELS = 16


def grouped_sums(diffs, counts, misses, mu, sums):
    """The sums of a logistic fit without covariates (:func:`solve`'s
    layout, k = 2) from its pairs in groups: group g holds counts[g]
    pairs of diff diffs[g], misses[g] of them misses, each of mean mu[g]
    (n w and s - n mu in place of a pair's w and r)."""
    sums[:] = 0.0
    for g in range(len(counts)):
        weight = counts[g] * (mu[g] * (1.0 - mu[g]))
        residual = misses[g] - counts[g] * mu[g]
        sums[0] += weight
        sums[1] += weight * diffs[g]
        sums[2] += (weight * diffs[g]) * diffs[g]
        sums[3] += residual
        sums[4] += residual * diffs[g]


#: NPDR's neighbourhoods as a limit on each reference's distances to the
#: others: SURF's mean distance of all pairs or MultiSURF's mean minus
#: half the deviation (:func:`.neighbourhoods.thresholds`), both strict,
#: or the distance of its k-th nearest, ties included (the R package's
#: ReliefF neighbourhood, dplyr's ``slice_min`` with ties)
SURF_LIMIT, MULTISURF_LIMIT, KTH_LIMIT = 0, 1, 2


def kth_smallest(others, k):
    """The k-th smallest of a reference's distances to the others."""
    return np.partition(others, k - 1)[k - 1]


def is_neighbour(distance, limit, inclusive, exclude_twins):
    """Whether instances at `distance` from a reference are its
    neighbours: below its `limit` (at it too when `inclusive`), and not
    at distance 0 when `exclude_twins` (the R package drops identical
    instances).  For a number or a numpy array of distances."""
    return (((distance < limit) | (inclusive & (distance == limit)))
            & ((not exclude_twins) | (distance > 0)))


def empty_fits(n_attrs, k):
    """The arrays that an engine's ``pair_regressions`` fills, one entry
    per attribute: coefficients (k each), variance factor, sum of squared
    residuals (0 where not linear) and whether the fit converged."""
    return (np.zeros((n_attrs, k)), np.empty(n_attrs), np.zeros(n_attrs),
            np.empty(n_attrs, bool))

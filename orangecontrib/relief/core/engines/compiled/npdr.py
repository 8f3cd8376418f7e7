"""NPDR compiled: the neighbour pairs and the per-attribute regressions
(:mod:`....formulas.npdr`, compiled here).

The pairs: ROWS references at a time, their exact distances to every
instance (:func:`.neighbours.distance_rows.distance_block`), each one's
limit and the instances within it, counted in one pass and written in a
second, so that every pair list is allocated once, at its size.  The
regressions: LANES attributes at a time, the diffs of a pair computed
for all of them at once and every sum over the pairs added in pair
order, one sum per attribute -- a loop over the attributes that the
compiler vectorises, the same sums as the vectorised engine's.  Memory:
the pairs (8 bytes each), a block of distance rows, never pairs x
attributes.
"""
from collections import namedtuple

import numba
import numpy as np
from numba import prange

from ...formulas import npdr
from ...formulas.neighbourhoods import DEAD_BAND
from ...progress import report, step_bounds
from .diffs import attribute_diff, for_kernels, numeric_and_known
from .neighbours.block import ROWS, block_rows
from .neighbours.distance_rows import distance_block
from .rules.surf import limits

#: pairs whose diffs, weights and residuals are held at once (in L1)
CHUNK = 512
#: distances held at once by the pair search (a block of references)
CELLS = 2 ** 21

#: NPDR's neighbour pairs as the regressions read them: pair p joins
#: instances first[p] and second[p], its response is outcome[p] (the
#: diff of the outcome, or whether the pair is a miss), its covariates'
#: diffs covariates[:, p], its weight in the fit weights[p] (an empty
#: array: 1 each)
Pairs = namedtuple("Pairs", ["first", "second", "outcome", "covariates",
                             "weights"])

#: The fit of every attribute: `logistic` (else least squares), and the
#: `intercept` a logistic fit starts from
Model = namedtuple("Model", ["logistic", "intercept"])

#: What the fits fill, one entry per attribute
#: (:func:`....formulas.npdr.empty_fits`)
Fits = namedtuple("Fits", ["coefficients", "variance", "residuals",
                           "converged"])

#: A chunk's terms, one entry per pair (:func:`chunk_terms`): attribute
#: a's diff, the linear predictor eta, the weight w and the residual r
ChunkTerms = namedtuple("ChunkTerms", ["diffs", "eta", "weight",
                                       "residual"])

is_neighbour = numba.njit(inline="always", cache=True)(npdr.is_neighbour)
logistic_mean = numba.njit(inline="always", cache=True,
                           error_model="numpy")(npdr.logistic_mean)
n_sums = numba.njit(cache=True)(npdr.n_sums)
grouped_sums = numba.njit(cache=True)(npdr.grouped_sums)
solve = numba.njit(cache=True)(npdr.solve)
newton_update = numba.njit(cache=True)(npdr.newton_update)


@numba.njit(parallel=True, cache=True)
def distance_rows(values, exact, weights, rows, dist):
    """dist[r, j] = D(I_rows[r], I_j) for every instance j, the
    attributes added in their order: by the SURF family's kernel
    (:func:`.neighbours.distance_rows.distance_block`), or with
    attribute `weights` (an empty array: none) each diff times its
    weight, as :func:`...vectorised.diffs.distances` adds them."""
    m = len(rows)
    if len(weights) == 0:
        for b in prange(-(-m // ROWS)):
            block = np.empty(ROWS, np.int64)
            count = block_rows(b * ROWS, m, block)
            for r in range(ROWS):
                block[r] = rows[block[r]]
            distance_block(values, exact, block, count, dist[b * ROWS:], 0)
        return
    for r in prange(m):
        weighted_distances(exact, weights, rows[r], dist[r])


@numba.njit(cache=True)
def weighted_distances(exact, weights, i, dist):
    """dist[j] = sum_A w_A diff(A, I_i, I_j) for every instance j, the
    attributes added in their order (the body of :func:`distance_rows`'
    parallel loop with weights, a kernel of its own: :mod:`.` says
    why)."""
    n = exact.values.shape[1]
    dist[:n] = 0.0
    for a in range(exact.values.shape[0]):
        if weights[a] != 0:
            for j in range(n):
                dist[j] += attribute_diff(exact, a, i, j) * weights[a]


@numba.njit(parallel=True, cache=True)
def row_totals(rows, dist, totals):
    """Each reference's summed distance to the others, in instance
    order."""
    for r in prange(len(rows)):
        total = 0.0
        for j in range(dist.shape[1]):
            if j != rows[r]:
                total += dist[r, j]
        totals[r] = total


@numba.njit(cache=True)
def kth_smallest(values, k):
    """The k-th smallest of `values`, which it reorders: Hoare's FIND
    (Hoare 1961, Algorithm 65), the value of
    :func:`....formulas.npdr.kth_smallest`, whose ``np.partition`` numba
    compiles in seconds where this takes a fraction of one."""
    target, lo, hi = k - 1, 0, len(values) - 1
    while lo < hi:
        pivot = values[(lo + hi) // 2]
        i, j = lo, hi
        while i <= j:  # [lo, j] <= pivot, [i, hi] >= pivot
            while values[i] < pivot:
                i += 1
            while values[j] > pivot:
                j -= 1
            if i <= j:
                values[i], values[j] = values[j], values[i]
                i += 1
                j -= 1
        if target <= j:
            hi = j
        elif target >= i:
            lo = i
        else:  # between them: equal to the pivot
            break
    return values[target]


@numba.njit(inline="always", cache=True)
def reference_limit(dist, i, rule, k, ddof, global_mean):
    """The limit of reference I_i's neighbourhood from its distance row
    (:data:`....formulas.npdr.SURF_LIMIT` ...)."""
    if rule == npdr.KTH_LIMIT:
        others = np.empty(dist.shape[0] - 1)
        for j in range(len(others)):  # element by element (:mod:`.` says why)
            others[j] = dist[j if j < i else j + 1]
        return kth_smallest(others, k)
    return limits(dist, i, rule == npdr.MULTISURF_LIMIT, global_mean,
                  ddof, DEAD_BAND, 1.0)[0]


@numba.njit(parallel=True, cache=True)
def count_neighbours(rows, rule, k, ddof, global_mean, exclude_twins, dist,
                     limit, counts):
    """The limits of references `rows` from their distance rows, and how
    many neighbours each has."""
    for r in prange(len(rows)):
        limit[r], counts[r] = reference_neighbours(
            dist[r], rows[r], rule, k, ddof, global_mean, exclude_twins)


@numba.njit(cache=True)
def reference_neighbours(dist, i, rule, k, ddof, global_mean, exclude_twins):
    """The limit of reference I_i's neighbourhood from its distance row
    `dist`, and how many neighbours it has (the body of
    :func:`count_neighbours`' parallel loop, a kernel of its own:
    :mod:`.` says why)."""
    limit = reference_limit(dist, i, rule, k, ddof, global_mean)
    inclusive = rule == npdr.KTH_LIMIT
    found = 0
    for j in range(dist.shape[0]):
        found += (j != i) & is_neighbour(dist[j], limit, inclusive,
                                         exclude_twins)
    return limit, found


@numba.njit(parallel=True, cache=True)
def write_neighbours(rows, rule, exclude_twins, dist, limit, offsets,
                     first, second):
    """Each reference's pairs, its neighbours in increasing order, from
    offsets[r] on."""
    inclusive = rule == npdr.KTH_LIMIT
    for r in prange(len(rows)):
        i = rows[r]
        at = offsets[r]
        for j in range(dist.shape[1]):
            if j != i and is_neighbour(dist[r, j], limit[r], inclusive,
                                       exclude_twins):
                first[at] = i
                second[at] = j
                at += 1


def reference_blocks(n, size, progress_callback):
    """The references in blocks of at most `size`, with the fraction
    done after each."""
    bounds = step_bounds(n, progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        for block in range(start, stop, size):
            yield np.arange(block, min(block + size, stop)), stop / n


def neighbour_pairs(data, rule, k, ddof, exclude_twins, weights=None,
                    progress_callback=None):
    """The compiled engine's :meth:`..interface.Engine.neighbour_pairs`:
    every (reference, neighbour) pair of NPDR's neighbourhoods."""
    exact = for_kernels(data.exact)
    values = np.ascontiguousarray(exact.values)
    n = values.shape[1]
    weights = np.empty(0) if weights is None else np.asarray(weights, float)
    size = max(ROWS, CELLS // n // ROWS * ROWS)
    dist = np.empty((min(size, n), n))
    global_mean = 0.0
    if rule == npdr.SURF_LIMIT:
        totals = np.empty(n)
        for rows, _ in reference_blocks(n, size, None):
            distance_rows(values, exact, weights, rows, dist)
            row_totals(rows, dist, totals[rows[0]:rows[-1] + 1])
        global_mean = totals.sum() / (n * (n - 1))
    first, second = [], []
    for rows, done in reference_blocks(n, size, progress_callback):
        distance_rows(values, exact, weights, rows, dist)
        limit = np.empty(len(rows))
        counts = np.empty(len(rows), np.int64)
        count_neighbours(rows, rule, k, ddof, global_mean, exclude_twins,
                         dist, limit, counts)
        offsets = np.concatenate(([0], np.cumsum(counts)))
        first.append(np.empty(offsets[-1], np.int32))
        second.append(np.empty(offsets[-1], np.int32))
        write_neighbours(rows, rule, exclude_twins, dist, limit, offsets,
                         first[-1], second[-1])
        report(progress_callback, done)
    return np.concatenate(first), np.concatenate(second)


@numba.njit(cache=True, error_model="numpy")
def chunk_diffs(exact, a, numeric, pairs, start, count, diffs):
    """diffs[q] = diff(A_a, first[p], second[p]) of the :class:`Pairs`
    `pairs`, p = start + q: a loop of loads, apart from the arithmetic so
    that that one vectorises."""
    first, second = pairs.first, pairs.second
    if numeric:
        row = exact.values[a]
        for q in range(count):
            p = start + q
            diffs[q] = abs(row[np.uint64(first[p])] - row[np.uint64(second[p])])
    else:
        for q in range(count):
            diffs[q] = attribute_diff(exact, a, first[start + q],
                                      second[start + q])


@numba.njit(cache=True, error_model="numpy")
def chunk_weights(pairs, start, count, coefficients, logistic, terms):
    """Each pair's eta, weight w and residual r of a chunk into the
    :class:`ChunkTerms` `terms`, from its diffs (the terms of
    :func:`...vectorised.npdr.chunk_sums`), times the pair's weight in
    the fit (pairs.weights; empty: 1): loops the compiler vectorises,
    eta's terms added in the order of the vectorised engine's."""
    diffs, eta, weight, residual = terms
    covariates, outcome = pairs.covariates, pairs.outcome
    pair_weights = pairs.weights
    for q in range(count):
        eta[q] = coefficients[0] + coefficients[1] * diffs[q]
    for c in range(covariates.shape[0]):
        b = coefficients[2 + c]
        for q in range(count):
            eta[q] += b * covariates[c, start + q]
    if logistic:
        for q in range(count):
            mu = logistic_mean(eta[q])
            weight[q] = mu * (1.0 - mu)
            residual[q] = outcome[start + q] - mu
    else:
        for q in range(count):
            weight[q] = 1.0
            residual[q] = outcome[start + q]
    if len(pair_weights):
        for q in range(count):
            weight[q] *= pair_weights[start + q]
            residual[q] *= pair_weights[start + q]


@numba.njit(cache=True, error_model="numpy")
def add_chunk_sums(terms, covariates, start, count, sums):
    """Add a chunk's terms (w x_s) x_t and r x_s, x = (1, diff,
    covariate diffs), to `sums`, each in pair order; without covariates,
    the five sums together."""
    diffs, weight, residual = terms.diffs, terms.weight, terms.residual
    k = 2 + covariates.shape[0]
    if k == 2:
        s0, s1, s2, g0, g1 = sums[0], sums[1], sums[2], sums[3], sums[4]
        for q in range(count):
            w, d, r = weight[q], diffs[q], residual[q]
            s0 += (w * 1.0) * 1.0
            s1 += (w * 1.0) * d
            s2 += (w * d) * d
            g0 += r * 1.0
            g1 += r * d
        sums[0], sums[1], sums[2], sums[3], sums[4] = s0, s1, s2, g0, g1
        return
    x = np.empty(k)
    x[0] = 1.0
    for q in range(count):
        x[1] = diffs[q]
        for c in range(k - 2):
            x[2 + c] = covariates[c, start + q]
        at = 0
        for s in range(k):
            ws = weight[q] * x[s]
            for t in range(s, k):
                sums[at] += ws * x[t]
                at += 1
        for s in range(k):
            sums[at + s] += residual[q] * x[s]


@numba.njit(cache=True, error_model="numpy")
def chunk_buffers():
    """A chunk's :class:`ChunkTerms` (:func:`chunk_terms`)."""
    return ChunkTerms(np.empty(CHUNK), np.empty(CHUNK), np.empty(CHUNK),
                      np.empty(CHUNK))


@numba.njit(cache=True, error_model="numpy")
def chunk_terms(exact, a, numeric, pairs, start, coefficients, logistic,
                terms):
    """The :class:`Pairs` from `start` on, CHUNK of them at the most:
    attribute a's :class:`ChunkTerms` into `terms`; the number of
    pairs."""
    count = min(CHUNK, len(pairs.first) - start)
    chunk_diffs(exact, a, numeric, pairs, start, count, terms.diffs)
    chunk_weights(pairs, start, count, coefficients, logistic, terms)
    return count


@numba.njit(cache=True, error_model="numpy")
def fit_sums(exact, a, numeric, pairs, model, coefficients, sums):
    """The sums of attribute a's fit by the :class:`Model` `model` at
    `coefficients`, a chunk of pairs at a time, every pair added in
    order."""
    sums[:] = 0.0
    terms = chunk_buffers()
    for start in range(0, len(pairs.first), CHUNK):
        count = chunk_terms(exact, a, numeric, pairs, start, coefficients,
                            model.logistic, terms)
        add_chunk_sums(terms, pairs.covariates, start, count, sums)


@numba.njit(cache=True, error_model="numpy")
def squared_residuals(exact, a, numeric, pairs, coefficients):
    """The sum of the squared residuals of attribute a's linear fit, each
    times its pair's weight (pairs.weights; empty: 1)."""
    total = 0.0
    terms = chunk_buffers()
    eta, residual, pair_weights = terms.eta, terms.residual, pairs.weights
    unweighted = Pairs(pairs.first, pairs.second, pairs.outcome,
                       pairs.covariates, pair_weights[:0])
    logistic = np.bool_(False)  # not a literal: fit_sums' chunk_terms
    for start in range(0, len(pairs.first), CHUNK):
        count = chunk_terms(exact, a, numeric, unweighted, start,
                            coefficients, logistic, terms)
        for q in range(count):
            value = residual[q] - eta[q]
            if len(pair_weights):
                total += (value * value) * pair_weights[start + q]
            else:
                total += value * value
    return total


@numba.njit(cache=True, error_model="numpy")
def fit_grouped(codes, diffs, pairs, intercept, coefficients):
    """The logistic fit of an attribute from its :class:`Pairs` grouped
    by the levels (`codes`) of both instances, whose diffs are `diffs`
    (the fit of :func:`...vectorised.npdr.fit_grouped`): (variance
    factor, converged), the coefficients into `coefficients`."""
    first, second, outcome = pairs.first, pairs.second, pairs.outcome
    pair_weights = pairs.weights
    counts = np.zeros(len(diffs))
    misses = np.zeros(len(diffs))
    for p in range(len(first)):
        g = (np.int64(codes[np.uint64(first[p])]) * npdr.MAX_LEVELS
             + codes[np.uint64(second[p])])
        if len(pair_weights):
            counts[g] += pair_weights[p]
            misses[g] += pair_weights[p] * outcome[p]
        else:
            counts[g] += 1.0
            misses[g] += outcome[p]
    coefficients[0] = intercept
    coefficients[1] = 0.0
    k = np.int64(2)  # not a literal 2: the version of solve that fit takes
    sums, delta, mu = np.zeros(n_sums(k)), np.zeros(k), np.empty(len(diffs))
    for _ in range(npdr.MAX_ITERATIONS):
        for g in range(len(diffs)):
            mu[g] = logistic_mean(coefficients[0] + coefficients[1] * diffs[g])
        grouped_sums(diffs, counts, misses, mu, sums)
        delta[:] = 0.0
        variance = solve(sums, k, delta)
        status = newton_update(coefficients, delta, variance)
        if status != npdr.STEPPED:
            return variance, status == npdr.CONVERGED
    for g in range(len(diffs)):
        mu[g] = logistic_mean(coefficients[0] + coefficients[1] * diffs[g])
    grouped_sums(diffs, counts, misses, mu, sums)
    return solve(sums, k, delta), False


@numba.njit(cache=True)
def fit(exact, a, numeric, pairs, model, coefficients):
    """Attribute a's fit to the :class:`Pairs` by the :class:`Model`
    `model`, as :func:`...vectorised.npdr.fit_block` fits each of its
    attributes: (variance factor [H^-1]_11, sum of squared residuals,
    converged), the coefficients into `coefficients`."""
    k = len(coefficients)
    sums = np.empty(n_sums(k))
    delta = np.zeros(k)
    coefficients[:] = 0.0
    if not model.logistic:
        fit_sums(exact, a, numeric, pairs, model, coefficients, sums)
        variance = solve(sums, k, coefficients)
        return (variance,
                squared_residuals(exact, a, numeric, pairs, coefficients),
                np.isfinite(variance))
    coefficients[0] = model.intercept
    for _ in range(npdr.MAX_ITERATIONS):
        fit_sums(exact, a, numeric, pairs, model, coefficients, sums)
        delta[:] = 0.0
        variance = solve(sums, k, delta)
        status = newton_update(coefficients, delta, variance)
        if status != npdr.STEPPED:
            return variance, 0.0, status == npdr.CONVERGED
    fit_sums(exact, a, numeric, pairs, model, coefficients, sums)
    return solve(sums, k, delta), 0.0, False


@numba.njit(parallel=True, cache=True)
def regressions(exact, numeric, pairs, model, levels, start, stop, fits):
    """The :class:`Fits` of attributes start .. stop - 1 to the
    :class:`Pairs` by the :class:`Model` `model`, one per thread: those
    of few levels (levels.counts[a] > 0, the levels' table of
    :func:`....variants.npdr.attribute_levels`) from their grouped
    pairs."""
    coefficients, variance = fits.coefficients, fits.variance
    residuals, converged = fits.residuals, fits.converged
    for a in prange(start, stop):
        if levels.counts[a] > 0:
            variance[a], converged[a] = fit_grouped(
                levels.codes[a], levels.diffs[a], pairs, model.intercept,
                coefficients[a])
        else:
            variance[a], residuals[a], converged[a] = fit(
                exact, a, numeric, pairs, model, coefficients[a])


def pair_regressions(exact, first, second, outcome, covariates, logistic,
                     intercept, levels, pair_weights=None,
                     progress_callback=None):
    """The compiled engine's :meth:`..interface.Engine.pair_regressions`:
    NPDR's regression of every attribute."""
    exact = for_kernels(exact)
    n_attrs = exact.values.shape[0]
    k = 2 + len(covariates)
    numeric = bool(numeric_and_known(exact))
    covariates = np.ascontiguousarray(covariates, dtype=np.float64).reshape(
        k - 2, len(first))
    fits = Fits(*npdr.empty_fits(n_attrs, k))
    pairs = Pairs(first, second, outcome, covariates,
                  np.empty(0) if pair_weights is None
                  else np.ascontiguousarray(pair_weights, np.float64))
    model = Model(logistic, intercept)
    bounds = step_bounds(n_attrs, progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        regressions(exact, numeric, pairs, model, levels, start, stop, fits)
        report(progress_callback, stop / n_attrs)
    return fits

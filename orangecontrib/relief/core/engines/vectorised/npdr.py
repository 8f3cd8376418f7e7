"""NPDR in numpy: the neighbour pairs and the per-attribute regressions
(:mod:`...formulas.npdr`).

The pairs: a block of references' distances to every instance
(:func:`.diffs.distances`, the attributes added in order, as the compiled
engine adds them), each reference's limit and the instances within it.
The regressions: a block of attributes at a time, their diffs over a
chunk of pairs at a time (never all pairs by all attributes), every sum
over the pairs added in pair order (:func:`running_sums`), as the
compiled loops add them, so that both engines give the same bits.
"""
import numpy as np

from ...formulas.diffs import attribute_diffs
from ...formulas.neighbourhoods import standard_deviation, thresholds
from ...formulas.npdr import (CONVERGED, KTH_LIMIT, MAX_ITERATIONS,
                              MAX_LEVELS, MULTISURF_LIMIT, STEPPED,
                              SURF_LIMIT, empty_fits, grouped_sums,
                              is_neighbour, kth_smallest, logistic_mean,
                              n_sums, newton_update, solve)
from ...progress import report, step_bounds
from .diffs import distances
from .surf import row_totals

#: distances, or diffs, held at once
CELLS = 2 ** 20
#: attributes fitted together (their diffs of a chunk of pairs at once)
BLOCK_ATTRIBUTES = 64


def reference_limits(dist, rows, rule, k, ddof, global_mean):
    """Each block row's limit (:data:`...formulas.npdr.SURF_LIMIT` ...),
    its reference's own distance NaN in `dist`; the mean and spread
    summed as the compiled engine sums them."""
    n_others = dist.shape[1] - 1
    limits = np.empty(len(rows))
    if rule == KTH_LIMIT:
        for r, i in enumerate(rows):
            limits[r] = kth_smallest(np.delete(dist[r], i), k)
        return limits
    mean = row_totals(dist) / n_others
    squares = row_totals((dist - mean[:, None]) ** 2)
    for r in range(len(rows)):
        sigma = standard_deviation(squares[r], n_others, ddof)
        limits[r] = thresholds(mean[r], sigma, rule == MULTISURF_LIMIT,
                               global_mean)[0]
    return limits


def reference_blocks(n, progress_callback):
    """The references in blocks whose distance rows fit CELLS, with the
    fraction done after each."""
    size = max(1, CELLS // n)
    bounds = step_bounds(n, progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        for block in range(start, stop, size):
            yield np.arange(block, min(block + size, stop)), stop / n


def distance_rows(exact, weights, rows):
    """The distances of `rows` to every instance (:func:`.diffs.
    distances`; `weights` None: 1), a reference's own distance NaN."""
    if weights is None:
        weights = np.ones(exact.values.shape[0])
    dist = distances(exact, weights, rows)
    dist[np.arange(len(rows)), rows] = np.nan
    return dist


def neighbour_pairs(data, rule, k, ddof, exclude_twins, weights=None,
                    progress_callback=None):
    """Every (reference, neighbour) pair of NPDR's neighbourhoods, each
    instance a reference (see :meth:`..interface.Engine.neighbour_pairs`):
    two int32 arrays, references and then neighbours in increasing
    order.  `weights` weigh the attributes in the distance (None: 1)."""
    exact = data.exact
    n = exact.values.shape[1]
    global_mean = 0.0
    if rule == SURF_LIMIT:
        totals = np.concatenate([
            row_totals(distance_rows(exact, weights, rows))
            for rows, _ in reference_blocks(n, None)])
        global_mean = totals.sum() / (n * (n - 1))
    first, second = [], []
    for rows, done in reference_blocks(n, progress_callback):
        dist = distance_rows(exact, weights, rows)
        limits = reference_limits(dist, rows, rule, k, ddof, global_mean)
        with np.errstate(invalid="ignore"):  # the NaN of the reference
            near = is_neighbour(dist, limits[:, None], rule == KTH_LIMIT,
                                exclude_twins)
        r, j = np.nonzero(near)
        first.append(rows[r].astype(np.int32))
        second.append(j.astype(np.int32))
        report(progress_callback, done)
    return np.concatenate(first), np.concatenate(second)


def running_sums(terms, running):
    """Add the rows of `terms` (pairs x attributes, changed) to `running`
    (one total per attribute) one after another, in pair order: the
    order of the compiled loops (numpy's own sums add in another)."""
    terms[0] += running
    running[:] = np.add.accumulate(terms, axis=0)[-1]


def linear_predictor(diffs, covariates, coefficients):
    """eta of a chunk's pairs (pairs x block): the intercept, the
    attribute's term, the covariates' terms, added in that order."""
    eta = coefficients[:, 0] + coefficients[:, 1] * diffs
    for c, covariate in enumerate(covariates):
        eta = eta + coefficients[:, 2 + c] * covariate[:, None]
    return eta


def chunk_sums(diffs, covariates, outcome, coefficients, logistic,
               pair_weights, sums):
    """Add a chunk of pairs to the sums of a block of attributes' fits
    (:func:`...formulas.npdr.solve`'s layout): the terms (w x_s) x_t and
    r x_s, x = (1, diff, covariate diffs); diffs (pairs x block),
    covariates (covariates x pairs), coefficients (block x k); w and r
    times each pair's weight (`pair_weights`, None: 1)."""
    k = coefficients.shape[1]
    columns = [1.0, diffs] + [c[:, None] for c in covariates]
    y = outcome[:, None]
    if logistic:
        mu = logistic_mean(linear_predictor(diffs, covariates, coefficients))
        weight, residual = mu * (1.0 - mu), y - mu
    else:
        weight, residual = 1.0, y
    if pair_weights is not None:
        weight = weight * pair_weights[:, None]
        residual = residual * pair_weights[:, None]
    q = 0
    for s in range(k):
        weighted = weight * columns[s]
        for t in range(s, k):
            running_sums(full(weighted * columns[t], diffs.shape), sums[:, q])
            q += 1
    for s in range(k):
        running_sums(full(residual * columns[s], diffs.shape), sums[:, q + s])


def full(terms, shape):
    """`terms` (an array or a number) as a new array of `shape`."""
    return np.array(np.broadcast_to(terms, shape), dtype=np.float64)


def squared_residuals(diffs, covariates, outcome, coefficients,
                      pair_weights, totals):
    """Add a chunk's squared residuals of the linear fits to `totals`,
    each times its pair's weight (`pair_weights`, None: 1)."""
    residual = outcome[:, None] - linear_predictor(diffs, covariates,
                                                   coefficients)
    squares = residual * residual
    if pair_weights is not None:
        squares = squares * pair_weights[:, None]
    running_sums(squares, totals)


def pair_chunks(exact, attributes, first, second):
    """The diffs of `attributes` over the pairs, a chunk of pairs at a
    time: (pair slice, pairs x attributes)."""
    size = max(1, CELLS // len(attributes))
    for start in range(0, len(first), size):
        part = slice(start, start + size)
        i, j = first[part], second[part]
        yield part, np.stack([attribute_diffs(exact, a, i, j)
                              for a in attributes], axis=1)


def block_sums(exact, attributes, first, second, outcome, covariates,
               coefficients, logistic, pair_weights):
    """The sums of the fits of `attributes` at `coefficients`, every pair
    added in order."""
    sums = np.zeros((len(attributes), n_sums(coefficients.shape[1])))
    for part, diffs in pair_chunks(exact, attributes, first, second):
        chunk_sums(diffs, covariates[:, part], outcome[part], coefficients,
                   logistic, chunk_of(pair_weights, part), sums)
    return sums


def chunk_of(pair_weights, part):
    """The weights of the pairs `part` (None: every pair weighs 1)."""
    return None if pair_weights is None else pair_weights[part]


def fit_block(exact, attributes, first, second, outcome, covariates,
              logistic, intercept, pair_weights):
    """The fits of a block of attributes: (coefficients, variance factor
    [H^-1]_11, sum of squared residuals, converged), the logistic ones by
    Newton's steps to convergence, each attribute's steps its own."""
    count, k = len(attributes), 2 + len(covariates)
    coefficients = np.zeros((count, k))
    variance = np.full(count, np.nan)
    residuals = np.zeros(count)
    converged = np.zeros(count, bool)
    delta = np.zeros(k)
    if not logistic:
        sums = block_sums(exact, attributes, first, second, outcome,
                          covariates, coefficients, False, pair_weights)
        for b in range(count):
            variance[b] = solve(sums[b], k, coefficients[b])
            converged[b] = np.isfinite(variance[b])
        for part, diffs in pair_chunks(exact, attributes, first, second):
            squared_residuals(diffs, covariates[:, part], outcome[part],
                              coefficients, chunk_of(pair_weights, part),
                              residuals)
        return coefficients, variance, residuals, converged
    coefficients[:, 0] = intercept
    running = np.ones(count, bool)
    for _ in range(MAX_ITERATIONS):
        sums = block_sums(exact, attributes, first, second, outcome,
                          covariates, coefficients, True, pair_weights)
        for b in np.flatnonzero(running):
            delta[:] = 0.0
            variance[b] = solve(sums[b], k, delta)
            status = newton_update(coefficients[b], delta, variance[b])
            converged[b] = status == CONVERGED
            running[b] = status == STEPPED
        if not running.any():
            return coefficients, variance, residuals, converged
    sums = block_sums(exact, attributes, first, second, outcome, covariates,
                      coefficients, True, pair_weights)
    for b in np.flatnonzero(running):
        variance[b] = solve(sums[b], k, delta)
    return coefficients, variance, residuals, converged


def fit_grouped(codes, diffs, first, second, outcome, intercept,
                pair_weights):
    """The logistic fit of an attribute from its pairs grouped by the
    levels (`codes`) of both instances, diffs[g] the diff of group g:
    (coefficients, variance factor, converged); a group counts its pairs'
    weights (`pair_weights`, None: 1)."""
    groups = codes[first].astype(np.int64) * MAX_LEVELS + codes[second]
    if pair_weights is None:
        counts = np.bincount(groups, minlength=len(diffs)).astype(np.float64)
        misses = np.bincount(groups, weights=outcome, minlength=len(diffs))
    else:
        counts = np.bincount(groups, weights=pair_weights,
                             minlength=len(diffs))
        misses = np.bincount(groups, weights=pair_weights * outcome,
                             minlength=len(diffs))
    coefficients = np.array([intercept, 0.0])
    sums, delta = np.zeros(n_sums(2)), np.zeros(2)
    for _ in range(MAX_ITERATIONS):
        mu = logistic_mean(coefficients[0] + coefficients[1] * diffs)
        grouped_sums(diffs, counts, misses, mu, sums)
        delta[:] = 0.0
        variance = solve(sums, 2, delta)
        status = newton_update(coefficients, delta, variance)
        if status != STEPPED:
            return coefficients, variance, status == CONVERGED
    mu = logistic_mean(coefficients[0] + coefficients[1] * diffs)
    grouped_sums(diffs, counts, misses, mu, sums)
    return coefficients, solve(sums, 2, delta), False


def pair_regressions(exact, first, second, outcome, covariates, logistic,
                     intercept, levels, pair_weights=None,
                     progress_callback=None):
    """NPDR's regression of every attribute (see
    :meth:`..interface.Engine.pair_regressions`): the attributes of few
    levels (`levels`, :func:`...variants.npdr.attribute_levels`) from their
    grouped pairs, the others a block at a time."""
    n_attrs = exact.values.shape[0]
    coefficients, variance, residuals, converged = empty_fits(
        n_attrs, 2 + len(covariates))
    bounds = step_bounds(n_attrs, progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        grouped = start + np.flatnonzero(levels.counts[start:stop])
        for a in grouped:
            coefficients[a], variance[a], converged[a] = fit_grouped(
                levels.codes[a], levels.diffs[a], first, second, outcome,
                intercept, pair_weights)
        others = np.setdiff1d(np.arange(start, stop), grouped)
        for block in range(0, len(others), BLOCK_ATTRIBUTES):
            attributes = others[block:block + BLOCK_ATTRIBUTES]
            (coefficients[attributes], variance[attributes],
             residuals[attributes], converged[attributes]) = fit_block(
                exact, attributes, first, second, outcome, covariates,
                logistic, intercept, pair_weights)
        report(progress_callback, stop / n_attrs)
    return coefficients, variance, residuals, converged

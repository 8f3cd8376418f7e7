"""The SURF family's neighbourhoods and rules in numpy
(:mod:`...formulas.neighbourhoods`).

A block of references at a time: their diffs to every instance, attribute
by attribute (:func:`.diffs.row_diffs`), summed in attribute order into
their distances; each reference's own distances give its thresholds; the
rule is then a coefficient per (reference, instance) -- its class's
coefficient inside a threshold, 0 elsewhere -- applied to the same diffs.
Nothing of size n x n is kept.
"""
import numpy as np

from ...progress import report, step_bounds
from ...formulas.neighbourhoods import (NO_FAR, SIMILARITY, class_coefficients,
                      standard_deviation, thresholds)
from ...formulas.diffs import weighted
from ...formulas.stir import add_stir_sums
from .diffs import row_diffs

#: diffs held at once: attributes x block of references x instances
BLOCK_CELLS = 2 ** 21


def reference_blocks(refs, n_cells, progress_callback):
    """The references `refs` in blocks of at most BLOCK_CELLS / n_cells
    (n_cells: the diffs of one reference), cut at the reporting bounds of
    :func:`step_bounds`; with each block, the fraction done after it."""
    size = max(1, BLOCK_CELLS // max(n_cells, 1))
    bounds = step_bounds(len(refs), progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        for first in range(start, stop, size):
            yield refs[first:min(first + size, stop)], stop / len(refs)


def block_diffs(exact, rows):
    """diffs[a, r, j] = diff(A_a, I_rows[r], I_j) and the distances
    D[r, j], summed in attribute order, with D[r, rows[r]] = NaN (an
    instance is not its own neighbour)."""
    n_attrs, n = exact.values.shape
    diffs = np.empty((n_attrs, len(rows), n))
    for a in range(n_attrs):
        row_diffs(exact, a, rows, diffs[a])
    dist = np.zeros((len(rows), n))
    for a in range(n_attrs):
        dist += diffs[a]
    dist[np.arange(len(rows)), rows] = np.nan
    return diffs, dist


def row_totals(terms):
    """Each row's sum of its terms but the NaN of its reference, added in
    instance order, as the compiled engine adds them (so that both engines'
    thresholds are the same floats and a distance on a threshold falls on
    the same side)."""
    return np.add.accumulate(np.nan_to_num(terms, nan=0.0), axis=1)[:, -1]


def mean_distance(exact):
    """T of SURF: the mean distance of the n (n - 1) / 2 pairs (each
    instance's distances summed in order, then those sums by numpy, as
    :func:`..compiled.neighbours.distance_rows.mean_distance`)."""
    n_attrs, n = exact.values.shape
    totals = [row_totals(block_diffs(exact, rows)[1]) for rows, _ in
              reference_blocks(np.arange(n), n_attrs * n, None)]
    return np.concatenate(totals).sum() / (n * (n - 1))


def limits(dist, local, global_mean, ddof):
    """Each block row's (near, far) limits
    (:func:`...formulas.neighbourhoods.thresholds`), its mean and spread
    summed as :func:`..compiled.rules.surf.limits` sums them."""
    n_others = dist.shape[1] - 1
    mean = row_totals(dist) / n_others
    squares = row_totals((dist - mean[:, None]) ** 2)
    near, far = np.empty(len(dist)), np.empty(len(dist))
    for r in range(len(dist)):
        sigma = standard_deviation(squares[r], n_others, ddof)
        near[r], far[r] = thresholds(mean[r], sigma, local, global_mean)
    return near, far


def neighbourhoods(exact, refs, local, far, ddof, progress_callback):
    """Yield (rows, diffs, near, distant) for blocks of the references:
    their diffs (:func:`block_diffs`) and boolean (rows x n) masks of the
    instances within their near and far thresholds (none far for
    NO_FAR)."""
    n_attrs, n = exact.values.shape
    global_mean = 0.0 if local else mean_distance(exact)
    for rows, done in reference_blocks(refs, n_attrs * n, progress_callback):
        diffs, dist = block_diffs(exact, rows)
        near_limit, far_limit = limits(dist, local, global_mean, ddof)
        with np.errstate(invalid="ignore"):  # the NaN of the reference
            near = dist < near_limit[:, None]
            distant = (dist > far_limit[:, None] if far != NO_FAR
                       else np.zeros_like(near))
        yield rows, diffs, near, distant
        report(progress_callback, done)


def coefficients(rows, members, groups, priors):
    """coef[r, j]: instance j's coefficient in reference r's update over
    the set `members` (rows x n mask), 0 outside it
    (:func:`...formulas.neighbourhoods.class_coefficients`), and each row's (any miss -
    any hit)."""
    n_groups = len(priors)
    counts = np.stack([(members & (groups == g)).sum(axis=1)
                       for g in range(n_groups)], axis=1)
    per_class = np.empty((len(rows), n_groups))
    constant = np.empty(len(rows))
    for r, i in enumerate(rows):
        any_miss, any_hit = class_coefficients(counts[r], groups[i], priors,
                                               per_class[r])
        constant[r] = any_miss - any_hit
    return np.where(members, per_class[:, groups], 0.0), constant


def classification_sums(exact, refs, labels, priors, local, far, ddof, stir,
                        progress_callback=None):
    """Sums of the classification rules over the references, for each row
    of `labels` (class codes of the instances; the neighbourhoods found
    once for them all).

    Returns (sums, constant), sums[p] and constant[p] of labels[p]:
    sums[p, 0] the near updates, sums[p, 1] minus the far updates, with
    `stir` sums[p, 2:6] STIR's sums of the near pairs, each weighted by
    its coefficient in the near update (:func:`add_stir_sums`);
    constant[p, 0] MultiSURF*'s constant (any miss - any hit over the far
    sets), constant[p, 1:5] STIR's counts of near pairs and references.
    """
    codes = labels.astype(np.int64)
    sums = np.zeros((len(labels), 6, exact.values.shape[0]))
    constant = np.zeros((len(labels), 5))
    for rows, diffs, near, distant in neighbourhoods(
            exact, refs, local, far, ddof, progress_callback):
        for groups, own_sums, own_constant in zip(codes, sums, constant):
            coef, _ = coefficients(rows, near, groups, priors)
            own_sums[0] += weighted(diffs, coef)
            if stir:
                hit = near & (groups[None, :] == groups[rows][:, None])
                add_stir_sums(own_sums, own_constant, diffs, coef, hit,
                              near & ~hit)
            coef, any_miss_hit = coefficients(rows, distant, groups, priors)
            own_sums[1] -= weighted(diffs, coef)
            if far == SIMILARITY:
                own_constant[0] += any_miss_hit.sum()
    return sums, constant


def regression_sums(exact, refs, labels, local, far, ddof,
                    progress_callback=None):
    """RReliefF's sums over the neighbourhoods, each member with influence
    1 / |S|, for each row of `labels` (scaled targets): rows 0, 1 of
    sums[p] N_dA, N_dCdA of the near sets, rows 2, 3 of the far sets;
    n_dc[p] their N_dC."""
    sums = np.zeros((len(labels), 4, exact.values.shape[0]))
    n_dc = np.zeros((len(labels), 3))
    for rows, diffs, near, distant in neighbourhoods(
            exact, refs, local, far, ddof, progress_callback):
        for s, members in enumerate((near, distant)):
            size = members.sum(axis=1, keepdims=True)
            with np.errstate(invalid="ignore", divide="ignore"):
                d = np.where(members, 1.0 / size, 0.0)
            n_da = weighted(diffs, d)  # the same for every target
            for target, own_sums, own_dc in zip(labels, sums, n_dc):
                d_target = np.abs(target[rows][:, None] - target[None, :])
                own_dc[s] += (d_target * d).sum()
                own_sums[2 * s] += n_da
                own_sums[2 * s + 1] += weighted(diffs, d_target * d)
    return sums, n_dc


def radius_rule(data, refs, labels, task, local, far, ddof, stir,
                progress_callback=None):
    """The sums of the SURF family's rule over the references `refs`, for
    each row of `labels` (P x n: class codes, or the scaled target, of P
    labellings of the instances): :func:`classification_sums` or
    :func:`regression_sums`, (P, rows, a) and (P, places).  The
    neighbourhoods depend on the attributes only, but with missing values a
    class's RELIEF-D diffs depend on the classes of `data`, which `labels`
    must then be."""
    if task == "classification":
        return classification_sums(data.exact, refs, labels, data.priors,
                                   local, far, ddof, stir, progress_callback)
    return regression_sums(data.exact, refs, labels, local, far, ddof,
                           progress_callback)

"""The update rules, reference by reference.

Each rule adds, for each reference, the same terms in the same order as
the compiled rule (:mod:`..compiled.rules`): references in blocks of UPDATE_BLOCK
whose partial sums are added in block order, within a reference the
groups and then the neighbours in order, every attribute at once.  Given
the same neighbours, both engines therefore agree to the last bit wherever
their diffs do.
"""
import numpy as np

from ...formulas.instance_weight import instance_weight
from ...formulas.distance_weighting import distance_weights_at
from ...progress import report, step_bounds
from ...formulas.diffs import distance_row, pair_diffs
from ...formulas.relieff import found, relieff_update
from .neighbours import nearest_of_group, search_weights

UPDATE_BLOCK = 64  # references per partial sum, as the compiled rules


def add_mean_diffs(acc, exact, i, members, coef):
    """acc += coef * mean over `members` of diff(., I_i, member), one
    member at a time (Qiu & He 2019, eq. 4 and 6)."""
    if len(members):
        diffs = pair_diffs(exact, i, members)
        for s in range(len(members)):
            acc += coef / len(members) * diffs[:, s]


def blocks(m):
    """The partial sums of m references: one row per UPDATE_BLOCK."""
    return -(-m // UPDATE_BLOCK)


def relieff_rule(exact, refs, neighbours, priors):
    """ReliefF weights: the mean of the references' updates."""
    m = len(refs)
    partial = np.zeros((blocks(m), exact.values.shape[0]))
    for r in range(m):
        relieff_update(partial[r // UPDATE_BLOCK], exact, refs[r],
                       neighbours[r], priors)
    return partial.sum(axis=0) / m


def rrelieff_sums(exact, refs, neighbours, target, rank_weights):
    """RReliefF's (N_dC, N_dA, N_dCdA) summed over all references
    (Robnik-Sikonja & Kononenko 1997, 2003)."""
    m = len(refs)
    partial = np.zeros((blocks(m), 3, exact.values.shape[0]))
    for r in range(m):
        sums, i = partial[r // UPDATE_BLOCK], refs[r]
        count = found(neighbours[r])[0]
        if count == 0:
            continue
        members = neighbours[r, 0, :count]
        norm = np.cumsum(rank_weights[:count])[-1]  # added in order
        diffs = pair_diffs(exact, i, members)
        for s in range(count):
            d = rank_weights[s] / norm
            d_target = abs(target[i] - target[members[s]])
            sums[0, 0] += d_target * d
            sums[1] += d * diffs[:, s]
            sums[2] += d_target * d * diffs[:, s]
    sums = partial.sum(axis=0)
    return sums[0, 0], sums[1], sums[2]


def double_relieff(data, refs, k, fixed, clip, exponent, s,
                   progress_callback=None):
    """(p)dReliefF weights, the references processed in order; see
    :func:`...double.double_weights`."""
    exact, n_groups = data.exact, data.n_groups
    m, n_attrs = len(refs), exact.values.shape[0]
    members = [np.flatnonzero(data.groups == g) for g in range(n_groups)]
    partial = np.zeros((blocks(m), n_attrs))
    done = np.zeros(n_attrs)
    neighbours = np.empty((n_groups, min(k, exact.values.shape[1])), np.int64)
    weights = np.empty(n_attrs, np.float32)  # as the compiled engine keeps them
    bounds = step_bounds(m, progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        for t in range(start, stop):
            block = t // UPDATE_BLOCK
            if t > 0 and t % UPDATE_BLOCK == 0:
                done += partial[block - 1]
            distance_weights_at(weights, done + partial[block], t, m, fixed,
                                clip, exponent, s)
            i = refs[t]
            dist, diffs = distance_row(exact,
                                       search_weights(weights, n_attrs), i)
            dist[i] = np.inf
            for g in range(n_groups):
                neighbours[g] = nearest_of_group(
                    dist[None, members[g]], members[g], neighbours.shape[1],
                    np.array([int(data.groups[i] == g)]))[0]
            relieff_update(partial[block], exact, i, neighbours, data.priors,
                           diffs)
        report(progress_callback, stop / m)
    return partial.sum(axis=0) / m


def mean_euclidean(metric, weights, i, members):
    """The mean Euclidean distance sqrt(sum_A w_A diff^2) from I_i to
    `members`, added one member at a time."""
    diffs = pair_diffs(metric, i, members)
    total = 0.0
    for s in range(len(members)):
        total += np.sqrt(sequential_dot(weights, diffs[:, s]))
    return total / len(members)


def sequential_dot(weights, column):
    """sum_A w_A column_A, added in attribute order."""
    return np.cumsum(weights * column)[-1]


def pooled_misses(squared, weights, i, neighbours, own):
    """The k nearest instances of all classes but `own`, merged from the
    per-class lists by (exact distance, index)."""
    counts = found(neighbours)
    candidates = np.concatenate([neighbours[g, :counts[g]]
                                 for g in range(len(counts)) if g != own]
                                or [np.empty(0, np.int64)])
    if not len(candidates):
        return candidates
    diffs = pair_diffs(squared, i, candidates)
    dist = np.array([sequential_dot(weights, diffs[:, s])
                     for s in range(len(candidates))])
    return candidates[np.lexsort((candidates, dist))][:neighbours.shape[1]]


def cdrelief_rule(exact, squared, weights, refs, scale, neighbours,
                  n_groups):
    """Rows W[c] of Qiu & He's (2019) eq. 4: every reference updates the
    row of its class (hits of its class, misses pooled over the others)."""
    m = len(refs)
    partial = np.zeros((blocks(m), n_groups, exact.values.shape[0]))
    for r in range(m):
        i = refs[r]
        own = exact.groups[i]
        acc = partial[r // UPDATE_BLOCK, own]
        hits = neighbours[r, own, :found(neighbours[r])[own]]
        add_mean_diffs(acc, exact, i, hits, -scale[r])
        misses = pooled_misses(squared, weights, i, neighbours[r], own)
        add_mean_diffs(acc, exact, i, misses, scale[r])
    return partial.sum(axis=0)


def iwcdrelief_rule(exact, metric, weights, refs, scale, neighbours,
                    pair_coef, threshold, as_printed):
    """Rows W[c] of Qiu & He's (2019) eq. 6 summed over all references:
    for each other class l with its own misses, d2 and IW, the update goes
    to row c or l by the sign of d2 - d1 and the reading of eq. 6."""
    m, n_groups = len(refs), neighbours.shape[1]
    partial = np.zeros((blocks(m), n_groups, exact.values.shape[0]))
    for r in range(m):
        i = refs[r]
        own = exact.groups[i]
        counts = found(neighbours[r])
        if counts[own] == 0:
            continue  # no hit: x's place relative to the border is unknown
        hits = neighbours[r, own, :counts[own]]
        d1 = mean_euclidean(metric, weights, i, hits)
        for other in range(n_groups):
            if other == own or counts[other] == 0:
                continue
            misses = neighbours[r, other, :counts[other]]
            d2 = mean_euclidean(metric, weights, i, misses)
            if instance_weight(d1, d2, threshold) == 0.0:
                continue
            row = own if (d2 - d1 > 0) == as_printed else other
            coef = scale[r] * pair_coef[own, other]
            acc = partial[r // UPDATE_BLOCK, row]
            add_mean_diffs(acc, exact, i, misses, coef)
            add_mean_diffs(acc, exact, i, hits, -coef)
    return partial.sum(axis=0)

"""The update rules, every reference at once.

Each rule adds the same terms in the same order as the compiled rule
(:mod:`..compiled.rules`): references in blocks of UPDATE_BLOCK whose
partial sums are added in block order; within a block the references in
order, within a reference the groups and then the neighbours in order,
every attribute at once.  Here a rule lists each reference's terms -- a
neighbour, its coefficient and the row of the sums it goes to -- in that
order; :func:`block_sums` lays out each block's terms of each row in
sequence, and :func:`.sums.in_order` adds every sequence one term at a
time, side by side.  Given the same neighbours, both engines therefore
agree to the last bit wherever their diffs do.
"""
import numpy as np

from ...formulas.instance_weight import instance_weights
from ...formulas.distance_weighting import distance_weights_at
from ...progress import report, step_bounds
from ...formulas.diffs import diffs_of_pairs, distance_row
from ...formulas.relieff import found, relieff_update
from .neighbours import nearest_of_group, search_weights
from .sums import in_order

UPDATE_BLOCK = 64  # references per partial sum, as the compiled rules
#: terms x attributes held at once by :func:`block_sums`
TERM_ENTRIES = 2 ** 21


def blocks(m):
    """The partial sums of m references: one row per UPDATE_BLOCK."""
    return -(-m // UPDATE_BLOCK)


def total(partial):
    """The sum of the blocks' partial sums, in block order."""
    return in_order(partial, 0)


def block_sums(exact, refs, neighbours, coefs, rows=None, n_rows=1):
    """partial[b, s, c]: the sum over the references r of block b, in
    order, and their terms t, in order, of coefs[s][r, t] diff(.,
    I_refs[r], I_neighbours[r, t]) for the terms whose row, rows[r, t],
    is c (None: every term's row is 0); (blocks, len(coefs), n_rows, a).

    A term whose coefficients are all 0 adds nothing and is left out (its
    neighbour may be a list's padding, -1).  The others are laid out by
    block and row, each in order, as the sequences :func:`in_order` adds
    (every coefficient's at once); blocks are taken a few at a time, so
    that memory stays bounded."""
    m, n_terms = neighbours.shape
    n_attrs = exact.values.shape[0]
    n_coefs = len(coefs)
    partial = np.zeros((blocks(m), n_coefs, n_rows, n_attrs))
    live = np.zeros((m, n_terms), bool)
    for coef in coefs:
        live |= coef != 0
    if rows is None:
        rows = np.zeros((m, n_terms), np.int64)
    step = max(1, TERM_ENTRIES // max(
        UPDATE_BLOCK * n_terms * n_attrs * n_coefs, 1))
    for first in range(0, blocks(m), step):
        start = first * UPDATE_BLOCK
        reference, term = np.nonzero(live[start:start + step * UPDATE_BLOCK])
        reference += start
        if not len(reference):
            continue
        sequence = (reference // UPDATE_BLOCK - first) * n_rows + rows[
            reference, term]
        # each term's place in its sequence, the terms being in order
        order = np.argsort(sequence, kind="stable")
        place = np.empty(len(sequence), np.int64)
        place[order] = np.arange(len(sequence)) - np.searchsorted(
            sequence[order], sequence[order])
        diffs = diffs_of_pairs(exact, refs[reference],
                               neighbours[reference, term])
        n_blocks = min(step, blocks(m) - first)
        laid = np.zeros((place.max() + 1, n_coefs, n_blocks * n_rows,
                         n_attrs))
        for s, coef in enumerate(coefs):
            laid[place, s, sequence] = coef[reference, term][:, None] * diffs
        partial[first:first + n_blocks] = np.moveaxis(
            in_order(laid, 0).reshape(n_coefs, n_blocks, n_rows, n_attrs),
            0, 1)
    return partial


def relieff_coefficients(own, counts, priors):
    """coef[r, g]: the factor of reference r's neighbours of group g in
    ReliefF's update (Kononenko 1994; Prat & Belanche 2006, Fig. 2):
    -1 / k for the hits, P(C) / (1 - P(class(R))) / k for the misses of
    class C, k the group's count (0 where it has none), the compiled
    rule's arithmetic."""
    groups = np.arange(counts.shape[1])[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        coef = np.where(groups == own[:, None], -1.0 / counts,
                        priors[None, :] / (1 - priors[own])[:, None]
                        / counts)
    return np.where(counts > 0, coef, 0.0)


def relieff_rule(exact, refs, neighbours, priors):
    """ReliefF weights: the mean of the references' updates."""
    m, n_groups, k = neighbours.shape
    coef = relieff_coefficients(exact.groups[refs], found(neighbours), priors)
    coef = np.repeat(coef, k, axis=1) * (neighbours >= 0).reshape(m, -1)
    partial = block_sums(exact, refs, neighbours.reshape(m, -1), [coef])
    return total(partial[:, 0, 0]) / m


def rrelieff_sums(exact, refs, neighbours, target, rank_weights):
    """RReliefF's (N_dC, N_dA, N_dCdA) summed over all references
    (Robnik-Sikonja & Kononenko 1997, 2003): with d the rank weight over
    the sum of the reference's rank weights (added in order) and dC the
    target's diff, N_dC += dC d, N_dA += d diff, N_dCdA += dC d diff."""
    m = len(refs)
    members = neighbours[:, 0, :]
    known = members >= 0
    norm = np.cumsum(rank_weights)[np.maximum(known.sum(axis=1), 1) - 1]
    d = np.where(known, rank_weights[None, :members.shape[1]]
                 / norm[:, None], 0.0)
    d_target = np.abs(target[refs][:, None] - target[members])
    n_dc = np.zeros((blocks(m) * UPDATE_BLOCK, members.shape[1]))
    n_dc[:m] = d_target * d
    n_dc = total(in_order(n_dc.reshape(blocks(m), -1), 1))
    sums = block_sums(exact, refs, members, [d, d_target * d])[:, :, 0]
    return n_dc, total(sums[:, 0]), total(sums[:, 1])


def double_relieff(data, refs, k, fixed, clip, exponent, s,
                   progress_callback=None):
    """(p)dReliefF weights, the references processed in order; see
    :func:`..double.double_weights`."""
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
    return total(partial) / m


def pair_distances(metric, weights, refs, neighbours):
    """dist[r, ...] = sum_A w_A diff(A, I_refs[r], I_neighbours[r, ...]),
    added in attribute order as the compiled exact distance adds them;
    inf where a list pads with -1.  Taken in chunks of references."""
    m = len(refs)
    per_reference = max(1, neighbours[:1].size * len(weights))
    step = max(1, TERM_ENTRIES // per_reference)
    dist = np.empty(neighbours.shape)
    index = (slice(None),) + (None,) * (neighbours.ndim - 1)
    for first in range(0, m, step):
        part = slice(first, min(first + step, m))
        dist[part] = in_order(weights * diffs_of_pairs(
            metric, refs[part][index], neighbours[part]), -1)
    return np.where(neighbours >= 0, dist, np.inf)


def mean_euclidean(metric, weights, refs, neighbours):
    """mean[r, g]: the mean Euclidean distance sqrt(sum_A w_A diff^2) from
    I_refs[r] to its neighbours of group g, added one neighbour at a time
    (NaN for a group without neighbours)."""
    each = np.sqrt(pair_distances(metric, weights, refs, neighbours))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (in_order(np.where(neighbours >= 0, each, 0.0), -1)
                / found(neighbours))


def pooled_misses(squared, weights, refs, neighbours, own):
    """The k nearest instances of all classes but each reference's `own`,
    merged from the per-class lists by (exact distance, index), -1
    padded: (m, k)."""
    m, n_groups, k = neighbours.shape
    others = np.arange(n_groups)[None, :] != own[:, None]
    candidates = neighbours[others].reshape(m, -1)
    dist = pair_distances(squared, weights, refs, candidates)
    index = np.where(candidates >= 0, candidates, np.iinfo(np.int64).max)
    order = np.lexsort((index, dist))[:, :k]
    return np.take_along_axis(candidates, order, axis=1)


def mean_terms(members, coef):
    """The coefficients of the terms of a mean over each row's `members`
    (-1 padded): coef[..., r] / their count for each member, 0 for a pad
    (`coef` may have leading axes, e.g. one per threshold)."""
    count = (members >= 0).sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(members >= 0, coef[..., None] / count, 0.0)


def cdrelief_rule(exact, squared, weights, refs, scale, neighbours,
                  n_groups):
    """Rows W[c] of Qiu & He's (2019) eq. 4: every reference adds to the
    row of its class scale * (the mean diff of its misses, pooled over
    the other classes, - the mean diff of its hits), the hits first."""
    m = len(refs)
    own = exact.groups[refs]
    hits = neighbours[np.arange(m), own]
    misses = pooled_misses(squared, weights, refs, neighbours, own)
    members = np.concatenate([hits, misses], axis=1)
    coef = np.concatenate([mean_terms(hits, -scale),
                           mean_terms(misses, scale)], axis=1)
    rows = np.repeat(own[:, None], members.shape[1], axis=1)
    return total(block_sums(exact, refs, members, [coef], rows,
                            n_groups)[:, 0])


def iwcdrelief_rule(exact, metric, weights, refs, scale, neighbours,
                    pair_coef, thresholds, as_printed):
    """Rows W[c] of Qiu & He's (2019) eq. 6 summed over all references,
    for each of the `thresholds`: for each other class l with its own
    misses, d2 and IW, the update (mean miss diff - mean hit diff) goes to
    row c or l by the sign of d2 - d1 and the reading of eq. 6, the
    misses' terms first.

    The distances, the diffs and the order of the terms do not depend on
    the threshold, so every threshold's sums are laid out at once; a term
    that one threshold drops (IW = 0) adds an exact zero to its sums,
    which leaves them what the compiled rule, skipping it, adds up."""
    m, n_groups, k = neighbours.shape
    own = exact.groups[refs]
    counts = found(neighbours)
    mean = mean_euclidean(metric, weights, refs, neighbours)
    d1, d2 = mean[np.arange(m), own][:, None], mean
    groups = np.arange(n_groups)[None, :]
    updated = ((groups != own[:, None]) & (counts > 0)
               & (counts[np.arange(m), own] > 0)[:, None])
    row = np.where(((d2 - d1) > 0) == as_printed, own[:, None], groups)
    hits = neighbours[np.arange(m), own]
    members = np.concatenate(
        [np.concatenate([neighbours[:, g], hits], axis=1)
         for g in range(n_groups)], axis=1)
    # every threshold's coefficients, (thresholds, references, groups)
    weight = instance_weights(d1, d2, np.reshape(thresholds, (-1, 1, 1)))
    coef = np.where(updated & (weight != 0.0),
                    scale[:, None] * pair_coef[own], 0.0)
    terms = np.concatenate(
        [np.concatenate([mean_terms(neighbours[:, g], coef[..., g]),
                         mean_terms(hits, -coef[..., g])], axis=-1)
         for g in range(n_groups)], axis=-1)
    rows = np.repeat(row, 2 * k, axis=1)
    return total(block_sums(exact, refs, members, terms, rows, n_groups))

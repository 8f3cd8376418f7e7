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
from ...formulas.relieff import relieff_update
from .neighbours import lists_of_rows, search_weights
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


def block_chunks(block, n_blocks, width):
    """Runs of blocks [first, last) whose terms (each block's count of
    `block`, the terms' blocks, ascending) times `width` are at most
    TERM_ENTRIES, as the longest block in a run lays them out (one block
    at least)."""
    counts = np.bincount(block, minlength=n_blocks)
    first = 0
    while first < n_blocks:
        last, longest = first + 1, counts[first]
        while (last < n_blocks and max(longest, counts[last]) * width
               * (last + 1 - first) <= TERM_ENTRIES):
            longest = max(longest, counts[last])
            last += 1
        yield first, last
        first = last


def block_sums(exact, refs, owner, neighbour, coefs, rows=None, n_rows=1):
    """partial[b, s, c]: the sum over the references r of block b, in
    order, and their terms t, in order, of coefs[s][t] diff(.,
    I_refs[owner[t]], I_neighbour[t]) for the terms whose row, rows[t], is
    c (None: every term's row is 0); (blocks, len(coefs), n_rows, a).

    The terms are given in order (`owner` ascending).  A term whose
    coefficients are all 0 adds nothing and is left out.  The others are
    laid out by block and row, each in order, as the sequences
    :func:`in_order` adds (every coefficient's at once); blocks are taken
    a few at a time, so that memory stays bounded."""
    m, n_attrs, n_coefs = len(refs), exact.values.shape[0], len(coefs)
    partial = np.zeros((blocks(m), n_coefs, n_rows, n_attrs))
    live = np.zeros(len(owner), bool)
    for coef in coefs:
        live |= coef != 0
    owner, neighbour = owner[live], neighbour[live]
    coefs = [coef[live] for coef in coefs]
    rows = np.zeros(len(owner), np.int64) if rows is None else rows[live]
    block = owner // UPDATE_BLOCK
    starts = np.searchsorted(block, np.arange(blocks(m) + 1))
    for first, last in block_chunks(block, blocks(m),
                                    n_coefs * n_rows * n_attrs):
        terms = slice(starts[first], starts[last])
        if terms.start == terms.stop:
            continue
        sequence = (block[terms] - first) * n_rows + rows[terms]
        # each term's place in its sequence, the terms being in order
        order = np.argsort(sequence, kind="stable")
        place = np.empty(len(sequence), np.int64)
        place[order] = np.arange(len(sequence)) - np.searchsorted(
            sequence[order], sequence[order])
        diffs = diffs_of_pairs(exact, refs[owner[terms]], neighbour[terms])
        n_blocks = last - first
        laid = np.zeros((place.max() + 1, n_coefs, n_blocks * n_rows,
                         n_attrs))
        for s, coef in enumerate(coefs):
            laid[place, s, sequence] = coef[terms][:, None] * diffs
        partial[first:last] = np.moveaxis(
            in_order(laid, 0).reshape(n_coefs, n_blocks, n_rows, n_attrs),
            0, 1)
    return partial


def block_totals(owner, values, m):
    """(blocks,): the sum of `values` (one per term, `owner` ascending)
    over each block's references, added in order, as a compiled loop adds
    them."""
    block = owner // UPDATE_BLOCK
    starts = np.searchsorted(block, np.arange(blocks(m)))
    place = np.arange(len(owner)) - starts[block]
    laid = np.zeros((blocks(m), max(int(place.max(initial=-1)) + 1, 1)))
    laid[block, place] = values
    return in_order(laid, 1)


def list_sums(part, values):
    """(m, G): the sum of `values` (one per entry) over each list of
    `part`, added in order from 0."""
    counts = np.diff(part.offsets)
    lists = np.repeat(np.arange(len(counts)), counts)
    place = np.arange(part.n_entries) - part.offsets[:-1][lists]
    laid = np.zeros((len(counts), max(int(counts.max(initial=0)), 1)))
    laid[lists, place] = values
    return in_order(laid, 1).reshape(-1, part.n_groups)


def parted(neighbours, m, rule, shape=None):
    """The blocks' partial sums of a rule over every part of `neighbours`:
    rule(start, part) gives the partial sums of the part's blocks;
    (blocks(m), *shape), `shape` None for the shape of the first part's
    sums."""
    partial = None if shape is None else np.zeros((blocks(m),) + shape)
    for start, part in neighbours:
        first = start // UPDATE_BLOCK
        sums = rule(start, part)
        if partial is None:
            partial = np.zeros((blocks(m),) + sums.shape[1:])
        partial[first:first + blocks(len(part))] = sums
    return partial


def relieff_coefficients(own, places, priors):
    """coef[r, g]: the factor of reference r's neighbours of group g in
    ReliefF's update (Kononenko 1994; Prat & Belanche 2006, Fig. 2):
    -1 / k for the hits, P(C) / (1 - P(class(R))) / k for the misses of
    class C, k the places the group's list fills (0 where it has none),
    the compiled rule's arithmetic."""
    groups = np.arange(places.shape[1])[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        coef = np.where(groups == own[:, None], -1.0 / places,
                        priors[None, :] / (1 - priors[own])[:, None]
                        / places)
    return np.where(places > 0, coef, 0.0)


def relieff_rule(exact, refs, neighbours, priors):
    """ReliefF weights: the mean of the references' updates, each
    neighbour's terms weighted by its share of its list's places."""
    def rule(start, part):
        part_refs = refs[start:start + len(part)]
        coef = relieff_coefficients(exact.groups[part_refs], part.places,
                                    priors)
        terms = coef[part.owner, part.group] * part.share
        return block_sums(exact, part_refs, part.owner, part.index,
                          [terms])[:, 0, 0]

    m = len(refs)
    return total(parted(neighbours, m, rule, (exact.values.shape[0],))) / m


def rank_shares(part, rank_weights, norms):
    """RReliefF's d of each entry of the lists `part` (Robnik-Sikonja &
    Kononenko 2003): its expected rank weight over the sum of the rank
    weights of its list's places, `norms` the running sums of
    `rank_weights` (added in order)."""
    norm = norms[np.maximum(part.places[:, 0], 1) - 1][part.owner]
    return part.place_weights(rank_weights) / norm


def rrelieff_sums(exact, refs, neighbours, target, rank_weights):
    """RReliefF's (N_dC, N_dA, N_dCdA) summed over all references
    (Robnik-Sikonja & Kononenko 1997, 2003): with d a neighbour's
    expected rank weight (:meth:`...neighbours.Neighbours.place_weights`)
    over the sum of the rank weights of its list's places (added in
    order) and dC the target's diff, N_dC += dC d, N_dA += d diff,
    N_dCdA += dC d diff."""
    norms = np.cumsum(rank_weights)

    def rule(start, part):
        part_refs = refs[start:start + len(part)]
        owner = part.owner
        d = rank_shares(part, rank_weights, norms)
        d_target = np.abs(target[part_refs][owner] - target[part.index])
        n_dc = block_totals(owner, d_target * d, len(part))
        sums = block_sums(exact, part_refs, owner, part.index,
                          [d, d_target * d])[:, :, 0]
        return np.concatenate([n_dc[:, None, None]
                               * np.ones((1, 1, sums.shape[2])), sums],
                              axis=1)

    partial = parted(neighbours, len(refs), rule,
                     (3, exact.values.shape[0]))
    return total(partial[:, 0, 0]), total(partial[:, 1]), total(partial[:, 2])


def neighbour_sums(exact, refs, neighbours, coefficients):
    """The vectorised engine's :meth:`..interface.Engine.neighbour_sums`:
    each part's totals (:func:`block_totals`) and sums
    (:func:`block_sums`), added in the order of the parts."""
    def rule(start, part):
        coefs = np.asarray(coefficients(start, part), np.float64)
        part_totals = np.stack([block_totals(part.owner, column, len(part))
                                for column in coefs.T], axis=1)
        sums = block_sums(exact, refs[start:start + len(part)], part.owner,
                          part.index, list(coefs.T))[:, :, 0]
        return np.concatenate([part_totals[:, :, None], sums], axis=2)

    sums = total(parted(neighbours, len(refs), rule))
    return sums[:, 0], sums[:, 1:]


def double_relieff(data, refs, k, fixed, clip, exponent, s, ties,
                   progress_callback=None):
    """(p)dReliefF weights, the references processed in order; see
    :func:`..double.double_weights`."""
    exact, n_groups = data.exact, data.n_groups
    m, n_attrs = len(refs), exact.values.shape[0]
    members = [np.flatnonzero(data.groups == g) for g in range(n_groups)]
    partial = np.zeros((blocks(m), n_attrs))
    done = np.zeros(n_attrs)
    k = min(k, exact.values.shape[1])
    weights = np.empty(n_attrs, np.float32)  # as the compiled engine keeps them
    bounds = step_bounds(m, progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        for t in range(start, stop):
            block = t // UPDATE_BLOCK
            if t > 0 and t % UPDATE_BLOCK == 0:
                done += partial[block - 1]
            distance_weights_at(weights, done + partial[block], t, m,
                                exact.values.shape[1], fixed, clip, exponent,
                                s)
            i = refs[t]
            dist, diffs = distance_row(exact,
                                       search_weights(weights, n_attrs), i)
            dist[i] = np.inf
            relieff_update(partial[block], exact, i,
                           lists_of_rows(dist[None, :], members, k, ties),
                           data.priors, diffs)
        report(progress_callback, stop / m)
    return total(partial) / m


def pair_distances(metric, weights, refs, neighbours):
    """dist[t] = sum_A w_A diff(A, I_refs[t], I_neighbours[t]), added in
    attribute order as the compiled exact distance adds them; taken in
    chunks."""
    step = max(1, TERM_ENTRIES // max(len(weights), 1))
    dist = np.empty(len(neighbours))
    for first in range(0, len(neighbours), step):
        part = slice(first, first + step)
        dist[part] = in_order(weights * diffs_of_pairs(
            metric, refs[part], neighbours[part]), -1)
    return dist


def mean_euclidean(metric, weights, refs, part):
    """mean[r, g]: the mean Euclidean distance sqrt(sum_A w_A diff^2)
    from I_refs[r] to its neighbours of group g over the list's places,
    each neighbour's weighted by its share, added one neighbour at a time
    (NaN for a group without neighbours)."""
    each = np.sqrt(pair_distances(metric, weights, refs[part.owner],
                                  part.index))
    with np.errstate(invalid="ignore", divide="ignore"):
        return list_sums(part, part.share * each) / part.places


def mean_terms(part, coef, places):
    """The coefficients of the entries of `part` in means over their
    lists: coef[..., l] / places[l] times each entry's share, l its list
    (`coef` may have leading axes, e.g. one per threshold)."""
    lists = np.repeat(np.arange(len(places)), np.diff(part.offsets))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (coef / places)[..., lists] * part.share


def cdrelief_rule(exact, refs, scale, neighbours, n_groups):
    """Rows W[c] of Qiu & He's (2019) eq. 4: every reference adds to the
    row of its class scale * (the mean diff of its misses, pooled over
    the other classes, - the mean diff of its hits), the hits first."""
    def rule(start, part):
        part_refs = refs[start:start + len(part)]
        m, own = len(part), exact.groups[part_refs]
        hits = part.of_groups(own)
        misses = part.pooled(own)
        part_scale = scale[start:start + m]
        owner = np.concatenate([hits.owner, misses.owner])
        order = np.argsort(owner, kind="stable")  # each reference's hits first
        neighbour = np.concatenate([hits.index, misses.index])[order]
        coef = np.concatenate([
            mean_terms(hits, -part_scale, hits.places[:, 0]),
            mean_terms(misses, part_scale, misses.places[:, 0])])[order]
        return block_sums(exact, part_refs, owner[order], neighbour, [coef],
                          own[owner[order]], n_groups)[:, 0]

    return total(parted(neighbours, len(refs), rule,
                        (n_groups, exact.values.shape[0])))


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
    n_groups = neighbours.n_groups
    thresholds = np.reshape(thresholds, (-1, 1, 1))

    def rule(start, part):
        m = len(part)
        part_refs = refs[start:start + m]
        own = exact.groups[part_refs]
        places = part.places
        mean = mean_euclidean(metric, weights, part_refs, part)
        d1, d2 = mean[np.arange(m), own][:, None], mean
        groups = np.arange(n_groups)[None, :]
        updated = ((groups != own[:, None]) & (places > 0)
                   & (places[np.arange(m), own] > 0)[:, None])
        row = np.where(((d2 - d1) > 0) == as_printed, own[:, None], groups)
        # every threshold's coefficients, (thresholds, references, groups)
        weight = instance_weights(d1, d2, thresholds)
        coef = np.where(updated & (weight != 0.0),
                        scale[start:start + m, None] * pair_coef[own], 0.0)
        # for every (reference, group): the group's list, then the hits
        lists_of = np.arange(m * n_groups)
        own_list = np.repeat(np.arange(m) * n_groups + own, n_groups)
        segments = np.stack([lists_of, own_list], axis=1).ravel()
        sign = np.tile([1.0, -1.0], m * n_groups)
        entries = part.entries_of(segments)
        counts = np.diff(part.offsets)[segments]
        segment = np.repeat(np.arange(len(segments)), counts)
        source = segments[segment]
        pair = lists_of[segment // 2]  # the (reference, group) it updates
        terms = (sign[segment] * coef.reshape(len(coef), -1)[:, pair]
                 / places.ravel()[source] * part.share[entries])
        return block_sums(exact, part_refs, pair // n_groups,
                          part.index[entries], list(terms),
                          row.ravel()[pair], n_groups)

    partial = parted(neighbours, len(refs), rule,
                     (len(thresholds), n_groups, exact.values.shape[0]))
    return total(partial)

"""The class-dependent rules (Qiu & He 2019, eq. 4-6; Marchiori 2013).

CDRelief's rule (eq. 4) updates the weights of the reference's own class
from its hits and its misses pooled over the other classes; IWCDRelief's
(eq. 5, 6) keeps only references near a class border and sends the update
to one class or the other.  :mod:`....variants.classdep` states the conventions.
"""
from collections import namedtuple

import numba
import numpy as np
from numba import prange

from ....formulas.instance_weight import instance_weight
from ..diffs import for_kernels
from ..neighbours.exact_ranking import exact_distance
from .relieff import UPDATE_BLOCK, add_diffs, sum_of_blocks


@numba.njit(inline="always", cache=True)
def add_mean_diffs(acc, tables, i, index, share, start, stop, places, coef):
    """acc[A] += coef * the mean of diff(A, I_i, neighbour) over a list of
    `places` places, entries start .. stop - 1, each weighted by its
    share."""
    for e in range(start, stop):
        add_diffs(acc, tables, i, index[e], coef / places * share[e])


@numba.njit(cache=True)
def cdrelief_update(acc, exact, i, hits, misses, scale):
    """acc[A] += scale * (mean miss diff - mean hit diff) (eq. 4, one x);
    `hits` and `misses` (the misses pooled over the other classes) are
    (offsets, index, share, places, r): reference r's list of each."""
    for lists, coef in ((hits, -scale), (misses, scale)):
        offsets, index, share, places, r = lists
        if places[r] > 0:
            add_mean_diffs(acc, exact, i, index, share, offsets[r],
                           offsets[r + 1], places[r], coef)


def cdrelief_rule(exact, refs, scale, neighbours, n_groups):
    """Rows W[c] of eq. 4: every reference updates the row of its class,
    over the parts of `neighbours`: its hits, and its misses pooled over the
    other classes (:meth:`.....neighbours.Neighbours.pooled`, the places
    of the pooled list's ties by its tie rule)."""
    tables = for_kernels(exact)
    m = len(refs)
    partial = np.zeros((-(-m // UPDATE_BLOCK), n_groups,
                        exact.values.shape[0]))
    for start, part in neighbours:
        part_refs = refs[start:start + len(part)]
        own = exact.groups[part_refs]
        hits, misses = part.of_groups(own), part.pooled(own)
        cdrelief_blocks(tables, part_refs, scale[start:start + len(part)],
                        one_list_each(hits), one_list_each(misses),
                        partial[start // UPDATE_BLOCK:])
    return sum_of_blocks(partial)


def one_list_each(lists):
    """(offsets, index, share, places) of lists of one group each, as
    :func:`cdrelief_update` reads them."""
    return (lists.offsets, lists.index, lists.share,
            np.ascontiguousarray(lists.places[:, 0]))


@numba.njit(parallel=True, cache=True)
def cdrelief_blocks(exact, refs, scale, hits, misses, partial):
    """The references' updates (:func:`cdrelief_update`) added into row
    class(R) of ``partial[b]``, block b of UPDATE_BLOCK references."""
    m = len(refs)
    for b in prange(-(-m // UPDATE_BLOCK)):
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            i = refs[r]
            cdrelief_update(partial[b, exact.groups[i]], exact, i,
                            hits + (r,), misses + (r,), scale[r])


@numba.njit(cache=True)
def euclidean(tables, weights, i, j):
    """sqrt(sum_A w_A diff(A, I_i, I_j)) on float64 squared-diff tables."""
    return np.sqrt(exact_distance(tables, weights, i, j))


@numba.njit(inline="always", cache=True)
def mean_distance(tables, weights, i, index, share, start, stop, places):
    """The mean Euclidean distance of I_i to a list's neighbours over its
    places, each weighted by its share."""
    total = 0.0
    for e in range(start, stop):
        total += share[e] * euclidean(tables, weights, i, index[e])
    return total / places


instance_weight = numba.njit(inline="always", cache=True)(instance_weight)

#: The neighbour lists of references: list g of a reference the entries
#: offsets[g] .. offsets[g + 1] - 1 of `index` (the neighbours) and
#: `share` (their shares of a place), places[g] its places
Lists = namedtuple("Lists", ["offsets", "index", "share", "places"])

#: The options of eq. 6: pair_coef[c, l] the coefficient of the classes'
#: pair, the `threshold` of the instance weight IW (eq. 5), and
#: `as_printed` the reading of eq. 6 (:mod:`....variants.classdep`)
Border = namedtuple("Border", ["pair_coef", "threshold", "as_printed"])


@numba.njit(cache=True)
def iwcdrelief_update(acc, exact, metric, weights, i, lists, scale, border):
    """Add reference I_i's eq. 6 updates to the rows of `acc` (classes),
    from its :class:`Lists` (of one reference), the distances those of
    :func:`euclidean` on the `metric` tables with the attribute
    `weights`, the options the :class:`Border` `border`.

    For each other class l, with its own k misses, d2 and IW: the update
    IW * scale * pair_coef[c, l] * (mean miss diff - mean hit diff) goes to
    row c or row l by the sign of d2 - d1 and the reading of eq. 6.
    """
    offsets, index, share, places = lists
    own = exact.groups[i]
    if places[own] == 0:
        return  # no hit: x's place relative to the border is unknown
    d1 = mean_distance(metric, weights, i, index, share, offsets[own],
                       offsets[own + 1], places[own])
    for other in range(len(places)):
        if other == own or places[other] == 0:
            continue
        d2 = mean_distance(metric, weights, i, index, share, offsets[other],
                           offsets[other + 1], places[other])
        if instance_weight(d1, d2, border.threshold) == 0.0:
            continue
        if (d2 - d1 > 0) == border.as_printed:
            row = own
        else:
            row = other
        coef = scale * border.pair_coef[own, other]
        add_mean_diffs(acc[row], exact, i, index, share, offsets[other],
                       offsets[other + 1], places[other], coef)
        add_mean_diffs(acc[row], exact, i, index, share, offsets[own],
                       offsets[own + 1], places[own], -coef)


def iwcdrelief_rule(exact, metric, weights, refs, scale, neighbours,
                    pair_coef, thresholds, as_printed):
    """Rows W[c] of eq. 6 summed over all references (fixed block order),
    over the parts of `neighbours`, for each of the `thresholds`:
    (thresholds, groups, attributes)."""
    exact, metric = for_kernels(exact), for_kernels(metric)
    m, n_groups = len(refs), neighbours.n_groups
    partial = np.zeros((len(thresholds), -(-m // UPDATE_BLOCK), n_groups,
                        exact.values.shape[0]))
    for start, part in neighbours:
        part_refs = refs[start:start + len(part)]
        lists = Lists(part.offsets, part.index, part.share, part.places)
        for t, threshold in enumerate(thresholds):
            iwcdrelief_blocks(exact, metric, weights, part_refs,
                              scale[start:start + len(part)], lists,
                              Border(pair_coef, threshold, as_printed),
                              partial[t, start // UPDATE_BLOCK:])
    return np.stack([sum_of_blocks(rows) for rows in partial])


@numba.njit(parallel=True, cache=True)
def iwcdrelief_blocks(exact, metric, weights, refs, scale, lists, border,
                      partial):
    """The references' updates (:func:`iwcdrelief_update`) added into
    ``partial[b]``, block b of UPDATE_BLOCK references, reference r's
    lists those of row r of the :class:`Lists` `lists` (its groups'
    offsets from r x groups on)."""
    offsets, index, share, places = lists
    m, n_groups = places.shape
    for b in prange(-(-m // UPDATE_BLOCK)):
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            own_lists = Lists(offsets[r * n_groups:(r + 1) * n_groups + 1],
                              index, share, places[r])
            iwcdrelief_update(partial[b], exact, metric, weights, refs[r],
                              own_lists, scale[r], border)

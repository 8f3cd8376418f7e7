"""Double ReliefF's compiled loop (Prat & Belanche 2006, section 3).

The distance weights change after every reference, so the references are
processed one at a time, in order, by one sequential kernel: it computes
the distance weights (eq. 3.1-3.3), finds the reference's neighbours with
:func:`..neighbours.references.search_rows` and
:func:`..neighbours.exact_ranking.rank_list` (float32 search, exact float64
ranking, as ReliefF's) and applies :func:`.relieff.relieff_update`, exactly
the search and rule of ReliefF.  :mod:`....variants.double` states the choices the
paper leaves open.  What a call reads is in three records:
:class:`Tables`, :class:`Weighting` and :class:`Lists`.
"""
from collections import namedtuple

import numba
import numpy as np

from ....formulas.distance_weighting import distance_weights_at
from ....formulas.ties import SHARE, fill_shares
from ..diffs import for_kernels
from ..neighbours.search import list_width
from ..neighbours.block import BLOCK, ROWS
from ..neighbours.exact_ranking import grid_scale, rank_list, ranking_bound
from ..neighbours.references import search_rows
from ..neighbours.topk import INF_BITS, candidate_key, unpack_keys
from ....progress import report, step_bounds
from .relieff import UPDATE_BLOCK, relieff_update


distance_weights_at = numba.njit(cache=True)(distance_weights_at)
fill_shares = numba.njit(cache=True)(fill_shares)

#: The data as the search reads it: the float32 `search` tables, whose
#: position p holds instance order[p] (`position` the inverse), the
#: `exact` float64 tables in instance order, and the exact values'
#: `grid` (:func:`..neighbours.exact_ranking.grid_scale`)
Tables = namedtuple("Tables", ["search", "exact", "order", "position",
                               "grid"])

#: The distance weights' options of eq. 3.1-3.3
#: (:func:`....formulas.distance_weighting.distance_weights_at`): the
#: `fixed` weights of the attributes, `clip`, the `exponent` a of c(t)
#: and s (< 0: dReliefF)
Weighting = namedtuple("Weighting", ["fixed", "clip", "exponent", "s"])

#: A reference's neighbour lists: `k` of each group, the candidates at
#: the k-th distance sharing its places when `shared`, searched in
#: float32 for `width` candidates first (:func:`..neighbours.search.
#: list_width`)
Lists = namedtuple("Lists", ["k", "shared", "width"])


@numba.njit(cache=True)
def reference_lists(tables, weights, i, lists, offsets, places):
    """Instance i's :class:`Lists` of every group under the float32
    distance `weights`, as ReliefF's search finds them: :func:`search_rows`
    in float32 for lists.width candidates (in the order of the
    :class:`Tables`' search tables), ranked by exact distance
    (:func:`rank_list`), searched again with twice the candidates while a
    list is not proven.  List g goes to entries offsets[g] .. offsets[g +
    1] - 1 of `index` and `share` (returned anew), its places (min(k,
    candidates)) to ``places[g]``."""
    search, exact = tables.search, tables.exact
    k, shared = lists.k, lists.shared
    n = search.values.shape[1]
    n_groups = len(places)
    delta = ranking_bound(search, weights, tables.grid)
    wide = weights.astype(np.float64)
    out = np.empty((ROWS, BLOCK), dtype=np.float32)
    rows = np.full(ROWS, tables.position[i], dtype=np.int64)
    list_rows = np.zeros(ROWS, dtype=np.int64)
    width = lists.width
    while True:
        keys = np.full((n_groups, width), candidate_key(INF_BITS, n),
                       dtype=np.uint64)
        search_rows(search, weights, rows, 1, list_rows, n_groups, keys, out)
        candidates = np.empty(keys.shape, dtype=np.int64)
        cand_dist = np.empty(keys.shape, dtype=np.float32)
        unpack_keys(keys, tables.order, candidates, cand_dist)
        found = np.empty((n_groups, width), dtype=np.int64)
        dist = np.empty((n_groups, width))
        proven = True
        for g in range(n_groups):
            places[g] = rank_list(exact, wide, i, candidates[g], cand_dist[g],
                                  k, delta, shared, True, found[g], dist[g])
            proven &= places[g] >= 0
        if proven:
            break
        width = min(2 * width, n + 1)
    offsets[0] = 0
    for g in range(n_groups):
        offsets[g + 1] = offsets[g] + places[g]
    index = np.empty(offsets[n_groups], dtype=np.int64)
    share = np.empty(offsets[n_groups])
    for g in range(n_groups):
        index[offsets[g]:offsets[g + 1]] = found[g, :places[g]]
        fill_shares(dist[g], places[g], k, shared,
                    share[offsets[g]:offsets[g + 1]])
        places[g] = min(k, places[g])
    return index, share


@numba.njit(cache=True)
def double_relieff_steps(tables, refs, start, stop, priors, weighting, lists,
                         partial, done):
    """Process references refs[start:stop] of (p)dReliefF, one at a time.

    For each reference R_t (t = its position in `refs`): distance weights
    from the current estimate by the :class:`Weighting` `weighting`
    (:func:`distance_weights_at`), R_t's :class:`Lists` under them
    (:func:`reference_lists`), and ReliefF's update
    (:func:`relieff_update`) added to ``partial[t // UPDATE_BLOCK]``.

    `partial` (n_blocks, a) and `done` (a,), the sum of the completed blocks,
    are the state kept between calls, so a caller can stop after any
    reference to report progress.  The result is
    ``partial.sum(axis=0) / m``, summed as ReliefF sums (:func:`relieff_rule`).
    """
    exact = tables.exact
    n_groups = priors.shape[0]
    m = refs.shape[0]
    offsets = np.empty(n_groups + 1, dtype=np.int64)
    places = np.empty(n_groups, dtype=np.int64)
    weights = np.empty(partial.shape[1], dtype=np.float32)
    total = np.empty(partial.shape[1])
    for t in range(start, stop):
        block = t // UPDATE_BLOCK
        if t > 0 and t % UPDATE_BLOCK == 0:
            done += partial[block - 1]
        total[:] = done + partial[block]
        distance_weights_at(weights, total, t, m,
                            tables.search.values.shape[1], weighting.fixed,
                            weighting.clip, weighting.exponent, weighting.s)
        i = refs[t]
        index, share = reference_lists(tables, weights, i, lists, offsets,
                                       places)
        relieff_update(partial[block], exact, i, offsets, index, share,
                       places, priors)


@numba.njit(cache=True)
def finish(partial, m):
    """The weights, summed in ReliefF's order (see rules.relieff_rule)."""
    return partial.sum(axis=0) / m


def double_relieff(data, refs, k, fixed, clip, exponent, s, ties,
                   progress_callback=None):
    """(p)dReliefF weights of prepared data (``s < 0``: dReliefF), the
    references processed in order in the pieces of
    :func:`....progress.step_bounds`; see :func:`....variants.double.double_weights`."""
    n_attrs = len(fixed)
    m = len(refs)
    partial = np.zeros((-(-m // UPDATE_BLOCK), n_attrs))
    done = np.zeros(n_attrs)
    tables = Tables(data.search, for_kernels(data.exact), data.search_order,
                    data.search_position,
                    grid_scale(data.exact.values, data.search.nominal))
    weighting = Weighting(fixed, clip, exponent, s)
    lists = Lists(k, ties == SHARE, list_width(k))
    bounds = step_bounds(m, progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        double_relieff_steps(tables, refs, int(start), int(stop),
                             data.priors, weighting, lists, partial, done)
        report(progress_callback, stop / m)
    return finish(partial, m)

"""find_neighbours: the search of all pairs or of given references, then
the exact re-ranking.

With at least half of the instances as references, the search of all
pairs (:mod:`.all_pairs`) computes each pair once; otherwise each reference
gets its own row of distances (:mod:`.references`).  Either way the float32
lists hold k + EXTRA candidates, at least LANES (:func:`list_width`), which
:mod:`.exact_ranking` ranks as float64 arithmetic would, a part of the
references at a time (:class:`....neighbours.NeighbourLists`), searching
again the references whose lists need more candidates.
"""
import numpy as np

from ....formulas.ties import SHARE
from ....neighbours import PART_ENTRIES, Neighbours, distinct, lists_of
from ....formulas.ties import TIES
from ....progress import report, step_bounds, wrap_callback
from ..diffs import for_kernels
from ..threads import by_work
from .block import BLOCK
from .cluster import all_pairs_on, references_on
from .entries import laid_end_to_end, tie_sets
from .exact_ranking import (RANK_LISTS, Ranked, Ranking, grid_scale,
                            ranking_bound)
from .lanes import LANES
from .references import group_size, search_references
from .all_pairs import pair_lists, tile_rounds
from .topk import empty_keys, unpack_keys


def _all_pairs(tables, weights, k, n_groups, progress_callback):
    """The search lists of every instance (:mod:`.all_pairs`), reporting
    after the rounds of tiles that end a piece of :func:`step_bounds`."""
    n = tables.values.shape[1]
    return pair_lists(tables, weights, np.arange(n),
                      tile_rounds(-(-n // BLOCK)), k, n_groups,
                      progress_callback)


def _references(tables, weights, refs, k, n_groups, progress_callback):
    """The search lists of the references `refs` (:mod:`.references`), in the
    pieces of :func:`step_bounds`."""
    n = tables.values.shape[1]
    keys = empty_keys((len(refs) * n_groups, k), n)
    bounds = step_bounds(len(refs), progress_callback)
    group = group_size(len(refs) // (len(bounds) - 1) or 1)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        search_references(tables, weights, refs[start:stop],
                          keys[start * n_groups:stop * n_groups], group, n)
        report(progress_callback, stop / len(refs))
    return keys


EXTRA = 4  # float32 candidates kept beyond k for the exact ranking


def list_width(k):
    """The candidates a float32 search list holds for k neighbours: k +
    EXTRA, or :data:`.lanes.LANES` where that is more (k up to 12), a
    list whose insertions run in vector registers (:func:`.topk.
    insert_key`).  The lists found are the same.  With k = 10, on one
    thread of an AMD EPYC (Zen 4, AVX-512), median of paired calls: 16
    candidates inserted entry by entry made ReliefF at 1000 x 50 take
    1.06-1.07 times as long as 14 did (more insertions, each dearer), and
    inserted in vector registers 0.82 times as long as entry by entry
    (at 2000 x 100 as well); against 14 entry by entry, 0.85-0.88 at
    1000 x 50 and 0.89-0.91 at 2000 x 100."""
    return max(int(k) + EXTRA, LANES)


#: the share of the progress of a search that its float32 search reports
#: (the exact ranking the rest)
SEARCH_SHARE = 0.9


def find_neighbours(data, refs, k, weights=None, progress_callback=None,
                    client=None, ties=TIES, distances=True):
    """The k nearest instances of each group to each reference.

    The search runs in float32 (:attr:`PreparedData.search`, instances in
    search order) for :func:`list_width` candidates, which are then
    numbered as instances again and ranked by their exact float64
    distance, a part of the references at a time (:func:`ranked_lists`):
    the lists are those of exact arithmetic, equal distances in instance
    order, the places of the candidates at the k-th distance by the tie
    rule `ties` (:mod:`....neighbours`).

    Parameters
    ----------
    data : PreparedData
    refs : int array (m,)
        Reference instances, repeats allowed.
    k : int
    weights : float array (a,) or None
        Attribute weights in the distance (eq. 3.1); None for all ones.
    progress_callback : callable(float) or None
        Called with the fraction done; it may raise to cancel the search.
    client : distributed.Client or None
        Search as tasks on this Dask cluster (:mod:`.cluster`): the same
        lists.
    ties : "share" or "lower-index"
        :mod:`....formulas.ties`.
    distances : bool
        False where the caller reads the lists' instances and places
        alone: a list that the float32 search proves (no two of its
        distances within its error bound) then holds NaN distances
        (:func:`.exact_ranking.rank_list`).

    Returns
    -------
    NeighbourLists
        Each reference's lists (:mod:`....neighbours`).
    """
    tables, n_groups = data.search, data.n_groups
    n, n_attrs = tables.values.shape[1], tables.values.shape[0]
    k = min(k, n)  # a k above n means every instance: lists of n at most
    weights = (np.ones(n_attrs) if weights is None
               else np.asarray(weights, dtype=np.float64))
    weights32 = weights.astype(np.float32)
    unique = distinct(refs, n)
    positions = data.search_position[unique]
    n_candidates = list_width(k)
    searching = wrap_callback(progress_callback, 0, SEARCH_SHARE)
    if 2 * len(unique) >= n:
        keys = (_all_pairs(tables, weights32, n_candidates, n_groups,
                           searching) if client is None
                else all_pairs_on(client, tables, weights32, n_candidates,
                                  n_groups, searching))
        keys = keys.reshape(n, n_groups, n_candidates)[positions]
    else:
        keys = (_references(tables, weights32, positions, n_candidates,
                            n_groups, searching) if client is None
                else references_on(client, tables, weights32, positions,
                                   n_candidates, n_groups, searching))
        keys = keys.reshape(len(unique), n_groups, n_candidates)
    delta = ranking_bound(tables, weights32,
                          grid_scale(data.exact.values, tables.nominal))

    def lists_of_unique(part):
        rows = part if len(unique) == n else np.searchsorted(unique, part)
        return ranked_lists(data, part, keys[rows], k, weights32, delta,
                            ties, distances)

    return lists_of(refs, k, n_groups, lists_of_unique,
                    wrap_callback(progress_callback, SEARCH_SHARE, 1.0), n)


def ranked_lists(data, refs, keys, k, weights32, delta, ties,
                 distances=True):
    """The :class:`....neighbours.Neighbours` of the distinct instances
    `refs` from their float32 search lists `keys` (refs x groups x K),
    ranked by exact distance under the float32 error bound `delta`
    (:func:`.exact_ranking.rank_list`, which computes the exact distances
    of a list its float32 order proves where `distances`).

    A list the candidates do not prove (its last entry as near as an
    instance beyond them may be: a tie set, or a near tie, running past
    the K candidates) has its reference searched again with twice the
    candidates (:func:`.references.search_references`), as often as it
    takes; the references searched again at once hold at most
    :data:`....neighbours.PART_ENTRIES` candidates.
    """
    n_groups, width = data.n_groups, keys.shape[-1]
    n = data.exact.values.shape[1]
    exact = for_kernels(data.exact)
    ranking = Ranking(k, delta, ties == SHARE, distances)
    index, dist, count = _ranked(data, exact, refs, keys, weights32, ranking)
    if (count >= 0).all():  # every list proven by its first candidates
        return Neighbours(int(k), int(n_groups), ties, *laid_end_to_end(
            index, dist, count, k, ties == SHARE))
    pieces = []
    rows, unresolved = np.arange(len(refs)), np.ones((len(refs), n_groups),
                                                     bool)
    while len(rows):
        if len(pieces):
            index, dist, count = _ranked(data, exact, refs[rows], keys,
                                         weights32, ranking)
        done = unresolved[rows] & (count >= 0)
        r, g, s = np.nonzero(done[:, :, None]
                             & (np.arange(width) < count[:, :, None]))
        pieces.append((rows[r] * n_groups + g, index[r, g, s],
                       dist[r, g, s]))
        unresolved[rows] &= ~done
        rows = np.flatnonzero(unresolved.any(axis=1))
        width = min(2 * width, n + 1)
        keys = _searched_again(data, refs[rows], width, weights32)
    lists, index, dist = (np.concatenate(a) for a in zip(*pieces))
    order = np.argsort(lists, kind="stable")  # a list's entries in order
    counts = np.bincount(lists, minlength=len(refs) * n_groups)
    offsets, dist = np.concatenate([[0], np.cumsum(counts)]), dist[order]
    return Neighbours(int(k), int(n_groups), ties, offsets, index[order],
                      dist, *tie_sets(offsets, dist, k, ties == SHARE))


def _ranked(data, exact, refs, keys, weights32, ranking):
    """(index, dist, count) of :func:`.exact_ranking.rank_lists` from the
    search lists `keys` (refs x groups x K), ranked by the
    :class:`.exact_ranking.Ranking` `ranking`."""
    shape = keys.shape
    candidates, cand_dist = (np.empty(shape, np.int64),
                             np.empty(shape, np.float32))
    unpack_keys(keys.reshape(-1, shape[2]), data.search_order,
                candidates.reshape(-1, shape[2]),
                cand_dist.reshape(-1, shape[2]))
    index, dist = np.empty(shape, np.int64), np.empty(shape)
    count = np.empty(shape[:2], np.int64)
    kernel = by_work(RANK_LISTS, candidates.size * weights32.shape[0])
    kernel(exact, weights32, refs, candidates, cand_dist, ranking,
           Ranked(index, dist, count))
    return index, dist, count


def _searched_again(data, refs, width, weights32):
    """The search lists of `width` candidates of the instances `refs`
    ((refs, groups, width) keys), searched a few at a time, so that at
    most :data:`....neighbours.PART_ENTRIES` candidates are held but
    what the references keep."""
    n_groups, n = data.n_groups, data.exact.values.shape[1]
    keys = empty_keys((len(refs) * n_groups, width), n)
    positions = data.search_position[refs]
    step = max(1, PART_ENTRIES // (n_groups * width))
    for start in range(0, len(refs), step):
        stop = min(start + step, len(refs))
        search_references(data.search, weights32, positions[start:stop],
                          keys[start * n_groups:stop * n_groups],
                          group_size(stop - start), n)
    return keys.reshape(len(refs), n_groups, width)

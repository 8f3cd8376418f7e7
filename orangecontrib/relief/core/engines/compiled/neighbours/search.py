"""find_neighbours: the search of all pairs or of given references, then
the exact re-ranking.

With at least half of the instances as references, the search of all
pairs (:mod:`.all_pairs`) computes each pair once; otherwise each reference
gets its own row of distances (:mod:`.references`).  Either way the float32
lists hold k + EXTRA candidates, which :mod:`.exact_ranking` ranks as float64
arithmetic would.
"""
import numpy as np

from ....progress import report, step_bounds
from ..diffs import for_kernels
from .block import BLOCK
from .cluster import all_pairs_on, references_on
from .exact_ranking import float32_error_bound, rerank_exactly
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


EXTRA = 4  # float32 candidates kept beyond k for the exact re-ranking


def find_neighbours(data, refs, k, weights=None, progress_callback=None,
                    client=None):
    """The k nearest instances of each group to each reference.

    The search runs in float32 (:attr:`PreparedData.search`, instances in
    search order) for k + EXTRA candidates, which are then numbered as
    instances again and ranked by their exact float64 distance
    (:func:`rerank_exactly`): the result is that of exact arithmetic,
    ties going to the lower index.

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

    Returns
    -------
    int array (m, n_groups, k)
        Neighbour indices, nearest first, -1 where a group ran out.
    """
    tables, n_groups = data.search, data.n_groups
    n, n_attrs = tables.values.shape[1], tables.values.shape[0]
    k = min(k, n)  # a k above n means every instance: lists of n at most
    weights = (np.ones(n_attrs) if weights is None
               else np.asarray(weights, dtype=np.float64))
    weights32 = weights.astype(np.float32)
    unique, inverse = np.unique(refs, return_inverse=True)
    position = data.search_position
    positions = position[unique]
    n_candidates = k + EXTRA
    if 2 * len(unique) >= n:
        keys = (_all_pairs(tables, weights32, n_candidates, n_groups,
                           progress_callback) if client is None
                else all_pairs_on(client, tables, weights32, n_candidates,
                                  n_groups, progress_callback))
        keys = keys.reshape(n, n_groups, n_candidates)[positions]
    else:
        keys = (_references(tables, weights32, positions, n_candidates,
                            n_groups, progress_callback) if client is None
                else references_on(client, tables, weights32, positions,
                                   n_candidates, n_groups, progress_callback))
    exact = ranked_exactly(data, unique, keys, k, weights32,
                           float32_error_bound(tables, weights32))
    return exact[inverse]


def ranked_exactly(data, refs, keys, k, weights32, delta):
    """The k nearest instances of each group to the instances `refs`, from
    their float32 search lists `keys` (a row per reference and group, in
    that order), ranked by exact distance (:func:`rerank_exactly`) under
    the float32 error bound `delta`."""
    shape = (len(refs), data.n_groups, keys.shape[-1])
    index, dist = np.empty(shape, np.int64), np.empty(shape, np.float32)
    unpack_keys(keys.reshape(-1, shape[2]), data.search_order,
                index.reshape(-1, shape[2]), dist.reshape(-1, shape[2]))
    exact = np.empty((len(refs), data.n_groups, k), np.int64)
    rerank_exactly(data.search, for_kernels(data.exact), weights32, refs,
                   index, dist, delta, data.search_order,
                   data.search_position, exact)
    return exact

"""Step 2 of every Relief variant: find the near hits and near misses.

For each reference instance R the search returns the k nearest instances of
every group (class; a single group in regression), nearest first.  The
distance is the weighted sum of diffs (Prat & Belanche 2006, eq. 2.1 and,
with attribute weights, eq. 3.1), computed in float32.  R is never its own
neighbour; ties are broken by the lower instance index; a group with fewer
than k candidates returns all it has and pads with -1.

Two searches, one distance kernel:

* every instance a reference (Kononenko's deterministic "Relieved" mode,
  m = n): the distance is symmetric, so each pair is computed once, in
  cache-sized tiles, and offered to both ends' top-k lists.  Threads work on
  tiles round-robin with their own top-k lists, merged at the end.
* a subset of references: one row of distances per reference, in parallel.

Memory is O(n * a) for the data plus O(threads * n * groups * k) for the
top-k lists: never an n x n matrix.
"""
import numba
import numpy as np
from numba import prange

from .diffs import LINEAR, as_dtype_of, transform

BLOCK = 256  # instances per tile side: a tile's columns stay in L1/L2


@numba.njit(inline="always", cache=True)
def offer(dist, index, row, d, j):
    """Insert candidate `j` at distance `d` into the sorted top-k list `row`.

    The list is ordered by (distance, index), so equal distances keep the
    lower index first; empty slots hold distance inf and index > any j.
    """
    last = dist.shape[1] - 1
    if d > dist[row, last] or (d == dist[row, last] and j > index[row, last]):
        return
    pos = last
    while pos > 0 and (d < dist[row, pos - 1]
                       or (d == dist[row, pos - 1] and j < index[row, pos - 1])):
        dist[row, pos] = dist[row, pos - 1]
        index[row, pos] = index[row, pos - 1]
        pos -= 1
    dist[row, pos] = d
    index[row, pos] = j


@numba.njit(inline="always", cache=True)
def add_known_diffs(out, w, xi, row, mask, j0, j1, nominal, kind, t_eq, t_diff):
    """out[j - j0] += w * diff(xi, row[j]) * mask[j] for one attribute.

    `mask` is 0 where row[j] is missing (its diff is added separately) and
    1 elsewhere; the branches sit outside the loops so each loop vectorises.
    """
    if nominal:
        for j in range(j0, j1):
            out[j - j0] += w * as_dtype_of(xi, xi != row[j]) * mask[j]
    elif kind == LINEAR:
        for j in range(j0, j1):
            out[j - j0] += w * abs(xi - row[j]) * mask[j]
    else:
        for j in range(j0, j1):
            out[j - j0] += w * transform(abs(xi - row[j]), kind, t_eq, t_diff) * mask[j]


@numba.njit(cache=True)
def distance_row(tables, weights, ones, i, j0, j1, out):
    """out[j - j0] = sum_A w_A diff(A, I_i, I_j) for j in [j0, j1) (eq. 3.1).

    Attributes are summed in column order, as the formula is written.
    Missing values take their RELIEF-D diff from ``tables.one``.
    """
    out[:j1 - j0] = 0
    groups = tables.groups
    for a in range(tables.values.shape[0]):
        w = weights[a]
        if w == 0:
            continue
        s = tables.slot[a]
        if s >= 0 and tables.known[s, i] == 0:
            own = tables.one[s, groups[i]]
            for j in range(j0, j1):
                out[j - j0] += w * own[j]
            continue
        mask = ones if s < 0 else tables.known[s]
        add_known_diffs(out, w, tables.values[a, i], tables.values[a], mask,
                        j0, j1, tables.nominal[a], tables.kind,
                        tables.t_eq, tables.t_diff)
        if s >= 0:
            for j in range(j0, j1):
                if mask[j] == 0:
                    out[j - j0] += w * tables.one[s, groups[j], i]


@numba.njit(parallel=True, cache=True)
def search_all_pairs(tables, weights, ones, tile_rows, tile_cols, start, stop,
                     dist, index):
    """Offer every pair (i < j) of the tiles start..stop-1 to both top-k lists.

    ``dist[t]``, ``index[t]`` are thread t's lists, one row per
    (instance, group): row ``i * n_groups + g``.
    """
    n_chunks = dist.shape[0]
    n = tables.values.shape[1]
    n_groups = dist.shape[1] // n
    groups = tables.groups
    for t in prange(n_chunks):
        chunk_dist, chunk_index = dist[t], index[t]
        out = np.empty(BLOCK, dtype=tables.values.dtype)
        for p in range(start + t, stop, n_chunks):
            i0, j0 = tile_rows[p] * BLOCK, tile_cols[p] * BLOCK
            for i in range(i0, min(i0 + BLOCK, n)):
                first, last = max(j0, i + 1), min(j0 + BLOCK, n)
                if first >= last:
                    continue
                distance_row(tables, weights, ones, i, first, last, out)
                for j in range(first, last):
                    d = out[j - first]
                    offer(chunk_dist, chunk_index, i * n_groups + groups[j], d, j)
                    offer(chunk_dist, chunk_index, j * n_groups + groups[i], d, i)


@numba.njit(parallel=True, cache=True)
def merge_chunks(dist, index):
    """Merge the threads' top-k lists into one (chunk 0's arrays, in place)."""
    for row in prange(dist.shape[1]):
        for t in range(1, dist.shape[0]):
            for s in range(dist.shape[2]):
                offer(dist[0], index[0], row, dist[t, row, s], index[t, row, s])


@numba.njit(parallel=True, cache=True)
def search_references(tables, weights, ones, refs, dist, index):
    """Top-k lists of the given reference instances against all instances."""
    n = tables.values.shape[1]
    n_groups = dist.shape[0] // len(refs)
    groups = tables.groups
    for r in prange(len(refs)):
        i = refs[r]
        out = np.empty(BLOCK, dtype=tables.values.dtype)
        for j0 in range(0, n, BLOCK):
            j1 = min(j0 + BLOCK, n)
            distance_row(tables, weights, ones, i, j0, j1, out)
            for j in range(j0, j1):
                if j != i:
                    offer(dist, index, r * n_groups + groups[j], out[j - j0], j)


def _empty_lists(shape, n):
    return np.full(shape, np.inf, np.float32), np.full(shape, n, np.int32)


def _report(progress_callback, done):
    if progress_callback is not None:
        progress_callback(done)


def _all_pairs(tables, weights, k, n_groups, progress_callback, n_steps):
    n = tables.values.shape[1]
    n_tiles = -(-n // BLOCK)
    tile_rows, tile_cols = (a.astype(np.int64) for a in np.triu_indices(n_tiles))
    n_chunks = numba.get_num_threads()
    dist, index = _empty_lists((n_chunks, n * n_groups, k), n)
    ones = np.ones(n, np.float32)
    bounds = np.linspace(0, len(tile_rows), n_steps + 1).astype(int)
    for step, (start, stop) in enumerate(zip(bounds[:-1], bounds[1:])):
        search_all_pairs(tables, weights, ones, tile_rows, tile_cols,
                         start, stop, dist, index)
        _report(progress_callback, (step + 1) / n_steps)
    merge_chunks(dist, index)
    return index[0]


def _references(tables, weights, refs, k, n_groups, progress_callback, n_steps):
    n = tables.values.shape[1]
    ones = np.ones(n, np.float32)
    index = np.empty((len(refs) * n_groups, k), np.int32)
    bounds = np.linspace(0, len(refs), n_steps + 1).astype(int)
    for step, (start, stop) in enumerate(zip(bounds[:-1], bounds[1:])):
        dist, part = _empty_lists(((stop - start) * n_groups, k), n)
        search_references(tables, weights, ones, refs[start:stop], dist, part)
        index[start * n_groups:stop * n_groups] = part
        _report(progress_callback, (step + 1) / n_steps)
    return index


def find_neighbours(tables, refs, k, n_groups, weights=None,
                    progress_callback=None):
    """The k nearest instances of each group to each reference.

    Parameters
    ----------
    tables : DiffTables
        float32 search tables (PreparedData.search).
    refs : int array (m,)
        Reference instances, repeats allowed.
    k : int
    n_groups : int
    weights : float array (a,) or None
        Attribute weights in the distance (eq. 3.1); None for all ones.
    progress_callback : callable(float) or None
        Called with the fraction done; it may raise to cancel the search.

    Returns
    -------
    int array (m, n_groups, k)
        Neighbour indices, nearest first, -1 where a group ran out.
    """
    n = tables.values.shape[1]
    n_attrs = tables.values.shape[0]
    weights = (np.ones(n_attrs, np.float32) if weights is None
               else np.ascontiguousarray(weights, dtype=np.float32))
    unique, inverse = np.unique(refs, return_inverse=True)
    n_steps = 1 if progress_callback is None else 20
    if 2 * len(unique) >= n:
        index = _all_pairs(tables, weights, k, n_groups, progress_callback,
                           n_steps).reshape(n, n_groups, k)[unique]
    else:
        index = _references(tables, weights, unique.astype(np.int64), k,
                            n_groups, progress_callback, n_steps)
        index = index.reshape(len(unique), n_groups, k)
    index = index[inverse]
    index[index == n] = -1
    return index

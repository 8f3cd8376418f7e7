"""The search of all pairs: every instance a reference (m = n).

The distance is symmetric, so each pair is computed once, in cache-sized
tiles of BLOCK x BLOCK instances, and offered to both ends' top-k lists.
The tiles are scheduled in rounds of pairs that share no instance (a
round-robin tournament), so the threads of a round update disjoint lists
with no locks and no copies.
"""
from functools import lru_cache

import numba
import numpy as np
from numba import prange

from ....progress import report, step_bounds
from .block import BLOCK, ROWS, add_column_corrections, block_rows
from .compaction import columns_within, columns_within_bound, hits_buffer
from .distances import add_gaps, column_sums, distance_rows, run_end
from ..threads import by_work, serial_and_parallel
from .topk import (INF_BITS, candidate_key, empty_keys, insert_key, key_bits,
                   order_bits)


@numba.njit(cache=True)
def column_corrections(tables, weights, i0, height, j0, width, ct):
    """ct[jj, ii]: the RELIEF-D correction of add_missing_columns for
    column j = j0 + jj and row i0 + ii, for a whole tile at once::

        ct[jj, ii] = sum of w_A fill[s_A, group(j), i0 + ii]
                     over the attributes A that column j misses

    Each column visits only its gaps, along the tile's rows (add_gaps):
    the search of all pairs sums a column's corrections once for its
    BLOCK rows, where a masked pass over every attribute would, for each
    block of ROWS rows.
    """
    for jj in range(width):
        ct[jj, :height] = 0
        add_gaps(ct, jj, tables, weights, tables.column_correction, j0 + jj,
                 i0, height)


@numba.njit(inline="always", cache=True)
def offer_tracked(keys, kth, slot, i, g, key):
    """insert_key() into list (slot[i], g) and keep the bits of its K-th
    distance in kth[g, i]."""
    row = slot[i] * kth.shape[0] + g
    insert_key(keys, row, key)
    kth[g, i] = key_bits(keys[row, keys.shape[1] - 1])


def search_all_pairs(tables, weights, tile_rows, tile_cols, keys, kth, slot):
    """Offer every pair (i < j) of the given tiles to both top-k lists.

    The tiles are one round of :func:`tile_rounds`: no two share an
    instance, so the threads update disjoint lists (no locks, no copies).
    Instance i's lists are rows ``slot[i] * n_groups + g`` of `keys` (the
    identity numbers all n; a task of a cluster holds the lists of its two
    blocks only, see :mod:`.cluster`);
    ``kth[g, i]`` mirrors the ordered bits of each list's K-th distance
    (the block's distances are turned into such bits, see :mod:`.topk`).
    A row i of a distance block is offered to the columns' lists of i's
    group first: it is reduced, CHUNK columns at a time in vector
    registers (:mod:`.compaction`), to the columns j whose list i enters
    (d <= kth[group(i), j]: exact, no list changes in between), each then
    offered.  Then to i's own lists, a run of columns of one group at a
    time: reduced likewise to the columns within the list's bound at the
    run's start, each then checked against the bound as it tightened.
    With missing values, a tile's column corrections are summed once
    (:func:`column_corrections`).
    """
    for p in prange(len(tile_rows)):
        search_tile_pair(tables, weights, tile_rows[p], tile_cols[p], keys,
                         kth, slot)


SEARCH_ALL_PAIRS = serial_and_parallel(search_all_pairs)


@numba.njit(cache=True)
def search_tile_pair(tables, weights, tile_row, tile_col, keys, kth, slot):
    """Offer every pair (i < j) of the tile (tile_row, tile_col) to both
    top-k lists (see :func:`search_all_pairs`).  Compiled once for both
    forms of the search (not inlined: a call serves BLOCK x BLOCK
    distances, and the parallel loop's passes then see a call, not its
    body)."""
    n = tables.values.shape[1]
    groups = tables.groups
    missing = tables.known.shape[0] > 0
    out = np.empty((ROWS, BLOCK), dtype=np.float32)
    bits = out.view(np.uint32)
    rows = np.empty(ROWS, dtype=np.int64)
    hits = hits_buffer(BLOCK)
    ct = np.empty((BLOCK if missing else 0, BLOCK), dtype=np.float32)
    sums = np.empty(BLOCK, dtype=np.float32)
    i0, j0 = tile_row * BLOCK, tile_col * BLOCK
    istop, jstop = min(i0 + BLOCK, n), min(j0 + BLOCK, n)
    column_sums(tables, weights, j0, jstop - j0, sums)
    if missing:
        column_corrections(tables, weights, i0, istop - i0, j0, jstop - j0,
                           ct)
    for first in range(i0, istop, ROWS):
        count = block_rows(first, istop, rows)
        jfirst = max(j0, first + 1)  # a diagonal tile: j > i only
        if jfirst >= jstop:
            continue
        distance_rows(tables, weights, rows, jfirst, jstop - jfirst, out,
                      sums[jfirst - j0:], False)
        if missing:
            add_column_corrections(out, ct, rows, i0, jfirst - j0,
                                   jstop - jfirst)
        order_bits(bits, jstop - jfirst)
        for r in range(count):
            offer_row(bits, r, rows[r], jfirst, jstop, groups, keys, kth,
                      slot, hits)


@numba.njit(inline="always", cache=True)
def offer_row(bits, r, i, jfirst, jstop, groups, keys, kth, slot, hits):
    """Offer row r of a block's ordered distance bits (instance i against
    columns jfirst .. jstop - 1) for the columns j > i to the columns'
    lists of i's group, then to i's own lists (see
    :func:`search_all_pairs`); `hits` is a :func:`.compaction.
    hits_buffer` of a tile's width.  The columns that may enter are
    collected first (:mod:`.compaction`): the columns' lists against their
    own bounds, i's list of a run of one group against its bound at the
    run's start, each candidate then checked against the bound as the
    insertions before it tightened it.
    The lists' arrays come one by one: passed in one named record, they
    made the search of all pairs take about a third more processor time
    (5000 x 100, one thread)."""
    lo = max(jfirst, i + 1)
    gi = groups[i]
    found = columns_within(bits, r, jfirst, lo, jstop, kth, gi, hits)
    for h in range(found):
        j = np.int64(hits[h])
        offer_tracked(keys, kth, slot, j, gi,
                      candidate_key(bits[r, j - jfirst], i))
    while lo < jstop:
        hi = run_end(groups, lo, jstop)
        g = groups[lo]
        found = columns_within_bound(bits, r, jfirst, lo, hi, kth[g, i],
                                     hits)
        for h in range(found):
            j = np.int64(hits[h])
            d = bits[r, j - jfirst]
            if d <= kth[g, i]:
                offer_tracked(keys, kth, slot, i, g, candidate_key(d, j))
        lo = hi


@lru_cache(maxsize=16)
def tile_rounds(n_tiles):
    """All tile pairs (I <= J) in rounds whose pairs share no tile.

    The diagonal tiles form one round; the others follow the circle method
    of round-robin tournaments (n_tiles - 1 rounds, or n_tiles when odd).
    Returns the rows and columns of the pairs, round after round, and where
    each round starts: the same arrays for every call with `n_tiles`
    (kept; the callers only read them), which took 9 ms to make at 79
    tiles (20000 instances) and 40 microseconds at 4 (2-core AMD EPYC,
    beside other work).
    """
    rounds = [[(t, t) for t in range(n_tiles)]]
    teams = list(range(n_tiles)) + [-1] * (n_tiles % 2)  # -1: a bye
    for _ in range(len(teams) - 1):
        pairs = zip(teams[:len(teams) // 2], teams[::-1])
        rounds.append([(min(a, b), max(a, b)) for a, b in pairs
                       if a >= 0 and b >= 0])
        teams = teams[:1] + teams[-1:] + teams[1:-1]
    return round_arrays(rounds)


def round_arrays(rounds):
    """The rows and columns of the tile pairs of `rounds` (lists of
    pairs), round after round, and where each round starts; empty rounds
    (one tile has no off-diagonal round) are left out."""
    rounds = [r for r in rounds if r]
    pairs = np.array([pair for r in rounds for pair in r], dtype=np.int64)
    starts = np.cumsum([0] + [len(r) for r in rounds])
    return (np.ascontiguousarray(pairs[:, 0]),  # one type for the kernel
            np.ascontiguousarray(pairs[:, 1]), starts)


def pair_lists(tables, weights, held, rounds, k, n_groups,
               progress_callback=None):
    """The search lists of the instances `held` (search positions) after
    every tile pair of `rounds` (the arrays of :func:`round_arrays`), which
    pair instances of `held` only: rows ``h * n_groups + g`` for the h-th
    held instance.  Reports after the rounds that end a piece of
    :func:`step_bounds`."""
    n = tables.values.shape[1]
    slot = np.full(n, -1, dtype=np.int64)
    slot[held] = np.arange(len(held))
    keys = empty_keys((len(held) * n_groups, k), n)
    kth = np.full((n_groups, n), INF_BITS, np.uint32)
    tile_rows, tile_cols, starts = rounds
    n_rounds = len(starts) - 1
    bounds = step_bounds(n_rounds, progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        for r in range(start, stop):
            pairs = slice(starts[r], starts[r + 1])
            kernel = by_work(SEARCH_ALL_PAIRS, (pairs.stop - pairs.start)
                             * BLOCK * BLOCK * tables.values.shape[0])
            kernel(tables, weights, tile_rows[pairs], tile_cols[pairs], keys,
                   kth, slot)
        report(progress_callback, stop / n_rounds)
    return keys

"""The search of given references: one row of distances per reference
against every instance, ROWS references at a time, GROUP of them per pass
over the instances, SPAN instances at a time, in parallel.

A row's run of one group is first tested as a whole: the least of its
distance bits against the bound of the list's last entry (a vectorised
minimum; once the lists have filled, almost no run passes).  A run that
passes is reduced, in vector registers (:mod:`.compaction`), to the
instances that may enter its list (one bound per run, as the search of
all pairs does); only those reach the exact insertion, which sees the
bound tightened by the row's insertions.
The same instances are offered as by a test of each one, in the same
order: the lists are the same.

Sequential variants (double ReliefF) call :func:`search_rows` for one
reference at a time with their current weights.
"""
from collections import namedtuple

import numba
import numpy as np
from numba import prange

from .block import BLOCK, ROWS, block_rows
from .compaction import columns_within_bound, hits_buffer
from .distances import column_sums, distance_rows, run_end
from .topk import candidate_key, insert_key, key_bits, order_bits

#: The instances j0 .. j0 + width - 1 that a pass offers to the lists,
#: their column_sums in `sums`, with the buffers of their distances to
#: the references (`out`, ROWS x at least width) and of the instances
#: that may enter a list (`hits`, a :func:`.compaction.hits_buffer`)
Tile = namedtuple("Tile", ["j0", "width", "sums", "out", "hits"])


@numba.njit(cache=True)
def search_tile(tables, weights, rows, count, list_rows, n_groups, keys,
                tile):
    """Offer the instances of the :class:`Tile` `tile` to the lists of
    the references rows[:count] (see :func:`search_rows`).  Compiled once
    for both searches (not inlined: a call serves ROWS x width
    distances)."""
    j0, width, sums, out, hits = tile
    groups = tables.groups
    bits = out.view(np.uint32)
    last = keys.shape[1] - 1
    distance_rows(tables, weights, rows, j0, width, out, sums, True)
    order_bits(bits, width)
    for r in range(count):
        lo = j0
        while lo < j0 + width:  # a run of one group: one list
            hi = run_end(groups, lo, j0 + width)
            row = list_rows[r] * n_groups + groups[lo]
            bound = key_bits(keys[row, last])
            if least_bits(bits, r, lo - j0, hi - j0) <= bound:
                found = columns_within_bound(bits, r, j0, lo, hi, bound,
                                             hits)
                for h in range(found):
                    j = np.int64(hits[h])
                    if j != rows[r]:
                        insert_key(keys, row,
                                   candidate_key(bits[r, j - j0], j))
            lo = hi


@numba.njit(inline="always", cache=True)
def least_bits(bits, r, lo, hi):
    """The least of bits[r, lo:hi].

    The indices are unsigned: a signed one's negative-index check kept
    LLVM from vectorising the loop, which then cost a fifth of the
    search.
    """
    least = np.uint32(0xFFFFFFFF)
    for jj in range(np.uint64(lo), np.uint64(hi)):
        least = min(least, bits[r, jj])
    return least


@numba.njit(cache=True)
def search_rows(tables, weights, rows, count, list_rows, n_groups, keys, out):
    """Top-k lists of the references rows[:count] against all instances.

    Reference r's neighbours of group g go to list row
    ``list_rows[r] * n_groups + g`` of `keys` (:mod:`.topk`).  `out` is a
    float32 (ROWS, BLOCK) buffer.  Sequential variants (double ReliefF) call
    this for one reference at a time with their current weights.
    """
    n = tables.values.shape[1]
    hits = hits_buffer(BLOCK)
    sums = np.empty(BLOCK, out.dtype)
    for j0 in range(0, n, BLOCK):
        width = min(j0 + BLOCK, n) - j0
        column_sums(tables, weights, j0, width, sums)
        search_tile(tables, weights, rows, count, list_rows, n_groups, keys,
                    Tile(j0, width, sums, out, hits))


#: the most references that pass over the instances together: each tile
#: of columns, loaded once, serves them all (the data are read from memory
#: once per group of references, not once per ROWS)
MAX_GROUP = 64

#: instances per pass of a group (BLOCK is the all-pairs tiles' side):
#: a pass over an attribute pair sets up its registers once for 4x the
#: columns of a BLOCK (the search of 1,000,000 x 20 took a sixth less
#: time); a group's column tile (a x SPAN float32) is reused from L2, and
#: even at a = 1000 (a tile larger than L2) this was faster than BLOCK
SPAN = 1024


def group_size(m):
    """References per pass over the instances: as many as MAX_GROUP, but
    small enough that every thread gets a few groups of the m."""
    per_thread = -(-m // (4 * numba.get_num_threads()))
    return min(MAX_GROUP, max(ROWS, -(-per_thread // ROWS) * ROWS))


@numba.njit(parallel=True, cache=True)
def search_references(tables, weights, refs, keys, group, n):
    """Top-k lists of the given reference instances among instances
    0 .. n - 1, `group` (a multiple of ROWS) references at a time, each
    column tile of SPAN instances serving the group's blocks of ROWS."""
    for b in prange(-(-len(refs) // group)):
        search_group(tables, weights, refs, keys, b * group,
                     min((b + 1) * group, len(refs)), n)


@numba.njit(cache=True)
def search_group(tables, weights, refs, keys, first, stop, n):
    """Top-k lists of the references refs[first:stop] among instances
    0 .. n - 1 (see :func:`search_references`): the body of its parallel
    loop, compiled apart, so that numba's passes over the loop see a
    call, not its body."""
    n_groups = keys.shape[0] // len(refs)
    out = np.empty((ROWS, SPAN), dtype=np.float32)
    hits = hits_buffer(SPAN)
    sums = np.empty(SPAN, dtype=np.float32)
    n_blocks = -(-(stop - first) // ROWS)
    positions = np.empty((n_blocks, ROWS), dtype=np.int64)
    counts = np.empty(n_blocks, dtype=np.int64)
    rows = np.empty((n_blocks, ROWS), dtype=np.int64)
    for q in range(n_blocks):
        counts[q] = block_rows(first + q * ROWS, stop, positions[q])
        for r in range(ROWS):  # element by element (:mod:`..` says why)
            rows[q, r] = refs[positions[q, r]]
    for j0 in range(0, n, SPAN):
        width = min(j0 + SPAN, n) - j0
        column_sums(tables, weights, j0, width, sums)
        tile = Tile(j0, width, sums, out, hits)
        for q in range(n_blocks):
            search_tile(tables, weights, rows[q], counts[q], positions[q],
                        n_groups, keys, tile)

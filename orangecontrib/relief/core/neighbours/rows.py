"""The search of given references: one row of distances per reference
against every instance, ROWS references at a time, in parallel.

Sequential variants (double ReliefF) call :func:`search_rows` for one
reference at a time with their current weights.
"""
import numba
import numpy as np
from numba import prange

from .block import BLOCK, ROWS, block_rows
from .kernels import distance_rows
from .topk import candidate_key, insert_key, order_bits


@numba.njit(cache=True)
def search_rows(tables, weights, rows, count, list_rows, n_groups, keys, out):
    """Top-k lists of the references rows[:count] against all instances.

    Reference r's neighbours of group g go to list row
    ``list_rows[r] * n_groups + g`` of `keys` (:mod:`.topk`).  `out` is a
    float32 (ROWS, BLOCK) buffer.  Sequential variants (double ReliefF) call
    this for one reference at a time with their current weights.
    """
    n = tables.values.shape[1]
    groups = tables.groups
    bits = out.view(np.uint32)
    for j0 in range(0, n, BLOCK):
        width = min(j0 + BLOCK, n) - j0
        distance_rows(tables, weights, rows, j0, width, out)
        order_bits(bits, width)
        for r in range(count):
            for jj in range(width):
                j = j0 + jj
                row = list_rows[r] * n_groups + groups[j]
                if j != rows[r]:
                    insert_key(keys, row, candidate_key(bits[r, jj], j))


@numba.njit(parallel=True, cache=True)
def search_references(tables, weights, refs, keys):
    """Top-k lists of the given reference instances, ROWS at a time."""
    n_groups = keys.shape[0] // len(refs)
    for b in prange(-(-len(refs) // ROWS)):
        out = np.empty((ROWS, BLOCK), dtype=np.float32)
        positions = np.empty(ROWS, dtype=np.int64)
        count = block_rows(b * ROWS, len(refs), positions)
        search_rows(tables, weights, refs[positions], count, positions,
                    n_groups, keys, out)

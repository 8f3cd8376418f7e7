"""The references' distance rows a panel at a time, each pair's distance
computed once, within a memory budget.

Without missing values D(i, j) and D(j, i) are the same float
(:func:`.distance_rows.all_distances` says why), so the distance of two
references need be computed for one of them only.  Where the n x n
matrix of :func:`.distance_rows.all_distances` does not fit its budget,
the references, permuted to the front of the instances (`order`: the
references in their order, then the other instances), are taken a panel
of P at a time.  Panel t computes its distances to its own references,
to the later ones and to the instances that are no reference, and keeps
its tiles of the later panels within a window of W panels, transposed,
for them (the pending tiles); it reads its distances to the W panels
before it from the tiles they kept, and computes those to the panels
before the window.  Its rows are assembled in instance order, so that
the rules read them as they read rows computed whole, the same bits.

While panel t is computed, the pending tiles of panels s <= t <= u <= s
+ W (s < u) are held at once: those it reads are freed only after it, so
that it reads them while it computes its own, on the same threads.  W is
the largest whose tiles fit the budget (about m^2 / 4 doubles for m
references where every later panel is in the window).
"""
from collections import namedtuple
from functools import partial

import numba
import numpy as np

from .block import BLOCK, ROWS
from .distance_rows import distance_tile

#: the side of the squares in which the pending tiles are transposed
#: (:func:`keep_later`): eight float64, a cache line
SQUARE = 8

#: The pending tiles of a schedule of panels of `size` references (the
#: last one may be shorter): pool[slots[s, u - s - 1]] holds panel u's
#: distances to panel s (P x P, a row per reference of u) from panel s's
#: computation to panel u's, for s < u <= s + `window`
Schedule = namedtuple("Schedule", ["size", "window", "slots", "pool"])


def pending_tiles(n_panels, window):
    """The most pending tiles held at once with a `window`: while panel t
    is computed, those of s <= t <= u <= s + window (s < u, u <
    n_panels): the ones it keeps for later panels, and those kept for it
    and for later ones by the panels before it."""
    t = np.arange(n_panels)[:, None]
    back = np.arange(window + 1)[None, :]  # t - s
    held = np.minimum(window - back, n_panels - 1 - t) + (back > 0)
    return int(np.where(back <= t, held, 0).sum(axis=1).max())


def smallest_budget(size):
    """The fewest bytes with which :func:`schedule` takes panels of `size`
    (a window of one panel)."""
    return pending_tiles(3, 1) * size * size * 8


def schedule(m, size, budget):
    """The :class:`Schedule` of `m` references in panels of `size` whose
    pending tiles take at most `budget` bytes, with the widest window that
    fits, or None where not even one later panel's tiles fit.  Each tile
    takes the slot of a tile read by a panel before the one that keeps it
    (a free list), so the pool holds :func:`pending_tiles` tiles."""
    n_panels = -(-m // size)
    fits = budget // (size * size * 8)
    low, high = 0, n_panels - 1  # the widest window low that fits
    while low < high:
        mid = (low + high + 1) // 2
        if pending_tiles(n_panels, mid) <= fits:
            low = mid
        else:
            high = mid - 1
    if low == 0:
        return None
    slots = np.zeros((n_panels, low), np.int64)
    free, used = [], 0
    for t in range(n_panels):
        read = t - 1  # the tiles read by the panel before are free
        free.extend(slots[s, read - s - 1]
                    for s in range(max(0, read - low), read))
        for d in range(min(low, n_panels - 1 - t)):
            if free:
                slots[t, d] = free.pop()
            else:
                slots[t, d], used = used, used + 1
    return Schedule(size, low, slots, np.empty((used, size, size)))


@numba.njit(nogil=True, cache=True)
def panel_columns(values, exact, order, rows, count, j_start, j_stop,
                  later, pool, slots, dest):
    """dest[r, order[j]] = D(I_rows[r], I_j) (positions in the permuted
    `values`) for r < count and j_start <= j < j_stop, a tile of BLOCK
    columns at a time for the whole panel (ROWS rows at a time,
    :func:`.distance_rows.distance_tile`, into a buffer of the panel's
    rows); the columns of the later panels from `later` on are also
    kept, transposed, in their pending tiles (:func:`keep_later`):
    pool[slots[d], k, r] for the column later + d P + k, P the tiles'
    side, slots[d] the slot of the d-th panel after this one (none where
    slots is empty)."""
    size = pool.shape[1]
    stop_later = later + len(slots) * size
    out = np.empty((size, BLOCK))  # the panel's rows, `rows` padded to size
    for j0 in range(j_start, j_stop, BLOCK):
        width = min(j0 + BLOCK, j_stop) - j0
        for q in range(0, count, ROWS):
            distance_tile(values, exact, rows[q:q + ROWS],
                          min(ROWS, count - q), out[q:q + ROWS], j0, width)
        scatter_tile(out, count, width, order, j0, dest)
        keep_later(out, count, max(j0, later), min(j0 + width, stop_later),
                   j0, later, pool, slots)


@numba.njit(inline="always", cache=True)
def scatter_tile(out, count, width, order, j0, dest):
    """dest[r, order[j0 + jj]] = out[r, jj] for r < count and jj < width:
    the tile's rows in instance order, a row at a time."""
    for r in range(count):
        row = dest[r]
        for jj in range(width):
            row[order[j0 + jj]] = out[r, jj]


@numba.njit(inline="always", cache=True)
def keep_later(out, count, start, stop, j0, later, pool, slots):
    """pool[slots[d], k, r] = out[r, j - j0] for r < count and the
    columns start <= j < stop of the later panels (j = later + d P + k):
    each panel's share of the tile, transposed a square of SQUARE x
    SQUARE at a time, whose reads and writes are whole cache lines.
    Written ROWS rows at a time, as each block of the tile was computed,
    a column's four values took a cache line of the tile each: MultiSURF's
    panels at 5000 x 100 took 0.236 s rather than 0.217 s (one thread of
    an Intel Xeon with AVX-512, least of 3; the whole call 2 % longer,
    median of 5 paired processes)."""
    size = pool.shape[1]
    j = start
    while j < stop:
        d = (j - later) // size
        end = min(stop, later + (d + 1) * size)
        tile = pool[slots[d]]
        first = later + d * size
        for c0 in range(j, end, SQUARE):
            for r0 in range(0, count, SQUARE):
                for c in range(c0, min(end, c0 + SQUARE)):
                    for r in range(r0, min(count, r0 + SQUARE)):
                        tile[c - first, r] = out[r, c - j0]
        j = end


@numba.njit(nogil=True, cache=True)
def pending_columns(pool, slots, t, back, order, count, dest):
    """dest[k, order[s P + l]] = pool[slots[s, t - s - 1], k, l] for k <
    count and the panels back <= s < t (P the tiles' side): panel t's
    distances to the panels before it that their pending tiles hold,
    element by element, in one call: with a call a tile, the panels of
    MultiSURF at 5000 x 100 made 800 calls of a few microseconds each,
    which took the two threads 0.025 s where one took 0.022 s (an Intel
    Xeon, AVX-512), and one call a panel runs beside the panel's
    computed columns."""
    size = pool.shape[1]
    for s in range(back, t):
        tile = pool[slots[s, t - s - 1]]
        for k in range(count):
            for l in range(size):
                dest[k, order[s * size + l]] = tile[k, l]


def reference_rows(values, exact, refs, plan):
    """(start, stop, rows, row_of, calls, work) of each panel of the
    references `refs` (distinct instances) in turn, by the
    :class:`Schedule` `plan`: once its `calls` have run, rows[k, j] =
    D(I_refs[start + k], I_j) for every instance j, k < stop - start, and
    row_of[refs[start + k]] = k.  `values` are the search tables' values
    (C order), on data without missing values.

    The calls copy the panel's columns of the earlier panels' pending
    tiles (one call) and compute the others a tile of BLOCK columns a
    call, each writing its own (any order, any thread,
    :func:`..threads.each_call`; `work` the terms of the computed ones).
    The caller runs them before it reads the rows and before it asks for
    the next panel, and may run them beside the work of the panel before
    (the small calls then even out the threads' shares before both wait
    for the panel's end: with two tiles a call, MultiSURF at 5000 x 100 on
    two threads of an Intel Xeon waited 30 ms a call at the panels' ends,
    with one 13 ms, of 0.3 s).  The panels' rows take two buffers in turn,
    so that a panel's rows are written while those of the one before are
    read, and those of the panel before that are overwritten."""
    n, m = values.shape[1], len(refs)
    size, window, slots, pool = plan
    order = np.concatenate([refs, np.setdiff1d(np.arange(n), refs)])
    permuted = np.ascontiguousarray(values[:, order])
    buffers, row_of = np.empty((2, size, n)), np.zeros(n, np.int64)
    for t in range(len(slots)):
        rows = buffers[t % 2]
        first = t * size
        count = min(size, m - first)
        back = max(0, t - window)
        panel = first + np.minimum(np.arange(size), count - 1)
        later = slots[t, :min(window, len(slots) - 1 - t)]
        calls = [partial(pending_columns, pool, slots, t, back, order, count,
                         rows)] if back < t else []
        calls += [partial(panel_columns, permuted, exact, order, panel, count,
                          j, min(j + BLOCK, stop), first + size, pool,
                          later, rows)
                  for start, stop in ((0, back * size), (first, n))
                  for j in range(start, stop, BLOCK)]
        row_of[refs[first:first + count]] = np.arange(count)
        yield (first, first + count, rows, row_of, calls,
               count * (n - (t - back) * size) * len(values))

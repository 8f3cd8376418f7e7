"""The compiled engine's tables: the scaled data laid out for the search
(float32, instances sorted by class, missing values as 0 with RELIEF-D
corrections) and for the exact distances and rules (float64).
"""
import numba
import numpy as np
from numba import prange

from .diffs import as_dtype_of, known_diff
from .missing import missing_diff_tables
from .threads import by_work, serial_and_parallel
from ...tables import SearchTables


LAYOUT_BLOCK = 64  # instances a thread lays out at a time


def lay_out(scaled, order, slot, relief_d, values, known, row32):
    """The search tables in one pass over the scaled data:
    instance order[p] at position p, values[a, p] (a missing value
    stored as 0), known[slot[a], p], row32[slot[a], g, p] (`relief_d`
    transposed, as :func:`.diffs.for_kernels`)."""
    n, n_attrs = scaled.shape
    for b in prange(-(-n // LAYOUT_BLOCK)):
        for p in range(b * LAYOUT_BLOCK, min(n, (b + 1) * LAYOUT_BLOCK)):
            i = order[p]
            for a in range(n_attrs):
                gap = np.isnan(scaled[i, a])
                values[a, p] = 0.0 if gap else scaled[i, a]
                s = slot[a]
                if s >= 0:
                    known[s, p] = not gap
                    for g in range(relief_d.shape[1]):
                        row32[s, g, p] = relief_d[i, g, a]


LAY_OUT = serial_and_parallel(lay_out)


@numba.njit(cache=True)
def _gap_lists(known, slotted):
    """The attributes each search position misses, as one list
    (position p's: gaps[gap_start[p]:gap_start[p + 1]], in attribute
    order); `slotted` are the attributes of known's rows."""
    n_slots, n = known.shape
    count = np.zeros(n, np.int64)
    for s in range(n_slots):
        for p in range(n):
            count[p] += known[s, p] == 0
    gap_start = np.zeros(n + 1, np.int64)
    filled = np.empty(n, np.int64)
    for p in range(n):  # element by element (:mod:`.` says why)
        filled[p] = gap_start[p]
        gap_start[p + 1] = gap_start[p] + count[p]
    gaps = np.empty(gap_start[n], np.int64)
    for s in range(n_slots):
        for p in range(n):
            if known[s, p] == 0:
                gaps[filled[p]] = slotted[s]
                filled[p] += 1
    return gaps, gap_start


@numba.njit(parallel=True, cache=True)
def _corrections(search, column, row):
    """The search tables' RELIEF-D corrections of a diff against a missing
    value stored as 0 (neighbours.add_missing_rows and
    add_missing_columns), with z_p = diff(x_p, 0) (diff is symmetric) and
    `row` holding the RELIEF-D diffs on entry:

        column[s, g, p] = known[s, p] (row[s, g, p] - z_p)
        row[s, g, p] -= known[s, p] z_p

    so that z_p + column[s, g, p] is the RELIEF-D diff of position p
    against a value missing in group g, 0 where x_p is missing too, and
    diff(0, x_p) + row[s, g, p] that of a value missing in group g against
    position p, both-missing pairs included.  `column` and `row` are the
    search tables' correction arrays, passed on their own: a parallel loop
    does not write through a tuple's arrays.
    """
    n_groups, n = row.shape[1], row.shape[2]
    for a in prange(len(search.slot)):
        s = search.slot[a]
        if s < 0:
            continue
        for p in range(n):
            x = search.values[a, p]
            to_zero = search.known[s, p] * known_diff(
                search, a, x, as_dtype_of(x, False))
            for g in range(n_groups):
                column[s, g, p] = search.known[s, p] * row[s, g, p] - to_zero
                row[s, g, p] -= to_zero


def search_tables(scaled, nominal, groups, slot, relief_d, kind, t_eq,
                  t_diff, order):
    """The search tables (float32, instances in `order`, an attribute's
    values together: the search runs along instances), from one pass of
    :func:`lay_out` and, with missing values, the RELIEF-D corrections.
    """
    n, n_attrs = scaled.shape
    n_slots, n_groups = slot.max() + 1, relief_d.shape[1]
    values = np.empty((n_attrs, n), np.float32)
    known = np.empty((n_slots, n), np.float32)
    row32 = np.empty((n_slots, n_groups, n), np.float32)
    by_work(LAY_OUT, n * n_attrs)(scaled, order, slot, relief_d.T, values,
                                  known, row32)
    gaps, gap_start = _gap_lists(known, np.flatnonzero(slot >= 0))
    search = SearchTables(
        values=values, known=known, slot=slot, row_correction=row32,
        column_correction=np.empty(row32.shape, np.float32),
        gaps=gaps, gap_start=gap_start, nominal=nominal,
        groups=groups[order], kind=kind, t_eq=np.float32(t_eq),
        t_diff=np.float32(t_diff))
    if n_slots:
        _corrections(search, search.column_correction, search.row_correction)
    return search


def take_positions(search, positions):
    """The search tables of the given search positions (an index array or
    a slice), in their order: a chunk of the instances, or the references,
    sent to a cluster's task."""
    counts = np.diff(search.gap_start)[positions]
    gap_start = np.zeros(len(counts) + 1, np.int64)
    gap_start[1:] = np.cumsum(counts)
    first = np.repeat(search.gap_start[positions] - gap_start[:-1], counts)
    return search._replace(
        values=np.ascontiguousarray(search.values[:, positions]),
        known=np.ascontiguousarray(search.known[:, positions]),
        row_correction=np.ascontiguousarray(
            search.row_correction[:, :, positions]),
        column_correction=np.ascontiguousarray(
            search.column_correction[:, :, positions]),
        gaps=search.gaps[first + np.arange(gap_start[-1])],
        gap_start=gap_start, groups=search.groups[positions])


def join_positions(first, second):
    """The search tables of `first`'s positions followed by `second`'s."""
    return first._replace(
        values=np.concatenate((first.values, second.values), axis=1),
        known=np.concatenate((first.known, second.known), axis=1),
        row_correction=np.concatenate(
            (first.row_correction, second.row_correction), axis=2),
        column_correction=np.concatenate(
            (first.column_correction, second.column_correction), axis=2),
        gaps=np.concatenate((first.gaps, second.gaps)),
        gap_start=np.concatenate(
            (first.gap_start[:-1], second.gap_start + first.gap_start[-1])),
        groups=np.concatenate((first.groups, second.groups)))


def tables(scaled, nominal, groups, n_groups, kind, t_eq, t_diff, order):
    """The compiled engine's part of step 1 (:class:`..interface.Engine`):
    the RELIEF-D tables (:mod:`.missing`) and the float32 search tables of
    the instances in `order`."""
    slot, relief_d = missing_diff_tables(scaled, nominal, groups, n_groups,
                                         kind, t_eq, t_diff)
    return slot, relief_d, search_tables(scaled, nominal, groups, slot,
                                         relief_d, kind, t_eq, t_diff, order)

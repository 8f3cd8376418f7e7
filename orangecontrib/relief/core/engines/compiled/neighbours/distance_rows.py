"""Distance-threshold neighbourhoods (the SURF family), compiled.

A reference's neighbourhood depends on its distances to every instance
(MultiSURF's mean and spread), so the references are taken ROWS at a
time (or several ROWS, a tile serving them all before the next) and
their exact float64 distances to all n instances computed in column
tiles of BLOCK (:func:`distance_block`); each reference then reads
its thresholds off its own row (:mod:`....formulas.neighbourhoods`) and its update rule
visits the instances within them (:mod:`..rules.surf`).  Memory: ROWS
rows of n distances per thread, but n x n where the rules keep the
distances of every pair (:func:`all_distances`), or a panel's rows and
the tiles it keeps for the later panels where they share the pairs
within a budget (:mod:`.panels`).
"""
import numba
import numpy as np
from numba import prange

from ..diffs import any_missing, attribute_diff
from ....tables import LINEAR
from ..fused import minus_one
from .block import (BLOCK, ROWS, add_column, add_four_in_order, add_in_order,
                    at, block_rows, entries, linear_diffs, nominal_terms,
                    numeric_terms, padded, plus, put, row_values, squared,
                    unless_own)
from .sides import UNMARKED, mark_rows


#: the rows of a panel of :func:`all_distances`: each column's transposed
#: copy is PANEL doubles, eight whole cache lines
PANEL = 64


@numba.njit(inline="always", cache=True)
def add_attribute(out, values, exact, a, rows, j0, width, minus):
    """out[r, jj] += diff(A_a, I_rows[r], I_(j0 + jj)), for data without
    missing values: each loaded column value serves the ROWS rows
    (`minus` the -1.0 of :func:`..fused.minus_one`)."""
    x = row_values(values, a, rows)
    start = np.uint64(j0)  # unsigned: no negative-index check
    if exact.nominal[a]:
        for jj in range(np.uint64(width)):
            add_column(out, jj, nominal_terms(x, values[a, start + jj], 1.0))
    elif exact.kind == LINEAR:
        for jj in range(np.uint64(width)):
            add_column(out, jj, linear_diffs(x, values[a, start + jj], minus))
    else:
        kind, t_eq, t_diff = exact.kind, exact.t_eq, exact.t_diff
        for jj in range(np.uint64(width)):
            add_column(out, jj, numeric_terms(x, values[a, start + jj], 1.0,
                                              kind, t_eq, t_diff))


@numba.njit(inline="always", cache=True)
def add_attribute_pair(out, values, exact, a, rows, j0, width, minus):
    """out[r, jj] += diff(A_a, ..) then diff(A_(a+1), ..), two attributes
    of one kind (both nominal or both numeric) in one pass: the same sums,
    in the same order, with half the loads and stores of `out`."""
    b = a + 1
    xa, xb = row_values(values, a, rows), row_values(values, b, rows)
    start = np.uint64(j0)
    if exact.nominal[a]:
        for jj in range(np.uint64(width)):
            add_in_order(out, jj, nominal_terms(xa, values[a, start + jj], 1.0),
                         nominal_terms(xb, values[b, start + jj], 1.0))
    elif exact.kind == LINEAR:
        for jj in range(np.uint64(width)):
            add_in_order(out, jj,
                         linear_diffs(xa, values[a, start + jj], minus),
                         linear_diffs(xb, values[b, start + jj], minus))
    else:
        kind, t_eq, t_diff = exact.kind, exact.t_eq, exact.t_diff
        for jj in range(np.uint64(width)):
            add_in_order(out, jj,
                         numeric_terms(xa, values[a, start + jj], 1.0, kind,
                                       t_eq, t_diff),
                         numeric_terms(xb, values[b, start + jj], 1.0, kind,
                                       t_eq, t_diff))


@numba.njit(inline="always", cache=True)
def add_linear_four(out, values, a, rows, j0, width, minus):
    """out[r, jj] += diff(A_a, ..), then those of A_(a+1), A_(a+2) and
    A_(a+3), four numeric attributes of the linear diff in one pass: the
    same sums, in the same order, with a quarter of the loads and stores
    of `out`.  With the subtractions on the multiply-add units
    (:mod:`..fused`), the distances of four references to 5000 instances
    x 100 attributes took 15.0-15.3 ms rather than 18.1-20.8 ms two
    attributes a pass with subtractions (one thread of an AMD EPYC, Zen
    4, AVX-512; ``benchmarks/README.md`` has the whole calls)."""
    xa, xb = row_values(values, a, rows), row_values(values, a + 1, rows)
    xc, xd = row_values(values, a + 2, rows), row_values(values, a + 3, rows)
    start = np.uint64(j0)
    for jj in range(np.uint64(width)):
        add_four_in_order(out, jj,
                          linear_diffs(xa, values[a, start + jj], minus),
                          linear_diffs(xb, values[a + 1, start + jj], minus),
                          linear_diffs(xc, values[a + 2, start + jj], minus),
                          linear_diffs(xd, values[a + 3, start + jj], minus))


@numba.njit(inline="always", cache=True)
def linear_run(exact, a):
    """Whether attributes a .. a + 3 exist and are all numeric, of the
    linear diff (:func:`add_linear_four`)."""
    nominal = exact.nominal
    return (exact.kind == LINEAR and a + 3 < len(nominal) and not (
        nominal[a] or nominal[a + 1] or nominal[a + 2] or nominal[a + 3]))


@numba.njit(cache=True)
def distance_tile(values, exact, rows, count, out, j0, width):
    """out[r, jj] = D(I_rows[r], I_(j0 + jj)) = sum_A diff(A, I_rows[r],
    I_(j0 + jj)) for jj < width (a tile of at most BLOCK instances), the
    attributes added in their order (as
    :func:`.exact_ranking.exact_distance` and the literal definition),
    four numeric ones of the linear diff (:func:`add_linear_four`) or two
    of one kind at a time where they follow each other.

    `values` is ``exact.values`` in C order (attributes x instances), so
    that a tile's columns are contiguous; with missing values each diff
    reads the RELIEF-D tables (:func:`..diffs.attribute_diff`).  A kernel
    of its own, not inlined: numba compiles its branches for every kind
    of attribute once for each dtype of `values` (float64, and float32 on
    a screen), not again in every kernel that computes distances.
    """
    n_attrs = values.shape[0]
    nominal = exact.nominal
    out[:, :width] = 0.0
    if not any_missing(exact):
        minus = minus_one(values)
        a = 0
        while a < n_attrs:
            if linear_run(exact, a):
                add_linear_four(out, values, a, rows, j0, width, minus)
                a += 4
            elif a + 1 < n_attrs and nominal[a] == nominal[a + 1]:
                add_attribute_pair(out, values, exact, a, rows, j0, width,
                                   minus)
                a += 2
            else:
                add_attribute(out, values, exact, a, rows, j0, width, minus)
                a += 1
    else:
        for a in range(n_attrs):
            for r in range(count):
                for jj in range(width):
                    out[r, jj] += attribute_diff(exact, a, rows[r], j0 + jj)


@numba.njit(cache=True)
def distance_block(values, exact, rows, count, dist, start):
    """dist[r, j] = D(I_rows[r], I_j) for r < count and every instance j
    from `start` on, a tile at a time (:func:`distance_tile`).

    `rows` holds ROWS references or a multiple of ROWS (each ROWS of them
    padded as :func:`.block.block_refs` pads them), and a tile serves them
    all, ROWS rows per pass, before the next tile: its columns are read
    from memory once for the whole block, not once per ROWS rows."""
    n = values.shape[1]
    out = np.empty((ROWS, BLOCK))
    for j0 in range(start, n, BLOCK):
        distance_columns(values, exact, rows, count, out, dist, 0, j0,
                         min(j0 + BLOCK, n) - j0)


@numba.njit(inline="always", cache=True)
def distance_columns(values, exact, rows, count, out, dest, r0, j0, width):
    """dest[r0 + r, j0 + jj] = D(I_rows[r], I_(j0 + jj)) for r < count and
    jj < width (one tile of at most BLOCK columns), ROWS rows at a time
    through the buffer `out` (ROWS x BLOCK): the tile's columns serve every
    row of the block while they are in cache."""
    for q in range(0, count, ROWS):
        n_rows = min(ROWS, count - q)
        distance_tile(values, exact, rows[q:q + ROWS], n_rows, out, j0,
                      width)
        copy_tile(out, n_rows, width, dest, r0 + q, j0)


@numba.njit(inline="always", cache=True)
def copy_tile(out, count, width, dest, r0, j0):
    """dest[r0 + r, j0 + jj] = out[r, jj] for r < count and jj < width,
    element by element (:mod:`..` says why)."""
    for r in range(count):
        for jj in range(width):
            dest[r0 + r, j0 + jj] = out[r, jj]


@numba.njit(inline="always", cache=True)
def add_row_sums(dist, rows, count, j0, totals, squares):
    """totals[rows[r]] and squares[rows[r]], r < count: the sums of row
    rows[r]'s distances and of their squares go on over the instances j0
    <= j < j0 + width, dist[r, j - j0] (width = dist.shape[1]), in their
    order, each row its own chain side by side with the block's others,
    its own distance added as -0.0 (which leaves any sum as it is).  The
    chains are held in registers (:mod:`.block`'s tuples), where sums in
    an array went through memory at every addition (the rows of 2002 x
    2002 distances took 4.3 ms rather than 6.9-7.1 on one thread of an
    AMD EPYC, Zen 3, AVX2, least of 40 interleaved calls)."""
    lanes = padded(0, count)
    own = at(rows, lanes)
    total, square = at(totals, own), at(squares, own)
    for jj in range(dist.shape[1]):
        d = unless_own(entries(dist, lanes, jj), own, j0 + jj)
        total = plus(total, d)
        square = plus(square, unless_own(squared(d), own, j0 + jj))
    put(totals, own, total)
    put(squares, own, square)


@numba.njit(parallel=True, cache=True)
def row_sums(values, exact):
    """Each instance's summed distance, and summed squared distance, to
    the n - 1 others, in the others' order (:func:`add_row_sums`), ROWS
    instances' distances computed at a time."""
    n = values.shape[1]
    totals = np.zeros(n)
    squares = np.zeros(n)
    for b in prange(-(-n // ROWS)):
        rows = np.empty(ROWS, np.int64)
        dist = np.empty((n, ROWS)).T  # the rows' distances side by side
        count = block_rows(b * ROWS, n, rows)
        distance_block(values, exact, rows, count, dist, 0)
        add_row_sums(dist, rows, count, 0, totals, squares)
    return totals, squares


@numba.njit(inline="always", cache=True)
def transpose_tile(tile, count, width, dest, first):
    """dest[jj, first + r] = tile[r, jj] for r < count and jj < width."""
    for jj in range(width):
        for r in range(count):
            dest[jj, first + r] = tile[r, jj]


@numba.njit(parallel=True, cache=True)
def symmetric_row_sums(values, exact, sides):
    """:func:`row_sums` to the bit, each pair's distance computed once:
    for data without missing values, whose distances are symmetric to the
    bit (:func:`all_distances`); each pair i <= j of a stripe marked on
    its side of the interval of the :class:`.sides.Sides` `sides` in row
    i, but where they are UNMARKED (no row: one signature for both).

    The columns are taken a stripe of BLOCK instances at a time, in their
    order.  The distances of the instances before the stripe's end to the
    stripe's instances are computed, ROWS rows at a time in parallel, and
    serve twice: a block of rows before the stripe adds them as its next
    columns (:func:`add_row_sums`) and marks them while they are in
    cache, and their transposed copy (the stripe, BLOCK x n) gives the
    stripe's own rows their columns from the first to the stripe's end,
    read along its rows.  Every row thus adds its distances in the
    instances' order, as :func:`row_sums` does.
    Read from a stripe of the rows (n x BLOCK), along them and, for the
    stripe's own rows, across, the sums and marks made the pass at 5000 x
    100 take 0.32-0.38 s rather than 0.26-0.30 on one thread, 0.17-0.22 s
    rather than 0.13-0.17 on two (an AMD EPYC, Zen 3, AVX2, least of 7
    interleaved calls, the same bits).  Memory: BLOCK x n float64."""
    n = values.shape[1]
    totals = np.zeros(n)
    squares = np.zeros(n)
    stripe = np.empty((BLOCK, n))
    # numba (0.68) loses a parallel loop's writes to the arrays of a tuple
    below, above, low, high = sides
    marks = below.shape[0] > 0
    for j0 in range(0, n, BLOCK):
        width = min(j0 + BLOCK, n) - j0
        end = j0 + width
        for b in prange(-(-end // ROWS)):
            rows = np.empty(ROWS, np.int64)
            out = np.empty((ROWS, BLOCK))
            count = block_rows(b * ROWS, end, rows)
            distance_tile(values, exact, rows, count, out, j0, width)
            transpose_tile(out, count, width, stripe, b * ROWS)
            if b * ROWS < j0:  # j0 is a multiple of ROWS: the whole block
                add_row_sums(out[:, :width], rows, count, j0, totals,
                             squares)
            if marks:
                mark_rows(out, b * ROWS, count, j0, width, below, above,
                          low, high)
        for q in prange(-(-width // ROWS)):
            rows = np.empty(ROWS, np.int64)
            count = block_rows(j0 + q * ROWS, end, rows)
            add_row_sums(stripe[q * ROWS:, :end], rows, count, 0, totals,
                         squares)
    return totals, squares


def pair_sums(values, exact, sides=None):
    """The sums of D and of D^2 over the n (n - 1) ordered pairs of
    distinct instances (each instance's added in order, then those by
    numpy): SURF's T and SWRF's deviation
    (:func:`....formulas.neighbourhoods.global_statistics`), each pair's
    distance computed once where they are symmetric, and marked on the
    :class:`.sides.Sides` `sides` (data without missing values only)."""
    if any_missing(exact):
        totals, squares = row_sums(values, exact)
    else:
        totals, squares = symmetric_row_sums(
            values, exact, UNMARKED if sides is None else sides)
    return totals.sum(), squares.sum()


@numba.njit(parallel=True, cache=True)
def all_distances(values, exact, dist):
    """dist[i, j] = D(I_i, I_j) of every pair (n x n), by
    :func:`distance_columns`, PANEL rows at a time: each row the bits the
    rules compute for it.  `dist` is the caller's, allocated by numpy,
    which asks the system for huge pages where it allows them (a matrix
    allocated here faulted in its 4 KiB pages one at a time: about a
    quarter of a second at n = 5,000).

    Without missing values diff(A, I_i, I_j) and diff(A, I_j, I_i) are the
    same float (|a - b| = |b - a| exactly, a != b alike) and added in the
    same attribute order, so D is symmetric to the bit: a panel of rows
    computes the columns from its own first row on and copies those
    beyond the panel to their transposed places, half the work.  It does
    so a tile of BLOCK columns at a time, while the tile is in cache, and
    each column j's copy is PANEL contiguous doubles of row j (whole cache
    lines, where a copy ROWS wide wrote half a line per row).  The panels
    are taken from both ends in turn, so that the threads' shares of the
    triangle are alike."""
    n = values.shape[1]
    n_panels = -(-n // PANEL)
    half = not any_missing(exact)
    for p in prange(n_panels):
        b = p // 2 if p % 2 == 0 else n_panels - 1 - p // 2
        first = b * PANEL
        count = min(PANEL, n - first)
        rows = first + np.minimum(np.arange(PANEL), count - 1)
        out = np.empty((ROWS, BLOCK))
        for j0 in range(first if half else 0, n, BLOCK):
            width = min(j0 + BLOCK, n) - j0
            distance_columns(values, exact, rows, count, out, dist, first,
                             j0, width)
            if half:
                copy_transposed(dist, first, count, max(j0, first + count),
                                j0 + width)


@numba.njit(inline="always", cache=True)
def copy_transposed(dist, first, count, start, stop):
    """dist[j, first + r] = dist[first + r, j] for r < count and start <= j
    < stop, element by element (:mod:`..` says why): row j's places of the
    panel's rows, contiguous."""
    for j in range(start, stop):
        for r in range(count):
            dist[j, first + r] = dist[first + r, j]


@numba.njit(parallel=True, cache=True)
def sums_of_rows(dist):
    """:func:`row_sums` of the distances of every pair given (n x n), to
    the bit: the same sums of each row (:func:`add_row_sums`), ROWS rows
    at a time."""
    n = dist.shape[0]
    totals = np.zeros(n)
    squares = np.zeros(n)
    for b in prange(-(-n // ROWS)):
        rows = np.empty(ROWS, np.int64)
        count = block_rows(b * ROWS, n, rows)
        add_row_sums(dist[b * ROWS:], rows, count, 0, totals, squares)
    return totals, squares

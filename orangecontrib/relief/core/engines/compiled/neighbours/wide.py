"""Exact distances of wide data, a block of columns at a time, compiled
(:mod:`....compact` reads the blocks and adds them up; the numpy twins are
in :mod:`...vectorised.wide`).

* :func:`plane_distances` -- the popcount distance of bit planes in half
  units (:mod:`....compact.planes`): a popcount of the xor of two rows'
  words, which LLVM compiles to the processor's vector popcount where it
  has one (AVX-512 VPOPCNTDQ), else to scalar POPCNT;
* :func:`add_distances` -- a block's float64 diffs added to running
  sums in attribute order;
* :func:`sparse_distances` -- the same of the rows of a CSR matrix,
  swept a block of columns at a time over the instances that store a
  value in each column.
"""
from collections import namedtuple

import numba
import numpy as np
from numba import prange
from numba.core import types
from numba.extending import intrinsic

from ..diffs import attribute_diff, for_kernels, known_diff, numeric_and_known

#: what :func:`..diffs.known_diff` reads of the tables, for a sparse
#: matrix's diffs
DiffKind = namedtuple("DiffKind", ["nominal", "kind", "t_eq", "t_diff"])

#: A CSR matrix's arrays: row i stores the columns
#: indices[indptr[i]:indptr[i + 1]], in increasing order, their values at
#: the same places of `data`
SparseRows = namedtuple("SparseRows", ["indptr", "indices", "data"])


@intrinsic
def popcount(typingctx, word):
    """The number of bits set in a uint64 (LLVM's ctpop)."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@numba.njit(inline="always", cache=True)
def plane_count(planes, digits, i, j):
    """D(i, j) in half units (:mod:`....compact.planes`)."""
    count = np.uint64(0)
    for w in range(planes.shape[1]):
        count += popcount(planes[i, w] ^ planes[j, w])
    mismatches = np.uint64(0)
    for w in range(digits.shape[2]):
        mismatches += popcount((digits[i, 0, w] ^ digits[j, 0, w])
                               | (digits[i, 1, w] ^ digits[j, 1, w]))
    return np.int64(count + mismatches + mismatches)


#: instances per side of a tile of the symmetric search
TILE = 32


@numba.njit(parallel=True, cache=True)
def plane_pairs(planes, digits, tile_i, tile_j, out):
    """out[i, j] and out[j, i] += D(i, j) for every pair i < j of the
    tile pairs (tile_i[t], tile_j[t]), tile_i <= tile_j: each pair once,
    the tiles in parallel (they write disjoint entries)."""
    n = planes.shape[0]
    for t in prange(len(tile_i)):
        for i in range(tile_i[t] * TILE, min(n, (tile_i[t] + 1) * TILE)):
            first = (i + 1 if tile_i[t] == tile_j[t]
                     else tile_j[t] * TILE)
            for j in range(first, min(n, (tile_j[t] + 1) * TILE)):
                d = plane_count(planes, digits, i, j)
                out[i, j] += d
                out[j, i] += d


@numba.njit(parallel=True, cache=True)
def plane_rows(planes, digits, rows, out):
    """out[r, j] += D(rows[r], j) for every instance j."""
    for r in prange(len(rows)):
        i = rows[r]
        for j in range(planes.shape[0]):
            out[r, j] += plane_count(planes, digits, i, j)


def plane_distances(planes, digits, rows, out):
    """out[r, j] += D(rows[r], j), the distance in half units of the
    planes (n, W) and the nominal digit planes (n, 2, W') for every
    instance j; every instance a reference (rows 0 .. n - 1), each pair
    is counted once."""
    n = planes.shape[0]
    if len(rows) == n and (rows == np.arange(n)).all():
        tiles = -(-n // TILE)
        tile_i, tile_j = np.triu_indices(tiles)
        plane_pairs(planes, digits, tile_i.astype(np.int64),
                    tile_j.astype(np.int64), out)
    else:
        plane_rows(planes, digits, rows, out)


@numba.njit(parallel=True, cache=True)
def add_distances_kernel(exact, values, weights, rows, out):
    """out[r, j] += w_A diff(A, I_rows[r], I_j) for each attribute A of
    the block, in order (one row of sums per reference; `values` the
    block's values in C order, an attribute's instances together)."""
    n_attrs, n = values.shape
    simple = numeric_and_known(exact)
    for r in prange(len(rows)):
        i = rows[r]
        for a in range(n_attrs):
            w = weights[a]
            if w == 0:
                continue
            x = values[a, i]
            if simple:
                for j in range(n):
                    out[r, j] += w * abs(x - values[a, j])
            elif exact.relief_d.shape[2] == 0:
                for j in range(n):
                    out[r, j] += w * known_diff(exact, a, x, values[a, j])
            else:
                for j in range(n):
                    out[r, j] += w * attribute_diff(exact, a, i, j)


def add_distances(exact, weights, rows, out):
    """The compiled engine's :meth:`...interface.Engine.add_distances`
    (:func:`add_distances_kernel`)."""
    n_attrs = exact.values.shape[0]
    weights = (np.ones(n_attrs) if weights is None
               else np.ascontiguousarray(weights, dtype=np.float64))
    add_distances_kernel(for_kernels(exact),
                         np.ascontiguousarray(exact.values), weights,
                         np.asarray(rows, np.int64), out)


#: the columns of a CSR matrix swept at a time (a block's columns are
#: gathered once for every reference)
SWEEP_COLUMNS = 512


@numba.njit(inline="always", cache=True)
def scaled_value(value, a, low, span, half):
    """A value of column `a` scaled as :func:`....values.scale_rows`
    scales it ((x - low) / span, or in halves where `half` is not 0)."""
    x = np.float64(value)
    if half[a] != 0:
        return (x / 2 - low[a] / 2) / half[a]
    return (x - low[a]) / span[a]


@numba.njit(cache=True)
def column_block(matrix, cursor, start, stop, implicit, scale, tables,
                 weights):
    """The columns [start, stop) of the :class:`SparseRows` `matrix` by
    column: (cptr, crows,
    cvals, cterms), column b's instances crows[cptr[b]:cptr[b + 1]] in
    increasing order, their scaled values cvals and w_A diff(implicit,
    value) (the term of a reference that stores no value there) cterms.
    Each row's `cursor` (its first entry at or after `start`) is moved
    past `stop`."""
    indptr, indices, data = matrix
    low, span, half = scale
    n, width = len(indptr) - 1, stop - start
    counts = np.zeros(width + 1, np.int64)
    for i in range(n):
        p = cursor[i]
        while p < indptr[i + 1] and indices[p] < stop:
            counts[indices[p] - start + 1] += 1
            p += 1
    cptr = np.cumsum(counts)
    fill = cptr[:-1].copy()
    crows = np.empty(cptr[-1], np.int64)
    cvals, cterms = np.empty(cptr[-1]), np.empty(cptr[-1])
    for i in range(n):
        p = cursor[i]
        while p < indptr[i + 1] and indices[p] < stop:
            a = indices[p]
            t = fill[a - start]
            crows[t] = i
            cvals[t] = scaled_value(data[p], a, low, span, half)
            cterms[t] = weights[a] * known_diff(tables, a, implicit[a],
                                                cvals[t])
            fill[a - start] += 1
            p += 1
        cursor[i] = p
    return cptr, crows, cvals, cterms


@numba.njit(parallel=True, cache=True)
def sweep_block(matrix, first, block, implicit, scale, tables, weights,
                start, rows, out):
    """out[r, j] += w_A diff(A, I_rows[r], I_j) for the attributes A of a
    :func:`column_block` `block` of the :class:`SparseRows` `matrix`
    starting at `start`, in attribute order,
    where either instance stores a value (a column neither stores adds
    diff(z, z) = 0: nothing); `first` each row's first entry at or after
    `start`.

    A column the reference stores adds its term against the implicit
    value to every instance, and the stored instances' terms to their
    sums as they were (each sum gets one term per attribute, as a merge
    of the two rows gives it); a column it does not store adds the
    precomputed terms of the instances that store it."""
    indptr, indices, data = matrix
    cptr, crows, cvals, cterms = block
    low, span, half = scale
    n, width = out.shape[1], len(cptr) - 1
    longest = 0
    for b in range(width):
        longest = max(longest, cptr[b + 1] - cptr[b])
    for r in prange(len(rows)):
        i = rows[r]
        p = first[i]
        saved = np.empty(longest)
        for b in range(width):
            a = start + b
            lo, hi = cptr[b], cptr[b + 1]
            if p < indptr[i + 1] and indices[p] == a:
                x, w = scaled_value(data[p], a, low, span, half), weights[a]
                p += 1
                for t in range(lo, hi):
                    saved[t - lo] = out[r, crows[t]]
                c = w * known_diff(tables, a, x, implicit[a])
                for j in range(n):
                    out[r, j] += c
                for t in range(lo, hi):
                    out[r, crows[t]] = saved[t - lo] + w * known_diff(
                        tables, a, x, cvals[t])
            else:
                for t in range(lo, hi):
                    out[r, crows[t]] += cterms[t]


def sparse_distances(scale, nominal, kind, t_eq, t_diff, weights, rows,
                     out):
    """The compiled engine's :meth:`...interface.Engine.sparse_distances`:
    a block of :data:`SWEEP_COLUMNS` columns at a time, the same floats as
    :func:`...vectorised.wide.sparse_distances`."""
    matrix = SparseRows(scale.matrix.indptr, scale.matrix.indices,
                        scale.matrix.data)
    factors = (np.asarray(scale.low, np.float64),
               np.asarray(scale.span, np.float64),
               np.asarray(scale.half, np.float64))
    implicit = implicit_values(factors)
    tables = DiffKind(nominal, kind, np.float64(t_eq), np.float64(t_diff))
    weights = np.ascontiguousarray(weights, np.float64)
    rows = np.asarray(rows, np.int64)
    out[:] = 0.0
    cursor = matrix.indptr[:-1].astype(np.int64)
    n_columns = scale.matrix.shape[1]
    for start in range(0, n_columns, SWEEP_COLUMNS):
        stop = min(start + SWEEP_COLUMNS, n_columns)
        first = cursor.copy()
        block = column_block(matrix, cursor, start, stop, implicit, factors,
                             tables, weights)
        sweep_block(matrix, first, block, implicit, factors, tables, weights,
                    start, rows, out)


@numba.njit(cache=True)
def implicit_values(scale):
    """Each column's scaled 0, the value of an entry a sparse matrix does
    not store."""
    low, span, half = scale
    out = np.empty(len(low))
    for a in range(len(low)):
        out[a] = scaled_value(0.0, a, low, span, half)
    return out


def bit_words(bits):
    """Bool (rows, n) as uint64 words (rows, ceil(n / 64)), bit b of word
    q instance 64 q + b."""
    rows, n = bits.shape
    packed = np.packbits(bits, axis=1, bitorder="little")
    out = np.zeros((rows, -(-n // 64) * 8), np.uint8)
    out[:, :packed.shape[1]] = packed
    return out.view(np.uint64)


def level_tables(codes, n_levels):
    """What :func:`level_sums` reads of the levels `codes` (n, a) of
    n_levels: for each attribute and level above 0, the instances at
    that level as bits, (a, levels - 1, W) uint64."""
    return np.ascontiguousarray(np.stack(
        [bit_words(codes.T == v) for v in range(1, n_levels)], axis=1))


@numba.njit(parallel=True, cache=True)
def sum_levels(member_bits, level_bits, ref_diffs, sums, squares, counts):
    """sums[a, r, c] = sum_v count(r, c, a, v) ref_diffs[r, a, v], and
    squares[a, r, c] the same of the squared diffs (where `squares` has
    rows), count(r, c, a, v) = popcount(member_bits[r, c] & level_bits[a,
    v - 1]) for the levels above 0 and the rest of the members at level
    0; counts[r, c] the members.  The counts are whole numbers and the
    diffs halves: every product and sum is exact."""
    n_refs, n_groups, n_words = member_bits.shape
    n_attrs, above = level_bits.shape[0], level_bits.shape[1]
    for r in prange(n_refs):
        for c in range(n_groups):
            total = np.uint64(0)
            for w in range(n_words):
                total += popcount(member_bits[r, c, w])
            counts[r, c] = np.float64(total)
            for a in range(n_attrs):
                rest = np.float64(total)
                s = q = 0.0
                for v in range(above):
                    count = np.uint64(0)
                    for w in range(n_words):
                        count += popcount(member_bits[r, c, w]
                                          & level_bits[a, v, w])
                    d = ref_diffs[r, a, v + 1]
                    s += np.float64(count) * d
                    q += np.float64(count) * (d * d)
                    rest -= np.float64(count)
                d = ref_diffs[r, a, 0]
                sums[a, r, c] = s + rest * d
                if squares.shape[0]:
                    squares[a, r, c] = q + rest * (d * d)


def level_sums(members, groups, n_groups, tables, ref_diffs, squares):
    """The sums of :class:`....tables.LevelTables` (its ``sums``) by
    popcount over bit sets of the instances (:func:`sum_levels`)."""
    member_bits = np.ascontiguousarray(np.stack(
        [bit_words(members & (groups == c)[None, :])
         for c in range(n_groups)], axis=1))
    n_refs, n_attrs = len(members), tables.shape[0]
    sums = np.empty((n_attrs, n_refs, n_groups))
    squared = np.empty((n_attrs, n_refs, n_groups) if squares
                       else (0, 0, 0))
    counts = np.empty((n_refs, n_groups))
    sum_levels(member_bits, tables, ref_diffs, sums, squared, counts)
    return sums, counts, squared if squares else None

"""Exact distances of wide data, a block of columns at a time, in numpy
(:mod:`...compact` reads the blocks and adds them up).

* :func:`plane_distances` -- the popcount distance of bit planes, in
  half units (:mod:`...compact.planes`), a whole number;
* :func:`add_distances` -- a block's float64 diffs added to running
  sums, attribute by attribute, which continues the sum in attribute
  order that both engines' exact distance adds;
* :func:`sparse_distances` -- the same sums of a CSR matrix, its
  columns made dense and scaled a block at a time.
"""
import numpy as np

from ...tables import exact_tables
from .diffs import Rows
from .threads import each

#: uint64 words a thread holds at once in :func:`plane_distances`
WORD_ENTRIES = 2 ** 21
#: columns of a sparse matrix made dense at once, per instance
SPARSE_COLUMNS = 256


def plane_counts(planes, digits, rows, columns):
    """The popcount distances (half units) of instances `rows` to
    instances `columns` of one block's planes (rows x columns)."""
    counts = np.bitwise_count(planes[rows, None, :]
                              ^ planes[None, columns, :]).sum(
        axis=-1, dtype=np.int64)
    if digits.shape[-1]:
        mismatch = (digits[rows, None, 0] ^ digits[None, columns, 0]) | (
            digits[rows, None, 1] ^ digits[None, columns, 1])
        counts += 2 * np.bitwise_count(mismatch).sum(axis=-1, dtype=np.int64)
    return counts


def plane_distances(planes, digits, rows, out):
    """out[r, j] += D(rows[r], j), the distance in half units of the
    planes `planes` (n, W) and nominal digit planes `digits` (n, 2, W')
    (:mod:`...compact.planes`), for every instance j; whole numbers, so
    the order of the additions does not matter."""
    n = planes.shape[0]
    per_pair = max(planes.shape[1] + 2 * digits.shape[2], 1)
    width = min(n, max(1, WORD_ENTRIES // per_pair))
    height = max(1, WORD_ENTRIES // (per_pair * width))

    def add(block):
        for start in range(0, n, width):
            stop = min(start + width, n)
            out[block, start:stop] += plane_counts(
                planes, digits, rows[block], np.arange(start, stop))

    each(add, [slice(first, min(first + height, len(rows)))
               for first in range(0, len(rows), height)])


def add_distances(exact, weights, rows, out):
    """The vectorised engine's :meth:`..interface.Engine.add_distances`:
    the running sums of :meth:`.diffs.Rows.distances`, the rows in eighths
    run by :func:`.threads.each`."""
    table = Rows(exact, weights)

    def add(block):
        table.distances(rows[block], out[block], running=True)

    height = max(1, len(rows) // 8)
    each(add, [slice(first, min(first + height, len(rows)))
               for first in range(0, len(rows), height)])


def scaled_columns(scale, start, stop):
    """Columns start .. stop - 1 of the CSR matrix of `scale`
    (:class:`....compact.distances.SparseScale`) as a dense float64
    array, scaled as :func:`....values.scale_rows` scales them (an entry
    it does not store being 0)."""
    columns = slice(start, stop)
    dense = scale.matrix[:, columns].toarray().astype(np.float64)
    low, span, half = (scale.low[columns], scale.span[columns],
                       scale.half[columns])
    out = (dense - low) / span
    huge = half != 0
    out[:, huge] = (dense[:, huge] / 2 - low[huge] / 2) / half[huge]
    return out


def sparse_distances(scale, nominal, kind, t_eq, t_diff, weights, rows,
                     out):
    """The vectorised engine's :meth:`..interface.Engine.sparse_distances`:
    exact tables of a block of :data:`SPARSE_COLUMNS` columns made dense at
    a time."""
    n, n_attrs = scale.matrix.shape
    out[:] = 0.0
    groups = np.zeros(n, np.int64)
    for start in range(0, n_attrs, SPARSE_COLUMNS):
        stop = min(start + SPARSE_COLUMNS, n_attrs)
        values = scaled_columns(scale, start, stop)
        block = exact_tables(values.T, np.full(stop - start, -1, np.int32),
                             np.zeros((0, 1, n)), nominal[start:stop],
                             groups, kind, t_eq, t_diff)
        add_distances(block, weights[start:stop], rows, out)


def level_tables(codes, n_levels):
    """What :func:`level_sums` reads of the levels `codes` (n, a) of
    n_levels: each level above 0 one-hot, float32 (levels - 1, n, a)."""
    return np.stack([codes == v for v in range(1, n_levels)]).astype(
        np.float32)


def level_sums(members, groups, n_groups, tables, ref_diffs, squares):
    """The sums of :class:`...tables.LevelTables` (its ``sums``) from
    the counts of each level among the members of each group: products of
    0/1 matrices (whole numbers below 2^24: exact in float32) times the
    diffs, exact."""
    n_levels = len(tables) + 1
    counts = np.zeros((len(members), n_groups, tables.shape[2], n_levels))
    for c in range(n_groups):
        chosen = (members & (groups == c)[None, :]).astype(np.float32)
        for v, one_hot in enumerate(tables, start=1):
            counts[:, c, :, v] = np.rint(chosen @ one_hot)
        counts[:, c, :, 0] = (chosen.sum(axis=1, dtype=np.int64)[:, None]
                              - counts[:, c, :, 1:].sum(axis=-1))
    ref_diffs = ref_diffs[:, :, :n_levels]
    return (np.ascontiguousarray(np.einsum("rcav,rav->arc", counts,
                                           ref_diffs)),
            counts[:, :, 0, :].sum(axis=-1),
            np.ascontiguousarray(np.einsum("rcav,rav->arc", counts,
                                           ref_diffs * ref_diffs))
            if squares else None)

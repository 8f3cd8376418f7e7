"""The attribute values as the user gave them, read a block of columns at
a time, and what the diffs need of each column.

:class:`ColumnStore` holds the data in one of three forms, never widened
nor copied whole: a narrow numpy array (bool, int8 .. int32, uint8 ..
uint32, float16, float32), a scipy sparse matrix (CSR; other formats are
converted once), or a column-block source (:mod:`..columns`).  Every
form gives the same thing: blocks of columns of the instances with a
known target, in the input's dtype (a sparse block made dense, which a
block's width keeps small).  One pass over those blocks (:func:`scan`)
checks the values as :mod:`..prepare` checks them and finds each
column's range, its missing values and whether its values are small
integers (:mod:`.planes`); from then on, :meth:`ColumnStore.scaled_blocks`
gives any block of columns scaled exactly as
:func:`..values.scale_columns` scales the whole float64 data (the same
arithmetic on the same float64 values, so the same bits), and nothing
else of the data's size is ever held.
"""
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..columns import checked_block, is_column_source, missing_code_of
from ..errors import ReliefInputError
from ..values import check_dtype, scale_rows

#: the dtypes kept as they are: every integer or float narrower than
#: float64, and bool (int64, uint64 and float64 take the float64 path of
#: :mod:`..prepare`, which is no wider, unless they are wide: WIDE)
NARROW_KINDS = "biuf"
#: the columns from which an array of any dtype is read as it is, when
#: it has fewer rows: its float64 tables (a scaled copy and the compiled
#: engine's float32 one) would take many times the memory of a block,
#: and its search would be one of distances between few instances
WIDE = 4096
#: columns read at once where nothing else sets the width: a block of
#: n x BLOCK_COLUMNS float64 is a few megabytes at a few thousand
#: instances
BLOCK_COLUMNS = 512
#: the float64 cells a block may hold (n x width): at most 16 MB (a
#: block's copies, as read, scaled and transposed, take a few times it)
BLOCK_CELLS = 2 ** 21


def is_compact(X):
    """Whether `X` is read as it is (a narrow array, a sparse matrix, a
    column-block source, or a wide array: at least :data:`WIDE` columns
    and more columns than rows, whose float64 tables would be several
    times its size) rather than made float64 tables whole."""
    if sp.issparse(X) or is_column_source(X):
        return True
    if not (isinstance(X, np.ndarray) and X.ndim == 2
            and X.dtype.kind in NARROW_KINDS):
        return False
    return X.dtype.itemsize < 8 or X.shape[1] >= max(WIDE, X.shape[0])


def block_width(n):
    """Columns per block of n instances: at most BLOCK_COLUMNS, a
    multiple of 64 (a word of bit planes), and at most BLOCK_CELLS
    float64 cells."""
    fit = max(64, (BLOCK_CELLS // max(n, 1)) // 64 * 64)
    return max(64, min(BLOCK_COLUMNS, fit) // 64 * 64)


@dataclass(frozen=True)
class ColumnStats:
    """What one pass over the columns found, per column.

    low, high : float64 (a,)
        The least and greatest known value (NaN: none known).
    n_missing : int64 (a,)
    integral : bool (a,)
        Whether every known value is an integer.
    """
    low: np.ndarray
    high: np.ndarray
    n_missing: np.ndarray
    integral: np.ndarray

    def take(self, columns):
        return ColumnStats(self.low[columns], self.high[columns],
                           self.n_missing[columns], self.integral[columns])


class ColumnStore:
    """The instances with a known target of `X` (a narrow array, a sparse
    matrix or a column-block source), a block of columns at a time; a
    column-block source itself (:mod:`..columns`).

    Parameters
    ----------
    X : array, sparse matrix or column-block source (n, a)
    rows : int array or None
        The rows read (those with a known target); None: all of them.
    columns : int array or None
        The columns read, in increasing order (TuRF's remaining ones);
        None: all of them.  Blocks number them 0, 1, ... in this order.
    missing_code : int or None
        The value that marks a missing value in an integer array (a
        column-block source names its own).
    """

    def __init__(self, X, rows=None, columns=None, missing_code=None):
        self.X = X
        self.rows = rows
        self.columns = columns
        self.missing_code = (missing_code_of(X) if is_column_source(X)
                             else missing_code)

    @property
    def shape(self):
        n, a = self.X.shape
        return (n if self.rows is None else len(self.rows),
                a if self.columns is None else len(self.columns))

    @property
    def dtype(self):
        return np.dtype(self.X.dtype)

    @property
    def is_sparse(self):
        return sp.issparse(self.X)

    def take(self, columns):
        """The store of the given columns (indices into this one's, in
        increasing order): nothing is read or copied."""
        chosen = (np.asarray(columns) if self.columns is None
                  else self.columns[columns])
        store = ColumnStore(self.X, self.rows, chosen)
        store.missing_code = self.missing_code
        return store

    def blocks(self, size):
        """(start, block) for runs of at most `size` of the store's
        columns, in order: block (n, width) in the input's dtype, the
        rows with a known target only."""
        if is_column_source(self.X):
            yield from self._source_blocks(size)
            return
        a = self.shape[1]
        for start in range(0, a, size):
            stop = min(start + size, a)
            wanted = (slice(start, stop) if self.columns is None
                      else self.columns[start:stop])
            yield start, self._rows_of(self._read(wanted))

    def column_blocks(self, size):
        """The store as a column-block source (:mod:`..columns`): its
        columns of the kept rows, `size` at a time."""
        return self.blocks(size)

    def _read(self, wanted):
        """The columns `wanted` (a slice or indices) of an array or a
        sparse matrix, all rows."""
        block = self.X[:, wanted]
        return block.toarray() if sp.issparse(block) else block

    def _rows_of(self, block):
        return block if self.rows is None else block[self.rows]

    def _source_blocks(self, size):
        """:meth:`blocks` of a column-block source: its blocks of `size`
        columns checked, the store's columns taken from them and regrouped
        into blocks of `size`."""
        pending, first, expected = [], 0, 0
        for start, block in self.X.column_blocks(size):
            block = checked_block(self.X, start, expected, block)
            if block.shape[1] > size:
                raise ReliefInputError(
                    f"The column source gave {block.shape[1]} columns where "
                    f"at most {size} were asked for.")
            expected = start + block.shape[1]
            if self.columns is not None:
                inside = self.columns[(self.columns >= start)
                                      & (self.columns < expected)]
                block = block[:, inside - start]
            if block.shape[1]:
                pending.append(self._rows_of(block))
            while sum(b.shape[1] for b in pending) >= size:
                whole = np.concatenate(pending, axis=1) if len(
                    pending) > 1 else pending[0]
                yield first, whole[:, :size]
                first += size
                pending = [whole[:, size:]] if whole.shape[1] > size else []
        if expected != self.X.shape[1]:
            raise ReliefInputError(
                f"The column source gave {expected} columns of the "
                f"{self.X.shape[1]} its shape declares.")
        if pending:
            yield first, (np.concatenate(pending, axis=1) if len(pending) > 1
                          else pending[0])

    def missing(self, block):
        """Which entries of a block are missing (NaN, or the source's
        missing-value code)."""
        if block.dtype.kind == "f":
            return np.isnan(block)
        if self.missing_code is not None:
            return block == self.missing_code
        return None

    def as_float(self, block):
        """A block as float64, a missing value NaN (a copy)."""
        values = block.astype(np.float64)
        missing = self.missing(block)
        if missing is not None and block.dtype.kind != "f":
            values[missing] = np.nan
        return values


def check_sparse(X):
    """`X` as CSR with sorted indices (converted when it is another
    format, never changed), or ReliefInputError for values Relief
    cannot read: a stored NaN (a sparse matrix's stored entries are
    known values; pass missing values in a dense array as NaN), or an
    infinite value."""
    if X.ndim != 2:
        raise ReliefInputError("X must be 2-D (instances x attributes).")
    check_dtype(X.dtype, "The data")
    X = X.tocsr() if X.format != "csr" else X
    if not X.has_sorted_indices:
        X = X.sorted_indices()
    if X.dtype.kind == "f":
        if np.isnan(X.data).any():
            raise ReliefInputError(
                "The sparse data store NaN; a sparse matrix's entries are "
                "read as known values, so mark missing values in a dense "
                "array (NaN) instead.")
        if np.isinf(X.data).any():
            raise ReliefInputError("The data contains infinite values; "
                                   "replace them or mark them as missing "
                                   "(NaN).")
    return X


def check_narrow(X):
    """`X` (a narrow array or a column-block source) checked for a dtype
    the store reads: real numbers that float64 holds."""
    dtype = np.dtype(X.dtype)
    check_dtype(dtype, "The data")
    if dtype.kind not in NARROW_KINDS:
        raise ReliefInputError(f"The data's dtype {dtype} is not a number "
                               f"Relief reads.")
    if len(X.shape) != 2:
        raise ReliefInputError(f"X must be 2-D (instances x attributes), "
                               f"got an array with {len(X.shape)} "
                               f"dimension(s).")
    if X.shape[1] == 0:
        raise ReliefInputError("The data has no attributes to score.")


def block_stats(store, block, nominal):
    """The :class:`ColumnStats` of one block, with the checks of
    :mod:`..prepare`: no infinite value, nominal codes non-negative
    integers."""
    missing = store.missing(block)
    if block.dtype.kind == "f":
        if np.isinf(block).any():
            raise ReliefInputError("The data contains infinite values; "
                                   "replace them or mark them as missing "
                                   "(NaN).")
        low = np.fmin.reduce(block, axis=0).astype(np.float64)
        high = np.fmax.reduce(block, axis=0).astype(np.float64)
        with np.errstate(invalid="ignore"):
            integral = ~((block != np.floor(block)) & ~missing).any(axis=0)
    else:
        values = block if block.dtype.kind != "b" else block.view(np.uint8)
        if missing is not None and missing.any():
            big, small = np.iinfo(values.dtype).max, np.iinfo(values.dtype).min
            low = np.where(missing, big, values).min(axis=0).astype(float)
            high = np.where(missing, small, values).max(axis=0).astype(float)
            none = missing.all(axis=0)
            low[none] = high[none] = np.nan
        else:
            low = values.min(axis=0).astype(np.float64)
            high = values.max(axis=0).astype(np.float64)
        integral = np.ones(block.shape[1], bool)
    n_missing = (np.zeros(block.shape[1], np.int64) if missing is None
                 else missing.sum(axis=0))
    if nominal.any() and ((low[nominal] < 0).any()
                          or not integral[nominal].all()):
        raise ReliefInputError(
            "Discrete attributes must hold non-negative integer codes "
            "(0, 1, 2, ...).")
    return ColumnStats(low, high, n_missing, integral)


def scan(store, nominal, size):
    """One pass over the store's columns: their :class:`ColumnStats`."""
    parts = [block_stats(store, block, nominal[start:start + block.shape[1]])
             for start, block in store.blocks(size)]
    return ColumnStats(*(np.concatenate([getattr(p, field) for p in parts])
                         for field in ("low", "high", "n_missing",
                                       "integral")))


def scaled_block(store, block, stats, nominal):
    """A block (n, width) in float64, scaled as
    :func:`..values.scale_columns` scales the whole data: numeric
    columns by their range, nominal codes as they are, a missing value
    NaN; C order."""
    return scale_rows(store.as_float(block), stats.low, stats.high, nominal)



def dense_values(X):
    """A sparse matrix or a column-block source `X` as a float64 array,
    a missing value NaN (for what reads every value at once)."""
    if sp.issparse(X):
        return check_sparse(X).toarray().astype(np.float64, copy=False)
    check_narrow(X)
    store = ColumnStore(X)
    out = np.empty(X.shape)
    for start, block in store.blocks(block_width(X.shape[0])):
        out[:, start:start + block.shape[1]] = store.as_float(block)
    return out

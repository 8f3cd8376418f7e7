"""Column-block sources: wide data read a block of attributes at a time.

A *column-block source* is any object with

* ``shape``: (n, a), instances x attributes;
* ``dtype``: the numpy dtype of its values (int8 for genotypes, float32
  for expression), which no reader widens;
* ``column_blocks(size)``: an iterator of ``(start, block)``, `block` a
  numpy array (n, width) of the source's dtype holding the columns
  ``start .. start + width - 1``, width at most `size`, the blocks in
  order and covering every column once; it can be called again for
  another pass;
* optionally ``missing_code``: an integer value that means "missing" (a
  PLINK genotype read as int8 is -127 where it was not called).

A PLINK .bed file (:class:`.plink.BedSource`), a dense .h5ad matrix
(:class:`.h5ad.DenseH5adSource`) and a numpy array of genotypes
(:class:`GenotypeArray`) are sources; so is the generator of GAMETES-like
data (:class:`orangecontrib.relief.core.generators.GametesSource`), which
makes its blocks on demand.  :func:`core_input` is the one place where a
source, or a sparse matrix, meets the core's estimators; :func:`dense_of`
reads one whole where every value is needed at once.
"""
import numpy as np
import scipy.sparse as sp

from ..core.errors import ReliefInputError

#: the columns a pass over a source reads at once (a block of 3,000
#: genotypes x 4,096 SNPs is 12 MB as int8)
BLOCK_COLUMNS = 4096

#: the genotype codes that mean "missing" in some format: bed-reader's
#: int8 code, PLINK's -9, -1 of several libraries, 3 of 2-bit encodings
MISSING_CODES = (-127, -9, -1, 3)

#: the values of a genotype: the number of copies of an allele
GENOTYPES = (0, 1, 2)


def is_column_source(X):
    """Whether `X` is a column-block source (it has ``column_blocks``,
    ``shape`` and ``dtype``)."""
    return all(hasattr(X, name) for name in ("column_blocks", "shape",
                                             "dtype"))


def blocks_of(source, size=BLOCK_COLUMNS):
    """``source.column_blocks(size)``, each block checked against the
    protocol: the next columns in order, n rows, at most `size` wide, the
    source's dtype (ReliefInputError naming what is wrong)."""
    n, n_columns = source.shape
    expected = 0
    for start, block in source.column_blocks(size):
        block = np.asarray(block)
        if (start != expected or block.ndim != 2 or block.shape[0] != n
                or not 0 < block.shape[1] <= size
                or start + block.shape[1] > n_columns):
            raise ReliefInputError(
                f"The source gave a block of shape {block.shape} at column "
                f"{start}; expected {n} rows from column {expected}, at "
                f"most {size} columns of {n_columns}.")
        if block.dtype != source.dtype:
            raise ReliefInputError(
                f"The source declares dtype {source.dtype} but gave a block "
                f"of {block.dtype} at column {start}.")
        yield start, block
        expected = start + block.shape[1]
    if expected != n_columns:
        raise ReliefInputError(f"The source's blocks end at column "
                               f"{expected} of {n_columns}.")


def read_whole(source, progress_callback=None):
    """Every column of `source` in one array of its dtype (n, a), in
    Fortran order (a column's values together, as the blocks come)."""
    n, n_columns = source.shape
    whole = np.empty((n, n_columns), dtype=source.dtype, order="F")
    for start, block in blocks_of(source):
        whole[:, start:start + block.shape[1]] = block
        if progress_callback is not None:
            progress_callback((start + block.shape[1]) / n_columns)
    return whole


def with_missing_as_nan(values, missing_code):
    """`values` as float64 with NaN where they equal `missing_code` (the
    core's mark of a missing value); `values` itself if none is."""
    if missing_code is None:
        return values
    missing = values == missing_code
    if not missing.any():
        return values
    widened = values.astype(np.float64)
    widened[missing] = np.nan
    return widened


def dense_of(X, progress_callback=None):
    """`X` as one array in memory: a column-block source read whole (its
    missing code turned to NaN, the share read reported to
    `progress_callback`), a scipy sparse matrix made dense (its dtype
    kept), anything else as it is.  For what needs every value at once
    (an Orange table); the core reads sources and sparse matrices as
    they are (:func:`core_input`)."""
    if is_column_source(X):
        return with_missing_as_nan(read_whole(X, progress_callback),
                                   getattr(X, "missing_code", None))
    if sp.issparse(X):
        return X.toarray()
    return X


def core_input(X):
    """`X` as the core's estimators take it: a column-block source as it
    is (read a block of columns at a time), a scipy sparse matrix as a
    CSR matrix of its dtype (its stored entries only) unless it stores a
    missing value (NaN), which the core reads only in a dense array of
    its dtype; anything else as it is.

    Every reader of this package and the Orange layer's tables reach the
    core through here, the one place that decides what the core gets.
    """
    if sp.issparse(X):
        if X.data.dtype.kind in "fc" and np.isnan(X.data).any():
            return X.toarray()
        return X.tocsr()
    return X


def check_genotypes(block, start, missing_code=None, names=None):
    """ReliefInputError unless every value of `block` (the columns from
    `start` on) is a genotype 0, 1 or 2, or `missing_code`.

    A value that some format uses for a missing genotype (-127, -9, -1,
    3) gets a message saying how to declare it; any other value one
    saying what a genotype is.  `names` (of every column) name the
    column in the message.
    """
    bad = (block < 0) | (block > 2)
    if missing_code is not None:
        bad &= block != missing_code
    if not bad.any():
        return
    row, column = np.argwhere(bad)[0]
    value = block[row, column].item()
    where = start + column
    label = (f"column {where}" if names is None
             else f"column {where} ({names[where]})")
    if value in MISSING_CODES:
        raise ReliefInputError(
            f"Genotype {value} in {label}, row {row}: a missing-genotype "
            f"code; declare it (missing_code={value}) or mark missing "
            f"genotypes as NaN.")
    raise ReliefInputError(
        f"Genotype {value} in {label}, row {row}: genotypes must be 0, 1 "
        f"or 2 (copies of an allele)"
        + ("." if missing_code is None else f", or {missing_code} for "
                                            f"missing."))


class ArraySource:
    """An array in memory (n, a) as a column-block source: its blocks are
    views, nothing is copied or widened; `missing_code` as the protocol
    says."""

    def __init__(self, values, missing_code=None):
        self.values, self.missing_code = values, missing_code

    @property
    def shape(self):
        return self.values.shape

    @property
    def dtype(self):
        return self.values.dtype

    def column_blocks(self, size):
        """``(start, X[:, start:start + size])`` in order (views)."""
        for start in range(0, self.shape[1], size):
            yield start, self.values[:, start:start + size]


class GenotypeArray(ArraySource):
    """Genotypes in memory (an integer array, n x SNPs, values 0, 1, 2)
    as a column-block source, its values checked once.

    Parameters
    ----------
    X : integer array (n, a)
        Copies of an allele per instance and SNP; kept as given (not
        copied, not widened).
    missing_code : int or None
        The value that marks a missing genotype (e.g. -9), if any.
    names : sequence of str or None
        The SNPs' names (for messages).
    """

    def __init__(self, X, missing_code=None, names=None):
        X = np.asarray(X)
        if X.ndim != 2:
            raise ReliefInputError(f"Genotypes must be a 2-D array "
                                   f"(instances x SNPs), got shape "
                                   f"{X.shape}.")
        if X.dtype.kind not in "iu":
            raise ReliefInputError(
                f"Genotypes must be integers (0, 1, 2), got {X.dtype}; "
                f"pass float data to the estimators directly.")
        super().__init__(X, missing_code)
        for start, block in self.column_blocks(BLOCK_COLUMNS):
            check_genotypes(block, start, missing_code, names)


def columns_of(X, columns):
    """The columns `columns` (ascending indices) of `X`: of a column-block
    source in one pass over its blocks, as an :class:`ArraySource` of its
    dtype (its missing code kept); of a matrix or array by
    indexing.  What a subset of the attributes (TuRF, VLS) costs in
    memory: the subset alone."""
    if not is_column_source(X):
        return X[:, columns]
    columns = np.asarray(columns, dtype=np.int64)
    picked = np.empty((X.shape[0], len(columns)), dtype=X.dtype, order="F")
    for start, block in blocks_of(X):
        low, high = np.searchsorted(columns, [start, start + block.shape[1]])
        picked[:, low:high] = block[:, columns[low:high] - start]
    return ArraySource(picked, getattr(X, "missing_code", None))


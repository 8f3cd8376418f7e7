"""Data read a block of columns at a time: the column-block source.

Data too wide to hold as one array -- a PLINK ``.bed`` of a million SNPs,
an AnnData file opened in backed mode -- reach the estimators as a
*column-block source*: any object with

* ``shape``, the pair (n instances, a attributes);
* ``dtype``, the numpy dtype of its values (int8, uint8, bool, float32,
  ...: the estimators never widen it, :mod:`.compact`);
* ``column_blocks(size)``, a generator of ``(start, block)`` pairs, in
  order of `start`: ``block`` a numpy array (n x width, the source's
  dtype, C or Fortran order) of the columns start .. start + width - 1,
  width at most `size` (the last block may be narrower); every column
  once per call.  The estimators call it more than once (a pass for the
  columns' ranges and checks, one for the distances, one for the
  update rule), so each call starts from the first column again;
* optionally ``missing_code``, an integer value of the dtype that marks
  a missing value (bed-reader's -127 for a missing genotype, say); a
  float source marks missing values with NaN, and None (or no such
  attribute) means that no integer value is missing.

A block is read, never written: the estimators copy what they change.
:class:`ArrayColumns` is the trivial source of an array in memory (for
tests, and to pass an integer array with a missing-value code).
"""
from typing import Iterator, Protocol, Tuple, runtime_checkable

import numpy as np

from .errors import ReliefInputError


@runtime_checkable
class ColumnBlockSource(Protocol):
    """What the estimators read from data given a block of columns at a
    time (see the module docstring)."""

    shape: Tuple[int, int]
    dtype: np.dtype

    def column_blocks(self, size: int) -> Iterator[Tuple[int, np.ndarray]]:
        """(start, block) for every run of at most `size` columns, in
        order: block is (n, width) of the columns start .. start + width
        - 1, in the source's dtype."""


class ArrayColumns:
    """A column-block source over a 2-D numpy array in memory.

    Parameters
    ----------
    X : array (n, a)
        Read as it is, never copied nor changed.
    missing_code : int or None
        An integer value of X's dtype that marks a missing value.
    """

    def __init__(self, X, missing_code=None):
        self.X = X
        self.missing_code = missing_code

    @property
    def shape(self):
        return self.X.shape

    @property
    def dtype(self):
        return self.X.dtype

    def column_blocks(self, size):
        for start in range(0, self.X.shape[1], size):
            yield start, self.X[:, start:start + size]


def is_column_source(X):
    """Whether `X` is a column-block source (and not an array, which
    has a shape and a dtype too)."""
    return (not isinstance(X, np.ndarray)
            and callable(getattr(X, "column_blocks", None))
            and hasattr(X, "shape") and hasattr(X, "dtype"))


def missing_code_of(source):
    """The source's integer missing-value code, or None; ReliefInputError
    if it is neither an integer nor None, or if the source's values are
    not integers and it names one."""
    code = getattr(source, "missing_code", None)
    if code is None:
        return None
    dtype = np.dtype(source.dtype)
    if isinstance(code, (bool, np.bool_)) or not isinstance(
            code, (int, np.integer)):
        raise ReliefInputError(f"missing_code must be an integer or None, "
                               f"got {code!r}.")
    if dtype.kind not in "iu":
        raise ReliefInputError(
            f"missing_code {code} names an integer value, but the data "
            f"are {dtype}; float data mark missing values with NaN.")
    limits = np.iinfo(dtype)
    if not limits.min <= code <= limits.max:
        raise ReliefInputError(f"missing_code {code} is outside the values "
                               f"of {dtype} ({limits.min} .. {limits.max}).")
    return int(code)


def checked_block(source, start, expected_start, block):
    """`block` (the source's block at `start`) as an array, or
    ReliefInputError naming what breaks the protocol: a block out of
    order, of other rows, of another dtype, wider than asked."""
    n = source.shape[0]
    block = np.asarray(block)
    if start != expected_start:
        raise ReliefInputError(
            f"The column source gave a block at column {start} where "
            f"column {expected_start} was next; blocks must come in order.")
    if block.ndim != 2 or block.shape[0] != n:
        raise ReliefInputError(
            f"The column source gave a block of shape {block.shape}; "
            f"expected {n} rows (instances x columns).")
    if block.dtype != np.dtype(source.dtype):
        raise ReliefInputError(
            f"The column source declares dtype {np.dtype(source.dtype)} but "
            f"gave a block of {block.dtype}.")
    return block

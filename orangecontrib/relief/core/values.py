"""The values Relief reads, checked and scaled: the numbers of a column
become the diffs of Prat & Belanche (2006, eq. 2.2, 2.3) once each
numeric column is scaled by its range.

Every path through the core checks and scales here: the float64 arrays
of :mod:`.prepare`, the narrow and sparse columns of :mod:`.compact`, the
streamed rows of :mod:`.variants.streaming`; one arithmetic, so that data scaled
whole, in blocks of columns or in chunks of rows are scaled to the bit.
"""
import numpy as np
import scipy.sparse as sp

from .errors import ReliefInputError

#: the boundary, in bytes, on which the scaled values start: a cache
#: line, so that the whole-vector loads of an instance's values by the
#: update rules (``engines/compiled/rules/unrolled.py``) do not straddle
#: two lines where a row's length allows (every row where a x 8 bytes is
#: a multiple of 64, every other where it is a multiple of 32)
ALIGNMENT = 64


def check_dtype(dtype, what):
    """ReliefInputError if values of `dtype` are not real numbers that
    float64 holds: complex numbers (whose imaginary part a conversion would
    drop), structured records and raw bytes (whose fields it would read as
    one number) are refused; `what` names the values in the message."""
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        raise ReliefInputError(
            f"{what} holds complex numbers; Relief scores real values: "
            f"pass the real part, the modulus or both as columns.")
    if dtype.names is not None or dtype.kind == "V":
        raise ReliefInputError(
            f"{what} has a structured dtype {dtype}; pass a plain 2-D array "
            f"of numbers (e.g. numpy.lib.recfunctions."
            f"structured_to_unstructured).")


def as_real(values, what):
    """`values` as a float64 array (not copied if already one), or
    ReliefInputError naming `what` if they are not real numbers
    (:func:`check_dtype`; an object array of complex numbers too).  A
    sparse matrix's stored values are checked so and it is made dense,
    for what reads every value at once; ragged rows are named as such."""
    if sp.issparse(values):
        check_dtype(values.dtype, what)  # the dtype of its stored values
        return values.toarray().astype(np.float64, copy=False)
    try:
        array = values if hasattr(values, "dtype") else np.asarray(values)
        check_dtype(array.dtype, what)
        return np.asarray(array, dtype=np.float64)
    except ReliefInputError:
        raise
    except (TypeError, ValueError) as err:
        if "sequence" in str(err) or "inhomogeneous" in str(err):
            raise ReliefInputError(f"{what} must be a rectangular array of "
                                   f"numbers; its rows differ in length.") \
                from None
        raise ReliefInputError(f"{what} must be numeric: {err}") from None


def check_finite(X):
    """ReliefInputError if `X` holds an infinite value (NaN is missing)."""
    if np.isinf(X).any():
        raise ReliefInputError("The data contains infinite values; "
                               "replace them or mark them as missing (NaN).")


def check_codes(values, what):
    known = values[~np.isnan(values)]
    if (known < 0).any() or (known != np.round(known)).any():
        raise ReliefInputError(
            f"{what} must hold non-negative integer codes (0, 1, 2, ...).")


def aligned_empty(shape):
    """An uninitialised float64 array of `shape`, C order, whose first
    element starts on an :data:`ALIGNMENT`-byte boundary.  numpy starts a
    large array 16 bytes past a page, where each 64-byte load of a row
    straddles two cache lines: the terms of MultiSURF's pairs at 2000 x
    100 (:func:`.engines.compiled.rules.unrolled.add_pairs` alone) took
    23-25 ms from such values and 18-20 ms from aligned ones (one thread
    of an AMD EPYC, Zen 4, AVX-512)."""
    size = int(np.prod(shape))
    buffer = np.empty(size + ALIGNMENT // 8)
    start = (-buffer.ctypes.data % ALIGNMENT) // 8
    return buffer[start:start + size].reshape(shape)


def scale_columns(X, nominal):
    """Numeric columns scaled to [0, 1] by their range (constant -> 0)."""
    check_codes(X[:, nominal], "Discrete attributes")
    low = np.fmin.reduce(X, axis=0)  # fmin skips NaN; NaN: all missing
    high = np.fmax.reduce(X, axis=0)
    return scale_rows(X, low, high, nominal)


def scale_rows(X, low, high, nominal):
    """Rows `X` scaled as :func:`scale_columns` scales a whole data set
    whose columns' known values lie in [low, high]: the same arithmetic,
    so a data set scaled in pieces (chunks of rows in :mod:`.variants.streaming`,
    blocks of columns in :mod:`.compact`) is scaled to the bit.

    A range beyond the largest float (values near +-1.7e308) is taken in
    halves, (x / 2 - low / 2) / (high / 2 - low / 2), the same ratio
    without overflow."""
    low, span, huge = scale_factors(low, high, nominal)
    with np.errstate(over="ignore", invalid="ignore"):
        # in C order whatever X's, aligned (:func:`aligned_empty`): the
        # compiled kernels are compiled for one layout of the tables (a
        # Fortran-ordered X, or the columns X[:, chosen] of TuRF, would
        # compile them all again)
        scaled = np.subtract(X, low, out=aligned_empty(X.shape))
    scaled /= span  # in place: a second fresh array made this 7x slower
    for a in np.flatnonzero(huge):
        scaled[:, a] = ((X[:, a] / 2 - low[a] / 2)
                        / (high[a] / 2 - low[a] / 2))
    return scaled


def scale_factors(low, high, nominal):
    """(low, span, huge) of :func:`scale_rows`: a numeric column's value
    x is scaled to (x - low) / span; a nominal, constant or all-missing
    column has low 0 and span 1 (its codes kept, its diffs 0); `huge`
    marks the columns whose range is beyond the largest float (taken in
    halves, their span 1 here)."""
    low = np.array(low, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        span = np.asarray(high, dtype=np.float64) - low
    huge = np.isinf(span) & ~nominal
    low[nominal | np.isnan(low)] = 0
    span[nominal | ~(span > 0) | huge] = 1  # constant, all-missing: diff 0
    return low, span, huge

"""Step 1 of every Relief variant: validate and prepare the data.

Rows with a missing target are dropped; numeric columns are scaled by their
range so that a diff is a plain absolute difference (Prat & Belanche 2006,
eq. 2.3); nominal columns keep their value codes; columns with missing values
get Kononenko's RELIEF-D tables.  The result holds the exact tables (float64,
a missing value NaN) that the rules read, and for the compiled engine the
same data again in float32 for the neighbour search, whose speed is set by
SIMD width (a missing value stored as 0, with flags and corrections,
:mod:`.engines.compiled.search_tables`).  The search tables keep the
instances sorted by class (:attr:`PreparedData.search_order`), so that a
run of instances is mostly of one class.

This module imports no compiler: each engine builds its own part of the
tables (:meth:`.engines.interface.Engine.tables`), the compiled one with
the modules imported when it runs.
"""
from dataclasses import dataclass

import numpy as np
from scipy.sparse import issparse

from .engines import COMPILED, kernels
from .errors import ReliefInputError
from .options import DIFF, T_DIFF, T_EQ, check_choice, check_ramp
from .tables import DIFF_KINDS, ExactTables, SearchTables, exact_tables

TASKS = ("classification", "regression")


@dataclass(frozen=True)
class PreparedData:
    """Data ready for a neighbour search and an update rule.

    Attributes
    ----------
    search : SearchTables or None
        The diff tables in float32, for the compiled neighbour search (None
        when prepared for the vectorised engine).
    exact : ExactTables
        The diff tables in float64, for exact distances and the updates.
        ``exact`` holds the instances in their order, ``search`` in
        `search_order`.
    groups : int64 array (n,)
        Class code of each kept row (0 .. n_groups - 1); all 0 in regression.
    n_groups : int
    priors : float64 array (n_groups,)
        Relative class frequencies (classification).
    target : float64 array (n,)
        Target scaled to [0, 1] by its range (regression), else class codes.
    kept_rows : int array
        Indices of the input rows that were kept (known target).
    search_order : int64 array (n,)
        The instance at each position of the search tables: the instances
        sorted by group, in their order within a group (a stable sort, so
        the lower index of two in one group still comes first).
    engine : str
        The engine the data were prepared for (:mod:`.engines`).
    """
    search: SearchTables
    exact: ExactTables
    groups: np.ndarray
    n_groups: int
    priors: np.ndarray
    target: np.ndarray
    kept_rows: np.ndarray
    search_order: np.ndarray
    engine: str = COMPILED

    @property
    def n_instances(self):
        return len(self.groups)

    @property
    def search_position(self):
        """The inverse of `search_order`: each instance's search position."""
        position = np.empty_like(self.search_order)
        position[self.search_order] = np.arange(len(self.search_order))
        return position


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
    (:func:`check_dtype`; an object array of complex numbers too)."""
    if issparse(values):
        raise ReliefInputError(
            f"{what} is a sparse matrix; the core takes a dense array "
            f"(.toarray()); Orange's scorers take sparse tables.")
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


def _as_matrix(X):
    X = as_real(X, "The data")
    if X.ndim != 2:
        raise ReliefInputError(f"X must be 2-D (instances x attributes), "
                               f"got an array with {X.ndim} dimension(s).")
    if X.shape[1] == 0:
        raise ReliefInputError("The data has no attributes to score.")
    check_finite(X)
    return X


def check_finite(X):
    """ReliefInputError if `X` holds an infinite value (NaN is missing)."""
    if np.isinf(X).any():
        raise ReliefInputError("The data contains infinite values; "
                               "replace them or mark them as missing (NaN).")


def _as_target(y, n):
    given = np.asarray(y)
    if sum(size > 1 for size in given.shape) > 1:
        raise ReliefInputError(f"The target must be one value per instance "
                               f"(1-D), got shape {given.shape}.")
    y = np.array(as_real(given, "The target"), dtype=np.float64).ravel()
    if (given.dtype.kind in "iu" and np.any(np.abs(y) >= 2.0 ** 53)
            and len(np.unique(given)) != len(np.unique(y))):
        raise ReliefInputError(
            "The target holds integers beyond 2**53 that are equal as "
            "floating-point numbers; recode them (for classes: 0, 1, 2, ...).")
    if len(y) != n:
        raise ReliefInputError(
            f"X has {n} rows but the target has {len(y)} values.")
    if np.isinf(y).any():
        raise ReliefInputError("The target contains infinite values.")
    return y


def as_nominal_mask(discrete, n_attrs):
    if discrete is None:
        return np.zeros(n_attrs, dtype=bool)
    mask = np.array(discrete, dtype=bool).ravel()
    if len(mask) != n_attrs:
        raise ReliefInputError(f"`discrete` has {len(mask)} entries for "
                               f"{n_attrs} attributes.")
    return mask


def known_target_rows(X, y, discrete):
    """The checked input of every estimator and set measure.

    Returns X (float64, 2-D, no infinite value), y (float64) and the
    nominal mask (bool, one per column) of the rows whose target is known,
    and the indices of those rows.
    """
    X = _as_matrix(X)
    y = _as_target(y, len(X))
    nominal = as_nominal_mask(discrete, X.shape[1])
    kept_rows = np.flatnonzero(~np.isnan(y))
    if len(kept_rows) < len(y):
        X, y = X[kept_rows], y[kept_rows]
    if len(y) == 0:
        raise ReliefInputError("There are no instances with a known target "
                               "to score the attributes on.")
    return X, y, nominal, kept_rows


def _check_codes(values, what):
    known = values[~np.isnan(values)]
    if (known < 0).any() or (known != np.round(known)).any():
        raise ReliefInputError(
            f"{what} must hold non-negative integer codes (0, 1, 2, ...).")


def _scale_columns(X, nominal):
    """Numeric columns scaled to [0, 1] by their range (constant -> 0)."""
    _check_codes(X[:, nominal], "Discrete attributes")
    low = np.fmin.reduce(X, axis=0)  # fmin skips NaN; NaN: all missing
    high = np.fmax.reduce(X, axis=0)
    return scale_rows(X, low, high, nominal)


def scale_rows(X, low, high, nominal):
    """Rows `X` scaled as :func:`_scale_columns` scales a whole data set
    whose columns' known values lie in [low, high]: the same arithmetic,
    so a data set scaled in pieces (:mod:`.streaming`) is scaled to the bit.

    A range beyond the largest float (values near +-1.7e308) is taken in
    halves, (x / 2 - low / 2) / (high / 2 - low / 2), the same ratio
    without overflow."""
    low = np.array(low, dtype=np.float64)
    with np.errstate(over="ignore"):
        span = high - low
    huge = np.isinf(span) & ~nominal
    low[nominal | np.isnan(low)] = 0
    span[nominal | ~(span > 0) | huge] = 1  # constant, all-missing: diff 0
    with np.errstate(over="ignore", invalid="ignore"):
        # in C order whatever X's: the compiled kernels are compiled for
        # one layout of the tables (a Fortran-ordered X, or the columns
        # X[:, chosen] of TuRF, would compile them all again)
        scaled = np.subtract(X, low, order="C")
    scaled /= span  # in place: a second fresh array made this 7x slower
    for a in np.flatnonzero(huge):
        scaled[:, a] = ((X[:, a] / 2 - low[a] / 2)
                        / (high[a] / 2 - low[a] / 2))
    return scaled


def class_groups(y):
    """Class codes 0 .. c - 1 of the class values `y`, c, and the classes'
    priors."""
    _check_codes(y, "Class values")
    # as floats: a code beyond int64 (1e300) is a class as any other
    classes, groups, counts = np.unique(y, return_inverse=True,
                                        return_counts=True)
    if len(classes) < 2:
        raise ReliefInputError(
            "The data has a single class; Relief needs instances of at "
            "least two classes to tell relevant attributes from others.")
    return groups.astype(np.int64), len(classes), counts / len(y)


def scaled_target(y):
    """A numeric target scaled to [0, 1] (a range beyond the largest float
    in halves, as :func:`scale_rows`)."""
    low, high = y.min(), y.max()
    if high == low:
        raise ReliefInputError("The target is constant; RReliefF needs a "
                               "target that varies.")
    with np.errstate(over="ignore"):
        span = high - low
    if np.isinf(span):
        return (y / 2 - low / 2) / (high / 2 - low / 2)
    return (y - low) / span




def prepare(X, y, discrete=None, *, task="classification", diff=DIFF,
            t_eq=T_EQ, t_diff=T_DIFF, engine=COMPILED):
    """Validate `X`, `y` and build the tables the search and the rules read.

    Parameters
    ----------
    X : array (n, a)
        Attribute values, NaN for missing; nominal columns hold codes 0..V-1.
    y : array (n,)
        Class codes (``task="classification"``) or a real target
        (``task="regression"``); rows with NaN are left out.
    discrete : bool array (a,) or None
        Which columns are nominal (None: all numeric).
    task : "classification" or "regression"
    diff, t_eq, t_diff
        Diff transform of numeric attributes (see :mod:`.formulas.diffs`).
    engine : "compiled" or "vectorised"
        The engine that will search the neighbours (:mod:`.engines`); the
        compiled one also gets the float32 search tables.

    Returns
    -------
    PreparedData

    Raises
    ------
    ReliefInputError
        For empty data, a single class, infinite values, bad codes or options.
    """
    diff, t_eq, t_diff = check_ramp(diff, t_eq, t_diff)
    kind = DIFF_KINDS[diff]
    check_choice("task", task, TASKS)
    X, y, nominal, kept_rows = known_target_rows(X, y, discrete)
    if task == "classification":
        groups, n_groups, priors = class_groups(y)
        target = y
    else:
        groups, n_groups, priors = np.zeros(len(y), np.int64), 1, np.ones(1)
        target = scaled_target(y)
    scaled = _scale_columns(X, nominal)
    order = np.argsort(groups, kind="stable")
    slot, relief_d, search = kernels(engine).tables(
        scaled, nominal, groups, n_groups, kind, t_eq, t_diff, order)
    exact_slot = (np.arange(len(slot), dtype=np.int32) if (slot >= 0).any()
                  else slot)
    exact = exact_tables(scaled.T, exact_slot, relief_d, nominal, groups,
                         kind, t_eq, t_diff)
    return PreparedData(search=search, exact=exact, groups=groups,
                        n_groups=n_groups, priors=priors, target=target,
                        kept_rows=kept_rows, search_order=order,
                        engine=engine)

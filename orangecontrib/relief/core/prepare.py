"""Step 1 of every Relief variant: validate and prepare the data.

Rows with a missing target are dropped; numeric columns are scaled by their
range so that a diff is a plain absolute difference (Prat & Belanche 2006,
eq. 2.3); nominal columns keep their value codes; columns with missing values
get Kononenko's RELIEF-D tables (:mod:`.missing`).  The result holds the
same tables twice: in float32 for the neighbour search, whose speed is set by
SIMD width, and in float64 for the weight updates, which stay exact.
"""
from dataclasses import dataclass

import numpy as np

from .diffs import DIFF_KINDS, DiffTables
from .errors import ReliefInputError
from .missing import missing_diff_tables


@dataclass(frozen=True)
class PreparedData:
    """Data ready for a neighbour search and an update rule.

    Attributes
    ----------
    search, exact : DiffTables
        The diff tables in float32 (neighbour search) and float64 (updates).
    groups : int64 array (n,)
        Class code of each kept row (0 .. n_groups - 1); all 0 in regression.
    n_groups : int
    priors : float64 array (n_groups,)
        Relative class frequencies (classification).
    target : float64 array (n,)
        Target scaled to [0, 1] by its range (regression), else class codes.
    kept_rows : int array
        Indices of the input rows that were kept (known target).
    """
    search: DiffTables
    exact: DiffTables
    groups: np.ndarray
    n_groups: int
    priors: np.ndarray
    target: np.ndarray
    kept_rows: np.ndarray

    @property
    def n_instances(self):
        return len(self.groups)


def _as_matrix(X):
    try:
        X = np.asarray(X, dtype=np.float64)  # never written: scaling copies
    except (TypeError, ValueError) as err:
        raise ReliefInputError(
            f"The data must be numeric (a 2-D array of numbers): {err}") from None
    if X.ndim != 2:
        raise ReliefInputError(f"X must be 2-D (instances x attributes), "
                               f"got an array with {X.ndim} dimension(s).")
    if X.shape[1] == 0:
        raise ReliefInputError("The data has no attributes to score.")
    if np.isinf(X).any():
        raise ReliefInputError("The data contains infinite values; "
                               "replace them or mark them as missing (NaN).")
    return X


def _as_target(y, n):
    try:
        y = np.array(y, dtype=np.float64).ravel()
    except (TypeError, ValueError) as err:
        raise ReliefInputError(f"The target must be numeric: {err}") from None
    if len(y) != n:
        raise ReliefInputError(
            f"X has {n} rows but the target has {len(y)} values.")
    if np.isinf(y).any():
        raise ReliefInputError("The target contains infinite values.")
    return y


def _as_nominal_mask(discrete, n_attrs):
    if discrete is None:
        return np.zeros(n_attrs, dtype=bool)
    mask = np.array(discrete, dtype=bool).ravel()
    if len(mask) != n_attrs:
        raise ReliefInputError(f"`discrete` has {len(mask)} entries for "
                               f"{n_attrs} attributes.")
    return mask


def _check_codes(values, what):
    known = values[~np.isnan(values)]
    if (known < 0).any() or (known != np.round(known)).any():
        raise ReliefInputError(
            f"{what} must hold non-negative integer codes (0, 1, 2, ...).")


def _scale_columns(X, nominal):
    """Numeric columns scaled to [0, 1] by their range (constant -> 0)."""
    _check_codes(X[:, nominal], "Discrete attributes")
    low = np.fmin.reduce(X, axis=0)  # fmin skips NaN; NaN: all missing
    span = np.fmax.reduce(X, axis=0) - low
    low[nominal | np.isnan(low)] = 0
    span[nominal | ~(span > 0)] = 1  # constant or all-missing: every diff is 0
    return (X - low) / span


def _class_groups(y):
    _check_codes(y, "Class values")
    classes, groups, counts = np.unique(
        y.astype(np.int64), return_inverse=True, return_counts=True)
    if len(classes) < 2:
        raise ReliefInputError(
            "The data has a single class; Relief needs instances of at "
            "least two classes to tell relevant attributes from others.")
    return groups.astype(np.int64), len(classes), counts / len(y)


def _scaled_target(y):
    low, high = y.min(), y.max()
    if high == low:
        raise ReliefInputError("The target is constant; RReliefF needs a "
                               "target that varies.")
    return (y - low) / (high - low)


def _diff_kind(diff, t_eq, t_diff):
    if diff not in DIFF_KINDS:
        raise ReliefInputError(f"Unknown diff '{diff}'; use one of "
                               f"{', '.join(DIFF_KINDS)}.")
    if not (np.isfinite(t_eq) and np.isfinite(t_diff) and 0 <= t_eq <= t_diff):
        raise ReliefInputError(
            f"The ramp needs 0 <= t_eq <= t_diff, got t_eq={t_eq}, "
            f"t_diff={t_diff}.")
    return DIFF_KINDS[diff]


def _every_attribute_slotted(slot, one):
    """Give every attribute a slot (complete ones get a table of zeros),
    so that the rules and the exact re-ranking run over the attributes
    without looking slots up (diffs.slotted_linear_diff)."""
    every = np.arange(len(slot), dtype=np.int32)
    if (slot == every).all():
        return slot, one
    dense = np.zeros((len(slot),) + one.shape[1:])
    dense[slot >= 0] = one[slot[slot >= 0]]
    return every, dense


def _tables(scaled, missing, nominal, groups, slot, one, kind, t_eq, t_diff,
            dtype, order):
    """The diff tables in `dtype`, indexed [attribute, instance] (see
    DiffTables), stored in `order`: "C" keeps an attribute's values together
    (the search runs along instances), "F" an instance's (the rules run
    along attributes; only the search reads `missing_in`)."""
    known = ~missing[:, slot >= 0].T
    n_groups = max(one.shape[1], 2) if order == "C" else 0  # groups 0 and 1
    missing_in = (~known[:, None, :]
                  & (groups == np.arange(n_groups)[:, None])[None, :, :])
    return DiffTables(
        values=np.asarray(scaled.T, dtype, order=order),
        known=np.asarray(known, dtype, order=order),
        slot=slot,
        one=np.asarray(one, dtype, order=order),
        missing_in=np.asarray(missing_in, dtype),
        nominal=nominal,
        groups=groups,
        kind=kind,
        t_eq=dtype(t_eq),
        t_diff=dtype(t_diff),
    )


def prepare(X, y, discrete=None, *, task="classification", diff="linear",
            t_eq=0.04, t_diff=0.10):
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
        Diff transform of numeric attributes (see :mod:`.diffs`).

    Returns
    -------
    PreparedData

    Raises
    ------
    ReliefInputError
        For empty data, a single class, infinite values, bad codes or options.
    """
    kind = _diff_kind(diff, t_eq, t_diff)
    X = _as_matrix(X)
    y = _as_target(y, len(X))
    nominal = _as_nominal_mask(discrete, X.shape[1])
    kept_rows = np.flatnonzero(~np.isnan(y))
    if len(kept_rows) < len(y):
        X, y = X[kept_rows], y[kept_rows]
    if len(y) == 0:
        raise ReliefInputError("There are no instances with a known target "
                               "to score the attributes on.")
    if task == "classification":
        groups, n_groups, priors = _class_groups(y)
        target = y
    else:
        groups, n_groups, priors = np.zeros(len(y), np.int64), 1, np.ones(1)
        target = _scaled_target(y)
    scaled = _scale_columns(X, nominal)
    slot, one = missing_diff_tables(scaled, nominal, groups, n_groups,
                                    kind, t_eq, t_diff)
    missing = np.isnan(scaled)
    if len(one):  # the tables store a missing value as 0
        scaled[missing] = 0
    search = _tables(scaled, missing, nominal, groups, slot, one, kind, t_eq,
                     t_diff, np.float32, "C")
    if len(one):
        slot, one = _every_attribute_slotted(slot, one)
    exact = _tables(scaled, missing, nominal, groups, slot, one, kind, t_eq,
                    t_diff, np.float64, "F")
    return PreparedData(search=search, exact=exact, groups=groups,
                        n_groups=n_groups, priors=priors, target=target,
                        kept_rows=kept_rows)

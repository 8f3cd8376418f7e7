"""Step 1 of every Relief variant: validate and prepare the data.

Rows with a missing target are dropped; numeric columns are scaled by their
range so that a diff is a plain absolute difference (Prat & Belanche 2006,
eq. 2.3); nominal columns keep their value codes; columns with missing values
get Kononenko's RELIEF-D tables (:mod:`.missing`).  The result holds the
same tables twice: in float32 for the neighbour search, whose speed is set by
SIMD width (a missing value stored as 0, with flags and corrections), and in
float64 for the weight updates, which stay exact (a missing value is NaN).  The
search tables keep the instances sorted by class (:attr:`PreparedData.
search_order`), so that a run of instances is mostly of one class.
"""
from dataclasses import dataclass

import numba
import numpy as np
from numba import prange

from .diffs import DIFF_KINDS, DiffTables, as_dtype_of, known_diff
from .errors import ReliefInputError
from .missing import missing_diff_tables


@dataclass(frozen=True)
class PreparedData:
    """Data ready for a neighbour search and an update rule.

    Attributes
    ----------
    search, exact : DiffTables
        The diff tables in float32 (neighbour search) and float64 (updates).
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
    """
    search: DiffTables
    exact: DiffTables
    groups: np.ndarray
    n_groups: int
    priors: np.ndarray
    target: np.ndarray
    kept_rows: np.ndarray
    search_order: np.ndarray

    @property
    def n_instances(self):
        return len(self.groups)

    @property
    def search_position(self):
        """The inverse of `search_order`: each instance's search position."""
        position = np.empty_like(self.search_order)
        position[self.search_order] = np.arange(len(self.search_order))
        return position


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
    scaled = X - low
    scaled /= span  # in place: a second fresh array made this 7x slower
    return scaled


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


LAYOUT_BLOCK = 64  # instances a thread lays out at a time


@numba.njit(parallel=True, cache=True)
def _lay_out(scaled, order, slot, one, values, known, one32):
    """The search tables in one parallel pass over the scaled data:
    instance order[p] at position p, values[a, p] (a missing value
    stored as 0), known[slot[a], p], one32[slot[a], g, p].
    """
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
                    for g in range(one.shape[1]):
                        one32[s, g, p] = one[a, g, i]


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
    gap_start[1:] = np.cumsum(count)
    gaps = np.empty(gap_start[n], np.int64)
    filled = gap_start[:n].copy()
    for s in range(n_slots):
        for p in range(n):
            if known[s, p] == 0:
                gaps[filled[p]] = slotted[s]
                filled[p] += 1
    return gaps, gap_start


@numba.njit(parallel=True, cache=True)
def _fill_in(search, fill, one):
    """The search tables' RELIEF-D corrections of a diff against a missing
    value stored as 0 (neighbours.add_missing_rows and
    add_missing_columns), with z_p = diff(x_p, 0) (diff is symmetric):

        fill[s, g, p] = known[s, p] (one[s, g, p] - z_p)
        one[s, g, p] -= known[s, p] z_p

    so that z_p + fill[s, g, p] is the RELIEF-D diff of position p against
    a value missing in group g, 0 where x_p is missing too, and
    diff(0, x_p) + one[s, g, p] that of a value missing in group g against
    position p, both-missing pairs included.  `fill` and `one` are the
    search tables' arrays, passed on their own: a parallel loop does not
    write through a tuple's arrays.
    """
    n_groups, n = one.shape[1], one.shape[2]
    for a in prange(len(search.slot)):
        s = search.slot[a]
        if s < 0:
            continue
        for p in range(n):
            x = search.values[a, p]
            to_zero = search.known[s, p] * known_diff(
                search, a, x, as_dtype_of(x, False))
            for g in range(n_groups):
                fill[s, g, p] = search.known[s, p] * one[s, g, p] - to_zero
                one[s, g, p] -= to_zero


def _tables(scaled, nominal, groups, slot, one, kind, t_eq, t_diff, order):
    """The search tables (float32, instances in `order`, an attribute's
    values together: the search runs along instances) and the exact
    tables (float64, instances in their order, an instance's attributes
    together: the rules run along attributes).  The search tables come
    from one pass of _lay_out; the exact tables are the scaled data as it
    is (a missing value NaN) and `one`, with a slot for every attribute
    when a value is missing.
    """
    n, n_attrs = scaled.shape
    n_slots, n_groups = slot.max() + 1, one.shape[1]
    values = np.empty((n_attrs, n), np.float32)
    known = np.empty((n_slots, n), np.float32)
    one32 = np.empty((n_slots, n_groups, n), np.float32)
    _lay_out(scaled, order, slot, one, values, known, one32)
    gaps, gap_start = _gap_lists(known, np.flatnonzero(slot >= 0))
    search = DiffTables(values=values, known=known, slot=slot, one=one32,
                        fill=np.empty(one32.shape, np.float32),
                        gaps=gaps, gap_start=gap_start,
                        nominal=nominal, groups=groups[order], kind=kind,
                        t_eq=np.float32(t_eq), t_diff=np.float32(t_diff))
    if n_slots:
        _fill_in(search, search.fill, search.one)
    exact_slot = np.arange(n_attrs, dtype=np.int32) if n_slots else slot
    exact = DiffTables(values=scaled.T, known=np.empty((0, 0)),
                       slot=exact_slot,
                       one=one, fill=np.empty((0, 0, 0)),
                       gaps=np.empty(0, np.int64),
                       gap_start=np.zeros(1, np.int64),
                       nominal=nominal, groups=groups, kind=kind,
                       t_eq=np.float64(t_eq), t_diff=np.float64(t_diff))
    return search, exact


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
    order = np.argsort(groups, kind="stable")
    search, exact = _tables(scaled, nominal, groups, slot, one, kind, t_eq,
                            t_diff, order)
    return PreparedData(search=search, exact=exact, groups=groups,
                        n_groups=n_groups, priors=priors, target=target,
                        kept_rows=kept_rows, search_order=order)

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
import scipy.sparse as sp

from .engines import COMPILED, kernels
from .errors import ReliefInputError
from .options import DIFF, T_DIFF, T_EQ, check_choice
from .tables import DIFF_KINDS, ExactTables, SearchTables, exact_tables
from .compact.data import read
from .columns import is_column_source
from .compact.store import dense_values, is_compact
from .targets import TASKS, as_nominal_mask, as_target, target_groups
from .validation import validated
from .values import as_real, check_finite, scale_columns


@dataclass(frozen=True)
class PreparedData:
    """Data ready for a neighbour search and an update rule.

    Attributes
    ----------
    search : SearchTables or None
        The diff tables in float32, for the compiled neighbour search (None
        when prepared for the vectorised engine, or for no search).
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


def _as_matrix(X):
    if sp.issparse(X) or is_column_source(X):
        X = dense_values(X)
    X = as_real(X, "The data")
    if X.ndim != 2:
        raise ReliefInputError(f"X must be 2-D (instances x attributes), "
                               f"got an array with {X.ndim} dimension(s).")
    if X.shape[1] == 0:
        raise ReliefInputError("The data has no attributes to score.")
    check_finite(X)
    return X


def known_target_rows(X, y, discrete):
    """The checked input of every estimator and set measure.

    Returns X (float64, 2-D, no infinite value), y (float64) and the
    nominal mask (bool, one per column) of the rows whose target is known,
    and the indices of those rows.
    """
    X = _as_matrix(X)
    y = as_target(y, len(X))
    nominal = as_nominal_mask(discrete, X.shape[1])
    kept_rows = np.flatnonzero(~np.isnan(y))
    if len(kept_rows) < len(y):
        X, y = X[kept_rows], y[kept_rows]
    if len(y) == 0:
        raise ReliefInputError("There are no instances with a known target "
                               "to score the attributes on.")
    return X, y, nominal, kept_rows


@validated
def prepare(X, y, discrete=None, *, task="classification", diff=DIFF,
            t_eq=T_EQ, t_diff=T_DIFF, engine=COMPILED, search=True):
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
    search : bool
        Whether the k nearest neighbours are searched: False leaves the
        compiled engine's search tables out (the SURF family's rules read
        the exact tables alone), and their kernels uncompiled.

    Returns
    -------
    PreparedData

    Raises
    ------
    ReliefInputError
        For empty data, a single class, infinite values, bad codes or options.
    """
    kind = DIFF_KINDS[diff]
    check_choice("task", task, TASKS)
    if is_compact(X):
        return whole(read(X, y, discrete, task=task, kind=kind, t_eq=t_eq,
                          t_diff=t_diff, engine=engine), search)
    X, y, nominal, kept_rows = known_target_rows(X, y, discrete)
    groups, n_groups, priors, target = target_groups(y, task)
    return assembled(scale_columns(X, nominal), nominal, groups, n_groups,
                     priors, target, kept_rows, kind, t_eq, t_diff, engine,
                     search)


def whole(data, search=True):
    """The :class:`PreparedData` of :class:`.compact.data.CompactData`:
    every column scaled to float64 at once, for the variants that read
    every attribute of a pair together (the same tables as the data
    given in float64; `search` as :func:`prepare` takes it)."""
    return assembled(data.scaled_columns(), data.nominal, data.groups,
                     data.n_groups, data.priors, data.target, data.kept_rows,
                     data.kind, data.t_eq, data.t_diff, data.engine, search)


def assembled(scaled, nominal, groups, n_groups, priors, target, kept_rows,
              kind, t_eq, t_diff, engine, search=True):
    """The :class:`PreparedData` of the scaled data (float64 (n, a), C
    order) and the target's groups: the engine's tables built (without
    `search`, the RELIEF-D tables alone: :func:`prepare`)."""
    order = np.argsort(groups, kind="stable")
    if search:
        slot, relief_d, search = kernels(engine).tables(
            scaled, nominal, groups, n_groups, kind, t_eq, t_diff, order)
    else:
        (slot, relief_d), search = kernels(engine).missing_diff_tables(
            scaled, nominal, groups, n_groups, kind, t_eq, t_diff), None
    exact_slot = (np.arange(len(slot), dtype=np.int32) if (slot >= 0).any()
                  else slot)
    exact = exact_tables(scaled.T, exact_slot, relief_d, nominal, groups,
                         kind, t_eq, t_diff)
    return PreparedData(search=search, exact=exact, groups=groups,
                        n_groups=n_groups, priors=priors, target=target,
                        kept_rows=kept_rows, search_order=order,
                        engine=engine)

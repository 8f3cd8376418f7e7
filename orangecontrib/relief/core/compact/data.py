"""Step 1 for data read as they are: :class:`CompactData`, the columns
never widened, with the target's groups, and the exact tables of any
block of columns on demand.

:func:`read` checks the data and the target as :func:`..prepare.prepare`
does (the same messages), in one pass over blocks of columns
(:func:`.store.scan`): no per-column loop of Python, no temporary larger
than a block.  :meth:`CompactData.exact_blocks` then gives, block by
block, the float64 exact tables (:class:`..tables.ExactTables`) of those
columns: the same floats as the columns of the tables that
:func:`..prepare.prepare` builds of the whole data, RELIEF-D tables
included (a column's tables depend on that column alone).  An update
rule adds each attribute's terms on its own, so a rule applied block by
block gives each attribute the weight it gets from the whole tables, to
the bit (:mod:`.rules`).
"""
from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse as sp

from .. import engines
from ..columns import is_column_source
from ..errors import ReliefInputError
from ..tables import NarrowTables, exact_tables
from ..targets import as_nominal_mask, as_target, target_groups
from ..values import aligned_empty, as_real, scale_factors
from . import planes
from .planes import fits_planes
from .store import (NARROW_KINDS, ColumnStore, block_width, check_narrow,
                    check_sparse, scaled_block, scan)


@dataclass(frozen=True)
class CompactData:
    """Data ready for the search and the rules, in the user's dtype.

    Attributes
    ----------
    store : ColumnStore
        The instances with a known target, a block of columns at a time.
    stats : ColumnStats
        Each column's range, missing values and integrality.
    nominal : bool array (a,)
    groups, n_groups, priors, target, kept_rows
        As in :class:`..prepare.PreparedData`.
    kind, t_eq, t_diff
        The diff of numeric attributes (:mod:`..tables`).
    engine : str
        The engine whose kernels compute the distances and the rules.
    """
    store: ColumnStore
    stats: object
    nominal: np.ndarray
    groups: np.ndarray
    n_groups: int
    priors: np.ndarray
    target: np.ndarray
    kept_rows: np.ndarray
    kind: int
    t_eq: float
    t_diff: float
    engine: str

    @property
    def n_instances(self):
        return len(self.groups)

    @property
    def n_attributes(self):
        return len(self.nominal)

    @property
    def any_missing(self):
        return bool(self.stats.n_missing.any())

    def take(self, columns):
        """The data of the given columns only (indices, increasing): the
        same instances, groups and per-column scaling, nothing read."""
        columns = np.asarray(columns, dtype=np.int64)
        return replace(self, store=self.store.take(columns),
                       stats=self.stats.take(columns),
                       nominal=self.nominal[columns])

    def block(self, start, block):
        """The data of one block of columns read at `start` (`block`, in
        the input's dtype): a store of that block alone, in memory, to
        compute with here or to send to a cluster's worker."""
        columns = slice(start, start + block.shape[1])
        store = ColumnStore(np.ascontiguousarray(block),
                            missing_code=self.store.missing_code)
        return replace(self, store=store,
                       stats=self.stats.take(columns),
                       nominal=self.nominal[columns])

    def without_values(self):
        """The data without their columns (the groups, the scaling and
        the diff kind): what a cluster's task of the whole data needs
        beside values sent on their own."""
        return replace(self, store=None)

    def width(self):
        """Columns per block of the exact tables."""
        return block_width(self.n_instances)

    def raw_blocks(self, size=None):
        """(start, block) of the columns as given (see
        :meth:`.store.ColumnStore.blocks`)."""
        return self.store.blocks(self.width() if size is None else size)

    def scaled(self, start, block):
        """The float64 scaled values (n, width) of a block at `start`."""
        columns = slice(start, start + block.shape[1])
        return scaled_block(self.store, block, self.stats.take(columns),
                            self.nominal[columns])

    def exact_block(self, start, block):
        """The exact tables of a block of columns at `start`, as the
        whole data's tables hold those columns."""
        scaled = self.scaled(start, block)
        nominal = self.nominal[start:start + block.shape[1]]
        slot, relief_d = engines.kernels(self.engine).missing_diff_tables(
            scaled, nominal, self.groups, self.n_groups, self.kind,
            self.t_eq, self.t_diff)
        exact_slot = (np.arange(len(slot), dtype=np.int32)
                      if (slot >= 0).any() else slot)
        return exact_tables(scaled.T, exact_slot, relief_d, nominal,
                            self.groups, self.kind, self.t_eq, self.t_diff)

    def exact_blocks(self, size=None):
        """(start, exact tables) of every block of columns, in order."""
        for start, block in self.raw_blocks(size):
            yield start, self.exact_block(start, block)

    def reads_narrow(self):
        """Whether the rules of ReliefF and RReliefF read the columns as
        they are given (:class:`..tables.NarrowTables`): the compiled
        engine's, on data that fit bit planes."""
        return (self.engine == engines.COMPILED
                and fits_planes(self.stats, self.nominal, self.kind, None))

    def narrow_block(self, start, block):
        """The :class:`..tables.NarrowTables` of a block of columns at
        `start` (that fit bit planes)."""
        columns = slice(start, start + block.shape[1])
        low, span, _ = scale_factors(self.stats.low[columns],
                                     self.stats.high[columns],
                                     self.nominal[columns])
        values = planes.as_signed(np.ascontiguousarray(block),
                                  self.stats.high[columns])
        return NarrowTables(values.T, 1.0 / span, self.nominal[columns],
                            self.groups)

    def rule_blocks(self, narrow=False):
        """(start, tables) of every block of columns for a rule: the
        exact tables, or with `narrow` the narrow ones where the data
        allow (:meth:`reads_narrow`), in blocks of the bit planes' width."""
        if narrow and self.reads_narrow():
            for start, block in self.raw_blocks(planes.PLANE_COLUMNS):
                yield start, self.narrow_block(start, block)
        else:
            yield from self.exact_blocks()

    def scaled_columns(self):
        """Every column scaled, float64 (n, a) in C order: the array that
        :func:`..values.scale_columns` makes of the float64 data, aligned
        as it aligns them (:func:`..values.aligned_empty`)."""
        out = aligned_empty((self.n_instances, self.n_attributes))
        for start, block in self.raw_blocks():
            out[:, start:start + block.shape[1]] = self.scaled(start, block)
        return out


def read(X, y, discrete=None, *, task, kind, t_eq, t_diff, engine):
    """:class:`CompactData` of a narrow array, a sparse matrix or a
    column-block source `X` and the target `y`, checked as
    :func:`..prepare.prepare` checks data (any other array is read as
    float64, and kept as it is if it is one)."""
    if sp.issparse(X):
        X = check_sparse(X)
        if X.shape[1] == 0:
            raise ReliefInputError("The data has no attributes to score.")
    else:
        if not is_column_source(X) and not (isinstance(X, np.ndarray)
                                            and X.dtype.kind in NARROW_KINDS):
            X = as_real(X, "The data")
        check_narrow(X)
    n, n_attrs = X.shape
    y = as_target(y, n)
    nominal = as_nominal_mask(discrete, n_attrs)
    kept_rows = np.flatnonzero(~np.isnan(y))
    if len(kept_rows) == 0:
        raise ReliefInputError("There are no instances with a known target "
                               "to score the attributes on.")
    groups, n_groups, priors, target = target_groups(y[kept_rows], task)
    store = ColumnStore(X, None if len(kept_rows) == n else kept_rows)
    stats = scan(store, nominal, block_width(len(kept_rows)))
    return CompactData(store, stats, nominal, groups, n_groups, priors,
                       target, kept_rows, kind, t_eq, t_diff, engine)

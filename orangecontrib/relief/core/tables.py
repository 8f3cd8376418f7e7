"""The tables every engine reads: the data as diffs see them.

Attributes are in rows (``values[a, j]``) so that a loop over instances is
contiguous.  :class:`SearchTables` (float32, for the compiled neighbour
search) and :class:`ExactTables` (float64, for exact distances and the
update rules); :func:`.prepare.prepare` builds them.  This module imports
no compiler, so that the vectorised engine works without one.
"""
from collections import namedtuple

import numpy as np

LINEAR, SQUARED, RAMP = 0, 1, 2
DIFF_KINDS = {"linear": LINEAR, "squared": SQUARED, "ramp": RAMP}

SearchTables = namedtuple("SearchTables", [
    "values",     # (a, n) float32 scaled numeric values / nominal codes,
                  # instances in search order, a missing value stored as 0
    "known",      # (n_slots, n) 1 where the value of a slotted attribute is
                  # known; (0, n) when no value is missing
    "slot",       # (a,) int32 row of an attribute in `known` and the
                  # corrections, -1 for an attribute without missing values
    "row_correction",     # (n_slots, n_groups, n): added to the diff of a
                  # row whose value is missing in group g against position
                  # p, it gives the RELIEF-D diff (prepare._corrections)
    "column_correction",  # (n_slots, n_groups, n): added to the diff of
                  # position p against a column whose value is missing in
                  # group g, it gives the RELIEF-D diff (0 where p misses
                  # the value too: the row correction covers that pair)
    "gaps",       # the attributes position p misses are
    "gap_start",  # gaps[gap_start[p]:gap_start[p + 1]]
    "nominal",    # (a,) bool
    "groups",     # (n,) int64 class (group) of each position
    "kind",       # int: LINEAR, SQUARED or RAMP
    "t_eq",       # ramp thresholds, float32
    "t_diff",
])

ExactTables = namedtuple("ExactTables", [
    "values",     # (a, n) float64 scaled numeric values / nominal codes,
                  # instances in their order, NaN for a missing value
    "slot",       # (a,) int32: a when any value of the data is missing
                  # (every attribute has a row in `relief_d`), else -1
    "relief_d",   # (a or 0, n_groups, n) RELIEF-D diff between a value
                  # missing in group g and instance j (missing.py)
    "nominal",    # (a,) bool
    "any_nominal",  # bool: nominal.any(), so that a loop over the
                  # attributes of numeric data has no select to vectorise
    "groups",     # (n,) int64 class (group) of each instance
    "kind",       # int: LINEAR, SQUARED or RAMP
    "t_eq",       # ramp thresholds, float64
    "t_diff",
])


def exact_tables(values, slot, relief_d, nominal, groups, kind, t_eq,
                 t_diff):
    """ExactTables of these fields, with `any_nominal` derived from
    `nominal` and the ramp thresholds as float64."""
    return ExactTables(values=values, slot=slot, relief_d=relief_d,
                       nominal=nominal, any_nominal=bool(nominal.any()),
                       groups=groups, kind=kind, t_eq=np.float64(t_eq),
                       t_diff=np.float64(t_diff))


LevelTables = namedtuple("LevelTables", [
    "codes",      # (n, a) uint8: each instance's level of each attribute
                  # (a numeric value less the column's least, a nominal
                  # code), instances in their order
    "diffs",      # (a, L, L) float64: the diff of levels u and v
    "sums",       # sums(members, groups, n_groups, ref_diffs, squares)
                  # -> (sums (a, refs, groups), counts (refs, groups),
                  # squares or None): each row's sum of diffs (and of
                  # squared diffs) over its members (refs x n bool, the
                  # instances in the order the sums were prepared for) of
                  # each group, ref_diffs (refs, a, L) the diff of the
                  # row's reference's level to each level
])


NarrowTables = namedtuple("NarrowTables", [
    "values",     # (a, n) a block of small integers as given (int8, uint8,
                  # bool, ...; an instance's values together), columns
                  # that fit bit planes (:mod:`.compact.planes`)
    "unit",       # (a,) float64: 1 / range of a numeric column (1 or 1/2,
                  # 1 for a constant one), so |x_i - x_j| * unit is the
                  # float64 path's diff to the bit
    "nominal",    # (a,) bool
    "groups",     # (n,) int64 class (group) of each instance
])

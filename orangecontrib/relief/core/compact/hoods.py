"""The SURF family on compact data: neighbourhoods from exact distances,
the rule a block of columns at a time.

A reference's neighbourhood depends on its distances to every instance
(MultiSURF's mean and spread; SURF's mean of all pairs), so the
distances are found first (:mod:`.distances`, exact: the float64 path's),
for every instance a reference at once.  Each engine's rule then runs on
each block of columns (:mod:`.rules`) with those distances given
(:class:`..formulas.neighbourhoods.GivenDistances`): its thresholds,
neighbourhoods and coefficients are those it finds on the float64 data,
and it adds each attribute's terms in the order it adds them there, so
every attribute's sums are the engine's on the float64 data, to the bit.

On data that fit bit planes (genotypes, presence, small nominal codes),
the classification rule counts instead: a reference's sum of diffs over
the members of a class of its neighbourhood is sum_v count(v) diff(u, v)
over the few levels v of the attribute, the counts by popcount of the
neighbourhood's bits and the level's bits (or by products of 0/1
matrices in numpy), n / 64 words per count where the rule would visit
every member.  Those sums are exact, so both engines give the numpy
engine's weights to the bit (:func:`counted_rule`).
Memory: the distances (references x instances float64) and a block.
"""
from functools import partial

import numpy as np

from .. import engines
from ..engines.vectorised.surf import classification_sums, row_totals
from ..formulas.neighbourhoods import (DEAD_BAND, GivenDistances,
                                       global_statistics, sigmoid_scale)
from ..prepare import PreparedData
from ..progress import report
from ..tables import LevelTables
from .distances import distances
from . import planes
from .planes import block_levels, fits_planes
from .rules import by_columns, progress_shares


def statistics_of_pairs(dist, diagonal):
    """SURF's T and SWRF's sigmoid scale from every instance's distances
    to all (rows in instance order): each row's sums of D and D^2 but its
    own entry, added in instance order, then numpy's sums over the rows,
    as both engines sum them (`diagonal`:
    :func:`..formulas.neighbourhoods.global_statistics`)."""
    n = len(dist)
    own = dist.copy()
    own[np.arange(n), np.arange(n)] = np.nan
    mean, sigma = global_statistics(row_totals(own).sum(),
                                    row_totals(own * own).sum(), n, diagonal)
    return mean, sigmoid_scale(sigma)


def given_distances(data, refs, local, weighting, progress_callback,
                    distance_weights=None):
    """The distances the rules read: of the references (MultiSURF), or of
    every instance with their pairs' mean (SURF, whose threshold is that
    mean) and SWRF's scale (`weighting` as the engines' radius_rule
    takes it); the attributes weighted by `distance_weights` (None: 1)."""
    n = data.n_instances
    rows = np.unique(refs) if local else np.arange(n)
    dist = distances(data, rows, distance_weights, progress_callback)
    row_of = np.full(n, -1, np.int64)
    row_of[rows] = np.arange(len(rows))
    return GivenDistances(dist, row_of, *(
        (0.0, 1.0) if local else statistics_of_pairs(dist, bool(weighting))))


def block_data(data, exact):
    """Prepared data of one block of columns: its exact tables, the
    instances' groups (what the rules read)."""
    return PreparedData(search=None, exact=exact, groups=data.groups,
                        n_groups=data.n_groups, priors=data.priors,
                        target=data.target, kept_rows=data.kept_rows,
                        search_order=np.argsort(data.groups, kind="stable"),
                        engine=data.engine)


def radius_rule(data, refs, labels, task, local, far, ddof, stir,
                progress_callback=None, band=DEAD_BAND, weighting=None,
                distance_weights=None, hit_bound=None):
    """The engine's ``radius_rule`` (:class:`..engines.interface.Engine`)
    of compact data: its sums joined over the blocks of columns, its
    constants (which do not depend on the columns) from the first; the
    classes' sums of bit-plane data counted (:func:`counted_rule`) where
    the members are not weighted (the SWRF family's weights are no
    counts); the distance's attributes weighted by `distance_weights`
    (None: 1); `hit_bound` as the engines take it."""
    kernels = engines.kernels(data.engine)
    search, rule = progress_shares(data, progress_callback)
    given = given_distances(data, refs, local, weighting, search,
                            distance_weights)
    if (task == "classification" and weighting is None
            and fits_planes(data.stats, data.nominal, data.kind, None)):
        return counted_rule(data, refs, labels, local, far, ddof, stir,
                            given, rule)
    return by_columns(data, lambda exact: kernels.radius_rule(
        block_data(data, exact), refs, labels, task, local, far, ddof, stir,
        None, given, band, weighting, hit_bound), attributes=(True, False),
        progress_callback=rule)


def counted_rule(data, refs, labels, local, far, ddof, stir, given,
                 progress_callback):
    """The classification rule of the SURF family on data that fit bit
    planes, a block of columns at a time: each reference's sums of diffs
    over the members of each class of its near and far sets counted from
    the columns' levels (:func:`..engines.vectorised.surf.
    counted_set_sums`; the engine counts, by popcount or by products of
    0/1 matrices), then the numpy engine's rule.  The counted sums are
    exact, so the weights are the numpy engine's on the float64 data, to
    the bit, on either engine (the compiled engine's own rule adds the
    same terms in another order: its weights agree to rounding)."""
    kernels = engines.kernels(data.engine)
    order = np.argsort(labels[0].astype(np.int64), kind="stable")
    parts = []
    for start, block in data.raw_blocks(planes.PLANE_COLUMNS):
        columns = slice(start, start + block.shape[1])
        codes, diffs = block_levels(block, data.stats.low[columns],
                                    data.stats.high[columns],
                                    data.nominal[columns])
        tables = kernels.level_tables(codes[order], int(codes.max()) + 1)
        levels = LevelTables(codes, diffs, partial(kernels.level_sums,
                                                   tables=tables))
        parts.append(classification_sums(None, refs, labels, data.priors,
                                         local, far, ddof, stir, None, given,
                                         levels))
        report(progress_callback, columns.stop / data.n_attributes)
    return (np.concatenate([sums for sums, _ in parts], axis=-1),
            parts[0][1])

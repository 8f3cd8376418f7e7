"""The SURF family's neighbourhoods and rules in numpy
(:mod:`...formulas.neighbourhoods`).

A block of references at a time, on the engine's threads: their
distances to every instance (:class:`.diffs.Rows`, in tiles that stay in
the cache), each reference's own distances summed in instance order into
its thresholds, as the compiled engine sums them, so that both engines
find the same neighbourhoods.  A neighbour's coefficient in a rule
depends only on the reference and the neighbour's class
(:func:`class_coefficients`), so each attribute's diffs are summed per
reference and class over the near and the far set -- the instances
sorted by class, so that a class is a run of columns -- and the rule and
STIR's sums follow from those few sums (a numeric target weighs each
neighbour by its target's diff instead).  The diffs are computed twice,
for the distances and for the sums, a few references at a time, rather
than kept: recomputing them in the cache is cheaper than reading them
back from memory.  The blocks are cut the same way whatever the number of
threads and their sums added in block order, so the weights do not
depend on it; they agree with the compiled engine's to rounding (it adds
the same terms in another order).  Nothing of size n x n is kept.
"""
import numpy as np

from ...formulas.neighbourhoods import (
    DEAD_BAND, NO_FAR, PAIR_PRIORS, class_coefficients, far_presence,
    global_statistics, pair_codes, sigmoid_scale, sigmoid_weight,
    standard_deviation, thresholds)
from ...formulas.stir import (CLASS_SCALARS, FAR_PRESENCE, FAR_WEIGHT,
                              HIT_REFS, HIT_SUM, MISS_REFS, MISS_SQUARES,
                              MISS_SUM, N_HIT, N_MISS)
from ...progress import report, step_bounds
from .diffs import TILE, Rows
from .sums import in_order
from .threads import each

#: rows of a labelling's sums (the layout of :func:`classification_sums`)
SUM_ROWS = MISS_SQUARES + 1


def reference_blocks(refs, height, progress_callback):
    """The references `refs` in blocks of at most `height`, cut at the
    reporting bounds of :func:`step_bounds`: for each piece, its blocks
    and the fraction done after it."""
    bounds = step_bounds(len(refs), progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        yield ([refs[first:min(first + height, stop)]
                for first in range(start, stop, height)],
               stop / max(len(refs), 1))


def row_totals(terms):
    """Each row's sum of its terms but the NaN of its reference, added in
    instance order, as the compiled engine adds them (so that both engines'
    thresholds are the same floats and a distance on a threshold falls on
    the same side)."""
    return in_order(np.nan_to_num(terms, nan=0.0), 1)


def limits(dist, local, global_mean, ddof, band=DEAD_BAND, global_scale=1.0):
    """Each block row's (near, far) limits
    (:func:`...formulas.neighbourhoods.thresholds`, `band` deviations
    about its mean with `local`) and the scale of its members' sigmoid
    weights (the row's own with `local`, else `global_scale`) from its
    distances in instance order, its mean and spread summed as
    :func:`..compiled.rules.surf.limits` sums them."""
    n_others = dist.shape[1] - 1
    mean = row_totals(dist) / n_others
    squares = row_totals((dist - mean[:, None]) ** 2)
    near, far = np.empty(len(dist)), np.empty(len(dist))
    scale = np.full(len(dist), global_scale)
    for r in range(len(dist)):
        sigma = standard_deviation(squares[r], n_others, ddof)
        near[r], far[r] = thresholds(mean[r], sigma, local, global_mean, band)
        if local:
            scale[r] = sigmoid_scale(sigma)
    return near, far, scale


class Neighbourhoods:
    """The near and far sets of references, a block at a time, and each
    attribute's diffs of a block, with the instances in `order` (the
    columns of every result: column p holds instance order[p]); the
    distances computed, or read from `given`; with `levels`
    (:class:`...tables.LevelTables`), the sets' sums of diffs counted
    from the attributes' levels instead (:func:`counted_set_sums`); local
    limits `band` deviations about the mean; with a `weighting` (the SWRF
    family: whether its global statistics count the zero diagonal) the
    members weighted by their sigmoid weights."""

    def __init__(self, exact, order, local, far, ddof, given=None,
                 levels=None, band=DEAD_BAND, weighting=None):
        self.levels = levels
        if levels is None:
            self.rows = Rows(exact, order=order)
            self.n_attrs, self.n = exact.values.shape
        else:  # counted sums (:func:`counted_set_sums`): no diffs needed
            self.n, self.n_attrs = levels.codes.shape
        self.order = order
        self.position = np.empty_like(order)
        self.position[order] = np.arange(len(order))
        self.local, self.far, self.ddof = local, far, ddof
        self.band, self.weighting = band, weighting
        self.given = given
        #: references per block: a block's diffs of an attribute in a tile
        self.height = max(1, TILE // max(self.n, 1))
        self.global_mean, self.global_scale = 0.0, 1.0
        if given is not None:
            self.global_mean = given.global_mean
            self.global_scale = given.global_scale
        elif not local:
            self.global_mean, sigma = global_statistics(
                *self.pair_sums(), self.n, bool(weighting))
            self.global_scale = sigmoid_scale(sigma)

    def distances(self, refs):
        """The references' distances to every instance, columns in
        order, NaN for the reference itself (not its own neighbour);
        read from the given distances where there are some."""
        if self.given is None:
            dist = self.rows.distances(refs, np.empty((len(refs), self.n)))
        else:
            dist = self.given.rows[self.given.row_of[refs]][:, self.order]
        dist[np.arange(len(refs)), self.position[refs]] = np.nan
        return dist

    def pair_sums(self):
        """The sums of D and of D^2 over the n (n - 1) ordered pairs (each
        instance's distances summed in order, then those sums by numpy, as
        the compiled engine sums them)."""
        def totals(refs):
            dist = self.distances(refs)[:, self.position]
            return np.stack([row_totals(dist), row_totals(dist * dist)])
        blocks = [np.arange(self.n)[first:first + self.height]
                  for first in range(0, self.n, self.height)]
        total, squares = np.concatenate(each(totals, blocks), axis=1)
        return total.sum(), squares.sum()

    def sets(self, refs):
        """Boolean (refs x n) masks, columns in order, of the instances
        within each reference's near and far thresholds (None far for
        NO_FAR), each with its members' factors in the rule: their sigmoid
        weights with a `weighting` (the SWRF family), else None (1)."""
        dist = self.distances(refs)
        near_limit, far_limit, scale = limits(
            dist[:, self.position], self.local, self.global_mean, self.ddof,
            self.band, self.global_scale)
        with np.errstate(invalid="ignore"):  # the NaN of the reference
            near = dist < near_limit[:, None]
            distant = (dist > far_limit[:, None] if self.far != NO_FAR
                       else None)
        return [(members, self.factors(dist, members, limit, scale))
                for members, limit in ((near, near_limit),
                                       (distant, far_limit))]

    def factors(self, dist, members, limit, scale):
        """The members' sigmoid weights (0 elsewhere), or None without a
        weighting or members."""
        if self.weighting is None or members is None:
            return None
        return np.where(members, sigmoid_weight(
            np.nan_to_num(dist), limit[:, None], scale[:, None]), 0.0)

    def attribute_diffs(self, refs):
        """Yield each attribute's diffs of the references, (refs x n),
        columns in order (one buffer, overwritten)."""
        out = np.empty((len(refs), self.n))
        for a in range(self.n_attrs):
            yield self.rows.diffs(a, refs, 0, self.n, out)


def class_runs(codes, n_groups):
    """(starts, present): the first column of each class present in the
    sorted class `codes`, and those classes."""
    starts = np.flatnonzero(np.diff(codes, prepend=-1))
    return starts, codes[starts]


def run_sums(values, runs, n_groups, out=None):
    """sums[r, c]: the sum of each row's values over the run of class c
    (0 for a class without a run), into `out` if given."""
    starts, present = runs
    if len(present) == n_groups:  # every class, in order
        return np.add.reduceat(values, starts, axis=1, out=out)
    if out is None:
        out = np.empty((len(values), n_groups))
    out[:] = 0.0
    out[:, present] = np.add.reduceat(values, starts, axis=1)
    return out


class Labelling:
    """One labelling of the instances, class `codes` (n,), as a block's
    rule reads it: the instances sorted by class, stably (so that a
    labelling's sums do not depend on the labellings scored with it), as
    a permutation of the blocks' columns (None where they are so sorted
    already; `position`: each instance's column), and its classes' runs
    of columns."""

    def __init__(self, codes, position, n_groups):
        self.codes = codes
        order = np.argsort(codes, kind="stable")
        permutation = position[order]
        self.permutation = (None if (permutation == np.arange(len(order))).all()
                            else permutation)
        self.runs = class_runs(codes[order], n_groups)

    def columns(self, values):
        """`values` (rows x n, the blocks' columns) with the labelling's
        classes in runs."""
        return values if self.permutation is None else values[
            :, self.permutation]


def class_update(sums, counts, own, near, far_sets, priors, far, stir):
    """Add a block's terms to one labelling's `sums` (6, a) and `counts`
    (:data:`...formulas.stir.CLASS_SCALARS`) (the layout of
    :func:`classification_sums`) from per (reference, class) sums over
    the near and the far sets: `near` and `far_sets` (sums of diffs (a,
    refs, classes), counts (refs, classes), for the near sets sums of
    squared diffs, and the sums of the members' sigmoid weights where
    they are weighted); `own` the references' classes.  STIR's counts of
    weighted members count each pair by its weight w and each reference
    by the sum of its pairs' |coef| w (:mod:`...formulas.stir`)."""
    near_sums, near_counts, squares, near_weights = near
    far_sums, far_counts, _, far_weights = far_sets
    coefs = np.empty(near_counts.shape)
    far_coefs = np.zeros(near_counts.shape)
    for r, c in enumerate(own):
        class_coefficients(near_counts[r], c, priors, coefs[r])
        if far != NO_FAR:
            class_coefficients(far_counts[r], c, priors, far_coefs[r])
        if far_weights is not None:
            counts[FAR_PRESENCE] += far_presence(far_counts[r], c)
    if far_weights is not None:
        counts[FAR_WEIGHT] += (far_coefs * far_weights).sum()
    sums[0] += np.einsum("arc,rc->a", near_sums, coefs)
    if far != NO_FAR:
        sums[1] -= np.einsum("arc,rc->a", far_sums, far_coefs)
    if stir:  # STIR's sums of the near pairs (:func:`...formulas.stir.add_stir_sums`)
        hit = own[:, None] == np.arange(near_counts.shape[1])[None, :]
        weight = np.abs(coefs)
        for mask, row in ((hit, HIT_SUM), (~hit, MISS_SUM)):
            sums[row] += np.einsum("arc,rc->a", near_sums, weight * mask)
            sums[row + 1] += np.einsum("arc,rc->a", squares, weight * mask)
        if near_weights is None:
            counts[N_HIT] += near_counts[hit].sum()
            counts[N_MISS] += near_counts[~hit].sum()
            counts[HIT_REFS] += (near_counts * hit).any(axis=1).sum()
            counts[MISS_REFS] += (near_counts * ~hit).any(axis=1).sum()
        else:  # pairs counted by their sigmoid weights (the SWRF family)
            counts[N_HIT] += near_weights[hit].sum()
            counts[N_MISS] += near_weights[~hit].sum()
            counts[HIT_REFS] += (weight * near_weights * hit).sum()
            counts[MISS_REFS] += (weight * near_weights * ~hit).sum()


def counted_set_sums(hoods, refs, labellings, sets, n_groups, stir):
    """:func:`set_sums` of attributes of a few levels each
    (:class:`...tables.LevelTables`), counted: a reference's sum of diffs
    over the members of class c of a set is sum_v count(c, v) diff(u, v),
    count(c, v) the members of class c at level v and u the reference's
    level (the engine's ``level_sums``).  Every diff is a multiple of a
    half (bit-plane data, :mod:`...compact.planes`), so these sums, and
    those of squared diffs, are exact: the floats :func:`set_sums` adds
    up, whatever its order."""
    levels = hoods.levels
    ref_diffs = np.ascontiguousarray(levels.diffs[
        np.arange(hoods.n_attrs)[None, :], levels.codes[refs]])
    out = []
    for label in labellings:
        groups = label.codes[hoods.order]
        out.append([(*levels.sums(members, groups, n_groups,
                                  ref_diffs=ref_diffs,
                                  squares=stir and s == 0), None)
                    if members is not None else (None, None, None, None)
                    for s, (members, _) in enumerate(sets)])
    return out


def set_sums(hoods, refs, labellings, sets, n_groups, stir):
    """For each labelling (:class:`Labelling`) and each set of `sets`
    (refs x n masks, columns of the blocks, None for none, each with its
    members' factors or None, :meth:`Neighbourhoods.sets`): the sums of
    each attribute's diffs times the factors over each reference's set
    per class (a, refs, classes), the counts per class, for the first set
    with `stir` the sums of the squared diffs (else None), and the sums
    of the factors per class (None without factors).  Each attribute's
    diffs are computed once for them all."""
    if hoods.levels is not None:
        return counted_set_sums(hoods, refs, labellings, sets, n_groups,
                                stir)
    shape = (hoods.n_attrs, len(refs), n_groups)
    out, masks = [], []
    for label in labellings:
        out.append([])
        masks.append([])
        for s, (members, factors) in enumerate(sets):
            if members is None:
                out[-1].append((None, None, None, None))
                masks[-1].append(None)
                continue
            members = label.columns(members).astype(np.float64)
            counts = run_sums(members, label.runs, n_groups)
            weight_sums = None
            if factors is not None:
                members = label.columns(factors)
                weight_sums = run_sums(members, label.runs, n_groups)
            masks[-1].append(members)
            out[-1].append((np.empty(shape), counts,
                            np.empty(shape) if stir and s == 0 else None,
                            weight_sums))
    terms = np.empty((len(refs), hoods.n))
    for a, diffs in enumerate(hoods.attribute_diffs(refs)):
        for label, own_out, own_masks in zip(labellings, out, masks):
            values = label.columns(diffs)
            for (sums, _, squared, _), members in zip(own_out, own_masks):
                if members is None:
                    continue
                np.multiply(values, members, out=terms)
                run_sums(terms, label.runs, n_groups, sums[a])
                if squared is not None:
                    terms *= values
                    run_sums(terms, label.runs, n_groups, squared[a])
    return out


def classification_block(hoods, refs, labellings, priors, stir):
    """A block's sums and counts of :func:`classification_sums`."""
    sets = set_sums(hoods, refs, labellings, hoods.sets(refs), len(priors),
                    stir)
    sums = np.zeros((len(labellings), SUM_ROWS, hoods.n_attrs))
    counts = np.zeros((len(labellings), CLASS_SCALARS))
    for label, (near, far_sets), own_sums, own_counts in zip(
            labellings, sets, sums, counts):
        class_update(own_sums, own_counts, label.codes[refs], near,
                     far_sets, priors, hoods.far, stir)
    return sums, counts


def classification_sums(exact, refs, labels, priors, local, far, ddof, stir,
                        progress_callback=None, given=None, levels=None,
                        band=DEAD_BAND, weighting=None):
    """Sums of the classification rules over the references, for each row
    of `labels` (class codes of the instances; the neighbourhoods found
    once for them all).

    Returns (sums, counts), sums[p] and counts[p] of labels[p]:
    sums[p, 0] the near updates, sums[p, 1] minus the far updates, with
    `stir` sums[p, 2:6] STIR's sums of the near pairs, each weighted by
    its coefficient in the near update (:func:`...formulas.stir.add_stir_sums`);
    counts[p] STIR's counts of near pairs and references, and the SWRF
    family's far terms (:data:`...formulas.stir.FAR_PRESENCE`,
    :data:`...formulas.stir.FAR_WEIGHT`).
    The distances are computed or `given`; with `levels` the sets' sums
    are counted (:func:`counted_set_sums`, `exact` unused); `band` is the
    half-width of the local dead band; with a `weighting` (None, or
    whether SWRF's global statistics count the zero diagonal) each
    member's coefficient is times its sigmoid weight.
    """
    codes = labels.astype(np.int64)
    order = np.argsort(codes[0], kind="stable")
    hoods = Neighbourhoods(exact, order, local, far, ddof, given, levels,
                           band, weighting)
    labellings = [Labelling(own, hoods.position, len(priors))
                  for own in codes]
    sums = np.zeros((len(labels), SUM_ROWS, hoods.n_attrs))
    counts = np.zeros((len(labels), CLASS_SCALARS))
    for blocks, done in reference_blocks(refs, hoods.height,
                                         progress_callback):
        for block_sums, block_counts in each(
                lambda rows: classification_block(hoods, rows, labellings,
                                                  priors, stir), blocks):
            sums += block_sums
            counts += block_counts
        report(progress_callback, done)
    return sums, counts


def regression_block(hoods, refs, targets):
    """A block's sums of :func:`regression_sums` (the blocks' columns are
    the instances in order)."""
    sums = np.zeros((len(targets), 4, hoods.n_attrs))
    n_dc = np.zeros((len(targets), 3))
    weights = []
    for s, (members, _) in enumerate(hoods.sets(refs)):
        if members is None:
            continue
        size = members.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            d = np.where(members, 1.0 / size, 0.0)
        d_target = [np.abs(target[refs][:, None] - target[None, :]) * d
                    for target in targets]
        for p, weight in enumerate(d_target):
            n_dc[p, s] += weight.sum()
        weights.append((s, d, d_target))
    for a, diffs in enumerate(hoods.attribute_diffs(refs)):
        for s, d, d_target in weights:
            sums[:, 2 * s, a] += (diffs * d).sum()  # the same for every target
            for p, weight in enumerate(d_target):
                sums[p, 2 * s + 1, a] += (diffs * weight).sum()
    return sums, n_dc


def regression_sums(exact, refs, labels, local, far, ddof,
                    progress_callback=None, given=None):
    """RReliefF's sums over the neighbourhoods, each member with influence
    1 / |S|, for each row of `labels` (scaled targets): rows 0, 1 of
    sums[p] N_dA, N_dCdA of the near sets, rows 2, 3 of the far sets;
    n_dc[p] their N_dC."""
    hoods = Neighbourhoods(exact, np.arange(exact.values.shape[1]), local,
                           far, ddof, given)
    sums = np.zeros((len(labels), 4, exact.values.shape[0]))
    n_dc = np.zeros((len(labels), 3))
    for blocks, done in reference_blocks(refs, hoods.height,
                                         progress_callback):
        for block_sums, block_dc in each(
                lambda rows: regression_block(hoods, rows, labels), blocks):
            sums += block_sums
            n_dc += block_dc
        report(progress_callback, done)
    return sums, n_dc


def pair_block(hoods, refs, target, hit_bound):
    """A block's sums and counts of :func:`pair_sums` (the blocks'
    columns are the instances in order)."""
    codes = np.empty((len(refs), hoods.n), np.int64)
    for r, i in enumerate(refs):
        pair_codes(target, i, hit_bound, codes[r])
    hit = codes == 0
    sets = []
    for members, factors in hoods.sets(refs):
        if members is None:
            sets.append((None, None, None, None))
            continue
        terms = members if factors is None else factors
        split = [terms * hit, terms * ~hit]  # (refs x n) of each code
        counts = np.stack([(members & hit).sum(axis=1),
                           (members & ~hit).sum(axis=1)], axis=1)
        sets.append((split, counts, None, None if factors is None else
                     np.stack([part.sum(axis=1) for part in split], axis=1)))
    sums = [np.empty((hoods.n_attrs, len(refs), 2)) if split is not None
            else None for split, *_ in sets]
    for a, diffs in enumerate(hoods.attribute_diffs(refs)):
        for (split, *_), out in zip(sets, sums):
            if split is not None:
                for c, part in enumerate(split):
                    out[a, :, c] = (diffs * part).sum(axis=1)
    block_sums = np.zeros((SUM_ROWS, hoods.n_attrs))
    block_counts = np.zeros(CLASS_SCALARS)
    near, far_set = [(out, counts, None, weights) for out, (_, counts, _,
                     weights) in zip(sums, sets)]
    class_update(block_sums, block_counts, np.zeros(len(refs), np.int64),
                 near, far_set, PAIR_PRIORS, hoods.far, False)
    return block_sums, block_counts


def pair_sums(exact, refs, labels, hit_bound, local, far, ddof,
              progress_callback=None, given=None, band=DEAD_BAND,
              weighting=None):
    """The classification rule's sums for a numeric target, for each row
    of `labels` (the target): each reference's hits the instances whose
    target lies within `hit_bound` of its own, the others its misses
    (:func:`...formulas.neighbourhoods.pair_codes`, scikit-rebate 0.8's
    continuous endpoint); the layout of :func:`classification_sums`
    without STIR's sums."""
    hoods = Neighbourhoods(exact, np.arange(exact.values.shape[1]), local,
                           far, ddof, given, None, band, weighting)
    sums = np.zeros((len(labels), SUM_ROWS, hoods.n_attrs))
    counts = np.zeros((len(labels), CLASS_SCALARS))
    for blocks, done in reference_blocks(refs, hoods.height,
                                         progress_callback):
        for p, target in enumerate(labels):
            for block_sums, block_counts in each(
                    lambda rows: pair_block(hoods, rows, target, hit_bound),
                    blocks):
                sums[p] += block_sums
                counts[p] += block_counts
        report(progress_callback, done)
    return sums, counts


def radius_rule(data, refs, labels, task, local, far, ddof, stir,
                progress_callback=None, given=None, band=DEAD_BAND,
                weighting=None, hit_bound=None):
    """The sums of the SURF family's rule over the references `refs`, for
    each row of `labels` (P x n: class codes, or the scaled target, of P
    labellings of the instances): :func:`classification_sums` or
    :func:`regression_sums`, (P, rows, a) and (P, places): STIR's counts
    or RReliefF's N_dC.  The distances are computed, or read from `given`
    (:class:`...formulas.neighbourhoods.GivenDistances`); local limits
    `band` deviations about the mean, and with a `weighting`
    (classification) the members weighted as the SWRF family weighs them
    (:func:`classification_sums`).  The neighbourhoods
    depend on the attributes only, but with missing values a class's
    RELIEF-D diffs depend on the classes of `data`, which `labels` must
    then be.  With a `hit_bound` (a numeric target, `labels` its values)
    the classification rule scores each reference's hits and misses by
    the target (:func:`pair_sums`)."""
    if hit_bound is not None:
        return pair_sums(data.exact, refs, labels, hit_bound, local, far,
                         ddof, progress_callback, given, band, weighting)
    if task == "classification":
        return classification_sums(data.exact, refs, labels, data.priors,
                                   local, far, ddof, stir, progress_callback,
                                   given, None, band, weighting)
    return regression_sums(data.exact, refs, labels, local, far, ddof,
                           progress_callback, given)

"""The SURF family's rules over distance-threshold neighbourhoods, compiled.

Each reference's distances come from
:func:`..neighbours.distance_rows.distance_block`; its thresholds and the
coefficients of its neighbours' classes are the shared definitions of
:mod:`....formulas.neighbourhoods`, compiled here.  References are ordered by class and
processed in blocks of UPDATE_BLOCK whose partial sums are added in block
order, so the result does not depend on the number of threads.  The
options of a call are one record, :class:`RadiusRule`; what it reads and
fills are :class:`Given`, :class:`Pairs` and :class:`BlockSums` besides
the tables, and the rules read a group of references as one
:class:`Group`.

What a call compiles: :func:`radius_block` holds only the branches its
arguments take (its distances and its rule), and the rules' parts
(:func:`class_terms`, :func:`class_update`, :func:`regression_update`,
:func:`pair_update`) and the distances are kernels of their own rather
than inlined: numba compiles each once for its argument types, where
inlined they were compiled again in every caller.  Inlined, with every
rule in one kernel, a call's first compilation took about 2.5 times as
long.
"""
from collections import namedtuple
from functools import partial

import numba
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ....formulas import neighbourhoods
from ....formulas.stir import (CLASS_SCALARS, FAR_PRESENCE, FAR_WEIGHT,
                               HIT_REFS, MISS_REFS, N_HIT, N_MISS)
from ..diffs import (any_missing, attribute_diff, for_kernels, linear_diff,
                     numeric_and_known)
from ..neighbours.block import ROWS, block_refs
from ..neighbours import panels
from ..neighbours.distance_rows import (all_distances, distance_block,
                                        pair_sums, sums_of_rows)
from ..neighbours import sides as sided
from ..neighbours.screened import screen_of, screened_block
from ..threads import each_call
from ....progress import report, step_bounds
from ....tables import LINEAR
from .group_lanes import (GROUP, lane_members, lane_rows, lane_squares,
                          lane_sums)
from .unrolled import add_numeric, add_numeric_stir, add_pairs, add_terms
from .relieff import UPDATE_BLOCK, add_diffs

#: the most memory (bytes) that the distances of every pair may take to
#: be computed once and kept (n up to 2,896): for SURF's global mean and
#: its rule (:func:`kept_distances`), and for MultiSURF's rules, whose
#: references would otherwise each compute their row, every pair twice
#: (:func:`local_distances`).  Beyond it no n x n matrix is made: on one
#: thread of an AMD EPYC (AVX2, load 7-10, interleaved runs) keeping them
#: for MultiSURF made 5000 x 100 0.90-0.97 s -> 0.68-0.70 s and 5000 x
#: 200 1.76-1.86 s -> 1.14-1.17 s, for 200 MB where the call otherwise
#: holds 9 MB.  MultiSURF's rules then share the pairs of references
#: within it instead, a panel at a time (:func:`local_given`)
KEPT_DISTANCES = 1 << 26

#: references per panel beyond the budget (:mod:`..neighbours.panels`):
#: whole blocks of the update, two of them for two threads
PANEL = 2 * UPDATE_BLOCK

#: a group's near (or far) pairs held before their terms are added, a
#: pass over the attributes for every four pairs, whatever their instances
HELD = 256

#: The options of a SURF-family rule, as :func:`radius_block` reads them:
#: the neighbourhoods (`local`: each reference's limits `band`
#: deviations, of `ddof`, about its own mean distance, else SURF's
#: `global_mean`; `with_far`: the far set scored too), and what a member
#: counts (`weighted`: its sigmoid weight, of the `global_scale` where the
#: limits are global; `stir`: STIR's sums as well).  Made by
#: :func:`radius_options`.
RadiusRule = namedtuple("RadiusRule", [
    "local", "band", "ddof", "global_mean", "with_far", "weighted",
    "global_scale", "stir"])

#: The distances computed already: reference i's row rows[row_of[i]], as
#: :class:`....formulas.neighbourhoods.GivenDistances` holds them
Given = namedtuple("Given", ["rows", "row_of"])

#: The numeric targets whose pairs the classification rule scores
#: (:func:`pair_update`): targets[p], and the bound on |y_i - y_j| of a
#: hit
Pairs = namedtuple("Pairs", ["targets", "hit_bound"])

#: The partial sums a call adds to, per labelling p and block b:
#: partial[p, b] (rows of the rule's sums, one column per attribute) and
#: scalars[p, b] (STIR's counts, or RReliefF's N_dC)
BlockSums = namedtuple("BlockSums", ["partial", "scalars"])

#: A group of references and their neighbourhoods: rows[:count] the
#: references, dist[r, j] the distance of reference rows[r] to I_j (no
#: row where the members are read off the sides of SURF's limit,
#: :func:`..neighbours.sides.sided_members`), and
#: its near and far limits and its members' sigmoid scale (near[r],
#: far[r], scale[r], :func:`group_limits`)
Group = namedtuple("Group", ["rows", "count", "dist", "near", "far",
                             "scale"])

#: A block's buffers: members[s, j] of :func:`group_members`, counts[s,
#: g, r] of :func:`member_counts`, own_counts (2 x classes) those of one
#: reference, coefs[r, s, g] the coefficients of :func:`class_terms`,
#: influence[r, s] those of :func:`regression_update` and factors[r, j]
#: the members' sigmoid weights (:func:`member_weights`; no instance where
#: the rule weighs none)
Buffers = namedtuple("Buffers", ["counts", "members", "own_counts", "coefs",
                                 "influence", "factors"])

#: The pairs (reference, member) of a group's near (s = 0) and far (s =
#: 1) sets held before their terms are added: pairs[s, :, :count[s]] and
#: their coefficients coefs[s, :count[s]] (:func:`gather`)
HeldPairs = namedtuple("HeldPairs", ["pairs", "coefs", "count"])

thresholds = numba.njit(cache=True)(neighbourhoods.thresholds)
standard_deviation = numba.njit(cache=True)(neighbourhoods.standard_deviation)
class_coefficients = numba.njit(cache=True)(neighbourhoods.class_coefficients)
far_presence = numba.njit(cache=True)(neighbourhoods.far_presence)
sigmoid_scale = numba.njit(cache=True)(neighbourhoods.sigmoid_scale)
sigmoid_weight = numba.njit(cache=True)(neighbourhoods.sigmoid_weight)
pair_codes = numba.njit(cache=True)(neighbourhoods.pair_codes)


@numba.njit(inline="always", cache=True)
def limits(dist, i, local, global_mean, ddof, band, global_scale):
    """(near, far) limits of reference I_i from its distance row, `band`
    deviations about its mean with `local`, and the scale of its members'
    sigmoid weights (the row's own with `local`, else `global_scale`)."""
    n = dist.shape[0]
    total = 0.0
    for j in range(n):
        if j != i:
            total += dist[j]
    mean = total / (n - 1)
    squares = 0.0
    for j in range(n):
        if j != i:
            squares += (dist[j] - mean) ** 2
    sigma = standard_deviation(squares, n - 1, ddof)
    near, far = thresholds(mean, sigma, local, global_mean, band)
    return near, far, sigmoid_scale(sigma) if local else global_scale


@numba.njit(inline="always", cache=True)
def weight_at(factors, r, j, weighted):
    """The factor of member I_j of the set of the group's reference
    rows[r]: its sigmoid weight factors[r, j] (:func:`member_weights`)
    with `weighted` (the SWRF family), else 1."""
    return factors[r, j] if weighted else 1.0


@numba.njit(inline="always", cache=True)
def group_limits(group, rule):
    """near[r], far[r], scale[r] of :func:`limits` for the references of
    a :class:`Group` at once, by the :class:`RadiusRule` `rule`.

    Each reference's sums run over the instances in their order, as
    :func:`limits` adds them, but the group's sums run side by side in
    vector registers (:mod:`.group_lanes`): `dist` holds a group's
    distances instance by instance (:func:`radius_block`), so an
    instance's distances to the group are one load and the sums do not
    wait for each other.  Every lane of the group is summed, the lanes
    past its `count` references too (their sums unread; `dist` holds
    finite values there, :func:`radius_block`).  A group's two passes at
    2000 instances took 7.4 microseconds so, where numba's loops over an
    array of sums took 25.6 (one thread of an AMD EPYC, Zen 4, AVX-512).
    SURF's limits are the global ones, and it needs no sums."""
    dist, rows, count = group.dist, group.rows, group.count
    near, far, scale = group.near, group.far, group.scale
    if not rule.local:
        for r in range(count):
            near[r], far[r] = thresholds(0.0, 0.0, False, rule.global_mean,
                                         rule.band)
            scale[r] = rule.global_scale
        return
    n = dist.shape[1]
    total, mean, squares = np.empty(GROUP), np.empty(GROUP), np.empty(GROUP)
    lane_sums(dist.T, rows, mean, total)
    for r in range(GROUP):
        mean[r] = total[r] / (n - 1)
    lane_squares(dist.T, rows, mean, squares)
    for r in range(count):
        sigma = standard_deviation(squares[r], n - 1, rule.ddof)
        near[r], far[r] = thresholds(mean[r], sigma, True, rule.global_mean,
                                     rule.band)
        scale[r] = sigmoid_scale(sigma)


@numba.njit(inline="always", cache=True)
def group_members(group, with_far, members):
    """members[0, j], members[1, j]: the bits 1 << r of the
    :class:`Group`'s references rows[r] whose near (far, with
    `with_far`) set holds I_j.  Instance by instance (the group's
    distances to an instance side by side, branch-free), so that the
    rules then visit each instance's members alone (:func:`gather`).
    The sets do not depend on the labels: made once per group, for every
    labelling (where the members are read off the sides of SURF's limit,
    :func:`..neighbours.sides.sided_members` makes them).  Every lane
    is compared at once, an instance's comparisons one mask
    (:func:`.group_lanes.lane_members`), and the bits past the group's
    `count` references masked off: a group's members at 2000 instances
    took 7.0 microseconds so, where numba's loop over the lanes took 17.6
    (one thread of an AMD EPYC, Zen 4, AVX-512)."""
    real = (np.int64(1) << group.count) - 1  # the group's references' bits
    lane_members(group.dist.T, group.rows, group.near, group.far, with_far,
                 real, members)


@numba.njit(inline="always", cache=True)
def reference_members(reference, with_far, members):
    """:func:`group_members` of a :class:`Group` of one reference, whose
    distances are a row of a group's (no whole lanes to compare)."""
    dist, i = reference.dist, reference.rows[0]
    near, far = reference.near[0], reference.far[0]
    for j in range(dist.shape[1]):
        is_near = (j != i) & (dist[0, j] < near)
        is_far = with_far & (j != i) & (not is_near) & (dist[0, j] > far)
        members[0, j], members[1, j] = np.int64(is_near), np.int64(is_far)


@numba.njit(inline="always", cache=True)
def member_counts(members, groups, count, with_far, counts):
    """counts[0, g, r], counts[1, g, r]: the instances of group g
    (`groups`, a labelling's) in the near and far sets of the group's
    reference r < `count`, from their `members` (:func:`group_members`);
    the far sets' counts are 0 without `with_far`, their members none, and
    are not counted: MultiSURF's counts took 31 rather than 54
    microseconds a group of 16 at 5000 instances (one thread of an AMD
    EPYC, Zen 3)."""
    counts[:] = 0
    for j in range(members.shape[1]):
        g = groups[j]
        for s in range(2 if with_far else 1):
            bits = members[s, j]
            for r in range(count):
                counts[s, g, r] += (bits >> r) & 1


@numba.njit(inline="always", cache=True)
def next_member(bits):
    """(r, the bits left): the lowest bit r of an instance's `members`
    (:func:`group_members`) and the others, so that a loop takes the
    references in order."""
    return trailing_zeros(bits), bits & (bits - 1)


@numba.njit(cache=True)
def member_weights(group, members, factors):
    """factors[r, j] = the sigmoid weight (:func:`sigmoid_weight`) of each
    member I_j of the near or far set of the :class:`Group`'s reference
    rows[r] (`members` those of :func:`group_members`), of its set's
    limit; the others are left as they are.  Made once where the counts
    are (:func:`class_terms`), for the rules' terms and STIR's counts
    alike, in a pass of its own: with the sigmoid's call in the
    loop over the instances, taken or not, the gathers of unweighted
    members cost about four times as much an instance (16 references, a
    third of them near: 141 against 37 clock ticks), and MultiSURF 5000 x
    100 on two threads took 0.44-0.45 s against 0.35-0.38 s (AMD EPYC,
    AVX2, interleaved processes)."""
    dist, scale = group.dist, group.scale
    for j in range(dist.shape[1]):
        for s in range(2):
            limit, bits = group.near if s == 0 else group.far, members[s, j]
            while bits:
                r, bits = next_member(bits)
                factors[r, j] = sigmoid_weight(dist[r, j], limit[r],
                                               scale[r])


@numba.njit(inline="always", cache=True)
def gather(held, s, bits, group, j, g, coefs, factors, weighted):
    """Append the pairs (I_rows[r], I_j) of the :class:`Group`'s
    references r of the members `bits` (:func:`group_members`), whose set s
    (0 near, 1 far) holds I_j, in order, to the :class:`HeldPairs` `held`
    of set s, and their terms' coefficients: +coef for the near set,
    -coef for the far one, with `weighted` each times the member's weight
    ``factors[r, j]`` (:func:`member_weights`).  Returns how many."""
    pairs, pair_coefs, first = held.pairs[s], held.coefs[s], held.count[s]
    rows = group.rows
    sign = 1.0 if s == 0 else -1.0
    at = first
    while bits:
        r, bits = next_member(bits)
        pairs[0, at], pairs[1, at] = rows[r], j
        pair_coefs[at] = sign * coefs[r, s, g] * weight_at(factors, r, j,
                                                           weighted)
        at += 1
    held.count[s] = at
    return at - first


@numba.njit(inline="always", cache=True)
def in_quads(held, s):
    """The :class:`HeldPairs` of set s rounded up to whole quads of
    :func:`.unrolled.add_pairs`: the places added hold the last pair at
    the coefficient -0.0, whose terms (-0.0, the diffs being finite)
    leave every sum as it is (x + -0.0 == x)."""
    pairs, coefs, count = held.pairs[s], held.coefs[s], held.count[s]
    whole = (count + 3) // 4 * 4
    for q in range(count, whole):
        pairs[0, q], pairs[1, q] = pairs[0, count - 1], pairs[1, count - 1]
        coefs[q] = -0.0
    held.count[s] = whole


@numba.njit(cache=True)
def add_held(acc, rows, held, s):
    """Add the whole quads of the :class:`HeldPairs` of set s to acc
    (:func:`.unrolled.add_pairs`, `rows` the values instance by instance)
    and move the 0-3 pairs left over to the front, where the next pairs
    follow them.  Not inlined: numba compiles the unrolled terms once for
    both of :func:`class_update`'s calls."""
    pairs, coefs, count = held.pairs[s], held.coefs[s], held.count[s]
    whole = count // 4 * 4
    add_pairs(acc, rows, pairs, coefs, whole)
    for q in range(count - whole):
        pairs[0, q], pairs[1, q] = pairs[0, whole + q], pairs[1, whole + q]
        coefs[q] = coefs[whole + q]
    held.count[s] = count - whole


@numba.njit(inline="always", cache=True)
def add_stir_terms(sums, exact, i, j, coef, hit):
    """sums[0] += coef * diff; and STIR's sums of the near pair (i, j)
    (:func:`.unrolled.add_terms`)."""
    row = 2 if hit else 4
    values, nominal = exact.values, exact.nominal
    if not any_missing(exact) and exact.kind == LINEAR:
        for a in range(sums.shape[1]):
            add_terms(sums, row, a, coef,
                      linear_diff(values[a, i], values[a, j], nominal[a]))
    else:
        for a in range(sums.shape[1]):
            add_terms(sums, row, a, coef, attribute_diff(exact, a, i, j))


@numba.njit(inline="always", cache=True)
def weighted_pair_counts(near_bits, factors, r, own, groups, coefs,
                         scalars):
    """STIR's counts of the near pairs of the group's reference rows[r],
    of class `own`, whose members are weighted (the SWRF family,
    :mod:`....formulas.stir`): each pair counts its sigmoid weight w =
    factors[r, j] (:func:`member_weights`), and the references' places
    the sums of |coef| w, instance by instance; `near_bits` the members'
    bits of :func:`group_members`."""
    for j in range(len(near_bits)):
        if (near_bits[j] >> r) & 1:
            w = factors[r, j]
            hit = groups[j] == own
            scalars[N_HIT if hit else N_MISS] += w
            scalars[HIT_REFS if hit else MISS_REFS] += abs(
                coefs[groups[j]]) * w


@numba.njit(cache=True)
def class_terms(group, groups, priors, rule, stir, buffers, scalars):
    """coefs[r, s, g] of the :class:`Buffers`: the coefficient of a
    group-g neighbour in the :class:`Group`'s reference rows[r]'s update
    over its near (s = 0) or far (s = 1) set, from the group's `counts`
    (:func:`member_counts`), each reference's copied to `own_counts` (2 x
    groups); with `stir`, STIR's counts of
    :func:`...vectorised.surf.classification_sums` added to `scalars` (of
    pairs weighted where the :class:`RadiusRule` `rule` weighs them:
    :func:`weighted_pair_counts`), with weighted far sets the SWRF
    family's far terms."""
    with_far, weighted = rule.with_far, rule.weighted
    dist, rows, count = group.dist, group.rows, group.count
    counts, own_counts, coefs = (buffers.counts, buffers.own_counts,
                                 buffers.coefs)
    members, factors = buffers.members, buffers.factors
    member_counts(members, groups, count, with_far, counts)
    if weighted:
        member_weights(group, members, factors)
    for r in range(count):
        i = rows[r]
        own = groups[i]
        for s in range(2):  # element by element (:mod:`..` says why)
            for g in range(own_counts.shape[1]):
                own_counts[s, g] = counts[s, g, r]
        class_coefficients(own_counts[0], own, priors, coefs[r, 0])
        class_coefficients(own_counts[1], own, priors, coefs[r, 1])
        if with_far and weighted:
            scalars[FAR_PRESENCE] += far_presence(own_counts[1], own)
            for j in range(dist.shape[1]):
                if (members[1, j] >> r) & 1:
                    scalars[FAR_WEIGHT] += coefs[r, 1, groups[j]] * (
                        factors[r, j])
        if stir and weighted:
            weighted_pair_counts(members[0], factors, r, own, groups,
                                 coefs[r, 0], scalars)
        elif stir:
            n_miss = own_counts[0].sum() - own_counts[0, own]
            scalars[N_HIT] += own_counts[0, own]
            scalars[N_MISS] += n_miss
            scalars[HIT_REFS] += own_counts[0, own] > 0
            scalars[MISS_REFS] += n_miss > 0


@numba.njit(cache=True)
def class_update(sums, exact, any_kind, groups, group, rule, buffers):
    """The classification terms of the :class:`Group`'s references (rows
    0, 1 and, with STIR's sums, 2-5 of
    :func:`...vectorised.surf.classification_sums`) by the
    :class:`RadiusRule` `rule`, with the coefficients and members of the
    :class:`Buffers` (:func:`class_terms`, :func:`group_members`);
    `any_kind` the tables of :func:`tables_of_any_kind`.

    Instance by instance, each visited once for all the group's references
    whose neighbourhood holds it.  On numeric data the pairs (reference,
    member) are gathered in that order, up to HELD of a set, and their
    terms added four pairs at a time (:func:`.unrolled.add_pairs`): each
    sum is loaded and stored once for four terms, whatever the instances
    they come from, and each sum adds the same terms in the same order as
    one pair at a time.  With STIR's sums the references are of one class
    (:func:`class_run`): an instance is a hit of all of them or a miss of
    all, and its near pairs are added at once.  With weighted members
    each term is times the member's sigmoid weight
    (:func:`member_weights`)."""
    weighted, stir = rule.weighted, rule.stir
    coefs, members, factors = buffers.coefs, buffers.members, buffers.factors
    if any_kind is not None:
        class_update_any(sums, any_kind, groups, group, rule, stir, coefs,
                         factors)
        return
    by_instance = exact.values.T  # (:mod:`.unrolled`)
    own = groups[group.rows[0]]
    held = HeldPairs(np.empty((2, 2, HELD + GROUP), np.int64),
                     np.empty((2, HELD + GROUP)), np.zeros(2, np.int64))
    for j in range(group.dist.shape[1]):
        g = groups[j]
        n_near = gather(held, 0, members[0, j], group, j, g, coefs, factors,
                        weighted)
        gather(held, 1, members[1, j], group, j, g, coefs, factors, weighted)
        if stir:  # the near pairs of I_j at once: all hits or all misses
            add_numeric_stir(sums, by_instance, held.pairs[0, 0],
                             held.coefs[0], 2 if g == own else 4, n_near, j)
            held.count[0] = 0
        for s in range(2):
            if held.count[s] >= HELD:
                add_held(sums[s], by_instance, held, s)
    for s in range(2):
        in_quads(held, s)
        add_held(sums[s], by_instance, held, s)


@numba.njit(cache=True)
def class_update_any(sums, exact, groups, group, rule, stir, coefs,
                     factors):
    """:func:`class_update` one reference at a time, for any data (STIR's
    sums with `stir`; `factors` the members' weights of
    :func:`member_weights`).  Not inlined, so that numba compiles the
    diffs of every kind of data once (inlined where the rules add terms,
    they took half of the SURF family's first compilation)."""
    with_far, weighted = rule.with_far, rule.weighted
    dist, rows, count = group.dist, group.rows, group.count
    near, far = group.near, group.far
    for j in range(dist.shape[1]):
        g = groups[j]
        for r in range(count):
            i = rows[r]
            if j == i:
                continue
            if dist[r, j] < near[r]:
                coef = coefs[r, 0, g] * weight_at(factors, r, j, weighted)
                if stir:
                    add_stir_terms(sums, exact, i, j, coef, g == groups[i])
                else:
                    add_diffs(sums[0], exact, i, j, coef)
            elif with_far and dist[r, j] > far[r]:
                add_diffs(sums[1], exact, i, j, -coefs[r, 1, g] * weight_at(
                    factors, r, j, weighted))


@numba.njit(cache=True)
def regression_update(sums, n_dc, exact, any_kind, group, target, with_far,
                      buffers, with_n_da):
    """RReliefF's terms of the :class:`Group`'s references (rows 0-3 and
    N_dC of :func:`...vectorised.surf.regression_sums`; rows 0 and 2,
    N_dA, which do not depend on the target, only `with_n_da`), instance
    by instance as :func:`class_update` (`any_kind` alike); influence[r, s]
    of the :class:`Buffers` = 1 / |S| of its near and far sets."""
    counts, influence, members = (buffers.counts, buffers.influence,
                                  buffers.members)
    rows = group.rows
    member_counts(members, exact.groups, group.count, with_far, counts)
    for r in range(group.count):  # one group: counts[s, 0, r], the set's size
        influence[r, 0] = 1.0 / max(counts[0, 0, r], 1)
        influence[r, 1] = 1.0 / max(counts[1, 0, r], 1)
    if any_kind is not None:
        regression_update_any(sums, n_dc, any_kind, group, target, with_far,
                              influence, with_n_da)
        return
    by_instance = exact.values.T  # (:mod:`.unrolled`)
    refs = np.empty(GROUP, np.int64)
    d, d_target = np.empty(GROUP), np.empty(GROUP)
    for j in range(group.dist.shape[1]):
        for s in range(2):
            bits, q = members[s, j], 0
            while bits:
                r, bits = next_member(bits)
                refs[q], d[q] = rows[r], influence[r, s]
                d_target[q] = abs(target[rows[r]] - target[j]) * d[q]
                n_dc[s] += d_target[q]
                q += 1
            if with_n_da:
                add_numeric(sums[2 * s], by_instance, refs, d, q, j)
            add_numeric(sums[2 * s + 1], by_instance, refs, d_target, q, j)


@numba.njit(cache=True)
def regression_update_any(sums, n_dc, exact, group, target, with_far,
                          influence, with_n_da):
    """:func:`regression_update` one reference at a time, for any data (not
    inlined, as :func:`class_update_any`)."""
    dist, rows, count = group.dist, group.rows, group.count
    near, far = group.near, group.far
    for j in range(dist.shape[1]):
        for r in range(count):
            i = rows[r]
            if j == i:
                continue
            if dist[r, j] < near[r]:
                s = 0
            elif with_far and dist[r, j] > far[r]:
                s = 1
            else:
                continue
            d = influence[r, s]
            d_target = abs(target[i] - target[j])
            n_dc[s] += d_target * d
            if with_n_da:
                add_diffs(sums[2 * s], exact, i, j, d)
            add_diffs(sums[2 * s + 1], exact, i, j, d_target * d)


@numba.njit(cache=True)
def pair_update(sums, scalars, exact, target, priors, hit_bound, rule,
                group, buffers):
    """The classification terms of the :class:`Group`'s references for a
    numeric `target`, one reference at a time: its hits (code 0, its own)
    the instances whose target lies within `hit_bound` of its own, the
    others its misses (code 1), as scikit-rebate 0.8 scores a continuous
    endpoint (:func:`....formulas.neighbourhoods.pair_codes`); `priors`
    those of the two codes.  Each reference is a group of its own, whose
    members (:func:`reference_members`) its terms read."""
    dist, rows = group.dist, group.rows
    codes = np.empty(dist.shape[1], np.int64)
    for r in range(group.count):
        pair_codes(target, rows[r], hit_bound, codes)
        one = slice(r, r + 1)
        reference = Group(rows[one], 1, dist[one], group.near[one],
                          group.far[one], group.scale[one])
        reference_members(reference, rule.with_far, buffers.members)
        class_terms(reference, codes, priors, rule, False, buffers, scalars)
        class_update_any(sums, exact, codes, reference, rule, False,
                         buffers.coefs, buffers.factors)


@numba.njit(inline="always", cache=True)
def class_run(refs, groups, first, end):
    """How many of refs[first:first + GROUP], before `end`, are of the class
    of refs[first], in a row (the references are ordered by class)."""
    own = groups[refs[first]]
    count = 1
    while (count < GROUP and first + count < end
           and groups[refs[first + count]] == own):
        count += 1
    return count



@numba.njit(inline="always", cache=True)
def given_rows(given, rows, count, dist):
    """dist[r, j] = the :class:`Given` distance of reference rows[r] to
    I_j, for r < count, instance by instance: an instance's distances to
    the group gathered into one vector and stored together
    (:func:`.group_lanes.lane_rows`).  The lanes past `count` take the
    last reference's row, every lane copied at each instance.  A group's
    rows at 2000 instances took 7.5 microseconds so, where numba's loop
    over the lanes, a double at a time, took 23.8 (one thread of an AMD
    EPYC, Zen 4, AVX-512)."""
    source = np.empty(GROUP, np.int64)
    for r in range(GROUP):
        source[r] = given.row_of[rows[min(r, count - 1)]]
    lane_rows(given.rows, source, dist.T)


def radius_calls(exact, any_kind, refs, given, sides, screen, values, codes,
                 targets, pairs, priors, rule, start, stop, sums):
    """(calls, work): the calls of :func:`radius_block` (which releases
    the interpreter's lock) that add references refs[start:stop] (start
    and stop multiples of UPDATE_BLOCK but the last) to their blocks'
    :class:`BlockSums` for each labelling, a block each, and their terms,
    to run on numba's number of threads where the work is worth them
    (:func:`..threads.each_call`).  Each block has its own sums, so the
    threads change no bit."""
    calls = [partial(radius_block, exact, any_kind, refs, given, sides,
                     screen, values, codes, targets, pairs, priors, rule, b,
                     min(stop, (b + 1) * UPDATE_BLOCK), sums)
             for b in range(start // UPDATE_BLOCK, -(-stop // UPDATE_BLOCK))]
    return calls, (stop - start) * exact.values.size


@numba.njit(nogil=True, cache=True)
def radius_block(exact, any_kind, refs, given, sides, screen, values, codes,
                 targets, pairs, priors, rule, b, end, sums):
    """Add the references of block b, before `end`, to partial[p, b] and
    scalars[p, b] of the :class:`BlockSums` `sums` for each labelling p,
    by the :class:`RadiusRule` `rule` and the rule of the labellings, the
    one of `codes`, `targets` and `pairs` that is not None: the
    classification rule (codes[p] the classes as int64, `priors` theirs),
    RReliefF's (targets[p] the scaled target), or the classification rule
    over the pairs of a numeric target (:class:`Pairs`,
    :func:`pair_update`).  The distances, thresholds and neighbourhoods of
    up to GROUP references of one class are found once for every
    labelling; the distances are read from the :class:`Given` distances
    `given`, or the members read off the `sides` of SURF's limit
    (:mod:`..neighbours.sides`), or computed on the `screen`
    (:mod:`..neighbours.screened`), or computed from `values` (the search
    tables' values, C order), whichever is not None.  The rules take
    their path for diffs of any kind where `any_kind` is not None
    (:func:`tables_of_any_kind`), else their numeric path.

    Each branch that reads one of these arguments is taken where it is
    not None: numba compiles a kernel without the branches of arguments
    typed None (its pruning of dead branches), so a call compiles only
    the distances and the rule it takes.  The group's distances are held
    instance by instance (dist[r, j] of the transposed array), so that
    the loops over the instances, thresholds, counts and members alike,
    read an instance's distances to the whole group at once."""
    partial, scalars = sums
    n = len(exact.groups)
    n_groups = len(priors)
    rows = np.empty(GROUP, np.int64)
    # a group's distances instance-major; zeros, as every lane is read
    dist = np.zeros((n, GROUP)).T
    no_rows = np.empty((n, 0)).T  # the sides give the members
    near, far, scale = np.empty(GROUP), np.empty(GROUP), np.empty(GROUP)
    buffers = Buffers(np.empty((2, n_groups, GROUP), np.int64),
                      np.empty((2, n), np.int64),
                      np.empty((2, n_groups), np.int64),
                      np.empty((GROUP, 2, n_groups)), np.empty((GROUP, 2)),
                      np.empty((n if rule.weighted else 0, GROUP)).T)
    first = b * UPDATE_BLOCK
    while first < end:
        count = class_run(refs, exact.groups, first, end)
        for q in range(0, count, ROWS):
            block_refs(refs, first + q, first + count, rows[q:q + ROWS])
        if given is not None:
            given_rows(given, rows, count, dist)
        if sides is not None:
            sided.sided_members(sides, rows, count, rule.with_far,
                                buffers.members)
        if screen is not None:
            screened_block(exact, screen, rows, count, dist,
                           rule.global_mean)
        if values is not None:
            distance_block(values, exact, rows, count, dist, 0)
        group = Group(rows, count, dist if sides is None else no_rows, near,
                      far, scale)
        group_limits(group, rule)
        if sides is None:
            group_members(group, rule.with_far, buffers.members)
        for p in range(len(partial)):
            if codes is not None:
                class_terms(group, codes[p], priors, rule, rule.stir,
                            buffers, scalars[p, b])
                class_update(partial[p, b], exact, any_kind, codes[p], group,
                             rule, buffers)
            if targets is not None:
                regression_update(partial[p, b], scalars[p, b], exact,
                                  any_kind, group, targets[p], rule.with_far,
                                  buffers, p == 0)
            if pairs is not None:
                pair_update(partial[p, b], scalars[p, b], exact,
                            pairs.targets[p], priors, pairs.hit_bound, rule,
                            group, buffers)
        first += count
    if targets is not None:  # N_dA, alike for all
        for p in range(1, len(partial)):
            partial[p, b, 0] = partial[0, b, 0]
            partial[p, b, 2] = partial[0, b, 2]


def radius_options(values, exact, local, far, ddof, stir, given, band,
                   weighting, sides):
    """The :class:`RadiusRule` of :func:`radius_rule`'s options, with
    SURF's T (and SWRF's deviation, `weighting` whether it counts the
    zero diagonal, :func:`...formulas.neighbourhoods.global_statistics`)
    where the limits are not the references' own, computed (each pair
    marked on the :class:`..neighbours.sides.Sides` `sides` where they
    are not None) or `given`."""
    if given is not None:
        mean, scale = given.global_mean, given.global_scale
    elif local:
        mean, scale = 0.0, 1.0
    else:
        mean, sigma = neighbourhoods.global_statistics(
            *pair_sums(values, exact, sides), values.shape[1],
            bool(weighting))
        scale = neighbourhoods.sigmoid_scale(sigma)
    return RadiusRule(
        local=bool(local), band=float(band), ddof=int(ddof),
        global_mean=float(mean),
        with_far=bool(far != neighbourhoods.NO_FAR),
        weighted=weighting is not None, global_scale=float(scale),
        stir=bool(stir))


def panel_sums(values, exact, refs, plan, calls, progress_callback):
    """The rules' sums over the references `refs` a panel of the
    :class:`..neighbours.panels.Schedule` `plan` at a time
    (:func:`..neighbours.panels.reference_rows`), `calls(given, start,
    stop)` those of :func:`radius_calls`: the rules of each panel run
    beside the distances of the next, one set of calls on the threads, so
    that neither waits for the other's last call."""
    before, before_work, done = [], 0, 0
    for start, stop, rows, row_of, columns, work in panels.reference_rows(
            values, exact, refs, plan):
        each_call(before + columns, before_work + work)
        report(progress_callback, done / len(refs))
        before, before_work = calls(given=Given(rows, row_of), start=start,
                                    stop=stop)
        done = stop
    each_call(before, before_work)
    report(progress_callback, 1.0)


def pair_distances(values, exact):
    """The distances of every pair (n x n, :func:`.....distance_rows.
    all_distances`) where they take at most KEPT_DISTANCES bytes, else
    None."""
    n = values.shape[1]
    if n * n * 8 > KEPT_DISTANCES:
        return None
    dist = np.empty((n, n))
    all_distances(values, exact, dist)
    return dist


def kept_distances(values, exact, weighting):
    """SURF's distances of every pair (:class:`GivenDistances`) where they
    take at most KEPT_DISTANCES bytes, else None: its global mean T reads
    them all, and the rule then reads their rows rather than computing
    them a second time (:func:`.....distance_rows.all_distances`, by
    symmetric halves where no value is missing).  T and SWRF's scale
    (`weighting` as in :func:`radius_options`) are summed from the rows as
    :func:`pair_sums` sums them, to the bit."""
    dist = pair_distances(values, exact)
    if dist is None:
        return None
    n = len(dist)
    totals, squares = sums_of_rows(dist)
    mean, sigma = neighbourhoods.global_statistics(
        totals.sum(), squares.sum(), n, bool(weighting))
    return neighbourhoods.GivenDistances(
        dist, np.arange(n, dtype=np.int64), mean,
        neighbourhoods.sigmoid_scale(sigma))


def tables_of_any_kind(exact):
    """None where every diff of the exact tables is |x_i - x_j|
    (:func:`..diffs.numeric_and_known`), else the tables: the rules'
    choice of their numeric path made by the type of an argument, so that
    numba compiles numeric calls without the diffs of every kind of data
    (it prunes the branches of arguments typed None), where a choice at
    run time compiled both paths into every call (the diffs of any kind
    took a third of :func:`class_update`'s compilation)."""
    return None if numeric_and_known(exact) else exact


def shares_pairs(exact, refs):
    """Whether the rules whose limits are each reference's own
    (MultiSURF's) compute each pair's distance once for the references
    `refs`: where no value is missing (the distances are then symmetric
    to the bit) and the references are distinct and at least half the
    instances (else the shared halves save little)."""
    n, m = len(exact.groups), len(refs)
    return (not any_missing(exact) and 2 * m >= n
            and len(np.unique(refs)) == m)


def local_distances(values, exact):
    """The distances of every pair (:class:`GivenDistances`) for the rules
    whose limits are each reference's own (MultiSURF's), where they take
    at most KEPT_DISTANCES bytes, else None: computed by symmetric halves
    (:func:`.....distance_rows.all_distances`), where each group of
    references would compute its rows whole, every pair twice."""
    dist = pair_distances(values, exact)
    if dist is None:
        return None
    return neighbourhoods.GivenDistances(
        dist, np.arange(len(dist), dtype=np.int64), 0.0, 1.0)


def local_given(values, exact, refs):
    """How MultiSURF's rules over the references `refs` read their
    distances: (given, plan), the distances of every pair
    (:func:`local_distances`) or, where those do not fit, the
    :class:`..neighbours.panels.Schedule` of the references in panels of
    PANEL whose pending tiles fit KEPT_DISTANCES; (None, None) where the
    references do not share their pairs (:func:`shares_pairs`), each
    group then computing its rows."""
    if not shares_pairs(exact, refs):
        return None, None
    given = local_distances(values, exact)
    if given is not None:
        return given, None
    return None, panels.schedule(len(refs), PANEL, KEPT_DISTANCES)


def screens(local, weighting, exact):
    """Whether a rule whose limits are the references' own (`local`),
    weighted by `weighting` (None, or :func:`radius_options`'), compares
    its distances only to SURF's one limit, none weighted, on numeric
    data with the linear diff and no missing value: it then reads their
    sides of the limit (:mod:`..neighbours.sides`) or their distances on a
    screen (:mod:`..neighbours.screened`)."""
    return not local and weighting is None and numeric_and_known(exact)


def radius_rule(data, refs, labels, task, local, far, ddof, stir,
                progress_callback=None, given=None,
                band=neighbourhoods.DEAD_BAND, weighting=None,
                hit_bound=None):
    """The compiled engine's :meth:`...interface.Engine.radius_rule`: the
    sums of the SURF family's rule over the references `refs` for each
    labelling (`stir` with the data's own classes only, by which the
    references are grouped)."""
    exact = for_kernels(data.exact)
    values = np.ascontiguousarray(exact.values)
    # by class (in their order within it), so that groups are of one class
    refs = refs[np.argsort(exact.groups[refs], kind="stable")]
    m = len(refs)
    plan = None
    if given is None and local:
        given, plan = local_given(values, exact, refs)
    elif given is None:
        given = kept_distances(values, exact, weighting)
    # SURF's one limit: the pairs' sides of it where their bits fit
    # KEPT_DISTANCES and hold it (settled), else the screen
    one = given is None and screens(local, weighting, exact)
    sides = sided.sides_of(values, KEPT_DISTANCES) if one else None
    rule = radius_options(values, exact, local, far, ddof, stir, given, band,
                          weighting, sides)
    if sides is not None:
        sides = sided.settled(sides, exact, rule.global_mean)
    kept = None if given is None else Given(given.rows, given.row_of)
    screen = screen_of(values) if one and sides is None else None
    computed = (values if kept is None and sides is None and screen is None
                and plan is None else None)
    classes = task == "classification"
    pairs = None if hit_bound is None else Pairs(labels, float(hit_bound))
    codes = labels.astype(np.int64) if classes and pairs is None else None
    targets = labels if not classes and pairs is None else None
    priors = data.priors if pairs is None else neighbourhoods.PAIR_PRIORS
    n_blocks = -(-m // UPDATE_BLOCK)
    partials = np.zeros((len(labels), n_blocks,
                        4 if targets is not None else 6, values.shape[0]))
    scalars = np.zeros((len(labels), n_blocks,
                        3 if targets is not None else CLASS_SCALARS))
    sums = BlockSums(partials, scalars)
    calls = partial(radius_calls, exact, tables_of_any_kind(exact), refs,
                    sides=sides, screen=screen, values=computed, codes=codes,
                    targets=targets, pairs=pairs, priors=priors, rule=rule,
                    sums=sums)
    if plan is None:
        bounds = step_bounds(n_blocks, progress_callback) * UPDATE_BLOCK
        for start, stop in zip(bounds[:-1], np.minimum(bounds[1:], m)):
            each_call(*calls(given=kept, start=start, stop=stop))
            report(progress_callback, stop / m)
    else:
        panel_sums(values, exact, refs, plan, calls, progress_callback)
    return (np.array([blocks.sum(axis=0) for blocks in partials]),
            scalars.sum(axis=1))

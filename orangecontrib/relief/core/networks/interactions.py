"""The Relief interaction map: which attributes act together, from the
neighbour pairs the weights use.

A Relief method's weight of an attribute is a sum over its (reference,
neighbour) pairs, each with a multiplier u_p as a miss and v_p as a hit
(:mod:`.neighbour_pairs`)::

    W[A] = sum_p (u_p - v_p) d_p(A)         d_p(A) = diff(A, reference, neighbour)

Over the same pairs with the same multipliers, a pair of attributes (A, B)
has the co-difference

    I(A, B) = sum_p (u_p - v_p) d_p(A) d_p(B) = w+ E+[d(A) d(B)] - w- E-[d(A) d(B)]

(E+ and E- the means over the misses and the hits weighted by u and v,
w+ and w- their totals, 1 for ReliefF): how much more often A and B
differ together between near instances of different classes than between
near instances of the same class.  Its diagonal I(A, A) is the weight
W[A] where the diffs are 0 or 1 (nominal attributes).  Were A and B to
act each on its own, their diffs would be about independent among the
misses and among the hits, and I(A, B) near the product of the marginals
w+ E+[d(A)] E+[d(B)] - w- E-[d(A)] E-[d(B)].  The map is what remains:

    Delta(A, B) = w+ Cov+(d(A), d(B)) - w- Cov-(d(A), d(B))

On a pure XOR of A and B a miss differs in exactly one of them and a hit
in both or neither, so Cov+ is -E+[d(A)] E+[d(B)] (about -1/4) and Cov-
is positive: Delta(A, B) is strongly negative, the largest entry in
magnitude.  A pair of attributes with main effects alone has a small
Delta, not 0: neighbours found at a small distance differ in few
attributes, so that any two diffs are negatively dependent, the more so
among the misses, where the relevant attributes differ more often
(``doc/interactions.md`` derives it and checks it on data with known
answers).

Delta is a sum of the references' shares: z_i, the centred products
(d(A) - E+[d(A)]) (d(B) - E+[d(B)]) of reference i's misses weighted by
u, less those of its hits (centred by E-) weighted by v.  Each entry is
tested as the weights of Relief are averages of the references'
updates: the one-sample t of the z_i over the m references (m - 1
degrees of freedom; a STIR-like t, Le et al. 2019, that keeps the pairs
of a reference together), two-sided, the p-values adjusted for the
K (K - 1) / 2 pairs.  The references overlap (an instance is the
neighbour of many), so the t is optimistic: read small p-values as a
ranking and confirm a finding on new data.  The t compares hits with
misses and needs a class.  The label-permutation test
(:mod:`.map_permutations`) holds its level and takes a numeric target as
well, at the cost of computing the map again for every permutation.

This module imports neither Orange nor Qt.

References
----------
Le, T. T., Urbanowicz, R. J., Moore, J. H., McKinney, B. A. (2019).
STatistical Inference Relief (STIR) feature selection. Bioinformatics
35(8):1358-1365.
"""
from collections import namedtuple

import numpy as np
from scipy.cluster.hierarchy import leaves_list, linkage
from scipy.spatial.distance import squareform
from scipy.special import stdtr

from ..compact.planes import MAX_CODES
from ..errors import ReliefInputError
from .map_permutations import permutation_map_test
from .neighbour_pairs import method_pairs
from ..options import (ABSOLUTE, ADJUSTMENT, DEVIATION, DIFF, N_PERMUTATIONS,
                       RANDOM_STATE, T_DIFF, T_EQ, TIES, OneOf, Optional,
                       PositiveInt, check)
from ..progress import report, wrap_callback
from ..analysis.significance import adjust
from ..analysis.threshold import best_first

#: the default number of attributes in the map (the best by weight)
TOP_K = 30
#: the entries' test: the t of the references' shares, label
#: permutations, or None (none)
TEST = Optional(OneOf("t", "permutation"), "no test")
#: references whose neighbours are counted at once (an n-wide bit set
#: each, :func:`counted_pair_sums`)
REFERENCE_ROWS = 512
#: the shares of the run spent finding the pairs and mapping them (for
#: progress), by test; the permutations take the rest
SHARES = {"t": (0.6, 1.0), None: (0.6, 1.0), "permutation": (0.05, 0.1)}

InteractionMap = namedtuple("InteractionMap", [
    "attributes",      # (K,) the mapped attributes' indices, best first
    "weights",         # (a,) the method's weights of every attribute
    "interaction",     # (K, K) Delta, symmetric; its diagonal W+ Var+ - ..
    "co_difference",   # (K, K) I (its diagonal the weights for 0/1 diffs)
    "marginal",        # (K, K) the product of the marginals, I - Delta
    "statistic",       # (K, K) the t of Delta, NaN off the t
    "p",               # (K, K) two-sided p-values (NaN: no test)
    "q",               # (K, K) p adjusted over the K (K - 1) / 2 pairs
    "df",              # degrees of freedom of the t, references - 1
    "n_pairs",         # the number of neighbour pairs
    "notes",           # tuple of str: what was left out or untested, why
    "test",            # "t", "permutation" or None
    "n_permutations",  # the permutations of the test (0 without them)
])


def interaction_map(X, y, discrete=None, *, method="relieff",
                    task="classification", top_k=None, attributes=None,
                    absolute=ABSOLUTE, test="t", adjustment=ADJUSTMENT,
                    n_permutations=N_PERMUTATIONS,
                    random_state=RANDOM_STATE, k_nearest=None,
                    deviation=DEVIATION, weighting="exp_rank", sigma=None,
                    diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF, ties=TIES,
                    names=None, progress_callback=None):
    """The interaction map of the best `top_k` attributes (or of
    `attributes`) over `method`'s neighbour pairs.

    Parameters
    ----------
    X, y, discrete
        As every estimator's: attributes (NaN missing, nominal ones as
        codes), the class codes or (``task="regression"``) a number, the
        nominal columns.
    method : "relief", "relieff", "surf", "surf*", "multisurf" or
        "multisurf*"
        Whose neighbour pairs and multipliers (:mod:`.neighbour_pairs`;
        every instance a reference, the SURF family's near sets).
    top_k : int or None
        Map the best `top_k` attributes by the method's weights (with
        `absolute` by their magnitude); None: the best :data:`TOP_K`, or
        every attribute where there are fewer.  Attributes that never
        differ over the pairs (constant ones) are left out first.
    attributes : sequence of int or None
        Map these attributes instead (in this order).
    test : "t", "permutation" or None
        The STIR-like t of every entry (classification only), the
        label-permutation test (:mod:`.map_permutations`), or none.
    adjustment : "bh", "holm" or "bonferroni"
    n_permutations, random_state
        Of the permutation test: how many, and the seed (equal seeds,
        equal p-values, whatever the order of the rows).
    k_nearest, deviation, weighting, sigma, diff, t_eq, t_diff, ties
        The method's options (:func:`.neighbour_pairs.method_pairs`).
    names : sequence of str or None
        The attributes' names, for the notes (default "attribute i").
    progress_callback : callable(float) or None

    Returns
    -------
    InteractionMap

    Raises
    ------
    ReliefInputError
        Fewer than two attributes to map, `top_k` above the attributes, a
        t on a numeric target, bad options.
    """
    test = TEST("test", test)
    if test == "permutation":
        n_permutations = check("n_permutations", n_permutations)
        random_state = check("random_state", random_state)
    absolute = check("absolute", absolute)
    adjustment = check("adjustment", adjustment)
    n_attributes = np.shape(X)[1] if np.ndim(X) == 2 else 0
    if n_attributes < 2:
        raise ReliefInputError(
            f"The interaction map needs at least two attributes (it maps "
            f"pairs), got {n_attributes}.")
    top_k = Optional(PositiveInt(), f"the best {TOP_K}")("top_k", top_k)
    if top_k is not None and top_k > n_attributes:
        raise ReliefInputError(
            f"top_k={top_k} is more than the {n_attributes} attributes; "
            f"give at most {n_attributes}.")
    top_k = min(TOP_K, n_attributes) if top_k is None else top_k
    if test == "t" and task == "regression":
        raise ReliefInputError(
            "The interaction map's t compares the pairs of hits with those "
            "of misses and needs a class; the target is numeric "
            "(test=\"permutation\" tests it, test=None maps it untested).")
    names = ([f"attribute {i}" for i in range(n_attributes)]
             if names is None else list(names))
    search = dict(method=method, task=task, k_nearest=k_nearest,
                  deviation=deviation, weighting=weighting, sigma=sigma,
                  diff=diff, t_eq=t_eq, t_diff=t_diff, ties=ties)
    searched, mapped = SHARES[test]
    pairs = method_pairs(X, y, discrete, **search,
                         progress_callback=wrap_callback(
                             progress_callback, 0, searched))
    weights, differs, sums = pair_weights(pairs)
    notes = []
    if attributes is None:
        silent = np.flatnonzero(~differs)
        if len(silent):
            notes.append(f"left out, never differing over the neighbour "
                         f"pairs (constant): {listed(names, silent)}")
        order = [a for a in best_first(weights, absolute) if differs[a]]
        chosen = np.array(order[:top_k], np.int64)
    else:
        chosen = np.unique(np.asarray(attributes, np.int64),
                           return_index=True)
        chosen = np.asarray(attributes, np.int64)[np.sort(chosen[1])]
        if len(chosen) < 2 or chosen.min() < 0 \
                or chosen.max() >= n_attributes:
            raise ReliefInputError(
                f"attributes must name at least two distinct columns in "
                f"0..{n_attributes - 1}, got {list(attributes)!r}.")
    if len(chosen) < 2:
        raise ReliefInputError(
            "The interaction map needs at least two attributes that "
            "differ over the neighbour pairs.")
    t = "t" if test == "t" else None
    terms = map_terms(pairs, chosen, sums[chosen], t, wrap_callback(
        progress_callback, searched, mapped))
    result = map_of(terms, t, adjustment)
    if test == "permutation":
        p, tested = permutation_map_test(
            pairs, X, y, discrete, chosen, search, n_permutations,
            random_state, wrap_callback(progress_callback, mapped, 1))
        p = np.where(tested, p, np.nan)
        result = result[:4] + (p, adjusted(p, adjustment), np.nan)
    notes.extend(untested_notes(result, chosen, names, test))
    report(progress_callback, 1.0)
    return InteractionMap(chosen, weights, *result, len(pairs.first),
                          tuple(notes), test,
                          n_permutations if test == "permutation" else 0)


def listed(names, indices, most=5):
    """The names of `indices`, at most `most` of them and how many more."""
    shown = ", ".join(names[i] for i in indices[:most])
    more = len(indices) - most
    return shown + (f" and {more} more" if more > 0 else "")


def pair_weights(pairs):
    """The method's weights of every attribute from the pairs, sum_p
    (u_p - v_p) d_p(A); whether each attribute differs on any pair; and
    the sums of its diffs weighted by u and by v, (a, 2): one pass over
    the diffs of every attribute (the engine's ``pair_sums``), or counted
    where :func:`class_multipliers` and :func:`nominal_levels` allow
    (:func:`counted_pair_sums`)."""
    levels = nominal_levels(pairs.data.exact)
    cells = class_multipliers(pairs) if counts_pay(pairs, levels) else None
    if cells is not None:
        sums = counted_pair_sums(pairs, cells, levels)
    else:
        sums = pairs.kernels.pair_sums(pairs.data.exact, pairs.first,
                                       pairs.second, pairs.miss, pairs.hit)
    # the diffs are >= 0: a sum over the pairs is > 0 where any is
    return sums[0], sums[3] > 0, sums[1:3].T


def class_multipliers(pairs):
    """(u, v), each (n, classes): the multipliers of every pair as those
    of its reference and its neighbour's class, where every pair of a
    reference and a class has the same (the SURF family's near sets of a
    class); else None."""
    data = pairs.data
    if pairs.rank is not None or data.n_groups < 1:
        return None
    cell = pairs.first * data.n_groups + data.groups[pairs.second]
    u = np.zeros(data.n_instances * data.n_groups)
    v = np.zeros_like(u)
    u[cell], v[cell] = pairs.miss, pairs.hit
    if not (np.array_equal(u[cell], pairs.miss)
            and np.array_equal(v[cell], pairs.hit)):
        return None
    return (u.reshape(data.n_instances, data.n_groups),
            v.reshape(data.n_instances, data.n_groups))


def nominal_levels(tables):
    """The codes (n, a) of data whose attributes are all nominal, none
    missing, of at most :data:`..compact.planes.MAX_CODES` values (the
    diffs 0 or 1 that bit planes count); else None."""
    values = tables.values
    if (not tables.nominal.all() or values.size == 0
            or np.isnan(values).any() or values.min() < 0
            or values.max() >= MAX_CODES
            or not np.array_equal(values, np.rint(values))):
        return None
    return values.T.astype(np.uint8)


def counts_pay(pairs, codes):
    """Whether counting (:func:`counted_pair_sums`, a reference's words
    of n bits per class and level) reads fewer words than the pairs
    hold diffs: many neighbours per reference (near sets), few classes
    and levels; `codes` those of :func:`nominal_levels`."""
    if codes is None:
        return False
    data = pairs.data
    words = -(-data.n_instances // 64)
    above = int(codes.max(initial=0))
    return above > 0 and len(pairs.first) > (data.n_instances
                                             * data.n_groups * above * words)


def counted_pair_sums(pairs, cells, codes, block=REFERENCE_ROWS):
    """The sums of :func:`pair_weights` (the engine's ``pair_sums``, 4 x
    a) by counting: each reference's neighbours of each class as bits,
    the sum of an attribute's diffs over them the number at another level
    than the reference's (the engine's ``level_sums``, popcounts), whole
    numbers, times the multipliers of the reference and the class, added
    over the references in their order (so the same with any number of
    threads)."""
    data, kernels = pairs.data, pairs.kernels
    n, n_levels = data.n_instances, int(codes.max()) + 1
    tables = kernels.level_tables(codes, n_levels)
    level = np.arange(n_levels)
    u, v = cells
    sums = np.zeros((3, codes.shape[1]))
    starts = np.searchsorted(pairs.first, np.arange(0, n + block, block))
    for r0, (p0, p1) in zip(range(0, n, block), zip(starts[:-1],
                                                     starts[1:])):
        refs = np.arange(r0, min(r0 + block, n))
        members = np.zeros((len(refs), n), bool)
        members[pairs.first[p0:p1] - r0, pairs.second[p0:p1]] = True
        ref_diffs = np.ascontiguousarray(
            codes[refs][:, :, None] != level[None, None, :], np.float64)
        counted, _, _ = kernels.level_sums(members, data.groups,
                                           data.n_groups, tables, ref_diffs,
                                           False)
        sums += np.stack([np.einsum("arc,rc->a", counted, u[refs]),
                          np.einsum("arc,rc->a", counted, v[refs]),
                          counted.sum(axis=(1, 2))])
    return np.vstack([sums[0] - sums[1], sums])


def group_means(pairs, sums):
    """(total, mean): the misses' and the hits' total multipliers w+ and
    w-, and the means of the chosen attributes' diffs over each, weighted
    by u and v, (2, K), from their weighted `sums` (K, 2)."""
    total = np.array([pairs.miss.sum(), pairs.hit.sum()])
    with np.errstate(divide="ignore", invalid="ignore"):
        return total, np.where(total[:, None] > 0, sums.T / total[:, None], 0)


def map_terms(pairs, attributes, sums, test, progress_callback):
    """(total, mean, sum of z, sum of z^2, references): each reference
    i's share z_i of Delta, its pairs' centred products weighted by u
    (misses) less those weighted by v (hits), summed over i (Delta) and,
    for the test, squared and summed (the engine's ``map_sums``).
    `sums` are the attributes' diffs summed over the pairs weighted by u
    and v (:func:`pair_weights`)."""
    total, mean = group_means(pairs, sums)
    delta, squares = pairs.kernels.map_sums(
        pairs.data.exact, pairs.first, pairs.second, pairs.miss, pairs.hit,
        attributes, mean, test is not None)
    report(progress_callback, 1.0)
    # the pairs of a reference are together: its references are the runs
    references = (int(np.count_nonzero(np.diff(pairs.first))) + 1
                  if len(pairs.first) else 0)
    return total, mean, delta, squares, references


def map_of(terms, test, adjustment):
    """(interaction, co_difference, marginal, statistic, p, q, df) of the
    terms of :func:`map_terms` (the module's docstring): the t of each
    entry is that of the mean of the references' shares z_i."""
    total, mean, interaction, squares, m = terms
    k = len(interaction)
    marginal = (total[0] * np.outer(mean[0], mean[0])
                - total[1] * np.outer(mean[1], mean[1]))
    co_difference = interaction + marginal
    nan = np.full((k, k), np.nan)
    if test is None or m < 2:
        return interaction, co_difference, marginal, nan, nan, nan, np.nan
    average = interaction / m
    with np.errstate(divide="ignore", invalid="ignore"):
        deviation = np.sqrt(np.maximum(squares - m * average ** 2, 0)
                            / (m - 1))
        statistic = average / (deviation / np.sqrt(m))
    spread = deviation > 1e-12 * np.maximum(np.abs(average), 1e-300)
    statistic = np.where(spread & np.isfinite(statistic), statistic, np.nan)
    df = m - 1
    p = 2 * stdtr(df, -np.abs(statistic))
    return (interaction, co_difference, marginal, statistic, p,
            adjusted(p, adjustment), df)


def adjusted(p, adjustment):
    """The (K, K) p-values `p` adjusted over the K (K - 1) / 2 pairs of
    the map (its upper triangle), NaN ones left out; the diagonal NaN;
    `adjustment` checked already."""
    k = len(p)
    upper = np.triu_indices(k, 1)
    q = np.full((k, k), np.nan)
    tested = ~np.isnan(p[upper])
    values = np.full(len(upper[0]), np.nan)
    if tested.any():
        values[tested] = adjust.unchecked(p[upper][tested], adjustment)
    q[upper] = values
    q.T[upper] = values
    return q


def untested_notes(result, chosen, names, test):
    """A note naming the pairs of the map without a test (they never
    differ together, or one of them never differs, over the pairs)."""
    if test is None:
        return []
    p = result[4]
    upper = np.triu_indices(len(chosen), 1)
    missing = np.isnan(p[upper])
    if not missing.any():
        return []
    pairs = [f"{names[chosen[a]]} x {names[chosen[b]]}"
             for a, b in zip(upper[0][missing], upper[1][missing])]
    shown = "; ".join(pairs[:5]) + (f" and {len(pairs) - 5} more"
                                    if len(pairs) > 5 else "")
    return [f"no test where the diffs' products do not vary over the hits "
            f"and the misses (a pair that never differs): {shown}"]


def strongest_pairs(result, absolute=True):
    """The (first, second) positions in the map of its pairs, strongest
    first: by |Delta| (or by Delta), ties to the earlier pair."""
    k = len(result.attributes)
    upper = np.triu_indices(k, 1)
    order = best_first(result.interaction[upper], absolute)
    return [(int(upper[0][i]), int(upper[1][i])) for i in order]


def clustered_order(matrix):
    """An order of the map's attributes that puts those of strong
    interactions with each other next to one another: average linkage on
    the distance 1 - |M| / max |M| (the diagonal left out), as a heat map
    shows them."""
    strength = np.abs(np.nan_to_num(np.asarray(matrix, np.float64)))
    k = len(strength)
    if k < 3:
        return np.arange(k)
    np.fill_diagonal(strength, 0)
    top = strength.max()
    distance = 1 - (strength / top if top > 0 else strength)
    np.fill_diagonal(distance, 0)
    distance = (distance + distance.T) / 2
    return leaves_list(linkage(squareform(distance, checks=False),
                               "average"))

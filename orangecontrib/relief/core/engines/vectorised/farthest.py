"""mu-Relief's neighbourhood: each reference's k instances of each class
whose distances lie farthest from the class's mean distance
(:mod:`...formulas.mean_farthest`).

A block of references' exact distances to every instance (:class:`.diffs.
Rows`, the distances of the k-nearest search) gives their deviations
|D - mu_c| (:func:`class_mean_deviations`, the compiled kernel's floats),
which :func:`farthest_lists` ranks, the largest first; scikit-rebate
0.8's deviations (:func:`scikit_rebate_deviations`, by ``np.mean``) are
ranked by numpy's sort, as it ranks them (:func:`argsort_selection`).
Memory: a block of references x n per thread, never n x n.  The compiled
engine (:mod:`..compiled.neighbours.farthest`) computes the deviations
in its kernels, ranks scikit-rebate's where their order does not depend
on the sort's, and the others here.
"""
from dataclasses import replace

import numpy as np

from ...formulas.ties import LOWER_INDEX
from ...neighbours import Neighbours, lists_of
from ...formulas.ties import TIES
from .diffs import Rows
from .neighbours import BLOCK_ENTRIES, blocks, lists_of_rows
from .sums import in_order
from .threads import each


def class_mean_deviations(dist, refs, groups, members):
    """(rows, n): |D(R, j) - mu_c(R)| of each row of `dist` (the
    distances of the references `refs` to every instance), mu_c(R) the
    mean distance of R to the other instances of j's class c, added in
    instance order; the reference's own entry 0.  The floats of
    :func:`...formulas.mean_farthest.class_mean_deviations`."""
    rows = np.arange(len(refs))
    means = np.zeros((len(refs), len(members)))
    for g, group in enumerate(members):
        terms = dist[:, group]
        own = groups[refs] == g
        terms[rows[own], np.searchsorted(group, refs[own])] = 0.0
        count = len(group) - own
        total = in_order(terms, 1)
        means[:, g] = np.divide(total, count, out=np.zeros(len(refs)),
                                where=count > 0)
    deviation = np.abs(dist - means[:, groups])
    deviation[rows, refs] = 0.0
    return deviation


def farthest_lists(deviation, dist, refs, members, groups, k, ties,
                   scikit_rebate):
    """The :class:`...neighbours.Neighbours` of the references `refs`
    from their deviations (rows x n): per class, the k largest, the
    entries' `distance` their distances `dist`.

    By the tie rule `ties` the candidates tied at the k-th deviation
    share the last places, as in a k-nearest list (ranked by -deviation,
    the reference left out).  With `scikit_rebate` (a number, not None),
    the deviations are scikit-rebate 0.8's (:func:`scikit_rebate_deviations`)
    and so is the selection (:func:`argsort_selection`): the instances in the
    order of numpy's ``argsort(deviation)[::-1]`` over every instance, the
    reference (deviation 0) among them, the first k of each class taken,
    one place each (its order of equal deviations, that of numpy's sort;
    the reference its own hit where its class has fewer than k others)."""
    if scikit_rebate is not None:
        selected, counts = argsort_selection(deviation, groups,
                                             len(members), k)
        return selected_lists(selected, counts,
                              selected_distances(selected, dist), k)
    rows = np.arange(len(refs))
    key = -deviation
    key[rows, refs] = np.inf
    lists = lists_of_rows(key, members, k, ties)
    return replace(lists, distance=dist[lists.owner, lists.index])


def scikit_rebate_deviations(dist, refs, members, divisor):
    """The deviations as scikit-rebate 0.8 computes them from its
    distances, ours `dist` (rows x n) divided by `divisor`: each class's
    mean by ``np.mean`` of its distances but the reference's, in instance
    order; the reference's own 0.  Their floats, and so its ties, are
    scikit-rebate's where its distances are (:func:`farthest_lists`)."""
    dist = dist / divisor
    deviation = np.zeros_like(dist)
    for group in members:
        if not len(group):
            continue
        values = dist[:, group]
        holds = groups_hold(group, refs)
        own, others = np.flatnonzero(holds), np.flatnonzero(~holds)
        means = np.zeros(len(refs))
        if len(others):
            means[others] = np.mean(values[others], axis=1)
        if len(own) and len(group) > 1:
            keep = np.ones((len(own), len(group)), bool)
            keep[np.arange(len(own)), np.searchsorted(group, refs[own])] = False
            means[own] = np.mean(values[own][keep].reshape(len(own), -1),
                                 axis=1)
        deviation[:, group] = np.abs(values - means[:, None])
    deviation[np.arange(len(refs)), refs] = 0.0
    return deviation


def groups_hold(group, refs):
    """Whether each reference is in `group` (sorted instance numbers, at
    least one)."""
    at = np.minimum(np.searchsorted(group, refs), len(group) - 1)
    return group[at] == refs


def argsort_selection(deviation, groups, n_groups, k):
    """scikit-rebate 0.8's selection of each row of `deviation`: the first
    k of each group in the order of ``np.argsort(row)[::-1]``, as
    (selected (rows, G, k) instance numbers, counts (rows, G)).  numpy
    sorts each row of a block as it sorts the row alone, so that the
    order of equal deviations is scikit-rebate's."""
    order = np.argsort(deviation, axis=1)[:, ::-1]
    of_group = groups[order]
    selected = np.zeros((len(deviation), n_groups, k), np.int64)
    counts = np.zeros((len(deviation), n_groups), np.int64)
    for g in range(n_groups):
        in_group = of_group == g
        rank = np.cumsum(in_group, axis=1)
        row, place = np.nonzero(in_group & (rank <= k))
        selected[row, g, rank[row, place] - 1] = order[row, place]
        counts[:, g] = np.minimum(rank[:, -1], k)
    return selected, counts


def selected_distances(selected, dist):
    """(rows, G, k): the distances ``dist[r, selected[r, g, p]]`` of a
    selection's instances (:func:`argsort_selection`'s), `dist` (rows x
    n) each row's distances."""
    return dist[np.arange(len(dist))[:, None, None], selected]


def selected_lists(selected, counts, distance, k):
    """The :class:`...neighbours.Neighbours` of a selection (
    :func:`argsort_selection`'s), one place each, the entries' distances
    `distance` (:func:`selected_distances`)."""
    n_groups = counts.shape[1]
    taken = np.arange(k) < counts[:, :, None]
    return Neighbours.ranked(k, n_groups,
                             np.concatenate([[0], np.cumsum(counts)]),
                             selected[taken], distance[taken], LOWER_INDEX)


def mean_farthest_neighbours(data, refs, k, ties=TIES, scikit_rebate=None,
                             progress_callback=None):
    """mu-Relief's :class:`...neighbours.NeighbourLists`: for each
    reference and class, the k instances farthest from the class's mean
    distance (:func:`farthest_lists`; `scikit_rebate` None, or the
    divisor of the distances in scikit-rebate's own selection)."""
    exact, n_groups, groups = data.exact, data.n_groups, data.groups
    n = exact.values.shape[1]
    k = min(k, n)
    rows = Rows(exact)
    members = [np.flatnonzero(groups == g) for g in range(n_groups)]

    def lists_of_unique(unique):
        found = {}

        def search(block):
            part = unique[block]
            dist = rows.distances(part, np.empty((len(part), n)))
            deviation = (class_mean_deviations(dist, part, groups, members)
                         if scikit_rebate is None else
                         scikit_rebate_deviations(dist, part, members,
                                                  scikit_rebate))
            dist[np.arange(len(part)), part] = 0.0
            found[block.start] = farthest_lists(
                deviation, dist, part, members, groups, k, ties,
                scikit_rebate)

        size = max(1, BLOCK_ENTRIES // max(n, 1))
        each(search, blocks(0, len(unique), size, n * exact.values.shape[0]))
        return Neighbours.concatenate([found[s] for s in sorted(found)], k,
                                      n_groups, ties)

    return lists_of(refs, k, n_groups, lists_of_unique, progress_callback, n)

"""mu-Relief's neighbourhood: each reference's k instances of each class
whose distances lie farthest from the class's mean distance
(:mod:`...formulas.mean_farthest`).

A block of references' exact distances to every instance (:class:`.diffs.
Rows`, the distances of the k-nearest search) gives their deviations
|D - mu_c| (:func:`class_mean_deviations`, the compiled kernel's floats),
which :func:`farthest_lists` ranks, the largest first.  Memory: a block
of references x n per thread, never n x n.  The compiled engine
(:mod:`..compiled.neighbours.farthest`) computes the deviations in its
kernels and ranks them here.
"""
from dataclasses import replace

import numpy as np

from ...formulas.ties import LOWER_INDEX
from ...neighbours import Neighbours, lists_of
from ...options import TIES
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
    from their deviations (rows x n; unused with `scikit_rebate`): per
    class, the k largest, the entries' `distance` their distances `dist`.

    By the tie rule `ties` the candidates tied at the k-th deviation
    share the last places, as in a k-nearest list (ranked by -deviation,
    the reference left out).  With `scikit_rebate` (a number, not None),
    scikit-rebate 0.8's own selection from its own deviations
    (:func:`scikit_rebate_deviations`, the distances divided by
    `scikit_rebate`) instead: the instances in the order of numpy's
    ``argsort(deviation)[::-1]`` over every instance, the reference
    (deviation 0) among them, the first k of each class taken, one place
    each (its order of equal deviations, that of numpy's sort; the
    reference its own hit where its class has fewer than k others)."""
    if scikit_rebate is not None:
        deviation = scikit_rebate_deviations(dist / scikit_rebate, refs,
                                             members)
        return argsort_lists(deviation, dist, groups, len(members), k)
    rows = np.arange(len(refs))
    key = -deviation
    key[rows, refs] = np.inf
    lists = lists_of_rows(key, members, k, ties)
    return replace(lists, distance=dist[lists.owner, lists.index])


def scikit_rebate_deviations(dist, refs, members):
    """The deviations as scikit-rebate 0.8 computes them from its
    distances `dist` (rows x n): each class's mean by ``np.mean`` of its
    distances but the reference's, in instance order; the reference's
    own 0.  Their floats, and so its ties, are scikit-rebate's where its
    distances are (:func:`farthest_lists`)."""
    deviation = np.zeros_like(dist)
    for row, ref in enumerate(refs):
        for group in members:
            others = group[group != ref]
            if len(others):
                values = dist[row, others]
                deviation[row, others] = np.abs(values - np.mean(values))
    return deviation


def argsort_lists(deviation, dist, groups, n_groups, k):
    """scikit-rebate 0.8's lists: per row, the first k of each group in
    the order of ``np.argsort(row)[::-1]`` (one row at a time, as it
    sorts them), share 1 each."""
    lists = []
    for row in range(len(deviation)):
        order = np.argsort(deviation[row])[::-1]
        of_group = groups[order]
        lists += [order[of_group == g][:k] for g in range(n_groups)]
    counts = [len(entries) for entries in lists]
    index = np.concatenate(lists)
    owner = np.repeat(np.arange(len(counts)) // n_groups, counts)
    return Neighbours.ranked(k, n_groups, np.concatenate([[0],
                                                          np.cumsum(counts)]),
                             index, dist[owner, index], LOWER_INDEX)


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
            deviation = (None if scikit_rebate is not None else
                         class_mean_deviations(dist, part, groups, members))
            dist[np.arange(len(part)), part] = 0.0
            found[block.start] = farthest_lists(
                deviation, dist, part, members, groups, k, ties,
                scikit_rebate)

        size = max(1, BLOCK_ENTRIES // max(n, 1))
        each(search, blocks(0, len(unique), size, n * exact.values.shape[0]))
        return Neighbours.concatenate([found[s] for s in sorted(found)], k,
                                      n_groups, ties)

    return lists_of(refs, k, n_groups, lists_of_unique, progress_callback, n)

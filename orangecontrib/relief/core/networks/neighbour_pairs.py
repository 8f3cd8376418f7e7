"""A Relief method's neighbour pairs with their multipliers in its update.

Every Relief weight is a weighted sum over (reference, neighbour) pairs::

    W[A] = sum_p (u_p - v_p) diff(A, p)

u_p >= 0 the pair's multiplier as a miss (different classes, or for a
numeric target its share of "different target"), v_p >= 0 as a hit.  The
interaction map (:mod:`.interactions`) reads the same pairs with the same
multipliers, so that its diagonal is the method's weights where the diffs
are 0 or 1.  :func:`method_pairs` finds them:

* ReliefF (and Relief, k = 1): the k nearest of each class to every
  reference, a hit -1 / (k m), a miss of class C P(C) / (1 - P(class(R)))
  / (k m) (Kononenko 1994), each times its share of the list's places
  (the candidates tied at the k-th distance share the places left,
  :class:`..neighbours.Neighbours`); RReliefF: the k nearest, weighted by rank,
  split by |y_R - y_I| (Robnik-Sikonja & Kononenko 1997), as
  :func:`..subsets.rfsm.classification_pairs` and
  :func:`..subsets.rfsm.regression_pairs` weigh them;
* the SURF family: every instance of the near set of every reference
  (SURF's mean distance, MultiSURF's mean less half a deviation), a hit
  -1 / (hits m), a miss of class C by ReliefF's prior renormalised over
  the classes present, / (misses of C) / m
  (:func:`..formulas.neighbourhoods.class_coefficients`), or for a number
  RReliefF's rule with every near neighbour of equal weight.  SURF*'s and
  MultiSURF*'s far sets are left out: the map is over the near pairs.

:func:`pairs_of_lists` is the one place that reads the engines' k-nearest
lists.
"""
from collections import namedtuple
from dataclasses import replace

import numpy as np

from ..errors import ReliefInputError
from ..variants.estimators import neighbours_of, prepared, rank_weights
from ..formulas.neighbourhoods import SIGMAS
from ..formulas.npdr import MULTISURF_LIMIT, SURF_LIMIT
from ..options import (DEVIATION, DIFF, K_RELIEFF, K_RRELIEFF, T_DIFF, T_EQ,
                       TIES, check, check_choice)
from ..prepare import TASKS
from ..sampling import check_memory
from ..validation import validated
from ..subsets.rfsm import (classification_pairs, regression_coefficients,
                            regression_ranks)

#: the methods whose pairs :func:`method_pairs` finds, by neighbourhood
K_NEAREST_METHODS = ("relief", "relieff")
NEAR_SET_METHODS = {"surf": SURF_LIMIT, "surf*": SURF_LIMIT,
                    "multisurf": MULTISURF_LIMIT, "multisurf*": MULTISURF_LIMIT}
METHODS = K_NEAREST_METHODS + tuple(NEAR_SET_METHODS)
#: bytes a pair takes: its two instances, its two multipliers
BYTES_PER_PAIR = 24

NeighbourPairs = namedtuple("NeighbourPairs", [
    "first",   # int64 (P,) the reference of each pair
    "second",  # int64 (P,) its neighbour
    "miss",    # float64 (P,) u_p, the pair's multiplier as a miss
    "hit",     # float64 (P,) v_p, as a hit (W = sum (u - v) diff)
    "data",    # the PreparedData whose exact tables give the diffs
    "kernels",  # the engine that found them (its pair_diffs)
    "rank",    # float64 (P,) RReliefF's rank weight d of each pair, or None
], defaults=(None,))


@validated(k_nearest=None)  # None: the default of the task
def method_pairs(X, y, discrete=None, *, method="relieff",
                 task="classification", k_nearest=None, deviation=DEVIATION,
                 weighting="exp_rank", sigma=None, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, ties=TIES, progress_callback=None):
    """The neighbour pairs of `method` on (X, y) with their multipliers,
    every instance a reference.

    Parameters
    ----------
    method : "relief", "relieff", "surf", "surf*", "multisurf" or
        "multisurf*"
    task : "classification" or "regression"
    k_nearest : int or None
        Of "relieff": per class (classification, default 10) or in all
        (regression, default 50); Relief's is 1.
    deviation : "population" or "sample"
        Of MultiSURF's thresholds.
    weighting, sigma
        RReliefF's rank weights (:func:`..variants.estimators.rank_weights`).
    diff, t_eq, t_diff
        The diff of numeric attributes.
    ties : "share" or "lower-index"
        Of the k-nearest lists: the candidates tied at the k-th distance
        share the places left (each pair's multipliers times its share, so
        that the pairs do not depend on the order of the rows), or the
        lower indices take them.  The near sets have no ties to break.

    Returns
    -------
    NeighbourPairs
    """
    method = check_choice("method", method, METHODS)
    task = check_choice("task", task, TASKS)
    data, refs, kernels = prepared(X, y, discrete, None, None, task=task,
                                   diff=diff, t_eq=t_eq, t_diff=t_diff)
    if data.n_instances < 2:
        raise ReliefInputError("The interaction map needs at least two "
                               "instances with a known target.")
    if method in K_NEAREST_METHODS:
        if method == "relief":
            k = 1
        else:
            default = K_RELIEFF if task == "classification" else K_RRELIEFF
            k = check("k_nearest", default if k_nearest is None
                      else k_nearest)
        lists = neighbours_of(kernels, data, refs, k, None,
                              progress_callback, ties=ties).whole()
        weights = (rank_weights(k, weighting, sigma, count=data.n_instances)
                   if task == "regression" else None)
        return pairs_of_lists(data, refs, lists, weights, kernels)
    ddof = SIGMAS[deviation]
    check_memory("the neighbour pairs",
                 data.n_instances ** 2 // 3 * BYTES_PER_PAIR)
    first, second = kernels.neighbour_pairs(
        data, NEAR_SET_METHODS[method], 1, ddof, False, None,
        progress_callback)
    first, second = first.astype(np.int64), second.astype(np.int64)
    miss, hit = near_set_multipliers(data, first, second, task)
    return NeighbourPairs(first, second, miss, hit, data, kernels)


def pairs_of_lists(data, refs, lists, rank_weights, kernels):
    """The pairs of the engines' k-nearest `lists` of `refs` (one
    :class:`..neighbours.Neighbours`, the pairs in the order of the
    references) with ReliefF's
    multipliers (classification) or RReliefF's (`rank_weights` given)."""
    if rank_weights is None:
        first, second, miss, hit = classification_pairs(data, refs, lists,
                                                        priors="relieff")
        return NeighbourPairs(np.asarray(first, np.int64),
                              np.asarray(second, np.int64), miss, -hit,
                              data, kernels)
    first, second, rank = regression_ranks(refs, lists, rank_weights)
    first, second = np.asarray(first, np.int64), np.asarray(second, np.int64)
    miss, hit = regression_coefficients(data.target, first, second, rank,
                                        len(lists))
    return NeighbourPairs(first, second, miss, -hit, data, kernels, rank)


def fixed_by_attributes(method, pairs, task):
    """Whether `method`'s `pairs` (of `pairs.data`) stay the same pairs,
    with the same diffs, when the labels are permuted.  A SURF-family
    near set is every instance within a radius of the reference, which
    the attributes alone fix; RReliefF's k nearest are ranked by distance
    alone (its rank weights kept in `pairs.rank`).  ReliefF's (and
    Relief's) k nearest are found per class, and the diffs of a missing
    value are class-conditional (RELIEF-D, a table per class): those
    pairs are found again."""
    if task == "regression":
        return method in NEAR_SET_METHODS or pairs.rank is not None
    return (method in NEAR_SET_METHODS
            and pairs.data.exact.relief_d.shape[0] == 0)


def relabelled(pairs, order, task):
    """The `pairs` that :func:`fixed_by_attributes` fixes, with the
    multipliers of another labelling: instance i with the class (or
    target) of instance ``order[i]``."""
    data = replace(pairs.data, groups=pairs.data.groups[order],
                   target=pairs.data.target[order])
    if pairs.rank is None:
        miss, hit = near_set_multipliers(data, pairs.first, pairs.second,
                                         task)
    else:
        miss, hit = regression_coefficients(data.target, pairs.first,
                                            pairs.second, pairs.rank,
                                            data.n_instances)
        hit = -hit
    return pairs._replace(miss=miss, hit=hit, data=data)


def near_set_multipliers(data, first, second, task):
    """(u, v) of the near pairs (first, second), every instance a
    reference: ReliefF's class coefficients of each near set, or
    RReliefF's rule with the near neighbours of equal weight."""
    n = data.n_instances
    sizes = np.bincount(first, minlength=n).astype(np.float64)
    if task == "regression":
        share = 1.0 / sizes[first]
        d_target = np.abs(data.target[first] - data.target[second])
        n_dc = float(np.sum(d_target * share))
        miss = d_target * share / n_dc if n_dc > 0 else np.zeros(len(first))
        hit = ((1 - d_target) * share / (n - n_dc) if n > n_dc
               else np.zeros(len(first)))
        return miss, hit
    groups, priors, n_groups = data.groups, data.priors, data.n_groups
    # each pair's (reference, class of the neighbour), and their counts
    cell = first * n_groups + groups[second]
    counts = np.bincount(cell, minlength=n * n_groups).reshape(
        n, n_groups).astype(np.float64)
    own = np.arange(n_groups)[None, :] == groups[:, None]
    present = np.where(own, 0.0, (counts > 0) * priors[None, :]).sum(axis=1)
    # the multipliers of each (reference, class), then of each pair
    with np.errstate(divide="ignore", invalid="ignore"):
        miss = np.where(own, 0.0, priors[None, :] / present[:, None]
                        / counts / n)
        hit = np.where(own, 1.0 / counts / n, 0.0)
    return miss.ravel()[cell], hit.ravel()[cell]

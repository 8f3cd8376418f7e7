"""Relief, ReliefF and RReliefF of many subsets of one data set's
instances, from one neighbour search.

A resample or a fold's training part is a subset of the instances.  With
the diffs of the whole data (its ranges and RELIEF-D's probabilities of
missing values, prepared once), the distance of two instances does not
depend on the subset, and equal distances go to the lower index in both;
so the k nearest instances of a class among a subset's instances are the
first k of the whole data's list of that class that belong to the subset.
The lists of every instance, K long (:func:`list_length`), are found once;
each subset is then a filter of them (:func:`first_members`) and the
update rule.  A list that runs short, fewer than k of the subset among
its K, is searched again, twice as long, for that reference alone.

A subset may hold an instance more than once (a bootstrap sample): each
copy is an instance of the subset, as in a table with the row repeated.
A copy is a neighbour of the others, at the instance's distance to itself
(0 unless a value is missing, whose RELIEF-D diff with itself is the
chance that two unknown values differ), after the instances nearer than
that and those as near with a lower index.

The result is the estimator's on the subset's rows, except that their
diffs are those of the whole data; ``tests/core/test_subset_relief.py``
checks it against the slow reference on the subset with the whole data's
diffs.  STIR, the SURF family (whose neighbourhoods depend on the mean
distance within the subset) and the other variants have no such rule and
score each subset in full.
"""
import math

import numpy as np

from . import engines
from .errors import ReliefInputError
from .estimators import (prepared, rank_weights, reference_instances,
                         rrelieff_weights)
from .formulas.diffs import attribute_diffs
from .options import (DIFF, K_RELIEFF, K_RRELIEFF, RANDOM_STATE, SUBSAMPLE,
                      T_DIFF, T_EQ, check, check_choice)

#: the estimators whose neighbours in a subset are a filter of the lists
RULES = ("relief", "relieff", "rrelieff")
DEFAULT_K = {"relief": 1, "relieff": K_RELIEFF, "rrelieff": K_RRELIEFF}


def list_length(k, share):
    """K, the length of the whole data's lists from which a subset that
    holds the share `share` of the instances (the expected copies of
    each, 1 for a bootstrap sample) takes its k: k / share and three
    standard deviations of the members found among as many, and 4 more,
    so that a list seldom runs short."""
    expected = k / share
    return math.ceil(expected + 3 * math.sqrt(expected)) + 4


class SubsetRelief:
    """The weights of Relief, ReliefF or RReliefF on subsets of the rows
    of `X`, called as ``weights = subset_relief(rows)``.

    Parameters
    ----------
    X, y, discrete
        The whole data, as for :func:`.estimators.relieff`.
    rule : "relief", "relieff" or "rrelieff"
    k_nearest : int or None
        None: the estimator's default (Relief: 1).
    n_iterations : int or None
        None: every instance of a subset is a reference once; an int:
        that many drawn from the subset's instances with `random_state`,
        as the estimator draws them from a table of the subset's rows.
    weighting, sigma
        RReliefF's influence of the neighbours by rank.
    diff, t_eq, t_diff
        The diff of numeric attributes.
    share : float in (0, 1]
        The expected share of the instances in a subset (1 for bootstrap
        samples): how long the lists are (:func:`list_length`).
    progress_callback : callable(float) or None
        Of the search of the lists.
    """

    def __init__(self, X, y, discrete=None, *, rule="relieff",
                 k_nearest=None, n_iterations=None, random_state=RANDOM_STATE,
                 weighting="exp_rank", sigma=None, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, share=SUBSAMPLE, progress_callback=None):
        self.rule = check_choice("rule", rule, RULES)
        self.k = (DEFAULT_K[rule] if k_nearest is None or rule == "relief"
                  else check("k_nearest", k_nearest))
        self.n_iterations = check("n_iterations", n_iterations)
        self.random_state = check("random_state", random_state)
        if not (isinstance(share, (int, float)) and 0 < share <= 1):
            raise ReliefInputError(f"share must be a number in (0, 1], got "
                                   f"{share!r}.")
        task = "regression" if rule == "rrelieff" else "classification"
        self.data, _, kernels = prepared(
            X, y, discrete, None, random_state, task=task, diff=diff,
            t_eq=t_eq, t_diff=t_diff)
        if rule == "relief" and self.data.n_groups != 2:
            raise ReliefInputError(
                f"Relief handles two classes and the data has "
                f"{self.data.n_groups}; use ReliefF for more classes.")
        self.weighting, self.sigma = weighting, sigma
        if rule == "rrelieff":
            rank_weights(self.k, weighting, sigma)  # checks them now
        n = self.data.n_instances
        self.position = np.full(len(np.asarray(X)), -1)
        self.position[self.data.kept_rows] = np.arange(n)
        self.lists = kernels.find_neighbours(
            self.data, np.arange(n), list_length(self.k, share), None,
            progress_callback)
        self._copy_positions = None

    def __call__(self, rows):
        """The weights of the instances `rows` (indices of the rows of
        `X`, repeats allowed; rows of an unknown target are left out)."""
        rows = np.asarray(rows)
        if (rows.ndim != 1 or not np.issubdtype(rows.dtype, np.integer)
                or ((rows < 0) | (rows >= len(self.position))).any()):
            raise ReliefInputError(
                f"rows must be a 1-D array of row indices in "
                f"0..{len(self.position) - 1}.")
        members = np.sort(self.position[rows])
        members = members[members >= 0]
        if not len(members):
            raise ReliefInputError("There are no instances with a known "
                                   "target to score the attributes on.")
        refs = members
        if self.n_iterations is not None:
            refs = members[reference_instances(
                len(members), self.n_iterations, self.random_state)]
        counts = np.bincount(members, minlength=self.data.n_instances)
        neighbours = self.nearest(refs, counts, min(self.k, len(members)))
        kernels = engines.kernels(self.data.engine)
        exact = self.data.exact
        if self.rule == "rrelieff":
            influence = rank_weights(self.k, self.weighting, self.sigma,
                                     count=len(members))
            sums = kernels.rrelieff_sums(exact, refs, neighbours,
                                         self.data.target, influence)
            return rrelieff_weights(*sums, len(refs))
        priors = (np.bincount(self.data.groups[members],
                              minlength=self.data.n_groups) / len(members))
        if np.count_nonzero(priors) < 2:
            raise ReliefInputError(
                "The subset holds instances of a single class; Relief needs "
                "two classes at least.")
        return kernels.relieff_rule(exact, refs, neighbours, priors)

    def nearest(self, refs, counts, k):
        """The (m, groups, k) neighbour lists of the references `refs`
        within the subset of `counts` (copies of each instance)."""
        unique, inverse = np.unique(refs, return_inverse=True)
        positions = (self.copy_positions()[unique] if counts.max() > 1
                     else np.zeros(len(unique), np.int64))
        found, short = first_members(self.data, self.lists[unique], unique,
                                     counts, k, positions)
        width = self.lists.shape[2]
        while short.any():
            width = min(2 * width, self.data.n_instances)
            again = np.flatnonzero(short)
            longer = engines.kernels(self.data.engine).find_neighbours(
                self.data, unique[again], width)
            found[again], short[again] = first_members(
                self.data, longer, unique[again], counts, k)
        return found[inverse]

    def copy_positions(self):
        """Where the copies of each instance go in its own group's list
        (:func:`copy_positions`), found once, at the first subset that
        repeats an instance."""
        if self._copy_positions is None:
            every = np.arange(self.data.n_instances)
            self._copy_positions = copy_positions(
                self.data, every, self.lists[every, self.data.groups],
                np.ones_like(every))
        return self._copy_positions


def first_members(data, lists, refs, counts, k, positions=None):
    """The first k members of a subset in each of the references' lists.

    Parameters
    ----------
    data : PreparedData
    lists : int array (u, groups, W)
        The whole data's lists of the references `refs`, nearest first,
        -1 where a group ran out.
    refs : int array (u,)
        Distinct references.
    counts : int array (n,)
        How many times the subset holds each instance.
    k : int
    positions : int array (u,) or None
        Where each reference's copies go in its own list
        (:func:`copy_positions`; None: found here).

    Returns
    -------
    (u, groups, k) int array, -1 where the subset's group has fewer than
    k instances; and a bool (u,): whether a list ran short (fewer than k
    of the subset among its W, and more instances of the group beyond;
    copies that go after all W count only once the list has run out, as
    instances beyond it may come before them).
    """
    u, n_groups, width = lists.shape
    own = data.groups[refs]
    copies = counts[refs] - 1
    known = lists >= 0
    held = np.where(known, counts[np.where(known, lists, 0)], 0)
    # the reference's copies, inserted in its own group's list
    at = np.full((u, n_groups), width)
    at[np.arange(u), own] = (
        copy_positions(data, refs, lists[np.arange(u), own], copies)
        if positions is None else positions)
    extra = np.zeros((u, n_groups), np.int64)
    extra[np.arange(u), own] = copies
    columns = np.arange(width + 1)
    inserted = columns == at[:, :, None]
    source = np.minimum(columns - (columns > at[:, :, None]), width - 1)
    entries = np.where(inserted, refs[:, None, None],
                       np.take_along_axis(lists, source, axis=2))
    weights = np.where(inserted, extra[:, :, None],
                       np.take_along_axis(held, source, axis=2))
    # slot s of a row is taken by the entry whose copies cover it
    ends = np.cumsum(weights, axis=2).reshape(-1, width + 1)
    rows = np.arange(len(ends))
    offset = max(ends[:, -1].max(), k) + 1  # rows apart in one search
    entry = (np.searchsorted((ends + rows[:, None] * offset).ravel(),
                             (rows[:, None] * offset + np.arange(k)).ravel(),
                             side="right").reshape(-1, k)
             - rows[:, None] * (width + 1))
    flat = entries.reshape(-1, width + 1)
    found = np.where(entry <= width,
                     np.take_along_axis(flat, np.minimum(entry, width),
                                        axis=1), -1).reshape(u, n_groups, k)
    full = known[:, :, -1]  # more of the group may lie beyond the list
    unsure = full & (at == width)  # so the copies' place is unknown
    counted = np.where(unsure, held.sum(axis=2),
                       ends[:, -1].reshape(u, n_groups))
    short = (full & (counted < k)).any(axis=1)
    return found, short


def copy_positions(data, refs, own_lists, copies):
    """Where the copies of each reference go in its own group's list:
    after the instances nearer than its distance to itself, and those as
    near with a lower index (0 where it has no copies)."""
    positions = np.zeros(len(refs), np.int64)
    repeated = np.flatnonzero(copies > 0)
    if not len(repeated):
        return positions
    i = refs[repeated]
    listed = own_lists[repeated]
    valid = listed >= 0
    others = np.where(valid, listed, i[:, None])
    distance, own = np.zeros(listed.shape), np.zeros(len(i))
    for a in range(data.exact.values.shape[0]):  # in attribute order, as
        distance += attribute_diffs(data.exact, a, i[:, None], others)
        own += attribute_diffs(data.exact, a, i, i)  # the engines add
    before = valid & ((distance < own[:, None])
                      | ((distance == own[:, None]) & (listed < i[:, None])))
    positions[repeated] = before.sum(axis=1)
    return positions

"""Relief, ReliefF and RReliefF of many subsets of one data set's
instances, from one neighbour search.

A resample or a fold's training part is a subset of the instances.  With
the diffs of the whole data (its ranges and RELIEF-D's probabilities of
missing values, prepared once), the distance of two instances does not
depend on the subset; so a subset's list of a class is made of the
members of the subset in the whole data's list of that class, if that
list holds every instance as near as the subset's k-th.  The lists of
every instance, K places long (:func:`list_length`) and every instance
as near as the K-th, are found once; each subset is then a filter of
them (:func:`subset_lists`, whose lists place the tied candidates by the
tie rule) and the update rule.  A list that runs short, fewer than k of
the subset among it, is searched again, twice as long, for that
reference alone.

A subset may hold an instance more than once (a bootstrap sample): each
copy is an instance of the subset, as in a table with the row repeated.
A copy is a neighbour of the others, at the instance's distance to itself
(0 unless a value is missing, whose RELIEF-D diff with itself is the
chance that two unknown values differ), ordered among the instances as
near by its index (what matters with ``ties="lower-index"``).

The result is the estimator's on the subset's rows, except that their
diffs are those of the whole data; ``tests/core/test_subset_relief.py``
checks it against the slow reference on the subset with the whole data's
diffs.  STIR, the SURF family (whose neighbourhoods depend on the mean
distance within the subset) and the other variants have no such rule and
score each subset in full.
"""
import math

import numpy as np

from .. import engines
from ..errors import ReliefInputError
from ..validation import validated
from ..variants.estimators import (prepared, rank_weights, reference_instances,
                                   rrelieff_weights)
from ..formulas.diffs import attribute_diffs
from ..formulas.ties import SHARE
from ..neighbours import Neighbours, NeighbourLists
from ..options import (DIFF, K_RELIEFF, K_RRELIEFF, RANDOM_STATE, SUBSAMPLE,
                       T_DIFF, T_EQ, TIES, check_choice)

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
        The whole data, as for :func:`..variants.estimators.relieff`.
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
    ties : "share" or "lower-index"
        The places of the candidates at a subset's k-th distance
        (:mod:`..formulas.ties`).
    progress_callback : callable(float) or None
        Of the search of the lists.
    """

    @validated(k_nearest="subset_k")
    def __init__(self, X, y, discrete=None, *, rule="relieff",
                 k_nearest=None, n_iterations=None, random_state=RANDOM_STATE,
                 weighting="exp_rank", sigma=None, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, share=SUBSAMPLE, ties=TIES,
                 progress_callback=None):
        self.rule = check_choice("rule", rule, RULES)
        self.ties = ties
        self.k = (DEFAULT_K[rule] if k_nearest is None or rule == "relief"
                  else k_nearest)
        self.n_iterations = n_iterations
        self.random_state = random_state
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
            # the weighting, and the sigma it needs, refused now
            rank_weights.unchecked(self.k, weighting, sigma)
        n = self.data.n_instances
        self.position = np.full(np.shape(X)[0] if hasattr(X, "shape")
                                else len(X), -1)
        self.position[self.data.kept_rows] = np.arange(n)
        #: every instance's lists of K places, and every instance as near
        #: as the K-th (the whole data's :class:`..neighbours.Neighbours`)
        self.lists = kernels.find_neighbours(
            self.data, np.arange(n), list_length(self.k, share), None,
            progress_callback, ties=SHARE).whole()
        self._own_distance = None

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
        neighbours = NeighbourLists.holding(
            self.nearest(refs, counts, min(self.k, len(members))))
        kernels = engines.kernels(self.data.engine)
        exact = self.data.exact
        if self.rule == "rrelieff":
            influence = rank_weights.unchecked(  # checked on entry
                self.k, self.weighting, self.sigma, count=len(members))
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
        """The :class:`..neighbours.Neighbours` of the references `refs`
        within the subset of `counts` (copies of each instance)."""
        unique, inverse = np.unique(refs, return_inverse=True)
        own = (self.own_distance()[unique] if counts.max() > 1
               else np.zeros(len(unique)))
        found, short = subset_lists(self.data, self.lists, unique, unique,
                                    counts, k, self.ties, own)
        width = self.lists.k
        while short.any():
            width = min(2 * width, self.data.n_instances)
            again = np.flatnonzero(short)
            longer = engines.kernels(self.data.engine).find_neighbours(
                self.data, unique[again], width, ties=SHARE).whole()
            lists, short[again] = subset_lists(
                self.data, longer, np.arange(len(again)), unique[again],
                counts, k, self.ties, own[again])
            found = replaced(found, again, lists)
        return found.take(inverse)

    def own_distance(self):
        """Every instance's distance to itself (:func:`own_distances`),
        found once, at the first subset that repeats an instance."""
        if self._own_distance is None:
            self._own_distance = own_distances(self.data)
        return self._own_distance


def subset_lists(data, lists, rows, refs, counts, k, ties, own_distance):
    """The lists of k places of the distinct references `refs` within a
    subset, from the whole data's lists (`lists`, a
    :class:`..neighbours.Neighbours` whose lists hold every instance as
    near as their last; row ``rows[u]`` the lists of ``refs[u]``).

    The subset holds ``counts[j]`` copies of instance j, each a candidate
    of its own (the reference's other copies at `own_distance`, its
    distance to itself); the candidates are ordered by (distance,
    instance) and listed by the tie rule `ties`.  A list of the whole data
    that does not hold its whole group proves the candidates as near as
    its last entry only; where fewer than k of them are the subset's, the
    reference's lists run short.

    Returns
    -------
    (Neighbours of `refs`, bool array (u,): which ran short)
    """
    n_groups, u = data.n_groups, len(refs)
    groups = np.arange(n_groups)
    whole = (np.asarray(rows)[:, None] * n_groups + groups).ravel()
    entries = lists.entries_of(whole)
    lengths = np.diff(lists.offsets)[whole]
    owner = np.repeat(np.arange(u * n_groups), lengths)
    index, distance = lists.index[entries], lists.distance[entries]
    copies = counts[index]
    own = data.groups[refs]
    repeated = counts[refs] > 1
    owner = np.concatenate([owner, (np.arange(u) * n_groups + own)[repeated]])
    index = np.concatenate([index, refs[repeated]])
    distance = np.concatenate([distance, own_distance[repeated]])
    copies = np.concatenate([copies, counts[refs][repeated] - 1])
    # what each whole list proves: every instance up to its last distance
    ends = lists.offsets[whole + 1]
    last = np.where(lengths > 0, lists.distance[np.maximum(ends - 1, 0)],
                    -np.inf)
    size = np.bincount(data.groups, minlength=n_groups)
    others = size[None, :] - (groups[None, :] == own[:, None])
    full = lengths < others.ravel()
    known = ~full[owner] | (distance <= last[owner])
    chosen = (copies > 0) & known
    owner, index, distance = (np.repeat(a[chosen], copies[chosen])
                              for a in (owner, index, distance))
    order = np.lexsort((index, distance, owner))
    owner, index, distance = owner[order], index[order], distance[order]
    count = np.bincount(owner, minlength=u * n_groups)
    place = np.arange(len(owner)) - (np.cumsum(count) - count)[owner]
    places = np.minimum(count, k)
    if ties == SHARE:
        kth = np.full(u * n_groups, -np.inf)
        at_k = place == places[owner] - 1
        kth[owner[at_k]] = distance[at_k]
        keep = distance <= kth[owner]
    else:
        keep = place < places[owner]
    kept = np.bincount(owner[keep], minlength=u * n_groups)
    short = (full & (count < k)).reshape(u, n_groups).any(axis=1)
    return (Neighbours.ranked(k, n_groups,
                              np.concatenate([[0], np.cumsum(kept)]),
                              index[keep], distance[keep], ties), short)


def replaced(lists, rows, others):
    """`lists` (a :class:`..neighbours.Neighbours`) with the lists of the
    references `rows` those of `others` (one per row, in order)."""
    where = np.full(len(lists), -1)
    where[rows] = np.arange(len(rows))
    joined = Neighbours.concatenate([lists, others])
    return joined.take(np.where(where < 0, np.arange(len(lists)),
                                len(lists) + where))


def own_distances(data):
    """Every instance's distance to itself, sum_A diff(A, I, I) added in
    attribute order (0 unless a value is missing, whose RELIEF-D diff with
    itself is the chance that two unknown values differ)."""
    every = np.arange(data.n_instances)
    own = np.zeros(data.n_instances)
    for a in range(data.exact.values.shape[0]):
        own += attribute_diffs(data.exact, a, every, every)
    return own

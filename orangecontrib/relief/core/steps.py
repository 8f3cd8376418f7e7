"""Relief one reference at a time: what a step sees and what it adds.

Relief's weights are the mean of the references' updates (Kira & Rendell
1992; Kononenko 1994; Prat & Belanche 2006, Fig. 1 and 2)::

    W[A] = 1/m  sum_{r = 1..m}  u_r[A]

    u_r[A] = - sum_j diff(A, R_r, H_j) / k
             + sum_{C != class(R_r)} P(C) / (1 - P(class(R_r)))
                                     sum_j diff(A, R_r, M_j(C)) / k

with the k nearest hits H_j and, for every other class C, the k nearest
misses M_j(C) of the reference R_r, found with all attributes.  Relief is
the case of two classes and k = 1.  Where the k-th distance is tied, the
t tied candidates share the r places left (each takes r / t of a place,
:mod:`.formulas.ties`): a step lists them all, each with its share.
:class:`ReliefSteps` computes one u_r per :meth:`ReliefSteps.step` with
the estimators' own preparation, neighbour search and update rule
(:func:`.variants.estimators.prepared`,
:func:`.variants.estimators.neighbours_of`, the engine's ``relieff_rule``),
so that :meth:`ReliefSteps.weights` of the steps of R_1 .. R_m is what
:func:`.variants.estimators.relieff` (or
:func:`.variants.estimators.relief`) returns for those references: to
the last bit when the estimator runs the same engine (every call on up to
about 1000 instances x 50 attributes), to rounding otherwise (:mod:`.engines`).

A step also says how near its neighbours are: their distances to R (the
sum of the diffs over all attributes, the search's distance) and, for
every class, the nearest instance the search did not choose (the runner-up).
:class:`Lesson` shows steps a stage at a time (:data:`STAGES`), as a
teacher walks through one: the reference, its neighbours, their diffs, the
update; only updates shown count in the weights.
"""
from dataclasses import dataclass

import numpy as np

from .errors import ReliefInputError
from .validation import validated
from .variants.estimators import neighbours_of, prepared, reference_instances
from .neighbours import Neighbours, NeighbourLists
from .options import (DIFF, K_RELIEFF, RANDOM_STATE, T_DIFF, T_EQ, TIES,
                      check, check_choice)
from .formulas.diffs import distance_row, pair_diffs
from .formulas.relieff import relieff_update
from .registry import RELIEF, RELIEFF, by_name

#: the variants shown step by step: ReliefF's update over its k nearest
#: of each class, and Relief, its case of one of each and two classes
VARIANTS = (RELIEF.name, RELIEFF.name)
#: what a step shows, in order: the reference R; its near hits and misses
#: with their distances; the diffs of every attribute; the update of the
#: weights (only then does the step count in them)
STAGES = ("reference", "neighbours", "diffs", "update")


@dataclass(frozen=True)
class Step:
    """One reference's part of the weights.

    Attributes
    ----------
    reference : int
        The reference instance R (its index among the instances with a
        known class).
    neighbours : int array (s,)
        R's near hits, then the near misses of each other class in class
        order; each class's nearest first.
    classes : int array (s,)
        The class (0 .. C-1) of each neighbour.
    shares : float array (s,)
        The share of its list's places each neighbour takes: 1, or r / t
        for one of t candidates tied at the k-th distance that share the
        r places left.
    tied : int array (s,)
        The candidates at each neighbour's distance among which its places
        are shared (1 where it has a place of its own).
    coefficients : float array (s,)
        What the diffs to each neighbour are multiplied by: -1 / k for a
        hit, P(C) / (1 - P(class(R))) / k for a miss of class C (k: the
        places of the class's list), times its share.
    diffs : float array (a, s)
        diff(A, R, neighbour) of every attribute A and neighbour.
    update : float array (a,)
        u[A] = sum_s coefficients[s] * diffs[A, s], the terms added class
        by class in class order, as the estimators' rule adds them.
    search : Neighbours
        The neighbour search's lists of R alone (what the rule reads).
    distances : float array (s,)
        The distance of each neighbour to R: sum_A diff(A, R, neighbour)
        over all attributes, added in attribute order, as the search adds
        it.
    runners_up : int array (r,)
        For each class of the neighbours, in their order, the nearest
        instance the search did not choose (classes with no other instance
        give none): who was nearly a neighbour.
    runner_up_classes : int array (r,)
    runner_up_distances : float array (r,)
        The class and the distance to R of each runner-up.
    runner_up_diffs : float array (a, r)
        diff(A, R, runner-up) of every attribute and runner-up.
    """
    reference: int
    neighbours: np.ndarray
    classes: np.ndarray
    shares: np.ndarray
    tied: np.ndarray
    coefficients: np.ndarray
    diffs: np.ndarray
    update: np.ndarray
    search: Neighbours
    distances: np.ndarray
    runners_up: np.ndarray
    runner_up_classes: np.ndarray
    runner_up_distances: np.ndarray
    runner_up_diffs: np.ndarray

    @property
    def is_hit(self):
        """Which neighbours are of the reference's class (bool (s,))."""
        return self.coefficients < 0

    @property
    def hits(self):
        return self.neighbours[self.is_hit]

    @property
    def misses(self):
        return self.neighbours[~self.is_hit]


def references(n, count, sampled=False, random_state=RANDOM_STATE):
    """The references R_1 .. R_count of n instances.

    In order (``sampled=False``): 0, 1, ..., n - 1, then again from 0; the
    first n are those of the estimators' ``n_iterations=None``.  Sampled:
    the draws of :func:`.variants.estimators.reference_instances` with
    ``n_iterations=count``, whose first m are those of ``n_iterations=m``.
    """
    if count == 0:
        return np.zeros(0, np.int64)
    if sampled:
        return reference_instances(n, count, random_state)
    return np.arange(count) % n


class ReliefSteps:
    """Relief or ReliefF, one reference at a time.

    Parameters
    ----------
    X, y, discrete
        As in :func:`.variants.estimators.relieff`; instances are numbered among
        those with a known class.
    variant : "Relief" or "ReliefF"
        Relief (Kira & Rendell 1992): two classes, one nearest hit and one
        nearest miss; ReliefF (Kononenko 1994): k of each class.
    k_nearest : int
        Near hits and misses per class of ReliefF (Relief: 1).
    diff, t_eq, t_diff
        The diff of numeric attributes, as in :func:`.variants.estimators.relieff`.
    ties : "share" or "lower-index"
        The places of the candidates at the k-th distance, as in
        :func:`.variants.estimators.relieff`.

    Raises
    ------
    ReliefInputError
        For data the estimators reject, and for Relief on other than two
        classes.
    """

    @validated(k_nearest=None)  # read only by a variant that takes one
    def __init__(self, X, y, discrete=None, *, variant="ReliefF",
                 k_nearest=K_RELIEFF, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
                 ties=TIES):
        self.variant = check_choice("variant", variant, VARIANTS)
        self.ties = ties
        shown = by_name(variant)
        self.k_nearest = (check("k_nearest", k_nearest) if shown.takes_k
                          else 1)
        # a step is a run with one reference: the engine chosen for it
        self.data, _, self.kernels = prepared(
            X, y, discrete, 1, RANDOM_STATE, task="classification",
            diff=diff, t_eq=t_eq, t_diff=t_diff)
        if not shown.fits("classification", self.data.n_groups):
            raise ReliefInputError(
                f"Relief handles two classes and the data has "
                f"{self.data.n_groups}; use ReliefF for more classes.")

    @property
    def n_instances(self):
        return self.data.n_instances

    @property
    def kept_rows(self):
        """The input rows of the instances (those with a known class)."""
        return self.data.kept_rows

    def step(self, reference):
        """The :class:`Step` of reference instance `reference`."""
        reference = int(reference)
        if not 0 <= reference < self.n_instances:
            raise ReliefInputError(
                f"reference must be an instance 0 .. {self.n_instances - 1}, "
                f"got {reference}.")
        search = neighbours_of(self.kernels, self.data, np.array([reference]),
                               self.k_nearest, None, None,
                               ties=self.ties).whole()
        exact, priors = self.data.exact, self.data.priors
        own = exact.groups[reference]
        places = search.places[0]
        groups = [own] + [g for g in np.flatnonzero(places) if g != own]
        entries = search.entries_of(np.array(groups, np.int64))
        neighbours, shares = search.index[entries], search.share[entries]
        classes = search.group[entries]
        coefficients = np.where(
            classes == own, -1.0,
            priors[classes] / (1 - priors[own])) / places[classes] * shares
        update = np.zeros(exact.values.shape[0])
        relieff_update(update, exact, reference, search, priors)
        distance = distance_row(exact, np.ones(exact.values.shape[0]),
                                reference)[0]
        distance[reference] = np.inf  # never its own neighbour
        runners_up = self._runners_up(distance, groups, neighbours)
        return Step(reference, neighbours, classes, shares,
                    search.tied[entries].astype(np.int64), coefficients,
                    pair_diffs(exact, reference, neighbours), update, search,
                    distance[neighbours], runners_up,
                    exact.groups[runners_up], distance[runners_up],
                    pair_diffs(exact, reference, runners_up))

    def _runners_up(self, distance, groups, chosen):
        """The nearest instance of each of `groups` (by `distance`, ties
        to the lower index) that is neither in `chosen` nor the reference
        (at an infinite `distance`)."""
        nearest = []
        for group in groups:
            members = np.flatnonzero(self.data.exact.groups == group)
            members = members[~np.isin(members, chosen)
                              & np.isfinite(distance[members])]
            if len(members):
                nearest.append(members[np.argmin(distance[members])])
        return np.array(nearest, dtype=np.int64)

    def steps(self, refs):
        """The steps of the references `refs`, in order."""
        return [self.step(r) for r in refs]

    def weights(self, steps):
        """W after `steps` (a list of :class:`Step`): the mean of their
        updates, as the estimators' rule adds them; zeros before any."""
        if not steps:
            return np.zeros(self.data.exact.values.shape[0])
        refs = np.array([s.reference for s in steps], dtype=np.int64)
        neighbours = Neighbours.concatenate([s.search for s in steps])
        return self.kernels.relieff_rule(self.data.exact, refs,
                                         NeighbourLists.holding(neighbours),
                                         self.data.priors)


class Lesson:
    """Steps shown a stage at a time (:data:`STAGES`), as a teacher walks
    through them.

    `steps` are the steps begun; the last is shown up to `stage` (an index
    into :data:`STAGES`), the others are complete.  Only the steps shown
    up to their update are :attr:`applied`: they make the weights.
    """

    def __init__(self, steps=(), stage=len(STAGES) - 1):
        self.steps = list(steps)
        self.stage = stage

    @property
    def complete(self):
        """Whether the last step (if any) is shown to its update."""
        return self.stage == len(STAGES) - 1

    @property
    def applied(self):
        """The steps whose update has been applied."""
        return self.steps if self.complete else self.steps[:-1]

    @property
    def next_stage(self):
        """The stage that :meth:`advance` shows next ("reference": a new
        step)."""
        return STAGES[0 if self.complete else self.stage + 1]

    def begin(self, step):
        """Show `step`'s reference; an unfinished step gives way to it."""
        if not self.complete:
            self.steps.pop()
        self.steps.append(step)
        self.stage = 0

    def advance(self):
        """Show the next stage of the unfinished step."""
        if not self.complete:
            self.stage += 1

    def finish(self):
        """Show the last step to its update."""
        self.stage = len(STAGES) - 1

    def back(self):
        """Undo the last stage shown: back from a step's reference is the
        previous step, complete."""
        if not self.steps:
            return
        if self.stage == 0:
            self.steps.pop()
            self.finish()
        else:
            self.stage -= 1

    def reset(self):
        self.steps = []
        self.finish()

    def redo(self, stepper):
        """The same references again with `stepper` (another method or k),
        each at the stage it was shown."""
        self.steps = stepper.steps([s.reference for s in self.steps])

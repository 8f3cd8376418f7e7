"""RFSM, the Relief feature set measure (Arauzo-Azofra, Benitez & Castro).

Relief gives a weight to each attribute; RFSM gives one value W_S to a whole
set S of attributes, with the same skeleton (the paper's Fig. 2): for every
reference instance R take its nearest hit(s) H and its nearest miss(es)
M(C) of every other class C, and score how well S tells them apart with::

    diffS(S, R, M) = max_{A in S} diff(A, R, M)    (a miss: "S separates")
    diffS(S, R, H) = min_{A in S} diff(A, R, H)    (a hit: the penalty)
                                                               (paper eq. 4)

    W_S = 1/m sum_R [ - mean_j diffS(S, R, H_j)
                      + sum_{C != class(R)} P(C) mean_j diffS(S, R, M_j(C)) ]
                                                               (paper eq. 2)

``priors="eq2"`` (the default) weights a miss of class C by P(C) exactly as
eq. 2 of the paper writes it; ``priors="relieff"`` uses ReliefF's
P(C) / (1 - P(class(R))), which makes the misses' weights sum to one.  For a
numeric target the neighbours are RReliefF's k nearest, weighted by rank
(d_r), and with dC = |y_R - y_I| (target scaled to [0, 1])::

    W_S = sum dC d_r diffS_max / N_dC - sum (1 - dC) d_r diffS_min / (m - N_dC)

which is RReliefF's ``N_dCdA / N_dC - (N_dA - N_dCdA) / (m - N_dC)`` with the
"different target" part taking the max operator and the "same target" part
the min operator, so the measure stays monotone.  For the empty set the max
is 0 and the min is 1 (the identities of the two operators), so
``W(empty) <= W(S)`` for every S: with max and min, S_i subset of S_j implies
W(S_i) <= W(S_j) (the paper's monotonicity).

Neighbours are found once, with all attributes, as in Relief (the paper's
parity argument at the end of section 4 depends on it); only the evaluation
uses S.  ``neighbours="within"`` instead searches the neighbours with the
attributes of S alone, for each evaluated set (slow, not monotone; offered
to show the difference, e.g. on Parity3+3).

Incremental evaluation
----------------------
With the neighbours fixed, W_S is a weighted sum over the P (reference,
neighbour) pairs of a running max and a running min of the pairs' diff
vectors.  :class:`RFSM` computes the diff of every attribute on every pair
once (``diffs``: a float64 array of a x P, P = m x (number of classes) x k
in classification and m x k in regression, more where tied candidates
share a list's last places; ``RFSM.nbytes`` tells its size),
keeps the running max / min of the current set, and evaluates S + {A} for
every candidate A in one pass over the pairs: a greedy forward search costs
about a^2 / 2 x P operations after one neighbour search, not a^2 searches.
Removing an attribute (backward search) uses the two largest / smallest
values of each pair.
"""
import numpy as np

from ..engines import preparation
from ..errors import ReliefInputError
from ..validation import unchecked_instance, validated
from ..variants.estimators import WEIGHTINGS, prepared, rank_weights
from ..options import (DIFF, K_RFSM, RANDOM_STATE, T_DIFF, T_EQ, TIES,
                       check_choice, check_needs)
from ..targets import TASKS
from .measure import SetMeasure
from .searches import greedy_forward

NEIGHBOURS = ("all", "within")
PRIORS = ("eq2", "relieff")
#: what :func:`rfsm_scores` gives an attribute: the gain of W_S when the
#: greedy search added it, or its place in the search's order
SCORES = ("gain", "order")


# --- pairs and their coefficients ----------------------------------------

def classification_pairs(data, refs, lists, priors="eq2"):
    """The (reference, neighbour) pairs and their weights in W_S.

    A hit of reference r in a list of `places` places gets ``coef_min =
    -1 / (places m)``; a miss of class C gets ``coef_max = P(C) / (places
    m)`` (eq. 2), or ``P(C) / (1 - P(class(R))) / (places m)`` with
    ``priors="relieff"``; each times the neighbour's share of the places
    (:class:`...neighbours.Neighbours`, whose lists are `lists`).

    Returns
    -------
    first, second : int64 arrays (P,)
        Reference and neighbour of each pair.
    coef_max, coef_min : float64 arrays (P,)
    """
    m = len(lists)
    owner, group = lists.owner, lists.group
    own = data.groups[refs][owner]
    is_hit = group == own
    miss_weight = data.priors[group]
    if priors == "relieff":
        miss_weight = miss_weight / (1 - data.priors[own])
    per_neighbour = 1.0 / (lists.places[owner, group] * m)
    coef_min = np.where(is_hit, -per_neighbour, 0.0) * lists.share
    coef_max = np.where(is_hit, 0.0, miss_weight * per_neighbour) * lists.share
    return (refs[owner].astype(np.int64), lists.index, coef_max, coef_min)


def regression_pairs(data, refs, lists, weights):
    """Pairs and weights for a numeric target (RReliefF's weighting).

    With d = a neighbour's expected rank weight
    (:meth:`...neighbours.Neighbours.place_weights`) / the sum of the rank
    weights of its list's places, and dC = |y_R - y_I|: ``coef_max = dC d
    / N_dC``, ``coef_min = -(1 - dC) d / (m - N_dC)``; a term whose
    denominator is 0 counts as 0 (as in RReliefF).
    """
    first, second, d = regression_ranks(refs, lists, weights)
    return (first, second) + regression_coefficients(
        data.target, first, second, d, len(lists))


def regression_ranks(refs, lists, weights):
    """(first, second, d) of :func:`regression_pairs`: the pairs of the
    lists and their rank weights, which do not depend on the target."""
    owner = lists.owner
    width = min(lists.k, len(weights))
    places = lists.places[:, 0]
    norm = np.where(np.arange(width)[None, :] < places[:, None],
                    weights[None, :width], 0.0).sum(axis=1)
    d = lists.place_weights(weights) / norm[owner]
    return refs[owner].astype(np.int64), lists.index, d


def regression_coefficients(target, first, second, d, m):
    """(coef_max, coef_min) of :func:`regression_pairs`: of the pairs
    (first, second) of `m` references, `d` their rank weights, for the
    scaled `target`."""
    d_target = np.abs(target[first] - target[second])
    n_dc = float(np.sum(d_target * d))
    coef_max = d_target * d / n_dc if n_dc > 0 else np.zeros_like(d)
    coef_min = (-(1 - d_target) * d / (m - n_dc) if m > n_dc
                else np.zeros_like(d))
    return coef_max, coef_min


# --- the measure ---------------------------------------------------------

class RFSM(SetMeasure):
    """The Relief feature set measure W_S of a data set.

    Parameters
    ----------
    X : array (n, a)
        Attribute values, NaN for missing; nominal columns hold codes.
    y : array (n,)
        Class codes (classification) or a real target (regression); rows
        with a missing target are left out.
    discrete : bool array (a,) or None
        Which columns are nominal (None: all numeric).
    task : "classification" or "regression"
    k_nearest : int
        Nearest hits and misses per class (classification) or nearest
        neighbours (regression) of each reference; the paper uses 1.
    n_iterations, random_state
        References: None = every instance once (default), an int = that
        many drawn at random (as in :func:`relieff`).
    neighbours : "all" or "within"
        "all" (the paper, Relief): neighbours found once with all
        attributes.  "within": searched again with the attributes of each
        evaluated set only (slow; not monotone).
    priors : "eq2" or "relieff"
        Weight of a miss of class C: P(C) as eq. 2 writes it, or ReliefF's
        P(C) / (1 - P(class(R))).
    weighting, sigma
        Rank weighting of the neighbours in regression (see
        :func:`rrelieff`); unused in classification.
    diff, t_eq, t_diff
        Diff of numeric attributes (see :mod:`..formulas.diffs`).
    ties : "share" or "lower-index"
        The candidates at the k-th distance: "share" (default) gives each
        of the t tied r / t of the r places left, so that every pair is
        weighted by its expected share; "lower-index" gives the places to
        the lower indices (:mod:`..formulas.ties`).
    progress_callback : callable(float) or None
        Receives the fraction of the neighbour search done; may raise.

    Attributes
    ----------
    diffs : float64 array (a, P)
        diff of every attribute on every (reference, neighbour) pair
        ("all" mode only; ``nbytes`` is its size).
    coef_max, coef_min : float64 arrays (P,)
        Weight of each pair's max (misses) and min (hits) in W_S.

    References
    ----------
    Arauzo-Azofra, A., Benitez, J. M., Castro, J. L. A feature set measure
    based on Relief.  RASC 2004, section 4, eq. 2 and 4.
    """
    monotone = True

    @validated
    def __init__(self, X, y, discrete=None, *, task="classification",
                 k_nearest=K_RFSM, n_iterations=None,
                 random_state=RANDOM_STATE, neighbours="all", priors="eq2",
                 weighting="exp_rank", sigma=None, diff=DIFF, t_eq=T_EQ,
                 t_diff=T_DIFF, ties=TIES, progress_callback=None):
        self.task = check_choice("task", task, TASKS)
        self.ties = ties
        check_choice("neighbours", neighbours, NEIGHBOURS)
        check_choice("priors", priors, PRIORS)
        check_choice("weighting", weighting, WEIGHTINGS)
        regression = self.task == "regression"
        # the rank weighting is the numeric target's, the priors the classes'
        check_needs("sigma", sigma, None, "task='regression'", regression)
        check_needs("weighting", weighting, "exp_rank", "task='regression'",
                    regression)
        check_needs("priors", priors, "eq2", "task='classification'",
                    not regression)
        self.k_nearest = k_nearest
        self.neighbours = neighbours
        self.priors = priors
        self.monotone = neighbours == "all"
        self.data, refs, self.kernels = prepared(
            X, y, discrete, n_iterations, random_state, task=task, diff=diff,
            t_eq=t_eq, t_diff=t_diff, parts=(preparation.RFSM,))
        self._rank_weights = (
            rank_weights.unchecked(self.k_nearest, weighting, sigma,
                                   count=self.data.n_instances)
            if task == "regression" else None)
        self.n_attributes = self.data.exact.values.shape[0]
        #: attributes without a known value (left out of every set)
        self.unknown = np.isnan(self.data.exact.values).all(axis=1)
        self.refs = refs.astype(np.int64)
        self._cache = None
        self.diffs = None
        if neighbours == "all":
            nbrs = self._search(None, progress_callback)
            first, second, self.coef_max, self.coef_min = self._pairs(nbrs)
            self.diffs = self.kernels.pair_diffs(
                self.data.exact, first, second, np.arange(self.n_attributes))

    # --- construction ----------------------------------------------------

    def _search(self, weights, progress_callback=None):
        return self.kernels.find_neighbours(
            self.data, self.refs, self.k_nearest, weights, progress_callback,
            ties=self.ties).whole()

    def _pairs(self, nbrs):
        if self.task == "classification":
            return classification_pairs(self.data, self.refs, nbrs,
                                        self.priors)
        return regression_pairs(self.data, self.refs, nbrs,
                                self._rank_weights)

    @property
    def n_pairs(self):
        return 0 if self.diffs is None else self.diffs.shape[1]

    @property
    def nbytes(self):
        """Memory of the precomputed diffs: 8 a P bytes."""
        return 0 if self.diffs is None else self.diffs.nbytes

    # --- evaluation ------------------------------------------------------

    def _attributes(self, subset):
        subset = np.asarray(list(subset), dtype=np.int64).ravel()
        if len(subset) and (subset.min() < 0
                            or subset.max() >= self.n_attributes):
            raise ReliefInputError(
                f"Attribute indices must be in 0..{self.n_attributes - 1}, "
                f"got {subset.tolist()}.")
        return subset

    def _extremes(self, subset):
        """Running max and min over `subset` on every pair (cached: a
        superset of the cached set is updated incrementally)."""
        key = frozenset(subset.tolist())
        if self._cache is not None and self._cache[0] <= key:
            old, top, bottom = self._cache
            if old == key:
                return top, bottom
            new = np.array(sorted(key - old), dtype=np.int64)
        else:
            top = np.zeros(self.n_pairs)
            bottom = np.ones(self.n_pairs)
            new = np.array(sorted(key), dtype=np.int64)
        if len(new):
            top = np.maximum(top, self.diffs[new].max(axis=0))
            bottom = np.minimum(bottom, self.diffs[new].min(axis=0))
        self._cache = (key, top, bottom)
        return top, bottom

    def _within(self, subset):
        """W_S with neighbours searched on the attributes of S only."""
        weights = np.zeros(self.n_attributes, np.float32)
        weights[subset] = 1
        first, second, coef_max, coef_min = self._pairs(
            self._search(weights))
        if len(subset) == 0:
            return float(coef_min.sum())
        diffs = self.kernels.pair_diffs(self.data.exact, first, second,
                                        subset)
        return float(self.kernels.set_value(diffs.max(axis=0),
                                            diffs.min(axis=0), coef_max,
                                            coef_min))

    def _known(self, subset):
        """The attributes of `subset` that have a known value: an attribute
        without any (every value missing) tells no pair apart and is left
        out of every set, so adding it never changes W_S."""
        return subset[~self.unknown[subset]]

    def evaluate(self, subset):
        """W_S of the attributes `subset` (column indices)."""
        subset = self._known(self._attributes(subset))
        if self.neighbours == "within":
            return self._within(subset)
        top, bottom = self._extremes(subset)
        return float(self.kernels.set_value(top, bottom, self.coef_max,
                                            self.coef_min))

    def forward_values(self, subset, candidates):
        """W(S + {A}) for every A in `candidates`, in one pass per candidate
        over the pairs (S's running max / min are kept between calls)."""
        subset = self._known(self._attributes(subset))
        candidates = self._attributes(candidates)
        if self.neighbours == "within":
            return super().forward_values(subset, candidates)
        values = np.full(len(candidates), self.evaluate(subset))
        known = ~self.unknown[candidates]
        top, bottom = self._extremes(subset)
        values[known] = self.kernels.forward_kernel(
            self.diffs, top, bottom, self.coef_max, self.coef_min,
            candidates[known])
        return values

    def backward_values(self, subset, candidates=None):
        """W(S - {A}) for every A in `candidates` (default: all of S)."""
        subset = self._attributes(subset)
        candidates = (subset if candidates is None
                      else self._attributes(candidates))
        subset = self._known(subset)
        if self.neighbours == "within" or len(subset) == 0:
            return super().backward_values(subset, candidates)
        values = self.kernels.backward_kernel(self.diffs, subset,
                                              self.coef_max, self.coef_min)
        position = {a: t for t, a in enumerate(subset.tolist())}
        whole = self.evaluate(subset)  # removing an unknown one changes nothing
        return np.array([values[position[a]] if a in position else whole
                         for a in candidates.tolist()])


def rfsm_value(X, y, subset, discrete=None, **options):
    """W_S of the attribute set `subset`; see :class:`RFSM` for options.

    Building :class:`RFSM` once and calling ``evaluate`` for many sets
    reuses the neighbour search.
    """
    return RFSM(X, y, discrete, **options).evaluate(subset)


@validated
def rfsm_scores(X, y, discrete=None, *, task="classification",
                score="gain", k_nearest=K_RFSM, n_iterations=None,
                random_state=RANDOM_STATE, priors="eq2",
                weighting="exp_rank", sigma=None, diff=DIFF, t_eq=T_EQ,
                t_diff=T_DIFF, ties=TIES, progress_callback=None):
    """One score per attribute from RFSM's greedy forward search.

    ``score="gain"`` gives each attribute the increase of W_S it brought
    when it was added.  The search stops where no attribute raises W_S:
    W_S is a sum over pairs of a running max and minus a running min
    with non-negative factors, each of which gains less from an
    attribute the larger the set (submodular), so no attribute added
    later could raise it either, and the rest score 0.
    ``score="order"`` runs the search to the end (every attribute gets a
    place) and gives a - position (a for the first added), so that
    sorting by the score reproduces the order.  The other parameters
    are those of :class:`RFSM`; the progress is that of its neighbour
    search.
    """
    check_choice("score", score, SCORES)
    measure = unchecked_instance(  # the options checked on entry
        RFSM, X, y, discrete, task=task, k_nearest=k_nearest,
        n_iterations=n_iterations, random_state=random_state, priors=priors,
        weighting=weighting, sigma=sigma, diff=diff, t_eq=t_eq,
        t_diff=t_diff, ties=ties, progress_callback=progress_callback)
    trace = greedy_forward(measure,
                           continue_to_end=score == "order").trace
    n_attributes = measure.n_attributes
    scores = np.zeros(n_attributes)
    for position, step in enumerate(trace[1:]):
        scores[step.attribute] = (
            n_attributes - position if score == "order"
            else max(step.value - trace[position].value, 0.0))
    return scores

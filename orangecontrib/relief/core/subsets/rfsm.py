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
in classification and m x k in regression; ``RFSM.nbytes`` tells its size),
keeps the running max / min of the current set, and evaluates S + {A} for
every candidate A in one pass over the pairs: a greedy forward search costs
about a^2 / 2 x P operations after one neighbour search, not a^2 searches.
Removing an attribute (backward search) uses the two largest / smallest
values of each pair.
"""
import numba
import numpy as np
from numba import prange

from .diffs import attribute_diff
from .errors import ReliefInputError
from .estimators import _check_k, rank_weights, reference_instances
from .neighbours import find_neighbours
from .prepare import prepare
from .search import SetMeasure

TASKS = ("classification", "regression")
NEIGHBOURS = ("all", "within")
PRIORS = ("eq2", "relieff")


# --- numba kernels -------------------------------------------------------

@numba.njit(parallel=True, cache=True)
def pair_diffs(tables, first, second, attributes):
    """out[t, p] = diff(attributes[t], I_first[p], I_second[p]) (exact,
    RELIEF-D for missing values)."""
    out = np.empty((len(attributes), len(first)))
    for t in prange(len(attributes)):
        a = attributes[t]
        for p in range(len(first)):
            out[t, p] = attribute_diff(tables, a, first[p], second[p])
    return out


@numba.njit(cache=True)
def set_value(top, bottom, coef_max, coef_min):
    """sum_p coef_max[p] * top[p] + coef_min[p] * bottom[p]: W_S from the
    running max (top) and min (bottom) of the set's diffs on each pair."""
    total = 0.0
    for p in range(len(coef_max)):
        total += coef_max[p] * top[p] + coef_min[p] * bottom[p]
    return total


@numba.njit(inline="always", cache=True)
def forward_value(row, top, bottom, coef_max, coef_min):
    """W(S + {A}) from S's running max / min and A's diffs `row`, summed
    over the pairs in the order of :func:`set_value` (so that it equals the
    value computed from scratch bit for bit)."""
    total = 0.0
    for p in range(row.shape[0]):
        total += (coef_max[p] * max(top[p], row[p])
                  + coef_min[p] * min(bottom[p], row[p]))
    return total


@numba.njit(cache=True)
def forward_serial(diffs, top, bottom, coef_max, coef_min, candidates):
    """W(S + {A}) for each candidate A, in one thread."""
    out = np.empty(len(candidates))
    for t in range(len(candidates)):
        out[t] = forward_value(diffs[candidates[t]], top, bottom, coef_max,
                               coef_min)
    return out


@numba.njit(parallel=True, cache=True)
def forward_parallel(diffs, top, bottom, coef_max, coef_min, candidates):
    """W(S + {A}) for each candidate A, candidates in parallel."""
    out = np.empty(len(candidates))
    for t in prange(len(candidates)):
        out[t] = forward_value(diffs[candidates[t]], top, bottom, coef_max,
                               coef_min)
    return out


#: below this many (candidate, pair) terms a step runs in one thread: waking
#: the thread pool costs more than it saves (much more on a busy machine)
PARALLEL_WORK = 2_000_000


def forward_kernel(diffs, top, bottom, coef_max, coef_min, candidates):
    """W(S + {A}) for each candidate A, given S's running max and min."""
    kernel = (forward_parallel
              if len(candidates) * diffs.shape[1] >= PARALLEL_WORK
              else forward_serial)
    return kernel(diffs, top, bottom, coef_max, coef_min, candidates)


@numba.njit(inline="always", cache=True)
def pair_extremes(diffs, subset, p, top1, top2, arg_top, bot1, bot2, arg_bot):
    """The largest and second largest diff over S on pair p (and the
    smallest two), with the position in S of the extreme one.

    The identities (max 0, min 1) are the starting values, so a pair on
    which no member beats them keeps position -1 and never changes."""
    for t in range(len(subset)):
        d = diffs[subset[t], p]
        if d > top1[p]:
            top2[p], top1[p], arg_top[p] = top1[p], d, t
        elif d > top2[p]:
            top2[p] = d
        if d < bot1[p]:
            bot2[p], bot1[p], arg_bot[p] = bot1[p], d, t
        elif d < bot2[p]:
            bot2[p] = d


@numba.njit(inline="always", cache=True)
def without_value(t, top1, top2, arg_top, bot1, bot2, arg_bot, coef_max,
                  coef_min):
    """W(S - {subset[t]}): a pair's max (min) changes only where the
    removed attribute held it."""
    total = 0.0
    for p in range(len(coef_max)):
        high = top2[p] if arg_top[p] == t else top1[p]
        low = bot2[p] if arg_bot[p] == t else bot1[p]
        total += coef_max[p] * high + coef_min[p] * low
    return total


def _extremes_arrays(n_pairs):
    return (np.zeros(n_pairs), np.zeros(n_pairs), np.full(n_pairs, -1),
            np.ones(n_pairs), np.ones(n_pairs), np.full(n_pairs, -1))


@numba.njit(cache=True)
def backward_serial(diffs, subset, coef_max, coef_min, top1, top2, arg_top,
                    bot1, bot2, arg_bot):
    """W(S - {A}) for each A = subset[t], in one thread."""
    for p in range(diffs.shape[1]):
        pair_extremes(diffs, subset, p, top1, top2, arg_top, bot1, bot2,
                      arg_bot)
    out = np.empty(len(subset))
    for t in range(len(subset)):
        out[t] = without_value(t, top1, top2, arg_top, bot1, bot2, arg_bot,
                               coef_max, coef_min)
    return out


@numba.njit(parallel=True, cache=True)
def backward_parallel(diffs, subset, coef_max, coef_min, top1, top2, arg_top,
                      bot1, bot2, arg_bot):
    """W(S - {A}) for each A = subset[t], pairs and members in parallel."""
    for p in prange(diffs.shape[1]):
        pair_extremes(diffs, subset, p, top1, top2, arg_top, bot1, bot2,
                      arg_bot)
    out = np.empty(len(subset))
    for t in prange(len(subset)):
        out[t] = without_value(t, top1, top2, arg_top, bot1, bot2, arg_bot,
                               coef_max, coef_min)
    return out


def backward_kernel(diffs, subset, coef_max, coef_min):
    """W(S - {A}) for each A = subset[t]."""
    kernel = (backward_parallel
              if len(subset) * diffs.shape[1] >= PARALLEL_WORK
              else backward_serial)
    return kernel(diffs, subset, coef_max, coef_min,
                  *_extremes_arrays(diffs.shape[1]))


# --- pairs and their coefficients ----------------------------------------

def classification_pairs(data, refs, neighbours, priors="eq2"):
    """The (reference, neighbour) pairs and their weights in W_S.

    A hit of reference r (one of `count` found) gets ``coef_min = -1 /
    (count m)``; a miss of class C gets ``coef_max = P(C) / (count m)``
    (eq. 2), or ``P(C) / (1 - P(class(R))) / (count m)`` with
    ``priors="relieff"``.

    Returns
    -------
    first, second : int64 arrays (P,)
        Reference and neighbour of each pair.
    coef_max, coef_min : float64 arrays (P,)
    """
    m, n_groups, _ = neighbours.shape
    found = neighbours >= 0
    counts = found.sum(axis=2)                                 # (m, G)
    own = data.groups[refs]                                    # (m,)
    is_hit = np.arange(n_groups)[None, :] == own[:, None]      # (m, G)
    miss_weight = np.broadcast_to(data.priors[None, :], (m, n_groups))
    if priors == "relieff":
        miss_weight = miss_weight / (1 - data.priors[own])[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        per_neighbour = 1.0 / (counts * m)
    coef_min = np.where(is_hit, -per_neighbour, 0.0)
    coef_max = np.where(is_hit, 0.0, miss_weight * per_neighbour)
    r_index, g_index, s_index = np.nonzero(found)
    return (refs[r_index].astype(np.int64),
            neighbours[r_index, g_index, s_index].astype(np.int64),
            coef_max[r_index, g_index], coef_min[r_index, g_index])


def regression_pairs(data, refs, neighbours, weights):
    """Pairs and weights for a numeric target (RReliefF's weighting).

    With d = rank weight / the sum over R's neighbours and dC = |y_R - y_I|:
    ``coef_max = dC d / N_dC``, ``coef_min = -(1 - dC) d / (m - N_dC)``; a
    term whose denominator is 0 counts as 0 (as in RReliefF).
    """
    m = neighbours.shape[0]
    found = neighbours[:, 0, :] >= 0                         # (m, k)
    counts = found.sum(axis=1)
    rank = np.where(found, weights[None, :found.shape[1]], 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = np.where(counts[:, None] > 0, rank / rank.sum(axis=1)[:, None], 0)
    r_index, s_index = np.nonzero(found)
    first = refs[r_index].astype(np.int64)
    second = neighbours[r_index, 0, s_index].astype(np.int64)
    d = d[r_index, s_index]
    d_target = np.abs(data.target[first] - data.target[second])
    n_dc = float(np.sum(d_target * d))
    coef_max = d_target * d / n_dc if n_dc > 0 else np.zeros_like(d)
    coef_min = (-(1 - d_target) * d / (m - n_dc) if m > n_dc
                else np.zeros_like(d))
    return first, second, coef_max, coef_min


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
        Diff of numeric attributes (see :mod:`.diffs`).
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

    def __init__(self, X, y, discrete=None, *, task="classification",
                 k_nearest=1, n_iterations=None, random_state=0,
                 neighbours="all", priors="eq2", weighting="exp_rank",
                 sigma=None, diff="linear", t_eq=0.04, t_diff=0.10,
                 progress_callback=None):
        for name, value, allowed in (("task", task, TASKS),
                                     ("neighbours", neighbours, NEIGHBOURS),
                                     ("priors", priors, PRIORS)):
            if value not in allowed:
                raise ReliefInputError(f"Unknown {name} '{value}'; use one "
                                       f"of {', '.join(allowed)}.")
        self.task = task
        self.k_nearest = _check_k(k_nearest)
        self.neighbours = neighbours
        self.priors = priors
        self.monotone = neighbours == "all"
        self._rank_weights = (rank_weights(self.k_nearest, weighting, sigma)
                              if task == "regression" else None)
        self.data = prepare(X, y, discrete, task=task, diff=diff, t_eq=t_eq,
                            t_diff=t_diff)
        self.n_attributes = self.data.exact.values.shape[0]
        self.refs = reference_instances(self.data.n_instances, n_iterations,
                                        random_state).astype(np.int64)
        self._cache = None
        self.diffs = None
        if neighbours == "all":
            nbrs = self._search(None, progress_callback)
            first, second, self.coef_max, self.coef_min = self._pairs(nbrs)
            self.diffs = pair_diffs(self.data.exact, first, second,
                                    np.arange(self.n_attributes))

    # --- construction ----------------------------------------------------

    def _search(self, weights, progress_callback=None):
        return find_neighbours(self.data, self.refs, self.k_nearest, weights,
                               progress_callback)

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
        diffs = pair_diffs(self.data.exact, first, second, subset)
        return float(set_value(diffs.max(axis=0), diffs.min(axis=0),
                               coef_max, coef_min))

    def evaluate(self, subset):
        """W_S of the attributes `subset` (column indices)."""
        subset = self._attributes(subset)
        if self.neighbours == "within":
            return self._within(subset)
        top, bottom = self._extremes(subset)
        return float(set_value(top, bottom, self.coef_max, self.coef_min))

    def forward_values(self, subset, candidates):
        """W(S + {A}) for every A in `candidates`, in one pass per candidate
        over the pairs (S's running max / min are kept between calls)."""
        subset = self._attributes(subset)
        candidates = self._attributes(candidates)
        if self.neighbours == "within":
            return super().forward_values(subset, candidates)
        top, bottom = self._extremes(subset)
        return forward_kernel(self.diffs, top, bottom, self.coef_max,
                              self.coef_min, candidates)

    def backward_values(self, subset, candidates=None):
        """W(S - {A}) for every A in `candidates` (default: all of S)."""
        subset = self._attributes(subset)
        candidates = (subset if candidates is None
                      else self._attributes(candidates))
        if self.neighbours == "within" or len(subset) == 0:
            return super().backward_values(subset, candidates)
        values = backward_kernel(self.diffs, subset, self.coef_max,
                                 self.coef_min)
        position = {a: t for t, a in enumerate(subset.tolist())}
        return values[[position[a] for a in candidates.tolist()]]


def rfsm_value(X, y, subset, discrete=None, **options):
    """W_S of the attribute set `subset`; see :class:`RFSM` for options.

    Building :class:`RFSM` once and calling ``evaluate`` for many sets
    reuses the neighbour search.
    """
    return RFSM(X, y, discrete, **options).evaluate(subset)

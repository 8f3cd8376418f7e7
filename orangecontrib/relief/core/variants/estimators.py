"""Relief, ReliefF and RReliefF: prepare, find neighbours, apply a rule.

Each estimator is the same three steps (:mod:`..prepare`, the neighbour
search and a rule of the engine that :mod:`..engines` chooses); only the rule
differs.
"""
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

import numpy as np

from .. import engines
from ..compact import search as compact_search
from ..compact.data import CompactData, read
from ..compact.rules import by_columns, progress_shares
from ..compact.store import is_compact
from ..engines import preparation
from ..engines.interface import Engine
from ..errors import ReliefInputError
from ..options import (DIFF, K_RELIEFF, K_RRELIEFF, RANDOM_STATE, T_DIFF,
                       T_EQ, TIES, check_choice, check_distance_weights,
                       check_needs)
from ..prepare import PreparedData, prepare
from ..tables import DIFF_KINDS
from ..targets import TASKS
from ..sampling import check_client, check_memory, reference_instances
from .streaming import MissingValues, relieff_streaming
from ..validation import validated

WEIGHTINGS = ("exp_rank", "equal")


def prepared(X, y, discrete, n_iterations, random_state, *, task, diff,
             t_eq, t_diff, client=None, compact=False, parts=(),
             search=True) -> "tuple[PreparedData | CompactData, np.ndarray, Engine]":
    """The data prepared for the engine that suits its size (the compiled
    one for a Dask `client`), its references (:func:`reference_instances`)
    and the engine's kernels (:func:`..engines.kernels`); `parts` are the
    parts of the compiled engine's preparation that compile the call's
    kernels (:data:`..engines.preparation.PARTS`; none: all of them).

    With `compact`, a narrow array, a sparse matrix or a column-block
    source stays as it is (:class:`..compact.data.CompactData`, for the
    variants whose search and rule read it: :func:`neighbours_of` and
    :func:`..compact.rules.by_columns`), and with ``compact="always"`` any
    data (TuRF's, whose rounds take columns of it); otherwise such data
    are scaled to float64 tables as a whole (:func:`..prepare.prepare`);
    without `search`, which the variants whose rules read no neighbour
    lists give (the SURF family), with no search tables.
    The options are the caller's, checked (:func:`..validation.validated`)."""
    compact = compact == "always" or compact and is_compact(X)
    if compact:  # kernels of the compact search and rules as well
        parts = tuple(parts) + (preparation.COMPACT,)
    kept = KEPT.get()
    key = (id(X), id(y), id(discrete), task, diff, t_eq, t_diff, compact,
           tuple(parts), client is None, search)
    if kept is not None and key in kept and all(
            a is b for a, b in zip(kept[key][0], (X, y, discrete))):
        data, chosen = kept[key][1]
    else:
        chosen = (engines.choose_for(X, n_iterations, parts)
                  if check_client(client) is None else engines.COMPILED)
        if compact:
            data = read(X, y, discrete,
                        task=check_choice("task", task, TASKS),
                        kind=DIFF_KINDS[diff], t_eq=t_eq, t_diff=t_diff,
                        engine=chosen)
        else:
            data = prepare.unchecked(X, y, discrete, task=task, diff=diff,
                                     t_eq=t_eq, t_diff=t_diff, engine=chosen,
                                     search=search)
        if kept is not None:
            kept[key] = (X, y, discrete), (data, chosen)
    refs = reference_instances.unchecked(data.n_instances, n_iterations,
                                         random_state)
    return data, refs, engines.kernels(chosen)


#: the preparations of :func:`prepared` kept within
#: :func:`reusing_preparations` (None outside it), by the identity of the
#: arrays and the options
KEPT = ContextVar("kept_preparations", default=None)


@contextmanager
def reusing_preparations():
    """Within it, :func:`prepared` of the same arrays (the same objects,
    which the caller holds) with the same options gives the data and the
    engine it prepared the first time (the references drawn again): for
    a caller that scores one table again and again, as Iter's rounds with
    other distance weights."""
    token = KEPT.set({})
    try:
        yield
    finally:
        KEPT.reset(token)


#: the least an entry of a neighbour list takes (:class:`..neighbours.
#: Neighbours`): its index, distance and share (8 bytes each), its tie
#: set's first place and size (4 each)
BYTES_PER_NEIGHBOUR = 32


def neighbours_of(kernels: Engine, data, refs, k_nearest, distance_weights,
                  progress_callback, client=None, ties=TIES, distances=True):
    """The engine's neighbour search, on a Dask cluster when given its
    `client` (the compiled engine's search only): the
    :class:`..neighbours.NeighbourLists` of `refs` by the tie rule `ties`,
    whose distances a caller that reads none of them does without
    (`distances` False: :meth:`..engines.interface.Engine.
    find_neighbours`).
    A k above the number of instances means all of them (each engine's
    lists are at most that long, whatever k).  The options are the
    caller's, checked (:func:`..validation.validated`); the distance
    weights are checked here, against the data."""
    k = k_nearest
    # the lists, a reference's k of every class, are held at once
    check_memory("n_iterations" if len(refs) > data.n_instances
                 else "k_nearest", len(refs) * data.n_groups
                 * min(k, data.n_instances) * BYTES_PER_NEIGHBOUR)
    if isinstance(data, CompactData):
        weights = check_distance_weights(distance_weights, data.n_attributes)
        return compact_search.find_neighbours(data, refs, k, weights,
                                              progress_callback, client, ties)
    weights = check_distance_weights(distance_weights,
                                     data.exact.values.shape[0])
    on_cluster = {} if client is None else {"client": client}
    return kernels.find_neighbours(data, refs, k, weights,
                                   progress_callback, ties=ties,
                                   distances=distances, **on_cluster)


@validated
def relieff(X, y, discrete=None, *, k_nearest=K_RELIEFF, n_iterations=None,
            random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
            distance_weights=None, ties=TIES, progress_callback=None,
            client=None):
    """ReliefF attribute weights (Kononenko 1994).

    Parameters
    ----------
    X : array (n, a)
        Attribute values; NaN marks a missing value; nominal columns hold
        value codes 0..V-1.
    y : array (n,)
        Class codes 0..C-1; rows with a missing (NaN) class are left out.
    discrete : bool array (a,) or None
        Which columns are nominal (None: all numeric).
    k_nearest : int
        Near hits and near misses per class (Kononenko suggests 10).  A class
        with fewer instances contributes all it has, averaged over those.
    n_iterations : int or None
        None: every instance is a reference once (deterministic).  An int:
        that many references drawn at random with `random_state`.
    random_state : int, numpy Generator or None
        Seed of the sampling (default 0: equal inputs give equal outputs).
    diff : "linear", "squared" or "ramp"
        Transform of numeric diffs; the ramp uses t_eq and t_diff, given as
        fractions of the attribute's range.
    distance_weights : array (a,) or None
        Attribute weights in the neighbour distance (eq. 3.1).
    ties : "share" or "lower-index"
        The candidates at the k-th distance of a list (the k-th nearest
        hit or miss tied): "share" (default) gives each of the t tied the
        r / t of the r places left, the expectation over a random
        tie-break, so that the weights do not depend on the order of the
        rows; "lower-index" gives the places to the lower instance
        indices, as earlier versions did and a stable sort by distance
        does (:mod:`..formulas.ties`, doc/choices.md).
    progress_callback : callable(float) or None
        Receives the fraction of the neighbour search done; may raise to stop.
    client : distributed.Client or None
        Run the neighbour search as tasks on this Dask cluster: every
        instance a reference, as tasks over pairs of row blocks; sampled
        references, over row chunks of the instances
        (:mod:`..engines.compiled.neighbours.cluster`).  The weights are
        the same as without it.

    Notes
    -----
    `X` may be a memmap or the path of an ``.npy`` file.  With sampled
    references (`n_iterations` an int) and no `distance_weights`, its rows
    are then streamed (:func:`.streaming.relieff_streaming`: the same
    weights, to the bit, in the memory of a chunk of rows, not of the
    data); data with missing values, and every instance as a reference,
    are read into memory, as RELIEF-D and the all-pairs search need.

    Returns
    -------
    float64 array (a,)
        W[A], in [-1, 1]: positive for attributes that separate near
        instances of different classes.

    References
    ----------
    Kononenko, I. (1994). Estimating attributes: analysis and extensions of
    RELIEF. ECML-94.  Prat & Belanche (2006), Fig. 2 and eq. 2.5.
    """
    if isinstance(X, (str, Path)) and n_iterations is None:
        X = np.load(X, mmap_mode="r") if Path(X).suffix == ".npy" else X
    if (isinstance(X, (np.memmap, str, Path)) and n_iterations is not None
            and distance_weights is None):
        try:
            return relieff_streaming.unchecked(
                X, y, discrete, n_iterations=n_iterations,
                k_nearest=k_nearest, random_state=random_state, diff=diff,
                t_eq=t_eq, t_diff=t_diff, ties=ties, client=client,
                progress_callback=progress_callback)
        except MissingValues:  # RELIEF-D reads every column: in memory
            X = np.load(X, mmap_mode="r") if not hasattr(X, "shape") else X
    data, refs, kernels = prepared(
        X, y, discrete, n_iterations, random_state, task="classification",
        diff=diff, t_eq=t_eq, t_diff=t_diff, client=client, compact=True,
        parts=(preparation.RELIEFF,))
    return relieff_weights(data, refs, kernels, k_nearest, distance_weights,
                           progress_callback, client, ties)


def relieff_weights(data, refs, kernels, k_nearest, distance_weights=None,
                    progress_callback=None, client=None, ties=TIES):
    """ReliefF's weights of prepared data (float64 tables or compact) for
    the references `refs`: the search, then the rule."""
    search, rule = progress_shares(data, progress_callback)
    neighbours = neighbours_of(kernels, data, refs, k_nearest,
                               distance_weights, search, client, ties,
                               distances=False)  # the rule reads none
    priors = data.priors  # the rule's own, not the data (a task's)
    return by_columns(data, lambda exact: kernels.relieff_rule(
        exact, refs, neighbours, priors), progress_callback=rule,
        client=client, narrow=True)


@validated
def relieff_columns(X, y, discrete=None, *, k_nearest=K_RELIEFF,
                    n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                    t_eq=T_EQ, t_diff=T_DIFF, distance_weights=None,
                    ties=TIES, client=None):
    """ReliefF prepared once for scoring subsets of the columns (TuRF's
    rounds, :mod:`.turf`): ``(score_columns, a)``, where
    ``score_columns(columns, progress_callback=None)`` gives the weights
    of the columns `columns` (indices, increasing) scored without the
    others, as :func:`relieff` of ``X[:, columns]`` gives them, and a is
    the number of attributes.  Parameters as in :func:`relieff`."""
    data, refs, kernels = prepared(
        X, y, discrete, n_iterations, random_state, task="classification",
        diff=diff, t_eq=t_eq, t_diff=t_diff, client=client, compact="always",
        parts=(preparation.RELIEFF,))
    weights = check_distance_weights(distance_weights, data.n_attributes)
    draws = reference_draws(refs, data.n_instances, n_iterations,
                            random_state)

    def score_columns(columns, progress_callback=None):
        return relieff_weights(
            data.take(columns), next(draws), kernels, k_nearest,
            None if weights is None else weights[columns],
            progress_callback, client, ties)
    return score_columns, data.n_attributes


def reference_draws(refs, n, n_iterations, random_state):
    """The references of successive scorings of one preparation: `refs`
    (drawn by the preparation), then drawn again for each scoring, as
    scoring from scratch draws them: the same with a seed, the next draws
    of a numpy Generator."""
    yield refs
    while True:
        yield reference_instances.unchecked(n, n_iterations, random_state)


@validated
def relief(X, y, discrete=None, *, n_iterations=None,
           random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
           distance_weights=None, ties=TIES, progress_callback=None,
           client=None):
    """Kira & Rendell's Relief (1992): one nearest hit, one nearest miss.

    ``W[A] += (diff(A, R, M) - diff(A, R, H)) / m`` (Prat & Belanche 2006,
    Fig. 1).  Two classes only; use :func:`relieff` for more.  Use
    ``diff="squared"`` for Kira & Rendell's squared differences and
    Euclidean neighbours.  Where the nearest hit (or miss) is tied, the t
    tied share its place, 1 / t each (``ties="share"``), or the lowest
    index takes it (``"lower-index"``).  Parameters (`client` too) as in
    :func:`relieff`.
    """
    data, refs, kernels = prepared(
        X, y, discrete, n_iterations, random_state, task="classification",
        diff=diff, t_eq=t_eq, t_diff=t_diff, client=client, compact=True,
        parts=(preparation.RELIEFF,))
    if data.n_groups != 2:
        raise ReliefInputError(
            f"Relief handles two classes and the data has {data.n_groups}; "
            f"use ReliefF for more classes.")
    return relieff_weights(data, refs, kernels, 1, distance_weights,
                           progress_callback, client, ties)


@validated
def rank_weights(k_nearest, weighting="exp_rank", sigma=None, count=None):
    """Unnormalised influence d1 of the r-th nearest neighbour, r = 1..k.

    ``exp_rank``: d1 = exp(-(r / sigma)^2) (Robnik-Sikonja & Kononenko 2003),
    sigma defaulting to k / 3.5 (their k = 70, sigma = 20); ``equal``: 1.
    Only the first `count` ranks (default k) are returned: a k above the
    number of instances needs no more.
    """
    check_choice("weighting", weighting, WEIGHTINGS)
    count = k_nearest if count is None else min(count, k_nearest)
    check_needs("sigma", sigma, None, "weighting='exp_rank'",
                weighting == "exp_rank")
    if weighting == "equal":
        return np.ones(count)
    sigma = k_nearest / 3.5 if sigma is None else sigma
    with np.errstate(over="ignore"):  # a tiny sigma: influences of 0
        influence = np.exp(-(np.arange(1, count + 1) / sigma) ** 2)
    if influence[0] == 0:
        raise ReliefInputError(
            f"sigma={sigma!r} is too small: even the nearest neighbour's "
            f"influence exp(-(1 / sigma)^2) is 0 in floating point.")
    return influence


@validated
def rrelieff(X, y, discrete=None, *, k_nearest=K_RRELIEFF, n_iterations=None,
             random_state=RANDOM_STATE, weighting="exp_rank", sigma=None,
             diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF, distance_weights=None,
             ties=TIES, progress_callback=None, client=None):
    """RReliefF attribute weights for a numeric target.

    With the k nearest neighbours of each reference, weighted by rank::

        W[A] = N_dC&dA / N_dC - (N_dA - N_dC&dA) / (m - N_dC)

    Parameters
    ----------
    y : array (n,)
        The real target; rows where it is NaN are left out.
    k_nearest : int
        Neighbours per reference.
    weighting : "exp_rank" or "equal"
        Influence of a neighbour by its rank (see :func:`rank_weights`).
    sigma : float or None
        Width of the exp_rank weighting (default k / 3.5).
    ties : "share" or "lower-index"
        As in :func:`relieff`; with "share", a tie set whose places are
        p .. q gives each member the mean of those places' influences
        (the places below k), the expectation over a random tie-break.

    Other parameters (`client` too) as in :func:`relieff`.

    Returns
    -------
    float64 array (a,)

    References
    ----------
    Robnik-Sikonja, M., Kononenko, I. (1997). An adaptation of Relief for
    attribute estimation in regression. ICML-97.  Robnik-Sikonja &
    Kononenko (2003), Machine Learning 53, Fig. 3.
    """
    k = k_nearest
    data, refs, kernels = prepared(
        X, y, discrete, n_iterations, random_state, task="regression",
        diff=diff, t_eq=t_eq, t_diff=t_diff, client=client, compact=True,
        parts=(preparation.RRELIEFF,))
    weights = rank_weights.unchecked(k, weighting, sigma,
                                     count=data.n_instances)
    search, rule = progress_shares(data, progress_callback)
    neighbours = neighbours_of(kernels, data, refs, k, distance_weights,
                               search, client, ties,
                               distances=False)  # the rule reads none
    target = data.target
    sums = by_columns(data, lambda exact: kernels.rrelieff_sums(
        exact, refs, neighbours, target, weights),
        attributes=(False, True, True), progress_callback=rule,
        client=client, narrow=True)
    return rrelieff_weights(*sums, len(refs))


def rrelieff_weights(n_dc, n_da, n_dcda, m):
    """W[A] = N_dCdA / N_dC - (N_dA - N_dCdA) / (m - N_dC).

    A term whose denominator is 0 (no neighbour ever differs in the target,
    or every one differs fully) carries no evidence and counts as 0.
    """
    first = n_dcda / n_dc if n_dc > 0 else np.zeros_like(n_dcda)
    second = (n_da - n_dcda) / (m - n_dc) if m > n_dc else np.zeros_like(n_da)
    return first - second


"""Relief, ReliefF and RReliefF: prepare, find neighbours, apply a rule.

Each estimator is the same three steps (:mod:`.prepare`,
:mod:`.neighbours`, :mod:`.rules`); only the rule differs.
"""
import numbers

import numpy as np

from .errors import ReliefInputError
from .neighbours import find_neighbours
from .prepare import prepare
from .rules import relieff_rule, rrelieff_sums, rrelieff_weights

WEIGHTINGS = ("exp_rank", "equal")


def reference_instances(n, n_iterations, random_state):
    """Indices of the reference instances R_1 .. R_m.

    ``None``: every instance once, in order (Kononenko's deterministic
    "Relieved" mode).  An integer m: m draws with replacement from
    ``numpy.random.default_rng(random_state)``, as Relief's "randomly
    select an instance" (Kira & Rendell 1992).
    """
    if n_iterations is None:
        return np.arange(n)
    if not isinstance(n_iterations, numbers.Integral) or n_iterations < 1:
        raise ReliefInputError(f"n_iterations must be a positive integer or "
                               f"None (every instance), got {n_iterations!r}.")
    return np.random.default_rng(random_state).integers(0, n, size=n_iterations)


def _check_k(k_nearest):
    if not isinstance(k_nearest, numbers.Integral) or k_nearest < 1:
        raise ReliefInputError(f"k_nearest must be a positive integer, "
                               f"got {k_nearest!r}.")
    return int(k_nearest)


def _distance_weights(distance_weights, n_attrs):
    if distance_weights is None:
        return None
    w = np.array(distance_weights, dtype=np.float64).ravel()
    if len(w) != n_attrs:
        raise ReliefInputError(f"distance_weights has {len(w)} entries for "
                               f"{n_attrs} attributes.")
    if not np.isfinite(w).all() or (w < 0).any():
        raise ReliefInputError("distance_weights must be finite and >= 0.")
    return w


def _neighbours(data, refs, k_nearest, distance_weights, progress_callback):
    weights = _distance_weights(distance_weights, data.search.values.shape[0])
    return find_neighbours(data, refs, _check_k(k_nearest), weights,
                           progress_callback)


def relieff(X, y, discrete=None, *, k_nearest=10, n_iterations=None,
            random_state=0, diff="linear", t_eq=0.04, t_diff=0.10,
            distance_weights=None, progress_callback=None):
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
    progress_callback : callable(float) or None
        Receives the fraction of the neighbour search done; may raise to stop.

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
    data = prepare(X, y, discrete, task="classification", diff=diff,
                   t_eq=t_eq, t_diff=t_diff)
    refs = reference_instances(data.n_instances, n_iterations, random_state)
    neighbours = _neighbours(data, refs, k_nearest, distance_weights,
                             progress_callback)
    return relieff_rule(data.exact, refs, neighbours, data.priors)


def relief(X, y, discrete=None, *, n_iterations=None, random_state=0,
           diff="linear", t_eq=0.04, t_diff=0.10, distance_weights=None,
           progress_callback=None):
    """Kira & Rendell's Relief (1992): one nearest hit, one nearest miss.

    ``W[A] += (diff(A, R, M) - diff(A, R, H)) / m`` (Prat & Belanche 2006,
    Fig. 1).  Two classes only; use :func:`relieff` for more.  Use
    ``diff="squared"`` for Kira & Rendell's squared differences and
    Euclidean neighbours.  Parameters as in :func:`relieff`.
    """
    data = prepare(X, y, discrete, task="classification", diff=diff,
                   t_eq=t_eq, t_diff=t_diff)
    if data.n_groups != 2:
        raise ReliefInputError(
            f"Relief handles two classes and the data has {data.n_groups}; "
            f"use ReliefF for more classes.")
    refs = reference_instances(data.n_instances, n_iterations, random_state)
    neighbours = _neighbours(data, refs, 1, distance_weights,
                             progress_callback)
    return relieff_rule(data.exact, refs, neighbours, data.priors)


def rank_weights(k_nearest, weighting="exp_rank", sigma=None):
    """Unnormalised influence d1 of the r-th nearest neighbour, r = 1..k.

    ``exp_rank``: d1 = exp(-(r / sigma)^2) (Robnik-Sikonja & Kononenko 2003),
    sigma defaulting to k / 3.5 (their k = 70, sigma = 20); ``equal``: 1.
    """
    if weighting not in WEIGHTINGS:
        raise ReliefInputError(f"Unknown weighting '{weighting}'; use one of "
                               f"{', '.join(WEIGHTINGS)}.")
    if weighting == "equal":
        return np.ones(k_nearest)
    sigma = k_nearest / 3.5 if sigma is None else sigma
    if not (np.isfinite(sigma) and sigma > 0):
        raise ReliefInputError(f"sigma must be positive, got {sigma!r}.")
    return np.exp(-(np.arange(1, k_nearest + 1) / sigma) ** 2)


def rrelieff(X, y, discrete=None, *, k_nearest=50, n_iterations=None,
             random_state=0, weighting="exp_rank", sigma=None,
             diff="linear", t_eq=0.04, t_diff=0.10, distance_weights=None,
             progress_callback=None):
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

    Other parameters as in :func:`relieff`.

    Returns
    -------
    float64 array (a,)

    References
    ----------
    Robnik-Sikonja, M., Kononenko, I. (1997). An adaptation of Relief for
    attribute estimation in regression. ICML-97.  Robnik-Sikonja &
    Kononenko (2003), Machine Learning 53, Fig. 3.
    """
    k = _check_k(k_nearest)
    weights = rank_weights(k, weighting, sigma)
    data = prepare(X, y, discrete, task="regression", diff=diff,
                   t_eq=t_eq, t_diff=t_diff)
    refs = reference_instances(data.n_instances, n_iterations, random_state)
    neighbours = _neighbours(data, refs, k, distance_weights,
                             progress_callback)
    sums = rrelieff_sums(data.exact, refs, neighbours, data.target, weights)
    return rrelieff_weights(*sums, len(refs))

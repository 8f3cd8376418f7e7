"""SURF, SURF*, MultiSURF and MultiSURF*: Relief over distance thresholds.

Each is the same three steps as ReliefF -- prepare (:mod:`..prepare`),
find the neighbours, apply a rule -- with neighbourhoods bounded by a
distance instead of a count (definitions in :mod:`..formulas.neighbourhoods`).  Every
instance is a reference.  Classification weights misses of several
classes by ReliefF's priors; a numeric target uses RReliefF's rule over
the same neighbourhoods.  Where scikit-rebate and fast-select normalise
differently, ``doc/surf.md`` says so.
"""
from collections import namedtuple

import numpy as np

from ..compact import hoods as compact_hoods
from ..compact.rules import is_blocked
from ..engines import preparation
from ..errors import ReliefInputError
from .estimators import prepared, reference_draws, rrelieff_weights
from ..options import (DEVIATION, DIFF, RANDOM_STATE, T_DIFF, T_EQ,
                       check_distance_weights)
from ..formulas.neighbourhoods import DEAD_BAND, NO_FAR, OPPOSITE, SIGMAS
from ..formulas.stir import stir_sums
from ..validation import validated

#: method -> (thresholds from the reference's own distances, far scoring)
NEIGHBOURHOODS = {
    "surf": (False, NO_FAR),
    "surf*": (False, OPPOSITE),
    "multisurf": (True, NO_FAR),
    "multisurf*": (True, OPPOSITE),
}

RadiusSums = namedtuple("RadiusSums", [
    "weights",  # (a,) the method's attribute weights
    "stir",     # StirSums of the near pairs (:mod:`..formulas.stir`), or None
])


def neighbourhood_kind(method, deviation):
    """(local, far, ddof) of a SURF-family `method` (a key of
    :data:`NEIGHBOURHOODS`) and MultiSURF's `deviation`."""
    if method not in NEIGHBOURHOODS:
        raise ReliefInputError(
            f"method must be one of {', '.join(map(repr, NEIGHBOURHOODS))}, "
            f"got {method!r}.")
    local, far = NEIGHBOURHOODS[method]
    return local, far, SIGMAS[deviation]


def own_labels(data, task):
    """The labels of the rule for the data's own class or target, one row
    (the class codes, or the scaled target)."""
    labels = data.groups if task == "classification" else data.target
    return labels[None].astype(np.float64)


def radius_weights(sums, scalars, task, far, m):
    """The weights from one labelling's sums of the rule over m
    references: ReliefF's or RReliefF's (whose N_dC of the near and far
    sets are `scalars`), far sets subtracted."""
    if task == "classification":
        return (sums[0] + sums[1]) / m
    weights = rrelieff_weights(scalars[0], sums[0], sums[1], m)
    if far != NO_FAR:
        weights = weights - rrelieff_weights(scalars[1], sums[2], sums[3], m)
    return weights


@validated
def neighbourhood_sums(X, y, discrete=None, *, method="multisurf",
                       task="classification", deviation=DEVIATION,
                       n_iterations=None, random_state=RANDOM_STATE,
                       diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
                       distance_weights=None, stir=False,
                       progress_callback=None):
    """The weights of a SURF-family `method` and, with `stir`, the sums
    STIR tests (Le et al. 2019) over the near hit and near miss pairs, each
    pair weighted by its coefficient in the near update
    (:mod:`..formulas.stir`; classification only).

    Parameters as in :func:`multisurf`; `method` one of
    :data:`NEIGHBOURHOODS`.  Weighted distances are found as those of
    compact data (:mod:`..compact.hoods`), whatever the input: the rules
    read them given.

    Returns
    -------
    RadiusSums (its `stir` None without `stir`)
    """
    kind = neighbourhood_kind(method, deviation)
    if stir and task != "classification":
        raise ReliefInputError("STIR compares hits with misses and needs "
                               "classes; the target is numeric.")
    data, refs, kernels = prepared(
        X, y, discrete, n_iterations, random_state, task=task, diff=diff,
        t_eq=t_eq, t_diff=t_diff,
        compact=True if distance_weights is None else "always",
        parts=(preparation.SURF,), search=False)
    weights = distance_weights if distance_weights is None else (
        check_distance_weights(distance_weights, data.n_attributes))
    return sums_of(data, refs, kernels, kind, task, stir, progress_callback,
                   weights)


def sums_of(data, refs, kernels, kind, task, stir=False,
            progress_callback=None, distance_weights=None):
    """The :class:`RadiusSums` of prepared data (float64 tables or
    compact) for the references `refs` and the neighbourhood `kind`
    ((local, far, ddof) of :func:`neighbourhood_kind`), the distance's
    attribute weights `distance_weights` (None: 1; compact data only)."""
    sums, scalars = rule_sums(data, refs, kernels, kind, task, stir,
                              progress_callback,
                              distance_weights=distance_weights)
    weights = radius_weights(sums, scalars, task, kind[1], len(refs))
    return RadiusSums(weights, stir_sums(sums, scalars, len(refs))
                      if stir else None)


def rule_sums(data, refs, kernels, kind, task, stir=False,
              progress_callback=None, band=DEAD_BAND, weighting=None,
              distance_weights=None, hits_within=None):
    """The engine's sums and scalars of the rule for the data's own
    labels (``radius_rule`` of :class:`..engines.interface.Engine`, on
    float64 tables or compact data), `kind` as :func:`sums_of` takes it,
    `band` and `weighting` as the engines take them (the SWRF family),
    the distance weighted by `distance_weights` (compact data only);
    `hits_within` (target, bound): the classification rule over a
    numeric target's hits and misses (the engines' `hit_bound`)."""
    local, far, ddof = kind
    labels, hit_bound = own_labels(data, task), None
    if hits_within is not None:
        labels, hit_bound = hits_within[0][None], hits_within[1]
    if is_blocked(data):
        sums, scalars = compact_hoods.radius_rule(
            data, refs, labels, task, local, far, ddof, stir,
            progress_callback, band=band, weighting=weighting,
            distance_weights=distance_weights, hit_bound=hit_bound)
    else:
        sums, scalars = kernels.radius_rule(
            data, refs, labels, task, local, far, ddof, stir,
            progress_callback, band=band, weighting=weighting,
            hit_bound=hit_bound)
    return sums[0], scalars[0]


@validated
def radius_columns(X, y, discrete=None, *, method="multisurf",
                   task="classification", deviation=DEVIATION,
                   n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                   t_eq=T_EQ, t_diff=T_DIFF):
    """A SURF-family `method` prepared once for scoring subsets of the
    columns (TuRF's rounds): ``(score_columns, a)`` as
    :func:`.estimators.relieff_columns` returns them.  Parameters as in
    :func:`neighbourhood_sums`."""
    kind = neighbourhood_kind(method, deviation)
    data, refs, kernels = prepared(X, y, discrete, n_iterations,
                                   random_state, task=task, diff=diff,
                                   t_eq=t_eq, t_diff=t_diff,
                                   compact="always", parts=(preparation.SURF,))
    draws = reference_draws(refs, data.n_instances, n_iterations,
                            random_state)

    def score_columns(columns, progress_callback=None):
        return sums_of(data.take(columns), next(draws), kernels, kind, task,
                       progress_callback=progress_callback).weights
    return score_columns, data.n_attributes


def _weights_of(method, arguments):
    """The weights of the SURF-family `method` with an estimator's
    `arguments` (its ``locals()``), checked on its entry."""
    return neighbourhood_sums.unchecked(method=method, **arguments).weights


@validated
def surf(X, y, discrete=None, *, task="classification", n_iterations=None,
         random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
         distance_weights=None, progress_callback=None):
    """SURF attribute weights (Greene, Penrod, Kiralis & Moore 2009).

    Every instance closer to the reference than T, the mean distance of
    all pairs, is its neighbour; the update is ReliefF's over those
    neighbours (:func:`..formulas.neighbourhoods.class_coefficients`), or
    RReliefF's for a numeric target.  Parameters as in :func:`multisurf`.

    References
    ----------
    Greene, C. S., Penrod, N. M., Kiralis, J., Moore, J. H. (2009).
    Spatially uniform ReliefF (SURF) for computationally-efficient
    filtering of gene-gene interactions. BioData Mining 2:5.
    """
    return _weights_of("surf", locals())


@validated
def surfstar(X, y, discrete=None, *, task="classification",
             n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
             t_eq=T_EQ, t_diff=T_DIFF, distance_weights=None,
             progress_callback=None):
    """SURF* attribute weights (Greene, Himmelstein, Kiralis & Moore 2010):
    SURF's update over the near instances minus the same update over the
    far ones (farther than T).  Parameters as in :func:`multisurf`.

    References
    ----------
    Greene, C. S., Himmelstein, D. S., Kiralis, J., Moore, J. H. (2010).
    The informative extremes: using both nearest and farthest individuals
    can improve Relief algorithms in the domain of human genetics.
    EvoBIO 2010, LNCS 6023.
    """
    return _weights_of("surf*", locals())


@validated
def multisurf(X, y, discrete=None, *, task="classification",
              deviation=DEVIATION, n_iterations=None,
              random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
              distance_weights=None, progress_callback=None):
    """MultiSURF attribute weights (Urbanowicz, Olson, Schmitt, Meeker &
    Moore 2018).

    The neighbours of reference i are the instances j with
    D(i, j) < mu_i - sigma_i / 2, mu_i and sigma_i the mean and standard
    deviation of i's distances to the others (eq. 2 of the paper); the
    update is ReliefF's over them, or RReliefF's for a numeric target.

    Parameters
    ----------
    X : array (n, a)
        Attribute values; NaN marks a missing value (RELIEF-D diffs);
        nominal columns hold value codes 0..V-1.
    y : array (n,)
        Class codes, or a real target with ``task="regression"``; rows
        with a missing target are left out.
    discrete : bool array (a,) or None
        Which columns are nominal (None: all numeric).
    task : "classification" or "regression"
    deviation : "population" or "sample"
        The standard deviation of the thresholds: the population's
        (scikit-rebate, fast-select) or the sample's (STIR, NPDR).
    n_iterations : int or None
        None: every instance is a reference once (the papers' choice).  An
        int: that many references drawn with `random_state`; thresholds
        still come from all instances.
    random_state : int, numpy Generator or None
    diff : "linear", "squared" or "ramp"
        Transform of numeric diffs (ramp thresholds t_eq, t_diff).
    distance_weights : array (a,) or None
        Attribute weights in the distance, D(i, j) = sum_A w_A diff(A, i,
        j) (Prat & Belanche 2006, eq. 3.1; Iter's rounds, :mod:`.iterative`);
        None: all 1.
    progress_callback : callable(float) or None
        Receives the fraction done; may raise to stop.

    Returns
    -------
    float64 array (a,)

    References
    ----------
    Urbanowicz, R. J., Olson, R. S., Schmitt, P., Meeker, M., Moore, J. H.
    (2018). Benchmarking relief-based feature selection methods for
    bioinformatics data mining. J Biomed Inform 85:168-188.
    """
    return _weights_of("multisurf", locals())


@validated
def multisurfstar(X, y, discrete=None, *, task="classification",
                  deviation=DEVIATION, n_iterations=None,
                  random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                  t_diff=T_DIFF, distance_weights=None,
                  progress_callback=None):
    """MultiSURF* attribute weights (Granizo-Mackenzie & Moore 2013).

    Near as MultiSURF; the instances farther than mu_i + sigma_i / 2 are
    scored by their similarity 1 - diff, hits against and misses for the
    attribute (the dead band between the two limits is ignored), without
    the term of that score that is the same for every attribute
    (:mod:`..formulas.neighbourhoods`): the far update is subtracted, as
    SURF*'s, and a constant attribute weighs 0; a numeric target
    subtracts RReliefF's far update.  Parameters as in
    :func:`multisurf`.

    References
    ----------
    Granizo-Mackenzie, D., Moore, J. H. (2013). Multiple threshold spatially
    uniform ReliefF for the genetic analysis of complex human diseases.
    EvoBIO 2013, LNCS 7833.
    """
    return _weights_of("multisurf*", locals())

"""RReliefF for several targets: multi-target regression and multi-label
classification, an overall ranking and one per target from one search.

Multi-target RReliefF (Petkovic, Kocev & Dzeroski 2020, Machine Learning
109, "Feature ranking for multi-target regression", section 3.2) is
RReliefF (Robnik-Sikonja & Kononenko 2003, Fig. 3) whose target diff is
the mean of the targets' range-scaled absolute differences; the rule
that reads it is RReliefF's,

    W[A] = N_dC&dA / N_dC - (N_dA - N_dC&dA) / (m - N_dC),

and the same neighbours give each target's own ranking, its diff alone
in place of the mean.  Multi-label ReliefF (Reyes, Morell & Ventura
2015, Neurocomputing 161, RReliefF-ML) is the same rule over a
label-set distance (:data:`..formulas.target_sets.LABEL_DISTANCES`,
Hamming loss the default); each label's own ranking is ReliefF of that
label (its hits and misses, each class's prior), as Clus computes it.

The steps are those of every variant: the data prepared once (one group:
the search is RReliefF's, the k nearest of every instance), the engine's
neighbour lists, and the engine's rule over them
(:meth:`..engines.interface.Engine.neighbour_sums`): each neighbour's
coefficients, one per ranking, computed here over the lists' entries,
and in one pass over the lists each pair's diffs computed once and
every ranking's sums added.

Two options follow Clus (``ClusReliefFeatureRanking``, the only other
implementation): ``weighting="clus"``, neighbour r's influence
exp(-(sigma (r - 1))^2), r = 1 .. k (sigma 0.5 by default: Clus's
``WeightingSigma``), and ``missing="clus"``, its diff of missing values
(:func:`..formulas.target_sets.clus_missing_table`) in place of
Kononenko's RELIEF-D; together they give Clus's importances.
"""
from collections import namedtuple
from dataclasses import replace

import numpy as np

from .. import engines
from ..engines import preparation
from ..engines.vectorised.rules import rank_shares, relieff_coefficients
from ..errors import ReliefInputError
from .estimators import neighbours_of, rank_weights, rrelieff_weights
from ..formulas.target_sets import (LABEL_DISTANCES, clus_missing_table,
                                    label_set_diffs, target_diffs)
from ..options import (DIFF, K_RELIEFF, K_RRELIEFF, RANDOM_STATE, T_DIFF,
                       T_EQ, TIES, check_choice)
from ..prepare import assembled, known_target_rows
from ..sampling import reference_instances
from ..tables import DIFF_KINDS
from ..targets import class_groups
from ..values import as_real, scale_columns
from ..validation import validated

#: the influence of a neighbour by its rank: RReliefF's exp(-(r /
#: sigma)^2), equal, or Clus's exp(-(sigma (r - 1))^2)
TARGET_WEIGHTINGS = ("exp_rank", "equal", "clus")
#: the diff of a missing attribute value: Kononenko's RELIEF-D or Clus's
MISSING_RULES = ("relief-d", "clus")
#: Clus's default sigma of ``weighting="clus"`` (``WeightingSigma``)
CLUS_SIGMA = 0.5

TargetWeights = namedtuple("TargetWeights", ["overall", "per_target"])
TargetWeights.__doc__ = """The weights of a multi-target or multi-label
ranking: ``overall`` (a,), and ``per_target`` (t, a), row s the ranking
of target s."""


def influences(k_nearest, weighting, sigma, count):
    """The unnormalised influence of the r-th nearest neighbour, r = 1 ..
    min(k, count): :func:`.estimators.rank_weights`, or Clus's
    exp(-(sigma (r - 1))^2) (``weighting="clus"``)."""
    weighting = check_choice("weighting", weighting, TARGET_WEIGHTINGS)
    if weighting != "clus":
        return rank_weights.unchecked(k_nearest, weighting, sigma, count)
    sigma = CLUS_SIGMA if sigma is None else sigma
    ranks = np.arange(min(k_nearest, count))
    return np.exp(-(sigma * ranks) ** 2)


def as_targets(Y, what):
    """Y as float64 (n, t), t >= 2, NaN where unknown, or a
    ReliefInputError naming the problem."""
    given = np.asarray(Y)
    if given.ndim != 2 or given.shape[1] < 2:
        raise ReliefInputError(
            f"{what} needs a 2-D target, one column per target and at least "
            f"two, got shape {given.shape}.")
    Y = np.array(as_real(given, "The targets"), dtype=np.float64)
    if np.isinf(Y).any():
        raise ReliefInputError("The targets contain infinite values.")
    return Y


def scaled_targets(Y, names):
    """Each column of Y scaled to [0, 1] by its range, or a
    ReliefInputError naming a column of one value."""
    low, high = Y.min(axis=0), Y.max(axis=0)
    for s in np.flatnonzero(high == low):
        raise ReliefInputError(
            f"Target {names[s]} has a single value ({low[s]:g}); a target "
            f"must vary to tell attributes apart.")
    return (Y - low) / (high - low)


def check_labels(Y, names):
    """ReliefInputError for a label column with a value other than 0
    and 1, or with one value."""
    for s in range(Y.shape[1]):
        odd = np.setdiff1d(Y[:, s], [0.0, 1.0])
        if len(odd):
            raise ReliefInputError(
                f"Label {names[s]} holds {odd[0]:g}; a label is 0 or 1.")
    scaled_targets(Y, names)
    return Y


def names_of_targets(names, t):
    """The targets' names: `names`, or 1 .. t."""
    names = [str(s + 1) for s in range(t)] if names is None else list(names)
    if len(names) != t:
        raise ReliefInputError(f"{len(names)} target names for {t} targets.")
    return names


def prepared_targets(X, Y, discrete, n_iterations, random_state, *, diff,
                     t_eq, t_diff, missing, n_values, what):
    """(prepare_groups, of_kept, refs, kernels) of the rows whose targets
    are all known: ``prepare_groups(groups, n_groups, priors)`` the data
    prepared with those groups (one group: RReliefF's search) for the
    engine that suits their size (the vectorised one with
    ``missing="clus"``, whose tables it holds), ``of_kept(Y)`` the
    targets of those rows (:func:`kept_targets`), the references and the
    engine's kernels."""
    missing = check_choice("missing", missing, MISSING_RULES)
    Y = as_targets(Y, what)
    known = np.where(np.isnan(Y).any(axis=1), np.nan, 0.0)
    X, _, nominal, kept = known_target_rows(X, known, discrete)
    engine = (engines.VECTORISED if missing == "clus" else
              engines.choose_for(X, n_iterations, (preparation.RRELIEFF,)))
    scaled, n = scale_columns(X, nominal), len(X)
    clus = (nominal_values(n_values, X, nominal) if missing == "clus"
            else None)

    def prepare_groups(groups, n_groups, priors):
        data = assembled(scaled, nominal, groups, n_groups, priors,
                         np.zeros(n), kept, DIFF_KINDS[diff], t_eq, t_diff,
                         engine)
        return data if clus is None else with_clus_missing(data, clus)

    refs = reference_instances.unchecked(n, n_iterations, random_state)
    return (prepare_groups, kept_targets(Y, kept, what), refs,
            engines.kernels(engine))


def kept_targets(Y, kept, what):
    """``of_kept(targets)``: the rows `kept` of `targets`, of the shape
    of `Y` and known in those rows (`Y` itself, or a permutation of its
    rows that keeps the rows with a missing target in place); a
    ReliefInputError for other targets."""
    shape = Y.shape

    def of_kept(targets):
        targets = as_targets(targets, what)
        if targets.shape != shape or np.isnan(targets[kept]).any():
            raise ReliefInputError(
                f"{what} rescores targets of the shape it was given, "
                f"{shape}, known in the rows where they were known.")
        return targets[kept]

    return of_kept


def one_group(n):
    """(groups, n_groups, priors) of n instances in one group."""
    return np.zeros(n, np.int64), 1, np.ones(1)


def nominal_values(n_values, X, nominal):
    """V of each attribute for Clus's nominal missing diff: `n_values`
    (a,), or each nominal column's largest code + 1."""
    if n_values is not None:
        n_values = np.asarray(n_values, np.float64).ravel()
        if len(n_values) != X.shape[1]:
            raise ReliefInputError(f"n_values has {len(n_values)} entries "
                                   f"for {X.shape[1]} attributes.")
        return n_values
    with np.errstate(invalid="ignore"):
        largest = np.nan_to_num(np.fmax.reduce(X, axis=0), nan=0.0)
    return np.where(nominal, largest + 1, 0.0)


def with_clus_missing(data, n_values):
    """`data` (vectorised tables) whose diffs of missing values are
    Clus's (:func:`..formulas.target_sets.clus_missing_table`)."""
    exact = data.exact
    if not np.isnan(exact.values).any():
        return data
    table = clus_missing_table(exact.values.T, exact.nominal, n_values)
    slot = np.arange(len(exact.values), dtype=np.int32)
    return replace(data, exact=exact._replace(
        slot=slot, relief_d=np.repeat(table, data.n_groups, axis=1)))


def target_sums(kernels, exact, refs, neighbours, weights, pair_diffs):
    """RReliefF's sums for several target diffs over one set of neighbour
    lists: (N_dC (c,), N_dA (a,), N_dCdA (c, a)), where pair_diffs(i, j)
    gives the c target diffs of the pairs (E, c) and d, a neighbour's
    expected rank weight over its list's (as
    :func:`..engines.vectorised.rules.rrelieff_sums`), weighs each term:
    the engine's :meth:`~..engines.interface.Engine.neighbour_sums`, the
    attributes' diffs of each pair computed once for every target."""
    norms = np.cumsum(weights)

    def coefficients(start, part):
        d = rank_shares(part, weights, norms)
        pairs = refs[start:start + len(part)][part.owner]
        return np.column_stack([d, pair_diffs(pairs, part.index)
                                * d[:, None]])

    totals, sums = kernels.neighbour_sums(exact, refs, neighbours,
                                          coefficients)
    return totals[1:], sums[0], sums[1:]


def weights_of(sums, m):
    """The rankings of the sums of :func:`target_sums`, one row each."""
    n_dc, n_da, n_dcda = sums
    return np.array([rrelieff_weights(n_dc[c], n_da, n_dcda[c], m)
                     for c in range(len(n_dc))])


@validated
def rrelieff_multitarget(X, Y, discrete=None, *, k_nearest=K_RRELIEFF,
                         n_iterations=None, random_state=RANDOM_STATE,
                         weighting="exp_rank", sigma=None, diff=DIFF,
                         t_eq=T_EQ, t_diff=T_DIFF, distance_weights=None,
                         ties=TIES, missing="relief-d", n_values=None,
                         target_names=None, progress_callback=None,
                         rescorer=False):
    """Multi-target RReliefF (Petkovic, Kocev & Dzeroski 2020): the
    overall ranking and each target's, from one neighbour search.

    Parameters
    ----------
    X : array (n, a)
        Attribute values, NaN missing; nominal columns hold codes.
    Y : array (n, t), t >= 2
        Numeric targets, each scaled by its range; rows with a missing
        target are left out.
    weighting : "exp_rank", "equal" or "clus"
        A neighbour's influence by rank: RReliefF's exp(-(r / sigma)^2)
        (sigma default k / 3.5), equal, or Clus's exp(-(sigma (r -
        1))^2) (sigma default 0.5).
    missing : "relief-d" or "clus"
        The diff of a missing attribute value: Kononenko's RELIEF-D, or
        Clus's (1 - 1/V nominal; max(x, 1 - x), 1 when both are missing,
        numeric), which runs on the vectorised engine.
    n_values : array (a,) or None
        Each nominal attribute's number of values, for
        ``missing="clus"`` (None: its largest code + 1).
    target_names : list of str or None
        For messages (a target of one value is named).
    rescorer : bool
        Return ``rescore(Y)`` instead: the TargetWeights of targets Y of
        the same rows (the given ones, or a permutation of their rows,
        as a permutation test draws), from this call's neighbour search.

    Other parameters as in :func:`.estimators.rrelieff`.

    Returns
    -------
    TargetWeights
        ``overall`` (a,), the mean scaled difference of the targets as
        the target diff; ``per_target`` (t, a), each target's own diff
        over the same neighbours.
    """
    prepare_groups, of_kept, refs, kernels = prepared_targets(
        X, Y, discrete, n_iterations, random_state, diff=diff, t_eq=t_eq,
        t_diff=t_diff, missing=missing, n_values=n_values,
        what="Multi-target RReliefF")
    data = prepare_groups(*one_group(len(of_kept(Y))))
    names = names_of_targets(target_names, np.shape(Y)[1])
    k = k_nearest
    weights = influences(k, weighting, sigma, data.n_instances)
    neighbours = neighbours_of(kernels, data, refs, k, distance_weights,
                               progress_callback, ties=ties)

    def rescore(targets):
        scaled = scaled_targets(of_kept(targets), names)

        def pair_diffs(i, j):
            each = np.abs(scaled[i] - scaled[j])
            return np.column_stack([target_diffs(scaled[i], scaled[j]),
                                    each])

        rankings = weights_of(target_sums(kernels, data.exact, refs,
                                          neighbours, weights, pair_diffs),
                              len(refs))
        return TargetWeights(rankings[0], rankings[1:])

    return rescore if rescorer else rescore(Y)


@validated
def relieff_multilabel(X, Y, discrete=None, *, k_nearest=K_RELIEFF,
                       n_iterations=None, random_state=RANDOM_STATE,
                       distance="hamming", weighting="equal", sigma=None,
                       diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
                       distance_weights=None, ties=TIES, missing="relief-d",
                       n_values=None, target_names=None,
                       progress_callback=None, rescorer=False,
                       per_label=True):
    """Multi-label ReliefF (Reyes, Morell & Ventura 2015, RReliefF-ML):
    the overall ranking over a label-set distance, and each label's
    ReliefF ranking.

    Parameters
    ----------
    Y : array (n, L), L >= 2
        The labels, 0 or 1; rows with a missing label are left out.
    distance : "hamming", "accuracy", "f1" or "subset"
        The label-set distance of the overall ranking
        (:mod:`..formulas.target_sets`): Hamming loss (default), 1 -
        accuracy, 1 - F1, or 1 - subset accuracy.
    weighting : "equal", "exp_rank" or "clus"
        A neighbour's influence by rank (:func:`rrelieff_multitarget`),
        in the overall ranking and in each label's ReliefF (its hits'
        and each class's misses' lists weighted alike).
    per_label : bool
        False: the overall ranking only, without the labels' searches
        (``per_target`` then has no rows).

    Other parameters as in :func:`rrelieff_multitarget`; with
    ``rescorer=True`` the overall ranking of permuted labels takes this
    call's search, each label's ReliefF a search of its classes.

    Returns
    -------
    TargetWeights
        ``overall`` (a,): RReliefF's rule with the label-set distance as
        the target diff, over one search; ``per_target`` (L, a): ReliefF
        of each label (a search of its two classes each).
    """
    distance = check_choice("distance", distance, LABEL_DISTANCES)
    prepare_groups, of_kept, refs, kernels = prepared_targets(
        X, Y, discrete, n_iterations, random_state, diff=diff, t_eq=t_eq,
        t_diff=t_diff, missing=missing, n_values=n_values,
        what="Multi-label ReliefF")
    data = prepare_groups(*one_group(len(of_kept(Y))))
    names = names_of_targets(target_names, np.shape(Y)[1])
    check_labels(of_kept(Y), names)
    k = k_nearest
    weights = influences(k, weighting, sigma, data.n_instances)
    neighbours = neighbours_of(kernels, data, refs, k, distance_weights,
                               progress_callback, ties=ties)

    def rescore(targets):
        labels = check_labels(of_kept(targets), names)

        def pair_diffs(i, j):
            return label_set_diffs(labels[i], labels[j], distance)[:, None]

        overall = weights_of(target_sums(kernels, data.exact, refs,
                                         neighbours, weights, pair_diffs),
                             len(refs))[0]
        ranked = range(labels.shape[1]) if per_label else ()
        per_target = [label_relieff(prepare_groups, labels[:, s], refs,
                                    kernels, k, weights, distance_weights,
                                    ties)
                      for s in ranked]
        return TargetWeights(overall, np.reshape(per_target,
                                                 (len(ranked), len(overall))))

    return rescore if rescorer else rescore(Y)


def label_relieff(prepare_groups, label, refs, kernels, k, weights,
                  distance_weights, ties):
    """ReliefF of one label: the data prepared with its two classes, their
    search, and each neighbour's terms weighted by its expected influence
    over its list's (ReliefF's 1 / k where the influences are equal)."""
    groups, n_groups, priors = class_groups(label)
    data = prepare_groups(groups, n_groups, priors)
    neighbours = neighbours_of(kernels, data, refs, k, distance_weights,
                               None, ties=ties)
    norms = np.cumsum(weights)

    def coefficients(start, part):
        places = part.places
        coef = relieff_coefficients(groups[refs[start:start + len(part)]],
                                    places, priors)
        norm = norms[np.maximum(places, 1) - 1] / np.maximum(places, 1)
        terms = (coef / norm)[part.owner, part.group] * part.place_weights(
            weights)
        return terms[:, None]

    _, sums = kernels.neighbour_sums(data.exact, refs, neighbours,
                                     coefficients)
    return sums[0] / len(refs)

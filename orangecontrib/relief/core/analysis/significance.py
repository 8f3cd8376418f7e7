"""Which attributes are significant: STIR, permutation p-values and the
adjustments for testing many attributes at once.

* STIR (Le, Urbanowicz, Moore & McKinney 2019) reads a Relief weight as a
  two-sample statistic: the diffs over the neighbour pairs of different
  classes (misses) against those of the same class (hits), a pooled
  pseudo t-test per attribute, each pair weighted so that the difference
  of the means is the method's weight (:mod:`..formulas.stir`).  It needs
  the weighted sums of the diffs and of their squares over both kinds of
  pairs, which the SURF family's kernels keep beside their weights
  (:func:`..variants.surf.neighbourhood_sums`) and which :func:`relieff_pair_sums`
  collects over ReliefF's lists.  Evidence that cannot support a test
  gets no verdict (:func:`stir_test`, :func:`no_verdict`).
* Permutation p-values (:func:`permutation_pvalues`) work with any scorer:
  the class is permuted with a seed and the data scored again.  RReliefF's
  neighbours and the SURF family's neighbourhoods do not depend on the
  class, so :func:`rrelieff_rescorer` and :func:`surf_rescorer` apply their
  rules to the permuted class without searching again (the SURF family
  to PERMUTATION_BATCH permutations at once, for one computation of the
  distances).
* :func:`adjust` turns the p-values into Benjamini-Hochberg q-values
  (false discovery rate), Holm's or Bonferroni's adjusted p-values (family-
  wise error).  Kira & Rendell's bound is :func:`.threshold.chebyshev_threshold`.
"""
from collections import namedtuple

import numpy as np
from scipy.special import stdtr

from ..engines import preparation
from ..errors import ReliefInputError
from ..variants.estimators import (neighbours_of, prepared, rank_weights,
                                   rrelieff_weights)
from ..variants import swrf
from ..options import (ADJUSTMENT, CONVENTION, DEVIATION, DIFF, K_RELIEFF,
                       K_RRELIEFF, MAX_PERMUTATIONS, N_PERMUTATIONS,
                       R_COMPATIBLE, RANDOM_STATE, STIR_BALANCE,
                       STIR_MIN_CLASS, T_DIFF, T_EQ, TIES, VARIANCE, check,
                       check_needs)
from .r_pairs import r_pair_sums
from ..validation import validated
from ..targets import class_groups, scaled_target
from ..progress import report, step_bounds, wrap_callback
from ..variants.surf import (NEIGHBOURHOODS, neighbourhood_kind,
                             neighbourhood_sums, radius_weights)
from .threshold import as_scores, float_array
from ..formulas.diffs import pair_diffs
from ..formulas.relieff import coefficient
from ..formulas.stir import COUNT_PLACES, add_stir_sums, stir_sums

StirResult = namedtuple("StirResult", [
    "score",  # (a,) mean_M - mean_H: the weight of the method's near update
    "t",      # (a,) the pooled two-sample t statistic (NaN: no verdict)
    "df",     # degrees of freedom, n_miss + n_hit - 2
    "p",      # (a,) one-sided p-values, P(T_df >= t) (NaN: no verdict)
    "note",   # why the NaN p-values have none (None: every p is a number)
])

#: STIR's neighbourhoods: ReliefF's k nearest, or a SURF-family or
#: SWRF-family method's
STIR_NEIGHBOURHOODS = (("relieff",) + tuple(NEIGHBOURHOODS)
                       + tuple(swrf.METHODS))
#: the methods whose neighbour pairs STIR tests, in words
STIR_METHODS = "ReliefF, the SURF family and the SWRF family"
#: the neighbourhoods whose pairs STIR's R package finds (`r_compatible`):
#: ReliefF's and the SURF family's, none of weighted neighbours
R_NEIGHBOURHOODS = ("relieff",) + tuple(NEIGHBOURHOODS)

#: permutations a rescorer with a ``many`` method scores at once
PERMUTATION_BATCH = 16

#: why an attribute whose diffs do not vary gets no verdict
CONSTANT_DIFFS = ("its diffs do not vary over the neighbour pairs (pooled "
                  "variance 0), which leaves a t-test nothing to measure "
                  "the difference of the means by")

#: the part of the compiled engine's preparation that compiles STIR's sums
#: of the pairs of any neighbourhood (:data:`..engines.preparation.PARTS`)
STIR_PARTS = (preparation.SURF,)


def too_few_pairs(n_hit, n_miss):
    """Why `n_hit` hit and `n_miss` miss pairs are too few for STIR's
    t-test (at least one of each and three in all: one degree of
    freedom), or None."""
    if n_hit >= 1 and n_miss >= 1 and n_hit + n_miss >= 3:
        return None
    return (f"STIR found {n_hit:.0f} hit and {n_miss:.0f} miss pairs; its "
            f"t-test needs at least one of each and three in all")


def class_sizes(y):
    """The numbers of instances of the classes present in `y` (class
    codes, NaN unknown)."""
    y = np.asarray(y, dtype=np.float64)
    return np.unique(y[~np.isnan(y)], return_counts=True)[1]


def check_r_pairs(neighbourhood, r_compatible, method=None):
    """ReliefInputError where `r_compatible` asks for the pairs of STIR's
    R package of `neighbourhood` (a key of :data:`STIR_NEIGHBOURHOODS`),
    which it does not find: the SWRF family's weighted neighbours.
    `method` names the method in the message (default: `neighbourhood`)."""
    if r_compatible and neighbourhood not in R_NEIGHBOURHOODS:
        raise ReliefInputError(
            f"r_compatible takes the pairs of STIR's R package "
            f"(insilico/stir), which has no weighted neighbours; it does "
            f"not apply to {method or repr(neighbourhood)}.")


def thin_classes(y):
    """Why the classes `y` (class codes, NaN unknown) are too thin for STIR
    (a class of fewer than :data:`..options.STIR_MIN_CLASS` instances), or
    None."""
    counts = class_sizes(y)
    if not len(counts) or counts.min() >= STIR_MIN_CLASS:
        return None
    return (f"a class has a single instance, so that every miss pair of "
            f"the other classes' references in it is that one instance; "
            f"STIR needs at least {STIR_MIN_CLASS} instances of each class")


def weighted_spread(total, squares, n_pairs, n_refs, m):
    """sum w (d - mean)^2 over one kind of pairs, per attribute, from
    their sum w d (`total`) and sum w d^2 (`squares`), mean = total / m,
    `n_refs` the sum of the weights (the references with pairs of the
    kind, each's summing to 1, where no neighbour is weighted).  A result
    within the rounding of summing the squares ((pairs) eps squares) is
    cancellation and taken as 0, so that both engines call diffs that do
    not vary so."""
    mean = total / m
    about = squares - 2 * mean * total + mean * mean * n_refs
    rounding = squares * n_pairs * np.finfo(float).eps
    return np.where(about > rounding, about, 0.0)


@validated
def stir_test(sums, variance=VARIANCE, degenerate=None):
    """STIR's pseudo t-test of every attribute (Le et al. 2019, eq. 9-11)::

        t = (mean_M - mean_H) / (s_p sqrt(1 / n_M + 1 / n_H))
        s_p^2 = ((n_M - 1) s_M^2 + (n_H - 1) s_H^2) / (n_M + n_H - 2)

    n_M and n_H the numbers of miss and hit pairs, the means over the m
    references of their pairs' weighted diffs (:mod:`..formulas.stir`),
    and with `variance` "population" (the paper's and the authors' R
    package's) the variances weighted alike::

        s_H^2 = (1 / m) sum_i sum_{j in H_i} w_ij (d_ij - mean_H)^2,

    with ReliefF's k nearest of two classes the plain variance of the n_H
    diffs divided by n_H; "sample" multiplies each by n / (n - 1), which
    makes that the textbook pooled t-test of the diffs.  The p-value is
    one-sided, P(T >= t) with n_M + n_H - 2 degrees of freedom.

    No verdict (t and p NaN, `note` saying why) is given where the
    evidence cannot support one: to every attribute when `degenerate` (a
    reason, :func:`thin_classes`) is given or the pairs are too few
    (:func:`too_few_pairs`); to an attribute whose diffs do not vary
    (s_p = 0: :data:`CONSTANT_DIFFS`).

    Parameters
    ----------
    sums : StirSums (:mod:`..formulas.stir`)

    Returns
    -------
    StirResult
    """
    m = sums.n_refs
    n_hit, n_miss = float(sums.n_hit), float(sums.n_miss)
    score = (np.asarray(sums.miss_sum) - np.asarray(sums.hit_sum)) / m
    df = n_miss + n_hit - 2
    note = degenerate or too_few_pairs(n_hit, n_miss)
    if note is not None:
        none = np.full(score.shape, np.nan)
        return StirResult(score, none, df, none.copy(), note)
    pooled = 0.0
    for total, squares, n_pairs, n_refs in (
            (sums.hit_sum, sums.hit_squares, n_hit, sums.hit_refs),
            (sums.miss_sum, sums.miss_squares, n_miss, sums.miss_refs)):
        spread = weighted_spread(total, squares, n_pairs, n_refs, m)
        # (n - 1) s^2: s^2 the spread over m, or that times n / (n - 1)
        pooled = pooled + (n_pairs - (variance == "population")) * spread / m
    scale = np.sqrt(pooled / df * (1 / n_miss + 1 / n_hit))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(scale > 0, score / scale, np.nan)
    p = stdtr(df, -t)
    return StirResult(score, t, df, p,
                      CONSTANT_DIFFS if (scale == 0).any() else None)


def no_verdict(result, names):
    """One sentence saying which attributes (`names`, in order) STIR gave
    no verdict and why, for every entry point to show; None if it gave
    every attribute one."""
    missing = np.isnan(result.p)
    if result.note is None or not missing.any():
        return None
    which = ("any attribute" if missing.all() else
             ", ".join(str(names[i]) for i in np.flatnonzero(missing)))
    return f"STIR gives no verdict (p is NaN) for {which}: {result.note}."


@validated
def relieff_pair_sums(X, y, discrete=None, *, k_nearest=K_RELIEFF,
                      n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                      t_eq=T_EQ, t_diff=T_DIFF, ties=TIES,
                      progress_callback=None):
    """STIR's sums (:mod:`..formulas.stir`) over ReliefF's (reference, hit)
    and (reference, miss) pairs, each weighted by the magnitude of its
    coefficient in ReliefF's update (:func:`..formulas.relieff.coefficient`
    times its share of its list's places), the references those of
    ReliefF with the same `n_iterations` and `random_state` (None: every
    instance): its k nearest hits and its k nearest misses of each other
    class, found as ReliefF finds them (exact distances, the places of
    tied candidates by `ties`).  A list counts the pairs of its places:
    k, or every candidate of a smaller group.

    Returns
    -------
    StirSums, the argument of :func:`stir_test`
    """
    data, refs, kernels = prepared(
        X, y, discrete, n_iterations, random_state, task="classification",
        diff=diff, t_eq=t_eq, t_diff=t_diff,
        parts=(preparation.RELIEFF,) + STIR_PARTS)
    lists = neighbours_of(kernels, data, refs, k_nearest, None,
                          wrap_callback(progress_callback, 0, 0.8), ties=ties)
    # the rows and places of the SURF family's STIR sums
    sums = np.zeros((6, data.exact.values.shape[0]))
    counts = np.zeros(COUNT_PLACES)
    for start, part in lists:
        for r, places in enumerate(part.places):
            i, own = refs[start + r], data.groups[refs[start + r]]
            entries = slice(part.offsets[r * part.n_groups],
                            part.offsets[(r + 1) * part.n_groups])
            members = part.index[entries]
            groups = data.groups[members]
            coef = np.array([coefficient(g, own, places[g], data.priors)
                             for g in groups]) * part.share[entries]
            hit = (groups == own)[None, :]
            add_stir_sums(sums, counts,
                          pair_diffs(data.exact, i, members)[:, None],
                          coef[None, :], hit, ~hit,
                          (places[own], places.sum() - places[own]))
    report(progress_callback, 1.0)
    return stir_sums(sums, counts, len(refs))


def stir(X, y, discrete=None, *, neighbourhood="multisurf",
         k_nearest=K_RELIEFF, deviation=DEVIATION, convention=CONVENTION,
         variance=VARIANCE,
         r_compatible=R_COMPATIBLE, n_iterations=None,
         random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
         ties=TIES, progress_callback=None):
    """STIR p-values of every attribute (Le et al. 2019).

    Parameters
    ----------
    neighbourhood : "relieff", a SURF-family or an SWRF-family method
        The neighbour pairs tested: ReliefF's k nearest hits and misses
        (`k_nearest`), or the near sets of a method of
        :data:`..variants.surf.NEIGHBOURHOODS` or
        :data:`..variants.swrf.METHODS` (the far sets are not tested); the
        SWRF family's pairs weighted and counted by their sigmoid weights
        (:mod:`..formulas.stir`).
    deviation : "population" or "sample"
        MultiSURF's standard deviation (STIR's R package uses the sample's),
        or that of the MultiSWRF methods.
    convention : "add-on" or "scikit-rebate"
        The SWRF family's convention (:mod:`..variants.swrf`): SWRF's statistics,
        and the far scoring of the weights given with the test.
    variance : "population" or "sample"
        The variances of the t-test (:func:`stir_test`): the paper's
        (default) or the sample's.
    r_compatible : bool
        False (default): the pairs of the paper's definitions.  True: the
        pairs as the authors' R package (insilico/stir) finds and weighs
        them (:mod:`.r_pairs`): the misses of every other class pooled,
        R's reading of a reference's class where it has an identical twin,
        R's keep rule of the SURF family's references, and MultiSURF's
        thresholds with the sample deviation whatever `deviation`, SURF's
        R's (half a standard deviation nearer); with the default linear
        diff of numeric attributes, R's t and p of
        ``stir(find.neighbors(X, y, method = ..., k = ...))`` with its
        defaults.
    n_iterations, random_state
        The references, as the weights' (None: every instance once).
    ties : "share" or "lower-index"
        The places of ReliefF's tied candidates (:func:`relieff_pair_sums`).

    Other parameters as in :func:`..variants.surf.multisurf`.

    Returns
    -------
    StirResult; its score is the method's weight (of the near sets alone
    for SURF* and MultiSURF*; R's ``vecW`` with `r_compatible`).  A class
    of a single instance (:func:`thin_classes`), too few pairs or diffs
    that do not vary give no verdict (:func:`stir_test`).

    References
    ----------
    Le, T. T., Urbanowicz, R. J., Moore, J. H., McKinney, B. A. (2019).
    STatistical Inference Relief (STIR) feature selection.
    Bioinformatics 35(8):1358-1365.
    """
    return stir_and_weights(
        X, y, discrete, neighbourhood=neighbourhood, k_nearest=k_nearest,
        deviation=deviation, convention=convention, variance=variance,
        r_compatible=r_compatible, n_iterations=n_iterations,
        random_state=random_state, diff=diff, t_eq=t_eq, t_diff=t_diff,
        ties=ties, progress_callback=progress_callback)[1]


@validated
def stir_and_weights(X, y, discrete=None, *, neighbourhood="multisurf",
                     k_nearest=K_RELIEFF, deviation=DEVIATION,
                     convention=CONVENTION, variance=VARIANCE,
                     r_compatible=R_COMPATIBLE, n_iterations=None,
                     random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
                     t_diff=T_DIFF, ties=TIES,
                     progress_callback=None):
    """(weights, :func:`stir`'s StirResult) from one search of the
    neighbours: a SURF- or SWRF-family `neighbourhood`'s method computes
    its weights and STIR's sums in the same pass, so `weights` are the
    method's own (:func:`..variants.surf.neighbourhood_sums`,
    :func:`..variants.swrf.swrf_sums`, the far sets of the starred methods
    included); None for ReliefF's, whose pairs STIR sums
    apart from its weights, and for R's pairs (`r_compatible`).
    Parameters as in :func:`stir`."""
    if neighbourhood not in STIR_NEIGHBOURHOODS:
        raise ReliefInputError(
            f"neighbourhood must be one of "
            f"{', '.join(map(repr, STIR_NEIGHBOURHOODS))}, got "
            f"{neighbourhood!r}.")
    check_needs("k_nearest", k_nearest, K_RELIEFF, "neighbourhood='relieff'",
                neighbourhood == "relieff")
    check_needs("deviation", deviation, DEVIATION,
                "a neighbourhood of the MultiSURF or MultiSWRF methods",
                neighbourhood.startswith("multi"))
    weighted = neighbourhood in swrf.METHODS
    check_needs("convention", convention, CONVENTION,
                "a neighbourhood of the SWRF family", weighted)
    check_r_pairs(neighbourhood, r_compatible)
    # R's pairs break ties at the k-th distance as R's stable sort does
    check_needs("ties", ties, TIES,
                "neighbourhood='relieff' and r_compatible=False",
                neighbourhood == "relieff" and not r_compatible)
    references = dict(n_iterations=n_iterations, random_state=random_state)
    options = dict(diff=diff, t_eq=t_eq, t_diff=t_diff,
                   progress_callback=progress_callback)
    if r_compatible:
        data, refs, _ = prepared(X, y, discrete, task="classification",
                                 diff=diff, t_eq=t_eq, t_diff=t_diff,
                                 **references)
        sums = r_pair_sums(data, refs, neighbourhood, k_nearest,
                           progress_callback)
        return None, stir_test.unchecked(sums, variance, thin_classes(y))
    # the sums trust the options checked here
    if neighbourhood == "relieff":
        weights = None
        sums = relieff_pair_sums.unchecked(
            X, y, discrete, k_nearest=k_nearest, ties=ties, **references,
            **options)
    elif weighted:
        weights, sums = swrf.swrf_sums.unchecked(
            X, y, discrete, method=neighbourhood, convention=convention,
            deviation=deviation, stir=True, **references, **options)
    else:
        weights, sums = neighbourhood_sums.unchecked(
            X, y, discrete, method=neighbourhood, deviation=deviation,
            stir=True, **references, **options)
    return weights, stir_test.unchecked(sums, variance, thin_classes(y))


def class_imbalance(y):
    """The size of the largest class over that of the smallest, of the
    classes present in `y` (class codes, NaN unknown); 1 without any."""
    counts = class_sizes(y)
    return counts.max() / counts.min() if len(counts) else 1.0


def stir_caveat(y):
    """What a user of STIR on the class `y` should know, or None.

    STIR's pseudo t-test counts every neighbour pair as an independent
    observation.  They are not: an instance is in many pairs, and with
    ReliefF's pairs a reference of a large class finds its misses in the
    smaller classes, farther than its hits, whatever the attributes.  On
    random data the share of attributes with p < 0.05 is about 0.1 with
    equal classes and grows with their imbalance (doc/significance.md),
    so from :data:`..options.STIR_BALANCE` on the answer says so.
    """
    ratio = class_imbalance(y)
    if ratio < STIR_BALANCE:
        return None
    return (f"The largest class is {ratio:.1f} times the smallest: on "
            f"classes of unequal sizes STIR's p-values come out too small "
            f"and random attributes can pass as significant; the "
            f"permutation test holds its level.")


def pairs_caveat(test):
    """What a user of a test over neighbour pairs (`test`: "STIR" or
    "NPDR's regressions") should know when it calls attributes
    significant: it counts every pair as an independent observation, and
    they are not (an instance is in many pairs), so its p-values come out
    too small (doc/significance.md, "How far STIR's p-values hold";
    doc/npdr.md)."""
    return (f"{test}: every neighbour pair counts as an independent "
            f"observation, which it is not (an instance is in many pairs), "
            f"so the p-values come out too small and a random attribute can "
            f"pass as significant.")


@validated
def permutation_test(rescore, y, n_permutations=N_PERMUTATIONS,
                     random_state=RANDOM_STATE, progress_callback=None):
    """Permutation p-values of the weights ``rescore(y)``.

    The class (or target) of the rows where it is known is permuted
    `n_permutations` times with ``numpy.random.default_rng(random_state)``
    and rescored (PERMUTATION_BATCH at a time by ``rescore.many(targets)``,
    targets a (count, n) array, where `rescore` has it); an attribute's
    p-value is
    (1 + #{permuted weight >= observed weight}) / (1 + n_permutations)
    (Phipson & Smyth 2010: never 0, valid for a finite number of
    permutations); NaN where the observed weight is NaN (an infinite one
    is compared as any number: -inf gets p = 1).  A rescorer that gives
    a weight that is not a real number, or another number of weights for
    a permuted target than for the observed one, is refused.  `y` is not
    modified.

    Returns
    -------
    (observed weights, p-values), float64 arrays (a,)
    """
    rng = np.random.default_rng(random_state)
    y = np.array(y, dtype=np.float64)
    if y.ndim != 1:
        raise ReliefInputError(f"y must be one-dimensional, got shape "
                               f"{y.shape}.")
    observed = as_scores(rescore(y), "rescorer's weights")
    batch = getattr(rescore, "many", None)
    if batch is None:
        def batch(targets):
            return [rescore(target) for target in targets]

    def many(targets):
        weights = float_array(batch(targets), ndim=2)
        if weights is None or weights.shape != (len(targets), len(observed)):
            raise ReliefInputError(
                f"The rescorer must give one weight per attribute "
                f"({len(observed)}, as for the observed target) for every "
                f"permuted target; it gave another number.")
        return weights

    exceed = np.zeros(len(observed))
    known = np.flatnonzero(~np.isnan(y))
    bounds = step_bounds(n_permutations, progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        for first in range(start, stop, PERMUTATION_BATCH):
            targets = np.tile(y, (min(PERMUTATION_BATCH, stop - first), 1))
            for target in targets:
                target[known] = y[known][rng.permutation(len(known))]
            exceed += (np.asarray(many(targets)) >= observed).sum(axis=0)
        report(progress_callback, stop / n_permutations)
    p = (1 + exceed) / (1 + n_permutations)
    p[np.isnan(observed)] = np.nan
    return observed, p


def permutation_pvalues(score, X, y, discrete=None, *,
                        n_permutations=N_PERMUTATIONS,
                        random_state=RANDOM_STATE, progress_callback=None,
                        **options):
    """Permutation p-values (:func:`permutation_test`) of the weights
    ``score(X, y, discrete, **options)``, any of the core's estimators,
    scoring the whole data again for every permutation.

    Returns
    -------
    (observed weights, p-values), float64 arrays (a,)
    """
    def rescore(target):
        return score(X, target, discrete, **options)

    return permutation_test(rescore, y, n_permutations, random_state,
                            progress_callback)


def permutations_of(y, rows):
    """A function that checks a rescorer's target, a permutation of `y`
    (the same known values, missing where `y` is missing), and returns its
    values in `rows`, the rows where `y` is known."""
    y = np.array(y, dtype=np.float64)
    values = np.sort(y[rows])

    def known_values(target):
        target = float_array(target)
        if (target is None or target.shape != y.shape
                or not np.array_equal(np.isnan(target), np.isnan(y))
                or not np.array_equal(np.sort(target[rows]), values)):
            raise ReliefInputError(
                "A rescorer takes permutations of the target it was made "
                "with: the same known values, missing where it is missing.")
        return target[rows]

    return known_values


def as_targets(targets):
    """`targets` as a float64 (count, n) array of targets, one per row."""
    targets = float_array(targets, ndim=2)
    if targets is None:
        raise ReliefInputError(
            "A rescorer takes permutations of its target: one to "
            "rescore(target), a 2-D array of targets, one per row, to "
            "rescore.many(targets).")
    return targets


@validated
def rrelieff_rescorer(X, y, discrete=None, *, k_nearest=K_RRELIEFF,
                      n_iterations=None, random_state=RANDOM_STATE,
                      weighting="exp_rank", sigma=None, diff=DIFF, t_eq=T_EQ,
                      t_diff=T_DIFF, ties=TIES):
    """RReliefF of a permuted target without a new search: its neighbours
    depend on the attributes only, so they are found once and
    ``rescore(y_permuted)`` applies the rule to them (for
    :func:`permutation_test`).  ``rescore(y)`` equals
    :func:`..variants.estimators.rrelieff` with the same options."""
    k = k_nearest
    data, refs, kernels = prepared(X, y, discrete, n_iterations,
                                   random_state, task="regression",
                                   diff=diff, t_eq=t_eq, t_diff=t_diff,
                                   parts=(preparation.RRELIEFF,))
    influence = rank_weights.unchecked(k, weighting, sigma,
                                       count=data.n_instances)
    neighbours = neighbours_of(kernels, data, refs, k, None, None, ties=ties)
    known_values = permutations_of(y, data.kept_rows)

    def rescore(target):
        scaled = scaled_target(known_values(target))
        sums = kernels.rrelieff_sums(data.exact, refs, neighbours, scaled,
                                     influence)
        return rrelieff_weights(*sums, len(refs))

    return rescore


@validated
def surf_rescorer(X, y, discrete=None, *, method="multisurf",
                  task="classification", deviation=DEVIATION,
                  n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                  t_eq=T_EQ, t_diff=T_DIFF):
    """The SURF family's weights of a permuted class or target without
    finding the neighbourhoods again (for :func:`permutation_test`).

    A reference's neighbourhood depends on the attributes only, so
    ``rescore.many(targets)`` (targets: permutations of `y`, one per row)
    computes the distances and thresholds once and applies the rule of
    every target to them; ``rescore(target)`` is ``rescore.many`` of one.
    Each row of the result equals :func:`..variants.surf.neighbourhood_sums`'s
    weights for that target, up to the rounding of the order in which the
    references are summed.  With missing values and classes, RELIEF-D's
    diffs depend on the classes, so every target is scored from scratch.
    """
    local, far, ddof = neighbourhood_kind(method, deviation)
    options = dict(method=method, task=task, deviation=deviation,
                   n_iterations=n_iterations, random_state=random_state,
                   diff=diff, t_eq=t_eq, t_diff=t_diff)
    data, refs, kernels = prepared(X, y, discrete, n_iterations,
                                   random_state, task=task, diff=diff,
                                   t_eq=t_eq, t_diff=t_diff,
                                   parts=(preparation.SURF,))
    known_values = permutations_of(y, data.kept_rows)
    classes = task == "classification"

    def labels(target):
        known = known_values(target)
        return class_groups(known)[0] if classes else scaled_target(known)

    def many(targets):
        targets = as_targets(targets)
        if len(targets) == 0:
            return np.empty((0, data.exact.values.shape[0]))
        codes = np.array([labels(target) for target in targets], np.float64)
        if classes and data.exact.relief_d.shape[0]:
            return np.array([neighbourhood_sums.unchecked(  # checked on
                X, target, discrete, **options).weights        # entry
                             for target in targets])
        sums, scalars = kernels.radius_rule(data, refs, codes, task, local,
                                            far, ddof, False)
        return np.array([radius_weights(own, c, task, far, len(refs))
                         for own, c in zip(sums, scalars)])

    def rescore(target):
        return many([target])[0]

    rescore.many = many
    return rescore


def adjustment_factor(n_attributes, method):
    """What `method` multiplies the smallest of `n_attributes` equal
    p-values by: 1 for Benjamini-Hochberg, the number of attributes for
    Holm and Bonferroni."""
    return _factor(check("n_attributes", n_attributes),
                   check("adjustment", method))


def _factor(n_attributes, method):
    """:func:`adjustment_factor` of values checked already."""
    return 1 if method == "bh" else n_attributes


def smallest_adjusted(n_attributes, n_permutations, method=ADJUSTMENT):
    """The smallest adjusted p-value that `n_permutations` can give any of
    `n_attributes` attributes: the smallest permutation p-value,
    1 / (1 + n_permutations), adjusted by `method` (Benjamini-Hochberg:
    itself, when every attribute has it; Holm and Bonferroni: times the
    number of attributes).  Above the level, no attribute can be
    significant, whatever the data."""
    return _smallest(adjustment_factor(n_attributes, method),
                     check("n_permutations", n_permutations))


def _smallest(factor, n_permutations):
    """:func:`smallest_adjusted` of a checked `n_permutations`, the
    adjustment multiplying by `factor` (:func:`adjustment_factor`)."""
    return min(1.0, factor * (1 / (1 + n_permutations)))


@validated(n_attributes=None)  # adjustment_factor checks it
def permutations_needed(n_attributes, alpha, method=ADJUSTMENT):
    """The fewest permutations that let an attribute be significant at
    `alpha`: the least count whose :func:`smallest_adjusted` is at most
    `alpha` (None: more than MAX_PERMUTATIONS)."""
    return _needed(adjustment_factor(n_attributes, method), alpha)


def _needed(factor, alpha):
    """:func:`permutations_needed` of a checked `alpha`, the adjustment
    multiplying by `factor` (:func:`adjustment_factor`)."""
    if alpha >= 1:  # every adjusted p-value is at most 1
        return 1
    if alpha * (1 + MAX_PERMUTATIONS) < factor:
        return None
    count = max(1, int(factor / alpha) - 1)  # a lower bound
    while _smallest(factor, count) > alpha:
        count += 1
    return count


@validated(method="adjustment")
def permutation_shortfall(n_attributes, n_permutations, alpha,
                          method=ADJUSTMENT):
    """None if `n_permutations` can make one of `n_attributes` attributes
    significant at `alpha` after `method`, whatever the data; else the
    smallest adjusted p-value they can give (:func:`smallest_adjusted`) and
    the fewest permutations that can reach `alpha`
    (:func:`permutations_needed`, None if none can)."""
    factor = _factor(n_attributes, method)
    smallest = _smallest(factor, n_permutations)
    if smallest <= alpha:
        return None
    return smallest, _needed(factor, alpha)


def adjust(p, method=ADJUSTMENT):
    """Adjusted p-values for testing every attribute at once.

    ``bh``: Benjamini & Hochberg (1995) q-values, q_(i) = min over j >= i
    of p_(j) m / j (the false discovery rate of a cut at q); ``holm``:
    Holm (1979), max over j <= i of (m - j + 1) p_(j); ``bonferroni``:
    m p.  All clipped at 1; NaN p-values stay NaN and do not count in m.
    ``adjust.unchecked`` takes a `method` checked already.
    """
    return _adjusted(p, check("adjustment", method))


def _adjusted(p, method):
    """:func:`adjust` of a `method` checked already."""
    p = as_scores(p, "p-values")
    if ((p < 0) | (p > 1)).any():
        raise ReliefInputError("p-values must lie between 0 and 1.")
    adjusted = np.full(p.shape, np.nan)
    known = np.flatnonzero(~np.isnan(p))
    m = len(known)
    if m == 0:
        return adjusted
    order = known[np.argsort(p[known], kind="stable")]
    ranked = p[order]
    ranks = np.arange(1, m + 1)
    if method == "bh":
        values = np.minimum.accumulate((ranked * m / ranks)[::-1])[::-1]
    elif method == "holm":
        values = np.maximum.accumulate(ranked * (m - ranks + 1))
    else:
        values = ranked * m
    adjusted[order] = np.minimum(values, 1.0)
    return adjusted


adjust.unchecked = _adjusted


@validated
def significant(adjusted, alpha):
    """The attributes whose adjusted p-value is at most `alpha` (bool)."""
    with np.errstate(invalid="ignore"):
        return as_scores(adjusted, "adjusted p-values") <= alpha

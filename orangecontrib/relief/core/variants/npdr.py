"""NPDR: Relief's neighbour pairs as regressions, with p-values and
covariates (Le, Dawkins & McKinney 2020).

NPDR finds each instance's neighbours once -- MultiSURF's neighbourhood,
SURF's, or ReliefF's k nearest, none of them looking at the class -- and
then, for every attribute A, regresses the pairs' outcome on their diff
of A::

    a class:           logit P(miss) = b_0 + b_A diff(A) + sum_c b_c diff(c)
    a numeric target:  |y_i - y_j| = b_0 + b_A diff(A) + sum_c b_c diff(c) + e

over the ordered pairs (i, j), j a neighbour of the reference i (a pair
counted twice when each is the other's neighbour, as in MultiSURF's sums
and in the authors' code).  A miss is a pair of different classes; the
covariates' diffs (age, sex, batch) adjust for what they explain, so an
attribute that only follows a confounder loses its significance.  b_A's
statistic, b_A / se (Wald's z for the logistic fit, Student's t for the
linear one), is tested one-sided, H1: b_A > 0, with the residual degrees
of freedom, pairs - 2 - covariates; :func:`..analysis.significance.adjust` adjusts
the p-values for testing every attribute.

The fits are the engines' (:meth:`..engines.interface.Engine.
pair_regressions`, defined in :mod:`..formulas.npdr`): least squares in
closed form, the logistic one by Newton's steps to convergence.  Where
the add-on's conventions differ from the authors' R package (insilico/
npdr), the R package's choice is an option; ``doc/npdr.md`` lists them.

This module imports neither Orange nor Qt.

References
----------
Le, T. T., Dawkins, B. A., McKinney, B. A. (2020). Nearest-neighbor
projected distance regression (NPDR) for detecting network interactions
with adjustments for multiple tests and confounding. Bioinformatics
36(9):2770-2777.
"""
import math
import numbers
import warnings
from collections import namedtuple

import numpy as np
import scipy.sparse as sp
from scipy.special import stdtr

from ..columns import is_column_source
from ..compact.store import dense_values
from ..engines import preparation
from ..errors import ConvergenceWarning, ReliefInputError
from .estimators import neighbours_of, prepared
from ..formulas.neighbourhoods import SIGMAS
from ..formulas.diffs import transform
from ..formulas.npdr import (KTH_LIMIT, MAX_ITERATIONS, MAX_LEVELS,
                             MULTISURF_LIMIT, SINGULAR, SURF_LIMIT, authors_k)
from ..options import (ADJUSTMENT, DEVIATION, DIFF, NPDR_NEIGHBOURHOOD,
                       SCALE, T_DIFF, T_EQ, TIES, TWINS, check_choice,
                       check_needs)
from ..targets import TASKS, as_nominal_mask, class_groups
from ..values import as_real
from ..progress import wrap_callback
from ..sampling import check_memory
from ..analysis.significance import adjust
from ..validation import NPDR_NAMES, validated

NpdrResult = namedtuple("NpdrResult", [
    "coefficient",     # (a,) b_A, the coefficient of the attribute's diff
    "standard_error",  # (a,) its standard error
    "statistic",       # (a,) b_A / se: Wald's z (logistic) or t (linear)
    "p",               # (a,) one-sided p-values, P(T_df >= statistic)
    "q",               # (a,) p adjusted for testing every attribute
    "intercept",       # (a,) b_0 of each attribute's fit
    "covariates",      # (a, c) the covariates' coefficients in each fit
    "converged",       # (a,) bool: the fit converged (logistic fits of a
                       # separating attribute do not; NaN: no fit at all)
    "df",              # residual degrees of freedom, pairs - 2 - c
    "n_pairs",         # the number of neighbour pairs (ordered)
    "regression",      # "logistic" (a class) or "linear" (a number)
])

#: the neighbourhoods' limits (:mod:`..formulas.npdr`)
RULES = {"multisurf": MULTISURF_LIMIT, "surf": SURF_LIMIT}
#: bytes a neighbour pair takes: its two instance numbers
BYTES_PER_PAIR = 8
#: the share of the run spent finding the pairs (for progress)
PAIRS_SHARE = 0.3


@validated(**NPDR_NAMES, covariates=None)  # their values, not names
def npdr(X, y, discrete=None, covariates=None, covariate_discrete=None, *,
         task="classification", neighbourhood=NPDR_NEIGHBOURHOOD,
         k_nearest=None, deviation=DEVIATION, ties=TIES, twins=TWINS,
         diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF, scale=SCALE,
         adjustment=ADJUSTMENT, names=None, progress_callback=None):
    """NPDR's regression of every attribute over the neighbour pairs.

    Parameters
    ----------
    X : array (n, a)
        Attribute values; NaN marks a missing value (RELIEF-D diffs);
        nominal columns hold value codes 0..V-1.
    y : array (n,)
        Class codes (logistic fits) or, with ``task="regression"``, a
        number (linear fits); rows whose y is NaN are left out.
    discrete : bool array (a,) or None
        Which attributes are nominal (None: all numeric).
    covariates : array (n, c) or None
        Values of the covariates (not scored, not in the distance): their
        diffs over the same pairs are further regressors.  Nominal ones
        (`covariate_discrete`) differ by 0 or 1, numeric ones by their
        difference over their range.  None may be missing, constant, the
        same as an attribute, or differ alike in every pair or as a
        combination of the others' diffs (collinear: no fit at all).
    covariate_discrete : bool array (c,) or None
        Which covariates are nominal (needs `covariates`).
    task : "classification" or "regression"
    neighbourhood : "multisurf", "surf" or "relieff"
        Each reference's neighbours: MultiSURF's (nearer than its mean
        distance minus half its deviation, `deviation`), SURF's (nearer
        than the mean distance of all pairs) or its `k_nearest` nearest.
    k_nearest : int or None
        k of "relieff"; None: the authors' rule, the number MultiSURF
        expects (:func:`..formulas.npdr.authors_k`, 493 for 1600
        instances).
    deviation : "population" or "sample"
        MultiSURF's standard deviation (the R package's: "sample").
    ties : "share", "lower-index" or "all"
        "relieff"'s candidates at the k-th distance: "share" (default)
        gives each of the t tied r / t of the r places left, the pair's
        weight in the fits (the expectation of the log-likelihood over a
        random tie-break), as every k-nearest variant of the add-on does;
        "lower-index" gives the places to the lower instance indices;
        "all" counts every one of them as a whole neighbour, as the R
        package does.
    twins : "include" or "exclude"
        Whether an instance identical to the reference (at distance 0) is
        its neighbour (the add-on, as in MultiSURF) or not (the R package).
    diff, t_eq, t_diff
        The diff of numeric attributes (see :mod:`..formulas.diffs`).
    scale : "range" or "none"
        Numeric diffs (and the numeric target's) divided by the range, as
        in every variant, or not, as in the R package: the coefficients
        are then per unit of the attribute, the covariate and the target;
        statistics and p-values are the same.  "none" needs the linear
        diff.
    adjustment : "bh", "holm" or "bonferroni"
        Of `q` (the R package's default is Bonferroni).
    names : sequence of str or None
        The names of the attributes and then of the covariates, for the
        messages (None: they are named by their columns).
    progress_callback : callable(float) or None

    Returns
    -------
    NpdrResult
        NaN for an attribute without a fit (constant over the pairs, or
        collinear with a covariate).  A logistic fit that does not
        converge (the attribute's diffs separate hits from misses: no
        finite maximum of the likelihood) gives its last iterate, as R's
        glm does, ``converged`` False and a
        :class:`..errors.ConvergenceWarning` naming the attributes.

    References
    ----------
    Le, Dawkins & McKinney (2020), Bioinformatics 36(9):2770-2777,
    eq. 4-7.
    """
    first, second, design = npdr_design.unchecked(
        X, y, discrete, covariates, covariate_discrete, task=task,
        neighbourhood=neighbourhood, k_nearest=k_nearest,
        deviation=deviation, ties=ties, twins=twins, diff=diff, t_eq=t_eq,
        t_diff=t_diff, scale=scale, names=names,
        progress_callback=wrap_callback(progress_callback, 0, PAIRS_SHARE))
    exact = design.data.exact
    fits = design.kernels.pair_regressions(
        exact, first, second, design.outcome, design.covariates,
        design.logistic, design.intercept,
        attribute_levels(exact, design.logistic
                         and len(design.covariates) == 0),
        design.weights, wrap_callback(progress_callback, PAIRS_SHARE, 1.0))
    result = results(fits, design, counted_pairs(first, design.weights),
                     adjustment)
    warn_unconverged(result, column_labels(names, len(result.converged),
                                           covariates)[0])
    return result


def warn_unconverged(result, labels):
    """A :class:`..errors.ConvergenceWarning` of
    :func:`unconverged_message`, where it has one."""
    message = unconverged_message(result, labels)
    if message is not None:
        warnings.warn(message, ConvergenceWarning, stacklevel=3)


def unconverged_message(result, labels):
    """What the user is told of the attributes (named by `labels`) whose
    logistic fit has a standard error but did not converge: their
    coefficients are the last of Newton's steps, as R's glm returns them
    with its warning; None where there are none."""
    stuck = np.flatnonzero(~result.converged
                           & np.isfinite(result.standard_error))
    if len(stuck) == 0:
        return None
    listed = ", ".join(labels[a] for a in stuck[:5])
    more = f" and {len(stuck) - 5} more" if len(stuck) > 5 else ""
    return (f"NPDR's logistic fit did not converge for {listed}{more}: "
            f"the diffs separate the hits from the misses, so the likelihood "
            f"has no finite maximum. The coefficient is the last of "
            f"{MAX_ITERATIONS} Newton steps (as R's glm gives it) and its z "
            f"and p mean nothing; the result's `converged` is False there.")


@validated
def npdr_coefficients(X, y, discrete=None, *, task="classification",
                      deviation=DEVIATION, diff=DIFF, t_eq=T_EQ,
                      t_diff=T_DIFF, progress_callback=None):
    """NPDR's weights as the registry's variants give theirs
    (:mod:`..registry`): the coefficient b_A of every attribute's diff in
    :func:`npdr` over MultiSURF's neighbour pairs, without covariates (NaN
    where there is no fit); the parameters are :func:`npdr`'s."""
    return npdr.unchecked(X, y, discrete, task=task, deviation=deviation,
                          diff=diff, t_eq=t_eq, t_diff=t_diff,
                          progress_callback=progress_callback).coefficient


@validated(**NPDR_NAMES)
def npdr_columns(X, y, discrete=None, covariate_columns=(), *, names=None,
                 **options):
    """:func:`npdr` of the columns of `X` but `covariate_columns` (their
    indices, each once), which are its covariates: every field of the
    result one per column of `X`, NaN (not converged) at the covariates';
    `names` name the columns in messages (None: by their index);
    `options` are :func:`npdr`'s."""
    def fit(values, nominal, covariates, covariate_nominal, names):
        return npdr.unchecked(values, y, nominal, covariates,
                              covariate_nominal, names=names, **options)
    return fit_columns(fit, X, discrete, covariate_columns, names)


def fit_columns(fit, X, discrete, covariate_columns, names):
    """``fit(values, nominal, covariates, covariate_nominal, names)`` --
    NPDR's or survival NPDR's, an :data:`NpdrResult` -- of the columns of
    `X` but `covariate_columns`, which are its covariates (None when
    there are none): every field of the result one per column of `X`,
    NaN (not converged) at the covariates'."""
    X = as_real(X, "The data")
    n_columns = X.shape[1] if X.ndim == 2 else 0
    nominal = as_nominal_mask(discrete, n_columns)
    covariate = np.zeros(n_columns, bool)
    covariate[covariate_indices(covariate_columns, n_columns, names)] = True
    scored = ~covariate
    order = np.concatenate([np.flatnonzero(scored), np.flatnonzero(covariate)])
    result = fit(X[:, scored], nominal[scored],
                 X[:, covariate] if covariate.any() else None,
                 nominal[covariate] if covariate.any() else None,
                 None if names is None else [names[c] for c in order])
    return result._replace(**{field: spread(getattr(result, field), scored)
                              for field in PER_ATTRIBUTE})


def covariate_indices(columns, n_columns, names):
    """The column indices `columns` of the covariates, as a list:
    ReliefInputError naming the entry for one that is not an integer
    index in 0..n_columns - 1, or a column (by its name in `names`, if
    given) given twice."""
    if isinstance(columns, (str, bytes)) or not np.iterable(columns):
        raise ReliefInputError(f"covariates must be a list of column "
                               f"indices, got {columns!r}.")
    indices = []
    for c in columns:
        if (not isinstance(c, numbers.Integral) or isinstance(c, bool)
                or not 0 <= c < n_columns):
            raise ReliefInputError(f"A covariate must be a column index in "
                                   f"0..{n_columns - 1}, got {c!r}.")
        if c in indices:
            name = f"column {c}" if names is None else repr(names[c])
            raise ReliefInputError(f"covariates gives {name} twice; give "
                                   f"each column once.")
        indices.append(int(c))
    return indices


#: the fields of :data:`NpdrResult` with a value per attribute
PER_ATTRIBUTE = ("coefficient", "standard_error", "statistic", "p", "q",
                 "intercept", "covariates", "converged")


def spread(values, scored):
    """`values` of the `scored` columns placed among all: NaN (False for
    a bool array) at the others."""
    values = np.asarray(values)
    out = np.zeros((len(scored),) + values.shape[1:], values.dtype)
    if values.dtype != bool:
        out[:] = np.nan
    out[scored] = values
    return out


Design = namedtuple("Design", [
    "data",        # PreparedData of one group: neighbours ignore the class
    "kernels",     # the engine's module (.engines.kernels)
    "outcome",     # (pairs,) 1 for a miss and 0 for a hit, or |y_i - y_j|
    "covariates",  # (c, pairs) the covariates' diffs
    "logistic",    # bool: a class
    "intercept",   # the logistic fits' start, logit(mean outcome)
    "units",       # (a,) what b_A and its error are divided by (scale)
    "weights",     # (pairs,) each pair's weight in the fits, its share of
                   # its reference's places; None: every pair weighs 1
])


@validated(**NPDR_NAMES, covariates=None)  # their values, not names
def npdr_design(X, y, discrete=None, covariates=None,
                covariate_discrete=None, *, task="classification",
                neighbourhood=NPDR_NEIGHBOURHOOD, k_nearest=None,
                deviation=DEVIATION, ties=TIES, twins=TWINS, diff=DIFF,
                t_eq=T_EQ, t_diff=T_DIFF, scale=SCALE, names=None,
                progress_callback=None):
    """NPDR's neighbour pairs and what its regressions read of them
    (parameters as in :func:`npdr`).

    Returns
    -------
    (first, second, Design)
        The ordered pairs (reference, neighbour), int32 arrays, the
        references in increasing order and each one's neighbours too; the
        :data:`Design` of the fits.
    """
    relieff = neighbourhood == "relieff"
    check_needs("k_nearest", k_nearest, None, "neighbourhood='relieff'",
                relieff)
    check_needs("ties", ties, TIES, "neighbourhood='relieff'", relieff)
    check_needs("deviation", deviation, DEVIATION,
                "neighbourhood='multisurf'", neighbourhood == "multisurf")
    raw = scale == "none"
    if raw and diff != "linear":
        raise ReliefInputError(f"scale='none' (the R package's raw "
                               f"differences) needs diff='linear', got "
                               f"diff={diff!r}.")
    if neighbourhood == "relieff" and ties != "all" and twins == "exclude":
        raise ReliefInputError(
            "twins='exclude' is the R package's rule; with "
            "neighbourhood='relieff' it goes with the package's ties, "
            "ties='all'.")
    logistic = check_choice("task", task, TASKS) == "classification"
    if logistic:
        known = as_real(y, "The target").ravel()
        known = known[~np.isnan(known)]
        if len(known):  # none: the error of prepared below
            class_groups(known)  # a single class: an error
    # every diff of the neighbour search and the fits is class-blind, as
    # for a numeric target: one group
    data, refs, kernels = prepared(X, y, discrete, None, None,
                                   task="regression", diff=diff, t_eq=t_eq,
                                   t_diff=t_diff, parts=(preparation.NPDR,))
    kept = data.kept_rows
    attributes, labels = column_labels(names, data.exact.values.shape[0],
                                       covariates)
    columns, nominal = covariate_columns(covariates, covariate_discrete,
                                         len(np.ravel(y)), kept, labels)
    check_not_attributes(X, kept, columns, attributes, labels)
    n = data.n_instances
    expected = authors_k(n) if k_nearest is None else k_nearest
    check_memory("the neighbour pairs", n * expected * BYTES_PER_PAIR)
    units = attribute_units(X, discrete, kept, raw)
    first, second, weights = find_pairs(
        data, refs, kernels, neighbourhood, k_nearest, deviation, ties,
        twins, units if raw else None, progress_callback)
    outcome = pair_outcome(np.asarray(y, dtype=np.float64).ravel()[kept],
                           data.target, first, second, logistic, raw)
    check_pairs(outcome, logistic, 2 + columns.shape[1])
    diffs = covariate_diffs(columns, nominal, first, second, raw)
    check_independent(diffs, labels)
    mean = (outcome.mean() if weights is None
            else np.dot(weights, outcome) / weights.sum())
    return first, second, Design(
        data=data, kernels=kernels, outcome=outcome, covariates=diffs,
        logistic=logistic,
        intercept=float(np.log(mean / (1 - mean))) if logistic else 0.0,
        units=units, weights=weights)


def counted_pairs(first, weights):
    """The pairs a fit counts (its residual degrees of freedom's): each
    pair its weight, the places of the lists (a whole number)."""
    return len(first) if weights is None else int(round(weights.sum()))


def find_pairs(data, refs, kernels, neighbourhood, k_nearest, deviation,
               ties, twins, weights, progress_callback):
    """The ordered (reference, neighbour) pairs of every instance and
    their weights in the fits: a SURF-family neighbourhood, or the k
    nearest (ReliefF's lists, the candidates at the k-th distance sharing
    its last places or the lower indices taking them, each pair weighted
    by its share of the places; or with ``ties="all"`` every instance as
    near as the k-th, each whole); the attributes weighted by `weights`
    in the distance (None: 1).  The weights are None where every pair
    weighs 1."""
    exclude_twins = twins == "exclude"
    n = data.n_instances
    if n < 2:
        raise ReliefInputError("NPDR needs at least two instances with a "
                               "known target.")
    if neighbourhood != "relieff":
        ddof = SIGMAS[deviation]
        return kernels.neighbour_pairs(data, RULES[neighbourhood], 1, ddof,
                                       exclude_twins, weights,
                                       progress_callback) + (None,)
    k = min(authors_k(n) if k_nearest is None else k_nearest, n - 1)
    if ties == "all":
        return kernels.neighbour_pairs(data, KTH_LIMIT, k, 0, exclude_twins,
                                       weights, progress_callback) + (None,)
    lists = neighbours_of(kernels, data, refs, k, weights, progress_callback,
                          ties=ties).whole()
    order = np.lexsort((lists.index, lists.owner))
    share = lists.share[order]
    return (refs[lists.owner[order]].astype(np.int32),
            lists.index[order].astype(np.int32),
            None if (share == 1).all() else share)


def pair_outcome(values, scaled, first, second, logistic, raw):
    """Each pair's outcome: 1 for a miss (classes differ), 0 for a hit;
    or |y_i - y_j| of the target over its range (`scaled`), or of its
    `values` themselves when `raw`."""
    if logistic:
        return (values[first] != values[second]).astype(np.float64)
    target = values if raw else scaled
    return np.abs(target[first] - target[second])


def check_pairs(outcome, logistic, k):
    """ReliefInputError unless the pairs can be fitted: more pairs than
    the k coefficients, and for a class both hits and misses."""
    if len(outcome) <= k:
        raise ReliefInputError(
            f"NPDR found {len(outcome)} neighbour pairs, too few for "
            f"{k} coefficients; use more instances or a larger "
            f"neighbourhood.")
    if logistic and outcome.min() == outcome.max():
        kind = "hits" if outcome[0] == 0 else "misses"
        raise ReliefInputError(
            f"Every neighbour pair is one of {kind}: NPDR's logistic "
            f"regression needs pairs of the same class and of different "
            f"classes.")


def column_labels(names, n_attributes, covariates):
    """How the messages name the attributes and the covariates: by their
    `names` (the attributes' then the covariates'), or their columns."""
    n_covariates = (0 if covariates is None
                    else int(np.prod(np.shape(covariates)[1:])))
    if names is None:
        return ([f"attribute {a}" for a in range(n_attributes)],
                [f"covariate column {c}" for c in range(n_covariates)])
    names = [repr(str(name)) for name in names]
    if len(names) != n_attributes + n_covariates:
        raise ReliefInputError(
            f"names must name the {n_attributes} attributes and the "
            f"{n_covariates} covariates, got {len(names)} names.")
    return ([f"attribute {name}" for name in names[:n_attributes]],
            [f"covariate {name}" for name in names[n_attributes:]])


def covariate_columns(covariates, covariate_discrete, n_rows, kept, labels):
    """The covariates of the kept rows, (kept, c) float64, and which are
    nominal; ReliefInputError, naming it by its `labels` entry, for a
    covariate that is not a real number, missing, infinite or constant."""
    if covariates is None:
        if covariate_discrete is not None:
            raise ReliefInputError("covariate_discrete says which covariates "
                                   "are nominal; it needs covariates.")
        return np.empty((len(kept), 0)), np.zeros(0, bool)
    columns = as_real(covariates, "The array of covariates")
    if columns.ndim == 1:
        columns = columns[:, None]
    if columns.ndim != 2 or len(columns) != n_rows:
        raise ReliefInputError(
            f"The covariates must be one row per instance ({n_rows}), got "
            f"an array of shape {columns.shape}.")
    nominal = as_nominal_mask(covariate_discrete, columns.shape[1])
    columns = columns[kept]
    for label, column in zip(labels, columns.T):
        if not np.isfinite(column).all():
            raise ReliefInputError(
                f"The {label} has missing or infinite values; "
                f"NPDR needs every covariate known where the target is.")
        if column.min() == column.max():
            raise ReliefInputError(f"The {label} is constant: it cannot "
                                   f"adjust for anything.")
    return columns, nominal


def check_not_attributes(X, kept, columns, attributes, labels):
    """ReliefInputError for a covariate whose values are an attribute's
    (the kept rows of `X`): an attribute that is also a covariate has no
    fit beside it."""
    if not columns.shape[1]:
        return
    values = np.asarray(X, dtype=np.float64)[kept]
    for label, column in zip(labels, columns.T):
        same = np.flatnonzero((values == column[:, None]).all(axis=0))
        if len(same):
            raise ReliefInputError(
                f"The {label} holds the values of "
                f"{attributes[same[0]]}: an attribute that is also a "
                f"covariate cannot be fitted beside it; leave it out of "
                f"the attributes or of the covariates.")


def check_independent(diffs, labels):
    """ReliefInputError unless the covariates' diffs over the pairs (c,
    pairs) and the intercept are linearly independent, by the fits' own
    test (Cholesky's pivots, :data:`..formulas.npdr.SINGULAR`): otherwise
    no attribute's regression can be fitted."""
    design = np.vstack([np.ones(diffs.shape[1]), diffs])
    gram = design @ design.T
    lower = np.zeros_like(gram)
    for s in range(len(gram)):
        pivot = gram[s, s] - lower[s, :s] @ lower[s, :s]
        if not pivot > SINGULAR * gram[s, s]:
            label, before = labels[s - 1], labels[:s - 1]
            how = (f"are a linear combination of those of "
                   f"{', '.join(before)} and a constant" if before
                   else "are the same in every pair")
            raise ReliefInputError(
                f"The diffs of the {label} over the neighbour "
                f"pairs {how}: with it no attribute's regression can be "
                f"fitted; leave it out.")
        lower[s, s] = math.sqrt(pivot)
        lower[s + 1:, s] = (gram[s + 1:, s]
                            - lower[s + 1:, :s] @ lower[s, :s]) / lower[s, s]


def covariate_diffs(columns, nominal, first, second, raw):
    """The covariates' diffs over the pairs, (c, pairs): 0/1 for a
    nominal one, |c_i - c_j| (over the range unless `raw`) otherwise."""
    diffs = np.empty((columns.shape[1], len(first)))
    for c, column in enumerate(columns.T):
        if nominal[c]:
            diffs[c] = column[first] != column[second]
        else:
            span = 1.0 if raw else column.max() - column.min()
            diffs[c] = np.abs(column[first] - column[second]) / span
    return diffs


def attribute_units(X, discrete, kept, raw):
    """Each attribute's unit: 1, or with `raw` a numeric attribute's
    range (its diff is then |x_i - x_j|, not |x_i - x_j| / range): the
    weight of its diff in the distance (the R package's manhattan
    distance of the raw values) and what its coefficient and error are
    divided by."""
    X = (dense_values(X) if sp.issparse(X) or is_column_source(X)
         else np.asarray(X, dtype=np.float64))[kept]
    units = np.ones(X.shape[1])
    if raw:
        with np.errstate(invalid="ignore"):
            span = np.fmax.reduce(X, axis=0) - np.fmin.reduce(X, axis=0)
        numeric = ~as_nominal_mask(discrete, X.shape[1]) & (span > 0)
        units[numeric] = span[numeric]
    return units


Levels = namedtuple("Levels", [
    "codes",   # (a, n) int8: each instance's level of each attribute
    "diffs",   # (a, MAX_LEVELS^2): the diff of levels (u, v) at u L + v
    "counts",  # (a,) how many levels an attribute has; 0: not grouped
])


def attribute_levels(exact, grouped):
    """The attributes whose pairs the fits group by level
    (:data:`..formulas.npdr.MAX_LEVELS`): with `grouped` (a logistic fit
    without covariates), those of at most MAX_LEVELS values, none
    missing; each level's code and the diffs of every two levels (the
    diffs of their pairs, computed as the pairs' are)."""
    n_attrs, n = exact.values.shape
    codes = np.zeros((n_attrs, n), np.int8)
    diffs = np.zeros((n_attrs, MAX_LEVELS * MAX_LEVELS))
    counts = np.zeros(n_attrs, np.int64)
    for a in range(n_attrs if grouped else 0):
        values = exact.values[a]
        levels, inverse = np.unique(values, return_inverse=True)
        if len(levels) > MAX_LEVELS or np.isnan(levels).any():
            continue
        codes[a] = inverse
        counts[a] = len(levels)
        u, v = np.divmod(np.arange(MAX_LEVELS * MAX_LEVELS), MAX_LEVELS)
        known = (u < len(levels)) & (v < len(levels))
        if exact.nominal[a]:
            diffs[a, known] = levels[u[known]] != levels[v[known]]
        else:
            diffs[a, known] = transform(
                np.abs(levels[u[known]] - levels[v[known]]), exact.kind,
                exact.t_eq, exact.t_diff)
    return Levels(codes, diffs, counts)


def results(fits, design, n_pairs, adjustment):
    """The :data:`NpdrResult` of the engine's fits (coefficients,
    [H^-1]_11, squared residuals, converged)."""
    coefficients, variance, residuals, converged = fits
    k = coefficients.shape[1]
    df = n_pairs - k
    if design.logistic:
        error = np.sqrt(variance)
    else:
        error = np.sqrt(residuals / df * variance)
    fitted = np.isfinite(error)
    coefficients = np.where(fitted[:, None], coefficients, np.nan)
    coefficient = coefficients[:, 1] / design.units
    error = error / design.units
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = coefficient / error
    p = np.where(fitted, stdtr(df, -statistic), np.nan)
    return NpdrResult(
        coefficient=coefficient, standard_error=error, statistic=statistic,
        p=p, q=adjust.unchecked(p, adjustment), intercept=coefficients[:, 0],
        covariates=coefficients[:, 2:], converged=converged & fitted, df=df,
        n_pairs=n_pairs,
        regression="logistic" if design.logistic else "linear")

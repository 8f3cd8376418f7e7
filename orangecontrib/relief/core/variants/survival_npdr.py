"""Survival NPDR: NPDR's neighbour pairs regressed on the difference of
the survival times, right-censored (Kampmeyer, Dawkins, Urbanowicz,
Kazemi-Nia & McKinney 2026).

The neighbours are NPDR's (:func:`.npdr.npdr_design`: MultiSURF's
neighbourhood by default, none of them looking at the times), each pair
ordered (R_i, N_j), the reference then its neighbour.  Then:

* optionally, every censored time is replaced by its Kaplan-Meier
  conditional mean (:func:`.kaplan_meier.conditional_mean_times`);
* a pair whose order is unknown is left out: the neighbour censored at or
  before the reference's time (its true time may be before or after), by
  the times as observed;
* each attribute A is regressed, over the pairs left, with its diff
  signed, x_i - x_j, or absolute, |x_i - x_j|::

    linear:   dT = b_0 + b_A d(A) + sum_c b_c d(c) + e
    logistic: logit P(T_j >= T_i) = b_0 + b_A d(A) + sum_c b_c d(c)

  dT = T_i - T_j (signed) or |T_i - T_j| (absolute); the covariates'
  diffs d(c) are signed, c_i - c_j, whatever the attributes' (as in the
  authors' code).

Signed diffs find main effects: a pair whose reference has the larger x
lives longer (or shorter) when A lengthens (or shortens) survival.
Absolute diffs find interactions, as NPDR: neighbours that differ in A
differ in survival.  b_A's statistic (Student's t, or Wald's z) is tested
two-sided, as the authors' code does; :func:`..analysis.significance.adjust`
adjusts the p-values for testing every attribute.  The linear fits are
least squares by projecting out the intercept and the covariates
(Frisch-Waugh-Lovell), for blocks of attributes at once; the logistic
ones follow R's ``glm`` step by step (:func:`..networks.glm.fit_glms`), so that
the statistics are R's.

This module imports neither Orange nor Qt.

References
----------
Kampmeyer, P., Dawkins, B. A., Urbanowicz, R. J., Kazemi-Nia, S.,
McKinney, B. A. (2026). Survival nearest-neighbor projected distance
regression.  R code: pak611/survivalNPDR, ``sNPDR/R/npdr_surv.R``.
Le, T. T., Dawkins, B. A., McKinney, B. A. (2020). Nearest-neighbor
projected distance regression (NPDR). Bioinformatics 36(9):2770-2777.
"""
from collections import namedtuple

import numpy as np
import scipy.sparse as sp
from scipy.special import ndtr, stdtr

from ..columns import is_column_source
from ..compact.store import dense_values
from ..errors import ReliefInputError
from ..networks.glm import QR_TOLERANCE, fit_glms
from .kaplan_meier import conditional_mean_times
from .npdr import (NpdrResult, check_independent, check_pairs, column_labels,
                   counted_pairs, covariate_columns, fit_columns, npdr_design)
from ..options import (ADJUSTMENT, DEVIATION, FILTER_PAIRS, IMPUTE,
                       NPDR_NEIGHBOURHOOD, SCALE, SURVIVAL_DIFFS,
                       SURVIVAL_REGRESSION, TIES, TWINS)
from ..progress import report, wrap_callback
from ..analysis.significance import adjust
from ..targets import as_nominal_mask
from ..validation import SURVIVAL_NAMES, validated
from ..values import as_real

#: the float64 values a block of attributes' diffs over the pairs may take
BLOCK_VALUES = 4_000_000
#: the share of the run spent finding the pairs (for progress)
PAIRS_SHARE = 0.3


@validated(**SURVIVAL_NAMES, covariates=None)  # their values, not names
def survival_npdr(X, time, event, discrete=None, covariates=None,
                  covariate_discrete=None, *, diffs=SURVIVAL_DIFFS,
                  regression=SURVIVAL_REGRESSION, impute=IMPUTE,
                  filter_pairs=FILTER_PAIRS,
                  neighbourhood=NPDR_NEIGHBOURHOOD, k_nearest=None,
                  deviation=DEVIATION, ties=TIES, twins=TWINS, scale=SCALE,
                  adjustment=ADJUSTMENT, names=None, progress_callback=None):
    """Survival NPDR's regression of every attribute over the neighbour
    pairs.

    Parameters
    ----------
    X : array (n, a)
        Attribute values, none missing; nominal ones (`discrete`) hold
        value codes 0..V-1: one of two values differs by its codes' 0 or
        1, one of more values only absolutely (0 or 1).
    time : array (n,)
        Survival times, >= 0, each the event's or the censoring's;
        rows whose time or event is NaN are left out.
    event : array (n,)
        1 (or True) where the time is an event's, 0 where it is censored.
    discrete : bool array (a,) or None
        Which attributes are nominal (None: all numeric).
    covariates : array (n, c) or None
        Values adjusted for (not scored, not in the distance): their
        signed diffs over the same pairs are further regressors.
    covariate_discrete : bool array (c,) or None
        Which covariates are nominal (needs `covariates`; two values).
    diffs : "absolute" or "signed"
        |x_i - x_j| and |T_i - T_j| (interactions), or x_i - x_j and
        T_i - T_j (main effects).
    regression : "linear" or "logistic"
        The time difference by least squares, or whether the neighbour
        lives at least as long as the reference (a logistic fit, R's
        ``glm``).
    impute : bool
        Censored times replaced by their Kaplan-Meier conditional mean
        before the time differences (and the logistic outcome).
    filter_pairs : bool
        Leave out the pairs whose order is unknown: the neighbour
        censored at or before the reference's observed time.
    neighbourhood, k_nearest, deviation, ties, twins, scale
        NPDR's neighbours (:func:`.npdr.npdr`); ``scale="range"`` also
        divides the attributes', covariates' and times' differences by
        their ranges (coefficients per range; statistics and p-values are
        the same), ``"none"`` keeps their units, as the authors' code.
    adjustment : "bh", "holm" or "bonferroni"
        Of `q` (the authors' code: Bonferroni).
    names : sequence of str or None
        The attributes' names then the covariates', for the messages.
    progress_callback : callable(float) or None

    Returns
    -------
    :data:`.npdr.NpdrResult`
        Two-sided p-values; NaN for an attribute without a fit (its diffs
        constant over the pairs, or a combination of the covariates').
        ``n_pairs`` counts the pairs fitted, after the filter.

    References
    ----------
    Kampmeyer et al. (2026); R code pak611/survivalNPDR,
    ``sNPDR/R/npdr_surv.R``.
    """
    design = survival_design.unchecked(
        X, time, event, discrete, covariates, covariate_discrete,
        diffs=diffs, regression=regression, impute=impute,
        filter_pairs=filter_pairs, neighbourhood=neighbourhood,
        k_nearest=k_nearest, deviation=deviation, ties=ties, twins=twins,
        scale=scale, names=names,
        progress_callback=wrap_callback(progress_callback, 0, PAIRS_SHARE))
    fit = logistic_fits if design.logistic else linear_fits
    coefficients, errors, statistics, converged = fit(
        design.diffs_of, design.n_attributes, design.outcome,
        design.covariates, design.weights,
        wrap_callback(progress_callback, PAIRS_SHARE, 1.0))
    n_pairs = counted_pairs(design.outcome, design.weights)
    df = n_pairs - 2 - len(design.covariates)
    fitted = np.isfinite(errors)
    with np.errstate(invalid="ignore"):
        tail = (ndtr(-np.abs(statistics)) if design.logistic
                else stdtr(df, -np.abs(statistics)))
    p = np.where(fitted, 2 * tail, np.nan)
    return NpdrResult(
        coefficient=coefficients[:, 1], standard_error=errors,
        statistic=statistics, p=p, q=adjust.unchecked(p, adjustment),
        intercept=coefficients[:, 0], covariates=coefficients[:, 2:],
        converged=converged & fitted, df=df, n_pairs=n_pairs,
        regression="logistic" if design.logistic else "linear")


@validated(**SURVIVAL_NAMES)
def survival_npdr_columns(X, time, event, discrete=None,
                          covariate_columns=(), *, names=None, **options):
    """:func:`survival_npdr` of the columns of `X` but `covariate_columns`
    (their indices, each once), which are its covariates: every field of
    the result one per column of `X`, NaN at the covariates'; `names`
    name the columns in messages; `options` are :func:`survival_npdr`'s."""
    def fit(values, nominal, covariates, covariate_nominal, names):
        return survival_npdr.unchecked(values, time, event, nominal,
                                       covariates, covariate_nominal,
                                       names=names, **options)
    return fit_columns(fit, X, discrete, covariate_columns, names)


SurvivalDesign = namedtuple("SurvivalDesign", [
    "diffs_of",      # diffs_of(block): the diffs of a slice of the
                     # attributes over the pairs, (a, pairs)
    "n_attributes",
    "outcome",       # (pairs,) the time difference, or 1 where the
                     # neighbour lives at least as long as the reference
    "covariates",    # (c, pairs) the covariates' signed diffs
    "weights",       # (pairs,) each pair's weight, or None: 1
    "logistic",      # bool
])


@validated(**SURVIVAL_NAMES, covariates=None)
def survival_design(X, time, event, discrete=None, covariates=None,
                    covariate_discrete=None, *, diffs=SURVIVAL_DIFFS,
                    regression=SURVIVAL_REGRESSION, impute=IMPUTE,
                    filter_pairs=FILTER_PAIRS,
                    neighbourhood=NPDR_NEIGHBOURHOOD, k_nearest=None,
                    deviation=DEVIATION, ties=TIES, twins=TWINS,
                    scale=SCALE, names=None, progress_callback=None):
    """Survival NPDR's pairs and what its fits read of them, the
    :data:`SurvivalDesign` (the parameters are :func:`survival_npdr`'s):
    NPDR's neighbour pairs, those of unknown order left out, the times
    imputed, the outcome, the covariates' diffs."""
    signed, logistic = diffs == "signed", regression == "logistic"
    raw = scale == "none"
    values = attribute_values(X)
    n_rows, n_attrs = values.shape
    attributes, labels = column_labels(names, n_attrs, covariates)
    time, event = survival_outcome(time, event, n_rows)
    nominal = as_nominal_mask(discrete, n_attrs)
    check_values(values[~np.isnan(time)], nominal, signed, attributes)
    first, second, design = npdr_design.unchecked(
        values, time, nominal, neighbourhood=neighbourhood,
        k_nearest=k_nearest, deviation=deviation, ties=ties, twins=twins,
        scale=scale, task="regression",
        names=None if names is None else list(names)[:n_attrs],
        progress_callback=progress_callback)
    kept = design.data.kept_rows
    time, event = time[kept], event[kept].astype(bool)
    columns, covariate_nominal = covariate_columns(
        covariates, covariate_discrete, n_rows, kept, labels)
    check_values(columns, covariate_nominal, True, labels)
    weights = design.weights
    if filter_pairs:
        known = ~((time[second] <= time[first]) & ~event[second])
        first, second = first[known], second[known]
        weights = None if weights is None else weights[known]
    used = conditional_mean_times(time, event) if impute else time
    outcome = (pair_outcome(used, first, second, signed, raw)
               if not logistic
               else (used[second] >= used[first]).astype(np.float64))
    covariate_diffs = column_diffs(columns, first, second, True, raw,
                                   covariate_nominal)
    check_fittable(outcome, logistic, 2 + len(covariate_diffs))
    check_independent(covariate_diffs, labels)
    values = values[kept]

    def diffs_of(block):
        return column_diffs(values[:, block], first, second, signed, raw,
                            nominal[block])

    return SurvivalDesign(diffs_of, n_attrs, outcome, covariate_diffs,
                          weights, logistic)


def attribute_values(X):
    """The attributes as a dense float64 (n, a) array."""
    if sp.issparse(X) or is_column_source(X):
        return dense_values(X)
    values = as_real(X, "The data")
    if values.ndim != 2:
        raise ReliefInputError(f"The data must be a 2-D array (instances "
                               f"by attributes), got shape {values.shape}.")
    return values


def survival_outcome(time, event, n_rows):
    """`time` and `event` as float64 (n,) arrays, NaN in the time of a row
    without a known time or event (left out); ReliefInputError for fewer
    than two rows left, a time that is negative or infinite, an event not
    0 or 1, no event at all, or every time the same."""
    if event is None:
        raise ReliefInputError("Survival NPDR needs the event of every "
                               "time (1: an event, 0: censored); give "
                               "event.")
    time = as_real(time, "The survival times").ravel()
    event = as_real(event, "The events").ravel()
    for what, array in (("survival times", time), ("events", event)):
        if len(array) != n_rows:
            raise ReliefInputError(f"The {what} have {len(array)} entries "
                                   f"for {n_rows} instances.")
    known = ~np.isnan(time) & ~np.isnan(event)
    if known.sum() < 2:
        raise ReliefInputError(
            f"Survival NPDR compares instances and needs at least two with "
            f"a time and an event; got {int(known.sum())} of {n_rows} "
            f"(rows whose time or event is missing are left out).")
    bad = known & ~np.isin(event, (0, 1))
    if bad.any():
        row = np.flatnonzero(bad)[0]
        raise ReliefInputError(f"An event must be 1 (an event) or 0 "
                               f"(censored), got {event[row]:g} in row "
                               f"{row}.")
    bad = known & ~((time >= 0) & np.isfinite(time))
    if bad.any():
        row = np.flatnonzero(bad)[0]
        raise ReliefInputError(f"Survival times must be finite and not "
                               f"negative, got {time[row]:g} in row {row}.")
    if not (event[known] == 1).any():
        raise ReliefInputError(
            "Every time is censored (no event): survival NPDR needs "
            "instances whose event was observed.")
    if np.ptp(time[known]) == 0:
        raise ReliefInputError(
            f"Every survival time is {time[known][0]:g}: survival NPDR "
            f"compares times that differ.")
    return np.where(known, time, np.nan), np.where(known, event, 0.0)


def check_values(values, nominal, signed, labels):
    """ReliefInputError for a missing or infinite value, or for a nominal
    column of more than two values where the diffs are `signed` (its
    codes have no order)."""
    for c in range(values.shape[1]):
        column = values[:, c]
        if not np.isfinite(column).all():
            raise ReliefInputError(
                f"The {labels[c]} has missing or infinite values: survival "
                f"NPDR regresses every pair's diff; impute them or leave "
                f"the column out.")
        if signed and nominal[c] and column.max() > 1:
            raise ReliefInputError(
                f"The {labels[c]} is nominal with more than two values: "
                f"its signed diffs have no order; use diffs='absolute' or "
                f"encode it by one column per value.")


def pair_outcome(times, first, second, signed, raw):
    """Each pair's time difference, T_i - T_j or |T_i - T_j|, over the
    range of the times unless `raw`."""
    outcome = times[first] - times[second]
    if not signed:
        outcome = np.abs(outcome)
    span = times.max() - times.min()
    return outcome if raw or span == 0 else outcome / span


def column_diffs(columns, first, second, signed, raw, nominal=None):
    """The diffs of `columns` (n, c) over the pairs, (c, pairs): x_i -
    x_j, or |x_i - x_j| (a nominal column of more values: 0 or 1), over
    each numeric column's range unless `raw`."""
    by_column = np.ascontiguousarray(columns.T)
    diffs = np.take(by_column, first, axis=1)  # (c, pairs), row-major
    diffs -= np.take(by_column, second, axis=1)
    if not signed:
        diffs = np.abs(diffs)
        if nominal is not None:
            diffs[nominal] = diffs[nominal] != 0
    if not raw:
        span = columns.max(axis=0) - columns.min(axis=0)
        numeric = span > 0 if nominal is None else (span > 0) & ~nominal
        diffs[numeric] /= span[numeric, None]
    return diffs


def attribute_blocks(n_attrs, n_pairs, n_columns):
    """Slices of the attributes whose diffs over the pairs, `n_columns`
    regressors each, fit in :data:`BLOCK_VALUES`."""
    size = max(1, BLOCK_VALUES // max(1, n_pairs * n_columns))
    return [slice(start, min(start + size, n_attrs))
            for start in range(0, n_attrs, size)]


def linear_fits(diffs_of, n_attrs, outcome, covariates, weights,
                progress_callback):
    """Least squares of `outcome` on each attribute's diffs
    (``diffs_of(block)``: those of a slice of the attributes, (a, pairs)),
    the intercept and the `covariates`' diffs (c, pairs), with the pairs'
    `weights` (None: 1): the intercept and covariates projected out by a
    QR decomposition (Frisch-Waugh-Lovell), from each attribute's sums
    over the pairs (its diffs centred first, so that little cancels).
    (coefficients (a, 2 + c), standard errors, t, converged) of b_A; NaN
    where A's diffs are (to R's tolerance) a combination of the others."""
    n_pairs = len(outcome)
    root = np.ones(n_pairs) if weights is None else np.sqrt(weights)
    others = np.vstack([root, covariates * root]).T
    q, r = np.linalg.qr(others)
    y = outcome * root
    along_y = q.T @ y
    y_left = y - q @ along_y
    basis = np.column_stack([q, y])
    unit = root / np.sqrt(root @ root)
    coefficients = np.full((n_attrs, 1 + others.shape[1]), np.nan)
    errors = np.full(n_attrs, np.nan)
    df = counted_pairs(outcome, weights) - 1 - others.shape[1]
    blocks = attribute_blocks(n_attrs, n_pairs, 1)
    for done, block in enumerate(blocks):
        d = diffs_of(block)
        if weights is not None:
            d *= root
        level = d @ unit  # along the intercept, added back below
        d -= (np.outer(level, unit) if weights is not None
              else (level * unit[0])[:, None])
        total = np.einsum("ap,ap->a", d, d)
        projected = d @ basis
        along = projected[:, :-1]
        spread = total - np.einsum("ak,ak->a", along, along)
        cross = projected[:, -1] - along @ along_y
        fitted = np.sqrt(np.maximum(spread, 0)) > QR_TOLERANCE * np.sqrt(
            total + level ** 2)
        with np.errstate(divide="ignore", invalid="ignore"):
            slope = np.where(fitted, cross / spread, np.nan)
            residual = np.maximum(y_left @ y_left - slope * cross, 0)
            errors[block] = np.sqrt(residual / df / spread)
        along += np.outer(level, q.T @ unit)  # the diffs' own projection
        rest = np.linalg.solve(r, along_y[:, None] - along.T * slope)
        coefficients[block, 1] = slope
        coefficients[block, 0] = rest[0]
        coefficients[block, 2:] = rest[1:].T
        report(progress_callback, (done + 1) / len(blocks))
    errors[~np.isfinite(coefficients[:, 1])] = np.nan
    coefficients[np.isnan(errors)] = np.nan
    with np.errstate(invalid="ignore"):
        return (coefficients, errors, coefficients[:, 1] / errors,
                np.isfinite(errors))


def logistic_fits(diffs_of, n_attrs, outcome, covariates, weights,
                  progress_callback):
    """R's ``glm(outcome ~ diff(A) + covariates, binomial)`` of every
    attribute (its diffs ``diffs_of(block)``, as in :func:`linear_fits`;
    :func:`..networks.glm.fit_glms`), the pairs' `weights` its prior weights:
    (coefficients (a, 2 + c), standard errors, z, converged)."""
    n_pairs = len(outcome)
    prior = np.ones(n_pairs) if weights is None else weights
    coefficients = np.full((n_attrs, 2 + len(covariates)), np.nan)
    errors = np.full(n_attrs, np.nan)
    converged = np.zeros(n_attrs, bool)
    blocks = attribute_blocks(n_attrs, n_pairs, 2 + len(covariates))
    for done, block in enumerate(blocks):
        d = diffs_of(block)
        designs = np.empty((len(d), n_pairs, 2 + len(covariates)))
        designs[:, :, 0] = 1.0
        designs[:, :, 1] = d
        designs[:, :, 2:] = covariates.T
        fits = fit_glms(designs, outcome, np.tile(prior, (len(d), 1)),
                        "binomial")
        coefficients[block] = fits.coefficient
        errors[block] = fits.standard_error[:, 1]
        converged[block] = fits.converged
        report(progress_callback, (done + 1) / len(blocks))
    with np.errstate(invalid="ignore"):
        return coefficients, errors, coefficients[:, 1] / errors, converged


def check_fittable(outcome, logistic, k):
    """ReliefInputError unless the pairs left can be fitted: more than the
    k coefficients (:func:`.npdr.check_pairs`), and for the logistic fit
    both orders."""
    check_pairs(outcome, False, k)
    if logistic and outcome.min() == outcome.max():
        raise ReliefInputError(
            "In every neighbour pair the same instance lives longer: the "
            "logistic fit needs pairs of either order.")

"""Many small generalised linear models, fitted as R fits them.

reGAIN (:mod:`.regain`) fits a model per attribute and per pair of
attributes and reads Wald's statistic of one coefficient; its authors fit
them with R's ``glm2`` (Marschner 2011), which is R's ``glm.fit`` with one
change: a step that increases the deviance is halved.  :func:`fit_glms`
follows that algorithm step by step, so that its statistics are R's to
the rounding of the arithmetic, for a batch of designs at once:

* start from mu = (y + 1/2) / 2 (binomial) or mu = y (gaussian);
* iteratively reweighted least squares: the working response
  z = eta + (y - mu) / mu'(eta) regressed on the design with the weights
  w = mu'(eta)^2 / V(mu), by a QR decomposition;
* stop when the deviance changes by less than 1e-8 of itself plus 0.1,
  at most 25 iterations (``glm.control``);
* the standard errors from the last least-squares fit, (X' W X)^-1 with
  the weights of the iterate *before* the last update, times the
  dispersion (1 for the binomial; the weighted mean square of the working
  residuals for the gaussian).

The last point is R's: fitted to convergence the standard errors would be
those of the maximum likelihood at the final coefficients, which differ
from R's by about the convergence tolerance.

A design whose columns are linearly dependent (a constant attribute, an
attribute equal to another) is rank deficient: R drops a column and reads
the wrong row of its table of coefficients, here the fit is marked and
gives NaN.

References
----------
Marschner, I. C. (2011). glm2: Fitting generalized linear models with
convergence problems. The R Journal 3(2):12-15.
R Core Team. ``glm.fit`` and ``summary.glm`` of the stats package.
"""
from collections import namedtuple

import numpy as np
from scipy.special import ndtr, stdtr

#: ``glm.control()``'s defaults: the relative change of the deviance that
#: counts as converged, and the most iterations
EPSILON = 1e-8
MAX_ITERATIONS = 25
#: the tolerance of R's QR decomposition in ``glm.fit``:
#: min(1e-7, epsilon / 1000)
QR_TOLERANCE = min(1e-7, EPSILON / 1000)
#: the logit's thresholds in R's C code: beyond them mu and dmu/deta are
#: clamped to machine epsilon
LOGIT_LIMIT = 30.0
MACHINE_EPSILON = np.finfo(np.float64).eps
FAMILIES = ("binomial", "gaussian")

GlmFits = namedtuple("GlmFits", [
    "coefficient",     # (P, p) the coefficients of each design's fit
    "standard_error",  # (P, p)
    "statistic",       # (P, p) coefficient / standard error: Wald's z
                       # (binomial) or Student's t (gaussian)
    "p",               # (P, p) two-sided p-values
    "converged",       # (P,) bool, as R's ``converged``
    "df",              # (P,) residual degrees of freedom, rows - p
])


def logit_mean(eta):
    """R's ``binomial()$linkinv``: exp(eta) / (1 + exp(eta)), clamped
    beyond +-30 as R's C code does."""
    tail = np.where(eta < -LOGIT_LIMIT, MACHINE_EPSILON,
                    1 / MACHINE_EPSILON)
    odds = np.where(np.abs(eta) > LOGIT_LIMIT, tail,
                    np.exp(np.clip(eta, -LOGIT_LIMIT, LOGIT_LIMIT)))
    return odds / (1 + odds)


def logit_slope(eta):
    """R's ``binomial()$mu.eta``: dmu/deta = exp(eta) / (1 + exp(eta))^2,
    machine epsilon beyond +-30."""
    odds = np.exp(np.clip(eta, -LOGIT_LIMIT, LOGIT_LIMIT))
    return np.where(np.abs(eta) > LOGIT_LIMIT, MACHINE_EPSILON,
                    odds / (1 + odds) ** 2)


def deviance(y, mu, weights, family):
    """Each design's deviance: R's ``sum(dev.resids(y, mu, weights))``."""
    if family == "gaussian":
        return (weights * (y - mu) ** 2).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ones = np.where(y != 0, y * np.log(y / mu), 0.0)
        zeros = np.where(y != 1, (1 - y) * np.log((1 - y) / (1 - mu)), 0.0)
    return (2 * weights * (ones + zeros)).sum(axis=-1)


def least_squares(designs, response, row_weights):
    """The weighted least squares of each design: its coefficients, the
    R factor of its QR decomposition, and whether it is rank deficient
    (a pivot below R's tolerance relative to its column's norm)."""
    weighted = designs * row_weights[..., None]
    q, r = np.linalg.qr(weighted)
    pivots = np.abs(np.diagonal(r, axis1=-2, axis2=-1))
    norms = np.linalg.norm(weighted, axis=-2)
    deficient = (pivots <= QR_TOLERANCE * np.maximum(norms, 1e-300)).any(
        axis=-1)
    r_safe = np.where(deficient[:, None, None], np.eye(r.shape[-1]), r)
    projected = np.einsum("pnk,pn->pk", q, response * row_weights)
    coefficients = np.linalg.solve(r_safe, projected[..., None])[..., 0]
    return coefficients, r_safe, deficient


def family_functions(family):
    """(mean, slope of the mean, variance) of `family`'s canonical link."""
    if family == "binomial":
        return logit_mean, logit_slope, lambda mu: mu * (1 - mu)
    return (lambda eta: eta, np.ones_like, np.ones_like)


def fit_glms(designs, y, weights, family):
    """Fit ``y ~ design`` for every design of `designs`, as R's ``glm2``.

    Parameters
    ----------
    designs : float64 array (P, n, p)
        P designs of n rows, an intercept column among them; the values of
        a row of weight 0 are ignored (and may be anything finite).
    y : float64 array (n,)
        The response: 0 or 1 (binomial) or a number (gaussian).
    weights : float64 array (P, n)
        Prior weights of the rows, 0 to leave a row out of a fit (R's
        ``na.omit`` of a row with a missing value).
    family : "binomial" (logit link) or "gaussian" (identity link)

    Returns
    -------
    GlmFits
        NaN for the designs that are rank deficient.
    """
    mean, slope, variance = family_functions(family)
    n_designs, _, n_columns = designs.shape
    if family == "binomial":
        mu = (weights * y + 0.5) / (weights + 1)
        eta = np.log(mu / (1 - mu))
    else:
        mu = np.tile(y, (n_designs, 1)).astype(np.float64)
        eta = mu.copy()
    old_deviance = deviance(y, mu, weights, family)
    coefficients = np.zeros((n_designs, n_columns))
    previous = np.zeros((n_designs, n_columns))
    r_factor = np.broadcast_to(np.eye(n_columns),
                               (n_designs, n_columns, n_columns)).copy()
    row_weights = np.zeros(weights.shape)
    deficient = np.zeros(n_designs, bool)
    converged = np.zeros(n_designs, bool)
    active = np.ones(n_designs, bool)
    for iteration in range(1, MAX_ITERATIONS + 1):
        rows = np.flatnonzero(active)
        d_mu = slope(eta[rows])
        response = eta[rows] + (y - mu[rows]) / d_mu
        w = np.sqrt(weights[rows] * d_mu ** 2 / variance(mu[rows]))
        start, r, singular = least_squares(designs[rows], response, w)
        r_factor[rows], row_weights[rows] = r, w
        deficient[rows] |= singular
        new_eta = np.einsum("pnk,pk->pn", designs[rows], start)
        new_mu = mean(new_eta)
        new_deviance = deviance(y, new_mu, weights[rows], family)
        if iteration > 1:  # glm2: halve a step that increases the deviance
            start, new_eta, new_mu, new_deviance = halve_steps(
                designs[rows], y, weights[rows], family, start,
                previous[rows], new_eta, new_mu, new_deviance,
                old_deviance[rows])
        done = (np.abs(new_deviance - old_deviance[rows])
                / (0.1 + np.abs(new_deviance)) < EPSILON)
        coefficients[rows], previous[rows] = start, start
        eta[rows], mu[rows] = new_eta, new_mu
        old_deviance[rows] = new_deviance
        converged[rows[done]] = True
        active[rows[done | singular]] = False
        if not active.any():
            break
    return summary(designs, y, weights, family, coefficients, mu, eta,
                   r_factor, row_weights, converged, deficient)


def halve_steps(designs, y, weights, family, start, previous, eta, mu,
                new_deviance, old_deviance):
    """glm2's third inner loop: while a fit's deviance increased, move its
    coefficients halfway back towards the previous ones (at most
    :data:`MAX_ITERATIONS` times)."""
    mean = family_functions(family)[0]

    def rising(dev):
        return (dev - old_deviance) / (0.1 + np.abs(dev)) >= EPSILON

    if not rising(new_deviance).any():
        return start, eta, mu, new_deviance
    start, eta, mu = start.copy(), eta.copy(), mu.copy()
    new_deviance = new_deviance.copy()
    halving = rising(new_deviance)
    for _ in range(MAX_ITERATIONS):
        rows = np.flatnonzero(halving)
        start[rows] = (start[rows] + previous[rows]) / 2
        eta[rows] = np.einsum("pnk,pk->pn", designs[rows], start[rows])
        mu[rows] = mean(eta[rows])
        new_deviance[rows] = deviance(y, mu[rows], weights[rows], family)
        halving[rows] = ((new_deviance[rows] - old_deviance[rows])
                         / (0.1 + np.abs(new_deviance[rows])) > -EPSILON)
        if not halving.any():
            break
    return start, eta, mu, new_deviance


def summary(designs, y, weights, family, coefficients, mu, eta, r_factor,
            row_weights, converged, deficient):
    """R's ``summary.glm`` of the fits: standard errors from the last
    least squares' R factor, statistics and two-sided p-values."""
    n_rows = (weights > 0).sum(axis=-1)
    df = n_rows - designs.shape[-1]
    r_inverse = np.linalg.inv(r_factor)
    unscaled = np.einsum("pij,pij->pi", r_inverse, r_inverse)
    if family == "binomial":
        dispersion = np.ones(len(designs))
    else:
        residuals = y - mu
        with np.errstate(divide="ignore", invalid="ignore"):
            dispersion = ((row_weights ** 2 * residuals ** 2).sum(axis=-1)
                          / df)
    standard_error = np.sqrt(dispersion[:, None] * unscaled)
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = coefficients / standard_error
    if family == "gaussian":
        tail = 2 * stdtr(np.maximum(df, 1)[:, None], -np.abs(statistic))
    else:
        tail = 2 * ndtr(-np.abs(statistic))
    fits = [coefficients, standard_error, statistic, tail]
    for values in fits:
        values[deficient] = np.nan
    return GlmFits(*fits, converged & ~deficient, df)

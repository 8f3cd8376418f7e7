"""NPDR with an elastic-net penalty: every attribute at once (Le, Dawkins
& McKinney 2020, npdrNET; glmnet's objective, Friedman, Hastie &
Tibshirani 2010).

Where :func:`.npdr.npdr` fits each attribute alone, this fits the pairs'
outcome on the diffs of all of them together, with glmnet's penalty on
the standardised diffs::

    minimise  (1/P) loss(b_0, b) + lam sum_A [(1 - alpha) / 2 b~_A^2
                                              + alpha |b~_A|]

(loss: the logistic deviance over 2 for a class, the squared error over
2 for a number; b~_A = b_A sd_A, sd_A the diffs' standard deviation over
the P pairs, 1/P), so that the penalty selects the attributes jointly
(pairs of ReliefF's lists that share tied places weigh their share, as
glmnet's observation weights: P is then the sum of the weights):
``l1_ratio`` (glmnet's alpha) 1 is the lasso, between 0 and 1 the
elastic net.  By default the coefficients are kept >= 0, as the R
package keeps them (glmnet's ``lower.limits = 0``): a relevant
attribute's diff raises the chance of a miss.

The fit is coordinate descent (Friedman et al. 2010), within Newton's
quadratic approximations (IRLS) for a class: a sweep over every
attribute, then sweeps over the attributes it made active until they
settle, then a sweep over all again, until nothing changes.  Each
attribute's diffs over the pairs are computed when a sweep needs them
(:func:`..formulas.diffs.attribute_diffs`), those of the active attributes
kept: never the pairs by all attributes at once (the R package builds
that matrix).  Numpy only, so the same numbers on either engine.
"""
from collections import namedtuple

import numpy as np

from ..errors import ReliefInputError
from ..formulas.diffs import attribute_diffs
from ..formulas.npdr import logistic_mean
from .npdr import counted_pairs, npdr_design
from ..options import (DEVIATION, DIFF, NPDR_NEIGHBOURHOOD, SCALE, T_DIFF,
                       T_EQ, TIES, TWINS, Interval)
from ..progress import report, wrap_callback
from ..validation import NPDR_NAMES, validated

NpdrNetResult = namedtuple("NpdrNetResult", [
    "coefficient",  # (a,) b_A, 0 for the attributes the penalty left out
    "intercept",    # b_0
    "lam",          # the penalty's weight
    "lambda_max",   # the smallest weight that leaves every attribute out
    "l1_ratio",     # glmnet's alpha: 1 the lasso
    "n_pairs",
    "converged",    # bool
    "regression",   # "logistic" or "linear"
])

#: without `lam`, this share of lambda_max: about the strongest attributes
LAMBDA_SHARE = 0.05
#: a sweep has settled when no standardised coefficient moved more
SWEEP_TOLERANCE = 1e-12
#: IRLS has converged when no standardised coefficient moved more
TOLERANCE = 1e-10
MAX_SWEEPS = 10000
MAX_ITERATIONS = 100

L1_RATIO = Interval(0, 1)
LAM = Interval(0, np.inf, open=True)


class PairColumns:
    """The standardised diffs of each attribute over the pairs, computed
    when asked for; the active attributes' kept."""

    def __init__(self, exact, first, second, weights=None,
                 progress_callback=None):
        self.exact, self.first, self.second = exact, first, second
        self.standardise(exact.values.shape[0], weights, progress_callback)

    def standardise(self, n_attrs, weights, progress_callback):
        """Each attribute's mean and standard deviation over the pairs
        (each pair weighing its weight)."""
        self.mean = np.empty(n_attrs)
        self.sd = np.empty(n_attrs)
        for a in range(n_attrs):
            diffs = self.raw(a)
            self.mean[a] = average(diffs, weights)
            self.sd[a] = np.sqrt(average((diffs - self.mean[a]) ** 2,
                                         weights))
            report(progress_callback, (a + 1) / n_attrs)
        self.kept = {}

    def raw(self, a):
        """Attribute a's diffs over the pairs."""
        return attribute_diffs(self.exact, a, self.first, self.second)

    def __call__(self, a):
        """Attribute a's standardised diffs (kept while it is active)."""
        if a in self.kept:
            return self.kept[a]
        return (self.raw(a) - self.mean[a]) / self.sd[a]

    def keep(self, active):
        """Keep the columns of `active` and no others."""
        self.kept = {a: self(a) for a in active}


def average(values, weights):
    """The mean of `values` over the pairs, each weighing its weight
    (`weights`; None: 1)."""
    if weights is None:
        return values.mean()
    return np.dot(weights, values) / weights.sum()


def soft_threshold(value, threshold):
    """sign(value) max(|value| - threshold, 0)."""
    return np.sign(value) * max(abs(value) - threshold, 0.0)


def coordinate_descent(columns, weight, residual, beta, intercept, lam,
                       l1_ratio, nonnegative, candidates, n_pairs):
    """Minimise (1/2P) sum w (residual)^2 + the penalty by coordinate
    descent over the intercept and the `candidates` (standardised
    coefficients `beta`, changed in place, `residual` with them), P =
    `n_pairs` (the pairs' weights summed); returns the intercept and
    whether a sweep settled."""
    total_weight = weight.sum()
    variance = {a: np.dot(weight, columns(a) ** 2) / n_pairs
                for a in candidates}
    active = [a for a in candidates if beta[a] != 0]
    full = True
    for _ in range(MAX_SWEEPS):
        moved = 0.0
        step = np.dot(weight, residual) / total_weight
        intercept += step
        residual -= step
        for a in (candidates if full else active):
            column = columns(a)
            gradient = np.dot(weight * column, residual) / n_pairs
            value = soft_threshold(gradient + variance[a] * beta[a],
                                   lam * l1_ratio)
            value /= variance[a] + lam * (1 - l1_ratio)
            if nonnegative:
                value = max(value, 0.0)
            change = value - beta[a]
            if change != 0:
                residual -= change * column
                beta[a] = value
                moved = max(moved, abs(change) * np.sqrt(variance[a]))
        if full:
            active = [a for a in candidates if beta[a] != 0]
            columns.keep(active)
            if moved <= SWEEP_TOLERANCE:
                return intercept, True
            full = False
        elif moved <= SWEEP_TOLERANCE:
            full = True  # the active set settled: check all again
    return intercept, False


@validated(**NPDR_NAMES)
def npdr_net(X, y, discrete=None, *, lam=None, l1_ratio=1.0,
             nonnegative=True, task="classification",
             neighbourhood=NPDR_NEIGHBOURHOOD, k_nearest=None,
             deviation=DEVIATION, ties=TIES, twins=TWINS, diff=DIFF,
             t_eq=T_EQ, t_diff=T_DIFF, scale=SCALE, progress_callback=None):
    """NPDR with an elastic-net penalty (the R package's npdrNET).

    Parameters
    ----------
    lam : float or None
        The penalty's weight (glmnet's lambda); None: LAMBDA_SHARE of
        `lambda_max`, the smallest weight that leaves every attribute out.
    l1_ratio : float in [0, 1]
        glmnet's alpha: 1 the lasso, 0 ridge regression.
    nonnegative : bool
        Keep the coefficients >= 0 (the R package's default).

    The neighbourhood and diff options are those of :func:`.npdr.npdr`.

    Returns
    -------
    NpdrNetResult

    References
    ----------
    Friedman, J., Hastie, T., Tibshirani, R. (2010). Regularization paths
    for generalized linear models via coordinate descent. Journal of
    Statistical Software 33(1).  Le, Dawkins & McKinney (2020).
    """
    l1_ratio = L1_RATIO("l1_ratio", l1_ratio)
    if lam is not None:
        lam = LAM("lam", lam)
    first, second, design = npdr_design.unchecked(
        X, y, discrete, task=task, neighbourhood=neighbourhood,
        k_nearest=k_nearest, deviation=deviation, ties=ties, twins=twins,
        diff=diff, t_eq=t_eq, t_diff=t_diff, scale=scale,
        progress_callback=wrap_callback(progress_callback, 0, 0.3))
    weights = design.weights
    columns = PairColumns(design.data.exact, first, second, weights,
                          wrap_callback(progress_callback, 0.3, 0.5))
    scaled, intercept, lam, lambda_max, converged = penalised_fit(
        columns, design.outcome, design.logistic, lam, l1_ratio,
        nonnegative, weights, wrap_callback(progress_callback, 0.5, 1.0))
    return NpdrNetResult(
        coefficient=scaled / design.units, intercept=intercept, lam=lam,
        lambda_max=lambda_max, l1_ratio=l1_ratio,
        n_pairs=counted_pairs(first, weights),
        converged=converged,
        regression="logistic" if design.logistic else "linear")


def penalised_fit(columns, outcome, logistic, lam, l1_ratio, nonnegative,
                  weights, progress_callback):
    """The penalised fit of `outcome` on every column of `columns` (a
    :class:`PairColumns`), the penalty `lam` (None: LAMBDA_SHARE of
    lambda_max): (the coefficients of the columns' own diffs, the
    intercept, lam, lambda_max, converged)."""
    candidates = [a for a in range(len(columns.sd)) if columns.sd[a] > 0]
    mean = average(outcome, weights)
    centred = (outcome - mean if weights is None
               else weights * (outcome - mean))
    n_pairs = len(outcome) if weights is None else weights.sum()
    gradients = np.array([np.dot(columns(a), centred)
                          for a in candidates]) / n_pairs
    largest = (gradients.max() if nonnegative
               else np.abs(gradients).max()) if len(candidates) else 0.0
    lambda_max = max(largest, 0.0) / max(l1_ratio, 1e-3)
    if lam is None:
        if lambda_max <= 0:
            raise ReliefInputError("No attribute's diff goes with the "
                                   "outcome: every coefficient is 0.")
        lam = LAMBDA_SHARE * lambda_max
    beta = np.zeros(len(columns.sd))
    intercept, converged = fit(columns, outcome, logistic, beta, lam,
                               l1_ratio, nonnegative, candidates, weights,
                               progress_callback)
    scaled = np.divide(beta, columns.sd, out=np.zeros_like(beta),
                       where=columns.sd > 0)
    return (scaled, intercept - np.dot(scaled, columns.mean), lam,
            lambda_max, converged)


def fit(columns, outcome, logistic, beta, lam, l1_ratio, nonnegative,
        candidates, pair_weights=None, progress_callback=None):
    """The penalised fit on the standardised columns: a least-squares
    one for a number, Newton's quadratic approximations for a class, each
    pair weighing its weight (`pair_weights`; None: 1); returns (the
    intercept, converged), `beta` filled in."""
    mean = average(outcome, pair_weights)
    prior = np.ones(len(outcome)) if pair_weights is None else pair_weights
    n_pairs = len(outcome) if pair_weights is None else pair_weights.sum()
    if not logistic:
        intercept, settled = coordinate_descent(
            columns, prior, outcome - mean, beta, mean, lam, l1_ratio,
            nonnegative, candidates, n_pairs)
        report(progress_callback, 1.0)
        return intercept, settled
    intercept = float(np.log(mean / (1 - mean)))
    eta = np.full(len(outcome), intercept)
    for iteration in range(MAX_ITERATIONS):
        mu = logistic_mean(eta)
        weight = mu * (1.0 - mu)
        before = np.append(beta, intercept)
        intercept, settled = coordinate_descent(
            columns, weight * prior, (outcome - mu) / weight, beta,
            intercept, lam, l1_ratio, nonnegative, candidates, n_pairs)
        eta = np.full(len(outcome), intercept)
        for a in candidates:
            if beta[a] != 0:
                eta += beta[a] * columns(a)
        report(progress_callback, (iteration + 1) / MAX_ITERATIONS)
        if settled and np.abs(np.append(beta, intercept)
                              - before).max() <= TOLERANCE:
            report(progress_callback, 1.0)
            return intercept, True
    return intercept, False

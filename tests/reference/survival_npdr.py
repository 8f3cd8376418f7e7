"""A slow, literal survival NPDR (Kampmeyer, Dawkins, Urbanowicz,
Kazemi-Nia & McKinney 2026), written from the paper's definitions: the
Kaplan-Meier curve as the product over the event times of (1 - d / n),
the conditional mean E[T | T > t_c] = t_c + (1 / S(t_c)) * integral of S
from t_c to the last time, the pairs of NPDR (:func:`.npdr.pairs`, the
add-on's range-scaled distance), the pairs of unknown order (the
neighbour censored at or before the reference) left out, and per
attribute the design matrix of the pairs spelled out, rows (1, d(A),
d(covariate) ...), fitted as :mod:`.npdr`'s reference fits it; two-sided
p-values.  It is meant for tiny data only.
"""
import math

import numpy as np
from scipy.special import ndtr, stdtr

from .npdr import fit_linear, fit_logistic, pairs
from .relief import prepare


def survival_curve(time, event):
    """[(t, S(t))] at every distinct time, S the product over the event
    times u <= t of (1 - events at u / at risk at u)."""
    curve, s = [], 1.0
    for t in sorted(set(time)):
        at_risk = sum(1 for u in time if u >= t)
        deaths = sum(1 for u, e in zip(time, event) if u == t and e)
        s *= 1 - deaths / at_risk
        curve.append((t, s))
    return curve


def conditional_means(time, event):
    """Each censored time replaced by t_c + (1 / S(t_c)) times the area
    under S from t_c to the last time (kept where S(t_c) is 0 or t_c is
    the last time)."""
    curve = survival_curve(time, event)
    out = []
    for t, e in zip(time, event):
        at = max(i for i, (u, _) in enumerate(curve) if u <= t)
        s = curve[at][1]
        if e or s <= 0 or at == len(curve) - 1:
            out.append(t)
            continue
        area = sum((curve[i + 1][0] - curve[i][0]) * curve[i][1]
                   for i in range(at, len(curve) - 1))
        out.append(t + area / s)
    return out


def signed_diff(values, i, j, nominal, signed, span):
    """x_i - x_j or |x_i - x_j| over the range (`span`), a nominal
    value's difference not scaled; one of more than two values 0 or 1
    when absolute."""
    d = values[i] - values[j]
    if not signed:
        d = abs(d)
        if nominal:
            d = float(d != 0)
    return d if nominal or span == 0 else d / span


def pairs_and_outcome(X, time, event, discrete, signed, logistic, impute,
                      filter_pairs, method, k, ddof, ties, exclude_twins):
    """The (reference, neighbour, weight) pairs kept, and their outcomes:
    the time difference over the range, or 1 where the neighbour lives at
    least as long."""
    n = len(X)
    ctx, _ = prepare(X, np.zeros(n), discrete, "linear", 0.04, 0.1, None,
                     True)
    found = pairs(ctx, method, k, ddof, ties, exclude_twins)
    time = [float(t) for t in time]
    event = [bool(e) for e in event]
    if filter_pairs:
        found = [(i, j, w) for i, j, w in found
                 if not (time[j] <= time[i] and not event[j])]
    used = conditional_means(time, event) if impute else time
    span_t = max(used) - min(used)
    if logistic:
        outcome = [float(used[j] >= used[i]) for i, j, _ in found]
    else:
        outcome = [signed_diff(used, i, j, False, signed, span_t)
                   for i, j, _ in found]
    return found, np.array(outcome)


def net_design(X, time, event, signed=False, logistic=True, impute=False,
               filter_pairs=True):
    """The pairs' diffs of every numeric attribute over its range (pairs x
    attributes) and the outcome, MultiSURF's pairs."""
    X = np.asarray(X, dtype=np.float64)
    found, outcome = pairs_and_outcome(
        X, time, event, [False] * X.shape[1], signed, logistic, impute,
        filter_pairs, "multisurf", None, 0, "share", False)
    design = np.array([[signed_diff(X[:, A], i, j, False, signed,
                                    np.ptp(X[:, A]))
                        for A in range(X.shape[1])] for i, j, _ in found])
    return design, outcome


def survival_npdr(X, time, event, discrete=None, covariates=None,
                  covariate_discrete=None, *, signed=False, logistic=False,
                  impute=False, filter_pairs=True, method="multisurf",
                  k=None, ddof=0, ties="share", exclude_twins=False):
    """Per attribute: (coefficient, se, statistic, p) as lists, and the
    number of pairs fitted; the add-on's scale (every difference over its
    range)."""
    X = np.asarray(X, dtype=np.float64)
    n, a = X.shape
    discrete = [False] * a if discrete is None else list(discrete)
    found, outcome = pairs_and_outcome(X, time, event, discrete, signed,
                                       logistic, impute, filter_pairs,
                                       method, k, ddof, ties, exclude_twins)
    covariates = (np.zeros((n, 0)) if covariates is None
                  else np.asarray(covariates, dtype=np.float64).reshape(n, -1))
    c = covariates.shape[1]
    covariate_discrete = ([False] * c if covariate_discrete is None
                          else list(covariate_discrete))
    weights = np.array([w for _, _, w in found])
    df = round(weights.sum()) - 2 - c
    results = ([], [], [], [])
    for A in range(a):
        column = X[:, A]
        span = column.max() - column.min()
        design = np.array([
            [1.0, signed_diff(column, i, j, discrete[A], signed, span)]
            + [signed_diff(covariates[:, b], i, j, covariate_discrete[b],
                           True, np.ptp(covariates[:, b]))
               for b in range(c)]
            for i, j, _ in found])
        fit = fit_logistic if logistic else fit_linear
        try:
            # a logistic fit's third item, whether it converged, is
            # NPDR's to report
            coefficients, se = fit(design, outcome, weights, df)[:2]
        except np.linalg.LinAlgError:  # A's diffs are constant
            coefficients, se = np.full(2 + c, math.nan), math.nan
        statistic = coefficients[1] / se
        tail = ndtr(-abs(statistic)) if logistic else stdtr(df,
                                                            -abs(statistic))
        for values, value in zip(results, (coefficients[1], se, statistic,
                                           2 * tail)):
            values.append(float(value) if math.isfinite(se) else math.nan)
    return results, len(found)

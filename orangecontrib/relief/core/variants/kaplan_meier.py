"""The Kaplan-Meier estimate of survival, and censored times replaced by
their conditional mean under it (Kampmeyer et al. 2026).

Survival NPDR (:mod:`.survival_npdr`) compares the survival times of
neighbours; a censored time is only a lower bound of the true one.  Its
authors replace it by the mean survival time beyond it under the
Kaplan-Meier curve S::

    E[T | T > t_c] = t_c + 1 / S(t_c) * integral_{t_c}^{t_max} S(t) dt

the integral of the step function over the observed times up to the
last (so the last observed time bounds the estimate; a time censored at
or after it is kept).

This module imports neither Orange nor Qt.

References
----------
Kaplan, E. L., Meier, P. (1958). Nonparametric estimation from incomplete
observations. JASA 53(282):457-481.
Kampmeyer, P., Dawkins, B. A., Urbanowicz, R. J., Kazemi-Nia, S.,
McKinney, B. A. (2026). Survival nearest-neighbor projected distance
regression.  R code: pak611/survivalNPDR, ``sNPDR/R/KM_estimate.R``.
"""
from collections import namedtuple

import numpy as np

KaplanMeier = namedtuple("KaplanMeier", [
    "time",      # (m,) the distinct observed times, increasing
    "survival",  # (m,) S at each: the product of 1 - events / at risk
])


def kaplan_meier(time, event):
    """The Kaplan-Meier curve of `time` (float64 (n,)) and `event` (bool
    (n,), False for a censored time): S at every distinct time, events
    and censorings alike, the product of (at risk - events) / at risk
    (R's ``survfit(Surv(time, event) ~ 1)``, to the bit)."""
    distinct, inverse = np.unique(time, return_inverse=True)
    events = np.bincount(inverse, weights=event, minlength=len(distinct))
    leaving = np.bincount(inverse, minlength=len(distinct))
    at_risk = len(time) - np.concatenate([[0], np.cumsum(leaving)[:-1]])
    return KaplanMeier(distinct, np.cumprod((at_risk - events) / at_risk))


def conditional_mean_times(time, event):
    """`time` with every censored time t_c replaced by E[T | T > t_c]
    under the Kaplan-Meier curve (module docstring); event times, and a
    censored time where S is 0 or beyond which nothing was observed,
    kept.  A new float64 array.

    The area is summed as the authors' R code sums it (R's ``sum``: the
    rectangles from t_c on, in order, in extended precision), so that the
    imputed times are R's to the bit.  Two censored times with no event
    between them have the same conditional mean; computed, they may
    differ in the last bit, as in R, and which of the two is larger then
    follows R's rounding."""
    curve = kaplan_meier(time, event)
    rectangles = np.diff(curve.time) * curve.survival[:-1]
    imputed = np.array(time, dtype=np.float64)
    at = np.searchsorted(curve.time, time)
    censored = ~np.asarray(event, bool)
    for j in np.unique(at[censored]):
        if curve.survival[j] <= 0 or j == len(curve.time) - 1:
            continue
        area = float(np.cumsum(rectangles[j:].astype(np.longdouble))[-1])
        rows = censored & (at == j)
        imputed[rows] = curve.time[j] + area / curve.survival[j]
    return imputed

"""The instance weight of IWCDRelief (Qiu & He 2019, eq. 5).  Plain Python:
the compiled engine compiles it, the vectorised engine calls its numpy
form on every reference at once.
"""
import numpy as np


def instance_weight(d1, d2, threshold):
    """IW(x) of eq. 5: 1 if min(d1/d2, d2/d1) > threshold, else 0.

    Both distances 0 counts as ratio 1; one of them 0 as ratio 0.  Plain
    Python, compiled by :mod:`..engines.compiled.rules.classdep` for the
    compiled engine.
    """
    if d1 == 0.0 and d2 == 0.0:
        ratio = 1.0
    elif d1 == 0.0 or d2 == 0.0:
        ratio = 0.0
    else:
        ratio = min(d1 / d2, d2 / d1)
    return 1.0 if ratio > threshold else 0.0


def instance_weights(d1, d2, threshold):
    """:func:`instance_weight` of arrays `d1`, `d2` (broadcast against each
    other), with the same arithmetic."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.minimum(d1 / d2, d2 / d1)
    zero1, zero2 = d1 == 0.0, d2 == 0.0
    ratio = np.where(zero1 & zero2, 1.0, np.where(zero1 | zero2, 0.0, ratio))
    return np.where(ratio > threshold, 1.0, 0.0)

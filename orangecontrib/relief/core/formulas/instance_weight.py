"""The instance weight of IWCDRelief (Qiu & He 2019, eq. 5).  Plain Python:
the compiled engine compiles it, the vectorised engine calls it as it is.
"""


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

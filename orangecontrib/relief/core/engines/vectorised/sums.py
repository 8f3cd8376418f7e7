"""Sums added one term at a time, in order, as a compiled loop adds them:
what makes the vectorised engine's weights the compiled engine's to the
last bit (numpy's sum adds in pairs, a different rounding).
"""
import numpy as np

#: sums that :func:`in_order` adds side by side, a term of each at a
#: time; fewer, it runs along each (numpy's calls then cost more than
#: its running sums' one addition at a time)
SIDE_BY_SIDE = 400


def in_order(terms, axis):
    """The sums of `terms` along `axis`, added one at a time from 0, as a
    compiled loop adds them.

    Many sums at once are added a term of each at a time (numpy adds
    them side by side); a few long ones by numpy's running sums along a
    contiguous axis, which add one term at a time (from the first term,
    which differs from starting at 0 only where every term so far is
    -0.0, set right by the final + 0.0)."""
    terms = np.moveaxis(terms, axis, 0)
    if len(terms) == 0:
        return np.zeros(terms.shape[1:])
    if terms.size // len(terms) < SIDE_BY_SIDE:
        running = np.add.accumulate(
            np.ascontiguousarray(np.moveaxis(terms, 0, -1)), axis=-1)
        return running[..., -1] + 0.0
    out = np.zeros(terms.shape[1:])
    for term in terms:
        out += term
    return out

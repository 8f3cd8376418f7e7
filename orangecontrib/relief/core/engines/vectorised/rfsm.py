"""RFSM's pair diffs and set values (Arauzo-Azofra, Benitez & Castro,
eq. 2 and 4), as :mod:`..compiled.rfsm` computes them.

W_S is a sum over the (reference, neighbour) pairs; it is added pair by
pair in order (a cumulative sum), so that the value of a set grown by one
attribute equals the value of that set computed from scratch to the last
bit, as the greedy search's tie-break needs.
"""
import numpy as np

from ...formulas.diffs import attribute_diffs


def pair_diffs(tables, first, second, attributes):
    """out[t, p] = diff(attributes[t], I_first[p], I_second[p])."""
    out = np.empty((len(attributes), len(first)))
    for t, a in enumerate(attributes):
        out[t] = attribute_diffs(tables, a, first, second)
    return out


def in_order(terms):
    """The sums of the rows of `terms`, each added left to right."""
    if terms.shape[-1] == 0:
        return np.zeros(terms.shape[:-1])
    return np.cumsum(terms, axis=-1)[..., -1]


def set_value(top, bottom, coef_max, coef_min):
    """sum_p coef_max[p] top[p] + coef_min[p] bottom[p]."""
    return float(in_order(coef_max * top + coef_min * bottom))


def forward_kernel(diffs, top, bottom, coef_max, coef_min, candidates):
    """W(S + {A}) for each candidate A, given S's running max and min."""
    rows = diffs[candidates]
    return in_order(coef_max * np.maximum(top, rows)
                    + coef_min * np.minimum(bottom, rows))


def extremes(values, identity, larger):
    """Per pair (column): the most extreme value of `values` (rows: the
    members of S), the runner-up, and the row of the first most extreme
    one; the identity of the operator (0 for max, 1 for min) is where
    they start, so a pair that no member beats keeps row -1."""
    padded = np.vstack([values, np.full((1, values.shape[1]), identity)])
    key = -padded if larger else padded
    order = np.argsort(key, axis=0, kind="stable")
    first = np.take_along_axis(padded, order[:1], axis=0)[0]
    second = np.take_along_axis(padded, order[1:2], axis=0)[0]
    beats = first > identity if larger else first < identity
    arg = np.where(beats, order[0], -1)
    return first, second, arg


def backward_kernel(diffs, subset, coef_max, coef_min):
    """W(S - {A}) for each A = subset[t]: a pair's max (min) changes only
    where the removed attribute held it."""
    values = diffs[subset]
    top1, top2, arg_top = extremes(values, 0.0, True)
    bot1, bot2, arg_bot = extremes(values, 1.0, False)
    members = np.arange(len(subset))[:, None]
    high = np.where(arg_top[None, :] == members, top2, top1)
    low = np.where(arg_bot[None, :] == members, bot2, bot1)
    return in_order(coef_max * high + coef_min * low)

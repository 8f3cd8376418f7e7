"""RFSM's compiled kernels (Arauzo-Azofra, Benitez & Castro, eq. 2 and 4):
the diff of every attribute on every (reference, neighbour) pair, and
W_S of sets grown or shrunk by one attribute from the running max / min
of the current set (see :mod:`.rfsm`)."""
import numba
import numpy as np
from numba import prange

from .diffs import attribute_diff, for_kernels
from .threads import by_work, serial_and_parallel


def pair_diffs(tables, first, second, attributes):
    """out[t, p] = diff(attributes[t], I_first[p], I_second[p]) (exact,
    RELIEF-D for missing values)."""
    return pair_diff_rows(for_kernels(tables), first, second, attributes)


@numba.njit(parallel=True, cache=True)
def pair_diff_rows(tables, first, second, attributes):
    """:func:`pair_diffs` of the kernels' exact tables."""
    out = np.empty((len(attributes), len(first)))
    for t in prange(len(attributes)):
        a = attributes[t]
        for p in range(len(first)):
            out[t, p] = attribute_diff(tables, a, first[p], second[p])
    return out


@numba.njit(cache=True)
def set_value(top, bottom, coef_max, coef_min):
    """sum_p coef_max[p] * top[p] + coef_min[p] * bottom[p]: W_S from the
    running max (top) and min (bottom) of the set's diffs on each pair."""
    total = 0.0
    for p in range(len(coef_max)):
        total += coef_max[p] * top[p] + coef_min[p] * bottom[p]
    return total


@numba.njit(inline="always", cache=True)
def forward_value(row, top, bottom, coef_max, coef_min):
    """W(S + {A}) from S's running max / min and A's diffs `row`, summed
    over the pairs in the order of :func:`set_value` (so that it equals the
    value computed from scratch bit for bit)."""
    total = 0.0
    for p in range(row.shape[0]):
        total += (coef_max[p] * max(top[p], row[p])
                  + coef_min[p] * min(bottom[p], row[p]))
    return total


def forward_values(diffs, top, bottom, coef_max, coef_min, candidates):
    """W(S + {A}) for each candidate A."""
    out = np.empty(len(candidates))
    for t in prange(len(candidates)):
        out[t] = forward_value(diffs[candidates[t]], top, bottom, coef_max,
                               coef_min)
    return out


FORWARD = serial_and_parallel(forward_values)


def forward_kernel(diffs, top, bottom, coef_max, coef_min, candidates):
    """W(S + {A}) for each candidate A, given S's running max and min."""
    kernel = by_work(FORWARD, len(candidates) * diffs.shape[1])
    return kernel(diffs, top, bottom, coef_max, coef_min, candidates)


@numba.njit(inline="always", cache=True)
def pair_extremes(diffs, subset, p, top1, top2, arg_top, bot1, bot2, arg_bot):
    """The largest and second largest diff over S on pair p (and the
    smallest two), with the position in S of the extreme one.

    The identities (max 0, min 1) are the starting values, so a pair on
    which no member beats them keeps position -1 and never changes."""
    for t in range(len(subset)):
        d = diffs[subset[t], p]
        if d > top1[p]:
            top2[p], top1[p], arg_top[p] = top1[p], d, t
        elif d > top2[p]:
            top2[p] = d
        if d < bot1[p]:
            bot2[p], bot1[p], arg_bot[p] = bot1[p], d, t
        elif d < bot2[p]:
            bot2[p] = d


@numba.njit(inline="always", cache=True)
def without_value(t, top1, top2, arg_top, bot1, bot2, arg_bot, coef_max,
                  coef_min):
    """W(S - {subset[t]}): a pair's max (min) changes only where the
    removed attribute held it."""
    total = 0.0
    for p in range(len(coef_max)):
        high = top2[p] if arg_top[p] == t else top1[p]
        low = bot2[p] if arg_bot[p] == t else bot1[p]
        total += coef_max[p] * high + coef_min[p] * low
    return total


def _extremes_arrays(n_pairs):
    return (np.zeros(n_pairs), np.zeros(n_pairs), np.full(n_pairs, -1),
            np.ones(n_pairs), np.ones(n_pairs), np.full(n_pairs, -1))


def backward_values(diffs, subset, coef_max, coef_min, top1, top2, arg_top,
                    bot1, bot2, arg_bot):
    """W(S - {A}) for each A = subset[t]: the extremes of every pair, then
    each member's value."""
    for p in prange(diffs.shape[1]):
        pair_extremes(diffs, subset, p, top1, top2, arg_top, bot1, bot2,
                      arg_bot)
    out = np.empty(len(subset))
    for t in prange(len(subset)):
        out[t] = without_value(t, top1, top2, arg_top, bot1, bot2, arg_bot,
                               coef_max, coef_min)
    return out


BACKWARD = serial_and_parallel(backward_values)


def backward_kernel(diffs, subset, coef_max, coef_min):
    """W(S - {A}) for each A = subset[t]."""
    kernel = by_work(BACKWARD, len(subset) * diffs.shape[1])
    return kernel(diffs, subset, coef_max, coef_min,
                  *_extremes_arrays(diffs.shape[1]))

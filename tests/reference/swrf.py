"""Slow, literal references of the SWRF family: SWRF and SWRF* (Stokes &
Visweswaran 2012), MultiSWRF, MultiSWRF*, MultiSWRFDB and MultiSWRFDB*
as scikit-rebate 0.8 defines them (``skrebate/baseswrf.py``); a numeric
target by scikit-rebate's convention (its continuous endpoint): a
reference's hits the instances whose target lies within the target's
sample standard deviation of its own, the others its misses, two classes.

For a reference i, a set S (its near or far neighbours) bounded by a
limit L, every member j weighs

    w_ij = tanh(2 |D(i, j) - L| / sigma)      (sigma = 0 read as 1)

SWRF: near D < T, far D > T, L = T, T and sigma the mean and population
deviation of all distances; MultiSWRF: L = mu_i, sigma_i of i's own n - 1
distances; MultiSWRFDB: near D < mu_i - sigma_i / 2, far
D > mu_i + sigma_i / 2, each set's L its own limit.  The near update of
the attribute A is

    sum over the classes c of S: f_c (1 / |S_c|) sum_{j in S_c} w_ij diff(A, i, j)

(f = -1 for the reference's class, P(c) over the priors of the miss
classes present for another, as :mod:`.surf`); the far set subtracts the
same ("add-on": its weighted similarity w_ij (1 - diff) without the
term w_ij, the same for every attribute), or, by scikit-rebate's
convention, adds 1 - w_ij diff for a numeric attribute and
w_ij (1 - diff) for a nominal one, with T and sigma over the n x n
matrix with its zero diagonal.  The total is divided by the number of
references.  Plain Python floats, the
diff and distance of :mod:`.relief`.
"""
import math

import numpy as np

from .relief import distance, prepare, references
from .relief import diff as attribute_diff
from .surf import _by_class


def _statistics(values):
    mean = sum(values) / len(values)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def _sets(D, i, method, T, sigma, ddof):
    """[(members, limit)] of the near and (starred) far sets of i, and the
    sigma of their weights."""
    n = len(D)
    others = [D[i][j] for j in range(n) if j != i]
    if method.startswith("multi"):
        mu = sum(others) / len(others)
        sq = sum((d - mu) ** 2 for d in others)
        sigma = (math.sqrt(sq / (len(others) - ddof))
                 if len(others) - ddof >= 1 else 0.0)
        band = sigma / 2 if method.startswith("multiswrfdb") else 0.0
        near_limit, far_limit = mu - band, mu + band
    else:
        near_limit = far_limit = T
    sets = [([j for j in range(n) if j != i and D[i][j] < near_limit],
             near_limit, False)]
    if method.endswith("*"):
        sets.append(([j for j in range(n)
                      if j != i and D[i][j] > far_limit], far_limit, True))
    return sets, sigma


def _context(X, y, discrete, convention, diff, t_eq, t_diff,
             regression=False):
    """The prepared data, its distances, SWRF's T and sigma, and the
    classes of a reference's members (:func:`_by_target` of a numeric
    target)."""
    ctx, targets = prepare(X, y, discrete, diff, t_eq, t_diff, None,
                           regression=regression)
    n = ctx.n
    D = [[distance(i, j, ctx) for j in range(n)] for i in range(n)]
    if convention == "scikit-rebate":
        # the n x n matrix, an instance at distance 0 of itself (which
        # RELIEF-D's diffs of missing values would not give)
        T, sigma = _statistics([D[i][j] if i != j else 0.0
                                for i in range(n) for j in range(n)])
    else:
        T, sigma = _statistics([D[i][j] for i in range(n)
                                for j in range(i + 1, n)])
    if regression:
        mean = sum(targets) / n
        bound = math.sqrt(sum((t - mean) ** 2 for t in targets) / (n - 1))

        def classes(i, members, prior):
            return _by_target(i, members, targets, bound)
    else:
        def classes(i, members, prior):
            return _by_class(i, members, ctx, prior)
    return ctx, D, T, sigma, classes


def _by_target(i, members, targets, bound):
    """scikit-rebate's classes of a numeric target: the members whose
    target lies within `bound` (the target's sample standard deviation)
    of the reference's are its hits (factor -1), the others its misses
    (factor 1), as two classes."""
    hits = [j for j in members if abs(targets[i] - targets[j]) < bound]
    misses = [j for j in members if j not in hits]
    return {c: (js, factor) for c, (js, factor)
            in (("hit", (hits, -1.0)), ("miss", (misses, 1.0))) if js}


def stir_pairs(X, y, discrete=None, *, method="swrf", convention="add-on",
               deviation="population", diff="linear", t_eq=0.04,
               t_diff=0.10):
    """STIR's near hit pairs and near miss pairs of every reference:
    (hits, misses, counts), each pair (reference, diffs, weight), weight
    the magnitude of the pair's coefficient in the near update (its
    class's factor over the class's members, times the sigmoid weight
    w_ij), `counts` the sums of the w_ij of the hit and of the miss pairs
    (a pair near the limit counts little)."""
    ctx, D, T, sigma, _ = _context(X, y, discrete, convention, diff, t_eq,
                                   t_diff)
    ddof = 1 if deviation == "sample" else 0
    prior = {c: ctx.group.count(c) / ctx.n for c in set(ctx.group)}
    hits, misses, counts = [], [], [0.0, 0.0]
    for i in range(ctx.n):
        sets, s = _sets(D, i, method, T, sigma, ddof)
        s = s if s != 0 else 1.0
        members, limit, _ = sets[0]
        for c, (js, factor) in _by_class(i, members, ctx, prior).items():
            hit = c == ctx.group[i]
            for j in js:
                w = math.tanh(2 * abs(D[i][j] - limit) / s)
                (hits if hit else misses).append(
                    (i, [attribute_diff(A, i, j, ctx) for A in range(ctx.a)],
                     abs(factor) / len(js) * w))
                counts[not hit] += w
    return hits, misses, counts


def swrf_family(X, y, discrete=None, *, method="swrf", convention="add-on",
                deviation="population", n_iterations=None, random_state=0,
                diff="linear", t_eq=0.04, t_diff=0.10,
                task="classification"):
    ctx, D, T, sigma, classes = _context(X, y, discrete, convention, diff,
                                         t_eq, t_diff, task == "regression")
    n = ctx.n
    ddof = 1 if deviation == "sample" else 0
    prior = {c: ctx.group.count(c) / n for c in set(ctx.group)}
    refs = references(n, n_iterations, random_state)
    W = [0.0] * ctx.a
    for i in refs:
        sets, s = _sets(D, i, method, T, sigma, ddof)
        s = s if s != 0 else 1.0
        for members, limit, far in sets:
            for js, factor in classes(i, members, prior).values():
                for A in range(ctx.a):
                    total = 0.0
                    for j in js:
                        w = math.tanh(2 * abs(D[i][j] - limit) / s)
                        d = attribute_diff(A, i, j, ctx)
                        if not far:
                            total += w * d
                        elif convention != "scikit-rebate":
                            total -= w * d
                        elif ctx.discrete[A]:
                            total += w * (1.0 - d)
                        else:
                            total += 1.0 - w * d
                    W[A] += factor * total / len(js) / len(refs)
    return np.array(W)


def swrf(X, y, discrete=None, **options):
    return swrf_family(X, y, discrete, method="swrf", **options)


def swrfstar(X, y, discrete=None, **options):
    return swrf_family(X, y, discrete, method="swrf*", **options)


def multiswrf(X, y, discrete=None, **options):
    return swrf_family(X, y, discrete, method="multiswrf", **options)


def multiswrfstar(X, y, discrete=None, **options):
    return swrf_family(X, y, discrete, method="multiswrf*", **options)


def multiswrfdb(X, y, discrete=None, **options):
    return swrf_family(X, y, discrete, method="multiswrfdb", **options)


def multiswrfdbstar(X, y, discrete=None, **options):
    return swrf_family(X, y, discrete, method="multiswrfdb*", **options)

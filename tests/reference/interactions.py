"""A slow, literal Relief interaction map, written from its definition
(doc/interactions.md) in plain Python floats, on the neighbours of the
literal ReliefF and SURF family (:mod:`.relief`, :mod:`.surf`).

For every reference i and every neighbour j of it, the pair's multiplier
as a miss u and as a hit v in the method's update (ReliefF: a hit 1 / (k
m), a miss of class C P(C) / (1 - P(class(i))) / (k m), each times the
neighbour's share of the list's k places, the candidates tied at the k-th
distance sharing those left; the SURF family:
the same over the near set, the prior renormalised over the classes
present).  Then, with
E+ / E- the means over the pairs weighted by u / v and w+ / w- the totals:

* I(A, B) = sum (u - v) d(A) d(B);
* Delta(A, B) = sum u (d(A) - E+ d(A)) (d(B) - E+ d(B))
                - sum v (d(A) - E- d(A)) (d(B) - E- d(B));
* z_i(A, B): the same sums over the pairs of reference i alone, and the t
  of their mean over the m references, mean / (sd / sqrt(m)).
"""
import math

import numpy

from .relief import diff, neighbours, prepare
from .surf import _by_class, _distances, neighbourhoods


def relieff_pairs(ctx, k, ties):
    """[(i, j, u, v)] of ReliefF's k nearest hits and misses, each
    weighted by its share of the places (:func:`.relief.neighbours`)."""
    n = ctx.n
    classes = sorted(set(ctx.group))
    prior = {c: ctx.group.count(c) / n for c in classes}
    pairs = []
    for i in range(n):
        own = ctx.group[i]
        for c in classes:
            found = neighbours(i, [j for j in range(n)
                                   if ctx.group[j] == c], k, ctx, ties)
            places = sum(share for _, share, _ in found)
            for j, share, _ in found:
                if c == own:
                    pairs.append((i, j, 0.0, share / (places * n)))
                else:
                    pairs.append((i, j, prior[c] / (1 - prior[own]) * share
                                  / (places * n), 0.0))
    return pairs


def near_set_pairs(ctx, method, ddof):
    """[(i, j, u, v)] of the SURF family's near sets."""
    n = ctx.n
    classes = sorted(set(ctx.group))
    prior = {c: ctx.group.count(c) / n for c in classes}
    pairs = []
    for i, (near, _) in enumerate(neighbourhoods(_distances(ctx), method,
                                                 ddof)):
        for js, factor in _by_class(i, near, ctx, prior).values():
            for j in js:
                weight = abs(factor) / len(js) / n
                pairs.append((i, j, weight if factor > 0 else 0.0,
                              weight if factor < 0 else 0.0))
    return pairs


def interaction_map(X, y, discrete=None, *, method="relieff", k_nearest=10,
                    ddof=0, attributes=None, ties="share"):
    """(I, Delta, t, weights) of the attributes `attributes` (default all)
    as lists of lists."""
    ctx, _ = prepare(X, y, discrete, "linear", 0.04, 0.1, None,
                     regression=False)
    pairs = (relieff_pairs(ctx, k_nearest, ties) if method == "relieff"
             else near_set_pairs(ctx, method, ddof))
    chosen = list(range(ctx.a)) if attributes is None else list(attributes)
    d = {(i, j): [diff(A, i, j, ctx) for A in chosen]
         for i, j, _, _ in pairs}
    weights = [sum((u - v) * diff(A, i, j, ctx) for i, j, u, v in pairs)
               for A in range(ctx.a)]
    K = len(chosen)
    totals = [sum(p[2] for p in pairs), sum(p[3] for p in pairs)]
    means = [[sum(p[2 + g] * d[p[0], p[1]][a] for p in pairs) / totals[g]
              for a in range(K)] for g in (0, 1)]

    def share(selected, a, b):
        total = 0.0
        for i, j, u, v in selected:
            da, db = d[i, j][a], d[i, j][b]
            total += u * (da - means[0][a]) * (db - means[0][b])
            total -= v * (da - means[1][a]) * (db - means[1][b])
        return total

    co = [[sum((u - v) * d[i, j][a] * d[i, j][b] for i, j, u, v in pairs)
           for b in range(K)] for a in range(K)]
    delta = [[share(pairs, a, b) for b in range(K)] for a in range(K)]
    refs = sorted({p[0] for p in pairs})
    by_ref = {r: [p for p in pairs if p[0] == r] for r in refs}
    t = [[0.0] * K for _ in range(K)]
    m = len(refs)
    for a in range(K):
        for b in range(K):
            z = [share(by_ref[r], a, b) for r in refs]
            mean = sum(z) / m
            sd = math.sqrt(sum((x - mean) ** 2 for x in z) / (m - 1))
            t[a][b] = mean / (sd / math.sqrt(m)) if sd > 0 else math.nan
    return co, delta, t, weights


def permutation_p(X, y, discrete=None, *, n_permutations, seed, **options):
    """Two-sided label-permutation p-values of Delta (lists of lists).

    The rows are put in the order of their values, then of their class;
    each permutation, drawn in turn by
    ``numpy.random.default_rng(seed).permutation(n)``, gives the row at
    place j of that order the class of the row at place perm[j]; an
    entry's p is (1 + #{|Delta_b| >= |Delta|}) / (1 + B), values within
    1e-9 of the map's largest entry counted as equal.
    """
    n = len(y)
    order = sorted(range(n), key=lambda i: (tuple(X[i]), y[i]))
    observed = interaction_map(X, y, discrete, **options)[1]
    K = len(observed)
    slack = 1e-9 * max(abs(x) for row in observed for x in row)
    counts = [[0] * K for _ in range(K)]
    rng = numpy.random.default_rng(seed)
    for _ in range(n_permutations):
        perm = rng.permutation(n)
        labels = [0.0] * n
        for j in range(n):
            labels[order[j]] = y[order[perm[j]]]
        delta = interaction_map(X, numpy.array(labels), discrete,
                                **options)[1]
        for a in range(K):
            for b in range(K):
                if abs(delta[a][b]) >= abs(observed[a][b]) - slack:
                    counts[a][b] += 1
    return [[(1 + c) / (1 + n_permutations) for c in row] for row in counts]

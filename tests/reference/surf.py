"""Slow, literal references of SURF, SURF*, MultiSURF, MultiSURF* and STIR.

Written from the papers' definitions (Greene et al. 2009, 2010;
Urbanowicz et al. 2018; Granizo-Mackenzie & Moore 2013; Le et al. 2019)
with the package's documented choices for what they leave open (misses of
several classes weighted by their priors renormalised over the classes a
neighbourhood holds; RReliefF's rule for a numeric target, every member of
a neighbourhood with equal influence).  Plain Python floats, the diff and
distance of :mod:`.relief` (RELIEF-D for missing values).
"""
import math

import numpy as np

from .relief import distance, prepare, references
from .relief import diff as attribute_diff


def _distances(ctx):
    return [[distance(i, j, ctx) for j in range(ctx.n)] for i in range(ctx.n)]


def neighbourhoods(D, method, ddof):
    """[(near_i, far_i)] by the method's thresholds."""
    n = len(D)
    pairs = [D[i][j] for i in range(n) for j in range(i + 1, n)]
    T = sum(pairs) / len(pairs)
    result = []
    for i in range(n):
        others = [D[i][j] for j in range(n) if j != i]
        mu = sum(others) / len(others)
        squares = sum((d - mu) ** 2 for d in others)
        sigma = (math.sqrt(squares / (len(others) - ddof))
                 if len(others) - ddof >= 1 else 0.0)
        if method.startswith("multisurf"):
            near_limit, far_limit = mu - sigma / 2, mu + sigma / 2
        else:
            near_limit = far_limit = T
        near = [j for j in range(n) if j != i and D[i][j] < near_limit]
        far = ([j for j in range(n) if j != i and D[i][j] > far_limit]
               if method.endswith("*") else [])
        result.append((near, far))
    return result


def _by_class(i, members, ctx, prior):
    """{class: (its members, its factor)}: -1 for the reference's own
    class, P(c) / the sum of P over the miss classes present for another
    (the factor of the class's mean diff in the update)."""
    own = ctx.group[i]
    by_class = {}
    for j in members:
        by_class.setdefault(ctx.group[j], []).append(j)
    present = sum(prior[c] for c in by_class if c != own)
    return {c: (js, -1.0 if c == own else prior[c] / present)
            for c, js in by_class.items()}


def _class_update(i, members, ctx, prior, similarity):
    """u_S(A) of the reference i, or with `similarity` s_S(A), the same
    over 1 - diff less s_S of an attribute that never differs (so that a
    constant attribute weighs 0)."""
    update = [0.0] * ctx.a
    for A in range(ctx.a):
        for js, factor in _by_class(i, members, ctx, prior).values():
            values = [attribute_diff(A, i, j, ctx) for j in js]
            if similarity:
                values = [(1.0 - v) - 1.0 for v in values]
            update[A] += factor * sum(values) / len(values)
    return update


def _rrelieff(sets, refs, ctx, targets):
    """RReliefF's rule over the neighbourhoods `sets` of the references
    `refs` (indices into them, repeats allowed)."""
    y_range = max(targets) - min(targets)
    n_dc, n_da, n_dcda = 0.0, [0.0] * ctx.a, [0.0] * ctx.a
    for i in refs:
        members = sets[i]
        for j in members:
            d = 1.0 / len(members)
            dt = abs(targets[i] - targets[j]) / y_range
            n_dc += dt * d
            for A in range(ctx.a):
                dA = attribute_diff(A, i, j, ctx)
                n_da[A] += dA * d
                n_dcda[A] += dt * dA * d
    m = len(refs)
    return [(n_dcda[A] / n_dc if n_dc > 0 else 0.0)
            - ((n_da[A] - n_dcda[A]) / (m - n_dc) if m > n_dc else 0.0)
            for A in range(ctx.a)]


def surf_family(X, y, discrete=None, *, method="multisurf",
                task="classification", deviation="population",
                n_iterations=None, random_state=0, diff="linear", t_eq=0.04,
                t_diff=0.10, distance_weights=None):
    """The weights of `method` ("surf", "surf*", "multisurf",
    "multisurf*") by the definitions of the module docstring, over the
    references of :func:`.relief.references` (the thresholds from all
    instances), the distance sum_A w_A diff(A, i, j) with the attribute
    weights `distance_weights` (None: all 1)."""
    regression = task == "regression"
    ctx, targets = prepare(X, y, discrete, diff, t_eq, t_diff,
                           distance_weights, regression=regression)
    ddof = 1 if deviation == "sample" else 0
    sets = neighbourhoods(_distances(ctx), method, ddof)
    refs = references(ctx.n, n_iterations, random_state)
    if regression:
        near = _rrelieff([s[0] for s in sets], refs, ctx, targets)
        if not method.endswith("*"):
            return np.array(near)
        far = _rrelieff([s[1] for s in sets], refs, ctx, targets)
        return np.array(near) - np.array(far)
    n = ctx.n
    prior = {c: ctx.group.count(c) / n for c in set(ctx.group)}
    W = [0.0] * ctx.a
    for i in refs:
        near, far = sets[i]
        terms = [_class_update(i, near, ctx, prior, False)]
        if far and method == "surf*":
            terms.append([-u for u in _class_update(i, far, ctx, prior,
                                                    False)])
        if far and method == "multisurf*":
            terms.append(_class_update(i, far, ctx, prior, True))
        for term in terms:
            for A in range(ctx.a):
                W[A] += term[A] / len(refs)
    return np.array(W)


def surf(X, y, discrete=None, **options):
    return surf_family(X, y, discrete, method="surf", **options)


def surfstar(X, y, discrete=None, **options):
    return surf_family(X, y, discrete, method="surf*", **options)


def multisurf(X, y, discrete=None, **options):
    return surf_family(X, y, discrete, method="multisurf", **options)


def multisurfstar(X, y, discrete=None, **options):
    return surf_family(X, y, discrete, method="multisurf*", **options)


def turf_multisurf(X, y, discrete=None, *, fraction=0.5, n_keep=None,
                   **options):
    """TuRF around MultiSURF (Moore & White 2007, as the core reads it):
    int(1 / fraction) rounds, each scoring the remaining attributes and
    keeping the best ceil(r (1 - fraction)) of the r (ties to the lower
    index), stopping early once at most `n_keep` remain or a round would
    drop none; the kept attributes scored once more; an attribute dropped
    in round t of the T rounds run scores the lowest final score less
    (T - t) hundredths of the final scores' range (of 1 if they are
    equal)."""
    X = np.asarray(X, dtype=np.float64)
    a = X.shape[1]
    discrete = np.zeros(a, bool) if discrete is None else np.asarray(
        discrete, bool)

    def score(columns):
        return list(multisurf(X[:, columns], y, discrete[columns],
                              **options))

    remaining, dropped = list(range(a)), []
    for _ in range(max(1, int(1 / fraction))):
        keep = math.ceil(len(remaining) * (1 - fraction))
        if n_keep is not None and len(remaining) <= n_keep \
                or keep == len(remaining):
            break
        weights = score(remaining)
        best_first = sorted(range(len(remaining)),
                            key=lambda t: (-weights[t], remaining[t]))
        dropped.append(sorted(remaining[t] for t in best_first[keep:]))
        remaining = sorted(remaining[t] for t in best_first[:keep])
    final = score(remaining)
    scores = [0.0] * a
    for A, value in zip(remaining, final):
        scores[A] = value
    spread = max(final) - min(final) if final else 0.0
    step = 0.01 * (spread if spread > 0 else 1.0)
    for t, attributes in enumerate(dropped):
        for A in attributes:
            scores[A] = min(final) - step * (len(dropped) - t)
    return np.array(scores)


def stir_pairs(X, y, discrete=None, *, method="multisurf",
               deviation="population", diff="linear", t_eq=0.04,
               t_diff=0.10):
    """The near hit pairs and near miss pairs: (hits, misses), each a
    list of (reference, diffs, weight), diffs a list over the attributes,
    weight the magnitude of the pair's factor in the update (1 / k_H for a
    hit, P(c) / (sum of P over the miss classes present) / k_c for a miss
    of class c)."""
    ctx, _ = prepare(X, y, discrete, diff, t_eq, t_diff, None,
                     regression=False)
    ddof = 1 if deviation == "sample" else 0
    sets = neighbourhoods(_distances(ctx), method, ddof)
    prior = {c: ctx.group.count(c) / ctx.n for c in set(ctx.group)}
    hits, misses = [], []
    for i, (near, _) in enumerate(sets):
        for c, (js, factor) in _by_class(i, near, ctx, prior).items():
            target = hits if c == ctx.group[i] else misses
            for j in js:
                target.append((i, [attribute_diff(A, i, j, ctx)
                                for A in range(ctx.a)],
                               abs(factor) / len(js)))
    return hits, misses

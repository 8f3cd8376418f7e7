"""A slow, literal RFSM (Arauzo-Azofra, Benitez & Castro 2004, section 4).

Independent of ``orangecontrib.relief.core``: plain Python loops over the
data, with diff / distance / nearest neighbours from
:mod:`tests.reference.relief`. For each reference R::

    diffS_max(S, R, I) = max_{A in S} diff(A, R, I)   (0 for the empty set)
    diffS_min(S, R, I) = min_{A in S} diff(A, R, I)   (1 for the empty set)

    classification (eq. 2, eq. 4):
      W -= mean_H diffS_min(S, R, H) / m
      W += sum_{C != class(R)} w(C) mean_M diffS_max(S, R, M(C)) / m
      w(C) = P(C) ("eq2") or P(C) / (1 - P(class(R))) ("relieff")

    regression (RReliefF's weighting):
      W = sum dC d diffS_max / N_dC - sum (1 - dC) d diffS_min / (m - N_dC)

Neighbours are found with all attributes ("all") or with the attributes of S
only ("within"), each pair weighted by its share of its list's places
(:func:`tests.reference.relief.neighbours`).  An attribute without a
known value tells no pair apart and is left out of every set (the core's
choice).
"""
import copy
import math

from tests.reference import relief as ref

#: values of W_S this close are equal: what rounding leaves of equal sums
#: added in another order
TIE = 1e-12


def _diff_max(S, R, I, ctx):
    value = 0.0
    for A in S:
        value = max(value, ref.diff(A, R, I, ctx))
    return value


def _diff_min(S, R, I, ctx):
    value = 1.0
    for A in S:
        value = min(value, ref.diff(A, R, I, ctx))
    return value


def rfsm(X, y, subset, discrete=None, *, task="classification", k_nearest=1,
         n_iterations=None, random_state=0, neighbours="all", priors="eq2",
         weighting="exp_rank", sigma=None, diff="linear", t_eq=0.04,
         t_diff=0.10, ties="share"):
    regression = task == "regression"
    ctx, targets = ref.prepare(X, y, discrete, diff, t_eq, t_diff, None,
                               regression=regression)
    S = [A for A in subset if ctx.has_known[A]]
    if neighbours == "within":
        ctx.weights = [1.0 if A in S else 0.0 for A in range(ctx.a)]
    n = ctx.n
    refs = ref.references(n, n_iterations, random_state)
    m = len(refs)
    if not regression:
        classes = sorted(set(ctx.group))
        prior = {c: sum(1 for i in range(n) if ctx.group[i] == c) / n
                 for c in classes}
        W = 0.0
        for R in refs:
            cR = ctx.group[R]
            hits = ref.neighbours(
                R, [i for i in range(n) if ctx.group[i] == cR], k_nearest,
                ctx, ties)
            if hits:
                total = 0.0
                for H, share, _ in hits:
                    total += share * _diff_min(S, R, H, ctx)
                W -= total / ref.filled(hits) / m
            for C in classes:
                if C == cR:
                    continue
                misses = ref.neighbours(
                    R, [i for i in range(n) if ctx.group[i] == C],
                    k_nearest, ctx, ties)
                total = 0.0
                for M, share, _ in misses:
                    total += share * _diff_max(S, R, M, ctx)
                weight = prior[C]
                if priors == "relieff":
                    weight = prior[C] / (1.0 - prior[cR])
                W += weight * total / ref.filled(misses) / m
        return W
    # regression
    y_range = max(targets) - min(targets)
    if sigma is None:
        sigma = k_nearest / 3.5
    n_dc = n_max = n_min = 0.0
    for R in refs:
        near = ref.neighbours(R, list(range(n)), k_nearest, ctx, ties)
        places = ref.filled(near)
        if weighting == "exp_rank":
            d1 = [math.exp(-(r / sigma) ** 2) for r in range(1, places + 1)]
        else:
            d1 = [1.0] * places
        d1_sum = sum(d1)
        for I, share, at in near:
            d = share * sum(d1[p] for p in at) / len(at) / d1_sum
            dC = abs(targets[R] - targets[I]) / y_range
            n_dc += dC * d
            n_max += dC * d * _diff_max(S, R, I, ctx)
            n_min += (1.0 - dC) * d * _diff_min(S, R, I, ctx)
    first = n_max / n_dc if n_dc != 0 else 0.0
    second = n_min / (m - n_dc) if m - n_dc != 0 else 0.0
    return first - second


def rfsm_scores(X, y, discrete=None, *, score="gain", **options):
    """The greedy forward search of section 5 run over every attribute:
    each step adds the attribute whose set has the largest W_S (ties, W_S
    within :data:`TIE` of the largest, to the lower index); an attribute
    scores the gain of W_S it brought (0 for a loss), or with
    ``score="order"`` a - its position.  The references are drawn once:
    every W_S gets a copy of the seed."""
    a = len(X[0])

    def value_of(subset):
        return rfsm(X, y, subset, discrete, **copy.deepcopy(options))

    chosen = []
    value = value_of(chosen)
    scores = [0.0] * a
    for position in range(a):
        candidates = [A for A in range(a) if A not in chosen]
        values = [value_of(chosen + [A]) for A in candidates]
        best = min(t for t, v in enumerate(values) if v >= max(values) - TIE)
        A = candidates[best]
        scores[A] = (a - position if score == "order"
                     else max(values[best] - value, 0.0))
        chosen.append(A)
        value = values[best]
    return scores

"""Slow, literal ReliefF and RReliefF of a subset of the instances, with
the diffs of the whole data.

The subset is a table of the rows `rows` (sorted; a row listed twice is
two instances): instance p of the subset is row ``rows[p]``.  Its diffs
and distances are those of the whole data (:mod:`.relief`'s context of
all rows: the ranges and RELIEF-D's probabilities of the whole data);
neighbours take their places as :func:`.relief.neighbours` gives them
(ties by the position in the subset with "lower-index"), and an instance
is never its own neighbour, though a copy of it is another instance.
Everything else is :mod:`.relief`'s ReliefF and RReliefF on the subset,
written again over positions.
"""
import math

import numpy as np

from .relief import diff, distance, filled, places_of, prepare, references


def _subset(X, y, discrete, rows, diff_kind, t_eq, t_diff, regression):
    """The whole data's context and targets, and the context index of
    every instance of the subset (rows of an unknown target left out)."""
    ctx, targets = prepare(X, y, discrete, diff_kind, t_eq, t_diff, None,
                           regression)
    kept = [i for i in range(len(y)) if y[i] == y[i]]
    index = {row: position for position, row in enumerate(kept)}
    return ctx, targets, [index[r] for r in sorted(rows) if r in index]


def _nearest(p, candidates, k, instances, ctx, ties):
    """The list of k places of the positions `candidates` near position
    p, [(q, share, places)]; p itself is not a candidate."""
    return places_of(sorted((distance(instances[p], instances[q], ctx), q)
                            for q in candidates if q != p), k, ties)


def subset_relieff(X, y, discrete, rows, *, k_nearest=10, n_iterations=None,
                   random_state=0, diff_kind="linear", t_eq=0.04,
                   t_diff=0.10, ties="share"):
    """ReliefF (Fig. 2 of Prat & Belanche 2006) of the subset `rows`."""
    ctx, _, instances = _subset(X, y, discrete, rows, diff_kind, t_eq,
                                t_diff, regression=False)
    n, a = len(instances), ctx.a
    group = [ctx.group[i] for i in instances]
    classes = sorted(set(group))
    prior = {c: group.count(c) / n for c in classes}
    refs = references(n, n_iterations, random_state)
    W = [0.0] * a
    for R in refs:
        members = {c: [q for q in range(n) if group[q] == c] for c in classes}
        near = {c: _nearest(R, members[c], k_nearest, instances, ctx, ties)
                for c in classes}
        for A in range(a):
            for c in classes:
                if not near[c]:
                    continue
                s = 0.0
                for q, share, _ in near[c]:
                    s += share * diff(A, instances[R], instances[q], ctx)
                if c == group[R]:
                    W[A] -= s / filled(near[c]) / len(refs)
                else:
                    W[A] += (prior[c] / (1 - prior[group[R]])
                             * s / filled(near[c])) / len(refs)
    return np.array(W)


def subset_rrelieff(X, y, discrete, rows, *, k_nearest=50,
                    n_iterations=None, random_state=0, sigma=None,
                    diff_kind="linear", t_eq=0.04, t_diff=0.10,
                    ties="share"):
    """RReliefF (Fig. 3 of Robnik-Sikonja & Kononenko 2003, the exp-rank
    influence) of the subset `rows`; the target's diff is scaled by the
    whole data's range."""
    ctx, targets, instances = _subset(X, y, discrete, rows, diff_kind, t_eq,
                                      t_diff, regression=True)
    n, a = len(instances), ctx.a
    span = max(targets) - min(targets)
    sigma = k_nearest / 3.5 if sigma is None else sigma
    refs = references(n, n_iterations, random_state)
    n_dc, n_da, n_dcda = 0.0, [0.0] * a, [0.0] * a
    for R in refs:
        near = _nearest(R, range(n), k_nearest, instances, ctx, ties)
        d1 = [math.exp(-(rank / sigma) ** 2)
              for rank in range(1, filled(near) + 1)]
        for q, share, places in near:
            d = share * sum(d1[p] for p in places) / len(places) / sum(d1)
            dc = abs(targets[instances[R]] - targets[instances[q]]) / span
            n_dc += dc * d
            for A in range(a):
                da = diff(A, instances[R], instances[q], ctx)
                n_da[A] += da * d
                n_dcda[A] += dc * da * d
    m = len(refs)
    return np.array([(n_dcda[A] / n_dc if n_dc else 0.0)
                     - ((n_da[A] - n_dcda[A]) / (m - n_dc) if m != n_dc
                        else 0.0) for A in range(a)])

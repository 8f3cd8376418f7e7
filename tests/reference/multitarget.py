"""Slow, literal references of multi-target RReliefF and multi-label
ReliefF, as the papers read.

* Multi-target RReliefF -- Petkovic, Kocev & Dzeroski (2020), Machine
  Learning 109, section 3.2: RReliefF's counters (Robnik-Sikonja &
  Kononenko 2003, Fig. 3) whose target diff is the mean over the t
  targets of |y_s(R) - y_s(I)| / range(y_s); each target's own ranking
  with its own diff, over the same neighbours.
* Multi-label ReliefF -- Reyes, Morell & Ventura (2015), Neurocomputing
  161: the same counters with a label-set distance as the target diff
  (Hamming loss, 1 - accuracy, 1 - F1, 1 - subset accuracy); each
  label's ranking is ReliefF of that label (Kononenko 1994).

The neighbours, the diffs of the attributes (RELIEF-D where a value is
missing) and the references are those of :mod:`.relief`; rows with a
missing target are left out.  Plain Python loops, for tiny data only.
"""
import math

import numpy as np

from . import relief


def _rows_with_targets(X, Y):
    """X and Y (lists of rows) of the rows whose targets are all known."""
    X, Y = np.asarray(X, np.float64), np.asarray(Y, np.float64)
    keep = [i for i in range(len(Y))
            if all(v == v for v in Y[i].tolist())]
    return X[keep], [Y[i].tolist() for i in keep]


def _influences(count, k_nearest, weighting, sigma):
    """d1 of the places 1 .. count."""
    if weighting == "equal":
        return [1.0] * count
    if weighting == "clus":
        sigma = 0.5 if sigma is None else sigma
        return [math.exp(-(sigma * (rank - 1)) ** 2)
                for rank in range(1, count + 1)]
    sigma = k_nearest / 3.5 if sigma is None else sigma
    return [math.exp(-(rank / sigma) ** 2) for rank in range(1, count + 1)]


def _hamming(a, b):
    return sum(abs(u - v) for u, v in zip(a, b)) / len(a)


def _accuracy(a, b):
    both = sum(u * v for u, v in zip(a, b))
    union = sum(max(u, v) for u, v in zip(a, b))
    return 0.0 if union == 0 else 1 - both / union


def _f1(a, b):
    both = sum(u * v for u, v in zip(a, b))
    sizes = sum(a) + sum(b)
    return 0.0 if sizes == 0 else 1 - 2 * both / sizes


def _subset(a, b):
    return 0.0 if list(a) == list(b) else 1.0


LABEL_DISTANCES = {"hamming": _hamming, "accuracy": _accuracy, "f1": _f1,
                   "subset": _subset}


def _counters(ctx, target_diffs, k_nearest, n_iterations, random_state,
              weighting, sigma, ties):
    """RReliefF's W of each target diff of target_diffs(R, I) (a list),
    over the same neighbours."""
    n, a = ctx.n, ctx.a
    refs = relief.references(n, n_iterations, random_state)
    m = len(refs)
    c = len(target_diffs(0, 0))
    N_dC = [0.0] * c
    N_dA = [0.0] * a
    N_dCdA = [[0.0] * a for _ in range(c)]
    for R in refs:
        found = relief.neighbours(R, list(range(n)), k_nearest, ctx, ties)
        d1 = _influences(relief.filled(found), k_nearest, weighting, sigma)
        d1_sum = 0.0
        for v in d1:
            d1_sum += v
        for I, share, places in found:
            d = share * sum(d1[p] for p in places) / len(places) / d1_sum
            dCs = target_diffs(R, I)
            for s in range(c):
                N_dC[s] += dCs[s] * d
            for A in range(a):
                dA = relief.diff(A, R, I, ctx)
                N_dA[A] += dA * d
                for s in range(c):
                    N_dCdA[s][A] += dCs[s] * dA * d
    W = []
    for s in range(c):
        W.append([(N_dCdA[s][A] / N_dC[s] if N_dC[s] != 0 else 0.0)
                  - ((N_dA[A] - N_dCdA[s][A]) / (m - N_dC[s])
                     if m - N_dC[s] != 0 else 0.0) for A in range(a)])
    return np.array(W, dtype=np.float64)


def rrelieff_multitarget(X, Y, discrete=None, *, k_nearest=50,
                         n_iterations=None, random_state=None,
                         weighting="exp_rank", sigma=None, ties="share"):
    """(overall (a,), per target (t, a)) of Petkovic et al. (2020)."""
    X, Y = _rows_with_targets(X, Y)
    ctx, _ = relief.prepare(X, [0.0] * len(X), discrete, "linear", 0.04,
                            0.10, None, regression=True)
    t = len(Y[0])
    low = [min(row[s] for row in Y) for s in range(t)]
    span = [max(row[s] for row in Y) - low[s] for s in range(t)]

    def target_diffs(R, I):
        each = [abs(Y[R][s] - Y[I][s]) / span[s] for s in range(t)]
        return [sum(each) / t] + each

    W = _counters(ctx, target_diffs, k_nearest, n_iterations, random_state,
                  weighting, sigma, ties)
    return W[0], W[1:]


def relieff_multilabel(X, Y, discrete=None, *, k_nearest=10,
                       n_iterations=None, random_state=None,
                       distance="hamming", ties="share"):
    """(overall (a,), per label (L, a)) of Reyes et al. (2015), the
    neighbours' influences equal: the label-set distance as RReliefF's
    target diff, and ReliefF of each label."""
    X, Y = _rows_with_targets(X, Y)
    ctx, _ = relief.prepare(X, [0.0] * len(X), discrete, "linear", 0.04,
                            0.10, None, regression=True)
    measure = LABEL_DISTANCES[distance]
    overall = _counters(ctx, lambda R, I: [measure(Y[R], Y[I])], k_nearest,
                        n_iterations, random_state, "equal", None, ties)[0]
    per_label = [relief.relieff(X, [row[s] for row in Y], discrete,
                                k_nearest=k_nearest,
                                n_iterations=n_iterations,
                                random_state=random_state, ties=ties)
                 for s in range(len(Y[0]))]
    return overall, np.array(per_label)

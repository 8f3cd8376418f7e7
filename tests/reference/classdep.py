"""Slow, literal reference implementations of CDRelief and IWCDRelief.

An independent check of ``orangecontrib.relief.core.variants.classdep``, written from
eq. 1 and 4-6 of Qiu & He (2019) and the algorithm of their section 3.2,
with the package's diff conventions (the diff, distance and nearest
functions of :mod:`tests.reference.relief`: plain Python floats, no numba,
no vectorisation, no pooled-list merging).

* Euclidean distance ||x - z|| = sqrt(sum_A w_A diff_squared(A, x, z));
  never x itself; the k nearest by :func:`tests.reference.relief.neighbours`
  (tied candidates sharing the last places by default), the misses of
  eq. 4 the k nearest among all the other classes' instances at once.
* Eq. 4 and 6 divide by T (references of the class) and by the number of
  neighbours, i.e. they average (the sum in eq. 6 divided by k).
"""
import math

import numpy as np

from tests.reference import relief as ref

__all__ = ["class_references", "cdrelief", "iwcdrelief", "cdw_distance",
           "cdw_knn_predict", "prior_weighted", "cdrelief_weights",
           "iwcdrelief_weights"]


def class_references(groups, classes, n_iterations, random_state):
    """{class: list of reference indices}: every member once (None) or T
    draws with replacement per class, classes in increasing order, one
    generator."""
    rng = None if n_iterations is None else np.random.default_rng(random_state)
    refs = {}
    for c in classes:
        members = [i for i in range(len(groups)) if groups[i] == c]
        if rng is None:
            refs[c] = members
        else:
            draws = rng.integers(0, len(members), size=n_iterations)
            refs[c] = [members[int(j)] for j in draws]
    return refs


def _contexts(X, y, discrete, diff, t_eq, t_diff, distance_weights):
    """(ctx for the Euclidean distance, ctx for the update diffs, classes)."""
    ctx_sq, _ = ref.prepare(X, y, discrete, "squared", t_eq, t_diff,
                            distance_weights, regression=False)
    ctx_up, _ = ref.prepare(X, y, discrete, diff, t_eq, t_diff, None,
                            regression=False)
    classes = sorted(set(ctx_sq.group))
    return ctx_sq, ctx_up, classes


def euclid(i, j, ctx_sq):
    """||x_i - x_j||: the square root of the weighted sum of squared diffs."""
    return math.sqrt(ref.distance(i, j, ctx_sq))


def _mean_diff(A, x, members, ctx):
    """The mean diff over the places of a list of ref.neighbours."""
    total = 0.0
    for z, share, _ in members:
        total += share * ref.diff(A, x, z, ctx)
    return total / ref.filled(members)


def _mean_distance(x, members, ctx_sq):
    """The mean Euclidean distance over the places of a list."""
    total = 0.0
    for z, share, _ in members:
        total += share * euclid(x, z, ctx_sq)
    return total / ref.filled(members)


def _result(W, classes, n_classes, a):
    size = max(classes) + 1 if n_classes is None else n_classes
    out = np.full((size, a), np.nan)
    for c in classes:
        out[c] = W[c]
    return out


def cdrelief(X, y, discrete=None, *, k_nearest=5, n_iterations=None,
             random_state=0, diff="linear", t_eq=0.04, t_diff=0.10,
             distance_weights=None, n_classes=None, ties="share"):
    """Eq. 4: w_c = sum_{x in X_c} ( sum_{z in KNN(x, l != c)} |x - z|
    - sum_{z in KNN(x, c)} |x - z| ), here as means over T_c and over the
    neighbours; KNN(x, l != c) = the k nearest among ALL other classes."""
    ctx_sq, ctx_up, classes = _contexts(X, y, discrete, diff, t_eq, t_diff,
                                        distance_weights)
    n, a = ctx_sq.n, ctx_sq.a
    refs = class_references(ctx_sq.group, classes, n_iterations,
                            random_state)
    W = {c: [0.0] * a for c in classes}
    for c in classes:
        T = len(refs[c])
        for x in refs[c]:
            same = [i for i in range(n) if ctx_sq.group[i] == c]
            other = [i for i in range(n) if ctx_sq.group[i] != c]
            hits = ref.neighbours(x, same, k_nearest, ctx_sq, ties)
            misses = ref.neighbours(x, other, k_nearest, ctx_sq, ties)
            for A in range(a):
                term = _mean_diff(A, x, misses, ctx_up)
                if hits:
                    term -= _mean_diff(A, x, hits, ctx_up)
                W[c][A] += term / T
    return _result(W, classes, n_classes, a)


def instance_weight(d1, d2, threshold):
    """Eq. 5: IW(x) is 1 where the nearer of x's two distances is more
    than `threshold` times the farther (x lies near the border between
    its class and the others), else 0; two equal distances, zero ones
    too, are in ratio 1, a zero and a positive one in ratio 0."""
    nearer, farther = sorted((d1, d2))
    ratio = 1.0 if farther == 0 else nearer / farther
    return 1.0 if ratio > threshold else 0.0


def iwcdrelief(X, y, discrete=None, *, k_nearest=5, threshold=0.5,
               update="as_printed", n_iterations=None, random_state=0,
               diff="linear", t_eq=0.04, t_diff=0.10, distance_weights=None,
               n_classes=None, ties="share"):
    """Section 3.2, Step 1-5 with eq. 5 and 6, for any number of classes:

    for every class c, for each of its T references x:
      Step 3.1  KNN(x, c) (hits), d1 = their mean distance;
      for every other class l (the paper has exactly one):
        KNN(x, l) (misses), d2 = their mean distance;
        Step 3.2  IW(x) by eq. 5;
        Step 3.3  eq. 6: delta_j = mean_l |x_j - z_j| - mean_c |x_j - z_j|,
                  "as_printed": if d2 - d1 > 0 update w_c else w_l,
                  "as_text":    if d2 - d1 > 0 update w_l else w_c,
                  by IW(x) * n_l / (n - n_c) * delta / T.
    """
    ctx_sq, ctx_up, classes = _contexts(X, y, discrete, diff, t_eq, t_diff,
                                        distance_weights)
    n, a = ctx_sq.n, ctx_sq.a
    size = {c: sum(1 for g in ctx_sq.group if g == c) for c in classes}
    refs = class_references(ctx_sq.group, classes, n_iterations,
                            random_state)
    W = {c: [0.0] * a for c in classes}                          # Step 1
    for c in classes:                                            # Step 2
        T = len(refs[c])
        for x in refs[c]:                                        # Step 3
            same = [i for i in range(n) if ctx_sq.group[i] == c]
            hits = ref.neighbours(x, same, k_nearest, ctx_sq, ties)
            if not hits:
                continue
            d1 = _mean_distance(x, hits, ctx_sq)
            for l in classes:
                if l == c:
                    continue
                members = [i for i in range(n) if ctx_sq.group[i] == l]
                misses = ref.neighbours(x, members, k_nearest, ctx_sq, ties)
                d2 = _mean_distance(x, misses, ctx_sq)
                iw = instance_weight(d1, d2, threshold)          # Step 3.2
                if d2 - d1 > 0:                                  # Step 3.3
                    target = c if update == "as_printed" else l
                else:
                    target = l if update == "as_printed" else c
                coef = size[l] / (n - size[c])
                for A in range(a):
                    delta = (_mean_diff(A, x, misses, ctx_up)
                             - _mean_diff(A, x, hits, ctx_up))
                    W[target][A] += iw * coef * delta / T
    return _result(W, classes, n_classes, a)


def prior_weighted(matrix, y):
    """sum_c P(c) W[c] over the classes c of the rows with a known class,
    P(c) their share of those rows."""
    known = [int(c) for c in np.asarray(y, dtype=float).ravel() if c == c]
    total = np.zeros(matrix.shape[1])
    for c in sorted(set(known)):
        total += known.count(c) / len(known) * matrix[c]
    return total


def cdrelief_weights(X, y, discrete=None, **options):
    """CDRelief's class rows weighted by the classes' priors."""
    return prior_weighted(cdrelief(X, y, discrete, **options), y)


def iwcdrelief_weights(X, y, discrete=None, **options):
    """IWCDRelief's class rows weighted by the classes' priors."""
    return prior_weighted(iwcdrelief(X, y, discrete, **options), y)


def cdw_distance(query, prototype, weights):
    """Eq. 1: d(y, x) = sqrt(sum_j w_{c(x), j}^2 (y_j - x_j)^2), with the
    weights of the prototype's class already chosen."""
    total = 0.0
    for j in range(len(query)):
        total += weights[j] ** 2 * (query[j] - prototype[j]) ** 2
    return math.sqrt(total)


def cdw_knn_predict(train_X, train_y, class_weights, query, k,
                    ties="share"):
    """Majority vote of the k prototypes nearest by eq. 1, each voting
    with its share of the k places (the t prototypes at one distance
    standing at its t places in a random order, as
    :func:`tests.reference.relief.neighbours` shares them; "lower-index":
    the k first by (distance, index)); returns the votes per class."""
    keyed = []
    for i in range(len(train_X)):
        c = int(train_y[i])
        keyed.append((cdw_distance(query, train_X[i], class_weights[c]), i))
    keyed.sort()
    votes = [0.0] * len(class_weights)
    if ties == "lower-index":
        for _, i in keyed[:k]:
            votes[int(train_y[i])] += 1
        return votes
    p = 0
    while p < min(k, len(keyed)):
        tied = [i for d, i in keyed if d == keyed[p][0]]
        below_k = min(len(tied), k - p)
        for i in tied:
            votes[int(train_y[i])] += below_k / len(tied)
        p += len(tied)
    return votes

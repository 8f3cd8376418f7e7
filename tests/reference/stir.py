"""A slow, literal port of STIR as its authors compute it.

Written from Le, Urbanowicz, Moore & McKinney (2019) and the authors' R
package (insilico/stir, R/stir.R): its two functions, line by line in
plain Python floats, for two classes and numeric attributes with the
package's default metric (range-scaled Manhattan distances, diffs
|x_j - x_i| / range).

* :func:`find_neighbors` -- every instance a reference; ``"relieff"``: the
  k nearest hits and the k nearest misses; ``"surf"``: the instances closer
  than the mean distance of all pairs less `sd_frac` times their sample
  standard deviation; ``"multisurf"``: closer than the reference's mean
  distance to the others less `sd_frac` times their standard deviation
  (the sample's, or `sd_vec`).  Distances sorted stably (equal ones in
  index order), a neighbourhood strictly below its threshold.
* :func:`stir_statistic` -- each pair weighted by 1 / k_i (k_i: its
  reference's hits, or misses), the means and the variances of the
  weighted diffs divided by the number of instances n, pooled with the
  numbers of pairs, a one-sided p.

Two switches keep R's own behaviour or take the add-on's choice:

* ``tie_bug`` (R: True): R reads a reference's class from the first
  instance of its sorted distance row, which is not the reference itself
  when an instance of lower index lies at distance 0 (an identical twin);
  a twin of the other class swaps the reference's hits and misses and
  makes the reference its own miss.  False takes the reference's class
  and leaves the reference itself out.
* ``keep_rule`` (R: True): R keeps a SURF or MultiSURF reference only if
  it has at least one hit and two misses; False keeps every reference
  with a pair (the add-on, whose score is then the method's weight).

R's SURF with ``sd_frac=0`` is Greene et al.'s SURF; the near sets of
SURF* and MultiSURF* are those of SURF and MultiSURF.
:func:`pairs_statistic` takes other weights than R's 1 / k_i (the
add-on's class coefficients for more than two classes) and other diffs.
"""
import math

from scipy.special import stdtr


def scaled(X):
    """R's get.distance: every column minus its minimum over its range."""
    n, a = len(X), len(X[0])
    low = [min(X[i][A] for i in range(n)) for A in range(a)]
    high = [max(X[i][A] for i in range(n)) for A in range(a)]
    return [[(X[i][A] - low[A]) / (high[A] - low[A]) for A in range(a)]
            for i in range(n)]


def distances(X):
    """D[i][j] = sum_A |s_iA - s_jA| of the scaled data (R: dist(...,
    method = "manhattan"))."""
    s = scaled(X)
    n, a = len(s), len(s[0])
    D = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            total = 0.0
            for A in range(a):
                total += abs(s[i][A] - s[j][A])
            D[i][j] = total
    return D


def sample_sd(values):
    """R's sd(): denominator len - 1."""
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def radii(D, method, sd_vec, sd_frac):
    """The threshold of every reference (R/stir.R, find.neighbors)."""
    n = len(D)
    if method == "surf":
        upper = [D[i][j] for i in range(n) for j in range(i + 1, n)]
        radius = sum(sum(row) for row in D) / (2 * (n * (n - 1) / 2))
        return [radius - sd_frac * sample_sd(upper)] * n
    if sd_vec is None:
        sd_vec = [sample_sd([D[j][i] for j in range(n) if j != i])
                  for i in range(n)]
    return [sum(D[j][i] for j in range(n)) / (n - 1) - sd_frac * sd_vec[i]
            for i in range(n)]


def split(i, nearest, y, tie_bug):
    """(hits, misses) of reference i among `nearest` (sorted, i among
    them): R takes the reference's class from the first of them and
    drops the first hit as the reference itself."""
    own = y[nearest[0]] if tie_bug else y[i]
    hits = [j for j in nearest if y[j] == own]
    misses = [j for j in nearest if y[j] != own]
    return (hits[1:] if tie_bug else [j for j in hits if j != i]), misses


def find_neighbors(X, y, method="multisurf", k=0, sd_vec=None, sd_frac=0.5,
                   tie_bug=True, keep_rule=True):
    """The (reference, neighbour) hit pairs and miss pairs, in R's order
    (by reference, then by distance), 0-based."""
    D = distances(X)
    n = len(D)
    hit_pairs, miss_pairs = [], []
    if method != "relieff":
        radius = radii(D, method, sd_vec, sd_frac)
    for i in range(n):
        order = sorted(range(n), key=lambda j: D[i][j])  # stable: R's order
        if method == "relieff":
            hits, misses = split(i, order, y, tie_bug)
            hits, misses = hits[:k], misses[:k]
        else:
            near = [j for j in order if D[i][j] < radius[i]]
            hits, misses = split(i, near, y, tie_bug)
            if keep_rule and not (len(hits) >= 1 and len(misses) >= 2):
                continue
        hit_pairs += [(i, j) for j in hits]
        miss_pairs += [(i, j) for j in misses]
    return hit_pairs, miss_pairs


def r_weights(pairs):
    """R's make.factor: 1 / (the number of pairs of the pair's reference)."""
    counts = {}
    for i, _ in pairs:
        counts[i] = counts.get(i, 0) + 1
    return [1.0 / counts[i] for i, _ in pairs]


def weighted_t(hits, misses, n, df, variance="population", counts=None):
    """R's statistic of one attribute (R/stir.R, lines 359-376): `hits`
    and `misses` lists of (diff, weight), the means and variances of the
    weighted diffs divided by `n`, the pairs counted as `counts` (hits,
    misses) says (None: the lists' lengths).  Returns (score, t, p)."""
    n_hits, n_misses = (len(hits), len(misses)) if counts is None else counts
    stats = []
    for pairs, count in ((misses, n_misses), (hits, n_hits)):
        mu = sum(w * d for d, w in pairs) / n
        var = sum(w * (d - mu) ** 2 for d, w in pairs) / n
        if variance == "sample":
            var *= count / (count - 1)
        stats.append((mu, var))
    (mu_m, var_m), (mu_h, var_h) = stats
    s_pooled = math.sqrt(((n_misses - 1) * var_m + (n_hits - 1) * var_h)
                         / (n_hits + n_misses - 2))
    t = (mu_m - mu_h) / (s_pooled * math.sqrt(1 / n_misses + 1 / n_hits))
    return mu_m - mu_h, t, float(stdtr(df, -t))


def stir_statistic(X, hit_pairs, miss_pairs, variance="population"):
    """R's stir() of every attribute: lists (score, t, p) and df, score
    the difference of the weighted means (mu.misses - mu.hits, R's vecW),
    p = P(T_df >= t), each pair weighted by 1 / k_i."""
    a = len(X[0])
    low = [min(row[A] for row in X) for A in range(a)]
    high = [max(row[A] for row in X) for A in range(a)]
    df = len(hit_pairs) + len(miss_pairs) - 2
    results = []
    for A in range(a):
        one_over_range = 1 / (high[A] - low[A])
        hits, misses = ([(abs(X[j][A] - X[i][A]) * one_over_range, w)
                         for (i, j), w in zip(pairs, r_weights(pairs))]
                        for pairs in (hit_pairs, miss_pairs))
        results.append(weighted_t(hits, misses, len(X), df, variance))
    return [list(column) for column in zip(*results)], df


def pairs_statistic(hits, misses, n_refs, variance="population",
                    counts=None):
    """The statistic of :func:`weighted_t` of pairs given as (reference,
    diffs, weight), diffs one per attribute (other weights than R's,
    other diffs), the pairs counted as `counts` (hits, misses) says (None:
    the lists' lengths): lists (score, t, p) and df."""
    n_hits, n_misses = (len(hits), len(misses)) if counts is None else counts
    df = n_hits + n_misses - 2
    results = [weighted_t([(d[A], w) for _, d, w in hits],
                          [(d[A], w) for _, d, w in misses], n_refs, df,
                          variance, (n_hits, n_misses))
               for A in range(len(hits[0][1]))]
    return [list(column) for column in zip(*results)], df

"""Slow, literal reference implementations of Relief, ReliefF and RReliefF.

This module is an *independent* check of ``orangecontrib.relief.core``,
written as the pseudo code of the papers reads:

* Relief  -- Kira & Rendell (1992), Fig. 1 of Prat & Belanche (2006),
  section 2;
* ReliefF -- Kononenko (1994), Fig. 2 of Prat & Belanche, with the RELIEF-D
  missing-value diff of eq. 2.5;
* RReliefF -- Robnik-Sikonja & Kononenko (2003), Fig. 3 (the N_dC, N_dA,
  N_dC&dA counters), with the exp-rank influence of neighbours;
* the myopic ReliefF / modified Gini-gain expression of Prat & Belanche
  (2006), eq. 2.6-2.8.

The conventions the papers leave open are the package's: rows with a
missing target are left out; a numeric diff is scaled by the range of the
column's known values; a group (class) without a known value of a column
uses the whole column's known values; an instance is never its own
neighbour; every instance is a reference once unless ``n_iterations``
draws references with ``numpy.random.default_rng(random_state)``.

Which neighbours take the k places of a list where distances are equal
(:func:`neighbours`): with ``ties="lower-index"`` the candidates are
ordered by (distance, index) and the first k taken; with ``ties="share"``
a list's order among equal distances is a uniformly random one, and a
neighbour counts by its expected number of places: the candidates at one
distance, t of them, stand at some t consecutive places p .. p + t - 1,
each of them at each of those places with probability 1 / t, so each
takes #{those places below k} / t of the k places.

Everything is plain Python loops over Python floats (IEEE double = float64).
There is deliberately no numba, no vectorisation and no caching: every
``diff`` of a missing numeric value enumerates the known values of the
instance's group again. It is only meant for tiny data sets in tests.
"""
import math

import numpy as np

__all__ = ["Context", "diff", "distance", "nearest", "neighbours",
           "places_of", "filled",
           "relief", "relieff", "murelief", "rrelieff", "references",
           "myopic_relieff",
           "gini_gain_prime"]


def _is_missing(value):
    return value != value  # NaN


class Context:
    """The data with the rows of a missing target dropped, and the options
    that ``diff`` needs.

    X: list of rows (lists of Python floats, NaN = missing)
    group: list, group[i] is the group of instance i for the missing-value
           probabilities (its class for classification, 0 for regression)
    """

    def __init__(self, X, group, discrete, diff_kind, t_eq, t_diff, weights):
        self.X = X
        self.group = group
        self.discrete = discrete
        self.diff_kind = diff_kind
        self.t_eq = t_eq
        self.t_diff = t_diff
        self.weights = weights
        self.n = len(X)
        self.a = len(discrete)
        # range of every column over its known values, and its least
        self.range = []
        self.low = []
        self.has_known = []
        for A in range(self.a):
            known = [self.X[i][A] for i in range(self.n)
                     if not _is_missing(self.X[i][A])]
            self.has_known.append(len(known) > 0)
            if known:
                self.range.append(max(known) - min(known))
                self.low.append(min(known))
            else:
                self.range.append(0.0)
                self.low.append(0.0)


def prepare(X, y, discrete, diff_kind, t_eq, t_diff, distance_weights,
            regression):
    """Drop the rows whose target is missing. Returns (ctx, targets)."""
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n_all, a = X.shape
    if discrete is None:
        discrete = [False] * a
    discrete = [bool(d) for d in discrete]
    if distance_weights is None:
        weights = [1.0] * a
    else:
        weights = [float(w) for w in distance_weights]
    rows, targets = [], []
    for i in range(n_all):
        if _is_missing(float(y[i])):
            continue
        rows.append([float(X[i, A]) for A in range(a)])
        targets.append(float(y[i]))
    if regression:
        group = [0] * len(rows)
    else:
        group = [int(t) for t in targets]
    ctx = Context(rows, group, discrete, diff_kind, float(t_eq),
                  float(t_diff), weights)
    return ctx, targets


# ---------------------------------------------------------------- diff ----

def g(d, ctx):
    """The diff option applied to a normalised numeric difference d."""
    if ctx.diff_kind == "linear":
        return d
    if ctx.diff_kind == "squared":
        return d * d
    if ctx.diff_kind == "ramp":
        if d <= ctx.t_eq:
            return 0.0
        if d >= ctx.t_diff:
            return 1.0
        return (d - ctx.t_eq) / (ctx.t_diff - ctx.t_eq)
    raise ValueError(ctx.diff_kind)


def known_values(A, grp, ctx):
    """Known values of column A among the instances of group grp; if the
    group has none, the known values of the whole column."""
    values = [ctx.X[i][A] for i in range(ctx.n)
              if ctx.group[i] == grp and not _is_missing(ctx.X[i][A])]
    if not values:
        values = [ctx.X[i][A] for i in range(ctx.n)
                  if not _is_missing(ctx.X[i][A])]
    return values


def P(v, A, grp, ctx):
    """P(value(A) = v | group), relative frequency among known values."""
    values = known_values(A, grp, ctx)
    count = 0
    for x in values:
        if x == v:
            count += 1
    return count / len(values)


def numeric_diff(A, v1, v2, ctx):
    """diff of two known values of numeric column A: |v1 - v2| / range,
    each value first scaled to [0, 1] by the range, (v - min) / range, as
    data are scaled once before they are compared (the same real number;
    the floats of equal distances are then equal, which decides ties)."""
    if ctx.range[A] == 0:
        return g(0.0, ctx)
    low, span = ctx.low[A], ctx.range[A]
    return g(abs((v1 - low) / span - (v2 - low) / span), ctx)


def _mean_numeric_diff(A, values, v, ctx):
    """E[diff(A, X, v)], X uniform over `values` (the other value missing)."""
    total = 0.0
    for x in values:
        total += numeric_diff(A, x, v, ctx)
    return total / len(values)


def diff(A, I1, I2, ctx):
    """diff(A, I1, I2): HEOM diff of known values, RELIEF-D (eq. 2.5) when a
    value is missing; numeric missing values use the literal expectation."""
    v1 = ctx.X[I1][A]
    v2 = ctx.X[I2][A]
    m1 = _is_missing(v1)
    m2 = _is_missing(v2)
    if not ctx.has_known[A]:
        return 0.0                      # no known value at all
    if ctx.discrete[A]:
        if not m1 and not m2:
            return 0.0 if v1 == v2 else 1.0
        if m1 and not m2:
            return 1.0 - P(v2, A, ctx.group[I1], ctx)
        if m2 and not m1:
            return 1.0 - P(v1, A, ctx.group[I2], ctx)
        # both missing: 1 - sum_v P(v | group(I1)) * P(v | group(I2))
        all_values = sorted(set(ctx.X[i][A] for i in range(ctx.n)
                                if not _is_missing(ctx.X[i][A])))
        s = 0.0
        for v in all_values:
            s += P(v, A, ctx.group[I1], ctx) * P(v, A, ctx.group[I2], ctx)
        return 1.0 - s
    # numeric
    if not m1 and not m2:
        return numeric_diff(A, v1, v2, ctx)
    if m1 and not m2:
        return _mean_numeric_diff(A, known_values(A, ctx.group[I1], ctx), v2,
                                  ctx)
    if m2 and not m1:
        return _mean_numeric_diff(A, known_values(A, ctx.group[I2], ctx), v1,
                                  ctx)
    xs = known_values(A, ctx.group[I1], ctx)
    ys = known_values(A, ctx.group[I2], ctx)
    total = 0.0
    for x in xs:
        for x2 in ys:
            total += numeric_diff(A, x, x2, ctx)
    return total / (len(xs) * len(ys))


def distance(I1, I2, ctx):
    """delta(I1, I2) = sum_A w_A * diff(A, I1, I2) (eq. 2.1 / 3.1)."""
    total = 0.0
    for A in range(ctx.a):
        total += ctx.weights[A] * diff(A, I1, I2, ctx)
    return total


def nearest(R, candidates, k, ctx):
    """The (up to) k candidates nearest to R, sorted by (distance, index);
    R itself is never a candidate."""
    keyed = []
    for I in candidates:
        if I == R:
            continue
        keyed.append((distance(R, I, ctx), I))
    keyed.sort()
    return [I for _, I in keyed[:k]]


def neighbours(R, candidates, k, ctx, ties="share"):
    """R's neighbours among `candidates` in a list of k places: a list of
    (I, share, places), `places` the place numbers (0 .. k - 1) I may
    stand at, `share` its expected number of places; only those with a
    share.  R itself is never a candidate.

    "lower-index": the candidates by (distance, index), the first k at
    places 0, 1, ..., each share 1.  "share": the t candidates at one
    distance stand at the places p .. p + t - 1 that follow the nearer
    ones, in a random order: each stands at each of them with
    probability 1 / t, and takes those below k, share #{p' < k} / t."""
    return places_of(sorted((distance(R, I, ctx), I)
                            for I in candidates if I != R), k, ties)


def places_of(keyed, k, ties):
    """The list of k places of the candidates `keyed`, (distance, I)
    sorted: [(I, share, places)] as :func:`neighbours` gives it."""
    if ties == "lower-index":
        return [(I, 1.0, [p]) for p, (_, I) in enumerate(keyed[:k])]
    found, p = [], 0
    while p < len(keyed) and p < k:
        tied = [I for d, I in keyed if d == keyed[p][0]]
        places = [q for q in range(p, p + len(tied)) if q < k]
        found += [(I, len(places) / len(tied), places) for I in tied]
        p += len(tied)
    return found


def filled(found):
    """The places a list of :func:`neighbours` fills: the sum of its
    shares, counted exactly (every place below k one candidate has)."""
    return len({p for _, _, places in found for p in places})


def references(n, n_iterations, random_state):
    """The reference instances: every instance once, in order (None), or
    n_iterations draws with replacement."""
    if n_iterations is None:
        return list(range(n))
    rng = np.random.default_rng(random_state)
    return [int(r) for r in rng.integers(0, n, size=n_iterations)]


# -------------------------------------------------------------- Relief ----

def relief(X, y, discrete=None, *, n_iterations=None, random_state=None,
           diff="linear", t_eq=0.04, t_diff=0.10, distance_weights=None,
           ties="share"):
    """Relief, Fig. 1 of Prat & Belanche (2006) (Kira & Rendell 1992: two
    classes, one nearest hit and miss; a tied nearest hit or miss counts
    by its share of the place, :func:`neighbours`)."""
    ctx, targets = prepare(X, y, discrete, diff, t_eq, t_diff,
                           distance_weights, regression=False)
    n, a = ctx.n, ctx.a
    classes = sorted(set(ctx.group))
    assert len(classes) == 2
    refs = references(n, n_iterations, random_state)
    m = len(refs)
    W = [0.0] * a
    for R in refs:
        same = [i for i in range(n) if ctx.group[i] == ctx.group[R]]
        other = [i for i in range(n) if ctx.group[i] != ctx.group[R]]
        H = neighbours(R, same, 1, ctx, ties)
        M = neighbours(R, other, 1, ctx, ties)
        for A in range(a):
            d_hit = sum(share * _diff(A, R, I, ctx) for I, share, _ in H)
            d_miss = sum(share * _diff(A, R, I, ctx) for I, share, _ in M)
            W[A] = W[A] + (d_miss - d_hit) / m
    return np.array(W, dtype=np.float64)


_diff = diff  # the option argument "diff" shadows the function name


# ------------------------------------------------------------- ReliefF ----

def relieff(X, y, discrete=None, *, k_nearest=10, n_iterations=None,
            random_state=None, diff="linear", t_eq=0.04, t_diff=0.10,
            distance_weights=None, ties="share"):
    """ReliefF, Fig. 2 of Prat & Belanche (2006) (Kononenko 1994), averaging
    over the places of the lists (a class with fewer than k candidates
    gives all it has), each neighbour by its share (:func:`neighbours`)."""
    ctx, targets = prepare(X, y, discrete, diff, t_eq, t_diff,
                           distance_weights, regression=False)
    n, a = ctx.n, ctx.a
    classes = sorted(set(ctx.group))
    assert len(classes) >= 2
    prior = {}
    for c in classes:
        prior[c] = sum(1 for i in range(n) if ctx.group[i] == c) / n
    refs = references(n, n_iterations, random_state)
    m = len(refs)
    W = [0.0] * a
    for R in refs:
        cR = ctx.group[R]
        hits = neighbours(R, [i for i in range(n) if ctx.group[i] == cR],
                          k_nearest, ctx, ties)
        misses = {}
        for C in classes:
            if C != cR:
                misses[C] = neighbours(
                    R, [i for i in range(n) if ctx.group[i] == C],
                    k_nearest, ctx, ties)
        for A in range(a):
            if hits:
                s = 0.0
                for H, share, _ in hits:
                    s += share * _diff(A, R, H, ctx)
                W[A] = W[A] - (s / filled(hits)) / m
            for C in classes:
                if C == cR:
                    continue
                s = 0.0
                for M, share, _ in misses[C]:
                    s += share * _diff(A, R, M, ctx)
                W[A] = W[A] + (prior[C] / (1.0 - prior[cR])
                               * (s / filled(misses[C]))) / m
    return np.array(W, dtype=np.float64)


def murelief(X, y, discrete=None, *, k_nearest=10, convention="add-on",
             n_iterations=None, random_state=None, diff="linear", t_eq=0.04,
             t_diff=0.10, ties="share"):
    """mu-Relief (Aggarwal et al. 2023, "Mean based relief"): for each
    reference R and class C, mu = the mean of D(R, I) over the instances I of C other
    than R; R's neighbours of C are the k whose |D(R, I) - mu| is the
    largest; then ReliefF's update over them (Fig. 2 of Prat & Belanche).

    ``convention="scikit-rebate"`` as scikit-rebate 0.8 selects: R itself
    stands among its class's candidates with deviation 0 (the last of
    them where no other deviation is 0), the first k taken, and the mean
    diff of the n_C misses of class C weighs L n_C^2 / N^2 (L other
    classes, N misses read; 1 / L where every class gives k), its
    multi-class normalisation."""
    ctx, _ = prepare(X, y, discrete, diff, t_eq, t_diff, None,
                     regression=False)
    n, a = ctx.n, ctx.a
    classes = sorted(set(ctx.group))
    scikit_rebate = convention == "scikit-rebate"
    prior = {}
    for c in classes:
        count = sum(1 for i in range(n) if ctx.group[i] == c)
        prior[c] = 1.0 / len(classes) if scikit_rebate else count / n
    refs = references(n, n_iterations, random_state)
    m = len(refs)
    W = [0.0] * a
    for R in refs:
        cR = ctx.group[R]
        lists = {}
        for C in classes:
            others = [I for I in range(n) if ctx.group[I] == C and I != R]
            total = 0.0
            for I in others:
                total += distance(R, I, ctx)
            mean = total / len(others) if others else 0.0
            keyed = sorted((-abs(distance(R, I, ctx) - mean), I)
                           for I in others)
            if scikit_rebate:
                if C == cR:
                    keyed.append((-0.0, R))
                lists[C] = places_of(keyed, k_nearest, "lower-index")
            else:
                lists[C] = places_of(keyed, k_nearest, ties)
        miss_weight = {C: prior[C] / (1.0 - prior[cR]) for C in classes}
        if scikit_rebate:  # each class's share of the N misses read, times L
            L = len(classes) - 1
            N = sum(filled(lists[C]) for C in classes if C != cR)
            miss_weight = {C: L * filled(lists[C]) ** 2 / N ** 2
                           for C in classes}
        for A in range(a):
            for C in classes:
                if not lists[C]:
                    continue
                s = 0.0
                for I, share, _ in lists[C]:
                    s += share * _diff(A, R, I, ctx)
                s = s / filled(lists[C])
                if C == cR:
                    W[A] = W[A] - s / m
                else:
                    W[A] = W[A] + miss_weight[C] * s / m
    return np.array(W, dtype=np.float64)


# ------------------------------------------------------------ RReliefF ----

def rrelieff(X, y, discrete=None, *, k_nearest=50, n_iterations=None,
             random_state=None, weighting="exp_rank", sigma=None,
             diff="linear", t_eq=0.04, t_diff=0.10, distance_weights=None,
             ties="share"):
    """RReliefF, the pseudo code of Fig. 3 of Robnik-Sikonja & Kononenko
    (2003), the influence of a neighbour its expected influence over the
    places it may stand at (:func:`neighbours`)."""
    ctx, targets = prepare(X, y, discrete, diff, t_eq, t_diff,
                           distance_weights, regression=True)
    n, a = ctx.n, ctx.a
    y_range = max(targets) - min(targets)
    assert y_range > 0
    if sigma is None:
        sigma = k_nearest / 3.5
    refs = references(n, n_iterations, random_state)
    m = len(refs)
    N_dC = 0.0
    N_dA = [0.0] * a
    N_dCdA = [0.0] * a
    for R in refs:
        found = neighbours(R, list(range(n)), k_nearest, ctx, ties)
        # influence of the places by rank: d1 = exp(-(rank/sigma)^2)
        d1 = []
        for rank in range(1, filled(found) + 1):
            if weighting == "exp_rank":
                d1.append(math.exp(-(rank / sigma) ** 2))
            elif weighting == "equal":
                d1.append(1.0)
            else:
                raise ValueError(weighting)
        d1_sum = 0.0
        for v in d1:
            d1_sum += v
        for I, share, places in found:
            # the mean influence of its places, times its share of them
            expected = share * sum(d1[p] for p in places) / len(places)
            d = expected / d1_sum
            dC = abs(targets[R] - targets[I]) / y_range
            N_dC = N_dC + dC * d
            for A in range(a):
                dA = _diff(A, R, I, ctx)
                N_dA[A] = N_dA[A] + dA * d
                N_dCdA[A] = N_dCdA[A] + dC * dA * d
    # W[A] = N_dCdA/N_dC - (N_dA - N_dCdA)/(m - N_dC).
    # The paper does not say what happens when a denominator is 0
    # (N_dC = 0: no neighbour ever had a different target; N_dC = m: every
    # neighbour had the extreme difference). Then the numerator is 0 as well
    # (0 <= N_dCdA <= N_dC and 0 <= N_dA - N_dCdA <= m - N_dC because all
    # diffs are in [0, 1]), so the term is taken as 0.
    W = [0.0] * a
    for A in range(a):
        first = N_dCdA[A] / N_dC if N_dC != 0 else 0.0
        second = ((N_dA[A] - N_dCdA[A]) / (m - N_dC) if m - N_dC != 0
                  else 0.0)
        W[A] = first - second
    return np.array(W, dtype=np.float64)


# ------------------------------------------------------ myopic ReliefF ----

def _frequencies(values):
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return {v: c / len(values) for v, c in counts.items()}


def _sum_of_squares(frequencies):
    """sum_v P(v)^2 of the frequencies {v: P(v)}."""
    total = 0.0
    for v in frequencies:
        total += frequencies[v] ** 2
    return total


def gini_gain_prime(x, c):
    """GG'(A) of eq. 2.8 for one nominal attribute x and the class c
    (lists of equal length, no missing values), with plug-in frequencies:

    GG' = sum_x P(x)^2 / sum_x P(x)^2 * sum_c P(c|x)^2  -  sum_c P(c)^2
    """
    Px = _frequencies(x)
    sum_px2 = _sum_of_squares(Px)
    p_samecl_eqval = 0.0
    for v in Px:
        cs = [c[i] for i in range(len(x)) if x[i] == v]
        s = _sum_of_squares(_frequencies(cs))
        p_samecl_eqval += Px[v] ** 2 / sum_px2 * s
    p_samecl = _sum_of_squares(_frequencies(c))
    return p_samecl_eqval - p_samecl


def myopic_relieff(x, c):
    """Myopic ReliefF, eq. 2.6-2.7 of Prat & Belanche (2006):

    W'(A) = P_eqval * GG'(A) / (P_samecl * (1 - P_samecl))

    with P_eqval = sum_x P(x)^2 and P_samecl = sum_c P(c)^2 (for sampling
    with replacement; the paper's text swaps the two names by a typo).
    """
    p_eqval = _sum_of_squares(_frequencies(x))
    p_samecl = _sum_of_squares(_frequencies(c))
    return p_eqval * gini_gain_prime(x, c) / (p_samecl * (1.0 - p_samecl))

"""Class-dependent Relief: one weight vector per class.

Two estimators that return a (classes x attributes) matrix W, row c being
the weights of class c (Qiu & He 2019, "Instance Weighted Class Dependent
Relief", paper 001):

* :func:`cdrelief` -- Marchiori's class-dependent Relief (paper 001, eq. 4):
  row c is learnt only from reference instances x of class c, with the k
  nearest instances of class c (hits) and the k nearest instances of all
  other classes pooled (misses)::

      W[c, A] = 1/T_c sum_{x in refs(c)} ( mean_{z in KNN(x, not c)} diff(A, x, z)
                                         - mean_{z in KNN(x, c)}     diff(A, x, z) )

* :func:`iwcdrelief` -- the instance-weighted variant (eq. 5 and 6): a
  reference x counts only near the class border, IW(x) = 1 if
  min(d1/d2, d2/d1) > threshold (d1, d2: its distances to the k hits and to
  the k misses), and its update goes to the weights of its own class c or
  of the other class l depending on the sign of d2 - d1.

Conventions (those of the rest of the core, see CONTRACT.md):

* Neighbours are found with the Euclidean distance of the paper, i.e. the
  sum of ``diff="squared"`` diffs (range-normalised numeric differences
  squared, 0/1 for nominal attributes, RELIEF-D for missing values), times
  ``distance_weights`` when given; ties go to the lower index.  The updates
  use the diff chosen by `diff` ("linear" = the paper's |x_j - z_j| on
  range-normalised data).
* d1 and d2 are *mean* Euclidean distances (the square root of that sum)
  to the hits and the misses; with k neighbours on both sides they are the
  paper's sums divided by k, so ratio and sign are the paper's.  A class
  with fewer than k candidates contributes all it has, averaged over those.
* The paper's 1/T (and eq. 6's 1/(T k)) becomes a mean: each class's
  references are averaged over their own number T_c, and each neighbour set
  over its size.  So row c of :func:`cdrelief` is eq. 4 divided by k and
  T_c, and the prior-weighted mean ``sum_c P(c) W[c]`` of the rows (with
  every instance a reference) is the global k-nearest-neighbour Relief of
  eq. 3 with misses pooled over the other classes; for two classes that is
  ReliefF.

References
----------
Qiu, H., He, Z. (2019). Instance weighted class dependent Relief. Computer
Systems & Applications 28(7), 121-126 (eq. 4-6).
Marchiori, E. (2013). Class dependent feature weighting and k-nearest
neighbor classification. PRIB 2013, LNCS 7986, 69-78.
"""
import numbers

import numba
import numpy as np
from numba import prange

from .errors import ReliefInputError
from .estimators import _check_k, _distance_weights
from .neighbours import exact_distance, find_neighbours
from .prepare import prepare
from .rules import UPDATE_BLOCK, add_diffs, n_found
from .topk import offer

__all__ = ["cdrelief", "iwcdrelief", "ClassDependentRelief",
           "class_references", "prior_summary", "cdw_nearest", "UPDATES"]

#: Readings of eq. 6: which class a reference's update goes to.
#: "as_printed": d2 - d1 > 0 -> own class c, else the other class l;
#: "as_text" (the sentence after eq. 6): d2 - d1 > 0 -> l, else c.
UPDATES = ("as_printed", "as_text")


# ------------------------------------------------------------ kernels ----

@numba.njit(cache=True)
def pooled_misses(tables, weights, i, neighbours, own, dist, index):
    """The k nearest instances of all classes but `own`, nearest first.

    The pooled top-k is a subset of the union of the per-class top-k lists
    (each of its members is among the k nearest of its own class), so it is
    merged from those lists by (distance, index), exactly as one search over
    the pooled classes would order it.  Returns how many were found; the
    indices are in ``index[0, :count]``.
    """
    n = tables.values.shape[1]
    k = neighbours.shape[1]
    for s in range(k):
        dist[0, s] = np.inf
        index[0, s] = n
    for g in range(neighbours.shape[0]):
        if g == own:
            continue
        for s in range(n_found(neighbours, g)):
            j = neighbours[g, s]
            offer(dist, index, 0, exact_distance(tables, weights, i, j), j)
    count = 0
    while count < k and index[0, count] < n:
        count += 1
    return count


@numba.njit(inline="always", cache=True)
def add_mean_diffs(acc, tables, i, members, count, coef):
    """acc[A] += coef * mean_{s < count} diff(A, I_i, I_members[s])."""
    for s in range(count):
        add_diffs(acc, tables, i, members[s], coef / count)


@numba.njit(inline="always", cache=True)
def cdrelief_update(acc, exact, squared, weights, i, neighbours, scale,
                    dist, index):
    """acc[A] += scale * (mean miss diff - mean hit diff) (eq. 4, one x)."""
    own = exact.groups[i]
    hits = n_found(neighbours, own)
    add_mean_diffs(acc, exact, i, neighbours[own], hits, -scale)
    misses = pooled_misses(squared, weights, i, neighbours, own, dist, index)
    add_mean_diffs(acc, exact, i, index[0], misses, scale)


@numba.njit(parallel=True, cache=True)
def cdrelief_rule(exact, squared, weights, refs, scale, neighbours, n_groups):
    """Rows W[c] of eq. 4: every reference updates the row of its class.

    `exact` holds the update's diffs, `squared` the neighbour search's
    (float64, like the exact search the neighbours come from)."""
    m, k = neighbours.shape[0], neighbours.shape[2]
    n_blocks = -(-m // UPDATE_BLOCK)
    partial = np.zeros((n_blocks, n_groups, exact.values.shape[0]))
    for b in prange(n_blocks):
        dist = np.empty((1, k))
        index = np.empty((1, k), np.int64)
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            i = refs[r]
            cdrelief_update(partial[b, exact.groups[i]], exact, squared,
                            weights, i, neighbours[r], scale[r], dist, index)
    return partial.sum(axis=0)


@numba.njit(cache=True)
def euclidean(tables, weights, i, j):
    """sqrt(sum_A w_A diff(A, I_i, I_j)) on float64 squared-diff tables."""
    return np.sqrt(exact_distance(tables, weights, i, j))


@numba.njit(inline="always", cache=True)
def mean_distance(tables, weights, i, members, count):
    total = 0.0
    for s in range(count):
        total += euclidean(tables, weights, i, members[s])
    return total / count


@numba.njit(inline="always", cache=True)
def instance_weight(d1, d2, threshold):
    """IW(x) of eq. 5: 1 if min(d1/d2, d2/d1) > threshold, else 0.

    Both distances 0 counts as ratio 1; one of them 0 as ratio 0.
    """
    if d1 == 0.0 and d2 == 0.0:
        ratio = 1.0
    elif d1 == 0.0 or d2 == 0.0:
        ratio = 0.0
    else:
        ratio = min(d1 / d2, d2 / d1)
    return 1.0 if ratio > threshold else 0.0


@numba.njit(inline="always", cache=True)
def iwcdrelief_update(acc, exact, metric, weights, i, neighbours, scale,
                      pair_coef, threshold, as_printed):
    """Add reference I_i's eq. 6 updates to the rows of `acc` (classes).

    For each other class l, with its own k misses, d2 and IW: the update
    IW * scale * pair_coef[c, l] * (mean miss diff - mean hit diff) goes to
    row c or row l by the sign of d2 - d1 and the reading of eq. 6.
    """
    own = exact.groups[i]
    hits = n_found(neighbours, own)
    if hits == 0:
        return  # no hit: x's place relative to the border is unknown
    d1 = mean_distance(metric, weights, i, neighbours[own], hits)
    for other in range(neighbours.shape[0]):
        if other == own:
            continue
        misses = n_found(neighbours, other)
        if misses == 0:
            continue
        d2 = mean_distance(metric, weights, i, neighbours[other], misses)
        if instance_weight(d1, d2, threshold) == 0.0:
            continue
        if (d2 - d1 > 0) == as_printed:
            row = own
        else:
            row = other
        coef = scale * pair_coef[own, other]
        add_mean_diffs(acc[row], exact, i, neighbours[other], misses, coef)
        add_mean_diffs(acc[row], exact, i, neighbours[own], hits, -coef)


@numba.njit(parallel=True, cache=True)
def iwcdrelief_rule(exact, metric, weights, refs, scale, neighbours,
                    pair_coef, threshold, as_printed):
    """Rows W[c] of eq. 6 summed over all references (fixed block order)."""
    m = neighbours.shape[0]
    n_groups = neighbours.shape[1]
    n_blocks = -(-m // UPDATE_BLOCK)
    partial = np.zeros((n_blocks, n_groups, exact.values.shape[0]))
    for b in prange(n_blocks):
        for r in range(b * UPDATE_BLOCK, min(m, (b + 1) * UPDATE_BLOCK)):
            iwcdrelief_update(partial[b], exact, metric, weights, refs[r],
                              neighbours[r], scale[r], pair_coef, threshold,
                              as_printed)
    return partial.sum(axis=0)


@numba.njit(parallel=True, cache=True)
def cdw_nearest(train_X, train_y, squared_weights, discrete, X, k):
    """The k training prototypes nearest to each row of X by eq. 1.

    d(y, x)^2 = sum_j w_{c(x), j}^2 (y_j - x_j)^2 with ``squared_weights``
    = w^2 (classes x attributes); a nominal column differs by 0 or 1.  Ties
    of distance go to the lower training index.  Returns int64 (m, k),
    nearest first (k is at most the number of prototypes).
    """
    m, n = X.shape[0], train_X.shape[0]
    index = np.empty((m, k), np.int64)
    for q in prange(m):
        dist = np.full((1, k), np.inf)
        best = np.full((1, k), n, np.int64)
        for i in range(n):
            w = squared_weights[train_y[i]]
            total = 0.0
            for j in range(X.shape[1]):
                delta = X[q, j] - train_X[i, j]
                if discrete[j]:
                    delta = 1.0 if delta != 0 else 0.0
                total += w[j] * delta * delta
            if total <= dist[0, k - 1]:
                offer(dist, best, 0, total, i)
        index[q] = best[0]
    return index


# ------------------------------------------------------------- python ----

def class_references(groups, n_groups, n_iterations, random_state):
    """Reference instances of every class and their weights 1 / T_c.

    ``None``: every instance of class 0, then of class 1, ... once, in index
    order (T_c = the class size).  An integer T: for c = 0, 1, ... in turn,
    T draws with replacement among the instances of class c from one
    ``numpy.random.default_rng(random_state)`` (the paper's "T random
    instances of class c").

    Returns
    -------
    refs : int64 array (m,)
    scale : float64 array (m,)
        1 / T_c of each reference's class.
    """
    if n_iterations is not None and (
            not isinstance(n_iterations, numbers.Integral) or n_iterations < 1):
        raise ReliefInputError(f"n_iterations must be a positive integer or "
                               f"None (every instance), got {n_iterations!r}.")
    rng = (None if n_iterations is None
           else np.random.default_rng(random_state))
    refs, scale = [], []
    for g in range(n_groups):
        members = np.flatnonzero(groups == g)
        if rng is not None:
            members = members[rng.integers(0, len(members), size=n_iterations)]
        refs.append(members)
        scale.append(np.full(len(members), 1.0 / len(members)))
    return (np.concatenate(refs).astype(np.int64), np.concatenate(scale))


def _check_threshold(threshold):
    try:
        value = float(threshold)
    except (TypeError, ValueError):
        value = np.nan
    if not 0 <= value <= 1:
        raise ReliefInputError(f"threshold must be a number between 0 and 1, "
                               f"got {threshold!r}.")
    return value


def _check_update(update):
    if update not in UPDATES:
        raise ReliefInputError(f"Unknown update '{update}'; use one of "
                               f"{', '.join(UPDATES)}.")
    return update == "as_printed"


def _prepared(X, y, discrete, diff, t_eq, t_diff):
    """The squared-diff data (search, d1, d2) and the update data."""
    squared = prepare(X, y, discrete, task="classification", diff="squared",
                      t_eq=t_eq, t_diff=t_diff)
    update = squared if diff == "squared" else prepare(
        X, y, discrete, task="classification", diff=diff, t_eq=t_eq,
        t_diff=t_diff)
    return squared, update


def _class_codes(y, kept_rows):
    return np.unique(np.asarray(y, dtype=np.float64).ravel()[kept_rows]
                     ).astype(np.int64)


def _full_matrix(rows, codes, n_classes):
    """Rows of the present classes placed at their class codes; NaN rows
    for classes without instances."""
    size = int(codes.max()) + 1
    if n_classes is not None:
        if n_classes < size:
            raise ReliefInputError(f"n_classes={n_classes} but the data has "
                                   f"class code {size - 1}.")
        size = n_classes
    matrix = np.full((size, rows.shape[1]), np.nan)
    matrix[codes] = rows
    return matrix


class ClassDependentRelief:
    """Prepared data, references and neighbours shared by both estimators.

    The neighbour search is the expensive step and depends neither on the
    threshold nor on the reading of eq. 6, and the k nearest of a class are
    the first k of its k_max nearest.  So one object serves
    :meth:`cdrelief` and :meth:`iwcdrelief` for any k <= `k_nearest`,
    threshold and reading (the experiment's grid) with a single search.
    :func:`cdrelief` and :func:`iwcdrelief` are one-shot shortcuts.

    Parameters are those of :func:`cdrelief`; `k_nearest` is the largest k
    the methods can use.
    """

    def __init__(self, X, y, discrete=None, *, k_nearest=5, n_iterations=None,
                 random_state=0, diff="linear", t_eq=0.04, t_diff=0.10,
                 distance_weights=None, n_classes=None,
                 progress_callback=None):
        self.k_nearest = _check_k(k_nearest)
        self.squared, self.update = _prepared(X, y, discrete, diff, t_eq,
                                              t_diff)
        n_attrs = self.squared.search.values.shape[0]
        weights = _distance_weights(distance_weights, n_attrs)
        self.refs, self.scale = class_references(
            self.squared.groups, self.squared.n_groups, n_iterations,
            random_state)
        self.neighbours = find_neighbours(
            self.squared, self.refs, self.k_nearest, weights,
            progress_callback)
        self.weights = np.ones(n_attrs) if weights is None else weights
        self.codes = _class_codes(y, self.squared.kept_rows)
        self.n_classes = n_classes
        counts = np.bincount(self.squared.groups,
                             minlength=self.squared.n_groups)
        #: n_l / (n - n_c): ReliefF's P(l) / (1 - P(c)), exactly 1 for 2 classes
        self.pair_coef = counts[None, :] / (len(self.squared.groups)
                                            - counts)[:, None]

    def _neighbours(self, k):
        k = self.k_nearest if k is None else _check_k(k)
        if k > self.k_nearest:
            raise ReliefInputError(f"k={k} exceeds the k_nearest="
                                   f"{self.k_nearest} of the search.")
        return np.ascontiguousarray(self.neighbours[:, :, :k])

    def cdrelief(self, k=None):
        """The matrix of :func:`cdrelief` with k (default: k_nearest)."""
        rows = cdrelief_rule(self.update.exact, self.squared.exact,
                             self.weights.astype(np.float64), self.refs,
                             self.scale, self._neighbours(k),
                             self.squared.n_groups)
        return _full_matrix(rows, self.codes, self.n_classes)

    def iwcdrelief(self, threshold=0.5, update="as_printed", k=None):
        """The matrix of :func:`iwcdrelief` with k (default: k_nearest)."""
        threshold = _check_threshold(threshold)
        as_printed = _check_update(update)
        rows = iwcdrelief_rule(self.update.exact, self.squared.exact,
                               self.weights.astype(np.float64), self.refs,
                               self.scale, self._neighbours(k),
                               self.pair_coef, threshold, as_printed)
        return _full_matrix(rows, self.codes, self.n_classes)


def cdrelief(X, y, discrete=None, *, k_nearest=5, n_iterations=None,
             random_state=0, diff="linear", t_eq=0.04, t_diff=0.10,
             distance_weights=None, n_classes=None, progress_callback=None):
    """Marchiori's class-dependent Relief (paper 001, eq. 4).

    Parameters
    ----------
    X : array (n, a)
        Attribute values, NaN for missing; nominal columns hold codes 0..V-1.
    y : array (n,)
        Class codes 0..C-1; rows with a missing class are left out.
    discrete : bool array (a,) or None
        Which columns are nominal (None: all numeric).
    k_nearest : int
        Near hits and (pooled) near misses per reference (the paper: 3-7).
    n_iterations : int or None
        None: every instance is a reference once.  An int T: T references
        drawn at random from each class (see :func:`class_references`).
    random_state : int, numpy Generator or None
        Seed of the sampling.
    diff : "linear", "squared" or "ramp"
        Diff of numeric attributes in the update; the neighbour search always
        uses the squared diffs (Euclidean distance).
    distance_weights : array (a,) or None
        Attribute weights in the (squared) neighbour distance.
    n_classes : int or None
        Number of rows of the result (default: largest class code + 1).
    progress_callback : callable(float) or None
        Receives the fraction of the neighbour search done; may raise to stop.

    Returns
    -------
    float64 array (n_classes, a)
        W[c, A]: the weight of attribute A for class c, in [-1, 1] for the
        linear diff.  Rows of classes without instances are NaN.

    References
    ----------
    Marchiori (2013); Qiu & He (2019), eq. 4.
    """
    return ClassDependentRelief(
        X, y, discrete, k_nearest=k_nearest, n_iterations=n_iterations,
        random_state=random_state, diff=diff, t_eq=t_eq, t_diff=t_diff,
        distance_weights=distance_weights, n_classes=n_classes,
        progress_callback=progress_callback).cdrelief()


def iwcdrelief(X, y, discrete=None, *, k_nearest=5, threshold=0.5,
               update="as_printed", n_iterations=None, random_state=0,
               diff="linear", t_eq=0.04, t_diff=0.10, distance_weights=None,
               n_classes=None, progress_callback=None):
    """Instance-weighted class-dependent Relief (paper 001, eq. 5 and 6).

    For each reference x of class c (T per class) with its k hits and, for
    each other class l, its k nearest instances of l (the misses)::

        d1 = mean_{z in KNN(x, c)} ||x - z||,  d2 = mean_{z in KNN(x, l)} ||x - z||
        IW(x) = 1 if min(d1 / d2, d2 / d1) > threshold else 0          (eq. 5)
        delta[A] = mean_{KNN(x, l)} diff(A, x, z) - mean_{KNN(x, c)} diff(A, x, z)
        row = c if d2 - d1 > 0 else l     ("as_printed", eq. 6)
              l if d2 - d1 > 0 else c     ("as_text", the sentence after it)
        W[row] += IW(x) * P(l) / (1 - P(c)) * delta / T_c

    With two classes P(l) / (1 - P(c)) = 1 and this is the paper's
    algorithm (Step 1-5).  With more classes each other class l plays the
    paper's "other class" in turn (one against one), with its own misses,
    d2 and IW, and the contributions are weighted as ReliefF weights its
    misses, so a reference's total update has the two-class scale.  A
    reference without hits (its class has one instance) has IW = 0.

    Parameters
    ----------
    threshold : float in [0, 1]
        IW threshold of eq. 5 (the paper tries 0.1 .. 0.9).
    update : "as_printed" or "as_text"
        Reading of eq. 6 (see :data:`UPDATES`).

    Other parameters as in :func:`cdrelief`.

    Returns
    -------
    float64 array (n_classes, a)
        Rows of classes without instances are NaN.

    References
    ----------
    Qiu & He (2019), eq. 5, 6 and the algorithm of section 3.2.
    """
    threshold = _check_threshold(threshold)
    _check_update(update)
    return ClassDependentRelief(
        X, y, discrete, k_nearest=k_nearest, n_iterations=n_iterations,
        random_state=random_state, diff=diff, t_eq=t_eq, t_diff=t_diff,
        distance_weights=distance_weights, n_classes=n_classes,
        progress_callback=progress_callback).iwcdrelief(threshold, update)


def prior_summary(matrix, y):
    """sum_c P(c) W[c]: the prior-weighted mean of the class rows.

    P(c) is the relative frequency of class c among the rows with a known
    class; rows of absent classes (NaN) get P(c) = 0.  For :func:`cdrelief`
    with every instance a reference this is the global k-NN Relief (eq. 3)
    with pooled misses, divided by k.
    """
    y = np.asarray(y, dtype=np.float64).ravel()
    y = y[~np.isnan(y)].astype(np.int64)
    priors = np.bincount(y, minlength=len(matrix)) / len(y)
    present = priors > 0
    return priors[present] @ matrix[present]

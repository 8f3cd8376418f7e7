"""Class-dependent Relief: one weight vector per class.

Two estimators that return a (classes x attributes) matrix W, row c being
the weights of class c (Qiu & He 2019, "Instance Weighted Class Dependent
Relief"):

* :func:`cdrelief` -- Marchiori's class-dependent Relief (Qiu & He 2019, eq. 4):
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

Conventions (those of the rest of the core):

* Neighbours are found with the Euclidean distance of the paper, i.e. the
  sum of ``diff="squared"`` diffs (range-normalised numeric differences
  squared, 0/1 for nominal attributes, RELIEF-D for missing values), times
  ``distance_weights`` when given.  Where the k-th distance is tied, the
  tied share the last places (``ties="share"``, each neighbour's terms
  and distance weighted by its share, :mod:`..formulas.ties`) or the lower
  indices take them (``"lower-index"``); the pooled misses are merged
  from the classes' lists by their search distances, their ties shared
  alike.  The updates
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
import numpy as np

from .. import engines
from ..engines import preparation
from ..errors import ReliefInputError
from ..sampling import BYTES_PER_REFERENCE, check_memory
from ..options import (DIFF, K_CLASS_DEPENDENT, RANDOM_STATE, T_DIFF, T_EQ,
                       THRESHOLD, TIES, PositiveInt, check, check_choice,
                       check_distance_weights)
from ..prepare import prepare
from ..validation import unchecked_instance, validated

__all__ = ["cdrelief", "iwcdrelief", "ClassDependentRelief",
           "class_references", "prior_summary", "UPDATES"]

#: Readings of eq. 6: which class a reference's update goes to.
#: "as_printed": d2 - d1 > 0 -> own class c, else the other class l;
#: "as_text" (the sentence after eq. 6): d2 - d1 > 0 -> l, else c.
UPDATES = ("as_printed", "as_text")
#: the most class codes a weight matrix has rows for
MAX_CLASSES = 2 ** 16


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
    if n_iterations is not None:
        check_memory("n_iterations",
                     n_iterations * n_groups * BYTES_PER_REFERENCE)
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


def _check_update(update):
    """True for the "as_printed" reading of eq. 6."""
    return check_choice("update", update, UPDATES) == "as_printed"


def _prepared(X, y, discrete, diff, t_eq, t_diff, chosen):
    """The squared-diff data (search, d1, d2) and the update data, for the
    engine `chosen` (the squared diff reads no thresholds)."""
    squared = prepare.unchecked(X, y, discrete, task="classification",
                                diff="squared", engine=chosen)
    update = squared if diff == "squared" else prepare.unchecked(
        X, y, discrete, task="classification", diff=diff, t_eq=t_eq,
        t_diff=t_diff, engine=chosen)
    return squared, update


def _class_codes(y, kept_rows):
    """The class codes present, int64; ReliefInputError for a code beyond
    the rows a weight matrix may have (one per code 0 .. max)."""
    codes = np.unique(np.asarray(y, dtype=np.float64).ravel()[kept_rows])
    if len(codes) and codes.max() >= MAX_CLASSES:
        raise ReliefInputError(
            f"The class-dependent weights have a row per class code 0, 1, "
            f"..., {codes.max():.15g}: more than {MAX_CLASSES:,}; recode "
            f"the classes as 0, 1, 2, ...")
    return codes.astype(np.int64)


def _matrix_rows(codes, n_classes):
    """The rows of the weight matrix, one per class code 0 .. max: the
    largest code + 1, or `n_classes` (checked) if given."""
    size = int(codes.max()) + 1
    if n_classes is not None:
        n_classes = PositiveInt(MAX_CLASSES)("n_classes", n_classes)
        if n_classes < size:
            raise ReliefInputError(f"n_classes={n_classes} but the data has "
                                   f"class code {size - 1}.")
        return n_classes
    return size


def _full_matrix(rows, codes, n_classes):
    """Rows of the present classes placed at their class codes; NaN rows
    for classes without instances."""
    matrix = np.full((n_classes, rows.shape[1]), np.nan)
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

    @validated
    def __init__(self, X, y, discrete=None, *, k_nearest=K_CLASS_DEPENDENT,
                 n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF,
                 distance_weights=None, n_classes=None, ties=TIES,
                 progress_callback=None):
        self.k_nearest = k_nearest
        chosen = engines.choose_for(X, n_iterations,
                                    (preparation.CLASS_DEPENDENT,))
        self.kernels = engines.kernels(chosen)
        self.squared, self.update = _prepared(X, y, discrete, diff, t_eq,
                                              t_diff, chosen)
        self.codes = _class_codes(y, self.squared.kept_rows)
        self.n_classes = _matrix_rows(self.codes, n_classes)
        n_attrs = self.squared.exact.values.shape[0]
        weights = check_distance_weights(distance_weights, n_attrs)
        self.refs, self.scale = class_references(
            self.squared.groups, self.squared.n_groups, n_iterations,
            random_state)
        self.neighbours = self.kernels.find_neighbours(
            self.squared, self.refs, self.k_nearest, weights,
            progress_callback, ties=ties)
        self.weights = np.ones(n_attrs) if weights is None else weights
        counts = np.bincount(self.squared.groups,
                             minlength=self.squared.n_groups)
        #: n_l / (n - n_c): ReliefF's P(l) / (1 - P(c)), exactly 1 for 2 classes
        self.pair_coef = counts[None, :] / (len(self.squared.groups)
                                            - counts)[:, None]

    def _neighbours(self, k):
        k = self.k_nearest if k is None else check("k_nearest", k)
        if k > self.k_nearest:
            raise ReliefInputError(f"k={k} exceeds the k_nearest="
                                   f"{self.k_nearest} of the search.")
        return self.neighbours.truncated(k)

    def cdrelief(self, k=None):
        """The matrix of :func:`cdrelief` with k (default: k_nearest)."""
        rows = self.kernels.cdrelief_rule(
            self.update.exact, self.refs, self.scale, self._neighbours(k),
            self.squared.n_groups)
        return _full_matrix(rows, self.codes, self.n_classes)

    def iwcdrelief(self, threshold=THRESHOLD, update="as_printed", k=None):
        """The matrix of :func:`iwcdrelief` with k (default: k_nearest)."""
        return self.iwcdrelief_thresholds([threshold], update, k)[0]

    def iwcdrelief_thresholds(self, thresholds, update="as_printed",
                              k=None):
        """The matrices of :func:`iwcdrelief` with each of the `thresholds`
        (a list of them; an experiment's grid), computed together."""
        return self.iwcdrelief_rows(
            [check("threshold", t) for t in thresholds], update, k)

    def iwcdrelief_rows(self, thresholds, update, k):
        """:meth:`iwcdrelief_thresholds` of `thresholds` checked
        already."""
        thresholds = np.array(thresholds, dtype=np.float64)
        as_printed = _check_update(update)
        rows = self.kernels.iwcdrelief_rule(
            self.update.exact, self.squared.exact,
            self.weights.astype(np.float64), self.refs, self.scale,
            self._neighbours(k), self.pair_coef, thresholds, as_printed)
        return [_full_matrix(part, self.codes, self.n_classes)
                for part in rows]


@validated
def cdrelief(X, y, discrete=None, *, k_nearest=K_CLASS_DEPENDENT,
             n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
             t_eq=T_EQ, t_diff=T_DIFF, distance_weights=None, n_classes=None,
             ties=TIES, progress_callback=None):
    """Marchiori's class-dependent Relief (Qiu & He 2019, eq. 4).

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
    ties : "share" or "lower-index"
        The candidates at the k-th distance: "share" (default) gives each
        of the t tied r / t of the r places left (the expectation over a
        random tie-break); "lower-index" gives them to the lower indices.
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
    return unchecked_instance(  # the options checked on entry
        ClassDependentRelief, X, y, discrete, k_nearest=k_nearest,
        n_iterations=n_iterations, random_state=random_state, diff=diff,
        t_eq=t_eq, t_diff=t_diff, distance_weights=distance_weights,
        n_classes=n_classes, ties=ties,
        progress_callback=progress_callback).cdrelief()


@validated
def iwcdrelief(X, y, discrete=None, *, k_nearest=K_CLASS_DEPENDENT,
               threshold=THRESHOLD, update="as_printed", n_iterations=None,
               random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ,
               t_diff=T_DIFF, distance_weights=None, n_classes=None,
               ties=TIES, progress_callback=None):
    """Instance-weighted class-dependent Relief (Qiu & He 2019, eq. 5 and 6).

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
    _check_update(update)
    return unchecked_instance(  # the options checked on entry
        ClassDependentRelief, X, y, discrete, k_nearest=k_nearest,
        n_iterations=n_iterations, random_state=random_state, diff=diff,
        t_eq=t_eq, t_diff=t_diff, distance_weights=distance_weights,
        n_classes=n_classes, ties=ties,
        progress_callback=progress_callback).iwcdrelief_rows(
            [threshold], update, None)[0]


def prior_summary(matrix, y):
    """sum_c P(c) W[c]: the prior-weighted mean of the class rows.

    P(c) is the relative frequency of class c among the rows with a known
    class; rows of absent classes (NaN) get P(c) = 0.  For :func:`cdrelief`
    with every instance a reference this is the global k-NN Relief (eq. 3)
    with pooled misses, divided by k.
    """
    y = np.asarray(y, dtype=np.float64).ravel()
    y = y[~np.isnan(y)]
    if not np.isin(y, np.arange(len(matrix))).all():
        raise ReliefInputError(f"The classes must be the codes of the "
                               f"matrix's rows, 0 to {len(matrix) - 1}.")
    priors = np.bincount(y.astype(np.int64), minlength=len(matrix)) / len(y)
    present = priors > 0
    return priors[present] @ matrix[present]

"""The class-dependent weighted kNN of Qiu & He (2019), eq. 1, on arrays:
class weights in the units of the data, and the votes of the nearest
prototypes.

The distance from a query y to a training prototype x uses the weights of
x's class (the class-dependent weighted distance of Marchiori 2013)::

    d(y, x) = sqrt( sum_j w_{c(x), j}^2 (y_j - x_j)^2 )

The weights are learnt by CDRelief or IWCDRelief (:mod:`..variants.classdep`) and
expressed in the units of the data: the core measures a numeric
difference as a fraction of the column's range r_j, so the neighbours are
searched with distance weights r_j^2 (making the squared-diff distance
the Euclidean distance of the data) and the learnt weights are multiplied
by r_j (making |x_j - z_j| / r_j the paper's |x_j - z_j|).  The Orange
learner (``orangecontrib.relief.knn``) preprocesses the data and calls
these functions.
"""
import numpy as np

from .. import engines
from ..engines import preparation
from ..variants.classdep import ClassDependentRelief
from ..errors import ReliefInputError
from ..variants.estimators import relieff
from ..options import (K_CLASS_DEPENDENT, RANDOM_STATE, THRESHOLD, TIES,
                       PositiveInt, check, check_choice)
from ..targets import as_nominal_mask
from ..registry import CDRELIEF, IWCDRELIEF, RELIEFF
from ..validation import unchecked_instance, validated

__all__ = ["METHODS", "NEGATIVE", "THRESHOLDS", "column_ranges",
           "fit_class_weights", "iwcdrelief_class_weights", "predict_votes",
           "predict_votes_each", "class_votes", "winners", "accuracy",
           "accuracies",
           "stratified_folds", "cross_validated_threshold"]

#: weight learners: IWCDRelief, CDRelief (class-dependent), ReliefF (one
#: global vector) and "none" (all ones: plain kNN)
METHODS = (IWCDRELIEF.name, CDRELIEF.name, RELIEFF.name, "none")
NEGATIVE = ("clip", "square")
#: IWCDRelief's thresholds among which an inner cross-validation chooses
THRESHOLDS = tuple(round(0.1 * i, 1) for i in range(1, 10))
#: folds of that inner cross-validation
INNER_FOLDS = 5


def column_ranges(X, discrete):
    """r_j: the range of each numeric column over its known values (0 for
    a constant or all-missing column), 1 for nominal columns."""
    X = np.asarray(X, dtype=np.float64)
    discrete = as_nominal_mask(discrete, X.shape[1])
    ranges = np.ones(X.shape[1])
    for j in np.flatnonzero(~discrete):
        column = X[:, j]
        known = column[~np.isnan(column)]
        ranges[j] = np.ptp(known) if len(known) else 0.0
    return ranges


@validated(k="k_nearest")
def fit_class_weights(X, y, discrete, n_classes, *, method="IWCDRelief",
                      k=K_CLASS_DEPENDENT, threshold=THRESHOLD,
                      update="as_printed", n_iterations=None,
                      random_state=RANDOM_STATE, negative="clip",
                      search=None):
    """The (n_classes x attributes) weights w_{c, j} of eq. 1.

    In the units of the data as given (see the module docstring).  Classes
    without training instances get zero rows (they have no prototypes).
    With a single class or no attribute, every weight is 1.  `search` may
    be a ready :class:`ClassDependentRelief` of (X, y) with k_nearest >= k
    and the distance weights r_j^2 (the experiment reuses one search).
    """
    check_choice("method", method, METHODS)
    check_choice("negative", negative, NEGATIVE)
    X = np.asarray(X, dtype=np.float64)
    discrete = as_nominal_mask(discrete, X.shape[1])
    a = X.shape[1]
    ranges = column_ranges(X, discrete)
    known_y = y[~np.isnan(y)]
    if method == "none" or a == 0 or len(np.unique(known_y)) < 2:
        return np.ones((n_classes, a))
    if method == RELIEFF.name:
        weights = relieff.unchecked(X, y, discrete, k_nearest=k,
                          n_iterations=n_iterations,
                          random_state=random_state)
        weights = np.tile(weights, (n_classes, 1))
    else:
        if search is None:  # searched for k neighbours: the search's k
            search, k = unchecked_instance(
                ClassDependentRelief, X, y, discrete, k_nearest=k,
                n_iterations=n_iterations, random_state=random_state,
                distance_weights=ranges ** 2, n_classes=n_classes), None
        if method == CDRELIEF.name:
            weights = search.cdrelief(k)
        else:  # the threshold checked on entry
            weights = search.iwcdrelief_rows([threshold], update, k)[0]
    return _in_data_units(weights, ranges, negative)


def iwcdrelief_class_weights(search, ranges, thresholds, *,
                             k=K_CLASS_DEPENDENT, update="as_printed",
                             negative="clip"):
    """:func:`fit_class_weights` of IWCDRelief with each of the
    `thresholds`: a list of (n_classes x attributes) arrays, the
    thresholds' rules computed together from one
    :class:`ClassDependentRelief` `search`, made as
    :func:`fit_class_weights` makes it from the data (of two classes or
    more) whose :func:`column_ranges` are `ranges`."""
    check_choice("negative", negative, NEGATIVE)
    return [_in_data_units(weights, ranges, negative)
            for weights in search.iwcdrelief_thresholds(thresholds, update,
                                                        k)]


def _in_data_units(weights, ranges, negative):
    """Relief's weights times r_j (see the module docstring), 0 for NaN,
    and negative ones clipped to 0 where `negative` is "clip"."""
    weights = np.nan_to_num(weights * ranges, nan=0.0)
    if negative == "clip":
        weights = np.maximum(weights, 0.0)
    return weights


def predict_votes(train_X, train_y, class_weights, discrete, X, k,
                  ties=TIES):
    """Votes of the k prototypes nearest to each row of X by eq. 1.

    Returns ``(votes, first)``: (m, n_classes) votes and the place (0 =
    nearest) where each class's nearest voter's places begin (k if none).
    Nominal columns differ by 0 or 1.  Each prototype votes with its share
    of the k places: 1, or where the k-th distance is tied
    (``ties="share"``) r / t for each of the t tied prototypes that share
    the r places left, so that the vote does not depend on the order of
    the training rows; ``"lower-index"`` gives those places to the lower
    training indices.  Training rows of unknown class (NaN) are no
    prototypes.
    """
    return predict_votes_each(train_X, train_y, [class_weights], discrete,
                              X, k, ties)[0]


def predict_votes_each(train_X, train_y, class_weights, discrete, X, k,
                       ties=TIES):
    """:func:`predict_votes` with each of the weight matrices
    `class_weights` (a list of them), the searches made together: a list
    of ``(votes, first)``."""
    ties = check("ties", ties)
    train_X = np.asarray(train_X, dtype=np.float64)
    train_y = np.asarray(train_y, dtype=np.float64)
    k = PositiveInt()("k", k)
    for weights in class_weights:
        if np.ndim(weights) != 2 or np.shape(weights)[1] != train_X.shape[1]:
            raise ReliefInputError(
                f"class_weights must be a row of weights per class, one "
                f"per attribute ({train_X.shape[1]}), got shape "
                f"{np.shape(weights)}.")
    known = ~np.isnan(train_y)
    if not known.any():
        raise ReliefInputError("No training instance has a known class to "
                               "vote with.")
    train_X, train_y = train_X[known], train_y[known]
    squared = np.array(class_weights, dtype=float, ndmin=3) ** 2
    m, n_classes = len(X), squared.shape[1]
    k = min(k, len(train_X))
    labels = train_y.astype(np.int64)
    kernels = engines.kernels(engines.choose(m * np.size(train_X),
                                             (preparation.KNN,)))
    nearest = kernels.nearest_prototypes(
        np.ascontiguousarray(train_X, dtype=float), labels, squared,
        np.ascontiguousarray(discrete, dtype=bool),
        np.array(X, dtype=float, order="C"), k, ties)  # a copy: never read-only
    return [class_votes(lists, labels, n_classes) for lists in nearest]


def class_votes(lists, labels, n_classes):
    """(votes, first) of the prototypes' `lists` (one per query) of
    classes `labels`: each class's shares of the places and the first
    place of its nearest voter (k if none).  A list's only tie set whose
    members share fewer places than they are, the farthest, gives each
    r / t; the votes are counted in t-ths of a place, so that classes of
    equal votes have equal numbers."""
    m, counts = len(lists), lists.counts[:, 0]
    owner, classes = lists.owner, labels[lists.index]
    last = lists.offsets[1:] - 1
    partial = np.where(counts > 0, lists.share[np.maximum(last, 0)] < 1,
                       False)
    tied = np.where(partial, lists.tied[np.maximum(last, 0)], 1)
    # each entry's places in t-ths: t for a place of its own, r if tied
    whole = lists.share == 1
    parts = np.where(whole, tied[owner], lists.stop - lists.first)
    votes = np.zeros((m, n_classes))
    np.add.at(votes, (owner, classes), parts)
    first = np.full((m, n_classes), lists.k)
    np.minimum.at(first, (owner, classes), lists.first)
    return votes / tied[:, None], first


def winners(votes, first):
    """The class of each row of `votes` with the most votes; of those,
    the one whose nearest voter is nearest; of those, the lowest."""
    best = votes == votes.max(axis=1, keepdims=True)
    return np.argmin(np.where(best, first, np.iinfo(np.int64).max), axis=1)


def accuracy(train_X, train_y, class_weights, discrete, test_X, test_y, k,
             ties=TIES):
    """The share of `test_y` that eq. 1's kNN predicts right (ties of votes
    to the class whose nearest voter is nearer, :func:`winners`)."""
    return accuracies(train_X, train_y, [class_weights], discrete, test_X,
                      test_y, k, ties)[0]


def accuracies(train_X, train_y, class_weights, discrete, test_X, test_y, k,
               ties=TIES):
    """:func:`accuracy` with each of the weight matrices `class_weights` (a
    list), the searches made together (:func:`predict_votes_each`)."""
    return [float(np.mean(winners(votes, first) == test_y))
            for votes, first in predict_votes_each(
                train_X, train_y, class_weights, discrete, test_X, k, ties)]


def stratified_folds(y, n_folds, seed):
    """Fold number of each instance: every class dealt round-robin over the
    folds in a random order (numpy's default_rng(seed)); -1 (no fold) for
    an instance of unknown class (NaN)."""
    rng = np.random.default_rng(seed)
    y = np.asarray(y, dtype=np.float64)
    fold = np.full(len(y), -1, dtype=np.int64)
    offset = 0
    for c in np.unique(y[~np.isnan(y)]):
        members = rng.permutation(np.flatnonzero(y == c))
        fold[members] = (np.arange(len(members)) + offset) % n_folds
        offset += len(members)
    return fold


@validated(k="k_nearest")
def cross_validated_threshold(X, y, discrete, n_classes, *,
                              k=K_CLASS_DEPENDENT, update="as_text",
                              thresholds=THRESHOLDS, folds=INNER_FOLDS,
                              n_iterations=None, random_state=RANDOM_STATE,
                              negative="clip", unweighted=True):
    """IWCDRelief's threshold (eq. 5) with the best mean accuracy of a
    stratified `folds`-fold cross-validation on (X, y) alone (ties: the
    smaller threshold); with `unweighted`, None when the kNN without
    weights (all 1) does strictly better than every threshold.

    Qiu & He (2019) report the threshold best on the test data; choosing
    it on the training data keeps a test honest, and letting the plain kNN
    compete keeps weights that do not help on small classes from making
    the classifier worse.  One neighbour search per fold serves every
    threshold.  Instances of unknown class (NaN) take no part.
    """
    y = np.asarray(y, dtype=np.float64)
    known = ~np.isnan(y)
    X, y = np.asarray(X, dtype=np.float64)[known], y[known]
    fold = stratified_folds(y, folds, random_state)
    totals = np.zeros(len(thresholds) + 1)  # the last: no weights
    for f in range(folds):
        train, test = fold != f, fold == f
        if len(np.unique(y[train])) < 2 or not test.any():
            continue
        ranges = column_ranges(X[train], discrete)
        search = unchecked_instance(
            ClassDependentRelief, X[train], y[train], discrete, k_nearest=k,
            n_iterations=n_iterations, random_state=random_state,
            distance_weights=ranges ** 2, n_classes=n_classes)
        candidates = iwcdrelief_class_weights(
            search, ranges, thresholds, k=k, update=update,
            negative=negative)
        candidates.append(np.ones((n_classes, X.shape[1])))
        totals += accuracies(X[train], y[train], candidates, discrete,
                             X[test], y[test], k)
    best = int(np.argmax(totals[:-1]))  # the first of the best thresholds
    if unweighted and totals[-1] > totals[best]:
        return None
    return thresholds[best]

"""A k-nearest-neighbour classifier with class-dependent attribute weights.

The distance from a query y to a training prototype x uses the weights of
x's class (paper 001, eq. 1, the class-dependent weighted distance of
Marchiori 2013)::

    d(y, x) = sqrt( sum_j w_{c(x), j}^2 (y_j - x_j)^2 )

The weights are learnt on the training data with CDRelief or IWCDRelief
(:mod:`orangecontrib.relief.core.classdep`); ``method="ReliefF"`` uses one
global ReliefF vector for every class and ``method="none"`` all ones (plain
Euclidean kNN), as baselines with the same preprocessing and voting.

As in the paper, the data are z-scored (the default preprocessors also turn
nominal attributes into indicator columns and impute missing values with the
mean).  The weights are then expressed in the units of those z-scores: the
core measures a numeric difference as a fraction of the column's range r_j,
so the learner searches neighbours with distance weights r_j^2 (making the
core's squared-diff distance the Euclidean distance of the z-scores) and
multiplies the learnt weights by r_j (making |x_j - z_j| / r_j the paper's
|x_j - z_j|).  Negative weights are set to 0 by default (``negative="clip"``;
with ``"square"`` eq. 1 is used literally and the sign is lost).

Prediction: majority vote of the k nearest prototypes (ties of distance to
the lower training index); the probabilities are the vote shares; a tie of
votes goes to the class of the nearest prototype among the tied classes.
"""
import numpy as np

from Orange.classification import Learner, Model
from Orange.data.filter import HasClass
from Orange.preprocess import Continuize, Impute, Normalize, RemoveNaNColumns

from .core import ReliefInputError, relieff
from .core.classdep import ClassDependentRelief, UPDATES, cdw_nearest

__all__ = ["ClassDependentKNNLearner", "ClassDependentKNNModel", "METHODS",
           "fit_class_weights", "predict_votes"]

#: weight learners: "IWCDRelief", "CDRelief" (class-dependent), "ReliefF"
#: (one global vector) and "none" (all ones: plain kNN)
METHODS = ("IWCDRelief", "CDRelief", "ReliefF", "none")
NEGATIVE = ("clip", "square")


def _check_option(name, value, options):
    """Raise ValueError unless `value` is one of `options`."""
    if value not in options:
        raise ValueError(f"Unknown {name} {value!r}; use one of "
                         f"{', '.join(options)}.")


def column_ranges(X, discrete):
    """r_j: the range of each numeric column over its known values (0 for
    a constant or all-missing column), 1 for nominal columns."""
    ranges = np.ones(X.shape[1])
    for j in np.flatnonzero(~discrete):
        column = X[:, j]
        known = column[~np.isnan(column)]
        ranges[j] = np.ptp(known) if len(known) else 0.0
    return ranges


def fit_class_weights(X, y, discrete, n_classes, *, method="IWCDRelief", k=5,
                      threshold=0.5, update="as_printed", n_iterations=None,
                      random_state=0, negative="clip", search=None):
    """The (n_classes x attributes) weights w_{c, j} of eq. 1.

    In the units of the data as given (see the module docstring).  Classes
    without training instances get zero rows (they have no prototypes).
    With a single class or no attribute, every weight is 1.  `search` may
    be a ready :class:`ClassDependentRelief` of (X, y) with k_nearest >= k
    and the distance weights r_j^2 (the experiment reuses one search).
    """
    _check_option("method", method, METHODS)
    _check_option("negative", negative, NEGATIVE)
    a = X.shape[1]
    ranges = column_ranges(X, discrete)
    known_y = y[~np.isnan(y)]
    if method == "none" or a == 0 or len(np.unique(known_y)) < 2:
        return np.ones((n_classes, a))
    if method == "ReliefF":
        weights = relieff(X, y, discrete, k_nearest=k,
                          n_iterations=n_iterations,
                          random_state=random_state)
        weights = np.tile(weights, (n_classes, 1))
    else:
        if search is None:
            search = ClassDependentRelief(
                X, y, discrete, k_nearest=k, n_iterations=n_iterations,
                random_state=random_state, distance_weights=ranges ** 2,
                n_classes=n_classes)
        if method == "CDRelief":
            weights = search.cdrelief(k)
        else:
            weights = search.iwcdrelief(threshold, update, k)
    weights = np.nan_to_num(weights * ranges, nan=0.0)
    if negative == "clip":
        weights = np.maximum(weights, 0.0)
    return weights


def predict_votes(train_X, train_y, class_weights, discrete, X, k):
    """Votes of the k prototypes nearest to each row of X by eq. 1.

    Returns ``(votes, first)``: (m, n_classes) vote counts and the rank
    (0 = nearest) of each class's nearest voting prototype (k if none).
    Nominal columns differ by 0 or 1; ties of distance go to the lower
    training index.
    """
    m, n_classes = len(X), class_weights.shape[0]
    k = min(k, len(train_X))
    labels = train_y.astype(np.int64)
    nearest = cdw_nearest(
        np.ascontiguousarray(train_X, dtype=float), labels,
        np.ascontiguousarray(class_weights, dtype=float) ** 2,
        np.ascontiguousarray(discrete, dtype=bool),
        np.ascontiguousarray(X, dtype=float), k)
    votes = np.zeros((m, n_classes))
    first = np.full((m, n_classes), k)
    rows = np.arange(m)
    for rank in range(k - 1, -1, -1):
        votes[rows, labels[nearest[:, rank]]] += 1
        first[rows, labels[nearest[:, rank]]] = rank
    return votes, first


class ClassDependentKNNModel(Model):
    """Stores the (preprocessed) training data and the class weights.

    Attributes
    ----------
    class_weights : array (n_classes, n_attributes)
        w_{c, j} of eq. 1, for the attributes of ``self.domain`` (the
        preprocessed data).
    """

    def __init__(self, domain, train_X, train_y, class_weights, discrete,
                 fill, k):
        super().__init__(domain)
        self.train_X = train_X
        self.train_y = train_y
        self.class_weights = class_weights
        self.discrete = discrete
        self.fill = fill
        self.k = k

    def predict(self, X):
        X = np.where(np.isnan(X), self.fill, X)
        votes, first = predict_votes(self.train_X, self.train_y,
                                     self.class_weights, self.discrete, X,
                                     self.k)
        probs = votes / votes.sum(axis=1, keepdims=True)
        key = votes * (self.k + 1) - first
        return np.argmax(key, axis=1).astype(float), probs


class ClassDependentKNNLearner(Learner):
    """kNN with class-dependent weights learnt by (IW)CDRelief (eq. 1).

    Parameters
    ----------
    k : int
        Neighbours of the classifier and of the Relief weighting (the paper
        uses the same k for both).
    method : "IWCDRelief", "CDRelief", "ReliefF" or "none"
        How the weights are learnt (see :data:`METHODS`).
    threshold : float in [0, 1]
        IWCDRelief's instance-weight threshold (eq. 5).
    update : "as_printed" or "as_text"
        IWCDRelief's reading of eq. 6.
    n_iterations : int or None
        References per class (None: every training instance).
    random_state : int
        Seed of the reference sampling.
    negative : "clip" or "square"
        Negative weights set to 0, or squared as eq. 1 is written.
    preprocessors
        Default: HasClass, Continuize, RemoveNaNColumns, Impute (mean) and
        Normalize (z-score).
    """
    name = "class-dependent kNN"
    preprocessors = [HasClass(), Continuize(), RemoveNaNColumns(), Impute(),
                     Normalize(norm_type=Normalize.NormalizeBySD)]
    __returns__ = ClassDependentKNNModel

    def __init__(self, k=5, method="IWCDRelief", threshold=0.5,
                 update="as_printed", n_iterations=None, random_state=0,
                 negative="clip", preprocessors=None):
        super().__init__(preprocessors=preprocessors)
        _check_option("method", method, METHODS)
        _check_option("update", update, UPDATES)
        self.k = k
        self.method = method
        self.threshold = threshold
        self.update = update
        self.n_iterations = n_iterations
        self.random_state = random_state
        self.negative = negative
        self.params = dict(k=k, method=method, threshold=threshold,
                           update=update, n_iterations=n_iterations,
                           random_state=random_state, negative=negative)

    def fit_storage(self, data):
        domain = data.domain
        X = np.asarray(data.X, dtype=float)
        y = np.asarray(data.Y, dtype=float).ravel()
        known = ~np.isnan(y)
        X, y = X[known], y[known]
        if len(y) == 0:
            raise ValueError("The training data has no instances with a "
                             "known class.")
        discrete = np.array([var.is_discrete for var in domain.attributes],
                            dtype=bool)
        fill = _fill_values(X, discrete)
        try:
            weights = fit_class_weights(
                X, y, discrete, len(domain.class_var.values),
                method=self.method, k=self.k, threshold=self.threshold,
                update=self.update, n_iterations=self.n_iterations,
                random_state=self.random_state, negative=self.negative)
        except ReliefInputError as error:
            raise ValueError(str(error)) from None
        X = np.where(np.isnan(X), fill, X)
        return ClassDependentKNNModel(domain, X, y, weights, discrete, fill,
                                      self.k)


def _fill_values(X, discrete):
    """Column means (numeric) or modes (nominal) for missing values that
    reach the model when the default imputation was replaced."""
    fill = np.zeros(X.shape[1])
    for j in range(X.shape[1]):
        known = X[~np.isnan(X[:, j]), j]
        if len(known) == 0:
            continue
        if discrete[j]:
            fill[j] = np.bincount(known.astype(np.int64)).argmax()
        else:
            fill[j] = known.mean()
    return fill

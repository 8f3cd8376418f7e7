"""A k-nearest-neighbour classifier with class-dependent attribute weights.

The distance from a query y to a training prototype x uses the weights of
x's class (Qiu & He 2019, eq. 1, the class-dependent weighted distance of
Marchiori 2013); :mod:`orangecontrib.relief.core.analysis.weighted_knn` learns the
weights with CDRelief or IWCDRelief and finds the prototypes.
``method="ReliefF"`` uses one global ReliefF vector for every class and
``method="none"`` all ones (plain Euclidean kNN), as baselines with the
same preprocessing and voting.

As in the paper, the data are z-scored (the default preprocessors also turn
nominal attributes into indicator columns and impute missing values with the
mean), and the weights are expressed in the units of those z-scores.
Negative weights are set to 0 by default (``negative="clip"``; with
``"square"`` eq. 1 is used literally and the sign is lost).

Sparse tables are made dense (the distances are dense anyway) and instance
weights are ignored, as by the add-on's scorers.

Prediction: majority vote of the k nearest prototypes (the prototypes
tied at the k-th distance share the places left, each voting with its
share); the probabilities are the vote shares; a tie of votes goes to the
class of the nearest prototype among the tied classes.
"""
import numpy as np
import scipy.sparse as sp

from Orange.classification import Learner, Model
from Orange.data.filter import HasClass
from Orange.data import Domain, Table
from Orange.preprocess import Continuize, Impute, RemoveNaNColumns
from Orange.preprocess.preprocess import Preprocess
from Orange.preprocess.transformation import (Indicator, Indicator1,
                                             Transformation)

from .arrays import table_arrays, without_weights
from .core import ReliefInputError
from .core.variants.classdep import UPDATES
from .core.options import (K_CLASS_DEPENDENT, RANDOM_STATE, THRESHOLD,
                           check, check_choice, check_needs)
from .core.validation import validated
from .core.analysis.weighted_knn import (METHODS, NEGATIVE,
                                         cross_validated_threshold,
                                         fit_class_weights, predict_votes,
                                         winners)

__all__ = ["ClassDependentKNNLearner", "ClassDependentKNNModel", "METHODS"]


class ScaledZScore(Transformation):
    """(x / scale - mean) / sd: the z-score of x, from the column divided
    by `scale` (its largest absolute value), whose mean and sd are those of
    the divided column.  A sparse column gives a dense one (a z-score is
    seldom 0), as Orange's Indicator1 does."""

    def __init__(self, variable, scale, mean, sd):
        super().__init__(variable)
        self.scale, self.mean, self.sd = scale, mean, sd

    def transform(self, c):
        if sp.issparse(c):
            c = c.toarray().ravel()
        return (np.asarray(c, dtype=float) / self.scale - self.mean) / self.sd

    def __eq__(self, other):
        return (super().__eq__(other) and
                (self.scale, self.mean, self.sd)
                == (other.scale, other.mean, other.sd))

    def __hash__(self):
        return hash((super().__hash__(), self.scale, self.mean, self.sd))


class Standardize(Preprocess):
    """Z-scores of the numeric attributes (Qiu & He 2019 z-score their
    data), safe near the limits of float64: each column is divided by its
    largest absolute value before its mean and standard deviation are
    taken, where Orange's Normalize squares the values themselves (which
    overflows from about 1e154 and vanishes below about 1e-162).  A
    constant column keeps sd 1; a column of zeros or without known values
    is left as it is, and so are the 0/1 indicators that Continuize makes
    of a nominal attribute (z-scored, a rare value's indicator would
    outweigh every numeric attribute)."""

    def __call__(self, data):
        attributes = [self.standardized(data, var)
                      for var in data.domain.attributes]
        return data.transform(Domain(attributes, data.domain.class_vars,
                                     data.domain.metas))

    @staticmethod
    def is_indicator(var):
        """Whether `var` is Continuize's 0/1 indicator of a nominal value,
        possibly behind later transformations (an imputation)."""
        transformation = var.compute_value
        while transformation is not None:
            if isinstance(transformation, (Indicator, Indicator1)):
                return True
            transformation = getattr(getattr(transformation, "variable",
                                             None), "compute_value", None)
        return False

    def standardized(self, data, var):
        if not var.is_continuous or self.is_indicator(var):
            return var
        column = data.get_column(var)
        known = column[~np.isnan(column)]
        scale = np.max(np.abs(known)) if len(known) else 0.0
        if not (np.isfinite(scale) and scale > 0):
            return var
        divided = known / scale
        sd = divided.std()
        return var.copy(compute_value=ScaledZScore(
            var, scale, divided.mean(), sd if sd > 0 else 1.0))


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

    def predict_storage(self, data):
        """Predictions for a table in the model's domain (through
        :func:`~.arrays.table_arrays`, which makes a sparse one dense)."""
        if isinstance(data, Table):
            return self.predict(table_arrays(data, self.name).X)
        return super().predict_storage(data)

    def predict(self, X):
        X = np.where(np.isnan(X), self.fill, X)
        votes, first = predict_votes(self.train_X, self.train_y,
                                     self.class_weights, self.discrete, X,
                                     self.k)
        probs = votes / votes.sum(axis=1, keepdims=True)
        return winners(votes, first).astype(float), probs


class ClassDependentKNNLearner(Learner):
    """kNN with class-dependent weights learnt by (IW)CDRelief (eq. 1).

    Parameters
    ----------
    k : int
        Neighbours of the classifier and of the Relief weighting (the paper
        uses the same k for both).
    method : "IWCDRelief", "CDRelief", "ReliefF" or "none"
        How the weights are learnt (see :data:`METHODS`).
    threshold : float in [0, 1] or None
        IWCDRelief's instance-weight threshold (eq. 5); None (default):
        chosen among 0.1 .. 0.9 by a stratified 5-fold cross-validation on
        the training data, where the kNN without weights competes too
        (:func:`~.core.analysis.weighted_knn.cross_validated_threshold`; the model's
        ``threshold`` and ``method`` tell which won).
    update : "as_text" or "as_printed"
        IWCDRelief's reading of eq. 6; "as_text" (default) is the one that
        reproduces the paper's results (see doc/classdep.md).
    n_iterations : int or None
        References per class (None: every training instance).
    random_state : int
        Seed of the reference sampling.
    negative : "clip" or "square"
        Negative weights set to 0, or squared as eq. 1 is written.
    preprocessors
        Default: HasClass, Continuize, RemoveNaNColumns, Impute (mean) and
        :class:`Standardize` (z-scores).
    """
    name = "class-dependent kNN"
    preprocessors = [HasClass(), Continuize(), RemoveNaNColumns(), Impute(),
                     Standardize()]
    __returns__ = ClassDependentKNNModel

    @validated(k="k_nearest", threshold=None)  # None: cross-validation
    def __init__(self, k=K_CLASS_DEPENDENT, method="IWCDRelief",
                 threshold=None, update="as_text", n_iterations=None,
                 random_state=RANDOM_STATE, negative="clip",
                 preprocessors=None):
        super().__init__(preprocessors=preprocessors)
        check_choice("method", method, METHODS)
        check_choice("update", update, UPDATES)
        check_choice("negative", negative, NEGATIVE)
        if threshold is not None:
            threshold = check("threshold", threshold)
        check_needs("threshold", threshold, None, "method='IWCDRelief'",
                    method == "IWCDRelief")
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

    def preprocess(self, data, progress_callback=None):
        """The preprocessors applied to `data` without its instance weights
        (ignored; Orange's Impute fails on a weighted table)."""
        return super().preprocess(without_weights(data), progress_callback)

    def fit_storage(self, data):
        domain = data.domain
        X, y, discrete, _ = table_arrays(data, self.name)
        known = ~np.isnan(y)
        X, y = X[known], y[known]
        if len(y) == 0:
            raise ValueError("The training data has no instances with a "
                             "known class.")
        fill = _fill_values(X, discrete)
        n_classes = len(domain.class_var.values)
        options = dict(k=self.k, update=self.update,
                       n_iterations=self.n_iterations,
                       random_state=self.random_state, negative=self.negative)
        method, threshold = self.method, self.threshold
        try:
            if threshold is None and method == "IWCDRelief":
                threshold = cross_validated_threshold.unchecked(
                    np.where(np.isnan(X), fill, X), y, discrete, n_classes,
                    **options)
                if threshold is None:  # the plain kNN did better
                    method = "none"
            weights = fit_class_weights.unchecked(
                X, y, discrete, n_classes, method=method,
                threshold=THRESHOLD if threshold is None else threshold,
                **options)
        except ReliefInputError as error:
            raise ValueError(str(error)) from None
        X = np.where(np.isnan(X), fill, X)
        model = ClassDependentKNNModel(domain, X, y, weights, discrete, fill,
                                       self.k)
        model.threshold, model.method = threshold, method
        return model


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

"""Orange scorers for the Relief family: drop-in replacements for Orange's.

``ReliefF(k_nearest=10)(table)`` returns one weight per attribute, in the
domain's order, so the scorers work wherever an Orange ``Scorer`` does
(e.g. ``Orange.preprocess.fss.SelectBestFeatures(method=ReliefF(), k=5)``).
Unlike Orange's built-ins, ``n_iterations=None`` (the default) uses every
instance once, in order, and missing values follow Kononenko's RELIEF-D.

Orange's Rank widget calls ``score_data(data)`` on its Scorer input and wants
one row per score column; :class:`RankScorer` adapts a scorer to that.
"""
import numpy as np
import scipy.sparse as sp

from Orange.data import ContinuousVariable, DiscreteVariable, Variable
from Orange.data.filter import HasClass
from Orange.preprocess.score import Scorer

from . import core


class ReliefScorer(Scorer):
    """Common ground of the Relief-family scorers.

    A subclass sets ``class_type`` and implements ``_weights(X, y, discrete,
    progress_callback)`` on plain arrays; this class turns an Orange table
    into those arrays (metas ignored, rows without a class dropped).
    """
    feature_type = Variable
    supports_sparse_data = False
    preprocessors = [HasClass()]

    def __call__(self, data, feature=None, *, progress_callback=None):
        """Weights of all attributes, or of `feature` (scored in the context
        of all attributes, as Relief's weights depend on the others)."""
        weights = self.score_table(data, progress_callback)
        if feature is None:
            return weights
        return weights[data.domain.attributes.index(data.domain[feature])]

    def score_data(self, data, feature=None):
        return self(data, feature)

    def score_table(self, data, progress_callback=None):
        """One weight per attribute of `data`, in domain order."""
        self._check_domain(data.domain)
        for preprocess in self.preprocessors:
            data = preprocess(data)
        if sp.issparse(data.X):
            raise ValueError(f"{self.friendly_name} does not support sparse "
                             f"data; convert it with `data.to_dense()`.")
        discrete = np.array([var.is_discrete for var in data.domain.attributes],
                            dtype=bool)
        return self._weights(data.X, data.Y, discrete, progress_callback)

    def _check_domain(self, domain):
        name = self.friendly_name
        if domain.class_var is None:
            raise ValueError(f"{name} requires data with a target variable.")
        if not isinstance(domain.class_var, self.class_type):
            kind = "categorical" if self.class_type is DiscreteVariable else "numeric"
            raise ValueError(f"{name} requires a {kind} target variable.")
        if not domain.attributes:
            raise ValueError(f"{name}: the data has no attributes to score.")

    def _weights(self, X, y, discrete, progress_callback):
        raise NotImplementedError


class _DiffOptions(ReliefScorer):
    """Parameters shared by the scorers: sampling and the diff transform."""

    def __init__(self, n_iterations=None, random_state=0, diff="linear",
                 t_eq=0.04, t_diff=0.10):
        self.n_iterations = n_iterations
        self.random_state = random_state
        self.diff = diff
        self.t_eq = t_eq
        self.t_diff = t_diff

    def _options(self, progress_callback):
        return dict(n_iterations=self.n_iterations,
                    random_state=self.random_state, diff=self.diff,
                    t_eq=self.t_eq, t_diff=self.t_diff,
                    progress_callback=progress_callback)


class Relief(_DiffOptions):
    """Kira & Rendell's Relief: one nearest hit and miss, two classes.

    See :func:`orangecontrib.relief.core.relief`.
    """
    class_type = DiscreteVariable
    friendly_name = "Relief"

    def _weights(self, X, y, discrete, progress_callback):
        return core.relief(X, y, discrete, **self._options(progress_callback))


class ReliefF(_DiffOptions):
    """Kononenko's ReliefF: k near hits and misses per class, class priors,
    RELIEF-D missing values.  See :func:`orangecontrib.relief.core.relieff`.
    """
    class_type = DiscreteVariable
    friendly_name = "ReliefF"

    def __init__(self, n_iterations=None, k_nearest=10, random_state=0,
                 diff="linear", t_eq=0.04, t_diff=0.10):
        super().__init__(n_iterations, random_state, diff, t_eq, t_diff)
        self.k_nearest = k_nearest

    def _weights(self, X, y, discrete, progress_callback):
        return core.relieff(X, y, discrete, k_nearest=self.k_nearest,
                            **self._options(progress_callback))


class RReliefF(_DiffOptions):
    """Robnik-Sikonja & Kononenko's RReliefF for a numeric target.

    See :func:`orangecontrib.relief.core.rrelieff`.
    """
    class_type = ContinuousVariable
    friendly_name = "RReliefF"

    def __init__(self, n_iterations=None, k_nearest=50, random_state=0,
                 weighting="exp_rank", sigma=None, diff="linear", t_eq=0.04,
                 t_diff=0.10):
        super().__init__(n_iterations, random_state, diff, t_eq, t_diff)
        self.k_nearest = k_nearest
        self.weighting = weighting
        self.sigma = sigma

    def _weights(self, X, y, discrete, progress_callback):
        return core.rrelieff(X, y, discrete, k_nearest=self.k_nearest,
                             weighting=self.weighting, sigma=self.sigma,
                             **self._options(progress_callback))


class RankScorer(Scorer):
    """A scorer as Orange's Rank widget takes it on its Scorer input.

    Rank calls ``score_data(data)`` and reads one row per score column, a
    ``name``, a ``class_type`` and ``learner_adequacy_err_msg``; the wrapped
    scorer keeps Orange's 1-D contract everywhere else.
    """
    learner_adequacy_err_msg = ""

    def __init__(self, scorer, name=None):
        self.scorer = scorer
        self.name = name or scorer.friendly_name

    @property
    def class_type(self):
        return self.scorer.class_type

    @property
    def feature_type(self):
        return self.scorer.feature_type

    @property
    def friendly_name(self):
        return self.name

    def __call__(self, data, feature=None):
        return self.scorer(data, feature)

    def score_data(self, data, feature=None):
        return np.atleast_2d(self.scorer(data, feature))

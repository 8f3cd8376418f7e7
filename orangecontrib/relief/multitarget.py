"""Orange scorers of tables with several class variables: multi-target
RReliefF (every class numeric) and multi-label ReliefF (every class
binary).

A scorer returns the overall ranking, one weight per attribute, as every
Orange scorer does (so ``SelectBestFeatures`` takes it); its
:meth:`~TargetScorer.target_rankings` gives the overall ranking and each
target's, from the same neighbour search, as an Orange table: a row per
attribute, a column per ranking named after its target.  Orange's Rank
widget scores data of one class only; the Relief widget, scripts and the
command line (``orange-relief rank FILE --class a,b,c``) take these.
"""
import numpy as np
import scipy.sparse as sp
from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                         StringVariable, Table, Variable)
from Orange.preprocess.score import Scorer

from .core.variants.multitarget import relieff_multilabel, rrelieff_multitarget
from .core.options import (DIFF, K_RELIEFF, K_RRELIEFF, RANDOM_STATE,
                           T_DIFF, T_EQ, TIES)
from .scorers import CheckedOnce

__all__ = ["MultiTargetRReliefF", "MultiLabelReliefF", "target_scorer"]


class TargetScorer(CheckedOnce, Scorer):
    """Common ground: the table's arrays, its class variables checked; the
    options checked once a call, or once for all calls of
    :meth:`~.scorers.CheckedOnce.checked`."""
    feature_type = Variable
    class_type = Variable
    supports_sparse_data = True
    preprocessors = []
    #: the core function that weighs the data
    estimator = None

    def __init__(self, n_iterations=None, k_nearest=None,
                 random_state=RANDOM_STATE, weighting="exp_rank", sigma=None,
                 diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF, ties=TIES,
                 missing="relief-d"):
        self.n_iterations = n_iterations
        self.k_nearest = k_nearest
        self.random_state = random_state
        self.weighting = weighting
        self.sigma = sigma
        self.diff = diff
        self.t_eq = t_eq
        self.t_diff = t_diff
        self.ties = ties
        self.missing = missing

    @classmethod
    def fits_targets(cls, class_vars):
        """Whether every class variable is of the scorer's kind and there
        are at least two."""
        return len(class_vars) >= 2 and all(map(cls.fits_target, class_vars))

    def _given_options(self):
        return dict(n_iterations=self.n_iterations, k_nearest=self.k_nearest,
                    random_state=self.random_state, weighting=self.weighting,
                    sigma=self.sigma, diff=self.diff, t_eq=self.t_eq,
                    t_diff=self.t_diff, ties=self.ties, missing=self.missing)

    def weights(self, data, progress_callback=None):
        """The core's :class:`~.core.variants.multitarget.TargetWeights` of
        `data`."""
        return self._estimate(data, progress_callback=progress_callback)

    def rescorer(self, data, progress_callback=None):
        """``rescore(Y)``: the TargetWeights of `data` with its targets'
        rows permuted, Y (n, t), from one neighbour search (the core's
        ``rescorer=True``), for
        :func:`~.core.analysis.target_rankings.target_permutation_test`."""
        return self._estimate(data, progress_callback=progress_callback,
                              rescorer=True)

    def ranking_names(self, data):
        """The names of the rankings: ``overall``, then the targets'."""
        return ["overall"] + [var.name for var in data.domain.class_vars]

    def check(self, data):
        """ValueError unless the scorer can weigh `data`: class variables
        of its kind, and attributes."""
        domain = data.domain
        if not self.fits_targets(domain.class_vars):
            raise ValueError(f"{self.friendly_name} needs {self.needs}.")
        if not domain.attributes:
            raise ValueError(f"{self.friendly_name}: the data has no "
                             f"attributes to score.")

    def _estimate(self, data, **extra):
        """The core estimator called on `data`'s arrays."""
        self.check(data)
        domain = data.domain
        X = data.X.toarray() if sp.issparse(data.X) else data.X
        discrete = np.array([var.is_discrete for var in domain.attributes])
        n_values = [len(var.values) if var.is_discrete else 0
                    for var in domain.attributes]
        return type(self).estimator.unchecked(
            np.asarray(X, np.float64), np.asarray(data.Y, np.float64),
            discrete, n_values=n_values,
            target_names=[var.name for var in domain.class_vars],
            **extra, **self._checked_once())

    def __call__(self, data, feature=None):
        """The overall weights of every attribute, or of `feature` (scored
        among all attributes)."""
        scores = self.weights(data).overall
        if feature is None:
            return scores
        return scores[data.domain.attributes.index(data.domain[feature])]

    def score_data(self, data, feature=None):
        return self(data, feature)

    def target_rankings(self, data, progress_callback=None):
        """A table of the rankings: a row per attribute (its name a meta),
        the overall weight and each target's, in columns named
        ``overall`` and after the targets."""
        weights = self.weights(data, progress_callback)
        domain = Domain([ContinuousVariable(name)
                         for name in self.ranking_names(data)],
                        metas=[StringVariable("attribute")])
        values = np.column_stack([weights.overall, weights.per_target.T])
        metas = np.array([[var.name] for var in data.domain.attributes],
                         dtype=object)
        return Table.from_numpy(domain, values, metas=metas)


class MultiTargetRReliefF(TargetScorer):
    """Multi-target RReliefF (Petkovic, Kocev & Dzeroski 2020) of a table
    whose class variables are all numeric; see
    :func:`orangecontrib.relief.core.variants.multitarget.rrelieff_multitarget`."""
    friendly_name = "Multi-target RReliefF"
    needs = "two or more numeric target variables"
    estimator = staticmethod(rrelieff_multitarget)

    def __init__(self, n_iterations=None, k_nearest=K_RRELIEFF, **options):
        super().__init__(n_iterations, k_nearest, **options)

    @staticmethod
    def fits_target(var):
        return isinstance(var, ContinuousVariable)


class MultiLabelReliefF(TargetScorer):
    """Multi-label ReliefF (Reyes, Morell & Ventura 2015) of a table whose
    class variables are all binary, a label present where its value is
    the second (code 1); see
    :func:`orangecontrib.relief.core.variants.multitarget.relieff_multilabel`."""
    friendly_name = "Multi-label ReliefF"
    needs = "two or more binary (two-valued) target variables"
    estimator = staticmethod(relieff_multilabel)

    def __init__(self, n_iterations=None, k_nearest=K_RELIEFF,
                 distance="hamming", weighting="equal", **options):
        super().__init__(n_iterations, k_nearest, weighting=weighting,
                         **options)
        self.distance = distance

    def _given_options(self):
        return dict(super()._given_options(), distance=self.distance)

    @staticmethod
    def fits_target(var):
        return isinstance(var, DiscreteVariable) and len(var.values) == 2


def target_scorer(class_vars, **options):
    """The scorer that fits these class variables (every one numeric, or
    every one binary), or a ValueError saying why none does."""
    for scorer in (MultiTargetRReliefF, MultiLabelReliefF):
        if scorer.fits_targets(class_vars):
            return scorer(**options)
    kinds = ", ".join(f"{var.name} ({kind_of(var)})" for var in class_vars)
    raise ValueError(f"Several targets need every one numeric (multi-target "
                     f"RReliefF) or every one binary (multi-label ReliefF); "
                     f"got {kinds}.")


def kind_of(var):
    """What a class variable is, in a message: numeric, or its values."""
    return ("numeric" if var.is_continuous
            else f"{len(var.values)} values")

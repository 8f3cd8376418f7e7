"""Selection by Relief weights as an Orange preprocessor, so that it runs
inside cross-validation.

Selecting attributes on all the data and then cross-validating a learner
on them lets the test folds choose the attributes: the accuracies come
out optimistic, on data with no signal at all far above chance.
:class:`SelectReliefFeatures` is a ``Preprocess``: given to a learner
(``learner.preprocessors``, a learner widget's Preprocessor input) or to
cross-validation (Test & Score's Preprocessor input,
``CrossValidation(..., preprocessor=...)``), it scores and selects on the
training data it gets, in each fold anew, and the test fold only meets
the selected attributes through the model.

Example::

    from Orange.classification import KNNLearner
    from orangecontrib.relief import ReliefF, SelectReliefFeatures
    learner = KNNLearner(preprocessors=[
        SelectReliefFeatures(ReliefF(), k=5)])
"""
import numpy as np

from Orange.data import Domain
from Orange.preprocess.preprocess import Preprocess

from .arrays import check_table
from .core.options import (ABSOLUTE, ADJUSTMENT, ALPHA, N_PERMUTATIONS,
                           R_COMPATIBLE, RANDOM_STATE, Interval, Optional,
                           PositiveInt, check_needs)
from .core.analysis.threshold import ranking_scores, select_features
from .core.validation import unchecked_instance, validated
from .multitarget import TargetScorer
from .resampled import attribute_scores
from .scorers import ReliefF, check_scorer
from .significance import TESTS, Significance

__all__ = ["SelectReliefFeatures", "CRITERIA"]

#: how the attributes are chosen, one at a time or together
CRITERIA = ("k", "fraction", "threshold", "significance")


class SelectReliefFeatures(Preprocess):
    """Keep the best attributes by a scorer's weights on the data given.

    Parameters
    ----------
    scorer : an Orange scorer (default ReliefF)
        Any of the add-on's scorers, or another Orange scorer.
    k : int or None
        Keep the k best attributes.
    fraction : float in (0, 1] or None
        Keep that share of the attributes, the best (at least one).
    threshold : float or None
        Keep the attributes whose weight exceeds it.
    significance : None, "stir" or "permutation"
        Keep the attributes whose adjusted p-value (q) is at most `alpha`
        (:class:`~orangecontrib.relief.significance.Significance`, with
        `adjustment`, `n_permutations` and `random_state`).
    alpha, adjustment, n_permutations, random_state, r_compatible
        Of the significance test.
    absolute : bool
        Rank the attributes, and compare them with `threshold`, by the
        magnitude of their weights: an attribute of large negative weight
        is kept too (Relief's own cut then keeps every attribute of a
        nonzero weight: give a number, a share or a threshold).

    The criteria given are combined (e.g. the k best of the significant
    ones); with none, the attributes of positive weight are kept (Relief's
    own cut: near instances of different classes differ in them more than
    near instances of the same class).  If no attribute passes, the best
    one is kept, so that every learner can be fitted; an attribute without
    a weight (NaN, such as NPDR's covariates) is never kept.  `k` and `fraction`
    exclude each other.  The kept attributes keep their order in the
    domain; the class and the metas are kept.
    """

    @validated(k=None, fraction=None, threshold=None)  # not the table's
    def __init__(self, scorer=None, *, k=None, fraction=None, threshold=None,
                 significance=None, alpha=ALPHA, adjustment=ADJUSTMENT,
                 n_permutations=N_PERMUTATIONS, random_state=RANDOM_STATE,
                 r_compatible=R_COMPATIBLE, absolute=ABSOLUTE):
        if k is not None and fraction is not None:
            raise ValueError("Give k or fraction, not both: both say how "
                             "many attributes to keep.")
        if significance is not None and significance not in TESTS:
            raise ValueError(f"significance must be None or one of "
                             f"{', '.join(map(repr, TESTS))}, got "
                             f"{significance!r}.")
        self.scorer = ReliefF() if scorer is None else check_scorer(
            scorer, "SelectReliefFeatures")
        self.k = Optional(PositiveInt(), "no cut by number")("k", k)
        self.fraction = Optional(Interval(0, 1), "no cut by share")(
            "fraction", fraction)
        if self.fraction == 0:
            raise ValueError("fraction must be above 0, got 0.")
        self.threshold = Optional(Interval(-np.inf), "no cut by weight")(
            "threshold", threshold)
        for name, value, default in (
                ("alpha", alpha, ALPHA), ("adjustment", adjustment, ADJUSTMENT),
                ("n_permutations", n_permutations, N_PERMUTATIONS),
                ("r_compatible", r_compatible, R_COMPATIBLE)):
            check_needs(name, value, default, "significance",
                        significance is not None)
        self.significance = significance
        self.absolute = absolute
        self.tester = None if significance is None else unchecked_instance(
            Significance, self.scorer, test=significance,
            adjustment=adjustment, alpha=alpha,
            n_permutations=n_permutations, random_state=random_state,
            r_compatible=r_compatible)

    def __call__(self, data):
        """`data` with only the selected attributes (the class and the
        metas kept)."""
        keep = set(self.selected(data))
        attributes = [var for i, var in enumerate(data.domain.attributes)
                      if i in keep]
        return data.transform(Domain(attributes, data.domain.class_vars,
                                     data.domain.metas))

    def selected(self, data):
        """The indices of the attributes of `data` to keep, best first."""
        if not isinstance(self.scorer, TargetScorer):  # it checks targets
            check_table(data, "Selection by weights")
        if self.tester is None:
            weights, passed = attribute_scores(self.scorer, data), None
        else:
            tested = self.tester.result(data)
            weights, passed = tested.weights, tested.significant
        return self.choose(weights, passed)

    def choose(self, weights, significant=None):
        """The indices of the attributes to keep by their `weights` and,
        with a test, which are `significant`, best first.  An attribute
        the scorer gave no weight (NaN, or -inf in Orange's scripted
        contract: NPDR's covariates, a column without a fit) is never
        kept."""
        weights = np.asarray(weights, dtype=np.float64)
        scored = ~(np.isnan(weights) | (weights == -np.inf))
        if not scored.any():
            raise ValueError("The scorer gave no attribute a weight (every "
                             "score is NaN or -inf): there is nothing to "
                             "select by.")
        weights = np.where(scored, ranking_scores.unchecked(weights,
                                                            self.absolute),
                           -np.inf)
        count = self.k
        if self.fraction is not None:
            count = max(1, int(round(self.fraction * len(weights))))
        threshold = self.threshold
        if (count is None and threshold is None and significant is None):
            threshold = 0.0  # Relief's own cut
        order = select_features.unchecked(weights, threshold, None, ABSOLUTE)
        order = order[scored[order]]
        if significant is not None:
            order = order[np.asarray(significant, bool)[order]]
        if count is not None:
            order = order[:count]
        if not len(order):  # keep the best, so that a learner can be fitted
            order = select_features.unchecked(weights, None, 1, ABSOLUTE)
        return order

    @property
    def criteria(self):
        """What the selection keeps, in words (for reports)."""
        parts = []
        if self.significance is not None:
            parts.append(f"significant by {self.significance} at q <= "
                         f"{self.tester.alpha:g}")
        if self.threshold is not None:
            parts.append(f"weight above {self.threshold:g}")
        if self.k is not None:
            parts.append(f"the {self.k} best")
        elif self.fraction is not None:
            parts.append(f"the best {self.fraction:.0%}")
        text = ", ".join(parts) or "positive weight"
        if self.absolute:
            text = (text.replace("weight", "|weight|") +
                    ", ranked by |weight|")
        return text

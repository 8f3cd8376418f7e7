"""Which attributes are significant, for Orange tables.

:class:`Significance` wraps a scorer of :mod:`.scorers` and tests every
attribute: STIR (Le et al. 2019) over its neighbour pairs, permutations
of the class, or for :class:`~.scorers.NPDR` its own regressions; the
p-values are adjusted for testing all attributes (Benjamini-Hochberg by
default).  Called as a scorer it returns
-log10(q), so that Rank sorts by significance and ``SelectBestFeatures``
keeps the most significant (-inf where q is NaN, last);
:meth:`Significance.result` gives the weights, p- and q-values and the
attributes significant at `alpha`.
STIR gives no verdict (p NaN, never significant) where the evidence
cannot hold one; the result's `note` says for which attributes and why
(of NPDR's own p-values: the attributes whose fit did not converge, whose
p mean nothing).
"""
from collections import namedtuple

import numpy as np

from Orange.data import DiscreteVariable, Variable
from Orange.preprocess.score import Scorer

from .core.analysis import significance, target_rankings
from .core.options import (ADJUSTMENT, ALPHA, N_PERMUTATIONS, R_COMPATIBLE,
                           RANDOM_STATE, VARIANCE, check_choice, check_needs)
from .core.validation import validated
from .arrays import check_table, without_weights
from .multitarget import TargetScorer
from .scorers import (NPDR, MultiSURF, ReliefScorer, check_scorer, checked,
                      convergence_note, fits, of_feature, table_scores)

__all__ = ["Significance", "SignificanceResult", "TESTS",
           "SIGNIFICANCE_COLUMN"]

#: how an attribute is tested
TESTS = ("stir", "permutation", "regression")
#: why a test other than the permutation test cannot test the rankings
#: of several targets
NOT_OF_TARGETS = {
    "stir": "STIR compares the pairs of the same and of different classes "
            "of one categorical class",
    "regression": "the regressions are NPDR's, of one target"}

SignificanceResult = namedtuple("SignificanceResult", [
    "weights",      # (a,) the scorer's weights (STIR: mean miss - hit diff)
    "p",            # (a,) p-values
    "q",            # (a,) p-values adjusted for testing every attribute
    "significant",  # (a,) bool: q <= alpha
    "alpha",
    "test",         # "stir", "permutation" or "regression"
    "adjustment",   # "bh", "holm" or "bonferroni"
    "note",         # which attributes STIR gave no verdict and why, or
                    # whose NPDR fit did not converge, or None
])

#: the name of the Rank widget's column of every test: what it holds,
#: -log10 of the adjusted p-value, short enough for Rank's narrow columns
#: (whose tooltip is the name again); higher is more significant, as
#: Rank's descending sort wants
SIGNIFICANCE_COLUMN = "\u2212log\u2081\u2080q"


class Significance(Scorer):
    """Significance of every attribute's Relief weight.

    Parameters
    ----------
    scorer : a scorer of :mod:`.scorers` (default MultiSURF)
    test : "stir", "permutation" or "regression"
        STIR tests the diffs of the neighbour pairs of different classes
        against those of the same class; it needs a categorical class and a
        ReliefF, SURF-family or SWRF-family scorer (their neighbour pairs:
        the SWRF family's weighted by their sigmoid weights, as the
        scorer's `convention` takes them).  A permutation test works with
        any scorer and class.  "regression"
        takes the p-values of :class:`~.scorers.NPDR`'s own fits (either
        class, with its covariates).
    adjustment : "bh", "holm" or "bonferroni"
    alpha : float
        The level at which an attribute counts as significant.
    n_permutations, random_state
        Of the permutation test.
    variance : "population" or "sample"
        STIR's variances (:func:`.core.analysis.significance.stir_test`): the
        paper's, or the sample's.
    r_compatible : bool
        STIR's pairs as the authors' R package finds and weighs them
        (:func:`.core.analysis.significance.stir`), to match a published R
        analysis; False (default): the paper's.  The R package has no
        weighted neighbours: refused for the SWRF family.
    """
    feature_type = Variable
    supports_sparse_data = True
    friendly_name = "Significance"

    @validated
    def __init__(self, scorer=None, test="stir", adjustment=ADJUSTMENT,
                 alpha=ALPHA, n_permutations=N_PERMUTATIONS,
                 random_state=RANDOM_STATE, variance=VARIANCE,
                 r_compatible=R_COMPATIBLE):
        self.scorer = MultiSURF() if scorer is None else check_scorer(
            scorer, "Significance")
        self.test = check_choice("test", test, TESTS)
        self.adjustment, self.alpha = adjustment, alpha
        self.n_permutations = n_permutations
        self.random_state = random_state
        self.variance, self.r_compatible = variance, r_compatible
        check_needs("n_permutations", n_permutations, N_PERMUTATIONS,
                    "test='permutation'", test == "permutation")
        for name, value, default in (("variance", variance, VARIANCE),
                                     ("r_compatible", r_compatible,
                                      R_COMPATIBLE)):
            check_needs(name, value, default, "test='stir'", test == "stir")
        if isinstance(self.scorer, TargetScorer) and test != "permutation":
            raise ValueError(
                f"{self.scorer.friendly_name} weighs several targets, which "
                f"only test='permutation' tests (the targets' rows "
                f"permuted together): {NOT_OF_TARGETS[test]}.")
        if test == "stir":
            self._check_stir()
        if test == "regression" and not isinstance(self.scorer, NPDR):
            raise ValueError(
                f"test='regression' takes the p-values of NPDR's own fits; "
                f"use test='permutation' with {self.scorer.friendly_name}.")
        self.friendly_name = SIGNIFICANCE_COLUMN

    @property
    def neighbourhood(self):
        """The neighbourhood whose pairs STIR tests for the scorer: its
        variant's (:attr:`.core.registry.Variant.stir`); None where STIR
        cannot test it."""
        return getattr(getattr(self.scorer, "variant", None), "stir", None)

    def _check_stir(self):
        if self.neighbourhood is None:
            raise ValueError(
                f"STIR tests the neighbour pairs of "
                f"{significance.STIR_METHODS}; use test='permutation' with "
                f"{self.scorer.friendly_name}.")
        significance.check_r_pairs(self.neighbourhood, self.r_compatible,
                                   self.scorer.friendly_name)

    @property
    def class_type(self):
        if self.test == "stir":
            return DiscreteVariable
        return self.scorer.class_type

    def fits(self, class_var):
        """Whether the test can run on data with `class_var`."""
        if self.test == "stir":
            return isinstance(class_var, DiscreteVariable)
        return fits(self.scorer, class_var)

    def __call__(self, data, feature=None, *, progress_callback=None):
        """-log10 of every attribute's adjusted p-value (or `feature`'s);
        -inf where a weighed attribute has none (STIR's no verdict), so
        that it sorts last (Rank, ``SelectBestFeatures``: a NaN would sort
        anywhere); NaN where an attribute is not weighed (NPDR's
        covariates), as the scorer's own weight."""
        result = self.result(data, progress_callback)
        q = result.q
        with np.errstate(invalid="ignore"):
            # 0.0 - ...: -log10(1) is 0, not -0
            scores = 0.0 - np.log10(np.maximum(q, np.finfo(float).tiny))
        scores = np.where(np.isnan(q), -np.inf, scores)
        scores[np.isnan(result.weights)] = np.nan
        return of_feature(data, scores, feature)

    def score_data(self, data, feature=None):
        return self(data, feature)

    def result(self, data, progress_callback=None):
        """The :data:`SignificanceResult` of every attribute of `data`."""
        return self.scores_and_result(data, progress_callback)[1]

    @property
    def scores_too(self):
        """Whether :meth:`scores_and_result` gives the scorer's scores with
        the test (from the same pass): NPDR's regressions, and STIR of a
        SURF- or SWRF-family method on the paper's pairs."""
        return self.test == "regression" or (
            self.test == "stir" and self.neighbourhood != "relieff"
            and not self.r_compatible)

    def scores_and_result(self, data, progress_callback=None):
        """(the scorer's scores of `data`, or None, and the
        :data:`SignificanceResult`): the scores, the very ones the scorer
        gives, where the test computes them in its own pass
        (:attr:`scores_too`), so that a caller who wants both needs one
        pass over the neighbours."""
        if isinstance(self.scorer, TargetScorer):
            return None, self.target_results(data, progress_callback)[
                "overall"]
        check_table(data, "A significance test")
        if self.test == "stir" and not self.fits(data.domain.class_var):
            raise ValueError("STIR needs a categorical class; use "
                             "test='permutation' for a numeric one.")
        note = scores = None
        if self.test == "regression":
            result = self.scorer.result(data, progress_callback)
            weights, p = result.coefficient, result.p
            scores = weights
            note = convergence_note(result, data)
        elif self.test == "stir":
            scores, result = self._stir(self.scorer.arrays(data),
                                        progress_callback)
            weights, p = result.score, result.p
            note = significance.no_verdict(
                result, [a.name for a in data.domain.attributes])
        else:
            weights, p = self._permutations(data, progress_callback)
        return scores, self._result(weights, p, note)

    def _result(self, weights, p, note=None):
        """The SignificanceResult of the `weights` and their p-values,
        adjusted for testing every attribute."""
        q = significance.adjust.unchecked(p, self.adjustment)
        return SignificanceResult(
            weights, p, q, significance.significant.unchecked(q, self.alpha),
            self.alpha, self.test, self.adjustment, note)

    def target_results(self, data, progress_callback=None):
        """{ranking: SignificanceResult} of a scorer of several targets
        (:class:`~.multitarget.MultiTargetRReliefF`,
        :class:`~.multitarget.MultiLabelReliefF`): the overall ranking's
        (``"overall"``) and each target's (by its name), all from the same
        permutations of the targets' rows
        (:func:`.core.analysis.target_rankings.target_permutation_test`), each
        ranking's p-values adjusted over its attributes."""
        if not isinstance(self.scorer, TargetScorer):
            raise ValueError(
                f"target_results tests the rankings of a scorer of several "
                f"targets (MultiTargetRReliefF, MultiLabelReliefF), not "
                f"{self.scorer.friendly_name}.")
        observed, p = target_rankings.target_permutation_test.unchecked(
            self.scorer.rescorer(data), data.Y, self.n_permutations,
            self.random_state, progress_callback)
        return {name: self._result(weights, p_values) for name, weights,
                p_values in zip(self.scorer.ranking_names(data), observed, p)}

    def _stir(self, arrays, progress_callback):
        """STIR of the scorer's neighbourhood with the scorer's options (of
        its variant: the references, the diff, ReliefF's k and ties, the
        deviation and the convention of the methods that take them)."""
        return significance.stir_and_weights.unchecked(  # checked: the
            arrays.X, arrays.y, arrays.discrete,      # scorer's, and ours
            neighbourhood=self.neighbourhood, variance=self.variance,
            r_compatible=self.r_compatible,
            **self.scorer._options(progress_callback))

    def _permutations(self, data, progress_callback):
        if isinstance(self.scorer, ReliefScorer):
            arrays = self.scorer.arrays(data)
            rescore, y = self.scorer.rescorer(arrays), arrays.y
        else:
            rescore, y = table_rescorer(self.scorer, data), data.Y
        return significance.permutation_test.unchecked(
            rescore, y, self.n_permutations, self.random_state,
            progress_callback)


def table_rescorer(scorer, data):
    """``rescore(y)``: any Orange scorer's scores of `data` with the class
    values `y` (for :func:`~.core.analysis.significance.permutation_test`)."""
    check_table(data, type(scorer).__name__)
    # one copy, its class rewritten for each target; without instance
    # weights, which the add-on ignores (Orange's scorers would read them)
    permuted = without_weights(data).copy()
    scorer = checked(scorer)  # once, whatever the permutations

    def rescore(target):
        with permuted.unlocked(permuted.Y):
            permuted.Y[:] = np.reshape(target, permuted.Y.shape)
        return table_scores(scorer, permuted)

    return rescore

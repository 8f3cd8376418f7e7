"""The consensus of several scorers' rankings: mean rank and Borda's count
by hand, ties and unscored attributes, any Orange scorer."""
import numpy as np
import pytest
from numpy.testing import assert_array_equal
from Orange.classification import LogisticRegressionLearner
from Orange.data import ContinuousVariable, DiscreteVariable, Variable
from Orange.preprocess.score import ANOVA, InfoGain, Scorer

from orangecontrib.relief import Consensus, MultiSURF, ReliefF, RReliefF
from orangecontrib.relief.consensus import fractional_ranks
from orangecontrib.relief.rank import RankScorer


class Fixed(Scorer):
    """A scorer of given scores."""
    class_type = DiscreteVariable
    feature_type = ContinuousVariable

    def __init__(self, scores):
        self.scores = np.array(scores, dtype=float)

    def __call__(self, data, feature=None):
        return self.scores


def test_ranks_share_ties_and_put_nan_last():
    assert_array_equal(fractional_ranks([0.2, 0.9, 0.2, np.nan, 0.5]),
                       [3.5, 1, 3.5, 5, 2])


def test_mean_rank_and_borda_by_hand(heart):
    """Ranks (1, 2, 3, 4, 5, ...) and (2, 1, 5, 3, 4, ...) of 13
    attributes: mean ranks 1.5, 1.5, 4, 3.5, 4.5; Borda 11.5, 11.5, 9,
    9.5, 8.5."""
    first = np.arange(13, 0, -1.0)
    second = first.copy()
    second[[0, 1, 2, 3, 4]] = [12, 13, 9, 11, 10]
    scorers = [Fixed(first), Fixed(second)]
    mean_rank = Consensus(scorers)(heart)
    assert_array_equal(mean_rank[:5], [-1.5, -1.5, -4, -3.5, -4.5])
    borda = Consensus(scorers, method="borda")(heart)
    assert_array_equal(borda, 13 + mean_rank)
    assert Consensus(scorers)(heart, heart.domain.attributes[3]) == -3.5


def test_orange_scorers_and_learners_in_one_column_for_rank(heart):
    consensus = Consensus([ReliefF(), MultiSURF(), InfoGain(),
                           LogisticRegressionLearner()])
    assert consensus.fits(heart.domain.class_var)
    scores = consensus(heart)
    assert scores.shape == (13,) and (-13 <= scores).all()
    ranks = consensus.ranks(heart)
    assert ranks.shape == (4, 13)
    assert_array_equal(np.sort(ranks, axis=1)[0], np.arange(1, 14))
    column = RankScorer(consensus)
    assert column.name == "Consensus"
    assert column.score_data(heart).shape == (1, 13)
    assert isinstance(heart.domain.class_var, column.class_type)


def test_the_class_types_are_those_every_scorer_fits():
    both = Consensus([MultiSURF(), MultiSURF(n_iterations=5)])
    assert set(both.class_type) == {DiscreteVariable, ContinuousVariable}
    assert Consensus([MultiSURF(), ANOVA()]).class_type == (DiscreteVariable,)
    assert Consensus([ReliefF(), RReliefF()]).class_type == ()


@pytest.mark.parametrize("args, message", [
    (([ReliefF()],), "at least two"),
    (([ReliefF(), InfoGain()], "median"), "method must be"),
    ((None,), "takes a list of scorers, got None"),
    ((ReliefF(),), "takes a list of scorers"),
    (("ab",), "takes an Orange scorer, such as ReliefF\\(\\), got 'a'")])
def test_bad_consensus_is_refused(args, message):
    with pytest.raises(ValueError, match=message):
        Consensus(*args)


class Noisy(Scorer):
    """A scorer that warns at every call, as a learner of scikit-learn
    does of its own deprecations."""
    feature_type = Variable
    class_type = DiscreteVariable

    def score_data(self, data, feature=None):
        import warnings

        for _ in range(3):
            warnings.warn("a deprecation of the learner", FutureWarning)
        return np.arange(len(data.domain.attributes), dtype=float)


def test_the_scorers_warnings_are_summarised_once(heart):
    with pytest.warns(UserWarning) as caught:
        Consensus([ReliefF(), Noisy(), Noisy()])(heart)
    summary, = [str(w.message) for w in caught]
    assert summary.startswith("Consensus: its scorers warned 6 times")
    assert "FutureWarning: a deprecation of the learner (6x)" in summary

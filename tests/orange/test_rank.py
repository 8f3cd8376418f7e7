"""The adapters of the scorers to Orange's Rank widget
(orangecontrib.relief.rank): one score column per scorer, or one per class
value for a class-dependent scorer."""
import numpy as np
from numpy.testing import assert_allclose, assert_array_equal
from Orange.data import ContinuousVariable, DiscreteVariable

from orangecontrib.relief import (CDRelief, ClassDependentRankScorer,
                                  RankScorer, ReliefF, RReliefF)


def test_rank_scorer_passes_the_weights_as_one_row(heart):
    scorer = ReliefF(k_nearest=5)
    rank = RankScorer(scorer)
    # apart from Orange's own "ReliefF" column: k as a subscript
    assert rank.name == rank.friendly_name == "ReliefF\u2085"
    assert RankScorer(RReliefF(k_nearest=50)).name == "RReliefF\u2085\u2080"
    from orangecontrib.relief import MultiSURF
    assert RankScorer(MultiSURF()).name == "MultiSURF"
    assert rank.class_type is DiscreteVariable
    assert RankScorer(RReliefF()).class_type is ContinuousVariable
    assert RankScorer(scorer, name="mine").name == "mine"
    weights = scorer(heart)
    assert_array_equal(rank.score_data(heart), weights[None, :])
    assert_array_equal(rank(heart), weights)
    attribute = heart.domain.attributes[3]
    assert rank(heart, attribute) == weights[3]


def test_rank_scorer_names_columns_by_class_value(three_classes):
    data = three_classes
    rank = ClassDependentRankScorer(CDRelief(k_nearest=3))
    scores = rank.score_data(data)
    assert scores.shape == (4, 3)
    assert np.isnan(scores[3]).all()  # no instance has the fourth value
    # the labels Rank builds: shortname + "_" + str(i)
    labels = [rank.name + "_" + str(i) for i in range(1, 5)]
    assert labels == ["CDRelief for class x", "CDRelief for class y",
                      "CDRelief for class z", "CDRelief for class unused"]
    assert rank.name == "CDRelief" and rank.name + "!" == "CDRelief!"
    assert_allclose(rank(data), CDRelief(k_nearest=3)(data))

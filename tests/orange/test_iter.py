"""The Orange Iter scorer (orangecontrib.relief.scorers.Iter): the core's
rounds on a table's arrays, the scorers it wraps and those it refuses,
Rank's adapter."""
import numpy as np
import pytest
from numpy.testing import assert_array_equal
from Orange.data import Table
from Orange.preprocess.score import InfoGain

from orangecontrib.relief import (Iter, MultiSURF, MultiSWRF, RankScorer,
                                  ReliefF, RReliefF, TuRF)
from orangecontrib.relief.arrays import table_arrays
from orangecontrib.relief.core.variants.iterative import LAST_ROUND, iterated
from orangecontrib.relief.core.registry import by_name
from orangecontrib.relief.datasets import path


@pytest.fixture(scope="module")
def heart():
    return Table(path("heart_disease"))


def test_the_cores_rounds_on_the_tables_arrays(heart):
    arrays = table_arrays(heart, "Iter")
    expected = iterated(by_name("ReliefF"), arrays.X, arrays.y,
                        arrays.discrete, task=arrays.task, k_nearest=5,
                        max_rounds=3, absolute=True)
    scorer = Iter(ReliefF(k_nearest=5), max_rounds=3, absolute=True)
    result = scorer.result(heart)
    assert_array_equal(result.scores, expected.scores)
    assert result.stopped == LAST_ROUND and len(result.rounds) == 3
    assert_array_equal(scorer(heart), expected.scores)
    assert scorer(heart, heart.domain.attributes[2]) == expected.scores[2]


def test_the_default_wraps_multisurf_and_either_class(heart):
    housing = Table("housing")
    assert Iter().scorer.friendly_name == "MultiSURF"
    assert Iter().fits(housing.domain.class_var)
    assert not Iter(ReliefF()).fits(housing.domain.class_var)
    scores = Iter(RReliefF(k_nearest=10), max_rounds=2)(housing[:80])
    assert scores.shape == (len(housing.domain.attributes),)
    assert RankScorer(Iter(max_rounds=2)).score_data(heart).shape == (1, 13)


@pytest.mark.parametrize("scorer", [MultiSWRF(), InfoGain(),
                                    TuRF(MultiSURF())],
                         ids=["MultiSWRF", "InfoGain", "TuRF"])
def test_a_scorer_without_distance_weights_is_refused(scorer):
    with pytest.raises(ValueError, match="Iter weights the distance of the "
                                         "scorer it wraps, one of Relief, "
                                         "ReliefF"):
        Iter(scorer)


def test_bad_options_are_named(heart):
    with pytest.raises(ValueError, match="beta must be a number between 0 "
                                         "and 1, got -0.5"):
        Iter(beta=-0.5)(heart)
    with pytest.raises(ValueError, match="Iter takes an Orange scorer"):
        Iter("ReliefF")


def test_repeatable_and_the_table_untouched(heart):
    before = heart.X.copy()
    first, second = Iter(max_rounds=2)(heart), Iter(max_rounds=2)(heart)
    assert_array_equal(first, second)
    assert_array_equal(heart.X, before)
    assert np.isfinite(first).all()


def test_score_table_and_references_are_the_wrapped_scorers(heart):
    scorer = Iter(ReliefF(k_nearest=5, n_iterations=40), max_rounds=2)
    assert scorer.n_iterations == 40
    assert Iter().n_iterations is None
    assert_array_equal(scorer.score_table(heart), scorer.result(heart).scores)

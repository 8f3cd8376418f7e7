"""Attribute-set selection on Orange tables (orangecontrib.relief.selection):
the wrapper measure, select / reduce_data, and the RFSM scorer's greedy
search (Arauzo-Azofra, Benitez & Castro 2004)."""
import numpy as np
import pytest
from Orange.classification import KNNLearner, TreeLearner
from Orange.data import Domain, Table
from Orange.regression import SklTreeRegressionLearner

from orangecontrib.relief import RFSMScorer
from orangecontrib.relief.core.subsets import SearchResult, greedy_forward
from orangecontrib.relief.datasets import path
from orangecontrib.relief.selection import (WrapperMeasure, make_measure,
                                            reduce_data, select)


@pytest.fixture(scope="module")
def zoo():
    data = Table(path("zoo"))
    return data.transform(Domain(data.domain.attributes[:7],
                                 data.domain.class_var))


def test_wrapper_preprocessing_once_gives_the_same_values(zoo):
    for learner in (TreeLearner(), KNNLearner(n_neighbors=7)):
        fast = WrapperMeasure(zoo, learner, folds=3)
        slow = WrapperMeasure(zoo, learner, folds=3, preprocess_once=False)
        assert fast.once.columns is not None
        for subset in ([0], [1, 3], [0, 2, 4, 6]):
            assert fast.evaluate(subset) == pytest.approx(
                slow.evaluate(subset))


def test_wrapper_values(zoo):
    measure = WrapperMeasure(zoo, TreeLearner(), folds=4)
    majority = np.bincount(zoo.Y.astype(int)).max() / len(zoo)
    assert measure.evaluate([]) == pytest.approx(majority)
    assert 0 <= measure.evaluate([0, 1]) <= 1
    housing = Table("housing")[::5]
    regression = WrapperMeasure(housing, SklTreeRegressionLearner(), folds=3)
    assert regression.evaluate([5]) > regression.evaluate([])
    assert regression.evaluate([5]) < 0  # -MSE


def test_select_and_reduce(zoo):
    result = select(zoo, "RFSM")
    assert result.selected == greedy_forward(make_measure("RFSM", zoo)).selected
    reduced = reduce_data(zoo, result.selected)
    assert [v.name for v in reduced.domain.attributes] == [
        zoo.domain.attributes[i].name for i in sorted(result.selected)]
    with pytest.raises(ValueError):
        select(zoo, "Gini")
    with pytest.raises(ValueError):
        select(zoo, "RFSM", "simulated annealing")
    with pytest.raises(ValueError):
        make_measure("Wrapper", zoo)
    for bad in ([16], [-1], [0.5], ["hair"]):
        with pytest.raises(ValueError, match="attribute indices in 0[.][.]"):
            reduce_data(zoo, bad)


def test_rfsm_scorer_gains_and_order(zoo):
    scorer = RFSMScorer()
    gains = scorer(zoo)
    result = scorer.search(zoo)
    assert isinstance(result, SearchResult)
    measure = make_measure("RFSM", zoo)
    assert gains.sum() == pytest.approx(
        measure.evaluate(range(7)) - measure.evaluate([]))
    assert (gains >= 0).all()
    for attribute, gain in zip(result.selected, result.gains):
        assert gains[attribute] == pytest.approx(gain)
    order = RFSMScorer(score="order")(zoo)
    path_ = [s.attribute for s in result.trace[1:]]
    assert list(np.argsort(-order, kind="stable")) == path_
    assert scorer(zoo, zoo.domain.attributes[path_[0]]) == gains[path_[0]]
    # regression
    housing = Table("housing")[::4]
    assert RFSMScorer()(housing).shape == (13,)


def test_measures_ignore_instance_weights():
    from Orange.preprocess import Continuize, Impute

    from orangecontrib.relief import ClassDependentKNNLearner
    heart = Table(path("heart_disease"))
    weighted = heart.copy()
    with weighted.unlocked(weighted.W):
        weighted.W = np.random.default_rng(0).random(len(heart))
    imputing = KNNLearner(n_neighbors=5, preprocessors=[Continuize(), Impute()])
    for learner in (ClassDependentKNNLearner(k=5, method="none"), imputing):
        for once in (True, False):
            measures = [WrapperMeasure(data, learner, folds=3,
                                       preprocess_once=once)
                        for data in (heart, weighted)]
            for subset in ([0], [1, 3, 4]):
                assert measures[1].evaluate(subset) == measures[0].evaluate(
                    subset)
    for name in ("RFSM", "Consistency"):
        assert (select(weighted, name, "greedy forward").selected
                == select(heart, name, "greedy forward").selected)

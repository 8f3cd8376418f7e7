"""Searches, Liu's consistency, the wrapper and the RFSM scorer (issue 6)."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from Orange.classification import KNNLearner, TreeLearner
from Orange.data import Domain, Table
from Orange.regression import SklTreeRegressionLearner
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests import base

from orangecontrib.relief import RFSMScorer, RankScorer, core, generators
from orangecontrib.relief.core import Consistency, RFSM, ReliefInputError
from orangecontrib.relief.core.consistency import (equal_frequency_codes,
                                                   inconsistency_rate)
from orangecontrib.relief.core.search import (SetMeasure, backward_elimination,
                                              branch_and_bound, greedy_forward)
from orangecontrib.relief.datasets import path
from orangecontrib.relief.selection import (WrapperMeasure, make_measure,
                                            reduce_data, select)


class Table_(SetMeasure):
    """A measure given by a table {frozenset: value} (default: -inf)."""

    def __init__(self, n, values, monotone=False):
        self.n_attributes = n
        self.values = {frozenset(k): v for k, v in values.items()}
        self.monotone = monotone
        self.calls = 0

    def evaluate(self, subset):
        self.calls += 1
        return self.values.get(frozenset(subset), -np.inf)


def additive(weights):
    """A monotone measure: the sum of positive weights of the set."""
    n = len(weights)
    return Table_(n, {s: float(sum(weights[a] for a in s))
                      for r in range(n + 1)
                      for s in itertools.combinations(range(n), r)}, True)


# --------------------------------------------------------------------------
# greedy forward

def test_greedy_follows_the_best_and_stops_without_improvement():
    values = {(): 0, (0,): 1, (1,): 3, (2,): 2,
              (1, 0): 3.5, (1, 2): 5, (1, 2, 0): 5}
    result = greedy_forward(Table_(3, values))
    assert result.selected == [1, 2]
    assert result.value == 5
    assert [s.value for s in result.trace] == [0, 3, 5, 5]
    assert [s.accepted for s in result.trace] == [True, True, True, False]
    assert result.gains == [3, 2]
    assert result.n_evaluations == 1 + 3 + 2 + 1


def test_greedy_ties_go_to_the_lowest_index_and_tol():
    measure = additive([1.0, 2.0, 2.0, 0.001])
    assert greedy_forward(measure).selected == [1, 2, 0, 3]
    assert greedy_forward(measure, tol=0.01).selected == [1, 2, 0]
    assert greedy_forward(measure, max_features=2).selected == [1, 2]


def test_greedy_continue_to_end_ranks_everything():
    measure = additive([1.0, 0.0, 3.0])
    result = greedy_forward(measure, continue_to_end=True)
    assert result.selected == [2, 0]
    assert [s.attribute for s in result.trace[1:]] == [2, 0, 1]
    assert [s.accepted for s in result.trace] == [True, True, True, False]


def test_progress_callback_can_cancel():
    seen = []

    def progress(fraction):
        seen.append(fraction)
        if fraction > 0.3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        greedy_forward(additive([1.0] * 6), progress_callback=progress)
    assert seen and seen == sorted(seen)


# --------------------------------------------------------------------------
# backward elimination and branch and bound

def test_backward_elimination_removes_what_the_measure_does_not_need():
    result = backward_elimination(additive([1.0, 0.0, 2.0, 0.0]))
    assert result.selected == [0, 2]
    assert result.value == 3.0
    assert [s.size for s in result.trace] == [4, 3, 2, 1]
    assert not result.trace[-1].accepted


def test_backward_elimination_with_rfsm_equals_literal():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, (50, 7)).astype(float)
    y = (X[:, 0] + X[:, 1] > 2).astype(float)
    measure = RFSM(X, y, np.ones(7, bool))
    result = backward_elimination(measure)
    subset, value = list(range(7)), measure.evaluate(range(7))
    while subset:
        options = [(measure.evaluate([a for a in subset if a != c]), -c)
                   for c in subset]
        best, c = max(options)
        if best < value:
            break
        subset.remove(-c)
        value = best
    assert result.selected == sorted(subset)
    assert result.value == value


def brute_force_smallest(measure, tol=0.0):
    n = measure.n_attributes
    bound = measure.evaluate(range(n)) - tol
    for size in range(n + 1):
        legit = [(measure.evaluate(s), s)
                 for s in itertools.combinations(range(n), size)
                 if measure.evaluate(s) >= bound]
        if legit:
            return size, max(v for v, _ in legit)
    return n, bound


@pytest.mark.parametrize("name", ["corral", "parity"])
def test_branch_and_bound_finds_the_smallest_consistent_set(name):
    data = getattr(generators, name)(seed=1)
    measure = make_measure("Consistency", data)
    result = branch_and_bound(measure)
    size, value = brute_force_smallest(measure)
    assert result.complete
    assert len(result.selected) == size
    assert result.value == value


def test_branch_and_bound_with_rfsm_and_a_budget():
    data = generators.parity(seed=0)
    measure = make_measure("RFSM", data)
    tol = 0.05
    result = branch_and_bound(measure, tol=tol)
    assert len(result.selected) == brute_force_smallest(measure, tol)[0]
    limited = branch_and_bound(measure, tol=tol, max_evaluations=20)
    assert not limited.complete
    assert limited.n_evaluations == 20


# --------------------------------------------------------------------------
# Liu's consistency

def literal_inconsistency(X, y):
    """Inconsistency rate by counting (Liu, Motoda & Dash 1998)."""
    patterns = {}
    for row, c in zip(map(tuple, X), y):
        patterns.setdefault(row, []).append(c)
    inconsistent = sum(len(cs) - max(cs.count(c) for c in set(cs))
                       for cs in patterns.values())
    return inconsistent / len(y)


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 10 ** 6), st.integers(4, 40), st.integers(1, 5))
def test_consistency_matches_counting_and_is_monotone(seed, n, a):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, a)).astype(float)
    X[rng.random((n, a)) < 0.1] = np.nan
    y = rng.integers(0, 3, n).astype(float)
    measure = Consistency(X, y, np.ones(a, bool))
    codes = np.nan_to_num(X, nan=-1)
    for r in range(a + 1):
        for subset in itertools.combinations(range(a), r):
            expected = 1 - literal_inconsistency(codes[:, list(subset)],
                                                 list(y))
            assert measure.evaluate(subset) == pytest.approx(expected)
    subset = list(range(a - 1))
    assert_allclose(measure.forward_values(subset, [a - 1]),
                    [measure.evaluate(range(a))])
    assert measure.evaluate([0]) <= measure.evaluate(range(a))


def test_equal_frequency_discretisation():
    codes = equal_frequency_codes(np.arange(8.0), 4)
    assert codes.tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    codes = equal_frequency_codes([1.0, np.nan, 1.0, 2.0], 4)
    assert codes[1] == -1 and codes[0] == codes[2] < codes[3]
    assert inconsistency_rate(np.array([0, 0, 0, 1]),
                              np.array([0, 1, 1, 0])) == 0.25
    X = np.linspace(0, 1, 20)[:, None]
    y = np.linspace(0, 5, 20)
    measure = Consistency(X, y, task="regression")
    assert measure.evaluate([0]) == 1.0
    assert measure.evaluate([]) == 0.25


def test_consistency_input_errors():
    with pytest.raises(ReliefInputError):
        Consistency(np.zeros((3, 0)), [0, 1, 0])
    with pytest.raises(ReliefInputError):
        Consistency(np.zeros((3, 2)), [np.nan] * 3)


# --------------------------------------------------------------------------
# the wrapper and the Orange side

@pytest.fixture(scope="module")
def zoo():
    data = Table(path("zoo"))
    return data.transform(Domain(data.domain.attributes[:7],
                                 data.domain.class_var))


def test_wrapper_preprocessing_once_gives_the_same_values(zoo):
    for learner in (TreeLearner(), KNNLearner(n_neighbors=7)):
        fast = WrapperMeasure(zoo, learner, folds=3)
        slow = WrapperMeasure(zoo, learner, folds=3, preprocess_once=False)
        assert fast._columns is not None
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


def test_rfsm_scorer_gains_and_order(zoo):
    scorer = RFSMScorer()
    gains = scorer(zoo)
    result = scorer.result_
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


class TestRankWidget(base.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWRank)

    def test_rfsm_scorer_in_rank(self):
        data = Table(path("zoo"))
        rank = self.widget
        self.send_signal(rank.Inputs.data, data, widget=rank)
        self.send_signal(rank.Inputs.scorer, RankScorer(RFSMScorer()), 0,
                         widget=rank)
        self.wait_until_finished(widget=rank)
        scores = self.get_output(rank.Outputs.scores, widget=rank)
        got = dict(zip(scores.get_column("Feature"),
                       scores.get_column("RFSM")))
        expected = dict(zip([v.name for v in data.domain.attributes],
                            RFSMScorer()(data)))
        assert got.keys() == expected.keys()
        for name in got:
            assert got[name] == pytest.approx(expected[name])

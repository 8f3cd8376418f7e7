"""The searches over attribute sets (greedy forward, backward elimination,
branch and bound) and Liu's consistency measure, in the core
(Arauzo-Azofra, Benitez & Castro 2004; Liu, Motoda & Dash 1998)."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from orangecontrib.relief.core import (RFSM, Consistency, ReliefInputError,
                                       generators)
from orangecontrib.relief.core.subsets import (SEARCHES, SetMeasure,
                                               backward_elimination,
                                               branch_and_bound,
                                               greedy_forward)
from orangecontrib.relief.core.subsets.consistency import (
    equal_frequency_codes, inconsistency_rate)


class TabulatedMeasure(SetMeasure):
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
    return TabulatedMeasure(n, {s: float(sum(weights[a] for a in s))
                                for r in range(n + 1)
                                for s in itertools.combinations(range(n), r)},
                            True)


# --------------------------------------------------------------------------
# greedy forward

def test_greedy_follows_the_best_and_stops_without_improvement():
    values = {(): 0, (0,): 1, (1,): 3, (2,): 2,
              (1, 0): 3.5, (1, 2): 5, (1, 2, 0): 5}
    result = greedy_forward(TabulatedMeasure(3, values))
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
    problem = getattr(generators, name)(seed=1)
    measure = Consistency(problem.X, problem.y, problem.discrete)
    result = branch_and_bound(measure)
    size, value = brute_force_smallest(measure)
    assert result.complete
    assert len(result.selected) == size
    assert result.value == value


def test_branch_and_bound_with_rfsm_and_a_budget():
    problem = generators.parity(seed=0)
    measure = RFSM(problem.X, problem.y, problem.discrete)
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


@pytest.mark.parametrize("search, options, message", [
    ("greedy forward", dict(tol=float("nan")), "tol must be a number >= 0"),
    ("greedy forward", dict(tol=-0.1), "tol must be"),
    ("greedy forward", dict(max_features=0), "max_features must be a "
                                             "positive integer or None"),
    ("greedy forward", dict(continue_to_end="yes"),
     "continue_to_end must be True or False"),
    ("backward elimination", dict(min_features=-1),
     "min_features must be an integer >= 0"),
    ("branch and bound", dict(max_evaluations=0),
     "max_evaluations must be a positive integer"),
    ("branch and bound", dict(tol="0.1"), "tol must be")])
def test_bad_search_options_are_named(search, options, message):
    X = np.random.default_rng(3).random((20, 3))
    measure = RFSM(X, (np.arange(20) % 2).astype(float))
    with pytest.raises(ReliefInputError, match=message):
        SEARCHES[search](measure, **options)


def test_consistency_input_errors():
    with pytest.raises(ReliefInputError):
        Consistency(np.zeros((3, 0)), [0, 1, 0])
    with pytest.raises(ReliefInputError):
        Consistency(np.zeros((3, 2)), [np.nan] * 3)

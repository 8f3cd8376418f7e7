"""VLSRelief (core.variants.vls): the subsets' guarantees, the largest weight of
each attribute, the pair an epistatic problem hides in noise, and the
checks."""
import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from orangecontrib.relief.core.variants import estimators
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.generators import modulo
from orangecontrib.relief.core.variants.vls import (default_subset_size, vls,
                                                    vls_relieff, vls_subsets)
from tests.reference.vls import subsets as literal_subsets


def relieff(X, y, discrete, progress_callback=None):
    return estimators.relieff(X, y, discrete,
                              progress_callback=progress_callback)


@given(st.integers(2, 60), st.integers(2, 70), st.integers(0, 2 ** 32))
def test_every_pair_of_attributes_shares_a_subset(a, size, seed):
    subsets = vls_subsets(a, subset_size=size, random_state=seed)
    together = {pair for subset in subsets
                for pair in itertools.combinations(subset.tolist(), 2)}
    assert len(together) == a * (a - 1) // 2
    assert all(len(subset) <= max(size, 1) or len(subsets) == 1
               for subset in subsets)
    assert all(np.all(np.diff(subset) > 0) for subset in subsets)
    assert [s.tolist() for s in subsets] == literal_subsets(
        a, size, True, None, seed)


@given(st.integers(2, 60), st.integers(2, 70), st.integers(1, 40),
       st.integers(0, 2 ** 32))
def test_random_subsets_score_every_attribute(a, size, count, seed):
    subsets = vls_subsets(a, subset_size=size, cover_pairs=False,
                          n_subsets=count, random_state=seed)
    assert set(np.concatenate(subsets).tolist()) == set(range(a))
    if size < a:
        partition = -(-a // size)
        assert len(subsets) == max(count, partition)
        assert all(len(subset) == size for subset in subsets[partition:])


def test_the_pair_design_is_fixed_by_the_seed():
    first = vls_subsets(50, subset_size=10, random_state=3)
    assert all(np.array_equal(a, b) for a, b in zip(
        first, vls_subsets(50, subset_size=10, random_state=3)))
    other = vls_subsets(50, subset_size=10, random_state=4)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))
    groups = -(-50 // 5)
    assert len(first) == groups * (groups - 1) // 2 == 45


def test_scores_are_each_attributes_largest_weight():
    problem = modulo(120, 2, 10, p=2, seed=1)
    X, y = problem.X, problem.y
    result = vls(relieff, X, y, None, subset_size=4)
    for a in range(X.shape[1]):
        weights = [relieff(X[:, s], y, None)[list(s).index(a)]
                   for s in result.subsets if a in s]
        assert result.scores[a] == max(weights)
        subset = result.subsets[result.best[a]]
        assert result.scores[a] == relieff(X[:, subset], y, None)[
            list(subset).index(a)]


def test_an_interacting_pair_in_noise_comes_first():
    problem = modulo(400, 2, 60, p=2, seed=0)  # XOR of the first two
    weights = vls_relieff(problem.X, problem.y, subset_size=12)
    assert set(np.argsort(-weights)[:2]) == {0, 1}


def test_one_subset_when_the_size_holds_every_attribute():
    problem = modulo(60, 2, 3, p=2, seed=0)
    assert_array_equal(vls_relieff(problem.X, problem.y, subset_size=10),
                       estimators.relieff(problem.X, problem.y))
    assert default_subset_size(2) == 2 and default_subset_size(100) == 34


def test_nan_weights_give_way_to_numbers():
    calls = []

    def score(X, y, discrete, progress_callback=None):
        calls.append(X.shape[1])
        weights = np.arange(X.shape[1], dtype=float)
        weights[0] = np.nan if len(calls) % 2 else weights[0]
        return weights

    result = vls(score, np.zeros((4, 6)), np.arange(4) % 2, subset_size=2)
    assert not np.isnan(result.scores).any()


@pytest.mark.parametrize("options, message", [
    (dict(subset_size=1), "subset_size must be an integer >= 2 or None"),
    (dict(subset_size=2.5), "subset_size must be an integer >= 2 or None"),
    (dict(n_subsets=0), "n_subsets must be a positive integer or None"),
    (dict(cover_pairs="yes"), "cover_pairs must be True or False"),
    (dict(random_state=-1), "random_state must be None, a non-negative"),
])
def test_bad_options(options, message):
    problem = modulo(20, 2, 2, p=2, seed=0)
    with pytest.raises(ReliefInputError, match=message):
        vls_relieff(problem.X, problem.y, **options)


def test_a_scorer_of_the_wrong_length_is_refused():
    with pytest.raises(ReliefInputError, match="one number per attribute"):
        vls(lambda X, y, d, progress_callback=None: np.zeros(1),
            np.zeros((4, 6)), np.arange(4) % 2, subset_size=4)

"""Choosing attributes from weights: Kira & Rendell's bound and the best k."""
import numpy as np
import pytest
from numpy.testing import assert_array_equal

from orangecontrib.relief.core import chebyshev_threshold, select_features
from orangecontrib.relief.core.errors import ReliefInputError


def test_the_bound_is_one_over_the_root_of_alpha_m():
    assert chebyshev_threshold(0.04, 25) == pytest.approx(1.0)
    assert chebyshev_threshold(1, 100) == pytest.approx(0.1)


@pytest.mark.parametrize("alpha, m, name", [
    (0, 10, "alpha"), (1.5, 10, "alpha"), (None, 10, "alpha"),
    (np.nan, 10, "alpha"), (0.05, 0, "m"), (0.05, 1.5, "m"),
    (0.05, np.nan, "m"), (0.05, True, "m")])
def test_the_bound_refuses_bad_input(alpha, m, name):
    with pytest.raises(ReliefInputError, match=f"^{name} must be"):
        chebyshev_threshold(alpha, m)


def test_the_best_over_a_threshold_best_first_ties_to_the_lower_index():
    weights = [0.1, 0.3, -0.2, 0.3, 0.05]
    assert_array_equal(select_features(weights), [1, 3, 0, 4, 2])
    assert_array_equal(select_features(weights, threshold=0.07), [1, 3, 0])
    assert_array_equal(select_features(weights, top_k=2), [1, 3])
    assert_array_equal(select_features(weights, 0.2, top_k=5), [1, 3])
    assert len(select_features(weights, top_k=0)) == 0


@pytest.mark.parametrize("options, message", [
    (dict(top_k=2.5), "top_k must be"), (dict(top_k=-1), "top_k must be"),
    (dict(top_k=True), "top_k must be"), (dict(threshold="0.1"), "threshold"),
    (dict(threshold=np.nan), "threshold must be")])
def test_selection_refuses_bad_options(options, message):
    with pytest.raises(ReliefInputError, match=message):
        select_features([0.1, 0.2], **options)


@pytest.mark.parametrize("weights", [0.1, [[0.1, 0.2]], ["a"]])
def test_selection_refuses_weights_that_are_not_a_vector(weights):
    with pytest.raises(ReliefInputError, match="1-D array of numbers"):
        select_features(weights)

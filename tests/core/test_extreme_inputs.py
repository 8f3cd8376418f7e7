"""Extreme but legal inputs give the answer of ordinary ones: a k above the
number of instances means all of them (allocating nothing in proportion to
k), a column whose range overflows float64 weighs what it weighs rescaled,
and a bad seed is named in the error."""
import warnings

import numpy as np
import pytest

from orangecontrib.relief import core
from orangecontrib.relief.core import generators
from orangecontrib.relief.core.engines import forced
from tests.core.engines import each_engine
from tests.variants import (VARIANT_TASKS, matrix_options, rng_of,
                            variant_task_id)

HUGE = 10 ** 9

rng = rng_of("extreme inputs")
X = rng.random((30, 4))
X[rng.random(X.shape) < 0.1] = np.nan
Y = rng.integers(0, 2, 30).astype(float)
TARGET = rng.random(30)

#: every variant that takes k, on each task it handles
TAKE_K = [(variant, task) for variant, task in VARIANT_TASKS
          if variant.takes_k]


@each_engine
@pytest.mark.parametrize("variant, task", TAKE_K, ids=[
    variant_task_id(*pair) for pair in TAKE_K])
def test_a_huge_k_is_every_instance(variant, task, engine):
    y = Y if task == "classification" else TARGET
    # a rank weighting of its own width: k / 3.5 would differ
    options = matrix_options(variant, **(
        {"sigma": 4.0} if task == "regression" else {}))
    with forced(engine):
        np.testing.assert_array_equal(
            variant.weights(X, y, task=task, k_nearest=HUGE, **options),
            variant.weights(X, y, task=task, k_nearest=len(X), **options))


def test_rank_weights_of_a_huge_k_stop_at_the_instances():
    weights = core.rank_weights(HUGE, count=7)
    assert len(weights) == 7
    np.testing.assert_allclose(weights,
                               np.exp(-(np.arange(1, 8) / (HUGE / 3.5)) ** 2))


@each_engine
def test_a_range_beyond_the_largest_float_weighs_as_rescaled(engine):
    scaled = X.copy()
    scaled[:, 1] = (X[:, 1] - 0.5) * 2 * 1.7e308  # max - min overflows
    with forced(engine), warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow on the way
        np.testing.assert_allclose(core.relieff(scaled, Y),
                                   core.relieff(X, Y), rtol=0, atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda: core.relieff(X, Y, n_iterations=5, random_state=-1),
    lambda: core.cdrelief(X, Y, n_iterations=5, random_state=-3),
    lambda: generators.majority(seed=-1),
])
def test_a_negative_seed_is_named(call):
    with pytest.raises(core.ReliefInputError, match="must be None, a "
                       "non-negative integer or a numpy Generator, got -"):
        call()


def test_more_references_than_memory_is_refused_before_allocating():
    with pytest.raises(core.ReliefInputError,
                       match="n_iterations asks for at least .* GiB"):
        core.relieff(X, Y, n_iterations=10 ** 13)


@each_engine
def test_rfsm_leaves_out_an_attribute_without_known_values(engine):
    rng = np.random.default_rng(6)
    X = rng.random((60, 5))
    y = (X[:, 1] > 0.5).astype(float)
    X[rng.random(X.shape) < 0.3] = np.nan
    X[:, 0] = np.nan
    with forced(engine):
        measure = core.RFSM(X, y)
        result = core.greedy_forward(measure)
        assert 0 not in result.selected and result.selected[0] == 1
        assert measure.evaluate([0, 1]) == measure.evaluate([1])
        assert measure.forward_values([1], [0])[0] == measure.evaluate([1])
        assert (measure.backward_values([0, 1], [0])[0]
                == measure.evaluate([1]))

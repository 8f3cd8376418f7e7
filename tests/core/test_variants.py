"""The registry of variants (core.registry): every entry is complete and
callable as declared (tests/test_matrices.py checks that every variant is
in every cross-cutting matrix)."""
import inspect
import re

import numpy as np
import pytest

from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.registry import (K_NEAREST, TASKS, VARIANTS,
                                                WITHIN_DISTANCE, by_name,
                                                offered)
from tests.variants import each_variant, each_variant_task, literal, rng_of


def test_names_are_unique_and_found():
    for field in ("name", "scorer", "reference"):
        values = [getattr(variant, field) for variant in VARIANTS]
        assert len(set(values)) == len(values), field
    for variant in VARIANTS:
        assert by_name(variant.name) is variant
    with pytest.raises(ReliefInputError, match="method must be one of "
                       "Relief, ReliefF, .*, got 'Relief-G'"):
        by_name("Relief-G")
    assert offered() == [v for v in VARIANTS if v.offered]


@each_variant
def test_an_entry_is_what_it_declares(variant):
    assert variant.tasks and set(variant.tasks) <= set(TASKS)
    assert variant.neighbourhood in (K_NEAREST, WITHIN_DISTANCE)
    assert callable(literal(variant))
    signature = inspect.signature(variant.estimator).parameters
    assert list(signature)[:3] == ["X", "y", "discrete"]
    assert "progress_callback" in signature
    assert all(default is not inspect.Parameter.empty
               for default in variant.parameters.values())
    assert variant.takes_k == (variant.default_k is not None)
    assert variant.fits(variant.tasks[0], variant.n_classes or 2)
    assert not variant.fits("no such task")


@each_variant_task
def test_weights_are_one_per_attribute(variant, task):
    rng = rng_of(variant.name, task)
    X = rng.random((20, 3))
    y = np.arange(20) % 2 if task == "classification" else rng.random(20)
    weights = variant.weights(X, y, task=task)
    assert weights.shape == (3,) and np.isfinite(weights).all()
    other = [t for t in TASKS if t not in variant.tasks]
    for task in other:
        with pytest.raises(ReliefInputError,
                           match=f"{re.escape(variant.name)} handles"):
            variant.weights(X, y, task=task)

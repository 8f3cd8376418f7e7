"""Progress reporting: pieces of work are never empty, a step reports into
its share, and every registered variant reports its progress for any
number of references, on both engines, and computes with it what it
computes without it: the literal reference's weights."""
import numpy as np
import pytest

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.progress import (STEPS, step_bounds,
                                                wrap_callback)
from tests.variants import (each_variant_task, literal_weights,
                            matrix_options, rng_of)

#: (total, steps, a callback?) -> the bounds of the pieces
BOUNDS = {
    (0, STEPS, True): [0],
    (1, STEPS, True): [0, 1],
    (3, STEPS, True): [0, 1, 2, 3],
    (STEPS + 1, STEPS, True): list(range(STEPS)) + [STEPS + 1],
    (44, 3, True): [0, 14, 29, 44],
    (44, 3, False): [0, 44],
    (0, 3, False): [0],
}


@pytest.mark.parametrize("total, steps, callback", BOUNDS)
def test_step_bounds(total, steps, callback):
    bounds = step_bounds(total, print if callback else None, steps)
    assert bounds.tolist() == BOUNDS[total, steps, callback]


def test_step_bounds_never_make_an_empty_piece():
    for total in range(1, 3 * STEPS):
        for steps in (1, 3, STEPS):
            bounds = step_bounds(total, print, steps)
            assert bounds[0] == 0 and bounds[-1] == total
            assert (np.diff(bounds) > 0).all()
            assert len(bounds) - 1 == min(steps, total)


def test_wrap_callback_maps_into_its_share():
    seen = []
    wrapped = wrap_callback(seen.append, 0.25, 0.75)
    wrapped(0.0)
    wrapped(1.0)
    assert seen == [0.25, 0.75]
    assert wrap_callback(None) is None


#: numbers of references: fewer than the pieces of a report, as many, more
REFERENCES = (1, STEPS, STEPS + 1)


@each_variant_task
def test_progress_of_every_variant(variant, task):
    rng = rng_of(variant.name, task)
    X = rng.random((40, 5))
    X[rng.random(X.shape) < 0.1] = np.nan
    y = (rng.integers(0, 2, 40).astype(float) if task == "classification"
         else rng.random(40))
    sampling = "n_iterations" in variant.parameters
    for m in REFERENCES if sampling else (None,):
        options = matrix_options(variant, n_iterations=m)
        literal = literal_weights(variant, X, y, task=task, **options)
        for engine in engines.ENGINES:
            seen = []
            with engines.forced(engine):
                weights = variant.weights(X, y, task=task, **options,
                                          progress_callback=seen.append)
            assert seen, (m, engine)
            assert seen == sorted(seen), (m, engine)
            assert seen[-1] == pytest.approx(1.0), (m, engine)
            np.testing.assert_allclose(weights, literal, rtol=0, atol=1e-9,
                                       err_msg=f"{m} references, {engine}")

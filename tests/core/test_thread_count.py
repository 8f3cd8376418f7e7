"""The weights do not depend on the number of threads.

The compiled kernels split their loops among numba's threads, and each
partial result is added in a fixed order (blocks of references, tiles of
pairs), never in the order the threads finish; the vectorised engine's
numpy calls must not depend on it either.  So every registered variant, on
each engine, gives the same bits with one thread as with two, the
kernels that small calls run in one thread (:mod:`orangecontrib.relief.
core.engines.compiled.threads`) in their parallel form.
"""
from contextlib import contextmanager

import numba
import numpy as np
import pytest

from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.engines.compiled import threads as forms
from orangecontrib.relief.core.engines.compiled.threads import (
    BUSY_WORK, SMALL_WORK, every_call_parallel, share_of_others)
from tests.core.engines import each_engine
from tests.variants import each_variant_task, matrix_options, rng_of

#: instances of the data: several tiles of the search of all pairs and
#: several blocks of references, so that two threads share the work
N_INSTANCES = 300


@contextmanager
def threads(count):
    """numba's kernels run on `count` threads within the block."""
    before = numba.get_num_threads()
    numba.set_num_threads(count)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def data(variant, task):
    """Numeric data with a few missing values, a column of ties (rounded
    to a tenth: equal distances whose places the tie rule shares), and the
    variant's classes or a numeric target."""
    rng = rng_of("thread count", variant.name, task)
    X = rng.random((N_INSTANCES, 6))
    X[:, 0] = np.round(X[:, 0], 1)
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (rng.integers(0, variant.n_classes or 3, N_INSTANCES).astype(float)
         if task == "classification" else rng.random(N_INSTANCES))
    return X, y


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2,
                    reason="numba may use one thread only")
@each_engine
@each_variant_task
def test_weights_do_not_depend_on_the_thread_count(variant, task, engine):
    X, y = data(variant, task)
    options = matrix_options(variant)
    with forced(engine):
        with threads(1):
            one = np.asarray(variant.weights(X, y, task=task, **options))
        with threads(2), every_call_parallel():
            two = np.asarray(variant.weights(X, y, task=task, **options))
    np.testing.assert_array_equal(one, two)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2,
                    reason="numba may use one thread only")
@pytest.mark.parametrize("work, running, own, everywhere, count, form", [
    (SMALL_WORK - 1, 1, 1, 2, 2, "serial"),  # too little to fork the pool for
    (SMALL_WORK, 1, 1, 2, 2, "parallel"),  # idle: this thread alone runs
    (SMALL_WORK, 3, 3, 2, 2, "parallel"),  # its own spinning threads count not
    (BUSY_WORK - 1, 2, 1, 2, 2, "serial"),  # another process holds one
    (BUSY_WORK, 5, 1, 2, 1, "serial"),  # numba set to one thread since
    (BUSY_WORK, 5, 1, 2, 2, "parallel"),  # enough work for a busy pool
    (SMALL_WORK, 9, 1, 64, 2, "parallel"),  # others spread over 64 processors
    (SMALL_WORK, 40, 1, 64, 2, "serial"),
])
def test_a_call_takes_the_pool_where_processors_are_free(
        monkeypatch, work, running, own, everywhere, count, form):
    free = 2 - share_of_others(running, own, 2, everywhere)
    monkeypatch.setattr(forms, "free_processors", lambda: free)
    with threads(2):
        forms.by_work(("serial", "parallel"), work)  # the count read before
    with threads(count):
        assert forms.by_work(("serial", "parallel"), work) == form
        with every_call_parallel():
            assert forms.by_work(("serial", "parallel"), 1) == "parallel"

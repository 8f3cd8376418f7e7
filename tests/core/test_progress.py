"""Progress reporting: pieces of work are never empty, and every variant
that takes references reports its progress for any number of them."""
import numpy as np
import pytest

from orangecontrib.relief import core
from orangecontrib.relief.core import engines
from orangecontrib.relief.core.progress import (step_bounds, wrap_callback)


@pytest.mark.parametrize("total", range(0, 45))
@pytest.mark.parametrize("steps", [1, 3, 20])
def test_step_bounds_cover_the_work_without_empty_pieces(total, steps):
    bounds = step_bounds(total, print, steps)
    assert bounds[0] == 0 and bounds[-1] == total
    if total:
        assert (np.diff(bounds) > 0).all()
        assert len(bounds) - 1 == min(steps, total)
    assert len(step_bounds(total, None, steps)) == (2 if total else 1)


def test_wrap_callback_maps_into_its_share():
    seen = []
    wrapped = wrap_callback(seen.append, 0.25, 0.75)
    wrapped(0.0)
    wrapped(1.0)
    assert seen == [0.25, 0.75]
    assert wrap_callback(None) is None


rng = np.random.default_rng(4)
X = rng.random((40, 5))
X[rng.random(X.shape) < 0.1] = np.nan
Y = rng.integers(0, 2, 40).astype(float)
TARGET = rng.random(40)

VARIANTS = {
    "Relief": lambda m, cb: core.relief(X, Y, n_iterations=m,
                                        progress_callback=cb),
    "ReliefF": lambda m, cb: core.relieff(X, Y, n_iterations=m,
                                          progress_callback=cb),
    "RReliefF": lambda m, cb: core.rrelieff(X, TARGET, n_iterations=m,
                                            progress_callback=cb),
    "dReliefF": lambda m, cb: core.drelieff(X, Y, n_iterations=m,
                                            progress_callback=cb),
    "pdReliefF": lambda m, cb: core.pdrelieff(X, Y, n_iterations=m,
                                              progress_callback=cb),
    "CDRelief": lambda m, cb: core.cdrelief(X, Y, n_iterations=m,
                                            progress_callback=cb),
    "IWCDRelief": lambda m, cb: core.iwcdrelief(X, Y, n_iterations=m,
                                                progress_callback=cb),
    "RFSM": lambda m, cb: core.RFSM(X, Y, n_iterations=m,
                                    progress_callback=cb).evaluate([0, 2]),
}


@pytest.mark.parametrize("name", engines.ENGINES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_number_of_references_reports_progress(variant, name):
    with engines.forced(name):
        for m in range(1, 26):
            seen = []
            with_progress = VARIANTS[variant](m, seen.append)
            assert seen, m
            assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0)
            np.testing.assert_array_equal(with_progress,
                                          VARIANTS[variant](m, None))

"""Both engines of the core on one call: the compiled one (numba) and the
vectorised one (numpy), forced in turn (``core.engine.forced``).

Small data go to the vectorised engine when the choice is left to the
core, so a comparison with the slow reference runs the call under each
engine to check both.
"""
import pytest

from orangecontrib.relief.core.engines import ENGINES, forced

#: parametrizes a test by `engine`, the name of each engine in turn (the
#: test runs its calls under ``forced(engine)``)
each_engine = pytest.mark.parametrize("engine", ENGINES)


def on_each_engine(compute):
    """{engine: compute()} with each engine forced in turn."""
    results = {}
    for name in ENGINES:
        with forced(name):
            results[name] = compute()
    return results

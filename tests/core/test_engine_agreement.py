"""The compiled and the vectorised engine give the same weights.

Both add the same float64 terms in the same order and agree to the last
bit, with missing values too: their RELIEF-D tables are computed with the
same arithmetic, so even exact ties of distance (frequent on rounded data)
break alike.  The choice between them is by size, overridable by
ORANGE_RELIEF_ENGINE.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

from orangecontrib.relief import core
from orangecontrib.relief.core import engines, significance
from tests.core.engines import on_each_engine


def data(seed, n=70, a=6, missing=0.0, mixed=False, classes=3):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    discrete = np.zeros(a, bool)
    if mixed:
        discrete[::3] = True
        X[:, discrete] = rng.integers(0, 3, (n, discrete.sum()))
    X[rng.random(X.shape) < missing] = np.nan
    y = rng.integers(0, classes, n).astype(float)
    return X, y, discrete, rng.random(n)


def rfsm_trace(X, y, discrete, **options):
    measure = core.RFSM(X, y, discrete, k_nearest=2, **options)
    result = core.greedy_forward(measure, continue_to_end=True)
    values = [step.value for step in result.trace]
    return np.concatenate([values, result.selected,
                           measure.backward_values(list(range(X.shape[1])))])


def stir_values(X, y, discrete, **options):
    result = significance.stir(X, y, discrete, **options)
    return np.concatenate([result.score, result.t, result.p])


CALLS = {
    "Relief": lambda X, y, d, t, **o: core.relief(X, y % 2, d, **o),
    "ReliefF": lambda X, y, d, t, **o: core.relieff(X, y, d, **o),
    "ReliefF sampled, weighted": lambda X, y, d, t, **o: core.relieff(
        X, y, d, n_iterations=13, random_state=3,
        distance_weights=np.linspace(0.2, 1.5, X.shape[1]), **o),
    "RReliefF": lambda X, y, d, t, **o: core.rrelieff(X, t, d, k_nearest=15,
                                                      **o),
    "dReliefF": lambda X, y, d, t, **o: core.drelieff(X, y, d, **o),
    "pdReliefF": lambda X, y, d, t, **o: core.pdrelieff(X, y, d, **o),
    "CDRelief": lambda X, y, d, t, **o: core.cdrelief(X, y, d, **o),
    "IWCDRelief": lambda X, y, d, t, **o: core.iwcdrelief(
        X, y, d, update="as_text", threshold=0.3, **o),
    "STIR, ReliefF's pairs": lambda X, y, d, t, **o: stir_values(
        X, y, d, neighbourhood="relieff", **o),
    "RFSM": lambda X, y, d, t, **o: rfsm_trace(X, y, d, **o),
    "RFSM regression": lambda X, y, d, t, **o: rfsm_trace(
        X, t, d, task="regression", **o),
}


def both(call, *args, **options):
    """The results of the call on the compiled and the vectorised engine."""
    results = on_each_engine(lambda: np.asarray(call(*args, **options)))
    return results[engines.COMPILED], results[engines.VECTORISED]


@pytest.mark.parametrize("variant", CALLS)
@pytest.mark.parametrize("diff", ["linear", "squared", "ramp"])
@pytest.mark.parametrize("mixed", [False, True])
def test_identical_without_missing_values(variant, diff, mixed):
    X, y, discrete, target = data(1, mixed=mixed)
    compiled, vectorised = both(CALLS[variant], X, y, discrete, target,
                                diff=diff)
    np.testing.assert_array_equal(compiled, vectorised)


@pytest.mark.parametrize("variant", CALLS)
@pytest.mark.parametrize("diff", ["linear", "squared", "ramp"])
@pytest.mark.parametrize("mixed", [False, True])
def test_identical_with_missing_values(variant, diff, mixed):
    X, y, discrete, target = data(2, missing=0.15, mixed=mixed)
    compiled, vectorised = both(CALLS[variant], X, y, discrete, target,
                                diff=diff)
    np.testing.assert_array_equal(compiled, vectorised)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("variant", ["ReliefF", "RReliefF"])
def test_identical_on_rounded_data_with_missing_values(variant, seed):
    # values on a grid of 0.1 tie often; the tables decide the ties
    X, y, discrete, target = data(seed, n=300, a=5, missing=0.05)
    X = np.round(X, 1)
    compiled, vectorised = both(CALLS[variant], X, y, discrete, target)
    np.testing.assert_array_equal(compiled, vectorised)


def test_neighbour_lists_are_identical():
    X, y, discrete, _ = data(3, n=90, mixed=True)
    lists = []
    for name in engines.ENGINES:
        prepared = core.prepare(X, y, discrete, engine=name)
        refs = np.array([0, 5, 5, 17, 89])
        lists.append(engines.kernels(name).find_neighbours(prepared, refs, 7))
    np.testing.assert_array_equal(*lists)


def test_an_unknown_engine_is_refused():
    with pytest.raises(core.ReliefInputError, match="engine must be one of"):
        engines.check_engine("gpu")


SMALL_CALL_WITHOUT_NUMBA = """
import sys
import numpy as np
from orangecontrib.relief import core
rng = np.random.default_rng(0)
X = rng.random((50, 4)); X[0, 1] = np.nan
core.relieff(X, rng.integers(0, 2, 50))
core.rrelieff(X, rng.random(50))
print(any(name.split(".")[0] == "numba" for name in sys.modules))
"""


def test_small_problems_need_no_compiler():
    env = {key: value for key, value in os.environ.items()
           if key != engines.VARIABLE}
    result = subprocess.run([sys.executable, "-c", SMALL_CALL_WITHOUT_NUMBA],
                            capture_output=True, text=True, check=True,
                            env=env)
    assert result.stdout.strip() == "False"

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
from orangecontrib.relief.core import engines
from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.registry import (RELIEFF, RRELIEFF,
                                                WITHIN_DISTANCE)
from tests.core.engines import on_each_engine
from tests.variants import each_variant_task, matrix_options, rng_of, taken


def data(rng, n=70, a=6, missing=0.0, mixed=False, task="classification",
         classes=3):
    """Numeric columns (every third nominal with `mixed`), a share
    `missing` of NaN; `classes` classes or a numeric target."""
    X = rng.random((n, a))
    discrete = np.zeros(a, bool)
    if mixed:
        discrete[::3] = True
        X[:, discrete] = rng.integers(0, 3, (n, discrete.sum()))
    X[rng.random(X.shape) < missing] = np.nan
    y = (rng.integers(0, classes, n).astype(float) if task == "classification"
         else rng.random(n))
    return X, y, discrete


def sampled(variant, X):
    """Sampled references and distance weights, those the variant takes:
    the options of its second run (none: it has no second run)."""
    return taken(variant, n_iterations=13, random_state=3,
                 distance_weights=np.linspace(0.2, 1.5, X.shape[1]))


#: options that take a variant off its defaults' paths
OPTIONS = {"RReliefF": dict(k_nearest=15),
           "IWCDRelief": dict(update="as_text", threshold=0.3),
           "RFSM": dict(k_nearest=2)}


def both(call):
    """The results of `call` on the compiled and the vectorised engine."""
    results = on_each_engine(lambda: np.asarray(call()))
    return results[engines.COMPILED], results[engines.VECTORISED]


@each_variant_task
def test_identical_weights(variant, task):
    """Every variant, diff, kind of column, with missing values or none, on
    every instance and on sampled references: the same weights to the last
    bit (the neighbourhoods within a distance to rounding)."""
    tolerance = 1e-12 if variant.neighbourhood == WITHIN_DISTANCE else 0
    for diff in ("linear", "squared", "ramp"):
        for mixed in (False, True):
            for missing in (0.0, 0.15):
                name = f"{diff}, mixed {mixed}, missing {missing}"
                X, y, discrete = data(rng_of(name, task), missing=missing,
                                      mixed=mixed, task=task,
                                      classes=variant.n_classes or 3)
                options = matrix_options(
                    variant, **OPTIONS.get(variant.name, {}), diff=diff)
                second = sampled(variant, X)
                for more in [{}, second] if second else [{}]:
                    compiled, vectorised = both(lambda: variant.weights(
                        X, y, discrete, task=task, **options, **more))
                    np.testing.assert_allclose(
                        compiled, vectorised, rtol=0, atol=tolerance,
                        err_msg=f"{name}, {more}")


def rfsm_trace(X, y, discrete, **options):
    """RFSM's values along the greedy search to the end, where it stopped,
    and the values of the backward search's first step."""
    measure = core.RFSM(X, y, discrete, k_nearest=2, **options)
    result = core.greedy_forward(measure, continue_to_end=True)
    values = [step.value for step in result.trace]
    return np.concatenate([values, result.selected,
                           measure.backward_values(list(range(X.shape[1])))])


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_identical_rfsm_searches(task):
    X, y, discrete = data(rng_of("RFSM searches", task), missing=0.15,
                          mixed=True, task=task)
    compiled, vectorised = both(lambda: rfsm_trace(X, y, discrete,
                                                   task=task))
    np.testing.assert_array_equal(compiled, vectorised)


@pytest.mark.parametrize("missing", [0.0, 0.15])
def test_identical_stir(missing):
    """STIR over ReliefF's pairs: the same scores, t and p to the last bit."""
    X, y, discrete = data(rng_of("STIR", str(missing)), missing=missing,
                          mixed=True)

    def stir():
        result = significance.stir(X, y, discrete, neighbourhood="relieff")
        return np.concatenate([result.score, result.t, result.p])
    np.testing.assert_array_equal(*both(stir))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("variant", [RELIEFF, RRELIEFF], ids=["ReliefF",
                                                               "RReliefF"])
def test_identical_on_rounded_data_with_missing_values(variant, seed):
    # values on a grid of 0.1 tie often; the tables decide the ties
    X, y, discrete = data(rng_of("rounded", str(seed)), n=300, a=5,
                          missing=0.05, task=variant.tasks[0])
    X = np.round(X, 1)
    compiled, vectorised = both(lambda: variant.weights(X, y, discrete))
    np.testing.assert_array_equal(compiled, vectorised)


@pytest.mark.parametrize("ties", ["share", "lower-index"])
@pytest.mark.parametrize("rounding", [None, 1])
def test_neighbour_lists_are_identical(ties, rounding):
    """The same entries, distances, shares and tie sets; on values
    rounded to a tenth, many lists hold a tie at the k-th distance that
    runs past the compiled search's candidates (searched again)."""
    X, y, discrete = data(rng_of("neighbour lists"), n=90, mixed=True)
    if rounding is not None:
        X = np.round(X, rounding)
    lists = []
    for name in engines.ENGINES:
        prepared = core.prepare(X, y, discrete, engine=name)
        refs = np.array([0, 5, 5, 17, 89])
        lists.append(engines.kernels(name).find_neighbours(
            prepared, refs, 7, ties=ties).whole())
    assert lists[0].equals(lists[1])
    assert len(lists[0]) == 5 and lists[0].places.max() == 7


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


def test_small_problems_need_no_compiler(tmp_path):
    # a kernel folder with nothing prepared: small calls then never wait
    # for numba (a prepared folder lets them take the compiled engine)
    env = {key: value for key, value in os.environ.items()
           if key != engines.VARIABLE}
    env["NUMBA_CACHE_DIR"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-c", SMALL_CALL_WITHOUT_NUMBA],
                            capture_output=True, text=True, check=True,
                            env=env)
    assert result.stdout.strip() == "False"

"""The scikit-rebate 0.8 methods against scikit-rebate 0.8.4 on its own
example data (tests/data/scikit-rebate): the SWRF family, mu-Relief and
Iter with the scikit-rebate convention equal to its weights to 1e-12, on
each engine, the genotypes as float64 and as int8.  scikit-rebate's
weights are its recorded answers (tests.reference.scikit_rebate_answers),
but for mu-Relief's, which depend on how numpy's sort orders ties on the
CPU at hand, computed with the installed scikit-rebate; one recorded case
is computed as well, to show that they are its answers.
"""
import numpy as np
import pytest
from numpy.testing import assert_allclose

from orangecontrib.relief.core.variants import swrf
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.variants.iterative import iterated
from orangecontrib.relief.core.variants.murelief import murelief
from orangecontrib.relief.core.registry import by_name
from tests.core.engines import each_engine
from tests.reference.scikit_rebate_answers import (
    CASES, LIVE, SWRF_PEERS, answer, computed, expected)


def swrf_method(method):
    return lambda X, y, discrete: swrf.swrf_weights(
        X, y, discrete, method=method, convention="scikit-rebate")


def murelief_of(k):
    return lambda X, y, discrete: murelief(
        X, y, discrete, k_nearest=k, convention="scikit-rebate")


#: the add-on's call of each case of scikit-rebate's own data
OURS = {
    **{peer: swrf_method(method) for method, peer in SWRF_PEERS.items()},
    "mu-Relief k=10": murelief_of(10),
    "mu-Relief k=100": murelief_of(100),
    "mu-Relief k=10, three classes": murelief_of(10),
    "mu-Relief k=100, three classes": murelief_of(100),
    "Iter around MultiSURF": lambda X, y, discrete: iterated(
        by_name("MultiSURF"), X, y, discrete,
        convergence="scikit-rebate").scores,
}


@each_engine
@pytest.mark.parametrize("name", list(OURS))
def test_scikit_rebates_own_data(engine, name):
    X, y, theirs = expected(name)
    discrete = np.ones(X.shape[1], bool)
    for data in (X, X.astype(np.int8)):
        with forced(engine):
            assert_allclose(OURS[name](data, y, discrete), theirs, rtol=0,
                            atol=1e-12)


def test_the_recorded_answers_are_the_installed_scikit_rebates():
    """The installed scikit-rebate gives the recorded answer of its
    fastest case (a recording of another version, or another scikit-rebate
    installed, fails here)."""
    skrebate = pytest.importorskip("skrebate")
    assert_allclose(computed(CASES[LIVE], skrebate), answer(LIVE)[2],
                    rtol=0, atol=1e-12)

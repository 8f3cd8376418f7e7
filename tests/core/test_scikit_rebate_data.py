"""The scikit-rebate 0.8 methods against scikit-rebate 0.8.4 on its own
example data (tests/data/scikit-rebate): the SWRF family, mu-Relief and
Iter with the scikit-rebate convention equal to its weights to 1e-12, on
each engine, the genotypes as float64 and as int8.
"""
import gzip
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose

from orangecontrib.relief.core.variants import swrf
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.variants.iterative import iterated
from orangecontrib.relief.core.variants.murelief import murelief
from orangecontrib.relief.core.registry import by_name
from tests.core.engines import each_engine

DATA = Path(__file__).parent.parent / "data" / "scikit-rebate"
TWO_CLASSES = "GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.csv.gz"
THREE_CLASSES = "3Class_Datasets_Loc_2_01.csv.gz"


def table(name, step):
    """Every `step`-th row of scikit-rebate's file `name` (scikit-rebate's
    Python loops take up to half a minute a method on all 1600)."""
    with gzip.open(DATA / name, "rt") as f:
        values = np.loadtxt(f, delimiter=",", skiprows=1)[::step]
    return values[:, :-1], values[:, -1]


def swrf_pair(method, peer):
    return (lambda X, y, discrete: swrf.swrf_weights(
                X, y, discrete, method=method, convention="scikit-rebate"),
            lambda skrebate: getattr(skrebate, peer)(n_features_to_select=2,
                                                     n_jobs=1))


def murelief_pair(k):
    return (lambda X, y, discrete: murelief(
                X, y, discrete, k_nearest=k, convention="scikit-rebate"),
            lambda skrebate: skrebate.MuRelief(
                n_neighbors=k, n_features_to_select=2, n_jobs=1))


ITER = (lambda X, y, discrete: iterated(
            by_name("MultiSURF"), X, y, discrete,
            convergence="scikit-rebate").scores,
        lambda skrebate: skrebate.Iter(skrebate.MultiSURF(
            n_features_to_select=2, n_jobs=1)))

#: (method, file, every step-th row, ours, scikit-rebate's estimator).
#: Three classes of about 66 instances at k = 100: each class gives all it
#: has, and scikit-rebate weighs the misses of each class by their share
#: of the misses read.
CASES = [
    ("SWRF", TWO_CLASSES, 4, *swrf_pair("swrf", "SWRF")),
    ("SWRF*", TWO_CLASSES, 4, *swrf_pair("swrf*", "SWRFstar")),
    ("MultiSWRF", TWO_CLASSES, 4, *swrf_pair("multiswrf", "MultiSWRF")),
    ("MultiSWRF*", TWO_CLASSES, 4,
     *swrf_pair("multiswrf*", "MultiSWRFstar")),
    ("MultiSWRFDB", TWO_CLASSES, 4,
     *swrf_pair("multiswrfdb", "MultiSWRFDB")),
    ("MultiSWRFDB*", TWO_CLASSES, 4,
     *swrf_pair("multiswrfdb*", "MultiSWRFDBstar")),
    ("mu-Relief k=10", TWO_CLASSES, 4, *murelief_pair(10)),
    ("mu-Relief k=100", TWO_CLASSES, 4, *murelief_pair(100)),
    ("mu-Relief k=10, three classes", THREE_CLASSES, 8, *murelief_pair(10)),
    ("mu-Relief k=100, three classes", THREE_CLASSES, 8,
     *murelief_pair(100)),
    ("Iter around MultiSURF", TWO_CLASSES, 8, *ITER),
]


@pytest.fixture(scope="module")
def theirs():
    """scikit-rebate's weights of each case, computed once for both
    engines."""
    skrebate = pytest.importorskip("skrebate")
    found = {}

    def weights(case):
        if case not in found:
            _, name, step, _, peer = CASES[case]
            found[case] = peer(skrebate).fit(
                *table(name, step)).feature_importances_
        return found[case]
    return weights


@each_engine
@pytest.mark.parametrize("case", range(len(CASES)),
                         ids=[case[0] for case in CASES])
def test_scikit_rebates_own_data(engine, case, theirs):
    _, name, step, ours, _ = CASES[case]
    X, y = table(name, step)
    discrete = np.ones(X.shape[1], bool)
    expected = theirs(case)
    for data in (X, X.astype(np.int8)):
        with forced(engine):
            assert_allclose(ours(data, y, discrete), expected, rtol=0,
                            atol=1e-12)

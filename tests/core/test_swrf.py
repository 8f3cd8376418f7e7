"""The SWRF family (core.variants.swrf) against the slow literal reference
(tests.reference.swrf) on each engine, against scikit-rebate 0.8.4 with its
convention (small data, and its recorded answers on the shipped GAMETES
file), its sigmoid and its checks.
"""
import math

import numpy as np
import pytest
from numpy.testing import assert_allclose

from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.variants import swrf
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.formulas.neighbourhoods import (
    sigmoid_scale, sigmoid_weight)
from tests.core.engines import each_engine
from tests.core.test_surf import random_data
from tests.reference import stir as ref_stir
from tests.reference import swrf as ref
from tests.reference.scikit_rebate_answers import SWRF_PEERS, answer

METHODS = list(swrf.METHODS)
CONVENTIONS = ["add-on", "scikit-rebate"]

#: (classes, share of missing values, dyadic grid: distances on the
#: limits exactly)
CASES = [(2, 0.1, False), (3, 0.1, True), (2, 0.0, True), (3, 0.0, False)]


@each_engine
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_literal_reference_of_scikit_rebates_convention(engine, method, case):
    """scikit-rebate's convention (the add-on's, each method's default, is
    compared with the literal reference through the registry, in
    tests/core/test_reference.py)."""
    n_classes, missing, grid = CASES[case]
    X, y, discrete = random_data(case, n=20, n_classes=n_classes,
                                 missing=missing, grid=grid)
    expected = ref.swrf_family(X, y, discrete, method=method,
                               convention="scikit-rebate")
    with forced(engine):
        ours = swrf.swrf_weights(X, y, discrete, method=method,
                                 convention="scikit-rebate")
    assert_allclose(ours, expected, rtol=0, atol=1e-12)


@each_engine
@pytest.mark.parametrize("method", ["multiswrf", "multiswrfdb*"])
def test_sample_deviation_and_sampled_references(engine, method):
    X, y, discrete = random_data(7, n=20)
    options = dict(method=method, deviation="sample", n_iterations=9,
                   random_state=3)
    with forced(engine):
        ours = swrf.swrf_weights(X, y, discrete, **options)
    assert_allclose(ours, ref.swrf_family(X, y, discrete, **options),
                    rtol=0, atol=1e-12)


@each_engine
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_numeric_target_literal_reference(engine, method, missing):
    """scikit-rebate's convention for a numeric target: a reference's hits
    are the instances within the target's sample deviation of its own,
    scored as two classes."""
    X, y, discrete = random_data(4, n=20, missing=missing,
                                 task="regression")
    expected = ref.swrf_family(X, y, discrete, method=method,
                               convention="scikit-rebate", task="regression")
    with forced(engine):
        ours = swrf.swrf_weights(X, y, discrete, method=method,
                                 task="regression",
                                 convention="scikit-rebate")
    assert_allclose(ours, expected, rtol=0, atol=1e-12)


def test_numeric_target_needs_scikit_rebates_convention():
    X, y, discrete = random_data(0, n=12, task="regression")
    with pytest.raises(ReliefInputError, match="add-on's convention has no "
                                               "numeric target"):
        swrf.multiswrf(X, y, discrete, task="regression")
    with pytest.raises(ReliefInputError, match="needs classes"):
        swrf.swrf_sums(X, y, discrete, method="swrf", task="regression",
                       convention="scikit-rebate", stir=True)


def test_the_conventions_differ_where_documented():
    """Multi* near sets do not depend on the convention; a far set of
    numeric attributes does, and SWRF's global statistics do."""
    X, y, discrete = random_data(1, n=20)
    weights = {convention: {m: swrf.swrf_weights(X, y, discrete, method=m,
                                                 convention=convention)
                            for m in METHODS}
               for convention in CONVENTIONS}
    same, other = weights["add-on"], weights["scikit-rebate"]
    for method in ("multiswrf", "multiswrfdb"):
        assert_allclose(same[method], other[method], rtol=0, atol=0)
    for method in ("swrf", "swrf*", "multiswrf*", "multiswrfdb*"):
        assert np.abs(same[method] - other[method]).max() > 1e-6


def test_the_sigmoid_is_the_papers():
    """2 / (1 + exp(-4 |d - c| / sigma)) - 1 = tanh(2 |d - c| / sigma): 0 on
    the limit, symmetric about it, near 1 a deviation away; a sigma of 0
    read as 1."""
    d = np.linspace(0, 3, 31)
    for sigma in (0.3, 1.0, 2.5):
        assert_allclose(sigmoid_weight(d, 1.2, sigmoid_scale(sigma)),
                        np.tanh(2 * np.abs(d - 1.2) / sigma), atol=1e-15)
    assert sigmoid_weight(1.2, 1.2, 4.0) == 0.0
    assert sigmoid_scale(0.0) == 4.0
    assert sigmoid_weight(1e6, 0.0, 4.0) == 1.0  # the clipped exponent
    assert math.isclose(sigmoid_weight(1.0, 0.0, sigmoid_scale(1.0)),
                        math.tanh(2.0))


def test_bad_convention():
    X, y, _ = random_data(0, n=10)
    with pytest.raises(ReliefInputError, match="convention must be one of"):
        swrf.swrf(X, y, convention="skrebate")


def scikit_rebate(method, X, y):
    skrebate = pytest.importorskip("skrebate")
    return getattr(skrebate, SWRF_PEERS[method])(
        n_features_to_select=2, n_jobs=1).fit(X, y).feature_importances_


def small_tables():
    """Continuous attributes (more than scikit-rebate's 10 levels), and
    SNP codes 0/1/2 (nominal for it and for us), two classes each."""
    rng = np.random.default_rng(5)
    X = rng.random((50, 5))
    y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(float)
    snps = rng.integers(0, 3, (50, 6)).astype(float)
    y_snps = ((snps[:, 0] + snps[:, 1]) % 2).astype(float)
    return [(X, y, None), (snps, y_snps, np.ones(6, bool))]


@pytest.mark.parametrize("method", METHODS)
def test_scikit_rebate_on_small_tables(method):
    for X, y, discrete in small_tables():
        theirs = scikit_rebate(method, X, y)
        ours = swrf.swrf_weights(X, y, discrete, method=method,
                                 convention="scikit-rebate")
        assert_allclose(ours, theirs, rtol=0, atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_scikit_rebate_on_a_numeric_target(method):
    """scikit-rebate's continuous endpoint (more than 10 target values).
    The SNP table is one where no reference has an instance exactly at
    its mean distance: scikit-rebate's distances of nominal columns are
    Hamming fractions, whose rounding decides such a tie."""
    rng = np.random.default_rng(8)
    X = rng.random((50, 5))
    snps = rng.integers(0, 3, (50, 7)).astype(float)
    for X, y, discrete in ((X, X[:, 0] + rng.random(50) / 2, None),
                           (snps, snps[:, 0] + rng.random(50),
                            np.ones(7, bool))):
        theirs = scikit_rebate(method, X, y)
        ours = swrf.swrf_weights(X, y, discrete, method=method,
                                 task="regression",
                                 convention="scikit-rebate")
        assert_allclose(ours, theirs, rtol=0, atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_scikit_rebate_on_gametes(method):
    """Every fourth of the 1600 rows of the ReBATE file (scikit-rebate's
    recorded answers, tests.reference.scikit_rebate_answers), as float64
    and as int8 (read a block of columns at a time,
    :mod:`orangecontrib.relief.core.compact`)."""
    X, y, theirs = answer(f"{method} on ReBATE")
    for data in (X, X.astype(np.int8)):  # the genotypes as given, or narrow
        ours = swrf.swrf_weights(data, y, np.ones(X.shape[1], bool),
                                 method=method, convention="scikit-rebate")
        assert_allclose(ours, theirs, rtol=0, atol=1e-12)


@each_engine
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("case", [0, 1])
def test_stir_of_weighted_pairs_is_the_literal_t_test(engine, method, case):
    """Each near pair weighted by its coefficient times its sigmoid weight
    and counted by that weight, with three classes, missing values and a
    nominal attribute (any data) or numeric data only; the score is the
    method's near weight."""
    n_classes, missing, grid = CASES[1 + 2 * case]
    X, y, discrete = random_data(case, n=24, n_classes=n_classes,
                                 missing=missing, grid=grid)
    if case == 1:
        discrete = np.zeros(X.shape[1], bool)
    hits, misses, counts = ref.stir_pairs(X, y, discrete, method=method)
    (score, t, p), df = ref_stir.pairs_statistic(hits, misses, len(y),
                                                 counts=counts)
    with forced(engine):
        weights, result = significance.stir_and_weights(
            X, y, discrete, neighbourhood=method)
    assert_allclose(result.df, df, rtol=1e-12)
    assert_allclose(result.score, score, rtol=0, atol=1e-12)
    assert_allclose(result.t, t, rtol=1e-9, atol=1e-9)
    assert_allclose(result.p, p, rtol=1e-9, atol=1e-12)
    assert_allclose(weights, swrf.swrf_weights(X, y, discrete, method=method),
                    rtol=0, atol=1e-15)
    if "*" not in method:
        assert_allclose(result.score, weights, rtol=0, atol=1e-12)


def test_stir_of_weighted_pairs_refuses_what_does_not_apply():
    X, y, discrete = random_data(0, n=12)
    with pytest.raises(ReliefInputError, match="no weighted neighbours"):
        significance.stir(X, y, discrete, neighbourhood="multiswrf",
                          r_compatible=True)
    with pytest.raises(ReliefInputError, match="convention needs"):
        significance.stir(X, y, discrete, neighbourhood="multisurf",
                          convention="scikit-rebate")

"""mu-Relief (core.variants.murelief) against the slow literal reference
(tests.reference.relief.murelief) on each engine, against scikit-rebate
0.8.4 with its convention (small tables, and its answers on the shipped
GAMETES file, k = 10 and 100), and its checks.
"""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.estimators import prepared
from orangecontrib.relief.core.variants.murelief import murelief
from tests.core.engines import each_engine
from tests.core.test_surf import random_data
from tests.core.test_swrf import small_tables
from tests.reference import relief as ref
from tests.reference.scikit_rebate_answers import expected

CONVENTIONS = ["add-on", "scikit-rebate"]
#: (classes, share of missing values, dyadic grid: distances, and so
#: deviations, tie exactly)
CASES = [(2, 0.1, False), (3, 0.1, True), (2, 0.0, True), (3, 0.0, False)]


@each_engine
@pytest.mark.parametrize("k", [3, 10])
@pytest.mark.parametrize("ties", ["share", "lower-index"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_literal_reference(engine, k, ties, case):
    n_classes, missing, grid = CASES[case]
    X, y, discrete = random_data(case, n=20, n_classes=n_classes,
                                 missing=missing, grid=grid)
    expected = ref.murelief(X, y, discrete, k_nearest=k, ties=ties)
    with forced(engine):
        ours = murelief(X, y, discrete, k_nearest=k, ties=ties)
    assert_allclose(ours, expected, rtol=0, atol=1e-12)


@each_engine
@pytest.mark.parametrize("k", [3, 10])
@pytest.mark.parametrize("case", [0, 3])
def test_literal_reference_of_scikit_rebates_convention(engine, k, case):
    """On data without tied deviations (the order of equal ones is
    numpy's sort's): the reference its own hit where its class has fewer
    than k others (k = 10, 20 instances in 2 or 3 classes)."""
    n_classes, missing, _ = CASES[case]
    X, y, discrete = random_data(case, n=20, n_classes=n_classes,
                                 missing=missing)
    expected = ref.murelief(X, y, discrete, k_nearest=k,
                            convention="scikit-rebate")
    with forced(engine):
        ours = murelief(X, y, discrete, k_nearest=k,
                        convention="scikit-rebate")
    assert_allclose(ours, expected, rtol=0, atol=1e-12)


@each_engine
def test_sampled_references(engine):
    X, y, discrete = random_data(7, n=20)
    options = dict(k_nearest=4, n_iterations=9, random_state=3)
    with forced(engine):
        ours = murelief(X, y, discrete, **options)
    assert_allclose(ours, ref.murelief(X, y, discrete, **options), rtol=0,
                    atol=1e-12)


def test_the_conventions_differ_where_documented():
    """Two classes of more than k + 1 instances and no tied deviations:
    the same weights; a class of k instances or fewer: the reference is
    its own hit in scikit-rebate's."""
    X, y, discrete = random_data(1, n=40, missing=0.0)

    def both(k):
        return [murelief(X, y, discrete, k_nearest=k, convention=c)
                for c in CONVENTIONS]
    assert_allclose(*both(5), rtol=0, atol=1e-15)
    ours, theirs = both(20)
    assert np.abs(ours - theirs).max() > 1e-6


@each_engine
def test_the_farthest_from_the_class_mean_not_the_nearest(engine):
    """Instance 0 at 0: its other hits at 0.1, 0.12 and 1 (mean 0.407,
    deviations 0.307, 0.287, 0.593), its misses at 0.5, 0.52, 0.9 (mean
    0.64, deviations 0.14, 0.12, 0.26): its one hit is 1, its one miss
    0.9, where ReliefF's are 0.1 and 0.5."""
    X = np.array([[0.0], [0.1], [0.12], [1.0], [0.5], [0.52], [0.9]])
    y = np.array([0, 0, 0, 0, 1, 1, 1.0])
    data, _, kernels = prepared(X, y, None, None, 0, task="classification",
                                diff="linear", t_eq=0.04, t_diff=0.1)
    with forced(engine):
        lists = engines.kernels(engine).mean_farthest_neighbours(
            data, np.array([0]), 1).whole()
    assert [lists.indices(0, g).tolist() for g in (0, 1)] == [[3], [6]]
    assert_allclose(lists.distance, [1.0, 0.9])


@pytest.mark.parametrize("k", [1, 3, 10])
def test_the_compiled_selection_of_the_largest_deviations(k):
    """The compiled engine's selection of scikit-rebate's convention keeps
    the k + 1 largest deviations, the largest first, and tells whether two
    of them are equal (numpy's sort then orders them): on values of a
    coarse grid (ties at every place, at the k-th and (k + 1)-th among
    them), some with one value far above the others (which then share
    the lowest bucket), some of fewer than k + 1 values."""
    from orangecontrib.relief.core.engines.compiled.neighbours.farthest \
        import BUCKETS, any_equal, largest_first
    rng = np.random.default_rng(k)
    for trial in range(300):
        n = int(rng.integers(1, 40))
        deviation = rng.integers(0, rng.integers(1, 40), n) / 4.0
        if trial % 3 == 0:
            deviation[rng.integers(n)] = 1e6
        value, index = np.empty(k + 1), np.empty(k + 1, np.int64)
        size = largest_first(deviation, k, np.empty(min(BUCKETS, n), np.int64),
                             np.empty(n, np.int64), np.empty(n, np.int64),
                             value, index)
        expected = np.sort(deviation)[::-1][:k + 1]
        assert_array_equal(value[:size], expected)
        assert_array_equal(deviation[index[:size]], expected)
        assert len(set(index[:size].tolist())) == size
        assert any_equal(value, size) == (len(np.unique(expected)) < size)


def test_ties_need_the_add_ons_convention():
    X, y, _ = random_data(0, n=10)
    with pytest.raises(ReliefInputError, match="ties needs convention"):
        murelief(X, y, ties="lower-index", convention="scikit-rebate")
    with pytest.raises(ReliefInputError, match="convention must be one of"):
        murelief(X, y, convention="skrebate")


def scikit_rebate(X, y, k):
    skrebate = pytest.importorskip("skrebate")
    return skrebate.MuRelief(n_neighbors=k, n_features_to_select=2,
                             n_jobs=1).fit(X, y).feature_importances_


def three_classes():
    """Continuous attributes, three classes of 20 each."""
    rng = np.random.default_rng(2)
    X = rng.random((60, 4))
    return X, np.floor(X[:, 0] * 3), None


@pytest.mark.parametrize("k", [10, 100])
def test_scikit_rebate_on_small_tables(k):
    """Two classes of 25 (k = 100: every instance, the reference its own
    hit); three of 20 at k = 10 (each class gives k misses, which
    scikit-rebate weighs alike)."""
    tables = small_tables() + ([three_classes()] if k == 10 else [])
    for X, y, discrete in tables:
        theirs = scikit_rebate(X, y, k)
        for engine in ("compiled", "vectorised"):
            with forced(engine):
                ours = murelief(X, y, discrete, k_nearest=k,
                                convention="scikit-rebate")
            assert_allclose(ours, theirs, rtol=0, atol=1e-12)


def test_scikit_rebate_on_gametes():
    """Every fourth of the 1600 rows of the ReBATE file (200 of each
    class; scikit-rebate's answers on this machine,
    tests.reference.scikit_rebate_answers.expected), k = 10 and 100, as
    float64 and as int8 (read a block of columns at a time,
    :mod:`orangecontrib.relief.core.compact`): genotypes 0/1/2, whose
    distances tie everywhere, so that the k-th place is chosen by
    scikit-rebate's sort."""
    for k in (10, 100):
        X, y, theirs = expected(f"mu-Relief k={k} on ReBATE")
        for data in (X, X.astype(np.int8)):
            for engine in ("compiled", "vectorised"):
                with forced(engine):
                    ours = murelief(data, y, np.ones(X.shape[1], bool),
                                    k_nearest=k, convention="scikit-rebate")
                assert_allclose(ours, theirs, rtol=0, atol=1e-12,
                                err_msg=f"k={k} {data.dtype} {engine}")

"""The SURF family (core.surf) against the slow literal reference
(tests.reference.surf), between the engines, against scikit-rebate and
fast-select where the definitions agree, and on an interaction."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core import surf
from orangecontrib.relief.core.engine import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.estimators import reference_instances
from tests.core.engines import each_engine, on_each_engine
from tests.reference import surf as ref

METHODS = list(surf.NEIGHBOURHOODS)
GRID = 16


def random_data(seed, n=32, a=5, n_classes=2, missing=0.1, grid=False,
                task="classification"):
    """Numeric columns (on a dyadic grid with `grid`: exact distances, so
    that ties on a threshold are real ties), one nominal column, NaN."""
    rng = np.random.default_rng(seed)
    if grid:
        X = rng.integers(0, GRID + 1, (n, a)) / GRID
        X[:2] = [[0] * a, [1] * a]  # every column spans [0, 1]
    else:
        X = rng.random((n, a))
    X[:, 1] = rng.integers(0, 3, n)
    X[2:][rng.random((n - 2, a)) < missing] = np.nan
    discrete = np.zeros(a, bool)
    discrete[1] = True
    if task == "regression":
        y = rng.random(n)
    else:
        y = (np.arange(n) % n_classes).astype(float)
        rng.shuffle(y)
    return X, y, discrete


CASES = [  # (method, task, n_classes, diff, deviation)
    *[(m, "classification", 2, "linear", "population") for m in METHODS],
    *[(m, "classification", 3, "linear", "sample") for m in METHODS],
    *[(m, "regression", 1, "linear", "population") for m in METHODS],
    ("multisurf", "classification", 3, "squared", "population"),
    ("multisurf*", "classification", 2, "ramp", "sample"),
    ("surf*", "classification", 3, "ramp", "population"),
    ("surf", "regression", 1, "squared", "population"),
]


@each_engine
@pytest.mark.parametrize("method, task, n_classes, diff, deviation", CASES)
@pytest.mark.parametrize("grid", [False, True])
def test_the_literal_definition(engine, method, task, n_classes, diff,
                                deviation, grid):
    X, y, discrete = random_data(7, n_classes=n_classes, grid=grid, task=task)
    expected = ref.surf_family(X, y, discrete, method=method, task=task,
                               deviation=deviation, diff=diff)
    with forced(engine):
        weights = surf.neighbourhood_sums(X, y, discrete, method=method,
                                          task=task, deviation=deviation,
                                          diff=diff).weights
    assert_allclose(weights, expected, atol=1e-9)


@each_engine
@pytest.mark.parametrize("method", ["multisurf", "surf*"])
def test_stir_sums_are_the_pairs_diffs(engine, method):
    X, y, discrete = random_data(8, n_classes=3)
    hits, misses = ref.stir_pairs(X, y, discrete, method=method)
    with forced(engine):
        sums = surf.neighbourhood_sums(X, y, discrete, method=method,
                                       stir=True)
    assert sums.n_hit == len(hits[0]) and sums.n_miss == len(misses[0])
    assert_allclose(sums.hit_sum, [sum(h) for h in hits], atol=1e-9)
    assert_allclose(sums.hit_squares, [sum(v * v for v in h) for h in hits],
                    atol=1e-9)
    assert_allclose(sums.miss_sum, [sum(m) for m in misses], atol=1e-9)
    assert_allclose(sums.miss_squares,
                    [sum(v * v for v in m) for m in misses], atol=1e-9)
    plain = surf.neighbourhood_sums(X, y, discrete, method=method)
    assert_allclose(sums.weights, plain.weights, atol=1e-15)


@each_engine
@pytest.mark.parametrize("method", METHODS)
def test_sampled_references_average_their_updates(engine, method):
    """m references drawn with a seed: the mean of those references'
    updates (each reference's update is the all-references weight of data
    with only it as a reference, as the literal per-reference sum)."""
    X, y, discrete = random_data(9, n=24, missing=0.0)
    refs = reference_instances(len(y), 10, 3)
    with forced(engine):
        sampled = surf.neighbourhood_sums(X, y, discrete, method=method,
                                          n_iterations=10,
                                          random_state=3).weights
        every = np.array([surf.neighbourhood_sums(
            X, y, discrete, method=method, n_iterations=1,
            random_state=_Fixed(r)).weights for r in refs])
    assert_allclose(sampled, every.mean(axis=0), atol=1e-12)


class _Fixed(np.random.Generator):
    """A generator whose draws are always the given reference."""

    def __init__(self, reference):
        super().__init__(np.random.PCG64(0))
        self.reference = reference

    def integers(self, low, high=None, size=None, *args, **kwargs):
        return np.full(size, self.reference)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("task", ["classification", "regression"])
def test_engines_agree_on_larger_data(method, task):
    X, y, discrete = random_data(10, n=150, a=12, n_classes=3, task=task)
    results = on_each_engine(lambda: surf.neighbourhood_sums(
        X, y, discrete, method=method, task=task, stir=task != "regression"))
    compiled, vectorised = results["compiled"], results["vectorised"]
    for field in ("weights", "hit_sum", "hit_squares", "miss_sum",
                  "miss_squares"):
        assert_allclose(getattr(compiled, field), getattr(vectorised, field),
                        rtol=1e-12, atol=1e-12)
    assert compiled.n_hit == vectorised.n_hit


def binary_continuous(seed, n=120, a=8):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(int)
    return X, y


@pytest.mark.parametrize("method, peer", [("multisurf", "MultiSURF"),
                                          ("multisurf*", "MultiSURFstar")])
def test_scikit_rebate_multisurf(method, peer):
    skrebate = pytest.importorskip("skrebate")
    X, y = binary_continuous(0)
    theirs = getattr(skrebate, peer)(n_features_to_select=2,
                                     n_jobs=1).fit(X, y).feature_importances_
    ours = surf.neighbourhood_sums(X, y.astype(float), method=method).weights
    assert_allclose(ours, theirs, atol=1e-12)


def pair_distances(X):
    scaled = (X - X.min(0)) / (X.max(0) - X.min(0))
    return np.abs(scaled[:, None, :] - scaled[None, :, :]).sum(axis=2)


@pytest.mark.parametrize("method, peer", [("surf", "SURF"),
                                          ("surf*", "SURFstar")])
def test_scikit_rebate_surf_where_the_thresholds_agree(method, peer):
    """scikit-rebate's T averages the n x n matrix with its zero diagonal,
    (n - 1) / n of ours: on data where no pair distance lies between the
    two, the neighbourhoods and the weights are the same.  Bits make the
    distances integers, so that such data are easy to find."""
    skrebate = pytest.importorskip("skrebate")
    for seed in range(50):
        X, y = binary_continuous(seed, n=40)
        X = (X > 0.5).astype(float)
        D = pair_distances(X)
        pairs = D[np.triu_indices(len(X), 1)]
        T = pairs.mean()
        theirs_T = T * (len(X) - 1) / len(X)
        if not ((pairs >= theirs_T) & (pairs <= T)).any():
            break
    else:
        pytest.fail("no seed without a distance between the two thresholds")
    theirs = getattr(skrebate, peer)(n_features_to_select=2,
                                     n_jobs=1).fit(X, y).feature_importances_
    ours = surf.neighbourhood_sums(X, y.astype(float), method=method).weights
    assert_allclose(ours, theirs, atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_fast_select(method):
    pytest.importorskip("fast_select")
    from fast_select.MultiSURF import MultiSURF
    from fast_select.SURF import SURF
    X, y = binary_continuous(1, n=200, a=10)
    peer = MultiSURF if method.startswith("multi") else SURF
    theirs = peer(n_features_to_select=1.0, backend="cpu",
                  use_star=method.endswith("*")).fit(X, y).feature_importances_
    ours = surf.neighbourhood_sums(X, y.astype(float), method=method).weights
    assert_allclose(ours, theirs, atol=2e-6)


def epistasis(seed, missing=0.0):
    from orangecontrib.relief.core.generators import modulo
    problem = modulo(400, 2, 18, p=3, seed=seed)
    X, y = problem.X.astype(float), problem.y.astype(float)
    rng = np.random.default_rng(seed + 100)
    X[rng.random(X.shape) < missing] = np.nan
    return X, y, np.ones(X.shape[1], bool)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_the_interacting_pair_ranks_first(method, seed, missing):
    X, y, discrete = epistasis(seed, missing)
    weights = surf.neighbourhood_sums(X, y, discrete, method=method).weights
    assert set(np.argsort(-weights, kind="stable")[:2]) == {0, 1}


small = st.integers(0, 2 ** 31 - 1)


@settings(max_examples=20, deadline=None)
@given(seed=small, method=st.sampled_from(METHODS))
def test_properties(seed, method):
    X, y, discrete = random_data(seed, n=20, a=4, n_classes=3)
    X_before, y_before = X.copy(), y.copy()
    weights = surf.neighbourhood_sums(X, y, discrete, method=method).weights
    assert_array_equal(np.isnan(X), np.isnan(X_before))
    assert_array_equal(X[~np.isnan(X)], X_before[~np.isnan(X_before)])
    assert_array_equal(y, y_before)
    bound = 2.0 if method.endswith("*") else 1.0
    assert (np.abs(weights) <= bound + 1e-12).all()
    # the same call again: the same bits
    assert_array_equal(
        weights, surf.neighbourhood_sums(X, y, discrete, method=method).weights)
    # columns permuted: weights permuted
    order = np.random.default_rng(seed).permutation(X.shape[1])
    assert_allclose(surf.neighbourhood_sums(X[:, order], y, discrete[order],
                                            method=method).weights,
                    weights[order], atol=1e-12)
    # classes renamed: the same weights
    renamed = (y + 1) % 3
    assert_allclose(surf.neighbourhood_sums(X, renamed, discrete,
                                            method=method).weights,
                    weights, atol=1e-12)


def test_bad_input_is_named():
    X, y, discrete = random_data(0)
    with pytest.raises(ReliefInputError, match="method"):
        surf.neighbourhood_sums(X, y, discrete, method="multi")
    with pytest.raises(ReliefInputError, match="deviation"):
        surf.multisurf(X, y, discrete, deviation="unbiased")
    # two instances at least: of two classes, or of two target values
    with pytest.raises(ReliefInputError, match="single class"):
        surf.multisurf(X[:3], np.array([0.0, np.nan, np.nan]), discrete)
    with pytest.raises(ReliefInputError, match="constant"):
        surf.surf(X[:2], np.array([0.5, np.nan]), discrete, task="regression")
    bad = X.copy()
    bad[0, 0] = np.inf
    with pytest.raises(ReliefInputError, match="infinite"):
        surf.surf(bad, y, discrete)
    with pytest.raises(ReliefInputError):
        surf.multisurf(X[:, 0], y)

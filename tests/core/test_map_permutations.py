"""The label-permutation test of the interaction map
(core.networks.map_permutations) against its literal definition
(tests.reference.interactions.permutation_p), on XOR and on data without
any association, its independence of the row order, and its checks."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.networks.interactions import (interaction_map,
                                                             strongest_pairs)
from orangecontrib.relief.core.networks.map_permutations import (
    co_difference_map)
from orangecontrib.relief.core.networks.neighbour_pairs import (
    fixed_by_attributes, method_pairs, relabelled)
from tests.core.engines import each_engine
from tests.core.test_interactions import mixed, tied, xor
from tests.reference import interactions as ref


@pytest.mark.parametrize("method, data, seed", [
    ("relieff", mixed, 0), ("relieff", tied, 1), ("multisurf", mixed, 2),
    ("surf", tied, 3)])
@each_engine
def test_the_literal_definition(method, data, seed, engine):
    """ReliefF searches its k nearest of each class again for every
    permutation; the SURF family relabels its near sets."""
    X, y, discrete = data(seed, n=16, a=3)
    with forced(engine):
        got = interaction_map(X, y, discrete, method=method, k_nearest=3,
                              attributes=range(3), test="permutation",
                              n_permutations=40, random_state=seed)
    expected = ref.permutation_p(X, y, discrete, method=method, k_nearest=3,
                                 n_permutations=40, seed=seed)
    assert_allclose(got.p, expected, rtol=1e-12)
    assert got.test == "permutation" and got.n_permutations == 40
    assert np.isnan(got.statistic).all() and np.isnan(got.df)


@pytest.mark.parametrize("method", ["relieff", "multisurf"])
def test_the_xor_pair(method):
    """On a pure XOR the pair's entry is beyond every permutation's (the
    seed gives the smallest p there is); every p is a count over B + 1."""
    X, y, discrete = xor(2, n=200, noise=4)
    got = interaction_map(X, y, discrete, method=method,
                          attributes=range(6), test="permutation",
                          n_permutations=199, random_state=5)
    assert got.p[0, 1] == 1 / 200
    upper = got.p[np.triu_indices(6, 1)]
    assert ((upper >= 1 / 200) & (upper <= 1)).all()
    assert_allclose(upper * 200, np.round(upper * 200), atol=1e-9)
    assert got.q[0, 1] <= 0.05


def test_noise_pairs_under_reliefF_next_to_an_xor():
    """ReliefF's noise pairs beside an XOR: their p-values spread over
    (0, 1] (the t calls many of them significant)."""
    p = []
    for seed in range(3):
        X, y, discrete = xor(seed, n=200, noise=5)
        got = interaction_map(X, y, discrete, attributes=range(7),
                              test="permutation", n_permutations=99,
                              random_state=seed)
        p.extend(got.p[2:, 2:][np.triu_indices(5, 1)])
    p = np.array(p)
    assert np.mean(p < 0.05) <= 0.2 and 0.3 < p.mean() < 0.7


@pytest.mark.parametrize("method", ["relieff", "multisurf"])
def test_without_any_association_the_p_values_spread(method):
    """Classes drawn apart from the attributes: the null the permutations
    draw from holds, and the p-values of the pairs are about uniform."""
    p = []
    for seed in range(3):
        rng = np.random.default_rng(seed)
        X = rng.integers(0, 3, (120, 6)).astype(float)
        y = rng.integers(0, 2, 120).astype(float)
        got = interaction_map(X, y, np.ones(6, bool), method=method,
                              attributes=range(6), test="permutation",
                              n_permutations=99, random_state=seed)
        p.extend(got.p[np.triu_indices(6, 1)])
    p = np.array(p)
    assert np.mean(p < 0.05) <= 0.15 and 0.3 < p.mean() < 0.7


def test_a_numeric_target():
    """RReliefF's map of a product of two attributes, tested by
    permutations (the t needs a class)."""
    rng = np.random.default_rng(8)
    X = rng.random((120, 4))
    y = (X[:, 0] - 0.5) * (X[:, 1] - 0.5) + 0.01 * rng.random(120)
    got = interaction_map(X, y, task="regression", attributes=range(4),
                          test="permutation", n_permutations=99)
    assert got.p[0, 1] == 0.01 and got.q[0, 1] <= 0.05
    assert strongest_pairs(got)[0] == (0, 1)


@pytest.mark.parametrize("method, task", [
    ("relieff", "classification"), ("relieff", "regression"),
    ("multisurf", "classification"), ("surf", "regression")])
def test_row_order_does_not_matter(method, task):
    """The permutations are drawn in the order of the instances' contents:
    reordered rows give the same p-values, to the bit (tied binary data,
    identical rows of different classes among them)."""
    X, y, discrete = tied(6, n=60, a=5, classes=3)
    if task == "regression":
        y = np.random.default_rng(1).integers(0, 4, 60).astype(float)
    order = np.random.default_rng(0).permutation(60)
    options = dict(method=method, task=task, top_k=5, k_nearest=4,
                   test="permutation", n_permutations=150, random_state=3)
    one = interaction_map(X, y, discrete, **options)
    other = interaction_map(X[order], y[order], discrete, **options)
    assert_array_equal(one.attributes, other.attributes)
    assert_array_equal(one.p, other.p)
    assert_array_equal(one.q, other.q)
    assert np.nanmin(one.p) < 1


def test_the_seed_decides():
    X, y, discrete = tied(2, n=50, a=4)
    options = dict(attributes=range(4), test="permutation",
                   n_permutations=60)
    first = interaction_map(X, y, discrete, random_state=1, **options)
    again = interaction_map(X, y, discrete, random_state=1, **options)
    other = interaction_map(X, y, discrete, random_state=2, **options)
    assert_array_equal(first.p, again.p)
    assert not np.array_equal(first.p, other.p, equal_nan=True)


def test_missing_values_search_again():
    """RELIEF-D's diffs of a missing value depend on the classes: the
    near sets are not reused, and the map still does not depend on the
    row order."""
    X, y, discrete = mixed(4, n=50)
    X[::7, 0] = np.nan
    pairs = method_pairs(X, y, discrete, method="multisurf")
    assert not fixed_by_attributes("multisurf", pairs, "classification")
    assert fixed_by_attributes(
        "multisurf", method_pairs(X[:, 1:], y, discrete[1:],
                                  method="multisurf"), "classification")
    order = np.random.default_rng(1).permutation(50)
    options = dict(method="multisurf", attributes=range(4),
                   test="permutation", n_permutations=40)
    one = interaction_map(X, y, discrete, **options)
    other = interaction_map(X[order], y[order], discrete, **options)
    assert_array_equal(one.p, other.p)


@pytest.mark.parametrize("method, task, fixed", [
    ("relieff", "classification", False), ("relief", "classification", False),
    ("relieff", "regression", True), ("multisurf", "classification", True),
    ("surf*", "regression", True)])
def test_which_pairs_are_kept_and_their_multipliers(method, task, fixed):
    """The pairs kept over the permutations, relabelled as they are, have
    the method's multipliers; those of the others are found again."""
    X, y, discrete = mixed(6, n=40)
    if task == "regression":
        y = np.random.default_rng(2).random(40)
    pairs = method_pairs(X, y, discrete, method=method, task=task)
    assert fixed_by_attributes(method, pairs, task) is fixed
    if not fixed:
        return
    order = np.random.default_rng(3).permutation(40)
    found = method_pairs(X, y[order], discrete, method=method, task=task)
    for got, expected in ((relabelled(pairs, np.arange(40), task), pairs),
                          (relabelled(pairs, order, task), found)):
        assert_allclose(by_pair(got), by_pair(expected), rtol=1e-12,
                        atol=1e-18)


def by_pair(pairs):
    """(first, second, miss, hit) rows of `pairs`, sorted by the pair."""
    rows = np.column_stack([pairs.first, pairs.second, pairs.miss,
                            pairs.hit])
    return rows[np.lexsort((pairs.second, pairs.first))]


def test_the_permuted_maps_are_the_maps():
    """The map the permutations are compared with is the map's Delta."""
    X, y, discrete = mixed(5, n=40)
    pairs = method_pairs(X, y, discrete, method="multisurf")
    got = interaction_map(X, y, discrete, method="multisurf",
                          attributes=range(4), test=None)
    diffs = pairs.kernels.pair_diffs(pairs.data.exact, pairs.first,
                                     pairs.second, np.arange(4))
    assert_allclose(co_difference_map(diffs, pairs.miss, pairs.hit),
                    got.interaction, rtol=1e-10, atol=1e-15)


def test_an_attribute_that_never_differs_is_not_tested():
    X, y, discrete = xor(4, n=80, noise=3)
    X[:, 3] = 1
    got = interaction_map(X, y, discrete, attributes=[0, 1, 3],
                          names=list("abcde"), test="permutation",
                          n_permutations=20)
    assert np.isnan(got.p[0, 2]) and np.isnan(got.q[1, 2])
    assert not np.isnan(got.p[0, 1])
    assert any("a x d" in note for note in got.notes)


@pytest.mark.parametrize("options, message", [
    (dict(n_permutations=0), "n_permutations must be"),
    (dict(n_permutations=2.5), "n_permutations must be"),
    (dict(random_state="x"), "random_state must be"),
    (dict(test="t", task="regression"), "test=.permutation. tests it"),
])
def test_bad_options(options, message):
    X, y, discrete = xor(3, n=40, noise=2)
    if options.get("task") == "regression":
        y = np.random.default_rng(0).random(40)
    with pytest.raises(ReliefInputError, match=message):
        interaction_map(X, y, discrete, **{"test": "permutation", **options})


def test_progress_runs_through_the_permutations():
    X, y, discrete = tied(3, n=40, a=4)
    seen = []
    interaction_map(X, y, discrete, attributes=range(4), test="permutation",
                    n_permutations=50, progress_callback=seen.append)
    assert seen[-1] == 1.0 and np.all(np.diff(seen) >= 0)
    assert len([value for value in seen if 0.1 < value < 1]) >= 5

"""The Relief interaction map (core.networks.interactions, over the pairs of
core.networks.neighbour_pairs) against its literal definition
(tests.reference.interactions), the weights its pairs give, known answers
(XOR, main effects alone, the ReBATE file's interacting pair) and its
checks."""
import gzip
import os

import numba
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core import relieff, rrelieff
from orangecontrib.relief.core.variants import surf
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.networks.interactions import (clustered_order,
                                                             interaction_map,
                                                             pair_weights,
                                                             strongest_pairs)
from orangecontrib.relief.core.networks.neighbour_pairs import method_pairs
from tests.core.engines import each_engine
from tests.core.test_thread_count import threads
from tests.reference import interactions as ref

GAMETES = os.path.join(os.path.dirname(__file__), os.pardir, "data",
                       "gametes_2way_a20_s1600_her0.4_maf0.2_EDM-1_01.txt.gz")


def mixed(seed, n=40, a=4, classes=2):
    """Numeric attributes without ties (column 1 nominal), a class."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    X[:, 1] = rng.integers(0, 3, n)
    y = rng.integers(0, classes, n).astype(float)
    discrete = np.zeros(a, bool)
    discrete[1] = True
    return X, y, discrete


def xor(seed, n=400, noise=8, bits=2):
    """`bits` XOR bits (columns 0..bits-1) and `noise` random bits."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, bits + noise)).astype(float)
    return X, X[:, :bits].sum(axis=1) % 2, np.ones(bits + noise, bool)


def tied(seed, n=40, a=4, classes=2):
    """Few binary attributes: many neighbours tie at the k-th distance."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, a)).astype(float)
    return X, rng.integers(0, classes, n).astype(float), np.ones(a, bool)


@pytest.mark.parametrize("method, data, seed, ties", [
    ("relieff", mixed, 0, "share"), ("relieff", mixed, 1, "share"),
    ("relieff", tied, 2, "share"), ("relieff", tied, 3, "share"),
    ("relieff", tied, 4, "lower-index"),
    ("multisurf", mixed, 2, "share"), ("surf", mixed, 3, "share"),
    ("multisurf", tied, 5, "share"), ("surf", tied, 6, "share")])
@each_engine
def test_the_literal_definition(method, data, seed, ties, engine):
    """Tied neighbours weigh by their share of the places (or, by the
    lower-index rule, the lower indices take them)."""
    X, y, discrete = data(seed, classes=2 + seed % 2)
    with forced(engine):
        got = interaction_map(X, y, discrete, method=method, k_nearest=3,
                              attributes=range(4), ties=ties)
    co, delta, t, weights = ref.interaction_map(
        X, y, discrete, method=method, k_nearest=3, ties=ties)
    assert_allclose(got.co_difference, co, rtol=1e-10, atol=1e-14)
    assert_allclose(got.interaction, delta, rtol=1e-10, atol=1e-14)
    assert_allclose(got.statistic, t, rtol=1e-8)
    assert_allclose(got.weights, weights, rtol=1e-10, atol=1e-14)
    assert got.df == len(y) - 1


@pytest.mark.parametrize("method, task, weigh", [
    ("relieff", "classification", lambda X, y, d: relieff(X, y, d)),
    ("relief", "classification",
     lambda X, y, d: relieff(X, y, d, k_nearest=1)),
    ("relieff", "regression", lambda X, y, d: rrelieff(X, y, d)),
    ("multisurf", "classification", lambda X, y, d: surf.multisurf(X, y, d)),
    ("surf", "classification", lambda X, y, d: surf.surf(X, y, d)),
    ("multisurf", "regression",
     lambda X, y, d: surf.multisurf(X, y, d, task="regression"))])
@each_engine
def test_the_pairs_give_the_methods_weights(method, task, weigh, engine):
    """The map reads the pairs the weights use: their multipliers give
    the method's weights, missing values (RELIEF-D) and three classes
    too."""
    X, y, discrete = mixed(4, n=60, a=5, classes=3)
    X[::7, 2] = np.nan
    if task == "regression":
        y = np.random.default_rng(5).random(60)
    elif method == "relief":
        y = y % 2
    with forced(engine):
        pairs = method_pairs(X, y, discrete, method=method, task=task)
        expected = weigh(X, y, discrete)
    assert_allclose(pair_weights(pairs)[0], expected, rtol=1e-12,
                    atol=1e-15)


@each_engine
@pytest.mark.parametrize("method", ["multisurf", "surf", "relieff"])
def test_counted_sums_are_the_pairs_sums(method, engine):
    """On genotypes (three levels, three classes) the sums of every
    attribute's diffs are counted over the near sets; they are the sums
    taken pair by pair, and the weights the method's."""
    rng = np.random.default_rng(6)
    X = rng.integers(0, 3, (120, 6)).astype(float)
    y = (X[:, 0] + X[:, 1]) % 3
    discrete = np.ones(6, bool)
    with forced(engine):
        pairs = method_pairs(X, y, discrete, method=method)
        counted = pair_weights(pairs)
        expected = pairs.kernels.pair_sums(pairs.data.exact, pairs.first,
                                           pairs.second, pairs.miss,
                                           pairs.hit)
        weights = {"multisurf": surf.multisurf, "surf": surf.surf,
                   "relieff": relieff}[method](X, y, discrete)
    assert_allclose(counted[0], expected[0], rtol=1e-12, atol=1e-15)
    assert_allclose(counted[2], expected[1:3].T, rtol=1e-12, atol=1e-15)
    assert_array_equal(counted[1], expected[3] > 0)
    assert_allclose(counted[0], weights, rtol=1e-12, atol=1e-15)


def test_the_diagonal_is_the_weights_where_diffs_are_0_or_1():
    X, y, discrete = xor(0, n=200)
    got = interaction_map(X, y, discrete, top_k=10, test=None)
    assert_allclose(np.diag(got.co_difference), got.weights[got.attributes],
                    rtol=1e-12)
    assert_allclose(got.co_difference - got.marginal, got.interaction,
                    atol=1e-15)


@pytest.mark.parametrize("method", ["relieff", "multisurf"])
def test_pure_xor_is_the_strongest_negative_entry(method):
    """A miss differs in exactly one XOR bit, a hit in both or neither:
    Delta of the pair is strongly negative and the largest, significant;
    the noise pairs are not near it."""
    X, y, discrete = xor(1)
    got = interaction_map(X, y, discrete, method=method, top_k=10)
    a, b = strongest_pairs(got)[0]
    assert {got.attributes[a], got.attributes[b]} == {0, 1}
    assert got.interaction[a, b] < 0 and got.q[a, b] < 1e-6
    others = np.abs(got.interaction[np.triu_indices(10, 1)])
    assert np.sort(others)[-2] < 0.25 * others.max()
    order = list(clustered_order(got.interaction))
    assert abs(order.index(a) - order.index(b)) == 1


@pytest.mark.parametrize("seed", range(3))
def test_main_effects_are_far_weaker_than_an_interacting_pair(seed):
    """Two attributes that each shift the class and an XOR pair that
    shifts it too: the XOR pair is the strongest, the pair of main effects
    a small fraction of it (not 0: near neighbours differ in few
    attributes, so that any two diffs are negatively dependent, more so
    among the misses)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (800, 10)).astype(float)
    odds = -1.5 + 1.5 * X[:, 0] + 1.5 * X[:, 1] + 3 * (X[:, 2] != X[:, 3])
    y = (rng.random(800) < 1 / (1 + np.exp(-odds))).astype(float)
    got = interaction_map(X, y, np.ones(10, bool), top_k=10)
    at = list(got.attributes).index
    a, b = strongest_pairs(got)[0]
    assert {got.attributes[a], got.attributes[b]} == {2, 3}
    assert (abs(got.interaction[at(0), at(1)])
            < 0.2 * abs(got.interaction[at(2), at(3)]))


def test_the_rebate_files_interacting_pair():
    with gzip.open(GAMETES, "rt") as file:
        table = np.loadtxt(file, skiprows=1)
    X, y = table[:, :-1], table[:, -1]
    got = interaction_map(X, y, np.ones(20, bool))
    a, b = strongest_pairs(got)[0]
    assert {got.attributes[a], got.attributes[b]} == {18, 19}


@pytest.mark.parametrize("task", ["classification", "regression"])
@each_engine
def test_row_order_does_not_matter(task, engine):
    """On binary data most k-nearest lists end in a tie: the tied
    candidates share the last places, so that permuting the rows permutes
    nothing in the map."""
    X, y, discrete = tied(6, n=60, a=5, classes=3)
    if task == "regression":
        y = np.random.default_rng(1).integers(0, 4, 60).astype(float)
    test = "t" if task == "classification" else None
    order = np.random.default_rng(0).permutation(60)
    with forced(engine):
        one = interaction_map(X, y, discrete, task=task, top_k=5,
                              k_nearest=4, test=test)
        other = interaction_map(X[order], y[order], discrete, task=task,
                                top_k=5, k_nearest=4, test=test)
    assert_array_equal(one.attributes, other.attributes)
    assert_allclose(one.weights, other.weights, rtol=1e-12, atol=1e-15)
    assert_allclose(one.interaction, other.interaction, rtol=1e-10,
                    atol=1e-15)
    assert_allclose(one.statistic, other.statistic, rtol=1e-8)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2,
                    reason="numba may use one thread only")
@pytest.mark.parametrize("method", ["relieff", "multisurf"])
@pytest.mark.parametrize("data", [xor, mixed])
def test_the_thread_count_does_not_matter(method, data):
    """The compiled sums are added in blocks fixed by the data, never in
    the order the threads finish: 0/1 diffs (counted) and numeric ones
    (multiplied out) give the same bits with one thread as with two."""
    X, y, discrete = data(8, n=300)
    maps = []
    with forced("compiled"):
        for count in (1, 2):
            with threads(count):
                maps.append(interaction_map(X, y, discrete, method=method))
    one, two = maps
    for field in ("weights", "interaction", "statistic"):
        assert_array_equal(getattr(one, field), getattr(two, field))


def test_engines_agree():
    X, y, discrete = mixed(7, n=50, a=5)
    with forced("compiled"):
        compiled = interaction_map(X, y, discrete, method="multisurf")
    with forced("vectorised"):
        vectorised = interaction_map(X, y, discrete, method="multisurf")
    assert_allclose(compiled.interaction, vectorised.interaction,
                    rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("options, message", [
    (dict(top_k=9), "top_k=9 is more than the 8 attributes"),
    (dict(task="regression"), "needs a class; the target is numeric"),
    (dict(attributes=[0]), "at least two distinct columns"),
    (dict(test="z"), "test must be one of .t., .permutation. or None"),
    (dict(method="rrelieff"), "method must be one of"),
])
def test_bad_input(options, message):
    X, y, discrete = xor(3, n=60, noise=6)
    if options.get("task") == "regression":
        y = np.random.default_rng(0).random(60)
    with pytest.raises(ReliefInputError, match=message):
        interaction_map(X, y, discrete, **options)


def test_one_attribute():
    with pytest.raises(ReliefInputError, match="at least two attributes"):
        interaction_map(np.zeros((10, 1)), np.arange(10) % 2)


def test_constant_attributes_and_pairs_that_never_differ():
    """A constant attribute is left out, by name; a pair of attributes
    whose product never varies over the pairs has no test, by name."""
    X, y, discrete = xor(4, n=80, noise=3)
    X[:, 3] = 1
    got = interaction_map(X, y, discrete, names=list("abcdE"))
    assert 3 not in got.attributes
    assert "constant): d" in got.notes[0]
    only = X.copy()
    only[:, 4] = 0
    only[:2, 4] = 1  # differs on a few pairs only
    got = interaction_map(only, y, discrete, attributes=[3, 4],
                          names=list("abcde"))
    assert any("never differs" in note and "d x e" in note
               for note in got.notes)
    assert np.isnan(got.p[0, 1])


@pytest.mark.parametrize("method", ["relief", "relieff"])
def test_attributes_all_constant_are_a_clear_error(method):
    """Every attribute at code 0: the pairs exist (the k nearest, all
    tied) but nothing differs, so nothing is counted."""
    with pytest.raises(ReliefInputError, match="differ over the"):
        interaction_map(np.zeros((50, 3)), np.arange(50) % 2,
                        np.ones(3, bool), method=method)


def test_regression_maps_untested():
    rng = np.random.default_rng(8)
    X = rng.random((80, 4))
    y = X[:, 0] * X[:, 1] + 0.01 * rng.random(80)
    got = interaction_map(X, y, task="regression", test=None)
    assert np.isnan(got.p).all() and got.interaction.shape == (4, 4)


def test_the_three_pairs_of_a_three_bit_xor_are_the_top_three():
    """The bits of a 3-way XOR weigh little or negative (Freda et al.
    2024), so the map takes the best by magnitude; each of their three
    pairs is stronger than any pair with a noise bit."""
    X, y, discrete = xor(5, n=800, noise=7, bits=3)
    got = interaction_map(X, y, discrete, method="multisurf", top_k=10,
                          absolute=True)
    top = {frozenset(int(got.attributes[i]) for i in pair)
           for pair in strongest_pairs(got)[:3]}
    assert top == {frozenset(p) for p in ((0, 1), (0, 2), (1, 2))}

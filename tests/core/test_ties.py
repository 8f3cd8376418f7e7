"""Neighbours tied at the k-th distance share the places left.

* A hand-computed case: one reference whose k-th hit and k-th miss are
  tied, under both rules.
* The shares are the expectation over a uniformly random tie-break: the
  mean of the lower-index rule's results over every order of the rows.
* Every registered variant gives the same weights, to 1e-12, whatever
  the order of the rows (every instance a reference), on data whose
  distances tie: discrete, mixed, all rows alike, and rows repeated with
  different classes; the lower-index rule does not.
* The lists stay in parts of bounded size where every candidate ties.
* The compiled search's lists take the same tie sets and shares as
  :meth:`Neighbours.ranked` gives the vectorised engine's.
"""
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core import engines, neighbours
from orangecontrib.relief.core.engines.compiled.neighbours.entries import (
    laid_end_to_end)
from orangecontrib.relief.core.variants import estimators
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.neighbours import Neighbours
from orangecontrib.relief.core.prepare import prepare
from orangecontrib.relief.core.steps import ReliefSteps
from tests.core.engines import each_engine
from tests.variants import (VARIANT_TASKS, each_variant_task,
                            matrix_options, rng_of, variant_task_id)

#: the hand-computed case: reference 0 = (0, 0, 0) of class 0; its hits
#: are a twin (distance 0) and three at distance 1, its misses one at
#: distance 1 and three at distance 2 (nominal attributes)
BY_HAND = np.array([[0, 0, 0], [0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0],
                    [1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 0, 1]], float)
BY_HAND_CLASS = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1], float)


@each_engine
@pytest.mark.parametrize("ties, update", [
    # k = 3.  "share": the hits at distance 1 share places 1 and 2, 2/3
    # each: sum (2/3)(1, 1, 1), mean over 3 (2/9, 2/9, 2/9); the misses at
    # distance 2 share places 1 and 2: (1, 0, 0) + (2/3)(2, 2, 2), mean
    # (7/9, 4/9, 4/9); update = misses - hits
    ("share", [Fraction(5, 9), Fraction(2, 9), Fraction(2, 9)]),
    # "lower-index": hits 1, 2, 3: (0, 1, 1) / 3; misses 5, 6, 7:
    # (2, 2, 1) / 3
    ("lower-index", [Fraction(2, 3), Fraction(1, 3), Fraction(0)])])
def test_a_tie_at_the_k_th_place_by_hand(engine, ties, update):
    with engines.forced(engine):
        step = ReliefSteps(BY_HAND, BY_HAND_CLASS, np.ones(3, bool),
                           k_nearest=3, ties=ties).step(0)
    assert_allclose(step.update, [float(u) for u in update], atol=1e-15)
    if ties == "share":
        assert_array_equal(step.shares, [1] + [2 / 3] * 3 + [1] + [2 / 3] * 3)
        assert_array_equal(step.tied, [1, 3, 3, 3, 1, 3, 3, 3])
    else:  # one place each: every entry a tie set of its own
        assert_array_equal(step.shares, [1] * 6)
        assert_array_equal(step.tied, [1] * 6)


def test_rank_weights_of_a_shared_tie_are_the_mean_of_its_places():
    """A list of k = 3: one entry at place 0, three tied for places 1 and
    2 (1 beyond k): each takes (w1 + w2) / 3."""
    lists = Neighbours.ranked(3, 1, [0, 4], [7, 3, 5, 9],
                              [0.1, 0.4, 0.4, 0.4], "share")
    w = np.array([0.9, 0.5, 0.2])
    assert_array_equal(lists.share, [1, 2 / 3, 2 / 3, 2 / 3])
    assert_array_equal(lists.place_weights(w), [0.9] + [2 / 3 * 0.35] * 3)
    assert lists.places.tolist() == [[3]]
    assert lists.truncated(2).share.tolist() == [1, 1 / 3, 1 / 3, 1 / 3]
    assert lists.truncated(1).index.tolist() == [7]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), k=st.integers(1, 5),
       shared=st.booleans())
def test_the_compiled_lists_take_their_places_as_neighbours_ranked(
        seed, k, shared):
    """The compiled search lays its lists end to end and gives each entry
    its tie set and share in one loop (:func:`laid_end_to_end`); the
    vectorised engine's lists take them from :meth:`Neighbours.ranked`.
    Both follow one rule: lists of 2 x 3 references and groups, some
    empty, their sorted distances drawn from a few values (ties at every
    place, the k-th among them), give the same fields."""
    rng = np.random.default_rng(seed)
    width = 7
    count = rng.integers(0, width + 1, (2, 3))
    dist = np.sort(rng.integers(0, 3, (2, 3, width)), axis=-1) / 4
    index = rng.permutation(50)[:2 * 3 * width].reshape(2, 3, width)
    laid = laid_end_to_end(index, dist, count, k, shared)
    ties = "share" if shared else "lower-index"
    listed = np.arange(width) < count[..., None]
    ranked = Neighbours.ranked(k, 3, laid[0], index[listed], dist[listed],
                               ties)
    assert Neighbours(k, 3, ties, *laid).equals(ranked)


def every_order(X, y, compute):
    """The mean of `compute(X[order], y[order])` over every order of the
    rows."""
    results = [compute(X[list(order)], y[list(order)])
               for order in itertools.permutations(range(len(y)))]
    return np.mean(results, axis=0)


#: five instances, two nominal attributes: most lists tie at the k-th
EXPECTATION_X = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [0, 0]], float)
EXPECTATION_Y = np.array([0, 0, 0, 1, 1], float)


@each_engine
@pytest.mark.parametrize("k, discrete", [(1, np.ones(2, bool)),
                                         (2, np.zeros(2, bool))],
                         ids=["k1-nominal", "k2-numeric"])
def test_shares_are_the_expectation_over_random_tie_breaks(engine, k,
                                                           discrete):
    """ReliefF is linear in its neighbours' terms: its weights with shared
    places are the mean of the lower-index weights over every order of
    the rows (each order a uniformly random tie-break).  The 0/1 columns
    read as nominal codes or as numbers give the same diffs, through the
    updates' nominal and numeric forms."""
    with engines.forced(engine):
        shared = estimators.relieff(EXPECTATION_X, EXPECTATION_Y, discrete,
                                    k_nearest=k)
        expected = every_order(
            EXPECTATION_X, EXPECTATION_Y,
            lambda X, y: estimators.relieff(X, y, discrete, k_nearest=k,
                                            ties="lower-index"))
    assert_allclose(shared, expected, rtol=0, atol=1e-12)
    assert not np.allclose(shared, estimators.relieff(
        EXPECTATION_X, EXPECTATION_Y, discrete, k_nearest=k,
        ties="lower-index"), atol=1e-3)


@each_engine
def test_rank_weighted_sums_are_the_expectation_over_random_tie_breaks(
        engine):
    """RReliefF's sums N_dC, N_dA, N_dCdA with shared places (each tied
    neighbour the mean influence of its places) are the mean of the
    lower-index sums over every order of the rows."""
    target = np.array([0.1, 0.5, 0.2, 0.9, 0.4])

    def sums(X, y, ties):
        data = prepare(X, y, np.ones(2, bool), task="regression",
                       engine=engine)
        refs = np.arange(len(y))
        kernels = engines.kernels(engine)
        weights = estimators.rank_weights(3, count=len(y))
        lists = kernels.find_neighbours(data, refs, 3, ties=ties)
        n_dc, n_da, n_dcda = kernels.rrelieff_sums(data.exact, refs, lists,
                                                   data.target, weights)
        return np.concatenate([[n_dc], n_da, n_dcda])

    expected = every_order(EXPECTATION_X, target,
                           lambda X, y: sums(X, y, "lower-index"))
    assert_allclose(sums(EXPECTATION_X, target, "share"), expected, rtol=0,
                    atol=1e-12)


def tied_data(kind, task, rng):
    """(X, y, discrete) of a kind whose distances tie: "discrete" (three
    values, nominal), "mixed" (nominal columns and numeric ones on a grid
    of halves, some missing), "identical" (every row alike) and
    "duplicates" (a few rows, each repeated with both classes)."""
    n = 36
    if kind == "discrete":
        X = rng.integers(0, 3, (n, 5)).astype(float)
        discrete = np.ones(5, bool)
    elif kind == "mixed":
        X = np.round(rng.random((n, 5)) * 2) / 2
        X[:, :2] = rng.integers(0, 3, (n, 2))
        X[rng.random(X.shape) < 0.1] = np.nan
        discrete = np.arange(5) < 2
    elif kind == "identical":
        X, discrete = np.ones((n, 4)), np.zeros(4, bool)
    else:
        X = rng.integers(0, 2, (6, 4)).astype(float)[np.arange(n) % 6]
        discrete = np.array([True, True, False, False])
    y = (np.arange(n) % 2 if task == "classification"
         else np.round(rng.random(n), 1)).astype(float)
    return X, y, discrete


KINDS = ("discrete", "mixed", "identical", "duplicates")


def weights_or_error(variant, task, X, y, discrete):
    """The variant's weights (:func:`matrix_options`), or the message of
    the error it raises."""
    try:
        return variant.weights(X, y, discrete, task=task,
                               **matrix_options(variant))
    except ReliefInputError as error:
        return str(error)


def assert_same(first, second):
    if isinstance(first, str) or isinstance(second, str):
        assert first == second
    else:
        assert_allclose(first, second, rtol=0, atol=1e-12)


@each_variant_task
@pytest.mark.parametrize("kind", KINDS)
def test_row_order_changes_no_weight(variant, task, kind):
    """Every registered variant, each instance a reference: two orders of
    the rows, on both engines (the SURF family is order-free by
    definition; the k-nearest ones by sharing tied places, the double
    variants by taking their references in the order of their
    content)."""
    rng = rng_of("row order", variant.name, task, kind)
    X, y, discrete = tied_data(kind, task, rng)
    for engine in engines.ENGINES:
        with engines.forced(engine):
            given = weights_or_error(variant, task, X, y, discrete)
            for _ in range(2):
                order = rng.permutation(len(y))
                assert_same(weights_or_error(variant, task, X[order],
                                             y[order], discrete), given)


#: the variants whose lists place tied neighbours
TAKE_TIES = [(variant, task) for variant, task in VARIANT_TASKS
             if variant.takes_ties]


@pytest.mark.parametrize("variant, task", TAKE_TIES,
                         ids=[variant_task_id(*pair) for pair in TAKE_TIES])
def test_the_lower_index_rule_depends_on_the_row_order(variant, task):
    """What the property above guards against: with the tied places given
    to the lower indices, a permutation of discrete rows changes the
    weights of every variant that takes the rule."""
    rng = rng_of("lower index", variant.name, task)
    X, y, discrete = tied_data("discrete", task, rng)
    options = matrix_options(variant, ties="lower-index")
    given = variant.weights(X, y, discrete, task=task, **options)
    order = rng.permutation(len(y))
    permuted = variant.weights(X[order], y[order], discrete, task=task,
                               **options)
    assert np.abs(permuted - given).max() > 1e-6


@each_engine
def test_lists_of_alike_rows_come_in_bounded_parts(engine, monkeypatch):
    """Every candidate ties where every row is alike: a list holds its
    whole group, and the parts hold PART_ENTRIES candidates at most (one
    block of references at least); the weights are 0."""
    monkeypatch.setattr(neighbours, "PART_ENTRIES", 2 ** 15)
    monkeypatch.setattr(neighbours, "KEPT_ENTRIES", 2 ** 16)
    n = 400
    X, y = np.ones((n, 3)), (np.arange(n) % 2).astype(float)
    data = prepare(X, y, engine=engine)
    lists = engines.kernels(engine).find_neighbours(data, np.arange(n), 10)
    parts = list(lists)
    assert len(parts) > 1
    for start, part in parts:
        assert part.n_entries <= max(neighbours.PART_ENTRIES,
                                     neighbours.PART_ALIGN * n)
        own = (start + np.arange(len(part))) % 2  # the other of the class
        assert_array_equal(part.counts, n // 2 - (own[:, None] == [0, 1]))
    with engines.forced(engine):
        assert_array_equal(estimators.relieff(X, y), 0)

"""Iter (core.variants.iterative) around every variant that weights its distance:
its rounds by hand, against the slow literal reference
(tests.reference.iterative) on each engine, against scikit-rebate 0.8.4's
``Iter`` (small tables and the shipped GAMETES file), row order, narrow
input and its checks.  On the GAMETES file scikit-rebate's answers are
recorded (tests.reference.scikit_rebate_answers).
"""
import inspect

import numpy as np
import pytest
from numpy.testing import assert_allclose

from orangecontrib.relief.core.variants import estimators
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.iterative import (
    CONVERGED, LAST_ROUND, NO_WEIGHT, distance_weights_of, iterate, iterated)
from orangecontrib.relief.core.registry import VARIANTS, by_name
from tests.core.engines import each_engine, on_each_engine
from tests.core.test_surf import random_data
from tests.reference.iterative import iterative as literal_iter
from tests.reference.scikit_rebate_answers import answer
from tests.variants import literal

#: the variants that take distance weights, and the options each is
#: called with here (tied neighbours placed by the lower index, as
#: scikit-rebate's sort mostly places them)
WEIGHING = [variant for variant in VARIANTS
            if "distance_weights" in variant.parameters]
#: scikit-rebate's estimator of each variant both define, and its options
PEERS = {"ReliefF": ("ReliefF", {"n_neighbors": 10}), "SURF": ("SURF", {}),
         "SURF*": ("SURFstar", {}), "MultiSURF": ("MultiSURF", {}),
         "MultiSURF*": ("MultiSURFstar", {})}
OURS = {"ReliefF": {"k_nearest": 10, "ties": "lower-index"}}


def fixed_scorer(table):
    """A scorer whose scores are a function of the distance weights
    (table[round] + the weights), recording the weights it got."""
    seen = []

    def score(weights, progress_callback=None):
        seen.append(None if weights is None else weights.copy())
        extra = 0.0 if weights is None else weights
        return table[len(seen) - 1] + extra
    return score, seen


# =================================================================
# The rounds
# =================================================================

def test_rounds_by_hand():
    """w_2 = T(W_1); w_t = w_(t-1) + beta (T(W_(t-1)) - w_(t-1))."""
    table = np.array([[0.4, -0.2, 0.1], [0.0, 0.3, -0.1],
                      [0.2, 0.2, 0.2], [0.1, 0.0, 0.0]])
    score, seen = fixed_scorer(table)
    result = iterate(score, max_rounds=4, beta=0.25)
    assert seen[0] is None
    assert_allclose(seen[1], [1.0, 0.0, 0.25], rtol=0, atol=1e-15)
    scores_2 = table[1] + seen[1]  # [1.0, 0.3, 0.15]
    target = scores_2 / scores_2.max()
    assert_allclose(seen[2], seen[1] + 0.25 * (target - seen[1]), atol=1e-15)
    assert_allclose(seen[2], [1.0, 0.075, 0.225], atol=1e-15)
    assert len(result.rounds) == 4 and result.stopped == LAST_ROUND
    assert_allclose(result.scores, table[3] + seen[3], atol=1e-15)
    for (weights, scores), given in zip(result.rounds, seen):
        assert weights is given or np.array_equal(weights, given)


def test_the_distance_weights_of_scores():
    scores = np.array([0.5, -0.25, 0.0, np.nan, 0.25])
    assert_allclose(distance_weights_of(scores), [1, 0, 0, 0, 0.5])
    assert_allclose(distance_weights_of(scores, absolute=True),
                    [1, 0.5, 0, 0, 0.5])
    assert_allclose(distance_weights_of(-np.abs(scores)), np.zeros(5))


def test_no_change_stops_the_rounds():
    """The change is measured between the scores of two rounds: once every
    score moves by less than tol, the rounds stop (a move of tol itself
    does not stop them)."""
    def scorer(*second):
        table = np.array([[0.5, 0.25], second, second])
        return fixed_scorer(table - [[0, 0], [1, 0.5], [1, 0.5]])[0]
    result = iterate(scorer(0.5, 0.375), tol=0.25)
    assert result.stopped == CONVERGED and len(result.rounds) == 2
    result = iterate(scorer(0.5, 0.5), tol=0.25, max_rounds=2)
    assert result.stopped == LAST_ROUND and len(result.rounds) == 2


def test_no_positive_weight_stops_with_the_last_scores():
    """Scores all <= 0 would weight every distance by 0 (scikit-rebate's
    Hamming distance 0 / 0): the rounds stop with those scores."""
    score, seen = fixed_scorer(np.array([[-0.1, 0.0, -0.3]] * 3))
    result = iterate(score)
    assert result.stopped == NO_WEIGHT and len(seen) == 1
    assert_allclose(result.scores, [-0.1, 0.0, -0.3])
    score, seen = fixed_scorer(np.array([[-0.1, 0.0, -0.3]] * 3))
    assert iterate(score, absolute=True).stopped != NO_WEIGHT


def test_a_single_round_is_the_variant():
    X, y, discrete = random_data(3, n=20)
    variant = by_name("MultiSURF")
    assert_allclose(iterated(variant, X, y, discrete, max_rounds=1).scores,
                    variant.weights(X, y, discrete), rtol=0, atol=0)


# =================================================================
# The literal definition, on each engine
# =================================================================

CASES = [  # (seed, task, classes, missing values)
    (0, "classification", 2, 0.1), (1, "classification", 3, 0.0),
    (2, "regression", 1, 0.1)]


@pytest.mark.parametrize("variant", WEIGHING, ids=lambda v: v.name)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_literal_reference(variant, case):
    seed, task, n_classes, missing = CASES[case]
    if not variant.fits(task, n_classes):
        pytest.skip(f"{variant.name} does not weigh this class")
    X, y, discrete = random_data(seed, n=20, n_classes=n_classes,
                                 missing=missing, task=task)
    options = ({"task": task} if "task" in inspect.signature(
        variant.estimator).parameters else {})
    # the defaults (the round count, the convergence test); then the
    # magnitudes' weights at another rate, which on these data run most
    # variants to their last round: four rounds update the weights twice
    # (later rounds repeat that)
    for iter_options in ({}, {"absolute": True, "beta": 0.5, "max_rounds": 4,
                              "convergence": "scikit-rebate"}):
        expected = literal_iter(
            lambda w: literal(variant)(X, y, discrete, distance_weights=w,
                                       **options), **iter_options)
        results = on_each_engine(lambda: iterated(
            variant, X, y, discrete, task=task, **iter_options).scores)
        for engine, ours in results.items():
            assert_allclose(ours, expected, rtol=0, atol=1e-12,
                            err_msg=f"{engine} {iter_options}")


# =================================================================
# scikit-rebate 0.8.4
# =================================================================

def scikit_rebate(name, X, y, absolute=False, **options):
    skrebate = pytest.importorskip("skrebate")
    peer, own = PEERS[name]
    inner = getattr(skrebate, peer)(n_features_to_select=2, n_jobs=1,
                                    rank_absolute=absolute, **own)
    return skrebate.Iter(inner, **options).fit(X, y).feature_importances_


def snps(seed, n, a):
    """SNP codes 0/1/2 (nominal for scikit-rebate and for us), the class
    the parity of the first two."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, a)).astype(float)
    return X, (X[:, 0] + X[:, 1]) % 2


def ours(name, X, y, discrete, **options):
    return iterated(by_name(name), X, y, discrete,
                    convergence="scikit-rebate", **OURS.get(name, {}),
                    **options)


@pytest.mark.parametrize("name", list(PEERS))
@pytest.mark.parametrize("absolute", [False, True])
@pytest.mark.parametrize("tol", [1e-4, 0.02])
def test_scikit_rebate_on_small_tables(name, absolute, tol):
    """Continuous attributes (two classes: scikit-rebate's multiclass
    ReliefF weighs misses otherwise), and SNP codes; the default tol runs
    every round, 0.02 stops some early.  ReliefF's first round on SNP
    codes differs: they tie at the k-th distance, and scikit-rebate's
    quicksort places the tied its own way.  SURF's and SURF*'s threshold
    is scikit-rebate's mean over the n x n distances with their zero
    diagonal, (n - 1) / n of ours (doc/surf.md): they are compared on SNP
    tables where no distance of any round falls between the two.
    MultiSURF* leaves out the part of its far score that is the same for
    every attribute (doc/surf.md), which scikit-rebate's keeps where a
    far set lacks hits or misses (as on these SNP tables)."""
    rng = np.random.default_rng(5)
    X = rng.random((50, 5))
    continuous = (X, ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(float),
                  False)
    small_snps = [(*snps(21, 12, 3), True), (*snps(22, 12, 3), True)]
    tables = {"ReliefF": [continuous], "SURF": small_snps,
              "SURF*": small_snps, "MultiSURF*": [continuous],
              "MultiSURF": [continuous, (*snps(5, 50, 6), True)]
              + small_snps}[name]
    for X, y, nominal in tables:
        discrete = np.full(X.shape[1], nominal)
        theirs = scikit_rebate(name, X, y, absolute,
                               convergence_threshold=tol)
        result = ours(name, X, y, discrete, absolute=absolute, tol=tol)
        assert_allclose(result.scores, theirs, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["MultiSURF", "MultiSURF*"])
@pytest.mark.parametrize("absolute", [False, True])
def test_scikit_rebate_on_gametes(name, absolute):
    """Every eighth of the GAMETES file's 1600 rows, as float64 and as int8
    (read a block of columns at a time).  ReliefF's first round differs
    there: its genotypes tie at the k-th distance, and scikit-rebate's
    quicksort places the tied its own way."""
    X, y, theirs = answer(
        f"Iter around {name}{', absolute' * absolute} on ReBATE")
    discrete = np.ones(X.shape[1], bool)
    for data in (X, X.astype(np.int8)):
        result = ours(name, data, y, discrete, absolute=absolute)
        assert_allclose(result.scores, theirs, rtol=0, atol=1e-12)


def test_the_default_convergence_compares_the_scores():
    """scikit-rebate 0.8.4 compares the new scores with the last ones
    turned into distance weights (in [0, 1]): on these data its rounds
    run to the last; the scores themselves settle earlier."""
    rng = np.random.default_rng(5)
    X = rng.random((50, 5))
    y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(float)
    variant = by_name("MultiSURF")
    theirs = iterated(variant, X, y, tol=0.02, convergence="scikit-rebate")
    scores = iterated(variant, X, y, tol=0.02)
    assert theirs.stopped == LAST_ROUND and len(theirs.rounds) == 10
    assert scores.stopped == CONVERGED and len(scores.rounds) < 10
    last, before = scores.rounds[-1][1], scores.rounds[-2][1]
    assert np.abs(last - before).max() < 0.02


# =================================================================
# Row order, narrow input
# =================================================================

@each_engine
@pytest.mark.parametrize("name", ["ReliefF", "MultiSURF*"])
def test_row_order_changes_no_score(engine, name):
    """SNP codes (distances tied everywhere): ReliefF's tied neighbours
    share their places, so that neither the first round nor the weighted
    ones depend on the order of the rows."""
    X, y = snps(2, 40, 5)
    discrete = np.ones(5, bool)
    order = np.random.default_rng(0).permutation(len(y))
    with forced(engine):
        given = iterated(by_name(name), X, y, discrete)
        permuted = iterated(by_name(name), X[order], y[order], discrete)
    assert len(given.rounds) == len(permuted.rounds)
    assert_allclose(permuted.scores, given.scores, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["ReliefF", "SURF*", "MultiSURF"])
def test_narrow_input_is_read_as_it_is(name):
    X, y = snps(3, 40, 5)
    narrow = X.astype(np.int8)
    kept = narrow.copy()
    discrete = np.ones(5, bool)
    wide = iterated(by_name(name), X, y, discrete)
    result = iterated(by_name(name), narrow, y, discrete)
    assert narrow.dtype == np.int8 and np.array_equal(narrow, kept)
    assert_allclose(result.scores, wide.scores, rtol=0, atol=1e-12)


# =================================================================
# Checks
# =================================================================

@pytest.mark.parametrize("option, value, message", [
    ("max_rounds", 0, "max_rounds must be a positive integer, got 0."),
    ("max_rounds", 2.0, "max_rounds must be a positive integer"),
    ("tol", -1e-3, "tol must be a number >= 0, got -0.001."),
    ("beta", 1.5, "beta must be a number between 0 and 1, got 1.5."),
    ("beta", float("nan"), "beta must be a number between 0 and 1"),
    ("convergence", "skrebate", "convergence must be one of 'scores', "
                                "'scikit-rebate', got 'skrebate'."),
    ("absolute", "yes", "absolute must be True or False"),
])
def test_bad_options(option, value, message):
    X, y, discrete = random_data(0, n=12)
    with pytest.raises(ReliefInputError, match=message.replace(".", r"\.")):
        iterated(by_name("ReliefF"), X, y, discrete, **{option: value})


@pytest.mark.parametrize("name", ["MultiSWRF", "TuRF", "NPDR"])
def test_a_variant_without_distance_weights_is_refused(name):
    X, y, discrete = random_data(0, n=12)
    with pytest.raises(ReliefInputError, match=f"{name} takes no distance "
                                               f"weights"):
        iterated(by_name(name), X, y, discrete)


def test_a_scorer_of_the_wrong_length_is_refused():
    def score(weights, progress_callback):
        return np.ones(3 if weights is None else 2)
    with pytest.raises(ReliefInputError, match=r"one score per attribute "
                                               r"from each round \(3\)"):
        iterate(score)


@pytest.mark.parametrize("name", ["ReliefF", "MultiSURF"])
def test_the_rounds_prepare_the_data_once(name, monkeypatch):
    """Each round changes the distance weights only: the data are
    prepared for the first round and, around the SURF family, once more
    for the weighted rounds (read as narrow data), not again each round;
    a later call prepares its own."""
    X, y, discrete = random_data(3, n=30)
    calls = []
    # float64 tables (prepare without its checks: the call has made them),
    # narrow data
    for owner, step in ((estimators.prepare, "unchecked"), (estimators, "read")):
        original = getattr(owner, step)

        def counted(*args, _original=original, **kwargs):
            calls.append(1)
            return _original(*args, **kwargs)
        monkeypatch.setattr(owner, step, counted)
    result = ours(name, X, y, discrete, max_rounds=4, tol=0)
    assert len(result.rounds) == 4
    assert len(calls) == (1 if name == "ReliefF" else 2)
    ours(name, X, y, discrete, max_rounds=2, tol=0)
    assert len(calls) == (2 if name == "ReliefF" else 4)

"""Relief of subsets from one neighbour search (core.analysis.subset_relief) against
the slow literal estimators on the subset with the whole data's diffs."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.variants.estimators import (
    relief, relieff, rrelieff)
from orangecontrib.relief.core.analysis.subset_relief import (
    SubsetRelief, list_length)
from tests.core.engines import each_engine
from tests.reference.subsets import subset_relieff, subset_rrelieff


def data(seed, n=36, missing=0.0, classes=3):
    """Small integer-valued columns (many equal distances), a nominal one,
    `classes` classes, an unknown class and, with `missing`, that share
    of the values unknown."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, 4)).astype(float)
    X[:, 1] += rng.normal(size=n).round(1)
    y = (X[:, 0] + rng.integers(0, 2, n)) % classes
    y[3] = np.nan
    X[rng.random(X.shape) < missing] = np.nan
    return X, y, np.array([True, False, False, False])


def subsets(n, seed):
    """Named subsets of n rows: all, half without repeats, a bootstrap
    sample (repeats), a small one and one that holds the unknown class."""
    rng = np.random.default_rng(seed)
    return {"all": np.arange(n),
            "half": np.sort(rng.choice(n, n // 2, replace=False)),
            "bootstrap": np.sort(rng.integers(0, n, n)),
            "tenth": np.sort(rng.choice(n, n // 5, replace=False)),
            "with unknown": np.array([0, 1, 2, 3, 3, 5, 8, 13, 21, 34])}


@each_engine
@pytest.mark.parametrize("missing", [0.0, 0.15])
@pytest.mark.parametrize("name", ["all", "half", "bootstrap", "tenth",
                                  "with unknown"])
def test_relieff_of_a_subset_is_the_literal_one(engine, missing, name):
    """k = 4 of lists made for a share of 1: the small subsets' lists run
    short and are searched again; the bootstrap's copies are neighbours at
    the distance of an instance to itself (not 0 with missing values)."""
    X, y, discrete = data(1, missing=missing)
    rows = subsets(len(y), 2)[name]
    with forced(engine):
        got = SubsetRelief(X, y, discrete, k_nearest=4, share=1.0)(rows)
    expected = subset_relieff(X, y, discrete, rows, k_nearest=4)
    assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@each_engine
@pytest.mark.parametrize("name", ["half", "bootstrap"])
def test_rrelieff_and_sampled_references_are_the_literal_ones(engine, name):
    X, _, discrete = data(3, missing=0.1)
    target = np.random.default_rng(4).normal(size=len(X)).round(1)
    target[5] = np.nan
    rows = subsets(len(X), 5)[name]
    with forced(engine):
        got = SubsetRelief(X, target, discrete, rule="rrelieff",
                           k_nearest=6, n_iterations=15, random_state=7,
                           share=0.5)(rows)
    expected = subset_rrelieff(X, target, discrete, rows, k_nearest=6,
                               n_iterations=15, random_state=7)
    assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@each_engine
def test_lists_that_run_short_are_searched_again(engine):
    """Lists of 14 from 40 instances of a class: a subsample of an eighth
    has about two of its class among them, fewer than k = 4."""
    X, y, discrete = data(11, n=120, missing=0.1)
    rows = np.sort(np.random.default_rng(12).choice(120, 15, replace=False))
    with forced(engine):
        scorer = SubsetRelief(X, y, discrete, k_nearest=4, share=1.0)
        got = scorer(rows)
    assert scorer.lists.k == 14
    expected = subset_relieff(X, y, discrete, rows, k_nearest=4)
    assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@each_engine
@pytest.mark.parametrize("missing", [0.0, 0.2])
def test_copies_follow_nearer_instances_and_equal_ones_of_lower_index(
        engine, missing):
    """Eight patterns of three bits over 30 rows: most neighbours are at
    the distance of a copy, and RReliefF's rank weights and targets tell
    their order; with missing values a known value can be nearer than a
    copy (a copy's RELIEF-D diff is the chance that two unknown values
    differ)."""
    rng = np.random.default_rng(10)
    X = rng.integers(0, 2, size=(30, 3)).astype(float)
    X[rng.random(X.shape) < missing] = np.nan
    target = rng.normal(size=30)
    rows = np.sort(rng.integers(0, 30, 30))
    with forced(engine):
        got = SubsetRelief(X, target, [True, False, True], rule="rrelieff",
                           k_nearest=3, share=1.0)(rows)
    expected = subset_rrelieff(X, target, [True, False, True], rows,
                               k_nearest=3)
    assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@each_engine
def test_copies_beyond_the_list_wait_for_a_longer_one(engine):
    """Balanced 0/1 columns and a last instance of no known value: it is
    as far from every instance as from itself, so the list of 16 holds
    instances 0 .. 15 and its copies go after all of them, and after
    those beyond the list too (instances 20 .. 23 here, a lower index at
    the same distance); RReliefF's targets tell them from the copies."""
    rng = np.random.default_rng(13)
    X = np.array([rng.permutation([0.0, 1.0] * 20) for _ in range(3)]).T
    X = np.vstack([X, np.full(3, np.nan)])
    target = rng.normal(size=41)
    rows = np.array([1, 2, 3, 20, 21, 22, 23, 40, 40, 40])
    with forced(engine):
        scorer = SubsetRelief(X, target, None, rule="rrelieff", k_nearest=5,
                              share=1.0)
        got = scorer(rows)
    assert scorer.lists.k == 16
    expected = subset_rrelieff(X, target, None, rows, k_nearest=5)
    assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_the_whole_data_as_a_subset_is_the_estimator():
    X, y, discrete = data(6, missing=0.1, classes=2)
    target = X[:, 2] + np.arange(len(X)) % 5
    rows = np.arange(len(X))
    for rule, expected in (
            ("relieff", relieff(X, y, discrete, k_nearest=3)),
            ("relief", relief(X, y, discrete)),
            ("rrelieff", rrelieff(X, target, discrete, k_nearest=8))):
        scorer = SubsetRelief(X, target if rule == "rrelieff" else y,
                              discrete, rule=rule, k_nearest=3 if rule ==
                              "relieff" else 8)
        assert_array_equal(scorer(rows), expected, err_msg=rule)


def test_the_lists_hold_enough_for_a_subset_of_their_share():
    assert list_length(10, 1.0) == 24
    assert list_length(10, 0.5) == 38
    X, y, discrete = data(7, n=200)
    scorer = SubsetRelief(X, y, discrete, k_nearest=5, share=0.9)
    assert (len(scorer.lists), scorer.lists.n_groups, scorer.lists.k) == (
        199, 3, list_length(5, 0.9))


@pytest.mark.parametrize("rows, message", [
    (np.array([0, 1, 2]), "single class"),
    (np.array([3]), "no instances with a known target"),
    (np.array([0, 99]), "rows must be"), (np.array([[0, 1]]), "rows must be"),
    (np.array([0.0, 1.0]), "rows must be")])
def test_a_subset_that_cannot_be_scored_is_refused(rows, message):
    X, y, discrete = data(8)
    y[:3] = 0
    with pytest.raises(ReliefInputError, match=message):
        SubsetRelief(X, y, discrete, k_nearest=2)(rows)


@pytest.mark.parametrize("options, message", [
    (dict(rule="surf"), "rule must be"), (dict(share=0), "share must be"),
    (dict(share=1.5), "share must be"), (dict(k_nearest=0), "k_nearest"),
    (dict(rule="relief"), "Relief handles two classes")])
def test_bad_options_are_refused(options, message):
    X, y, discrete = data(9)
    with pytest.raises(ReliefInputError, match=message):
        SubsetRelief(X, y, discrete, **options)

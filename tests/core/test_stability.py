"""The stability of rankings: Nogueira, Sechidis & Brown's index by hand and
on known cases, ranks, frequencies and intervals, resamples and folds."""
import numpy as np
import pytest
from numpy.testing import assert_array_equal

from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.core.analysis.resampling import (
    draw_folds, draw_resamples, score_resamples)
from orangecontrib.relief.core.analysis.stability import (
    default_top_k, ranks, ranking_stability, stability_index, summarise)

#: four sets of two of five attributes
SETS = np.array([[1, 1, 0, 0, 0],
                 [1, 0, 1, 0, 0],
                 [1, 1, 0, 0, 0],
                 [0, 1, 1, 0, 0]], dtype=bool)


def test_the_index_of_four_sets_by_hand():
    """p = (3/4, 3/4, 1/2, 0, 0), k = 2, d = 5: the unbiased variances
    4/3 p (1 - p) are 1/4, 1/4, 1/3, 0, 0, their mean 1/6, and
    k/d (1 - k/d) = 6/25, so Phi = 1 - (1/6) / (6/25) = 11/36.  Every set
    has two attributes, so the phi_i differ only in (1/d) sum_f z_if p_f
    (3/10, 1/4, 3/10, 1/4) over 6/25: by -+ 5/48 about their mean, and
    the variance is 4 / 16 * 4 * (5/48)^2 = 25/2304."""
    index = stability_index(SETS, confidence=0.95)
    assert index.value == pytest.approx(11 / 36, abs=1e-15)
    assert index.variance == pytest.approx(25 / 2304, abs=1e-15)
    half = 1.959963984540054 * 5 / 48
    assert index.low == pytest.approx(11 / 36 - half, abs=1e-12)
    assert index.high == pytest.approx(11 / 36 + half, abs=1e-12)


def test_identical_sets_have_stability_one_and_no_variance():
    for rows in (SETS[[0, 0, 0]], np.eye(6, dtype=bool)[[2] * 10]):
        index = stability_index(rows)
        assert index.value == 1
        assert index.variance == pytest.approx(0, abs=1e-30)
        assert index.low == pytest.approx(1) == index.high


def test_the_interval_of_nearly_identical_sets_stops_at_one():
    """Nine equal sets and one that differs in one attribute: Phi is near
    1, the normal interval would pass it, the population's cannot."""
    rows = SETS[[0] * 9 + [1]]
    index = stability_index(rows)
    assert 0.5 < index.value < 1
    assert index.value + 1.96 * np.sqrt(index.variance) > 1
    assert index.high == 1
    assert index.low < index.value


@pytest.mark.parametrize("seed", range(3))
def test_independent_random_sets_have_stability_about_zero(seed):
    """Sets of 10 of 100 attributes drawn independently: the estimate is
    0 in expectation, and within its interval of it."""
    rng = np.random.default_rng(seed)
    sets = np.zeros((200, 100), bool)
    for row in sets:
        row[rng.choice(100, 10, replace=False)] = True
    index = stability_index(sets)
    assert abs(index.value) < 0.02
    assert index.low < 0 < index.high


def test_sets_of_different_sizes_drawn_at_random_are_about_zero_too():
    rng = np.random.default_rng(3)
    sets = rng.random((300, 40)) < rng.uniform(0.05, 0.6, size=(300, 1))
    assert abs(stability_index(sets).value) < 0.03


@pytest.mark.parametrize("sets, message", [
    (np.zeros((3, 4), bool), "undefined"), (np.ones((3, 4), bool),
                                            "undefined"),
    (SETS[:1], "two at least"), (np.array([[0, 2], [1, 0]]), "0 and 1"),
    (SETS[0], "2-D")])
def test_an_undefined_index_or_bad_sets_are_refused(sets, message):
    with pytest.raises(ReliefInputError, match=message):
        stability_index(sets)


@pytest.mark.parametrize("options, message", [
    (dict(top_k=5), "top_k must be at most the number of attributes \\(4\\), "
                    "got 5"),
    (dict(n_resamples=1), "n_resamples must be an integer >= 2, got 1"),
    (dict(subsample=0.3), "subsample needs resampling='subsample'"),
    (dict(resampling="subsample", subsample=1.0), "subsample must be")])
def test_settings_that_cannot_hold_are_named(options, message):
    with pytest.raises(ReliefInputError, match=message):
        ranking_stability(lambda rows: np.arange(4.0), np.arange(20) % 2,
                          **{"n_resamples": 3, **options})


def test_ranks_go_to_the_lower_index_on_ties_and_nan_last():
    scores = [[0.5, np.nan, 0.5, 0.9], [0.1, 0.2, 0.3, 0.4]]
    assert_array_equal(ranks(scores), [[2, 4, 3, 1], [4, 3, 2, 1]])


def test_summary_of_five_resamples():
    scores = np.array([[4, 3, 2, 1], [4, 2, 3, 1], [3, 4, 2, 1],
                       [4, 3, 1, 2], [4, 3, 2, 1]], float)
    summary = summarise(scores, top_k=2, confidence=0.6)
    assert_array_equal(summary.frequency, [1, 0.8, 0.2, 0])
    assert_array_equal(summary.median_rank, [1, 2, 3, 4])
    # the ranks at 0.2 and 0.8 of the five: the 1st and the 4th smallest
    assert_array_equal(summary.rank_low, [1, 1, 2, 3])
    assert_array_equal(summary.rank_high, [1, 2, 3, 4])
    assert summary.index.value == pytest.approx(
        stability_index(summary.selected, 0.6).value)
    assert summarise(scores, top_k=4).index is None  # every set is all


def test_the_default_k_is_ten_or_half_the_attributes():
    assert [default_top_k(a) for a in (1, 3, 13, 20, 500)] == [1, 1, 6, 10,
                                                               10]


def test_bootstrap_samples_and_subsamples_keep_the_classes():
    groups = np.array([0] * 10 + [1] * 4 + [-1] * 3 + [2] * 6)
    for resampling, sizes in (("bootstrap", (10, 4, 6)),
                              ("subsample", (5, 2, 3))):
        drawn = draw_resamples(groups, 20, resampling=resampling,
                               random_state=1)
        assert len(drawn) == 20
        for rows in drawn:
            assert_array_equal(rows, np.sort(rows))
            assert_array_equal(np.bincount(groups[rows], minlength=3), sizes)
            assert not np.isin(rows, [14, 15, 16]).any()
            if resampling == "subsample":
                assert len(np.unique(rows)) == len(rows)
        assert any(len(np.unique(rows)) < len(rows) for rows in drawn) == (
            resampling == "bootstrap")
        again = draw_resamples(groups, 20, resampling=resampling,
                               random_state=1)
        assert all(np.array_equal(a, b) for a, b in zip(drawn, again))


def test_folds_partition_the_instances_in_nearly_equal_stratified_parts():
    groups = np.array([0] * 23 + [1] * 9 + [-1] * 2)
    folds = draw_folds(groups, 5, random_state=3)
    tests = np.concatenate([test for _, test in folds])
    assert_array_equal(np.sort(tests), np.arange(32))
    assert {len(test) for _, test in folds} <= {6, 7}
    for train, test in folds:
        assert_array_equal(np.sort(np.concatenate([train, test])),
                           np.arange(32))
        assert set(np.bincount(groups[test])) <= {1, 2, 4, 5}
    with pytest.raises(ReliefInputError, match="5 folds need"):
        draw_folds(np.zeros(4, int), 5)


def column_means(X):
    """A scorer of rows: the mean of each column over them."""
    return lambda rows: X[rows].mean(axis=0)


def test_the_stability_of_a_ranking_from_resamples():
    """Three columns of clearly different means keep their ranks; two of
    equal noise swap."""
    rng = np.random.default_rng(4)
    X = np.column_stack([rng.normal(m, 0.1, 60) for m in (3, 2, 1)]
                        + [rng.normal(0, 1, (60, 2))])
    result = ranking_stability(column_means(X), np.zeros(60, int),
                               n_resamples=30, top_k=2, random_state=5)
    assert result.scores.shape == (30, 5) and len(result.resamples) == 30
    assert_array_equal(result.frequency[:3], [1, 1, 0])
    assert_array_equal(result.median_rank[:3], [1, 2, 3])
    assert result.index.value == 1
    swaps = result.ranks[:, 3] < result.ranks[:, 4]
    assert 0 < swaps.mean() < 1


def test_a_callback_that_raises_stops_the_resamples():
    calls = []

    def stop(fraction):
        calls.append(fraction)
        raise Interrupted

    with pytest.raises(Interrupted):
        score_resamples(column_means(np.eye(3)), [np.arange(3)] * 5,
                        progress_callback=stop)
    assert calls == [0.2]

"""The selection curve's grid, its one-standard-error choice and its loop
over the folds, with a ranking and a learner given as plain functions."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.analysis.selection_curve import (count_grid,
                                                                one_standard_error,
                                                                selection_curve,
                                                                turf_sizes)
from orangecontrib.relief.core.variants.turf import turf


def test_the_grid_has_every_small_count_then_a_log_scale():
    assert_array_equal(count_grid(7), np.arange(1, 8))
    grid = count_grid(100)
    assert_array_equal(grid[:10], np.arange(1, 11))
    assert grid[-1] == 100 and len(grid) == len(np.unique(grid)) < 25
    ratios = grid[10:] / grid[9:-1]
    assert ratios.max() < 1.4  # about 100 ** (1 / 19) = 1.27 apart
    assert count_grid(5000)[-1] == 5000


def test_one_standard_error_by_hand():
    """Four folds; count 3 is best (mean 0.8, sd 0.08165, se 0.040825);
    count 2's mean 0.775 is above 0.8 - 0.0408 = 0.7592, count 1's 0.7
    below: 2 is chosen."""
    scores = np.array([[0.7, 0.8, 0.7, 0.8],
                       [0.7, 0.8, 0.8, 0.8],
                       [0.7, 0.8, 0.9, 0.8]]).T
    mean, error, best, chosen = one_standard_error(np.array([1, 2, 3]),
                                                   scores)
    assert_allclose(mean, [0.75, 0.775, 0.8])
    assert error[2] == pytest.approx(np.std([.7, .8, .9, .8], ddof=1) / 2)
    assert (best, chosen) == (3, 2)


def test_ties_go_to_the_smaller_count_and_unscored_folds_are_left_out():
    scores = np.array([[0.5, 0.9, 0.9], [np.nan, 0.9, 0.9]])
    mean, error, best, chosen = one_standard_error(np.array([2, 4, 8]),
                                                   scores)
    assert (best, chosen) == (4, 4)
    assert mean[0] == 0.5 and error[0] == 0
    with pytest.raises(ReliefInputError, match="No fold"):
        one_standard_error(np.array([1]), [[np.nan]])


@pytest.mark.parametrize("n, fraction, n_keep", [
    (100, 0.5, None), (37, 0.1, None), (20, 0.3, 5), (3, 0.5, None)])
def test_turf_sizes_are_those_turf_scores(n, fraction, n_keep):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(10, n)), np.arange(10) % 2
    rounds = turf(lambda X, y, d, progress_callback=None: X.mean(axis=0),
                  X, y, fraction=fraction, n_keep=n_keep).rounds
    assert_array_equal(turf_sizes(n, fraction, n_keep),
                       sorted(len(columns) for columns, _ in rounds))


RELEVANT = 5


def evaluate_known(train, test, order, counts, progress_callback=None):
    """A learner that scores the share of the relevant attributes (the
    first five) it was given, less 0.002 per attribute, with noise of the
    test rows."""
    noise = np.sin(test.sum()) * 0.001
    return np.array([np.isin(order[:c], np.arange(RELEVANT)).sum() / RELEVANT
                     - 0.002 * c + noise for c in counts])


def test_the_curve_chooses_the_relevant_count():
    groups = np.arange(60) % 3
    ranked = []

    def rank_rows(rows):
        ranked.append(rows)
        return -np.arange(30.0)  # attribute 0 first

    curve = selection_curve(rank_rows, evaluate_known, groups, 30,
                            n_folds=6, random_state=1)
    assert (curve.best, curve.chosen) == (5, 5)
    assert curve.scores.shape == (6, len(curve.counts))
    for rows, (train, test) in zip(ranked, curve.folds):
        assert_array_equal(rows, train)  # ranked on the training part only
        assert not np.isin(test, train).any()
    given = selection_curve(rank_rows, evaluate_known, groups, 30,
                            counts=[8, 2, 30], n_folds=3)
    assert_array_equal(given.counts, [2, 8, 30])


@pytest.mark.parametrize("counts", [[0, 3], [3, 31], [2.5], []])
def test_counts_outside_the_attributes_are_refused(counts):
    with pytest.raises(ReliefInputError, match="counts must be"):
        selection_curve(lambda rows: np.zeros(30), evaluate_known,
                        np.zeros(20, int), 30, counts=counts)

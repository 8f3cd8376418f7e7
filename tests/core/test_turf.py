"""TuRF (core.variants.turf): its rounds by hand, its order, scikit-rebate's
selection, and its checks."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core.variants import estimators, surf
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.generators import modulo
from orangecontrib.relief.core.variants.turf import (
    round_sizes, rounds_of, turf)


def multisurf(X, y, discrete, progress_callback=None):
    return surf.multisurf(X, y, discrete, progress_callback=progress_callback)


def data(seed=0, n=300, noise=14):
    problem = modulo(n, 2, noise, p=3, seed=seed)
    return (problem.X.astype(float), problem.y.astype(float),
            np.ones(2 + noise, bool))


def test_rounds_by_hand():
    X, y, discrete = data()
    result = turf(multisurf, X, y, discrete, fraction=0.25)
    remaining = np.arange(X.shape[1])
    assert len(result.rounds) == rounds_of(0.25) + 1 == 5
    for scored, weights in result.rounds[:-1]:
        assert_array_equal(scored, remaining)
        assert_array_equal(weights, multisurf(X[:, remaining], y,
                                              discrete[remaining]))
        keep = int(np.ceil(len(remaining) * 0.75))
        best = np.lexsort((remaining, -weights))[:keep]
        remaining = remaining[np.sort(best)]
    assert_array_equal(result.kept, remaining)
    assert_array_equal(result.scores[remaining],
                       multisurf(X[:, remaining], y, discrete[remaining]))


def test_dropped_attributes_rank_below_the_kept_by_how_long_they_lasted():
    X, y, discrete = data()
    result = turf(multisurf, X, y, discrete, fraction=0.25)
    kept = set(result.kept)
    lasted = {}
    for t, (scored, _) in enumerate(result.rounds):
        for attribute in scored:
            lasted[attribute] = t
    order = np.argsort(-result.scores, kind="stable")
    assert set(order[:len(kept)]) == kept
    seen = [lasted[a] for a in order[len(kept):]]
    assert seen == sorted(seen, reverse=True)
    assert {0, 1} <= kept


def test_n_keep_stops_early():
    X, y, discrete = data()
    result = turf(multisurf, X, y, discrete, fraction=0.5, n_keep=9)
    assert len(result.rounds) == 2  # 16 -> 8, then the final scoring
    assert len(result.kept) == 8


@pytest.mark.parametrize("seed", [1, 2])
def test_the_kept_are_scikit_rebates(seed):
    """An interaction (the xor of two continuous attributes' halves) in 10
    noise attributes: the same kept attributes, order and scores."""
    skrebate = pytest.importorskip("skrebate")
    rng = np.random.default_rng(seed)
    X = rng.random((150, 12))
    y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(int)
    ours = turf(multisurf, X, y.astype(float), None, fraction=0.5, n_keep=3)
    theirs = skrebate.TURF(skrebate.MultiSURF(n_features_to_select=3,
                                              n_jobs=1),
                           pct=0.5, num_scores_to_return=3).fit(X, y)
    assert set(ours.kept) == set(theirs.top_features_[:3]) >= {0, 1}
    # the same order and the same scores, the dropped tiers included
    assert_allclose(ours.scores, theirs.feature_importances_, atol=1e-12)


def test_any_scorer_is_wrapped_and_the_inputs_are_kept():
    """ReliefF (k = 5) around TuRF: its rounds are ReliefF's on the
    remaining columns; X, y and discrete are not modified."""
    X, y, discrete = data(n=120, noise=6)
    X[::7, 3] = np.nan
    before = X.copy(), y.copy(), discrete.copy()

    def relieff(X, y, discrete, progress_callback=None):
        return estimators.relieff(X, y, discrete, k_nearest=5,
                                  progress_callback=progress_callback)

    result = turf(relieff, X, y, discrete, fraction=0.5)
    for scored, weights in result.rounds:
        assert_array_equal(weights, relieff(X[:, scored], y,
                                            discrete[scored]))
    assert [len(scored) for scored, _ in result.rounds] == [8, 4, 2]
    for array, copy in zip((X, y, discrete), before):
        assert_array_equal(array, copy)


def test_progress_rises_to_one_and_can_stop():
    X, y, discrete = data(n=60, noise=6)
    seen = []
    turf(multisurf, X, y, discrete, fraction=0.25, progress_callback=seen.append)
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 5

    class Stop(Exception):
        pass

    def stop(fraction):
        if fraction > 0.3:
            raise Stop

    with pytest.raises(Stop):
        turf(multisurf, X, y, discrete, fraction=0.25, progress_callback=stop)


@pytest.mark.parametrize("fraction", [0, 1, -1, 1.5, "x", np.nan])
def test_bad_fractions(fraction):
    X, y, discrete = data(n=30, noise=2)
    with pytest.raises(ReliefInputError) as error:
        turf(multisurf, X, y, discrete, fraction=fraction)
    assert str(error.value) == ("fraction must be a number strictly between "
                                f"0 and 1, got {fraction!r}.")


@pytest.mark.parametrize("n_keep", [0, -1, 2.5, "x"])
def test_bad_n_keep(n_keep):
    X, y, discrete = data(n=30, noise=2)
    with pytest.raises(ReliefInputError) as error:
        turf(multisurf, X, y, discrete, n_keep=n_keep)
    assert str(error.value) == ("n_keep must be a positive integer or None "
                                f"(every round), got {n_keep!r}.")


def test_bad_shape():
    X, y, discrete = data(n=30, noise=2)
    with pytest.raises(ReliefInputError, match="X must be a 2-D array"):
        turf(multisurf, X[:, 0], y)


def test_an_attribute_without_a_final_score_is_not_kept():
    """No round drops anything (n_keep above the attributes): the final
    scoring's NaN is the attribute's score, and it is not among the
    kept."""
    X, y, discrete = data(n=30, noise=2)

    def score(X, y, discrete, progress_callback=None):
        scores = np.arange(X.shape[1], dtype=float)
        scores[1] = np.nan
        return scores

    result = turf(score, X, y, discrete, n_keep=10)
    assert np.isnan(result.scores[1])
    assert 1 not in result.kept and len(result.kept) == X.shape[1] - 1


def test_n_keep_above_the_attributes_scores_once():
    X, y, discrete = data(n=60, noise=2)
    result = turf(multisurf, X, y, discrete, n_keep=4)
    assert len(result.rounds) == 1
    assert_array_equal(result.kept, np.arange(4))
    assert_array_equal(result.scores, multisurf(X, y, discrete))


@pytest.mark.parametrize("fraction", [1e-300, 1e-4])
def test_rounds_that_would_drop_nothing_are_not_run(fraction):
    # int(1 / fraction) rounds, but none of them drops one of 7 attributes
    X, y, discrete = data(n=40, noise=5)
    calls = []

    def score(X, y, discrete, progress_callback=None):
        calls.append(X.shape[1])
        return multisurf(X, y, discrete)

    result = turf(score, X, y, discrete, fraction=fraction)
    assert calls == [X.shape[1]] and len(result.rounds) == 1
    assert_array_equal(result.scores, multisurf(X, y, discrete))


def test_a_mask_of_the_wrong_length_is_refused():
    X, y, discrete = data(n=30, noise=2)
    for mask in (discrete[:-1], np.r_[discrete, False]):
        with pytest.raises(ReliefInputError, match="`discrete` has"):
            turf(multisurf, X, y, mask)


class Fixed:
    """A scikit-learn style scorer whose importances are fixed numbers of
    the columns (looked up by each column's first value, the column's
    index), so that scikit-rebate's TURF and ours see the same scores."""
    rank_absolute = False
    n_features_to_select = 1

    def __init__(self, scores):
        self.scores = scores

    def fit(self, X, y):
        self.feature_importances_ = self.scores[X[0].astype(int)]
        return self


@pytest.mark.parametrize("n, fraction, n_keep", [
    (20, 0.5, None), (100, 0.5, None), (201, 0.5, None), (1000, 0.5, None),
    (20, 0.3, None), (40, 0.25, 10), (20, 0.5, 20), (7, 0.5, 3)])
@pytest.mark.parametrize("tied", [False, True])
def test_scikit_rebates_schedule_is_its_turf(n, fraction, n_keep, tied):
    """scikit-rebate 0.8.4's TURF (num_scores_to_return 100 unless given)
    around a scorer of fixed scores: the same rounds, the same kept
    attributes and scores, ties broken alike."""
    skrebate = pytest.importorskip("skrebate")
    rng = np.random.default_rng(n)
    scores = rng.random(n)
    if tied:
        scores = np.round(scores * 4) / 4
    X = np.tile(np.arange(n, dtype=float), (5, 1))
    y = np.arange(5) % 2

    def score(X, y, discrete, progress_callback=None):
        return scores[X[0].astype(int)]

    ours = turf(score, X, y.astype(float), None, fraction=fraction,
                n_keep=n_keep, schedule="scikit-rebate")
    options = {} if n_keep is None else {"num_scores_to_return": n_keep}
    theirs = skrebate.TURF(Fixed(scores), pct=fraction, **options).fit(X, y)
    assert_array_equal(ours.scores, theirs.feature_importances_)


@pytest.mark.parametrize("n, every, skrebate", [
    (20, [20, 10, 5], [20, 10]), (200, [200, 100, 50], [200, 100]),
    (201, [201, 101, 51], [201, 101, 51]),
    (1000, [1000, 500, 250], [1000, 500, 250])])
def test_the_two_schedules(n, every, skrebate):
    """Every round: int(1 / fraction) rounds; scikit-rebate's: stop after
    the first round that leaves at most 100 attributes."""
    assert round_sizes(n) == every
    assert round_sizes(n, schedule="scikit-rebate") == skrebate


def test_a_bad_schedule_is_refused():
    X, y, discrete = data(n=30, noise=2)
    with pytest.raises(ReliefInputError, match="schedule must be one of "
                       "'every round', 'scikit-rebate', got 'skrebate'"):
        turf(multisurf, X, y, discrete, schedule="skrebate")

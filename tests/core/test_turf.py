"""TuRF (core.turf): its rounds by hand, its order, scikit-rebate's
selection, and its checks."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief.core import surf
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.generators import modulo
from orangecontrib.relief.core.turf import rounds_of, turf


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


def test_the_kept_are_scikit_rebates():
    skrebate = pytest.importorskip("skrebate")
    rng = np.random.default_rng(1)
    X = rng.random((150, 12))
    y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(int)
    ours = turf(multisurf, X, y.astype(float), None, fraction=0.5, n_keep=3)
    theirs = skrebate.TURF(skrebate.MultiSURF(n_features_to_select=3,
                                              n_jobs=1),
                           pct=0.5, num_scores_to_return=3).fit(X, y)
    assert set(ours.kept) == set(theirs.top_features_[:3]) >= {0, 1}
    # the same order and the same scores, the dropped tiers included
    assert_allclose(ours.scores, theirs.feature_importances_, atol=1e-12)


@pytest.mark.parametrize("fraction", [0, 1, -1, 1.5, "half", np.nan])
def test_bad_fractions(fraction):
    X, y, discrete = data(n=30, noise=2)
    with pytest.raises(ReliefInputError, match="fraction"):
        turf(multisurf, X, y, discrete, fraction=fraction)


def test_bad_n_keep_and_shape():
    X, y, discrete = data(n=30, noise=2)
    with pytest.raises(ReliefInputError, match="n_keep"):
        turf(multisurf, X, y, discrete, n_keep=0)
    with pytest.raises(ReliefInputError, match="2-D"):
        turf(multisurf, X[:, 0], y)

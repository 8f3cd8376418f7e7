"""Ranking by the magnitude of the weights wherever a ranking is made:
the Orange scorers (Rank, SelectBestFeatures), SelectReliefFeatures, the
scikit-learn selectors, TuRF's elimination and ``orange-relief rank
--absolute`` (the ReBATE experiment's is in tests/experiments)."""
import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.preprocess import SelectBestFeatures
from Orange.preprocess.score import Scorer

from orangecontrib.relief import ReliefF, SelectReliefFeatures
from orangecontrib.relief.cli import main
from orangecontrib.relief.core.errors import ReliefInputError
from orangecontrib.relief.core.analysis.threshold import (
    best_first, select_features)
from orangecontrib.relief.core.variants.turf import turf
from orangecontrib.relief.rank import RankScorer
from orangecontrib.relief.scorers import Absolute, TuRF
from orangecontrib.relief import sklearn as selectors

#: weights whose order by magnitude differs from their order: attribute
#: 1 is the strongest by magnitude and the weakest by sign
WEIGHTS = np.array([0.3, -0.8, 0.1, -0.05, 0.5])
BY_MAGNITUDE = [1, 4, 0, 2, 3]
BY_SIGN = [4, 0, 2, 3, 1]


class Fixed(Scorer):
    """A scorer that gives attribute a<i> the weight WEIGHTS[i]."""
    feature_type = ContinuousVariable
    class_type = DiscreteVariable
    friendly_name = "Fixed"

    def score_data(self, data, feature=None):
        return WEIGHTS[names(data)]


@pytest.fixture
def table():
    rng = np.random.default_rng(0)
    domain = Domain([ContinuousVariable(f"a{i}") for i in range(5)],
                    DiscreteVariable("c", values=("0", "1")))
    return Table.from_numpy(domain, rng.random((20, 5)), np.arange(20) % 2)


def names(data):
    return [int(var.name[1:]) for var in data.domain.attributes]


def test_core_ranking():
    assert best_first(WEIGHTS).tolist() == BY_SIGN
    assert best_first(WEIGHTS, absolute=True).tolist() == BY_MAGNITUDE
    assert select_features(WEIGHTS, threshold=0.2,
                           absolute=True).tolist() == [1, 4, 0]
    assert best_first([np.nan, -1.0, 0.5], True).tolist() == [1, 2, 0]
    with pytest.raises(ReliefInputError, match="absolute must be True or"):
        best_first(WEIGHTS, absolute=1)


def test_orange_scorers(table):
    kept = SelectBestFeatures(method=Absolute(Fixed()), k=2)(table)
    assert sorted(names(kept)) == sorted(BY_MAGNITUDE[:2])
    assert np.array_equal(Absolute(Fixed())(table), np.abs(WEIGHTS))
    column = RankScorer(Absolute(ReliefF(k_nearest=5)))
    assert column.name == "|ReliefF\u2085|"
    assert column.score_data(table).shape == (1, 5)


@pytest.mark.parametrize("options, expected", [
    (dict(k=2), BY_MAGNITUDE[:2]),
    (dict(threshold=0.2), BY_MAGNITUDE[:3]),
    (dict(), BY_MAGNITUDE)])  # Relief's cut of |w| > 0 keeps every one
def test_select_relief_features(table, options, expected):
    selector = SelectReliefFeatures(Fixed(), absolute=True, **options)
    assert sorted(names(selector(table))) == sorted(expected)
    assert "ranked by |weight|" in selector.criteria
    signed = SelectReliefFeatures(Fixed(), **options)
    assert names(signed(table)) != names(selector(table)) or not options


def test_sklearn_selectors(monkeypatch):
    monkeypatch.setattr(selectors.ReliefF, "_weights",
                        lambda self, X, y, discrete, params: WEIGHTS)
    X, y = np.random.default_rng(0).random((20, 5)), np.arange(20) % 2
    for absolute, expected in ((False, BY_SIGN), (True, BY_MAGNITUDE)):
        fitted = selectors.ReliefF(n_features_to_select=2,
                                   absolute=absolute).fit(X, y)
        assert sorted(np.flatnonzero(fitted.get_support())) == sorted(
            expected[:2])
    fitted = selectors.ReliefF(threshold=0.2, absolute=True).fit(X, y)
    assert sorted(np.flatnonzero(fitted.get_support())) == [0, 1, 4]
    with pytest.raises(ReliefInputError, match="absolute"):
        selectors.ReliefF(absolute="yes").fit(X, y)


def test_turf_drops_the_smallest_magnitudes():
    def score(X, y, discrete, progress_callback=None):
        return WEIGHTS[X[0].astype(int)]

    X = np.tile(np.arange(5.0), (4, 1))
    signed = turf(score, X, np.arange(4) % 2, fraction=0.4)
    absolute = turf(score, X, np.arange(4) % 2, fraction=0.4, absolute=True)
    assert sorted(signed.kept) == [0, 4]
    assert sorted(absolute.kept) == [1, 4]
    assert best_first(absolute.scores).tolist()[:2] == [1, 4]
    assert TuRF(Fixed(), fraction=0.4, absolute=True)(Table.from_numpy(
        Domain([ContinuousVariable(f"a{i}") for i in range(5)],
               DiscreteVariable("c", values=("0", "1"))),
        X, np.arange(4) % 2)).argmax() == 1


def test_the_command_line(capsys):
    assert main(["rank", "--absolute"]) == 0
    lines = capsys.readouterr().out.splitlines()
    weights = [float(line.rsplit(None, 1)[1]) for line in lines[1:-1]]
    assert any(w < 0 for w in weights)
    assert np.all(np.diff(np.abs(weights)) <= 0)
    assert "ranked by |weight|" in lines[-1]

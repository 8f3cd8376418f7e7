"""The stability of a ranking of an Orange table's attributes, by any
scorer, on resamples scored here or as tasks of a Dask cluster."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from Orange.classification import LogisticRegressionLearner
from Orange.preprocess.score import InfoGain

from orangecontrib.relief import MultiSURF, ReliefF, RReliefF
from orangecontrib.relief.core.analysis.subset_relief import SubsetRelief
from orangecontrib.relief.datasets import path
from orangecontrib.relief.stability import (STABILITY_COLUMNS,
                                            ranking_stability,
                                            stability_table)


def test_relieff_resamples_share_one_search_of_the_table(heart):
    result = ranking_stability(heart, ReliefF(k_nearest=5), n_resamples=20,
                               top_k=3, random_state=1)
    arrays = ReliefF().arrays(heart)
    shared = SubsetRelief(arrays.X, arrays.y, arrays.discrete, k_nearest=5)
    for rows, scores in zip(result.resamples, result.scores):
        assert_allclose(scores, shared(rows), rtol=1e-12, atol=1e-15)
    assert result.selected.sum(axis=1).tolist() == [3] * 20
    best = heart.domain.attributes[int(np.argmax(result.frequency))].name
    assert best == "chest pain" and result.frequency.max() == 1
    assert 0.3 < result.index.value < 1
    assert result.index.low < result.index.value < result.index.high


@pytest.mark.parametrize("scorer", [InfoGain(), MultiSURF(),
                                    LogisticRegressionLearner()],
                         ids=["InfoGain", "MultiSURF", "logistic"])
def test_other_scorers_score_a_table_of_each_resample(heart, scorer):
    result = ranking_stability(heart, scorer, n_resamples=3,
                               resampling="subsample", subsample=0.6,
                               random_state=2)
    for rows, scores in zip(result.resamples, result.scores):
        assert len(np.unique(rows)) == len(rows) == round(0.6 * 139) + round(
            0.6 * 164)
        expected = (scorer(heart[rows]) if not hasattr(scorer, "fit_storage")
                    else scorer.score_data(heart[rows]).mean(axis=0))
        assert_allclose(scores, expected)


def test_a_numeric_class_is_resampled_as_one_stratum():
    from Orange.data import Table
    data = Table(path("cpu"))
    result = ranking_stability(data, RReliefF(), n_resamples=5, top_k=2)
    assert all(len(rows) == len(data) for rows in result.resamples)
    assert result.frequency.sum() == 2


def test_the_table_lists_the_most_often_selected_first(heart):
    result = ranking_stability(heart, ReliefF(), n_resamples=10, top_k=4)
    table = stability_table(heart.domain.attributes, result)
    assert tuple(var.name for var in table.domain.attributes) == \
        STABILITY_COLUMNS
    assert table.X[0, 0] == result.frequency.max()
    assert (np.diff(table.X[:, 0]) <= 0).all()
    assert (table.X[:, 2] <= table.X[:, 1]).all()
    assert (table.X[:, 1] <= table.X[:, 3]).all()


def test_a_scorer_that_does_not_fit_the_class_is_refused():
    from Orange.data import Table
    with pytest.raises(ValueError, match="cannot score"):
        ranking_stability(Table(path("cpu")), ReliefF())


def test_resamples_on_a_cluster_give_the_scores_of_this_process(heart,
                                                                client):
    here = ranking_stability(heart, ReliefF(), n_resamples=4)
    there = ranking_stability(heart, ReliefF(), n_resamples=4, client=client)
    assert_array_equal(here.scores, there.scores)

"""The selection curve on Orange tables: the count it chooses on shipped and
generated data, the learner's preprocessing fitted once per fold, TuRF's
sizes and the table of counts and scores."""
import numpy as np
import pytest
from Orange.classification import KNNLearner, LogisticRegressionLearner
from Orange.classification import TreeLearner
from Orange.data import Table
from Orange.regression import LinearRegressionLearner
from Orange.preprocess.score import InfoGain

from orangecontrib.relief import MultiSURF, ReliefF, TuRF
from orangecontrib.relief.core.analysis.resampling import draw_folds
from orangecontrib.relief.core.analysis.selection_curve import turf_sizes
from orangecontrib.relief.curve import (evaluate_fold, fold_ranking,
                                        selection_curve)
from orangecontrib.relief.datasets import path
from orangecontrib.relief.generators import majority
from orangecontrib.relief.resampled import strata


def test_five_relevant_of_a_hundred_choose_five():
    """MajorityN: the class is the majority of five bits, 95 more are
    noise; kNN is perfect with the five and worse with more or fewer."""
    data = majority(n_instances=300, n_relevant=5, n_irrelevant=95, seed=0)
    curve = selection_curve(data, KNNLearner(), ReliefF())
    assert (curve.best, curve.chosen) == (5, 5)
    relevant = {i for i, var in enumerate(data.domain.attributes)
                if var.attributes["relevant"]}
    for ranking in curve.rankings:  # every fold ranked them first
        assert set(np.argsort(-ranking)[:5]) == relevant


@pytest.mark.parametrize("name, most", [
    ("heart_disease", 8), ("breast-cancer-wisconsin", 5), ("ionosphere", 6)])
def test_shipped_data_keep_a_few_attributes_as_good_as_all(name, most):
    """kNN is as good with the chosen few as with all, within the
    standard error (heart disease: 7 of 13, Wisconsin's breast cancer: 4
    of 9, ionosphere: 4 of 34)."""
    data = Table(path(name))
    curve = selection_curve(data, KNNLearner(), ReliefF())
    at = {count: i for i, count in enumerate(curve.counts)}
    assert curve.chosen <= curve.best and curve.chosen <= most
    assert (curve.mean[at[curve.chosen]]
            >= curve.mean[-1] - curve.error[at[curve.chosen]])


@pytest.mark.parametrize("learner", [KNNLearner(), LogisticRegressionLearner(),
                                     TreeLearner()],
                         ids=["knn", "logreg", "tree"])
def test_a_fold_fitted_with_the_preprocessing_once_scores_as_each_fit(
        heart, learner):
    """Heart disease has nominal attributes and missing values: the
    learner's continuization, imputation and normalization fitted once on
    the training rows give every count the scores of the learner fitted
    on the count's attributes alone."""
    train, test = draw_folds(strata(heart), 5, 0)[0]
    order = np.argsort(-ReliefF()(heart[train]), kind="stable")
    counts = np.array([1, 4, 13])
    fast = evaluate_fold(heart, learner, "CA", train, test, order, counts)
    for count, score in zip(counts, fast):
        attributes = [heart.domain.attributes[i]
                      for i in sorted(order[:count])]  # in domain order
        reduced = heart.transform(heart.domain.select_columns(
            attributes + [heart.domain.class_var]))
        model = learner(reduced[train])
        assert score == np.mean(model(reduced[test]) == reduced[test].Y)


def test_folds_are_ranked_on_their_training_rows_alone(heart):
    """With missing values (RELIEF-D reads the classes) a fold is scored
    on its rows; without, ReliefF's neighbours come from one search of the
    whole table, scaled by its ranges, which gives nearly the same
    ranking."""
    train, _ = draw_folds(strata(heart), 10, 0)[0]
    rank = fold_ranking(ReliefF(), heart, 10)
    np.testing.assert_array_equal(rank(train), ReliefF()(heart[train]))
    complete = Table(path("ionosphere"))
    train, _ = draw_folds(strata(complete), 10, 0)[0]
    shared = fold_ranking(ReliefF(), complete, 10)(train)
    alone = ReliefF()(complete[train])
    assert np.corrcoef(shared, alone)[0, 1] > 0.99


def test_turf_adds_the_sizes_of_its_rounds(heart):
    scorer = TuRF(MultiSURF(), fraction=0.3)
    curve = selection_curve(heart, KNNLearner(), scorer, n_folds=3,
                            counts=[1, 13])
    np.testing.assert_array_equal(curve.turf_counts, turf_sizes(13, 0.3))
    assert set(curve.counts) == {1, 13} | set(curve.turf_counts)


def test_the_table_of_counts_and_scores(heart):
    curve = selection_curve(heart, KNNLearner(), InfoGain(), n_folds=3,
                            counts=[2, 5, 13], score="AUC")
    table = curve.table()
    assert [var.name for var in table.domain.attributes] == [
        "attributes", "AUC", "standard error", "fold 1", "fold 2", "fold 3"]
    np.testing.assert_array_equal(table.X[:, 0], [2, 5, 13])
    np.testing.assert_array_equal(table.X[:, 3:], curve.scores.T)
    marks = [table.domain.metas[0].values[int(v)] for v in table.metas[:, 0]]
    assert marks.count("chosen") + marks.count("best, chosen") == 1
    assert 0.5 < curve.mean.max() <= 1


def test_a_numeric_class_is_scored_by_r2():
    data = Table(path("cpu"))
    curve = selection_curve(data, LinearRegressionLearner(), n_folds=3)
    assert curve.score == "R2" and curve.mean[-1] > 0.7
    with pytest.raises(ValueError, match="CA scores a categorical class"):
        selection_curve(data, LinearRegressionLearner(), score="CA")


@pytest.mark.parametrize("options, message", [
    (dict(score="F1"), "score must be"),
    (dict(n_folds=0), "n_folds must be an integer >= 2, got 0"),
    (dict(n_folds=1), "n_folds must be an integer >= 2, got 1"),
    (dict(n_folds=2.5), "n_folds must be"),
    (dict(learner="knn"), "learner must be an Orange learner, such as "
                          "KNNLearner\\(\\), got 'knn'"),
    (dict(learner=KNNLearner), "learner must be an Orange learner"),
    (dict(scorer="ReliefF"), "takes an Orange scorer")])
def test_bad_options_are_named(heart, options, message):
    arguments = dict(learner=KNNLearner())
    arguments.update(options)
    with pytest.raises(ValueError, match=message):
        selection_curve(heart, arguments.pop("learner"), **arguments)


def test_bad_arguments_are_refused(heart):
    no_class = heart.transform(heart.domain.select_columns(
        heart.domain.attributes))
    with pytest.raises(ValueError, match="target variable"):
        selection_curve(no_class, KNNLearner())

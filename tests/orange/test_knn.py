"""Issue 5: the CDRelief / IWCDRelief Orange scorers and the class-dependent
kNN learner (eq. 1) against the literal reference."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import reference_classdep as slow
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.evaluation import CA, CrossValidation
from Orange.preprocess import SelectBestFeatures

from orangecontrib.relief import (
    CDRelief, ClassDependentKNNLearner, ClassDependentRankScorer, IWCDRelief)
from orangecontrib.relief.classdep_knn import (
    ClassDependentKNNModel, fit_class_weights, predict_votes)
from orangecontrib.relief.core.classdep import cdrelief, iwcdrelief
from orangecontrib.relief.datasets import path


@pytest.fixture(scope="module")
def heart():
    return Table(path("heart_disease"))


def three_class_table(seed=0, n=40):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.arange(n) % 3
    X[:, 0] += y
    domain = Domain([ContinuousVariable(f"a{i}") for i in range(3)],
                    DiscreteVariable("cls", values=("x", "y", "z", "unused")))
    return Table.from_numpy(domain, X, y.astype(float))


# ------------------------------------------------------------- scorers ----

def test_scorer_matrix_and_summary(heart):
    X, y = heart.X, heart.Y
    discrete = np.array([a.is_discrete for a in heart.domain.attributes])
    for scorer, core_fn, options in (
            (CDRelief(k_nearest=4), cdrelief, {}),
            (IWCDRelief(k_nearest=4, threshold=0.3, update="as_text"),
             iwcdrelief, dict(threshold=0.3, update="as_text"))):
        matrix = scorer.class_weights(heart)
        assert matrix.shape == (2, len(heart.domain.attributes))
        assert_allclose(matrix, core_fn(X, y, discrete, k_nearest=4,
                                        **options))
        priors = np.bincount(y.astype(int)) / len(y)
        assert_allclose(scorer(heart), priors @ matrix)
        name = heart.domain.attributes[2].name
        assert scorer(heart, name) == pytest.approx((priors @ matrix)[2])


def test_scorer_works_with_orange_feature_selection(heart):
    reduced = SelectBestFeatures(method=CDRelief(), k=4)(heart)
    assert len(reduced.domain.attributes) == 4


def test_matrix_has_a_row_per_class_value():
    data = three_class_table()
    matrix = IWCDRelief(k_nearest=3, threshold=0.2).class_weights(data)
    assert matrix.shape == (4, 3)
    assert np.isnan(matrix[3]).all() and np.isfinite(matrix[:3]).all()
    assert np.isfinite(IWCDRelief()(data)).all()


def test_scorer_errors():
    data = three_class_table()
    regression = data.transform(Domain(data.domain.attributes[:2],
                                       data.domain.attributes[2]))
    with pytest.raises(ValueError):
        CDRelief()(regression)
    with pytest.raises(ValueError):
        IWCDRelief(threshold=2)(data)


def test_rank_scorer_names_columns_by_class_value():
    data = three_class_table()
    rank = ClassDependentRankScorer(CDRelief(k_nearest=3))
    scores = rank.score_data(data)
    assert scores.shape == (4, 3)
    # the labels Rank builds: shortname + "_" + str(i)
    labels = [rank.name + "_" + str(i) for i in range(1, 5)]
    assert labels == ["CDRelief: x", "CDRelief: y", "CDRelief: z",
                      "CDRelief: unused"]
    assert rank.name == "CDRelief" and rank.name + "!" == "CDRelief!"
    assert_allclose(rank(data), CDRelief(k_nearest=3)(data))


# ------------------------------------------------------------- learner ----

def test_eq1_prediction_matches_the_literal_reference():
    rng = np.random.default_rng(3)
    for _ in range(5):
        train_X = rng.normal(size=(30, 4))
        train_y = rng.integers(0, 3, 30).astype(float)
        weights = rng.normal(size=(3, 4))
        X = rng.normal(size=(12, 4))
        for k in (1, 4, 7):
            votes, _ = predict_votes(train_X, train_y, weights,
                                     np.zeros(4, bool), X, k)
            expected = [slow.cdw_knn_predict(train_X, train_y, weights, q, k)
                        for q in X]
            assert_array_equal(votes, expected)


def test_eq1_distance_ties_go_to_the_lower_index():
    train_X = np.array([[1.0], [-1.0], [1.0]])
    train_y = np.array([1.0, 0.0, 0.0])
    votes, first = predict_votes(train_X, train_y, np.ones((2, 1)),
                                 np.zeros(1, bool), np.zeros((1, 1)), 1)
    assert_array_equal(votes, [[0, 1]])  # row 1 (class 0) before row 2
    votes, first = predict_votes(train_X, train_y, np.array([[1.0], [2.0]]),
                                 np.zeros(1, bool), np.zeros((1, 1)), 2)
    # class 1's weight doubles its distance: rows 1 and 2 (class 0) win
    assert_array_equal(votes, [[2, 0]])
    assert_array_equal(first, [[0, 2]])


def test_learner_weights_are_the_core_weights_in_zscore_units(heart):
    learner = ClassDependentKNNLearner(k=5, method="CDRelief",
                                       negative="square")
    model = learner(heart)
    data = learner.preprocess(heart)
    X, y = data.X, data.Y
    ranges = np.ptp(X, axis=0)
    expected = cdrelief(X, y, k_nearest=5,
                        distance_weights=ranges ** 2) * ranges
    assert_allclose(model.class_weights, expected)
    # the reference, in z units: Euclidean neighbours of the z-scores
    # (checked on a few rows, the slow reference is quadratic)
    sub = slice(0, 25)
    sub_ranges = np.ptp(X[sub], axis=0)
    ref = slow.cdrelief(X[sub], y[sub], k_nearest=3,
                        distance_weights=sub_ranges ** 2) * sub_ranges
    got = fit_class_weights(X[sub], y[sub], np.zeros(X.shape[1], bool), 2,
                            method="CDRelief", k=3, negative="square")
    assert_allclose(got, ref, atol=1e-9)


def test_learner_predicts_with_probabilities(heart):
    model = ClassDependentKNNLearner(k=5, threshold=0.3)(heart)
    assert isinstance(model, ClassDependentKNNModel)
    values, probs = model(heart[:20], model.ValueProbs)
    assert probs.shape == (20, 2)
    assert_allclose(probs.sum(axis=1), 1)
    assert np.all(np.isin(probs * 5, np.arange(6)))
    unique = (probs == probs.max(axis=1, keepdims=True)).sum(axis=1) == 1
    assert_array_equal(values[unique], np.argmax(probs, axis=1)[unique])
    assert np.all(probs[np.arange(20), values.astype(int)] >= 0.5)


def test_learner_in_cross_validation(heart):
    learners = [ClassDependentKNNLearner(method=m, k=5)
                for m in ("IWCDRelief", "CDRelief", "ReliefF", "none")]
    results = CrossValidation(k=3, random_state=0)(heart, learners)
    accuracy = CA(results)
    assert accuracy.shape == (4,)
    assert accuracy[3] > 0.7  # plain kNN on z-scores


def test_learner_handles_missing_nominal_unused_classes_and_one_class():
    data = three_class_table()
    model = ClassDependentKNNLearner(k=3, method="IWCDRelief")(data)
    probs = model(data, model.Probs)
    assert probs.shape == (len(data), 4)
    assert_array_equal(probs[:, 3], 0)
    single = data[data.Y == 0]
    model = ClassDependentKNNLearner(k=3)(single)
    assert_array_equal(model(data), 0)
    # user preprocessing without imputation: NaN and nominal columns reach
    # the model, which fills and compares them itself
    heart_data = Table(path("heart_disease"))
    model = ClassDependentKNNLearner(k=3, preprocessors=[])(heart_data)
    assert np.isfinite(model(heart_data, model.Probs)).all()


def test_learner_rejects_bad_options():
    with pytest.raises(ValueError):
        ClassDependentKNNLearner(method="RelieF")
    with pytest.raises(ValueError):
        ClassDependentKNNLearner(update="printed")


def test_doc_page_examples_run():
    """The python examples of doc/classdep.md run (test_docs.py runs those
    of README.md and doc/scripting.md only)."""
    import contextlib
    import io
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "doc" / "classdep.md"
    blocks = re.findall(r"^```python\n(.*?)^```", page.read_text("utf-8"),
                        re.MULTILINE | re.DOTALL)
    assert len(blocks) == 2
    namespace = {"__name__": "__doc_example__"}
    with contextlib.redirect_stdout(io.StringIO()) as output:
        for block in blocks:
            exec(compile(block, str(page), "exec"), namespace)  # noqa: S102
    assert "best attribute" in output.getvalue()
    assert "plain kNN" in output.getvalue()

"""The class-dependent kNN learner (orangecontrib.relief.knn): eq. 1 of Qiu &
He (2019) against the literal reference, class weights from the core, and
the learner in Orange's evaluation."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from Orange.evaluation import CA, CrossValidation

from orangecontrib.relief import ClassDependentKNNLearner
from orangecontrib.relief.core.variants.classdep import cdrelief
from orangecontrib.relief.knn import (ClassDependentKNNModel,
                                      fit_class_weights, predict_votes)
from tests.reference import classdep as slow


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


def test_eq1_distance_ties_share_the_vote():
    train_X = np.array([[1.0], [-1.0], [1.0]])
    train_y = np.array([1.0, 0.0, 0.0])
    votes, first = predict_votes(train_X, train_y, np.ones((2, 1)),
                                 np.zeros(1, bool), np.zeros((1, 1)), 1)
    # three prototypes at distance 1 share the one place: 1/3 each
    assert_allclose(votes, [[2 / 3, 1 / 3]])
    assert_array_equal(first, [[0, 0]])
    votes, _ = predict_votes(train_X, train_y, np.ones((2, 1)),
                             np.zeros(1, bool), np.zeros((1, 1)), 1,
                             ties="lower-index")
    assert_array_equal(votes, [[0, 1]])  # row 0 (class 1) before rows 1, 2
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


def test_learner_handles_missing_nominal_unused_classes_and_one_class(
        three_classes, heart):
    data = three_classes
    model = ClassDependentKNNLearner(k=3, method="IWCDRelief")(data)
    probs = model(data, model.Probs)
    assert probs.shape == (len(data), 4)
    assert_array_equal(probs[:, 3], 0)
    single = data[data.Y == 0]
    model = ClassDependentKNNLearner(k=3)(single)
    assert_array_equal(model(data), 0)
    # user preprocessing without imputation: NaN and nominal columns reach
    # the model, which fills and compares them itself
    model = ClassDependentKNNLearner(k=3, preprocessors=[])(heart)
    assert np.isfinite(model(heart, model.Probs)).all()


@pytest.mark.parametrize("options, message", [
    (dict(method="RelieF"), "method must be"),
    (dict(update="printed"), "update must be"),
    (dict(random_state=-1), "random_state must be None, a non-negative "
                            "integer or a numpy Generator, got -1"),
    (dict(n_iterations=0), "n_iterations must be"),
    (dict(threshold=1.5), "threshold must be"),
    (dict(threshold=float("nan")), "threshold must be"),
    (dict(negative="abs"), "negative must be"),
    (dict(method="CDRelief", threshold=0.3),
     "threshold needs method='IWCDRelief'")])
def test_learner_rejects_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        ClassDependentKNNLearner(**options)


def test_learner_refuses_no_neighbours():
    import pytest

    from orangecontrib.relief import ClassDependentKNNLearner
    from orangecontrib.relief.core import ReliefInputError
    with pytest.raises(ReliefInputError, match="k must be a positive integer"):
        ClassDependentKNNLearner(method="none", k=0)


def test_columns_near_the_limits_of_float_predict_as_rescaled():
    import numpy as np
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

    from orangecontrib.relief import ClassDependentKNNLearner
    X = np.random.default_rng(0).random((40, 3))
    domain = Domain([ContinuousVariable(f"a{i}") for i in range(3)],
                    DiscreteVariable("c", values=["0", "1"]))
    y = np.arange(40) % 2
    plain = Table.from_numpy(domain, X, y)
    expected = ClassDependentKNNLearner()(plain)(plain, 1)
    for scale in (1e300, 1e-300, 1e-320):
        scaled = X.copy()
        scaled[:, 1] *= scale
        data = Table.from_numpy(domain, scaled, y)
        np.testing.assert_allclose(
            ClassDependentKNNLearner()(data)(data, 1), expected, atol=1e-9)


def weighted(data, seed=0):
    """`data` with random instance weights."""
    data = data.copy()
    with data.unlocked(data.W):
        data.W = np.random.default_rng(seed).random(len(data))
    return data


def test_learner_on_a_sparse_table_is_the_dense_ones_model(heart):
    from Orange.data import Table

    for dense, learner in (
            (Table("iris"), ClassDependentKNNLearner()),
            (heart, ClassDependentKNNLearner(k=5, threshold=0.3))):
        sparse = dense.to_sparse()
        expected = learner(dense)
        model = learner(sparse)
        assert (model.method, model.threshold) == (expected.method,
                                                   expected.threshold)
        assert_allclose(model.class_weights, expected.class_weights)
        assert_allclose(model.train_X, expected.train_X)
        expected_probs = expected(dense, expected.Probs)
        assert_allclose(model(sparse, model.Probs), expected_probs)
        assert_allclose(model(dense, model.Probs), expected_probs)


def test_learner_ignores_instance_weights(heart):
    from Orange.data import Table

    iris = Table("iris")
    ones = Table.from_numpy(iris.domain, iris.X, iris.Y, W=np.ones(len(iris)))
    for data, learner in (
            (iris, ClassDependentKNNLearner()),
            (heart, ClassDependentKNNLearner(k=5, threshold=0.3)),
            (heart, ClassDependentKNNLearner(k=5, method="ReliefF"))):
        expected = learner(data)
        for table in (weighted(data), ones if data is iris else heart):
            model = learner(table)
            assert model.method == expected.method
            assert_allclose(model.class_weights, expected.class_weights)
            assert_allclose(model(table, model.Probs),
                            expected(data, expected.Probs))

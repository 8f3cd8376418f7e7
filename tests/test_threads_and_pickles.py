"""Every scorer, learner, model and fitted selector is shared safely:
two threads calling one object at once get the serial results, and a
pickled or deep-copied object gives the results of the original."""
import copy
import pickle
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief import (ClassDependentKNNLearner, MultiSURF,
                                  ReliefF, Significance, TuRF)
from orangecontrib.relief import sklearn as selectors
from orangecontrib.relief.variants import SCORERS

N, A = 40, 5


def table(regression=False):
    rng = np.random.default_rng(3)
    X = rng.random((N, A))
    class_var = (ContinuousVariable("t") if regression
                 else DiscreteVariable("c", values=["x", "y"]))
    y = X[:, 0] + 0.1 * rng.random(N) if regression else (X[:, 0] > 0.5)
    return Table.from_numpy(
        Domain([ContinuousVariable(f"a{i}") for i in range(A)], class_var),
        X, np.asarray(y, float))


def fitted(selector):
    data = table(selector.task == "regression")
    return selector.fit(data.X, data.Y)


#: name -> (make() -> the object, call(object) -> its results)
SHARED = {
    **{f"scorer {name}": (
        scorer, lambda scorer: scorer(table(not scorer.fits(
            table().domain.class_var))))
       for name, scorer in SCORERS.items()},
    "Significance (permutations)": (
        lambda: Significance(ReliefF(), test="permutation",
                             n_permutations=20),
        lambda scorer: scorer(table())),
    "Significance (STIR)": (lambda: Significance(MultiSURF()),
                            lambda scorer: scorer(table())),
    "TuRF": (TuRF, lambda scorer: scorer(table())),
    "learner": (ClassDependentKNNLearner,
                lambda learner: learner(table())(table())),
    "model": (lambda: ClassDependentKNNLearner()(table()),
              lambda model: model(table(), model.Probs)),
    **{f"fitted {cls.__name__}": (
        lambda cls=cls: fitted(cls(n_features_to_select=2)),
        lambda selector: (selector.transform(table().X),
                          selector.feature_importances_))
       for cls in (selectors.ReliefF, selectors.RReliefF, selectors.SURF,
                   selectors.SURFstar, selectors.MultiSURF,
                   selectors.MultiSURFstar)},
    "fitted selector, STIR": (
        lambda: fitted(selectors.ReliefF(significance="stir")),
        lambda selector: (selector.transform(table().X), selector.pvalues_)),
}


def assert_same(got, expected):
    for g, e in zip(np.atleast_1d(got) if not isinstance(got, tuple)
                    else got,
                    np.atleast_1d(expected) if not isinstance(expected,
                                                              tuple)
                    else expected):
        np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("case", SHARED)
def test_two_threads_at_once_get_the_serial_results(case):
    make, call = SHARED[case]
    shared = make()
    serial = call(shared)
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda _: call(shared), range(2)))
    for result in results:
        assert_same(result, serial)


@pytest.mark.parametrize("copier", [
    lambda obj: pickle.loads(pickle.dumps(obj)), copy.deepcopy],
    ids=["pickle", "deepcopy"])
@pytest.mark.parametrize("case", SHARED)
def test_pickled_and_deep_copied_give_equal_results(case, copier):
    make, call = SHARED[case]
    original = make()
    assert_same(call(copier(original)), call(original))

"""The scikit-learn selectors (orangecontrib.relief.sklearn): scikit-learn's
own estimator checks, pipelines and grid search, and agreement with the
core."""
import warnings

import numpy as np
import pytest
import scipy.sparse
from numpy.testing import assert_array_equal
from sklearn.model_selection import GridSearchCV
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from orangecontrib.relief import sklearn as selectors
from orangecontrib.relief.core.variants import estimators, surf
from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.errors import ReliefInputError
from tests.degenerate_evidence import CASES, degenerate


# one estimator of each class and each path of fit: the contract is the
# class's (SURFstar and MultiSURFstar are SURF's and MultiSURF's classes
# with another variant, the SWRF family one class; the variants' weights
# are checked against the core below and against their references there)
@parametrize_with_checks([
    selectors.ReliefF(), selectors.RReliefF(), selectors.SURF(),
    selectors.MultiSURF(), selectors.MultiSURF(task="regression"),
    selectors.MultiSWRFDBstar(convention="scikit-rebate"),
    selectors.MuRelief(convention="scikit-rebate"),
    selectors.ReliefF(significance="stir", n_features_to_select=2),
    selectors.MultiSURF(significance="permutation", n_permutations=5,
                        threshold=0.0),
    selectors.Iter(selectors.ReliefF(k_nearest=3), max_rounds=3)])
def test_scikit_learn_checks(estimator, check):
    check(estimator)


def interaction(seed=0, n=200, noise=8):
    """Two features whose xor is the class, `noise` random ones."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 2 + noise))
    y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(int)
    return X, y


def test_importances_are_the_cores():
    X, y = interaction()
    X[3, 4] = np.nan
    labels = np.array(["no", "yes"])[y]
    cases = [
        (selectors.ReliefF(k_nearest=5), estimators.relieff(
            X, y.astype(float), k_nearest=5)),
        (selectors.MultiSURF(deviation="sample"), surf.multisurf(
            X, y.astype(float), deviation="sample")),
        (selectors.SURFstar(), surf.surfstar(X, y.astype(float))),
    ]
    for selector, expected in cases:
        assert_array_equal(selector.fit(X, labels).feature_importances_,
                           expected)
        assert list(selector.classes_) == ["no", "yes"]
    target = X[:, 0] + 0.1 * X[:, 5]
    assert_array_equal(selectors.RReliefF().fit(X, target)
                       .feature_importances_, estimators.rrelieff(X, target))


def test_selection_by_number_threshold_and_significance():
    X, y = interaction()
    selector = selectors.MultiSURF(n_features_to_select=2).fit(X, y)
    assert_array_equal(selector.get_support(indices=True), [0, 1])
    assert selector.transform(X).shape == (len(X), 2)
    share = selectors.MultiSURF(n_features_to_select=0.5).fit(X, y)
    assert share.get_support().sum() == 5
    weights = selector.feature_importances_
    by_weight = selectors.MultiSURF(threshold=0.05).fit(X, y)
    assert_array_equal(by_weight.get_support(), weights > 0.05)
    positive = selectors.MultiSURF().fit(X, y)
    assert_array_equal(positive.get_support(), weights > 0)
    tested = selectors.MultiSURF(significance="stir", alpha=0.05).fit(X, y)
    expected = significance.stir(X, y.astype(float))
    assert_array_equal(tested.pvalues_, expected.p)
    assert_array_equal(tested.qvalues_, significance.adjust(expected.p))
    assert_array_equal(tested.get_support(indices=True), [0, 1])
    names = np.array([f"f{i}" for i in range(X.shape[1])], dtype=object)
    assert_array_equal(tested.get_feature_names_out(names), ["f0", "f1"])


def test_pipeline_and_grid_search():
    X, y = interaction(n=240)
    pipeline = make_pipeline(selectors.ReliefF(), KNeighborsClassifier())
    search = GridSearchCV(pipeline, {
        "relieff__n_features_to_select": [1, 2, 6],
        "relieff__k_nearest": [5, 10]}, cv=3)
    search.fit(X, y)
    assert search.best_params_["relieff__n_features_to_select"] == 2
    assert search.best_score_ > 0.85


def test_nominal_features_and_their_codes():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 3, (120, 4)).astype(float)
    y = (X[:, 0] + X[:, 1]) % 3
    by_index = selectors.ReliefF(nominal_features=[0, 1, 2, 3]).fit(X, y)
    by_mask = selectors.ReliefF(nominal_features=np.ones(4, bool)).fit(X, y)
    expected = estimators.relieff(X, y, np.ones(4, bool))
    assert_array_equal(by_index.feature_importances_, expected)
    assert_array_equal(by_mask.feature_importances_, expected)
    X[0, 0] = 0.5
    with pytest.raises(ValueError, match="codes"):
        selectors.ReliefF(nominal_features=[0]).fit(X, y)


def test_inputs_untouched_and_results_repeatable():
    X, y = interaction()
    X[5, 2] = np.nan
    X_before, y_before = X.copy(), y.copy()
    first = selectors.MultiSURF(n_iterations=50, random_state=3).fit(X, y)
    again = selectors.MultiSURF(n_iterations=50, random_state=3).fit(X, y)
    assert_array_equal(first.feature_importances_,
                       again.feature_importances_)
    assert_array_equal(np.isnan(X), np.isnan(X_before))
    assert_array_equal(y, y_before)


def test_bad_parameters_are_named():
    X, y = interaction(n=40)
    for selector, message in [
            (selectors.ReliefF(k_nearest=0), "k_nearest"),
            (selectors.ReliefF(diff="cubic"), "diff"),
            (selectors.MultiSURF(deviation="biased"), "deviation"),
            (selectors.ReliefF(significance="bootstrap"), "significance"),
            (selectors.ReliefF(significance="stir", alpha=3), "alpha"),
            (selectors.RReliefF(significance="stir"), "STIR"),
            (selectors.MultiSURF(task=None), "task must be one of "
                                             "'classification', "
                                             "'regression', got None"),
            (selectors.SURF(task="classify"), "task must be"),
            (selectors.NPDR(random_state=-1), "random_state must be"),
            (selectors.ReliefF(alpha=0.01), "alpha needs significance"),
            (selectors.ReliefF(significance="stir", n_permutations=99),
             "n_permutations needs significance='permutation'"),
            (selectors.ReliefF(t_eq=0.2, t_diff=0.3),
             "t_eq needs diff='ramp'")]:
        with pytest.raises(ValueError, match=message):
            selector.fit(X, y)



def test_forms_of_nominal_features():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 3, (120, 4)).astype(float)
    y = (X[:, 0] + X[:, 1]) % 3
    none = estimators.relieff(X, y)
    for empty in (None, [], (), np.array([], int)):
        assert_array_equal(selectors.ReliefF(nominal_features=empty)
                           .fit(X, y).feature_importances_, none)
    two = estimators.relieff(X, y, np.array([True, False, True, False]))
    for chosen in ([0, 2], (2, 0), np.array([0, 2], np.int8),
                   [True, False, True, False],
                   np.array([True, False, True, False])):
        assert_array_equal(selectors.ReliefF(nominal_features=chosen)
                           .fit(X, y).feature_importances_, two)
    for bad, shown in [([4], r"\[4\]"), ([-1], r"\[-1\]"),
                       ([0.5], r"\[0\.5\]"), ([[0]], r"\[\[0\]\]"),
                       ("0", "'0'"), (1, "1"),
                       (np.ones(3, bool), "3"), ([True], "1"),
                       (np.array([], bool), "0")]:
        with pytest.raises(ReliefInputError,
                           match=f"nominal_features.*got {shown}"):
            selectors.ReliefF(nominal_features=bad).fit(X, y)


def test_selection_parameters_are_checked_at_fit():
    X, y = interaction(n=40)
    for parameters, shown in [
            (dict(threshold="0.1"), "'0.1'"),
            (dict(threshold=True), "True"),
            (dict(threshold=np.nan), "nan"),
            (dict(n_features_to_select=True), "True"),
            (dict(n_features_to_select=0), "0"),
            (dict(n_features_to_select=-2), "-2"),
            (dict(n_features_to_select=1.5), "1.5"),
            (dict(n_features_to_select=0.0), "0.0"),
            (dict(n_features_to_select="2"), "'2'"),
            (dict(alpha=3), "3"),
            (dict(alpha=-0.1), "-0.1"),
            (dict(alpha="0.05"), "'0.05'"),
            (dict(significance="bootstrap"), "'bootstrap'")]:
        (name, value), = parameters.items()
        with pytest.raises(ReliefInputError, match=f"{name} .*got {shown}"):
            selectors.ReliefF(**parameters).fit(X, y)


def test_legitimate_selection_parameters():
    X, y = interaction()
    weights = selectors.MultiSURF().fit(X, y).feature_importances_
    for threshold in (np.float64(0.05), 0, -1):
        selector = selectors.MultiSURF(threshold=threshold).fit(X, y)
        assert_array_equal(selector.get_support(), weights > threshold)
    for count in (np.int64(2), 2):
        selector = selectors.MultiSURF(n_features_to_select=count).fit(X, y)
        assert_array_equal(selector.get_support(indices=True), [0, 1])
    assert selectors.MultiSURF(n_features_to_select=1.0).fit(X, y) \
        .get_support().all()


def test_more_features_to_select_than_there_are():
    X, y = interaction()
    with pytest.warns(UserWarning, match="n_features_to_select=11 .* 10"):
        selector = selectors.MultiSURF(n_features_to_select=11).fit(X, y)
    assert selector.get_support().all()


def test_too_few_permutations_warn_at_fit():
    X, y = interaction(n=60)
    selector = selectors.MultiSURF(significance="permutation",
                                   n_permutations=9, alpha=0.05)
    with pytest.warns(UserWarning, match=r"n_permutations=9 .* at least 19"):
        selector.fit(X, y)
    assert not selector.get_support().any()
    with pytest.warns(UserWarning, match="no number of permutations"):
        selectors.MultiSURF(significance="permutation", n_permutations=9,
                            alpha=0.0).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        selectors.MultiSURF(significance="permutation", n_permutations=19,
                            alpha=0.05).fit(X, y)
    with pytest.raises(ReliefInputError, match="n_permutations needs "
                                               "significance='permutation'"):
        selectors.MultiSURF(significance="stir", n_permutations=9,
                            alpha=0.05).fit(X, y)


def test_stir_on_unequal_classes_warns_at_fit():
    X, y = interaction(n=60)
    labels = np.where(np.arange(60) < 45, "common", "rare")  # 45 and 15
    with pytest.warns(UserWarning, match="3.0 times the smallest.*"
                                         "significance='permutation'"):
        selectors.ReliefF(significance="stir").fit(X, labels)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        selectors.ReliefF(significance="stir").fit(X, y)  # equal enough


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("selector", [selectors.ReliefF, selectors.MultiSURF])
def test_degenerate_evidence_gets_no_verdict(case, selector):
    X, y, without = degenerate(case)
    with pytest.warns(UserWarning, match="STIR gives no verdict") as caught:
        fitted = selector(significance="stir").fit(X, y)
    assert any(CASES[case] in str(w.message) for w in caught)
    assert_array_equal(np.flatnonzero(np.isnan(fitted.pvalues_)), without)
    assert not fitted.get_support()[without].any()


#: parameters changed by set_params between fit and transform: name ->
#: (the change, an error's pattern, or None: the selection of a selector
#: fit with the change; by the test fit ran where they differ)
AFTER_FIT = {
    "count -1": (dict(n_features_to_select=-1), "n_features_to_select .*-1"),
    "count 2.5": (dict(n_features_to_select=2.5),
                  "n_features_to_select .*2.5"),
    "count 0": (dict(n_features_to_select=0), "n_features_to_select .*0"),
    "count 3": (dict(n_features_to_select=3), None),
    "share 0.5": (dict(n_features_to_select=0.5), None),
    "threshold 'mean'": (dict(threshold="mean"), "threshold .*'mean'"),
    "threshold nan": (dict(threshold=np.nan), "threshold .*nan"),
    "threshold 0.01": (dict(threshold=0.01), None),
    "significance 'permutation'": (
        dict(significance="permutation"),
        "significance='permutation' was set after fit"),
    "significance None": (dict(significance=None), None),
    "significance 'bootstrap'": (dict(significance="bootstrap"),
                                 "significance .*'bootstrap'"),
    "alpha 3": (dict(alpha=3), "alpha .*3"),
    "alpha 0.5": (dict(alpha=0.5), {None: "alpha needs significance",
                                     "stir": None}),
}


@pytest.mark.parametrize("tested", [None, "stir"])
@pytest.mark.parametrize("case", AFTER_FIT)
def test_parameters_changed_after_fit(case, tested):
    """transform reads the selection parameters where set_params left
    them: checked as fit checks them, never a silent other selection."""
    X, y = interaction(n=60)
    changes, error = AFTER_FIT[case]
    if isinstance(error, dict):
        error = error[tested]
    fitted = selectors.ReliefF(significance=tested).fit(X, y)
    fitted.set_params(**changes)
    if error is not None:
        for call in (lambda: fitted.transform(X), fitted.get_support):
            with pytest.raises(ValueError, match=error):
                call()
        return
    expected = selectors.ReliefF(**dict(dict(significance=tested),
                                        **changes)).fit(X, y)
    assert_array_equal(fitted.transform(X), expected.transform(X))


#: dtypes no float holds, refused by fit like the core refuses them
DTYPES = {
    "complex": lambda X: X + 1j,
    "complex objects": lambda X: (X + 1j).astype(object),
    "structured": lambda X: np.rec.fromarrays(X.T).view(np.ndarray),
}


@pytest.mark.parametrize("case", DTYPES)
@pytest.mark.parametrize("selector", [selectors.ReliefF, selectors.RReliefF,
                                      selectors.MultiSURF])
def test_dtypes_no_float_holds(case, selector):
    X, y = interaction(n=40)
    with pytest.raises((ValueError, TypeError)):
        selector().fit(DTYPES[case](X), y)


def test_narrow_and_sparse_features_kept_as_they_are():
    """int8 and float32 features and a sparse matrix reach the core as
    they are, with the importances of the same features in float64, and
    a sparse matrix's selected columns come out sparse."""
    X, y = interaction(n=60)
    genotypes = np.floor(X * 3).astype(np.int8)
    counts = scipy.sparse.csr_matrix(np.where(X > 0.6, X, 0))
    for given, dense in ((genotypes, genotypes.astype(float)),
                         (X.astype(np.float32), X.astype(np.float32)
                          .astype(float)),
                         (counts, counts.toarray())):
        fitted = selectors.ReliefF(n_features_to_select=2).fit(given, y)
        assert_array_equal(fitted.feature_importances_,
                           selectors.ReliefF().fit(dense, y)
                           .feature_importances_)
    assert scipy.sparse.issparse(fitted.transform(counts))


def test_iter_is_the_cores_rounds_of_the_wrapped_variant():
    from orangecontrib.relief.core.variants.iterative import iterated
    from orangecontrib.relief.core.registry import by_name

    X, y = interaction()
    cases = [(selectors.Iter(selectors.ReliefF(k_nearest=5), absolute=True,
                             n_features_to_select=2),
              iterated(by_name("ReliefF"), X, y.astype(float), k_nearest=5,
                       absolute=True)),
             (selectors.Iter(max_rounds=3, tol=0.0),
              iterated(by_name("MultiSURF"), X, y.astype(float),
                       max_rounds=3, tol=0.0))]
    for selector, expected in cases:
        selector.fit(X, y)
        assert_array_equal(selector.feature_importances_, expected.scores)
    assert list(np.flatnonzero(cases[0][0].get_support())) == [0, 1]
    target = X[:, 0] + 0.1 * X[:, 5]
    regression = selectors.Iter(selectors.RReliefF(), max_rounds=2)
    assert_array_equal(regression.fit(X, target).feature_importances_,
                       iterated(by_name("RReliefF"), X, target,
                                task="regression", max_rounds=2).scores)


@pytest.mark.parametrize("selector, message", [
    (selectors.Iter(selectors.SWRF()), "Iter weights the distance of the "
                                       "selector it wraps, one of ReliefF"),
    (selectors.Iter(selectors.Iter()), "Iter weights the distance"),
    (selectors.Iter(beta=1.5), "beta must be a number between 0 and 1"),
    (selectors.Iter(significance="stir"), "use significance='permutation' "
                                          "with Iter"),
])
def test_iter_refuses_in_words(selector, message):
    X, y = interaction(n=40)
    with pytest.raises(ValueError, match=message):
        selector.fit(X, y)

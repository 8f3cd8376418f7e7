"""The scikit-learn selector of survival NPDR
(orangecontrib.relief.sklearn.SurvivalNPDR): scikit-learn's own checks,
the targets it reads, agreement with the core, selection and
pipelines."""
import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from orangecontrib.relief.core.variants.survival_npdr import survival_npdr
from orangecontrib.relief.sklearn import SurvivalNPDR

#: scikit-survival's structured target (Surv.from_arrays(event, time))
SURV = [("event", "?"), ("time", "<f8")]


class OnTestTargets(SurvivalNPDR):
    """SurvivalNPDR whose fit reads scikit-learn's test targets (a number
    per sample) as times, every one an event, so that scikit-learn's
    checks of everything but the target run on the selector (they make
    classification or regression targets, which a survival target is
    not)."""

    def fit(self, X, y):
        if y is None:
            return super().fit(X, y)
        y = np.asarray(y, dtype=np.float64)
        time = y.reshape(len(y), -1)[:, 0]
        return super().fit(X, np.column_stack([np.ones(len(y)),
                                               time - time.min() + 1]))


@parametrize_with_checks([
    OnTestTargets(),
    OnTestTargets(diffs="signed", impute=True, n_features_to_select=2),
    OnTestTargets(significance="regression", alpha=0.5)])
def test_scikit_learn_checks(estimator, check):
    check(estimator)


def cohort(seed=0, n=150, a=12):
    """Features 0 and 1 lengthen and shorten survival; censored at 70."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, a))
    true_time = np.exp(4 + 0.5 * X[:, 0] - 0.5 * X[:, 1]
                       + 0.2 * rng.standard_normal(n))
    time, event = np.minimum(true_time, 70.0), true_time <= 70.0
    y = np.empty(n, dtype=SURV)
    y["event"], y["time"] = event, time
    return X, y


def test_importances_are_the_cores_for_either_form_of_y():
    X, y = cohort()
    expected = survival_npdr(X, y["time"], y["event"], diffs="signed",
                             impute=True, adjustment="bh")
    for target in (y, np.column_stack([y["event"], y["time"]])):
        selector = SurvivalNPDR(diffs="signed", impute=True).fit(X, target)
        assert_array_equal(selector.coef_, expected.coefficient)
        assert_array_equal(selector.feature_importances_,
                           np.abs(expected.coefficient))
        assert_array_equal(selector.pvalues_, expected.p)
        assert_array_equal(selector.qvalues_, expected.q)
        assert selector.n_pairs_ == expected.n_pairs
    absolute = SurvivalNPDR().fit(X, y)
    assert_array_equal(absolute.feature_importances_, survival_npdr(
        X, y["time"], y["event"]).coefficient)


def test_selection_and_pipeline():
    X, y = cohort()
    best = SurvivalNPDR(diffs="signed", n_features_to_select=2).fit(X, y)
    assert_array_equal(best.get_support(indices=True), [0, 1])
    assert best.transform(X).shape == (len(X), 2)
    tested = SurvivalNPDR(diffs="signed", significance="regression",
                          alpha=1e-6).fit(X, y)
    assert_array_equal(tested.get_support(), tested.qvalues_ <= 1e-6)
    assert tested.get_support()[:2].all()
    pipeline = make_pipeline(StandardScaler(), clone(best)).fit(X, y)
    assert pipeline.transform(X).shape == (len(X), 2)


def test_covariates_are_not_scored():
    X, y = cohort()
    selector = SurvivalNPDR(diffs="signed", covariates=[5]).fit(X, y)
    expected = survival_npdr(np.delete(X, 5, axis=1), y["time"], y["event"],
                             covariates=X[:, [5]], diffs="signed",
                             adjustment="bh")
    assert np.isnan(selector.coef_[5]) and not selector.get_support()[5]
    assert_array_equal(np.delete(selector.coef_, 5), expected.coefficient)


@pytest.mark.parametrize("target, message", [
    (None, "requires y to be passed"),
    ("time", "structured array .* or two columns"),
    ("swapped", "give the event first"),
    ("three fields", "needs two fields"),
    ("event 2", "got 2 in row 3"),
    ("nan time", r"times are missing \(NaN\) in row 4"),
    ("negative", "not negative, got -1 in row 2"),
    ("all censored", "Every time is censored"),
    ("short", "y has 149 samples for the 150 of X"),
    ("one sample", "needs at least two; got 1 sample"),
])
def test_bad_targets_are_named(target, message):
    X, y = cohort()
    event, time = y["event"].astype(float), y["time"].copy()
    if target == "event 2":
        event[3] = 2
    if target == "nan time":
        time[4] = np.nan
    if target == "negative":
        time[2] = -1
    if target == "all censored":
        event[:] = 0
    targets = {"time": time, "swapped": np.column_stack([time, event]),
               "three fields": np.zeros(150, dtype=SURV + [("age", "<f8")]),
               "short": np.column_stack([event, time])[1:]}
    if target == "one sample":
        X = X[:1]
        targets[target] = np.column_stack([event, time])[:1]
    y = targets.get(target, None if target is None
                    else np.column_stack([event, time]))
    with pytest.raises(ValueError, match=message):
        SurvivalNPDR().fit(X, y)

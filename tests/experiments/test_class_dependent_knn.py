"""The class-dependent kNN experiment (Table 2 of Qiu & He 2019) with tiny
knobs, and its parts."""
import numpy as np
import pytest
from numpy.testing import assert_allclose

from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.experiments import class_dependent_knn as experiment

TINY = experiment.Settings(datasets=("bupa",), k_values=(3,),
                           thresholds=(0.3, 0.7), folds=2, inner_folds=2,
                           plot=False)


@pytest.fixture(scope="module")
def progress_and_results():
    seen = []
    results = experiment.run(TINY, progress_callback=seen.append)
    return seen, results


def test_run_reports_the_fraction_of_folds_done(progress_and_results):
    seen, results = progress_and_results
    assert seen == [0.5, 1.0]
    assert results.settings == TINY and results.seconds > 0
    (dataset,) = results.datasets
    assert isinstance(dataset, experiment.DatasetResult)
    assert (dataset.name, dataset.n_instances) == ("bupa", 345)
    assert all(len(accuracies) == 2 for accuracies in dataset.folds.values())


def test_results_write_and_summarise(progress_and_results, tmp_path):
    _, results = progress_and_results
    paths = results.write(tmp_path)
    assert [str(p).rsplit("/", 1)[-1] for p in paths] == [
        "classdep.csv", "classdep.md"]  # no plot: TINY.plot is False
    summary = results.summary()
    assert summary.startswith("|") and "bupa" in summary
    assert summary in (tmp_path / "classdep.md").read_text(encoding="utf-8")


def test_should_stop_interrupts_the_run():
    with pytest.raises(Interrupted):
        experiment.run(TINY, should_stop=lambda: True)


@pytest.mark.parametrize("bad", [dict(datasets=("nope",)), dict(datasets=()),
                                 dict(k_values=(0,)), dict(thresholds=(1.5,)),
                                 dict(folds=1), dict(inner_folds=1),
                                 dict(negative="abs"), dict(seed=-1)])
def test_settings_check_themselves(bad):
    with pytest.raises(ValueError, match=f"^{next(iter(bad))}"):
        experiment.Settings(**bad)


@pytest.mark.parametrize("folds, inner_folds, message", [
    (346, 2, "folds must be at most 345, the instances of bupa, got 346"),
    # the smallest training part of 345 in 2 folds: 172
    (2, 173, "inner_folds must be at most 172, the instances of the "
             "smallest training part of bupa with folds 2, got 173")])
def test_run_refuses_folds_the_data_cannot_fill(folds, inner_folds, message):
    seen = []
    settings = experiment.Settings(datasets=("bupa",), folds=folds,
                                   inner_folds=inner_folds)
    with pytest.raises(ValueError, match=message):
        experiment.run(settings, progress_callback=seen.append)
    assert seen == []  # before any work


def test_data_as_the_paper_has_them():
    X, y, values = experiment.load("bupa")
    assert X.shape == (345, 6) and len(values) == 2
    X, y, _ = experiment.load("breast-cancer")  # complete rows, ordinal codes
    assert X.shape[1] == 9 and not np.isnan(X).any() and len(y) < 286
    assert set(experiment.PAPER) == {"HEART", "B.CANCER", "DIABETES", "SPLICE",
                                     "THYROID", "BREAST-W", "BUPA", "PIMA"}


def test_folds_are_stratified_and_zscore_uses_training_statistics():
    y = np.array([0] * 30 + [1] * 12)
    fold = experiment.stratified_folds(y, 5, seed=1)
    for f in range(5):
        assert np.sum(fold == f) in (8, 9)
        assert np.sum((fold == f) & (y == 1)) in (2, 3)
    train = np.array([[1.0, 5.0], [3.0, 5.0]])
    z_train, z_test = experiment.zscore(train, np.array([[5.0, 6.0]]))
    assert_allclose(z_train, [[-1, 0], [1, 0]])
    assert_allclose(z_test, [[3, 1]])


def test_split_evaluation_and_inner_threshold_choice():
    X, y, _ = experiment.load("bupa")
    rng = np.random.default_rng(0)
    rows = rng.choice(len(y), 120, replace=False)
    X, y = experiment.zscore(X[rows], X[rows])[0], y[rows]
    scores = experiment.evaluate_split(X[:80], y[:80], X[80:], y[80:], 2,
                                       (3,), (0.2, 0.8), seed=0)
    assert len(scores) == 3 + 2 * 2
    assert all(0 <= accuracy <= 1 for accuracy in scores.values())
    chosen = experiment.choose_threshold(X[:80], y[:80], 2, (3,), (0.2, 0.8),
                                         inner_folds=2, seed=0)
    assert set(chosen) == {("as_printed", 3), ("as_text", 3)}
    assert set(chosen.values()) <= {0.2, 0.8}

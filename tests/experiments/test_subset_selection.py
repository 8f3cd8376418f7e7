"""The subset selection experiment (Tables 1 and 2 of Arauzo-Azofra,
Benitez & Castro 2004: RFSM, Liu's consistency and the wrapper) with tiny
knobs."""
import csv

import numpy as np
import pytest

from orangecontrib.relief import generators
from orangecontrib.relief.experiments import subset_selection as experiment

SETTINGS = experiment.Settings(folds=2, inner_folds=2, table1=("Parity3+3",),
                               table2=("lung-cancer", "housing"),
                               max_instances=30)


@pytest.fixture(scope="module")
def run_and_progress():
    seen = []
    return experiment.run(SETTINGS, progress_callback=seen.append), seen


@pytest.fixture(scope="module")
def results(run_and_progress):
    return run_and_progress[0]


def test_progress_is_the_fraction_of_tasks_done(run_and_progress):
    results, seen = run_and_progress
    n_tasks = len(experiment.tasks(SETTINGS))
    assert n_tasks == 3 * 2  # three data sets, two folds each
    assert seen == [(i + 1) / n_tasks for i in range(n_tasks)]
    assert results.settings == SETTINGS and results.seconds > 0


def test_table1_rows(results):
    rows = {r["method"]: r for r in results.table1}
    assert set(rows) == set(experiment.TABLE1_METHODS)
    rfsm = rows["RFSM"]
    assert rfsm["dataset"] == "Parity3+3"
    assert rfsm["paper_mean"] == 3.0 and rfsm["paper_stderr"] == 0.0
    assert rfsm["necessary_kept"].endswith("/2")
    for row in rows.values():
        assert 0 <= row["mean"] <= 12 and row["stderr"] >= 0


def test_table2_rows(results):
    rows = {(r["dataset"], r["row"]): r for r in results.table2}
    assert len(rows) == 2 * 8
    assert rows[("lung-cancer", "tree")]["nof"] == 56
    assert rows[("lung-cancer", "tree")]["paper_score"] == 43.3
    assert rows[("housing", "RFSM+kNN")]["measure"] == "MSE"
    assert rows[("housing", "RFSM+kNN")]["paper_score"] == 0.99
    for row in rows.values():
        assert np.isfinite(row["score"]) and row["nof"] >= 0
    # Liu and RFSM select the same attributes whatever the learner
    for method in ("Liu", "RFSM"):
        assert (rows[("lung-cancer", f"{method}+tree")]["nof"]
                == rows[("lung-cancer", f"{method}+kNN")]["nof"])


def test_markdown_and_csv(results, tmp_path):
    paths = results.write(tmp_path)
    assert [p.rsplit("/", 1)[-1] for p in paths] == [
        "rfsm_table1.csv", "rfsm_table2.csv", "rfsm.md"]
    text = (tmp_path / "rfsm.md").read_text(encoding="utf-8")
    assert text == results.summary()
    assert "Table 1" in text and "Table 2" in text
    assert "3.0 ± 0.00" in text            # the paper's RFSM on Parity3+3
    assert "housing (paper: prostate)" in text
    with open(tmp_path / "rfsm_table2.csv", encoding="utf-8") as file:
        assert len(list(csv.DictReader(file))) == 16


def test_necessary_groups():
    parity = generators.parity(seed=0)
    assert experiment.necessary_groups(parity.domain) == [{0, 3}, {1, 4},
                                                          {2, 5}]
    corral = generators.corral(seed=0)
    assert experiment.necessary_groups(corral.domain) == [{0}, {1}, {2}, {3}]


def test_rank_weights_of_orange2():
    weights = experiment.orange2_rank_weights(np.zeros((2, 21)))
    assert weights.shape == (2, 21)
    assert weights[0, -1] == pytest.approx(0.001)
    assert (np.diff(weights[0]) < 0).all()


@pytest.mark.parametrize("bad", [dict(folds=1), dict(inner_folds=1),
                                 dict(max_instances=-1), dict(k_nearest=0),
                                 dict(seed=-1), dict(table1=("nope",)),
                                 dict(table1=(), table2=())])
def test_settings_check_themselves(bad):
    with pytest.raises(ValueError):
        experiment.Settings(**bad)


@pytest.mark.parametrize("knobs, message", [
    (dict(folds=31, max_instances=30),
     r"folds must be at most 30, the instances of CorrAL \(max_instances "
     r"30\), got 31"),
    (dict(folds=3, inner_folds=21, max_instances=30),
     "inner_folds must be at most 20, the instances of the smallest "
     "training part of CorrAL"),
    # CorrAL has 32 instances
    (dict(folds=33), "folds must be at most 32, the instances of CorrAL,")])
def test_folds_must_not_outnumber_the_instances(knobs, message):
    settings = experiment.Settings(table1=("CorrAL",), table2=(), **knobs)
    with pytest.raises(ValueError, match=message):
        experiment.tasks(settings)

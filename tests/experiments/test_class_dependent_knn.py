"""Issue 5: `orange-relief experiment classdep` (Table 2 of Qiu & He 2019)
run with tiny knobs, and its parts."""
import csv

import numpy as np
from numpy.testing import assert_allclose

from orangecontrib.relief.cli import main
from orangecontrib.relief.experiments import classdep as experiment

TINY = ["--datasets", "bupa", "--k", "3", "5", "--thresholds", "0.3", "0.7",
        "--folds", "3", "--inner-folds", "2"]


def test_cli_writes_table_csv_and_plot(tmp_path, capsys):
    assert main(["experiment", "classdep", "--out", str(tmp_path)] + TINY) == 0
    printed = capsys.readouterr().out
    assert "bupa: 345 instances" in printed
    with open(tmp_path / "classdep.csv", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    # per k: 3 baselines + 2 readings x (best, chosen in training)
    assert len(rows) == 2 * 7
    methods = {row["method"] for row in rows}
    assert {"kNN", "kNN + ReliefF", "CDRelief",
            "IWCDRelief as_text, threshold chosen in training"} <= methods
    for row in rows:
        assert 0 <= float(row["accuracy"]) <= 100
        if row["method"].startswith("IWCDRelief"):
            assert row["paper_accuracy"] in ("64.38", "61.45")
    table = (tmp_path / "classdep.md").read_text(encoding="utf-8")
    assert "| bupa | *paper: IWCDRelief (BUPA)* | 64.38 (0.036) | 61.45 (0.067) |" in table
    assert "3-fold" in table and "Mean |ours - paper|" in table
    assert (tmp_path / "classdep_accuracy_vs_k.png").stat().st_size > 1000


def test_cli_rejects_bad_knobs(tmp_path, capsys):
    assert main(["experiment", "classdep", "--out", str(tmp_path),
                 "--folds", "1"]) == 2
    assert "folds" in capsys.readouterr().err


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

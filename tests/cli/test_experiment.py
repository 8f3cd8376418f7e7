"""``orange-relief experiment <name>`` (orangecontrib.relief.cli.experiment)
with tiny knobs: each writes its files, prints its summary and turns bad
knobs into a one-line error with exit code 2."""
import csv
import functools

import pytest

from orangecontrib.relief.cli import experiment, main
from orangecontrib.relief.cli.common import ProgressBar
from orangecontrib.relief.experiments import separability


def test_separability(tmp_path, capsys, monkeypatch):
    # the bar shows even if the tiny run ends within the usual quiet time
    monkeypatch.setattr(experiment, "ProgressBar",
                        functools.partial(ProgressBar, quiet_seconds=0))
    code = main(["experiment", "separability", "--problem", "ModuloP",
                 "--problem", "RandomRBF", "--max-relevant", "2",
                 "--datasets", "2", "--instances", "30", "--k", "3",
                 "--jobs", "1", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0
    lines = (tmp_path / "separability.csv").read_text().splitlines()
    assert lines[0] == ",".join(separability.COLUMNS)
    assert len(lines) == 1 + 2 * (2 + 4) * 2
    for name in ("separability.png", "accumulated_separability.png"):
        assert (tmp_path / name).stat().st_size > 1000
    assert "100.0%" in err and "ModuloP" in out


def test_bad_knobs_exit_with_code_2(tmp_path, capsys):
    # a number the argument parser refuses
    with pytest.raises(SystemExit) as exit_info:
        main(["experiment", "separability", "--datasets", "0",
              "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    assert "--datasets: must be at least 1" in capsys.readouterr().err
    # settings the experiment refuses: one line on stderr
    assert main(["experiment", "separability", "--problem", "ModuloP",
                 "--instances", "1", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("orange-relief experiment: error: ")
    assert "n_instances" in err and err.count("\n") == 1
    assert main(["experiment", "classdep", "--out", str(tmp_path),
                 "--folds", "1"]) == 2
    assert "folds" in capsys.readouterr().err
    assert main(["experiment", "rfsm", "--folds", "1"]) == 2
    assert "folds" in capsys.readouterr().err


def test_class_dependent_knn(tmp_path, capsys):
    assert main(["experiment", "classdep", "--out", str(tmp_path),
                 "--datasets", "bupa", "--k", "3", "5",
                 "--thresholds", "0.3", "0.7", "--folds", "3",
                 "--inner-folds", "2"]) == 0
    printed = capsys.readouterr().out
    assert "bupa" in printed and "classdep.csv" in printed
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
    assert ("| bupa | *paper: IWCDRelief (BUPA)* | 64.38 (0.036) | "
            "61.45 (0.067) |") in table
    assert "3-fold" in table and "Mean |ours - paper|" in table
    assert "bupa (345 x 6, " in table
    assert (tmp_path / "classdep_accuracy_vs_k.png").stat().st_size > 1000


def test_subset_selection(tmp_path, capsys):
    code = main(["experiment", "rfsm", "--out", str(tmp_path), "--folds", "2",
                 "--inner-folds", "2", "--dataset", "CorrAL",
                 "--max-instances", "16", "--jobs", "1", "--quiet"])
    assert code == 0
    assert (tmp_path / "rfsm.md").exists()
    assert not (tmp_path / "rfsm_table2.csv").exists()
    out, err = capsys.readouterr()
    assert "CorrAL" in out and err == ""  # --quiet: no progress bar

"""``orange-relief experiment <name>`` (orangecontrib.relief.cli.experiment)
with tiny knobs: each writes its files, prints its summary and turns bad
knobs into a one-line error with exit code 2."""
import csv
import functools
import os

import pytest

from orangecontrib.relief.cli import experiment, main
from orangecontrib.relief.cli.common import ProgressBar
from orangecontrib.relief.experiments import (class_dependent_knn, rebate,
                                              separability, subset_selection)
from tests.rebate_archive import FOLDER as REBATE
from tests.rebate_archive import SMALL, copy_of

#: each experiment with the module that runs it
EXPERIMENTS = {"separability": separability, "classdep": class_dependent_knn,
               "rfsm": subset_selection}


def one_line_error(capsys):
    """The stderr of a command that failed with one line of error."""
    err = capsys.readouterr().err
    assert err.startswith("orange-relief experiment: error: ")
    assert err.count("\n") == 1
    return err


def test_separability(tmp_path, capsys, monkeypatch):
    # the bar shows even if the tiny run ends within the usual quiet time
    monkeypatch.setattr(experiment, "ProgressBar",
                        functools.partial(ProgressBar, quiet_seconds=0,
                                          enabled=True))
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
    assert "--instances must be at least 2, got 1" in one_line_error(capsys)
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


@pytest.mark.parametrize("name", EXPERIMENTS)
@pytest.mark.parametrize("out, message", [
    ("/dev/null/x", "Not a directory"), ("file", "not a directory"),
    ("", "No such file or directory")])
def test_an_out_that_cannot_be_written_is_refused_before_the_run(
        name, out, message, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(EXPERIMENTS[name], "run",
                        lambda *args, **kwargs: pytest.fail("ran"))
    if out == "file":
        out = str(tmp_path / "file")
        (tmp_path / "file").write_text("")
    assert main(["experiment", name, "--out", out]) == 2
    assert f"--out {out!r}: {message}" in one_line_error(capsys)


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_a_negative_seed_is_a_usage_error(name, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["experiment", name, "--seed", "-1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --seed: must be at least 0, not -1" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("argv, message", [
    (["classdep", "--datasets", "heart_disease", "--folds", "400"],
     "--folds must be at most 297, the instances of heart_disease, got 400"),
    (["classdep", "--datasets", "heart_disease", "--folds", "2",
      "--inner-folds", "200"],
     "--inner-folds must be at most 148, the instances of the smallest "
     "training part of heart_disease with --folds 2, got 200"),
    (["rfsm", "--dataset", "CorrAL", "--folds", "500", "--max-instances",
      "30"], "--folds must be at most 30, the instances of CorrAL "
             "(--max-instances 30), got 500"),
    (["rfsm", "--dataset", "zoo", "--max-instances", "1"],
     "--folds must be at most 1, the instances of zoo (--max-instances 1)"),
])
def test_folds_the_data_cannot_fill_are_refused(argv, message, tmp_path,
                                                capsys):
    assert main(["experiment", *argv, "--out", str(tmp_path)]) == 2
    assert message in one_line_error(capsys)


def test_the_data_refused_during_the_run_is_one_line(tmp_path, capsys):
    # a training part of this sample of zoo has a single class
    assert main(["experiment", "rfsm", "--dataset", "zoo",
                 "--max-instances", "6", "--seed", "1", "--folds", "2",
                 "--inner-folds", "2", "--jobs", "1", "--quiet",
                 "--out", str(tmp_path)]) == 2
    assert "single class" in one_line_error(capsys)


def test_rfsm_max_instances_is_not_negative(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["experiment", "rfsm", "--max-instances", "-5"])
    assert exit_info.value.code == 2
    assert ("argument --max-instances: must be at least 0, not -5"
            in capsys.readouterr().err)


def test_rebate(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(experiment, "ProgressBar",
                        functools.partial(ProgressBar, quiet_seconds=0,
                                          enabled=True))
    code = main(["experiment", "rebate", REBATE, "--method", "MultiSURF",
                 "--method", "Relief", "--replicates", "1", "--jobs", "1",
                 "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0
    for name in rebate.Results.FILES:
        assert (tmp_path / name).stat().st_size > 100
    with open(tmp_path / "rebate_replicates.csv", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 5 * 2
    assert "6_bit_mutliplexer" in out and "n/a" in out
    assert "5 configurations, 5 files" in out and "100.0%" in err


@pytest.mark.parametrize("argv, message", [
    (["--quick", "--replicates", "2"], "give --quick or --replicates"),
    (["--method", "MultiSURF", "--out", "/dev/null/x"], "--out"),
    (["--summary", "/no/such.xlsx"], "--summary '/no/such.xlsx' is not a "
                                     "file"),
    # every value typed is used or refused
    (["--seed", "2"], "--seed needs --permute-rows"),
    (["--shuffles", "3"], "--shuffles needs the shuffle control "
                          "(--controls)"),
    (["--method", "MultiSURF", "--method", "skrebate ReliefF k=10",
      "--ties", "lower-index"],
     "--ties needs a method with k nearest neighbours (ReliefF k=10, "),
])
def test_rebate_refuses_bad_knobs_before_the_run(argv, message, capsys,
                                                 monkeypatch):
    monkeypatch.setattr(rebate, "run",
                        lambda *args, **kwargs: pytest.fail("ran"))
    assert main(["experiment", "rebate", REBATE, *argv]) == 2
    assert message in one_line_error(capsys)


def test_rebate_with_the_controls_and_the_absolute_ranking(tmp_path,
                                                          capsys):
    # one configuration: the table's columns and the tests' methods do not
    # depend on how many run
    folder = copy_of(REBATE, SMALL, tmp_path / "archive")
    assert main(["experiment", "rebate", folder, "--method", "MultiSURF",
                 "--controls", "--shuffles", "2", "--absolute",
                 "--replicates", "1", "--jobs", "1", "--quiet",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "| MultiSURF | Random shuffle | Mutual information | " \
           "|MultiSURF| |" in out
    with open(tmp_path / "rebate_mannwhitney.csv", encoding="utf-8") as file:
        assert {row["method_1"] for row in csv.DictReader(file)} == {
            "MultiSURF", "Random shuffle", "Mutual information"}
    with pytest.raises(SystemExit) as exit_info:
        main(["experiment", "rebate", REBATE, "--controls", "--shuffles",
              "0"])
    assert exit_info.value.code == 2
    assert "--shuffles: must be at least 1" in capsys.readouterr().err


def test_rebate_needs_a_folder_of_the_archive(tmp_path, capsys):
    assert main(["experiment", "rebate", str(tmp_path / "none"),
                 "--out", str(tmp_path)]) == 2
    assert "not a folder" in one_line_error(capsys)
    assert main(["experiment", "rebate", str(tmp_path), "--jobs", "1",
                 "--quiet", "--out", str(tmp_path)]) == 2
    assert "holds no table" in one_line_error(capsys)
    with pytest.raises(SystemExit) as exit_info:
        main(["experiment", "rebate", REBATE, "--method", "MultiSURF**"])
    assert exit_info.value.code == 2


def test_rebate_reads_the_summary_and_permutes_the_rows(tmp_path, capsys):
    summary = os.path.join(REBATE, "SimulatedDataArchiveSummary.xlsx")
    code = main(["experiment", "rebate", REBATE, "--method", "MultiSURF",
                 "--replicates", "1", "--jobs", "1", "--quiet",
                 "--summary", summary, "--permute-rows", "--seed", "2",
                 "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert ("named by the summary for 5 configurations and by the naming "
            "rules for 0" in out)
    assert "key variables and the register bits together" in out


def test_rebate_a_bad_summary_is_one_line(tmp_path, capsys):
    bad = tmp_path / "summary.xlsx"
    bad.write_text("no spreadsheet")
    assert main(["experiment", "rebate", REBATE, "--quiet", "--summary",
                 str(bad), "--out", str(tmp_path)]) == 2
    assert "cannot be read as a spreadsheet" in one_line_error(capsys)


def test_rebate_peers_join_the_methods_they_have(monkeypatch):
    from orangecontrib.relief.cli import build_parser

    monkeypatch.setattr(rebate.peers, "available",
                        lambda peer: peer == "fast-select")
    args = build_parser().parse_args(
        ["experiment", "rebate", REBATE, "--method", "MultiSURF",
         "--method", "TuRF MultiSURF", "--peers", "--quick"])
    settings = args.settings(args)
    assert settings.methods == ("MultiSURF", "TuRF MultiSURF",
                                "fast-select MultiSURF")
    assert settings.replicates == rebate.QUICK_REPLICATES


@pytest.mark.parametrize("argv, methods", [
    ([], rebate.DEFAULT_METHODS),
    (["--urbslab"], rebate.URBSLAB),
    (["--method", "NPDR", "--urbslab"], ("NPDR",) + rebate.URBSLAB),
    (["--method", "MultiSURF", "--controls"],
     ("MultiSURF",) + rebate.CONTROLS),
    (["--urbslab", "--controls"], rebate.URBSLAB),
])
def test_rebate_methods_of_the_re_benchmark(argv, methods):
    from orangecontrib.relief.cli import build_parser

    args = build_parser().parse_args(["experiment", "rebate", REBATE,
                                      *argv])
    assert args.settings(args).methods == methods

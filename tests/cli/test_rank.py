"""``orange-relief rank`` (orangecontrib.relief.cli.rank)."""
import functools
import gzip
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from Orange.data import Table

from orangecontrib.relief import (MuRelief, PDReliefF, Relief, ReliefF,
                                  SWRFstar)
from orangecontrib.relief.cli import main, rank
from orangecontrib.relief.cli.common import ProgressBar
from orangecontrib.relief.datasets import path
from tests.degenerate_evidence import CASES, degenerate_table
from tests.waiting import HANG_GUARD_S


def run(capsys, *argv):
    """Run the CLI; return (exit code, stdout lines, stderr)."""
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse refusing an argument
        code = stop.code
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def ranking(lines):
    """Return {attribute: weight} of the table rows of the CLI output."""
    rows = [line.split(None, 1)[1].rsplit(None, 1) for line in lines[1:-1]]
    return {name: float(weight) for name, weight in rows}


def test_default_data_is_heart_disease_with_relieff(capsys):
    code, lines, err = run(capsys, "rank")
    assert code == 0 and err == ""
    assert lines[0].split() == ["rank", "attribute", "weight"]
    data = Table(path("heart_disease"))
    assert len(lines) == len(data.domain.attributes) + 2
    summary = lines[-1]
    assert summary.startswith(f"{len(data)} instances, "
                              f"{len(data.domain.attributes)} attributes, "
                              "method ReliefF, ")
    assert re.search(r", weights in [\d.]+ s, [\d.]+ s in all$", summary)


def test_weights_are_the_scorers_best_first(capsys):
    _, lines, _ = run(capsys, "rank")
    printed = ranking(lines)
    data = Table(path("heart_disease"))
    weights = ReliefF()(data)
    expected = {a.name: w for a, w in zip(data.domain.attributes, weights)}
    assert printed.keys() == expected.keys()
    for name, weight in printed.items():
        assert weight == pytest.approx(expected[name], abs=1e-6)
    assert list(printed.values()) == sorted(printed.values(), reverse=True)


def test_shipped_name_with_numeric_class_uses_rrelieff(capsys):
    code, lines, _ = run(capsys, "rank", "cpu.tab", "--top", "3")
    assert code == 0
    assert len(lines) == 3 + 2
    assert [line.split()[0] for line in lines[1:-1]] == ["1", "2", "3"]
    assert "method RReliefF" in lines[-1]


def test_file_path_and_options(capsys):
    argv = ["rank", path("zoo"), "--k", "3", "--iterations", "20",
            "--seed", "1", "--diff", "ramp", "--top", "4"]
    code, lines, _ = run(capsys, *argv)
    assert code == 0
    assert len(ranking(lines)) == 4
    _, lines_again, _ = run(capsys, *argv)
    assert lines_again[:-1] == lines[:-1]  # the same seed, the same weights


def test_relief_on_two_classes(capsys):
    code, lines, _ = run(capsys, "rank", "voting", "--method", "Relief")
    assert code == 0
    assert "method Relief," in lines[-1]


def test_double_relieff_variant(capsys):
    code, lines, _ = run(capsys, "rank", "voting", "--method", "PDReliefF",
                         "--k", "5", "--top", "3")
    assert code == 0
    assert len(lines) == 5 and "method PDReliefF" in lines[-1]
    table = Table(path("voting"))
    best = np.argmax(PDReliefF(k_nearest=5)(table))
    assert table.domain.attributes[best].name in lines[1]


@pytest.mark.parametrize("argv, message", [
    (["rank", "no/such/file.tab"], "no such file"),
    (["rank", "--method", "RReliefF"], "RReliefF does not fit"),
    (["rank", "cpu", "--method", "ReliefF"], "ReliefF does not fit"),
    (["rank", "--method", "Relief", "--k", "3"],
     "the nearest neighbour of the same class"),
    (["rank", "wine", "--method", "Relief"], "ReliefF"),
    (["rank", "--iterations", str(10 ** 12)], "--iterations asks for"),
    (["rank", "--diff", "ramp", "--t-eq", "-1"],
     "--t-eq: must be a number >= 0, not '-1'"),
    (["rank", "--diff", "ramp", "--t-eq", "0.5", "--t-diff", "0.1"],
     "--t-eq must be at most --t-diff, got --t-eq=0.5 and --t-diff=0.1."),
    (["rank", "--significance", "permutation", "--permutations",
      str(10 ** 9)], "--permutations: must be a positive integer up to"),
])
def test_errors_are_one_line_and_exit_2(capsys, argv, message):
    code, lines, err = run(capsys, *argv)
    assert code == 2
    assert lines == []
    assert err.count("\n") == 1 and message in err
    assert "Traceback" not in err


def test_bad_path_lists_shipped_data_sets(capsys):
    _, _, err = run(capsys, "rank", "no/such/file.tab")
    assert err.startswith("orange-relief rank: error: no/such/file.tab")
    assert "heart_disease" in err and "zoo" in err


def test_data_without_class(capsys, tmp_path):
    data = Table(path("zoo"))
    no_class = data.transform(data.domain.select_columns(
        list(data.domain.attributes)))
    filename = str(tmp_path / "no_class.tab")
    no_class.save(filename)
    code, _, err = run(capsys, "rank", filename)
    assert code == 2
    assert "no (single) class" in err


def test_data_of_several_classes_names_the_command_that_ranks_them(capsys):
    """A file of three numeric targets, ranked without --class: one line
    that gives the --class of all three, which then ranks them."""
    code, lines, err = run(capsys, "rank", "collembola")
    assert code == 2 and lines == [] and err.count("\n") == 1
    names = re.search(r"--class (\S+),", err).group(1)
    assert names == "class_spec,class_ind,class_fols"
    code, lines, _ = run(capsys, "rank", "collembola", "--class", names)
    assert code == 0 and "class_fols" in lines[0]


def _plain_csv(tmp_path):
    """A CSV with a header row of names only, as spreadsheets write it:
    Orange reads it without a class."""
    rng = np.random.default_rng(0)
    X = rng.random((40, 3))
    lines = ["a,b,c,label,price"] + [
        f"{x[0]:.4f},{x[1]:.4f},{x[2]:.4f},{'yes' if x[0] > 0.5 else 'no'},"
        f"{3 * x[1]:.4f}" for x in X]
    filename = tmp_path / "plain.csv"
    filename.write_text("\n".join(lines) + "\n")
    return str(filename)


def test_a_file_without_class_says_how_to_name_one(capsys, tmp_path):
    code, _, err = run(capsys, "rank", _plain_csv(tmp_path))
    assert code == 2 and "--class" in err


def test_class_names_the_column_of_a_plain_csv(capsys, tmp_path):
    filename = _plain_csv(tmp_path)
    code, lines, err = run(capsys, "rank", filename, "--class", "label")
    assert code == 0 and err == ""
    printed = ranking(lines)
    assert set(printed) == {"a", "b", "c", "price"}
    assert max(printed, key=printed.get) == "a"
    assert "method ReliefF" in lines[-1]
    code, lines, _ = run(capsys, "rank", filename, "--class", "price")
    assert code == 0 and "method RReliefF" in lines[-1]
    printed = ranking(lines)
    assert set(printed) == {"a", "b", "c", "label"}
    assert max(printed, key=printed.get) == "b"


def test_class_replaces_the_files_class(capsys):
    data = Table(path("heart_disease"))
    code, lines, _ = run(capsys, "rank", "heart_disease", "--class", "age")
    assert code == 0 and "method RReliefF" in lines[-1]
    names = {a.name for a in data.domain.attributes} - {"age"}
    assert set(ranking(lines)) == names  # the file's class is not scored


def test_class_that_is_no_column_lists_the_columns(capsys, tmp_path):
    code, _, err = run(capsys, "rank", _plain_csv(tmp_path), "--class",
                       "nope")
    assert code == 2
    assert ("--class nope: no such column; the columns are a, b, c, label, "
            "price") in err


def test_class_of_text_is_refused_by_name(capsys):
    code, _, err = run(capsys, "rank", "zoo", "--class", "name")
    assert code == 2
    assert "--class name: a column of text cannot be the class" in err


def test_relief_on_two_classes_present_of_three(capsys, tmp_path):
    iris = Table("iris")
    filename = str(tmp_path / "two_irises.tab")
    iris[50:].save(filename)  # the class still declares three values
    code, lines, err = run(capsys, "rank", filename, "--method", "Relief")
    assert code == 0 and err == ""
    printed = ranking(lines)
    expected = Relief()(iris[50:])
    for attribute, weight in zip(iris.domain.attributes, expected):
        assert printed[attribute.name] == pytest.approx(weight, abs=1e-6)


@pytest.mark.parametrize("method", [[], ["--method", "Relief"],
                                    ["--method", "MultiSURF"]])
def test_a_single_class_present_is_one_error_for_every_method(
        capsys, tmp_path, method):
    filename = str(tmp_path / "setosa.tab")
    Table("iris")[:50].save(filename)
    code, _, err = run(capsys, "rank", filename, *method)
    assert code == 2
    assert err == ("orange-relief rank: error: every instance is of one "
                   "class (iris); Relief needs at least two\n")


def test_no_known_class_is_said_so(capsys, tmp_path):
    iris = Table("iris").copy()
    with iris.unlocked(iris.Y):
        iris.Y[:] = np.nan
    filename = str(tmp_path / "unknown_classes.tab")
    iris.save(filename)
    code, _, err = run(capsys, "rank", filename)
    assert code == 2
    assert err == ("orange-relief rank: error: no instance has a known "
                   "class (iris)\n")


def test_unreadable_file(capsys, tmp_path):
    filename = tmp_path / "table.unknown-format"
    filename.write_text("a\tb\n1\t2\n")
    code, _, err = run(capsys, "rank", str(filename))
    assert code == 2
    assert err.startswith("orange-relief rank: error: cannot read")


@pytest.mark.parametrize("argv", [["rank", "--top", "0"], ["rank", "--k", "x"],
                                  ["rank", "--diff", "cubic"],
                                  ["rank", "--seed", "-1"], []])
def test_usage_errors_are_one_line_and_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "error:" in err and "--help" in err


def test_a_k_above_the_instances_means_all_of_them(capsys):
    code, lines, _ = run(capsys, "rank", "--k", str(10 ** 9), "--top", "3")
    assert code == 0
    assert ranking(lines) == ranking(run(capsys, "rank", "--k", "303",
                                         "--top", "3")[1])


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_disk_is_one_line_of_error():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "orangecontrib.relief", "rank", "zoo"],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=HANG_GUARD_S,
            check=False)
    assert done.returncode == 1
    assert done.stderr == ("orange-relief rank: error: cannot write the "
                           "output: No space left on device\n")


def test_a_closed_pipe_ends_quietly():
    # as `orange-relief rank zoo | true`
    with subprocess.Popen(
            [sys.executable, "-m", "orangecontrib.relief", "rank", "zoo"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        process.stdout.close()
        err = process.stderr.read()
    assert process.returncode == 1 and err == b""


def test_multisurf_with_stir_marks_the_significant(capsys):
    from orangecontrib.relief import MultiSURF, Significance

    code, lines, err = run(capsys, "rank", "--method", "MultiSURF",
                           "--significance", "stir", "--fdr", "0.05")
    assert code == 0
    assert lines[0].split() == ["rank", "attribute", "weight", "p", "q"]
    data = Table(path("heart_disease"))
    result = Significance(MultiSURF(), alpha=0.05).result(data)
    n_attributes = len(data.domain.attributes)
    rows = lines[1:1 + n_attributes]
    marked = {row[:-2].rsplit(None, 3)[0].split(None, 1)[1].strip()
              for row in rows if row.endswith(" *")}
    assert marked == {a.name for a, s in zip(data.domain.attributes,
                                             result.significant) if s}
    assert lines[-2] == (f"{int(result.significant.sum())} of {n_attributes} "
                         "attributes significant (*): STIR, "
                         "Benjamini-Hochberg q <= 0.05")
    assert "method MultiSURF" in lines[-1]


def test_permutations_and_adjustments_from_the_command_line(capsys):
    code, lines, _ = run(capsys, "rank", "cpu", "--significance",
                         "permutation", "--permutations", "9", "--adjust",
                         "bonferroni", "--top", "2")
    assert code == 0
    assert len(lines) == 1 + 2 + 2
    assert "permutation test, Bonferroni's adjusted p <= 0.05" in lines[-2]


@pytest.mark.parametrize("argv, message", [
    (["cpu", "--significance", "stir"], "use --significance permutation"),
    (["--method", "DReliefF", "--significance", "stir"],
     "use --significance permutation"),
    (["--method", "MultiSWRF", "--significance", "stir", "--r-compatible"],
     "--r-compatible takes the pairs of STIR's R package (insilico/stir), "
     "which has no weighted neighbours; it does not apply to MultiSWRF."),
    (["--significance", "stir", "--fdr", "2"], "--fdr: must be a number"),
    (["--method", "SURF", "--k", "3"], "SURF takes no k"),
    (["--method", "SURF", "--convention", "scikit-rebate"],
     "SURF takes no --convention"),
])
def test_significance_usage_errors_are_one_line(capsys, argv, message):
    try:
        code = main(["rank", *argv])
    except SystemExit as exit_info:  # argparse's own checks
        code = exit_info.code
    _, err = capsys.readouterr()
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("method, scorer, k", [("SWRF*", SWRFstar, None),
                                               ("mu-Relief", MuRelief, 150)])
def test_the_convention_reaches_its_variants(capsys, method, scorer, k):
    """`--convention` changes SWRF* (its far sets and statistics) and
    mu-Relief (its selection: at k = 150 the reference is its own hit in
    scikit-rebate's where its class has 138 instances), as the scorer's
    option does."""
    weights = {}
    given = [] if k is None else ["--k", str(k)]
    for convention in ("add-on", "scikit-rebate"):
        code, lines, _ = run(capsys, "rank", "--method", method,
                             "--convention", convention, *given)
        assert code == 0
        weights[convention] = ranking(lines)
    table = Table(path("heart_disease"))
    ours = scorer(convention="scikit-rebate",
                  **({} if k is None else {"k_nearest": k}))(table)
    for attribute, weight in zip(table.domain.attributes, ours):
        assert weights["scikit-rebate"][attribute.name] == pytest.approx(
            weight, abs=1e-6)
    assert weights["add-on"] != weights["scikit-rebate"]


def test_the_permutation_test_shows_a_progress_bar(capsys, monkeypatch):
    # the bar shows even if the test ends within the usual quiet time
    monkeypatch.setattr(rank, "ProgressBar",
                        functools.partial(ProgressBar, quiet_seconds=0,
                                          enabled=True))
    code, _, err = run(capsys, "rank", "zoo", "--significance",
                       "permutation", "--permutations", "19")
    assert code == 0
    assert "permutation test [" in err and "100.0%" in err


@pytest.mark.parametrize("argv, message", [
    (["--permutations", "99", "--fdr", "0.1"],
     "--fdr needs --significance: without it --fdr has no effect"),
    (["--adjust", "holm"], "--adjust needs --significance"),
    (["--method", "MultiSURF", "--significance", "stir", "--permutations",
      "99"], "--permutations needs --significance permutation"),
    (["--subsample", "0.5"], "--subsample needs --stability"),
    (["--t-eq", "0.1"], "--t-eq needs --diff ramp"),
    (["--diff", "squared", "--t-diff", "0.5"], "--t-diff needs --diff ramp"),
    (["--seed", "3"], "--seed needs --iterations, --stability or "
                      "--significance permutation"),
    (["--significance", "permutation", "--permutations", "19",
      "--r-compatible"], "--r-compatible needs --significance stir"),
])
def test_an_option_without_the_one_it_needs_is_refused(capsys, argv,
                                                       message):
    code, lines, err = run(capsys, "rank", *argv)
    assert code == 2 and not lines
    assert err.startswith("orange-relief rank: error: ")
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("argv, warning", [
    # zoo: 16 attributes; the least p of 9 permutations is 0.1
    (["--significance", "permutation", "--permutations", "9"],
     "with 9 permutations and 16 attributes no Benjamini-Hochberg q can be "
     "at most 0.05 (the smallest is 0.1), so no attribute can be "
     "significant; use --permutations 19 or more"),
    (["--significance", "permutation", "--permutations", "19", "--adjust",
      "bonferroni"],
     "no Bonferroni's adjusted p can be at most 0.05 (the smallest is 0.8)"
     ", so no attribute can be significant; use --permutations 319 or more"),
    (["--significance", "permutation", "--permutations", "9", "--fdr",
      str(1e-9)], "so no attribute can be significant; use a larger --fdr"),
])
def test_options_that_cannot_work_warn_on_one_line(capsys, argv, warning):
    dataset = "heart_disease" if "stir" in argv else "zoo"  # equal classes
    code, lines, err = run(capsys, "rank", dataset, *argv)
    assert code == 0 and lines
    err = without_pairs_caveat(err)
    assert err.startswith("orange-relief rank: warning: ")
    assert warning in err and err.count("\n") == 1


def without_pairs_caveat(err):
    """`err` without the caution of a test over neighbour pairs
    (test_a_test_over_neighbour_pairs_cautions)."""
    return "".join(line for line in err.splitlines(keepends=True)
                   if "every neighbour pair counts" not in line)


@pytest.mark.parametrize("argv", [
    ["--significance", "permutation", "--permutations", "19"],
    ["--method", "MultiSURF", "--significance", "stir", "--fdr", "0.1"]])
def test_options_that_can_work_do_not_warn(capsys, argv):
    dataset = "heart_disease" if "stir" in argv else "zoo"  # equal classes
    code, _, err = run(capsys, "rank", dataset, *argv)
    assert code == 0 and "warning" not in without_pairs_caveat(err)


@pytest.mark.parametrize("argv, caution", [
    (["--significance", "stir"], "STIR: every neighbour pair counts"),
    (["--method", "NPDR"], "NPDR's regressions: every neighbour pair"),
    (["--significance", "permutation", "--permutations", "19"], None)])
def test_a_test_over_neighbour_pairs_cautions(capsys, argv, caution):
    # heart_disease's classes are of similar sizes: no caveat on them, but
    # a test over neighbour pairs passes noise too; the permutation test
    # holds its level
    code, lines, err = run(capsys, "rank", "heart_disease", *argv)
    assert code == 0 and "significant (*)" in lines[-2]
    if caution is None:
        assert err == ""
    else:
        assert err.count("\n") == 1 and caution in err
        assert err.rstrip().endswith("--significance permutation.")


def printed_p(row):
    """The p-value of a row of the table: 0 where it says "< 1e-300"."""
    field = row.split()[3]
    return 0.0 if field == "<" else float(field)


def test_r_compatible_stir_takes_rs_pairs(capsys):
    """zoo's seven classes: R pools the misses, and its p-values are
    those of Significance(r_compatible=True), not the paper's."""
    from orangecontrib.relief import ReliefF, Significance

    data = Table(path("zoo"))
    p = {}
    for r_compatible in (False, True):
        code, lines, _ = run(capsys, "rank", "zoo", "--significance", "stir",
                             *["--r-compatible"] * r_compatible)
        assert code == 0
        p[r_compatible] = {row.split()[1]: printed_p(row)
                           for row in lines[1:1 + len(data.domain.attributes)]}
        result = Significance(ReliefF(), r_compatible=r_compatible).result(
            data)
        for attribute, expected in zip(data.domain.attributes, result.p):
            assert p[r_compatible][attribute.name] == pytest.approx(
                expected, rel=1e-2, abs=1e-300)
    assert p[False] != p[True]


def test_stir_on_unequal_classes_warns(capsys):
    # zoo: 41 mammals, 4 amphibians
    code, lines, err = run(capsys, "rank", "zoo", "--significance", "stir")
    assert code == 0 and lines
    assert err.startswith("orange-relief rank: warning: The largest class "
                          "is 10.2 times the smallest")
    assert "Use --significance permutation" in err and err.count("\n") == 1


@pytest.mark.parametrize("adjustment", ["bh", "holm", "bonferroni"])
@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.3])
def test_the_permutations_advised_are_the_fewest_that_can_work(adjustment,
                                                               alpha):
    from orangecontrib.relief import Significance

    def warning(n_permutations):
        return rank.too_few_permutations(Significance(
            test="permutation", adjustment=adjustment, alpha=alpha,
            n_permutations=n_permutations), 16)

    advised = int(warning(1).rsplit("--permutations ", 1)[1].split()[0])
    assert warning(advised) is None
    assert f"use --permutations {advised} or more" in warning(advised - 1)


@pytest.mark.parametrize("case", list(CASES))
def test_degenerate_evidence_gets_no_verdict(capsys, tmp_path, case):
    data, without = degenerate_table(case)
    filename = str(tmp_path / "degenerate.tab")
    data.save(filename)
    code, lines, err = run(capsys, "rank", filename, "--significance",
                           "stir")
    assert code == 0
    assert "STIR gives no verdict" in err and CASES[case] in err
    rows = {line.split()[1]: line.split()[3] for line in lines[1:5]}
    assert sorted(name for name, p in rows.items() if p == "nan") == [
        f"a{i}" for i in without]


def test_stability_columns_and_index(capsys):
    from orangecontrib.relief.stability import ranking_stability

    code, lines, err = run(capsys, "rank", "--stability", "20", "--top", "3",
                           "--seed", "4")
    assert code == 0
    assert lines[0].split() == ["rank", "attribute", "weight", "selected",
                                "median", "ranks"]
    data = Table(path("heart_disease"))
    expected = ranking_stability(data, ReliefF(), n_resamples=20, top_k=3,
                                 random_state=4)
    names = [a.name for a in data.domain.attributes]
    for line in lines[1:4]:
        *_, selected, median, ranks = line.split()
        i = names.index(line[6:].rsplit(None, 4)[0].strip())
        assert selected == f"{expected.frequency[i]:.0%}"
        assert float(median) == expected.median_rank[i]
        assert ranks == f"{expected.rank_low[i]}-{expected.rank_high[i]}"
    assert lines[-2].startswith(
        f"stability of the best 3 over 20 bootstrap samples: "
        f"{expected.index.value:.3f} (95% interval ")


def test_stability_of_subsamples(capsys):
    code, lines, _ = run(capsys, "rank", "--stability", "5", "--subsample",
                         "0.5")
    assert code == 0 and "over 5 subsamples" in lines[-2]
    with pytest.raises(SystemExit):
        main(["rank", "--stability", "5", "--subsample", "1"])


def test_p_values_that_underflow_are_not_printed_as_zero():
    assert rank.probability(0.0) == "< 1e-300"
    assert rank.probability(1e-320) == "< 1e-300"
    assert rank.probability(2.476e-174) == "2.48e-174"


def test_an_unknown_engine_setting_is_a_one_line_error(capsys, monkeypatch):
    monkeypatch.setenv("ORANGE_RELIEF_ENGINE", "vectorized")
    code, lines, err = run(capsys, "rank", "zoo")
    assert code == 2 and not lines and err.count("\n") == 1
    assert "ORANGE_RELIEF_ENGINE='vectorized' is not a setting" in err


ARCHIVE_FILE = os.path.join(os.path.dirname(__file__), os.pardir, "data",
                            "rebate", "3Class_Datasets_Loc_2",
                            "3Class_Datasets_Loc_2_01.txt.gz")


def archive_copies(folder):
    """The ReBATE archive's three-class table as it is (.txt.gz), gzipped
    tab-separated (.tsv.gz) and gzipped comma-separated (.csv.gz), missing
    values NA."""
    with gzip.open(ARCHIVE_FILE, "rt") as file:
        lines = file.read().splitlines()
    lines[1] = "\t".join(["NA"] + lines[1].split("\t")[1:])
    copies = {}
    for name, separator in (("a.txt.gz", "\t"), ("a.tsv.gz", "\t"),
                            ("a.csv.gz", ",")):
        with gzip.open(folder / name, "wt") as file:
            file.write("\n".join(line.replace("\t", separator)
                                 for line in lines) + "\n")
        copies[name] = str(folder / name)
    return copies


def test_gzipped_tables_of_the_archive_are_read_as_the_experiment_reads_them(
        capsys, tmp_path):
    """.txt.gz, .tsv.gz and .csv.gz: the same table, its column Class the
    categorical class (three integer codes), NA missing; --class Class
    keeps the numbers a numeric target."""
    from orangecontrib.relief.experiments.rebate import read_table

    names, X, y = read_table(ARCHIVE_FILE)
    rankings = []
    for name, copy in archive_copies(tmp_path).items():
        code, lines, err = run(capsys, "rank", copy, "--top", "20")
        assert code == 0, err
        assert lines[-1].startswith("1600 instances, 20 attributes, method "
                                    "ReliefF"), name
        rankings.append(ranking(lines))
    assert rankings[0] == rankings[1] == rankings[2]
    assert set(rankings[0]) == set(names)
    code, lines, _ = run(capsys, "rank", ARCHIVE_FILE, "--class", "Class")
    assert code == 0 and "method RReliefF" in lines[-1]


def test_a_broken_gzipped_table_is_one_line(capsys, tmp_path):
    broken = tmp_path / "broken.txt.gz"
    broken.write_bytes(gzip.compress(b"N0\tClass\n0\t1\n")[:-12])
    code, _, err = run(capsys, "rank", str(broken))
    assert code == 2
    assert err.count("\n") == 1 and "cannot read" in err


def test_the_curve_reads_the_archives_tables(capsys):
    code, lines, err = run(capsys, "curve", ARCHIVE_FILE, "--folds", "2",
                           "--no-figure")
    assert code == 0, err
    assert "ReliefF, kNN, 2-fold cross-validation" in lines[-1]


@pytest.mark.parametrize("more", [[], ["--absolute"]])
def test_iter_wraps_the_method(capsys, more):
    from orangecontrib.relief import Iter

    code, lines, err = run(capsys, "rank", "heart_disease", "--wrapper",
                           "iter", "--rounds", "3", "--method", "ReliefF",
                           *more)
    assert code == 0 and err == ""
    assert "method ReliefF in Iter" in lines[-1]
    data = Table(path("heart_disease"))
    expected = Iter(ReliefF(), max_rounds=3, absolute=bool(more))(data)
    assert ranking(lines) == pytest.approx(
        {a.name: w for a, w in zip(data.domain.attributes, expected)},
        abs=1e-6)


@pytest.mark.parametrize("more, message", [
    (["--rounds", "3"], "warning: --rounds has no effect without --wrapper "
                        "iter"),
    (["--wrapper", "iter", "--method", "MultiSWRF"],
     "error: Iter weights the distance of the scorer it wraps, one of "
     "Relief, ReliefF"),
])
def test_iter_options_refused_or_warned_in_a_line(capsys, more, message):
    code, lines, err = run(capsys, "rank", "heart_disease", *more)
    assert err.count("\n") == 1 and message in err
    assert code == (0 if "warning" in message else 2)


def test_no_rounds_is_refused(capsys):
    code, _, err = run(capsys, "rank", "--wrapper", "iter", "--rounds", "0")
    assert code == 2
    assert "--rounds: must be a positive integer" in err

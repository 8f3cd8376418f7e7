"""The ReBATE benchmark experiment (Urbanowicz et al. 2018) on a small copy
of the archive's layout (tests/data/rebate): finding the configurations
and the predictive features, the study's measure, the parallel run and
the results' files."""
import csv
import gzip
import os

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from orangecontrib.relief.core import surf
from orangecontrib.relief.core.npdr import npdr
from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.experiments import peers
from orangecontrib.relief.experiments import rebate

FOLDER = os.path.join(os.path.dirname(__file__), os.pardir, "data", "rebate")
FEW = rebate.Settings(FOLDER, methods=("MultiSURF", "Relief"))
SMALL = "GAMETES_2.2_dev_peter_core2wayEpistasis_Datasets_Loc_2_Qnt_2_Pop_100000"


def copy_of(folder, configuration, tmp_path, missing=0.0):
    """A folder holding only `configuration` of `folder`, its values
    missing with probability `missing`."""
    rng = np.random.default_rng(0)
    for root, _, files in os.walk(os.path.join(folder, configuration)):
        target = tmp_path / os.path.relpath(root, folder)
        target.mkdir(parents=True, exist_ok=True)
        for name in files:
            with gzip.open(os.path.join(root, name), "rt") as file:
                lines = file.read().splitlines()
            cells = [line.split("\t") for line in lines[1:]]
            for row in cells:
                for c in range(len(row) - 1):
                    if rng.random() < missing:
                        row[c] = "NA"
            with gzip.open(target / name, "wt") as file:
                file.write("\n".join([lines[0]] + ["\t".join(row)
                                                   for row in cells]) + "\n")
    return str(tmp_path)


@pytest.fixture(scope="module")
def results():
    return rebate.run(FEW)


def test_configurations_are_the_folders_that_hold_tables():
    found = rebate.configurations(FOLDER)
    labels = [c.label for c in found]
    assert labels == [
        "3Class", "6_bit_mutliplexer",
        "2wayEpi_NA NA_0.1 a_20s_1600her_0.4__maf_0.2_EDM-2",
        "2wayEpi_contEndpoint sd_0.5 a_20s_1600her_0.4__maf_0.2_EDM-2",
        "core2wayEpistasis a_20s_200her_0.4__maf_0.2_EDM-2"]
    assert [len(c.files) for c in found] == [1, 2, 1, 1, 2]
    # the GAMETES report beside the XOR folder is not a table
    assert all("Report" not in name for c in found for name in c.files)
    assert [len(c.files) for c in rebate.chosen(
        rebate.Settings(FOLDER, replicates=1))] == [1] * 5


def test_the_predictive_features_are_told_by_their_names():
    names = ["N0", "N17", "M0P0", "M1P1", "A_0", "R_12", "M0P", "XA_1",
             "Class"]
    assert_array_equal(rebate.predictive(names),
                       [False, False, True, True, True, True, False, False,
                        False])


def test_a_table_is_read_with_its_missing_values(tmp_path):
    path = tmp_path / "table.txt.gz"
    with gzip.open(path, "wt") as file:
        file.write("N0\tClass\tM0P0\n1\t0\tNA\nNA\t1\t2\n")
    names, X, y = rebate.read_table(str(path))
    assert names == ["N0", "M0P0"]
    assert_array_equal(X, [[1, np.nan], [np.nan, 2]])
    assert_array_equal(y, [0, 1])
    assert rebate.task_of(y) == "classification"
    assert rebate.task_of(np.array([0.5, 1.25])) == "regression"


@pytest.mark.parametrize("scores, relevant, rank", [
    ([0.9, 0.8, 0.1, 0.0], [True, True, False, False], 2),
    ([0.9, 0.1, 0.8, 0.0], [True, True, False, False], 3),
    ([0.5, 0.5, 0.5, 0.5], [True, False, False, False], 4),  # ties count
    ([0.5, 0.9, 0.5, 0.1], [True, False, False, False], 3),  # against
    ([np.nan, 0.2, 0.1, 0.0], [True, False, False, False], 4),
])
def test_the_worst_rank_counts_ties_against_the_method(scores, relevant,
                                                       rank):
    assert rebate.worst_rank(scores, np.array(relevant)) == rank


def test_the_power_is_the_share_of_replicates_within_the_top_r(results):
    results.ranks["x"] = {"m": [2, 3, 2, 5]}
    results.features["x"], results.relevant["x"] = 6, 2
    assert_array_equal(results.power("x", "m"), [0, 0.5, 0.75, 0.75, 1, 1])
    assert results.power_at_top("x", "m") == 0.5
    del results.ranks["x"], results.features["x"], results.relevant["x"]


def test_a_run_weighs_every_replicate_with_every_method(results):
    methods = FEW.methods
    for c in results.configurations:
        assert set(results.ranks[c.path]) == set(methods)
        assert all(len(ranks) == len(c.files)
                   for ranks in results.ranks[c.path].values())
    by_label = {c.label: c.path for c in results.configurations}
    # Relief: two classes only
    for label in ("3Class", "2wayEpi_contEndpoint sd_0.5 "
                            "a_20s_1600her_0.4__maf_0.2_EDM-2"):
        assert results.power(by_label[label], "Relief") is None
    # the multiplexer's every column is predictive: power 1 at r = 6
    assert results.power_at_top(by_label["6_bit_mutliplexer"],
                                "MultiSURF") == 1.0


def test_a_replicate_is_the_methods_on_the_table():
    c = rebate.configurations(FOLDER)[-1]
    names, X, y = rebate.read_table(os.path.join(FOLDER, c.path, c.files[0]))
    discrete = rebate.nominal_columns(X, rebate.DISCRETE_LIMIT)
    assert discrete.all()  # SNPs: three values
    weights = surf.multisurf(X, y, discrete)
    got = rebate.run_replicate(FEW, (c.path, c.files[0]))
    assert got["MultiSURF"][0] == rebate.worst_rank(
        weights, rebate.predictive(names))


def test_npdr_runs_as_the_others(tmp_path):
    """NPDR ranks by its statistic (z, or t on the continuous endpoint)."""
    folder = copy_of(FOLDER, SMALL, tmp_path)
    got = rebate.run(rebate.Settings(folder, methods=("NPDR",)))
    (path,) = got.ranks
    assert got.ranks[path]["NPDR"] == [2, 2]
    c = rebate.configurations(FOLDER)[-1]
    names, X, y = rebate.read_table(os.path.join(FOLDER, c.path, c.files[1]))
    statistic = npdr(X, y, rebate.nominal_columns(X, 10)).statistic
    assert rebate.worst_rank(statistic, rebate.predictive(names)) == 2


def test_processes_give_the_same_ranks(results):
    parallel = rebate.run(FEW, jobs=2)
    assert parallel.ranks == results.ranks


def test_the_results_write_their_files(results, tmp_path):
    paths = results.write(str(tmp_path))
    assert [os.path.basename(p) for p in paths] == list(results.FILES)
    with open(paths[0], encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    multiplexer = [row for row in rows if row["configuration"]
                   == "6_bit_mutliplexer" and row["method"] == "MultiSURF"]
    assert [row["r"] for row in multiplexer] == [str(r) for r in range(1, 7)]
    assert multiplexer[-1]["power"] == "1"
    assert not any(row["method"] == "Relief"
                   and row["configuration"] == "3Class_Datasets_Loc_2"
                   for row in rows)
    with open(paths[1], encoding="utf-8") as file:
        assert len(list(csv.DictReader(file))) == 7 * len(FEW.methods)
    for path in paths[2:]:
        assert os.path.getsize(path) > 5000
    summary = results.summary()
    assert "6_bit_mutliplexer" in summary and "n/a" in summary
    assert "7 files" in summary


def test_a_run_reports_progress_and_stops_when_asked():
    seen = []
    rebate.run(rebate.Settings(FOLDER, methods=("MultiSURF",),
                               replicates=1), progress_callback=seen.append)
    assert seen[-1] == 1 and len(seen) == 5

    def stop_after_two():
        return len(seen) >= 7

    with pytest.raises(Interrupted):
        rebate.run(rebate.Settings(FOLDER, methods=("MultiSURF",)),
                   progress_callback=seen.append, should_stop=stop_after_two)


@pytest.mark.skipif(not peers.available("skrebate"),
                    reason="scikit-rebate is not installed")
def test_a_peer_runs_beside_ours_where_it_applies(tmp_path):
    complete = copy_of(FOLDER, SMALL, tmp_path / "complete")
    missing = copy_of(FOLDER, SMALL, tmp_path / "missing", missing=0.05)
    methods = ("MultiSURF", "skrebate MultiSURF", "fast-select MultiSURF")
    for folder in (complete, missing):
        got = rebate.run(rebate.Settings(folder, methods=methods,
                                         replicates=1))
        (path,) = got.ranks
        assert got.power(path, "skrebate MultiSURF") is not None
        # fast-select takes no missing values
        if peers.available("fast-select"):
            assert ((got.power(path, "fast-select MultiSURF") is None)
                    == (folder == missing))


@pytest.mark.parametrize("options, message", [
    (dict(methods=("MultiSURF", "MultiSURF**")), "unknown"),
    (dict(methods=()), "unknown or no methods"),
    (dict(replicates=0), "replicates must be at least 1"),
    (dict(folder="/no/such/folder"), "not a folder"),
])
def test_bad_settings_are_refused(options, message):
    fields = dict(folder=FOLDER)
    fields.update(options)
    with pytest.raises(ValueError, match=message):
        rebate.Settings(**fields)


def test_a_folder_without_tables_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing here\n")
    with pytest.raises(ValueError, match="holds no table"):
        rebate.run(rebate.Settings(str(tmp_path), methods=("MultiSURF",)))


@pytest.mark.filterwarnings("error::UserWarning")  # numpy's "no data"
@pytest.mark.parametrize("body, message", [
    ("", "the table has a header and no rows"),
    ("0\t1\t0\n1\t0\n", "not a table of numbers"),
    ("0\tx\t0\n", "not a table of numbers"),
    ("0\t1\t0\t1\n1\t0\t1\t0\n", "4 values a row for 3 columns"),
    ("0\t1\t0\n1\t0\t0\n", "MultiSURF: The data has a single class")])
def test_a_table_that_cannot_be_weighed_is_named(tmp_path, body, message):
    """A header without rows, ragged or non-numeric rows, a table the
    method refuses: an error naming the file (and the method)."""
    folder = tmp_path / "family" / "a_2"
    folder.mkdir(parents=True)
    (folder / "data_01.txt").write_text("M0P0\tN0\tClass\n" + body)
    with pytest.raises(ValueError, match=f"data_01.txt: {message}"):
        rebate.run(rebate.Settings(str(tmp_path), methods=("MultiSURF",)))


def test_a_table_without_predictive_columns_is_refused(tmp_path):
    folder = tmp_path / "family" / "a_2"
    folder.mkdir(parents=True)
    (folder / "data_01.txt").write_text("X0\tX1\tClass\n0\t1\t0\n1\t0\t1\n"
                                        "1\t1\t0\n0\t0\t1\n")
    with pytest.raises(ValueError, match="no column is named"):
        rebate.run(rebate.Settings(str(tmp_path), methods=("MultiSURF",)))

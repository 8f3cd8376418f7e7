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

from orangecontrib.relief.core.variants import estimators, surf, swrf
from orangecontrib.relief.core.variants.murelief import murelief
from orangecontrib.relief.core.variants.npdr import npdr
from orangecontrib.relief.core.progress import Interrupted
from orangecontrib.relief.core.variants.turf import turf
from orangecontrib.relief.experiments import peers
from orangecontrib.relief.experiments import rebate
from tests.peer_sources import fast_select_in_python
from tests.rebate_archive import FOLDER, SMALL, copy_of

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data")
SUMMARY = os.path.join(FOLDER, "SimulatedDataArchiveSummary.xlsx")
HEADERS = os.path.join(DATA, "rebate_headers.tsv")
FEW = rebate.Settings(FOLDER, methods=("MultiSURF", "Relief"))


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


def test_the_key_variables_and_register_bits_are_told_by_their_names():
    names = ["N0", "N17", "M0P0", "M1P1", "A_0", "R_12", "M0P", "XA_1",
             "Class"]
    assert_array_equal(rebate.key_variables(names),
                       [False, False, True, True, True, False, False, False,
                        False])
    assert_array_equal(rebate.register_bits(names),
                       [False, False, False, False, False, True, False,
                        False, False])


def shipped_headers():
    """{configuration folder: column names} of every configuration of the
    subset the project ran (tests/data/rebate_headers.tsv)."""
    with open(HEADERS, encoding="utf-8") as file:
        return dict(line.rstrip("\n").split("\t")
                    for line in file if not line.startswith("#"))


def header_archive(tmp_path, headers):
    """A folder laid out as the archive whose tables hold only a header."""
    for path, names in headers.items():
        folder = tmp_path / path
        folder.mkdir(parents=True)
        (folder / "table_01.txt").write_text(names.replace(" ", "\t")
                                             + "\n")
    return str(tmp_path)


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    headers = shipped_headers()
    folder = header_archive(tmp_path_factory.mktemp("archive"), headers)
    by_names = {c.path: c for c in rebate.chosen(rebate.Settings(folder))}
    by_summary = {c.path: c for c in rebate.chosen(
        rebate.Settings(folder, summary=SUMMARY))}
    return headers, by_names, by_summary


@pytest.mark.parametrize("path", list(shipped_headers()))
def test_every_shipped_configurations_keys_are_the_summarys(shipped, path):
    """The study's summary names the key variables of every configuration
    of the subset, and the naming rules find the same: the GAMETES
    M<m>P<k> (XOR's M0P1..., not M0P0), the multiplexers' address bits
    and none of their register bits."""
    headers, by_names, by_summary = shipped
    summary, named = by_summary[os.path.normpath(path)], by_names[
        os.path.normpath(path)]
    assert summary.key_source == "summary" and named.key_source == "names"
    assert summary.keys == named.keys
    names = headers[path].split()
    assert set(summary.keys) <= set(names)
    if "mutliplexer" in path:  # b address bits select one of 2^b registers
        (b,) = [b for b in range(8) if b + 2 ** b == len(names) - 1]
        assert summary.keys == tuple(f"A_{i}" for i in range(b))


def test_the_summary_is_read_with_its_paths_below_the_archive():
    summary = rebate.read_summary(SUMMARY)
    assert summary[("6_bit_mutliplexer",)] == ("A_0", "A_1")
    xor = ("GAMETES_2.2_dev_peter_XOR", "xor_3", "a_20", "s_1600",
           "xor_3_a_20s_1600_EDM-1")
    assert summary[xor] == ("M0P1", "M0P2", "M0P3")
    assert len(summary) == 76
    # a folder given below the archive's is found by the tail of its path
    assert rebate.summary_keys(summary, os.path.join(
        "/somewhere", *xor)) == ("M0P1", "M0P2", "M0P3")
    assert rebate.summary_keys(summary, "/somewhere/else") is None


def test_the_summary_comes_before_the_names_and_must_name_columns(tmp_path):
    """A configuration the summary lists takes its key variables, even
    against the naming rules; one it does not list is named by the rules;
    a key variable that is not a column is refused."""
    headers = {"6_bit_mutliplexer": "A_0 A_1 R_0 R_1 R_2 R_3 M0P0 Class",
               "other/family": "N0 M0P0 M1P0 Class"}
    folder = header_archive(tmp_path / "good", headers)
    got = {c.path: (c.keys, c.key_source) for c in rebate.chosen(
        rebate.Settings(folder, summary=SUMMARY))}
    assert got == {"6_bit_mutliplexer": (("A_0", "A_1"), "summary"),
                   os.path.join("other", "family"): (("M0P0", "M1P0"),
                                                     "names")}
    by_names = rebate.chosen(rebate.Settings(folder))
    assert by_names[0].keys == ("A_0", "A_1", "M0P0")
    folder = header_archive(tmp_path / "bad", {
        "3Class_Datasets_Loc_2": "N0 N1 M0P0 Class"})
    with pytest.raises(ValueError, match="the summary's key variables "
                       "M0P1 are not columns of its tables"):
        rebate.chosen(rebate.Settings(folder, summary=SUMMARY))


@pytest.mark.parametrize("content, message", [
    (b"not a spreadsheet", "cannot be read as a spreadsheet"),
    (None, "has no columns 'Specific Path' and 'Key Variables'")])
def test_a_bad_summary_is_refused(tmp_path, content, message):
    path = tmp_path / "summary.xlsx"
    if content is None:
        import openpyxl
        workbook = openpyxl.Workbook()
        workbook.active.append(["Theme", "Base Folder"])
        workbook.save(path)
    else:
        path.write_bytes(content)
    with pytest.raises(ValueError, match=message):
        rebate.chosen(rebate.Settings(FOLDER, summary=str(path)))


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
    # the multiplexer's key variables are its two address bits; with its
    # four register bits, every column is predictive: power 1 at r = 6
    multiplexer = by_label["6_bit_mutliplexer"]
    assert (results.relevant[multiplexer],
            results.registers[multiplexer]) == (2, 4)
    ranks = results.ranks[multiplexer]["MultiSURF"]
    assert results.power_at_top(multiplexer, "MultiSURF") == np.mean(
        np.array(ranks) <= 2)
    assert results.power_at_top(multiplexer, "MultiSURF", True) == 1.0
    assert results.with_registers[multiplexer]["MultiSURF"] == [6, 6]
    assert all(ranks is None or set(ranks) == {None}
               for path, by_method in results.with_registers.items()
               if path != multiplexer for ranks in by_method.values())


def test_a_replicate_is_the_methods_on_the_table():
    c = rebate.configurations(FOLDER)[-1]
    names, X, y = rebate.read_table(os.path.join(FOLDER, c.path, c.files[0]))
    discrete = rebate.nominal_columns(X, rebate.DISCRETE_LIMIT)
    assert discrete.all()  # SNPs: three values
    weights = surf.multisurf(X, y, discrete)
    got = rebate.run_replicate(FEW, (c.path, c.files[0], ("M0P0", "M0P1")))
    (draw,), _ = got["MultiSURF"]
    assert draw[:2] == (rebate.worst_rank(
        weights, rebate.key_variables(names)), None)


def test_npdr_runs_as_the_others(tmp_path):
    """NPDR ranks by its statistic (z, or t on the continuous endpoint)."""
    folder = copy_of(FOLDER, SMALL, tmp_path)
    got = rebate.run(rebate.Settings(folder, methods=("NPDR",)))
    (path,) = got.ranks
    assert got.ranks[path]["NPDR"] == [2, 2]
    c = rebate.configurations(FOLDER)[-1]
    names, X, y = rebate.read_table(os.path.join(FOLDER, c.path, c.files[1]))
    statistic = npdr(X, y, rebate.nominal_columns(X, 10)).statistic
    assert rebate.worst_rank(statistic, rebate.key_variables(names)) == 2


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
    assert [(row["ranked"], row["ranking"], row["r"])
            for row in multiplexer] == [
        (ranked, ranking, str(r)) for ranked in ("key", "key and register")
        for ranking in ("signed", "absolute") for r in range(1, 7)]
    assert {row["key_variables"] for row in multiplexer} == {"A_0 A_1"}
    assert multiplexer[-1]["power"] == "1"
    assert not any(row["method"] == "Relief"
                   and row["configuration"] == "3Class_Datasets_Loc_2"
                   for row in rows)
    with open(paths[1], encoding="utf-8") as file:
        assert len(list(csv.DictReader(file))) == 7 * len(FEW.methods)
    for path in paths:
        if path.endswith(".png"):
            assert os.path.getsize(path) > 5000
    summary = results.summary()
    assert "6_bit_mutliplexer" in summary and "n/a" in summary
    assert "7 files" in summary
    signed, absolute = summary.split("Ranked by the magnitude")
    assert signed.rstrip().split("\n")[-1].startswith("6_bit_mutliplexer")
    absolute, ranks = absolute.split("The mean rank of the key variables")
    assert absolute.rstrip().split("\n")[-1].startswith("mean")
    assert ranks.rstrip().split("\n")[-1].startswith("| core2wayEpistasis")


def test_power_by_the_magnitude_of_the_scores():
    """A key variable of a large negative score ranks last by score and
    first by its magnitude; a tie still counts against the method."""
    scores = np.array([0.1, -0.9, 0.2, 0.05])
    relevant = np.array([False, True, False, False])
    assert rebate.worst_rank(scores, relevant) == 4
    assert rebate.worst_rank(scores, relevant, absolute=True) == 1
    assert rebate.worst_rank(np.array([0.9, -0.9]), np.array([False, True]),
                             absolute=True) == 2


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
        with fast_select_in_python():
            got = rebate.run(rebate.Settings(folder, methods=methods,
                                             replicates=1))
        (path,) = got.ranks
        assert got.power(path, "skrebate MultiSURF") is not None
        # fast-select takes no missing values
        if peers.available("fast-select"):
            assert ((got.power(path, "fast-select MultiSURF") is None)
                    == (folder == missing))


@pytest.mark.parametrize("options, message", [
    (dict(methods=("MultiSURF", "MultiSURF**")),
     r"methods must be some of .*, got \['MultiSURF\*\*'\]"),
    (dict(methods=()), "methods must be some of .*, got none"),
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
    with pytest.raises(ValueError, match="no column is named as a key "
                       "variable"):
        rebate.run(rebate.Settings(str(tmp_path), methods=("MultiSURF",)))


def test_permuted_rows_are_a_seeded_permutation_of_each_table():
    given = rebate.Settings(FOLDER)
    permuted = rebate.Settings(FOLDER, permute_rows=True, seed=3)
    assert_array_equal(rebate.row_order(given, "a_01.txt.gz", 50),
                       np.arange(50))
    order = rebate.row_order(permuted, "a_01.txt.gz", 50)
    assert_array_equal(np.sort(order), np.arange(50))
    assert not np.array_equal(order, np.arange(50))
    assert_array_equal(order, rebate.row_order(permuted, "a_01.txt.gz", 50))
    for other in (rebate.row_order(permuted, "a_02.txt.gz", 50),
                  rebate.row_order(rebate.Settings(FOLDER, permute_rows=True,
                                                   seed=4), "a_01.txt.gz",
                                   50)):
        assert not np.array_equal(order, other)


def test_a_replicate_is_weighed_with_its_rows_permuted():
    settings = rebate.Settings(FOLDER, methods=("Relief",),
                               permute_rows=True, seed=1)
    c = rebate.configurations(FOLDER)[-1]
    names, X, y = rebate.read_table(os.path.join(FOLDER, c.path, c.files[0]))
    order = rebate.row_order(settings, c.files[0], len(y))
    weights = estimators.relief(X[order], y[order],
                                rebate.nominal_columns(X, 10))
    got = rebate.run_replicate(settings, (c.path, c.files[0],
                                          ("M0P0", "M0P1")))
    assert got["Relief"][0][0].worst == rebate.worst_rank(
        weights, rebate.key_variables(names))


def test_ties_reach_the_methods_with_k_nearest_neighbours(monkeypatch):
    seen = []

    def relieff(X, y, discrete=None, *, k_nearest=10, ties="lower-index"):
        seen.append((k_nearest, ties))
        return np.zeros(X.shape[1])

    monkeypatch.setattr(rebate.estimators, "relieff", relieff)
    X, y = np.eye(4), np.array([0.0, 1, 0, 1])
    rebate.our_scores("ReliefF k=10", X, y, None, "classification", "all")
    rebate.our_scores("ReliefF k=100", X, y, None, "classification")
    assert seen == [(10, "all"), (100, "lower-index")]
    # the SURF family has no k-th neighbour: the rule does not concern it
    assert rebate.our_scores("SURF", X, y, None, "classification",
                             "all") is not None
    # Relief's nearest hit and miss take the rule too, which checks it
    assert rebate.our_scores("Relief", X, y, None, "classification",
                             "lower-index") is not None
    with pytest.raises(ValueError, match="ties must be one of"):
        rebate.our_scores("Relief", X, y, None, "classification", "all")


def test_turf_runs_with_either_schedule():
    c = rebate.configurations(FOLDER)[-1]
    _, X, y = rebate.read_table(os.path.join(FOLDER, c.path, c.files[0]))
    discrete = rebate.nominal_columns(X, 10)

    def score(X, y, discrete, progress_callback=None):
        return surf.multisurf(X, y, discrete)

    for name, schedule in (("TuRF MultiSURF", "every round"),
                           ("TuRF MultiSURF, scikit-rebate's rounds",
                            "scikit-rebate")):
        expected = turf(score, X, y, discrete, schedule=schedule)
        assert len(expected.rounds) == (3 if schedule == "every round"
                                        else 2)
        assert_array_equal(rebate.our_scores(name, X, y, discrete,
                                             "classification"),
                           expected.scores)


def test_a_family_of_several_sizes_is_split_by_them():
    c = rebate.Configuration
    found = [c(os.path.join("GAMETES_2.2_dev_peter_core2wayEpistasis_"
                            "Datasets_Loc_2_Qnt_2_Pop_100000", "a_20",
                            f"s_{n}", f"her_{h}"), ())
             for n in (200, 1600) for h in (0.1, 0.4)]
    found += [c("6_bit_mutliplexer", ())] + [
        c(os.path.join("GAMETES_2.2_dev_peter_2wayEpiFeatures_Datasets",
                       f"a_{a}", "s_1600", "x"), ()) for a in (100, 1000)]
    groups = [(label, len(group))
              for label, group in rebate.family_groups(found)]
    assert groups == [("core2wayEpistasis, 200 instances", 2),
                      ("core2wayEpistasis, 1600 instances", 2),
                      ("6_bit_mutliplexer", 1), ("2wayEpiFeatures", 2)]


def test_the_family_table(results):
    lines = results.family_table({"MultiSURF": "MS", "Relief": "R"})
    assert lines[0] == "| family (configurations) | MS | R |"
    assert len(lines) == 2 + 5 + 1
    rows = {line.split(" | ")[0][2:]: line.split(" | ")[1:] for line in
            lines[2:]}
    assert rows["3Class (1)"][1] == "n/a |"
    means = results.mean_power_at_top()
    assert rows["**mean of all**"] == [f"**{means['MultiSURF']:.2f}**",
                                       f"**{means['Relief']:.2f}** |"]


def test_the_table_of_the_order_of_the_rows(monkeypatch):
    """doc/rebate_row_order.py: ReliefF k=10 with the rows as given and
    permuted, by family (scikit-rebate left out here: it takes seconds a
    file)."""
    from tests.test_docs import load_script

    script = load_script("doc/rebate_row_order.py", "rebate_row_order")
    monkeypatch.setattr(script.peers, "available", lambda peer: False)
    lines = script.table(FOLDER, summary=SUMMARY, replicates=1)
    assert lines[0] == ("| family (configurations) | ReliefF k=10, rows as "
                        "given | ReliefF k=10, rows permuted |")
    assert [line.split(" |")[0] for line in lines[2:8]] == [
        "| 3Class (1)", "| 6_bit_mutliplexer (1)", "| 2wayEpi_NA (1)",
        "| 2wayEpi_contEndpoint (1)", "| core2wayEpistasis (1)",
        "| **mean of all**"]
    assert lines[-1].startswith("(ties: the add-on default; replicates: 1")


@pytest.mark.parametrize("name, weigh", [
    ("mu-Relief k=10", lambda X, y, d: murelief(X, y, d, k_nearest=10)),
    ("mu-Relief k=100", lambda X, y, d: murelief(X, y, d, k_nearest=100)),
    ("SWRF", swrf.swrf), ("SWRF*", swrf.swrfstar),
    ("MultiSWRF", swrf.multiswrf), ("MultiSWRF*", swrf.multiswrfstar),
    ("MultiSWRFDB", swrf.multiswrfdb),
    ("MultiSWRFDB*", swrf.multiswrfdbstar),
])
def test_mu_relief_and_the_swrf_family_are_the_cores(name, weigh):
    """scikit-rebate 0.8's methods of UrbsLab's re-benchmark weigh as the
    core does, classes only."""
    c = rebate.configurations(FOLDER)[-1]
    _, X, y = rebate.read_table(os.path.join(FOLDER, c.path, c.files[0]))
    discrete = rebate.nominal_columns(X, 10)
    assert_array_equal(rebate.our_scores(name, X, y, discrete,
                                         "classification"),
                       weigh(X, y, discrete))
    assert rebate.our_scores(name, X, X[:, 0] + 0.5, discrete,
                             "regression") is None
    assert name in rebate.URBSLAB and name not in rebate.DEFAULT_METHODS

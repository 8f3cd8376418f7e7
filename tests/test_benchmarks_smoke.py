"""Smoke test of benchmarks/bench_relief.py and floor.py: the machinery runs.

Tiny data, in this process, only our core and Orange's built-in scorers (the
other peers are optional); no timing assertions.  Every script's command
line refuses a bad size or count with one line and exit status 2.
"""
import functools
import importlib
import importlib.util
import math
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

BENCH_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "benchmarks")


def _load(name):
    if BENCH_DIR not in sys.path:  # as when the script runs: its modules
        sys.path.insert(0, BENCH_DIR)  # are found beside it
    spec = importlib.util.spec_from_file_location(
        f"_smoke_{name}", os.path.join(BENCH_DIR, f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench():
    return _load("bench_relief")


def quiet(*args, **kwargs):
    pass


def test_data_is_deterministic_and_as_described(bench):
    spec = bench.Spec(200, 9, "multiclass", "mixed", 0.1, seed=3)
    d1, d2 = bench.make_data(spec), bench.make_data(spec)
    np.testing.assert_array_equal(d1["X"], d2["X"])
    np.testing.assert_array_equal(d1["y"], d2["y"])
    assert list(d1["discrete"]) == [c % 3 == 2 for c in range(9)]
    nominal = d1["X"][:, d1["discrete"]]
    known = nominal[~np.isnan(nominal)]
    assert np.array_equal(known, np.round(known)) and known.min() >= 0
    assert 0.05 < np.isnan(d1["X"]).mean() < 0.15
    assert not np.isnan(d1["y"]).any()
    assert set(np.unique(d1["y"])) == {0.0, 1.0, 2.0}


def test_ours_and_orange_in_process(bench):
    specs = [bench.Spec(200, 8, "binary"), bench.Spec(200, 8, "regression"),
             bench.Spec(200, 9, "multiclass", "mixed", 0.1)]
    results = bench.run_benchmark(specs, ["ours", "orange"], {"repeats": 1},
                                  isolate=False, log=quiet)
    assert [r["method"] for r in results] == ["ours", "orange"] * 3
    for r in results:
        assert r["status"] == "ok", r.get("error")
        assert len(r["weights"]) == r["spec"]["a"]
        assert np.all(np.isfinite(r["weights"]))
        assert r["time"] >= 0 and r["first"] >= 0 and r["peak_mb"] >= 0
    binary, regression, mixed = results[1], results[3], results[5]
    # Orange's ReliefF has our definition on complete classification data
    assert binary["agreement_kind"] == "exact"
    assert binary["agreement_value"] < 1e-9
    for r in (regression, mixed):
        assert r["agreement_kind"] == "rank"
        assert -1 <= r["agreement_value"] <= 1
    table = bench.format_table(results)
    assert table.count("| 200x8 |") == 4 and table.count("| 200x9 |") == 2
    assert "max abs diff" in table and "rank corr" in table


def test_cli_quick_preset_in_process(bench, capsys):
    out = bench.main(["--preset", "quick", "--sizes", "200x8", "--methods",
                      "ours,orange", "--repeats", "1", "--no-isolate"])
    printed = capsys.readouterr().out
    assert "| size | data | method | time (s) |" in printed
    assert [(r["method"], r["spec"]["kind"], r["status"]) for r in out["results"]] == [
        ("ours", "binary", "ok"), ("orange", "binary", "ok"),
        ("ours", "regression", "ok"), ("orange", "regression", "ok")]
    # the engine of each of ours' timed calls is said, never a peer's
    ours = out["results"][0]
    assert len(ours["engines"]) == 1
    assert ours["engines"][0] in ("compiled", "vectorised")
    assert out["results"][1]["engines"] is None
    assert f"- ours 200x8: timed calls on the {ours['engines'][0]} engine" \
        in printed


def test_sampled_references_orange_takes_ours(bench, capsys):
    """--references M: ours and Orange weigh with the same M references
    (equal weights), the peers without sampling are compared by rank."""
    out = bench.main(["--sizes", "300x8", "--references", "40", "--methods",
                      "ours,orange", "--repeats", "1", "--no-isolate"])
    printed = capsys.readouterr().out
    assert "m = 40 sampled references" in printed
    ours, orange = out["results"]
    assert ours["spec"]["m"] == 40 and orange["status"] == "ok"
    assert orange["agreement_kind"] == "exact"
    assert orange["agreement_value"] < 1e-12
    full = bench.main(["--sizes", "300x8", "--methods", "ours", "--repeats",
                       "1", "--no-isolate"])["results"][0]
    assert not np.allclose(full["weights"], ours["weights"])
    peers = importlib.import_module("peers")
    note = peers.METHODS["fast-select"]({}).agreement(bench.Spec(300, 8, m=40))
    assert note[0] == "rank" and "all 300 instances" in note[1]
    with pytest.raises(SystemExit, match="relieff only"):
        bench.main(["--preset", "sampled", "--algorithm", "multisurf"])


def test_every_algorithm_reaches_ours(bench, capsys):
    """Each --algorithm runs ours on tiny data: a module path that moved
    fails here, not halfway through a measurement."""
    peers = importlib.import_module("peers")
    for algorithm in peers.ALGORITHMS:
        ours = bench.main(["--sizes", "60x5", "--algorithm", algorithm,
                           "--methods", "ours", "--repeats", "1",
                           "--settle", "0", "--no-isolate"])["results"][0]
        assert ours["status"] == "ok", (algorithm, ours.get("error"))


def test_murelief_beside_scikit_rebate(bench, capsys):
    """--algorithm murelief: ours with scikit-rebate's convention and the
    run's k, its weights scikit-rebate's; no other peer has it."""
    pytest.importorskip("skrebate")
    out = bench.main(["--sizes", "120x6", "--algorithm", "murelief", "--k",
                      "100", "--methods", "ours,skrebate,orange",
                      "--repeats", "1", "--no-isolate"])
    ours, theirs, orange = out["results"]
    assert ours["status"] == theirs["status"] == "ok"
    assert theirs["agreement_kind"] == "exact"
    assert theirs["agreement_value"] < 1e-12
    assert orange["status"] != "ok"


def test_cluster_benchmark_on_a_local_cluster(capsys):
    """bench_cluster.py runs every mode here and on a cluster, equal."""
    pytest.importorskip("distributed")
    _load("bench_cluster").main(["--sizes", "600x6", "--m", "50",
                                 "--repeats", "1", "--workers", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines()
            if line.strip().startswith("600x6")]
    assert len(rows) == 3 and all(row.endswith("True") for row in rows)


def test_ties_benchmark_times_both_engines(capsys):
    """bench_ties.py times ReliefF on both engines, on SNP and continuous
    data (this build alone: a baseline of the same files would share
    numba's cache with this build's kernels under another name)."""
    _load("bench_ties").main(["--sizes", "300x5", "--repeats", "1"])
    out = capsys.readouterr().out
    for engine in ("compiled", "vectorised"):
        assert f"continuous 300 x 5, {engine}: this build" in out
        assert f"GAMETES gametes_2way_a20_s1600_her0.4_maf0.2_EDM-1_01, " \
               f"{engine}: this build" in out


def test_multitarget_benchmark_times_one_target_and_three(capsys):
    """bench_multitarget.py: a line per engine, RReliefF of one target
    beside multi-target RReliefF of three, with their ratio."""
    _load("bench_multitarget").main(["--sizes", "200x5", "--repeats", "1",
                                     "--engines", "vectorised"])
    out = capsys.readouterr().out
    assert "200 x 5, vectorised: one target" in out and "ratio" in out


def test_multilabel_benchmark_pairs_the_rankings_on_the_same_folds(capsys):
    """bench_multilabel.py: Read's pruned label powerset (known answers
    by Mulan's rule), the strata of the folds, the example F1, and on a
    sample of the emotions data a row per m, model and pruning with the
    paired differences, and every attribute's rows."""
    bench = _load("bench_multilabel")
    # p = 1: {0, 1}, {1, 2} and {0} are frequent (seen twice), {0, 1, 2}
    # (once) is not; its subsets of two, in Mulan's order {1, 2}, {0, 2},
    # {0, 1}: {1, 2} taken, {0, 1} not (it shares 1); then {0}
    Y = np.array([[1, 1, 0]] * 2 + [[0, 1, 1]] * 2 + [[1, 0, 0]] * 2
                 + [[1, 1, 1]])
    rows, classes = bench.label_powerset(Y, 1, "dropped")
    assert list(rows) == [0, 1, 2, 3, 4, 5]
    assert list(classes) == [1, 1, 2, 2, 0, 0]
    rows, classes = bench.label_powerset(Y, 1, "subsets")
    assert list(rows) == [0, 1, 2, 3, 4, 5, 6, 6]
    assert list(classes) == [1, 1, 2, 2, 0, 0, 2, 0]
    # p = 2: nothing is frequent but what is seen three times or more
    assert len(bench.label_powerset(Y, 2, "subsets")[0]) == 0
    # the strata of 2 folds: the label sets of one row pooled, and with
    # fewer rows than folds joined to the largest stratum
    assert list(bench.strata(Y, 2)) == [1, 1, 2, 2, 0, 0, 0]
    assert list(bench.strata(Y[:6], 3)) == [0] * 6
    assert bench.example_f1([[1, 1, 0], [0, 0, 0]],
                            [[1, 0, 0], [0, 0, 0]]) == (2 / 3 + 1) / 2
    bench.main(["--data", "emotions", "--instances", "150", "--quick",
                "--top", "3,200"])
    out = capsys.readouterr().out
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in out.splitlines()
            if line.startswith("| 3 |")]
    assert [row[1:3] for row in rows] == [
        ["kNN", "PPT, dropped"], ["kNN", "PPT, subsets"],
        ["tree", "PPT, dropped"], ["tree", "PPT, subsets"]]
    assert all("(p " in row[5] and "(p " in row[8] for row in rows)
    assert "| 72 | kNN | every attribute |" in out and "| 200 |" not in out


@pytest.mark.parametrize("differences, test_share, p", [
    # known answers from R: 2 * pt(-|t|, n - 1), t = mean /
    # sqrt((1 / n + share) * var(d))
    ([1, 2, 3, 4], 1 / 9, 0.0484911975021),
    ([0.5, -0.25, 1, 0.75, 0.25, 0.5], 1 / 4, 0.160068207843),
    # no correction: R's t.test of the differences
    ([0.5, -0.25, 1, 0.75, 0.25, 0.5], 0, 0.0478284295963),
    ([0, 0, 0], 1 / 9, 1.0), ([0.1, 0.1], 1 / 9, 0.0)])
def test_corrected_resampled_t_test(differences, test_share, p):
    """Nadeau & Bengio's corrected t-test of paired cross-validation
    differences (paired_test.py), against R."""
    mean, found = _load("paired_test").corrected_t_test(differences,
                                                        test_share)
    assert mean == pytest.approx(np.mean(differences))
    assert found == pytest.approx(p, rel=1e-9, abs=1e-12)


def test_wait_policy_benchmark_pairs_the_policies_under_each_load(capsys):
    """bench_wait_policy.py: a line per load and call, with both
    policies' times and their ratio (children of their own policy)."""
    _load("bench_wait_policy").main([
        "--small", "120x4", "--large", "150x4", "--repeats", "1",
        "--rounds", "1", "--spinners", "1", "--engine", "vectorised",
        "--no-prepare"])
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines
            if "ReliefF 120x4" in line or "MultiSURF 150x4" in line]
    assert [row.split()[0] for row in rows] == ["idle", "idle", "beside",
                                                "beside"]
    # a round of each policy: its time, then the other's after the ";"
    assert all(len(row.split(";")[1].split()) == 1 for row in rows)


def test_interactions_benchmark_times_the_map_beside_the_weights(capsys):
    """bench_interactions.py times the map and the weights of ReliefF
    and MultiSURF and prints their ratio."""
    _load("bench_interactions").main(["--sizes", "200x6", "--top", "4",
                                      "--repeats", "1"])
    out = capsys.readouterr().out
    for method in ("relieff", "multisurf"):
        assert f"SNPs 200 x 6, {method}, K = 4: weights " in out
    assert out.count("ratio ") == 2


def test_search_benchmark_against_a_baseline_copy(capsys):
    """bench_search.py times this build against a copy of a core (here
    the same one): the same float32 lists, the same exact ones."""
    _load("bench_search").main(["--size", "2000x6", "--m", "40",
                                "--repeats", "1",
                                "--baseline", os.path.dirname(BENCH_DIR)])
    out = capsys.readouterr().out
    assert "m = 40: this build" in out
    assert "identical float32 lists: True" in out
    assert "identical exact lists: True" in out


def test_peer_memory_limit_skips(bench):
    results = bench.run_benchmark([bench.Spec(200, 8, "binary")], ["skrebate"],
                                  {"repeats": 1, "max_peer_memory_gb": 1e-6},
                                  isolate=False, log=quiet)
    (r,) = results
    if r["status"] != "unavailable":  # skrebate is optional
        assert r["status"] == "skipped" and r["error"].startswith("skipped (needs ")


def _round(bench, times):
    return [{"method": "ours", "status": "ok", "time": t, "times": [t, t],
             "first": 1.0, "peak_mb": 1.0,
             "spec": vars(bench.Spec(100, 6, "binary", mix, miss))}
            for t, mix, miss in zip(times, ("continuous", "mixed", "continuous"),
                                    (0.0, 0.0, 0.1))]


def test_missing_preset_summary_judges_each_rounds_ratio(bench):
    # the machine slows down in round 2: each round's ratio stays put, the
    # pooled times' ratio would not
    results = bench.merge_rounds([_round(bench, (1.0, 1.2, 2.0)),
                                  _round(bench, (2.0, 2.4, 4.0)),
                                  _round(bench, (1.0, 1.3, 1.4))])
    assert [r["round_times"] for r in results] == [
        [1.0, 2.0, 1.0], [1.2, 2.4, 1.3], [2.0, 4.0, 1.4]]
    assert results[0]["time"] == 1.0 and len(results[0]["times"]) == 6
    text = bench.preset_missing_summary(results)
    assert "= 1.20x  ok  (rounds: 1.20, 1.20, 1.30)" in text
    assert "= 2.00x  OVER GOAL  (rounds: 2.00, 2.00, 1.40)" in text


def test_floor_runs_on_tiny_data():
    floor = _load("floor")
    res = floor.measure_floor(n=300, a=5, repeats=1)
    assert set(res["floor"]) == {"float64", "float32"}
    assert all(t > 0 and math.isfinite(t) for t, _ in res["floor"].values())
    assert set(res["update"]) == {"float64", "float32"}
    # each floor on a line of its own with its own time (distinct times
    # here: tiny data's would all print as 0.000): the distances' with the
    # variant that gave it, and the update's, of each dtype
    res.update(floor={"float64": (1.25, "a"), "float32": (0.5, "b")},
               update={"float64": 2.0, "float32": 0.75})
    lines = floor.format_floor(res).splitlines()
    for line in ("floor[float64] = 1.250 s (a)",
                 "floor[float32] = 0.500 s (b)",
                 "update floor[float64] = 2.000 s ",
                 "update floor[float32] = 0.750 s "):
        named = [text for text in lines
                 if text.startswith(line.split(" = ")[0] + " = ")]
        assert len(named) == 1 and named[0].startswith(line), (line, named)


@pytest.mark.parametrize("algorithm, budget", [
    ("multisurf", None), ("multisurf*", None), ("multisurf", "panels")])
def test_surf_phases_drive_the_engines_own_work(algorithm, budget,
                                                monkeypatch):
    """surf_phases.py: its loop over the groups, run to its end, gives the
    engine's weights to the bit, by either route to the distances (every
    pair kept, or panels: the budget cut to the panels' least), and each
    phase of the engine's order gets a time."""
    phases = _load("surf_phases")
    surf = phases.engine()[0]
    if budget:
        monkeypatch.setattr(surf, "KEPT_DISTANCES",
                            phases.engine()[1].smallest_budget(surf.PANEL))
    res = phases.measure(300, 7, algorithm, repeats=1, floors=False)
    assert res["same_bits"]
    assert res["route"] == ("panels" if budget else "every pair kept")
    assert [name for name, _ in res["phases"]] == ["distances",
                                                   *phases.STEPS]
    assert all(math.isfinite(t) for _, t in res["phases"]) and res["call"] > 0
    table = phases.format_result(res)
    assert "to the bit: yes" in table and "| update |" in table


def test_search_phases_drive_the_engines_own_search():
    """search_phases.py: its loop over the tiles, run to its end, gives the
    engine's lists of the search of all pairs, over several tiles (a
    diagonal round and two rounds of pairs), and each step gets a time."""
    phases = _load("search_phases")
    res = phases.measure(700, 9, repeats=1, floors=False)
    assert res["same_lists"]
    assert [name for name, _ in res["steps"]] == list(phases.STEPS)
    assert all(math.isfinite(t) for _, t in res["steps"])
    assert res["search"] > 0 and res["call"] > 0
    table = phases.format_result(res)
    assert "the engine's: yes" in table and "| offers |" in table


@pytest.mark.parametrize("flags, level", [
    # /proc/cpuinfo spells the later AVX-512 subsets with an underscore
    ({"avx2", "fma", "avx512f", "avx512bw", "avx512_vnni", "avx512_bf16"},
     "AVX-512 (F, BW, VNNI, BF16)"),
    ({"avx", "avx2", "fma"}, "AVX2 + FMA"),
    ({"sse4_2"}, "SSE4.2"),
    (set(), "unknown"),
])
def test_simd_level_names_the_widest_level(flags, level):
    assert _load("simd").simd_level(flags) == level


def test_publish_measures_a_figure_on_its_simd_level_only(monkeypatch,
                                                          capsys):
    """fast-select's figures are one per SIMD level: a machine measures its
    own level's (AVX2 is not a prefix of AVX-512), leaves the other's table
    as it is when all figures are asked for, and refuses it by name."""
    publish = _load("publish")
    levels = {"AVX2 + FMA": "fast-select",
              "AVX-512 (F, CD, BW, DQ, VL)": "fast-select-avx512"}
    for level, own in levels.items():
        chosen = [name for name in publish.FIGURES
                  if publish.FIGURES[name].measurable(level)]
        other, = set(levels.values()) - {own}
        assert own in chosen and other not in chosen, (level, chosen)
        assert "peers" in chosen  # a figure of no level: every machine
    measured = []
    monkeypatch.setattr(publish, "simd_level", lambda: "AVX2 + FMA")
    monkeypatch.setattr(publish, "measure",
                        lambda name, small: measured.append(name) or {})
    with pytest.raises(SystemExit) as refused:
        publish.main(["fast-select-avx512"])
    assert refused.value.code == 2 and not measured
    assert "AVX-512 only" in capsys.readouterr().err


def test_permutation_benchmark_gives_equal_p_values(capsys):
    """bench_permutations.py: from scratch and rescored, the same p."""
    bench = _load("bench_permutations")
    for task in ("classification", "regression"):
        rows = bench.main(["--sizes", "120x5", "--task", task,
                           "--permutations", "20", "--repeats", "1"])
        assert len(rows) == 1 and rows[0][3]
        assert "| 120x5 |" in capsys.readouterr().out


def test_selection_benchmark_times_both_loops_on_tiny_data():
    """bench_selection.py: the naive loops and ours give a row each, with
    their agreement."""
    bench = _load("bench_selection")
    rows = (bench.curve_case(120, 6, 3, "knn")
            + bench.stability_case(80, 6, 4))
    assert [len(row) for row in rows] == [5, 5, 5]
    # times, which round to 0.00 on a fast machine
    assert all(float(row[1]) >= 0 and float(row[2]) >= 0 for row in rows)
    assert "chosen" in rows[1][4] and "index" in rows[2][4]


#: what an argument type of benchmarks/arguments.py refuses: type ->
#: [(the text given, what the error says of it)]
BAD_SIZES = ["0x5", "1x3", "5x0", "-2x4", "2000x", "2000x100x3", "2.5x3",
             "many", ""]
REFUSED = {
    "size": [(bad, f"{bad}: expected NxA, N >= 2 instances by A >= 1 "
                   f"attributes") for bad in BAD_SIZES],
    "sizes": [(f"300x12,{bad}", f"{bad}: expected NxA") for bad in BAD_SIZES],
    "positive_int": [(bad, f"{bad}: expected a whole number >= 1")
                     for bad in ("0", "-3", "1.5", "many", "nan")],
    "positive_ints": [(bad, "expected a whole number >= 1")
                      for bad in ("1000,", "0,5", "many")],
    "non_negative_int": [(bad, f"{bad}: expected a whole number >= 0")
                         for bad in ("-1", "1.5", "many")],
    "positive_number": [(bad, f"{bad}: expected a number > 0")
                        for bad in ("0", "-3", "inf", "nan", "many")],
    "fraction": [(bad, f"{bad}: expected a number >= 0 and < 1")
                 for bad in ("1", "-0.1", "nan", "many")],
}
#: script -> {option: the argument type it takes}
OPTIONS = {
    "bench_cluster": {"--sizes": "sizes", "--workers": "positive_int",
                      "--m": "positive_int", "--repeats": "positive_int"},
    "bench_interactions": {"--sizes": "sizes", "--top": "positive_int",
                           "--repeats": "positive_int"},
    "bench_permutations": {"--sizes": "sizes",
                           "--permutations": "positive_int",
                           "--repeats": "positive_int"},
    "bench_relief": {"--sizes": "sizes", "--missing": "fraction",
                     "--k": "positive_int", "--references": "positive_int",
                     "--seed": "non_negative_int",
                     "--repeats": "positive_int", "--rounds": "positive_int",
                     "--max-peer-memory": "positive_number",
                     "--slow-cutoff": "positive_number",
                     "--timeout": "positive_number"},
    "bench_engines": {"--size": "size"},
    "bench_rfsm": {"--sizes": "size", "--k": "positive_int"},
    "bench_search": {"--size": "size", "--m": "positive_ints",
                     "--repeats": "positive_int"},
    "bench_ties": {"--sizes": "sizes", "--repeats": "positive_int"},
    "bench_multitarget": {"--sizes": "sizes", "--k": "positive_int",
                          "--repeats": "positive_int"},
    "bench_multilabel": {"--top": "positive_ints", "--seed":
                         "non_negative_int", "--k": "positive_int",
                         "--neighbours": "positive_int",
                         "--repeats": "positive_int",
                         "--prune": "non_negative_int",
                         "--instances": "positive_int"},
    "bench_wait_policy": {"--small": "size", "--large": "size",
                          "--repeats": "positive_int",
                          "--large-repeats": "positive_int",
                          "--rounds": "positive_int",
                          "--spinners": "non_negative_int"},
    "bench_streaming": {"--k": "positive_int", "--m": "positive_int",
                        "--chunk-rows": "positive_int"},
    "first_contact": {"--scale": "positive_number"},
    "bench_wide": {"--instances": "positive_int", "--timeout": "positive_number",
                   "--peer-timeout": "positive_number",
                   "--memory-limit": "positive_number"},
    "floor": {"--n": "positive_int", "--a": "positive_int",
              "--repeats": "positive_int", "--seed": "non_negative_int"},
    "surf_phases": {"--sizes": "sizes", "--repeats": "positive_int",
                    "--seed": "non_negative_int"},
    "search_phases": {"--sizes": "sizes", "--repeats": "positive_int",
                      "--seed": "non_negative_int"},
    "make_large": {"--rows": "positive_int", "--cols": "positive_int"},
}
#: script -> [(option, value)] refused besides those of its options' types
OTHER_BAD_VALUES = {"first_contact": [("--cases", "no such case")],
                    "surf_phases": [("--algorithm", "surf")],
                    "bench_multilabel": [("--folds", "1"),
                                         ("--distance", "jaccard")],
                    "bench_multitarget": [("--targets", "1"),
                                          ("--engines", "numba")],
                    "bench_wide": [("--snps", "2"), ("--snps", "1000,x"),
                                   ("--methods", "Relief"),
                                   ("--peers", "orange")]}
#: script -> the positional arguments it requires
POSITIONALS = {"bench_streaming": ["data.npy"], "make_large": ["out.npy"]}


def test_bench_wide_runs_ours_from_a_bed(tmp_path, capsys):
    """bench_wide.py: the .bed written once, a row per method with the
    predictive SNPs' ranks, the figure drawn."""
    pytest.importorskip("bed_reader", reason="the genomics extra "
                                             "(bed-reader) is not installed")
    bench = _load("bench_wide")
    argv = ["--snps", "12", "--instances", "60", "--peers", "none",
            "--methods", "ReliefF,VLS", "--no-prepare",
            "--workdir", str(tmp_path),
            "--plot", str(tmp_path / "wide.png"), "--json",
            str(tmp_path / "wide.json")]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| 12 |")]
    assert [row.split("|")[2].strip() for row in rows] == ["ReliefF", "VLS"]
    assert (tmp_path / "gametes_60x12_seed0.bed").exists()
    assert (tmp_path / "wide.png").read_bytes()[:4] == b"\x89PNG"
    assert bench.ranks([0.1, 0.3, 0.3, 0.0], ["M0P0", "M0P1", "M1P0",
                                               "N0"]) == [3, 2, 2]


@functools.cache
def parser_of(script):
    return _load(script).build_parser()


def refusal(script, argv, capsys):
    """The one line `script`'s command line prints refusing `argv`."""
    with pytest.raises(SystemExit) as exit_:
        parser_of(script).parse_args(POSITIONALS.get(script, []) + argv)
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and ": error: argument " in error
    return error


@pytest.mark.parametrize("script", OPTIONS)
def test_every_option_refuses_a_bad_value_in_one_line(script, capsys):
    """Each option of each script refuses every value its type refuses,
    naming the option and the value and saying what is expected."""
    refused = [(option, text, message)
               for option, kind in OPTIONS[script].items()
               for text, message in REFUSED[kind]]
    refused += [(option, text, f"argument {option}: ")
                for option, text in OTHER_BAD_VALUES.get(script, [])]
    for option, text, message in refused:
        error = refusal(script, [f"{option}={text}"], capsys)
        assert f"argument {option}: " in error and message in error, (
            option, text, error)


@pytest.mark.parametrize("script, argv, dest, expected", [
    ("bench_cluster", [], "sizes", [(50000, 20), (100000, 20), (200000, 20)]),
    ("bench_cluster", ["--sizes", "600x6"], "sizes", [(600, 6)]),
    ("bench_permutations", [], "sizes", [(2000, 100)]),
    ("bench_permutations", ["--sizes", "120x5,2X1"], "sizes",
     [(120, 5), (2, 1)]),
    ("bench_relief", [], "sizes", None),
    ("bench_relief", ["--sizes", " 2000x100 , 5000 X 20"], "sizes",
     [(2000, 100), (5000, 20)]),
    ("bench_rfsm", [], "sizes",
     [(1000, 50), (1000, 100), (1000, 200), (2000, 100), (4000, 100)]),
    ("bench_rfsm", ["--sizes", "1000x50", "300X7"], "sizes",
     [(1000, 50), (300, 7)]),
    ("bench_search", [], "size", (1000000, 20)),
    ("bench_search", [], "m", [1000, 10000]),
    ("bench_search", ["--size", "2000x6", "--m", "40"], "size", (2000, 6)),
    ("bench_selection", [], "curve", (5000, 100)),
    ("bench_selection", ["--stability", "300x7"], "stability", (300, 7)),
    ("first_contact", ["--scale", "0.2"], "scale", 0.2),
    ("floor", ["--seed", "0"], "seed", 0),
])
def test_valid_arguments_parse_as_before(script, argv, dest, expected):
    args = parser_of(script).parse_args(POSITIONALS.get(script, []) + argv)
    assert getattr(args, dest) == expected


#: a stand-in for the background preparation of a case's cache (argv[1],
#: its kernel folder): detached as the real one is, it names itself in the
#: state file, then makes a kernel's subfolder (as a worker declaring its
#: kernels does) a second later, after the folder was deleted
WRITING_PREPARATION = """
import json, os, pathlib, sys, time
kernels = pathlib.Path(sys.argv[1])
pid = os.fork()
if pid:
    (kernels / "state.json").write_text(json.dumps({"pid": pid}))
    os._exit(0)
time.sleep(1.0)
(kernels / "engines.compiled.neighbours").mkdir(parents=True)
"""


def test_a_case_cache_is_removed_for_good(tmp_path):
    """first_contact.py removes a case's cache folder once the preparation
    working in it has ended, with what it wrote meanwhile; its cases run
    at the scale of the goals unless told otherwise."""
    contact = _load("first_contact")
    assert parser_of("first_contact").parse_args([]).scale == 1.0
    with contact.empty_cache() as folder:
        kernels = folder / "orange3-relief" / "digest"
        kernels.mkdir(parents=True)
        subprocess.run([sys.executable, "-c", WRITING_PREPARATION,
                        str(kernels)], check=True)
    assert not folder.exists()


def test_survival_simulations_and_their_measures():
    """The authors' designs (benchmarks/survival_data.py): deterministic,
    censored at 125; stratified folds; the interpolated auPRC of known
    rankings."""
    data = _load("survival_data")
    X, time, event, functional = data.main_effects(60, 30, 0.13, seed=4)
    again = data.main_effects(60, 30, 0.13, seed=4)
    np.testing.assert_array_equal(X, again[0])
    assert time.max() <= 125 and set(np.unique(event)) == {0.0, 1.0}
    assert (time[event == 0] == 125).all() and list(functional) == list(
        range(10))
    assert len(data.interactions(60, 30, 0.2, seed=4)[3]) == 20
    folds = data.training_folds(event, 5, seed=0)
    held_out = [np.setdiff1d(np.arange(60), rows) for rows in folds]
    assert sorted(np.concatenate(held_out).tolist()) == list(range(60))
    assert all(abs(event[rows].mean() - event.mean()) < 0.1
               for rows in folds)
    assert data.auprc([3, 2], [1, 0]) == 1.0
    # worst: both positives last, the precision x / (x + 2) integrated
    # over the true positives x from 0 to 2, over 2
    assert math.isclose(data.auprc([0, 1], [2, 3]), 1 - math.log(2),
                        rel_tol=1e-12)


#: the auPRC of survival NPDR (signed) on the ten folds of the authors'
#: first main-effect data set of effect 0.13, as they published it
#: (pak611/survivalNPDR, results/main_effect_size_sweep_rsurv_fold_metrics.csv)
PUBLISHED_FOLDS = [0.700145200197766, 0.63794742631217, 0.567679113324872,
                   0.743430819826208, 0.58033723864527, 0.661949773908793,
                   0.648426601092755, 0.613781878089362, 0.664386434430345,
                   0.766316047317353]


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="needs R")
def test_the_authors_data_give_their_published_auprc(tmp_path):
    """survival_sim.R draws the authors' first data set and folds; survival
    NPDR's auPRC on each fold is the published one."""
    data = _load("survival_data")
    data.r_draws("main", 200, 1000, 0.13, 1, tmp_path)
    X, time, event, training = data.read_r_draw(tmp_path, 1, 200, 1000)
    bench = _load("bench_survival_auprc")
    assert np.allclose(bench.fold_auprcs("main", X, time, event, training),
                       PUBLISHED_FOLDS, rtol=1e-12, atol=0)


@pytest.mark.parametrize("script, argv", [
    ("bench_survival", ["--size", "100x5"]),
    ("bench_survival_auprc", ["--attributes", "20"]),
])
def test_survival_benchmarks_refuse_too_few_attributes(script, argv,
                                                        capsys):
    with pytest.raises(SystemExit) as stopped:
        _load(script).main(argv)
    assert stopped.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1

"""UrbsLab's re-benchmark in the ReBATE experiment: the ranks of the key
variables, the two controls (random shuffles, mutual information), the
mean and median ranks by family and the Mann-Whitney comparisons with
Benjamini-Hochberg adjustment, checked against values computed by hand."""
import csv
import hashlib
import os
from math import comb

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import mannwhitneyu

from orangecontrib.relief.experiments import rebate, rebate_statistics

FOLDER = os.path.join(os.path.dirname(__file__), os.pardir, "data",
                      "rebate")


@pytest.mark.parametrize("scores, absolute, ranks", [
    ([0.9, 0.1, 0.5], False, [1, 3, 2]),
    ([0.9, 0.5, 0.5, 0.1], False, [1, 3, 3, 4]),       # ties against
    ([0.2, -0.9, 0.5], False, [2, 3, 1]),
    ([0.2, -0.9, 0.5], True, [3, 1, 2]),                # by |score|
    ([np.nan, 0.0, -1.0], False, [3, 1, 2]),            # NaN the lowest
])
def test_a_features_rank_counts_from_one(scores, absolute, ranks):
    assert_array_equal(rebate.feature_ranks(np.array(scores), absolute),
                       ranks)


def test_a_draw_holds_the_worst_and_every_key_variables_rank():
    scores = np.array([0.3, -0.8, 0.1, 0.5, 0.0])
    keys = np.array([True, True, False, False, False])
    registers = np.array([False, False, True, False, False])
    draw = rebate.draw_of(scores, keys, registers)
    assert draw == rebate.Draw(worst=5, worst_with_registers=5, absolute=3,
                               absolute_with_registers=4, keys=(2, 5),
                               keys_absolute=(3, 1))
    assert rebate.draw_of(scores, keys, ~registers & False).\
        worst_with_registers is None


def test_the_shuffle_control_is_urbslabs_seeded_orders():
    """Order i of a replicate permutes the sorted names with
    default_rng(seed + i), seed from the SHA-256 of the replicate's number
    (the stem's last two characters); a feature's rank is its place."""
    names = ["N1", "M0P0", "N0", "M0P1"]
    draws = rebate.shuffle_scores(names, "a_20s_1600_EDM-1_07.txt.gz", 3)
    seed = int(hashlib.sha256(b"07").hexdigest(), 16) % 2 ** 32
    for i, scores in enumerate(draws):
        order = list(np.random.default_rng(seed + i).permutation(
            sorted(names)))
        assert_array_equal(rebate.feature_ranks(scores),
                           [order.index(name) + 1 for name in names])
        # the magnitude ranks an order the same
        assert_array_equal(rebate.feature_ranks(scores, True),
                           rebate.feature_ranks(scores))
    assert len({tuple(scores) for scores in draws}) == 3
    # the same replicate number, the same orders; another, others
    again = rebate.shuffle_scores(names, "other_07.txt", 3)
    assert_array_equal(again, draws)
    assert not np.array_equal(rebate.shuffle_scores(names, "x_08.txt", 3),
                              draws)


@pytest.mark.parametrize("features, keys", [(6, 2), (20, 2), (8, 3)])
def test_the_shuffle_controls_power_is_chance(features, keys):
    """Over many orders the power at r is the chance that k given features
    all lie among the first r of n: C(r, k) / C(n, k)."""
    names = [f"N{i}" for i in range(features)]
    relevant = np.arange(features) < keys
    worst = np.array([rebate.worst_rank(scores, relevant) for scores in
                      rebate.shuffle_scores(names, "t_01.txt", 3000)])
    r = np.arange(1, features + 1)
    chance = np.array([comb(int(x), keys) / comb(features, keys) for x in r])
    assert_allclose((worst[:, None] <= r).mean(axis=0), chance, atol=0.03)


def test_mutual_information_is_scikit_learns_with_urbslabs_seed():
    from sklearn.feature_selection import (mutual_info_classif,
                                           mutual_info_regression)

    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, (60, 4)).astype(float)
    y = (X[:, 0] > 0).astype(float)
    got = rebate.mutual_information(X, y)
    assert_array_equal(got, mutual_info_classif(X, y, random_state=42))
    assert got.argmax() == 0
    y_numeric = X[:, 1] + rng.normal(size=60)  # more than ten values
    assert_array_equal(rebate.mutual_information(X, y_numeric),
                       mutual_info_regression(X, y_numeric,
                                              random_state=42))
    X[0, 0] = np.nan
    assert rebate.mutual_information(X, y) is None


def hand_results(keys, absolute=False, features=10):
    """Results of families {family: {method: [key ranks per replicate]}},
    one configuration per family, every replicate taking a second."""
    configurations = [rebate.Configuration(os.path.join(family, "c"),
                                           ("r_01.txt",) * len(
                                               next(iter(by.values()))))
                      for family, by in keys.items()]
    methods = tuple(next(iter(keys.values())))
    results = rebate.Results(rebate.Settings(FOLDER, methods=methods,
                                             absolute=absolute),
                             configurations)
    for c, by_method in zip(configurations, keys.values()):
        results.features[c.path] = features
        results.relevant[c.path] = 2
        results.keys[c.path] = by_method
        results.keys_absolute[c.path] = {
            m: [None if k is None else tuple(sorted(k)) for k in ranks]
            for m, ranks in by_method.items()}
        results.ranks[c.path] = {m: [None if k is None else max(k)
                                     for k in ranks]
                                 for m, ranks in by_method.items()}
        results.absolute[c.path] = results.ranks[c.path]
        results.times[c.path] = {m: [1.0] * len(ranks)
                                 for m, ranks in by_method.items()}
    return results


def test_the_mean_and_median_rank_pool_every_key_variable():
    results = hand_results({
        "mainEff": {"MultiSURF": [(1, 2), (1, 4), (2, 9)],
                    "Relief": [None, None, None]}})
    (row, relief) = rebate_statistics.rank_rows(results)
    # ranks 1 2 1 4 2 9: mean 19 / 6, median 2; power at r = 2: 1 of 3
    assert row == dict(family="mainEff", configurations=1,
                       method="MultiSURF", ranking="signed", key_ranks=6,
                       mean_rank="3.16667", median_rank="2",
                       power_at_top="0.333333", seconds_per_data_set="1")
    assert (relief["key_ranks"], relief["mean_rank"]) == (0, "")
    assert rebate_statistics.rank_table(results)[2] == \
        "| mainEff (1) | 3.17 (2) | n/a |"


def test_absolute_columns_join_the_methods_but_not_the_controls():
    results = hand_results({"XOR": {"Relief": [(1, 2)],
                                    rebate.SHUFFLE: [(3, 4)]}},
                           absolute=True)
    assert results.columns() == [("Relief", False), (rebate.SHUFFLE, False),
                                 ("Relief", True)]
    assert [row["method"] for row in rebate_statistics.rank_rows(
        results)] == ["Relief", rebate.SHUFFLE, "|Relief|"]


@pytest.mark.parametrize("first, second, better", [
    ([1, 1, 2, 2], [5, 6, 7, 8], "Relief"),     # Relief's keys rank higher
    ([5, 6, 7, 8], [1, 1, 2, 2], "SURF"),
    ([1, 2, 3, 4], [4, 3, 2, 1], ""),           # U at half the pairs
])
def test_the_mann_whitney_comparison_is_two_sided_on_the_ranks(
        first, second, better):
    results = hand_results({"fam": {
        "Relief": [tuple(first[:2]), tuple(first[2:])],
        "SURF": [tuple(second[:2]), tuple(second[2:])]}})
    (row,) = rebate_statistics.mann_whitney_rows(results)
    expected = mannwhitneyu(first, second, alternative="two-sided",
                            method="asymptotic")
    assert (row["method_1"], row["method_2"], row["better"]) == (
        "Relief", "SURF", better)
    assert float(row["u_statistic"]) == expected.statistic
    assert float(row["p_value"]) == pytest.approx(expected.pvalue, 1e-5)
    # one comparison: nothing to adjust
    assert row["p_adjusted"] == row["p_value"]


def test_benjamini_hochberg_adjusts_each_familys_pairs_together(
        monkeypatch):
    """Known p-values (0.01, 0.04, 0.03) of a family's three pairs give
    q = (0.03, 0.04, 0.04): p(1) 3/1, min(p(2) 3/2, p(3) 3/3) twice; the
    other family's one pair keeps its p."""
    p_values = iter([0.01, 0.04, 0.03, 0.02])
    monkeypatch.setattr(rebate_statistics, "mann_whitney",
                        lambda x, y: (0.0, next(p_values)))
    ranks = {"Relief": [(1, 2)], "SURF": [(3, 4)], "NPDR": [(5, 6)]}
    results = hand_results({"fam1": ranks, "fam2": dict(
        ranks, NPDR=[None])})
    rows = rebate_statistics.mann_whitney_rows(results)
    assert [(row["family"], row["method_1"], row["method_2"],
             row["p_value"], row["p_adjusted"]) for row in rows] == [
        ("fam1", "Relief", "SURF", "0.01", "0.03"),
        ("fam1", "Relief", "NPDR", "0.04", "0.04"),
        ("fam1", "SURF", "NPDR", "0.03", "0.04"),
        ("fam2", "Relief", "SURF", "0.02", "0.02")]


def test_a_run_with_the_controls_writes_the_re_benchmark(tmp_path):
    """The shuffle control counts every order of every replicate; the
    ranks, the comparisons and the ranks' heat map are written."""
    settings = rebate.Settings(FOLDER, methods=(
        "MultiSURF", rebate.SHUFFLE, rebate.MUTUAL_INFORMATION),
        replicates=1, shuffles=5, absolute=True)
    results = rebate.run(settings)
    by_label = {c.label: c.path for c in results.configurations}
    missing = by_label["2wayEpi_NA NA_0.1 a_20s_1600her_0.4__maf_0.2_EDM-2"]
    for c in results.configurations:
        assert len(results.ranks[c.path][rebate.SHUFFLE]) == 5
        assert len(results.ranks[c.path]["MultiSURF"]) == 1
        assert len(results.times[c.path][rebate.SHUFFLE]) == 1
    # mutual information takes no missing values
    assert results.power(missing, rebate.MUTUAL_INFORMATION) is None
    paths = results.write(str(tmp_path))
    with open(paths[1], encoding="utf-8") as file:
        shuffles = [row for row in csv.DictReader(file)
                    if row["method"] == rebate.SHUFFLE]
    assert [row["draw"] for row in shuffles[:5]] == list("01234")
    with open(paths[4], encoding="utf-8") as file:
        methods = {row["method"] for row in csv.DictReader(file)}
    assert methods == {"MultiSURF", "|MultiSURF|", rebate.SHUFFLE,
                       rebate.MUTUAL_INFORMATION}
    with open(paths[5], encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    # 4 columns: 6 pairs a family, 3 where mutual information is n/a
    assert len(rows) == 6 * 4 + 3
    assert os.path.getsize(paths[6]) > 5000
    assert "The mean rank of the key variables" in results.summary()

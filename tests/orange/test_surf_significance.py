"""Significance on Orange tables, and the SURF family through the registry
(the scorers themselves: test_surf_scorers.py)."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from Orange.data import Table
from Orange.preprocess import SelectBestFeatures

import Orange
from orangecontrib.relief import (MultiSURF, MultiSWRF, ReliefF, RReliefF,
                                  Significance, TuRF)
from orangecontrib.relief.arrays import table_arrays
from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.variants import surf
from orangecontrib.relief.datasets import path
from orangecontrib.relief.variants import make_scorer
from tests.degenerate_evidence import CASES, degenerate_table



@pytest.fixture(scope="module")
def cpu():
    return Table(path("cpu"))


def test_options_reach_the_core(heart):
    arrays = table_arrays(heart, "MultiSURF")
    scorer = make_scorer("MultiSURF", n_iterations=50, random_state=4,
                         diff="ramp")
    scorer.deviation = "sample"
    assert_array_equal(scorer(heart), surf.multisurf(
        arrays.X, arrays.y, arrays.discrete, n_iterations=50, random_state=4,
        diff="ramp", deviation="sample"))
    with pytest.raises(ValueError, match="takes no k"):
        make_scorer("SURF", k_nearest=3)


def test_significance_by_stir(heart):
    arrays = table_arrays(heart, "MultiSURF")
    tester = Significance(MultiSURF(), alpha=0.05)
    result = tester.result(heart)
    expected = significance.stir(arrays.X, arrays.y, arrays.discrete)
    assert_array_equal(result.p, expected.p)
    assert_array_equal(result.q, significance.adjust(expected.p, "bh"))
    assert_array_equal(result.significant, result.q <= 0.05)
    assert_allclose(tester(heart), -np.log10(np.maximum(result.q, 1e-308)))
    # Rank-ready: the most significant first
    best = SelectBestFeatures(method=tester, k=2)(heart)
    assert {a.name for a in best.domain.attributes} <= {
        a.name for a, s in zip(heart.domain.attributes, result.significant)
        if s}
    relieff = Significance(ReliefF(k_nearest=4)).result(heart)
    assert_array_equal(relieff.p, significance.stir(
        arrays.X, arrays.y, arrays.discrete, neighbourhood="relieff",
        k_nearest=4).p)


@pytest.mark.parametrize("scorer, neighbourhood, options", [
    (MultiSURF(n_iterations=40, random_state=3), "multisurf", {}),
    (ReliefF(n_iterations=40, random_state=3, k_nearest=5), "relieff",
     dict(k_nearest=5))])
def test_stir_tests_the_scorers_references(heart, scorer, neighbourhood,
                                           options):
    arrays = table_arrays(heart, "MultiSURF")
    p = Significance(scorer).result(heart).p
    assert_array_equal(p, significance.stir(
        arrays.X, arrays.y, arrays.discrete, neighbourhood=neighbourhood,
        n_iterations=40, random_state=3, **options).p)
    assert not np.array_equal(p, significance.stir(
        arrays.X, arrays.y, arrays.discrete, neighbourhood=neighbourhood,
        **options).p)


@pytest.mark.parametrize("method, options", [
    ("SURF", {}), ("SURF*", dict(diff="ramp")),
    ("MultiSURF", dict(n_iterations=50, random_state=3)),
    ("MultiSURF*", {}), ("ReliefF", {}), ("SWRF", {}),
    ("MultiSWRFDB*", dict(convention="scikit-rebate"))])
def test_a_test_that_weighs_gives_the_scorers_very_weights(heart, method,
                                                            options):
    # the widget takes them instead of weighing again: they must be the
    # scorer's to the bit, or Rank and the widget would disagree
    scorer = make_scorer(method, **options)
    tester = Significance(scorer)
    scores, result = tester.scores_and_result(heart)
    assert tester.scores_too == (method != "ReliefF")
    if tester.scores_too:
        assert_array_equal(scores, scorer(heart))
    else:
        assert scores is None
    assert_array_equal(result.p, tester.result(heart).p)


def test_permutations_of_any_orange_scorer(heart):
    info_gain = Orange.preprocess.score.InfoGain()
    result = Significance(info_gain, test="permutation", n_permutations=19,
                          random_state=5).result(heart)
    rng = np.random.default_rng(5)
    exceed = np.zeros(len(heart.domain.attributes))
    for _ in range(19):  # the permutations permutation_test draws
        permuted = heart.copy()
        with permuted.unlocked(permuted.Y):
            permuted.Y[:] = heart.Y[rng.permutation(len(heart))]
        exceed += info_gain(permuted) >= info_gain(heart)
    assert_array_equal(result.weights, info_gain(heart))
    assert_allclose(result.p, (1 + exceed) / 20)
    assert Significance(TuRF(), test="permutation").fits(
        heart.domain.class_var)


def test_significance_by_permutation(cpu):
    tester = Significance(RReliefF(k_nearest=10), test="permutation",
                          n_permutations=9, adjustment="holm")
    result = tester.result(cpu)
    assert ((result.p >= 0.1) & (result.p <= 1)).all()
    assert_array_equal(result.q, significance.adjust(result.p, "holm"))
    assert_array_equal(result.p, tester.result(cpu).p)  # seeded


@pytest.mark.parametrize("scorer, name", [
    (MultiSURF(), "iris"), (MultiSURF(), "heart"),  # heart: missing values
    (RReliefF(k_nearest=10), "cpu")])
def test_permutations_rescore_without_a_new_search(request, scorer, name):
    # the rescorers find the neighbours once: the same p-values as scoring
    # every permutation from scratch
    data = Table("iris") if name == "iris" else request.getfixturevalue(name)
    arrays = table_arrays(data, scorer.friendly_name)
    result = Significance(scorer, test="permutation", n_permutations=19,
                          random_state=2).result(data)
    from_scratch = significance.permutation_test(
        lambda y: scorer._weights(arrays._replace(y=y), scorer._options(None)),
        arrays.y,
        n_permutations=19, random_state=2)
    assert_allclose(result.weights, from_scratch[0], rtol=0, atol=1e-15)
    assert_array_equal(result.p, from_scratch[1])


def test_significance_refuses_what_it_cannot_test(cpu):
    with pytest.raises(ValueError, match="permutation"):
        Significance(RReliefF())
    with pytest.raises(ValueError, match="categorical"):
        Significance(MultiSURF()).result(cpu)
    assert not Significance(MultiSURF()).fits(cpu.domain.class_var)
    no_class = cpu.transform(Orange.data.Domain(cpu.domain.attributes))
    for test in ("stir", "permutation"):
        with pytest.raises(ValueError, match="needs data with a single "
                                             "target variable"):
            Significance(test=test).result(no_class)
    with pytest.raises(ValueError, match="test"):
        Significance(test="bootstrap")
    with pytest.raises(ValueError, match="n_permutations needs "
                                         "test='permutation'"):
        Significance(test="stir", n_permutations=99)
    for option in (dict(variance="sample"), dict(r_compatible=True)):
        with pytest.raises(ValueError, match=f"{next(iter(option))} needs "
                                             f"test='stir'"):
            Significance(test="permutation", **option)
    with pytest.raises(ValueError, match="adjustment"):
        Significance(adjustment="fdr")
    with pytest.raises(ValueError, match="STIR's R package .*no weighted "
                                         "neighbours; it does not apply to "
                                         "MultiSWRF"):
        Significance(MultiSWRF(), r_compatible=True)


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("scorer", [ReliefF, MultiSURF])
def test_degenerate_evidence_gets_no_verdict(case, scorer):
    data, without = degenerate_table(case)
    tester = Significance(scorer())
    result = tester.result(data)
    assert_array_equal(np.flatnonzero(np.isnan(result.p)), without)
    assert not result.significant[without].any()
    assert CASES[case] in result.note
    assert np.isneginf(tester(data)[without]).all()  # sorted last
    if len(without) == 1:
        assert "for a2:" in result.note
        best = SelectBestFeatures(method=tester, k=3)(data)
        assert "a2" not in {a.name for a in best.domain.attributes}


def test_the_rank_column_says_what_it_holds(heart):
    assert Significance(ReliefF()).friendly_name == "\u2212log\u2081\u2080q"
    tester = Significance(ReliefF(), test="permutation", n_permutations=19)
    assert tester.friendly_name == "\u2212log\u2081\u2080q"
    result = Significance(ReliefF()).result(heart)
    assert_allclose(Significance(ReliefF())(heart), -np.log10(result.q))


def test_the_variance_reaches_the_core(heart):
    arrays = table_arrays(heart, "ReliefF")
    for variance in ("population", "sample"):
        assert_array_equal(
            Significance(ReliefF(), variance=variance).result(heart).p,
            significance.stir(arrays.X, arrays.y, arrays.discrete,
                              neighbourhood="relieff", variance=variance).p)
    with pytest.raises(ValueError, match="variance"):
        Significance(ReliefF(), variance="biased")


@pytest.mark.parametrize("scorer, neighbourhood", [
    (ReliefF(k_nearest=5), "relieff"), (MultiSURF(), "multisurf")])
def test_r_compatible_reaches_the_core(scorer, neighbourhood):
    """R's pairs on the seven classes of zoo; a SURF-family scorer's
    weights are then its own, not weighed in the test's pass."""
    zoo = Table(path("zoo"))
    arrays = table_arrays(zoo, "ReliefF")
    tester = Significance(scorer, r_compatible=True)
    assert not tester.scores_too
    weights, result = tester.scores_and_result(zoo)
    assert weights is None
    k = {"k_nearest": 5} if neighbourhood == "relieff" else {}
    expected = significance.stir(arrays.X, arrays.y, arrays.discrete,
                                 neighbourhood=neighbourhood,
                                 r_compatible=True, **k)
    assert_array_equal(result.p, expected.p)
    assert not np.allclose(result.p, Significance(scorer).result(zoo).p)
    with pytest.raises(ValueError, match="r_compatible must be True or "
                                         "False"):
        Significance(scorer, r_compatible=1)

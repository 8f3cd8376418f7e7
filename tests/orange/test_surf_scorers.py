"""The SURF family's scorers and TuRF on Orange tables: the core functions
on the table's arrays, in Orange's feature selection, Rank's adapter and
the command line."""
import os

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from Orange.data import (ContinuousVariable, DiscreteVariable, StringVariable,
                         Table)
from Orange.preprocess.fss import SelectBestFeatures

import Orange
from orangecontrib.relief import (SURF, MultiSURF, MultiSURFstar, RankScorer,
                                  ReliefF, Significance, SURFstar, TuRF)
from orangecontrib.relief.arrays import table_arrays
from orangecontrib.relief.cli import main
from orangecontrib.relief.core.variants import estimators, surf
from orangecontrib.relief.core.variants.turf import turf

HOUSING = os.path.join(os.path.dirname(Orange.__file__), "datasets",
                       "housing.tab")
CORE = {SURF: surf.surf, SURFstar: surf.surfstar, MultiSURF: surf.multisurf,
        MultiSURFstar: surf.multisurfstar}
SCORERS = list(CORE)


@pytest.fixture(scope="module")
def housing():
    """Boston housing: thirteen attributes, a numeric class."""
    return Table(HOUSING)


@pytest.mark.parametrize("cls", SCORERS)
def test_one_weight_per_attribute_from_the_core(cls, heart, housing):
    for table, task in ((heart, "classification"), (housing, "regression")):
        arrays = table_arrays(table, cls.friendly_name)
        got = cls()(table)
        assert got.shape == (len(table.domain.attributes),)
        assert np.isfinite(got).all() and got.std() > 0
        assert_array_equal(got, CORE[cls](arrays.X, arrays.y,
                                          arrays.discrete, task=task))
        attribute = table.domain.attributes[2]
        assert cls()(table, attribute) == got[2]


def test_options_reach_the_core(heart, housing):
    arrays = table_arrays(housing, "MultiSURF*")
    scorer = MultiSURFstar(n_iterations=40, random_state=2,
                           deviation="sample", diff="squared")
    assert_array_equal(scorer(housing), surf.multisurfstar(
        arrays.X, arrays.y, arrays.discrete, task="regression",
        n_iterations=40, random_state=2, deviation="sample",
        diff="squared"))
    arrays = table_arrays(heart, "SURF")
    assert_array_equal(SURF(diff="ramp", t_eq=0.1, t_diff=0.3)(heart),
                       surf.surf(arrays.X, arrays.y, arrays.discrete,
                                 diff="ramp", t_eq=0.1, t_diff=0.3))


@pytest.mark.parametrize("cls", SCORERS)
def test_fits_both_class_types(cls):
    assert cls.fits(DiscreteVariable("c", values=("a", "b")))
    assert cls.fits(ContinuousVariable("t"))
    assert not cls.fits(StringVariable("s"))
    assert not cls.fits(None)


def test_repr_shows_the_parameters():
    assert repr(SURF()) == "SURF()"
    assert repr(MultiSURF(deviation="sample", n_iterations=5)) == (
        "MultiSURF(n_iterations=5, deviation='sample')")
    assert repr(TuRF(ReliefF(k_nearest=5), fraction=0.25)) == (
        "TuRF(scorer=ReliefF(k_nearest=5), fraction=0.25)")


@pytest.mark.parametrize("cls", SCORERS)
def test_select_best_features(cls, heart, housing):
    for table in (heart, housing):
        best = SelectBestFeatures(method=cls(), k=3)(table)
        weights = cls()(table)
        names = [a.name for a in table.domain.attributes]
        assert {a.name for a in best.domain.attributes} == {
            names[i] for i in np.argsort(-weights)[:3]}
        assert best.domain.class_var == table.domain.class_var


@pytest.mark.parametrize("scorer, core_score", [
    (ReliefF(k_nearest=5), lambda X, y, d, progress_callback=None:
        estimators.relieff(X, y, d, k_nearest=5,
                           progress_callback=progress_callback)),
    (MultiSURF(), lambda X, y, d, progress_callback=None:
        surf.multisurf(X, y, d, progress_callback=progress_callback)),
])
def test_turf_wraps_a_scorer(scorer, core_score, heart):
    wrapper = TuRF(scorer, fraction=0.5)
    arrays = table_arrays(heart, "TuRF")
    expected = turf(core_score, arrays.X, arrays.y, arrays.discrete,
                    fraction=0.5)
    result = wrapper.result(heart)
    assert_array_equal(wrapper(heart), expected.scores)
    assert_array_equal(result.kept, expected.kept)
    assert len(result.kept) == 4  # 13 -> 7 -> 4
    assert wrapper.fits(heart.domain.class_var)
    best = SelectBestFeatures(method=wrapper, k=4)(heart)
    assert {a.name for a in best.domain.attributes} == {
        heart.domain.attributes[i].name for i in result.kept}


def test_turf_around_multisurf_on_a_numeric_class(housing):
    wrapper = TuRF(MultiSURF(), fraction=0.25, n_keep=5)
    arrays = table_arrays(housing, "TuRF")
    expected = turf(
        lambda X, y, d, progress_callback=None: surf.multisurf(
            X, y, d, task="regression", progress_callback=progress_callback),
        arrays.X, arrays.y, arrays.discrete, fraction=0.25, n_keep=5)
    assert_array_equal(wrapper(housing), expected.scores)
    assert wrapper.fits(housing.domain.class_var)
    assert not TuRF(ReliefF()).fits(housing.domain.class_var)
    assert TuRF().scorer.friendly_name == "MultiSURF"


def test_turf_wraps_any_orange_scorer_on_the_remaining_attributes(heart):
    info_gain = Orange.preprocess.score.InfoGain()
    result = TuRF(info_gain, fraction=0.5).result(heart)
    kept = heart.domain.attributes
    for remaining, scores in result.rounds:  # each round scores its table
        assert_array_equal(remaining, sorted(remaining))
        table = heart.transform(Orange.data.Domain(
            [kept[i] for i in remaining], heart.domain.class_var))
        assert_array_equal(scores, info_gain(table))
    assert len(result.kept) == 4  # 13 -> 7 -> 4
    assert TuRF(info_gain).fits(heart.domain.class_var)
    # this module's TuRF and significance are scorers like any other
    nested = TuRF(TuRF(MultiSURF()), fraction=0.5).result(heart)
    assert len(nested.kept) == 4
    assert np.isfinite(TuRF(Significance())(heart)).all()


def test_turf_refuses_scores_that_are_not_one_per_attribute(heart):
    class Odd(Orange.preprocess.score.Scorer):
        class_type = DiscreteVariable

        def __call__(self, data, feature=None):
            return np.zeros(3)

    with pytest.raises(ValueError, match="one per attribute"):
        TuRF(Odd())(heart)


@pytest.mark.parametrize("cls", SCORERS)
def test_rank_adapter_gives_one_score_column(cls, heart, housing):
    rank = RankScorer(cls())
    assert rank.name == rank.friendly_name == cls.friendly_name
    assert rank.class_type == (DiscreteVariable, ContinuousVariable)
    for table in (heart, housing):
        scores = rank.score_data(table)
        assert scores.shape == (1, len(table.domain.attributes))
        assert_array_equal(scores[0], cls()(table))
    assert RankScorer(TuRF()).score_data(heart).shape == (1, 13)


def cli(capsys, *argv):
    """(exit code, stdout lines, stderr) of ``orange-relief`` with argv;
    argparse's own errors exit, the others return 2."""
    try:
        code = main(list(argv))
    except SystemExit as exit_info:
        code = exit_info.code
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_cli_ranks_heart_disease_by_multisurf(capsys, heart):
    code, lines, err = cli(capsys, "rank", "--method", "MultiSURF")
    assert code == 0 and err == ""
    assert "method MultiSURF," in lines[-1]
    rows = [line.split(None, 1)[1].rsplit(None, 1) for line in lines[1:-1]]
    weights = MultiSURF()(heart)
    expected = sorted(zip(weights, (a.name for a in heart.domain.attributes)),
                      reverse=True)
    assert [name.strip() for name, _ in rows] == [n for _, n in expected]
    for (_, printed), (weight, _) in zip(rows, expected):
        assert float(printed) == pytest.approx(weight, abs=1e-6)


def test_cli_numeric_class_with_surf_star(capsys):
    code, lines, _ = cli(capsys, "rank", HOUSING, "--method", "SURF*",
                         "--top", "3")
    assert code == 0
    assert len(lines) == 3 + 2 and "method SURF*," in lines[-1]


def test_cli_surf_with_k_is_a_one_line_usage_error(capsys):
    code, lines, err = cli(capsys, "rank", "--method", "SURF", "--k", "3")
    assert code == 2 and lines == []
    assert err.count("\n") == 1 and "SURF takes no k" in err
    assert "Traceback" not in err

"""The Orange scorers DReliefF and PDReliefF (issue 4), their export and
their place among the variants of the widget and the command line."""
import numpy as np
import pytest
from numpy.testing import assert_array_equal
from Orange.data import Table
from Orange.preprocess import SelectBestFeatures

import orangecontrib.relief as package
from orangecontrib.relief import DReliefF, PDReliefF, ReliefF
from orangecontrib.relief.cli import main
from orangecontrib.relief.core import drelieff, pdrelieff
from orangecontrib.relief.datasets import path
from orangecontrib.relief.variants import (
    DEFAULT_K, METHODS, fitting_methods, make_scorer)


@pytest.fixture(scope="module")
def heart():
    """Mixed nominal and numeric attributes with missing values."""
    table = Table(path("heart_disease"))
    assert np.isnan(table.X).any()
    assert any(v.is_discrete for v in table.domain.attributes)
    return table


def arrays(table):
    discrete = [v.is_discrete for v in table.domain.attributes]
    return table.X, table.Y, discrete


def test_scorers_are_the_core_functions(heart):
    X, y, discrete = arrays(heart)
    assert_array_equal(DReliefF()(heart), drelieff(X, y, discrete))
    assert_array_equal(PDReliefF()(heart), pdrelieff(X, y, discrete))
    options = dict(k_nearest=4, n_iterations=50, random_state=3,
                   diff="ramp", t_eq=0.05, t_diff=0.2)
    assert_array_equal(DReliefF(clip_negative=False, **options)(heart),
                       drelieff(X, y, discrete, clip_negative=False,
                                **options))
    assert_array_equal(PDReliefF(a=1.5, s=0.2, **options)(heart),
                       pdrelieff(X, y, discrete, a=1.5, s=0.2, **options))


def test_scorers_work_as_orange_scorers(heart):
    attribute = heart.domain.attributes[2]
    assert DReliefF()(heart, attribute) == DReliefF()(heart)[2]
    reduced = SelectBestFeatures(method=PDReliefF(), k=3)(heart)
    assert len(reduced.domain.attributes) == 3
    with pytest.raises(ValueError):
        DReliefF()(Table(path("cpu")))          # numeric class


def test_limits_through_the_scorers(heart):
    assert_array_equal(PDReliefF(s=np.inf)(heart), ReliefF()(heart))
    assert_array_equal(PDReliefF(s=0)(heart), DReliefF()(heart))


def test_exported_and_offered():
    assert {"DReliefF", "PDReliefF"} <= set(package.__all__)
    assert package.DReliefF is DReliefF
    assert METHODS["DReliefF"] is DReliefF and METHODS["PDReliefF"] is PDReliefF
    assert DEFAULT_K["DReliefF"] == DEFAULT_K["PDReliefF"] == 10
    heart = Table(path("heart_disease"))
    assert {"DReliefF", "PDReliefF"} <= set(
        fitting_methods(heart.domain.class_var))
    assert "DReliefF" not in fitting_methods(
        Table(path("cpu")).domain.class_var)
    scorer = make_scorer("PDReliefF", k_nearest=7, n_iterations=20)
    assert isinstance(scorer, PDReliefF)
    assert scorer.k_nearest == 7 and scorer.n_iterations == 20


def test_rank_command(capsys):
    assert main(["rank", "voting", "--method", "PDReliefF", "--k", "5",
                 "--top", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5 and "method PDReliefF" in lines[-1]
    table = Table(path("voting"))
    best = np.argmax(PDReliefF(k_nearest=5)(table))
    assert table.domain.attributes[best].name in lines[1]

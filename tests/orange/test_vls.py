"""The VLS scorer on Orange tables: the core's VLS around the scorer's
arrays, any Orange scorer on the subsets' tables."""
import numpy as np
from numpy.testing import assert_array_equal
from Orange.data import Table
from Orange.preprocess.score import InfoGain

from orangecontrib.relief import VLS, MultiSURF, ReliefF
from orangecontrib.relief.arrays import table_arrays
from orangecontrib.relief.core.variants import surf
from orangecontrib.relief.core.variants.vls import vls_relieff, vls_rounds
from orangecontrib.relief.datasets import path


def test_default_is_the_registrys_vls_relieff():
    heart = Table(path("heart_disease"))
    arrays = table_arrays(heart, "VLS")
    keep = ~np.isnan(arrays.y)
    assert_array_equal(VLS(subset_size=6)(heart), vls_relieff(
        arrays.X[keep], arrays.y[keep], arrays.discrete, subset_size=6))


def test_around_another_scorer_of_the_addon():
    heart = Table(path("heart_disease"))
    arrays = table_arrays(heart, "VLS")
    keep = ~np.isnan(arrays.y)
    result = VLS(MultiSURF(), subset_size=4, random_state=2).result(heart)
    X, y = arrays.X[keep], arrays.y[keep]
    for subset in result.subsets[:3]:
        weights = surf.multisurf(X[:, subset], y, arrays.discrete[subset])
        assert np.all(result.scores[subset] >= weights)


def test_around_an_orange_scorer_on_the_subsets_tables():
    heart = Table(path("heart_disease"))
    scores = VLS(InfoGain(), subset_size=4)(heart)
    expected = vls_rounds(
        lambda columns, _: InfoGain()(heart.transform(_domain(heart, columns))),
        len(heart.domain.attributes), subset_size=4).scores
    assert_array_equal(scores, expected)
    # an attribute's information gain does not depend on the others
    assert_array_equal(scores, InfoGain()(heart))


def _domain(data, columns):
    from Orange.data import Domain

    domain = data.domain
    return Domain([domain.attributes[c] for c in columns], domain.class_vars,
                  domain.metas)


def test_repr_and_fits():
    scorer = VLS(ReliefF(k_nearest=5), subset_size=8)
    assert repr(scorer) == "VLS(scorer=ReliefF(k_nearest=5), subset_size=8)"
    heart = Table(path("heart_disease"))
    assert scorer.fits(heart.domain.class_var)
    assert not scorer.fits(Table(path("cpu")).domain.class_var)

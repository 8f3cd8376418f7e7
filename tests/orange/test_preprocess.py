"""Selection by weights as an Orange preprocessor: its criteria, and that
inside cross-validation it does not leak (random data stay at chance)."""
import numpy as np
import pytest
from numpy.testing import assert_array_equal
from Orange.classification import KNNLearner
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.evaluation import CA, CrossValidation
from Orange.preprocess.score import InfoGain

from orangecontrib.relief import (ReliefF, SelectReliefFeatures,
                                  Significance)


def names(data):
    return [var.name for var in data.domain.attributes]


def test_each_criterion_keeps_what_it_says(heart):
    weights = ReliefF()(heart)
    order = list(np.argsort(-weights, kind="stable"))
    attributes = heart.domain.attributes
    in_domain_order = [a.name for a in attributes]

    def kept(indices):
        return [name for name in in_domain_order
                if name in {attributes[i].name for i in indices}]

    significant = Significance(ReliefF(), test="stir").result(heart)
    chosen = np.flatnonzero(significant.significant)
    for selector, expected in (
            (SelectReliefFeatures(k=4), kept(order[:4])),
            (SelectReliefFeatures(fraction=0.5), kept(order[:6])),
            (SelectReliefFeatures(threshold=0.05),
             kept(np.flatnonzero(weights > 0.05))),
            (SelectReliefFeatures(), kept(np.flatnonzero(weights > 0))),
            (SelectReliefFeatures(significance="stir"), kept(chosen)),
            (SelectReliefFeatures(significance="stir", k=2),
             kept(sorted(chosen, key=lambda i: -significant.weights[i])[:2]))):
        reduced = selector(heart)
        assert names(reduced) == expected, selector.criteria
        assert reduced.domain.class_vars == heart.domain.class_vars
        assert reduced.domain.metas == heart.domain.metas


def test_with_nothing_passing_the_best_is_kept(heart):
    best = heart.domain.attributes[int(np.argmax(ReliefF()(heart)))].name
    assert names(SelectReliefFeatures(threshold=10)(heart)) == [best]


def test_any_orange_scorer_selects(heart):
    scores = InfoGain()(heart)
    best = np.argsort(-scores, kind="stable")[:3]
    assert set(names(SelectReliefFeatures(InfoGain(), k=3)(heart))) == {
        heart.domain.attributes[i].name for i in best}


@pytest.mark.parametrize("options, message", [
    (dict(k=3, fraction=0.2), "not both"), (dict(k=0), "k must be"),
    (dict(fraction=0), "fraction must be"), (dict(fraction=1.5), "fraction"),
    (dict(threshold=np.nan), "threshold must be"),
    (dict(significance="t-test"), "significance must be"),
    (dict(significance="stir", alpha=2), "alpha must be"),
    (dict(k=3, alpha=0.1), "alpha needs significance"),
    (dict(adjustment="holm"), "adjustment needs significance"),
    (dict(n_permutations=99), "n_permutations needs significance"),
    (dict(significance="stir", n_permutations=99),
     "n_permutations needs test='permutation'"),
    (dict(k=3, r_compatible=True), "r_compatible needs significance"),
    (dict(significance="permutation", r_compatible=True),
     "r_compatible needs test='stir'"),
    (dict(scorer="ReliefF"), "takes an Orange scorer")])
def test_bad_criteria_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        SelectReliefFeatures(**options)


def test_attributes_without_a_weight_are_never_kept(heart):
    """NaN (or -inf, Orange's scripted contract) weighs nothing: however
    many are asked for, those are not kept; with none weighed at all there
    is nothing to select by."""
    selector = SelectReliefFeatures(k=100)
    weights = np.arange(5.0)
    weights[[1, 3]] = np.nan, -np.inf
    assert_array_equal(selector.choose(weights), [4, 2, 0])
    with pytest.raises(ValueError, match="no attribute a weight"):
        selector.choose([np.nan, -np.inf])


def noise(seed, n=100, n_attributes=500):
    """n instances of 500 noise attributes and a random class."""
    rng = np.random.default_rng(seed)
    domain = Domain([ContinuousVariable(f"noise{i}")
                     for i in range(n_attributes)],
                    DiscreteVariable("class", values=("a", "b")))
    return Table.from_numpy(domain, rng.normal(size=(n, n_attributes)),
                            rng.integers(0, 2, n).astype(float))


def test_selection_inside_cross_validation_does_not_leak():
    """Six data sets of noise: a kNN with the ten best attributes by
    ReliefF, chosen inside each training fold (the Preprocess given to the
    cross-validation, as Test & Score's Preprocessor input does), is right
    about half of the time; with the ten chosen first on all the data, the
    test folds chose the attributes, and it seems to learn."""
    selector = SelectReliefFeatures(ReliefF(), k=10)
    learner = KNNLearner(n_neighbors=7)
    cross_validation = CrossValidation(k=5, random_state=0)
    inside, outside = [], []
    for seed in range(6):
        data = noise(seed)
        inside.append(CA(cross_validation(data, [learner],
                                          preprocessor=selector))[0])
        outside.append(CA(cross_validation(selector(data), [learner]))[0])
    shown = (f"accuracy {np.mean(inside):.2f} selecting inside the folds, "
             f"{np.mean(outside):.2f} selecting first")
    assert abs(np.mean(inside) - 0.5) < 0.06, shown
    assert np.mean(outside) > 0.6, shown
    assert np.mean(outside) - np.mean(inside) > 0.12, shown

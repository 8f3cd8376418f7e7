"""STIR through every entry: each variant whose neighbour pairs STIR
tests (its registry entry's ``stir``) gives, through the core's one pass
(``significance.stir_and_weights``), the Orange ``Significance``,
``orange-relief rank --significance stir`` and its scikit-learn selector,
the p-values of the core's ``significance.stir`` on the same data and
options, and the weights of the variant itself (those of the test's own
pass to the rounding of the order in which the references are summed)."""
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from orangecontrib.relief import Significance
from orangecontrib.relief import sklearn as selectors
from orangecontrib.relief.arrays import table_arrays
from orangecontrib.relief.cli import main
from orangecontrib.relief.cli.rank import format_ranking
from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.significance import SignificanceResult
from orangecontrib.relief.variants import make_scorer
from tests.variants import each_stir_variant, taken

#: the options of each case, as the core names them (a variant gets those
#: it takes), and the command line's options of them
CASES = {
    "defaults": {},
    "options": dict(n_iterations=40, random_state=7, diff="squared",
                    k_nearest=5, convention="scikit-rebate"),
}
FLAGS = {"n_iterations": "--iterations", "random_state": "--seed",
         "diff": "--diff", "k_nearest": "--k", "convention": "--convention"}


def cli_table(capsys, variant, options, n_attributes):
    """The table `orange-relief rank --significance stir` prints."""
    argv = ["rank", "heart_disease", "--method", variant.name,
            "--significance", "stir"]
    for name, value in options.items():
        argv += [FLAGS[name], str(value)]
    assert main(argv) == 0
    return capsys.readouterr().out.splitlines()[:1 + n_attributes]


@each_stir_variant
@pytest.mark.parametrize("case", CASES)
def test_every_entry_gives_the_cores_stir(heart, capsys, variant, case):
    options = taken(variant, **CASES[case])
    X, y, discrete, _ = table_arrays(heart, variant.name)
    expected = significance.stir(X, y, discrete,
                                 neighbourhood=variant.stir, **options)
    weights = variant.weights(X, y, discrete, **options)
    # the core: the weights of the test's pass are the variant's own
    # (ReliefF's pairs are summed apart from its weights)
    together, result = significance.stir_and_weights(
        X, y, discrete, neighbourhood=variant.stir, **options)
    assert_array_equal(result.p, expected.p)
    if together is not None:
        assert_allclose(together, weights, rtol=0, atol=1e-15)
    # Orange
    tester = Significance(make_scorer(variant.name, **options))
    scores, tested = tester.scores_and_result(heart)
    assert_array_equal(tested.p, expected.p)
    assert_allclose(tester.scorer(heart) if scores is None else scores,
                    weights, rtol=0, atol=1e-15)
    # scikit-learn
    selector = getattr(selectors, variant.selector)(
        significance="stir", nominal_features=discrete, **options).fit(X, y)
    assert_array_equal(selector.pvalues_, expected.p)
    assert_array_equal(selector.feature_importances_, weights)
    # the command line
    names = [a.name for a in heart.domain.attributes]
    q = significance.adjust(expected.p)
    printed = format_ranking(names, weights, tested=SignificanceResult(
        weights, expected.p, q, q <= 0.05, 0.05, "stir", "bh", None))
    assert cli_table(capsys, variant, options, len(names)) == printed

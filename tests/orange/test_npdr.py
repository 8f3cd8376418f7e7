"""NPDR above the core: its Orange scorer (covariates by name, among the
attributes or the metas), its own significance test, the command line
and the scikit-learn selector, each on the confounder of
tests/core/test_npdr.py."""
import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief import NPDR, MultiSURF, SelectReliefFeatures
from orangecontrib.relief.cli import main
from orangecontrib.relief.core.errors import ConvergenceWarning
from orangecontrib.relief.core.variants.npdr import npdr
from orangecontrib.relief.scorers import convergence_note
from orangecontrib.relief.significance import Significance
from orangecontrib.relief.sklearn import NPDR as NPDRSelector
from tests.core.test_npdr import confounded

N_ATTRIBUTES = 6


def confounded_table(sex_as_attribute=False):
    """The confounded data with the confounder as a meta `sex` (or as the
    last attribute)."""
    X, y, confounder = confounded(0, a=N_ATTRIBUTES)
    attributes = [ContinuousVariable(f"x{a}") for a in range(N_ATTRIBUTES)]
    sex = DiscreteVariable("sex", values=("f", "m"))
    class_var = DiscreteVariable("y", values=("0", "1"))
    if sex_as_attribute:
        return Table.from_numpy(Domain(attributes + [sex], class_var),
                                np.column_stack([X, confounder]), y)
    return Table.from_numpy(Domain(attributes, class_var, [sex]), X, y,
                            confounder[:, None].astype(float))


def separated_table():
    """Two classes, the attribute `sep` the class itself (its diff is 1
    on the misses, 0 on the hits: NPDR's logistic fit of it does not
    converge) and noise enough for MultiSURF's neighbours to hold misses
    too."""
    y = np.repeat([0.0, 1.0], 20)
    domain = Domain([ContinuousVariable("sep")]
                    + [ContinuousVariable(f"noise{i}") for i in range(20)],
                    DiscreteVariable("c", values=("a", "b")))
    noise = np.random.default_rng(0).random((40, 20))
    return Table.from_numpy(domain, np.column_stack([y, noise]), y)


def test_fits_that_do_not_converge_are_named_without_the_warning():
    """A worker thread cannot catch the warning: the note of the result
    names the attribute as the warning does, and so does the note of
    NPDR's own p-values."""
    table = separated_table()
    with pytest.warns(ConvergenceWarning) as caught:
        result = NPDR().result(table)
    note = convergence_note(result, table)
    assert note == str(caught[0].message)
    assert "for attribute 'sep':" in note
    with pytest.warns(ConvergenceWarning):
        tested = Significance(NPDR(), test="regression").result(table)
    assert tested.note == note
    converged = confounded_table()
    assert convergence_note(NPDR().result(converged), converged) is None


@pytest.mark.parametrize("sex_as_attribute", [False, True])
def test_the_scorer_adjusts_for_a_covariate_by_name(sex_as_attribute):
    table = confounded_table(sex_as_attribute)
    X, y, confounder = confounded(0, a=N_ATTRIBUTES)
    alone = NPDR().result(confounded_table())  # sex in no distance
    adjusted = NPDR(covariates=["sex"]).result(table)
    core = npdr(X, y, covariates=confounder, covariate_discrete=[True])
    assert alone.q[0] < 1e-6 < 0.05 < adjusted.q[0]
    assert_allclose(adjusted.p[:N_ATTRIBUTES], core.p, rtol=1e-12)
    assert_allclose(NPDR(covariates=["sex"])(table)[:N_ATTRIBUTES],
                    core.coefficient, rtol=1e-12)
    if sex_as_attribute:  # a covariate is not scored
        assert np.isnan(adjusted.coefficient[-1])
        assert not adjusted.converged[-1]


def test_the_significance_path_gives_npdrs_own_p_values():
    table = confounded_table()
    tested = Significance(NPDR(covariates=["sex"]), test="regression",
                          adjustment="holm").result(table)
    result = NPDR(covariates=["sex"], adjustment="holm").result(table)
    assert_array_equal(tested.p, result.p)
    assert_array_equal(tested.q, result.q)
    assert_array_equal(tested.weights, result.coefficient)
    # and the scores it gives with them are the scorer's own
    tester = Significance(NPDR(covariates=["sex"]), test="regression")
    scores, _ = tester.scores_and_result(table)
    assert tester.scores_too
    assert_array_equal(scores, NPDR(covariates=["sex"])(table))


@pytest.mark.parametrize("make, message", [
    (lambda: Significance(MultiSURF(), test="regression"), "NPDR's own fits"),
    (lambda: Significance(NPDR(), test="stir"), "STIR tests"),
    (lambda: NPDR(covariates=["age"])(confounded_table()),
     "covariates names 'age', which is neither an attribute nor a "
     "meta"),
    (lambda: NPDR(n_iterations=10)(confounded_table()),
     "NPDR weighs every instance"),
    # covariates are names, each given once, of columns that can adjust
    (lambda: NPDR(covariates="sex")(confounded_table()),
     r"got the string 'sex'; for one column write \['sex'\]"),
    (lambda: NPDR(covariates=["sex", "sex"])(confounded_table()),
     "names 'sex' twice"),
    (lambda: NPDR(covariates=["sex", ""])(confounded_table()),
     "'' is not a name"),
    (lambda: NPDR(covariates=[2])(confounded_table()), "2 is not a name"),
    (lambda: NPDR(covariates=["y"])(confounded_table()),
     "covariates names 'y', the class"),
    (lambda: NPDR(covariates=["age", "months"])(with_ages()),
     "covariate 'months' over the neighbour pairs are a linear combination "
     "of those of covariate 'age'"),
    (lambda: NPDR(covariates=["sex", "same"])(with_ages()),
     "The covariate 'same' is constant"),
])
def test_misuse_is_named(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def with_ages():
    """The confounded table with the metas `age`, `months` (its multiple)
    and `same` (constant)."""
    table = confounded_table()
    age = np.random.default_rng(1).random(len(table))
    metas = [ContinuousVariable(name) for name in ("age", "months", "same")]
    domain = Domain(table.domain.attributes, table.domain.class_var,
                    table.domain.metas + tuple(metas))
    return Table.from_numpy(domain, table.X, table.Y, np.column_stack(
        [table.metas, age, 12 * age, np.ones(len(table))]))


def test_a_covariate_is_never_selected():
    """NPDR gives an attribute that is a covariate no weight (NaN): the
    selection keeps it out however many attributes it is asked for."""
    table = confounded_table(sex_as_attribute=True)
    kept = SelectReliefFeatures(NPDR(covariates=["sex"]), k=100)(table)
    assert [var.name for var in kept.domain.attributes] == [
        f"x{a}" for a in range(N_ATTRIBUTES)]


def test_the_command_line_takes_covariates(capsys, tmp_path):
    file = tmp_path / "confounded.tab"
    confounded_table().save(str(file))
    lines = {}
    for covariates in ([], ["--covariates", "sex"]):
        assert main(["rank", str(file), "--method", "NPDR"]
                    + covariates) == 0
        out = capsys.readouterr().out.splitlines()
        lines[bool(covariates)] = next(line for line in out
                                       if line.split()[1:2] == ["x0"])
    assert lines[False].endswith("*") and not lines[True].endswith("*")
    assert main(["rank", str(file), "--method", "ReliefF", "--covariates",
                 "sex"]) == 2
    assert "--covariates adjusts NPDR's fits" in capsys.readouterr().err
    for names, message in (("sex,sex", "--covariates names 'sex' twice"),
                           ("sex,", "--covariates must be a list of "
                                    "distinct column names; '' is not"),
                           ("y", "--covariates names 'y', the class")):
        assert main(["rank", str(file), "--method", "NPDR", "--covariates",
                     names]) == 2
        assert message in capsys.readouterr().err


def test_the_selector_takes_covariate_columns():
    X, y, confounder = confounded(0, a=N_ATTRIBUTES)
    with_sex = np.column_stack([X, confounder])
    alone = NPDRSelector(significance="regression").fit(X, y)
    adjusted = NPDRSelector(significance="regression",
                            covariates=[N_ATTRIBUTES],
                            nominal_features=[N_ATTRIBUTES]).fit(with_sex, y)
    assert alone.get_support()[0] and not adjusted.get_support()[0]
    assert np.isnan(adjusted.feature_importances_[N_ATTRIBUTES])
    assert not adjusted.get_support()[N_ATTRIBUTES]
    every = NPDRSelector(covariates=[N_ATTRIBUTES],
                         n_features_to_select=N_ATTRIBUTES + 1).fit(with_sex, y)
    assert not every.get_support()[N_ATTRIBUTES]
    frame = pd.DataFrame(with_sex, columns=[f"x{a}" for a in range(
        N_ATTRIBUTES)] + ["sex"])
    by_name = NPDRSelector(covariates=["sex"], nominal_features=[
        N_ATTRIBUTES]).fit(frame, y)
    assert_array_equal(by_name.feature_importances_,
                       adjusted.feature_importances_)
    by_mask = NPDRSelector(covariates=np.arange(N_ATTRIBUTES + 1) ==
                           N_ATTRIBUTES, nominal_features=[N_ATTRIBUTES])
    assert_array_equal(by_mask.fit(with_sex, y).feature_importances_,
                       adjusted.feature_importances_)
    for covariates, message in (
            ([9], r"column index in 0..6, got 9"),
            ([0.5], r"column index in 0..6, got 0.5"),
            (["sex"], "X has no column names"),
            ("sex", "got the string 'sex'"),
            ([6, 6], "covariates gives column 6 twice")):
        with pytest.raises(ValueError, match=message):
            NPDRSelector(covariates=covariates).fit(with_sex, y)
    with pytest.raises(ValueError, match="'age', which is not a column"):
        NPDRSelector(covariates=["age"]).fit(frame, y)

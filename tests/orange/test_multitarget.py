"""The entry points of several targets: the Orange scorers and their
table of rankings, ``orange-relief rank --class a,b,c`` and the
scikit-learn selectors of a 2-D y, each the core's weights; every
ranking's permutation test and stability."""
import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from sklearn.base import clone

from orangecontrib.relief import SelectReliefFeatures
from orangecontrib.relief import sklearn as selectors
from orangecontrib.relief.cli import main
from orangecontrib.relief.core.variants.multitarget import (relieff_multilabel,
                                                            rrelieff_multitarget)
from orangecontrib.relief.multitarget import (MultiLabelReliefF,
                                              MultiTargetRReliefF,
                                              target_scorer)
from orangecontrib.relief.scorers import ReliefF, RReliefF
from orangecontrib.relief.significance import Significance
from orangecontrib.relief.stability import ranking_stability, target_stability


def arrays(seed=0, n=60):
    rng = np.random.default_rng(seed)
    X = rng.random((n, 4))
    X[:, 3] = rng.integers(0, 3, n)
    numeric = np.c_[X[:, 0] + 0.1 * rng.random(n), X[:, 1] - X[:, 2]]
    labels = np.c_[X[:, 0] > 0.5, X[:, 1] > 0.4, X[:, 3] == 1] * 1.0
    return X, numeric, labels


def table(X, Y, binary):
    attributes = [ContinuousVariable(f"a{i}") for i in range(3)] + [
        DiscreteVariable("colour", values=("red", "green", "blue", "pink"))]
    targets = ([DiscreteVariable(f"label{s}", values=("no", "yes"))
                for s in range(Y.shape[1])] if binary else
               [ContinuousVariable(f"target{s}") for s in range(Y.shape[1])])
    return Table.from_numpy(Domain(attributes, targets), X, Y)


@pytest.mark.parametrize("binary", [False, True])
def test_scorers_give_the_cores_weights(binary):
    X, numeric, labels = arrays()
    Y = labels if binary else numeric
    data = table(X, Y, binary)
    scorer = target_scorer(data.domain.class_vars, k_nearest=5)
    assert isinstance(scorer, MultiLabelReliefF if binary
                      else MultiTargetRReliefF)
    core = (relieff_multilabel if binary else rrelieff_multitarget)(
        X, Y, np.arange(4) == 3, k_nearest=5)
    assert np.array_equal(scorer(data), core.overall)
    assert scorer(data, "a1") == core.overall[1]
    rankings = scorer.target_rankings(data)
    assert [var.name for var in rankings.domain.attributes] == (
        ["overall"] + [var.name for var in data.domain.class_vars])
    assert list(rankings.metas[:, 0]) == ["a0", "a1", "a2", "colour"]
    assert np.array_equal(rankings.X, np.c_[core.overall,
                                            core.per_target.T])


def test_scorers_say_which_targets_and_options_they_need():
    X, numeric, labels = arrays()
    for scorer, data in ((MultiTargetRReliefF, table(X, numeric, False)),
                         (MultiLabelReliefF, table(X, labels, True))):
        with pytest.raises(ValueError, match="^k_nearest must be a positive "
                                             "integer, got 0.$"):
            scorer(k_nearest=0)(data)
    mixed = Table.from_numpy(Domain(
        table(X, numeric, False).domain.attributes,
        [ContinuousVariable("t"), DiscreteVariable("l", values=("0", "1"))]),
        X, np.c_[numeric[:, 0], labels[:, 0]])
    with pytest.raises(ValueError, match="t \\(numeric\\), l \\(2 values"):
        target_scorer(mixed.domain.class_vars)
    with pytest.raises(ValueError, match="two or more binary"):
        MultiLabelReliefF()(mixed)
    with pytest.raises(ValueError, match="two or more numeric"):
        MultiTargetRReliefF()(table(X, labels, True))


def test_clus_missing_rule_reads_each_attributes_values():
    """The Orange scorer gives Clus's rule the number of values the
    domain declares (four colours, one of them never seen)."""
    X, numeric, _ = arrays()
    X[::7, 3] = np.nan
    data = table(X, numeric, False)
    ours = MultiTargetRReliefF(missing="clus", k_nearest=5)(data)
    core = rrelieff_multitarget(X, numeric, np.arange(4) == 3, k_nearest=5,
                                missing="clus", n_values=[0, 0, 0, 4])
    assert np.array_equal(ours, core.overall)


def test_command_line_ranks_by_several_classes(tmp_path, capsys):
    X, numeric, labels = arrays()
    path = tmp_path / "targets.csv"
    names = "a0,a1,a2,a3,t0,t1,l0,l1"
    rows = np.c_[X, numeric, labels]
    path.write_text(names + "\n" + "\n".join(
        ",".join(f"{v:.6g}" for v in row) for row in rows) + "\n")
    assert main(["rank", str(path), "--class", "t0,t1", "--k", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["rank", "attribute", "overall", "t0", "t1"]
    assert "2 targets, method Multi-target RReliefF" in lines[-1]
    assert main(["rank", str(path), "--class", "l0,l1", "--top", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and "Multi-label ReliefF" in lines[-1]
    for argv, message in [
            (["--class", "t0,l0"], "every one numeric"),
            (["--class", "t0,zz"], "--class zz: no such column"),
            (["--class", "t0,t1", "--method", "RReliefF"],
             "--method works with one class")]:
        assert main(["rank", str(path), *argv]) == 2
        errors = [line for line in capsys.readouterr().err.splitlines()
                  if "error:" in line]
        assert len(errors) == 1 and message in errors[0]


@pytest.mark.parametrize("binary", [False, True])
def test_selectors_of_a_2d_y(binary):
    X, numeric, labels = arrays()
    Y = labels if binary else numeric
    selector = (selectors.MultiLabelReliefF if binary
                else selectors.MultiTargetRReliefF)(
        k_nearest=5, nominal_features=[3], n_features_to_select=2)
    selector.fit(X, Y)
    core = (relieff_multilabel if binary else rrelieff_multitarget)(
        X, Y, np.arange(4) == 3, k_nearest=5)
    assert np.array_equal(selector.feature_importances_, core.overall)
    assert np.array_equal(selector.target_importances_, core.per_target)
    assert selector.transform(X).shape == (len(X), 2)
    assert clone(selector).get_params() == selector.get_params()
    with pytest.raises(ValueError, match="needs a 2-D target"):
        clone(selector).fit(X, Y[:, 0])


@pytest.mark.parametrize("binary", [False, True])
def test_the_preprocessor_selects_by_the_overall_weights(binary):
    X, numeric, labels = arrays()
    data = table(X, labels if binary else numeric, binary)
    scorer = (MultiLabelReliefF if binary else MultiTargetRReliefF)()
    best = np.argsort(-scorer(data), kind="stable")[:2]
    selected = SelectReliefFeatures(scorer, k=2)(data)
    assert selected.domain.attributes == tuple(
        data.domain.attributes[i] for i in sorted(best))
    assert selected.domain.class_vars == data.domain.class_vars


def one_target(data, s):
    """`data` with its s-th target as its only class."""
    domain = Domain(data.domain.attributes, data.domain.class_vars[s])
    return Table.from_numpy(domain, data.X, data.Y[:, s])


@pytest.mark.parametrize("binary, single", [
    (False, lambda: RReliefF(k_nearest=5)),
    (True, lambda: ReliefF(k_nearest=5))])
def test_each_ranking_tested_as_its_single_target_method(binary, single):
    """A permutation test permutes the targets' rows together, with the
    generator's permutations of one target: each target's p-values are
    those of the single-target method's test of that target (RReliefF,
    ReliefF of a label), a row without targets left out of both; the
    scorer's own result is the overall ranking's."""
    X, numeric, labels = arrays(seed=3)
    Y = labels if binary else numeric.copy()
    Y[4] = np.nan
    data = table(X, Y, binary)
    scorer = target_scorer(data.domain.class_vars, k_nearest=5)
    tester = Significance(scorer, test="permutation", n_permutations=19,
                          random_state=2)
    results = tester.target_results(data)
    assert list(results) == scorer.ranking_names(data)
    weights = scorer.weights(data)
    assert np.array_equal(results["overall"].weights, weights.overall)
    assert np.array_equal(tester.result(data).p, results["overall"].p)
    for s, var in enumerate(data.domain.class_vars):
        alone = Significance(single(), test="permutation",
                             n_permutations=19, random_state=2).result(
            one_target(data, s))
        assert np.array_equal(results[var.name].weights, alone.weights)
        assert np.array_equal(results[var.name].p, alone.p)
        assert np.array_equal(results[var.name].q, alone.q)


def test_each_rankings_stability_scores_the_resamples_once():
    """Every ranking's stability from the same resamples, each scored as
    a table of its rows: a target's scores are RReliefF's of that target
    on the resample; through ``ranking_stability`` the overall one."""
    X, numeric, _ = arrays(seed=4)
    data = table(X, numeric, False)
    scorer = MultiTargetRReliefF(k_nearest=5)
    results = target_stability(data, scorer, n_resamples=4, top_k=2,
                               random_state=1)
    assert list(results) == ["overall", "target0", "target1"]
    for s in range(2):
        stable = results[f"target{s}"]
        expected = [RReliefF(k_nearest=5)(one_target(data, s)[rows])
                    for rows in stable.resamples]
        assert np.array_equal(stable.scores, expected)
    assert np.array_equal(ranking_stability(
        data, scorer, n_resamples=4, top_k=2, random_state=1).scores,
        results["overall"].scores)


@pytest.mark.parametrize("call, message", [
    (lambda: Significance(MultiTargetRReliefF(), test="stir"),
     "only test='permutation' tests .*STIR compares"),
    (lambda: Significance(MultiLabelReliefF(), test="regression"),
     "only test='permutation' tests .*NPDR's, of one target"),
    (lambda: Significance(ReliefF(), test="permutation").target_results(
        table(*arrays()[::2], True)), "target_results tests the rankings"),
    (lambda: target_stability(table(*arrays()[:2], False), ReliefF()),
     "target_stability summarises the rankings"),
    (lambda: target_stability(table(*arrays()[:2], False),
                              MultiLabelReliefF()), "two or more binary")])
def test_tests_that_cannot_take_several_targets_say_why(call, message):
    with pytest.raises(ValueError, match=message) as error:
        call()
    assert "\n" not in str(error.value)


def test_command_line_tests_and_resamples_every_ranking(tmp_path, capsys):
    X, numeric, _ = arrays()
    path = tmp_path / "targets.csv"
    path.write_text("a0,a1,a2,a3,t0,t1\n" + "\n".join(
        ",".join(f"{v:.6g}" for v in row) for row in np.c_[X, numeric]))
    for options, summary in [
            (["--significance", "permutation", "--permutations", "19"],
             "attributes significant (*): permutation test"),
            (["--stability", "3", "--top", "2"],
             "stability of the best 2 over 3 bootstrap samples")]:
        assert main(["rank", str(path), "--class", "t0,t1", "--k", "5",
                     *options]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert [line for line in lines if "ranking" in line] == [
            "overall ranking", "ranking by t0", "ranking by t1"]
        assert sum(summary in line for line in lines) == 3
    for option, message in [("stir", "--significance stir cannot test "
                                     "several targets (STIR compares"),
                            ("regression", "--significance regression "
                                           "cannot test several targets")]:
        assert main(["rank", str(path), "--class", "t0,t1",
                     "--significance", option]) == 2
        errors = [line for line in capsys.readouterr().err.splitlines()
                  if "error:" in line]
        assert len(errors) == 1 and message in errors[0]

"""reGAIN, EpistasisRank and EpistasisKatz of an Orange table
(orangecontrib.relief.regain) and ``orange-relief interactions --map
regain`` (orangecontrib.relief.cli.regain)."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief.cli import main
from orangecontrib.relief.core.networks.epistasis_rank import (epistasis_katz,
                                                               epistasis_rank)
from orangecontrib.relief.core.networks.interactions import adjusted
from orangecontrib.relief.core.networks.regain import regain
from orangecontrib.relief.interactions import interactions
from orangecontrib.relief.regain import (ranking_table, regain_figure,
                                         regain_network, regain_pairs_table)


def snp_table(seed=0, n=300, noise=4, classes=("case", "control")):
    """Carriers s0, s1 (0, 1) whose XOR is the class, 15 % flipped,
    `noise` random SNPs (0, 1, 2), and a covariate "batch" of three
    values; the class has the values `classes` (the first two used)."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 2, (n, 2)),
                         rng.integers(0, 3, (n, noise))]).astype(float)
    y = ((X[:, 0] != X[:, 1]) ^ (rng.random(n) < 0.15)).astype(float)
    batch = rng.integers(0, 3, n).astype(float)
    domain = Domain(
        [ContinuousVariable(f"s{i}") for i in range(2)]
        + [ContinuousVariable(f"n{i}") for i in range(noise)]
        + [DiscreteVariable("batch", ("a", "b", "c"))],
        DiscreteVariable("status", classes))
    return Table.from_numpy(domain, np.column_stack([X, batch]), y)


def test_the_table_is_fitted_as_its_arrays():
    """The network is the core's on the table's columns, a three-valued
    covariate entering as two indicators, and its ranks are the core's."""
    data = snp_table()
    found = regain_network(data, covariates=["batch"])
    batch = data.get_column("batch")
    expected = regain(data.X[:, :6], data.Y,
                      np.column_stack([batch == 1, batch == 2]))
    assert [var.name for var in found.variables] == [
        "s0", "s1", "n0", "n1", "n2", "n3"]
    assert_allclose(found.network.statistic, expected.statistic)
    assert_allclose(found.epistasis_rank, epistasis_rank(expected.statistic))
    assert_allclose(found.epistasis_katz, epistasis_katz(expected.statistic))
    assert_allclose(found.q, adjusted(expected.p, "bh"))
    assert found.notes == ()


def test_the_two_values_present_are_the_classes():
    """A class of three values of which two occur is fitted as those two
    (the later one the event), as the same data with two values."""
    two = snp_table()
    three = snp_table(classes=("case", "other", "control"))
    with three.unlocked(three.Y):
        three.Y[:] = np.where(two.Y == 1, 2, 0)
    assert_allclose(regain_network(three).network.statistic,
                    regain_network(two).network.statistic)


def test_tables_of_the_pairs_and_the_ranking(tmp_path):
    found = regain_network(snp_table(), attributes=["n0", "s1", "s0"])
    assert [var.name for var in found.variables] == ["n0", "s1", "s0"]
    pairs = regain_pairs_table(found)
    assert len(pairs) == 3
    assert {pairs.metas[0, 0], pairs.metas[0, 1]} == {"s0", "s1"}
    assert (np.diff(np.abs(pairs.get_column("statistic"))) <= 0).all()
    assert pairs.get_column("q")[0] < 1e-3
    ranking = ranking_table(found)
    assert_array_equal(np.abs(ranking.get_column("EpistasisRank")),
                       np.sort(np.abs(found.epistasis_rank))[::-1])
    assert_allclose(ranking.get_column("main effect")[
        list(ranking.get_column("attribute")).index("s0")],
        found.network.statistic[2, 2])
    assert regain_figure(found, tmp_path / "g.png") == tmp_path / "g.png"
    assert (tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"


def test_a_pair_without_a_fit_is_named_and_not_ranked():
    data = snp_table(noise=1)
    data = data.transform(Domain(
        data.domain.attributes[:3] + (ContinuousVariable("copy"),),
        data.domain.class_var))
    with data.unlocked():
        data.X[:, 3] = 2 * data.X[:, 2]
    found = regain_network(data)
    assert np.isnan(found.network.statistic[2, 3])
    assert np.isnan(found.epistasis_rank).all()
    statistics = regain_pairs_table(found).get_column("statistic")
    assert np.isnan(statistics[-1]) and np.isfinite(statistics[:-1]).all()
    assert found.notes == ("no fit (the design is rank deficient): n0 x "
                           "copy; EpistasisRank and EpistasisKatz need every "
                           "fit",)


@pytest.mark.parametrize("change, message", [
    (dict(attributes=["s0"]), "needs at least two; got 1"),
    (dict(attributes=["s0", "batch"], covariates=["batch"]),
     "both fitted and a covariate"),
    (dict(covariates=["age"]), "Covariate 'age' is not an attribute"),
    (dict(constant=True), "attribute 'n0' is constant"),
    (dict(classes=3), "the class 'status' has 3 values")])
def test_bad_input_is_named(change, message):
    data = snp_table(classes=("case", "control", "other"))
    with data.unlocked():
        if change.pop("constant", False):
            data.X[:, 2] = 1
        if change.pop("classes", False):
            data.Y[:3] = 2
    with pytest.raises(ValueError, match=message):
        regain_network(data, **change)


def run(capsys, *argv):
    """Run the CLI; return (exit code, stdout lines, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_the_command_prints_pairs_and_ranking(capsys, tmp_path):
    data = tmp_path / "snps.tab"
    snp_table().save(str(data))
    figure = tmp_path / "g.png"
    code, lines, _ = run(capsys, "interactions", str(data), "--map", "regain",
                         "--covariates", "batch", "--pairs", "2",
                         "--figure", str(figure))
    assert code == 0
    assert lines[0].split() == ["rank", "attribute", "1", "attribute", "2",
                                "z", "coefficient", "p", "q"]
    assert lines[1].split()[1:3] in (["s0", "s1"], ["s1", "s0"])
    assert lines[1].endswith("*") and lines[3] == ""
    assert lines[4].split()[1:] == ["attribute", "EpistasisRank",
                                    "EpistasisKatz", "main", "z"]
    assert len(lines) == 9
    assert "reGAIN (logistic with the main effects), 6 of 7 attributes, " \
           "15 pairs, covariates batch" in lines[-2]
    assert lines[-1] == f"figure: {figure}"


def test_the_command_fits_the_best_of_many_by_relief(capsys):
    """More attributes than --top: the best by ReliefF's weights, those
    of the Relief map."""
    code, lines, _ = run(capsys, "interactions", "heart_disease", "--map",
                         "regain", "--top", "4", "--no-figure")
    assert code == 0 and "4 of 13 attributes, 6 pairs" in lines[-1]
    ranked = lines[lines.index("") + 2:-1]
    best = interactions(Table("heart_disease"), top_k=4, test=None)
    assert len(ranked) == 4
    assert all(any(f"  {var.name}  " in line for line in ranked)
               for var in best.variables)


@pytest.mark.parametrize("argv, message", [
    (["wine", "--map", "regain"], "the class 'Wine' has 3 values"),
    (["--map", "regain", "--top", "1"], "--top 1: reGAIN fits pairs of the "
                                        "13 attributes; give between 2"),
    (["--map", "regain", "--covariates", "age", "--top", "13"],
     "of the 12 attributes that are not covariates"),
    (["--map", "regain", "--test", "t"], "--test needs the Relief map"),
    (["--map", "regain", "--seed", "1"], "--seed needs the Relief map"),
    (["--covariates", "age"], "--covariates needs --map regain"),
    (["--no-main-effects"], "--no-main-effects needs --map regain"),
    (["--map", "regain", "--covariates", "weight"],
     "Covariate 'weight' is not an attribute")])
def test_bad_input_is_one_line(capsys, argv, message):
    code, lines, err = run(capsys, "interactions", "--no-figure", *argv)
    assert code == 2 and not lines
    assert message in err and len(err.splitlines()) == 1


def test_a_constant_or_single_attribute_is_one_line(capsys, tmp_path):
    data = snp_table(noise=1)
    with data.unlocked():
        data.X[:, 2] = 1
    data.save(str(tmp_path / "constant.tab"))
    data.transform(Domain(data.domain.attributes[:1],
                          data.domain.class_var)).save(
        str(tmp_path / "one.tab"))
    for name, message in (("constant", "attribute 'n0' is constant"),
                          ("one", "needs at least two; got 1")):
        code, lines, err = run(capsys, "interactions",
                               str(tmp_path / f"{name}.tab"), "--map",
                               "regain", "--no-figure")
        assert code == 2 and not lines
        assert message in err and len(err.splitlines()) == 1

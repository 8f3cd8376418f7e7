"""The interaction map of an Orange table (orangecontrib.relief.interactions)
and ``orange-relief interactions`` (orangecontrib.relief.cli.interactions)."""
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from Orange.data import DiscreteVariable, Domain, Table

from orangecontrib.relief.cli import main
from orangecontrib.relief.core.networks.interactions import interaction_map
from orangecontrib.relief.interactions import (heat_map_figure,
                                               interactions, pairs_table)


def xor_table(seed=0, n=300, noise=6):
    """Bits b0, b1 whose XOR is the class, and `noise` random bits."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, 2 + noise)).astype(float)
    y = X[:, 0].astype(int) ^ X[:, 1].astype(int)
    bit = ("0", "1")
    domain = Domain([DiscreteVariable(f"b{i}", bit) for i in range(2)]
                    + [DiscreteVariable(f"n{i}", bit) for i in range(noise)],
                    DiscreteVariable("xor", bit))
    return Table.from_numpy(domain, X, y)


def test_the_table_is_mapped_as_its_arrays():
    data = xor_table()
    found = interactions(data, top_k=5)
    expected = interaction_map(data.X, data.Y, np.ones(8, bool), top_k=5)
    assert_array_equal(found.map.attributes, expected.attributes)
    assert_allclose(found.map.interaction, expected.interaction)
    assert [var.name for var in found.variables] == [
        data.domain.attributes[i].name for i in expected.attributes]


def test_the_permutation_test_reaches_the_core():
    data = xor_table(n=120, noise=3)
    options = dict(top_k=4, test="permutation", n_permutations=30,
                   random_state=4)
    found = interactions(data, **options)
    expected = interaction_map(data.X, data.Y, np.ones(5, bool), **options)
    assert_array_equal(found.map.p, expected.p)
    assert found.map.test == "permutation" and found.map.n_permutations == 30
    assert np.isnan(pairs_table(found).get_column("t")).all()


def test_the_pairs_table_puts_the_xor_pair_first():
    found = interactions(xor_table(), top_k=6)
    table = pairs_table(found)
    assert len(table) == 6 * 5 // 2
    assert {table.metas[0, 0], table.metas[0, 1]} == {"b0", "b1"}
    strength = np.abs(table.get_column("interaction"))
    assert (np.diff(strength) <= 0).all()
    assert table.get_column("q")[0] < 1e-6


def test_attributes_by_name(tmp_path):
    data = xor_table()
    found = interactions(data, attributes=["n0", data.domain["b1"], "b0"])
    assert [var.name for var in found.variables] == ["n0", "b1", "b0"]
    figure = heat_map_figure(found, tmp_path / "map.png", "xor")
    assert (tmp_path / "map.png").read_bytes()[:4] == b"\x89PNG"
    assert figure == tmp_path / "map.png"
    with pytest.raises(ValueError, match="'xor' is not an attribute"):
        interactions(data, attributes=["b0", "xor"])


def run(capsys, *argv):
    """Run the CLI; return (exit code, stdout lines, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_the_command_prints_the_xor_pair_and_draws_the_map(capsys, tmp_path):
    data = tmp_path / "xor.tab"
    xor_table().save(str(data))
    figure = tmp_path / "map.png"
    code, lines, _ = run(capsys, "interactions", str(data), "--top", "5",
                         "--pairs", "3", "--figure", str(figure))
    assert code == 0
    assert lines[0].split()[:4] == ["rank", "attribute", "1", "attribute"]
    assert lines[1].split()[1:3] in (["b0", "b1"], ["b1", "b0"])
    assert lines[1].endswith("*") and len(lines) == 6
    assert "5 of 8 attributes mapped" in lines[-2]
    assert lines[-1] == f"figure: {figure}"
    assert figure.read_bytes()[:4] == b"\x89PNG"


def test_a_numeric_class_is_mapped_untested(capsys, tmp_path):
    code, lines, _ = run(capsys, "interactions", "cpu", "--top", "4",
                         "--no-figure")
    assert code == 0 and lines[0].split()[-1] == "co-diff."
    assert "4 of 6 attributes mapped" in lines[-1]
    assert not any(tmp_path.iterdir())


def test_the_command_tests_by_permutations(capsys, tmp_path):
    """p and q without a t; the same seed, the same p-values; too few
    permutations for any q below 0.05 say so."""
    data = tmp_path / "xor.tab"
    xor_table(n=150, noise=3).save(str(data))
    argv = ["interactions", str(data), "--top", "4", "--pairs", "2",
            "--no-figure", "--test", "permutation", "--permutations", "99",
            "--seed", "2"]
    code, lines, _ = run(capsys, *argv)
    assert code == 0 and lines[0].split()[-3:] == ["co-diff.", "p", "q"]
    assert lines[1].split()[1:3] in (["b0", "b1"], ["b1", "b0"])
    assert lines[1].endswith("*")
    assert "99 label permutations (seed 2), q by bh" in lines[-1]
    assert run(capsys, *argv)[1][:3] == lines[:3]
    code, lines, _ = run(capsys, *argv[:-4], "--permutations", "5",
                         "--adjust", "holm")
    assert code == 0
    assert "note: with 5 permutations and 6 pairs no q can be below 0.05" \
        in "\n".join(lines)


@pytest.mark.parametrize("argv, message", [
    (["--top", "99"], "--top=99 is more than the 13 attributes"),
    (["cpu", "--test", "t"], "needs a class; the target is numeric"),
    (["--permutations", "50"], "--permutations needs --test permutation"),
    (["--seed", "1"], "--seed needs --test permutation"),
    (["--top", "1"], "at least two attributes")])
def test_bad_input_is_one_line(capsys, argv, message):
    code, lines, err = run(capsys, "interactions", "--no-figure", *argv)
    assert code == 2 and not lines
    assert message in err and len(err.splitlines()) == 1


def test_no_permutations_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["interactions", "heart_disease", "--test", "permutation",
              "--permutations", "0"])
    assert exit_.value.code == 2
    assert "--permutations: must be a positive integer up to 100,000,000, " \
        "not '0'" in capsys.readouterr().err

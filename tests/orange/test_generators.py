"""The Orange tables of the artificial problems
(orangecontrib.relief.generators): relevance flags and roles on the
attributes, types and values, the registry the Data Generator widget
offers."""
import pytest
from numpy.testing import assert_array_equal

from orangecontrib.relief import generators


def test_tables_carry_relevance_flags_and_types():
    table = generators.modulo(80, 3, 2, p=4, seed=1)
    attributes = table.domain.attributes
    assert [v.attributes["relevant"] for v in attributes] == [True] * 3 + [
        False] * 2
    assert [v.attributes["role"] for v in attributes] == (
        ["relevant"] * 3 + ["irrelevant"] * 2)
    assert all(v.is_discrete and v.values == ("0", "1", "2", "3")
               for v in attributes)
    assert table.domain.class_var.values == ("0", "1", "2", "3")
    assert_array_equal(table.Y, table.X[:, :3].sum(axis=1) % 4)
    assert table.attributes["seed"] == 1 and table.name == "ModuloP"
    assert_array_equal(generators.relevant_mask(table.domain),
                       [True] * 3 + [False] * 2)

    numeric = generators.rdg1(40, 3, 1, seed=2)
    assert all(v.is_continuous for v in numeric.domain.attributes)
    assert numeric.attributes["rules"][0].startswith("RULE 0: class 0 := ")


@pytest.mark.parametrize("name", list(generators.GENERATORS))
def test_registry_generates_every_problem(name):
    generator = generators.GENERATORS[name]
    kwargs = dict(n_instances=64, n_relevant=3, n_irrelevant=2, n_classes=2,
                  max_rule_size=5, n_centroids=10, p=3)
    table = generator(seed=0, **kwargs)
    assert len(table) == 64
    flags = generators.relevant_mask(table.domain)
    assert flags.any() and (~flags).any()
    assert generator.description
    again = generator(seed=0, **kwargs)
    assert_array_equal(table.X, again.X)


def test_gametes_table_is_the_core_problem():
    from orangecontrib.relief.core.generators import gametes

    table = generators.gametes(60, 12, seed=5)
    problem = gametes(60, 12, seed=5)
    assert_array_equal(table.X, problem.X)
    assert_array_equal(table.Y, problem.y)
    assert [v.name for v in table.domain.attributes[:3]] == [
        "M0P0", "M0P1", "M1P0"]
    assert generators.relevant_mask(table.domain).tolist() == (
        [True] * 3 + [False] * 9)
    assert table.domain.class_var.values == ("control", "case")

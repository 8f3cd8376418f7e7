"""Fixtures of the Orange-layer tests."""
import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief.datasets import path
from tests.core.conftest import client  # noqa: F401 (the cluster fixture)


@pytest.fixture(scope="module")
def heart():
    """Heart disease: mixed nominal and numeric attributes with missing
    values, two classes."""
    table = Table(path("heart_disease"))
    assert np.isnan(table.X).any()
    assert any(v.is_discrete for v in table.domain.attributes)
    return table


@pytest.fixture
def three_classes():
    """Three numeric attributes, the first shifted by the class; the class
    variable has a fourth value no instance has."""
    rng = np.random.default_rng(0)
    n = 40
    X = rng.normal(size=(n, 3))
    y = np.arange(n) % 3
    X[:, 0] += y
    domain = Domain([ContinuousVariable(f"a{i}") for i in range(3)],
                    DiscreteVariable("cls", values=("x", "y", "z", "unused")))
    return Table.from_numpy(domain, X, y.astype(float))

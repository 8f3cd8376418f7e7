"""The vectorised engine's shortcuts that its results must not show: the
k smallest entries of a row without sorting it (ties to the lower
column, as a stable sort), sums added one term at a time as a compiled
loop adds them, and blocks on threads whose number changes nothing."""
import numpy as np
import pytest

from orangecontrib.relief import core
from orangecontrib.relief.core.variants import surf
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.engines.vectorised import (neighbours, sums,
                                                        threads)
from orangecontrib.relief.core.engines.vectorised.topk import smallest


@pytest.mark.parametrize("values, n, k", [
    ("distinct", 300, 5),
    ("few values", 300, 7),  # ties everywhere
    ("few values", 40, 10),  # too few columns: a plain stable sort
    ("with inf", 200, 3),  # a reference's own entry
])
def test_smallest_is_the_start_of_a_stable_sort(values, n, k):
    rng = np.random.default_rng(n + k)
    dist = (rng.random((25, n)) if values != "few values"
            else rng.integers(0, 3, (25, n)).astype(float))
    if values == "with inf":
        dist[np.arange(25), rng.integers(0, n, 25)] = np.inf
        dist[:, :k + 1] = np.inf
    expected = np.argsort(dist, axis=1, kind="stable")[:, :k]
    np.testing.assert_array_equal(smallest(dist, k), expected)


@pytest.mark.parametrize("shape", [(7, 3), (7, sums.SIDE_BY_SIDE + 1), (0, 4)])
def test_sums_in_order_add_one_term_at_a_time(shape):
    terms = np.random.default_rng(1).standard_normal(shape) * 10.0 ** (
        np.arange(shape[0])[:, None] % 17 - 8)
    expected = np.zeros(shape[1])
    for term in terms:
        expected += term
    np.testing.assert_array_equal(sums.in_order(terms, 0), expected)
    np.testing.assert_array_equal(sums.in_order(terms.T, 1), expected)


def test_the_number_of_threads_changes_no_weight(monkeypatch):
    rng = np.random.default_rng(5)
    X = rng.random((400, 9))
    X[rng.random(X.shape) < 0.05] = np.nan
    y = rng.integers(0, 3, 400).astype(float)
    monkeypatch.setattr(neighbours, "SHARED_WORK", 0)  # threads at any size
    results = []
    for count in ("1", "3"):
        monkeypatch.setenv(threads.VARIABLE, count)
        with forced("vectorised"):
            results.append(np.concatenate([
                core.relieff(X, y), surf.multisurf(X, y)]))
    np.testing.assert_array_equal(*results)

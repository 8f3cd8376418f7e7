"""RELIEF-D expectations of numeric attributes (core/missing.py) against
their definition: the mean of g(|X - p|) over a group's known values."""
import numpy as np
import pytest

from orangecontrib.relief.core.diffs import DIFF_KINDS
from orangecontrib.relief.core.missing import missing_diff_tables


def transform(d, kind, t_eq, t_diff):
    if kind == "squared":
        return d * d
    if kind == "ramp":
        return np.clip((d - t_eq) / (t_diff - t_eq), 0, 1)
    return d


def brute_force(column, groups, n_groups, kind, t_eq, t_diff):
    """one[g, j] from the definition, sample by sample."""
    known = ~np.isnan(column)
    samples = []
    for g in range(n_groups):
        own = column[known & (groups == g)]
        samples.append(own if len(own) else column[known])
    one = np.empty((n_groups, len(column)))
    for g, sample in enumerate(samples):
        for j, p in enumerate(column):
            others = [p] if known[j] else samples[groups[j]]
            one[g, j] = np.mean([transform(np.abs(sample - q), kind, t_eq,
                                           t_diff).mean() for q in others])
    return one


@pytest.mark.parametrize("kind", ["linear", "squared", "ramp"])
@pytest.mark.parametrize("seed", range(6))
def test_numeric_tables_follow_the_definition(kind, seed):
    rng = np.random.default_rng(seed)
    n, n_groups = rng.integers(5, 60), rng.integers(1, 4)
    # generic values: no diff falls exactly on a ramp threshold
    X = rng.random((n, 3))
    X[:, 0] = np.round(X[:, 0], 1)  # ties among the values
    X[rng.random(X.shape) < 0.3] = np.nan
    X[0] = [0.0, 0.0, 0.0]
    X[1] = [1.0, 1.0, 1.0]
    groups = rng.integers(0, n_groups, n)
    groups[:2] = 0
    if n_groups > 1:  # a class without a known value of column 2
        X[groups == n_groups - 1, 2] = np.nan
    t_eq, t_diff = 0.05, 0.2
    slot, one = missing_diff_tables(X, np.zeros(3, bool), groups, n_groups,
                                    DIFF_KINDS[kind], t_eq, t_diff)
    for col in range(3):
        if slot[col] >= 0:
            np.testing.assert_allclose(
                one[slot[col]],
                brute_force(X[:, col], groups, n_groups, kind, t_eq, t_diff),
                atol=1e-12)

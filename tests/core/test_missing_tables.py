"""RELIEF-D tables (Prat & Belanche 2006, eq. 2.5) of both engines
(core/engines/compiled/missing.py and core/engines/vectorised/missing.py)
against their definition:
for a numeric attribute the mean of g(|X - p|) over a group's known values,
for a nominal one 1 - P(value | group)."""
import numpy as np
import pytest

from orangecontrib.relief.core.engines.compiled import missing
from orangecontrib.relief.core.tables import DIFF_KINDS
from orangecontrib.relief.core.engines.vectorised import missing as vectorised
from tests.variants import rng_of

#: missing_diff_tables of the compiled and of the vectorised engine
TABLE_BUILDERS = pytest.mark.parametrize(
    "missing_diff_tables",
    [missing.missing_diff_tables, vectorised.missing_diff_tables],
    ids=["compiled", "vectorised"])


def transform(d, kind, t_eq, t_diff):
    if kind == "squared":
        return d * d
    if kind == "ramp":
        return np.clip((d - t_eq) / (t_diff - t_eq), 0, 1)
    return d


def brute_force(column, groups, n_groups, kind, t_eq, t_diff):
    """relief_d[g, j] from the definition, sample by sample."""
    known = ~np.isnan(column)
    samples = []
    for g in range(n_groups):
        own = column[known & (groups == g)]
        samples.append(own if len(own) else column[known])
    relief_d = np.empty((n_groups, len(column)))
    for g, sample in enumerate(samples):
        for j, p in enumerate(column):
            others = [p] if known[j] else samples[groups[j]]
            relief_d[g, j] = np.mean([
                transform(np.abs(sample - q), kind, t_eq, t_diff).mean()
                for q in others])
    return relief_d


#: name -> (number of groups, whether the last row's values are known):
#: a table must cover its first and its last row, known or missing
CASES = {f"{n_groups} group{'s' * (n_groups > 1)}, last row {last}":
         (n_groups, last == "known")
         for n_groups in (1, 2, 3) for last in ("known", "missing")}


def groups_of(rng, n, n_groups, last_known):
    """Group codes of n rows, rows 0 and 1 and (if `last_known`) the last
    in group 0, which keeps known values."""
    groups = rng.integers(0, n_groups, n)
    groups[:2] = 0
    if last_known:
        groups[-1] = 0
    return groups


@TABLE_BUILDERS
@pytest.mark.parametrize("kind", ["linear", "squared", "ramp"])
@pytest.mark.parametrize("case", CASES)
def test_numeric_tables_follow_the_definition(missing_diff_tables, kind,
                                              case):
    n_groups, last_known = CASES[case]
    rng = rng_of(case)
    n = rng.integers(5, 60)
    # generic values: no diff falls exactly on a ramp threshold
    X = rng.random((n, 3))
    X[:, 0] = np.round(X[:, 0], 1)  # ties among the values
    X[rng.random(X.shape) < 0.3] = np.nan
    X[0] = [0.0, 0.0, 0.0]
    X[1] = [1.0, 1.0, 1.0]
    X[-1] = rng.random(3) if last_known else np.nan
    groups = groups_of(rng, n, n_groups, last_known)
    if n_groups > 1:  # a class without a known value of column 2
        X[groups == n_groups - 1, 2] = np.nan
    t_eq, t_diff = 0.05, 0.2
    slot, relief_d = missing_diff_tables(X, np.zeros(3, bool), groups,
                                         n_groups, DIFF_KINDS[kind], t_eq,
                                         t_diff)
    for col in range(3):
        if slot[col] >= 0:
            np.testing.assert_allclose(
                relief_d[col],
                brute_force(X[:, col], groups, n_groups, kind, t_eq, t_diff),
                atol=1e-12)


@TABLE_BUILDERS
@pytest.mark.parametrize("kind", ["linear", "squared", "ramp"])
def test_tables_do_not_depend_on_the_order_of_the_rows(missing_diff_tables,
                                                       kind):
    """Equal values of different groups, and rows given in another order,
    give the same tables to the bit: a near tie between two distances
    must not be decided by the order in which the rows came."""
    rng = rng_of("tables in any order", kind)
    n, n_groups = 60, 3
    X = np.round(rng.random((n, 4)) * 4) / 4  # many equal values
    X[rng.random(X.shape) < 0.2] = np.nan
    groups = rng.integers(0, n_groups, n)
    order = rng.permutation(n)
    given, permuted = (
        missing_diff_tables(X[rows], np.zeros(4, bool), groups[rows],
                            n_groups, DIFF_KINDS[kind], 0.1, 0.6)[1]
        for rows in (np.arange(n), order))
    assert given.shape == (4, n_groups, n)
    np.testing.assert_array_equal(permuted, given[..., order])


def test_values_closer_than_the_sort_keys_tell_apart_come_out_sorted():
    """The sort keys give up the lowest bits of a value to the row number;
    values that differ only there must still come out in order."""
    n = 300
    ulps = np.arange(n)[::-1] % 7  # later rows smaller, many near ties
    column = 0.5 + ulps * np.spacing(0.5)
    column[::11] = np.nan
    column[5] = -0.0  # negative zero sorts with zero
    column[6] = 0.0
    index_bits = (n - 1).bit_length()
    keys = missing._sort_keys(column[None, :], np.array([0]), index_bits)
    keys.sort(axis=1)
    n_known = int((~np.isnan(column)).sum())
    order, s = missing._sorted_known(column, keys[0], n_known, index_bits)
    known = column[~np.isnan(column)]
    assert sorted(order) == list(np.flatnonzero(~np.isnan(column)))
    np.testing.assert_array_equal(s, np.sort(known))
    np.testing.assert_array_equal(column[order], s)
    # the keys alone would not have sorted them: the test needs the fix-up
    rows = (keys[0, :n_known] & np.uint64((1 << index_bits) - 1)).astype(int)
    assert (np.diff(column[rows]) < 0).any()


@TABLE_BUILDERS
@pytest.mark.parametrize("case", CASES)
def test_nominal_tables_follow_the_definition(missing_diff_tables, case):
    n_groups, last_known = CASES[case]
    rng = rng_of(case)
    n = rng.integers(5, 60)
    column = rng.integers(0, 4, n).astype(float)
    column[rng.random(n) < 0.3] = np.nan
    column[0] = 1.0
    column[-1] = 2.0 if last_known else np.nan
    groups = groups_of(rng, n, n_groups, last_known)
    if n_groups > 1:  # a class without a known value
        column[groups == n_groups - 1] = np.nan
    X = np.column_stack([column, np.zeros(n)])
    slot, relief_d = missing_diff_tables(X, np.array([True, True]), groups,
                                         n_groups, DIFF_KINDS["linear"], 0.05,
                                         0.2)
    known = ~np.isnan(column)

    def probs(g):
        sample = column[known & (groups == g)]
        sample = sample if len(sample) else column[known]
        return np.array([(sample == v).mean() for v in range(4)])

    for g in range(n_groups):
        for j in range(n):
            expected = (1 - probs(g) @ probs(groups[j]) if np.isnan(column[j])
                        else 1 - probs(g)[int(column[j])])
            assert relief_d[0, g, j] == pytest.approx(expected, abs=1e-12)
    assert list(slot) == [0, -1] and not relief_d[1].any()

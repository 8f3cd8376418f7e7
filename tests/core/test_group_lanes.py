"""A group's sums and members in vector registers
(core/engines/compiled/rules/group_lanes.py) against their definitions,
in plain Python, to the bit: each reference's sums over the instances
in their order, its own distance left out, the bits of the members of
its near and far sets, whatever the values (ties with the limits, NaN,
-0.0, the reference among the instances or not), and its row copied
from the distances of every pair."""
import numba
import numpy as np
from hypothesis import given, settings, strategies as st

from orangecontrib.relief.core.engines.compiled.rules.group_lanes import (
    GROUP, lane_members, lane_rows, lane_squares, lane_sums)


@numba.njit
def compiled(by_instance, rows, near, far, with_far, real):
    """Each intrinsic's result: the sums, the squares about their means,
    and the members."""
    n = by_instance.shape[0]
    total, mean, squares = np.empty(GROUP), np.empty(GROUP), np.empty(GROUP)
    lane_sums(by_instance, rows, mean, total)
    for r in range(GROUP):
        mean[r] = total[r] / (n - 1)
    lane_squares(by_instance, rows, mean, squares)
    members = np.empty((2, n), np.int64)
    lane_members(by_instance, rows, near, far, with_far, real, members)
    return total, mean, squares, members


def literal(by_instance, rows, near, far, with_far, real):
    """The same from the definitions, one reference and instance at a
    time."""
    n = len(by_instance)
    total, squares = np.zeros(GROUP), np.zeros(GROUP)
    members = np.zeros((2, n), np.int64)
    for r in range(GROUP):
        others = [j for j in range(n) if j != rows[r]]
        for j in others:
            total[r] += by_instance[j, r]
        mean = total[r] / (n - 1)
        for j in others:
            squares[r] += (by_instance[j, r] - mean) ** 2
        for j in others:
            d = by_instance[j, r]
            if d < near[r]:
                members[0, j] |= 1 << r
            elif with_far and d > far[r]:
                members[1, j] |= 1 << r
    return total, squares, members & real


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n=st.integers(2, 40),
       count=st.integers(1, GROUP), with_far=st.booleans(),
       oddities=st.booleans())
def test_the_lanes_are_the_definitions(seed, n, count, with_far, oddities):
    rng = np.random.default_rng(seed)
    # few values, so that distances tie with each other and with a limit
    by_instance = rng.integers(0, 6, (n, GROUP)) / 4.0
    if oddities:
        by_instance[rng.random((n, GROUP)) < 0.1] = np.nan
        by_instance[rng.random((n, GROUP)) < 0.1] = -0.0
    rows = rng.integers(0, 2 * n, GROUP)  # some beyond the instances
    near = rng.integers(0, 6, GROUP) / 4.0
    far = rng.integers(0, 6, GROUP) / 4.0  # below the near limit too
    real = (1 << count) - 1
    total, mean, squares, members = compiled(by_instance, rows, near, far,
                                             with_far, real)
    expected_total, expected_squares, expected_members = literal(
        by_instance, rows, near, far, with_far, real)
    np.testing.assert_array_equal(total, expected_total)
    np.testing.assert_array_equal(np.signbit(total),
                                  np.signbit(expected_total))
    np.testing.assert_array_equal(squares, expected_squares)
    np.testing.assert_array_equal(members, expected_members)


@numba.njit
def copied(table, sources):
    by_instance = np.empty((table.shape[1], GROUP))
    lane_rows(table, sources, by_instance)
    return by_instance


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n=st.integers(1, 40))
def test_the_rows_are_copied_instance_by_instance(seed, n):
    rng = np.random.default_rng(seed)
    table = rng.random((n + 3, n))
    sources = rng.integers(0, n + 3, GROUP)  # repeated rows too
    np.testing.assert_array_equal(copied(table, sources), table[sources].T)

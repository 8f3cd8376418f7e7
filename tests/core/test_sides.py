"""SURF's pairs put on the sides of T by the pass that sums it
(core.engines.compiled.neighbours.sides): the interval that must hold T,
and the bits of every pair against the literal comparison of its exact
distance.  That the weights are the same bits on every route is
tests/core/test_surf.py's."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from orangecontrib.relief.core.engines.compiled.diffs import for_kernels
from orangecontrib.relief.core.engines.compiled.neighbours import sides
from orangecontrib.relief.core.engines.compiled.neighbours.distance_rows \
    import pair_sums
from orangecontrib.relief.core.prepare import prepare


def tables(X):
    """The exact tables of numeric X, as the kernels take them, and their
    values in C order (attributes x instances)."""
    exact = for_kernels(prepare(X, np.arange(len(X)) % 2, search=False).exact)
    return exact, np.ascontiguousarray(exact.values)


def distances(values):
    """D of every pair, the attributes added in their order, as the
    kernels add them."""
    dist = np.zeros((values.shape[1],) * 2)
    for row in values:
        dist += np.abs(row[:, None] - row[None, :])
    return dist


@given(n=st.integers(2, 70), a=st.integers(1, 6),
       offset=st.sampled_from([0.0, -3.0, 1e6]),
       scale=st.sampled_from([1.0, 1e-3, 7.0]),
       levels=st.sampled_from([0, 2, 3, 16]), seed=st.integers(0, 2 ** 16))
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
def test_the_interval_holds_the_mean_the_pass_sums(n, a, offset, scale,
                                                  levels, seed):
    """T as the pass sums it lies within the interval, which is at most a
    few millionths of a millionth of T wide (or only pairs on a rounding
    of T would be computed again): continuous values and few levels, at
    any offset and scale."""
    rng = np.random.default_rng(seed)
    X = (rng.integers(0, levels, (n, a)) if levels else rng.random((n, a)))
    exact, values = tables(offset + scale * X)
    total, _ = pair_sums(values, exact)
    mean = total / (n * (n - 1))
    low, high = sides.mean_interval(values)
    assert low <= mean <= high
    assert high - low <= 1e-9 * max(mean, 1e-300)


@pytest.mark.parametrize("n, levels", [(2, 0), (63, 0), (130, 3), (300, 0),
                                       (600, 4)])
def test_settled_sides_are_the_literal_comparisons(n, levels):
    """Every pair's bits, marked by the pass in the rows before each
    stripe's end and mirrored below the diagonal, are those of D(I_i, I_j)
    below and above the interval; those within it resolved, of D(I_i,
    I_j) < T and > T (the rows' last words partial, several stripes, ties
    with T among few levels)."""
    rng = np.random.default_rng(n)
    X = rng.integers(0, levels, (n, 5)) if levels else rng.random((n, 5))
    exact, values = tables(X)
    marked = sides.sides_of(values, 1 << 26)
    total, _ = pair_sums(values, exact, marked)
    dist = distances(values)
    sides.mirror(marked.below)
    sides.mirror(marked.above)
    assert_sides(marked, dist < marked.low, dist > marked.high)
    limit = total / (n * (n - 1))
    settled = sides.settled(marked, exact, limit)
    assert_sides(settled, dist < limit, dist > limit)
    assert settled.low == settled.high == limit


def assert_sides(marked, below, above):
    """The bits of :class:`sides.Sides` are those of `below` and
    `above`, none past the last instance."""
    n = len(below)
    for bits, side in ((marked.below, below), (marked.above, above)):
        expected = np.zeros((n, 64 * sides.words(n)), bool)
        expected[:, :n] = side
        assert_array_equal(np.unpackbits(bits.view(np.uint8), axis=1,
                                         bitorder="little").astype(bool),
                           expected)


def test_sides_beyond_the_budget_are_none():
    """Two bits a pair: the sides of 640 instances take 2 x 640 x 10
    words, and a byte less is beyond the budget."""
    _, values = tables(np.random.default_rng(0).random((640, 2)))
    assert sides.sides_of(values, 2 * 640 * 10 * 8) is not None
    assert sides.sides_of(values, 2 * 640 * 10 * 8 - 1) is None

"""The columns a search offers to its lists (core/engines/compiled/
neighbours/compaction.py): those of a run whose distance bits are at or
below their bounds, in increasing order, by vector registers and by the
loop alike, whatever the run's start, length and tail."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from orangecontrib.relief.core.engines.compiled.neighbours import compaction
from orangecontrib.relief.core.engines.compiled.neighbours.compaction import (
    CHUNK, COMPRESS, hits_buffer)

WIDTH = 5 * CHUNK + 3  # columns of a row of bits: several chunks and a tail

#: each way of collecting the columns: (per-column bounds, one bound)
WAYS = {
    "vector registers": (compaction._within_in_lanes,
                         compaction._within_bound_in_lanes),
    "loop": (compaction._within_by_loop, compaction._within_bound_by_loop),
}


def expected(bits, r, first, lo, hi, bounds):
    """The columns j, lo <= j < hi, with bits[r, j - first] <= bounds[j]
    (unsigned), from their definition."""
    return [j for j in range(lo, hi) if bits[r, j - first] <= bounds[j]]


@pytest.mark.parametrize("way", list(WAYS))
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1),
       first=st.integers(0, 7),
       span=st.tuples(st.integers(0, WIDTH), st.integers(0, WIDTH)),
       share=st.sampled_from([0.0, 0.1, 0.5, 1.0]))
def test_the_columns_within_their_bounds_in_order(way, seed, first, span,
                                                  share):
    if way == "vector registers" and not COMPRESS:
        pytest.skip("LLVM before 19 has no vector.compress: the loop only")
    within, within_bound = WAYS[way]
    rng = np.random.default_rng(seed)
    # the whole unsigned range: bits above 2^31 pass a signed test wrongly
    bits = rng.integers(0, 2 ** 32, (3, WIDTH), dtype=np.uint32)
    table = rng.integers(0, 2 ** 32, (2, first + WIDTH), dtype=np.uint32)
    chosen = rng.random(table.shape) < share  # bounds the bits pass
    r, g = 1, 1
    lo, hi = sorted(first + np.array(span))
    columns = np.arange(first, first + WIDTH)
    table[g, columns] = np.where(chosen[g, columns], bits[r],
                                 np.minimum(table[g, columns], bits[r] - 1))
    table[g, columns[bits[r] == 0]] = 0  # 0 passes a bound of 0 only
    bound = table[g, lo] if lo < first + WIDTH else np.uint32(2 ** 31)

    hits = hits_buffer(WIDTH)
    found = within(bits, r, first, lo, hi, table, g, hits)
    assert list(hits[:found]) == expected(bits, r, first, lo, hi, table[g])
    hits = hits_buffer(WIDTH)
    found = within_bound(bits, r, first, lo, hi, bound, hits)
    assert list(hits[:found]) == expected(bits, r, first, lo, hi,
                                          np.full(first + WIDTH, bound))


def test_the_search_collects_by_vector_registers_where_llvm_can():
    assert compaction.columns_within is (
        compaction._within_in_lanes if COMPRESS
        else compaction._within_by_loop)
    assert compaction.columns_within_bound is (
        compaction._within_bound_in_lanes if COMPRESS
        else compaction._within_bound_by_loop)

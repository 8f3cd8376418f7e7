"""The search's top-k lists (core/neighbours/topk.py): one uint64 key per
entry must order as (float32 distance, index), for negative distances too
(dReliefF without clipping), and unpack to the same instances and
distances."""
import numba
import numpy as np
from hypothesis import given, settings, strategies as st

from orangecontrib.relief.core.engines.compiled.neighbours.lanes import LANES
from orangecontrib.relief.core.engines.compiled.neighbours.topk import (
    INF_BITS, candidate_key, empty_keys, insert_key, offset_keys, order_bits,
    unpack_keys)


@numba.njit
def _lists(dist, index, k, n, step):
    """Offer (dist[t], index[t]) in turn to one list of k keys, every
    `step`-th entry of a row (step 1: a contiguous row, which a list of
    LANES keys takes in vector registers; 2: a strided one, which it
    takes entry by entry)."""
    keys = np.empty((1, k * step), dtype=np.uint64)[:, ::step]
    keys[:] = candidate_key(INF_BITS, n)  # every slot empty
    bits = dist.reshape(1, -1).view(np.uint32)
    order_bits(bits, bits.shape[1])
    for t in range(len(index)):
        insert_key(keys, 0, candidate_key(bits[0, t], index[t]))
    return keys


finite32 = st.floats(-1e6, 1e6, width=32)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 1.5, -2.25, 3.0]) | finite32,
                          st.integers(0, 1000)),
                min_size=1, max_size=40, unique_by=lambda c: c[1]),
       st.integers(1, 12) | st.just(LANES), st.sampled_from([1, 2]))
def test_keys_keep_the_k_smallest_by_distance_then_index(cands, k, step):
    """Whatever the list's width, LANES included (its insertions in vector
    registers where its rows are contiguous), and whatever the order of
    the offers."""
    dist = np.array([d for d, _ in cands], dtype=np.float32)
    index = np.array([j for _, j in cands], dtype=np.int64)
    n = 1001
    keys = _lists(dist.copy(), index, k, n, step)
    expected = sorted(zip(dist.tolist(), index.tolist()))[:k]
    got_index = np.empty((1, k), np.int64)
    got_dist = np.empty((1, k), np.float32)
    unpack_keys(keys, np.arange(n), got_index, got_dist)
    found = min(k, len(cands))
    assert got_index[0, :found].tolist() == [j for _, j in expected]
    assert got_dist[0, :found].tolist() == [d for d, _ in expected]
    assert (got_index[0, found:] == n).all()
    assert np.isinf(got_dist[0, found:]).all()


def test_unpack_maps_search_positions_to_instances():
    order = np.array([2, 0, 1])
    keys = empty_keys((1, 3), 3)
    bits = np.array([[0.5, 0.25]], dtype=np.float32).view(np.uint32)
    order_bits(bits, 2)
    insert_key(keys, 0, candidate_key(bits[0, 0], 0))  # position 0: instance 2
    insert_key(keys, 0, candidate_key(bits[0, 1], 2))  # position 2: instance 1
    index = np.empty((1, 3), np.int64)
    dist = np.empty((1, 3), np.float32)
    unpack_keys(keys, order, index, dist)
    assert index.tolist() == [[1, 2, 3]]
    assert dist[0, :2].tolist() == [0.25, 0.5]


@settings(deadline=None)  # the first call may load the compiled kernels
@given(st.lists(st.integers(0, 9), max_size=6, unique=True),
       st.integers(0, 50))
def test_offset_keys_renumber_a_chunk_and_keep_empty_slots_empty(chunk_index,
                                                                 offset):
    """A chunk of 10 instances renumbered from `offset` among 70: distance
    bits unchanged, index j -> offset + j, the empty slot (10) -> 70."""
    keys = empty_keys((1, 8), 10)
    for j in chunk_index:
        insert_key(keys, 0, candidate_key(np.uint32(1000 + 7 * j), j))
    moved = offset_keys(keys, offset, 10, 70)
    index = np.empty((1, 8), np.int64)
    dist = np.empty((1, 8), np.float32)
    unpack_keys(moved, np.arange(70), index, dist)
    expected = sorted(chunk_index)
    assert index[0].tolist() == ([offset + j for j in expected]
                                 + [70] * (8 - len(expected)))
    assert (moved >> np.uint64(32)).tolist() == (keys >> np.uint64(32)).tolist()

"""Sorted top-k lists: the nearest candidates seen so far, ties by index.

Two forms, both ordered by (distance, index), so that equal distances keep
the lower instance index first:

* exact lists: float64 distances and int indices in two arrays
  (:func:`offer`), for the re-ranking and CDRELIEF;
* search lists: one uint64 key per entry (:func:`candidate_key`), the
  ordered bits of a float32 distance (:func:`order_bits`) above the index,
  so that comparing keys compares (distance, index) in one unsigned
  compare, and an insertion moves one array instead of two (the all-pairs
  search at 2000 x 100 took a quarter less time on one thread).

Empty slots hold distance inf and an index (n) above every instance.
"""
import numba
import numpy as np

from .lanes import LANES, insert_in_lanes

INDEX_BITS = np.uint64(32)
INDEX_MASK = np.uint64(0xFFFFFFFF)
SIGN = np.uint32(0x80000000)
INF_BITS = np.float32(np.inf).view(np.uint32) | SIGN  # inf's ordered bits


@numba.njit(inline="always", cache=True)
def offer(dist, index, row, d, j):
    """Insert candidate `j` at distance `d` into the sorted top-k list `row`
    if it comes before the last entry (which drops out)."""
    last = dist.shape[1] - 1
    if d > dist[row, last] or (d == dist[row, last] and j > index[row, last]):
        return
    pos = last
    while pos > 0 and (d < dist[row, pos - 1]
                       or (d == dist[row, pos - 1] and j < index[row, pos - 1])):
        dist[row, pos] = dist[row, pos - 1]
        index[row, pos] = index[row, pos - 1]
        pos -= 1
    dist[row, pos] = d
    index[row, pos] = j


@numba.njit(inline="always", cache=True)
def order_bits(bits, width):
    """Turn the float32 distances viewed as `bits` (uint32, rows x width)
    into ordered bits: unsigned order is then float order.

    A non-negative float's pattern grows with the value, so setting the
    sign bit puts them above all negative ones (which take dReliefF's
    negative weights), whose patterns are inverted to reverse their order.
    -0 (the pattern SIGN) takes the bits of +0, so equal distances have
    equal bits.
    """
    for r in range(bits.shape[0]):
        for jj in range(width):
            b = bits[r, jj]
            bits[r, jj] = b ^ np.uint32(0xFFFFFFFF) if b > SIGN else b | SIGN


@numba.njit(inline="always", cache=True)
def candidate_key(bits, j):
    """The search-list key of instance j at a distance whose ordered bits
    are `bits`."""
    return (np.uint64(bits) << INDEX_BITS) | np.uint64(j)


@numba.njit(inline="always", cache=True)
def insert_key(keys, row, key):
    """Insert `key` into the sorted search list keys[row] if it is below
    the last entry (which drops out).

    The entries move without a branch: entry s becomes min(a_s,
    max(a_(s-1), key)) (a the list before; a_(-1) below every key), which
    is a_s above the new key, the key at its place and a_(s-1) below it.
    A list of :data:`.lanes.LANES` keys (the search's width for k up to
    12, :func:`.search.list_width`) takes the rule in vector registers
    (:func:`.lanes.insert_in_lanes`): replayed alone on 2,000 to 20,000
    lists, an insertion took 2.8-5.6 ns rather than 11.7-27.6 entry by
    entry (an AMD EPYC, Zen 4, AVX-512).  Otherwise a loop runs up the
    list with a_(s-1) held in a register: a loop that stopped at the
    key's place mispredicted that stop at almost every insertion (the
    search of all pairs at 1000 x 50 took a seventh less time without
    it), and run down the list, each entry was loaded twice, and the
    127,181 insertions of the search at 1000 x 50 took 3.0 ms rather than
    1.5 (one thread, replayed alone)."""
    last = keys.shape[1] - 1
    key = np.uint64(key)  # min and max of uint64 and int64 (a Python int's
    # type) would go through float64
    if key >= keys[row, last]:
        return
    if keys.shape[1] == LANES and keys.strides[1] == 8:  # a contiguous row
        insert_in_lanes(keys, row, key)
        return
    below = keys[row, 0]
    keys[row, 0] = min(below, key)
    for s in range(1, last + 1):
        entry = keys[row, s]
        keys[row, s] = min(entry, max(below, key))
        below = entry


@numba.njit(inline="always", cache=True)
def key_bits(key):
    """The ordered distance bits of a search-list key."""
    return np.uint32(key >> INDEX_BITS)


def empty_keys(shape, n):
    """Search lists of the given shape, every slot empty (inf, n)."""
    return np.full(shape, candidate_key(INF_BITS, n), dtype=np.uint64)


def offset_keys(keys, offset, size, n):
    """Search lists of instances 0 .. size - 1 renumbered from `offset`, of
    n instances in all (an empty slot's index becomes n): the lists of a
    chunk of the instances, as the search of them all numbers them."""
    index = keys & INDEX_MASK
    return np.where(index < size, keys + np.uint64(offset),
                    keys - index + np.uint64(n))


@numba.njit(cache=True)
def unpack_keys(keys, order, index, dist):
    """The instances and float32 distances of search lists.

    ``index[r, s]`` is instance ``order[p]`` for the key of search position
    p in ``keys[r, s]`` (``len(order)`` for an empty slot), ``dist[r, s]``
    its distance.
    """
    n = len(order)
    bits = dist.view(np.uint32)
    for r in range(keys.shape[0]):
        for s in range(keys.shape[1]):
            p = keys[r, s] & INDEX_MASK
            index[r, s] = order[p] if p < n else n
            b = key_bits(keys[r, s])
            bits[r, s] = b ^ SIGN if b & SIGN else b ^ np.uint32(0xFFFFFFFF)

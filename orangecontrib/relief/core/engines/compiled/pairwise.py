"""numpy's pairwise summation, compiled: the sums ``np.add.reduce`` (and
so ``np.mean``) gives a contiguous float64 array, to the bit, for the
kernels that reproduce a peer's floats computed with numpy (scikit-rebate
0.8's class means of mu-Relief, :mod:`.neighbours.farthest`).

numpy (``loops_utils.h``, ``pairwise_sum``) adds fewer than 8 terms in
order, up to :data:`PAIRWISE_BLOCK` terms by eight partial sums, and
splits a longer array in two, at half its length less that half's
remainder by 8, adding the halves' sums.
"""
import numba

#: numpy's pairwise summation: sums of fewer terms are added in order,
#: of up to this many by eight partial sums, longer ones split in two
PAIRWISE_BLOCK = 128


@numba.njit(cache=True)
def block_sum(values, start, stop):
    """numpy's sum of at most :data:`PAIRWISE_BLOCK` terms
    ``values[start:stop]``: fewer than 8 in order; else eight partial
    sums, each taking every eighth term, joined in pairs, the terms past
    the last multiple of 8 then added in order."""
    n = stop - start
    if n < 8:
        total = 0.0
        for i in range(start, stop):
            total += values[i]
        return total
    r0, r1, r2, r3 = (values[start], values[start + 1], values[start + 2],
                      values[start + 3])
    r4, r5, r6, r7 = (values[start + 4], values[start + 5],
                      values[start + 6], values[start + 7])
    i = start + 8
    while i < stop - n % 8:
        r0 += values[i]
        r1 += values[i + 1]
        r2 += values[i + 2]
        r3 += values[i + 3]
        r4 += values[i + 4]
        r5 += values[i + 5]
        r6 += values[i + 6]
        r7 += values[i + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < stop:
        total += values[i]
        i += 1
    return total


@numba.njit(cache=True)
def numpy_sum(values, count):
    """The sum of ``values[:count]`` as numpy's pairwise summation adds a
    contiguous float64 array (``np.add.reduce``, and so ``np.mean``): a
    part of more than :data:`PAIRWISE_BLOCK` terms is split in two at half
    its count less that half's remainder by 8, the halves' sums added;
    smaller parts by :func:`block_sum`.  Evaluated with a stack of the
    parts left (a compiled function cannot call itself)."""
    # (start, stop) of a part to sum, or start -1: add the last two sums
    tasks = [(0, count)]
    sums = [0.0]
    sums.pop()
    while tasks:
        start, stop = tasks.pop()
        if start < 0:
            right = sums.pop()
            sums.append(sums.pop() + right)
        elif stop - start <= PAIRWISE_BLOCK:
            sums.append(block_sum(values, start, stop))
        else:
            half = (stop - start) // 2
            half -= half % 8
            tasks.append((-1, -1))
            tasks.append((start + half, stop))
            tasks.append((start, start + half))
    return sums[0]

"""Small integers as bit planes, whose distances are exact popcounts.

Genotypes (0, 1, 2), presence and absence (0, 1) and nominal codes of at
most four values keep their exact distances in whole numbers: a numeric
column of range 2 has diffs 0, 1/2 and 1, one of range 1 diffs 0 and 1,
and a nominal one 0 and 1 (Prat & Belanche 2006, eq. 2.2, 2.3).  Counted
in halves, the distance of two instances is a whole number, and float64
holds it, and every partial sum of it, exactly: the float64 path's sum in
attribute order is that number over two, to the bit, whatever the order.

A numeric column of values low, low + 1, low + 2 becomes two planes of
bits, thermometer-coded, p1 = [x >= low + 1] and p2 = [x >= low + 2], so
that |x_i - x_j| = [p1 differs] + [p2 differs]: the diff in halves when
the range is 2.  A column of range 1 has both planes [x = high] (a
difference counts two halves) and a constant column none.  A nominal
column's code c (0 .. 3) becomes its two binary digits, and a mismatch
is [either digit differs], two halves.  So the distance in halves is

    D(i, j) = sum_w popcount(N_i[w] xor N_j[w])
              + 2 sum_w popcount((M0_i[w] xor M0_j[w]) | (M1_i[w] xor M1_j[w]))

over the 64-bit words of the numeric planes N and the nominal digit
planes M0, M1 (bit b of word w is column 64 w + b).  The engines compute
it (``plane_distances``); the planes of a block of columns take n x
(2 numeric + 2 nominal) / 8 bytes per 64 columns, a quarter of int8.
"""
import numpy as np

from ..tables import LINEAR

#: the largest range of a numeric column and the most codes of a nominal
#: one that planes hold
MAX_RANGE, MAX_CODES = 2, 4
#: columns of a block of planes: the kernels' rows of words are long
#: enough to run at the vector popcount's speed, a block's planes
#: (n x 2 KB) stay in the cache
PLANE_COLUMNS = 8192


def fits_planes(stats, nominal, kind, weights):
    """Whether the columns of `stats` have bit planes: linear diffs, no
    distance weights other than 1, no missing value, every numeric column
    whole numbers of a range of at most 2, every nominal one codes below
    4 (a column with no known value is one without missing values too:
    none)."""
    if kind != LINEAR or stats.n_missing.any():
        return False
    if weights is not None and not (np.asarray(weights) == 1).all():
        return False
    numeric = ~nominal
    with np.errstate(over="ignore", invalid="ignore"):
        span = stats.high - stats.low
    return bool(stats.integral[numeric].all()
                and (span[numeric] <= MAX_RANGE).all()
                and (stats.high[nominal] < MAX_CODES).all())


def as_signed(block, high):
    """A block of unsigned integers whose columns' greatest values are
    `high` as the signed integers of the same width (a view: the same
    bytes) where every value fits them, a bool block as int8, else the
    block as it is.  The compiled rules read either as the same float64
    values, and compile a version for each type they meet: so uint8 and
    bool data take the int8 ones."""
    dtype = block.dtype
    if dtype.kind == "b":
        return block.view(np.int8)
    if dtype.kind != "u" or not (high < 2.0 ** (8 * dtype.itemsize - 1)).all():
        return block
    return block.view(dtype.str.replace("u", "i"))


def words(bits):
    """Bool (n, w) as uint64 words (n, ceil(w / 64)), bit b of word q
    column 64 q + b."""
    n, w = bits.shape
    packed = np.packbits(bits, axis=1, bitorder="little")
    out = np.zeros((n, -(-w // 64) * 8), np.uint8)
    out[:, :packed.shape[1]] = packed
    return out.view(np.uint64)


#: columns turned into planes at once: the comparisons' temporaries of
#: a piece stay a few megabytes
PIECE = 1024


def block_planes(block, low, high, nominal):
    """The planes of a block (n, width) of columns that
    :func:`fits_planes`: (numeric, nominal) uint64 words, numeric (n, 2 W)
    its p1 then p2 words, nominal (n, 2, W') its digit planes M0, M1;
    made a piece of columns at a time."""
    numeric = np.flatnonzero(~nominal)
    codes = np.flatnonzero(nominal)
    n, w, w_codes = len(block), -(-len(numeric) // 64), -(-len(codes) // 64)
    planes = np.empty((n, 2 * w), np.uint64)
    digits = np.empty((n, 2, w_codes), np.uint64)
    for first in range(0, len(numeric), PIECE):
        chosen = numeric[first:first + PIECE]
        x, base, top = block[:, chosen], low[chosen], high[chosen]
        t1 = np.where(top - base >= 1, base + 1, np.inf)
        t2 = np.where(top - base >= 2, base + 2, t1)
        words_of = slice(first // 64, first // 64 + -(-len(chosen) // 64))
        planes[:, words_of] = words(x >= t1)
        planes[:, w + words_of.start:w + words_of.stop] = words(x >= t2)
    for first in range(0, len(codes), PIECE):
        x = block[:, codes[first:first + PIECE]].astype(np.uint8)
        words_of = slice(first // 64, first // 64 + -(-x.shape[1] // 64))
        digits[:, 0, words_of] = words(x & 1 == 1)
        digits[:, 1, words_of] = words(x & 2 == 2)
    return planes, digits


def block_levels(block, low, high, nominal):
    """The levels of a block (n, width) of columns that
    :func:`fits_planes`: (codes, diffs), codes (n, width) uint8 a numeric
    value less its column's least or a nominal code, diffs (width,
    MAX_CODES, MAX_CODES) the diff of two levels, |u - v| / range or
    [u != v] (:class:`..tables.LevelTables`): exactly the float64 path's
    diff of the two values, the range being 1 or 2."""
    base = np.where(nominal, 0.0, low)
    with np.errstate(invalid="ignore"):
        span = high - low
    span = np.where(nominal | ~(span > 0), 1.0, span)
    codes = np.empty(block.shape, np.uint8)
    for first in range(0, block.shape[1], PIECE):
        part = slice(first, first + PIECE)
        codes[:, part] = block[:, part] - base[part]
    level = np.arange(MAX_CODES, dtype=np.float64)
    apart = level[:, None] != level[None, :]
    distance = np.abs(level[:, None] - level[None, :])
    diffs = np.where(nominal[:, None, None], apart[None],
                     distance[None] / span[:, None, None])
    return codes, diffs

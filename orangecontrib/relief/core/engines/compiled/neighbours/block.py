"""A distance block: ROWS rows of the search tables against up to BLOCK
columns, and the helpers unrolled over its rows.

The kernels compute distances ROWS rows at a time, so that each loaded
column value serves every row of the block (the loops are bound by loads
and stores, not arithmetic).  numba keeps a tuple of ROWS values in
registers only when it is written out, so every helper here spells out its
ROWS terms; this module is the one place that does, and
``tests/core/test_block.py`` checks each helper against ROWS.
"""
import numba
import numpy as np

from ..diffs import as_dtype_of, transform
from ..fused import addition, difference

BLOCK = 256  # instances per tile side: a tile's columns stay in L1/L2
ROWS = 4  # rows of a distance block: each loaded column value serves 4 rows


@numba.njit(inline="always", cache=True)
def padded(first, stop):
    """The block rows first, first + 1, ... below `stop` as a tuple, the
    last one repeated as padding (what :func:`block_rows` writes)."""
    last = stop - 1
    return (first, min(first + 1, last), min(first + 2, last),
            min(first + 3, last))


@numba.njit(inline="always", cache=True)
def block_rows(first, stop, rows):
    """rows = first, first + 1, ... up to ROWS indices below `stop`, the
    last one repeated as padding (:func:`padded`); returns how many are
    real."""
    rows[0], rows[1], rows[2], rows[3] = padded(first, stop)
    return min(ROWS, stop - first)


@numba.njit(inline="always", cache=True)
def at(array, rows):
    """array[rows[r]] for the block rows."""
    return array[rows[0]], array[rows[1]], array[rows[2]], array[rows[3]]


@numba.njit(inline="always", cache=True)
def put(array, rows, x):
    """array[rows[r]] = x_r for the block rows (a row repeated as padding
    takes the same value)."""
    array[rows[3]] = x[3]
    array[rows[2]] = x[2]
    array[rows[1]] = x[1]
    array[rows[0]] = x[0]


@numba.njit(inline="always", cache=True)
def entries(array, rows, j):
    """array[rows[r], j]: column j of the block rows."""
    return (array[rows[0], j], array[rows[1], j], array[rows[2], j],
            array[rows[3], j])


@numba.njit(inline="always", cache=True)
def unless_own(x, rows, j):
    """x_r, or -0.0 (which leaves any sum as it is) for the block row that
    is instance j itself."""
    return (x[0] if rows[0] != j else -0.0, x[1] if rows[1] != j else -0.0,
            x[2] if rows[2] != j else -0.0, x[3] if rows[3] != j else -0.0)


@numba.njit(inline="always", cache=True)
def plus(s, x):
    """s_r + x_r for the block rows."""
    return s[0] + x[0], s[1] + x[1], s[2] + x[2], s[3] + x[3]


@numba.njit(inline="always", cache=True)
def squared(x):
    """x_r * x_r for the block rows."""
    return x[0] * x[0], x[1] * x[1], x[2] * x[2], x[3] * x[3]


@numba.njit(inline="always", cache=True)
def block_refs(refs, first, stop, rows):
    """rows = refs[first], refs[first + 1], ... up to ROWS references
    below position `stop` (:func:`block_rows` of their positions), the
    last one repeated as padding; returns how many are real."""
    count = block_rows(first, stop, rows)
    for r in range(ROWS):
        rows[r] = refs[rows[r]]
    return count


@numba.njit(inline="always", cache=True)
def row_values(values, a, rows):
    """The block rows' values of attribute a."""
    return (values[a, rows[0]], values[a, rows[1]], values[a, rows[2]],
            values[a, rows[3]])


@numba.njit(inline="always", cache=True)
def nominal_terms(x, v, w):
    """w diff(x_r, v) of a nominal attribute for the block rows."""
    return (w * as_dtype_of(v, x[0] != v), w * as_dtype_of(v, x[1] != v),
            w * as_dtype_of(v, x[2] != v), w * as_dtype_of(v, x[3] != v))


@numba.njit(inline="always", cache=True)
def linear_diffs(x, v, minus):
    """|x_r - v| of a numeric attribute for the block rows, each
    subtraction on the multiply-add units (:func:`..fused.difference`,
    `minus` its -1.0)."""
    return (abs(difference(x[0], v, minus)), abs(difference(x[1], v, minus)),
            abs(difference(x[2], v, minus)), abs(difference(x[3], v, minus)))


@numba.njit(inline="always", cache=True)
def least_terms(x, v, w):
    """w min(x_r, v) of a numeric attribute for the block rows: the term
    that |x - v| = x + v - 2 min(x, v) needs per pair (add_linear)."""
    return (w * min(x[0], v), w * min(x[1], v),
            w * min(x[2], v), w * min(x[3], v))


@numba.njit(inline="always", cache=True)
def least_values(x, v):
    """min(x_r, v) for the block rows: least_terms at weight 1, with no
    multiply (x * 1 == x: the same floats)."""
    return min(x[0], v), min(x[1], v), min(x[2], v), min(x[3], v)


@numba.njit(inline="always", cache=True)
def repeated(z):
    """z for each block row: a sum over attributes before its first."""
    return z, z, z, z


@numba.njit(inline="always", cache=True)
def add_weighted(s, x, w):
    """s_r + w x_r for the block rows."""
    return s[0] + w * x[0], s[1] + w * x[1], s[2] + w * x[2], s[3] + w * x[3]


@numba.njit(inline="always", cache=True)
def numeric_terms(x, v, w, kind, t_eq, t_diff):
    """w g(|x_r - v|) of a numeric attribute, g the diff transform."""
    return (w * transform(abs(x[0] - v), kind, t_eq, t_diff),
            w * transform(abs(x[1] - v), kind, t_eq, t_diff),
            w * transform(abs(x[2] - v), kind, t_eq, t_diff),
            w * transform(abs(x[3] - v), kind, t_eq, t_diff))


@numba.njit(inline="always", cache=True)
def add_block(out, jj, ta, tb):
    """out[r, jj] += ta[r] + tb[r], the terms of an attribute pair."""
    out[0, jj] += ta[0] + tb[0]
    out[1, jj] += ta[1] + tb[1]
    out[2, jj] += ta[2] + tb[2]
    out[3, jj] += ta[3] + tb[3]


@numba.njit(inline="always", cache=True)
def add_four(out, jj, ta, tb, tc, td):
    """out[r, jj] += (ta[r] + tb[r]) + (tc[r] + td[r]): the terms of four
    attributes with one load and one store of out."""
    out[0, jj] += (ta[0] + tb[0]) + (tc[0] + td[0])
    out[1, jj] += (ta[1] + tb[1]) + (tc[1] + td[1])
    out[2, jj] += (ta[2] + tb[2]) + (tc[2] + td[2])
    out[3, jj] += (ta[3] + tb[3]) + (tc[3] + td[3])


@numba.njit(inline="always", cache=True)
def add_four_fused(out, jj, ta, tb, tc, td, one):
    """:func:`add_four`, the same floats, with the three sums of each
    row's terms on the multiply-add units (:func:`..fused.addition`,
    `one` its 1.0) and the addition to out on the adders.  In the
    float32 distance block of unit weights (:func:`.distances.
    add_linear`), whose minima share the adders with the sums, one
    thread of an AMD EPYC (Zen 4, AVX-512) took 0.82 times as long at
    1000 x 48 and 0.80-0.88 at 2000 x 100 (every pair, least of 15);
    with other weights, whose products take the multiply-add units,
    1.0-1.05 times, so those keep :func:`add_four`."""
    out[0, jj] += addition(addition(ta[0], tb[0], one),
                           addition(tc[0], td[0], one), one)
    out[1, jj] += addition(addition(ta[1], tb[1], one),
                           addition(tc[1], td[1], one), one)
    out[2, jj] += addition(addition(ta[2], tb[2], one),
                           addition(tc[2], td[2], one), one)
    out[3, jj] += addition(addition(ta[3], tb[3], one),
                           addition(tc[3], td[3], one), one)


@numba.njit(inline="always", cache=True)
def finish_linear(out, jj, sx, sv):
    """out[r, jj] = (sx[r] + sv) - 2 out[r, jj]: the sum of w |x - v|
    from the rows' sums sx, the column's sum sv and out's sum of
    w min(x, v) (add_linear; doubling is exact)."""
    out[0, jj] = (sx[0] + sv) - (out[0, jj] + out[0, jj])
    out[1, jj] = (sx[1] + sv) - (out[1, jj] + out[1, jj])
    out[2, jj] = (sx[2] + sv) - (out[2, jj] + out[2, jj])
    out[3, jj] = (sx[3] + sv) - (out[3, jj] + out[3, jj])


@numba.njit(inline="always", cache=True)
def add_column(out, jj, terms):
    """out[r, jj] += terms[r] for the block rows: one attribute's terms."""
    out[0, jj] += terms[0]
    out[1, jj] += terms[1]
    out[2, jj] += terms[2]
    out[3, jj] += terms[3]


@numba.njit(inline="always", cache=True)
def add_in_order(out, jj, ta, tb):
    """out[r, jj] = (out[r, jj] + ta[r]) + tb[r]: an attribute pair added
    in attribute order, as one attribute at a time adds it (the exact
    distances' order), with one load and one store of out."""
    out[0, jj] = out[0, jj] + ta[0] + tb[0]
    out[1, jj] = out[1, jj] + ta[1] + tb[1]
    out[2, jj] = out[2, jj] + ta[2] + tb[2]
    out[3, jj] = out[3, jj] + ta[3] + tb[3]


@numba.njit(inline="always", cache=True)
def add_four_in_order(out, jj, ta, tb, tc, td):
    """out[r, jj] = (((out[r, jj] + ta[r]) + tb[r]) + tc[r]) + td[r]: four
    attributes added in attribute order, as one at a time adds them,
    with one load and one store of out."""
    out[0, jj] = out[0, jj] + ta[0] + tb[0] + tc[0] + td[0]
    out[1, jj] = out[1, jj] + ta[1] + tb[1] + tc[1] + td[1]
    out[2, jj] = out[2, jj] + ta[2] + tb[2] + tc[2] + td[2]
    out[3, jj] = out[3, jj] + ta[3] + tb[3] + tc[3] + td[3]


@numba.njit(inline="always", cache=True)
def fill_terms(fill, s, g, rows, w):
    """c_r = w fill[s, g, I_r], the block rows' corrections against a
    value missing in group g (add_missing_columns)."""
    return (w * fill[s, g, rows[0]], w * fill[s, g, rows[1]],
            w * fill[s, g, rows[2]], w * fill[s, g, rows[3]])


@numba.njit(inline="always", cache=True)
def corrected(t, c, missing):
    """t + c where the column's value is missing, else t."""
    return t + c if missing else t


@numba.njit(inline="always", cache=True)
def add_column_corrections(out, ct, rows, i0, jj0, width):
    """out[r, jj] += ct[jj0 + jj, rows[r] - i0]: a block's share of its
    tile's column corrections (:func:`column_corrections`)."""
    first = np.uint64(jj0)  # unsigned: no negative-index checks
    i = (np.uint64(rows[0] - i0), np.uint64(rows[1] - i0),
         np.uint64(rows[2] - i0), np.uint64(rows[3] - i0))
    for jj in range(np.uint64(width)):
        out[0, jj] += ct[first + jj, i[0]]
        out[1, jj] += ct[first + jj, i[1]]
        out[2, jj] += ct[first + jj, i[2]]
        out[3, jj] += ct[first + jj, i[3]]


@numba.njit(inline="always", cache=True)
def add_masked(out, jj, ca, ma, cb, mb):
    """out[r, jj] += ca[r] where `ma`, and cb[r] where `mb`: the block
    rows' corrections of a column whose values of two attributes may be
    missing (a select, so that the loop stays a masked add in SIMD)."""
    out[0, jj] = corrected(corrected(out[0, jj], ca[0], ma), cb[0], mb)
    out[1, jj] = corrected(corrected(out[1, jj], ca[1], ma), cb[1], mb)
    out[2, jj] = corrected(corrected(out[2, jj], ca[2], ma), cb[2], mb)
    out[3, jj] = corrected(corrected(out[3, jj], ca[3], ma), cb[3], mb)

"""Numeric data's update terms, four references per pass, compiled.

Where every diff is |x_i - x_j| (numeric attributes, the linear diff, no
missing values), the references whose neighbourhood holds an instance add
their terms to the sums four at a time: each attribute's value of the
instance and each sum are loaded and stored once for four references, and
the terms are added in the references' order, as one reference at a time
adds them (acc + c0 d0 + c1 d1 + c2 d2 + c3 d3), so the sums are the same
bits.  Like :mod:`..neighbours.block`, the helpers spell out their four
terms, which numba keeps in registers only when they are written out.
"""
import numba

from .relieff import add_numeric_diffs


@numba.njit(inline="always", cache=True)
def quad(array, q):
    """array[q:q + 4] as a tuple."""
    return array[q], array[q + 1], array[q + 2], array[q + 3]


@numba.njit(inline="always", cache=True)
def four_diffs(values, a, i, v):
    """|x_a(I_i[q]) - v| of four references i."""
    return (abs(values[a, i[0]] - v), abs(values[a, i[1]] - v),
            abs(values[a, i[2]] - v), abs(values[a, i[3]] - v))


@numba.njit(inline="always", cache=True)
def scaled(c, d):
    """c[q] d[q] of four terms."""
    return c[0] * d[0], c[1] * d[1], c[2] * d[2], c[3] * d[3]


@numba.njit(inline="always", cache=True)
def kept(d, keep):
    """d[q] where keep[q], else 0.0, of four terms (adding 0.0 leaves a sum
    of diffs, never negative, as it is)."""
    return (d[0] if keep[0] else 0.0, d[1] if keep[1] else 0.0,
            d[2] if keep[2] else 0.0, d[3] if keep[3] else 0.0)


@numba.njit(inline="always", cache=True)
def add_sum(acc, a, t):
    """acc[a] += t[0], then t[1], t[2] and t[3]."""
    acc[a] = acc[a] + t[0] + t[1] + t[2] + t[3]


@numba.njit(inline="always", cache=True)
def add_terms(sums, row, a, coef, d):
    """sums[0, a] += coef d; d and d ** 2 to rows `row`, `row` + 1 (STIR's
    sums of a near hit, row 2, or a near miss, row 4)."""
    sums[0, a] += coef * d
    sums[row, a] += d
    sums[row + 1, a] += d * d


@numba.njit(inline="always", cache=True)
def add_four(acc, values, i, j, c):
    """acc[A] += c[q] |x_A(I_i[q]) - x_A(I_j)| for q = 0..3, in order."""
    for a in range(acc.shape[0]):
        add_sum(acc, a, scaled(c, four_diffs(values, a, i, values[a, j])))


@numba.njit(inline="always", cache=True)
def add_numeric(acc, values, refs, coefs, count, j):
    """acc[A] += coefs[q] |x_A(I_refs[q]) - x_A(I_j)| for q < count, in
    order, four references at a time."""
    q = 0
    while q + 4 <= count:
        add_four(acc, values, quad(refs, q), j, quad(coefs, q))
        q += 4
    for q in range(q, count):
        add_numeric_diffs(acc, values, refs[q], j, coefs[q])


@numba.njit(inline="always", cache=True)
def add_stir_four(sums, values, i, j, c, hit):
    """STIR's terms of four references i (:func:`add_numeric_stir`)."""
    miss = (not hit[0], not hit[1], not hit[2], not hit[3])
    weights, hit_d, hit_dd, miss_d, miss_dd = (sums[0], sums[2], sums[3],
                                               sums[4], sums[5])
    for a in range(sums.shape[1]):
        d = four_diffs(values, a, i, values[a, j])
        squares = scaled(d, d)
        add_sum(weights, a, scaled(c, d))
        add_sum(hit_d, a, kept(d, hit))
        add_sum(hit_dd, a, kept(squares, hit))
        add_sum(miss_d, a, kept(d, miss))
        add_sum(miss_dd, a, kept(squares, miss))


@numba.njit(inline="always", cache=True)
def add_numeric_stir(sums, values, refs, coefs, hits, count, j):
    """For q < count, in order: sums[0] += coefs[q] d, and d and d ** 2 to
    the near hits' (rows 2, 3; hits[q]) or near misses' (rows 4, 5) sums,
    d = |x(I_refs[q]) - x(I_j)| per attribute; four references at a time."""
    q = 0
    while q + 4 <= count:
        add_stir_four(sums, values, quad(refs, q), j, quad(coefs, q),
                      quad(hits, q))
        q += 4
    for q in range(q, count):
        i, coef, row = refs[q], coefs[q], 2 if hits[q] else 4
        for a in range(sums.shape[1]):
            add_terms(sums, row, a, coef, abs(values[a, i] - values[a, j]))

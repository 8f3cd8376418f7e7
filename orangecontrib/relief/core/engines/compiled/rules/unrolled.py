"""Numeric data's update terms, four pairs per pass, compiled.

Where every diff is |x_i - x_j| (numeric attributes, the linear diff, no
missing values), the pairs (reference, neighbour) add their terms to the
sums four at a time, those of one instance's references
(:func:`add_numeric`), of one reference's neighbour list
(:func:`add_list_numeric`) or any four in a row (:func:`add_pairs`):
each sum is loaded and stored once for four pairs, and the terms are
added in the pairs' order, as one pair at a time adds them
(acc + c0 d0 + c1 d1 + c2 d2 + c3 d3), so the sums are the same bits.
Like :mod:`..neighbours.block`, the helpers spell out their four terms,
which numba keeps in registers only when they are written out.

The helpers read the values instance by instance, ``rows[i, a]`` (the
exact tables' values transposed: the same memory, in C order), and take
the instances' indices unsigned (:func:`unsigned`), so that no index is
checked for a negative value: the terms of MultiSURF's pairs at 2000 x
100 (:func:`add_pairs` alone, the values aligned by
:func:`....values.aligned_empty`) took 18.0-18.1 ms so, where reading
``values[a, i]`` with signed indices took 19.6-19.7 ms (one thread of an
AMD EPYC, Zen 4, AVX-512).
"""
import numba
import numpy as np

from ..prefetch import prefetch_row

#: pairs ahead of the four being added whose member's values
#: :func:`add_pairs` asks for (:mod:`..prefetch`)
AHEAD = 32


@numba.njit(inline="always", cache=True)
def add_numeric_diffs(acc, rows, i, j, coef):
    """acc[A] += coef * |x_A(I_i) - x_A(I_j)|: numeric attributes, the
    linear diff, no missing values (a loop that vectorises)."""
    i, j = np.uint64(i), np.uint64(j)
    for a in range(acc.shape[0]):
        acc[a] += coef * abs(rows[i, a] - rows[j, a])


@numba.njit(inline="always", cache=True)
def quad(array, q):
    """array[q:q + 4] as a tuple."""
    return array[q], array[q + 1], array[q + 2], array[q + 3]


@numba.njit(inline="always", cache=True)
def unsigned(i):
    """Four instances' indices as unsigned integers."""
    return (np.uint64(i[0]), np.uint64(i[1]), np.uint64(i[2]),
            np.uint64(i[3]))


@numba.njit(inline="always", cache=True)
def four_diffs(rows, a, i, j):
    """|x_a(I_i[q]) - x_a(I_j[q])| of four pairs (i[q], j[q])."""
    return (abs(rows[i[0], a] - rows[j[0], a]),
            abs(rows[i[1], a] - rows[j[1], a]),
            abs(rows[i[2], a] - rows[j[2], a]),
            abs(rows[i[3], a] - rows[j[3], a]))


@numba.njit(inline="always", cache=True)
def scaled(c, d):
    """c[q] d[q] of four terms."""
    return c[0] * d[0], c[1] * d[1], c[2] * d[2], c[3] * d[3]


@numba.njit(inline="always", cache=True)
def add_sum(acc, a, t):
    """acc[a] += t[0], then t[1], t[2] and t[3]."""
    acc[a] = acc[a] + t[0] + t[1] + t[2] + t[3]


@numba.njit(inline="always", cache=True)
def add_terms(sums, row, a, coef, d):
    """sums[0, a] += coef d; and STIR's sums of a near pair, weighted by
    w = |coef|: w d to `row` (2 for a hit, 4 for a miss), w d ** 2 to the
    row after it."""
    sums[0, a] += coef * d
    weighted = abs(coef) * d
    sums[row, a] += weighted
    sums[row + 1, a] += weighted * d


@numba.njit(inline="always", cache=True)
def add_four(acc, rows, i, j, c):
    """acc[A] += c[q] |x_A(I_i[q]) - x_A(I_j[q])| for q = 0..3, in order."""
    i, j = unsigned(i), unsigned(j)
    for a in range(acc.shape[0]):
        add_sum(acc, a, scaled(c, four_diffs(rows, a, i, j)))


@numba.njit(inline="always", cache=True)
def add_numeric(acc, rows, refs, coefs, count, j):
    """acc[A] += coefs[q] |x_A(I_refs[q]) - x_A(I_j)| for q < count, in
    order, four references at a time."""
    q = 0
    while q + 4 <= count:
        add_four(acc, rows, quad(refs, q), (j, j, j, j), quad(coefs, q))
        q += 4
    for q in range(q, count):
        add_numeric_diffs(acc, rows, refs[q], j, coefs[q])


@numba.njit(inline="always", cache=True)
def list_quad(index, share, e, stop, coef):
    """The neighbours index[e:e + 4] of a list that ends before `stop`
    and their coefficients coef * share[e'], the places past its end
    taking its last neighbour at the coefficient -0.0, whose terms leave
    every sum as it is (x + -0.0 == x; :func:`.surf.in_quads`)."""
    last = stop - 1
    e0, e1, e2, e3 = e, min(e + 1, last), min(e + 2, last), min(e + 3, last)
    return ((index[e0], index[e1], index[e2], index[e3]),
            (coef * share[e0], coef * share[e1] if e + 1 <= last else -0.0,
             coef * share[e2] if e + 2 <= last else -0.0,
             coef * share[e3] if e + 3 <= last else -0.0))


@numba.njit(inline="always", cache=True)
def add_list_numeric(acc, rows, i, index, share, start, stop, coef):
    """acc[A] += coef share[e] |x_A(I_i) - x_A(I_index[e])| for the
    entries e = start .. stop - 1 of a neighbour list, in order, four
    entries a pass over the attributes (:func:`add_four`): the same sums
    as entry by entry, with a quarter of the loads and stores of the sums
    and of the passes' set-up (ReliefF's rule at 1000 x 50, ten
    neighbours of each class, one thread: 0.51-0.55 ms against 0.85-0.94
    ms entry by entry, AMD EPYC, AVX2)."""
    refs = (i, i, i, i)
    for e in range(start, stop, 4):
        neighbours, coefs = list_quad(index, share, e, stop, coef)
        add_four(acc, rows, refs, neighbours, coefs)


@numba.njit(inline="always", cache=True)
def add_pairs(acc, rows, pairs, coefs, count):
    """acc[A] += coefs[q] |x_A(I_pairs[0, q]) - x_A(I_pairs[1, q])| for
    q < count, a multiple of four, in order, four pairs at a time: the
    terms of several instances' neighbourhoods in one pass, with no
    padding of each instance's references to whole quads.  The member of
    the pair :data:`AHEAD` on is asked for where it changes
    (:func:`..prefetch.prefetch_row`): the pairs come member by member,
    each member's values read once, from memory, where the references'
    stay in the cache."""
    for q in range(0, count, 4):
        ahead = q + AHEAD
        if ahead < count and pairs[1, ahead] != pairs[1, ahead - 4]:
            prefetch_row(rows, pairs[1, ahead])
        add_four(acc, rows, quad(pairs[0], q), quad(pairs[1], q),
                 quad(coefs, q))


@numba.njit(inline="always", cache=True)
def add_stir_four(sums, rows, i, j, c, row):
    """STIR's terms of four references i (:func:`add_numeric_stir`)."""
    weights, diffs, squares = sums[0], sums[row], sums[row + 1]
    w = (abs(c[0]), abs(c[1]), abs(c[2]), abs(c[3]))
    i, j = unsigned(i), unsigned((j, j, j, j))
    for a in range(sums.shape[1]):
        d = four_diffs(rows, a, i, j)
        add_sum(weights, a, scaled(c, d))
        wd = scaled(w, d)
        add_sum(diffs, a, wd)
        add_sum(squares, a, scaled(wd, d))


@numba.njit(inline="always", cache=True)
def add_numeric_stir(sums, rows, refs, coefs, row, count, j):
    """For q < count, in order, the terms of :func:`add_terms` of
    d = |x(I_refs[q]) - x(I_j)| per attribute, the references all of one
    class, so that I_j is a hit of all of them (`row` 2) or a miss (4);
    four references at a time."""
    q = 0
    while q + 4 <= count:
        add_stir_four(sums, rows, quad(refs, q), j, quad(coefs, q), row)
        q += 4
    for q in range(q, count):
        i, coef = refs[q], coefs[q]
        for a in range(sums.shape[1]):
            add_terms(sums, row, a, coef, abs(rows[i, a] - rows[j, a]))

"""diff(A, I1, I2): the per-attribute difference every Relief variant uses.

Kira & Rendell (1992) and Kononenko (1994), as in Prat & Belanche (2006)
eq. 2.2-2.3: 0/1 for a nominal attribute, |a - b| / (max - min) for a numeric
one.  Numeric diffs may be transformed (Robnik-Sikonja & Kononenko 2003):

* ``linear``   d
* ``squared``  d ** 2 (Kira & Rendell's Euclidean distance)
* ``ramp``     0 for d <= t_eq, 1 for d >= t_diff, linear in between

Missing values use the RELIEF-D tables of :mod:`.missing`.

The data reach the kernels as the tuples of :mod:`.tables`, the exact ones
through :func:`for_kernels`.
"""
import numba
import numpy as np

from ...tables import LINEAR, RAMP, SQUARED, NarrowTables


def for_kernels(exact):
    """The exact tables as the kernels take them: the RELIEF-D tables
    transposed, ``relief_d[j, g, s]`` (instances x groups x slots), the
    same memory in C order.

    Kononenko's tables are (slots, groups, instances) in Fortran order, so
    that an instance's entries lie together, and empty when no value is
    missing, which numpy calls C-contiguous.  numba types an array by its
    layout, so every kernel that reads the exact tables would compile once
    for data with missing values and once for data without; transposed,
    both are C-contiguous, and each kernel compiles once.
    """
    return exact._replace(relief_d=exact.relief_d.T)


def kernel_tables(tables):
    """The tables as the rules' kernels take them: exact tables through
    :func:`for_kernels`, narrow ones (:class:`...tables.NarrowTables`) as
    they are."""
    return tables if isinstance(tables, NarrowTables) else for_kernels(tables)


@numba.njit(inline="always", cache=True)
def as_dtype_of(x, flag):
    """The bool `flag` as 0 or 1 in the float type of `x`.

    Adding a bool keeps float32 arithmetic in float32, where an integer
    literal would promote it to float64 and halve the SIMD width.
    """
    return x - x + flag


@numba.njit(inline="always", cache=True)
def transform(d, kind, t_eq, t_diff):
    """g(d) of a numeric diff d = |a - b| / range (dtype of d preserved)."""
    if kind == SQUARED:
        return d * d
    if kind == RAMP:
        if d <= t_eq:
            return as_dtype_of(d, False)
        if d >= t_diff:
            return as_dtype_of(d, True)
        return (d - t_eq) / (t_diff - t_eq)
    return d


@numba.njit(inline="always", cache=True)
def linear_diff(xi, xj, nominal):
    """diff of two known values with the linear transform: 0/1 or |xi - xj|.

    Loops that have checked ``kind == LINEAR`` once call this instead of
    :func:`known_diff`, leaving only a select that vectorises.
    """
    return as_dtype_of(xi, xi != xj) if nominal else abs(xi - xj)


@numba.njit(inline="always", cache=True)
def known_diff(tables, a, xi, xj):
    """diff of two known values of attribute `a` (eq. 2.2, 2.3)."""
    if tables.nominal[a]:
        return as_dtype_of(xi, xi != xj)
    return transform(abs(xi - xj), tables.kind, tables.t_eq, tables.t_diff)


@numba.njit(inline="always", cache=True)
def with_missing(tables, s, i, j, gi, gj, xi, xj, d):
    """The diff of a pair on slot `s`: `d` (the diff of xi and xj) when
    both are known, else its RELIEF-D value (eq. 2.5).

    A missing value is NaN in the exact tables.  Both table entries are
    read and the result selected, so that a loop over the attributes
    vectorises (a missing value is unpredictable for a branch).
    gi, gj are the groups of I_i, I_j.
    """
    missing_i, missing_j = np.isnan(xi), np.isnan(xj)
    relief_d = (tables.relief_d[j, gi, s] if missing_i
                else tables.relief_d[i, gj, s])
    return relief_d if missing_i or missing_j else d


@numba.njit(inline="always", cache=True)
def attribute_diff(tables, a, i, j):
    """diff(A_a, I_i, I_j), missing values included (eq. 2.2, 2.3, 2.5)."""
    xi, xj = tables.values[a, i], tables.values[a, j]
    d = known_diff(tables, a, xi, xj)
    s = tables.slot[a]
    if s < 0:
        return d
    return with_missing(tables, s, i, j, tables.groups[i], tables.groups[j],
                        xi, xj, d)


@numba.njit(inline="always", cache=True)
def any_missing(tables):
    """Whether a value of the exact tables is missing (their RELIEF-D
    tables are not empty)."""
    return tables.relief_d.shape[2] > 0


@numba.njit(inline="always", cache=True)
def numeric_and_known(tables):
    """True when every diff is |x_i - x_j|: numeric attributes, the linear
    diff, no missing values (loops over the attributes without a select)."""
    return (not any_missing(tables) and tables.kind == LINEAR
            and not tables.any_nominal)


@numba.njit(inline="always", cache=True)
def every_attribute_slotted(tables):
    """True when every attribute has a RELIEF-D slot, slot[a] == a (the
    exact tables when any value is missing: see prepare)."""
    return tables.relief_d.shape[2] == tables.values.shape[0]


@numba.njit(inline="always", cache=True)
def slotted_linear_diff(tables, a, i, j, gi, gj):
    """attribute_diff for linear diffs and slot[a] == a (gi, gj: the
    groups of I_i, I_j, read once outside the caller's loop): no slot
    lookup and no branch, so that loops over the attributes vectorise."""
    xi, xj = tables.values[a, i], tables.values[a, j]
    return with_missing(tables, a, i, j, gi, gj, xi, xj,
                        linear_diff(xi, xj, tables.nominal[a]))

"""The distance kernel: weighted diffs of a block of rows against a run of
columns of the search tables (Prat & Belanche 2006, eq. 2.1 and 3.1).

A missing value is stored as 0 and every attribute first takes its diff
against that 0 (:func:`add_linear`, :func:`add_attributes`); two
corrections then make those diffs Kononenko's RELIEF-D ones: a sparse
pass along the rows that miss a value (:func:`add_missing_rows`), and the
same for the columns.  A column's correction depends on the row and the
column's class only; the all-pairs search sums each column's once for a
whole tile (:mod:`.all_pairs`); a search of a few references adds them with a
masked pass over the columns (:func:`add_missing_columns`), whose sorted
classes fall into runs.

The kernels index the arrays instead of slicing them: a slice costs an
atomic reference count that threads contend for.
"""
import numba
import numpy as np

from ..diffs import as_dtype_of
from ..fused import plus_one
from ....tables import LINEAR
from .block import (ROWS, add_block, add_four, add_four_fused, add_masked,
                    add_weighted, fill_terms, finish_linear, least_terms,
                    least_values, nominal_terms, numeric_terms, repeated,
                    row_values)


@numba.njit(cache=True)
def add_linear(out, tables, weights, rows, j0, width, sums):
    """out[r, jj] = sum_A w_A |x_A - v_A| over the numeric attributes of a
    linear diff, x_A the value of I_rows[r] and v_A that of I_(j0 + jj)
    (a missing value taken as the 0 it is stored as), from::

        |x - v| = x + v - 2 min(x, v)

    the rows' sums of w_A x_A, the columns' sums of w_A v_A (`sums`,
    :func:`column_sums`, one per tile for all its block rows) and each
    pair's sum of w_A min(x_A, v_A), which finish_linear combines: a min
    and an add per diff, where |x - v| takes a subtract, an abs and an add.
    The attributes are taken four at a time (:func:`four_attributes`),
    each block row taking their terms with one load and one store of `out`,
    and four of weight 1 (all of them by default) skip the multiply and
    sum their terms on the multiply-add units (:func:`.block.
    add_four_fused`).
    With both, the distances of 64 references to 1,000,000 x 20 took a
    quarter less time than by |x - v| two attributes at a time.  The
    rounding differs from |x - v|'s: :func:`float32_error_bound` counts it.
    """
    values = tables.values
    start = np.uint64(j0)  # unsigned: no negative-index check
    out[:, :width] = 0
    one = plus_one(out)
    sx = repeated(out[0, 0])  # 0 in out's dtype (width >= 1)
    a = next_attribute(tables, weights, 0, False)
    while a < len(weights):
        (a, b, c, d), (wa, wb, wc, wd), following = four_attributes(
            tables, weights, a, False)
        xa, xb = row_values(values, a, rows), row_values(values, b, rows)
        xc, xd = row_values(values, c, rows), row_values(values, d, rows)
        sx = add_weighted(add_weighted(add_weighted(add_weighted(
            sx, xa, wa), xb, wb), xc, wc), xd, wd)
        if wa == 1 and wb == 1 and wc == 1 and wd == 1:
            for jj in range(np.uint64(width)):
                add_four_fused(out, jj,
                               least_values(xa, values[a, start + jj]),
                               least_values(xb, values[b, start + jj]),
                               least_values(xc, values[c, start + jj]),
                               least_values(xd, values[d, start + jj]), one)
        else:
            for jj in range(np.uint64(width)):
                add_four(out, jj,
                         least_terms(xa, values[a, start + jj], wa),
                         least_terms(xb, values[b, start + jj], wb),
                         least_terms(xc, values[c, start + jj], wc),
                         least_terms(xd, values[d, start + jj], wd))
        a = next_attribute(tables, weights, following, False)
    for jj in range(np.uint64(width)):
        finish_linear(out, jj, sx, sums[jj])


@numba.njit(cache=True)
def column_sums(tables, weights, j0, width, sums):
    """sums[jj] = sum_A w_A v_A(j0 + jj) over the numeric attributes when
    their diff is linear (the columns' share of :func:`add_linear`), else
    0: once per tile of columns, for all the rows that meet them."""
    sums[:width] = 0
    if tables.kind != LINEAR:
        return
    values, start = tables.values, np.uint64(j0)
    a = next_attribute(tables, weights, 0, False)
    while a < len(weights):
        w = weights[a]
        for jj in range(np.uint64(width)):
            sums[jj] += w * values[a, start + jj]
        a = next_attribute(tables, weights, a + 1, False)


@numba.njit(cache=True)
def add_attributes(out, tables, weights, rows, j0, width, nominal):
    """out[r, jj] += w_A diff(A, I_rows[r], I_(j0+jj)) over the nominal or
    the numeric attributes (`nominal`, a literal at every call, so each
    kind compiles to its own version), a missing value taken as the 0 it
    is stored as (add_missing_rows and add_missing_columns then correct
    those diffs).  Numeric attributes come here when their diff is
    transformed; linear ones go to :func:`add_linear`.

    The attributes are taken two at a time, in attribute order, and each
    block row takes both terms with one load and one store of `out`.  One
    load of a column value serves all ROWS rows, and each kind of diff has
    its own branch-free loop, so that LLVM vectorises it.
    The loops sit in this function's body: numba's inlining of a function
    that holds the loop made it markedly slower.  The kernels index the
    arrays instead of slicing them: a slice costs an atomic reference count
    that threads contend for.
    """
    values, kind = tables.values, tables.kind
    t_eq, t_diff = tables.t_eq, tables.t_diff
    start = np.uint64(j0)  # unsigned: no negative-index check
    a = next_attribute(tables, weights, 0, nominal)
    while a < len(weights):
        wa, b = weights[a], next_attribute(tables, weights, a + 1, nominal)
        wb = weights[b] if b < len(weights) else as_dtype_of(wa, False)
        b = b if b < len(weights) else a  # the odd one out: itself, weight 0
        xa, xb = row_values(values, a, rows), row_values(values, b, rows)
        if nominal:
            for jj in range(np.uint64(width)):
                va, vb = values[a, start + jj], values[b, start + jj]
                add_block(out, jj, nominal_terms(xa, va, wa),
                          nominal_terms(xb, vb, wb))
        else:
            for jj in range(np.uint64(width)):
                va, vb = values[a, start + jj], values[b, start + jj]
                add_block(out, jj, numeric_terms(xa, va, wa, kind, t_eq, t_diff),
                          numeric_terms(xb, vb, wb, kind, t_eq, t_diff))
        a = next_attribute(tables, weights, b + 1, nominal)


@numba.njit(inline="always", cache=True)
def four_attributes(tables, weights, a, chosen):
    """Attribute a and the next three of the chosen set
    (:func:`next_attribute`), their weights, and where the search for the
    next four starts.  Past the set's last attribute, a stands in with
    weight 0: its terms add nothing."""
    n, zero = len(weights), as_dtype_of(weights[a], False)
    b = next_attribute(tables, weights, a + 1, chosen)
    c = next_attribute(tables, weights, b + 1, chosen)
    d = next_attribute(tables, weights, c + 1, chosen)
    return ((a, b if b < n else a, c if c < n else a, d if d < n else a),
            (weights[a], weights[b] if b < n else zero,
             weights[c] if c < n else zero, weights[d] if d < n else zero),
            d + 1)


@numba.njit(inline="always", cache=True)
def next_attribute(tables, weights, a, chosen):
    """The first attribute from `a` on whose weight is not 0 and that is
    of the chosen set: the nominal ones (chosen=True), the numeric ones
    (False) or those with a missing value (None); len(weights) when
    there is none."""
    if chosen is None:
        while a < len(weights) and (weights[a] == 0 or tables.slot[a] < 0):
            a += 1
    else:
        while a < len(weights) and (weights[a] == 0
                                    or tables.nominal[a] != chosen):
            a += 1
    return a


@numba.njit(cache=True)
def add_missing_rows(out, tables, weights, rows, j0, width):
    """The RELIEF-D diffs (Kononenko 1994, eq. 2.5) of the block rows
    that miss a value.

    add_attributes took row i's missing value of A as 0.  The search
    tables' ``row_correction[s, g, j]`` holds the RELIEF-D diff between a
    value missing in group g and instance j minus the diff of j against 0
    (prepare's _corrections), so adding w row_correction[s, class(i), j]
    along the row makes each of its diffs the RELIEF-D one, both-missing pairs included
    (add_missing_columns adds nothing to those).  Each row visits only the
    attributes it misses, along the contiguous columns (add_gaps).
    """
    for r in range(ROWS):
        add_gaps(out, r, tables, weights, tables.row_correction, rows[r], j0,
                 width)


@numba.njit(inline="always", cache=True)
def add_gaps(dest, d, tables, weights, table, x, start, length):
    """dest[d, k] += w_A table[s_A, group(x), start + k] for k < length,
    summed over the attributes A that instance x misses (tables.gaps).

    The gaps are taken two at a time, so that each pass loads and stores
    dest once for two of them; the loop runs along contiguous entries.
    """
    gaps, slot, g = tables.gaps, tables.slot, tables.groups[x]
    first, zero = np.uint64(start), as_dtype_of(weights[0], False)
    q, stop = tables.gap_start[x], tables.gap_start[x + 1]
    while q < stop:
        a, b = gaps[q], gaps[min(q + 1, stop - 1)]
        wa, wb = weights[a], weights[b] if q + 1 < stop else zero
        sa, sb = slot[a], slot[b]
        for k in range(np.uint64(length)):
            dest[d, k] += (wa * table[sa, g, first + k]
                           + wb * table[sb, g, first + k])
        q += 2


@numba.njit(cache=True)
def add_missing_columns(out, tables, weights, rows, j0, width):
    """The RELIEF-D diffs of the columns that miss a value.

    add_attributes took column j's missing value of A as 0;
    ``column_correction[s, g, i]`` is what turns row i's diff against that 0 into its
    RELIEF-D diff against a value missing in group g, the group of j (0
    where row i misses the value too: add_missing_rows covers the pair).
    The attributes with missing values are taken two at a time, and the
    choice of the corrected columns is a select on their flags (a masked
    add in SIMD) with no unpredictable branch.  The search tables hold the
    instances sorted by group, so the columns fall into runs of one group
    (one run in most tiles), and the corrections depend only on the row
    and the run's group.
    """
    known, fill, groups = tables.known, tables.column_correction, tables.groups
    start, stop = np.uint64(j0), j0 + width
    lo = j0
    while lo < stop:
        hi = run_end(groups, lo, stop)
        g = groups[lo]
        a = next_attribute(tables, weights, 0, None)
        while a < len(weights):
            wa, b = weights[a], next_attribute(tables, weights, a + 1, None)
            wb = weights[b] if b < len(weights) else as_dtype_of(wa, False)
            b = b if b < len(weights) else a  # as in add_attributes
            sa, sb = tables.slot[a], tables.slot[b]
            ca = fill_terms(fill, sa, g, rows, wa)
            cb = fill_terms(fill, sb, g, rows, wb)
            zero = as_dtype_of(wa, False)
            for jj in range(np.uint64(lo - j0), np.uint64(hi - j0)):
                add_masked(out, jj, ca, known[sa, start + jj] == zero,
                           cb, known[sb, start + jj] == zero)
            a = next_attribute(tables, weights, b + 1, None)
        lo = hi


@numba.njit(inline="always", cache=True)
def run_end(groups, lo, stop):
    """The end of the run of group groups[lo] in [lo, stop): the first
    position whose group differs (binary search; groups are sorted)."""
    g = groups[lo]
    if groups[stop - 1] == g:
        return stop
    inside, outside = lo, stop - 1
    while outside - inside > 1:
        mid = (inside + outside) // 2
        if groups[mid] == g:
            inside = mid
        else:
            outside = mid
    return outside


@numba.njit(cache=True)
def distance_rows(tables, weights, rows, j0, width, out, sums, columns):
    """out[r, jj] = sum_A w_A diff(A, I_rows[r], I_(j0 + jj)) (eq. 2.1, 3.1).

    The columns are j0 .. j0 + width - 1, width at most out's width;
    `sums` holds their :func:`column_sums`, from sums[0] on.
    The numeric attributes (:func:`add_linear`, or in pairs when their
    diff is transformed), the nominal ones in pairs (add_attributes), then
    the RELIEF-D corrections of missing values, the columns' only when
    `columns` (the search of all pairs adds them itself, see
    column_corrections): the float32 error bound holds for any order of
    the sum, and the order does not depend on the blocking.
    """
    if tables.kind == LINEAR:
        add_linear(out, tables, weights, rows, j0, width, sums)
    else:
        out[:, :width] = 0
        add_attributes(out, tables, weights, rows, j0, width, False)
    add_attributes(out, tables, weights, rows, j0, width, True)
    if tables.known.shape[0] > 0:
        add_missing_rows(out, tables, weights, rows, j0, width)
        if columns:
            add_missing_columns(out, tables, weights, rows, j0, width)

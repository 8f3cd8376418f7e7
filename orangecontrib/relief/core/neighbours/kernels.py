"""Step 2 of every Relief variant: find the near hits and near misses.

For each reference instance R the search returns the k nearest instances of
every group (class; a single group in regression), nearest first.  The
distance is the weighted sum of diffs (Prat & Belanche 2006, eq. 2.1 and,
with attribute weights, eq. 3.1).  R is never its own neighbour; ties are
broken by the lower instance index; a group with fewer than k candidates
returns all it has and pads with -1.

The search ranks candidates in float32, which doubles the SIMD width, and
keeps k + EXTRA of them.  A proven bound on the float32 error decides: a
list whose consecutive distances differ by more than twice the bound is in
exact order already (almost every list of continuous data); the others are
ranked again by their float64 distance, and the bound tells whether an
instance outside the list could still belong in it (a near tie), in which
case that list is rebuilt from exact distances.  The result is that of
float64 arithmetic.

The search tables hold the instances sorted by class (PreparedData.
search_order); the lists are returned in instance numbers, and the order
within a class, hence the tie-break by index, is that of the instances.
A missing value is stored as 0 and every attribute first takes its diff
against that 0 (add_attributes); two corrections then make those diffs
Kononenko's RELIEF-D ones: a sparse pass along the rows that miss a value
(add_missing_rows), and the same for the columns.  A column's correction
depends on the row and the column's class only; the all-pairs search sums
each column's once for a whole tile, along the tile's rows
(column_corrections), and adds them transposed (add_column_corrections);
a search of a few references adds them with a masked pass over the
columns (add_missing_columns), whose sorted classes fall into runs.

Two searches, one distance kernel:

* every instance a reference (Kononenko's deterministic "Relieved" mode,
  m = n): the distance is symmetric, so each pair is computed once, in
  cache-sized tiles, and offered to both ends' top-k lists.  The tiles are
  scheduled in rounds of pairs that share no instance (a round-robin
  tournament), so the threads of a round update disjoint lists.
* a subset of references: one row of distances per reference, in parallel.

The float32 top-k lists hold one integer key per candidate (:mod:`.topk`),
so that an insertion compares and moves one number.

Memory is O(n * a) for the data (O(n * a * groups) with missing values)
plus O(n * groups * k) for the top-k lists: never an n x n matrix.
"""
import numba
import numpy as np
from numba import prange

from .diffs import (LINEAR, RAMP, SQUARED, as_dtype_of, attribute_diff,
                    every_attribute_slotted, linear_diff, slotted_linear_diff,
                    transform)
from .topk import (INF_BITS, candidate_key, empty_keys, insert_key, key_bits,
                   offer, order_bits, unpack_keys)

BLOCK = 256  # instances per tile side: a tile's columns stay in L1/L2


ROWS = 4  # rows of a distance block: each loaded column value serves 4 rows


@numba.njit(cache=True)
def add_attributes(out, tables, weights, rows, j0, width, nominal):
    """out[r, jj] += w_A diff(A, I_rows[r], I_(j0+jj)) over the nominal or
    the numeric attributes (`nominal`, a literal at every call, so each
    kind compiles to its own version), a missing value taken as the 0 it
    is stored as (add_missing_rows and add_missing_columns then correct
    those diffs).

    The attributes are taken two at a time, in attribute order, and each
    block row takes both terms with one load and one store of `out`: the
    loop is bound by those, not by the arithmetic.  One load of a column
    value serves all ROWS rows, and each kind of diff has its own
    branch-free loop, so that LLVM vectorises it.
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
        elif kind == LINEAR:
            for jj in range(np.uint64(width)):
                va, vb = values[a, start + jj], values[b, start + jj]
                add_block(out, jj, linear_terms(xa, va, wa),
                          linear_terms(xb, vb, wb))
        else:
            for jj in range(np.uint64(width)):
                va, vb = values[a, start + jj], values[b, start + jj]
                add_block(out, jj, numeric_terms(xa, va, wa, kind, t_eq, t_diff),
                          numeric_terms(xb, vb, wb, kind, t_eq, t_diff))
        a = next_attribute(tables, weights, b + 1, nominal)


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
def linear_terms(x, v, w):
    """w |x_r - v| of a numeric attribute for the block rows."""
    return (w * abs(x[0] - v), w * abs(x[1] - v),
            w * abs(x[2] - v), w * abs(x[3] - v))


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


@numba.njit(cache=True)
def add_missing_rows(out, tables, weights, rows, j0, width):
    """The RELIEF-D diffs (Kononenko 1994, eq. 2.5) of the block rows
    that miss a value.

    add_attributes took row i's missing value of A as 0.  The search
    tables' ``one[s, g, j]`` holds the RELIEF-D diff between a value
    missing in group g and instance j minus the diff of j against 0
    (prepare's _fill_in), so adding w one[s, class(i), j] along the row
    makes each of its diffs the RELIEF-D one, both-missing pairs included
    (add_missing_columns adds nothing to those).  Each row visits only the
    attributes it misses, along the contiguous columns (add_gaps).
    """
    for r in range(ROWS):
        add_gaps(out, r, tables, weights, tables.one, rows[r], j0, width)


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
    ``fill[s, g, i]`` is what turns row i's diff against that 0 into its
    RELIEF-D diff against a value missing in group g, the group of j (0
    where row i misses the value too: add_missing_rows covers the pair).
    The attributes with missing values are taken two at a time, and the
    choice of the corrected columns is a select on their flags (a masked
    add in SIMD) with no unpredictable branch.  The search tables hold the
    instances sorted by group, so the columns fall into runs of one group
    (one run in most tiles), and the corrections depend only on the row
    and the run's group.
    """
    known, fill, groups = tables.known, tables.fill, tables.groups
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
            ca, cb = fill_terms(fill, sa, g, rows, wa), fill_terms(fill, sb, g, rows, wb)
            zero = as_dtype_of(wa, False)
            for jj in range(np.uint64(lo - j0), np.uint64(hi - j0)):
                ma = known[sa, start + jj] == zero
                mb = known[sb, start + jj] == zero
                out[0, jj] = corrected(corrected(out[0, jj], ca[0], ma), cb[0], mb)
                out[1, jj] = corrected(corrected(out[1, jj], ca[1], ma), cb[1], mb)
                out[2, jj] = corrected(corrected(out[2, jj], ca[2], ma), cb[2], mb)
                out[3, jj] = corrected(corrected(out[3, jj], ca[3], ma), cb[3], mb)
            a = next_attribute(tables, weights, b + 1, None)
        lo = hi


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


@numba.njit(cache=True)
def column_corrections(tables, weights, i0, height, j0, width, ct):
    """ct[jj, ii]: the RELIEF-D correction of add_missing_columns for
    column j = j0 + jj and row i0 + ii, for a whole tile at once::

        ct[jj, ii] = sum of w_A fill[s_A, group(j), i0 + ii]
                     over the attributes A that column j misses

    Each column visits only its gaps, along the tile's rows (add_gaps):
    the search of all pairs sums a column's corrections once for its
    BLOCK rows, where a masked pass over every attribute would, for each
    block of ROWS rows.
    """
    for jj in range(width):
        ct[jj, :height] = 0
        add_gaps(ct, jj, tables, weights, tables.fill, j0 + jj, i0, height)


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
def distance_rows(tables, weights, rows, j0, width, out, columns=True):
    """out[r, jj] = sum_A w_A diff(A, I_rows[r], I_(j0 + jj)) (eq. 2.1, 3.1).

    The columns are j0 .. j0 + width - 1, width <= BLOCK (out's width).
    The nominal and then the numeric attributes are added in pairs
    (add_attributes), then the RELIEF-D corrections of missing values,
    the columns' only when `columns` (the search of all pairs adds them
    itself, see column_corrections): the float32 error bound holds for
    any order of the sum, and the order does not depend on the blocking.
    """
    out[:, :width] = 0
    add_attributes(out, tables, weights, rows, j0, width, True)
    add_attributes(out, tables, weights, rows, j0, width, False)
    if tables.one.shape[0] > 0:
        add_missing_rows(out, tables, weights, rows, j0, width)
        if columns:
            add_missing_columns(out, tables, weights, rows, j0, width)


@numba.njit(inline="always", cache=True)
def block_rows(first, stop, rows):
    """rows = first, first + 1, ... up to ROWS indices below `stop`, the
    last one repeated as padding; returns how many are real."""
    count = min(ROWS, stop - first)
    for r in range(ROWS):
        rows[r] = first + min(r, count - 1)
    return count


@numba.njit(inline="always", cache=True)
def offer_tracked(keys, kth, i, g, key):
    """insert_key() into list (i, g) and keep the bits of its K-th
    distance in kth[g, i]."""
    row = i * kth.shape[0] + g
    insert_key(keys, row, key)
    kth[g, i] = key_bits(keys[row, keys.shape[1] - 1])


@numba.njit(parallel=True, cache=True)
def search_all_pairs(tables, weights, tile_rows, tile_cols, keys, kth):
    """Offer every pair (i < j) of the given tiles to both top-k lists.

    The tiles are one round of :func:`tile_rounds`: no two share an
    instance, so the threads update disjoint lists (no locks, no copies).
    Lists are rows ``i * n_groups + g`` of `keys`; ``kth[g, i]`` mirrors
    the ordered bits of each list's K-th distance (the block's distances
    are turned into such bits, see :mod:`.topk`), so that a row of a
    distance block is first reduced, branch-free and with contiguous
    loads, to the columns that may enter a list: j's list of i's group, or
    i's list of j's group, one bound for a run of columns of one group.
    Only those reach the exact tests (which see the bounds tightened by
    this row's offers).  With missing values, a tile's column corrections
    are summed once (:func:`column_corrections`).
    """
    n = tables.values.shape[1]
    groups = tables.groups
    missing = tables.one.shape[0] > 0
    for p in prange(len(tile_rows)):
        out = np.empty((ROWS, BLOCK), dtype=np.float32)
        bits = out.view(np.uint32)
        rows = np.empty(ROWS, dtype=np.int64)
        hits = np.empty(BLOCK, dtype=np.int64)
        ct = np.empty((BLOCK if missing else 0, BLOCK), dtype=np.float32)
        i0, j0 = tile_rows[p] * BLOCK, tile_cols[p] * BLOCK
        istop, jstop = min(i0 + BLOCK, n), min(j0 + BLOCK, n)
        if missing:
            column_corrections(tables, weights, i0, istop - i0, j0,
                               jstop - j0, ct)
        for first in range(i0, istop, ROWS):
            count = block_rows(first, istop, rows)
            jfirst = max(j0, first + 1)  # a diagonal tile: j > i only
            if jfirst >= jstop:
                continue
            distance_rows(tables, weights, rows, jfirst, jstop - jfirst, out,
                          False)
            if missing:
                add_column_corrections(out, ct, rows, i0, jfirst - j0,
                                       jstop - jfirst)
            order_bits(bits, jstop - jfirst)
            ufirst = np.uint64(jfirst)  # unsigned: no negative-index checks
            for r in range(count):
                i = rows[r]
                gi = groups[i]
                found = np.uint64(0)
                lo = max(jfirst, i + 1)
                while lo < jstop:
                    hi = run_end(groups, lo, jstop)
                    bound = kth[groups[lo], i]
                    for j in range(np.uint64(lo), np.uint64(hi)):
                        d = bits[r, j - ufirst]
                        hits[found] = j
                        found += np.uint64((d <= kth[gi, j]) | (d <= bound))
                    lo = hi
                for h in range(found):
                    j = hits[h]
                    d, g = bits[r, j - jfirst], groups[j]
                    if d <= kth[gi, j]:
                        offer_tracked(keys, kth, j, gi, candidate_key(d, i))
                    if d <= kth[g, i]:
                        offer_tracked(keys, kth, i, g, candidate_key(d, j))


def tile_rounds(n_tiles):
    """All tile pairs (I <= J) in rounds whose pairs share no tile.

    The diagonal tiles form one round; the others follow the circle method
    of round-robin tournaments (n_tiles - 1 rounds, or n_tiles when odd).
    Returns the rows and columns of the pairs, round after round, and where
    each round starts.
    """
    rounds = [[(t, t) for t in range(n_tiles)]]
    teams = list(range(n_tiles)) + [-1] * (n_tiles % 2)  # -1: a bye
    for _ in range(len(teams) - 1):
        pairs = zip(teams[:len(teams) // 2], teams[::-1])
        rounds.append([(min(a, b), max(a, b)) for a, b in pairs
                       if a >= 0 and b >= 0])
        teams = teams[:1] + teams[-1:] + teams[1:-1]
    rounds = [r for r in rounds if r]  # one tile: no off-diagonal round
    pairs = np.array([pair for r in rounds for pair in r], dtype=np.int64)
    starts = np.cumsum([0] + [len(r) for r in rounds])
    return pairs[:, 0], pairs[:, 1], starts


@numba.njit(cache=True)
def search_rows(tables, weights, rows, count, list_rows, n_groups, keys, out):
    """Top-k lists of the references rows[:count] against all instances.

    Reference r's neighbours of group g go to list row
    ``list_rows[r] * n_groups + g`` of `keys` (:mod:`.topk`).  `out` is a
    float32 (ROWS, BLOCK) buffer.  Sequential variants (double ReliefF) call
    this for one reference at a time with their current weights.
    """
    n = tables.values.shape[1]
    groups = tables.groups
    bits = out.view(np.uint32)
    for j0 in range(0, n, BLOCK):
        width = min(j0 + BLOCK, n) - j0
        distance_rows(tables, weights, rows, j0, width, out)
        order_bits(bits, width)
        for r in range(count):
            for jj in range(width):
                j = j0 + jj
                row = list_rows[r] * n_groups + groups[j]
                if j != rows[r]:
                    insert_key(keys, row, candidate_key(bits[r, jj], j))


@numba.njit(parallel=True, cache=True)
def search_references(tables, weights, refs, keys):
    """Top-k lists of the given reference instances, ROWS at a time."""
    n_groups = keys.shape[0] // len(refs)
    for b in prange(-(-len(refs) // ROWS)):
        out = np.empty((ROWS, BLOCK), dtype=np.float32)
        positions = np.empty(ROWS, dtype=np.int64)
        count = block_rows(b * ROWS, len(refs), positions)
        search_rows(tables, weights, refs[positions], count, positions,
                    n_groups, keys, out)


@numba.njit(cache=True)  # compiled once for its several callers
def exact_distance(exact, weights, i, j):
    """sum_A w_A diff(A, I_i, I_j) in float64, in column order (eq. 3.1).

    The re-ranking passes the float32 weights the search used, widened;
    CDRELIEF's pooling and Euclidean distances pass float64 weights."""
    d = 0.0
    if exact.one.shape[0] == 0 and exact.kind == LINEAR:  # the common case
        for a in range(exact.values.shape[0]):
            d += weights[a] * linear_diff(exact.values[a, i], exact.values[a, j],
                                          exact.nominal[a])
        return d
    if exact.kind == LINEAR and every_attribute_slotted(exact):
        gi, gj = exact.groups[i], exact.groups[j]
        for a in range(exact.values.shape[0]):
            d += weights[a] * slotted_linear_diff(exact, a, i, j, gi, gj)
        return d
    for a in range(exact.values.shape[0]):
        if weights[a] != 0:
            d += weights[a] * attribute_diff(exact, a, i, j)
    return d


@numba.njit(cache=True)  # rarely run: compiled once, not inlined
def float32_row(search, weights32, i, row, out, rows):
    """row[j] = the float32 search distance of search positions i and j."""
    n = search.values.shape[1]
    rows[:] = i
    for j0 in range(0, n, BLOCK):
        width = min(j0 + BLOCK, n) - j0
        distance_rows(search, weights32, rows, j0, width, out)
        row[j0:j0 + width] = out[0, :width]


@numba.njit(cache=True)  # rarely run: compiled once, not inlined
def rescan_exactly(exact, weights, i, g, row, order, dist, index, delta):
    """Rebuild reference i's list of group g with exact distances.

    ``row[p]`` is the float32 distance to instance ``order[p]`` (the search
    order).  The true k nearest are at most dist[0, -1] (the exact k-th
    distance of some k candidates) away, so their float32 distance is at
    most delta more: only those candidates need their exact distance.
    """
    n = exact.values.shape[1]
    limit = dist[0, dist.shape[1] - 1] + delta
    dist[:] = np.inf
    index[:] = n
    for p in range(n):
        j = order[p]
        if row[p] <= limit and j != i and exact.groups[j] == g:
            offer(dist, index, 0, exact_distance(exact, weights, i, j), j)


@numba.njit(inline="always", cache=True)
def float32_order_is_exact(dist, found, k, delta):
    """True when a float32 top list provably ranks as exact arithmetic.

    Each float32 distance is within `delta` of the exact one, so when
    consecutive distances up to the (k + 1)-th differ by more than
    2 delta, the exact order of the first k is the same and everything
    beyond them is farther.  With delta == 0 the float32 distances are
    exact, and the search already broke their ties by index.
    """
    if delta == 0:
        return True
    for s in range(min(k, found - 1)):
        if np.float64(dist[s + 1]) - np.float64(dist[s]) <= 2 * delta:
            return False
    return True


@numba.njit(cache=True)
def rerank_reference(search, exact, weights32, weights, i, candidates,
                     cand_dist, delta, order, position, out):
    """Instance i's k nearest of each group by exact distance, from its
    float32 lists.

    ``candidates[g]`` are i's K nearest instances of group g by float32
    distance ``cand_dist[g]`` (K > k, the search's EXTRA), `weights` the
    float64 copy of the search's `weights32`; ``out[g]`` receives the k
    nearest, -1 where the group ran out.  A list whose float32 order is
    provably exact (:func:`float32_order_is_exact`, almost every list of
    continuous data) is kept; the others are ranked again by exact
    (distance, index) in float64.  The float32 distance of any pair is
    within `delta` of the exact one, so an instance outside the list is at
    least ``cand_dist[g, K - 1] - delta`` away: when that is above the
    exact k-th distance the list is provably right; otherwise (a near tie
    beyond the K candidates) the group is scanned again
    (:func:`rescan_exactly`) over i's float32 row of distances.
    Everything here is in instance numbers, except the float32 row, which
    is in the search tables' `order` (instance order[p] at position p;
    `position` is its inverse).
    """
    n = exact.values.shape[1]
    n_groups, k = out.shape
    last = candidates.shape[1] - 1
    dist = np.empty((1, k))
    index = np.empty((1, k), dtype=np.int64)
    row = np.empty(0, dtype=search.values.dtype)
    for g in range(n_groups):
        found = 0
        while found <= last and candidates[g, found] < n:
            found += 1
        if float32_order_is_exact(cand_dist[g], found, k, delta):
            for s in range(k):
                out[g, s] = candidates[g, s] if s < found else -1
            continue
        dist[:] = np.inf
        index[:] = n
        for s in range(found):
            j = candidates[g, s]
            offer(dist, index, 0, exact_distance(exact, weights, i, j), j)
        if found == last + 1 and cand_dist[g, last] - delta <= dist[0, k - 1]:
            if len(row) == 0:
                row = np.empty(n, dtype=search.values.dtype)
                float32_row(search, weights32, position[i], row,
                            np.empty((ROWS, BLOCK), dtype=row.dtype),
                            np.empty(ROWS, dtype=np.int64))
            rescan_exactly(exact, weights, i, g, row, order, dist, index,
                           delta)
        for s in range(k):
            out[g, s] = index[0, s] if index[0, s] < n else -1


@numba.njit(parallel=True, cache=True)
def rerank_exactly(search, exact, weights32, refs, candidates, cand_dist,
                   delta, order, position, out):
    """:func:`rerank_reference` for each reference: ``candidates[r]``,
    ``cand_dist[r]`` are refs[r]'s float32 lists, ``out[r]`` its result."""
    weights = weights32.astype(np.float64)
    for r in prange(len(refs)):
        rerank_reference(search, exact, weights32, weights, refs[r],
                         candidates[r], cand_dist[r], delta, order, position,
                         out[r])


@numba.njit(cache=True)
def float32_error_bound(tables, weights):
    """A bound on |float32 distance - exact distance| of any pair.

    Each term w_A diff(A) carries the rounding of the two values, their
    difference, the transform (scaled by its slope L), the weight and the
    product, at most |w_A| (3L + 4) u with u = 2^-24.  Every partial sum
    is a sum of terms w_A d_A with |d_A| <= 1, so each addition adds at
    most u * sum(|w|): one per attribute, and with missing values one per
    correction too (distance_rows, column_corrections): one per value the
    pair misses, at most twice the most any instance misses, and one for
    a tile's corrections.  A RELIEF-D correction's own term (the table
    entry rounded to float32, the diff against 0 it replaces, their
    difference, the product) adds at most |w_A| (L + 4) u, once per
    attribute.  A ramp with t_eq == t_diff is a step (unbounded slope):
    every list is then checked in float64.
    Nominal attributes without missing values and integer weights give
    integer distances, exact in float32 (bound 0).
    """
    total, integral = 0.0, True
    for w in weights:
        total += abs(np.float64(w))
        integral &= np.floor(w) == w
    if (integral and total < 2 ** 24 and tables.one.shape[0] == 0
            and tables.nominal.all()):
        return 0.0
    u = 2.0 ** -24
    slope = 2.0 if tables.kind == SQUARED else 1.0
    if tables.kind == RAMP:
        width = np.float64(tables.t_diff) - np.float64(tables.t_eq)
        slope = np.inf if width <= 0 else max(1.0, 1.0 / width)
    additions, terms = len(weights), 3 * slope + 4
    if tables.one.shape[0]:
        most_missed = np.diff(tables.gap_start).max()
        additions += 2 * most_missed + 1
        terms += slope + 4
    return 1.01 * u * total * (terms + additions) + 1e-12 * total


def _report(progress_callback, done):
    if progress_callback is not None:
        progress_callback(done)


def _all_pairs(tables, weights, k, n_groups, progress_callback, n_steps):
    n = tables.values.shape[1]
    tile_rows, tile_cols, starts = tile_rounds(-(-n // BLOCK))
    keys = empty_keys((n * n_groups, k), n)
    kth = np.full((n_groups, n), INF_BITS, np.uint32)
    n_rounds = len(starts) - 1
    for r in range(n_rounds):
        pairs = slice(starts[r], starts[r + 1])
        search_all_pairs(tables, weights, tile_rows[pairs], tile_cols[pairs],
                         keys, kth)
        if (r + 1) * n_steps // n_rounds > r * n_steps // n_rounds:
            _report(progress_callback, (r + 1) / n_rounds)
    return keys


def _references(tables, weights, refs, k, n_groups, progress_callback, n_steps):
    keys = empty_keys((len(refs) * n_groups, k), tables.values.shape[1])
    bounds = np.linspace(0, len(refs), n_steps + 1).astype(int)
    for step, (start, stop) in enumerate(zip(bounds[:-1], bounds[1:])):
        search_references(tables, weights, refs[start:stop],
                          keys[start * n_groups:stop * n_groups])
        _report(progress_callback, (step + 1) / n_steps)
    return keys


EXTRA = 4  # float32 candidates kept beyond k for the exact re-ranking


def find_neighbours(data, refs, k, weights=None, progress_callback=None):
    """The k nearest instances of each group to each reference.

    The search runs in float32 (:attr:`PreparedData.search`, instances in
    search order) for k + EXTRA candidates, which are then numbered as
    instances again and ranked by their exact float64 distance
    (:func:`rerank_exactly`): the result is that of exact arithmetic,
    ties going to the lower index.

    Parameters
    ----------
    data : PreparedData
    refs : int array (m,)
        Reference instances, repeats allowed.
    k : int
    weights : float array (a,) or None
        Attribute weights in the distance (eq. 3.1); None for all ones.
    progress_callback : callable(float) or None
        Called with the fraction done; it may raise to cancel the search.

    Returns
    -------
    int array (m, n_groups, k)
        Neighbour indices, nearest first, -1 where a group ran out.
    """
    tables, n_groups = data.search, data.n_groups
    n, n_attrs = tables.values.shape[1], tables.values.shape[0]
    weights = (np.ones(n_attrs) if weights is None
               else np.asarray(weights, dtype=np.float64))
    weights32 = weights.astype(np.float32)
    unique, inverse = np.unique(refs, return_inverse=True)
    position = data.search_position
    positions = position[unique]
    n_steps = 1 if progress_callback is None else 20
    n_candidates = k + EXTRA
    if 2 * len(unique) >= n:
        keys = _all_pairs(tables, weights32, n_candidates, n_groups,
                          progress_callback, n_steps)
        keys = keys.reshape(n, n_groups, n_candidates)[positions]
    else:
        keys = _references(tables, weights32, positions, n_candidates,
                           n_groups, progress_callback, n_steps)
        keys = keys.reshape(len(unique), n_groups, n_candidates)
    index = np.empty(keys.shape, np.int64)
    dist = np.empty(keys.shape, np.float32)
    unpack_keys(keys.reshape(-1, n_candidates), data.search_order,
                index.reshape(-1, n_candidates),
                dist.reshape(-1, n_candidates))
    delta = float32_error_bound(tables, weights32)
    exact = np.empty((len(unique), n_groups, k), np.int64)
    rerank_exactly(tables, data.exact, weights32, unique, index, dist, delta,
                   data.search_order, position, exact)
    return exact[inverse]

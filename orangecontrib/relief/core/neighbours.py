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
Sorted, a tile's columns fall into runs of one class, and a missing value
(stored as 0) is corrected by one multiply-add of a per-row, per-class
term (add_block); rows that miss a value add their RELIEF-D diffs in a
sparse pass (add_missing_rows).

Two searches, one distance kernel:

* every instance a reference (Kononenko's deterministic "Relieved" mode,
  m = n): the distance is symmetric, so each pair is computed once, in
  cache-sized tiles, and offered to both ends' top-k lists.  The tiles are
  scheduled in rounds of pairs that share no instance (a round-robin
  tournament), so the threads of a round update disjoint lists.
* a subset of references: one row of distances per reference, in parallel.

Memory is O(n * a) for the data (O(n * a * groups) with missing values)
plus O(n * groups * k) for the top-k lists: never an n x n matrix.
"""
import numba
import numpy as np
from numba import prange

from .diffs import (LINEAR, RAMP, SQUARED, as_dtype_of, attribute_diff,
                    every_attribute_slotted, linear_diff, slotted_linear_diff,
                    transform)

BLOCK = 256  # instances per tile side: a tile's columns stay in L1/L2


@numba.njit(inline="always", cache=True)
def offer(dist, index, row, d, j):
    """Insert candidate `j` at distance `d` into the sorted top-k list `row`.

    The list is ordered by (distance, index), so equal distances keep the
    lower index first; empty slots hold distance inf and index > any j.
    Callers test ``d <= dist[row, -1]`` first: a call costs reference
    counting on the arrays, and almost every candidate is rejected.
    """
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


ROWS = 4  # rows of a distance block: each loaded column value serves 4 rows


@numba.njit(cache=True)
def add_attributes(out, tables, weights, rows, j0, width, known):
    """out[r, jj] += w_A diff(A, I_rows[r], I_(j0+jj)) over a set of attributes.

    ``known=None``: the attributes without missing values, in plain loops;
    ``known=tables.known``: those with missing values (a second compiled
    version), whose columns add_block corrects where a value is missing.
    The search tables hold the instances sorted by group, so the columns
    fall into runs of one group (one run in most tiles) and a missing
    column's correction depends only on the row and the run's group.
    One load of a column value serves all ROWS rows, and each kind of diff
    has its own branch-free loop, so that LLVM vectorises it.  The loops
    sit in this function's body: numba's inlining of a function that holds
    the loop made it markedly slower.  The kernels index the arrays instead
    of slicing them: a slice costs an atomic reference count that threads
    contend for.
    """
    values, nominal, slot = tables.values, tables.nominal, tables.slot
    kind, t_eq, t_diff = tables.kind, tables.t_eq, tables.t_diff
    start, stop = np.uint64(j0), j0 + width  # unsigned: no negative-index check
    for a in range(values.shape[0]):
        s, w = slot[a], weights[a]
        if w == 0 or (s < 0) != (known is None):
            continue
        x0, x1, x2, x3 = (values[a, rows[0]], values[a, rows[1]],
                          values[a, rows[2]], values[a, rows[3]])
        if known is None:
            w0 = w1 = w2 = w3 = w
        else:
            w0, w1, w2, w3 = known_weights(w, known, s, rows)
        lo = j0
        while lo < stop:
            if known is None:
                hi, missing = stop, None
            else:
                hi = run_end(tables.groups, lo, stop)
                g, fill = tables.groups[lo], tables.fill
                missing = (known, s, as_dtype_of(x0, True),
                           (w * fill[s, g, rows[0]], w * fill[s, g, rows[1]],
                            w * fill[s, g, rows[2]], w * fill[s, g, rows[3]]))
            first, last = np.uint64(lo - j0), np.uint64(hi - j0)
            if nominal[a]:
                for jj in range(first, last):
                    v = values[a, start + jj]
                    add_block(out, jj, w0 * as_dtype_of(v, x0 != v),
                              w1 * as_dtype_of(v, x1 != v),
                              w2 * as_dtype_of(v, x2 != v),
                              w3 * as_dtype_of(v, x3 != v), missing, start)
            elif kind == LINEAR:
                for jj in range(first, last):
                    v = values[a, start + jj]
                    add_block(out, jj, w0 * abs(x0 - v), w1 * abs(x1 - v),
                              w2 * abs(x2 - v), w3 * abs(x3 - v), missing,
                              start)
            else:
                for jj in range(first, last):
                    v = values[a, start + jj]
                    add_block(out, jj,
                              w0 * transform(abs(x0 - v), kind, t_eq, t_diff),
                              w1 * transform(abs(x1 - v), kind, t_eq, t_diff),
                              w2 * transform(abs(x2 - v), kind, t_eq, t_diff),
                              w3 * transform(abs(x3 - v), kind, t_eq, t_diff),
                              missing, start)
            lo = hi


@numba.njit(inline="always", cache=True)
def add_block(out, jj, t0, t1, t2, t3, missing, start):
    """out[r, jj] += t_r, or for a column with missing values (``missing =
    (known, s, 1, c)``) the term its value calls for::

        t_r + (1 - known[s, j]) * c[r]

    A missing value is stored as 0, so t_r is then row r's diff against 0,
    and c[r] = w fill[s, g, I_r] (g: the group of the run) turns it into
    the RELIEF-D diff w one[s, g, I_r] (0 for a row that misses the value
    too: add_missing_rows adds its diffs).
    The flag is 0 or 1 and the terms finite, so a known value's term is t_r
    exactly, with no unpredictable branch.
    """
    if missing is None:
        out[0, jj] += t0
        out[1, jj] += t1
        out[2, jj] += t2
        out[3, jj] += t3
    else:
        known, s, unit, c = missing
        m = unit - known[s, start + jj]
        out[0, jj] += t0 + m * c[0]
        out[1, jj] += t1 + m * c[1]
        out[2, jj] += t2 + m * c[2]
        out[3, jj] += t3 + m * c[3]


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


@numba.njit(inline="always", cache=True)
def known_weights(w, known, s, rows):
    """w_r = w for a block row whose value of slot s is known, else 0."""
    return (w * known[s, rows[0]], w * known[s, rows[1]],
            w * known[s, rows[2]], w * known[s, rows[3]])


@numba.njit(cache=True)
def add_missing_rows(out, tables, weights, rows, j0, width):
    """The RELIEF-D diffs of the rows whose value is missing.

    add_attributes added 0 for them (w_r = 0); such a row takes
    w one[s, class(i), j] for every column j, both-missing pairs included.
    Each row visits only the attributes it misses (tables.gaps).
    """
    one, slot = tables.one, tables.slot
    start = np.uint64(j0)  # unsigned indices: the loops vectorise
    for r in range(ROWS):
        i = rows[r]
        g = tables.groups[i]
        for q in range(tables.gap_start[i], tables.gap_start[i + 1]):
            a = tables.gaps[q]
            s, w = slot[a], weights[a]
            for jj in range(np.uint64(width)):
                out[r, jj] += w * one[s, g, start + jj]


@numba.njit(cache=True)
def distance_rows(tables, weights, rows, j0, width, out):
    """out[r, jj] = sum_A w_A diff(A, I_rows[r], I_(j0 + jj)) (eq. 2.1, 3.1).

    The columns are j0 .. j0 + width - 1, width <= BLOCK (out's width).
    Attributes without missing values are added first, then those with:
    each term lies in [0, w_A], so the float32 error bound holds for any
    order of the sum, and the order does not depend on the blocking.
    """
    out[:, :width] = 0
    add_attributes(out, tables, weights, rows, j0, width, None)
    if tables.one.shape[0] > 0:
        add_attributes(out, tables, weights, rows, j0, width, tables.known)
        add_missing_rows(out, tables, weights, rows, j0, width)


@numba.njit(inline="always", cache=True)
def block_rows(first, stop, rows):
    """rows = first, first + 1, ... up to ROWS indices below `stop`, the
    last one repeated as padding; returns how many are real."""
    count = min(ROWS, stop - first)
    for r in range(ROWS):
        rows[r] = first + min(r, count - 1)
    return count


@numba.njit(inline="always", cache=True)
def offer_tracked(dist, index, kth, i, g, d, j):
    """offer() to list (i, g) and keep its K-th distance in kth[g, i]."""
    row = i * kth.shape[0] + g
    offer(dist, index, row, d, j)
    kth[g, i] = dist[row, dist.shape[1] - 1]


@numba.njit(parallel=True, cache=True)
def search_all_pairs(tables, weights, tile_rows, tile_cols, dist, index, kth):
    """Offer every pair (i < j) of the given tiles to both top-k lists.

    The tiles are one round of :func:`tile_rounds`: no two share an
    instance, so the threads update disjoint lists (no locks, no copies).
    Lists are rows ``i * n_groups + g`` of `dist` and `index`; ``kth[g, i]``
    mirrors each list's K-th distance, so that a row of a distance block is
    first reduced, branch-free and with contiguous loads, to the columns
    that pass a loose test (their own list's bound, or the row's loosest
    one); only those reach the exact tests.
    """
    n, n_groups = tables.values.shape[1], kth.shape[0]
    groups = tables.groups
    for p in prange(len(tile_rows)):
        out = np.empty((ROWS, BLOCK), dtype=tables.values.dtype)
        rows = np.empty(ROWS, dtype=np.int64)
        hits = np.empty(BLOCK, dtype=np.int64)
        i0, j0 = tile_rows[p] * BLOCK, tile_cols[p] * BLOCK
        jstop = min(j0 + BLOCK, n)
        for first in range(i0, min(i0 + BLOCK, n), ROWS):
            count = block_rows(first, min(i0 + BLOCK, n), rows)
            if first + 1 >= jstop:
                continue
            distance_rows(tables, weights, rows, j0, jstop - j0, out)
            for r in range(count):
                i = rows[r]
                gi, reach = groups[i], kth[0, i]
                for g in range(1, n_groups):
                    reach = max(reach, kth[g, i])
                found = 0
                for j in range(max(j0, i + 1), jstop):
                    d = out[r, j - j0]
                    hits[found] = j
                    found += (d <= kth[gi, j]) | (d <= reach)
                for h in range(found):
                    j = hits[h]
                    d, g = out[r, j - j0], groups[j]
                    if d <= kth[gi, j]:
                        offer_tracked(dist, index, kth, j, gi, d, i)
                    if d <= kth[g, i]:
                        offer_tracked(dist, index, kth, i, g, d, j)


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
def search_rows(tables, weights, rows, count, list_rows, n_groups, dist,
                index, out):
    """Top-k lists of the references rows[:count] against all instances.

    Reference r's neighbours of group g go to list row
    ``list_rows[r] * n_groups + g``.  `out` is a (ROWS, BLOCK) buffer.
    Sequential variants (double ReliefF) call this for one reference at a
    time with their current weights.
    """
    n = tables.values.shape[1]
    groups = tables.groups
    last = dist.shape[1] - 1
    for j0 in range(0, n, BLOCK):
        width = min(j0 + BLOCK, n) - j0
        distance_rows(tables, weights, rows, j0, width, out)
        for r in range(count):
            for jj in range(width):
                j = j0 + jj
                row = list_rows[r] * n_groups + groups[j]
                if out[r, jj] <= dist[row, last] and j != rows[r]:
                    offer(dist, index, row, out[r, jj], j)


@numba.njit(parallel=True, cache=True)
def search_references(tables, weights, refs, dist, index):
    """Top-k lists of the given reference instances, ROWS at a time."""
    n_groups = dist.shape[0] // len(refs)
    for b in prange(-(-len(refs) // ROWS)):
        out = np.empty((ROWS, BLOCK), dtype=tables.values.dtype)
        positions = np.empty(ROWS, dtype=np.int64)
        count = block_rows(b * ROWS, len(refs), positions)
        search_rows(tables, weights, refs[positions], count, positions,
                    n_groups, dist, index, out)


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


@numba.njit(parallel=True, cache=True)
def rerank_exactly(search, exact, weights32, refs, candidates, cand_dist,
                   delta, k, order, position, out):
    """The k nearest of each group by exact distance, from float32 lists.

    ``candidates[r, g]`` are reference r's K = k + EXTRA nearest of group g
    by float32 distance ``cand_dist[r, g]``.  A list whose float32 order is
    provably exact (:func:`float32_order_is_exact`, almost every list of
    continuous data) is kept; the others are ranked again by exact
    (distance, index) in float64.  The float32 distance of any pair is
    within `delta` of the exact one, so an instance outside the list is at
    least ``cand_dist[r, g, K - 1] - delta`` away: when that is above the
    exact k-th distance the list is provably right; otherwise (a near tie
    beyond the K candidates) the group is scanned again
    (:func:`rescan_exactly`) over the reference's float32 row of distances.
    Everything here is in instance numbers, except the float32 row, which
    is in the search tables' `order` (instance order[p] at position p;
    `position` is its inverse).
    """
    n, n_groups = exact.values.shape[1], candidates.shape[1]
    last = candidates.shape[2] - 1
    weights = weights32.astype(np.float64)
    for r in prange(len(refs)):
        i = refs[r]
        dist = np.empty((1, k))
        index = np.empty((1, k), dtype=np.int64)
        row = np.empty(0, dtype=search.values.dtype)
        for g in range(n_groups):
            found = 0
            while found <= last and candidates[r, g, found] < n:
                found += 1
            if float32_order_is_exact(cand_dist[r, g], found, k, delta):
                for s in range(k):
                    out[r, g, s] = candidates[r, g, s] if s < found else -1
                continue
            dist[:] = np.inf
            index[:] = n
            for s in range(found):
                j = candidates[r, g, s]
                offer(dist, index, 0, exact_distance(exact, weights, i, j), j)
            if (found == last + 1
                    and cand_dist[r, g, last] - delta <= dist[0, k - 1]):
                if len(row) == 0:
                    row = np.empty(n, dtype=search.values.dtype)
                    float32_row(search, weights32, position[i], row,
                                np.empty((ROWS, BLOCK), dtype=row.dtype),
                                np.empty(ROWS, dtype=np.int64))
                rescan_exactly(exact, weights, i, g, row, order, dist, index,
                               delta)
            for s in range(k):
                out[r, g, s] = index[0, s] if index[0, s] < n else -1


def float32_error_bound(tables, weights):
    """A bound on |float32 distance - exact distance| of any pair.

    Each term w_A diff(A) carries the rounding of the two values, their
    difference, the transform (scaled by its slope L), the weight and the
    product, at most w_A (3L + 4) u with u = 2^-24, and the running sum adds
    at most u * sum(w) per attribute.  A ramp with t_eq == t_diff is a step
    (unbounded slope): every list is then checked in float64.  Nominal
    attributes without missing values and integer weights give integer
    distances, exact in float32 (bound 0).
    """
    if (tables.nominal.all() and tables.one.shape[0] == 0
            and np.all(weights == np.round(weights))
            and np.sum(weights) < 2 ** 24):
        return 0.0
    u = 2.0 ** -24
    if tables.kind == RAMP:
        width = float(tables.t_diff) - float(tables.t_eq)
        slope = np.inf if width <= 0 else max(1.0, 1.0 / width)
    else:
        slope = 2.0 if tables.kind == SQUARED else 1.0
    total = float(np.sum(weights, dtype=np.float64))
    n_attrs = len(weights)
    return 1.01 * u * total * (3 * slope + 4 + n_attrs) + 1e-12 * total


def _empty_lists(shape, n):
    return np.full(shape, np.inf, np.float32), np.full(shape, n, np.int32)


def _report(progress_callback, done):
    if progress_callback is not None:
        progress_callback(done)


def _all_pairs(tables, weights, k, n_groups, progress_callback, n_steps):
    n = tables.values.shape[1]
    tile_rows, tile_cols, starts = tile_rounds(-(-n // BLOCK))
    dist, index = _empty_lists((n * n_groups, k), n)
    kth = np.full((n_groups, n), np.inf, np.float32)
    n_rounds = len(starts) - 1
    for r in range(n_rounds):
        pairs = slice(starts[r], starts[r + 1])
        search_all_pairs(tables, weights, tile_rows[pairs], tile_cols[pairs],
                         dist, index, kth)
        if (r + 1) * n_steps // n_rounds > r * n_steps // n_rounds:
            _report(progress_callback, (r + 1) / n_rounds)
    return index, dist


def _references(tables, weights, refs, k, n_groups, progress_callback, n_steps):
    n = tables.values.shape[1]
    index = np.empty((len(refs) * n_groups, k), np.int32)
    dist = np.empty((len(refs) * n_groups, k), np.float32)
    bounds = np.linspace(0, len(refs), n_steps + 1).astype(int)
    for step, (start, stop) in enumerate(zip(bounds[:-1], bounds[1:])):
        part_dist, part = _empty_lists(((stop - start) * n_groups, k), n)
        search_references(tables, weights, refs[start:stop], part_dist, part)
        index[start * n_groups:stop * n_groups] = part
        dist[start * n_groups:stop * n_groups] = part_dist
        _report(progress_callback, (step + 1) / n_steps)
    return index, dist


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
        index, dist = _all_pairs(tables, weights32, n_candidates, n_groups,
                                 progress_callback, n_steps)
        index, dist = (a.reshape(n, n_groups, n_candidates)[positions]
                       for a in (index, dist))
    else:
        index, dist = _references(tables, weights32, positions, n_candidates,
                                  n_groups, progress_callback, n_steps)
        index, dist = (a.reshape(len(unique), n_groups, n_candidates)
                       for a in (index, dist))
    index = np.append(data.search_order, n)[index]  # n: an empty slot
    delta = float32_error_bound(tables, weights32)
    exact = np.empty((len(unique), n_groups, k), np.int64)
    rerank_exactly(tables, data.exact, weights32, unique, index, dist, delta,
                   k, data.search_order, position, exact)
    return exact[inverse]

"""The k smallest entries of each row, by (value, column): what a stable
sort of the row would put first, without sorting the row.

A bound is found first: the row's columns are cut into k or more
chunks (runs of columns, or every so many columns, whichever makes the
longer reduction for numpy), and the k-th smallest of the chunks' minima is at
least the row's k-th smallest value (those minima are k entries of the
row).  Only the entries at or below the bound are candidates, a few times
k of them in a row of distinct values; they are sorted by (value, column),
a stable sort of the values in column order, so that ties go to the lower
column as in the stable sort of the whole row.  :func:`smallest_tied`
keeps, beyond the k, every entry equal to the k-th (a list that shares
its tied places, :mod:`...formulas.ties`).
"""
import numpy as np

#: chunks per wanted entry: more chunks make a tighter bound, larger
#: minima to select from
CHUNKS_PER_ENTRY = 4


def bound(dist, k):
    """For each row of `dist` a value at least its k-th smallest entry
    (1 <= k <= dist.shape[1])."""
    n = dist.shape[1]
    chunks = min(n, CHUNKS_PER_ENTRY * k)
    depth = n // chunks  # entries per chunk; the tail stays out
    kept = dist[:, :chunks * depth]
    if depth >= chunks:  # runs of columns: numpy reduces along the longer
        minima = kept.reshape(len(dist), chunks, depth).min(axis=2)
    else:  # every chunks-th column
        minima = kept.reshape(len(dist), depth, chunks).min(axis=1)
    return np.partition(minima, k - 1, axis=1)[:, k - 1]


def smallest(dist, k):
    """(rows, k) column indices of each row's k smallest entries of
    `dist`, nearest first, ties to the lower column (k <= columns)."""
    n_rows = dist.shape[0]
    if k == 0 or n_rows == 0:
        return np.empty((n_rows, k), np.int64)
    row, column, first = sorted_candidates(dist, k)
    return column[first[:, None] + np.arange(k)]


def smallest_tied(dist, k):
    """(row, column) of every entry of `dist` at most its row's k-th
    smallest (1 <= k <= columns), by (row, value, column): each row's k
    smallest and every entry equal to the k-th."""
    row, column, first = sorted_candidates(dist, k)
    values = dist[row, column]
    keep = values <= values[first + k - 1][row]
    return row[keep], column[keep]


def sorted_candidates(dist, k):
    """(row, column, first): the entries of `dist` that may be among
    their row's k smallest, at least k per row, sorted by (row, value,
    column), and where each row's begin."""
    n_rows, n = dist.shape
    if n <= CHUNKS_PER_ENTRY * k:
        column = np.argsort(dist, axis=1, kind="stable").ravel()
        row = np.repeat(np.arange(n_rows), n)
        return row, column, np.arange(n_rows) * n
    candidates = np.flatnonzero(dist <= bound(dist, k)[:, None])
    row, column = np.divmod(candidates, n)
    order = np.lexsort((dist[row, column], row))  # stable: columns
    counts = np.bincount(row, minlength=n_rows)  # each at least k
    return row[order], column[order], np.cumsum(counts) - counts

"""The k smallest entries of each row, by (value, column): what a stable
sort of the row would put first, without sorting the row.

A bound is found first: the row's columns are cut into k or more
chunks (runs of columns, or every so many columns, whichever makes the
longer reduction for numpy), and the k-th smallest of the chunks' minima is at
least the row's k-th smallest value (those minima are k entries of the
row).  Only the entries at or below the bound are candidates, a few times
k of them in a row of distinct values; they are sorted by (value, column),
a stable sort of the values in column order, so that ties go to the lower
column as in the stable sort of the whole row.
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
    n_rows, n = dist.shape
    if k == 0 or n_rows == 0:
        return np.empty((n_rows, k), np.int64)
    if n <= CHUNKS_PER_ENTRY * k:
        return np.argsort(dist, axis=1, kind="stable")[:, :k]
    candidates = np.flatnonzero(dist <= bound(dist, k)[:, None])
    row, column = np.divmod(candidates, n)
    order = np.lexsort((dist.ravel()[candidates], row))  # stable: columns
    counts = np.bincount(row, minlength=n_rows)  # each at least k
    first = np.cumsum(counts) - counts
    return column[order[first[:, None] + np.arange(k)]]

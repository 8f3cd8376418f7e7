"""Step 2 on compact data: the k nearest instances of each group.

The distances of a chunk of references to every instance are exact
(:mod:`.distances`), so their ranking is the common one of the float64
path, :func:`..engines.vectorised.neighbours.nearest_of_group` (equal
distances to the lower index): the lists are those of either engine on
the float64 data.  On bit planes every distance is a whole number of
halves, so ties are exact ties, broken as the float64 path breaks them.
The references are taken in chunks whose distances fit
:data:`DISTANCE_BYTES` (each chunk a pass over the columns).
"""
import numpy as np

from ..engines.vectorised.neighbours import nearest_of_group, search_weights
from ..progress import wrap_callback
from .distances import distances, scaled_matrix

#: the distances held at once (references x instances float64)
DISTANCE_BYTES = 2 ** 28
#: the same of sparse data, whose distances are rows of their own (no
#: pass over the columns to save), where memory counts in stored entries
SPARSE_DISTANCE_BYTES = 2 ** 25


def chunks(count, n, limit=DISTANCE_BYTES):
    """Slices of `count` references whose distances to n instances fit
    `limit` bytes."""
    size = max(1, limit // (8 * max(n, 1)))
    return [slice(first, min(first + size, count))
            for first in range(0, count, size)]


def find_neighbours(data, refs, k, weights=None, progress_callback=None,
                    client=None):
    """The k nearest instances of each group to each reference, (m,
    groups, k), nearest first, ties to the lower index, -1 where a group
    runs out: the lists of :func:`..engines.compiled.neighbours.
    find_neighbours` on the data in float64.  `weights` are the
    distance's attribute weights (None: 1), rounded to float32 as the
    search rounds them.  On a Dask `client`'s cluster the distances are
    tasks (:mod:`.cluster`), the same to the bit."""
    n = data.n_instances
    k = min(k, n)
    if weights is not None:
        weights = search_weights(weights, data.n_attributes)
    unique, inverse = np.unique(refs, return_inverse=True)
    members = [np.flatnonzero(data.groups == g) for g in range(data.n_groups)]
    out = np.empty((len(unique), data.n_groups, k), np.int64)
    sparse = data.store.is_sparse and client is None
    scaled = scaled_matrix(data) if sparse else None
    parts = chunks(len(unique), n, SPARSE_DISTANCE_BYTES if sparse
                   else DISTANCE_BYTES)
    for p, part in enumerate(parts):
        rows = unique[part]
        dist = distances(data, rows, weights, wrap_callback(
            progress_callback, p / len(parts), (p + 1) / len(parts)),
            client, scaled)
        dist[np.arange(len(rows)), rows] = np.inf
        for g in range(data.n_groups):
            out[part, g] = nearest_of_group(
                dist[:, members[g]], members[g], k,
                (data.groups[rows] == g).astype(np.int64))
    return out[inverse]

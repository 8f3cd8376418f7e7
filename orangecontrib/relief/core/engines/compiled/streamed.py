"""The distances of streamed rows to sampled references, compiled
(:mod:`...variants.streaming`)."""
import numba
import numpy as np
from numba import prange

from .diffs import transform


@numba.njit(parallel=True, cache=True)
def reference_distances(rows, references, nominal, kind, t_eq, t_diff, out):
    """The compiled engine's :meth:`..interface.Engine.reference_distances`:
    the rows in parallel."""
    m, n_attrs = references.shape
    for j in prange(rows.shape[0]):
        d = np.zeros(m)
        for a in range(n_attrs):
            x = rows[j, a]
            if nominal[a]:
                for r in range(m):
                    d[r] += references[r, a] != x
            else:
                for r in range(m):
                    d[r] += transform(abs(references[r, a] - x), kind,
                                      t_eq, t_diff)
        out[j] = d

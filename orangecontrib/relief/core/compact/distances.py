"""Exact distances of compact data: D(i, j) = sum_A w_A diff(A, I_i, I_j)
(Prat & Belanche 2006, eq. 2.1, 3.1), the float64 distance of the float64
path to the bit, computed a block of columns at a time.

Three producers, chosen by the data:

* bit planes (:mod:`.planes`): small integers without missing values
  and no distance weights; the distance in half units is a whole number,
  summed by popcount over each block's planes, block after block;
  halved, it is the float64 path's sum to the bit (every partial sum of
  halves is exact);
* a sparse matrix: the terms of the columns either instance stores,
  added in attribute order (a column neither stores adds an exact 0;
  the compiled engine sweeps a block of columns over the instances that
  store them, the numpy engine makes blocks of columns dense);
* anything else: each block's exact tables (:mod:`.data`), their terms
  added to running sums attribute after attribute, which is the float64
  path's order.

Each returns the distances of some reference rows to every instance,
(rows x n) float64, which the common top-k and the rules read
(:mod:`.search`, :mod:`.rules`).  Memory: those distances and a block.
"""
from collections import namedtuple

import numpy as np
import scipy.sparse as sp

from .. import engines
from ..progress import report
from ..values import scale_factors
from . import planes
from .planes import block_planes, fits_planes

#: a unit of the planes' distances (half a diff), exact in float64
HALF = 0.5
#: stored entries of a sparse matrix scaled at a time
ENTRIES = 2 ** 20


def distances(data, rows, weights=None, progress_callback=None,
              client=None, scale=None):
    """D(I_rows[r], I_j) for every instance j, float64 (len(rows), n), as
    the float64 path computes it (:mod:`..engines`); `weights` the
    distance's attribute weights as the search applies them (None: 1);
    `scale` sparse data's :func:`sparse_scale`, if the caller made it
    already.  On a Dask `client`'s cluster the blocks are tasks
    (:mod:`.cluster`), the same distances to the bit."""
    # contiguous (a reversed or strided view of rows is copied): the
    # kernels are compiled for contiguous indices, and numba would
    # compile them again for a view
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    if client is not None:
        from .cluster import distances_on
        return distances_on(client, data, rows, weights, progress_callback)
    if fits_planes(data.stats, data.nominal, data.kind, weights):
        counts = np.zeros((len(rows), data.n_instances), np.int64)
        for start, block in data.raw_blocks(planes.PLANE_COLUMNS):
            add_plane_counts(data.block(start, block), rows, counts)
            report(progress_callback,
                   (start + block.shape[1]) / data.n_attributes)
        return counts * HALF
    if data.store.is_sparse:
        return sparse_distances(sparse_scale(data) if scale is None
                                else scale, data, rows, weights)
    out = np.zeros((len(rows), data.n_instances))
    for start, block in data.raw_blocks():
        add_block_distances(data.block(start, block), rows,
                            None if weights is None
                            else weights[start:start + block.shape[1]], out)
        report(progress_callback,
               (start + block.shape[1]) / data.n_attributes)
    return out


def add_plane_counts(part, rows, counts):
    """counts += the popcount distances (half units) of the rows to every
    instance over the columns of `part` (:meth:`.data.CompactData.block`,
    columns that fit planes); returns `counts`."""
    stats = part.stats
    planes, digits = block_planes(part.store.X, stats.low, stats.high,
                                  part.nominal)
    engines.kernels(part.engine).plane_distances(planes, digits, rows,
                                                 counts)
    return counts


def add_block_distances(part, rows, weights, out):
    """out += the terms of the columns of `part` (a block), added to the
    running sums in attribute order; returns `out`."""
    exact = part.exact_block(0, part.store.X)
    engines.kernels(part.engine).add_distances(exact, weights, rows, out)
    return out


#: a sparse matrix (CSR, sorted indices, the stored values as given) and
#: how each column is scaled as :func:`..values.scale_rows` scales it:
#: (x - low) / span, or where the range is beyond the largest float
#: (x / 2 - low / 2) / half (half 0 elsewhere)
SparseScale = namedtuple("SparseScale", ["matrix", "low", "span", "half"])


def sparse_scale(data):
    """The :class:`SparseScale` of sparse data's instances and columns:
    the engines scale each value as they read it, so that no scaled copy
    of the stored values is held."""
    store, stats = data.store, data.stats
    matrix = store.X
    if store.rows is not None:
        matrix = matrix[store.rows]
    if store.columns is not None:
        matrix = matrix[:, store.columns]
    matrix = sp.csr_matrix(matrix)  # sharing the given entries: no sort
    if not matrix.has_sorted_indices:  # in place, which would change them
        matrix = matrix.sorted_indices()
    low, span, huge = scale_factors(stats.low, stats.high, data.nominal)
    half = np.where(huge, stats.high / 2 - low / 2, 0.0)
    return SparseScale(matrix, low, span, half)


def sparse_distances(scale, data, rows, weights):
    """:func:`distances` of sparse data (no value is missing in a sparse
    matrix: :func:`.store.check_sparse`) from their :func:`sparse_scale`
    `scale`."""
    out = np.empty((len(rows), data.n_instances))
    engines.kernels(data.engine).sparse_distances(
        scale, data.nominal, data.kind, data.t_eq, data.t_diff,
        np.ones(data.n_attributes) if weights is None else weights, rows,
        out)
    return out

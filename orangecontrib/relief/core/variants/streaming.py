"""ReliefF on data larger than memory: sampled references, rows streamed.

With m sampled references, ReliefF needs each reference's k nearest hits
and misses, and those need one pass over the data: the rows are read a
chunk at a time (a numpy array or memmap, an ``.npy`` file read a slice at
a time, or any array-like with ``shape`` and row slices, e.g. a Dask array,
whose slices are computed one at a time).  Two passes:

1. the columns' ranges, the checks of :mod:`..prepare` (infinite values,
   nominal codes) and the class counts;
2. the exact float64 distances of every row to the m references, the
   attributes added in their order as the in-memory search adds them, and
   each reference's list of every class kept across chunks, as the
   in-memory search lists it (:mod:`..formulas.ties`): its k nearest, by
   (distance, instance index), and with ``ties="share"`` every candidate
   as near as the k-th.

The references and their neighbours, m (1 + k C) rows and the tied
candidates, are then read and ReliefF's rule applied to them: the
weights are those of :func:`.estimators.relieff` on the whole data in
memory, to the bit.  Memory: a chunk of rows, plus O(m k C a) and the
candidates tied at the references' k-th distances (as many as the rows
where every row is alike).  Data with missing values are
refused (Kononenko's RELIEF-D needs every column's values per class; the
in-memory estimators handle them).
"""
from pathlib import Path

import numpy as np

from .. import engines
from ..engines import preparation
from ..errors import ReliefInputError
from ..sampling import check_client, reference_instances
from ..formulas.ties import SHARE
from ..neighbours import Neighbours, NeighbourLists
from ..options import DIFF, K_RELIEFF, RANDOM_STATE, T_DIFF, T_EQ, TIES
from ..targets import as_nominal_mask, as_target, class_groups
from ..values import (as_real, check_codes, check_dtype, check_finite,
                      scale_rows)
from ..progress import report, wrap_callback
from ..tables import DIFF_KINDS, exact_tables
from ..validation import validated


class MissingValues(ReliefInputError):
    """The streamed data has missing values, which streaming cannot
    handle (:func:`.estimators.relieff` reads such data into memory)."""


#: rows read at once (about 100 MB of float64 at 128 attributes)
CHUNK_ROWS = 100_000


class NpyRows:
    """The rows of an ``.npy`` file, read a slice at a time with ordinary
    file reads (a memmap would keep every page it touched resident); a file
    in Fortran order is read a column segment at a time."""

    def __init__(self, path):
        with open(path, "rb") as file:
            try:
                version = np.lib.format.read_magic(file)
                read_header = (np.lib.format.read_array_header_1_0
                               if version == (1, 0)
                               else np.lib.format.read_array_header_2_0)
                shape, fortran, dtype = read_header(file)
            except ValueError as err:  # empty, not .npy, a broken header
                raise ReliefInputError(f"{path}: not a readable .npy file "
                                       f"({err}).") from None
            self.offset = file.tell()
        if len(shape) != 2:
            raise ReliefInputError(f"{path}: rows can be streamed from a "
                                   f"2-D array only.")
        check_dtype(dtype, str(path))
        if dtype.hasobject:
            raise ReliefInputError(f"{path}: an array of Python objects "
                                   f"cannot be read a slice at a time; save "
                                   f"it as numbers (e.g. float64).")
        self.path, self.shape, self.dtype = path, shape, dtype
        self.fortran = fortran
        size = self.offset + shape[0] * shape[1] * dtype.itemsize
        if path.stat().st_size < size:
            raise ReliefInputError(f"{path}: the file is shorter than its "
                                   f"header's {shape[0]} x {shape[1]} "
                                   f"array (truncated?).")

    def __getitem__(self, rows):
        start, stop, _ = rows.indices(self.shape[0])
        count = max(stop - start, 0)
        n, n_attrs = self.shape
        size = self.dtype.itemsize
        with open(self.path, "rb") as file:
            if not self.fortran:
                file.seek(self.offset + start * n_attrs * size)
                block = np.fromfile(file, dtype=self.dtype,
                                    count=count * n_attrs)
                return block.reshape(-1, n_attrs)
            block = np.empty((count, n_attrs), dtype=self.dtype, order="F")
            for a in range(n_attrs):
                file.seek(self.offset + (a * n + start) * size)
                block[:, a] = np.fromfile(file, dtype=self.dtype, count=count)
            return block


def open_rows(X):
    """`X` as an array-like of rows: an ``.npy`` path is read a slice at a
    time (:class:`NpyRows`)."""
    if isinstance(X, (str, Path)):
        path = Path(X)
        if path.suffix != ".npy" or not path.exists():
            raise ReliefInputError(f"{X}: not an existing .npy file.")
        return NpyRows(path)
    if not hasattr(X, "shape") or len(X.shape) != 2:
        raise ReliefInputError("X must be a 2-D array-like (instances x "
                               "attributes), a memmap or an .npy path.")
    if hasattr(X, "dtype"):
        check_dtype(X.dtype, "The data")
    if hasattr(X, "tocsr"):  # a scipy sparse matrix: rows sliced as CSR
        X = X.tocsr()
    if np.isnan(X.shape).any() and hasattr(X, "compute_chunk_sizes"):
        # a Dask array of unknown chunk sizes (e.g. after a boolean
        # selection): its chunks are counted, on a copy, by computing them
        X = X.copy().compute_chunk_sizes()
    return X


def read(X, start, stop):
    """Rows start .. stop - 1 of `X` as float64 (a Dask slice computed,
    a sparse one made dense)."""
    rows = X[start:stop]
    if hasattr(rows, "compute"):
        rows = rows.compute()
    if hasattr(rows, "toarray"):
        rows = rows.toarray()
    return as_real(rows, "The data")


def chunks(n, chunk_rows):
    return [(start, min(start + chunk_rows, n))
            for start in range(0, n, chunk_rows)]


def chunk_limits(source, start, stop, known, nominal):
    """Pass 1 on rows start .. stop - 1 of `source` (`known`: which have a
    known target): the columns' (low, high) over them, with the checks of
    :mod:`..prepare`."""
    rows = read(source, start, stop)[known]
    check_finite(rows)
    if np.isnan(rows).any():
        raise MissingValues(
            "The streamed data has missing values; RELIEF-D needs every "
            "column in memory: use relieff() on the data in memory.")
    check_codes(rows[:, nominal], "Discrete attributes")
    if len(rows) == 0:
        return np.full(len(nominal), np.inf), np.full(len(nominal), -np.inf)
    return rows.min(axis=0), rows.max(axis=0)


def chunk_neighbours(source, start, stop, known, index, groups, limits,
                     nominal, references, unique, kind, t_eq, t_diff, k,
                     n_groups, engine, ties):
    """Pass 2 on rows start .. stop - 1 of `source`: each reference's
    list of every group among them (:func:`merge`), a list of
    (distances, instance numbers) per reference and group; `index` and
    `groups` are the rows' instance numbers and groups, `references` the
    scaled references."""
    rows = scale_rows(read(source, start, stop)[known], *limits, nominal)
    dist = np.empty((len(rows), len(unique)))
    engines.kernels(engine).reference_distances(
        np.ascontiguousarray(rows), references, nominal, kind, t_eq, t_diff,
        dist)
    empty = (np.empty(0), np.empty(0, np.int64))
    lists = []
    for u, reference in enumerate(unique):
        for g in range(n_groups):
            chosen = (groups == g) & (index != reference)
            lists.append(merge(*empty, dist[chosen, u], index[chosen], k,
                               ties))
    return lists


def on_client(client, X, start, stop):
    """(source, start, stop) of rows start .. stop - 1 for a task on a
    dask.distributed cluster: an .npy file's rows are read by the worker,
    a Dask array's slice is computed there, other rows are sent."""
    if isinstance(X, NpyRows):
        return X, start, stop
    rows = X[start:stop]
    future = (client.compute(rows) if hasattr(rows, "compute")
              else client.scatter(read(X, start, stop), hash=False))
    return future, 0, stop - start


def map_chunks(task, X, parts, client, progress_callback, *args):
    """task(source, start, stop, *part_args, *args) of every chunk, in
    order: here, or as tasks on `client`.  ``part_args(start, stop)`` are
    the first of `args` when it is callable."""
    per_part, args = (args[0], args[1:]) if callable(args[0]) else (
        lambda start, stop: (), args)
    if client is None:
        for done, (start, stop) in enumerate(parts, start=1):
            yield task(X, start, stop, *per_part(start, stop), *args)
            report(progress_callback, done / len(parts))
        return
    futures = [client.submit(task, *on_client(client, X, start, stop),
                             *per_part(start, stop), *args, pure=False)
               for start, stop in parts]
    for done, future in enumerate(futures, start=1):
        yield future.result()
        report(progress_callback, done / len(parts))


def merge(best_d, best_i, dist, index, k, ties):
    """The list of k places of the list (best_d, best_i) and the candidates
    (dist, index): by (distance, index), the k nearest and, with
    ``ties="share"``, every one as near as the k-th
    (:func:`..formulas.ties.listed`)."""
    if len(dist) > k:  # only those that can enter
        kth = np.partition(dist, k - 1)[k - 1]
        keep = dist <= kth
        dist, index = dist[keep], index[keep]
    d = np.concatenate((best_d, dist))
    i = np.concatenate((best_i, index))
    order = np.lexsort((i, d))
    d, i = d[order], i[order]
    count = min(k, len(d))
    if ties == SHARE and count:
        count = np.searchsorted(d, d[count - 1], side="right")
    return d[:count], i[:count]


@validated
def relieff_streaming(X, y, discrete=None, *, n_iterations,
                      k_nearest=K_RELIEFF, random_state=RANDOM_STATE,
                      diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF, ties=TIES,
                      chunk_rows=CHUNK_ROWS, client=None,
                      progress_callback=None):
    """ReliefF weights (Kononenko 1994) of `n_iterations` references drawn
    with `random_state`, the rows of `X` read `chunk_rows` at a time.

    Equal to ``relieff(np.asarray(X), y, discrete, k_nearest=...,
    n_iterations=..., random_state=...)`` (the same references, neighbours
    and arithmetic); see the module docstring.  `y` (the class codes, NaN
    for unknown) is in memory.  With a ``dask.distributed`` `client`, the
    chunks are tasks on its cluster (the workers read an ``.npy`` file's
    rows themselves, compute a Dask array's slices, or receive the rows),
    the results merged here in chunk order: the same weights.

    References
    ----------
    Palma-Mendoza, R. J., Rodriguez, D., de-Marcos, L. (2018). Distributed
    ReliefF-based feature selection in Spark. Knowledge and Information
    Systems 57:1-20 (the same pass-per-search design on a cluster).
    """
    X = open_rows(X)
    check_client(client)
    n, n_attrs = X.shape
    if n_attrs == 0:
        raise ReliefInputError("The data has no attributes to score.")
    y = as_target(y, n)
    nominal = as_nominal_mask(discrete, n_attrs)
    k = k_nearest
    known = ~np.isnan(y)
    kept = np.flatnonzero(known)  # instance number -> row of X
    if len(kept) == 0:
        raise ReliefInputError("There are no instances with a known target "
                               "to score the attributes on.")
    groups, n_groups, priors = class_groups(y[kept])
    parts = chunks(n, chunk_rows)
    low, high = np.full(n_attrs, np.inf), np.full(n_attrs, -np.inf)
    for chunk_low, chunk_high in map_chunks(
            chunk_limits, X, parts, client,
            wrap_callback(progress_callback, 0, 0.3),
            lambda start, stop: (known[start:stop],), nominal):
        low, high = np.minimum(low, chunk_low), np.maximum(high, chunk_high)
    refs = reference_instances.unchecked(len(kept), n_iterations, random_state)
    unique = np.unique(refs)
    engine = (engines.COMPILED if client is not None
              else engines.choose(len(refs) * n * n_attrs,
                                  (preparation.STREAMING,)))
    scaled_refs = scale_rows(np.stack([read(X, r, r + 1)[0]
                                       for r in kept[unique]]),
                             low, high, nominal)
    k = min(k, len(kept))
    best = [(np.empty(0), np.empty(0, np.int64))] * (len(unique) * n_groups)
    position = np.cumsum(known) - 1  # row of X -> instance number

    def rows_of(start, stop):
        rows = known[start:stop]
        index = position[start:stop][rows]
        return rows, index, groups[index]

    for chunk in map_chunks(
            chunk_neighbours, X, parts, client,
            wrap_callback(progress_callback, 0.3, 0.95), rows_of,
            (low, high), nominal, scaled_refs, unique, DIFF_KINDS[diff],
            t_eq, t_diff, k, n_groups, engine, ties):
        best = [merge(*kept_list, *found, k, ties)
                for kept_list, found in zip(best, chunk)]
    weights = _rule(X, kept, groups, priors, refs, unique, best, k, ties,
                    nominal, low, high, DIFF_KINDS[diff], t_eq, t_diff)
    report(progress_callback, 1.0)
    return weights


def _rule(X, kept, groups, priors, refs, unique, lists, k, ties, nominal,
          low, high, kind, t_eq, t_diff):
    """ReliefF's rule on the references and their neighbours alone (the
    `lists` of (distances, instances) of each distinct reference and
    group, in order), as the in-memory engines apply it (instances
    renumbered)."""
    n_groups = len(priors)
    neighbours = np.concatenate([i for _, i in lists])
    members = np.unique(np.concatenate((unique, neighbours)))
    values = scale_rows(np.stack([read(X, r, r + 1)[0]
                                  for r in kept[members]]),
                        low, high, nominal)
    exact = exact_tables(values.T, np.full(len(nominal), -1, np.int32),
                         np.zeros((0, len(priors), len(members))), nominal,
                         groups[members], kind, t_eq, t_diff)
    counts = [len(i) for _, i in lists]
    found = Neighbours.ranked(
        k, n_groups, np.concatenate([[0], np.cumsum(counts)]),
        np.searchsorted(members, neighbours),
        np.concatenate([d for d, _ in lists]), ties)
    local_refs = np.searchsorted(members, refs)
    per_reference = found.take(np.searchsorted(unique, refs))
    kernels = engines.kernels(engines.VECTORISED)
    return kernels.relieff_rule(exact, local_refs,
                                NeighbourLists.holding(per_reference), priors)

"""Compact data on a ``dask.distributed`` cluster: blocks of columns as
tasks, the same distances and weights as one process, to the bit.

The columns are read here, a block at a time (a column-block source is
read where the call runs), and each block is sent to the cluster once:

* bit planes: a task per block counts its popcount distances, a whole
  number per pair; the counts are added here as the tasks end, exact in
  any order (:func:`.distances.add_plane_counts`);
* a sparse matrix: the matrix and its scaling go to every worker once
  and a task per chunk of references finds their distances to every
  instance (:func:`.distances.sparse_distances`);
* anything else: a task per chunk of references and block adds the
  block's terms to the chunk's running sums, after the task of the
  block before (:func:`.distances.add_block_distances`), so that every
  sum is added in attribute order, as here; the chunks run side by side;
* a rule: a task per block applies it to the block's exact tables
  (:func:`.rules.by_columns`), the results joined in column order.

At most :data:`IN_FLIGHT` blocks per thread of the cluster are sent
before their tasks end, so that the data never gather whole here nor
on the workers.
"""
from collections import deque

import numpy as np

from ..engines.compiled.neighbours.cluster import cluster_threads
from ..progress import report
from .distances import (HALF, add_block_distances, add_plane_counts,
                        sparse_distances, sparse_scale)
from . import planes
from .planes import fits_planes

#: blocks sent ahead per thread of the cluster
IN_FLIGHT = 2


def bounded(client, tasks, progress_callback=None, total=None):
    """Submit ``(function, args)`` pairs from the iterable `tasks`, at
    most IN_FLIGHT per thread of the cluster at a time, and yield their
    results in order; reports the fraction `total` tasks done."""
    window = IN_FLIGHT * cluster_threads(client)
    pending, done = deque(), 0
    try:
        for function, *args in tasks:
            pending.append(client.submit(function, *args, pure=False))
            while len(pending) >= window:
                done += 1
                yield pending.popleft().result()
                report(progress_callback, done / max(total or done, 1))
        while pending:
            done += 1
            yield pending.popleft().result()
            report(progress_callback, done / max(total or done, 1))
    except BaseException:
        client.cancel(list(pending))
        raise


def block_count(data, size):
    return -(-data.n_attributes // size)


def distances_on(client, data, rows, weights, progress_callback):
    """:func:`.distances.distances` with the blocks as tasks on
    `client`'s cluster (see the module docstring)."""
    if fits_planes(data.stats, data.nominal, data.kind, weights):
        counts = np.zeros((len(rows), data.n_instances), np.int64)
        tasks = ((plane_counts, data.block(start, block), rows)
                 for start, block in data.raw_blocks(planes.PLANE_COLUMNS))
        for part in bounded(client, tasks, progress_callback,
                            block_count(data, planes.PLANE_COLUMNS)):
            counts += part
        return counts * HALF
    header = data.without_values()
    if data.store.is_sparse:
        [scale] = client.scatter([sparse_scale(data)], broadcast=True,
                                  hash=False)
        chunks = np.array_split(rows, min(len(rows), cluster_threads(client)))
        return np.concatenate(list(bounded(
            client, ((sparse_distances, scale, header, chunk, weights)
                     for chunk in chunks), progress_callback, len(chunks))))
    return running_sums_on(client, data, rows, weights, progress_callback)


def running_sums_on(client, data, rows, weights, progress_callback):
    """The distances of the float64 path from each block's exact tables,
    a chain of tasks per chunk of the references: the task of a chunk
    and a block adds the block's terms to what the chunk's task of the
    block before left."""
    chunks = np.array_split(rows, min(len(rows), cluster_threads(client)))
    sums = [np.zeros((len(chunk), data.n_instances)) for chunk in chunks]
    window = deque()
    total = block_count(data, data.width())
    for b, (start, block) in enumerate(data.raw_blocks()):
        [part] = client.scatter([data.block(start, block)], hash=False)
        columns = slice(start, start + block.shape[1])
        sums = [client.submit(continued, part, chunk,
                              None if weights is None else weights[columns],
                              previous, pure=False)
                for chunk, previous in zip(chunks, sums)]
        window.append(sums)
        if len(window) > IN_FLIGHT:
            for future in window.popleft():
                future.result()
        report(progress_callback, (b + 1) / total)
    return np.concatenate(client.gather(sums))


def plane_counts(part, rows):
    """A task: the popcount distances of the rows over a block."""
    return add_plane_counts(part, rows, np.zeros(
        (len(rows), part.n_instances), np.int64))


def continued(part, rows, weights, previous):
    """A task: the running sums `previous` (a copy: a task leaves its
    inputs as they are) with the block's terms added."""
    return add_block_distances(part, rows, weights, previous.copy())


def rule_on(client, data, rule, progress_callback, narrow=False):
    """The results of ``rule(tables)`` of every block of columns, in
    order, the blocks' tables (exact, or narrow with `narrow` where the
    data allow: :meth:`.data.CompactData.rule_blocks`) built and ruled as
    tasks."""
    size = planes.PLANE_COLUMNS if narrow and data.reads_narrow() else data.width()
    return list(bounded(client, ((ruled, data.block(start, block), rule,
                                  narrow)
                                 for start, block in data.raw_blocks(size)),
                        progress_callback, block_count(data, size)))


def ruled(part, rule, narrow):
    """A task: `rule` of the tables of a block `part`."""
    [(_, tables)] = part.rule_blocks(narrow)
    return rule(tables)

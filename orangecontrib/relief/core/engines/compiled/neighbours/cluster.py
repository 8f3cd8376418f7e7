"""The search on a ``dask.distributed`` cluster: the same lists, as tasks.

Every instance a reference (m = n): the instances, in search order, are
cut into B blocks of whole tiles, and each pair of blocks (I <= J) is one
task that offers every pair of instances of I x J (of I's upper triangle
when I = J) to both ends' lists, as :mod:`.all_pairs` does, holding the lists
of its two blocks only.  One task per block then reduces the block's B
partial lists: a list's candidates are keys ordered by (distance bits,
index), so the k smallest of the partial lists are the k smallest over
all instances.  Each pair is computed once, in the same tile as on one
machine, so the float32 keys are those of the local search, bit for bit,
and the exact re-ranking (:mod:`.exact_ranking`) runs after the reduction, here.

For all pairs the data are sent to every worker once (``Client.scatter``
with broadcast); the graph has B (B + 1) / 2 search tasks and B
reductions, with B chosen from the cluster's threads, not from n (see
:func:`block_count`): a larger n makes each task longer, not the graph
larger.

Sampled references: a task per row chunk of the instances searches its
chunk for every reference (:mod:`.references`) and numbers the instances as
the whole search does, so that the chunks' lists merge as a block's are
reduced (here: a few keys per reference, not worth a task's round trip).
A chunk of the tables goes to one worker only, the references' columns
to each worker that runs a chunk: the data cross the network once, not
once per worker.  Data larger than memory stream over row chunks too
(:mod:`....variants.streaming`).
"""
import math

import numpy as np

from ..search_tables import join_positions, take_positions
from ....progress import report
from .block import BLOCK
from .references import group_size, search_references
from .all_pairs import pair_lists, round_arrays, tile_rounds
from .topk import empty_keys, offset_keys

#: search tasks per thread of the cluster that :func:`block_count` aims at
TASKS_PER_THREAD = 4


def block_count(n_tiles, n_threads):
    """B, the blocks of tiles: about TASKS_PER_THREAD search tasks per
    thread of the cluster (B (B + 1) / 2 of them), at most one block per
    tile."""
    wanted = math.ceil((math.sqrt(8 * TASKS_PER_THREAD * n_threads + 1) - 1)
                       / 2)
    return max(1, min(n_tiles, wanted))


def block_bounds(n, n_blocks):
    """The first instance of each of `n_blocks` blocks of whole tiles,
    and n."""
    n_tiles = -(-n // BLOCK)
    tiles = np.linspace(0, n_tiles, n_blocks + 1).astype(np.int64)
    return np.minimum(tiles * BLOCK, n)


def pair_rounds(first_i, count_i, first_j, count_j):
    """The tile pairs of blocks I (tiles first_i ..) and J, in rounds whose
    pairs share no tile (as :func:`.all_pairs.tile_rounds`): the round-robin
    tournament within one block, else the cyclic shifts of J against I."""
    if first_i == first_j:
        rows, cols, starts = tile_rounds(count_i)
        return rows + first_i, cols + first_i, starts
    size = max(count_i, count_j)
    return round_arrays(
        [[(first_i + x, first_j + (x + shift) % size)
          for x in range(count_i) if (x + shift) % size < count_j]
         for shift in range(size)])


def block_tiles(bounds, b):
    """(first tile, number of tiles) of block b."""
    first = bounds[b] // BLOCK
    return first, -(-bounds[b + 1] // BLOCK) - first


def search_block_pair(tables, weights, bounds, bi, bj, k, n_groups):
    """A task: the partial lists of blocks bi and bj (bi <= bj) after every
    pair of their instances (:func:`.all_pairs.pair_lists`); rows of block
    bi's lists, then bj's (none more when bi = bj), ``n_groups`` lists per
    instance."""
    held = np.concatenate([np.arange(bounds[b], bounds[b + 1])
                           for b in sorted({bi, bj})])
    rounds = pair_rounds(*block_tiles(bounds, bi), *block_tiles(bounds, bj))
    return pair_lists(tables, weights, held, rounds, k, n_groups)


def reduce_block(parts, k, n_groups, size):
    """A task: the lists of `size` instances (one block, or the sampled
    references) from the partial lists of the tasks that hold them;
    `parts` are (task result, first row of the instances' lists in it)."""
    candidates = np.concatenate(
        [keys[first * n_groups:(first + size) * n_groups]
         for keys, first in parts], axis=1)
    return np.sort(candidates, axis=1)[:, :k]


def all_pairs_on(client, tables, weights, k, n_groups, progress_callback,
                 n_blocks=None):
    """The search lists of every instance (rows ``i * n_groups + g`` in
    search order), as :func:`.search._all_pairs` returns them, computed
    as tasks on `client` (see the module docstring); `n_blocks` defaults
    to :func:`block_count`."""
    n = tables.values.shape[1]
    if n_blocks is None:
        n_blocks = block_count(-(-n // BLOCK), cluster_threads(client))
    bounds = block_bounds(n, n_blocks)
    tables_f = send(client, tables)
    searches = {(bi, bj): client.submit(search_block_pair, tables_f, weights,
                                        bounds, bi, bj, k, n_groups,
                                        pure=False)
                for bi in range(n_blocks) for bj in range(bi, n_blocks)}
    reduced = []
    for b in range(n_blocks):
        size = bounds[b + 1] - bounds[b]
        parts = [(searches[min(b, c), max(b, c)],
                  0 if c >= b else bounds[c + 1] - bounds[c])
                 for c in range(n_blocks)]
        reduced.append(client.submit(reduce_block, parts, k, n_groups, size,
                                     pure=False))
    return np.concatenate(gathered(client, list(searches.values()) + reduced,
                                   reduced, progress_callback))


def references_on(client, tables, weights, refs, k, n_groups,
                  progress_callback, n_chunks=None):
    """The search lists of the references `refs` (search positions), as
    :func:`.search._references` returns them: tasks over `n_chunks` row
    chunks of the instances (default: one per worker, which searches it
    with all its threads), each chunk sent to one worker only, the
    references' own columns to every worker that needs them; the chunks'
    lists are merged here.

    More chunks than workers cost more than they balance: each chunk's
    lists fill from empty, so insertions grow with the chunks (at
    200000 x 20 and m = 10000, 8 chunks on 2 workers took 1.4 - 1.7x the
    time of 2).
    """
    n = tables.values.shape[1]
    if n_chunks is None:
        n_chunks = cluster_workers(client)
    bounds = np.unique(np.linspace(0, n, n_chunks + 1).astype(np.int64))
    [references, *chunks] = client.scatter(
        [take_positions(tables, refs)]
        + [take_positions(tables, slice(start, stop))
           for start, stop in zip(bounds[:-1], bounds[1:])], hash=False)
    searches = [client.submit(search_row_chunk, chunk, references, weights,
                              refs, start, k, n_groups, n, pure=False)
                for chunk, start in zip(chunks, bounds)]
    parts = gathered(client, searches, searches, progress_callback)
    return reduce_block([(keys, 0) for keys in parts], k, n_groups,
                        len(refs))


def search_row_chunk(chunk, references, weights, refs, start, k, n_groups,
                     n):
    """A task: the references' lists among the instances (search
    positions) start, start + 1, .. of `chunk`'s tables, numbered as in
    all n.  A reference within the chunk is searched as the chunk's
    instance (so that it is not its own neighbour), any other as a
    column joined after the chunk's."""
    size = chunk.values.shape[1]
    inside = (refs >= start) & (refs < start + size)
    rows = np.where(inside, refs - start, size + np.arange(len(refs)))
    keys = empty_keys((len(refs) * n_groups, k), size)
    search_references(join_positions(chunk, references), weights, rows, keys,
                      group_size(len(refs)), size)
    return offset_keys(keys, start, size, n)


def send(client, tables):
    """The search tables on every worker, as a future.  A key of its own
    (hash=False): equal data scattered again while an earlier call's copy
    is being released must not share that copy's key."""
    [future] = client.scatter([tables], broadcast=True, hash=False)
    return future


def cluster_threads(client):
    """The threads of the cluster's workers."""
    workers = client.scheduler_info()["workers"].values()
    return max(1, sum(w.get("nthreads", 1) for w in workers))


def cluster_workers(client):
    """The number of the cluster's workers."""
    return max(1, len(client.scheduler_info()["workers"]))


def gathered(client, futures, results, progress_callback):
    """The `results` futures' arrays, in order, after reporting the
    fraction of `futures` done; a callback that raises cancels them all."""
    from distributed import as_completed

    try:
        for done, _ in enumerate(as_completed(futures), start=1):
            report(progress_callback, done / len(futures))
    except BaseException:
        client.cancel(futures)
        raise
    return client.gather(results)

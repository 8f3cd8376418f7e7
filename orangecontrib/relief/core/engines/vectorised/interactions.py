"""The interaction map's sums (:mod:`...networks.interactions`) with numpy: the
pairs' diffs written out a chunk at a time and multiplied as matrices,
:mod:`..compiled.interactions`' results (to rounding)."""
import numpy as np

from .rfsm import pair_diffs

#: pairs whose diffs are held at once (times the attributes, float64)
CHUNK_PAIRS = 2 ** 15


def chunks(n_pairs):
    """Slices of the pairs, :data:`CHUNK_PAIRS` at a time."""
    return [slice(start, start + CHUNK_PAIRS)
            for start in range(0, n_pairs, CHUNK_PAIRS)] or [slice(0, 0)]


def pair_sums(tables, first, second, miss, hit):
    """The vectorised engine's :meth:`..interface.Engine.pair_sums`: a
    chunk of pairs at a time, its diffs times the multipliers."""
    every = np.arange(tables.values.shape[0], dtype=np.int64)
    sums = np.zeros((4, len(every)))
    for part in chunks(len(first)):
        diffs = pair_diffs(tables, first[part], second[part], every)
        sums += np.column_stack([miss[part] - hit[part], miss[part],
                                 hit[part], np.ones(len(miss[part]))]).T \
            @ diffs.T
    return sums


def reference_chunks(first, n_pairs):
    """Slices of the pairs (sorted by reference) that hold whole
    references, about :data:`CHUNK_PAIRS` pairs each."""
    starts = np.flatnonzero(np.r_[True, first[1:] != first[:-1]])
    bounds = [0]
    for start in starts[1:]:
        if start - bounds[-1] >= CHUNK_PAIRS:
            bounds.append(int(start))
    bounds.append(n_pairs)
    return [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def reference_products(references, rows, n_references):
    """Each reference's sum of the outer products of its `rows` with
    themselves, (n_references, K, K); `references` (sorted) the reference
    of every row.  The references are taken by their number of rows, each
    batch padded to its largest, so that one batched product of about
    :data:`CHUNK_PAIRS` rows computes a batch with little padding."""
    k = rows.shape[1]
    products = np.zeros((n_references, k, k))
    sizes = np.bincount(references, minlength=n_references)
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    order = np.argsort(sizes, kind="stable")
    order = order[sizes[order] > 0]
    padded = np.concatenate([rows, np.zeros((1, k))])
    done = 0
    while done < len(order):
        # as many as CHUNK_PAIRS rows of the largest of them hold
        count = max(1, CHUNK_PAIRS // sizes[order[done]])
        largest = sizes[order[min(done + count, len(order)) - 1]]
        batch = order[done:done + max(1, min(count, CHUNK_PAIRS // largest))]
        done += len(batch)
        slots = np.arange(sizes[batch].max())
        index = np.where(slots[None, :] < sizes[batch][:, None],
                         starts[batch][:, None] + slots[None, :], len(rows))
        block = padded[index]
        products[batch] = np.matmul(block.transpose(0, 2, 1), block)
    return products


def map_sums(tables, first, second, miss, hit, attributes, mean, squares):
    """The vectorised engine's :meth:`..interface.Engine.map_sums`: whole
    references a chunk at a time (:func:`reference_chunks`), their
    products batched (:func:`reference_products`)."""
    k = len(attributes)
    delta, square = np.zeros((k, k)), np.zeros((k, k))
    for part in reference_chunks(first, len(first)):
        diffs = pair_diffs(tables, first[part], second[part], attributes).T
        groups = []
        for mean_of, multiplier in zip(mean, (miss[part], hit[part])):
            kept = np.flatnonzero(multiplier > 0)
            groups.append((kept, (diffs[kept] - mean_of)
                           * np.sqrt(multiplier[kept])[:, None]))
        (misses, miss_rows), (hits, hit_rows) = groups
        if not squares:
            delta += miss_rows.T @ miss_rows - hit_rows.T @ hit_rows
            continue
        _, reference = np.unique(first[part], return_inverse=True)
        n_references = int(reference.max()) + 1
        z = (reference_products(reference[misses], miss_rows, n_references)
             - reference_products(reference[hits], hit_rows, n_references))
        delta += z.sum(axis=0)
        square += (z ** 2).sum(axis=0)
    return delta, square

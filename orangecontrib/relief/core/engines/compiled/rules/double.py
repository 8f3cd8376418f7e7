"""Double ReliefF's compiled loop (Prat & Belanche 2006, section 3).

The distance weights change after every reference, so the references are
processed one at a time, in order, by one sequential kernel: it computes
the distance weights (eq. 3.1-3.3), finds the reference's neighbours with
:func:`..neighbours.references.search_rows` and
:func:`..neighbours.exact_ranking.rerank_reference` (float32 search, exact float64
ranking, as ReliefF's) and applies :func:`.relieff.relieff_update`, exactly
the search and rule of ReliefF.  :mod:`....double` states the choices the
paper leaves open.
"""
import numba
import numpy as np

from ....formulas.distance_weighting import distance_weights_at
from ..diffs import for_kernels
from ..neighbours import EXTRA
from ..neighbours.block import BLOCK, ROWS
from ..neighbours.exact_ranking import float32_error_bound, rerank_reference
from ..neighbours.references import search_rows
from ..neighbours.topk import INF_BITS, candidate_key, unpack_keys
from ....progress import report, step_bounds
from .relieff import UPDATE_BLOCK, relieff_update


distance_weights_at = numba.njit(cache=True)(distance_weights_at)


@numba.njit(cache=True)
def double_relieff_steps(search, exact, order, position, refs, start, stop,
                         priors, k, fixed, clip, exponent, s, partial, done):
    """Process references refs[start:stop] of (p)dReliefF, one at a time.

    For each reference R_t (t = its position in `refs`): distance weights
    from the current estimate (:func:`distance_weights_at`), R_t's k nearest
    hits and misses under them (:func:`search_rows` in float32, in the
    search tables' `order`: instance order[p] at position p, `position` its
    inverse; then ranked by exact distance, :func:`rerank_reference`), and
    ReliefF's update (:func:`relieff_update`) added to
    ``partial[t // UPDATE_BLOCK]``.

    `partial` (n_blocks, a) and `done` (a,), the sum of the completed blocks,
    are the state kept between calls, so a caller can stop after any
    reference to report progress.  The result is
    ``partial.sum(axis=0) / m``, summed as ReliefF sums (:func:`relieff_rule`).
    ``s < 0`` means dReliefF.
    """
    n = search.values.shape[1]
    n_groups = priors.shape[0]
    m = refs.shape[0]
    keys = np.empty((n_groups, k + EXTRA), dtype=np.uint64)
    empty = candidate_key(INF_BITS, n)
    candidates = np.empty(keys.shape, dtype=np.int64)
    cand_dist = np.empty(keys.shape, dtype=np.float32)
    neighbours = np.empty((n_groups, k), dtype=np.int64)
    out = np.empty((ROWS, BLOCK), dtype=np.float32)
    rows = np.empty(ROWS, dtype=np.int64)
    list_rows = np.zeros(ROWS, dtype=np.int64)
    weights = np.empty(partial.shape[1], dtype=np.float32)
    total = np.empty(partial.shape[1])
    for t in range(start, stop):
        block = t // UPDATE_BLOCK
        if t > 0 and t % UPDATE_BLOCK == 0:
            done += partial[block - 1]
        total[:] = done + partial[block]
        distance_weights_at(weights, total, t, m, fixed, clip, exponent, s)
        i = refs[t]
        rows[:] = position[i]
        keys[:] = empty
        search_rows(search, weights, rows, 1, list_rows, n_groups, keys, out)
        unpack_keys(keys, order, candidates, cand_dist)
        rerank_reference(search, exact, weights, weights.astype(np.float64),
                         i, candidates, cand_dist,
                         float32_error_bound(search, weights), order,
                         position, neighbours)
        relieff_update(partial[block], exact, i, neighbours, priors)


@numba.njit(cache=True)
def finish(partial, m):
    """The weights, summed in ReliefF's order (see rules.relieff_rule)."""
    return partial.sum(axis=0) / m


def double_relieff(data, refs, k, fixed, clip, exponent, s,
                   progress_callback=None):
    """(p)dReliefF weights of prepared data (``s < 0``: dReliefF), the
    references processed in order in the pieces of
    :func:`....progress.step_bounds`; see :func:`....double.double_weights`."""
    n_attrs = len(fixed)
    m = len(refs)
    partial = np.zeros((-(-m // UPDATE_BLOCK), n_attrs))
    done = np.zeros(n_attrs)
    position, exact = data.search_position, for_kernels(data.exact)
    bounds = step_bounds(m, progress_callback)
    for start, stop in zip(bounds[:-1], bounds[1:]):
        double_relieff_steps(data.search, exact, data.search_order,
                             position, refs, int(start), int(stop),
                             data.priors, k, fixed, clip, exponent, s,
                             partial, done)
        report(progress_callback, stop / m)
    return finish(partial, m)

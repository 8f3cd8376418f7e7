"""Where ReliefF's search of all pairs spends its time: the distances,
their ordered bits, and the offers to the top-K lists.

With every instance a reference, the compiled engine computes each pair's
float32 distance once, a tile of BLOCK x BLOCK instances at a time
(``neighbours/all_pairs.py``): ROWS rows of distances against the tile's
columns (``distances.distance_rows``), turned into ordered bits
(``topk.order_bits``), then offered to the columns' lists and to the
rows' own (``all_pairs.offer_row``: a list takes a candidate nearer than
its K-th, K = k + 4 or 16 (``search.list_width``), with one insertion
into K sorted keys).

This script runs that loop with the engine's own kernels over the tiles
in the search's order, stopping after each step in turn, and times each
stop on one thread: a step's time is its stop's less the one before it.
Run to its end, the loop's lists are the engine's (checked), and its
time the engine's search's (printed beside it).  The floor of the
distances is half of all n^2 float32 distances (``floor.py``, one
thread): the search computes each pair once.

Usage::

    python benchmarks/search_phases.py                   # 1000x50,2000x100,5000x100
    python benchmarks/search_phases.py --sizes 20000x50 --repeats 1
"""
from __future__ import annotations

import numba
import numpy as np

from arguments import Parser, add_phase_options
from floor import measure_floor
from harness import Spec, make_data
from surf_phases import least_times, one_thread_compiled, print_tables

#: the steps of a block of rows, in the engine's order; the loop stops
#: after the i-th
STEPS = ("distances", "ordered bits", "offers")


def _tile_loop():
    """The search's loop over its tiles (``all_pairs.search_tile_pair``,
    for data without missing values), stopping after step `stop` of
    :data:`STEPS` (compiled on first use)."""
    from orangecontrib.relief.core.engines.compiled.neighbours import (
        all_pairs, compaction, distances, topk)
    from orangecontrib.relief.core.engines.compiled.neighbours.block import (
        BLOCK, ROWS, block_rows)

    @numba.njit
    def tile_loop(tables, weights, tile_rows, tile_cols, keys, kth, slot,
                  stop):
        n = tables.values.shape[1]
        out = np.empty((ROWS, BLOCK), dtype=np.float32)
        bits = out.view(np.uint32)
        rows = np.empty(ROWS, dtype=np.int64)
        hits = compaction.hits_buffer(BLOCK)
        sums = np.empty(BLOCK, dtype=np.float32)
        kept = 0
        for p in range(len(tile_rows)):
            i0, j0 = tile_rows[p] * BLOCK, tile_cols[p] * BLOCK
            istop, jstop = min(i0 + BLOCK, n), min(j0 + BLOCK, n)
            distances.column_sums(tables, weights, j0, jstop - j0, sums)
            for first in range(i0, istop, ROWS):
                count = block_rows(first, istop, rows)
                jfirst = max(j0, first + 1)
                if jfirst >= jstop:
                    continue
                distances.distance_rows(tables, weights, rows, jfirst,
                                        jstop - jfirst, out,
                                        sums[jfirst - j0:], False)
                if stop >= 1:
                    topk.order_bits(bits, jstop - jfirst)
                if stop >= 2:
                    for r in range(count):
                        all_pairs.offer_row(bits, r, rows[r], jfirst, jstop,
                                            tables.groups, keys, kth, slot,
                                            hits)
                kept += bits[0, 0]  # a result, so that no step is dropped
        return kept

    return tile_loop


def search_inputs(n, a, seed):
    """The benchmark's data of n x a (binary class,
    :func:`harness.make_data`) prepared for ReliefF's compiled search:
    (the generated data, the prepared data, float32 weights of 1, the
    lists' K, the search's rounds of tile pairs,
    ``all_pairs.tile_rounds``)."""
    from orangecontrib.relief.core.engines import preparation
    from orangecontrib.relief.core.engines.compiled.neighbours import (
        all_pairs, search)
    from orangecontrib.relief.core.engines.compiled.neighbours.block import (
        BLOCK)
    from orangecontrib.relief.core.options import (DIFF, K_RELIEFF,
                                                   RANDOM_STATE, T_DIFF, T_EQ)
    from orangecontrib.relief.core.variants.estimators import prepared
    d = make_data(Spec(n, a, seed=seed))
    data, _, _ = prepared(d["X"], d["y"], d["discrete"], None, RANDOM_STATE,
                          task="classification", diff=DIFF, t_eq=T_EQ,
                          t_diff=T_DIFF, parts=(preparation.RELIEFF,))
    return (d, data, np.ones(a, np.float32),
            search.list_width(min(K_RELIEFF, n)),
            all_pairs.tile_rounds(-(-n // BLOCK)))


def measure(n, a, repeats=3, seed=0, floors=True):
    """The steps of ReliefF's search of all pairs at n x a on one thread,
    each stop timed in turn with the engine's search and the whole call
    (:func:`surf_phases.least_times`):
    {"steps": [(name, seconds)], "search": seconds of the engine's search,
    "call": seconds of the whole ReliefF call, "same_lists": whether the
    loop's lists are the engine's, "floor": half of all n^2 float32
    distances in seconds, or None}."""
    from orangecontrib.relief.core.engines.compiled.neighbours import (
        all_pairs, topk)
    from orangecontrib.relief.core.variants.estimators import relieff
    with one_thread_compiled():
        d, data, weights, K, rounds = search_inputs(n, a, seed)
        tables, n_groups, (tile_rows, tile_cols, _) = (data.search,
                                                       data.n_groups, rounds)
        loop = _tile_loop()

        def run(stop):
            keys = topk.empty_keys((n * n_groups, K), n)
            kth = np.full((n_groups, n), topk.INF_BITS, np.uint32)
            loop(tables, weights, tile_rows, tile_cols, keys, kth,
                 np.arange(n), stop)
            return keys

        def engine_search():
            return all_pairs.pair_lists(tables, weights, np.arange(n),
                                        rounds, K, n_groups)
        *stops, search_time, call = least_times(
            [lambda s=s: run(s) for s in range(len(STEPS))]
            + [engine_search,
               lambda: relieff(d["X"], d["y"], d["discrete"])], repeats)
        same = np.array_equal(run(len(STEPS) - 1), engine_search())
        floor = None
        if floors:
            res = measure_floor(n, a, repeats=repeats, dtypes=("float32",))
            floor = res["floor"]["float32"][0] / 2
    steps = [(name, t - (stops[s - 1] if s else 0.0))
             for s, (name, t) in enumerate(zip(STEPS, stops))]
    return {"n": n, "a": a, "steps": steps, "search": search_time,
            "call": call, "same_lists": bool(same), "floor": floor}


def format_result(res):
    """A table of :func:`measure`'s result."""
    search, floor = res["search"], res["floor"]
    lines = [f"ReliefF's search of all pairs {res['n']}x{res['a']} (one "
             f"thread; the loop's lists are the engine's: "
             f"{'yes' if res['same_lists'] else 'NO'})", "",
             "| step | time (s) | share of the search | floor (s) | "
             "ours / floor |", "| --- | ---: | ---: | ---: | ---: |"]
    for name, t in res["steps"]:
        against = (f" {floor:.4f} | {t / floor:.2f}x |"
                   if floor and name == "distances" else " | |")
        lines.append(f"| {name} | {t:.4f} | {t / search:.0%} |" + against)
    total = sum(t for _, t in res["steps"])
    lines.append(f"| sum of the steps | {total:.4f} | {total / search:.0%} "
                 "| | |")
    lines.append(f"| the engine's search | {search:.4f} | 100% | | |")
    lines.append(f"| whole ReliefF call | {res['call']:.4f} | "
                 f"{res['call'] / search:.0%} | | |")
    return "\n".join(lines)


def build_parser():
    p = Parser(description=__doc__.split("\n\n")[0])
    add_phase_options(p, "1000x50,2000x100,5000x100")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    print_tables(args, "steps", lambda n, a: format_result(
        measure(n, a, args.repeats, args.seed)))


if __name__ == "__main__":
    main()

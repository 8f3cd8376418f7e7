"""Where MultiSURF's compiled rule spends its time, phase by phase, beside
the floor of each phase.

MultiSURF (Urbanowicz et al. 2018) and MultiSURF* find each reference's
distances to every instance, then its limits (the mean and deviation of
its row, eq. 2 of the paper), its near (and far) set, and add the terms
of the pairs within them.  The compiled engine takes GROUP references of
one class at a time (``rules/surf.py``, :func:`radius_block`): their rows
copied instance by instance from the distances of every pair (computed
once, or a panel at a time), their limits (two passes over the rows),
the members of their sets (bits per instance), the members' counts per
class and the coefficients, then the pairs gathered and their terms
summed (``unrolled.add_pairs``).

This script runs that loop with the engine's own kernels, stopping after
each step in turn, and times each stop on one thread: a phase's time is
its stop's less the one before it.  The distances are timed by the route
the engine takes at that size (every pair kept, or panels).  The loop run
to its end gives the engine's sums to the bit (checked), so the phases
are the work of a real call.  The floors (``floor.py``, one thread) are
all n^2 float64 distances, of which the engine computes each pair once,
so half of it, and the update floor (c |x_i - x_j| per attribute over a
third of the pairs) times the method's share of the pairs.

Usage::

    python benchmarks/surf_phases.py                       # 2000x100,5000x100
    python benchmarks/surf_phases.py --algorithm multisurf* --sizes 5000x200
"""
from __future__ import annotations

import math
import time
from contextlib import contextmanager

import numba
import numpy as np

from arguments import Parser, add_phase_options, prepare_unless
from floor import UPDATE_THIRDS, measure_floor
from harness import Spec, make_data
from simd import simd_level

#: the methods whose limits are each reference's own (the others read
#: their members off one limit, a route of its own)
ALGORITHMS = ("multisurf", "multisurf*")

#: the steps of a group, in the engine's order; the loop stops after
#: the i-th
STEPS = ("rows", "limits", "members", "counts", "gathers", "sums")


def engine():
    """The compiled engine's modules this script drives."""
    from orangecontrib.relief.core.engines.compiled.rules import surf
    from orangecontrib.relief.core.engines.compiled.neighbours import panels
    from orangecontrib.relief.core.engines.compiled.threads import each_call
    return surf, panels, each_call


def _group_loop():
    """The engine's loop over the references' groups, stopping after step
    `stop` of :data:`STEPS` (compiled on first use)."""
    from orangecontrib.relief.core.engines.compiled.neighbours.block import (
        ROWS, block_refs)
    surf = engine()[0]
    UPDATE_BLOCK = surf.UPDATE_BLOCK  # references per partial sum
    GROUP, HELD = surf.GROUP, surf.HELD

    @numba.njit
    def gathers_only(group, groups, buffers):
        held = surf.HeldPairs(np.empty((2, 2, HELD + GROUP), np.int64),
                              np.empty((2, HELD + GROUP)),
                              np.zeros(2, np.int64))
        kept = 0.0
        members, coefs, factors = buffers.members, buffers.coefs, buffers.factors
        for j in range(group.dist.shape[1]):
            g = groups[j]
            surf.gather(held, 0, members[0, j], group, j, g, coefs, factors,
                        False)
            surf.gather(held, 1, members[1, j], group, j, g, coefs, factors,
                        False)
            for s in range(2):
                if held.count[s] >= HELD:
                    kept += held.coefs[s, 0]
                    held.count[s] = 0
        return kept

    @numba.njit
    def group_loop(exact, refs, given, codes, priors, rule, stop, partial,
                   scalars):
        n, n_groups = len(codes), len(priors)
        rows = np.empty(GROUP, np.int64)
        dist = np.zeros((n, GROUP)).T
        near, far, scale = np.empty(GROUP), np.empty(GROUP), np.empty(GROUP)
        buffers = surf.Buffers(
            np.empty((2, n_groups, GROUP), np.int64), np.empty((2, n), np.int64),
            np.empty((2, n_groups), np.int64), np.empty((GROUP, 2, n_groups)),
            np.empty((GROUP, 2)), np.empty((0, GROUP)).T)
        kept = 0.0
        for b in range(partial.shape[0]):
            first, end = b * UPDATE_BLOCK, min(len(refs), (b + 1) * UPDATE_BLOCK)
            while first < end:
                count = surf.class_run(refs, codes, first, end)
                for q in range(0, count, ROWS):
                    block_refs(refs, first + q, first + count, rows[q:q + ROWS])
                surf.given_rows(given, rows, count, dist)
                group = surf.Group(rows, count, dist, near, far, scale)
                if stop >= 1:
                    surf.group_limits(group, rule)
                if stop >= 2:
                    surf.group_members(group, rule.with_far, buffers.members)
                if stop >= 3:
                    surf.class_terms(group, codes, priors, rule, False,
                                     buffers, scalars[b])
                if stop == 4:
                    kept += gathers_only(group, codes, buffers)
                if stop >= 5:
                    surf.class_update(partial[b], exact, None, codes, group,
                                      rule, buffers)
                kept += dist[0, 0] + near[0]
                first += count
        return kept

    return group_loop


def call_inputs(n, a, algorithm, seed):
    """What the engine's rule of `algorithm` takes on the benchmark's data
    of n x a (binary class, :func:`harness.make_data`): (the data, the
    exact tables as the kernels take them, their values in C order, the
    references by class, the class codes, their priors, the rule's options,
    and the distances' route: (given, plan) of the engine's
    ``local_given``)."""
    from orangecontrib.relief.core.engines import preparation
    from orangecontrib.relief.core.engines.compiled.diffs import for_kernels
    from orangecontrib.relief.core.options import (DEVIATION, DIFF,
                                                   RANDOM_STATE, T_DIFF, T_EQ)
    from orangecontrib.relief.core.variants.estimators import prepared
    from orangecontrib.relief.core.variants.surf import neighbourhood_kind
    surf = engine()[0]
    d = make_data(Spec(n, a, seed=seed))
    data, refs, _ = prepared(d["X"], d["y"], d["discrete"], None,
                             RANDOM_STATE, task="classification", diff=DIFF,
                             t_eq=T_EQ, t_diff=T_DIFF,
                             parts=(preparation.SURF,), search=False)
    exact = for_kernels(data.exact)
    values = np.ascontiguousarray(exact.values)
    refs = refs[np.argsort(exact.groups[refs], kind="stable")]
    local, far, ddof = neighbourhood_kind(algorithm, DEVIATION)
    given, plan = surf.local_given(values, exact, refs)
    rule = surf.radius_options(values, exact, local, far, ddof, False, given,
                               surf.neighbourhoods.DEAD_BAND, None, None)
    return (d, exact, values, refs, data.groups.astype(np.int64), data.priors,
            rule, given, plan)


def least_time(fn, repeats):
    """The least of `repeats` timed calls of fn() after an untimed one."""
    return least_times([fn], repeats)[0]


def least_times(fns, repeats):
    """The least of `repeats` timed calls of each of `fns`, taken in
    turns after an untimed call of each, so that the machine's drift
    falls on all of them alike (a stop's time less the one before it is
    then a step's, not the drift between them)."""
    for fn in fns:
        fn()
    least = [math.inf] * len(fns)
    for _ in range(repeats):
        for s, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            least[s] = min(least[s], time.perf_counter() - t0)
    return least


@contextmanager
def one_thread_compiled():
    """Within it, numba runs one thread and every call takes the compiled
    engine (small calls otherwise take the vectorised one, whose sums
    are not these bits)."""
    from orangecontrib.relief.core import engines
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        with engines.forced(engines.COMPILED):
            yield
    finally:
        numba.set_num_threads(threads)


def distance_time(values, exact, refs, given, plan, repeats):
    """(route, seconds, rows): the time of the distances by the engine's
    route (`given` every pair's, else the panels of `plan`), and the
    distances of every pair as the rules read them (:class:`Given`)."""
    surf, panels, each_call = engine()
    if plan is None:
        seconds = least_time(lambda: surf.local_distances(values, exact),
                             repeats)
        return "every pair kept", seconds, surf.Given(given.rows,
                                                      given.row_of)

    def panel_rows():
        for *_, calls, work in panels.reference_rows(values, exact, refs,
                                                     plan):
            each_call(calls, work)
    seconds = least_time(panel_rows, repeats)
    n = values.shape[1]
    dist = np.empty((n, n))  # whatever the budget: a panel's rows' bits
    surf.all_distances(values, exact, dist)
    return "panels", seconds, surf.Given(dist, np.arange(n, dtype=np.int64))


def measure(n, a, algorithm="multisurf", repeats=3, seed=0, floors=True):
    """The phases of `algorithm` at n x a on one thread: {"phases": [(name,
    seconds)], "call": seconds of the whole call, "route": how the
    distances were found, "same_bits": whether the loop's sums are the
    engine's, "floors": (distances, update) in seconds or None}."""
    from orangecontrib.relief.core.formulas.stir import CLASS_SCALARS
    from orangecontrib.relief.core.variants.surf import (multisurf,
                                                         multisurfstar)
    method = multisurf if algorithm == "multisurf" else multisurfstar
    with one_thread_compiled():
        (d, exact, values, refs, codes, priors, rule, given,
         plan) = call_inputs(n, a, algorithm, seed)
        route, distances, rows = distance_time(values, exact, refs, given,
                                               plan, repeats)
        loop = _group_loop()
        blocks = -(-len(refs) // engine()[0].UPDATE_BLOCK)

        def run(stop):
            partial = np.zeros((blocks, 6, values.shape[0]))
            scalars = np.zeros((blocks, CLASS_SCALARS))
            loop(exact, refs, rows, codes, priors, rule, stop, partial,
                 scalars)
            return partial
        stops = least_times([lambda s=s: run(s) for s in range(len(STEPS))],
                            repeats)
        call = least_time(lambda: method(d["X"], d["y"], d["discrete"]),
                          repeats)
        sums = run(len(STEPS) - 1).sum(axis=0)
        same = np.array_equal((sums[0] + sums[1]) / len(refs),
                              method(d["X"], d["y"], d["discrete"]))
        floor = None
        if floors:
            res = measure_floor(n, a, repeats=repeats, dtypes=("float64",))
            floor = (res["floor"]["float64"][0] / 2,
                     UPDATE_THIRDS[algorithm] * res["update"]["float64"])
    phases = [("distances", distances)] + [
        (name, t - (stops[s - 1] if s else 0.0))
        for s, (name, t) in enumerate(zip(STEPS, stops))]
    return {"n": n, "a": a, "algorithm": algorithm, "phases": phases,
            "call": call, "route": route, "same_bits": bool(same),
            "floors": floor}


def format_result(res):
    """A table of :func:`measure`'s result."""
    call = res["call"]
    floor_of = {}
    if res["floors"] is not None:
        floor_of = {"distances": res["floors"][0],
                    "update": res["floors"][1]}
    lines = [f"{res['algorithm']} {res['n']}x{res['a']} (one thread; "
             f"distances: {res['route']}; the loop's sums are the engine's "
             f"to the bit: {'yes' if res['same_bits'] else 'NO'})", "",
             "| phase | time (s) | share of the call | floor (s) | "
             "ours / floor |", "| --- | ---: | ---: | ---: | ---: |"]
    phases = dict(res["phases"])
    update = phases["gathers"] + phases["sums"]
    rows = list(res["phases"]) + [("update", update)]
    for name, t in rows:
        floor = floor_of.get(name)
        ratio = f"{t / floor:.2f}x" if floor else ""
        floor_text = f"{floor:.3f}" if floor else ""
        lines.append(f"| {name} | {t:.4f} | {t / call:.0%} | {floor_text} | "
                     f"{ratio} |")
    total, floors = sum(t for _, t in res["phases"]), sum(floor_of.values())
    against = f" {floors:.3f} | {total / floors:.2f}x |" if floors else " | |"
    lines.append(f"| sum of the phases | {total:.4f} | {total / call:.0%} |"
                 + against)
    lines.append(f"| whole call | {call:.4f} | 100% | | |")
    return "\n".join(lines)


def print_tables(args, steps, table):
    """Prepare the engine unless told not to, then print the SIMD level
    and `table(n, a)` for each size of `args` (the options of
    :func:`arguments.add_phase_options`); `steps` names what the tables
    time, the loop's phases or steps."""
    prepare_unless(args)
    print(f"SIMD {simd_level()}; {steps} of the engine's loop, each stop "
          f"least of {args.repeats} after one untimed call")
    for n, a in args.sizes:
        print()
        print(table(n, a))


def build_parser():
    p = Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("--algorithm", choices=ALGORITHMS, default="multisurf")
    add_phase_options(p, "2000x100,5000x100")
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    print_tables(args, "phases", lambda n, a: format_result(
        measure(n, a, args.algorithm, args.repeats, args.seed)))


if __name__ == "__main__":
    main()

"""The machine's floor for ReliefF: all n^2 L1 distances, nothing else.

ReliefF with m = n must, for every reference, compute its distance to every
other instance, so no exact implementation can be faster than a loop that only
computes those n^2 distances.  This script times such a loop (numba,
``prange`` over the references, all cores) at 20000 x 50 by default, in
float64 and float32.  X is (n, a) row-major and the inner loop runs over the a
features of one pair, which vectorises well.  (A feature-major layout with the
inner loop over blocks of candidates was 2-6x slower here, and blocking four
references per x_j load did not help either, so they are not part of the
floor.)

Each distance is consumed by a reduction (a sum, or a per-reference minimum
over the other instances) so the compiler cannot drop the work.  The symmetric
half is *not* exploited: every reference computes all n distances, as ReliefF
does.  The floor reported per dtype is the fastest variant.  A second floor is
that of MultiSURF's update: each reference sums c |x_i - x_j| per attribute
over a third of the instances (its near set), with nothing else; the floor
of a SURF-family method's phases is the first and its share of the pairs
times the second (:func:`phase_floor`).  The header names the CPU's SIMD
level (AVX2, AVX-512 and its subsets).

Usage::

    python benchmarks/floor.py                 # 20000 x 50, best of 3
    python benchmarks/floor.py --n 5000 --a 200 --repeats 5

``bench_relief.py --floor`` imports :func:`measure_floor` and reports our
ReliefF time at the same size as a multiple of the floor, and with a
SURF-family ``--algorithm`` our time at each size of the run as a multiple
of the floor of its phases.
"""

from __future__ import annotations

import time

import numpy as np

from arguments import Parser, non_negative_int, positive_int
from simd import simd_level

def _kernels():
    """Compile lazily so importing this module is cheap; the compiled
    kernels are cached (numba's cache), so a later run loads them."""
    from numba import njit, prange

    @njit(parallel=True, fastmath=True, cache=True)
    def rows_sum(X):
        n, a = X.shape
        out = np.zeros(n, dtype=np.float64)
        for i in prange(n):
            xi = X[i]
            acc = X.dtype.type(0)
            for j in range(n):
                xj = X[j]
                d = X.dtype.type(0)
                for f in range(a):
                    d += abs(xi[f] - xj[f])
                acc += d
            out[i] = acc
        return out.sum()

    @njit(parallel=True, fastmath=True, cache=True)
    def rows_min(X):
        n, a = X.shape
        out = np.empty(n, dtype=np.float64)
        for i in prange(n):
            xi = X[i]
            best = np.inf
            for j in range(n):
                if j == i:
                    continue
                xj = X[j]
                d = X.dtype.type(0)
                for f in range(a):
                    d += abs(xi[f] - xj[f])
                if d < best:
                    best = d
            out[i] = best
        return out.sum()

    return {"rows/sum": rows_sum, "rows/min": rows_min}


def _update_kernel():
    """The floor of MultiSURF's update: every reference i adds
    c |x_i - x_j| per attribute over a third of the instances j (about the
    share below MultiSURF's near limit, mean - sigma / 2), its rows
    gathered from X and summed into a partial sum per block of references,
    as an exact update must (no neighbour lists, no thresholds)."""
    from numba import njit, prange

    @njit(parallel=True, fastmath=True, cache=True)
    def near_update(X):
        n, a = X.shape
        blocks = -(-n // 64)
        partial = np.zeros((blocks, a), dtype=X.dtype)
        for b in prange(blocks):
            acc = partial[b]
            for i in range(b * 64, min(n, (b + 1) * 64)):
                xi = X[i]
                c = X.dtype.type(3.0 / n)
                for j in range(i % 3, n, 3):
                    xj = X[j]
                    for f in range(a):
                        acc[f] += c * abs(xi[f] - xj[f])
        return partial.sum()

    return near_update


#: the pairs a SURF-family method's update visits, in thirds of all pairs
#: (the update floor's share), on distances about normal: MultiSURF's near
#: set, below mean - sigma / 2, about a third (Phi(-1/2) = 0.31), and its
#: far set (MultiSURF*), above mean + sigma / 2, as many again; SURF's near
#: set, below the mean T, half of them; SURF*'s near and far sets, all
UPDATE_THIRDS = {"multisurf": 1.0, "multisurf+stir": 1.0, "multisurf*": 2.0,
                 "surf": 1.5, "surf*": 3.0}


def phase_floor(res, algorithm):
    """The floors of a SURF-family `algorithm`'s phases at the size of
    :func:`measure_floor`'s result `res`: every distance (the float64
    floor) and its update over its share of the pairs (UPDATE_THIRDS
    times the update floor); (distances, update) in seconds."""
    return (res["floor"]["float64"][0],
            UPDATE_THIRDS[algorithm] * res["update"]["float64"])


def measure_floor(n=20000, a=50, repeats=3, seed=0, dtypes=("float64", "float32"),
                  verbose=False):
    """Time the distance-only kernels; return a dict of results.

    ``{"n", "a", "threads", "simd", "variants": {(dtype, variant):
    seconds}, "floor": {dtype: (seconds, variant)}, "update": {dtype:
    seconds}}`` (``update``: the floor of MultiSURF's update,
    :func:`_update_kernel`); seconds are the best of ``repeats`` timed
    calls after one untimed compile/warm-up call.
    """
    import numba

    kernels, near_update = _kernels(), _update_kernel()
    rng = np.random.default_rng(seed)
    base = rng.random((n, a))
    variants, floor, update = {}, {}, {}
    for dt in dtypes:
        X = np.ascontiguousarray(base, dtype=dt)
        for name, fn in kernels.items():
            variants[(dt, name)] = _best_time(fn, X, repeats)
            if verbose:
                print(f"  {dt:8s} {name:9s} {variants[(dt, name)]:8.3f} s")
        best = min((variants[(dt, v)], v) for v in kernels)
        floor[dt] = best
        update[dt] = _best_time(near_update, X, repeats)
    return {"n": n, "a": a, "threads": numba.get_num_threads(),
            "simd": simd_level(), "variants": variants, "floor": floor,
            "update": update}


def _best_time(fn, X, repeats):
    """The best of `repeats` timed calls fn(X) after one on a few rows
    (the compilation)."""
    fn(X[: min(len(X), 512)])
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(X)
        times.append(time.perf_counter() - t0)
    return min(times)


def format_floor(res):
    lines = [f"Floor: all {res['n']}^2 L1 distances at {res['n']} x {res['a']} "
             f"({res['threads']} numba threads, SIMD {res['simd']}), best of "
             "repeats:",
             "",
             "| dtype | layout/reduction | time (s) | Gpair-features/s |",
             "| --- | --- | ---: | ---: |"]
    work = float(res["n"]) ** 2 * res["a"]
    for (dt, v), t in sorted(res["variants"].items()):
        lines.append(f"| {dt} | {v} | {t:.3f} | {work / t / 1e9:.1f} |")
    lines.append("")
    for dt, (t, v) in res["floor"].items():
        lines.append(f"floor[{dt}] = {t:.3f} s ({v})")
    lines.append("")
    for dt, t in res["update"].items():
        lines.append(f"update floor[{dt}] = {t:.3f} s (c |x_i - x_j| summed "
                     "per attribute over a third of the pairs: "
                     "MultiSURF's near sets)")
    return "\n".join(lines)


def build_parser():
    p = Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=positive_int, default=20000)
    p.add_argument("--a", type=positive_int, default=50)
    p.add_argument("--repeats", type=positive_int, default=3)
    p.add_argument("--seed", type=non_negative_int, default=0)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    res = measure_floor(args.n, args.a, args.repeats, args.seed)
    print(format_floor(res))


if __name__ == "__main__":
    main()

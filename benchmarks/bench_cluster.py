"""ReliefF on a dask.distributed cluster beside the same call in this
process: the cluster path's overhead, and how its task graph grows with n.

Usage: ``python benchmarks/bench_cluster.py [--sizes 50000x20,200000x20]
[--workers 2] [--m 1000] [--repeats 3] [--scheduler ADDRESS]``

Three modes per size, each timed here and on the cluster (median of the
repeats after a warm-up call, which also loads the compiled kernels into
the workers):

* all pairs (every instance a reference): B (B + 1) / 2 tasks over pairs
  of row blocks and B reductions (core.neighbours.cluster);
* sampled: m references, a task per worker over a row chunk of the
  instances (their lists merged here);
* streamed: ``relieff_streaming`` with m references, tasks over row
  chunks of 20000.

Without ``--scheduler`` the cluster is a LocalCluster of ``--workers``
processes with one thread each, on this machine: its figures are the
cost of the cluster machinery, not a speed-up.  The weights of the two
runs are compared (they must be equal).
"""
import time

import numpy as np

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.variants.estimators import relieff
from orangecontrib.relief.core.engines.compiled.neighbours.block import BLOCK
from orangecontrib.relief.core.engines.compiled.neighbours.cluster import (
    block_count, cluster_threads, cluster_workers)
from orangecontrib.relief.core.variants.streaming import relieff_streaming

from arguments import Parser, positive_int, sizes

STREAM_CHUNK = 20_000


def make_data(n, a, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    y = (X[:, 0] + X[:, 1] > 1).astype(float)
    return X, y


def timed(call, repeats):
    call()  # warm-up: compiles here, loads the kernels in the workers
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), result


def modes(X, y, m, client):
    n = len(X)
    threads = cluster_threads(client)
    b = block_count(-(-n // BLOCK), threads)
    sampled_tasks = str(min(n, cluster_workers(client)))
    return [
        ("all pairs", f"{b * (b + 1) // 2} + {b}",
         lambda c: relieff(X, y, client=c)),
        (f"sampled, m = {m}", sampled_tasks,
         lambda c: relieff(X, y, n_iterations=m, client=c)),
        (f"streamed, m = {m}", f"2 x {-(-n // STREAM_CHUNK)}",
         lambda c: relieff_streaming(X, y, n_iterations=m, client=c,
                                     chunk_rows=STREAM_CHUNK)),
    ]


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=sizes,
                        default="50000x20,100000x20,200000x20")
    parser.add_argument("--workers", type=positive_int, default=2)
    parser.add_argument("--m", type=positive_int, default=1000)
    parser.add_argument("--repeats", type=positive_int, default=3)
    parser.add_argument("--scheduler", help="address of a running scheduler "
                                            "(default: a LocalCluster)")
    return parser


def main(argv=None):
    from distributed import Client, LocalCluster

    args = build_parser().parse_args(argv)
    cluster = (None if args.scheduler else
               LocalCluster(n_workers=args.workers, threads_per_worker=1,
                            processes=True, dashboard_address=None,
                            silence_logs=40))
    print(f"{'size':>10} {'mode':>18} {'tasks':>9} {'here s':>8} "
          f"{'cluster s':>9} {'ratio':>6}  equal")
    with Client(args.scheduler or cluster) as client, \
            engines.forced(engines.COMPILED):
        for n, a in args.sizes:
            size = f"{n}x{a}"
            X, y = make_data(n, a)
            for name, tasks, call in modes(X, y, args.m, client):
                here, expected = timed(lambda: call(None), args.repeats)
                there, got = timed(lambda: call(client), args.repeats)
                print(f"{size:>10} {name:>18} {tasks:>9} {here:8.2f} "
                      f"{there:9.2f} {there / here:6.2f}  "
                      f"{np.array_equal(expected, got)}", flush=True)
    if cluster is not None:
        cluster.close()


if __name__ == "__main__":
    main()

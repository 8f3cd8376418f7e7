"""The compiled engine's threads on a busy machine: how their wait policy
changes a small and a large call, idle and beside processes that spin.

Numba's OpenMP layer (libgomp) lets a thread that waits for the next
parallel region spin for a while before it sleeps (``OMP_WAIT_POLICY``
unset: libgomp's spin count, ``GOMP_SPINCOUNT=300000``).  On an idle
machine the next region then starts at once; beside processes that keep
the processors busy, the spinning threads take turns with them, and
every region of a call waits for the thread that is not running.
``OMP_WAIT_POLICY=passive`` makes a waiting thread sleep at once, at
the cost of waking it for the next region.  The add-on leaves the policy
to the environment (doc/scripting.md); this script compares the two,
paired: for each
load (idle, then beside ``--spinners`` processes of ``while True:
pass``, started and ended here) and round, a child process per policy,
in turn, times ReliefF on the small data (every instance a reference,
the median of ``--repeats`` calls after one) and MultiSURF on the large
data (the median of ``--large-repeats``, its kernels loaded by a call
on small data first), both on the compiled engine (``--engine``).

Usage::

    python benchmarks/bench_wait_policy.py
    python benchmarks/bench_wait_policy.py --small 1000x50 --large 20000x50 \\
        --rounds 2 --spinners 2

The table gives each time and the ratio passive / spinning (below 1:
sleeping waits are faster).  The compiled engine is prepared first
(``--no-prepare``: not).
"""
import json
import os
from argparse import SUPPRESS
import statistics
import subprocess
import sys
import time

from arguments import (Parser, add_prepare_option, non_negative_int,
                       positive_int, prepare_unless, size)

#: the policies compared, as the variables of a child: libgomp's default
#: (spin 300000 rounds, then sleep) and passive (sleep at once)
POLICIES = {"spin": {"GOMP_SPINCOUNT": "300000"},
            "passive": {"OMP_WAIT_POLICY": "passive"}}
#: a process that keeps a processor busy
SPINNER = "while True: pass"


def build_parser():
    p = Parser(description="The compiled engine's small and large calls "
                           "with the threads' wait policy unset and "
                           "passive, idle and beside spinning processes.")
    p.add_argument("--small", type=size, default=(1000, 50),
                   help="ReliefF's data, NxA (default 1000x50)")
    p.add_argument("--large", type=size, default=(20000, 50),
                   help="MultiSURF's data, NxA (default 20000x50)")
    p.add_argument("--repeats", type=positive_int, default=15,
                   help="timed ReliefF calls per child (default 15)")
    p.add_argument("--large-repeats", type=positive_int, default=1,
                   help="timed MultiSURF calls per child (default 1)")
    p.add_argument("--rounds", type=positive_int, default=2,
                   help="children per policy and load, in turn (default 2)")
    p.add_argument("--spinners", type=non_negative_int, default=2,
                   help="busy processes of the second load (default 2)")
    p.add_argument("--engine", choices=("compiled", "vectorised"),
                   default="compiled",
                   help="the engine of both calls (default compiled; the "
                        "vectorised one runs no OpenMP thread: a check of "
                        "the machinery)")
    p.add_argument("--child", choices=POLICIES, help=SUPPRESS)
    add_prepare_option(p)
    return p


def data(n, a, seed=0):
    """Uniform numeric data and a binary class of its first two columns."""
    import numpy as np
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    return X, (X[:, 0] + X[:, 1] + 0.3 * rng.random(n) > 1.15).astype(float)


def median_time(call, repeats, warm=True):
    """The median wall time of `repeats` calls (after one untimed with
    `warm`)."""
    if warm:
        call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def child(args):
    """Time the two calls in this process (its policy set by the parent)
    and print them as JSON."""
    from orangecontrib.relief.core import engines
    from orangecontrib.relief.core.variants.estimators import relieff
    from orangecontrib.relief.core.variants.surf import neighbourhood_sums
    small, large = data(*args.small), data(*args.large)
    with engines.forced(args.engine):
        neighbourhood_sums(*data(200, 5), method="multisurf")  # loaded
        times = {"small": median_time(lambda: relieff(*small), args.repeats),
                 "large": median_time(
                     lambda: neighbourhood_sums(*large, method="multisurf"),
                     args.large_repeats, warm=False)}
    print(json.dumps(times))


def run_child(policy, argv):
    """The times of a child process of the wait policy `policy`."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(POLICIES[policy])
    out = subprocess.run([sys.executable, os.path.abspath(__file__),
                          "--child", policy, *argv], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def spinners(count):
    """Start `count` processes that keep a processor busy each."""
    return [subprocess.Popen([sys.executable, "-c", SPINNER])
            for _ in range(count)]


def measure(args, argv):
    """{(load, policy, call): [times]} over the rounds, the policies in
    turn within a round."""
    results = {}
    for load in ("idle", f"beside {args.spinners} spinners"):
        busy = spinners(args.spinners) if load != "idle" else []
        try:
            for _ in range(args.rounds):
                for policy in POLICIES:
                    for call, seconds in run_child(policy, argv).items():
                        results.setdefault((load, call, policy),
                                           []).append(seconds)
        finally:
            for process in busy:
                process.kill()
                process.wait()
        if not args.spinners:
            break
    return results


def table(results, args):
    """One line per load and call: each policy's median time over the
    rounds and the ratio passive / spin, then every round's times (the
    spread says how much the machine's other work moved them)."""
    sizes = {"small": "ReliefF %dx%d" % args.small,
             "large": "MultiSURF %dx%d" % args.large}
    lines = [f"{'load':<22} {'call':<20} {'spin (s)':>10} "
             f"{'passive (s)':>12} {'passive/spin':>13}  rounds "
             f"(spin; passive)"]
    loads = dict.fromkeys(load for load, _, _ in results)
    for load in loads:
        for call in sizes:
            spin, passive = (results[load, call, policy]
                             for policy in POLICIES)
            ratio = statistics.median(passive) / statistics.median(spin)
            rounds = "; ".join(" ".join(f"{t:.4f}" for t in times)
                               for times in (spin, passive))
            lines.append(f"{load:<22} {sizes[call]:<20} "
                         f"{statistics.median(spin):>10.4f} "
                         f"{statistics.median(passive):>12.4f} "
                         f"{ratio:>13.2f}  {rounds}")
    return "\n".join(lines)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(argv)
    if args.child:
        return child(args)
    prepare_unless(args)
    forwarded = ["--small", "%dx%d" % args.small,
                 "--large", "%dx%d" % args.large,
                 "--repeats", str(args.repeats),
                 "--large-repeats", str(args.large_repeats),
                 "--engine", args.engine, "--no-prepare"]
    print("load before:", os.getloadavg())
    print(table(measure(args, forwarded), args))
    print("load after:", os.getloadavg())


if __name__ == "__main__":
    main()

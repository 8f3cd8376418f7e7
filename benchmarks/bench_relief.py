"""Benchmark our ReliefF / RReliefF against every installed peer in one run.

Peers: Orange's built-in ``Orange.preprocess.score.ReliefF`` / ``RReliefF``
(always), ``fast-select`` (numba ReliefF, float32) and ``skrebate``
(scikit-rebate) when importable.  All methods see the same generated data,
use k = 10 neighbours and m = n references (or m sampled ones: ``--references``,
``--preset sampled``), and every (size, method) pair runs
in a fresh ``spawn`` child process so that peak memory can be measured with
``resource.getrusage`` against the child's own baseline.

Examples::

    python benchmarks/bench_relief.py --preset peers
    python benchmarks/bench_relief.py --preset quick
    python benchmarks/bench_relief.py --preset missing --sizes 5000x50
    python benchmarks/bench_relief.py --preset latency
    python benchmarks/bench_relief.py --preset sampled
    python benchmarks/bench_relief.py --sizes 3000x40 --kind regression \
        --mix mixed --missing 0.1
    python benchmarks/bench_relief.py --preset peers --floor --json results.json

See benchmarks/README.md for the meaning of every column.  This file is
the command line; the work is in :mod:`harness` (data, timing, isolation),
:mod:`peers` (the methods), :mod:`report` (tables) and :mod:`presets`.
"""
import contextlib
import json
import os
import sys
import time

# the modules beside this script, also when it is imported from elsewhere
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arguments import (Parser, fraction, non_negative_int,  # noqa: E402
                       non_negative_number, positive_int, positive_number,
                       sizes)
from floor import UPDATE_THIRDS  # noqa: E402
from harness import (SETTLE_SECONDS, Spec, make_data,  # noqa: E402
                     merge_rounds, run_benchmark)
from peers import ALGORITHMS, ALL_METHODS, DEFAULT_OURS, METHODS  # noqa: E402
from presets import (ALIASES, LATENCY_SIZE, PRESETS, preset_specs,  # noqa: E402
                     run_floor, run_latency)
from report import (environment, floor_report, format_table,  # noqa: E402
                    preset_missing_summary)

__all__ = ["Spec", "make_data", "run_benchmark", "merge_rounds",
           "format_table", "preset_missing_summary", "main"]


def build_parser():
    p = Parser(
        description="Benchmark our ReliefF/RReliefF against Orange, fast-select and "
                    "skrebate on the same data (k nearest, m = n or "
                    "sampled).")
    p.add_argument("--preset", choices=PRESETS,
                   help="peers: 2000x100, 5000x200, 20000x50, 50000x20 binary "
                        "continuous, every peer (issue: its old name); "
                        "quick: tiny smoke run; missing: ours on continuous vs "
                        "mixed vs 10%% missing; latency: first call with warm / "
                        "cold numba cache; sampled: 50000x20 and 100000x20 "
                        "with m = 1000 sampled references (Orange takes the "
                        "same ones; the other peers scan all pairs)")
    p.add_argument("--sizes", type=sizes,
                   help="comma-separated NxA list, e.g. 2000x100,5000x20 "
                        "(overrides the preset's sizes)")
    p.add_argument("--kind", choices=("binary", "multiclass", "regression"),
                   default="binary")
    p.add_argument("--mix", choices=("continuous", "mixed"), default="continuous",
                   help="mixed: every third column nominal with 2-5 values")
    p.add_argument("--missing", type=fraction, default=0.0,
                   help="fraction of X cells set to NaN")
    p.add_argument("--k", type=positive_int, default=10,
                   help="nearest neighbours (default 10)")
    p.add_argument("--algorithm", choices=ALGORITHMS, default="relieff",
                   help="relieff (RReliefF for --kind regression), a member of "
                        "the SURF or SWRF family, murelief (mu-Relief, with "
                        "--k), or Iter around ReliefF or MultiSURF "
                        "(iter-relieff, iter-multisurf: ours with "
                        "scikit-rebate's stopping rule); multisurf+stir: ours "
                        "also sums what STIR tests (the peers run multisurf)")
    p.add_argument("--references", type=positive_int, default=None, metavar="M",
                   help="ReliefF with M references drawn with the seed (ours "
                        "and Orange take the same; fast-select and skrebate "
                        "have no such mode and weigh with all n); default: "
                        "m = n, every instance once")
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--methods", default=None,
                   help=f"comma-separated subset of {','.join(ALL_METHODS)} "
                        "(default: all; ours only for --preset missing)")
    p.add_argument("--repeats", type=positive_int, default=3,
                   help="timed runs after the warm-up call; the median is reported")
    p.add_argument("--rounds", type=positive_int, default=None,
                   help="run every method on every data set this many times, in "
                        "turn, and pool the timed runs (default 3 for --preset "
                        "missing, whose ratios are judged per round, else 1)")
    p.add_argument("--settle", type=non_negative_number, default=SETTLE_SECONDS,
                   metavar="S",
                   help="after ours' first call, untimed calls for at most S "
                        "seconds until it answers on the engine a process "
                        "making many such calls ends on (small data: the "
                        "compiled engine, once prepared, after the calls "
                        "have paid for loading it); 0: time the calls "
                        f"that follow the first (default {SETTLE_SECONDS:g})")
    p.add_argument("--max-peer-memory", type=positive_number, default=8.0, metavar="GB",
                   help="skip a peer whose estimated memory exceeds this (default 8)")
    p.add_argument("--slow-cutoff", type=positive_number, default=60.0, metavar="S",
                   help="a non-JIT peer whose first call takes longer is timed by that "
                        "single call (default 60 s)")
    p.add_argument("--timeout", type=positive_number, default=3600.0, metavar="S",
                   help="kill a method's child process after this long (default 3600)")
    p.add_argument("--floor", action="store_true",
                   help="also run floor.py at 20000x50 and report ours as a "
                        "multiple of it; with a SURF-family --algorithm, at "
                        "each size, against the floor of its phases")
    p.add_argument("--ours-module", default=DEFAULT_OURS,
                   help="module providing relieff/rrelieff (to compare builds)")
    p.add_argument("--no-isolate", action="store_true",
                   help="run everything in this process (peak memory then includes "
                        "whatever earlier methods left behind)")
    p.add_argument("--json", metavar="PATH", help="also write all results as JSON")
    p.add_argument("--verbose", action="store_true", help="print child tracebacks")
    return p


def main(argv=None, log=None):
    args = build_parser().parse_args(argv)
    if log is None:
        def log(*a, **kw):
            print(*a, **kw)
            sys.stdout.flush()
    opts = {"repeats": args.repeats, "slow_cutoff": args.slow_cutoff,
            "settle": args.settle,
            "timeout": args.timeout, "max_peer_memory_gb": args.max_peer_memory,
            "ours_module": args.ours_module, "verbose": args.verbose,
            "algorithm": args.algorithm}
    isolate = not args.no_isolate
    args.preset = ALIASES.get(args.preset, args.preset)
    methods = (args.methods.split(",") if args.methods
               else ["ours"] if args.preset == "missing" else list(ALL_METHODS))
    for m in methods:
        if m not in METHODS:
            raise SystemExit(f"unknown method {m!r}; choose from "
                             f"{', '.join(ALL_METHODS)}")
    if "ours" in methods:  # ours first: the ratios and agreement need it
        methods = ["ours"] + [m for m in methods if m != "ours"]

    log("Environment: " + ", ".join(f"{k} {v}" for k, v in environment(opts).items()))
    out = {"environment": environment(opts), "args": vars(args)}

    if args.preset == "latency":
        n, a = args.sizes[0] if args.sizes else LATENCY_SIZE
        text, runs = run_latency(n, a, opts, args.repeats, log=log)
        log("")
        log(text)
        out["latency"] = runs
        return _save(out, args.json)

    common = {"k": args.k, "seed": args.seed}
    if args.references is not None:
        common["m"] = args.references
    specs = preset_specs(args.preset, args.sizes, args.kind, args.mix, args.missing,
                         common)
    if specs[0].m is not None and args.algorithm != "relieff":
        raise SystemExit("sampled references (--references, --preset "
                         "sampled) are measured for --algorithm relieff only")

    floors = []
    # ReliefF's floor at 20000 x 50, the SURF family's at each size run
    phases = args.algorithm in UPDATE_THIRDS
    if args.floor and not phases:
        fn, fa = 20000, 50
        if "ours" in methods and not any(s.n == fn and s.a == fa
                                         and s.kind != "regression"
                                         for s in specs):
            specs.append(Spec(fn, fa, "binary", "continuous", 0.0, **common))
    rounds = args.rounds or (3 if args.preset == "missing" else 1)
    t0 = time.perf_counter()
    results = merge_rounds([run_benchmark(specs, methods, opts,
                                          isolate=isolate, log=log)
                            for _ in range(rounds)])
    if args.floor:
        for fn, fa in (sorted({(s.n, s.a) for s in specs}) if phases
                       else [(20000, 50)]):
            log(f"  floor.py at {fn}x{fa} ...", end="", flush=True)
            floors.append(run_floor(fn, fa, args.repeats, isolate=isolate))
            log(" done")
    references = ("m = n" if specs[0].m is None
                  else f"m = {specs[0].m} sampled references")
    log(f"\n(total {time.perf_counter() - t0:.0f} s; time = median of "
        f"{rounds} x {args.repeats} runs after a warm-up call (ours: "
        f"and the calls to its steady state, see the engines below), "
        f"{args.algorithm}, k = {args.k}, {references})\n")
    log(format_table(results))
    if args.preset == "missing":
        log(preset_missing_summary(results))
    if floors:
        log(floor_report(floors, results, args.algorithm))
    out["results"] = results
    out["floor"] = floors
    return _save(out, args.json)


def _save(out, path):
    """Write ``out`` as JSON to ``path`` (if given); return it."""
    if path:
        with open(path, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()

"""Wide genotype data: time, peak memory and power of ReliefF, MultiSURF,
TuRF and VLS, ours and the peers' side by side.

The data are GAMETES-like (:class:`orangecontrib.relief.core.generators.
GametesSource`): a purely epistatic pair M0P0, M0P1 (heritability 0.2)
and a main effect M1P0 (0.02), minor allele frequency 0.2, among N SNPs
of frequencies in [0.05, 0.5], balanced cases and controls, seed 0.  For
every N the genotypes are written once as a PLINK .bed (through
bed-reader, a SNP at a time) and every run starts from that file:

* ours reads it with ``orangecontrib.relief.readers.read_wide`` (by
  blocks of SNPs, int8) and weighs every instance as a reference
  (ReliefF k = 10, MultiSURF; TuRF around ReliefF dropping half the SNPs
  a round; VLS around ReliefF, subsets of a third of the SNPs that hold
  every pair together);
* the peers (scikit-rebate, fast-select, where installed) get the same
  genotypes as float64 in memory, as their fit takes them, and run their
  own ReliefF (k = 10), MultiSURF, TuRF and VLS (scikit-rebate's) around
  ReliefF.  They treat SNPs as nominal (at most 10 values), ours as
  numbers: the same neighbours' diffs up to scale, so power can differ
  a little.

Each run is a fresh process (a memory limit of its own, a timeout) that
first weighs 100 x 50 generated SNPs the same way, untimed (fast-select
compiles its kernels on its first call; ours are compiled once per
installation, ``orange-relief prepare``, which the script runs first); its
time, the growth of its resident memory (ours: from the file; the peers:
the fit, their input already in memory) and the ranks of M0P0, M0P1 and
M1P0 among all N (a tie counts against the method) are printed as one
table, with each peer's time over ours for the same method and N.  A peer
that fails or times out at some N is not run at larger N: the table shows
each peer at the widest size it finishes.

Usage (long: run it alone, ``flock /work/bench.lock`` on a shared
machine)::

    python benchmarks/bench_wide.py                 # N = 10^3, 10^4
    python benchmarks/bench_wide.py --large         # and 10^5, 10^6
    python benchmarks/bench_wide.py --snps 1000 --instances 500 --quick
"""
import json
import multiprocessing as mp
import resource
import sys
import tempfile
import time
import traceback
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from arguments import (Parser, add_prepare_option, checked,  # noqa: E402
                       comma_separated, positive_int, positive_number,
                       prepare_unless)
from harness import _PeakMeter  # noqa: E402

#: N of a run, and those of --large
SNPS = (10 ** 3, 10 ** 4)
LARGE = (10 ** 5, 10 ** 6)
#: the methods: our variant and wrapper, the peers' algorithm name
#: (orangecontrib.relief.experiments.peers)
METHODS = {
    "ReliefF": (("ReliefF", None), "relieff"),
    "MultiSURF": (("MultiSURF", None), "multisurf"),
    "TuRF": (("ReliefF", "turf"), "turf-relieff"),
    "VLS": (("ReliefF", "vls"), "vls-relieff"),
}
PEERS = ("skrebate", "fast-select")
#: argparse types: numbers of SNPs (the predictive three and more), names
#: of methods and of peers
snps_list = comma_separated(checked(int, lambda v: v >= 3,
                                    "a whole number >= 3"))
methods_list = comma_separated(checked(
    str, lambda v: v in METHODS, f"one of {', '.join(METHODS)}"))
peers_list = comma_separated(checked(
    str, lambda v: v in PEERS + ("none",), f"one of {', '.join(PEERS)}, none"))
PREDICTIVE = ("M0P0", "M0P1", "M1P0")
GB = 1024 ** 3


def build_parser():
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--large", action="store_true",
                        help="also N = 10^5 and 10^6 SNPs")
    parser.add_argument("--snps", type=snps_list, metavar="N,...",
                        help="the numbers of SNPs instead (at least 3)")
    parser.add_argument("--instances", type=positive_int, default=3000,
                        help="individuals, half of them cases (default "
                             "3000)")
    parser.add_argument("--methods", type=methods_list,
                        default=list(METHODS), metavar="NAME,...",
                        help=f"of {', '.join(METHODS)} (default: all)")
    parser.add_argument("--peers", type=peers_list,
                        default=list(PEERS), metavar="NAME,...",
                        help="of skrebate, fast-select (default: both, "
                             "where installed); 'none' for none")
    parser.add_argument("--timeout", type=positive_number, default=3600,
                        metavar="S", help="seconds a run of ours may take "
                                          "(default 3600)")
    parser.add_argument("--peer-timeout", type=positive_number, default=900,
                        metavar="S", help="seconds a peer's run may take "
                                          "(default 900)")
    parser.add_argument("--memory-limit", type=positive_number, default=20,
                        metavar="GB", help="address space of a run "
                                           "(default 20 GB)")
    parser.add_argument("--workdir", metavar="DIR",
                        help="where the .bed files are written and kept "
                             "(default: a temporary folder)")
    parser.add_argument("--plot", metavar="PNG",
                        help="draw time and power against N")
    parser.add_argument("--json", metavar="FILE",
                        help="write every run's result")
    parser.add_argument("--quick", action="store_true",
                        help="no peers' TuRF and VLS (the slowest)")
    add_prepare_option(parser)
    return parser


# -- the data ----------------------------------------------------------------

def bed_of(folder, n, snps, log):
    """The .bed of the GAMETES-like data of n x snps in `folder`, written
    if it is not there yet."""
    from orangecontrib.relief.core.generators import GametesSource
    from orangecontrib.relief.readers.plink import write_bed

    path = Path(folder) / f"gametes_{n}x{snps}_seed0.bed"
    if not path.exists():
        log(f"writing {path.name} ...", end="", flush=True)
        start = time.perf_counter()
        source = GametesSource(n, snps, seed=0)
        write_bed(path, source, source.y, source.names)
        log(f" {time.perf_counter() - start:.0f} s")
    return path


def ranks(weights, names):
    """The rank of each of :data:`PREDICTIVE` by `weights`, best first;
    a SNP ranks below every SNP weighted as high (NaN lowest)."""
    weights = np.nan_to_num(np.asarray(weights, float), nan=-np.inf)
    return [int((weights >= weights[names.index(snp)]).sum())
            for snp in PREDICTIVE]


# -- one run in a fresh process ----------------------------------------------

#: the slice of the data a run weighs first, untimed: a peer compiles its
#: kernels on its first call, and ours loads its compiled engine from the
#: cache (about a second in a fresh process), so neither is timed
WARM_UP = (100, 50)


def warm_up(method, peer):
    """Weigh generated data of :data:`WARM_UP` as the run will, untimed;
    ours on the compiled engine where it is prepared (data this small
    would take the vectorised one and leave the loading to the timed
    run)."""
    from orangecontrib.relief.core import engines
    from orangecontrib.relief.core.generators import gametes
    from orangecontrib.relief.experiments.peers import peer_weights
    from orangecontrib.relief.readers import WideData
    from orangecontrib.relief.readers.sources import GenotypeArray

    problem = gametes(*WARM_UP, seed=1)
    if peer == "ours":
        (variant, wrapper), _ = METHODS[method]
        with engines.preferring_compiled():
            WideData(GenotypeArray(problem.X), problem.y, problem.names,
                     "class", "classification").weights(variant,
                                                        wrapper=wrapper)
    else:
        peer_weights(peer, METHODS[method][1], problem.X.astype(float),
                     problem.y, k=10)


def run_ours(bed, method):
    from orangecontrib.relief.readers import read_wide

    (variant, wrapper), _ = METHODS[method]
    with _PeakMeter() as meter:
        start = time.perf_counter()
        data = read_wide(bed)
        weights = data.weights(variant, wrapper=wrapper)
        seconds = time.perf_counter() - start
    return seconds, meter.peak, weights, data.names


def run_peer(bed, method, peer):
    import bed_reader

    from orangecontrib.relief.experiments.peers import peer_weights

    with bed_reader.open_bed(bed) as file:
        X = file.read(dtype="float64")
        y = np.array([float(p) - 1 for p in file.pheno])
        names = [str(s) for s in file.sid]
    with _PeakMeter() as meter:
        start = time.perf_counter()
        weights = peer_weights(peer, METHODS[method][1], X, y, k=10)
        seconds = time.perf_counter() - start
    return seconds, meter.peak, weights, names


def child(connection, bed, method, peer, memory_limit):
    try:
        limit = int(memory_limit * GB)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        warm_up(method, peer)
        seconds, peak, weights, names = (
            run_ours(bed, method) if peer == "ours"
            else run_peer(bed, method, peer))
        result = {"status": "ok", "time": seconds, "peak_mb": peak / 2 ** 20,
                  "ranks": ranks(weights, names)}
    except MemoryError:
        result = {"status": "failed", "error": "out of memory"}
    except BaseException as error:  # reported in the table
        result = {"status": "failed",
                  "error": f"{type(error).__name__}: {error}"[:120],
                  "traceback": traceback.format_exc()}
    connection.send(result)
    connection.close()


def isolated(bed, method, peer, timeout, memory_limit):
    """The result of one run in a fresh process, killed after
    `timeout` seconds."""
    context = mp.get_context("spawn")
    receiving, sending = context.Pipe(duplex=False)
    process = context.Process(target=child, args=(sending, str(bed), method,
                                                  peer, memory_limit))
    process.start()
    sending.close()
    timed_out = not receiving.poll(timeout)
    result = None
    if not timed_out:
        try:
            result = receiving.recv()
        except EOFError:  # the process died without a word
            pass
    process.join(5)
    if process.is_alive():
        process.kill()
        process.join()
    if timed_out:
        return {"status": "timeout", "error": f"over {timeout:.0f} s"}
    if result is None:
        return {"status": "failed",
                "error": f"died (exit code {process.exitcode}; out of "
                         f"memory?)"}
    return result


# -- the table and the figure ------------------------------------------------

def available_peers(names):
    from orangecontrib.relief.experiments.peers import available

    return [peer for peer in names if peer != "none" and available(peer)]


def runs_of(methods, peers, quick):
    """(method, implementation) of every run at one N, ours first."""
    from orangecontrib.relief.experiments.peers import supports

    for method in methods:
        yield method, "ours"
        for peer in peers:
            if quick and method in ("TuRF", "VLS"):
                continue
            if supports(peer, METHODS[method][1], "classification", False):
                yield method, peer


def table(results):
    """The markdown lines of `results` (dicts with snps, method,
    implementation and the run's result)."""
    ours = {(r["snps"], r["method"]): r["time"] for r in results
            if r["implementation"] == "ours" and r["status"] == "ok"}
    lines = ["| SNPs | method | implementation | time | peak memory | "
             "time / ours | rank M0P0 | rank M0P1 | rank M1P0 |",
             "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        head = f"| {r['snps']:,} | {r['method']} | {r['implementation']} |"
        if r["status"] != "ok":
            lines.append(f"{head} {r['status']}: {r['error']} | | | | | |")
            continue
        base = ours.get((r["snps"], r["method"]))
        ratio = ("" if r["implementation"] == "ours" or not base
                 else f"{r['time'] / base:.2f}")
        memory = (f"{r['peak_mb'] / 1024:.2f} GB" if r["peak_mb"] >= 1024
                  else f"{r['peak_mb']:.0f} MB")
        lines.append(f"{head} {r['time']:.2f} s | {memory} | {ratio} | "
                     + " | ".join(str(rank) for rank in r["ranks"]) + " |")
    return lines


def plot(results, path):
    """Time and the pair's worst rank against N, a line per method and
    implementation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (times, power) = plt.subplots(1, 2, figsize=(10, 4))
    keys = sorted({(r["method"], r["implementation"]) for r in results},
                  key=lambda key: (key[1] != "ours", key))
    for method, implementation in keys:
        done = [r for r in results if r["status"] == "ok"
                and (r["method"], r["implementation"]) == (method,
                                                            implementation)]
        if not done:
            continue
        snps = [r["snps"] for r in done]
        style = "-o" if implementation == "ours" else "--s"
        label = f"{method} ({implementation})"
        times.plot(snps, [r["time"] for r in done], style, label=label)
        power.plot(snps, [max(r["ranks"][:2]) for r in done], style,
                   label=label)
    for axes, title in ((times, "time (s)"),
                        (power, "worse rank of the epistatic pair")):
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("SNPs")
        axes.set_title(title)
        axes.grid(True, which="both", alpha=0.3)
    power.legend(fontsize=7, loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main(argv=None):
    args = build_parser().parse_args(argv)
    snps = args.snps or list(SNPS) + (list(LARGE) if args.large else [])
    prepare_unless(args)
    peers = available_peers(args.peers)
    folder = args.workdir or tempfile.mkdtemp(prefix="bench_wide_")
    Path(folder).mkdir(parents=True, exist_ok=True)
    print(f"{args.instances} individuals; N = "
          f"{', '.join(f'{n:,}' for n in snps)}; peers: "
          f"{', '.join(peers) or 'none'}; files in {folder}")
    results, given_up = [], set()
    for n_snps in snps:
        bed = bed_of(folder, args.instances, n_snps, print)
        for method, implementation in runs_of(args.methods, peers,
                                              args.quick):
            record = {"snps": n_snps, "method": method,
                      "implementation": implementation}
            if (method, implementation) in given_up:
                results.append({**record, "status": "skipped",
                                "error": "did not finish at a smaller N"})
                continue
            print(f"  {n_snps:>9,} {method:9s} {implementation:11s} ...",
                  end="", flush=True)
            timeout = (args.timeout if implementation == "ours"
                       else args.peer_timeout)
            result = isolated(bed, method, implementation, timeout,
                              args.memory_limit)
            results.append({**record, **result})
            if result["status"] == "ok":
                print(f" {result['time']:.2f} s, "
                      f"{result['peak_mb']:.0f} MB, ranks {result['ranks']}")
            else:
                print(f" {result['status']}: {result['error']}")
                if implementation != "ours":
                    given_up.add((method, implementation))
    print()
    print("\n".join(table(results)))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    if args.plot:
        plot(results, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())

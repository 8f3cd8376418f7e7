"""Wide data kept narrow: the goals of narrow, sparse and streamed columns,
each case in a fresh process, with its time, its peak memory and what it
must equal.

Usage: ``python benchmarks/bench_narrow.py [CASE ...] [--scale S]``

Cases (all by default but ``snp``, which takes minutes):

* ``int8`` -- 2,000 x 50,000 genotypes (int8) in memory, ReliefF, k = 10,
  every instance a reference; beside it the same on float64 tables of the
  whole (the path of float64 data), and their ratio;
* ``identity`` -- 3,000 x 20,000 genotypes: ReliefF of the int8 array
  against the float64 tables' weights, to the bit;
* ``sparse`` -- 10,000 x 20,000 counts at 5 % non-zero (float32 CSR),
  ReliefF with 1,000 references; the largest difference from the dense
  float64 weights, and the memory against the non-zero entries' bytes;
* ``expression`` -- 200 x 20,000 float32, every registered variant: the
  slowest's time;
* ``snp`` -- 3,000 x 1,000,000 genotypes from a column-block source that
  makes its columns as they are read (``wide_data.GenotypeSource``):
  ReliefF, MultiSURF and TuRF around ReliefF, every instance a reference.

``--scale`` multiplies every case's number of attributes (0.1 for a quick
run).  The compiled engine is prepared first (``orange-relief prepare``;
``--no-prepare``: the cases take whichever engine is ready, as a first
call does).  Peak memory is the process's peak resident size less its size
before the data were made (the data included).  The machine's load at
the start is printed; run it alone on the machine.
"""
import multiprocessing as mp
import os
import time

import numpy as np

from arguments import (Parser, add_prepare_option, positive_number,
                       prepare_unless)
from children import exit_with_parent

CASES = ("int8", "identity", "sparse", "expression", "snp")
DEFAULT = CASES[:-1]
MB = 2 ** 20


def resident(field="VmRSS"):
    """This process's resident size (VmRSS) or its peak (VmHWM), bytes."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def reset_peak():
    """Start the peak resident size (VmHWM) again from the current size."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        pass


def warm_up():
    """Load (or compile) the kernels a case uses, on tiny data: on the
    engine that the case's large data take (small data would otherwise
    take the vectorised engine, and the case's own call would load the
    compiled one, a hundred megabytes of code counted as its memory)."""
    from orangecontrib.relief.core import engines, relieff
    from orangecontrib.relief.core.variants.surf import multisurf
    from wide_data import genotypes, sparse_counts

    X, y = genotypes(60, 300)
    with engines.preferring_compiled():
        relieff(X, y)
        multisurf(X, y)
        relieff(X.astype(np.float32), y)
        relieff(*sparse_counts(60, 300, 0.05))


def measured(make, run):
    """(result, seconds, peak bytes) of ``run(*make())``: the peak over
    the run, counted from before `make`, so that it holds the input and
    whatever the run adds, but not what making the input needed for a
    while (a generator's temporaries)."""
    warm_up()
    base = resident()
    data = make()
    reset_peak()
    start = time.perf_counter()
    result = run(*data)
    seconds = time.perf_counter() - start
    return result, seconds, resident("VmHWM") - base


def float64_relieff(X, y, n_iterations=None):
    """ReliefF on float64 tables of the whole data (as float64 data of
    fewer columns are prepared)."""
    from orangecontrib.relief.core.variants.estimators import (
        neighbours_of, prepared)
    data, refs, kernels = prepared(X, y, None, n_iterations, 0,
                                   task="classification", diff="linear",
                                   t_eq=0.04, t_diff=0.1)
    neighbours = neighbours_of(kernels, data, refs, 10, None, None)
    return kernels.relieff_rule(data.exact, refs, neighbours, data.priors)


def case_int8(scale):
    from orangecontrib.relief.core import relieff
    from wide_data import genotypes

    n, a = 2000, int(50_000 * scale)
    weights, seconds, peak = measured(lambda: genotypes(n, a),
                                      lambda X, y: relieff(X, y))
    dense, dense_seconds, dense_peak = measured(
        lambda: genotypes(n, a), lambda X, y: float64_relieff(X, y))
    size = n * a
    return [f"{n:,} x {a:,} int8 genotypes, ReliefF k = 10, m = n",
            f"{seconds:.1f} s, peak {peak / MB:,.0f} MB "
            f"(input {size / MB:,.0f} MB); float64 tables: "
            f"{dense_seconds:.1f} s, peak {dense_peak / MB:,.0f} MB; "
            f"{dense_seconds / seconds:.1f}x the time, weights "
            f"{'equal' if np.array_equal(weights, dense) else 'DIFFER'}",
            "<= 5 s, peak <= 3x the input + 300 MB",
            seconds <= 5 and peak <= 3 * size + 300 * MB]


def case_identity(scale):
    from orangecontrib.relief.core import relieff
    from wide_data import genotypes

    n, a = 3000, int(20_000 * scale)
    X, y = genotypes(n, a)
    start = time.perf_counter()
    compact = relieff(X, y)
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    dense = float64_relieff(X, y)
    dense_seconds = time.perf_counter() - start
    equal = np.array_equal(compact, dense)
    return [f"{n:,} x {a:,} int8 genotypes, ReliefF, m = n",
            f"int8 {seconds:.1f} s, float64 tables {dense_seconds:.1f} s; "
            f"{'equal to the bit' if equal else 'NOT EQUAL'}",
            "equal to the bit", equal]


def case_sparse(scale):
    from orangecontrib.relief.core import relieff
    from wide_data import sparse_counts

    n, a, m = 10_000, int(20_000 * scale), 1000
    weights, seconds, peak = measured(
        lambda: sparse_counts(n, a, 0.05),
        lambda X, y: relieff(X, y, n_iterations=m))
    X, y = sparse_counts(n, a, 0.05)
    stored = X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
    dense = float64_relieff(X.toarray().astype(np.float64), y, m)
    error = np.abs(weights - dense).max()
    return [f"{n:,} x {a:,} counts, 5 % non-zero (CSR float32, "
            f"{stored / MB:,.0f} MB), ReliefF m = {m}",
            f"{seconds:.1f} s, peak {peak / MB:,.0f} MB "
            f"({peak / stored:.1f}x the stored entries), largest "
            f"difference from dense {error:.1e}",
            "<= 60 s, <= 3x the stored bytes, dense to 1e-12",
            seconds <= 60 and peak <= 3 * stored and error <= 1e-12]


def case_expression(scale):
    from orangecontrib.relief.core.registry import VARIANTS
    from wide_data import expression

    n, a = 200, int(20_000 * scale)
    X, y = expression(n, a)
    times = {}
    for variant in VARIANTS:
        task = variant.tasks[0]
        target = y if task == "classification" else X[:, 0] + y
        start = time.perf_counter()
        variant.weights(X, target, task=task)
        times[variant.name] = time.perf_counter() - start
    slowest = max(times, key=times.get)
    return [f"{n} x {a:,} float32 expression, every variant",
            f"slowest {slowest} {times[slowest]:.1f} s; "
            + ", ".join(f"{name} {t:.1f}" for name, t in times.items()),
            "< 5 s each", times[slowest] < 5]


def case_snp(scale):
    from orangecontrib.relief.core import relieff
    from orangecontrib.relief.core.variants.surf import multisurf
    from orangecontrib.relief.core.variants.turf import turf_relieff
    from wide_data import GenotypeSource, genotype_class

    n, a = 3000, int(1_000_000 * scale)
    rows = []
    for name, run, goal in (("ReliefF", relieff, 300),
                            ("MultiSURF", multisurf, 900),
                            ("TuRF around ReliefF", turf_relieff, 1800)):
        weights, seconds, peak = measured(
            lambda: (GenotypeSource(n, a), genotype_class(n)), run)
        best = sorted(np.argsort(-weights)[:2].tolist())
        rows.append(f"{name} {seconds / 60:.1f} min, peak "
                    f"{peak / 2 ** 30:.2f} GiB, best {best}")
        ok = seconds <= goal and peak <= 6 * 2 ** 30
        rows.append(ok)
    return [f"{n:,} x {a:,} SNPs from a column-block source, m = n",
            "; ".join(rows[0::2]),
            "ReliefF <= 5 min, MultiSURF <= 15 min, TuRF <= 30 min, "
            "peak <= 6 GB", all(rows[1::2])]


def run_case(name, scale, queue):
    exit_with_parent()
    queue.put(globals()[f"case_{name}"](scale))


def in_child(name, scale):
    """A case's row, computed in a fresh process."""
    context = mp.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=run_case, args=(name, scale, queue))
    child.start()
    row = queue.get()
    child.join()
    return row


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", metavar="CASE",
                        help=f"of {', '.join(CASES)} (default: all but snp)")
    parser.add_argument("--scale", type=positive_number, default=1.0)
    add_prepare_option(parser)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    unknown = sorted(set(args.cases) - set(CASES))
    if unknown:
        parser.error(f"unknown case(s) {', '.join(unknown)}; "
                     f"expected {', '.join(CASES)}")
    prepare_unless(args)
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    print("| case | measured | goal | met |")
    print("| --- | --- | --- | --- |")
    for name in args.cases or DEFAULT:
        data, measured_, goal, met = in_child(name, args.scale)
        print(f"| {data} | {measured_} | {goal} | "
              f"{'yes' if met else '**no**'} |", flush=True)


if __name__ == "__main__":
    main()

"""NPDR beside the authors' R package: the time of each on the same data,
in one run.

Usage: ``python benchmarks/bench_npdr.py [--r-sources DIR] [--data NAME ...]``

The data: ``gametes``, the shipped GAMETES file (1600 x 20 SNPs, 2-way
epistasis), and ``2000x1000``, 2000 x 1000 normal values rounded to four
decimals whose class is 1[X1 X2 > 0], a tenth of the labels flipped
(numpy's draw of the design the R comparison used; ``--data-2000 FILE``
takes a saved table instead).  Both methods fit the logistic NPDR of every
attribute over MultiSURF's pairs: R's ``npdr()`` with its defaults
(``benchmarks/npdr_r.R``, run by ``Rscript`` in a process of its own; its
time is ``system.time`` of the call), ours with the R package's
conventions (``deviation="sample", twins="exclude", scale="none"``: the same
pairs), its time that of the call after a first one has loaded the
compiled kernels.  R runs when ``Rscript`` and the package's sources are
there (``--r-sources``, or ``NPDR_R_SOURCES``; see npdr_r.R); the table
then gives the ratio and the largest difference of the z statistics.
``--r-seconds 2000x1000=S`` takes R's time on a data set from an earlier
run of npdr_r.R on the same data and machine instead of running R again
(R's 2000 x 1000 run takes over 20 minutes and 18 GB of memory): the
table then says "earlier run" and has no z difference for it.
Run it under ``flock /work/bench.lock`` on a shared machine.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from arguments import Parser

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMETES = ROOT / "tests" / "data" / \
    "gametes_2way_a20_s1600_her0.4_maf0.2_EDM-1_01.txt.gz"
DATA = ("gametes", "2000x1000")
#: the R package's conventions (doc/npdr.md): the pairs of its npdr()
R_CONVENTIONS = dict(deviation="sample", twins="exclude", scale="none")


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--r-sources", default=os.environ.get(
        "NPDR_R_SOURCES"), metavar="DIR",
        help="the folder of the R package's utils.R, nearestNeighbors.R "
             "and npdr.R (default: $NPDR_R_SOURCES; without it, ours only)")
    parser.add_argument("--data", nargs="+", choices=DATA,
                        default=list(DATA), help="the data sets")
    parser.add_argument("--data-2000", type=Path, metavar="FILE",
                        help="a saved 2000 x 1000 table (tab-separated, "
                             "X1..X1000, Class) instead of a new draw")
    parser.add_argument("--r-seconds", action="append", default=[],
                        metavar="DATA=SECONDS",
                        help="R's time on DATA measured by an earlier run "
                             "of npdr_r.R (same data, same machine), used "
                             "instead of running R on it")
    parser.add_argument("--seed", type=int, default=20240601,
                        help="seed of the 2000 x 1000 draw")
    return parser


def random_table(seed):
    """2000 x 1000 N(0, 1) rounded to 4 decimals, class 1[X1 X2 > 0] with a
    tenth flipped: (names, X, y)."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.standard_normal((2000, 1000)), 4)
    y = (X[:, 0] * X[:, 1] > 0).astype(float)
    flip = rng.random(2000) < 0.1
    y[flip] = 1 - y[flip]
    return [f"X{a + 1}" for a in range(1000)], X, y


def read_table(path):
    """(names, X, y) of a tab-separated table with a header and Class."""
    from orangecontrib.relief.experiments.rebate import read_table as read
    return read(str(path))


def write_table(path, names, X, y):
    """Save a table as R reads it (Class last)."""
    np.savetxt(path, np.column_stack([X, y]), delimiter="\t",
               header="\t".join(names + ["Class"]), comments="", fmt="%.10g")


def ours(X, y):
    """(seconds, z) of our NPDR with the R package's conventions, the
    kernels loaded by a first call on every eighth row (a file may be sorted
    by class)."""
    from orangecontrib.relief.core.variants.npdr import npdr
    npdr(X[::8, :5], y[::8], **R_CONVENTIONS)  # rows of both classes
    start = time.perf_counter()
    result = npdr(X, y, **R_CONVENTIONS)
    return time.perf_counter() - start, result.statistic, result.n_pairs


def r_package(sources, table, directory):
    """(seconds, z) of the R package's npdr() on the table file, or None
    without R."""
    rscript = shutil.which("Rscript")
    if rscript is None or sources is None:
        return None
    out = Path(directory) / "r.csv"
    run = subprocess.run([rscript, str(ROOT / "benchmarks" / "npdr_r.R"),
                          "time", sources, str(table), str(out)],
                         capture_output=True, text=True, check=True)
    seconds = float(next(line.split()[1] for line in run.stdout.splitlines()
                         if line.startswith("elapsed")))
    z = np.genfromtxt(out, delimiter=",", skip_header=1, usecols=2)
    return seconds, z


def measured_times(pairs):
    """{data: seconds} of the ``DATA=SECONDS`` arguments."""
    times = {}
    for pair in pairs:
        name, _, seconds = pair.partition("=")
        if name not in DATA:
            raise SystemExit(f"--r-seconds: unknown data {name!r}; one of "
                             f"{', '.join(DATA)}")
        times[name] = float(seconds)
    return times


def main(argv=None):
    args = build_parser().parse_args(argv)
    measured = measured_times(args.r_seconds)
    rows = []
    with tempfile.TemporaryDirectory(prefix="npdr-") as directory:
        for name in args.data:
            if name == "gametes":
                table = GAMETES
                names, X, y = read_table(table)
            elif args.data_2000 is not None:
                table = args.data_2000
                names, X, y = read_table(table)
            else:
                names, X, y = random_table(args.seed)
                table = Path(directory) / "data_2000x1000.tsv"
                write_table(table, names, X, y)
                names, X, y = read_table(table)  # the values R reads
            seconds, z, n_pairs = ours(X, y)
            size = f"{X.shape[0]} x {X.shape[1]}"
            if name in measured:
                rows.append([size, f"{n_pairs:,}", f"{seconds:.2f}",
                             f"{measured[name]:.1f} (earlier run)",
                             f"{measured[name] / seconds:.0f}", "-"])
                print(f"{name}: ours {seconds:.2f} s", file=sys.stderr,
                      flush=True)
                continue
            r = r_package(args.r_sources, table, directory)
            if r is None:
                rows.append([size, f"{n_pairs:,}", f"{seconds:.2f}", "-",
                             "-", "-"])
            else:
                rows.append([size, f"{n_pairs:,}", f"{seconds:.2f}",
                             f"{r[0]:.1f}", f"{r[0] / seconds:.0f}",
                             f"{np.max(np.abs(z - r[1])):.1e}"])
            print(f"{name}: ours {seconds:.2f} s"
                  + ("" if r is None else f", R {r[0]:.1f} s"),
                  file=sys.stderr, flush=True)
    header = ["data", "pairs", "ours (s)", "R npdr (s)", "R / ours",
              "max |z - z_R|"]
    print("| " + " | ".join(header) + " |")
    print("| --- | " + " | ".join(["---:"] * (len(header) - 1)) + " |")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()

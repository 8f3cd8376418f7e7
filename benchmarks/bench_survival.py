"""Survival NPDR beside the authors' R code: the time of each on the same
data, in one run.

Usage: ``python benchmarks/bench_survival.py [--npdr-sources DIR]
[--snpdr-sources DIR] [--size 500x1000] [--diffs signed absolute]``

The data: the authors' main-effect design (``survival_data.py``) at
``--size`` (default 500 instances x 1000 attributes, beta 0.13), written
to a CSV that R reads.  Both run survival NPDR with Kaplan-Meier
imputation over MultiSURF's pairs, the pairs of unknown order left out,
linear fits, for each of ``--diffs``: R's ``npdr_surv()``
(``benchmarks/snpdr_r.R``, run by ``Rscript`` in a process of its own;
its time is ``system.time`` of the call), ours with the authors'
conventions (the same pairs), its time that of the call after a first
one on a few rows.  R runs when ``Rscript`` and both sources are there
(``--npdr-sources``: the ``R/`` folder of insilico/npdr, or
``NPDR_R_SOURCES``; ``--snpdr-sources``: the ``sNPDR/R/`` folder of
pak611/survivalNPDR, or ``SNPDR_R_SOURCES``); the table then gives the
ratio and the largest relative difference of beta and of p.  Run it
under ``flock /work/bench.lock`` on a shared machine.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from arguments import Parser, size
from survival_data import main_effects, print_markdown, say

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: the authors' npdr_surv() settings and conventions (doc/survival.md)
SETTINGS = dict(impute=True, filter_pairs=True, regression="linear",
                deviation="sample", twins="exclude", scale="none",
                adjustment="bonferroni")


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--npdr-sources", default=os.environ.get(
        "NPDR_R_SOURCES"), metavar="DIR",
        help="the R/ folder of insilico/npdr (default: $NPDR_R_SOURCES)")
    parser.add_argument("--snpdr-sources", default=os.environ.get(
        "SNPDR_R_SOURCES"), metavar="DIR",
        help="the sNPDR/R/ folder of pak611/survivalNPDR (default: "
             "$SNPDR_R_SOURCES; without both, ours only)")
    parser.add_argument("--size", type=size, default=(500, 1000),
                        metavar="NxA", help="instances x attributes "
                                            "(default: 500x1000)")
    parser.add_argument("--diffs", nargs="+", choices=("signed", "absolute"),
                        default=["signed", "absolute"],
                        help="the diffs to time (default: both)")
    parser.add_argument("--seed", type=int, default=2467,
                        help="seed of the data")
    return parser


def write_table(path, X, time_, event):
    """The table as R reads it: simvar1.., time, status."""
    names = [f"simvar{a + 1}" for a in range(X.shape[1])]
    np.savetxt(path, np.column_stack([X, time_, event]), delimiter=",",
               header=",".join(names + ["time", "status"]), comments="",
               fmt="%.17g")


def ours(X, time_, event, diffs):
    """(seconds, beta, p) of our survival NPDR, after a first call on a
    few rows."""
    from orangecontrib.relief.core.variants.survival_npdr import survival_npdr
    survival_npdr(X[::10, :20], time_[::10], event[::10], diffs=diffs,
                  **SETTINGS)
    start = time.perf_counter()
    result = survival_npdr(X, time_, event, diffs=diffs, **SETTINGS)
    return (time.perf_counter() - start, result.coefficient, result.p,
            result.n_pairs)


def authors(args, table, diffs, directory):
    """(seconds, beta, p) of the authors' npdr_surv() on the table file,
    in attribute order, or None without R or its sources."""
    rscript = shutil.which("Rscript")
    if rscript is None or not (args.npdr_sources and args.snpdr_sources):
        return None
    out = Path(directory) / f"r_{diffs}.csv"
    run = subprocess.run([rscript, str(ROOT / "benchmarks" / "snpdr_r.R"),
                          "time", args.npdr_sources, args.snpdr_sources,
                          str(table), diffs, "TRUE", str(out)],
                         capture_output=True, text=True, check=True)
    seconds = float(next(line.split()[1] for line in run.stdout.splitlines()
                         if line.startswith("elapsed")))
    rows = np.genfromtxt(out, delimiter=",", skip_header=1, dtype=None,
                         encoding="utf-8")
    order = np.argsort([int(row[0][len("simvar"):]) for row in rows])
    beta = np.array([row[1] for row in rows])[order]
    p = np.array([row[3] for row in rows])[order]
    return seconds, beta, p


def largest_difference(ours_values, r_values):
    """The largest relative difference, where R's value is not 0."""
    scale = np.maximum(np.abs(r_values), 1e-300)
    return float(np.max(np.abs(ours_values - r_values) / scale))


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    n, p = args.size
    if p < 10:
        parser.error(f"--size: the design has 10 functional attributes; "
                     f"give at least 10, not {p}")
    X, time_, event, _ = main_effects(n, p, 0.13, args.seed)
    rows = []
    with tempfile.TemporaryDirectory(prefix="survival-") as directory:
        table = Path(directory) / "survival.csv"
        write_table(table, X, time_, event)
        for diffs in args.diffs:
            seconds, beta, p_values, n_pairs = ours(X, time_, event, diffs)
            r = authors(args, table, diffs, directory)
            row = [f"{n} x {p}", diffs, f"{n_pairs:,}", f"{seconds:.2f}"]
            if r is None:
                rows.append(row + ["-", "-", "-", "-"])
            else:
                rows.append(row + [
                    f"{r[0]:.1f}", f"{r[0] / seconds:.0f}",
                    f"{largest_difference(beta, r[1]):.1e}",
                    f"{largest_difference(p_values, r[2]):.1e}"])
            say(f"{diffs}: ours {seconds:.2f} s"
                + ("" if r is None else f", R {r[0]:.1f} s"))
    header = ["data", "diffs", "pairs", "ours (s)", "R npdr_surv (s)",
              "R / ours", "beta rel. diff", "p rel. diff"]
    print_markdown(header, rows)


if __name__ == "__main__":
    main()

"""What sharing tied places costs: ReliefF of this build against an
earlier build of the core, on SNP data (distances tied almost always)
and on continuous data (ties rare), on both engines, alternating in one
process.

Usage::

    git archive c3208ed orangecontrib/relief/core | tar -x -C /tmp/old
    python benchmarks/bench_ties.py --baseline /tmp/old [--repeats 3]
        [--gametes FILE] [--sizes 2000x100,5000x20]

``--baseline`` is a directory holding ``orangecontrib/relief/core`` of
another commit (without it, only this build is timed).  Every instance
is a reference, k = 10.  The SNP data are a GAMETES file (default: the
1600 x 20 file of ``tests/data``) read with its genotypes as nominal
attributes; the continuous data are uniform, with a binary class.  Each
repeat times this build, then the baseline, on each engine; a line gives
the medians and the median of the repeats' ratios (this build's time
over the baseline's: above 1, this build is slower).  Both builds'
kernels are compiled (or loaded) before the timing.
"""
import gzip
import importlib
import time
from pathlib import Path

import numpy as np

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.variants import estimators

from arguments import Parser, positive_int, sizes
from baseline import PACKAGE, load_core

#: the 1600 x 20 GAMETES file shipped with the tests
GAMETES = (Path(__file__).parent.parent / "tests" / "data"
           / "gametes_2way_a20_s1600_her0.4_maf0.2_EDM-1_01.txt.gz")


def load_baseline(directory):
    """The estimators and engines of the core copied under `directory`
    (:func:`baseline.load_core`)."""
    load_core(directory)
    return (importlib.import_module(f"{PACKAGE}.estimators"),
            importlib.import_module(f"{PACKAGE}.engines"))


def read_gametes(path):
    """(X, y, discrete) of a GAMETES file: tab-separated genotypes 0/1/2
    under a header, the class last."""
    with gzip.open(path, "rt") as file:
        rows = np.loadtxt(file, delimiter="\t", skiprows=1)
    return rows[:, :-1], rows[:, -1], np.ones(rows.shape[1] - 1, bool)


def continuous(n, a, seed=0):
    rng = np.random.default_rng(seed)
    return rng.random((n, a)), (rng.random(n) < 0.5).astype(float), None


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--gametes", default=str(GAMETES))
    parser.add_argument("--sizes", type=sizes, default="2000x100,5000x20")
    parser.add_argument("--repeats", type=positive_int, default=3)
    parser.add_argument("--baseline", help="directory with an earlier "
                                           "orangecontrib/relief/core")
    return parser


def timed(build, data, engine):
    estimator, chooser = build
    X, y, discrete = data
    with chooser.forced(engine):
        start = time.perf_counter()
        estimator.relieff(X, y, discrete, k_nearest=10)
        return time.perf_counter() - start


def main(argv=None):
    args = build_parser().parse_args(argv)
    sets = {"GAMETES " + Path(args.gametes).name.removesuffix(".txt.gz"):
            read_gametes(args.gametes)}
    for n, a in args.sizes:
        sets[f"continuous {n} x {a}"] = continuous(n, a)
    builds = {"this build": (estimators, engines)}
    if args.baseline:
        builds["baseline"] = load_baseline(args.baseline)
    for build in builds.values():  # compile or load the kernels
        for engine in engines.ENGINES:
            timed(build, continuous(300, 5), engine)
            timed(build, read_gametes(args.gametes), engine)
    print("ReliefF, k = 10, every instance a reference")
    for name, data in sets.items():
        for engine in engines.ENGINES:
            times = {build: [] for build in builds}
            for _ in range(args.repeats):
                for build_name, build in builds.items():
                    times[build_name].append(timed(build, data, engine))
            line = (f"{name}, {engine}: this build "
                    f"{np.median(times['this build']):.3f} s")
            if args.baseline:
                ratios = (np.array(times["this build"])
                          / np.array(times["baseline"]))
                line += (f", baseline {np.median(times['baseline']):.3f} s, "
                         f"ratio {np.median(ratios):.2f} "
                         f"({ratios.min():.2f}-{ratios.max():.2f})")
            print(line, flush=True)


if __name__ == "__main__":
    main()

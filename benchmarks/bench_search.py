"""The search of sampled references alone, against an earlier build of
the core, alternating in one process.

Usage::

    git archive 76b61a6 orangecontrib/relief/core | tar -x -C /tmp/old
    python benchmarks/bench_search.py --baseline /tmp/old \\
        [--size 1000000x20] [--m 1000,10000] [--repeats 3]

``--baseline`` is a directory holding ``orangecontrib/relief/core`` of
another commit (without it, only this build is timed).  Both builds
search the same prepared data (binary class, uniform continuous
features, k = 10 plus the re-ranking's candidates) for the same m
references; each repeat times this build, then the baseline, and the
speed-up is the median of the pairs' ratios.  Both builds' float32 lists
are then ranked exactly (this build's ``search.ranked_lists``, with
the larger of the two builds' float32 error bounds): the k nearest must be identical
(printed).  The float32 lists themselves may differ where the builds
round the distances differently.
"""
import importlib
import time

import numpy as np

from orangecontrib.relief.core.engines.compiled.neighbours import search
from orangecontrib.relief.core.engines.compiled.neighbours.exact_ranking \
    import float32_error_bound
from orangecontrib.relief.core.prepare import prepare

from arguments import Parser, positive_int, positive_ints, size
from baseline import PACKAGE, load_core


def load_baseline(directory):
    """The search module of the core copied under `directory`
    (:func:`baseline.load_core`): engines/compiled/neighbours/search.py,
    or neighbours/drivers.py in a core of before the engines were
    siblings."""
    core = load_core(directory)
    if (core / "engines").is_dir():
        return importlib.import_module(
            f"{PACKAGE}.engines.compiled.neighbours.search")
    return importlib.import_module(f"{PACKAGE}.neighbours.drivers")


def error_bound(build):
    """The float32 error bound of a build's search module: its own where
    it holds one (the cores of before the bound moved to
    ``exact_ranking``), else this build's."""
    return getattr(build, "float32_error_bound", float32_error_bound)


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=size, default="1000000x20")
    parser.add_argument("--m", type=positive_ints, default="1000,10000")
    parser.add_argument("--repeats", type=positive_int, default=3)
    parser.add_argument("--baseline", help="directory with an earlier "
                                           "orangecontrib/relief/core")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    n, a = args.size
    rng = np.random.default_rng(0)
    X = rng.random((n, a))
    y = (rng.random(n) < 0.5).astype(float)
    data = prepare(X, y)
    builds = [("this build", search)]
    if args.baseline:
        builds.append(("baseline", load_baseline(args.baseline)))
    k, weights = search.list_width(10), np.ones(a, np.float32)
    for _, build in builds:  # compile or load the kernels
        build._references(data.search, weights, np.arange(64), k,
                          data.n_groups, None)
    print(f"{n} x {a}, k = 10, search of sampled references alone")
    for m in args.m:
        refs = np.sort(rng.choice(n, m, replace=False))
        times = {name: [] for name, _ in builds}
        lists = {}
        for _ in range(args.repeats):
            for name, build in builds:
                start = time.perf_counter()
                lists[name] = build._references(data.search, weights, refs, k,
                                                data.n_groups, None)
                times[name].append(time.perf_counter() - start)
        line = f"m = {m}: this build {np.median(times['this build']):.3f} s"
        if args.baseline:
            ratios = np.array(times["baseline"]) / times["this build"]
            bound = max(error_bound(build)(data.search, weights)
                        for _, build in builds)
            first, second = (
                search.ranked_lists(data, data.search_order[refs],
                                    keys.reshape(m, data.n_groups, k), 10,
                                    weights, bound, "lower-index")
                for keys in lists.values())
            same = first.equals(second)
            line += (f", baseline {np.median(times['baseline']):.3f} s, "
                     f"speed-up {np.median(ratios):.2f}x "
                     f"({ratios.min():.2f}-{ratios.max():.2f}), identical "
                     f"float32 lists: {np.array_equal(*lists.values())}, "
                     f"identical exact lists: {same}")
        print(line, flush=True)


if __name__ == "__main__":
    main()

"""Cost of a greedy forward search with RFSM.

Times, on random data (numeric attributes, two classes, k = 1, every
instance a reference), the one neighbour search plus diff precomputation
(``RFSM(...)``) and a greedy forward search run to the end (all a steps,
a (a + 1) / 2 candidate sets), and compares with one neighbour search times
the number of candidate sets (what searching again for every set would
cost).

The search is the one ``RFSM`` ran, on the engine it chose: the vectorised
(numpy) engine up to 1000 x 1000 x 50 references x instances x attributes,
the compiled (numba) one above.  ``ORANGE_RELIEF_ENGINE=compiled`` (or
``vectorised``) runs every size on one engine.

Usage: ``python benchmarks/bench_rfsm.py [--sizes 1000x50 2000x100 ...]``
"""
import os
import time

import numpy as np

from orangecontrib.relief import core
from orangecontrib.relief.core import engines

from arguments import Parser, positive_int, size


def measure(n, a, k, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    y = (X[:, 0] + X[:, 1] > 1).astype(float)
    start = time.perf_counter()
    rfsm = core.RFSM(X, y, k_nearest=k)
    prepare = time.perf_counter() - start
    data = rfsm.data
    start = time.perf_counter()
    rfsm.kernels.find_neighbours(data, rfsm.refs, k)
    search = time.perf_counter() - start
    start = time.perf_counter()
    result = core.greedy_forward(rfsm, continue_to_end=True)
    greedy = time.perf_counter() - start
    pairs = rfsm.n_pairs
    sets = result.n_evaluations
    return dict(n=n, a=a, k=k, pairs=pairs, mbytes=rfsm.nbytes / 2 ** 20,
                prepare=prepare, search=search, greedy=greedy, sets=sets,
                ns_per_pair_set=1e9 * greedy / (pairs * sets),
                naive=search * sets)


def warm_up(k):
    """Run every engine the sizes may use once on small data, so that no
    size's time includes numba compiling the compiled engine's kernels
    (or loading them from its cache)."""
    chosen = os.environ.get(engines.VARIABLE)
    for name in [chosen] if chosen in engines.ENGINES else engines.ENGINES:
        with engines.forced(name):
            measure(200, 10, k)


def build_parser():
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", type=size,
                        default=[(1000, 50), (1000, 100), (1000, 200),
                                 (2000, 100), (4000, 100)])
    parser.add_argument("--k", type=positive_int, default=1)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    warm_up(args.k)
    print(f"{'n':>6} {'a':>4} {'pairs':>7} {'MB':>7} {'prepare s':>10} "
          f"{'greedy s':>9} {'sets':>6} {'ns/(pair*set)':>14} "
          f"{'re-search s':>12}")
    for n, a in args.sizes:
        r = measure(n, a, args.k)
        print(f"{r['n']:>6} {r['a']:>4} {r['pairs']:>7} {r['mbytes']:>7.1f} "
              f"{r['prepare']:>10.3f} {r['greedy']:>9.3f} {r['sets']:>6} "
              f"{r['ns_per_pair_set']:>14.2f} {r['naive']:>12.1f}")


if __name__ == "__main__":
    main()

"""What the Relief interaction map costs beside one weights pass: the map of
the best K attributes (with its t test) against the method's weights on
the same data, alternating in one process.

Usage::

    python benchmarks/bench_interactions.py [--sizes 1600x100,2000x500]
        [--top 50] [--repeats 3]

The data are SNPs (genotypes 0, 1, 2, nominal) whose class is the XOR of
the first two, 10 % of the classes flipped.  For ReliefF (k = 10) and
MultiSURF, every instance a reference, a line gives the median time of
the weights, of the map and the median of the repeats' ratios (map over
weights).  The kernels are compiled (or loaded) before the timing.
"""
import time

import numpy as np

from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.variants import surf
from orangecontrib.relief.core.networks.interactions import interaction_map

from arguments import Parser, positive_int, sizes

#: the methods timed: their weights, by the map's name for them
WEIGHTS = {"relieff": lambda X, y, d: relieff(X, y, d, k_nearest=10),
           "multisurf": lambda X, y, d: surf.multisurf(X, y, d)}


def snps(n, a, seed=0):
    """(X, y, discrete): `a` genotypes of `n` instances, the class the
    XOR of the first two's minor alleles, 10 % flipped."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n, a)).astype(float)
    y = ((X[:, 0] % 2) != (X[:, 1] % 2)) ^ (rng.random(n) < 0.1)
    return X, y.astype(float), np.ones(a, bool)


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=sizes, default="1600x100,2000x500")
    parser.add_argument("--top", type=positive_int, default=50)
    parser.add_argument("--repeats", type=positive_int, default=3)
    return parser


def timed(run):
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main(argv=None):
    args = build_parser().parse_args(argv)
    warm = snps(60, 4)
    for method, weigh in WEIGHTS.items():  # compile or load the kernels
        weigh(*warm)
        interaction_map(*warm, method=method)
    print(f"the map of the best K attributes (K = {args.top} or all) "
          f"against one weights pass")
    for n, a in args.sizes:
        data = snps(n, a)
        top = min(args.top, a)
        for method, weigh in WEIGHTS.items():
            weights, maps = [], []
            for _ in range(args.repeats):
                weights.append(timed(lambda: weigh(*data)))
                maps.append(timed(lambda: interaction_map(
                    *data, method=method, top_k=top)))
            ratios = np.array(maps) / np.array(weights)
            print(f"SNPs {n} x {a}, {method}, K = {top}: weights "
                  f"{np.median(weights):.3f} s, map {np.median(maps):.3f} s, "
                  f"ratio {np.median(ratios):.2f} "
                  f"({ratios.min():.2f}-{ratios.max():.2f})", flush=True)


if __name__ == "__main__":
    main()

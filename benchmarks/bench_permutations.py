"""Permutation p-values of the SURF family: every permutation scored from
scratch against the rescorer that computes the distances once per batch.

Usage: ``python benchmarks/bench_permutations.py [--sizes 2000x100]
[--method multisurf] [--task classification] [--permutations 99]
[--repeats 3]``

Continuous attributes, a binary class or a numeric target (`--task
regression`), every instance a reference.  The two
ways run alternately in this process after a warm-up; the table gives the
median times, their ratio and whether the p-values are equal (they
should be: the rescorer changes the work, not the result).
"""
import time

import numpy as np

from orangecontrib.relief.core.analysis import significance
from orangecontrib.relief.core.variants import surf

from arguments import Parser, positive_int, sizes


def timed(compute):
    """(seconds, result) of one call."""
    start = time.perf_counter()
    result = compute()
    return time.perf_counter() - start, result


def compare(n, a, method, task, n_permutations, repeats):
    """The row of one size: (scratch s, rescorer s, ratio, equal p)."""
    rng = np.random.default_rng(0)
    X = rng.random((n, a))
    y = X[:, 0] + X[:, 1] + 0.5 * rng.random(n)
    if task == "classification":
        y = (y > 1.25).astype(float)

    def weights(X, y, discrete):
        return surf.neighbourhood_sums(X, y, discrete, method=method,
                                       task=task).weights

    def from_scratch():
        return significance.permutation_pvalues(
            weights, X, y, n_permutations=n_permutations)

    def rescored():
        rescore = significance.surf_rescorer(X, y, method=method, task=task)
        return significance.permutation_test(rescore, y, n_permutations)

    rescored()  # warm-up (compilation)
    scratch_times, rescorer_times = [], []
    for _ in range(repeats):
        seconds, (_, scratch_p) = timed(from_scratch)
        scratch_times.append(seconds)
        seconds, (_, rescored_p) = timed(rescored)
        rescorer_times.append(seconds)
    scratch, rescorer = np.median(scratch_times), np.median(rescorer_times)
    return scratch, rescorer, scratch / rescorer, np.array_equal(scratch_p,
                                                                 rescored_p)


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=sizes, default="2000x100",
                        help="comma-separated NxA (default 2000x100)")
    parser.add_argument("--method", default="multisurf",
                        choices=list(surf.NEIGHBOURHOODS))
    parser.add_argument("--task", default="classification",
                        choices=["classification", "regression"])
    parser.add_argument("--permutations", type=positive_int, default=99)
    parser.add_argument("--repeats", type=positive_int, default=3)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    print(f"{args.method}, {args.task}, {args.permutations} permutations, "
          f"median of {args.repeats} alternating runs")
    print("| size | from scratch (s) | rescorer (s) | speed-up | equal p |")
    print("| --- | ---: | ---: | ---: | --- |")
    rows = []
    for n, a in args.sizes:
        row = compare(n, a, args.method, args.task, args.permutations,
                      args.repeats)
        rows.append(row)
        print(f"| {n}x{a} | {row[0]:.3f} | {row[1]:.3f} | {row[2]:.2f}x | "
              f"{row[3]} |")
    return rows


if __name__ == "__main__":
    main()

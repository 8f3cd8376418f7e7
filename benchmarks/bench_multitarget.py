"""What several targets cost: multi-target RReliefF of three targets
against RReliefF of one, on the same data, alternating in one process.

Usage::

    python benchmarks/bench_multitarget.py [--sizes 2000x50,5000x20]
        [--targets 3] [--k 10] [--repeats 3] [--engines compiled,vectorised]

The data are uniform numeric attributes with t targets made of them
(every instance a reference).  Each repeat times RReliefF of the first
target (:func:`orangecontrib.relief.core.rrelieff`), then multi-target
RReliefF of all t (:func:`orangecontrib.relief.core.variants.multitarget.
rrelieff_multitarget`: the overall ranking and each target's), on each
engine; a line gives the medians and the median of the repeats' ratios
(several targets over one: the goal is at most 1.2).  Both are run once
before the timing, so that the compiled kernels are loaded.
"""
import time

import numpy as np

from orangecontrib.relief.core import engines
from orangecontrib.relief.core.variants import estimators, multitarget

from arguments import Parser, checked, comma_separated, positive_int, sizes

#: argparse types: two or more targets, an engine's name
several = checked(int, lambda v: v >= 2, "a whole number >= 2")
engine_name = checked(str, lambda v: v in engines.ENGINES,
                      " or ".join(engines.ENGINES))


def data(n, a, t, seed=0):
    """X (n, a) uniform and t targets, each a sum of two attributes."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    Y = np.column_stack([X[:, s % a] + X[:, (s + 1) % a]
                         + 0.1 * rng.random(n) for s in range(t)])
    return X, Y


def build_parser():
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=sizes, default="2000x50,5000x20")
    parser.add_argument("--targets", type=several, default=3)
    parser.add_argument("--k", type=positive_int, default=10)
    parser.add_argument("--repeats", type=positive_int, default=3)
    parser.add_argument("--engines", default=list(engines.ENGINES),
                        type=comma_separated(engine_name))
    return parser


def timed(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main(argv=None):
    args = build_parser().parse_args(argv)
    print(f"RReliefF of 1 target against multi-target RReliefF of "
          f"{args.targets}, k = {args.k}, every instance a reference")
    for n, a in args.sizes:
        X, Y = data(n, a, args.targets)
        calls = {
            "one": lambda: estimators.rrelieff(X, Y[:, 0], k_nearest=args.k),
            "several": lambda: multitarget.rrelieff_multitarget(
                X, Y, k_nearest=args.k)}
        for engine in args.engines:
            with engines.forced(engine):
                for call in calls.values():  # kernels loaded
                    call()
                times = {name: [] for name in calls}
                for _ in range(args.repeats):
                    for name, call in calls.items():
                        times[name].append(timed(call))
            ratios = np.array(times["several"]) / np.array(times["one"])
            print(f"{n} x {a}, {engine}: one target "
                  f"{np.median(times['one']):.3f} s, {args.targets} targets "
                  f"{np.median(times['several']):.3f} s, ratio "
                  f"{np.median(ratios):.2f} ({ratios.min():.2f}-"
                  f"{ratios.max():.2f})", flush=True)


if __name__ == "__main__":
    main()

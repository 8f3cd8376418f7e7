"""The table of doc/interactions.md on higher-order XOR: how often ReliefF
(k = 10) and MultiSURF put every bit of an XOR of 2 to 5 bits among 20
attributes at the top, ranking by the weights or by their magnitude, the
pattern Freda et al. (2024) report.

    python doc/higher_order_xor.py [--sizes N ...] [--orders B ...]
        [--replicates R] [--attributes A] [--seed S]

For every order B and size N, R replicates of the class the parity of B
random bits and A - B random bits of noise
(:func:`orangecontrib.relief.core.generators.modulo` with p = 2, seeded
S, B, N, replicate); a replicate is a success when the B bits are the B
best attributes.  Prints a Markdown table, a row per (B, N): the share of
successes of each method ranked by the weights ("signed") and by their
magnitude ("|w|"), and the share of replicates where every bit of the
XOR weighs below 0 by MultiSURF (why the signed ranking fails).  Long
runs belong under ``flock /work/bench.lock`` on a shared machine.
"""
import argparse

import numpy as np

from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.generators import modulo
from orangecontrib.relief.core.variants.surf import multisurf
from orangecontrib.relief.core.analysis.threshold import best_first

#: the methods compared, by their name in the table
METHODS = {"ReliefF": lambda X, y, d: relieff(X, y, d, k_nearest=10),
           "MultiSURF": lambda X, y, d: multisurf(X, y, d)}
SIZES = (200, 800, 1600)
ORDERS = (2, 3, 4, 5)


def replicate(order, n, attributes, seed):
    """(found, negative): for each method and ranking, whether the XOR
    bits (the first `order` attributes) are the best `order`; whether
    MultiSURF weighs every bit below 0."""
    problem = modulo(n, order, attributes - order, p=2, seed=seed)
    found, negative = {}, False
    for name, weigh in METHODS.items():
        weights = weigh(problem.X, problem.y, problem.discrete)
        for absolute in (False, True):
            top = best_first(weights, absolute)[:order]
            found[name, absolute] = set(top.tolist()) == set(range(order))
        if name == "MultiSURF":
            negative = bool((weights[:order] < 0).all())
    return found, negative


def shares(order, n, *, replicates, attributes, seed):
    """The share of `replicates` in which each method and ranking finds
    the bits, and the share in which MultiSURF weighs them all below 0."""
    counts, negatives = {}, 0
    for r in range(replicates):
        found, negative = replicate(
            order, n, attributes,
            np.random.default_rng([seed, order, n, r]))
        for key, value in found.items():
            counts[key] = counts.get(key, 0) + value
        negatives += negative
    return ({key: count / replicates for key, count in counts.items()},
            negatives / replicates)


def table(*, sizes=SIZES, orders=ORDERS, replicates=20, attributes=20,
          seed=0):
    """The Markdown lines of the table."""
    heading = ["bits", "n"]
    for name in METHODS:
        heading += [f"{name} signed", f"{name} \\|w\\|"]
    heading.append("MultiSURF: every bit < 0")
    lines = ["| " + " | ".join(heading) + " |",
             "|" + " --- |" * len(heading)]
    for order in orders:
        for n in sizes:
            found, negative = shares(order, n, replicates=replicates,
                                     attributes=attributes, seed=seed)
            cells = [str(order), str(n)]
            for name in METHODS:
                cells += [f"{found[name, False]:.2f}",
                          f"{found[name, True]:.2f}"]
            cells.append(f"{negative:.2f}")
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    parser.add_argument("--orders", type=int, nargs="+", default=ORDERS)
    parser.add_argument("--replicates", type=int, default=20)
    parser.add_argument("--attributes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print("\n".join(table(sizes=args.sizes, orders=args.orders,
                          replicates=args.replicates,
                          attributes=args.attributes, seed=args.seed)))


if __name__ == "__main__":
    main()

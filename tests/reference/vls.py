"""A slow, literal VLSReliefF, as Eppstein & Haake (2008) describe it.

"Very large scale ReliefF": score subsets of the attributes with ReliefF,
each on its own (the distances over the subset's attributes only), and
give every attribute the largest of the weights it got in the subsets that
hold it.  The subsets are the package's documented design
(``orangecontrib.relief.core.variants.vls``): the attributes shuffled by
``numpy.random.default_rng(seed).permutation``, cut into runs whose
lengths differ by at most one; with pair coverage every two runs of at
most s // 2 form a subset, so that any two attributes meet in one;
without it the runs of at most s, then random subsets of s drawn by the
same generator (``choice`` without replacement) up to the count asked.

Plain Python lists and loops; ReliefF is the literal one of
:mod:`tests.reference.relief`.
"""
import math

import numpy as np

from .relief import relieff


def runs(order, longest):
    """`order` cut into ceil(len / longest) runs whose lengths differ by at
    most one, the longer ones first."""
    count = math.ceil(len(order) / longest)
    short, extra = divmod(len(order), count)
    cut, start = [], 0
    for r in range(count):
        length = short + (1 if r < extra else 0)
        cut.append(order[start:start + length])
        start += length
    return cut


def subsets(a, size, cover_pairs, n_subsets, seed):
    """The subsets of attribute indices, each sorted."""
    if size >= a:
        return [list(range(a))]
    rng = np.random.default_rng(seed)
    order = [int(i) for i in rng.permutation(a)]
    if cover_pairs:
        groups = runs(order, size // 2)
        return [sorted(groups[g] + groups[h]) for g in range(len(groups))
                for h in range(g + 1, len(groups))]
    chosen = [sorted(run) for run in runs(order, size)]
    if n_subsets is None:
        groups = math.ceil(2 * a / size)
        n_subsets = groups * (groups - 1) // 2
    while len(chosen) < n_subsets:
        chosen.append(sorted(int(i) for i in rng.choice(a, size,
                                                        replace=False)))
    return chosen


def vls_relieff(X, y, discrete=None, *, subset_size=None, cover_pairs=True,
                n_subsets=None, random_state=0, **options):
    """Every attribute's largest ReliefF weight over the subsets holding
    it (a third of the attributes a subset by default, at least 2)."""
    X = np.asarray(X, dtype=np.float64)
    a = X.shape[1]
    discrete = [False] * a if discrete is None else [bool(d)
                                                     for d in discrete]
    size = (min(a, max(2, math.ceil(a / 3))) if subset_size is None
            else subset_size)
    best = [None] * a
    for subset in subsets(a, size, cover_pairs, n_subsets, random_state):
        weights = relieff(X[:, subset], y, [discrete[A] for A in subset],
                          random_state=random_state, **options)
        for A, weight in zip(subset, weights):
            if weight == weight and (best[A] is None or weight > best[A]):
                best[A] = float(weight)
    return np.array([math.nan if w is None else w for w in best])

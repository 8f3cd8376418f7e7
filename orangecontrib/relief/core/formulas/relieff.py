"""ReliefF's update of one reference, by definition (Kononenko 1994; Prat &
Belanche 2006, Fig. 2), in numpy: the vectorised engine's rules apply it
reference by reference, and the step-by-step shows it one reference at a
time.
"""
from .diffs import pair_diffs


def found(neighbours):
    """How many neighbours each group of a reference's (groups, k) list
    has (lists pad with -1)."""
    return (neighbours >= 0).sum(axis=1)


def coefficient(g, own, count, priors):
    """The factor of each of `count` neighbours of group `g` in ReliefF's
    update of a reference of group `own` (Kononenko 1994): -1 / k for a
    hit, P(C) / (1 - P(class(R))) / k for a miss of class C."""
    if g == own:
        return -1.0 / count
    return priors[g] / (1 - priors[own]) / count


def relieff_update(acc, exact, i, neighbours, priors, diffs=None):
    """acc += m times reference I_i's ReliefF update (Kononenko 1994;
    Prat & Belanche 2006, Fig. 2), its neighbours weighted by
    :func:`coefficient`.  `diffs`, if given, are I_i's diffs against
    every instance."""
    own = exact.groups[i]
    counts = found(neighbours)
    for g in range(neighbours.shape[0]):
        count = counts[g]
        if count == 0:
            continue
        coef = coefficient(g, own, count, priors)
        members = neighbours[g, :count]
        block = (pair_diffs(exact, i, members) if diffs is None
                 else diffs[:, members])
        for s in range(count):
            acc += coef * block[:, s]

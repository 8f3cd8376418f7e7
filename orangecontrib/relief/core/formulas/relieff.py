"""ReliefF's update of one reference, by definition (Kononenko 1994; Prat &
Belanche 2006, Fig. 2), in numpy: the vectorised engine's rules apply it
reference by reference, and the step-by-step shows it one reference at a
time.
"""
from .diffs import pair_diffs


def coefficient(g, own, places, priors):
    """The factor of the neighbours of group `g` in ReliefF's update of a
    reference of group `own` (Kononenko 1994), a list of `places` places:
    -1 / k for a hit, P(C) / (1 - P(class(R))) / k for a miss of class C
    (k: the places); a neighbour's terms take it times its share of the
    places."""
    if g == own:
        return -1.0 / places
    return priors[g] / (1 - priors[own]) / places


def relieff_update(acc, exact, i, lists, priors, diffs=None):
    """acc += m times reference I_i's ReliefF update (Kononenko 1994;
    Prat & Belanche 2006, Fig. 2): `lists`, the
    :class:`..neighbours.Neighbours` of I_i alone, each neighbour weighted
    by :func:`coefficient` times its share.  `diffs`, if given, are I_i's
    diffs against every instance."""
    own = exact.groups[i]
    places = lists.places[0]
    for g in range(lists.n_groups):
        if places[g] == 0:
            continue
        coef = coefficient(g, own, places[g], priors)
        start, stop = lists.bounds(0, g)
        members = lists.index[start:stop]
        block = (pair_diffs(exact, i, members) if diffs is None
                 else diffs[:, members])
        for s in range(stop - start):
            acc += coef * lists.share[start + s] * block[:, s]

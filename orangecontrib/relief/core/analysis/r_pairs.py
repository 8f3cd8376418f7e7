"""STIR's neighbour pairs as the authors' R package finds them
(insilico/stir, ``find.neighbors``), for a user who must match a
published R analysis (:func:`.significance.stir` with
``r_compatible=True``).

The add-on's STIR follows the paper's definitions (:mod:`..formulas.stir`);
R's differs from them in four ways, all kept here (doc/significance.md):

* **Pooled misses.**  R's misses of a reference are the instances of
  every other class together: ReliefF's k nearest of them, or all of a
  SURF-family near set's, each weighted 1 / (their number).  The add-on's,
  with more than two classes, are ReliefF's k nearest of each class,
  weighted by the class's prior as in ReliefF's update.
* **Twins.**  R reads a reference's class from the first instance of its
  distance row sorted stably (:func:`r_first`): an instance of lower index
  at distance 0 (an identical twin) comes before the reference.  A twin of
  the same class changes nothing (R drops it as "self", both at diff 0);
  a twin of another class swaps the reference's hits and misses and makes
  the reference its own miss.
* **The keep rule.**  R keeps a SURF or MultiSURF reference only if its
  near set holds at least one hit and two misses (:data:`R_KEEP`) and
  drops the others' pairs, still counting them in the means' divisor.
* **The thresholds.**  MultiSURF's use the sample standard deviation
  (R's ``sd.vec = NULL``, :data:`R_DEVIATION`).  R's SURF threshold is the
  mean distance of all pairs less half their sample standard deviation
  (its ``sd.frac = 0.5``, :data:`R_SD_FRACTION`), nearer than Greene et
  al.'s mean distance, the add-on's.

Ties at R's k-th neighbour go to the lower index (R's stable order).
Every pair counts with 1 / k_Hi or 1 / k_Mi, the numbers of its
reference's hits and misses, and the means divide by the m references, as
R's ``stir()`` computes them; the distances and diffs are the add-on's
(the default linear diff of numeric attributes is R's "manhattan").
"""
import numpy as np

from ..engines.vectorised.surf import Neighbourhoods, limits, reference_blocks
from ..formulas.diffs import pair_diffs
from ..formulas.neighbourhoods import NO_FAR, SIGMAS
from ..formulas.stir import COUNT_PLACES, add_stir_sums, stir_sums
from ..progress import report

#: the standard deviation of R's MultiSURF thresholds: R's sd(), the sample's
R_DEVIATION = "sample"
#: the fewest hits and misses of a SURF-family near set R keeps
R_KEEP = (1, 2)
#: the standard deviations of all distances R's SURF threshold lies below
#: their mean
R_SD_FRACTION = 0.5


def r_first(i, row):
    """The instance R reads reference i's class from: the first of its
    distance `row` sorted stably, the lowest index at distance 0 (i itself
    if no instance of lower index is there)."""
    twins = np.flatnonzero(row[:i] == 0)
    return twins[0] if len(twins) else i


def split_by_class(first, members, groups):
    """R's hits and misses among `members` (ordered as R orders them):
    those of the class of `first`, but `first` itself, and the others."""
    same = groups[members] == groups[first]
    return members[same & (members != first)], members[~same]


def relieff_pairs(i, row, groups, k):
    """R's ReliefF pairs of reference i from its distances `row`: the k
    nearest hits and the k nearest misses of any other class, the row
    sorted stably (ties to the lower index), the reference at distance
    0."""
    row = row.copy()
    row[i] = 0.0
    hits, misses = split_by_class(r_first(i, row),
                                  np.argsort(row, kind="stable"), groups)
    return hits[:k], misses[:k]


def near_pairs(i, row, radius, groups):
    """R's pairs of reference i within `radius` (its near threshold), or
    None where R keeps none (fewer than :data:`R_KEEP` hits and misses, or
    a radius that leaves even the reference out)."""
    if not radius > 0:
        return None
    with np.errstate(invalid="ignore"):  # the NaN of the reference
        near = row < radius
    near[i] = True
    hits, misses = split_by_class(r_first(i, row), np.flatnonzero(near),
                                  groups)
    if len(hits) < R_KEEP[0] or len(misses) < R_KEEP[1]:
        return None
    return hits, misses


def add_pairs(sums, counts, exact, i, hits, misses):
    """Add reference i's pairs to STIR's sums, each weighted 1 / (the
    number of its kind)."""
    members = np.concatenate([hits, misses])
    hit = np.arange(len(members)) < len(hits)
    coef = np.where(hit, 1.0 / max(len(hits), 1), 1.0 / max(len(misses), 1))
    add_stir_sums(sums, counts, pair_diffs(exact, i, members)[:, None],
                  coef[None], hit[None], ~hit[None])


def surf_radius(hoods):
    """R's SURF threshold: the mean distance of the n (n - 1) / 2 pairs
    less :data:`R_SD_FRACTION` times their sample standard deviation (the
    distances of each block of references computed twice, for the mean
    and for the squares about it, rather than kept)."""
    n = hoods.n
    blocks = [np.arange(first, min(first + hoods.height, n))
              for first in range(0, n, hoods.height)]
    count = n * (n - 1)  # every pair twice
    mean = sum(np.nansum(hoods.distances(block)) for block in blocks) / count
    squares = sum(np.nansum((hoods.distances(block) - mean) ** 2)
                  for block in blocks) / 2
    return mean - R_SD_FRACTION * np.sqrt(squares / (count / 2 - 1))


def r_pair_sums(data, refs, neighbourhood, k_nearest,
                progress_callback=None):
    """STIR's sums (:mod:`..formulas.stir`) over R's pairs of the
    references `refs` of the prepared `data`: ReliefF's
    (`neighbourhood` "relieff", `k_nearest`) or a SURF-family method's
    near sets ("surf", "multisurf"; SURF* and MultiSURF* test those of
    SURF and MultiSURF).

    Returns
    -------
    StirSums, the argument of :func:`.significance.stir_test`
    """
    exact, groups = data.exact, data.groups
    local = neighbourhood.startswith("multisurf")
    ddof = SIGMAS[R_DEVIATION]
    # the SURF threshold is R's, not the neighbourhoods' mean distance
    hoods = Neighbourhoods(exact, np.arange(data.n_instances), True, NO_FAR,
                           ddof)
    radius = None if local or neighbourhood == "relieff" else surf_radius(
        hoods)
    sums = np.zeros((6, exact.values.shape[0]))
    counts = np.zeros(COUNT_PLACES)
    for blocks, done in reference_blocks(refs, hoods.height,
                                         progress_callback):
        for block in blocks:
            dist = hoods.distances(block)
            if neighbourhood == "relieff":
                found = [relieff_pairs(i, row, groups, k_nearest)
                         for i, row in zip(block, dist)]
            else:
                radii = (limits(dist, True, 0.0, ddof)[0] if local
                         else np.full(len(block), radius))
                found = [near_pairs(i, row, radius, groups)
                         for i, row, radius in zip(block, dist, radii)]
            for i, pairs in zip(block, found):
                if pairs is not None:
                    add_pairs(sums, counts, exact, i, *pairs)
        report(progress_callback, done)
    return stir_sums(sums, counts, len(refs))

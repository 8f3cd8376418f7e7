"""mu-Relief: ReliefF's update over the instances whose distances lie
farthest from their class's mean distance.

Aggarwal et al. (2023, "Mean based relief: an improved feature
selection method based on ReliefF", Applied Intelligence 53:23004)
replace ReliefF's k nearest hits and misses of a reference R by the k
instances of each class c whose distance D(R, j) lies farthest from
mu_c(R), R's mean distance to the other instances of
c (:mod:`..formulas.mean_farthest`); scikit-rebate 0.8 (UrbsLab,
``skrebate/murelief.py``) implements it.  The update is ReliefF's
(Kononenko 1994): the mean diff over the hits subtracted, the mean over
the misses of each other class added, weighted by the class's prior.

Where scikit-rebate 0.8.4 departs from that, the `convention` option
chooses (``doc/murelief.md``):

* ``"add-on"`` (the add-on's own, the default, as for the SWRF family):
  the reference is never its own neighbour; the instances tied
  at the k-th deviation share the places left (``ties``, as every
  k-nearest list of the add-on), so that the weights do not depend on the
  order of the rows; the misses weighted by the classes' priors.
* ``"scikit-rebate"``: scikit-rebate's selection, the first k of each
  class in the order of numpy's ``argsort`` of the deviations (reversed),
  whose order of equal deviations is its sort's; the reference stands in
  that order with deviation 0, so that it is its own hit where its class
  has fewer than k + 1 instances (a hit of diff 0, which counts in the
  mean); with more than two classes, the mean diff of the n_C misses of
  class C weighted by L n_C^2 / N^2 (L other classes, N misses read), as
  scikit-rebate's multi-class normalisation weighs them: 1 / L, the
  classes alike, where each gives k.
"""
from dataclasses import replace

import numpy as np

from ..compact.data import CompactData
from ..compact import search as compact_search
from ..compact.rules import by_columns, is_blocked, progress_shares
from ..engines import preparation
from .estimators import BYTES_PER_NEIGHBOUR, prepared
from ..options import (DIFF, K_RELIEFF, RANDOM_STATE, CONVENTION, T_DIFF,
                       T_EQ, TIES, check_needs)
from ..sampling import check_memory
from ..validation import validated

__all__ = ["murelief"]

SCIKIT_REBATE = "scikit-rebate"


def farthest_of(kernels, data, refs, k, ties, scikit_rebate,
                progress_callback):
    """The lists of mu-Relief's neighbourhood from the engine (or the
    compact data's search), their memory checked first."""
    check_memory("n_iterations" if len(refs) > data.n_instances
                 else "k_nearest", len(refs) * data.n_groups
                 * min(k, data.n_instances) * BYTES_PER_NEIGHBOUR)
    compact = isinstance(data, CompactData)
    search = compact_search if compact else kernels
    divisor = None
    if scikit_rebate:
        divisor = scikit_rebate_divisor(data.nominal if is_blocked(data)
                                        else data.exact.nominal)
    return search.mean_farthest_neighbours(data, refs, k, ties, divisor,
                                           progress_callback)


def scikit_rebate_divisor(nominal):
    """What scikit-rebate 0.8's distances are ours divided by: the number
    of attributes where all are nominal (its Hamming distance, the share
    of attributes that differ), else 1 (its count of the nominal ones
    that differ plus the numeric ones' range-scaled city-block
    distance)."""
    return float(len(nominal)) if nominal.all() else 1.0


def equal_priors(priors):
    """Priors of 1 / C for each of the C classes present (0 for the
    others): the misses of every other class weighted alike, 1 / (C - 1),
    as scikit-rebate 0.8's multi-class normalisation weighs them where
    every class gives k."""
    present = priors > 0
    return present / present.sum()


def scikit_rebate_miss_shares(neighbours, own, n_classes):
    """The lists `neighbours` of the references of classes `own` with each
    entry's share times scikit-rebate 0.8's weight of its miss class
    relative to :func:`equal_priors`' 1 / L, L = `n_classes` - 1: its
    multi-class normalisation weighs the mean diff of the n_C misses of
    class C by L n_C^2 / N^2 (their share of the N misses read, times L,
    over N), which is 1 / L where every class gives k; the hits' shares
    are kept."""
    others = n_classes - 1

    def change(start, part):
        mine = own[start:start + len(part)]
        is_own = np.arange(part.n_groups)[None, :] == mine[:, None]
        misses = np.where(is_own, 0, part.places).astype(float)
        read = misses.sum(axis=1, keepdims=True)
        factor = np.where(is_own, 1.0, np.divide(
            others * misses, read, out=np.zeros_like(misses),
            where=read > 0) ** 2)
        return replace(part, share=part.share * factor[part.owner,
                                                       part.group])
    return neighbours.mapped(change)


@validated
def murelief(X, y, discrete=None, *, k_nearest=K_RELIEFF,
             convention=CONVENTION, n_iterations=None,
             random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
             ties=TIES, progress_callback=None):
    """mu-Relief attribute weights (Aggarwal et al. 2023; scikit-rebate 0.8).

    Parameters
    ----------
    X : array (n, a)
        Attribute values; NaN marks a missing value (RELIEF-D diffs);
        nominal columns hold value codes 0..V-1.
    y : array (n,)
        Class codes; rows with a missing class are left out.
    discrete : bool array (a,) or None
        Which columns are nominal (None: all numeric).
    k_nearest : int
        Hits, and misses of each other class, per reference: the k whose
        distances lie farthest from their class's mean distance.
    convention : "add-on" or "scikit-rebate"
        The add-on's selection (the default) or scikit-rebate 0.8's (the
        module docstring of :mod:`orangecontrib.relief.core.variants.murelief`).
    n_iterations : int or None
        None: every instance is a reference once.  An int: that many
        references drawn with `random_state`.
    random_state : int, numpy Generator or None
    diff : "linear", "squared" or "ramp"
        Transform of numeric diffs (ramp thresholds t_eq, t_diff).
    ties : "share" or "lower-index"
        The instances tied at the k-th deviation (:mod:`..formulas.ties`):
        "share" (default) gives each of the t tied r / t of the r places
        left, so that the weights do not depend on the order of the rows;
        "lower-index" gives them to the lower indices.  The
        scikit-rebate convention orders them as its sort does.
    progress_callback : callable(float) or None
        Receives the fraction done; may raise to stop.

    Returns
    -------
    float64 array (a,)

    References
    ----------
    Aggarwal, N., Shukla, U., Saxena, G. J. et al. (2023). Mean based
    relief: an improved feature selection method based on ReliefF.
    Applied Intelligence 53:23004-23028.  As scikit-rebate
    0.8 (UrbsLab, ``skrebate/murelief.py``) implements it; ReliefF's update
    after Kononenko (1994).
    """
    k = k_nearest
    scikit_rebate = convention == SCIKIT_REBATE
    check_needs("ties", ties, TIES, "convention='add-on'",
                not scikit_rebate)
    data, refs, kernels = prepared(
        X, y, discrete, n_iterations, random_state, task="classification",
        diff=diff, t_eq=t_eq, t_diff=t_diff, compact=True,
        parts=(preparation.RELIEFF,))
    search, rule = progress_shares(data, progress_callback)
    neighbours = farthest_of(kernels, data, refs, k, ties, scikit_rebate,
                             search)
    priors = data.priors
    if scikit_rebate:
        priors = equal_priors(priors)
        if (priors > 0).sum() > 2:
            neighbours = scikit_rebate_miss_shares(
                neighbours, data.groups[refs], (priors > 0).sum())
    return by_columns(data, lambda exact: kernels.relieff_rule(
        exact, refs, neighbours, priors), progress_callback=rule,
        narrow=True)

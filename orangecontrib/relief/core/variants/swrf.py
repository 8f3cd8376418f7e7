"""The SWRF family: SURF's and MultiSURF's neighbourhoods, each neighbour
weighted by a sigmoid of its distance from its set's limit.

Stokes & Visweswaran (2012) weight every instance by how far its distance
to the reference lies from the mean distance T, so that an instance near
the threshold counts little and a clearly near (or far) one fully.
scikit-rebate 0.8 (UrbsLab, ``skrebate/baseswrf.py``) made six methods of
it, which the add-on computes on the SURF family's neighbour machinery
(:func:`.surf.neighbourhood_sums`' kernels, the weights of
:func:`..formulas.neighbourhoods.sigmoid_weight`):

============  ==========================  ================================
method        near set, far set           centre and sigma of the weights
============  ==========================  ================================
SWRF          D < T                       T, sigma of all pairs
SWRF*         D < T, D > T                T, sigma of all pairs
MultiSWRF     D < mu_i                    mu_i, sigma_i (i's own distances)
MultiSWRF*    D < mu_i, D > mu_i          mu_i, sigma_i
MultiSWRFDB   D < mu_i - sigma_i / 2      its limit, sigma_i
MultiSWRFDB*  and D > mu_i + sigma_i / 2  each set's limit, sigma_i
============  ==========================  ================================

The near update is ReliefF's over the near set
(:func:`..formulas.neighbourhoods.class_coefficients`: each class's diffs
over its number of members), each diff times its neighbour's weight w;
the far set of the starred methods is scored by its weighted similarity,
hits against and misses for the attribute, as MultiSURF*'s: its update
(each diff times its neighbour's weight) subtracted, without the term
sum c w that is the same for every attribute
(:mod:`..formulas.neighbourhoods`), so that a constant attribute weighs 0.
The weights are divided by the number of references.

Where scikit-rebate 0.8 departs from that, the `convention` option
chooses: ``"add-on"`` (the default) as above, SWRF's T and sigma over
the n (n - 1) / 2 pairs of distinct instances (SURF's T here);
``"scikit-rebate"`` scores a far neighbour's numeric attribute by
1 - w diff (its count less the weighted diffs) and a nominal one by
w (1 - diff), the terms that do not depend on the attribute kept, and
takes T and sigma over the n x n distance matrix with its zero
diagonal.  ``doc/swrf.md`` says more.
"""
import numpy as np

from ..compact.rules import is_blocked
from ..engines import preparation
from .estimators import prepared
from ..formulas.neighbourhoods import DEAD_BAND, NO_FAR, OPPOSITE, SIGMAS
from ..errors import ReliefInputError
from ..formulas.stir import FAR_PRESENCE, FAR_WEIGHT, stir_sums
from ..options import (DEVIATION, DIFF, RANDOM_STATE, CONVENTION, T_DIFF, T_EQ,
                       check_choice)
from .surf import RadiusSums, rule_sums
from ..targets import TASKS
from ..validation import validated

__all__ = ["swrf", "swrfstar", "multiswrf", "multiswrfstar", "multiswrfdb",
           "multiswrfdbstar", "swrf_weights", "swrf_sums", "METHODS"]

#: method -> (limits from the reference's own distances, half-width of the
#: dead band in standard deviations, far scoring)
METHODS = {
    "swrf": (False, 0.0, NO_FAR),
    "swrf*": (False, 0.0, OPPOSITE),
    "multiswrf": (True, 0.0, NO_FAR),
    "multiswrf*": (True, 0.0, OPPOSITE),
    "multiswrfdb": (True, DEAD_BAND, NO_FAR),
    "multiswrfdb*": (True, DEAD_BAND, OPPOSITE),
}


#: why the add-on's convention has no numeric target
NO_NUMERIC_TARGET = (
    "The SWRF family weighs a numeric target only by scikit-rebate's "
    "convention (convention='scikit-rebate': the neighbours within a "
    "standard deviation of the reference's target are its hits); the "
    "add-on's convention has no numeric target (Stokes & Visweswaran "
    "define SWRF for classes). MultiSURF weighs a numeric target by "
    "RReliefF's rule.")


def target_bound(y, data):
    """(the known target values, scikit-rebate 0.8's bound of a hit):
    the instances whose target lies within the bound of a reference's
    are its hits, the bound the sample standard deviation of the
    target (``np.std(y, ddof=1)``)."""
    target = np.asarray(y, dtype=np.float64)[data.kept_rows]
    return target, float(np.std(target, ddof=1))


def far_constant(scalars, nominal):
    """Per attribute, the part of scikit-rebate's far score that does not
    depend on the diffs, summed over the references: sum c w (the
    weights times the rule's coefficients) for a nominal attribute, sum
    c (any miss - any hit) for a numeric one."""
    return np.where(nominal, scalars[FAR_WEIGHT], scalars[FAR_PRESENCE])


def swrf_weights(X, y, discrete=None, *, method, task="classification",
                 convention=CONVENTION, deviation=DEVIATION,
                 n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                 t_eq=T_EQ, t_diff=T_DIFF, progress_callback=None):
    """The weights of the SWRF-family `method` (a key of :data:`METHODS`);
    the parameters as in :func:`multiswrf`."""
    return swrf_sums(X, y, discrete, method=method, task=task,
                     convention=convention,
                     deviation=deviation, n_iterations=n_iterations,
                     random_state=random_state, diff=diff, t_eq=t_eq,
                     t_diff=t_diff,
                     progress_callback=progress_callback).weights


@validated
def swrf_sums(X, y, discrete=None, *, method, task="classification",
              convention=CONVENTION, deviation=DEVIATION, n_iterations=None,
              random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
              stir=False, progress_callback=None):
    """The weights of the SWRF-family `method` and, with `stir`, the sums
    STIR tests over its near pairs, each pair weighted by its coefficient
    in the near update, the neighbour's sigmoid weight included, and
    counted by that sigmoid weight (:mod:`..formulas.stir`).  Parameters as
    in :func:`swrf_weights`.

    Returns
    -------
    :class:`.surf.RadiusSums` (its `stir` None without `stir`)
    """
    if method not in METHODS:
        raise ReliefInputError(
            f"method must be one of {', '.join(map(repr, METHODS))}, got "
            f"{method!r}.")
    local, band, far = METHODS[method]
    task = check_choice("task", task, TASKS)
    ddof = SIGMAS[deviation]
    numeric = task == "regression"
    if numeric and convention != "scikit-rebate":
        raise ReliefInputError(NO_NUMERIC_TARGET)
    if numeric and stir:
        raise ReliefInputError("STIR compares hits with misses and needs "
                               "classes; the target is numeric.")
    data, refs, kernels = prepared(X, y, discrete, n_iterations,
                                   random_state, task=task, diff=diff,
                                   t_eq=t_eq, t_diff=t_diff, compact=True,
                                   parts=(preparation.SURF,), search=False)
    scikit_rebate = convention == "scikit-rebate"
    sums, scalars = rule_sums(data, refs, kernels, (local, far, ddof),
                              task, stir, progress_callback, band=band,
                              weighting=scikit_rebate,
                              hits_within=target_bound(y, data)
                              if numeric else None)
    weights = sums[0] + sums[1]
    if far != NO_FAR and scikit_rebate:
        nominal = data.nominal if is_blocked(data) else data.exact.nominal
        weights = weights + far_constant(scalars, nominal)
    return RadiusSums(weights / len(refs), stir_sums(sums, scalars, len(refs))
                      if stir else None)


def _estimator(method, name, summary):
    """The public estimator of `method`, called `name`, documented by
    `summary` (the six share their parameters and their computation)."""
    def estimator(X, y, discrete=None, *, task="classification",
                  convention=CONVENTION, deviation=DEVIATION,
                  n_iterations=None, random_state=RANDOM_STATE, diff=DIFF,
                  t_eq=T_EQ, t_diff=T_DIFF, progress_callback=None):
        return swrf_sums.unchecked(
            X, y, discrete, method=method, task=task, convention=convention,
            deviation=deviation, n_iterations=n_iterations,
            random_state=random_state, diff=diff, t_eq=t_eq, t_diff=t_diff,
            progress_callback=progress_callback).weights
    estimator.__name__ = estimator.__qualname__ = name
    estimator.__doc__ = f"""{summary}

    Parameters
    ----------
    X : array (n, a)
        Attribute values; NaN marks a missing value (RELIEF-D diffs);
        nominal columns hold value codes 0..V-1.
    y : array (n,)
        Class codes, or a numeric target; rows with a missing one are
        left out.
    discrete : bool array (a,) or None
        Which columns are nominal (None: all numeric).
    task : "classification" or "regression"
        A numeric target only with ``convention="scikit-rebate"``: a
        reference's hits are the instances whose target lies within the
        target's sample standard deviation of its own, its misses the
        others, scored as two classes (scikit-rebate 0.8).
    convention : "add-on" or "scikit-rebate"
        How the far sets are scored and SWRF's T and sigma taken
        (module docstring of :mod:`orangecontrib.relief.core.variants.swrf`).
    deviation : "population" or "sample"
        The standard deviation of a reference's own distances (the
        population's, as scikit-rebate; SWRF's global one is always the
        population's).
    n_iterations : int or None
        None: every instance is a reference once.  An int: that many
        references drawn with `random_state`.
    random_state : int, numpy Generator or None
    diff : "linear", "squared" or "ramp"
        Transform of numeric diffs (ramp thresholds t_eq, t_diff).
    progress_callback : callable(float) or None
        Receives the fraction done; may raise to stop.

    Returns
    -------
    float64 array (a,)

    References
    ----------
    Stokes, M. E., Visweswaran, S. (2012). Application of a spatially-
    weighted Relief algorithm for ranking genetic predictors of disease.
    BioData Mining 5:20.  The multi-threshold and dead-band forms as
    scikit-rebate 0.8 (UrbsLab, 2026) defines them.
    """
    return validated(estimator)


swrf = _estimator(
    "swrf", "swrf",
    "SWRF attribute weights (Stokes & Visweswaran 2012): SURF's near set "
    "(D < T,\n    the mean distance), each neighbour weighted by "
    "tanh(2 |D - T| / sigma).")
swrfstar = _estimator(
    "swrf*", "swrfstar",
    "SWRF* attribute weights: SWRF and the far set (D > T), scored by its "
    "weighted\n    similarity.")
multiswrf = _estimator(
    "multiswrf", "multiswrf",
    "MultiSWRF attribute weights: each reference's own mean mu_i and "
    "deviation\n    sigma_i, near set D < mu_i, weights "
    "tanh(2 |D - mu_i| / sigma_i).")
multiswrfstar = _estimator(
    "multiswrf*", "multiswrfstar",
    "MultiSWRF* attribute weights: MultiSWRF and the far set (D > mu_i), "
    "scored\n    by its weighted similarity.")
multiswrfdb = _estimator(
    "multiswrfdb", "multiswrfdb",
    "MultiSWRFDB attribute weights: MultiSURF's near set "
    "(D < mu_i - sigma_i / 2),\n    each neighbour weighted by its "
    "distance from that limit.")
multiswrfdbstar = _estimator(
    "multiswrfdb*", "multiswrfdbstar",
    "MultiSWRFDB* attribute weights: MultiSWRFDB and MultiSURF*'s far set\n"
    "    (D > mu_i + sigma_i / 2), scored by its weighted similarity, the "
    "dead band\n    between ignored.")

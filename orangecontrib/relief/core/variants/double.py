"""Double ReliefF and progressively weighted double ReliefF (Prat & Belanche 2006).

Both are ReliefF (Fig. 2) whose neighbour search weights the attributes in
the distance by the algorithm's *own* estimates so far (eq. 3.1)::

    delta(I1, I2) = sum_A f(W[A]_t, t) diff(A, I1, I2)

* dReliefF (section 3):  f(w, t) = w.
* pdReliefF (section 3.1, eq. 3.2-3.4):
  f(w, t) = (w - 1) c(t) / (c(t) + s) + 1,  c(t) = (t / m)^a,
  which starts as plain ReliefF (f = 1) and moves towards dReliefF (f = w).

Because the distance weights change after every reference, the references
are processed one at a time, in order: each engine's ``double_relieff``
(:mod:`..engines.compiled.rules.double` for the compiled one) computes
the distance weights, finds the reference's neighbours exactly as
ReliefF's search would under them and applies ReliefF's update.

Decisions the paper leaves open (all documented in the public functions):

* t is the number of references already processed (0 for the first one) and
  ``W[A]_t`` is what the algorithm would return if stopped there: the mean of
  the first t updates.  m is the number of references.
* With every instance a reference (``n_iterations=None``), the references
  are taken in the order of their content (:func:`content_order`: by
  class, then by the values of the attributes in column order; the
  classes themselves in the order of their instances' contents), not of
  the rows: the weights then depend neither on the order of the rows,
  identical rows being interchangeable, nor on the codes of the classes.
  Sampled references are taken in the order they are drawn.
* Where the k-th distance is tied, the tied candidates share the last
  places (``ties="share"``, as in ReliefF), so that each update is the
  expectation of the update over a random tie-break, given the weights
  so far.
* dReliefF has no estimate for its first reference; it uses all-ones weights
  there (plain ReliefF distance), which is also f(w, 0) = 1 of pdReliefF.
* Negative estimates are clipped to 0 before they enter the distance
  (``clip_negative=True``); a negative distance weight would reward
  differences.  The paper is silent on this.
* f is evaluated as ``w r + (1 - r)`` with ``r = c / (c + s)`` (r = 0 at
  t = 0), the same function as eq. 3.3, written so that the limits are exact
  in floating point: s = 0 gives r = 1 and f = w (dReliefF), an infinite (or
  huge) s gives r = 0 and f = 1 (ReliefF).
"""
import numpy as np

from ..engines import kernels, preparation
from ..errors import ReliefInputError
from .estimators import prepared
from ..options import (DIFF, K_RELIEFF, RANDOM_STATE, T_DIFF, T_EQ, TIES,
                       Interval, PositiveInt, check_distance_weights)
from ..validation import validated

#: Defaults of pdReliefF (Prat & Belanche 2006, section 3.1): c(t) = (t/m)^2
#: and the s that leaves 1/3 of the area below f (eq. 3.5, see solve_s).
DEFAULT_EXPONENT = 2.0
DEFAULT_S = 0.0633657


def _check_exponent_s(exponent, s):
    """pdReliefF's a (finite, >= 0) and s (>= 0; inf allowed: ReliefF)."""
    Interval(0)("a", exponent)
    if s != np.inf:
        Interval(0)("s", s)


def double_weights(data, refs, k_nearest, distance_weights, *, clip_negative,
                   exponent, s, ties=TIES, progress_callback=None):
    """(p)dReliefF weights of prepared data (``s < 0``: dReliefF).

    Parameters
    ----------
    data : PreparedData
    refs : int array (m,)
        Reference instances, processed in this order.
    k_nearest : int
    distance_weights : float array (a,) or None
        Fixed weights multiplied into the learned ones (None: all ones).
    clip_negative : bool
    exponent, s : float
        a and s of pdReliefF; s < 0 selects dReliefF.
    ties : "share" or "lower-index"
        The places of the candidates at the k-th distance
        (:mod:`..formulas.ties`).
    progress_callback : callable(float) or None
        Called with the fraction of references done; may raise to stop.
    """
    n_attrs = data.exact.values.shape[0]
    k = min(k_nearest, data.n_instances)  # all of them
    fixed = check_distance_weights(distance_weights, n_attrs)
    fixed = np.ones(n_attrs) if fixed is None else fixed
    refs = np.ascontiguousarray(refs, dtype=np.int64)
    return kernels(data.engine).double_relieff(
        data, refs, k, fixed, clip_negative, float(exponent), float(s),
        ties, progress_callback)


def content_ranks(values):
    """The rank of each instance's content among the distinct contents of
    `values` (attributes by instances): by the value of each attribute in
    column order, a missing value after every known one; equal contents
    share a rank."""
    by_content = np.lexsort(values[::-1])
    ordered = values[:, by_content]
    after, before = ordered[:, 1:], ordered[:, :-1]
    same = (after == before) | (np.isnan(after) & np.isnan(before))
    ranks = np.empty(values.shape[1], np.int64)
    ranks[by_content] = np.concatenate([[0], np.cumsum(~same.all(axis=0))])
    return ranks


def content_order(data):
    """Every instance of prepared `data` in the order of its content: by
    class, then by its content (:func:`content_ranks`).  The classes come
    in the order of their contents, not of their codes: each class's
    sorted list of contents, compared as sequences, so that other class
    codes give the same order.  Instances of equal content (identical
    rows of one class), and classes of equal lists, keep their order,
    which changes nothing: either's update is the other's."""
    ranks = content_ranks(data.exact.values)
    classes = np.unique(data.groups)
    lists = [tuple(np.sort(ranks[data.groups == g])) for g in classes]
    place = np.empty(classes.max() + 1, np.int64)
    place[classes[sorted(range(len(classes)), key=lists.__getitem__)]] = (
        np.arange(len(classes)))
    return np.lexsort((ranks, place[data.groups]))


def _prepared(X, y, discrete, n_iterations, random_state, diff, t_eq, t_diff):
    """The prepared data and the references: drawn, or every instance in
    the order of its content (:func:`content_order`)."""
    data, refs, _ = prepared(X, y, discrete, n_iterations, random_state,
                             task="classification", diff=diff, t_eq=t_eq,
                             t_diff=t_diff, parts=(preparation.DOUBLE,))
    if n_iterations is None:
        refs = content_order(data)
    return data, refs


@validated
def drelieff(X, y, discrete=None, *, k_nearest=K_RELIEFF, n_iterations=None,
             random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
             distance_weights=None, clip_negative=True, ties=TIES,
             progress_callback=None):
    """Double ReliefF (dReliefF): ReliefF that searches neighbours with its
    own current weight estimates as attribute weights (Prat & Belanche 2006,
    section 3, eq. 3.1).

    References R_0, ..., R_(m-1) are processed in order (every instance:
    in the order of its content, :func:`content_order`).  For R_t, the
    distance weight of attribute A is the estimate W[A]_t = (sum of the
    first t updates) / t, i.e. the weights the algorithm would return if it
    stopped before R_t.  R_0 has no estimate: it uses all-ones weights (the
    plain ReliefF distance).  Each reference's update is ReliefF's (Fig. 2)
    and the result is their mean, as in ReliefF.

    Parameters
    ----------
    X, y, discrete, k_nearest, n_iterations, random_state, diff, t_eq, t_diff
        As in :func:`orangecontrib.relief.core.relieff` (RELIEF-D missing
        values, mixed types).
    distance_weights : array (a,) or None
        Fixed, non-negative weights multiplied into the learned distance
        weights (None: all ones, as in the paper).
    clip_negative : bool
        Clip negative estimates to 0 inside the distance (default).  The
        paper is silent on negative estimates; unclipped, a negative weight
        makes a difference in that attribute bring instances *closer*.
    ties : "share" or "lower-index"
        The candidates at the k-th distance: "share" (default) gives each
        of the t tied r / t of the r places left, the expectation over a
        random tie-break; "lower-index" gives them to the lower indices
        (:mod:`..formulas.ties`).
    progress_callback : callable(float) or None
        Receives the fraction of references done; may raise to stop.

    Returns
    -------
    float64 array (a,)

    References
    ----------
    Prat Masramon, G., Belanche Munoz, L. A. (2006). Double Relief with
    progressive weighting function, section 3.
    """
    data, refs = _prepared(X, y, discrete, n_iterations, random_state, diff,
                           t_eq, t_diff)
    return double_weights(data, refs, k_nearest, distance_weights,
                          clip_negative=clip_negative,
                          exponent=DEFAULT_EXPONENT, s=-1.0, ties=ties,
                          progress_callback=progress_callback)


@validated
def pdrelieff(X, y, discrete=None, *, k_nearest=K_RELIEFF, n_iterations=None,
              random_state=RANDOM_STATE, diff=DIFF, t_eq=T_EQ, t_diff=T_DIFF,
              distance_weights=None, a=DEFAULT_EXPONENT, s=DEFAULT_S,
              clip_negative=True, ties=TIES, progress_callback=None):
    """Progressively weighted double ReliefF (pdReliefF), Prat & Belanche
    (2006), section 3.1.

    As :func:`drelieff`, but reference R_t (t = 0 .. m-1, the number of
    references already processed) weights attribute A in the distance by
    (eq. 3.2-3.4)::

        f(w, t) = (w - 1) c(t) / (c(t) + s) + 1,   c(t) = (t / m)^a

    with w = W[A]_t the current estimate (negative estimates clipped to 0
    when `clip_negative`).  At t = 0, c = 0 and f = 1: the first reference
    uses the plain ReliefF distance.  ``s = 0`` is exactly dReliefF;
    ``s = numpy.inf`` (or any s so large that c / (c + s) underflows next
    to 1) is exactly ReliefF.

    Parameters
    ----------
    a : float >= 0
        Exponent of c(t) (default 2, as in the paper).
    s : float >= 0
        Steepness (default 0.0633657: 1/3 of the area below f, eq. 3.5;
        see :func:`solve_s`).

    Other parameters, returns: as :func:`drelieff`.

    References
    ----------
    Prat Masramon, G., Belanche Munoz, L. A. (2006). Double Relief with
    progressive weighting function, section 3.1, eq. 3.2-3.5.
    """
    _check_exponent_s(a, s)
    data, refs = _prepared(X, y, discrete, n_iterations, random_state, diff,
                           t_eq, t_diff)
    return double_weights(data, refs, k_nearest, distance_weights,
                          clip_negative=clip_negative, exponent=a, s=s,
                          ties=ties, progress_callback=progress_callback)


# --- eq. 3.5 --------------------------------------------------------------

def _gauss_legendre(func, low, high, nodes, weights):
    mid, half = (low + high) / 2, (high - low) / 2
    return half * np.sum(weights * func(mid + half * nodes))


def area_below(s, a, m=None):
    """Left side of eq. 3.5: the fraction of the area between w and 1 that
    lies between w and f(w, t), over the run of the algorithm.

    Since f(w, t) - w = (1 - w) s / (c(t) + s), the fraction does not depend
    on w (for w != 1)::

        m = None:  integral_0^1 s / (u^a + s) du           (u = t / m)
        m given:   1/(m - 1) integral_1^m s / ((t/m)^a + s) dt  (eq. 3.5 as
                   printed, which depends on m)

    The paper's s = 0.0633657 for a = 2 and 1/3 is the first (the limit of
    the second for large m; for a = 2 it is sqrt(s) arctan(1 / sqrt(s))).
    """
    if s <= 0:
        return 0.0
    if np.isinf(s):
        return 1.0
    nodes, weights = np.polynomial.legendre.leggauss(40)
    low = 0.0 if m is None else 1.0 / m
    # the integrand changes on the scale s^(1/a) near 0: geometric panels
    scale = max(s ** (1.0 / a) if a > 0 else 1.0, 1e-12)
    edges = np.unique(np.clip(np.concatenate(
        [[low], scale * np.logspace(-6, 6, 97), [1.0]]), low, 1.0))
    integrand = lambda u: s / (u ** a + s)  # noqa: E731
    total = sum(_gauss_legendre(integrand, lo, hi, nodes, weights)
                for lo, hi in zip(edges[:-1], edges[1:]) if hi > lo)
    return total / (1.0 - low)


def solve_s(a=DEFAULT_EXPONENT, area_fraction=1 / 3, *, m=None):
    """The s of pdReliefF that leaves `area_fraction` of the area below f
    (Prat & Belanche 2006, eq. 3.5).

    Eq. 3.5 asks ``(int f dt - int w dt) / (int 1 dt - int w dt) = 1/3``.
    As f - w = (1 - w) s / (c(t) + s), w cancels: the equation is
    ``F(s) = 1/3`` with F = :func:`area_below`, which increases in s from
    0 to 1.  Read with u = t / m over [0, 1] (m = None, the default) it
    gives the paper's s = 0.0633657 for a = 2; the printed bounds 1..m make
    F depend on m as well (pass `m` for that reading: m = 100 gives 0.0665).

    Parameters
    ----------
    a : float > 0
        Exponent of c(t) = (t / m)^a.
    area_fraction : float in (0, 1)
        The fraction of the area between w and 1 left below f (1/3 in the
        paper).
    m : int or None
        Number of iterations for the literal 1..m bounds; None: the limit.

    Returns
    -------
    float
    """
    area_fraction = Interval(0, 1, open=True)("area_fraction", area_fraction)
    a = Interval(0, open=True)("a", a)
    if m is not None and PositiveInt()("m", m) < 2:
        raise ReliefInputError(f"m must be at least 2, got {m!r}.")
    low, high = -60.0, 60.0  # bisection on log(s): F is increasing in s
    for _ in range(200):
        mid = (low + high) / 2
        if area_below(np.exp(mid), a, m) < area_fraction:
            low = mid
        else:
            high = mid
        if high - low < 1e-13:
            break
    return float(np.exp((low + high) / 2))

"""Slow, literal dReliefF and pdReliefF (Prat & Belanche 2006, section 3).

An independent check of ``orangecontrib.relief.core.variants.double``, written as the
paper reads, on top of the literal diff / distance / nearest-neighbour
functions of :mod:`tests.reference.relief` (Python floats, no numba).  The
choices the paper leaves open are the ones documented in ``core/variants/double.py``:

* reference number t = 0, 1, ..., m-1 (t = references already processed);
* W[A]_t = (sum of the first t ReliefF updates) / t;
* f(w, t) = w (dReliefF) or (w - 1) c(t) / (c(t) + s) + 1 with
  c(t) = (t / m)^a (pdReliefF, eq. 3.3-3.4), and f = 1 at t = 0;
* negative estimates clipped to 0 before f when clip_negative, and an
  estimate within (t n + 4) eps of 0 (n instances) taken as 0, the bound
  of the rounding of its sums: an update that is 0 (-1 + 1, every diff
  1) rounds to a residue of either sign, which would split the candidates
  that a weight of 0 leaves tied;
* every instance a reference (n_iterations None): in the order of its
  content, by class and then by each attribute's value in column order
  (a missing value after the known ones), equal rows in index order;
* the neighbours' places shared where distances tie, as ReliefF's
  (:func:`tests.reference.relief.neighbours`).
"""
import math
from tests.reference import relief as ref

EPS = 2.0 ** -52  # float64's machine epsilon


def _f(mode, w, t, m, a, s):
    """The distance weight of an attribute whose estimate is w."""
    if t == 0:
        return 1.0
    if mode == "double":
        return w
    c = (t / m) ** a
    return (w - 1.0) * c / (c + s) + 1.0


def content_order(ctx):
    """Every instance, by class and then by its values in column order
    (missing ones last), equal ones by index; the classes in the order of
    their sorted lists of contents, whatever their codes."""
    def content(i):
        return tuple((math.isnan(v), 0.0 if math.isnan(v) else v)
                     for v in ctx.X[i])

    def contents(c):
        return sorted(content(i) for i in range(ctx.n) if ctx.group[i] == c)

    place = {c: p for p, c in enumerate(sorted(set(ctx.group), key=contents))}
    return sorted(range(ctx.n), key=lambda i: (place[ctx.group[i]],)
                  + content(i))


def double_relieff(X, y, discrete=None, *, mode="double", k_nearest=10,
                   n_iterations=None, random_state=0, diff="linear",
                   t_eq=0.04, t_diff=0.10, distance_weights=None,
                   clip_negative=True, a=2.0, s=0.0633657, ties="share"):
    """dReliefF (mode="double") or pdReliefF (mode="progressive")."""
    ctx, _ = ref.prepare(X, y, discrete, diff, t_eq, t_diff,
                         distance_weights, regression=False)
    fixed = list(ctx.weights)
    n, n_attrs = ctx.n, ctx.a
    classes = sorted(set(ctx.group))
    prior = {c: sum(1 for i in range(n) if ctx.group[i] == c) / n
             for c in classes}
    refs = (content_order(ctx) if n_iterations is None
            else ref.references(n, n_iterations, random_state))
    m = len(refs)
    total = [0.0] * n_attrs          # sum of the updates so far
    for t, R in enumerate(refs):
        # eq. 3.1 / 3.2: the distance weights from the current estimate
        for A in range(n_attrs):
            w = total[A] / t if t > 0 else 0.0
            if abs(w) <= (t * n + 4) * EPS or (clip_negative and w < 0):
                w = 0.0         # 0 as far as the rounding of the sums tells
            ctx.weights[A] = fixed[A] * _f(mode, w, t, m, a, s)
        # ReliefF's neighbours and update (Fig. 2) under those weights
        cR = ctx.group[R]
        hits = ref.neighbours(
            R, [i for i in range(n) if ctx.group[i] == cR], k_nearest, ctx,
            ties)
        misses = {C: ref.neighbours(R, [i for i in range(n)
                                        if ctx.group[i] == C], k_nearest,
                                    ctx, ties)
                  for C in classes if C != cR}
        for A in range(n_attrs):
            update = 0.0
            if hits:
                update -= (sum(share * ref.diff(A, R, H, ctx)
                               for H, share, _ in hits) / ref.filled(hits))
            for C, found in misses.items():
                mean = (sum(share * ref.diff(A, R, M, ctx)
                            for M, share, _ in found) / ref.filled(found))
                update += prior[C] / (1.0 - prior[cR]) * mean
            total[A] += update
    return [w / m for w in total]


def drelieff(X, y, discrete=None, **options):
    return double_relieff(X, y, discrete, mode="double", **options)


def pdrelieff(X, y, discrete=None, **options):
    return double_relieff(X, y, discrete, mode="progressive", **options)

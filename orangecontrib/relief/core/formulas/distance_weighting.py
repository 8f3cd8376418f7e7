"""The distance weights of double ReliefF and progressively weighted double
ReliefF (Prat & Belanche 2006, eq. 3.1-3.4): f(W[A]_t, t), the running
estimate turned into a weight of the distance.  Plain Python: the compiled
engine compiles it, the vectorised engine calls it as it is, so that both
compute the same float operations.
"""


def distance_weights_at(weights, total, t, m, fixed, clip, exponent, s):
    """weights[A] = fixed[A] * f(W[A]_t, t), W_t = total / t (eq. 3.1-3.3),
    into `weights` (float32 in both engines).

    f(w, t) = w r + 1 - r with r(t) = c(t) / (c(t) + s), c(t) = (t / m)^a
    (`exponent`); ``s < 0`` selects dReliefF (r = 1, f = w); s = inf gives
    r = 0 (ReliefF); at t = 0 both variants use f = 1.  Plain Python: the
    compiled engine compiles it (:mod:`..engines.compiled.rules.double`),
    the vectorised one calls it as it is, so both compute the same float
    operations.
    """
    if s < 0:
        r = 1.0
    elif t == 0:
        r = 0.0
    else:
        c = (t / m) ** exponent
        r = c / (c + s)
    for a in range(weights.shape[0]):
        if t == 0:
            f = 1.0
        else:
            w = total[a] / t
            if clip and w < 0:
                w = 0.0
            f = w * r + (1.0 - r)
        weights[a] = fixed[a] * f

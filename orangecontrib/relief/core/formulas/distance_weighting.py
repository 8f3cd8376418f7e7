"""The distance weights of double ReliefF and progressively weighted double
ReliefF (Prat & Belanche 2006, eq. 3.1-3.4): f(W[A]_t, t), the running
estimate turned into a weight of the distance.  Plain Python: the compiled
engine compiles it, the vectorised engine calls it as it is, so that both
compute the same float operations.
"""

#: float64's machine epsilon (2^-52)
EPSILON = 2.0 ** -52


def distance_weights_at(weights, total, t, m, n, fixed, clip, exponent,
                        s):
    """weights[A] = fixed[A] * f(W[A]_t, t), W_t = total / t (eq. 3.1-3.3),
    into `weights` (float32 in both engines); `n` is the number of
    instances.

    An estimate within (t n + 4) eps of 0 counts as 0: it is 0 as far as
    its sums can tell (typically an attribute whose diffs to a
    reference's neighbours are all 1, whose update -1 + 1 is 0 but rounds
    to a residue of either sign), and a residue would split the
    candidates that an attribute weight of 0 leaves tied at equal
    distances, in an order set by the rounding of the sums.  The bound:
    W[A]_t is the mean of t ReliefF updates, each a sum of at most n - 1
    terms (a neighbour's coefficient times its share times its diff)
    whose absolute values add up to at most 2 (1 for the hits, 1 for the
    misses).  Summed in any order, the t (n - 1) terms err by at most
    (t (n - 1) - 1) eps / 2 times the sum of their absolute values, each
    term by a few eps / 2 relatively (Higham 2002, section 4.2).

    f(w, t) = w r + 1 - r with r(t) = c(t) / (c(t) + s), c(t) = (t / m)^a
    (`exponent`); ``s < 0`` selects dReliefF (r = 1, f = w); s = inf gives
    r = 0 (ReliefF); at t = 0 both variants use f = 1.  Plain Python: the
    compiled engine compiles it (:mod:`..engines.compiled.rules.double`),
    the vectorised one calls it as it is, so both compute the same float
    operations.
    """
    bound = (t * n + 4) * EPSILON
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
            if abs(w) <= bound or (clip and w < 0):
                w = 0.0
            f = w * r + (1.0 - r)
        weights[a] = fixed[a] * f

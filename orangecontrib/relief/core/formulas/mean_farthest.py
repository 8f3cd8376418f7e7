"""mu-Relief's neighbourhood: the instances farthest from their class's
mean distance, the definition both engines share.

mu-Relief (Aggarwal et al. 2023, "Mean based relief: an improved
feature selection method based on ReliefF", Applied Intelligence 53; as
scikit-rebate 0.8, UrbsLab, ``skrebate/murelief.py``, implements it)
keeps ReliefF's update and changes whom it reads.  For a reference R and
each class c, let mu_c(R) be the mean distance from R to the instances of
c other than R::

    mu_c(R) = (1 / |c - {R}|) sum_{j in c, j != R} D(R, j)

Each instance j of class c is ranked by its deviation |D(R, j) -
mu_c(R)|, the largest first: R's "neighbours" of class c are the k
instances whose distance lies farthest from their class's mean, nearer
or farther than it.  The update is then ReliefF's over those k hits and
k misses of each other class.

:func:`class_mean_deviations` is plain Python on one reference's row of
distances: the compiled engine compiles it as it is, the vectorised
engine computes the same floats with numpy (the sums added in instance
order, :func:`..engines.vectorised.sums.in_order`), so that both rank the
same deviations.
"""
import math


def class_mean_deviations(dist, groups, n_groups, own, sums, counts, out):
    """out[j] = |dist[j] - mu_g(j)|, the deviation of each instance's
    distance `dist[j]` from the mean distance of its group ``groups[j]``
    to the reference, over the group's instances but the reference (`own`,
    whose entry is 0, the deviation scikit-rebate 0.8 gives it).  The
    distances of a group are added in instance order; a group with no
    other instance has mean 0.  `sums` and `counts` (n_groups,) are
    scratch."""
    for g in range(n_groups):
        sums[g] = 0.0
        counts[g] = 0
    for j in range(len(dist)):
        if j != own:
            sums[groups[j]] += dist[j]
            counts[groups[j]] += 1
    for g in range(n_groups):
        if counts[g] > 0:
            sums[g] = sums[g] / counts[g]
    for j in range(len(dist)):
        out[j] = 0.0 if j == own else math.fabs(dist[j] - sums[groups[j]])

"""Known answers: what Relief-style estimates are supposed to find.

* XOR: ReliefF finds the two interacting attributes, a myopic impurity
  measure (Orange's InfoGain) cannot.
* Friedman #1 regression: RReliefF ranks the five relevant attributes above
  the irrelevant ones.
* Myopic ReliefF (paper 000, eq. 2.6-2.8): with k covering whole classes,
  ReliefF on nominal attributes equals the modified-Gini expression up to
  an O(1/n) term, which is derived exactly below.
* RELIEF-D missing values (paper 000, eq. 2.5) versus Orange's built-in
  ReliefF, which uses the probability of an *equal* value (P) where the
  paper uses the probability of a *different* value (1 - P).
"""
import numpy as np
import pytest
from numpy.testing import assert_allclose

import reference as ref

core = pytest.importorskip("orangecontrib.relief.core")
Orange = pytest.importorskip("Orange")
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table  # noqa: E402
from Orange.preprocess import score as orange_score  # noqa: E402


def _binary_table(X, y):
    domain = Domain(
        [DiscreteVariable(f"x{i + 1}", values=("0", "1"))
         for i in range(X.shape[1])],
        DiscreteVariable("cls", values=("0", "1")))
    return Table.from_numpy(domain, X, y)


# ------------------------------------------------------------------ XOR ----

def binary_xor(n=320, n_noise=8, seed=0):
    """class = x1 xor x2; every (x1, x2) combination exactly n/4 times, so
    that x1 and x2 are each exactly independent of the class."""
    rng = np.random.default_rng(seed)
    base = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * (n // 4), dtype=float)
    noise = rng.integers(0, 2, size=(n, n_noise)).astype(float)
    X = np.hstack([base, noise])
    y = (X[:, 0] != X[:, 1]).astype(float)
    perm = rng.permutation(n)
    return X[perm], y[perm]


@pytest.mark.parametrize("seed", [0, 1])
def test_xor_binary_relieff_finds_both_infogain_does_not(seed):
    X, y = binary_xor(seed=seed)
    W = core.relieff(X, y, np.ones(X.shape[1], dtype=bool), k_nearest=10)
    top2 = set(np.argsort(-W, kind="stable")[:2])
    assert top2 == {0, 1}, W
    assert min(W[0], W[1]) > max(W[2:]) + 0.2

    ig = np.asarray(orange_score.InfoGain()(_binary_table(X, y)))
    # each of x1, x2 alone carries no information about x1 xor x2
    assert abs(ig[0]) < 1e-12 and abs(ig[1]) < 1e-12, ig
    assert set(np.argsort(-ig, kind="stable")[:2]) != {0, 1}, ig
    assert max(ig[2:]) > max(ig[0], ig[1]), ig


@pytest.mark.parametrize("seed", [0, 1])
def test_xor_continuous_relieff(seed):
    rng = np.random.default_rng(100 + seed)
    n = 400
    X = rng.random((n, 10))        # x1, x2 relevant, 8 uniform noise columns
    y = ((X[:, 0] > 0.5) != (X[:, 1] > 0.5)).astype(float)
    W = core.relieff(X, y, k_nearest=10)
    assert set(np.argsort(-W, kind="stable")[:2]) == {0, 1}, W
    assert min(W[0], W[1]) > max(W[2:])


# ----------------------------------------------------------- Friedman #1 ----

@pytest.mark.parametrize("seed", [0, 1])
def test_friedman1_rrelieff(seed):
    rng = np.random.default_rng(seed)
    n = 600
    X = rng.random((n, 10))        # x1..x5 relevant, x6..x10 irrelevant
    y = (10 * np.sin(np.pi * X[:, 0] * X[:, 1]) + 20 * (X[:, 2] - 0.5) ** 2
         + 10 * X[:, 3] + 5 * X[:, 4] + rng.normal(size=n))
    W = core.rrelieff(X, y, k_nearest=50)
    assert np.all(np.isfinite(W))
    assert W[:5].min() > W[5:].max(), W


# ------------------------------------------------------------ myopic -------
#
# With k >= n every instance of R's class except R is a hit and every
# instance of class C is a miss, so the neighbourhood no longer matters and
# ReliefF weighs each nominal attribute A on its own. For a reference R in
# class c with value x (n_c instances in c, n_xc of them with value x):
#     mean hit diff       = (n_c - n_xc) / (n_c - 1)   (without R itself)
#     mean miss diff in C = 1 - P(x|C)
# Eq. 2.6-2.8 assume sampling WITH replacement, i.e. a mean hit diff of
# 1 - P(x|c) = (n_c - n_xc) / n_c. The difference per reference is
#     (n_c - n_xc) / (n_c (n_c - 1)) = (1 - P(x|c)) / (n_c - 1),
# so, averaging over all references (n_iterations=None),
#     W_ReliefF = W_with_replacement - (1 - sum_c P(c) sum_x P(x|c)^2) / (n_c - 1)
# and 0 <= W_with_replacement - W_ReliefF <= 1 / (n_c - 1) = O(1/n).
# With balanced classes (P(c) = 1/C, hence 1 - P(class(R)) = 1 - P_samecl)
# the with-replacement ReliefF average equals the pair probability
# difference of eq. 2.4 without the neighbour condition, which is eq. 2.6
# and, by eq. 2.7/2.8, W' = P_eqval GG'(A) / (P_samecl (1 - P_samecl)),
# all with the plug-in (empirical) probabilities. (With unbalanced classes
# ReliefF weights the classes by P(c) and not by P(c)^2 / P_samecl, and the
# two differ even for n -> infinity; the check therefore uses balanced
# classes.) Replicating the same base table t times keeps the empirical
# distribution, hence W', fixed while n grows, so the error must shrink
# exactly like 1 / (n_c - 1).

MYOPIC_DESIGNS = {
    # per class: counts of values 0, 1, ... among 10 instances
    "two classes": [
        [[8, 2], [1, 9]],                   # strongly relevant
        [[5, 3, 2], [2, 3, 5]],             # weaker, three values
        [[4, 4, 2], [4, 4, 2]],             # independent of the class
        [[4, 3, 2, 1], [1, 2, 3, 4]],       # four values
    ],
    "three classes": [
        [[8, 1, 1], [1, 8, 1], [1, 1, 8]],
        [[6, 4], [5, 5], [2, 8]],
        [[3, 3, 4], [3, 3, 4], [3, 3, 4]],
    ],
}


def myopic_data(design, t, seed):
    rng = np.random.default_rng(seed)
    n_classes = len(design[0])
    per_class = 10 * t
    y = np.repeat(np.arange(n_classes, dtype=float), per_class)
    X = np.empty((len(y), len(design)))
    for A, counts in enumerate(design):
        for c in range(n_classes):
            col = np.repeat(np.arange(len(counts[c]), dtype=float),
                            np.array(counts[c]) * t)
            X[y == c, A] = rng.permutation(col)
    perm = rng.permutation(len(y))
    return X[perm], y[perm]


@pytest.mark.parametrize("name", list(MYOPIC_DESIGNS))
def test_myopic_relieff_gini(name):
    design = MYOPIC_DESIGNS[name]
    errors, myopic = [], None
    for t in (3, 30):                       # n_c = 30 and 300
        X, y = myopic_data(design, t, seed=t)
        n, a = X.shape
        n_c = n // len(design[0])
        W = core.relieff(X, y, np.ones(a, dtype=bool), k_nearest=n)
        Wm = np.array([ref.myopic_relieff(list(X[:, A]), list(y))
                       for A in range(a)])
        if myopic is None:
            myopic = Wm
        # the same empirical distribution at both sizes
        assert_allclose(Wm, myopic, atol=1e-12)
        # the exact finite-sample relation derived above
        correction = np.empty(a)
        for A in range(a):
            s = 0.0
            for c in np.unique(y):
                xs = X[y == c, A]
                s += np.mean(y == c) * sum(np.mean(xs == v) ** 2
                                           for v in np.unique(xs))
            correction[A] = (1 - s) / (n_c - 1)
        assert_allclose(W, Wm - correction, atol=1e-9, rtol=0)
        # the O(1/n) bound
        err = np.abs(W - Wm)
        assert np.all(err <= 1 / (n_c - 1) + 1e-12)
        errors.append(err.max())
    # the error shrinks like 1/(n_c - 1): 29 -> 299
    assert errors[1] < errors[0] / 5
    assert_allclose(errors[1] / errors[0], 29 / 299, rtol=1e-6)
    # the independent attribute has W' = 0, the strongest is on top
    assert abs(myopic[2]) < 1e-12
    assert np.argmax(myopic) == 0


# ------------------------------------------- RELIEF-D versus Orange's one ----
#
# Orange's built-in ReliefF (Orange/preprocess/_relieff.pyx, calc_difference)
# replaces a nominal missing value by val = cont[v, class] = P(v | class),
# and for two missing values by sum_v P(v|c1) P(v|c2): a probability of
# EQUAL values, where RELIEF-D (paper 000, eq. 2.5) uses the probability of
# a DIFFERENT value, 1 - P(...). (Its P also counts a missing row as one
# occurrence of every value.)
#
# Design: attribute M equals the class where known and is missing in half
# of the rows of each class. Under RELIEF-D, P(v|c) = [v == c], so every
# diff of M - known or missing - is exactly [class(I1) != class(I2)]: each
# hit contributes 0 and each miss 1, and W[M] = 1 exactly, whatever the
# neighbours are. Orange's version gives P(c|c) = 2/3 to a pair with one
# missing value for hits and misses alike, and 5/9 (hit) vs 4/9 (miss) to
# two missing values, which pulls W[M] down to about 0.25.

def missing_design(seed=1, n=200, n_noise=4):
    rng = np.random.default_rng(seed)
    y = np.repeat([0.0, 1.0], n // 2)
    M = y.copy()
    for c in (0, 1):
        rows = np.flatnonzero(y == c)
        M[rng.choice(rows, size=len(rows) // 2, replace=False)] = np.nan
    noise = rng.integers(0, 2, size=(n, n_noise)).astype(float)
    X = np.column_stack([M, noise])
    perm = rng.permutation(n)
    return X[perm], y[perm]


def test_relief_d_missing_values_differ_from_orange_builtin():
    X, y = missing_design()
    discrete = np.ones(X.shape[1], dtype=bool)
    ours = core.relieff(X, y, discrete, k_nearest=10)
    paper = ref.relieff(X, y, discrete, k_nearest=10)
    assert_allclose(ours, paper, atol=1e-6, rtol=0)
    assert ours[0] == pytest.approx(1.0, abs=1e-12)
    # the same with sampled references (random sampling cannot matter here)
    sampled = core.relieff(X, y, discrete, k_nearest=10, n_iterations=100,
                           random_state=5)
    assert sampled[0] == pytest.approx(1.0, abs=1e-12)

    table = _binary_table(X, y)
    for seed in range(3):
        builtin = np.asarray(orange_score.ReliefF(
            n_iterations=200, k_nearest=10, random_state=seed)(table))
        # a large, unambiguous gap for the attribute with missing values
        assert builtin[0] < 0.5, builtin
        assert ours[0] - builtin[0] > 0.5


def test_rrelieff_on_orange_scale_data_is_finite():
    """A regression table built the Orange way (sanity: the core accepts
    Orange's X and Y arrays as they are)."""
    rng = np.random.default_rng(3)
    X = rng.random((60, 3))
    y = X[:, 0] + 0.1 * rng.random(60)
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(3)],
                    ContinuousVariable("y"))
    table = Table.from_numpy(domain, X, y)
    W = core.rrelieff(table.X, table.Y, k_nearest=10)
    assert np.all(np.isfinite(W)) and np.argmax(W) == 0

"""Known answers: what Relief-style estimates are supposed to find.

* XOR: ReliefF finds the two interacting attributes (a myopic impurity
  measure cannot: tests/orange/test_builtin_scorers.py).
* Friedman #1 regression: RReliefF ranks the five relevant attributes above
  the irrelevant ones.
* Myopic ReliefF (Prat & Belanche 2006, eq. 2.6-2.8): with k covering whole
  classes, ReliefF on nominal attributes equals the modified-Gini
  expression up to an O(1/n) term, which is derived exactly below.
* RELIEF-D missing values (Prat & Belanche 2006, eq. 2.5): an attribute
  equal to the class where known is worth exactly 1, missing values or not
  (Orange's built-in ReliefF differs: tests/orange/test_builtin_scorers.py).

Every answer is checked on both engines.
"""
import numpy as np
import pytest
from numpy.testing import assert_allclose

from orangecontrib.relief import core
from orangecontrib.relief.core.engines import ENGINES, forced
from tests.core.known_problems import binary_xor, missing_design
from tests.reference import relief as ref


@pytest.fixture(autouse=True, params=ENGINES)
def engine(request):
    """Every test of the module, on each engine."""
    with forced(request.param):
        yield request.param


# ------------------------------------------------------------------ XOR ----

@pytest.mark.parametrize("seed", [0, 1])
def test_xor_binary_relieff_finds_both(seed):
    X, y = binary_xor(seed=seed)
    W = core.relieff(X, y, np.ones(X.shape[1], dtype=bool), k_nearest=10)
    top2 = set(np.argsort(-W, kind="stable")[:2])
    assert top2 == {0, 1}, W
    assert min(W[0], W[1]) > max(W[2:]) + 0.2


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


# ------------------------------------------------------------ RELIEF-D ----

def test_relief_d_attribute_equal_to_the_class_is_worth_one():
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

"""Data sets whose Relief weights are known in advance (shared by the core's
known-answer tests and the comparisons with Orange's built-in scorers)."""
import numpy as np


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


def missing_design(seed=1, n=200, n_noise=4):
    """Attribute M (column 0) equals the class where known and is missing
    in half of the rows of each class; binary noise columns follow.

    Under RELIEF-D (Prat & Belanche 2006, eq. 2.5), P(v|c) = [v == c], so
    every diff of M - known or missing - is exactly [class(I1) !=
    class(I2)]: each hit contributes 0 and each miss 1, and W[M] = 1
    exactly, whatever the neighbours are.
    """
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

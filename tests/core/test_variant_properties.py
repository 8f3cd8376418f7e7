"""Invariances of the later variants, where they hold (the first ones,
Relief, ReliefF and RReliefF, are in test_properties.py).

* Row order, with every instance a reference: CDRelief, IWCDRelief and
  RFSM sum over all references, so the order of the rows does not matter.
  (dReliefF and pdReliefF process the references in order and learn on
  the way: their weights depend on it.)
* A positive affine rescaling of a numeric column changes no diff: every
  variant.
* Bounds: with the linear diff, each weight of dReliefF, pdReliefF and
  CDRelief, and RFSM's W_S, lies in [-1, 1].
"""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from orangecontrib.relief import core
from orangecontrib.relief.core.engines import forced

VARIANTS = {
    "dReliefF": lambda X, y: core.drelieff(X, y),
    "pdReliefF": lambda X, y: core.pdrelieff(X, y),
    "CDRelief": lambda X, y: core.cdrelief(X, y),
    "IWCDRelief": lambda X, y: core.iwcdrelief(X, y, threshold=0.3),
    "RFSM": lambda X, y: np.array([core.rfsm_value(X, y, [0, 1])]),
}
ORDER_FREE = ("CDRelief", "IWCDRelief", "RFSM")
BOUNDED = ("dReliefF", "pdReliefF", "CDRelief", "RFSM")

cases = st.tuples(st.integers(0, 2 ** 32 - 1), st.integers(12, 40),
                  st.integers(2, 5), st.sampled_from(list(VARIANTS)),
                  st.sampled_from(["compiled", "vectorised"]))


def data(seed, n, a):
    """Continuous data (ties improbable), 10 % missing, 2 or 3 classes."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    X[rng.random(X.shape) < 0.1] = np.nan
    y = (np.arange(n) % (2 + seed % 2)).astype(float)
    return X, y, rng


@settings(max_examples=25, deadline=None)
@given(cases)
def test_positive_affine_rescaling_of_a_column(case):
    seed, n, a, variant, engine = case
    X, y, rng = data(seed, n, a)
    rescaled = X.copy()
    rescaled[:, 0] = 3.5 * X[:, 0] - 12.0
    with forced(engine):
        np.testing.assert_allclose(VARIANTS[variant](rescaled, y),
                                   VARIANTS[variant](X, y), atol=1e-9)


@settings(max_examples=25, deadline=None)
@given(cases.filter(lambda case: case[3] in ORDER_FREE))
def test_row_order_does_not_matter(case):
    seed, n, a, variant, engine = case
    X, y, rng = data(seed, n, a)
    order = rng.permutation(n)
    with forced(engine):
        np.testing.assert_allclose(VARIANTS[variant](X[order], y[order]),
                                   VARIANTS[variant](X, y), atol=1e-9)


@settings(max_examples=25, deadline=None)
@given(cases.filter(lambda case: case[3] in BOUNDED))
def test_weights_within_minus_one_one(case):
    seed, n, a, variant, engine = case
    X, y, _ = data(seed, n, a)
    with forced(engine):
        weights = VARIANTS[variant](X, y)
    finite = weights[np.isfinite(weights)]
    assert (finite >= -1 - 1e-12).all() and (finite <= 1 + 1e-12).all()

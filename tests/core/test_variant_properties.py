"""Invariances of the variants, where they hold (those of Relief, ReliefF
and RReliefF in more detail are in test_properties.py).

* A positive affine rescaling of a numeric column changes no diff: every
  registered variant.  (The order of the rows changes no weight of any
  registered variant either: tests/core/test_ties.py.)
* Bounds: with the linear diff, each weight of dReliefF, pdReliefF and
  CDRelief, and RFSM's W_S, lies in [-1, 1].
"""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from orangecontrib.relief import core
from orangecontrib.relief.core.engines import forced
from orangecontrib.relief.core.registry import (CDRELIEF, DRELIEFF,
                                                IWCDRELIEF, PDRELIEFF)
from tests.variants import VARIANT_TASKS

#: the variants of the bounds property, and RFSM's W_S
VARIANTS = {
    "dReliefF": lambda X, y: DRELIEFF.weights(X, y),
    "pdReliefF": lambda X, y: PDRELIEFF.weights(X, y),
    "CDRelief": lambda X, y: CDRELIEF.weights(X, y),
    "IWCDRelief": lambda X, y: IWCDRELIEF.weights(X, y, threshold=0.3),
    "RFSM": lambda X, y: np.array([core.rfsm_value(X, y, [0, 1])]),
}
BOUNDED = ("dReliefF", "pdReliefF", "CDRelief", "RFSM")

cases = st.tuples(st.integers(0, 2 ** 32 - 1), st.integers(12, 40),
                  st.integers(2, 5), st.sampled_from(list(VARIANTS)),
                  st.sampled_from(["compiled", "vectorised"]))
registered = st.tuples(st.integers(0, 2 ** 32 - 1), st.integers(12, 40),
                       st.integers(2, 5), st.sampled_from(VARIANT_TASKS),
                       st.sampled_from(["compiled", "vectorised"]))


def data(seed, n, a):
    """Continuous data (ties improbable), 10 % missing, 2 or 3 classes."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    X[rng.random(X.shape) < 0.1] = np.nan
    y = (np.arange(n) % (2 + seed % 2)).astype(float)
    return X, y, rng


@settings(max_examples=40, deadline=None)
@given(registered)
def test_positive_affine_rescaling_of_a_column(case):
    seed, n, a, (variant, task), engine = case
    X, y, rng = data(seed, n, a)
    if task == "regression":
        y = rng.random(n)
    elif variant.n_classes is not None:
        y = y % variant.n_classes
    rescaled = X.copy()
    rescaled[:, 0] = 3.5 * X[:, 0] - 12.0
    with forced(engine):
        np.testing.assert_allclose(variant.weights(rescaled, y, task=task),
                                   variant.weights(X, y, task=task),
                                   atol=1e-9)


@settings(max_examples=25, deadline=None)
@given(cases.filter(lambda case: case[3] in BOUNDED))
def test_weights_within_minus_one_one(case):
    seed, n, a, variant, engine = case
    X, y, _ = data(seed, n, a)
    with forced(engine):
        weights = VARIANTS[variant](X, y)
    finite = weights[np.isfinite(weights)]
    assert (finite >= -1 - 1e-12).all() and (finite <= 1 + 1e-12).all()

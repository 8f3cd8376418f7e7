"""Invariances every registered variant keeps, on both engines, table-driven
over the registry (``tests/variants.py``):

* a constant attribute weighs exactly 0, whatever the other attributes
  hold (missing values among them);
* a positive affine rescaling of a numeric attribute changes no weight
  (to 1e-12): every diff is over the attribute's range;
* relabelling the classes (other codes for the same partition) changes no
  weight (to 1e-12);
* the same numbers given as float32 or as float64 give the same weights
  (to 1e-5).

Where a variant departs from one by definition, :data:`BY_DEFINITION`
says why and what it gives instead, and the test checks that.
"""
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from orangecontrib.relief.core.engines import ENGINES, forced
from tests.variants import (VARIANT_TASKS, each_variant_task,
                            matrix_options, variant_task_id)

CLASSIFYING = [(variant, task) for variant, task in VARIANT_TASKS
               if task == "classification"]

cases = st.tuples(st.integers(0, 2 ** 32 - 1), st.integers(12, 36),
                  st.integers(2, 5), st.sampled_from(ENGINES))
#: the same examples on every run (a failure is reproduced as it is)
EXAMPLES = settings(max_examples=6, deadline=None, derandomize=True)


def not_weighed(weights, column):
    """NPDR: no regression can be fitted on a diff that never varies."""
    return np.isnan(weights[column])


def ranked_by_rounds(weights, column):
    """TuRF: an attribute dropped in a round gets a score below every kept
    one (its rank, not a weight); kept, it weighs 0."""
    others = np.delete(weights, column)
    return weights[column] == 0 or weights[column] < others.max()


def a_gain(weights, column):
    """RFSM: the gain of the set measure when the greedy search added the
    attribute; the first one added gains from W(empty) = -1 (the min's
    identity over the hits), so a constant attribute that beats every
    single attribute's W (all negative) gains 1: a gain in [0, 1]."""
    return 0 <= weights[column] <= 1 + 1e-12


#: (variant, invariance) -> what the variant gives instead, by definition
BY_DEFINITION = {
    ("NPDR", "constant"): not_weighed,
    ("TuRF", "constant"): ranked_by_rounds,
    ("RFSM", "constant"): a_gain,
}


#: rescaling's tolerance where rounding reaches beyond 1e-12: RFSM's
#: measure of a numeric target sums rank-weighted pairs of every subset
#: the greedy search tries (weights near 1); NPDR's coefficient of a
#: target is a least-squares fit on the pairs' diffs, whose
#: rounding a rescaled column moves by 1e-12 to 2e-11; MultiSURF*'s
#: thresholds, a mean less half a deviation of the distances, by 2e-12
RESCALING_ATOL = {("RFSM", "regression"): 1e-11,
                  ("NPDR", "regression"): 1e-10,
                  ("NPDR", "classification"): 1e-11,
                  ("MultiSURF*", "classification"): 1e-11}


def data(seed, n, a, variant, task):
    """Numeric attributes (no ties), about 10 % missing, a nominal last
    one with three values; 2 or 3 classes (as many as the variant takes)
    or a numeric target."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    X[:, -1] = rng.integers(0, 3, n)
    X[rng.random(X.shape) < 0.1] = np.nan
    discrete = np.zeros(a, bool)
    discrete[-1] = True
    if task == "regression":
        y = rng.random(n)
    else:
        y = (np.arange(n) % (variant.n_classes or 2 + seed % 2)).astype(float)
        rng.shuffle(y)
    return X, y, discrete, rng


def weights(variant, task, engine, X, y, discrete):
    with forced(engine):
        return variant.weights(X, y, discrete, task=task,
                               **matrix_options(variant))


def close(got, expected, atol):
    np.testing.assert_allclose(got, expected, rtol=0, atol=atol)


@each_variant_task
@EXAMPLES
@given(case=cases)
# far sets without hits or without misses, where MultiSURF* once gave the
# constant attribute 1/m
@example(case=(0, 12, 3, "compiled"))
@example(case=(3, 12, 2, "vectorised"))
def test_a_constant_attribute_weighs_zero(variant, task, case):
    seed, n, a, engine = case
    X, y, discrete, rng = data(seed, n, a + 1, variant, task)
    column = int(rng.integers(a + 1))
    X[:, column] = 2.5 if not discrete[column] else 1
    X[rng.integers(n), (column + 1) % (a + 1)] = np.nan  # missing elsewhere
    got = weights(variant, task, engine, X, y, discrete)
    instead = BY_DEFINITION.get((variant.name, "constant"))
    if instead is not None:
        assert instead(got, column), got
    else:
        assert got[column] == 0, got


@each_variant_task
@EXAMPLES
@given(case=cases, scale=st.floats(1e-3, 1e3), shift=st.floats(-1e3, 1e3))
def test_rescaling_a_numeric_attribute(variant, task, case, scale, shift):
    seed, n, a, engine = case
    X, y, discrete, rng = data(seed, n, a + 1, variant, task)
    rescaled = X.copy()
    rescaled[:, 0] = scale * X[:, 0] + shift
    close(weights(variant, task, engine, rescaled, y, discrete),
          weights(variant, task, engine, X, y, discrete),
          RESCALING_ATOL.get((variant.name, task), 1e-12))


@pytest.mark.parametrize("variant, task", [
    pytest.param(variant, task, id=variant_task_id(variant, task))
    for variant, task in CLASSIFYING])
@EXAMPLES
@given(case=cases)
# double ReliefF once took its references class code by class code
@example(case=(0, 24, 3, "compiled"))
@example(case=(2, 24, 3, "vectorised"))
def test_relabelling_the_classes(variant, task, case):
    seed, n, a, engine = case
    X, y, discrete, rng = data(seed, n, a, variant, task)
    codes = rng.choice(10, size=3, replace=False).astype(float)
    close(weights(variant, task, engine, X, codes[y.astype(int)], discrete),
          weights(variant, task, engine, X, y, discrete), 1e-12)


@each_variant_task
@EXAMPLES
@given(case=cases)
def test_float32_and_float64_input(variant, task, case):
    seed, n, a, engine = case
    X, y, discrete, rng = data(seed, n, a, variant, task)
    X, y = X.astype(np.float32), y.astype(np.float32)
    close(weights(variant, task, engine, X, y, discrete),
          weights(variant, task, engine, X.astype(np.float64),
                  y.astype(np.float64), discrete), 1e-5)

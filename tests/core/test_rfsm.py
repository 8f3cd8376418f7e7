"""RFSM (Arauzo-Azofra, Benitez & Castro 2004): the core measure, on each
engine, against the slow literal reference (tests.reference.rfsm), its
incremental evaluation, monotonicity, and the neighbour option on
Parity3+3.

Data for the reference comparison: every data set has one numeric column of
generic random floats without missing values, so that (with the neighbours
searched on all attributes) distances almost never tie and float32 (the
compiled search) and float64 (reference) find the same neighbours; the other columns
are nominal with 2-4 values or numeric, with or without missing values.
The "within" mode, where the generic column is often left out, uses values
on the dyadic grid {0, 1/8, ..., 1} so that tied distances are exact ties.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orangecontrib.relief import core
from orangecontrib.relief.core import RFSM, ReliefInputError
from orangecontrib.relief.core.engines import COMPILED, ENGINES, forced
from orangecontrib.relief.core.engines.compiled import rfsm as rfsm_kernels
from orangecontrib.relief.core.engines.compiled.threads import (
    every_call_parallel)
from tests.core.engines import on_each_engine
from tests.reference import rfsm as slow

TOL = 1e-6


def mixed_data(seed, n=16, a=5, missing=0.0, task="classification",
               n_classes=3, grid=False):
    """(X, y, discrete): column 0 numeric generic (or grid) and complete,
    the others mixed nominal / numeric with a fraction `missing` of NaN."""
    rng = np.random.default_rng(seed)
    discrete = np.zeros(a, bool)
    discrete[1:] = rng.random(a - 1) < 0.5
    X = np.empty((n, a))
    for A in range(a):
        if discrete[A]:
            X[:, A] = rng.integers(0, rng.integers(2, 5), n)
        elif grid:
            X[:, A] = rng.integers(0, 9, n) / 8
        else:
            X[:, A] = rng.random(n)
    if missing:
        holes = rng.random((n, a)) < missing
        holes[:, 0] = False
        X[holes] = np.nan
    if task == "classification":
        y = np.arange(n) % n_classes
        rng.shuffle(y)
        y = y.astype(float)
    else:
        y = rng.random(n) * 10
    return X, y, discrete


def some_subsets(a, rng, count=6):
    subsets = [[], list(range(a))]
    for _ in range(count):
        size = rng.integers(1, a + 1)
        subsets.append(sorted(rng.choice(a, size, replace=False).tolist()))
    return subsets


# --------------------------------------------------------------------------
# the reference itself, by hand

def test_reference_by_hand():
    # 4 instances, 2 nominal attributes, classes 0 0 1 1 (P = 1/2 each)
    # R0=(0,0): hit 1=(0,1) (d 1), miss 2=(1,0) (d 1; lower index than 3)
    # R1=(0,1): hit 0, miss 3=(1,1) (d 1)
    # R2=(1,0): hit 3=(1,1), miss 0;  R3=(1,1): hit 2, miss 1
    # Every hit differs only in A1, every miss only in A0.
    X = [[0, 0], [0, 1], [1, 0], [1, 1]]
    y = [0, 0, 1, 1]
    d = [True, True]
    # S={A0}: hits min 0, misses max 1 -> W = 1/2 (eq. 2 prior P = 1/2)
    assert slow.rfsm(X, y, [0], d) == 0.5
    # S={A1}: hits 1, misses 0 -> -1;  S={A0,A1}: min 0, max 1 -> 1/2
    assert slow.rfsm(X, y, [1], d) == -1.0
    assert slow.rfsm(X, y, [0, 1], d) == 0.5
    # empty set: min over nothing = 1, max = 0
    assert slow.rfsm(X, y, [], d) == -1.0
    # ReliefF's prior normalisation P(C) / (1 - P(c_R)) = 1
    assert slow.rfsm(X, y, [0], d, priors="relieff") == 1.0
    for S in ([], [0], [1], [0, 1]):
        assert core.rfsm_value(X, y, S, d) == slow.rfsm(X, y, S, d)


# --------------------------------------------------------------------------
# core against the reference

CLASSIFICATION_CASES = [
    # (seed, n, a, missing, n_classes, options)
    (0, 16, 4, 0.0, 2, {}),
    (1, 18, 5, 0.0, 3, {"k_nearest": 3}),
    (2, 15, 5, 0.2, 2, {}),
    (3, 17, 6, 0.25, 3, {"k_nearest": 2}),
    (4, 16, 4, 0.15, 4, {"priors": "relieff"}),
    (5, 14, 5, 0.2, 3, {"n_iterations": 9, "random_state": 3}),
    (6, 16, 4, 0.0, 2, {"diff": "ramp", "t_eq": 0.1, "t_diff": 0.3}),
    (7, 16, 4, 0.2, 2, {"diff": "squared", "k_nearest": 4}),
]


@pytest.mark.parametrize("seed, n, a, missing, n_classes, options",
                         CLASSIFICATION_CASES)
def test_classification_matches_reference(seed, n, a, missing, n_classes,
                                          options):
    X, y, discrete = mixed_data(seed, n, a, missing, n_classes=n_classes)
    measures = on_each_engine(lambda: RFSM(X, y, discrete, **options))
    for S in some_subsets(a, np.random.default_rng(seed)):
        expected = slow.rfsm(X, y, S, discrete, **options)
        for engine, measure in measures.items():
            assert abs(measure.evaluate(S) - expected) < TOL, (S, engine)


REGRESSION_CASES = [
    (10, 16, 4, 0.0, {"k_nearest": 1}),
    (11, 18, 5, 0.2, {"k_nearest": 4}),
    (12, 15, 4, 0.0, {"k_nearest": 5, "weighting": "equal"}),
    (13, 16, 5, 0.25, {"k_nearest": 3, "sigma": 1.0}),
]


@pytest.mark.parametrize("seed, n, a, missing, options", REGRESSION_CASES)
def test_regression_matches_reference(seed, n, a, missing, options):
    X, y, discrete = mixed_data(seed, n, a, missing, task="regression")
    y[3] = np.nan  # rows with a missing target are dropped
    measures = on_each_engine(
        lambda: RFSM(X, y, discrete, task="regression", **options))
    for S in some_subsets(a, np.random.default_rng(seed)):
        expected = slow.rfsm(X, y, S, discrete, task="regression", **options)
        for engine, measure in measures.items():
            assert abs(measure.evaluate(S) - expected) < TOL, (S, engine)


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_neighbours_within_subset_matches_reference(task):
    X, y, discrete = mixed_data(20, 14, 4, task=task, grid=True)
    for engine in ENGINES:
        with forced(engine):
            measure = RFSM(X, y, discrete, task=task, neighbours="within",
                           k_nearest=2)
            assert not measure.monotone
            for S in some_subsets(4, np.random.default_rng(1), count=4):
                expected = slow.rfsm(X, y, S, discrete, task=task,
                                     neighbours="within", k_nearest=2)
                assert abs(measure.evaluate(S) - expected) < TOL, (S, engine)


# --------------------------------------------------------------------------
# incremental evaluation

@pytest.mark.parametrize("task", ["classification", "regression"])
def test_forward_and_backward_values_equal_evaluate(task):
    X, y, discrete = mixed_data(30, 40, 8, 0.1, task=task)
    measure = RFSM(X, y, discrete, task=task, k_nearest=2)
    rng = np.random.default_rng(0)
    for S in some_subsets(8, rng):
        rest = [c for c in range(8) if c not in S]
        forward = measure.forward_values(S, rest)
        scratch = RFSM(X, y, discrete, task=task, k_nearest=2)
        for c, value in zip(rest, forward):
            assert value == scratch.evaluate(S + [c])  # bit for bit
        if S:
            backward = measure.backward_values(S)
            for c, value in zip(S, backward):
                assert value == scratch.evaluate([b for b in S if b != c])


def test_greedy_search_equals_literal_greedy():
    X, y, discrete = mixed_data(31, 60, 10, 0.1, n_classes=3)
    measure = RFSM(X, y, discrete)
    result = core.greedy_forward(measure, continue_to_end=True)
    # literal greedy with evaluate() from scratch
    scratch = RFSM(X, y, discrete)
    subset, values = [], [scratch.evaluate([])]
    while len(subset) < 10:
        options = [(scratch.evaluate(subset + [c]), -c)
                   for c in range(10) if c not in subset]
        value, c = max(options)
        subset.append(-c)
        values.append(value)
    assert [s.attribute for s in result.trace[1:]] == subset
    assert [s.value for s in result.trace] == values
    stop = next(t for t in range(1, 11) if values[t] <= values[t - 1]) - 1
    assert result.selected == subset[:stop]
    assert result.value == values[stop]


def test_memory_of_the_precomputed_diffs():
    X, y, discrete = mixed_data(32, 50, 6, n_classes=3)
    measure = RFSM(X, y, discrete, k_nearest=2)
    # one hit class and two miss classes, 2 neighbours each, per reference
    assert measure.n_pairs == 50 * 3 * 2
    assert measure.nbytes == 8 * 6 * 50 * 3 * 2


# --------------------------------------------------------------------------
# monotonicity (section 4: S_i subset of S_j => W(S_i) <= W(S_j))

MONOTONE_SETTINGS = settings(
    max_examples=30, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def data_and_nested_sets(draw):
    seed = draw(st.integers(0, 10 ** 6))
    n = draw(st.integers(6, 20))
    a = draw(st.integers(1, 6))
    task = draw(st.sampled_from(["classification", "regression"]))
    missing = draw(st.sampled_from([0.0, 0.2]))
    X, y, discrete = mixed_data(seed, n, a, missing, task=task,
                                n_classes=draw(st.integers(2, 3)))
    big = draw(st.lists(st.integers(0, a - 1), unique=True, max_size=a))
    small = [A for A in big if draw(st.booleans())]
    k = draw(st.integers(1, 3))
    priors = draw(st.sampled_from(["eq2", "relieff"])) \
        if task == "classification" else "eq2"
    return X, y, discrete, task, small, big, k, priors


@MONOTONE_SETTINGS
@given(data_and_nested_sets())
def test_monotone(case):
    X, y, discrete, task, small, big, k, priors = case
    measure = RFSM(X, y, discrete, task=task, k_nearest=k, priors=priors)
    assert measure.evaluate(small) <= measure.evaluate(big) + 1e-12


# --------------------------------------------------------------------------
# Parity3+3: neighbours with all attributes vs within S

def parity3_3(n=128, seed=0):
    """x1..x3 random bits, x4..x6 copies, x7..x12 random; class = parity."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, 12)).astype(float)
    X[:, 3:6] = X[:, 0:3]
    y = (X[:, 0] + X[:, 1] + X[:, 2]) % 2
    return X, y, np.ones(12, bool)


def covers_parity(selected):
    return all({b, b + 3} & set(selected) for b in range(3))


def test_parity_needs_neighbours_from_all_attributes():
    X, y, discrete = parity3_3()
    everything = core.greedy_forward(RFSM(X, y, discrete))
    assert covers_parity(everything.selected)
    assert len(everything.selected) == 3
    within = core.greedy_forward(RFSM(X, y, discrete, neighbours="within"))
    # within a single relevant bit the nearest hit and miss agree on it:
    # every relevant set of fewer than three bits is worth 0 and the
    # search stops after one attribute
    assert len(within.selected) == 1
    assert within.value == 0.0
    for b in range(3):
        assert RFSM(X, y, discrete, neighbours="within").evaluate([b]) == 0
        assert RFSM(X, y, discrete).evaluate([b]) > 0


# --------------------------------------------------------------------------
# input errors

@pytest.mark.parametrize("task, options, message", [
    ("classification", dict(weighting="equal"),
     "weighting needs task='regression'"),
    ("classification", dict(sigma=2.0), "sigma needs task='regression'"),
    ("classification", dict(sigma="wide"), "sigma must be a number"),
    ("regression", dict(priors="relieff"),
     "priors needs task='classification'"),
    ("regression", dict(weighting="equal", sigma=2.0),
     "sigma needs weighting='exp_rank'")])
def test_options_of_the_other_task_are_refused(task, options, message):
    """The rank weighting is the numeric target's, the priors weigh the
    misses of classes: given to the other task, refused by name."""
    X, y, discrete = mixed_data(41, task=task)
    with pytest.raises(ReliefInputError, match=message):
        RFSM(X, y, discrete, task=task, **options)


def test_bad_input():
    X, y, discrete = mixed_data(40)
    with pytest.raises(ReliefInputError):
        RFSM(X, y, discrete, k_nearest=0)
    with pytest.raises(ReliefInputError):
        RFSM(X, y, discrete, neighbours="some")
    with pytest.raises(ReliefInputError):
        RFSM(X, y, discrete, priors="uniform")
    with pytest.raises(ReliefInputError):
        RFSM(X, np.zeros(len(y)), discrete)
    with pytest.raises(ReliefInputError):
        RFSM(X, y, discrete).evaluate([7])
    with pytest.raises(ReliefInputError):
        RFSM(X, np.ones(len(y)), discrete, task="regression")


def test_parallel_and_serial_kernels_agree():
    X, y, discrete = mixed_data(33, 60, 9, 0.1, n_classes=3)
    with forced(COMPILED):
        measure = RFSM(X, y, discrete, k_nearest=2)
    assert measure.kernels.forward_kernel is rfsm_kernels.forward_kernel
    S, rest = [0, 4, 5], [1, 2, 3, 6, 7, 8]
    serial = (measure.forward_values(S, rest), measure.backward_values(S))
    with every_call_parallel():
        parallel = (measure.forward_values(S, rest),
                    measure.backward_values(S))
    for a, b in zip(serial, parallel):
        assert a.tolist() == b.tolist()
